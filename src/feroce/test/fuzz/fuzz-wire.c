/*
 * fuzz-wire.c - libFuzzer target for the wire codec (feroce-wire.c,
 * feroce-icrc.c).  Each input is one frame without FCS:
 *  - as RoCEv2: a frame decode accepts re-encodes to the same header bytes
 *    (but for the IPv4 checksum, which encode computes, and the reserved
 *    bits decode ignores), with a valid IPv4 checksum and a decodable ICRC;
 *    decoding only the first FEROCE_ROCE_HDR_MAX bytes gives the same answer;
 *  - as PFC: an accepted frame re-encodes to the same 34 bytes but for the
 *    reserved upper byte of the class-enable vector.
 * Any disagreement aborts, so libFuzzer keeps the input.  Built and run by
 * fuzz-wire.sh.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "feroce-icrc.h"
#include "feroce-wire.h"

#define MUST(cond)                                                                                           \
    do {                                                                                                     \
        if (!(cond)) {                                                                                       \
            fprintf(stderr, "fuzz-wire: %s:%d: %s\n", __FILE__, __LINE__, #cond);                            \
            abort();                                                                                         \
        }                                                                                                    \
    } while (0)

static void check_roce(const uint8_t *data, size_t size)
{
    struct feroce_roce f, g;
    uint8_t again[FEROCE_ROCE_HDR_MAX], again2[FEROCE_ROCE_HDR_MAX];
    size_t hlen = 0, hlen2 = 0, off, i, avail = size < FEROCE_ROCE_HDR_MAX ? size : FEROCE_ROCE_HDR_MAX;
    enum feroce_wire_err e = feroce_roce_decode(&f, data, size, size, &hlen);
    enum feroce_wire_err e2 = feroce_roce_decode(&g, data, avail, size, &hlen2);
    int icrc = feroce_icrc_check(data, size, NULL, NULL);

    MUST(e == e2);
    MUST(feroce_wire_err_name(e) != NULL);
    if (e != FEROCE_WIRE_OK)
        return;
    off = f.eth.vlan ? FEROCE_ETH_LEN + FEROCE_VLAN_LEN : FEROCE_ETH_LEN;
    MUST(hlen == hlen2 && hlen <= avail && hlen == feroce_roce_header_len(&f));
    MUST(off + f.ip.total_len <= size);
    MUST(hlen + f.payload_len + feroce_roce_pad(f.payload_len) + FEROCE_ICRC_LEN == off + f.ip.total_len);
    MUST(feroce_roce_frame_len(&f) <= (size < FEROCE_MIN_FRAME_LEN ? FEROCE_MIN_FRAME_LEN : size));
    MUST(feroce_frame_classify(data, size) == FEROCE_FRAME_ROCE);
    MUST(icrc == 0 || icrc == 1);
    MUST(feroce_roce_encode(&f, again, sizeof again) == FEROCE_WIRE_OK);
    MUST(feroce_roce_encode(&g, again2, sizeof again2) == FEROCE_WIRE_OK);
    MUST(memcmp(again, again2, hlen) == 0);
    MUST(feroce_ipv4_checksum(again + off) == 0);
    for (i = 0; i < hlen; i++) {
        size_t k = i - off; /* offset in the IPv4 packet when i >= off */
        uint8_t ignore = 0;

        if (i >= off) {
            if (k == 10 || k == 11)
                ignore = 0xff; /* IPv4 checksum */
            else if (k == 6)
                ignore = 0x80; /* IPv4 reserved flag */
            else if (k == 32)
                ignore = 0x3f; /* BTH resv6 */
            else if (k == 36)
                ignore = 0x7f; /* BTH resv7 */
            else if (k >= 40 && f.bth.opcode == FEROCE_OP_CNP)
                ignore = 0xff; /* the CNP's reserved bytes */
        }
        MUST(((again[i] ^ data[i]) & ~ignore) == 0);
    }
    /* the ICRC of the re-encoded headers agrees with the frame's when nothing ignored differed */
    if (memcmp(again, data, hlen) == 0) {
        uint32_t crc = feroce_icrc_begin(again + off, hlen - off);

        crc = feroce_crc32(crc, data + hlen, off + f.ip.total_len - FEROCE_ICRC_LEN - hlen);
        MUST((crc == feroce_icrc_get(data + off + f.ip.total_len - FEROCE_ICRC_LEN)) == icrc);
    }
}

static void check_pfc(const uint8_t *data, size_t size)
{
    struct feroce_pfc p;
    uint8_t again[FEROCE_PFC_FRAME_LEN];
    size_t i;

    if (feroce_pfc_decode(&p, data, size) != FEROCE_WIRE_OK)
        return;
    MUST(size >= FEROCE_PFC_FRAME_LEN);
    MUST(feroce_frame_classify(data, size) == FEROCE_FRAME_PFC);
    MUST(feroce_pfc_encode(&p, again, sizeof again) == FEROCE_WIRE_OK);
    for (i = 0; i < 34; i++)
        MUST(i == 16 || again[i] == data[i]);
}

static void check_link_pause(const uint8_t *data, size_t size)
{
    struct feroce_link_pause p;
    uint8_t again[FEROCE_PFC_FRAME_LEN];
    size_t i;

    if (feroce_link_pause_decode(&p, data, size) != FEROCE_WIRE_OK)
        return;
    MUST(size >= FEROCE_PFC_FRAME_LEN);
    MUST(feroce_frame_classify(data, size) == FEROCE_FRAME_LINK_PAUSE);
    MUST(feroce_link_pause_encode(&p, again, sizeof again) == FEROCE_WIRE_OK);
    for (i = 0; i < 18; i++)
        MUST(again[i] == data[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_roce(data, size);
    check_pfc(data, size);
    check_link_pause(data, size);
    return 0;
}
