/*
 * feroce-cp.h - DCQCN congestion point: the switch's ECN-marking decision and
 * its PFC threshold decision (src/feroce/doc/dcqcn.md, "Congestion point").
 *
 * Mechanism, not policy: these functions return a decision from the numbers
 * the caller passes in (queue bytes, a uniform draw, ingress bytes, free
 * buffer); the switch acts on it.
 */
#ifndef FEROCE_CP_H
#define FEROCE_CP_H

#include <stdint.h>

#include "feroce-check.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The two-bit ECN field of the IPv4 TOS byte. */
enum feroce_ecn { FEROCE_ECN_NOT_ECT = 0, FEROCE_ECN_ECT1 = 1, FEROCE_ECN_ECT0 = 2, FEROCE_ECN_CE = 3 };

enum feroce_mark_point {
    FEROCE_MARK_DEQUEUE = 0, /* q = bytes left after the departing packet (default) */
    FEROCE_MARK_ENQUEUE      /* q = bytes queued before the arriving packet */
};

struct feroce_cp_params {
    uint64_t kmin_bytes;
    uint64_t kmax_bytes;
    double pmax; /* marking probability at Kmax, [0, 1] */
    enum feroce_mark_point point;
};

/* paper: Kmin 5 KB, Kmax 200 KB, Pmax 1%; hpcc: 100 / 400 KB x bw/25G (KB = 1000 B), Pmax 0.2. */
enum feroce_err feroce_cp_preset(struct feroce_cp_params *p, const char *name, double line_rate_bps,
                                 struct feroce_check *why);

enum feroce_err feroce_cp_validate(const struct feroce_cp_params *p, struct feroce_check *why);

/* p(q): 0 up to Kmin, linear to Pmax at Kmax, 1 above Kmax. */
double feroce_cp_probability(const struct feroce_cp_params *p, uint64_t q_bytes);

/*
 * The probability of marking at one marking point: p(q) at the configured
 * point for an ECN-capable packet (ECT(0) or ECT(1)), 0 otherwise (the other
 * point; Not-ECT and CE are never marked).
 */
double feroce_cp_mark_probability(const struct feroce_cp_params *p, enum feroce_mark_point at,
                                  enum feroce_ecn ecn, uint64_t q_bytes);

/*
 * The marking decision at one marking point.  The switch calls it at both
 * points with the queue length seen there; it answers 1 (set CE) when u <
 * feroce_cp_mark_probability(), u uniform in [0, 1), drawn by the caller.  u
 * decides only where that probability is strictly between 0 and 1 (at 0 no u
 * marks, at 1 every u does): elsewhere a caller may take u's place in its
 * stream without computing it.
 */
int feroce_cp_mark(const struct feroce_cp_params *p, enum feroce_mark_point at, enum feroce_ecn ecn,
                   uint64_t q_bytes, double u);

/* ---- PFC thresholds (IEEE 802.1Qbb ingress accounting) ------------------ */

enum feroce_pfc_mode {
    FEROCE_PFC_STATIC = 0, /* fixed XOFF / XON byte thresholds */
    FEROCE_PFC_DYNAMIC     /* XOFF at alpha x free shared buffer (Broadcom-style dynamic threshold) */
};

struct feroce_pfc_params {
    enum feroce_pfc_mode mode;
    uint64_t xoff_bytes;       /* static: pause when ingress bytes exceed this */
    uint64_t xon_bytes;        /* static: resume when ingress bytes fall to this */
    double alpha;              /* dynamic: XOFF threshold = alpha x free shared bytes */
    uint64_t xon_offset_bytes; /* dynamic: resume at the XOFF threshold minus this */
};

enum feroce_pfc_action {
    FEROCE_PFC_HOLD = 0, /* no change */
    FEROCE_PFC_XOFF,     /* send PAUSE for this (port, priority) */
    FEROCE_PFC_XON       /* send resume */
};

enum feroce_err feroce_pfc_validate(const struct feroce_pfc_params *p, struct feroce_check *why);

/* The XOFF threshold in bytes for the current free shared buffer. */
uint64_t feroce_pfc_xoff_threshold(const struct feroce_pfc_params *p, uint64_t free_shared_bytes);

/* The XON threshold in bytes for the current free shared buffer. */
uint64_t feroce_pfc_xon_threshold(const struct feroce_pfc_params *p, uint64_t free_shared_bytes);

/*
 * Pure decision for one (ingress port, priority): given whether it is paused
 * now, its ingress bytes and the free shared buffer, pause, resume or hold.
 */
enum feroce_pfc_action feroce_pfc_decide(const struct feroce_pfc_params *p, int paused,
                                         uint64_t ingress_bytes, uint64_t free_shared_bytes);

#ifdef __cplusplus
}
#endif

#endif /* FEROCE_CP_H */
