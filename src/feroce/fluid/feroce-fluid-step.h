/*
 * feroce-fluid-step.h - what the integrators of the fluid model share (internal to the model).
 * The files call downwards only, each the ones below it:
 *   feroce-fluid-run.c      init, advance, sample; RK4 with a fixed step
 *   feroce-fluid-bs3.c      the adaptive integrator: bs3 and its step control
 *   feroce-fluid-rk3s.c     the stabilised pair bs3 hands over to
 *   feroce-fluid-history.c  the adaptive integrator's history of delayed values
 *   feroce-fluid-state.c    the state vector, its derivative, clamps, joins and leaves, error norm
 *   feroce-fluid-terms.c    the model's terms (feroce-fluid.h)
 */
#ifndef FEROCE_FLUID_STEP_H
#define FEROCE_FLUID_STEP_H

#include "feroce-fluid.h"

#define FEROCE_FLUID_NV (1 + 4 * FEROCE_FLUID_MAX_CLASSES)
#define FEROCE_FLUID_W  4 /* variables per class: alpha, rt, rc, u */

/* fmax and fmin (a NaN argument loses to a number), inlined: libm's are calls on the hot path */
static inline double feroce_fluid_max(double a, double b)
{
    return a > b || b != b ? a : b;
}

static inline double feroce_fluid_min(double a, double b)
{
    return a < b || b != b ? a : b;
}

/* The u-independent terms of every active class for a delayed queue qd and delayed rates xd[]. */
void feroce_fluid_delayed_terms(const struct feroce_fluid_sim *s, double qd, const double *xd,
                                struct feroce_fluid_terms *t);

/* Derivatives at y = (q, then alpha, rt, rc, u per class), from the delayed terms. */
void feroce_fluid_rhs(const struct feroce_fluid_sim *s, const double *y, const struct feroce_fluid_terms *t,
                      double *dy);

/* y -> the state: clamps q >= 0, min_rate <= Rc, Rt <= line, alpha in [0, 1], u >= 0; returns 1 when a
 * clamp moved a value (the derivative at the new point is then not the last stage's). */
int feroce_fluid_set_state(struct feroce_fluid_sim *s, const double *y);

/* The state as a vector y. */
void feroce_fluid_get_state(const struct feroce_fluid_sim *s, double *y);

/* Classes join and leave at time t; returns 1 when one did. */
int feroce_fluid_schedule(struct feroce_fluid_sim *s);

/* The next join or leave time after t (s), INFINITY if none. */
double feroce_fluid_next_event(const struct feroce_fluid_sim *s);

/* The stage a step is at, for delayed times inside the step itself (tau* < h): the delayed q and Rc
 * are then the cubic Hermite between the step's start (y0, slope k0) and the stage (ys, slope ks). */
struct feroce_fluid_in_step {
    const double *y0, *k0, *ks;
};

/* The delayed terms for a stage at time ts with state y (from bs3's history, or inside the step). */
void feroce_fluid_stage_terms(const struct feroce_fluid_sim *s, double ts, const double *y,
                              const struct feroce_fluid_in_step *st, struct feroce_fluid_terms *t);

/* The error norm of a step to y1 whose embedded solution differs by e[]: the largest of |e| over
 * rtol times each variable's size (floors: 1 packet for q, 1e-6 for alpha, 0.1% of the line rate for
 * the rates, 10 packets for u); INFINITY if not finite. */
double feroce_fluid_err_norm(const struct feroce_fluid_sim *s, const double *y1, const double *e);

/* One try of the stabilised 3(2) pair (feroce-fluid-rk3s.c) of a step h from y (derivative k1):
 * the new state y1, its derivative k5, the error norm. */
double feroce_fluid_rk3s_attempt(const struct feroce_fluid_sim *s, const double *y, const double *k1,
                                 double h, double *y1, double *k5);

/* The history (feroce-fluid-history.c): doubles of the caller's buffer it needs, nodes it holds;
 * a node pushed at time t (state y, derivative dy); the nodes no later stage reads dropped. */
size_t feroce_fluid_history_len(const struct feroce_fluid_params *p);
uint32_t feroce_fluid_history_cap(const struct feroce_fluid_params *p);
void feroce_fluid_history_push(struct feroce_fluid_sim *s, double t, const double *y, const double *dy);
void feroce_fluid_history_prune(struct feroce_fluid_sim *s);

/* bs3 */
void feroce_fluid_bs3_init(struct feroce_fluid_sim *s);
void feroce_fluid_bs3_step(struct feroce_fluid_sim *s);
void feroce_fluid_bs3_sample(const struct feroce_fluid_sim *s, double t_s, double *q_pkts,
                             struct feroce_fluid_flow *f);

#endif /* FEROCE_FLUID_STEP_H */
