/*
 * feroce-wire.c - RoCEv2 and PFC frames over byte buffers (src/feroce/doc/rocev2-wire.md).
 *
 * Field layouts follow the spec's "BTH" and "PFC" sections; rxe_hdr.h and
 * IEEE 802.1Qbb are the sources behind it.  Decoders read a byte only after
 * checking that it is within what the caller said is there; encoders check
 * every field first and write nothing when one is out of range.
 */
#include "feroce-wire.h"

#include <string.h>

/* offsets inside the IPv4 packet */
#define IP_UDP    FEROCE_IPV4_LEN
#define IP_BTH    (FEROCE_IPV4_LEN + FEROCE_UDP_LEN)
#define IP_EXT    (IP_BTH + FEROCE_BTH_LEN)
#define IP_MF_OFF 0x3fff /* MF flag and fragment offset */
#define IP_DF     0x4000

#define RC_SEND   (FEROCE_OPF_SEND | FEROCE_OPF_PAYLOAD)
#define RC_WRITE  (FEROCE_OPF_WRITE | FEROCE_OPF_PAYLOAD)

/* the spec's opcode table */
static const uint16_t op_flags[256] = {
    [FEROCE_OP_SEND_FIRST] = RC_SEND | FEROCE_OPF_FIRST,
    [FEROCE_OP_SEND_MIDDLE] = RC_SEND | FEROCE_OPF_MIDDLE,
    [FEROCE_OP_SEND_LAST] = RC_SEND | FEROCE_OPF_LAST,
    [FEROCE_OP_SEND_LAST_IMM] = RC_SEND | FEROCE_OPF_LAST | FEROCE_OPF_IMMDT,
    [FEROCE_OP_SEND_ONLY] = RC_SEND | FEROCE_OPF_ONLY,
    [FEROCE_OP_SEND_ONLY_IMM] = RC_SEND | FEROCE_OPF_ONLY | FEROCE_OPF_IMMDT,
    [FEROCE_OP_WRITE_FIRST] = RC_WRITE | FEROCE_OPF_FIRST | FEROCE_OPF_RETH,
    [FEROCE_OP_WRITE_MIDDLE] = RC_WRITE | FEROCE_OPF_MIDDLE,
    [FEROCE_OP_WRITE_LAST] = RC_WRITE | FEROCE_OPF_LAST,
    [FEROCE_OP_WRITE_LAST_IMM] = RC_WRITE | FEROCE_OPF_LAST | FEROCE_OPF_IMMDT,
    [FEROCE_OP_WRITE_ONLY] = RC_WRITE | FEROCE_OPF_ONLY | FEROCE_OPF_RETH,
    [FEROCE_OP_WRITE_ONLY_IMM] = RC_WRITE | FEROCE_OPF_ONLY | FEROCE_OPF_RETH | FEROCE_OPF_IMMDT,
    [FEROCE_OP_ACK] = FEROCE_OPF_AETH,
    [FEROCE_OP_CNP] = FEROCE_OPF_CNP,
};

static const char *const op_names[256] = {
    [FEROCE_OP_SEND_FIRST] = "SEND First",
    [FEROCE_OP_SEND_MIDDLE] = "SEND Middle",
    [FEROCE_OP_SEND_LAST] = "SEND Last",
    [FEROCE_OP_SEND_LAST_IMM] = "SEND Last with Immediate",
    [FEROCE_OP_SEND_ONLY] = "SEND Only",
    [FEROCE_OP_SEND_ONLY_IMM] = "SEND Only with Immediate",
    [FEROCE_OP_WRITE_FIRST] = "RDMA WRITE First",
    [FEROCE_OP_WRITE_MIDDLE] = "RDMA WRITE Middle",
    [FEROCE_OP_WRITE_LAST] = "RDMA WRITE Last",
    [FEROCE_OP_WRITE_LAST_IMM] = "RDMA WRITE Last with Immediate",
    [FEROCE_OP_WRITE_ONLY] = "RDMA WRITE Only",
    [FEROCE_OP_WRITE_ONLY_IMM] = "RDMA WRITE Only with Immediate",
    [FEROCE_OP_ACK] = "Acknowledge",
    [FEROCE_OP_CNP] = "CNP",
};

static const char *const err_names[FEROCE_WIRE_ERR_COUNT] = {
    [FEROCE_WIRE_OK] = "FEROCE_WIRE_OK",
    [FEROCE_WIRE_TRUNCATED] = "FEROCE_WIRE_TRUNCATED",
    [FEROCE_WIRE_NO_SPACE] = "FEROCE_WIRE_NO_SPACE",
    [FEROCE_WIRE_NOT_IPV4] = "FEROCE_WIRE_NOT_IPV4",
    [FEROCE_WIRE_BAD_IP_HEADER] = "FEROCE_WIRE_BAD_IP_HEADER",
    [FEROCE_WIRE_BAD_IP_LENGTH] = "FEROCE_WIRE_BAD_IP_LENGTH",
    [FEROCE_WIRE_FRAGMENT] = "FEROCE_WIRE_FRAGMENT",
    [FEROCE_WIRE_NOT_UDP] = "FEROCE_WIRE_NOT_UDP",
    [FEROCE_WIRE_NOT_ROCE] = "FEROCE_WIRE_NOT_ROCE",
    [FEROCE_WIRE_BAD_UDP_LENGTH] = "FEROCE_WIRE_BAD_UDP_LENGTH",
    [FEROCE_WIRE_BAD_TVER] = "FEROCE_WIRE_BAD_TVER",
    [FEROCE_WIRE_UNKNOWN_OPCODE] = "FEROCE_WIRE_UNKNOWN_OPCODE",
    [FEROCE_WIRE_BAD_PAD] = "FEROCE_WIRE_BAD_PAD",
    [FEROCE_WIRE_NOT_PFC] = "FEROCE_WIRE_NOT_PFC",
    [FEROCE_WIRE_BAD_FIELD] = "FEROCE_WIRE_BAD_FIELD",
    [FEROCE_WIRE_NOT_LINK_PAUSE] = "FEROCE_WIRE_NOT_LINK_PAUSE",
};

static const uint8_t pfc_dst[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01 };

/* ---- big-endian access ---------------------------------------------------- */

static unsigned get16(const uint8_t *p)
{
    return (unsigned)p[0] << 8 | p[1];
}

static uint32_t get24(const uint8_t *p)
{
    return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | get24(p + 1);
}

static void put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static void put24(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 16);
    put16(p + 1, v & 0xffff);
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    put24(p + 1, v & 0xffffff);
}

/* ---- names and the opcode table ------------------------------------------ */

const char *feroce_wire_err_name(enum feroce_wire_err e)
{
    if ((unsigned)e >= FEROCE_WIRE_ERR_COUNT)
        return "FEROCE_WIRE_UNKNOWN";
    return err_names[e];
}

unsigned feroce_opcode_flags(uint8_t opcode)
{
    return op_flags[opcode];
}

const char *feroce_opcode_name(uint8_t opcode)
{
    return op_names[opcode] ? op_names[opcode] : "unknown";
}

uint8_t feroce_opcode_for(int is_write, int first, int last, int imm)
{
    static const uint8_t send[4] = { FEROCE_OP_SEND_MIDDLE, FEROCE_OP_SEND_FIRST, FEROCE_OP_SEND_LAST,
                                     FEROCE_OP_SEND_ONLY };
    static const uint8_t write[4] = { FEROCE_OP_WRITE_MIDDLE, FEROCE_OP_WRITE_FIRST, FEROCE_OP_WRITE_LAST,
                                      FEROCE_OP_WRITE_ONLY };
    int pos = (first ? 1 : 0) | (last ? 2 : 0);
    uint8_t op = is_write ? write[pos] : send[pos];

    /* the "with Immediate" variant of Last and Only is the next opcode (spec table) */
    return (uint8_t)(op + (last && imm ? 1 : 0));
}

/* bytes of extended headers after the BTH */
static size_t ext_len(unsigned flags)
{
    return (flags & FEROCE_OPF_RETH ? FEROCE_RETH_LEN : 0) +
           (flags & FEROCE_OPF_IMMDT ? FEROCE_IMMDT_LEN : 0) +
           (flags & FEROCE_OPF_AETH ? FEROCE_AETH_LEN : 0) + (flags & FEROCE_OPF_CNP ? FEROCE_CNP_LEN : 0);
}

/*
 * Payload size and pad count allowed for an opcode: ACK and CNP carry no
 * payload; a packet with payload pads it to 4 bytes; only an Only packet may
 * be empty (a multi-packet message has 1..PMTU bytes in its Last packet and
 * exactly PMTU in the others).
 */
static int payload_ok(unsigned flags, uint32_t payload_len, unsigned padcnt)
{
    if (!(flags & FEROCE_OPF_PAYLOAD))
        return payload_len == 0 && padcnt == 0;
    if (padcnt != feroce_roce_pad(payload_len))
        return 0;
    return payload_len > 0 || (flags & FEROCE_OPF_ONLY) == FEROCE_OPF_ONLY;
}

/* ---- RoCEv2 ---------------------------------------------------------------- */

static size_t eth_len(const struct feroce_roce *f)
{
    return f->eth.vlan ? FEROCE_ETH_LEN + FEROCE_VLAN_LEN : FEROCE_ETH_LEN;
}

/* bytes of the IPv4 packet: IPv4, UDP, BTH, extended headers, payload, pad, ICRC */
static uint64_t ip_len(const struct feroce_roce *f, unsigned flags)
{
    uint64_t n = IP_EXT + ext_len(flags) + FEROCE_ICRC_LEN;

    if (flags & FEROCE_OPF_PAYLOAD)
        n += (uint64_t)f->payload_len + feroce_roce_pad(f->payload_len);
    return n;
}

void feroce_roce_init(struct feroce_roce *f, uint8_t opcode)
{
    memset(f, 0, sizeof *f);
    f->eth.type = FEROCE_ETHERTYPE_IPV4;
    f->ip.ecn = FEROCE_ECN_ECT0;
    f->ip.df = 1;
    f->ip.ttl = 64;
    f->ip.proto = FEROCE_IPPROTO_UDP;
    f->udp.sport = 0xc000;
    f->udp.dport = FEROCE_ROCE_UDP_PORT;
    f->bth.opcode = opcode;
    f->bth.pkey = FEROCE_DEFAULT_PKEY;
    f->bth.becn = opcode == FEROCE_OP_CNP; /* spec, "CNP" */
    feroce_roce_set_lengths(f);
}

size_t feroce_roce_header_len(const struct feroce_roce *f)
{
    return eth_len(f) + IP_EXT + ext_len(feroce_opcode_flags(f->bth.opcode));
}

size_t feroce_roce_frame_len(const struct feroce_roce *f)
{
    size_t n = feroce_roce_header_len(f) + f->payload_len + feroce_roce_pad(f->payload_len) + FEROCE_ICRC_LEN;

    return n < FEROCE_MIN_FRAME_LEN ? FEROCE_MIN_FRAME_LEN : n;
}

void feroce_roce_set_lengths(struct feroce_roce *f)
{
    unsigned flags = feroce_opcode_flags(f->bth.opcode);

    /* a length beyond 16 bits wraps here and feroce_roce_encode refuses it */
    f->ip.total_len = (uint16_t)ip_len(f, flags);
    f->udp.len = (uint16_t)(f->ip.total_len - FEROCE_IPV4_LEN);
    f->bth.padcnt = flags & FEROCE_OPF_PAYLOAD ? (uint8_t)feroce_roce_pad(f->payload_len) : 0;
}

/* every field fits its width and the lengths agree: what feroce_roce_decode accepts */
static int roce_fields_ok(const struct feroce_roce *f, unsigned flags)
{
    const struct feroce_eth *e = &f->eth;
    const struct feroce_bth *b = &f->bth;

    if (!flags || e->type != FEROCE_ETHERTYPE_IPV4 || e->vlan > 1)
        return 0;
    if (e->vlan && (e->pcp > 7 || e->dei > 1 || e->vid > 4095))
        return 0;
    if (f->ip.dscp > 63 || f->ip.ecn > 3 || f->ip.df > 1 || f->ip.proto != FEROCE_IPPROTO_UDP)
        return 0;
    if (f->udp.dport != FEROCE_ROCE_UDP_PORT)
        return 0;
    if (b->se > 1 || b->migreq > 1 || b->padcnt > 3 || b->tver != 0 || b->fecn > 1 || b->becn > 1 ||
        b->ackreq > 1 || b->destqp > FEROCE_PSN_MASK || b->psn > FEROCE_PSN_MASK)
        return 0;
    if ((flags & FEROCE_OPF_AETH) && f->aeth.msn > FEROCE_PSN_MASK)
        return 0;
    if (!payload_ok(flags, f->payload_len, b->padcnt))
        return 0;
    return ip_len(f, flags) == f->ip.total_len && f->udp.len == f->ip.total_len - FEROCE_IPV4_LEN;
}

enum feroce_wire_err feroce_roce_encode(struct feroce_roce *f, uint8_t *buf, size_t cap)
{
    unsigned flags = feroce_opcode_flags(f->bth.opcode);
    size_t off = eth_len(f);
    uint8_t *ip, *p;

    if (!roce_fields_ok(f, flags))
        return FEROCE_WIRE_BAD_FIELD;
    if (cap < feroce_roce_header_len(f))
        return FEROCE_WIRE_NO_SPACE;

    memcpy(buf, f->eth.dst, 6);
    memcpy(buf + 6, f->eth.src, 6);
    if (f->eth.vlan) {
        put16(buf + 12, FEROCE_ETHERTYPE_VLAN);
        put16(buf + 14, (unsigned)f->eth.pcp << 13 | (unsigned)f->eth.dei << 12 | f->eth.vid);
    }
    put16(buf + off - 2, f->eth.type);

    ip = buf + off;
    ip[0] = 0x45; /* version 4, IHL 5 */
    ip[1] = (uint8_t)(f->ip.dscp << 2 | f->ip.ecn);
    put16(ip + 2, f->ip.total_len);
    put16(ip + 4, f->ip.id);
    put16(ip + 6, f->ip.df ? IP_DF : 0);
    ip[8] = f->ip.ttl;
    ip[9] = f->ip.proto;
    put16(ip + 10, 0);
    put32(ip + 12, f->ip.src);
    put32(ip + 16, f->ip.dst);
    f->ip.checksum = feroce_ipv4_checksum(ip);
    put16(ip + 10, f->ip.checksum);

    put16(ip + IP_UDP, f->udp.sport);
    put16(ip + IP_UDP + 2, f->udp.dport);
    put16(ip + IP_UDP + 4, f->udp.len);
    put16(ip + IP_UDP + 6, f->udp.checksum);

    p = ip + IP_BTH;
    p[0] = f->bth.opcode;
    p[1] = (uint8_t)(f->bth.se << 7 | f->bth.migreq << 6 | f->bth.padcnt << 4 | f->bth.tver);
    put16(p + 2, f->bth.pkey);
    p[4] = (uint8_t)(f->bth.fecn << 7 | f->bth.becn << 6); /* resv6 = 0 */
    put24(p + 5, f->bth.destqp);
    p[8] = (uint8_t)(f->bth.ackreq << 7); /* resv7 = 0 */
    put24(p + 9, f->bth.psn);

    p = ip + IP_EXT;
    if (flags & FEROCE_OPF_RETH) {
        put32(p, (uint32_t)(f->reth.va >> 32));
        put32(p + 4, (uint32_t)f->reth.va);
        put32(p + 8, f->reth.rkey);
        put32(p + 12, f->reth.dmalen);
        p += FEROCE_RETH_LEN;
    }
    if (flags & FEROCE_OPF_IMMDT) {
        put32(p, f->immdt);
        p += FEROCE_IMMDT_LEN;
    }
    if (flags & FEROCE_OPF_AETH) {
        p[0] = f->aeth.syndrome;
        put24(p + 1, f->aeth.msn);
        p += FEROCE_AETH_LEN;
    }
    if (flags & FEROCE_OPF_CNP)
        memset(p, 0, FEROCE_CNP_LEN);
    return FEROCE_WIRE_OK;
}

/*
 * Every read below follows a check against avail; the lengths in the headers
 * are checked against frame_len, which may include Ethernet padding after
 * the ICRC.  Reserved bits (IPv4 flag bit 0, BTH resv6 and resv7, the 16 CNP
 * bytes) are ignored, as IBA asks of a receiver.
 */
enum feroce_wire_err feroce_roce_decode(struct feroce_roce *f, const uint8_t *buf, size_t avail,
                                        size_t frame_len, size_t *hdr_len)
{
    const uint8_t *ip, *p;
    size_t off = FEROCE_ETH_LEN, ext;
    unsigned flags, tot, frag, rest;

    memset(f, 0, sizeof *f);
    if (avail > frame_len)
        avail = frame_len;
    if (avail < FEROCE_ETH_LEN)
        return FEROCE_WIRE_TRUNCATED;
    memcpy(f->eth.dst, buf, 6);
    memcpy(f->eth.src, buf + 6, 6);
    f->eth.type = (uint16_t)get16(buf + 12);
    if (f->eth.type == FEROCE_ETHERTYPE_VLAN) {
        unsigned tci;

        off += FEROCE_VLAN_LEN;
        if (avail < off)
            return FEROCE_WIRE_TRUNCATED;
        tci = get16(buf + 14);
        f->eth.vlan = 1;
        f->eth.pcp = (uint8_t)(tci >> 13);
        f->eth.dei = (uint8_t)(tci >> 12 & 1);
        f->eth.vid = (uint16_t)(tci & 0xfff);
        f->eth.type = (uint16_t)get16(buf + 16);
    }
    if (f->eth.type != FEROCE_ETHERTYPE_IPV4)
        return FEROCE_WIRE_NOT_IPV4;

    if (avail < off + FEROCE_IPV4_LEN)
        return FEROCE_WIRE_TRUNCATED;
    ip = buf + off;
    if (ip[0] != 0x45)
        return FEROCE_WIRE_BAD_IP_HEADER;
    f->ip.dscp = ip[1] >> 2;
    f->ip.ecn = ip[1] & 3;
    tot = get16(ip + 2);
    f->ip.total_len = (uint16_t)tot;
    f->ip.id = (uint16_t)get16(ip + 4);
    frag = get16(ip + 6);
    f->ip.df = (frag & IP_DF) != 0;
    f->ip.ttl = ip[8];
    f->ip.proto = ip[9];
    f->ip.checksum = (uint16_t)get16(ip + 10);
    f->ip.src = get32(ip + 12);
    f->ip.dst = get32(ip + 16);
    if (frag & IP_MF_OFF)
        return FEROCE_WIRE_FRAGMENT;
    if (f->ip.proto != FEROCE_IPPROTO_UDP)
        return FEROCE_WIRE_NOT_UDP;
    if (tot < IP_BTH || off + tot > frame_len)
        return FEROCE_WIRE_BAD_IP_LENGTH;

    if (avail < off + IP_BTH)
        return FEROCE_WIRE_TRUNCATED;
    p = ip + IP_UDP;
    f->udp.sport = (uint16_t)get16(p);
    f->udp.dport = (uint16_t)get16(p + 2);
    f->udp.len = (uint16_t)get16(p + 4);
    f->udp.checksum = (uint16_t)get16(p + 6);
    if (f->udp.dport != FEROCE_ROCE_UDP_PORT)
        return FEROCE_WIRE_NOT_ROCE;
    if (f->udp.len != tot - FEROCE_IPV4_LEN)
        return FEROCE_WIRE_BAD_UDP_LENGTH;

    /* the packet's own lengths must leave room for a BTH and the ICRC */
    if (tot < IP_EXT + FEROCE_ICRC_LEN || avail < off + IP_EXT)
        return FEROCE_WIRE_TRUNCATED;
    p = ip + IP_BTH;
    f->bth.opcode = p[0];
    f->bth.se = p[1] >> 7;
    f->bth.migreq = p[1] >> 6 & 1;
    f->bth.padcnt = p[1] >> 4 & 3;
    f->bth.tver = p[1] & 0xf;
    f->bth.pkey = (uint16_t)get16(p + 2);
    f->bth.fecn = p[4] >> 7;
    f->bth.becn = p[4] >> 6 & 1;
    f->bth.destqp = get24(p + 5);
    f->bth.ackreq = p[8] >> 7;
    f->bth.psn = get24(p + 9);
    if (f->bth.tver != 0)
        return FEROCE_WIRE_BAD_TVER;
    flags = feroce_opcode_flags(f->bth.opcode);
    if (!flags)
        return FEROCE_WIRE_UNKNOWN_OPCODE;

    ext = ext_len(flags);
    if (tot < IP_EXT + ext + FEROCE_ICRC_LEN || avail < off + IP_EXT + ext)
        return FEROCE_WIRE_TRUNCATED;
    p = ip + IP_EXT;
    if (flags & FEROCE_OPF_RETH) {
        f->reth.va = (uint64_t)get32(p) << 32 | get32(p + 4);
        f->reth.rkey = get32(p + 8);
        f->reth.dmalen = get32(p + 12);
        p += FEROCE_RETH_LEN;
    }
    if (flags & FEROCE_OPF_IMMDT) {
        f->immdt = get32(p);
        p += FEROCE_IMMDT_LEN;
    }
    if (flags & FEROCE_OPF_AETH) {
        f->aeth.syndrome = p[0];
        f->aeth.msn = get24(p + 1);
    }

    rest = tot - (unsigned)(IP_EXT + ext + FEROCE_ICRC_LEN); /* payload and pad */
    if (rest < f->bth.padcnt || !payload_ok(flags, rest - f->bth.padcnt, f->bth.padcnt))
        return FEROCE_WIRE_BAD_PAD;
    f->payload_len = rest - f->bth.padcnt;
    if (hdr_len)
        *hdr_len = off + IP_EXT + ext;
    return FEROCE_WIRE_OK;
}

uint16_t feroce_ipv4_checksum(const uint8_t *ip_header)
{
    uint32_t sum = 0;
    int i;

    for (i = 0; i < FEROCE_IPV4_LEN; i += 2)
        sum += get16(ip_header + i);
    while (sum >> 16)
        sum = (sum & 0xffff) + (sum >> 16); /* RFC 1071 end-around carry */
    return (uint16_t)~sum;
}

size_t feroce_ipv4_offset(const uint8_t *frame, size_t len)
{
    if (len < FEROCE_ETH_LEN)
        return 0;
    if (get16(frame + 12) == FEROCE_ETHERTYPE_IPV4)
        return len >= FEROCE_ETH_LEN + FEROCE_IPV4_LEN ? FEROCE_ETH_LEN : 0;
    if (get16(frame + 12) == FEROCE_ETHERTYPE_VLAN &&
        len >= FEROCE_ETH_LEN + FEROCE_VLAN_LEN + FEROCE_IPV4_LEN &&
        get16(frame + 16) == FEROCE_ETHERTYPE_IPV4)
        return FEROCE_ETH_LEN + FEROCE_VLAN_LEN;
    return 0;
}

/* ---- PFC (IEEE 802.1Qbb) ----------------------------------------------------- */

/* bytes of a PFC frame before its zero padding: Ethernet, opcode, class-enable vector, 8 times */
#define PFC_USED (FEROCE_ETH_LEN + 2 + 2 + 16)

enum feroce_wire_err feroce_pfc_encode(const struct feroce_pfc *p, uint8_t *buf, size_t cap)
{
    int i;

    if (cap < FEROCE_PFC_FRAME_LEN)
        return FEROCE_WIRE_NO_SPACE;
    memcpy(buf, pfc_dst, 6);
    memcpy(buf + 6, p->src, 6);
    put16(buf + 12, FEROCE_ETHERTYPE_MACC);
    put16(buf + 14, FEROCE_PFC_OPCODE);
    put16(buf + 16, p->enable); /* upper byte reserved, 0 */
    for (i = 0; i < 8; i++)
        put16(buf + 18 + 2 * i, p->quanta[i]);
    memset(buf + PFC_USED, 0, FEROCE_PFC_FRAME_LEN - PFC_USED);
    return FEROCE_WIRE_OK;
}

/* The reserved upper byte of the class-enable vector and the padding are ignored. */
enum feroce_wire_err feroce_pfc_decode(struct feroce_pfc *p, const uint8_t *buf, size_t len)
{
    int i;

    memset(p, 0, sizeof *p);
    if (len >= FEROCE_ETH_LEN && (memcmp(buf, pfc_dst, 6) != 0 || get16(buf + 12) != FEROCE_ETHERTYPE_MACC))
        return FEROCE_WIRE_NOT_PFC;
    if (len >= FEROCE_ETH_LEN + 2 && get16(buf + 14) != FEROCE_PFC_OPCODE)
        return FEROCE_WIRE_NOT_PFC;
    if (len < FEROCE_PFC_FRAME_LEN)
        return FEROCE_WIRE_TRUNCATED;
    memcpy(p->src, buf + 6, 6);
    p->enable = buf[17];
    for (i = 0; i < 8; i++)
        p->quanta[i] = (uint16_t)get16(buf + 18 + 2 * i);
    return FEROCE_WIRE_OK;
}

/* ---- link-level PAUSE (IEEE 802.3x) ------------------------------------------------ */

/* bytes of a PAUSE frame before its reserved zeros: Ethernet, opcode, pause_time */
#define LINK_PAUSE_USED (FEROCE_ETH_LEN + 2 + 2)

enum feroce_wire_err feroce_link_pause_encode(const struct feroce_link_pause *p, uint8_t *buf, size_t cap)
{
    if (cap < FEROCE_PFC_FRAME_LEN)
        return FEROCE_WIRE_NO_SPACE;
    memcpy(buf, pfc_dst, 6); /* the same reserved multicast address as PFC */
    memcpy(buf + 6, p->src, 6);
    put16(buf + 12, FEROCE_ETHERTYPE_MACC);
    put16(buf + 14, FEROCE_LINK_PAUSE_OPCODE);
    put16(buf + 16, p->quanta);
    memset(buf + LINK_PAUSE_USED, 0, FEROCE_PFC_FRAME_LEN - LINK_PAUSE_USED);
    return FEROCE_WIRE_OK;
}

enum feroce_wire_err feroce_link_pause_decode(struct feroce_link_pause *p, const uint8_t *buf, size_t len)
{
    memset(p, 0, sizeof *p);
    if (len >= FEROCE_ETH_LEN && (memcmp(buf, pfc_dst, 6) != 0 || get16(buf + 12) != FEROCE_ETHERTYPE_MACC))
        return FEROCE_WIRE_NOT_LINK_PAUSE;
    if (len >= FEROCE_ETH_LEN + 2 && get16(buf + 14) != FEROCE_LINK_PAUSE_OPCODE)
        return FEROCE_WIRE_NOT_LINK_PAUSE;
    if (len < FEROCE_PFC_FRAME_LEN)
        return FEROCE_WIRE_TRUNCATED;
    memcpy(p->src, buf + 6, 6);
    p->quanta = (uint16_t)get16(buf + 16);
    return FEROCE_WIRE_OK;
}

enum feroce_frame_kind feroce_frame_classify(const uint8_t *buf, size_t len)
{
    size_t off;

    if (len >= FEROCE_ETH_LEN + 2 && get16(buf + 12) == FEROCE_ETHERTYPE_MACC &&
        get16(buf + 14) == FEROCE_PFC_OPCODE)
        return FEROCE_FRAME_PFC;
    if (len >= FEROCE_ETH_LEN + 2 && get16(buf + 12) == FEROCE_ETHERTYPE_MACC &&
        get16(buf + 14) == FEROCE_LINK_PAUSE_OPCODE)
        return FEROCE_FRAME_LINK_PAUSE;
    off = feroce_ipv4_offset(buf, len);
    if (off && len >= off + IP_BTH && buf[off] == 0x45 && buf[off + 9] == FEROCE_IPPROTO_UDP &&
        get16(buf + off + IP_UDP + 2) == FEROCE_ROCE_UDP_PORT)
        return FEROCE_FRAME_ROCE;
    return FEROCE_FRAME_OTHER;
}
