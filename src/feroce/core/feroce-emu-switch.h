/*
 * feroce-emu-switch.h - an emulated DCQCN switch and receiver around a device
 * under test (a firmware rate limiter in an HDL simulation, or any program).
 *
 * The DUT's frames enter with the instant its MAC starts each one.  They
 * cross the DUT's link into one egress queue of the switch, which N-1 virtual
 * senders (each on its own link, backlogged, optionally each with the core's
 * DCQCN reaction point) also feed: an N:1 incast.  The egress port serializes
 * at its rate, marks ECN with the core's congestion point (feroce-cp.h; the
 * draws come from a seeded generator kept in the state), and the receiver
 * behind it runs the core's notification point (feroce-np.h).  What the
 * receiver answers to the DUT (CNPs, and ACKs for frames with AckReq set)
 * comes back as real frames with the instant at which they reach the DUT.
 *
 * Like the rest of the core: caller memory only (fixed-size rings inside the
 * state), no allocation, no I/O, no clock.  Time is integer ns and never goes
 * back; every call brings the switch to its `now` from the elapsed time, and
 * the work of a call is bounded by the frames that fit in that time, so a
 * test bench never hangs in here.
 */
#ifndef FEROCE_EMU_SWITCH_H
#define FEROCE_EMU_SWITCH_H

#include <stddef.h>
#include <stdint.h>

#include "feroce-check.h"
#include "feroce-cp.h"
#include "feroce-np.h"
#include "feroce-rp.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FEROCE_EMU_MAX_SENDERS 16   /* virtual senders beside the DUT */
#define FEROCE_EMU_QUEUE_CAP   2048 /* frames in the egress queue (with buffer_bytes, the limit) */
#define FEROCE_EMU_OUT_CAP     256  /* answers to the DUT not yet taken by feroce_emu_poll */
#define FEROCE_EMU_CNP_CAP     256  /* CNPs on their way to virtual senders */
#define FEROCE_EMU_FRAME_MAX   80   /* bytes of an answer frame (CNP 74, ACK 62) */
/* The switch keeps its clock in ps: instants lie in [0, FEROCE_EMU_TIME_MAX] ns (53 days), so that
 * every ps sum stays below 2^63; other instants are refused with FEROCE_E_TIME_RANGE. */
#define FEROCE_EMU_TIME_MAX (FEROCE_TIME_MAX / 1000)

struct feroce_emu_params {
    double egress_rate_bps;    /* the bottleneck port towards the receiver */
    double dut_link_rate_bps;  /* the DUT's link into the switch */
    uint32_t senders;          /* virtual senders, 0..FEROCE_EMU_MAX_SENDERS (N-1 of an N:1 incast) */
    double sender_rate_bps;    /* each virtual sender's link rate */
    uint32_t sender_frame_len; /* their frame length in bytes without FCS, 64..9018 */
    int sender_dcqcn;          /* 1: each virtual sender runs feroce_rp with sender_rp; 0: constant rate */
    struct feroce_rp_params sender_rp;
    struct feroce_cp_params cp; /* ECN marking at the egress queue */
    struct feroce_np_params np; /* CNP moderation at the receiver */
    uint64_t buffer_bytes;      /* egress queue capacity; a frame that does not fit is dropped */
    int64_t link_delay_ns;      /* propagation of every link, one way */
    int64_t np_delay_ns;        /* receiver: frame received -> its CNP or ACK leaves */
    uint32_t dut_qpn;           /* the DUT's QP: DestQP of the CNPs and ACKs it receives */
    uint64_t seed;              /* of the marking draws */
};

/* What the receiver sends back to the DUT. */
enum feroce_emu_kind { FEROCE_EMU_CNP = 1, FEROCE_EMU_ACK = 2 };

struct feroce_emu_output {
    int64_t t_ns; /* when its first bit reaches the DUT's MAC */
    int kind;     /* enum feroce_emu_kind */
    uint32_t psn; /* ACK: the PSN acknowledged */
    uint32_t len; /* frame bytes without FCS */
    uint8_t frame[FEROCE_EMU_FRAME_MAX];
};

/* A frame in the egress queue. */
struct feroce_emu_slot {
    uint32_t bytes; /* frame + FCS: what the queue holds */
    uint32_t psn;
    uint8_t src; /* 0 = DUT, 1.. = virtual sender */
    uint8_t ecn;
    uint8_t ackreq;
    uint8_t marked;
};

struct feroce_emu_stats {
    uint64_t dut_frames, dut_bytes; /* DUT frames (bytes without FCS) delivered to the receiver */
    uint64_t sender_bytes[FEROCE_EMU_MAX_SENDERS];
    uint64_t dut_marked, sender_marked;   /* CE marks set by the switch */
    uint64_t dut_dropped, sender_dropped; /* tail drops at the egress queue */
    uint64_t cnps_to_dut, acks_to_dut, cnps_to_senders;
    uint64_t answers_lost; /* answers to the DUT dropped because it did not poll */
    uint64_t queue_max_bytes;
};

struct feroce_emu_state {
    int64_t now;    /* ns of the last call */
    int64_t now_ps; /* the switch's own clock (ps), events processed up to here */
    uint64_t rng;   /* splitmix64 state of the marking draws */
    /* egress queue (ring) and the frame on the wire */
    struct feroce_emu_slot queue[FEROCE_EMU_QUEUE_CAP];
    uint32_t q_head, q_count;
    uint64_t q_bytes;
    int64_t busy_until_ps; /* the egress wire is free from here */
    /* DUT frames still on the DUT's link (arrive at the queue in order) */
    struct feroce_emu_slot inflight[FEROCE_EMU_QUEUE_CAP];
    int64_t inflight_at_ps[FEROCE_EMU_QUEUE_CAP];
    uint32_t in_head, in_count;
    int64_t dut_link_free_ps;
    /* receiver */
    struct feroce_np_state np_qp[FEROCE_EMU_MAX_SENDERS + 1];
    struct feroce_np_state np_port;
    uint32_t msn;
    uint8_t dut_mac[6], rx_mac[6]; /* from the DUT's last frame: answers go back to it */
    uint32_t dut_ip, rx_ip;
    /* virtual senders */
    struct feroce_rp_state rp[FEROCE_EMU_MAX_SENDERS];
    int64_t next_send_ps[FEROCE_EMU_MAX_SENDERS];
    int64_t cnp_at_ps[FEROCE_EMU_CNP_CAP];
    uint8_t cnp_to[FEROCE_EMU_CNP_CAP];
    uint32_t cnp_head, cnp_count;
    /* answers to the DUT, in time order */
    struct feroce_emu_output out[FEROCE_EMU_OUT_CAP];
    uint32_t out_head, out_count;
    struct feroce_emu_stats stats;
};

/*
 * A 3:1 incast of 10 GbE links into one 10 GbE receiver: two virtual senders
 * with the connectx reaction point and 4 KiB RDMA WRITE frames, ECN and NP of
 * the named preset ("paper" or "hpcc"), 2 MB of buffer, 1 us links.
 */
enum feroce_err feroce_emu_preset(struct feroce_emu_params *p, const char *name, struct feroce_check *why);

enum feroce_err feroce_emu_validate(const struct feroce_emu_params *p, struct feroce_check *why);

/* Empty queue, senders start sending at now (clamped to [0, FEROCE_EMU_TIME_MAX]). */
void feroce_emu_init(struct feroce_emu_state *s, const struct feroce_emu_params *p, int64_t now);

/*
 * The DUT's MAC starts transmitting `frame` (len bytes, Ethernet without FCS)
 * at now.  It must be a RoCEv2 frame feroce_roce_decode accepts (else
 * FEROCE_E_BAD_VALUE, *why naming the frame and the decoder's verdict).  A
 * frame started before the previous one has left the DUT's link follows it
 * (the link is a FIFO at dut_link_rate_bps).  CNPs and ACKs go back to the
 * addresses of the DUT's last frame.
 */
enum feroce_err feroce_emu_dut_frame(struct feroce_emu_state *s, const struct feroce_emu_params *p,
                                     int64_t now, const uint8_t *frame, size_t len, struct feroce_check *why);

/* Run the switch and receiver up to now (no DUT event).  The work is bounded by the frames the
 * virtual senders and the DUT put on the wires until now: a few per microsecond of 10 GbE. */
enum feroce_err feroce_emu_advance(struct feroce_emu_state *s, const struct feroce_emu_params *p,
                                   int64_t now);

/*
 * Take the next answer that reaches the DUT at or before now (after running
 * the switch to now; a now that advance refuses takes the last call's):
 * 1 and *out filled, or 0 when there is none.
 */
int feroce_emu_poll(struct feroce_emu_state *s, const struct feroce_emu_params *p, int64_t now,
                    struct feroce_emu_output *out);

/*
 * Take the next answer that reaches the DUT at or before `until` without
 * running the switch: 1 and *out filled, or 0.  Every answer up to
 * feroce_emu_horizon() is already known (one made later leaves the receiver
 * after now and crosses two links back), so a bench that holds the switch at
 * the first byte of a DUT frame it has not yet read whole still drives each
 * answer in its cycle.  An `until` beyond the horizon is taken as the horizon.
 */
int feroce_emu_take(struct feroce_emu_state *s, const struct feroce_emu_params *p, int64_t until,
                    struct feroce_emu_output *out);

/* The instant up to which every answer to the DUT is known: now + 2 x link_delay_ns. */
static inline int64_t feroce_emu_horizon(const struct feroce_emu_state *s, const struct feroce_emu_params *p)
{
    return s->now + 2 * p->link_delay_ns;
}

/* Instant of the next answer already known (FEROCE_NEVER if none): a bench may sleep until then. */
int64_t feroce_emu_next_answer(const struct feroce_emu_state *s);

/* Bytes in the egress queue at the last call. */
static inline uint64_t feroce_emu_queue_bytes(const struct feroce_emu_state *s)
{
    return s->q_bytes;
}

#ifdef __cplusplus
}
#endif

#endif /* FEROCE_EMU_SWITCH_H */
