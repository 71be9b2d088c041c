/*
 * test-wire.c - the RoCEv2 and PFC codec (src/feroce/doc/rocev2-wire.md): the opcode
 * table, known frames, round trips of every opcode, truncated and random
 * input (heap buffers of exactly the length, so the ASan build catches any
 * over-read), encode errors and the small helpers.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core-tests.h"
#include "feroce-icrc.h"
#include "feroce-wire.h"

/* xorshift64*: deterministic, so a failure repeats */
static uint64_t rng_state = 0x2545f4914f6cdd1du;

static uint32_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545f4914f6cdd1du) >> 32);
}

static const uint8_t all_opcodes[] = {
    FEROCE_OP_SEND_FIRST,  FEROCE_OP_SEND_MIDDLE,
    FEROCE_OP_SEND_LAST,   FEROCE_OP_SEND_LAST_IMM,
    FEROCE_OP_SEND_ONLY,   FEROCE_OP_SEND_ONLY_IMM,
    FEROCE_OP_WRITE_FIRST, FEROCE_OP_WRITE_MIDDLE,
    FEROCE_OP_WRITE_LAST,  FEROCE_OP_WRITE_LAST_IMM,
    FEROCE_OP_WRITE_ONLY,  FEROCE_OP_WRITE_ONLY_IMM,
    FEROCE_OP_ACK,         FEROCE_OP_CNP,
};
#define N_OPCODES (sizeof all_opcodes / sizeof all_opcodes[0])

static int has_payload(uint8_t op)
{
    return (feroce_opcode_flags(op) & FEROCE_OPF_PAYLOAD) != 0;
}

static int is_only(uint8_t op)
{
    return (feroce_opcode_flags(op) & FEROCE_OPF_ONLY) == FEROCE_OPF_ONLY;
}

/* hex string to bytes; returns the count */
static size_t hex(const char *s, uint8_t *out, size_t cap)
{
    size_t n = 0;
    unsigned v;

    while (s[0] && s[1] && n < cap && sscanf(s, "%2x", &v) == 1) {
        out[n++] = (uint8_t)v;
        s += 2;
    }
    return n;
}

/* random values for every field the opcode carries, the rest as feroce_roce_init leaves them */
static void random_roce(struct feroce_roce *f, uint8_t op, int vlan, uint32_t payload_len)
{
    unsigned flags = feroce_opcode_flags(op);
    int i;

    feroce_roce_init(f, op);
    for (i = 0; i < 6; i++) {
        f->eth.dst[i] = (uint8_t)rnd();
        f->eth.src[i] = (uint8_t)rnd();
    }
    if (vlan) {
        f->eth.vlan = 1;
        f->eth.pcp = rnd() % 8;
        f->eth.dei = rnd() % 2;
        f->eth.vid = rnd() % 4096;
    }
    f->ip.dscp = rnd() % 64;
    f->ip.ecn = rnd() % 4;
    f->ip.id = (uint16_t)rnd();
    f->ip.df = rnd() % 2;
    f->ip.ttl = (uint8_t)rnd();
    f->ip.src = rnd();
    f->ip.dst = rnd();
    f->udp.sport = (uint16_t)rnd();
    f->udp.checksum = (uint16_t)rnd();
    f->bth.se = rnd() % 2;
    f->bth.migreq = rnd() % 2;
    f->bth.pkey = (uint16_t)rnd();
    f->bth.fecn = rnd() % 2;
    f->bth.becn = rnd() % 2;
    f->bth.destqp = rnd() & FEROCE_PSN_MASK;
    f->bth.ackreq = rnd() % 2;
    f->bth.psn = rnd() & FEROCE_PSN_MASK;
    if (flags & FEROCE_OPF_RETH) {
        f->reth.va = (uint64_t)rnd() << 32 | rnd();
        f->reth.rkey = rnd();
        f->reth.dmalen = rnd();
    }
    if (flags & FEROCE_OPF_AETH) {
        f->aeth.syndrome = (uint8_t)rnd();
        f->aeth.msn = rnd() & FEROCE_PSN_MASK;
    }
    if (flags & FEROCE_OPF_IMMDT)
        f->immdt = rnd();
    f->payload_len = flags & FEROCE_OPF_PAYLOAD ? payload_len : 0;
    feroce_roce_set_lengths(f);
}

/*
 * A whole frame: headers, random payload, zero pad, ICRC and `extra` bytes
 * of Ethernet padding (at least up to the 60-byte minimum).  Returns the
 * frame length, 0 when encode fails (a check reports it).
 */
static size_t build_frame(struct feroce_roce *f, uint8_t *buf, size_t cap, size_t extra)
{
    size_t off = f->eth.vlan ? 18 : 14, hlen = feroce_roce_header_len(f), end, len, i;
    unsigned pad = feroce_roce_pad(f->payload_len);

    CHECK_EQ(feroce_roce_encode(f, buf, cap), FEROCE_WIRE_OK);
    end = hlen + f->payload_len + pad + FEROCE_ICRC_LEN;
    len = end + extra < FEROCE_MIN_FRAME_LEN ? FEROCE_MIN_FRAME_LEN : end + extra;
    if (len > cap)
        return 0;
    for (i = hlen; i < hlen + f->payload_len; i++)
        buf[i] = (uint8_t)rnd();
    memset(buf + hlen + f->payload_len, 0, pad);
    feroce_icrc_put(buf + end - 4, feroce_icrc(buf + off, end - 4 - off));
    memset(buf + end, 0, len - end);
    return len;
}

/* NULL when equal, else the first field that differs */
static const char *roce_diff(const struct feroce_roce *a, const struct feroce_roce *b)
{
#define FIELD(x)                                                                                             \
    if (a->x != b->x)                                                                                        \
    return #x
    if (memcmp(a->eth.dst, b->eth.dst, 6) != 0)
        return "eth.dst";
    if (memcmp(a->eth.src, b->eth.src, 6) != 0)
        return "eth.src";
    FIELD(eth.vlan);
    FIELD(eth.pcp);
    FIELD(eth.dei);
    FIELD(eth.vid);
    FIELD(eth.type);
    FIELD(ip.dscp);
    FIELD(ip.ecn);
    FIELD(ip.total_len);
    FIELD(ip.id);
    FIELD(ip.df);
    FIELD(ip.ttl);
    FIELD(ip.proto);
    FIELD(ip.checksum);
    FIELD(ip.src);
    FIELD(ip.dst);
    FIELD(udp.sport);
    FIELD(udp.dport);
    FIELD(udp.len);
    FIELD(udp.checksum);
    FIELD(bth.opcode);
    FIELD(bth.se);
    FIELD(bth.migreq);
    FIELD(bth.padcnt);
    FIELD(bth.tver);
    FIELD(bth.pkey);
    FIELD(bth.fecn);
    FIELD(bth.becn);
    FIELD(bth.destqp);
    FIELD(bth.ackreq);
    FIELD(bth.psn);
    FIELD(reth.va);
    FIELD(reth.rkey);
    FIELD(reth.dmalen);
    FIELD(aeth.syndrome);
    FIELD(aeth.msn);
    FIELD(immdt);
    FIELD(payload_len);
#undef FIELD
    return NULL;
}

#define CHECK_SAME(a, b)                                                                                     \
    do {                                                                                                     \
        const char *d_ = roce_diff((a), (b));                                                                \
        if (!d_)                                                                                             \
            check_passed++;                                                                                  \
        else                                                                                                 \
            check_report(__FILE__, __LINE__, "decoded field %s differs (opcode 0x%02x)", d_,                 \
                         (unsigned)(a)->bth.opcode);                                                         \
    } while (0)

/*
 * Header bytes a decode-encode round trip may change: the IPv4 checksum
 * (encode computes it) and the reserved bits decode ignores (IPv4 flag bit 0,
 * BTH resv6 and resv7, the CNP's 16 bytes).  ignore[i] has the bits of byte i.
 */
static void ignored_bits(uint8_t *ignore, size_t hlen, size_t off, uint8_t opcode)
{
    memset(ignore, 0, hlen);
    ignore[off + 6] = 0x80;
    ignore[off + 10] = ignore[off + 11] = 0xff;
    ignore[off + 32] = 0x3f;
    ignore[off + 36] = 0x7f;
    if (opcode == FEROCE_OP_CNP)
        memset(ignore + off + 40, 0xff, FEROCE_CNP_LEN);
}

void test_wire_opcodes(void)
{
    size_t i;
    int op, n = 0;

    CHECK_EQ(feroce_opcode_flags(FEROCE_OP_SEND_FIRST),
             FEROCE_OPF_SEND | FEROCE_OPF_PAYLOAD | FEROCE_OPF_FIRST);
    CHECK_EQ(feroce_opcode_flags(FEROCE_OP_SEND_MIDDLE),
             FEROCE_OPF_SEND | FEROCE_OPF_PAYLOAD | FEROCE_OPF_MIDDLE);
    CHECK_EQ(feroce_opcode_flags(FEROCE_OP_SEND_LAST),
             FEROCE_OPF_SEND | FEROCE_OPF_PAYLOAD | FEROCE_OPF_LAST);
    CHECK_EQ(feroce_opcode_flags(FEROCE_OP_SEND_LAST_IMM),
             FEROCE_OPF_SEND | FEROCE_OPF_PAYLOAD | FEROCE_OPF_LAST | FEROCE_OPF_IMMDT);
    CHECK_EQ(feroce_opcode_flags(FEROCE_OP_SEND_ONLY),
             FEROCE_OPF_SEND | FEROCE_OPF_PAYLOAD | FEROCE_OPF_ONLY);
    CHECK_EQ(feroce_opcode_flags(FEROCE_OP_SEND_ONLY_IMM),
             FEROCE_OPF_SEND | FEROCE_OPF_PAYLOAD | FEROCE_OPF_ONLY | FEROCE_OPF_IMMDT);
    CHECK_EQ(feroce_opcode_flags(FEROCE_OP_WRITE_FIRST),
             FEROCE_OPF_WRITE | FEROCE_OPF_PAYLOAD | FEROCE_OPF_FIRST | FEROCE_OPF_RETH);
    CHECK_EQ(feroce_opcode_flags(FEROCE_OP_WRITE_MIDDLE),
             FEROCE_OPF_WRITE | FEROCE_OPF_PAYLOAD | FEROCE_OPF_MIDDLE);
    CHECK_EQ(feroce_opcode_flags(FEROCE_OP_WRITE_LAST),
             FEROCE_OPF_WRITE | FEROCE_OPF_PAYLOAD | FEROCE_OPF_LAST);
    CHECK_EQ(feroce_opcode_flags(FEROCE_OP_WRITE_LAST_IMM),
             FEROCE_OPF_WRITE | FEROCE_OPF_PAYLOAD | FEROCE_OPF_LAST | FEROCE_OPF_IMMDT);
    CHECK_EQ(feroce_opcode_flags(FEROCE_OP_WRITE_ONLY),
             FEROCE_OPF_WRITE | FEROCE_OPF_PAYLOAD | FEROCE_OPF_ONLY | FEROCE_OPF_RETH);
    CHECK_EQ(feroce_opcode_flags(FEROCE_OP_WRITE_ONLY_IMM),
             FEROCE_OPF_WRITE | FEROCE_OPF_PAYLOAD | FEROCE_OPF_ONLY | FEROCE_OPF_RETH | FEROCE_OPF_IMMDT);
    CHECK_EQ(feroce_opcode_flags(FEROCE_OP_ACK), FEROCE_OPF_AETH);
    CHECK_EQ(feroce_opcode_flags(FEROCE_OP_CNP), FEROCE_OPF_CNP);
    /* exactly the spec's 14 opcodes: not UC (0x24), UD, READ or ATOMIC */
    for (op = 0; op < 256; op++)
        if (feroce_opcode_flags((uint8_t)op)) {
            n++;
            CHECK(strcmp(feroce_opcode_name((uint8_t)op), "unknown") != 0);
        } else {
            CHECK(strcmp(feroce_opcode_name((uint8_t)op), "unknown") == 0);
        }
    CHECK_EQ(n, 14);
    CHECK(strcmp(feroce_opcode_name(FEROCE_OP_WRITE_FIRST), "RDMA WRITE First") == 0);
    CHECK(strcmp(feroce_opcode_name(FEROCE_OP_CNP), "CNP") == 0);

    /* feroce_opcode_for: (write, first, last, imm) */
    CHECK_EQ(feroce_opcode_for(0, 1, 0, 0), FEROCE_OP_SEND_FIRST);
    CHECK_EQ(feroce_opcode_for(0, 1, 0, 1), FEROCE_OP_SEND_FIRST); /* imm only on the last packet */
    CHECK_EQ(feroce_opcode_for(0, 0, 0, 1), FEROCE_OP_SEND_MIDDLE);
    CHECK_EQ(feroce_opcode_for(0, 0, 1, 0), FEROCE_OP_SEND_LAST);
    CHECK_EQ(feroce_opcode_for(0, 0, 1, 1), FEROCE_OP_SEND_LAST_IMM);
    CHECK_EQ(feroce_opcode_for(0, 1, 1, 0), FEROCE_OP_SEND_ONLY);
    CHECK_EQ(feroce_opcode_for(0, 1, 1, 1), FEROCE_OP_SEND_ONLY_IMM);
    CHECK_EQ(feroce_opcode_for(1, 1, 0, 1), FEROCE_OP_WRITE_FIRST);
    CHECK_EQ(feroce_opcode_for(1, 0, 0, 0), FEROCE_OP_WRITE_MIDDLE);
    CHECK_EQ(feroce_opcode_for(1, 0, 1, 0), FEROCE_OP_WRITE_LAST);
    CHECK_EQ(feroce_opcode_for(1, 0, 1, 1), FEROCE_OP_WRITE_LAST_IMM);
    CHECK_EQ(feroce_opcode_for(1, 1, 1, 0), FEROCE_OP_WRITE_ONLY);
    CHECK_EQ(feroce_opcode_for(1, 1, 1, 1), FEROCE_OP_WRITE_ONLY_IMM);
    CHECK_EQ(feroce_opcode_for(7, 2, 3, 4), FEROCE_OP_WRITE_ONLY_IMM); /* any non-zero is true */
    /* and the flags agree with the arguments: RETH only on WRITE First/Only, ImmDt only on Last/Only */
    for (i = 0; i < 16; i++) {
        int w = i & 1, first = i >> 1 & 1, last = i >> 2 & 1, imm = i >> 3 & 1;
        unsigned fl = feroce_opcode_flags(feroce_opcode_for(w, first, last, imm));

        CHECK_EQ(!!(fl & FEROCE_OPF_WRITE), w);
        CHECK_EQ(!!(fl & FEROCE_OPF_SEND), !w);
        CHECK_EQ(!!(fl & FEROCE_OPF_FIRST), first);
        CHECK_EQ(!!(fl & FEROCE_OPF_LAST), last);
        CHECK_EQ(!!(fl & FEROCE_OPF_MIDDLE), !first && !last);
        CHECK_EQ(!!(fl & FEROCE_OPF_RETH), w && first);
        CHECK_EQ(!!(fl & FEROCE_OPF_IMMDT), last && imm);
    }
}

/* the two captured frames of icrc.txt built from their fields: byte for byte */
void test_wire_known_frames(void)
{
    static const char cnp_hex[] =
        "e41d2dab2bc27cfe90643b32080045c2003c718c4000401191610a0011010a001201000012b7002800008100ffff40000118"
        "000000000000000000000000000000000000000082fd002a";
    static const char ack_hex[] =
        "02000000000a02000000000b0800456a0030000540004011264c0a0000020a000001c12312b7"
        "001c00001100ffff00000022000000671f00000296a4e55f";
    static const char uc_hex[] = "248a07a8fa22248a07a8fa22080045010040047840004011b4d5c0a80007c0a80007c00012b"
                                 "7002caca22460ffff000000d300"
                                 "cf17104630818be28935d90e9a95505401be885e50000078f353f3";
    uint8_t want[128], buf[128];
    struct feroce_roce f, d;
    size_t n, hlen = 0;

    /* V1: the ConnectX-4 Lx CNP */
    n = hex(cnp_hex, want, sizeof want);
    CHECK_EQ(n, 74);
    feroce_roce_init(&f, FEROCE_OP_CNP);
    memcpy(f.eth.dst, want, 6);
    memcpy(f.eth.src, want + 6, 6);
    f.ip.dscp = 48;
    f.ip.id = 0x718c;
    f.ip.src = 0x0a001101;
    f.ip.dst = 0x0a001201;
    f.udp.sport = 0;
    f.bth.destqp = 0x000118;
    CHECK_EQ(f.bth.becn, 1);
    CHECK_EQ(f.ip.total_len, 60);
    CHECK_EQ(feroce_roce_frame_len(&f), 74);
    CHECK_EQ(build_frame(&f, buf, sizeof buf, 0), 74);
    CHECK(memcmp(buf, want, 74) == 0);
    CHECK_EQ(feroce_roce_decode(&d, want, n, n, &hlen), FEROCE_WIRE_OK);
    CHECK_EQ(hlen, 70);
    CHECK_SAME(&f, &d);

    /* V5: an RC ACK */
    n = hex(ack_hex, want, sizeof want);
    CHECK_EQ(n, 62);
    feroce_roce_init(&f, FEROCE_OP_ACK);
    memcpy(f.eth.dst, want, 6);
    memcpy(f.eth.src, want + 6, 6);
    f.ip.dscp = 26;
    f.ip.id = 5;
    f.ip.src = 0x0a000002;
    f.ip.dst = 0x0a000001;
    f.udp.sport = 0xc123;
    f.bth.destqp = 0x22;
    f.bth.psn = 0x67;
    f.aeth.syndrome = FEROCE_AETH_ACK(FEROCE_AETH_CREDITS_NONE);
    f.aeth.msn = 2;
    CHECK_EQ(feroce_roce_frame_len(&f), 62);
    CHECK_EQ(build_frame(&f, buf, sizeof buf, 0), 62);
    CHECK(memcmp(buf, want, 62) == 0);
    CHECK_EQ(feroce_roce_decode(&d, want, n, n, &hlen), FEROCE_WIRE_OK);
    CHECK_EQ(hlen, 58);
    CHECK_SAME(&f, &d);
    CHECK_EQ(FEROCE_AETH_KIND(d.aeth.syndrome), 0);
    CHECK_EQ(FEROCE_AETH_VALUE(d.aeth.syndrome), 0x1f);

    /* V2: UC SEND Only (0x24) has a good ICRC but is not in feroce's table */
    n = hex(uc_hex, want, sizeof want);
    CHECK_EQ(feroce_roce_decode(&d, want, n, n, NULL), FEROCE_WIRE_UNKNOWN_OPCODE);
    CHECK_EQ(feroce_frame_classify(want, n), FEROCE_FRAME_ROCE);
    CHECK_EQ(feroce_icrc_check(want, n, NULL, NULL), 1);
}

static void round_trip(uint8_t op, int vlan, uint32_t payload_len, size_t extra)
{
    struct feroce_roce f, d;
    size_t cap = FEROCE_ROCE_HDR_MAX + payload_len + 3 + FEROCE_ICRC_LEN + extra + FEROCE_MIN_FRAME_LEN;
    uint8_t *buf = malloc(cap), *again, *frame;
    size_t len, hlen = 0, hlen2 = 0, off = vlan ? 18 : 14;
    uint32_t computed = 0, found = 0;

    CHECK(buf != NULL);
    if (!buf)
        return;
    random_roce(&f, op, vlan, payload_len);
    len = build_frame(&f, buf, cap, extra);
    CHECK(len >= feroce_roce_frame_len(&f));
    if (extra == 0)
        CHECK_EQ(len, feroce_roce_frame_len(&f));
    /* an exact-size copy: any read past the end is an ASan error */
    frame = malloc(len);
    again = malloc(FEROCE_ROCE_HDR_MAX);
    if (!frame || !again) {
        free(buf);
        free(frame);
        free(again);
        return;
    }
    memcpy(frame, buf, len);
    CHECK_EQ(feroce_ipv4_checksum(frame + off), 0);
    CHECK_EQ(feroce_ipv4_offset(frame, len), off);
    CHECK_EQ(feroce_frame_classify(frame, len), FEROCE_FRAME_ROCE);
    CHECK_EQ(feroce_roce_decode(&d, frame, len, len, &hlen), FEROCE_WIRE_OK);
    CHECK_EQ(hlen, feroce_roce_header_len(&f));
    CHECK_SAME(&f, &d);
    CHECK_EQ(feroce_roce_encode(&d, again, FEROCE_ROCE_HDR_MAX), FEROCE_WIRE_OK);
    CHECK(memcmp(again, frame, hlen) == 0);
    CHECK_EQ(feroce_icrc_check(frame, len, &computed, &found), 1);
    /* the headers alone are enough: avail = hlen, the frame still frame_len long */
    CHECK_EQ(feroce_roce_decode(&d, frame, hlen, len, &hlen2), FEROCE_WIRE_OK);
    CHECK_EQ(hlen2, hlen);
    CHECK_SAME(&f, &d);
    /* ICRC in parts with the payload as zeros, as the simulator does: zero the payload and compare */
    memset(frame + hlen, 0, payload_len);
    CHECK_EQ(feroce_crc32_zeros(feroce_icrc_begin(frame + off, hlen - off),
                                payload_len + feroce_roce_pad(payload_len)),
             feroce_icrc(frame + off, hlen - off + payload_len + feroce_roce_pad(payload_len)));
    free(buf);
    free(frame);
    free(again);
}

/* the largest payload whose IPv4 total length fits 16 bits */
static uint32_t max_payload(uint8_t op)
{
    struct feroce_roce f;

    feroce_roce_init(&f, op);
    return (65535u - f.ip.total_len) & ~3u;
}

void test_wire_round_trip(void)
{
    static const uint32_t lens[] = {
        0, 1, 2, 3, 4, 5, 7, 8, 255, 256, 257, 1023, 1024, 2048, 4095, 4096, 9000
    };
    size_t i, j;
    int vlan;

    for (i = 0; i < N_OPCODES; i++)
        for (vlan = 0; vlan < 2; vlan++) {
            uint8_t op = all_opcodes[i];

            if (!has_payload(op)) {
                round_trip(op, vlan, 0, 0);
                round_trip(op, vlan, 0, 7);
                continue;
            }
            for (j = 0; j < sizeof lens / sizeof lens[0]; j++)
                if (lens[j] > 0 || is_only(op))
                    round_trip(op, vlan, lens[j], j % 3 == 0 ? 5 : 0);
            /* the largest payloads 16-bit lengths allow, without and with pad */
            round_trip(op, vlan, max_payload(op), 0);
            round_trip(op, vlan, max_payload(op) - 3, 0);
        }
    /* random payload sizes */
    for (i = 0; i < 300; i++) {
        uint8_t op = all_opcodes[rnd() % N_OPCODES];
        uint32_t n = has_payload(op) ? rnd() % 5000 + (is_only(op) ? 0 : 1) : 0;

        round_trip(op, rnd() % 2, n, rnd() % 2 ? rnd() % 64 : 0);
    }
}

/* frames with Ethernet padding after the ICRC decode; the padding is not payload */
void test_wire_padded_frames(void)
{
    struct feroce_roce f, d;
    uint8_t buf[256];
    size_t len, hlen;

    /* the shortest frames are 62 bytes (ACK, SEND Only of 1 to 4 bytes): no padding needed */
    feroce_roce_init(&f, FEROCE_OP_ACK);
    CHECK_EQ(feroce_roce_frame_len(&f), 62);
    feroce_roce_init(&f, FEROCE_OP_SEND_ONLY);
    CHECK_EQ(feroce_roce_frame_len(&f), 60); /* 0-byte SEND Only: 14+20+8+12+4 = 58, padded */
    f.payload_len = 1;
    CHECK_EQ(feroce_roce_frame_len(&f), 62);

    /* a 0-byte SEND Only is 58 bytes, padded to 60 */
    feroce_roce_init(&f, FEROCE_OP_SEND_ONLY);
    len = build_frame(&f, buf, sizeof buf, 0);
    CHECK_EQ(len, 60);
    CHECK_EQ(feroce_roce_decode(&d, buf, len, len, &hlen), FEROCE_WIRE_OK);
    CHECK_EQ(d.payload_len, 0);
    CHECK_EQ(feroce_icrc_check(buf, len, NULL, NULL), 1);
    CHECK_EQ(feroce_roce_decode(&d, buf, 58, 58, &hlen), FEROCE_WIRE_OK);
    CHECK(feroce_roce_decode(&d, buf, 57, 57, &hlen) != FEROCE_WIRE_OK);

    /* any trailer after the IPv4 packet is allowed, never a shortfall */
    feroce_roce_init(&f, FEROCE_OP_CNP);
    len = build_frame(&f, buf, sizeof buf, 30);
    CHECK_EQ(len, 104);
    CHECK_EQ(feroce_roce_decode(&d, buf, len, len, &hlen), FEROCE_WIRE_OK);
    CHECK_EQ(d.payload_len, 0);
    CHECK_EQ(feroce_icrc_check(buf, len, NULL, NULL), 1);
    CHECK_EQ(feroce_roce_decode(&d, buf, 73, 73, &hlen), FEROCE_WIRE_BAD_IP_LENGTH);

    /* a tagged 0-byte SEND Only is 62 bytes: no padding */
    feroce_roce_init(&f, FEROCE_OP_SEND_ONLY);
    f.eth.vlan = 1;
    f.eth.pcp = 3;
    CHECK_EQ(feroce_roce_frame_len(&f), 62);
    CHECK_EQ(feroce_wire_bytes(58), 84);
    CHECK_EQ(feroce_wire_bytes(1078), 1102);
}

void test_pfc_round_trip(void)
{
    struct feroce_pfc p, d;
    uint8_t buf[FEROCE_PFC_FRAME_LEN], *exact;
    static const uint8_t head[] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00,
                                    0x00, 0x01, 0x88, 0x08, 0x01, 0x01, 0x00, 0x81, 0xff, 0xff };
    uint8_t want[64];
    int i, k;

    memset(&p, 0, sizeof p);
    p.src[0] = 2;
    p.src[5] = 1;
    p.enable = 0x81;
    p.quanta[0] = 0xffff;
    p.quanta[7] = 1;
    CHECK_EQ(feroce_pfc_encode(&p, buf, sizeof buf), FEROCE_WIRE_OK);
    /* to 01:80:c2:00:00:01, MAC control, PFC, enable 0x0081, c0 0xffff, c1..c6 0, c7 1, zeros */
    memset(want, 0, sizeof want);
    memcpy(want, head, sizeof head);
    want[18 + 2 * 7 + 1] = 1;
    CHECK(memcmp(buf, want, 60) == 0);
    CHECK_EQ(feroce_frame_classify(buf, 60), FEROCE_FRAME_PFC);

    for (k = 0; k < 1000; k++) {
        memset(&p, 0, sizeof p);
        for (i = 0; i < 6; i++)
            p.src[i] = (uint8_t)rnd();
        p.enable = (uint8_t)rnd();
        for (i = 0; i < 8; i++)
            p.quanta[i] = (uint16_t)rnd();
        exact = malloc(FEROCE_PFC_FRAME_LEN);
        if (!exact)
            return;
        CHECK_EQ(feroce_pfc_encode(&p, exact, FEROCE_PFC_FRAME_LEN), FEROCE_WIRE_OK);
        CHECK_EQ(feroce_pfc_decode(&d, exact, FEROCE_PFC_FRAME_LEN), FEROCE_WIRE_OK);
        CHECK(memcmp(&p, &d, sizeof p) == 0);
        CHECK_EQ(feroce_pfc_encode(&d, buf, sizeof buf), FEROCE_WIRE_OK);
        CHECK(memcmp(buf, exact, 60) == 0);
        free(exact);
    }

    /* truncation, other MAC control frames, small buffers */
    for (i = 0; i < FEROCE_PFC_FRAME_LEN; i++) {
        exact = malloc((size_t)i + 1);
        if (!exact)
            return;
        memcpy(exact, buf, (size_t)i);
        CHECK_EQ(feroce_pfc_decode(&d, exact, (size_t)i), FEROCE_WIRE_TRUNCATED);
        memset(exact, 0x5a, (size_t)i + 1);
        CHECK_EQ(feroce_pfc_encode(&p, exact, (size_t)i), FEROCE_WIRE_NO_SPACE);
        CHECK_EQ(exact[i], 0x5a);
        free(exact);
    }
    memcpy(want, buf, 60);
    want[15] = 0x01; /* 802.3x PAUSE, opcode 0x0001 */
    want[14] = 0x00;
    CHECK_EQ(feroce_pfc_decode(&d, want, 60), FEROCE_WIRE_NOT_PFC);
    memcpy(want, buf, 60);
    want[5] = 0x02;
    CHECK_EQ(feroce_pfc_decode(&d, want, 60), FEROCE_WIRE_NOT_PFC);
    memcpy(want, buf, 60);
    want[12] = 0x08;
    want[13] = 0x00;
    CHECK_EQ(feroce_pfc_decode(&d, want, 60), FEROCE_WIRE_NOT_PFC);
    CHECK_EQ(feroce_frame_classify(want, 60), FEROCE_FRAME_OTHER);
    /* reserved: the upper class-enable byte and the padding are ignored */
    memcpy(want, buf, 60);
    want[16] = 0xff;
    want[59] = 0xff;
    CHECK_EQ(feroce_pfc_decode(&d, want, 60), FEROCE_WIRE_OK);
    CHECK(memcmp(&p, &d, sizeof p) == 0);
    /* a longer buffer is fine */
    memset(want, 0, sizeof want);
    memcpy(want, buf, 60);
    CHECK_EQ(feroce_pfc_decode(&d, want, 64), FEROCE_WIRE_OK);
}

/* 802.3x PAUSE (802.3 Annex 31B): the bytes, a round trip, truncation and PFC kept apart */
void test_link_pause_round_trip(void)
{
    static const uint8_t head[] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00,
                                    0x00, 0x00, 0x07, 0x88, 0x08, 0x00, 0x01, 0xff, 0xfe };
    struct feroce_link_pause p, d;
    struct feroce_pfc pfc;
    uint8_t buf[FEROCE_PFC_FRAME_LEN], want[64];
    size_t i;

    memset(&p, 0, sizeof p);
    p.src[0] = 2;
    p.src[5] = 7;
    p.quanta = 0xfffe;
    CHECK_EQ(feroce_link_pause_encode(&p, buf, sizeof buf), FEROCE_WIRE_OK);
    memset(want, 0, sizeof want);
    memcpy(want, head, sizeof head);
    CHECK(memcmp(buf, want, 60) == 0);
    CHECK_EQ(feroce_frame_classify(buf, 60), FEROCE_FRAME_LINK_PAUSE);
    CHECK_EQ(feroce_link_pause_decode(&d, buf, 60), FEROCE_WIRE_OK);
    CHECK(memcmp(&p, &d, sizeof p) == 0);
    /* a PFC decoder refuses it, and the PAUSE decoder refuses PFC */
    CHECK_EQ(feroce_pfc_decode(&pfc, buf, 60), FEROCE_WIRE_NOT_PFC);
    memset(&pfc, 0, sizeof pfc);
    pfc.enable = 1;
    CHECK_EQ(feroce_pfc_encode(&pfc, want, sizeof want), FEROCE_WIRE_OK);
    CHECK_EQ(feroce_link_pause_decode(&d, want, 60), FEROCE_WIRE_NOT_LINK_PAUSE);
    /* another destination or EtherType */
    memcpy(want, buf, 60);
    want[0] = 0x00;
    CHECK_EQ(feroce_link_pause_decode(&d, want, 60), FEROCE_WIRE_NOT_LINK_PAUSE);
    memcpy(want, buf, 60);
    want[13] = 0x09;
    CHECK_EQ(feroce_link_pause_decode(&d, want, 60), FEROCE_WIRE_NOT_LINK_PAUSE);
    CHECK_EQ(feroce_frame_classify(want, 60), FEROCE_FRAME_OTHER);
    /* reserved bytes are ignored; cut short it is truncated; a small buffer is refused */
    memcpy(want, buf, 60);
    want[40] = 0xaa;
    CHECK_EQ(feroce_link_pause_decode(&d, want, 60), FEROCE_WIRE_OK);
    CHECK_EQ(d.quanta, 0xfffe);
    for (i = 16; i < FEROCE_PFC_FRAME_LEN; i++)
        CHECK_EQ(feroce_link_pause_decode(&d, buf, i), FEROCE_WIRE_TRUNCATED);
    CHECK_EQ(feroce_link_pause_encode(&p, want, 59), FEROCE_WIRE_NO_SPACE);
    CHECK(strcmp(feroce_wire_err_name(FEROCE_WIRE_NOT_LINK_PAUSE), "FEROCE_WIRE_NOT_LINK_PAUSE") == 0);
}

/* every valid frame cut short is refused, whatever is cut */
void test_wire_truncation(void)
{
    static const uint32_t lens[] = { 0, 1, 3, 4, 100 };
    struct feroce_roce f, d;
    uint8_t buf[256];
    size_t i, j, len, n, hlen;
    int vlan, bad = 0, bad_avail = 0, tried = 0;

    for (i = 0; i < N_OPCODES; i++)
        for (vlan = 0; vlan < 2; vlan++)
            for (j = 0; j < sizeof lens / sizeof lens[0]; j++) {
                uint8_t op = all_opcodes[i];
                size_t end;

                if ((!has_payload(op) && lens[j] > 0) || (lens[j] == 0 && has_payload(op) && !is_only(op)))
                    continue;
                random_roce(&f, op, vlan, lens[j]);
                len = build_frame(&f, buf, sizeof buf, 0);
                hlen = feroce_roce_header_len(&f);
                end = hlen + lens[j] + feroce_roce_pad(lens[j]) + FEROCE_ICRC_LEN;
                for (n = 0; n < end; n++) {
                    uint8_t *cut = malloc(n ? n : 1);

                    if (!cut)
                        return;
                    memcpy(cut, buf, n);
                    tried++;
                    if (feroce_roce_decode(&d, cut, n, n, NULL) == FEROCE_WIRE_OK)
                        bad++;
                    /* fewer bytes at hand than the headers, of a frame of the full length */
                    if (n < hlen && feroce_roce_decode(&d, cut, n, len, NULL) != FEROCE_WIRE_TRUNCATED)
                        bad_avail++;
                    if (n >= hlen && feroce_roce_decode(&d, cut, n, len, NULL) != FEROCE_WIRE_OK)
                        bad_avail++;
                    free(cut);
                }
            }
    CHECK(tried > 1000);
    CHECK_EQ(bad, 0);
    CHECK_EQ(bad_avail, 0);
}

/*
 * Decode what it accepts into a struct that re-encodes to the same header
 * bytes (but for the ignored bits), with a valid IPv4 checksum; returns 1
 * when accepted.
 */
static int decode_and_compare(const uint8_t *frame, size_t avail, size_t frame_len, int *mismatch)
{
    struct feroce_roce d;
    uint8_t again[FEROCE_ROCE_HDR_MAX], ignore[FEROCE_ROCE_HDR_MAX];
    size_t hlen = 0, i, off;

    if (feroce_roce_decode(&d, frame, avail, frame_len, &hlen) != FEROCE_WIRE_OK)
        return 0;
    off = d.eth.vlan ? 18 : 14;
    if (hlen > avail || hlen != feroce_roce_header_len(&d) || off + d.ip.total_len > frame_len ||
        feroce_roce_encode(&d, again, sizeof again) != FEROCE_WIRE_OK ||
        feroce_ipv4_checksum(again + off) != 0) {
        (*mismatch)++;
        return 1;
    }
    ignored_bits(ignore, hlen, off, d.bth.opcode);
    for (i = 0; i < hlen; i++)
        if ((again[i] ^ frame[i]) & ~ignore[i]) {
            (*mismatch)++;
            break;
        }
    if (avail == frame_len && feroce_icrc_check(frame, frame_len, NULL, NULL) < 0)
        (*mismatch)++;
    return 1;
}

void test_wire_random_input(void)
{
    struct feroce_roce f;
    uint8_t valid[64][160], *buf;
    size_t valid_len[64];
    int i, nvalid = 0, accepted = 0, mutated_ok = 0, mismatch = 0;

    for (i = 0; i < 64; i++) {
        uint8_t op = all_opcodes[i % N_OPCODES];

        random_roce(&f, op, i % 3 == 0, has_payload(op) ? (uint32_t)(rnd() % 60 + 1) : 0);
        valid_len[nvalid] = build_frame(&f, valid[nvalid], sizeof valid[0], rnd() % 4 == 0 ? rnd() % 8 : 0);
        if (valid_len[nvalid])
            nvalid++;
    }
    CHECK_EQ(nvalid, 64);

    /* random bytes of random lengths; half with a RoCEv2-looking start so decode gets further */
    for (i = 0; i < 100000; i++) {
        size_t len = rnd() % 200, avail = len, k;
        size_t frame_len = rnd() % 4 == 0 ? len + rnd() % 100 : len;

        buf = malloc(len ? len : 1);
        if (!buf)
            return;
        for (k = 0; k < len; k++)
            buf[k] = (uint8_t)rnd();
        if (i % 2) {
            const uint8_t *v = valid[rnd() % nvalid];
            size_t keep = rnd() % 60;

            memcpy(buf, v, keep < len ? keep : len);
        }
        accepted += decode_and_compare(buf, avail, frame_len, &mismatch);
        (void)feroce_frame_classify(buf, len);
        (void)feroce_icrc_check(buf, len, NULL, NULL);
        {
            struct feroce_pfc p;

            (void)feroce_pfc_decode(&p, buf, len);
        }
        free(buf);
    }

    /* valid frames with one byte changed, some also cut short */
    for (i = 0; i < 100000; i++) {
        int v = (int)(rnd() % nvalid);
        size_t len = valid_len[v], at = rnd() % len;

        if (rnd() % 8 == 0)
            len = at + 1 + rnd() % (len - at);
        buf = malloc(len);
        if (!buf)
            return;
        memcpy(buf, valid[v], len);
        buf[at] = (uint8_t)(rnd() % 2 ? rnd() : buf[at] ^ (1u << (rnd() % 8)));
        mutated_ok += decode_and_compare(buf, len, len, &mismatch);
        free(buf);
    }
    CHECK_EQ(mismatch, 0);
    CHECK(mutated_ok > 10000); /* most bytes are data, addresses and the like */
    printf("  random input: %d of 100000 random buffers and %d of 100000 mutated frames decoded\n", accepted,
           mutated_ok);
}

void test_wire_encode_errors(void)
{
    struct feroce_roce f, g;
    uint8_t buf[FEROCE_ROCE_HDR_MAX + 8], *exact;
    size_t hlen, cap, k;

#define BAD(opcode, vlan, change)                                                                            \
    do {                                                                                                     \
        random_roce(&f, (opcode), (vlan), has_payload(opcode) ? 100 : 0);                                    \
        change;                                                                                              \
        g = f;                                                                                               \
        memset(buf, 0xa5, sizeof buf);                                                                       \
        CHECK_EQ(feroce_roce_encode(&f, buf, sizeof buf), FEROCE_WIRE_BAD_FIELD);                            \
        for (k = 0; k < sizeof buf && buf[k] == 0xa5; k++)                                                   \
            ;                                                                                                \
        CHECK_EQ(k, sizeof buf);                                                                             \
        CHECK(roce_diff(&f, &g) == NULL);                                                                    \
    } while (0)

    BAD(FEROCE_OP_SEND_ONLY, 0, f.ip.dscp = 64);
    BAD(FEROCE_OP_SEND_ONLY, 0, f.ip.ecn = 4);
    BAD(FEROCE_OP_SEND_ONLY, 0, f.ip.df = 2);
    BAD(FEROCE_OP_SEND_ONLY, 0, f.ip.proto = 6);
    BAD(FEROCE_OP_SEND_ONLY, 0, f.eth.type = 0x86dd);
    BAD(FEROCE_OP_SEND_ONLY, 0, f.eth.vlan = 2);
    BAD(FEROCE_OP_SEND_ONLY, 1, f.eth.pcp = 8);
    BAD(FEROCE_OP_SEND_ONLY, 1, f.eth.dei = 2);
    BAD(FEROCE_OP_SEND_ONLY, 1, f.eth.vid = 4096);
    BAD(FEROCE_OP_SEND_ONLY, 0, f.udp.dport = 4790);
    BAD(FEROCE_OP_SEND_ONLY, 0, f.bth.destqp = 1u << 24);
    BAD(FEROCE_OP_SEND_ONLY, 0, f.bth.psn = 1u << 24);
    BAD(FEROCE_OP_SEND_ONLY, 0, f.bth.padcnt = 4);
    BAD(FEROCE_OP_SEND_ONLY, 0, f.bth.tver = 1);
    BAD(FEROCE_OP_SEND_ONLY, 0, f.bth.se = 2);
    BAD(FEROCE_OP_SEND_ONLY, 0, f.bth.migreq = 2);
    BAD(FEROCE_OP_SEND_ONLY, 0, f.bth.fecn = 2);
    BAD(FEROCE_OP_SEND_ONLY, 0, f.bth.becn = 2);
    BAD(FEROCE_OP_SEND_ONLY, 0, f.bth.ackreq = 2);
    BAD(FEROCE_OP_ACK, 0, f.aeth.msn = 1u << 24);
    BAD(FEROCE_OP_SEND_ONLY, 0, f.bth.opcode = 0x12);
    BAD(FEROCE_OP_SEND_ONLY, 0, f.bth.opcode = 0x24); /* UC: not feroce's */
    /* lengths that disagree with the opcode and payload */
    BAD(FEROCE_OP_SEND_ONLY, 0, f.ip.total_len++);
    BAD(FEROCE_OP_SEND_ONLY, 0, f.udp.len++);
    BAD(FEROCE_OP_SEND_ONLY, 0, f.bth.padcnt = 1);
    BAD(FEROCE_OP_SEND_ONLY, 0, f.payload_len = 101);
    BAD(FEROCE_OP_SEND_ONLY, 0, (f.payload_len = 65536, feroce_roce_set_lengths(&f)));
    BAD(FEROCE_OP_WRITE_FIRST, 0, (f.payload_len = 0, feroce_roce_set_lengths(&f)));
    BAD(FEROCE_OP_SEND_MIDDLE, 0, (f.payload_len = 0, feroce_roce_set_lengths(&f)));
    BAD(FEROCE_OP_WRITE_LAST_IMM, 0, (f.payload_len = 0, feroce_roce_set_lengths(&f)));
    BAD(FEROCE_OP_ACK, 0, (f.payload_len = 4, feroce_roce_set_lengths(&f)));
    BAD(FEROCE_OP_CNP, 0, (f.payload_len = 1, feroce_roce_set_lengths(&f)));
    BAD(FEROCE_OP_WRITE_FIRST, 0, f.bth.opcode = FEROCE_OP_WRITE_MIDDLE); /* lengths still count the RETH */
#undef BAD

    /* fields the opcode does not carry, and a tag's fields without a tag, are ignored */
    random_roce(&f, FEROCE_OP_SEND_ONLY, 0, 10);
    f.aeth.msn = 0xffffffffu;
    f.eth.vid = 0xffff;
    f.eth.pcp = 0xff;
    CHECK_EQ(feroce_roce_encode(&f, buf, sizeof buf), FEROCE_WIRE_OK);
    /* the largest values that fit */
    random_roce(&f, FEROCE_OP_ACK, 1, 0);
    f.eth.pcp = 7;
    f.eth.dei = 1;
    f.eth.vid = 4095;
    f.ip.dscp = 63;
    f.ip.ecn = 3;
    f.bth.destqp = FEROCE_PSN_MASK;
    f.bth.psn = FEROCE_PSN_MASK;
    f.aeth.msn = FEROCE_PSN_MASK;
    CHECK_EQ(feroce_roce_encode(&f, buf, sizeof buf), FEROCE_WIRE_OK);

    /* a small buffer: NO_SPACE, nothing written at all */
    for (k = 0; k < N_OPCODES; k++) {
        random_roce(&f, all_opcodes[k], (int)(k % 2), has_payload(all_opcodes[k]) ? 9 : 0);
        hlen = feroce_roce_header_len(&f);
        for (cap = 0; cap <= hlen; cap++) {
            size_t i;

            exact = malloc(cap ? cap : 1);
            if (!exact)
                return;
            CHECK_EQ(feroce_roce_encode(&f, exact, cap), cap < hlen ? FEROCE_WIRE_NO_SPACE : FEROCE_WIRE_OK);
            free(exact);
            memset(buf, 0xa5, sizeof buf);
            if (cap < hlen) {
                CHECK_EQ(feroce_roce_encode(&f, buf, cap), FEROCE_WIRE_NO_SPACE);
                for (i = 0; i < sizeof buf && buf[i] == 0xa5; i++)
                    ;
                CHECK_EQ(i, sizeof buf);
            }
        }
    }
    /* BAD_FIELD is checked before the space */
    random_roce(&f, FEROCE_OP_SEND_ONLY, 0, 1);
    f.ip.dscp = 99;
    CHECK_EQ(feroce_roce_encode(&f, buf, 0), FEROCE_WIRE_BAD_FIELD);
}

void test_wire_helpers(void)
{
    int e;
    uint8_t frame[64];

    /* PFC pause quanta: 512 bit times each, rounded up to whole ns */
    CHECK_EQ(feroce_pfc_quanta_ns(65535, 10e9), 3355392);
    CHECK_EQ(feroce_pfc_quanta_ns(1, 10e9), 52); /* 51.2 ns */
    CHECK_EQ(feroce_pfc_quanta_ns(0, 10e9), 0);
    CHECK_EQ(feroce_pfc_quanta_ns(10, 10e9), 512);
    CHECK_EQ(feroce_pfc_quanta_ns(1, 100e9), 6);          /* 5.12 ns */
    CHECK_EQ(feroce_pfc_quanta_ns(65535, 25e9), 1342157); /* 1342156.8 */
    CHECK_EQ(feroce_pfc_quanta_ns(65535, 1e9), 33553920);

    /* PSNs are 24 bits */
    CHECK_EQ(feroce_psn_add(0xffffff, 1), 0);
    CHECK_EQ(feroce_psn_add(0xfffffe, 5), 3);
    CHECK_EQ(feroce_psn_add(5, 0x1000000), 5);
    CHECK_EQ(feroce_psn_diff(0, 0xffffff), 1);
    CHECK_EQ(feroce_psn_diff(0xffffff, 0), -1);
    CHECK_EQ(feroce_psn_diff(3, 0xfffffe), 5);
    CHECK_EQ(feroce_psn_diff(100, 100), 0);
    CHECK_EQ(feroce_psn_diff(0x800000, 0), 0x800000); /* the half-way point counts as ahead */
    CHECK_EQ(feroce_psn_diff(0, 0x800000), 0x800000);
    CHECK_EQ(feroce_psn_diff(0x7fffff, 0), 0x7fffff);
    CHECK_EQ(feroce_psn_diff(0, 0x7fffff), -0x7fffff);
    CHECK_EQ(feroce_psn_diff(0x800001, 0), -0x7fffff);
    CHECK_EQ(feroce_psn_diff(feroce_psn_add(0xfffff0, 0x20), 0xfffff0), 0x20);

    /* error names */
    for (e = 0; e < FEROCE_WIRE_ERR_COUNT; e++)
        CHECK(strncmp(feroce_wire_err_name((enum feroce_wire_err)e), "FEROCE_WIRE_", 12) == 0);
    CHECK(strcmp(feroce_wire_err_name(FEROCE_WIRE_BAD_PAD), "FEROCE_WIRE_BAD_PAD") == 0);
    CHECK(strcmp(feroce_wire_err_name(FEROCE_WIRE_ERR_COUNT), "FEROCE_WIRE_UNKNOWN") == 0);

    /* IPv4 offset and classification from the first bytes only */
    memset(frame, 0, sizeof frame);
    frame[12] = 0x08;
    CHECK_EQ(feroce_ipv4_offset(frame, 34), 14);
    CHECK_EQ(feroce_ipv4_offset(frame, 33), 0);
    CHECK_EQ(feroce_ipv4_offset(frame, 13), 0);
    frame[12] = 0x81;
    frame[16] = 0x08;
    CHECK_EQ(feroce_ipv4_offset(frame, 38), 18);
    CHECK_EQ(feroce_ipv4_offset(frame, 37), 0);
    frame[16] = 0x86;
    frame[17] = 0xdd;
    CHECK_EQ(feroce_ipv4_offset(frame, 64), 0);
    CHECK_EQ(feroce_frame_classify(frame, 64), FEROCE_FRAME_OTHER);
    CHECK_EQ(feroce_frame_classify(frame, 0), FEROCE_FRAME_OTHER);

    /* defaults */
    {
        struct feroce_roce f;

        feroce_roce_init(&f, FEROCE_OP_WRITE_ONLY);
        CHECK_EQ(f.eth.type, FEROCE_ETHERTYPE_IPV4);
        CHECK_EQ(f.ip.ecn, FEROCE_ECN_ECT0);
        CHECK_EQ(f.ip.df, 1);
        CHECK_EQ(f.ip.ttl, 64);
        CHECK_EQ(f.udp.sport, 0xc000);
        CHECK_EQ(f.udp.dport, 4791);
        CHECK_EQ(f.bth.pkey, 0xffff);
        CHECK_EQ(f.bth.becn, 0);
        CHECK_EQ(f.ip.total_len, 20 + 8 + 12 + 16 + 4);
        CHECK_EQ(f.udp.len, 8 + 12 + 16 + 4);
        f.payload_len = 4097;
        feroce_roce_set_lengths(&f);
        CHECK_EQ(f.bth.padcnt, 3);
        CHECK_EQ(f.ip.total_len, 20 + 8 + 12 + 16 + 4100 + 4);
        CHECK_EQ(feroce_roce_header_len(&f), 14 + 20 + 8 + 12 + 16);
        CHECK_EQ(feroce_roce_frame_len(&f), 14 + 20 + 8 + 12 + 16 + 4100 + 4);
        f.eth.vlan = 1;
        CHECK_EQ(feroce_roce_header_len(&f), 18 + 20 + 8 + 12 + 16);
        CHECK_EQ(FEROCE_ROCE_HDR_MAX, 18 + 20 + 8 + 12 + 16 + 4);
    }
}
