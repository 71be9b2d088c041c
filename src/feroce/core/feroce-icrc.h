/*
 * feroce-icrc.h - the RoCEv2 invariant CRC (src/feroce/doc/rocev2-wire.md, "ICRC").
 *
 * ICRC = CRC-32 (IEEE 802.3, reflected, init and final XOR 0xffffffff) of
 * eight 0xff bytes followed by the IPv4 packet without its ICRC, with the
 * variant fields set to all ones: IPv4 TOS, TTL and header checksum, the UDP
 * checksum and BTH byte 4 (FECN, BECN).  It goes on the wire least
 * significant byte first.  Table driven, 8 bytes per step; a run of zero
 * bytes (simulated payload) costs O(log n), not O(n).
 */
#ifndef FEROCE_ICRC_H
#define FEROCE_ICRC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Plain CRC-32 over a running state: start from 0 and pass the previous
 * result (zlib's crc32() convention: the pre- and post-inversion are inside).
 */
uint32_t feroce_crc32(uint32_t crc, const uint8_t *p, size_t n);
/* feroce_crc32(crc, zeros, n) for n zero bytes, in O(log n). */
uint32_t feroce_crc32_zeros(uint32_t crc, size_t n);
/*
 * The same in two steps, for a length used again and again (a simulated
 * payload): feroce_crc32_zeros_op(n) is the multiplier x^(8n) mod P, and
 * feroce_crc32_zeros_apply(crc, op) == feroce_crc32_zeros(crc, n) costs one
 * multiplication instead of one per set bit of n.
 */
uint32_t feroce_crc32_zeros_op(size_t n);
uint32_t feroce_crc32_zeros_apply(uint32_t crc, uint32_t op);

/*
 * ICRC in parts: feroce_icrc_begin() takes the start of the IPv4 packet (the
 * IPv4 header, UDP header and BTH, at least 40 bytes, any further bytes
 * included) and masks the variant fields; the rest of the packet follows
 * through feroce_crc32() or feroce_crc32_zeros() on the returned value.  The
 * final value is the ICRC.
 */
uint32_t feroce_icrc_begin(const uint8_t *ip, size_t n);

/* ICRC of a whole IPv4 packet of n bytes (through the pad, without ICRC); n >= 40. */
uint32_t feroce_icrc(const uint8_t *ip, size_t n);

/* The 4 ICRC bytes as they go on the wire (least significant first), and back. */
static inline void feroce_icrc_put(uint8_t *p, uint32_t icrc)
{
    p[0] = (uint8_t)icrc;
    p[1] = (uint8_t)(icrc >> 8);
    p[2] = (uint8_t)(icrc >> 16);
    p[3] = (uint8_t)(icrc >> 24);
}

static inline uint32_t feroce_icrc_get(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * Check the ICRC of a whole RoCEv2 frame (Ethernet without FCS; Ethernet
 * padding after the ICRC allowed).  Returns 1 when it is good, 0 when it is
 * bad, -1 when the frame is not a decodable RoCEv2 frame.  *computed and
 * *found (if not NULL) get the two values.
 */
int feroce_icrc_check(const uint8_t *frame, size_t len, uint32_t *computed, uint32_t *found);

#ifdef __cplusplus
}
#endif

#endif /* FEROCE_ICRC_H */
