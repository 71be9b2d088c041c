/*
 * feroce-wire.h - RoCEv2 frames over byte buffers (src/feroce/doc/rocev2-wire.md):
 * Ethernet II with an optional 802.1Q tag, IPv4, UDP, the InfiniBand BTH and
 * its extended headers (RETH, AETH, ImmDt, CNP), PFC (IEEE 802.1Qbb) and
 * link-level PAUSE (IEEE 802.3x, 802.3 Annex 31B) frames.  All fields are big-endian on the wire.
 *
 * Like Linux rxe_hdr.h: plain structs with the decoded fields, encoders that
 * write into caller memory and decoders that read only the bytes they are
 * given and reject truncated or inconsistent input with a named code.  No
 * allocation, no I/O.  The ICRC is in feroce-icrc.h.
 */
#ifndef FEROCE_WIRE_H
#define FEROCE_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "feroce-cp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* header sizes in bytes */
#define FEROCE_ETH_LEN   14
#define FEROCE_VLAN_LEN  4
#define FEROCE_IPV4_LEN  20 /* no options */
#define FEROCE_UDP_LEN   8
#define FEROCE_BTH_LEN   12
#define FEROCE_RETH_LEN  16
#define FEROCE_AETH_LEN  4
#define FEROCE_IMMDT_LEN 4
#define FEROCE_CNP_LEN   16 /* reserved zero bytes after a CNP's BTH */
#define FEROCE_ICRC_LEN  4
#define FEROCE_ROCE_HDR_MAX                                                                                  \
    (FEROCE_ETH_LEN + FEROCE_VLAN_LEN + FEROCE_IPV4_LEN + FEROCE_UDP_LEN + FEROCE_BTH_LEN +                  \
     FEROCE_RETH_LEN + FEROCE_IMMDT_LEN)
/* per frame on the wire but not in a capture: preamble+SFD 8, FCS 4, inter-frame gap 12 */
#define FEROCE_WIRE_EXTRA        24
#define FEROCE_MIN_FRAME_LEN     60 /* without FCS; shorter frames are padded */
#define FEROCE_PFC_FRAME_LEN     60 /* a PFC frame without FCS */

#define FEROCE_ETHERTYPE_IPV4    0x0800
#define FEROCE_ETHERTYPE_VLAN    0x8100
#define FEROCE_ETHERTYPE_MACC    0x8808 /* MAC control: PAUSE and PFC */
#define FEROCE_PFC_OPCODE        0x0101
#define FEROCE_LINK_PAUSE_OPCODE 0x0001 /* 802.3x PAUSE: the whole link */
#define FEROCE_IPPROTO_UDP       17
#define FEROCE_ROCE_UDP_PORT     4791
#define FEROCE_DEFAULT_PKEY      0xffff
#define FEROCE_PSN_MASK          0xffffffu /* PSNs are 24 bits and wrap */

/*
 * ECN codepoints of the IPv4 TOS byte: FEROCE_ECN_NOT_ECT, _ECT1, _ECT0, _CE
 * of enum feroce_ecn in feroce-cp.h (included above; defining them again as
 * macros here broke any file that included this header before feroce-cp.h).
 */

/* RC opcodes feroce sends (transport 000) and the RoCEv2 CNP */
enum feroce_opcode {
    FEROCE_OP_SEND_FIRST = 0x00,
    FEROCE_OP_SEND_MIDDLE = 0x01,
    FEROCE_OP_SEND_LAST = 0x02,
    FEROCE_OP_SEND_LAST_IMM = 0x03,
    FEROCE_OP_SEND_ONLY = 0x04,
    FEROCE_OP_SEND_ONLY_IMM = 0x05,
    FEROCE_OP_WRITE_FIRST = 0x06,
    FEROCE_OP_WRITE_MIDDLE = 0x07,
    FEROCE_OP_WRITE_LAST = 0x08,
    FEROCE_OP_WRITE_LAST_IMM = 0x09,
    FEROCE_OP_WRITE_ONLY = 0x0a,
    FEROCE_OP_WRITE_ONLY_IMM = 0x0b,
    FEROCE_OP_ACK = 0x11,
    FEROCE_OP_CNP = 0x81
};

/* What an opcode carries and where its packet sits in a message (feroce_opcode_flags). */
enum feroce_op_flag {
    FEROCE_OPF_RETH = 1 << 0,
    FEROCE_OPF_IMMDT = 1 << 1,
    FEROCE_OPF_AETH = 1 << 2,
    FEROCE_OPF_CNP = 1 << 3, /* 16 reserved bytes, no payload */
    FEROCE_OPF_PAYLOAD = 1 << 4,
    FEROCE_OPF_FIRST = 1 << 5,
    FEROCE_OPF_MIDDLE = 1 << 6,
    FEROCE_OPF_LAST = 1 << 7,
    FEROCE_OPF_SEND = 1 << 8,
    FEROCE_OPF_WRITE = 1 << 9
};
#define FEROCE_OPF_ONLY (FEROCE_OPF_FIRST | FEROCE_OPF_LAST)

/* Flags of an opcode; 0 when feroce does not know it. */
unsigned feroce_opcode_flags(uint8_t opcode);
/* "RDMA WRITE First", ...; "unknown" for others. */
const char *feroce_opcode_name(uint8_t opcode);
/*
 * The opcode of a packet of a SEND (is_write 0) or RDMA WRITE message:
 * first/last say where the packet sits, imm whether the message carries
 * immediate data (on its last packet).
 */
uint8_t feroce_opcode_for(int is_write, int first, int last, int imm);

/* AETH syndrome (bits 6:5 kind, 4:0 credits, RNR timer code or NAK code) */
#define FEROCE_AETH_ACK(credits)   ((uint8_t)((credits)&0x1f))
#define FEROCE_AETH_RNR_NAK(timer) ((uint8_t)(0x20 | ((timer)&0x1f)))
#define FEROCE_AETH_NAK(code)      ((uint8_t)(0x60 | ((code)&0x1f)))
#define FEROCE_AETH_KIND(syn)      (((syn) >> 5) & 3) /* 0 ACK, 1 RNR NAK, 3 NAK */
#define FEROCE_AETH_VALUE(syn)     ((syn)&0x1f)
#define FEROCE_AETH_CREDITS_NONE   0x1f /* ACK syndrome: credits not used */
#define FEROCE_NAK_PSN_SEQ_ERR     0
#define FEROCE_NAK_INVALID_REQUEST 1
#define FEROCE_NAK_REMOTE_ACCESS   2
#define FEROCE_NAK_REMOTE_OP       3

/* Why a decoder or encoder refused a buffer. */
enum feroce_wire_err {
    FEROCE_WIRE_OK = 0,
    FEROCE_WIRE_TRUNCATED,      /* fewer bytes than the headers or lengths need */
    FEROCE_WIRE_NO_SPACE,       /* encode: the output buffer is too small */
    FEROCE_WIRE_NOT_IPV4,       /* EtherType (after any tag) is not IPv4 */
    FEROCE_WIRE_BAD_IP_HEADER,  /* version not 4 or IHL not 5 (options unsupported) */
    FEROCE_WIRE_BAD_IP_LENGTH,  /* total length inconsistent with the frame */
    FEROCE_WIRE_FRAGMENT,       /* MF set or non-zero fragment offset */
    FEROCE_WIRE_NOT_UDP,        /* protocol is not UDP */
    FEROCE_WIRE_NOT_ROCE,       /* UDP destination port is not 4791 */
    FEROCE_WIRE_BAD_UDP_LENGTH, /* UDP length inconsistent with IPv4 total length */
    FEROCE_WIRE_BAD_TVER,       /* BTH transport header version not 0 */
    FEROCE_WIRE_UNKNOWN_OPCODE, /* opcode not in feroce's table */
    FEROCE_WIRE_BAD_PAD,        /* pad count or payload size inconsistent with the opcode */
    FEROCE_WIRE_NOT_PFC,        /* not a MAC control frame with the PFC opcode */
    FEROCE_WIRE_BAD_FIELD,      /* encode: a field does not fit its width */
    FEROCE_WIRE_NOT_LINK_PAUSE, /* not a MAC control frame with the 802.3x PAUSE opcode */
    FEROCE_WIRE_ERR_COUNT
};
const char *feroce_wire_err_name(enum feroce_wire_err e);

struct feroce_eth {
    uint8_t dst[6];
    uint8_t src[6];
    uint8_t vlan;  /* 1: an 802.1Q tag follows the source address */
    uint8_t pcp;   /* tag: priority code point 0..7 */
    uint8_t dei;   /* tag: drop eligible 0..1 */
    uint16_t vid;  /* tag: VLAN id 0..4095 */
    uint16_t type; /* EtherType after the tag */
};

struct feroce_ipv4 {
    uint8_t dscp; /* 0..63 */
    uint8_t ecn;  /* FEROCE_ECN_* */
    uint16_t total_len;
    uint16_t id;
    uint8_t df;
    uint8_t ttl;
    uint8_t proto;
    uint16_t checksum; /* decode: as on the wire; encode computes it */
    uint32_t src;
    uint32_t dst;
};

struct feroce_udp {
    uint16_t sport;
    uint16_t dport;
    uint16_t len;
    uint16_t checksum; /* RoCEv2 may send 0; kept as given */
};

struct feroce_bth {
    uint8_t opcode;
    uint8_t se;
    uint8_t migreq;
    uint8_t padcnt; /* 0..3 */
    uint8_t tver;
    uint16_t pkey;
    uint8_t fecn;
    uint8_t becn;
    uint32_t destqp; /* 24 bits */
    uint8_t ackreq;
    uint32_t psn; /* 24 bits */
};

struct feroce_reth {
    uint64_t va;
    uint32_t rkey;
    uint32_t dmalen; /* the whole message */
};

struct feroce_aeth {
    uint8_t syndrome;
    uint32_t msn; /* 24 bits */
};

/* The headers of one RoCEv2 frame and the size of what follows them. */
struct feroce_roce {
    struct feroce_eth eth;
    struct feroce_ipv4 ip;
    struct feroce_udp udp;
    struct feroce_bth bth;
    struct feroce_reth reth; /* when the opcode has FEROCE_OPF_RETH */
    struct feroce_aeth aeth; /* FEROCE_OPF_AETH */
    uint32_t immdt;          /* FEROCE_OPF_IMMDT */
    uint32_t payload_len;    /* payload bytes, without pad (CNP: 0; its 16 bytes are a header) */
};

/*
 * Fill a struct with defaults for opcode: untagged IPv4 with DF, TTL 64,
 * ECN ECT(0), UDP port 4791 from source port 0xc000, P_Key 0xffff, BECN
 * set for a CNP (spec, "CNP"), lengths set for payload_len 0
 * (feroce_roce_set_lengths), all else 0.  The caller sets addresses, QP,
 * PSN and the rest.
 */
void feroce_roce_init(struct feroce_roce *f, uint8_t opcode);

/* Bytes of Ethernet, tag, IPv4, UDP, BTH and the opcode's extended headers. */
size_t feroce_roce_header_len(const struct feroce_roce *f);

/* Bytes of pad after payload_len so the BTH payload ends on 4 bytes. */
static inline unsigned feroce_roce_pad(uint32_t payload_len)
{
    return (4u - (payload_len & 3u)) & 3u;
}

/* Whole frame without FCS: headers, payload, pad, ICRC, Ethernet min-frame padding. */
size_t feroce_roce_frame_len(const struct feroce_roce *f);

/* Bytes of one frame of this size on a wire: with preamble, FCS and gap. */
static inline size_t feroce_wire_bytes(size_t frame_len)
{
    return (frame_len < FEROCE_MIN_FRAME_LEN ? FEROCE_MIN_FRAME_LEN : frame_len) + FEROCE_WIRE_EXTRA;
}

/* Set ip.total_len, udp.len and bth.padcnt from the opcode and payload_len. */
void feroce_roce_set_lengths(struct feroce_roce *f);

/*
 * Write the headers (feroce_roce_header_len bytes) into buf, computing the
 * IPv4 header checksum (returned in f->ip.checksum).  Lengths are written
 * as they are in f: call feroce_roce_set_lengths first.  Payload, pad and
 * ICRC are the caller's.  Returns FEROCE_WIRE_BAD_FIELD, checked first, when
 * the frame would not decode: an unknown opcode, a field wider than its
 * width, eth.type not IPv4, ip.proto not UDP, udp.dport not 4791, tver not
 * 0, or lengths (ip.total_len, udp.len, bth.padcnt) that disagree with the
 * opcode and payload_len (a payload too big for 16-bit lengths included);
 * then FEROCE_WIRE_NO_SPACE when cap < feroce_roce_header_len.  On error
 * nothing is written.  Fields the opcode does not carry are ignored, as are
 * pcp, dei and vid without a tag.
 */
enum feroce_wire_err feroce_roce_encode(struct feroce_roce *f, uint8_t *buf, size_t cap);

/*
 * Decode the headers of a frame of frame_len bytes (without FCS) of which
 * the first avail bytes are in buf (avail <= frame_len; avail >=
 * FEROCE_ROCE_HDR_MAX or == frame_len is always enough).  Checks the
 * lengths against frame_len (which may exceed the IPv4 packet: Ethernet
 * padding), the opcode against the table, the pad count and payload size
 * against the opcode (only an Only packet may have no payload; ACK and CNP
 * have none), and sets payload_len.  *hdr_len (if not NULL) gets the header
 * bytes.  Reads nothing beyond buf[avail - 1].  Does not check the IPv4
 * checksum or ICRC; reserved bits (IPv4 flag bit 0, BTH resv6/resv7, the
 * CNP's 16 bytes) are ignored, so re-encoding gives them as 0.
 */
enum feroce_wire_err feroce_roce_decode(struct feroce_roce *f, const uint8_t *buf, size_t avail,
                                        size_t frame_len, size_t *hdr_len);

/* RFC 1071 checksum of an IPv4 header of 20 bytes (0 when it is valid). */
uint16_t feroce_ipv4_checksum(const uint8_t *ip_header);

/* Offset of the IPv4 header in a frame: 14, or 18 with a tag; 0 if not IPv4 or shorter than its 20 bytes. */
size_t feroce_ipv4_offset(const uint8_t *frame, size_t len);

/* A PFC (802.1Qbb) frame: which priorities it addresses and for how long. */
struct feroce_pfc {
    uint8_t src[6];
    uint8_t enable;     /* class-enable vector: bit n = priority n */
    uint16_t quanta[8]; /* pause time per priority in 512-bit-time quanta; 0 = resume */
};

/*
 * Write the 60-byte frame (to 01:80:c2:00:00:01, zero padded); NO_SPACE if cap < 60.  Decode wants that
 * destination, EtherType 0x8808 and opcode 0x0101 (else NOT_PFC) and len >= 60 (else TRUNCATED).
 */
enum feroce_wire_err feroce_pfc_encode(const struct feroce_pfc *p, uint8_t *buf, size_t cap);
enum feroce_wire_err feroce_pfc_decode(struct feroce_pfc *p, const uint8_t *buf, size_t len);

/* An 802.3x PAUSE frame: every frame of the link but MAC control stops for quanta (0 = resume). */
struct feroce_link_pause {
    uint8_t src[6];
    uint16_t quanta; /* pause_time in 512-bit-time quanta */
};

/*
 * Write the 60-byte frame: to 01:80:c2:00:00:01, EtherType 0x8808, opcode 0x0001, pause_time,
 * 42 reserved zero bytes; NO_SPACE if cap < 60.  Decode wants that destination, EtherType and
 * opcode (else NOT_LINK_PAUSE) and len >= 60 (else TRUNCATED); the reserved bytes are ignored.
 */
enum feroce_wire_err feroce_link_pause_encode(const struct feroce_link_pause *p, uint8_t *buf, size_t cap);
enum feroce_wire_err feroce_link_pause_decode(struct feroce_link_pause *p, const uint8_t *buf, size_t len);

/* Duration of a pause of q quanta at a link rate, in ns (one quantum is 512 bit times). */
static inline int64_t feroce_pfc_quanta_ns(uint16_t q, uint64_t rate_bps)
{
    return (int64_t)(((uint64_t)q * 512u * 1000000000u + rate_bps - 1) / rate_bps);
}

/* What an Ethernet frame is, from its EtherType (and UDP port): cheap, for dispatch. */
enum feroce_frame_kind {
    FEROCE_FRAME_OTHER = 0,
    FEROCE_FRAME_ROCE,
    FEROCE_FRAME_PFC,
    FEROCE_FRAME_LINK_PAUSE
};
enum feroce_frame_kind feroce_frame_classify(const uint8_t *buf, size_t len);

/* PSN arithmetic modulo 2^24: a - b as a signed distance in (-2^23, 2^23]. */
static inline int32_t feroce_psn_diff(uint32_t a, uint32_t b)
{
    uint32_t d = (a - b) & FEROCE_PSN_MASK;
    return d > 0x800000u ? (int32_t)d - 0x1000000 : (int32_t)d;
}

static inline uint32_t feroce_psn_add(uint32_t psn, uint32_t n)
{
    return (psn + n) & FEROCE_PSN_MASK;
}

#ifdef __cplusplus
}
#endif

#endif /* FEROCE_WIRE_H */
