/*
 * feroce-fluid-step.h - what the two integrators of the fluid model share
 * (internal to the model: feroce-fluid-run.c, feroce-fluid-bs3.c and feroce-fluid-terms.c).
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

/* bs3 */
size_t feroce_fluid_bs3_ring_len(const struct feroce_fluid_params *p);
void feroce_fluid_bs3_init(struct feroce_fluid_sim *s);
void feroce_fluid_bs3_step(struct feroce_fluid_sim *s);
void feroce_fluid_bs3_sample(const struct feroce_fluid_sim *s, double t_s, double *q_pkts,
                             struct feroce_fluid_flow *f);

#endif /* FEROCE_FLUID_STEP_H */
