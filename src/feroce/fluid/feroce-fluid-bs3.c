/*
 * feroce-fluid-bs3.c - adaptive time integration of the fluid model: the
 * Bogacki-Shampine 3(2) pair with error control, as MATLAB's dde23 that the
 * paper's authors used.
 *
 * The delayed q and Rc come from the history of accepted steps
 * (feroce-fluid-history.c).  Steps are not tied to the delay: when a step is
 * longer than tau*, its later stages need values inside the step itself,
 * taken from the cubic Hermite between the step's start and the stage's own
 * state (with the slope of the stage before it): one pass of three
 * evaluations per step.  Where bs3's step is held at its stability limit, the
 * stabilised pair of feroce-fluid-rk3s.c takes over.
 */
#include "feroce-fluid-step.h"

#include <math.h>
#include <string.h>

#define NV FEROCE_FLUID_NV
#define W  FEROCE_FLUID_W

static void derivative_now(struct feroce_fluid_sim *s)
{
    struct feroce_fluid_terms t[FEROCE_FLUID_MAX_CLASSES];
    double y[NV];

    feroce_fluid_get_state(s, y);
    feroce_fluid_stage_terms(s, s->t, y, NULL, t);
    feroce_fluid_rhs(s, y, t, s->dy);
    s->dy_ok = 1;
}

void feroce_fluid_bs3_init(struct feroce_fluid_sim *s)
{
    const struct feroce_fluid_params *p = s->p;
    double y[NV], zero[NV] = { 0 };

    s->hcap = feroce_fluid_history_cap(p);
    s->h_min = p->delay_ns > 0 ? (double)p->delay_ns * 1e-12 : 1e-12;
    s->h_next = feroce_fluid_min((double)p->adaptive_max_step_ns * 1e-9, 1e-7);
    s->h_next = feroce_fluid_max(s->h_next, s->h_min);
    feroce_fluid_get_state(s, y);
    feroce_fluid_history_push(s, 0, y, zero); /* the history before 0 is constant */
    derivative_now(s);
    memcpy(s->prev_dy, s->dy, sizeof s->dy);
}

/* One try of a step h from y (derivative k1): the new state y1, its derivative k4, the error norm. */
static double attempt(const struct feroce_fluid_sim *s, const double *y, const double *k1, double h,
                      double *y1, double *k4)
{
    uint32_t nv = 1 + W * s->p->nclasses, j;
    struct feroce_fluid_terms t[FEROCE_FLUID_MAX_CLASSES];
    double k2[NV], k3[NV], ys[NV], e[NV];
    struct feroce_fluid_in_step st = { y, k1, k1 };

    for (j = 0; j < nv; j++)
        ys[j] = y[j] + h / 2 * k1[j];
    feroce_fluid_stage_terms(s, s->t + h / 2, ys, &st, t);
    feroce_fluid_rhs(s, ys, t, k2);
    for (j = 0; j < nv; j++)
        ys[j] = y[j] + 3 * h / 4 * k2[j];
    st.ks = k2;
    feroce_fluid_stage_terms(s, s->t + 3 * h / 4, ys, &st, t);
    feroce_fluid_rhs(s, ys, t, k3);
    for (j = 0; j < nv; j++)
        y1[j] = y[j] + h * (2.0 / 9 * k1[j] + 1.0 / 3 * k2[j] + 4.0 / 9 * k3[j]);
    st.ks = k3;
    feroce_fluid_stage_terms(s, s->t + h, y1, &st, t);
    feroce_fluid_rhs(s, y1, t, k4);
    /* the embedded 2nd-order solution's difference */
    for (j = 0; j < nv; j++)
        e[j] = h * (-5.0 / 72 * k1[j] + 1.0 / 12 * k2[j] + 1.0 / 9 * k3[j] - 1.0 / 8 * k4[j]);
    return feroce_fluid_err_norm(s, y1, e);
}

/* After an accepted step h of error norm err: the next step, and the switch between the two pairs.
 * bs3 (I control, 0.9 err^-1/3) hands over to the stabilised pair after 8 accepted steps in a row
 * that could not grow by 5% (held at its stability limit); that one runs with PI control
 * (0.9 err^-0.7/3 err_prev^0.4/3, no growth right after a refusal), which keeps it from cycling at
 * its own limit, and hands back when its step falls below 0.8 of bs3's at the switch (the solution
 * moves again: accuracy, not stability, bounds the step). */
static void next_step(struct feroce_fluid_sim *s, double h, double err, double h_max)
{
    double fac;

    if (s->stab) {
        double e = feroce_fluid_max(err, 1e-6);

        fac = 0.9 * pow(e, -0.7 / 3) * pow(s->err_prev, 0.4 / 3);
        fac = feroce_fluid_min(5.0, feroce_fluid_max(0.2, fac));
        if (s->rejected_last)
            fac = feroce_fluid_min(fac, 1.0);
        s->err_prev = e;
        s->h_next = feroce_fluid_min(h_max, h * fac);
        if (s->h_next < 0.8 * s->h_switch) {
            s->stab = 0;
            s->held = 0;
        }
    } else {
        fac = feroce_fluid_min(5.0, err > 0 ? 0.9 * cbrt(1 / err) : 5.0);
        s->h_next = feroce_fluid_min(h_max, h * fac);
        s->held = !s->rejected_last && fac < 1.05 && h < h_max ? s->held + 1 : 0;
        if (s->held >= 8) {
            s->stab = 1;
            s->h_switch = h;
            s->err_prev = 1;
            s->h_next = feroce_fluid_min(h_max, 2 * h);
        }
    }
    s->rejected_last = 0;
}

void feroce_fluid_bs3_step(struct feroce_fluid_sim *s)
{
    const struct feroce_fluid_params *p = s->p;
    double h_max = (double)p->adaptive_max_step_ns * 1e-9;
    double t_event = feroce_fluid_next_event(s), y[NV], y1[NV], k4[NV], err, h;
    int moved, forced;

    if (!s->dy_ok)
        derivative_now(s);
    feroce_fluid_get_state(s, y);
    for (;;) {
        h = feroce_fluid_min(h_max, feroce_fluid_max(s->h_next, s->h_min));
        forced = s->t + h >= t_event;
        if (forced)
            h = t_event - s->t;
        err = s->stab ? feroce_fluid_rk3s_attempt(s, y, s->dy, h, y1, k4) : attempt(s, y, s->dy, h, y1, k4);
        if (err <= 1 || h <= s->h_min * (1 + 1e-9) || (forced && h < s->h_min))
            break;
        s->rejected++;
        s->rejected_last = 1;
        s->h_next = h * feroce_fluid_max(0.2, 0.9 * cbrt(1 / err));
    }
    next_step(s, h, err, h_max);
    s->prev_q = s->q;
    memcpy(s->prev_f, s->f, sizeof(s->f[0]) * p->nclasses);
    memcpy(s->prev_dy, s->dy, sizeof(double) * (1 + W * p->nclasses));
    moved = feroce_fluid_set_state(s, y1);
    memcpy(s->dy, k4, sizeof(double) * (1 + W * p->nclasses));
    s->dy_ok = !moved;
    s->t = forced ? t_event : s->t + h;
    s->h = h;
    s->steps++;
    feroce_fluid_get_state(s, y);
    feroce_fluid_history_push(s, s->t, y, k4);
    feroce_fluid_history_prune(s);
    if (feroce_fluid_schedule(s)) {
        s->stab = 0; /* a class joined or left: bs3 again until the step is held */
        s->held = 0;
        derivative_now(s);
        feroce_fluid_get_state(s, y);
        feroce_fluid_history_push(s, s->t, y, s->dy);
    }
}

void feroce_fluid_bs3_sample(const struct feroce_fluid_sim *s, double t_s, double *q_pkts,
                             struct feroce_fluid_flow *f)
{
    double h = s->h, x = s->steps > 0 && h > 0 ? (t_s - (s->t - h)) / h : 1, h00, h10, h01, h11;
    const double *da = s->prev_dy, *db = s->dy;
    uint32_t i;

    x = feroce_fluid_min(1, feroce_fluid_max(0, x));
    h00 = (1 + 2 * x) * (1 - x) * (1 - x);
    h10 = x * (1 - x) * (1 - x) * h;
    h01 = x * x * (3 - 2 * x);
    h11 = x * x * (x - 1) * h;
    *q_pkts = feroce_fluid_max(0, h00 * s->prev_q + h10 * da[0] + h01 * s->q + h11 * db[0]);
    for (i = 0; i < s->p->nclasses; i++) {
        const struct feroce_fluid_flow *a = &s->prev_f[i], *b = &s->f[i];
        const double *va = da + 1 + W * i, *vb = db + 1 + W * i;

        f[i].alpha = feroce_fluid_min(
            1, feroce_fluid_max(0, h00 * a->alpha + h10 * va[0] + h01 * b->alpha + h11 * vb[0]));
        f[i].rt = feroce_fluid_min(
            s->line_pkts[i],
            feroce_fluid_max(s->min_pkts[i], h00 * a->rt + h10 * va[1] + h01 * b->rt + h11 * vb[1]));
        f[i].rc = feroce_fluid_min(
            s->line_pkts[i],
            feroce_fluid_max(s->min_pkts[i], h00 * a->rc + h10 * va[2] + h01 * b->rc + h11 * vb[2]));
        f[i].u = feroce_fluid_max(0, h00 * a->u + h10 * va[3] + h01 * b->u + h11 * vb[3]);
    }
}
