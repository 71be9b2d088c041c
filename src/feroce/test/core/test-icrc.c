/*
 * test-icrc.c - CRC-32 against a bit-by-bit reference and the RoCEv2 ICRC
 * known answers (test data icrc.txt, copied from the project's shared
 * vectors; src/feroce/doc/rocev2-wire.md, "ICRC").
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
static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint32_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545f4914f6cdd1du) >> 32);
}

/* the CRC-32 of IEEE 802.3 one bit at a time, straight from its definition */
static uint32_t crc32_bitwise(uint32_t crc, const uint8_t *p, size_t n)
{
    uint32_t s = ~crc;
    int k;

    while (n--) {
        s ^= *p++;
        for (k = 0; k < 8; k++)
            s = (s & 1) ? (s >> 1) ^ 0xedb88320u : s >> 1;
    }
    return ~s;
}

void test_crc32_reference(void)
{
    static const char check[] = "123456789";
    uint8_t buf[300];
    size_t n, split, i;
    int bad = 0;

    /* the catalogue check value of CRC-32/ISO-HDLC */
    CHECK_EQ(feroce_crc32(0, (const uint8_t *)check, 9), 0xcbf43926u);
    CHECK_EQ(crc32_bitwise(0, (const uint8_t *)check, 9), 0xcbf43926u);
    CHECK_EQ(feroce_crc32(0, NULL, 0), 0);
    CHECK_EQ(feroce_crc32(0x12345678u, buf, 0), 0x12345678u);

    /* every entry of the eight tables: each byte value at each position of an 8-byte step */
    for (split = 0; split < 8; split++)
        for (i = 0; i < 256; i++) {
            memset(buf, 0, 8);
            buf[split] = (uint8_t)i;
            if (feroce_crc32(0, buf, 8) != crc32_bitwise(0, buf, 8))
                bad++;
        }
    CHECK_EQ(bad, 0);

    for (n = 0; n <= sizeof buf; n++) {
        for (i = 0; i < n; i++)
            buf[i] = (uint8_t)rnd();
        if (feroce_crc32(0, buf, n) != crc32_bitwise(0, buf, n))
            bad++;
        /* a running state: any split gives the same value, from any start value */
        for (split = 0; split <= n; split += 1 + n / 16) {
            uint32_t start = rnd();

            if (feroce_crc32(feroce_crc32(start, buf, split), buf + split, n - split) !=
                crc32_bitwise(start, buf, n))
                bad++;
        }
        /* unaligned starts */
        for (i = 1; i < 8 && i <= n; i++)
            if (feroce_crc32(0, buf + i, n - i) != crc32_bitwise(0, buf + i, n - i))
                bad++;
    }
    CHECK_EQ(bad, 0);
}

void test_crc32_zeros(void)
{
    static const size_t ns[] = { 0,    1,     2,     3,        4,
                                 5,    7,     8,     9,        15,
                                 16,   17,    63,    64,       100,
                                 255,  256,   1000,  4095,     4096,
                                 4097, 65535, 65536, 1u << 20, (1u << 20) + 3 };
    const size_t max = (1u << 20) + 3;
    uint8_t *zeros = calloc(max, 1);
    size_t i;
    int bad = 0;

    CHECK(zeros != NULL);
    if (!zeros)
        return;
    for (i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        uint32_t start = i % 2 ? rnd() : 0;

        CHECK_EQ(feroce_crc32_zeros(start, ns[i]), feroce_crc32(start, zeros, ns[i]));
    }
    for (i = 0; i < 2000; i++) {
        size_t n = rnd() % 3000;
        uint32_t start = rnd();

        if (feroce_crc32_zeros(start, n) != crc32_bitwise(start, zeros, n))
            bad++;
        if (feroce_crc32_zeros_apply(start, feroce_crc32_zeros_op(n)) != crc32_bitwise(start, zeros, n))
            bad++;
    }
    CHECK_EQ(bad, 0);
    free(zeros);

    /*
     * Lengths beyond what can be fed: zeros compose (a then b = a + b).  2^28
     * twice is 2^29, which uses x^(2^32) = x^(2^0) of the period-32 table;
     * 2^40 and beyond exercise it again.
     */
    CHECK_EQ(feroce_crc32_zeros(feroce_crc32_zeros(0x1234u, (size_t)1 << 28), (size_t)1 << 28),
             feroce_crc32_zeros(0x1234u, (size_t)1 << 29));
    for (i = 0; i < 200; i++) {
        uint64_t a = ((uint64_t)rnd() << 32 | rnd()) >> (rnd() % 64);
        uint64_t b = ((uint64_t)rnd() << 32 | rnd()) >> (1 + rnd() % 63);
        uint32_t start = rnd();

        if (a > SIZE_MAX / 2 || b > SIZE_MAX / 2)
            continue;
        if (feroce_crc32_zeros(feroce_crc32_zeros(start, (size_t)a), (size_t)b) !=
            feroce_crc32_zeros(start, (size_t)(a + b)))
            bad++;
        if (feroce_crc32_zeros_apply(start, feroce_crc32_zeros_op((size_t)a)) !=
            feroce_crc32_zeros(start, (size_t)a))
            bad++;
    }
    CHECK_EQ(bad, 0);
}

/* ---- icrc.txt ----------------------------------------------------------------- */

#define MAX_FRAME 2048

struct icrc_vector {
    char name[16];
    uint8_t frame[MAX_FRAME];
    size_t frame_len;
    uint8_t icrc[4];
    uint8_t crc_input[MAX_FRAME];
    size_t crc_input_len; /* 0 when the vector gives none */
};

static size_t parse_hex(const char *s, uint8_t *out, size_t cap)
{
    size_t n = 0;
    unsigned v;

    while (s[0] && s[1] && s[0] != '\n' && n < cap && sscanf(s, "%2x", &v) == 1) {
        out[n++] = (uint8_t)v;
        s += 2;
    }
    return n;
}

/* reads up to max vectors; returns how many */
static int read_icrc_vectors(struct icrc_vector *v, int max)
{
    char path[1024], line[8192], name[16] = "?";
    int n = -1;
    FILE *f;

    snprintf(path, sizeof path, "%s/icrc.txt", test_data_dir);
    f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "# V", 3) == 0) {
            sscanf(line + 2, "%15[^:]", name);
        } else if (strncmp(line, "frame ", 6) == 0 && n + 1 < max) {
            n++;
            memset(&v[n], 0, sizeof v[n]);
            snprintf(v[n].name, sizeof v[n].name, "%s", name);
            v[n].frame_len = parse_hex(line + 6, v[n].frame, MAX_FRAME);
        } else if (strncmp(line, "icrc ", 5) == 0 && n >= 0) {
            CHECK_EQ(parse_hex(line + 5, v[n].icrc, 4), 4);
        } else if (strncmp(line, "crc_input ", 10) == 0 && n >= 0) {
            v[n].crc_input_len = parse_hex(line + 10, v[n].crc_input, MAX_FRAME);
        }
    }
    fclose(f);
    return n + 1;
}

void test_icrc_vectors(void)
{
    static struct icrc_vector v[8];
    int nv = read_icrc_vectors(v, 8), i, with_input = 0;

    CHECK(nv >= 3);
    for (i = 0; i < nv; i++) {
        const uint8_t *fr = v[i].frame;
        size_t len = v[i].frame_len, off = feroce_ipv4_offset(fr, len), tot, k, bit;
        const uint8_t *ip = fr + off;
        uint32_t computed = 0, found = 0, want = feroce_icrc_get(v[i].icrc);
        uint8_t *copy = malloc(len);
        int detected = 0, masked_ok = 0;

        CHECK(off == FEROCE_ETH_LEN);
        if (off == 0 || !copy) {
            free(copy);
            continue;
        }
        tot = (size_t)ip[2] << 8 | ip[3];
        CHECK(off + tot <= len);
        /* the listed ICRC is what the frame carries, and what we compute */
        CHECK(memcmp(ip + tot - 4, v[i].icrc, 4) == 0);
        CHECK_EQ(feroce_icrc_check(fr, len, &computed, &found), 1);
        CHECK_EQ(computed, want);
        CHECK_EQ(found, want);
        CHECK_EQ(feroce_icrc(ip, tot - 4), want);
        /* in parts: the headers, then the rest through the running CRC */
        CHECK_EQ(feroce_crc32(feroce_icrc_begin(ip, 40), ip + 40, tot - 44), want);
        CHECK_EQ(feroce_crc32(feroce_icrc_begin(ip, 42), ip + 42, tot - 46), want);

        if (v[i].crc_input_len) {
            /* the masked input, built here from the spec, is the vector's; the CRC of it is the ICRC */
            uint8_t masked[MAX_FRAME];
            static const int at[] = { 1, 8, 10, 11, 26, 27, 32 };

            with_input++;
            memset(masked, 0xff, 8);
            memcpy(masked + 8, ip, tot - 4);
            for (k = 0; k < sizeof at / sizeof at[0]; k++)
                masked[8 + at[k]] = 0xff;
            CHECK_EQ(v[i].crc_input_len, 8 + tot - 4);
            CHECK(memcmp(masked, v[i].crc_input, v[i].crc_input_len) == 0);
            CHECK_EQ(feroce_crc32(0, v[i].crc_input, v[i].crc_input_len), want);
        }

        /* the caller's buffer is not modified (begin masks a copy) */
        memcpy(copy, fr, len);
        (void)feroce_icrc_begin(copy + off, tot - 4);
        CHECK(memcmp(copy, fr, len) == 0);

        /* every bit of the invariant part, ICRC included, matters */
        for (k = 0; k < tot; k++) {
            int variant = k == 1 || k == 8 || k == 10 || k == 11 || k == 26 || k == 27 || k == 32;

            for (bit = 0; bit < 8; bit++) {
                memcpy(copy, fr, len);
                copy[off + k] ^= (uint8_t)(1u << bit);
                if (variant) {
                    if (feroce_icrc(copy + off, tot - 4) == want)
                        masked_ok++;
                } else if (feroce_icrc(copy + off, tot - 4) != feroce_icrc_get(copy + off + tot - 4)) {
                    /* and the check says so (0), unless the flip broke the framing (-1) */
                    if (feroce_icrc_check(copy, len, NULL, NULL) != 1)
                        detected++;
                }
            }
        }
        CHECK_EQ(detected, (tot - 7) * 8);
        CHECK_EQ(masked_ok, 7 * 8);

        /* what a switch changes: ECN to CE, DSCP, TTL, BECN/FECN; the ICRC stays good */
        memcpy(copy, fr, len);
        copy[off + 1] |= 3;
        copy[off + 8] -= 1;
        copy[off + 32] ^= 0xc0;
        CHECK_EQ(feroce_icrc_check(copy, len, NULL, NULL), 1);
        copy[off + 1] = 0xfe;
        CHECK_EQ(feroce_icrc_check(copy, len, NULL, NULL), 1);
        /* and one it must not */
        copy[off + 12] ^= 1;
        CHECK_EQ(feroce_icrc_check(copy, len, &computed, &found), 0);
        CHECK(computed != found);

        /* not a RoCEv2 frame: -1 */
        CHECK_EQ(feroce_icrc_check(fr, off + 20, NULL, NULL), -1);
        CHECK_EQ(feroce_icrc_check(fr, off + tot - 1, NULL, NULL), -1);
        memcpy(copy, fr, len);
        copy[off + 23] ^= 1; /* UDP port */
        CHECK_EQ(feroce_icrc_check(copy, len, NULL, NULL), -1);
        memcpy(copy, fr, len);
        copy[off + 25] ^= 4; /* UDP length */
        CHECK_EQ(feroce_icrc_check(copy, len, NULL, NULL), -1);
        memcpy(copy, fr, len);
        copy[off + 9] = 6; /* TCP */
        CHECK_EQ(feroce_icrc_check(copy, len, NULL, NULL), -1);
        memcpy(copy, fr, len);
        copy[off + 6] |= 0x20; /* more fragments */
        CHECK_EQ(feroce_icrc_check(copy, len, NULL, NULL), -1);
        memcpy(copy, fr, len);
        copy[off] = 0x46; /* IPv4 options */
        CHECK_EQ(feroce_icrc_check(copy, len, NULL, NULL), -1);
        memcpy(copy, fr, len);
        copy[off + 3] = 40; /* total length too short for a BTH and ICRC */
        copy[off + 25] = 20;
        CHECK_EQ(feroce_icrc_check(copy, len, NULL, NULL), -1);
        free(copy);
    }
    CHECK_EQ(with_input, 1);
}
