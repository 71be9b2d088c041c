/*
 * feroce-fluid.h - the DCQCN fluid model: a delayed ODE per flow class, its
 * exact fixed point and the phase margin of its linearisation.
 *
 * Model of Zhu et al., "ECN or Delay: Lessons Learnt from Analysis of DCQCN
 * and TIMELY" (CoNEXT 2016), extended with the reaction-point behaviour of
 * feroce's core (hyper increase, byte counter disabled, periodic alpha,
 * decrease period, rate floor, clamp policy): src/feroce/doc/fluid.md lists
 * every term and which ones are approximations.
 *
 * A class is a number of identical flows with their own DCQCN parameters
 * (the core's struct feroce_rp_params) that join and leave at given times.
 * All classes share one bottleneck queue with ECN marking (the core's struct
 * feroce_cp_params).  Internally the model counts packets of packet_bytes,
 * seconds and packets per second; the interface uses bytes, b/s and ns.
 *
 * Like the core: parameters validated once, state in caller memory, no I/O,
 * no allocation (the delay line is a caller-provided buffer).
 */
#ifndef FEROCE_FLUID_H
#define FEROCE_FLUID_H

#include <stddef.h>
#include <stdint.h>

#include "feroce-check.h"
#include "feroce-cp.h"
#include "feroce-rp.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FEROCE_FLUID_MAX_CLASSES 64

/* How the model turns marks into CNPs (and cuts). */
enum feroce_fluid_cnp {
    FEROCE_FLUID_CNP_PAPER = 0, /* the paper's a/tau: P(a mark in one interval) per interval */
    FEROCE_FLUID_CNP_NP         /* the notification point's renewal rate 1/(tau + 1/(P X)) */
};

/* Marking above Kmax. */
enum feroce_fluid_ramp {
    FEROCE_FLUID_RAMP_RED = 0, /* every packet (the switch, spec/dcqcn.md) */
    FEROCE_FLUID_RAMP_LINEAR   /* the ramp goes on to p = 1 (the paper's linear analysis, its Fig. 3) */
};

/* Time integration of the delayed ODE. */
enum feroce_fluid_method {
    FEROCE_FLUID_RK4 = 0, /* classic RK4, fixed step h = delay / k <= max_step_ns (method of steps) */
    FEROCE_FLUID_BS3      /* Bogacki-Shampine 3(2), adaptive step <= adaptive_max_step_ns with error
                           * control (rel_tol), delayed values from a cubic Hermite history (as dde23) */
};

struct feroce_fluid_class {
    struct feroce_rp_params rp; /* the flows' reaction point (validated by feroce_rp_validate) */
    int64_t np_interval_ns;     /* tau: the notification point's CNP interval, >= 0 */
    uint32_t flows;             /* identical flows in the class, >= 1 */
    int64_t join_ns;            /* the class sends from this instant ... */
    int64_t leave_ns;           /* ... until this one (FEROCE_NEVER: to the end) */
};

struct feroce_fluid_params {
    double bottleneck_bps;      /* C: the queue's drain rate */
    struct feroce_cp_params cp; /* ECN ramp of the queue (mark point does not matter here) */
    int64_t delay_ns;           /* tau*: control-loop delay of marks and of X = Rc(t - tau*) */
    uint32_t packet_bytes;      /* unit of the model: marking probability is per packet */
    enum feroce_fluid_method method;
    int64_t max_step_ns;          /* rk4: h <= this; h = delay / k exactly (feroce_fluid_step_s) */
    int64_t adaptive_max_step_ns; /* bs3: the largest step */
    double rel_tol;               /* bs3: local error per step <= rel_tol x |value| (with floors) */
    enum feroce_fluid_cnp cnp;
    enum feroce_fluid_ramp ramp;
    uint32_t nclasses;
    struct feroce_fluid_class cls[FEROCE_FLUID_MAX_CLASSES];
};

/* The paper's setting (spec/fluid.md) for `flows` flows of one class at line_rate_bps (RP, NP, CP
 * presets by name as in the packet model: paper, connectx or hpcc). */
enum feroce_err feroce_fluid_preset(struct feroce_fluid_params *p, const char *preset, double line_rate_bps,
                                    uint32_t flows, struct feroce_check *why);

/* FEROCE_OK, or the first bad parameter in *why. */
enum feroce_err feroce_fluid_validate(const struct feroce_fluid_params *p, struct feroce_check *why);

/* The integration step in seconds: the largest h <= max_step with delay = k h (k integer >= 1). */
double feroce_fluid_step_s(const struct feroce_fluid_params *p);

/* ---- the rate terms of one flow ------------------------------------------ */

/*
 * Everything the ODE needs about one flow of a class, for a delayed marking
 * probability P, a delayed rate X (packets/s) and u packets sent since the last
 * cut (it gates hyper increase).  All rates per second.
 */
struct feroce_fluid_terms {
    double cut;      /* rate of rate cuts (the paper's a/tau) */
    double clamp;    /* fraction of cuts that also set Rt <- Rc */
    double recover;  /* rate of increase events (byte counter + timer): Rc <- (Rt + Rc)/2 */
    double increase; /* growth of Rt in pkt/s per second from additive and hyper steps */
    double up;       /* alpha's pull towards 1 (per second) */
    double down;     /* alpha's pull towards 0 (per second) */
    /* the part of `increase` that depends on u (feroce_fluid_increase) */
    double add;       /* R_AI steps per second, in pkt/s per second */
    double hyp[2];    /* R_HAI x hyper events per second of the byte counter and the timer */
    double mean[2];   /* their mean hyper stage past F (linear mode), 0 for a constant step */
    double gate_lo;   /* hyper starts when u passes gate_lo ... */
    double gate_w;    /* ... fully after gate_w more packets */
    double stage_l;   /* packets per stage of the slower counter */
    double stage_off; /* u / stage_l - stage_off: the stage u reaches past F */
};

/* The terms that do not depend on u (P, X, the class). */
void feroce_fluid_terms_base(const struct feroce_fluid_params *p, const struct feroce_fluid_class *c,
                             double P, double X, struct feroce_fluid_terms *t);

/* Rt's growth for u packets since the last cut, from the base terms. */
double feroce_fluid_increase(const struct feroce_fluid_terms *t, double u);

/* dv/dt of one flow from terms already computed for its delayed P and X. */
void feroce_fluid_flow_rhs_terms(const struct feroce_fluid_terms *t, double line, double floor_rate,
                                 const double v[4], double dv[4]);

void feroce_fluid_terms(const struct feroce_fluid_params *p, const struct feroce_fluid_class *c, double P,
                        double X, double u, struct feroce_fluid_terms *t);

/*
 * d(alpha, Rt, Rc, u)/dt of one flow of class c (rates in pkt/s) for delayed P and X, with the
 * clamps at the line rate; line and floor in pkt/s.
 */
void feroce_fluid_flow_rhs(const struct feroce_fluid_params *p, const struct feroce_fluid_class *c,
                           double line, double floor_rate, const double v[4], double P, double X,
                           double dv[4]);

/* Marking probability at a queue of q packets. */
double feroce_fluid_mark(const struct feroce_fluid_params *p, double q_pkts);

/* ---- time integration ----------------------------------------------------- */

/* One class's variables (one flow of it). */
struct feroce_fluid_flow {
    double alpha;
    double rt; /* pkt/s */
    double rc; /* pkt/s */
    double u;  /* packets sent since the last cut (mean field: resets at the cut rate) */
};

struct feroce_fluid_sim {
    const struct feroce_fluid_params *p;
    double h;      /* rk4: the step; bs3: the last step taken (s) */
    uint32_t k;    /* rk4: delay in steps */
    int64_t steps; /* steps done */
    double t;      /* time (s) */
    double q;      /* packets */
    struct feroce_fluid_flow f[FEROCE_FLUID_MAX_CLASSES];
    uint8_t active[FEROCE_FLUID_MAX_CLASSES];
    double *ring; /* delay line: (k + 1) rows of (q, rc[0..n-1]) */
    uint32_t head;
    /* the state one step back, for sampling between steps */
    double prev_q;
    struct feroce_fluid_flow prev_f[FEROCE_FLUID_MAX_CLASSES];
    double line_pkts[FEROCE_FLUID_MAX_CLASSES];
    double min_pkts[FEROCE_FLUID_MAX_CLASSES];
    double C; /* bottleneck, pkt/s */
    /* the terms of the delayed row that the next step starts from (k > 0) */
    struct feroce_fluid_terms next_terms[FEROCE_FLUID_MAX_CLASSES];
    uint8_t next_terms_ok;
    /* bs3: the history is a ring of nodes (t, q and each Rc, their derivatives), hermite between */
    uint32_t hcap, hn, hhead; /* capacity, nodes held, newest */
    double h_next;            /* the step the error control proposes */
    double h_min;             /* delay / 1000: the history never needs more than hcap nodes */
    double dy[1 + 4 * FEROCE_FLUID_MAX_CLASSES];      /* derivative at t (first stage of the next step) */
    double prev_dy[1 + 4 * FEROCE_FLUID_MAX_CLASSES]; /* ... and one step back (for sampling) */
    uint8_t dy_ok;
    int64_t rejected; /* steps the error control refused */
    /* bs3's switch to its stabilised pair where its step is held at its stability limit */
    uint8_t stab;          /* the stabilised pair is on */
    uint8_t rejected_last; /* the last try was refused */
    uint32_t held;         /* accepted bs3 steps in a row that could not grow */
    double h_switch;       /* bs3's step when the stabilised pair took over */
    double err_prev;       /* the last accepted error norm (PI control) */
};

/* Doubles the delay line needs. */
size_t feroce_fluid_ring_len(const struct feroce_fluid_params *p);

/* Start at t = 0 (history: q = 0, every rate at its line rate, alpha = initial_alpha).
 * ring holds feroce_fluid_ring_len(p) doubles; p must be valid and outlive the sim. */
void feroce_fluid_init(struct feroce_fluid_sim *s, const struct feroce_fluid_params *p, double *ring);

static inline double feroce_fluid_time(const struct feroce_fluid_sim *s)
{
    return s->t;
}

/* Integrate until time >= t_s (steps are not cut at t_s: use feroce_fluid_sample).  FEROCE_E_BAD_VALUE (param
 * "fluid state") when a value is no longer finite: the run diverged. */
enum feroce_err feroce_fluid_advance(struct feroce_fluid_sim *s, double t_s, struct feroce_check *why);

/* The state at t_s inside the last step (t_s in [time - h, time]): linear (rk4) or cubic Hermite (bs3). */
void feroce_fluid_sample(const struct feroce_fluid_sim *s, double t_s, double *q_pkts,
                         struct feroce_fluid_flow *f);

/* ---- fixed point ----------------------------------------------------------- */

struct feroce_fluid_fixed {
    double p;        /* marking probability */
    double q_pkts;   /* queue */
    int in_ramp;     /* p <= pmax: q on the marking ramp (else q = Kmax, p between pmax and 1) */
    int congested;   /* the classes at line rate exceed C; else p = q = 0 and every rate is at line */
    double p_taylor; /* the paper's approximation (one class), NAN when it does not apply */
    struct feroce_fluid_flow f[FEROCE_FLUID_MAX_CLASSES];
};

/* The exact equilibrium of all classes (join/leave times ignored), by GSL root finding. */
enum feroce_err feroce_fluid_fixed_point(const struct feroce_fluid_params *p, struct feroce_fluid_fixed *fp,
                                         struct feroce_check *why);

/* ---- stability ------------------------------------------------------------ */

struct feroce_fluid_margin {
    double phase_margin_deg; /* at the gain crossover with the smallest margin; +INF if none */
    double crossover_hz;     /* 0 if none */
    struct feroce_fluid_fixed fixed;
};

/* Phase margin of the loop linearised around the fixed point. */
enum feroce_err feroce_fluid_margin(const struct feroce_fluid_params *p, struct feroce_fluid_margin *m,
                                    struct feroce_check *why);

/* Open-loop transfer function L(j omega) around fp (closed loop: 1 + L = 0). */
void feroce_fluid_loop(const struct feroce_fluid_params *p, const struct feroce_fluid_fixed *fp, double omega,
                       double *re, double *im);

/* The largest delay (ns) up to max_delay_ns with a positive margin, by scanning from 0 and
 * bisecting the first sign change; max_delay_ns when the margin stays positive, 0 when it is
 * not positive even at delay 0. */
enum feroce_err feroce_fluid_boundary(const struct feroce_fluid_params *p, int64_t max_delay_ns,
                                      int64_t *delay_ns, struct feroce_check *why);

#ifdef __cplusplus
}
#endif

#endif /* FEROCE_FLUID_H */
