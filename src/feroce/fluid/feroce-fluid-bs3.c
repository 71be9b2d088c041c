/*
 * feroce-fluid-bs3.c - adaptive time integration of the fluid model: the
 * Bogacki-Shampine 3(2) pair with error control, as MATLAB's dde23 that the
 * paper's authors used.
 *
 * The delayed q and Rc come from a history of nodes (time, q and each Rc, and
 * their derivatives), one per accepted step, cubic Hermite between nodes.
 * Steps are not tied to the delay: when a step is longer than tau*, its later
 * stages need values inside the step itself, taken from the cubic Hermite
 * between the step's start and the stage's own state (with the slope of the
 * stage before it): one pass of three evaluations per step.
 * The step is at least delay / 1000, so the history never holds more than
 * about 1000 nodes; the caller's buffer (feroce_fluid_ring_len) holds them.
 */
#include "feroce-fluid-step.h"

#include <math.h>
#include <string.h>

#define NV FEROCE_FLUID_NV
#define W  FEROCE_FLUID_W

/* doubles per node: t, then q and each Rc, then their derivatives */
static size_t node_len(uint32_t nclasses)
{
    return 1 + 2 * (1 + (size_t)nclasses);
}

static uint32_t node_cap(const struct feroce_fluid_params *p)
{
    /* 1000 steps of delay / 1000, the steps cut at joins and leaves, the tentative node */
    return p->delay_ns > 0 ? 1000 + 4 * p->nclasses + 8 : 4;
}

size_t feroce_fluid_bs3_ring_len(const struct feroce_fluid_params *p)
{
    return node_cap(p) * node_len(p->nclasses);
}

static double *node(const struct feroce_fluid_sim *s, uint32_t j) /* j = 0: the oldest held */
{
    return s->ring + (size_t)((s->hhead + s->hcap + 1 - s->hn + j) % s->hcap) * node_len(s->p->nclasses);
}

static void push_node(struct feroce_fluid_sim *s, double t, const double *y, const double *dy)
{
    uint32_t n = s->p->nclasses, i;
    double *r;

    s->hhead = (s->hhead + 1) % s->hcap;
    if (s->hn < s->hcap)
        s->hn++;
    r = node(s, s->hn - 1);
    r[0] = t;
    r[1] = y[0];
    r[2 + n] = dy[0];
    for (i = 0; i < n; i++) {
        int on = s->active[i];

        r[2 + i] = on ? y[3 + W * i] : s->line_pkts[i];
        r[3 + n + i] = on ? dy[3 + W * i] : 0;
    }
}

/* q and each Rc at time tq from the history */
static void lookup(const struct feroce_fluid_sim *s, double tq, double *out)
{
    uint32_t m = 1 + s->p->nclasses, j = s->hn - 1, i;
    const double *a, *b;
    double dt, x, h00, h10, h01, h11;

    if (tq <= node(s, 0)[0]) {
        memcpy(out, node(s, 0) + 1, sizeof(double) * m);
        return;
    }
    while (node(s, j)[0] > tq) /* the last node at or before tq: a few back from the newest */
        j--;
    a = node(s, j);
    if (j == s->hn - 1) { /* past the newest node: linear extrapolation */
        for (i = 0; i < m; i++)
            out[i] = a[1 + i] + a[1 + m + i] * (tq - a[0]);
        return;
    }
    b = node(s, j + 1);
    dt = b[0] - a[0];
    x = (tq - a[0]) / dt;
    h00 = (1 + 2 * x) * (1 - x) * (1 - x);
    h10 = x * (1 - x) * (1 - x) * dt;
    h01 = x * x * (3 - 2 * x);
    h11 = x * x * (x - 1) * dt;
    for (i = 0; i < m; i++)
        out[i] = h00 * a[1 + i] + h10 * a[1 + m + i] + h01 * b[1 + i] + h11 * b[1 + m + i];
}

/* Forget the nodes no stage will read again: every later read is at or after t - tau. */
static void prune(struct feroce_fluid_sim *s)
{
    double oldest = s->t - (double)s->p->delay_ns * 1e-9;

    while (s->hn > 2 && node(s, 1)[0] <= oldest)
        s->hn--; /* node(s, 0) is counted from the newest: dropping one count drops the oldest */
}

void feroce_fluid_stage_terms(const struct feroce_fluid_sim *s, double ts, const double *y,
                              const struct feroce_fluid_in_step *st, struct feroce_fluid_terms *t)
{
    double d[1 + FEROCE_FLUID_MAX_CLASSES]; /* q and each Rc: the first 1 + nclasses, set below */
    double tau = (double)s->p->delay_ns * 1e-9, td = ts - tau;
    uint32_t i, n = s->p->nclasses;

    d[0] = 0;
    if (s->p->delay_ns == 0) {
        d[0] = y[0];
        for (i = 0; i < n; i++)
            d[1 + i] = y[3 + W * i];
    } else if (st && td > s->t) {
        double dt = ts - s->t, x = (td - s->t) / dt;
        double h00 = (1 + 2 * x) * (1 - x) * (1 - x), h10 = x * (1 - x) * (1 - x) * dt;
        double h01 = x * x * (3 - 2 * x), h11 = x * x * (x - 1) * dt;

        d[0] = h00 * st->y0[0] + h10 * st->k0[0] + h01 * y[0] + h11 * st->ks[0];
        for (i = 0; i < n; i++) {
            uint32_t j = 3 + W * i;

            d[1 + i] = s->active[i] ? h00 * st->y0[j] + h10 * st->k0[j] + h01 * y[j] + h11 * st->ks[j]
                                    : s->line_pkts[i];
        }
    } else {
        lookup(s, td, d);
    }
    feroce_fluid_delayed_terms(s, d[0], d + 1, t);
}

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

    s->hcap = node_cap(p);
    s->h_min = p->delay_ns > 0 ? (double)p->delay_ns * 1e-12 : 1e-12;
    s->h_next = feroce_fluid_min((double)p->adaptive_max_step_ns * 1e-9, 1e-7);
    s->h_next = feroce_fluid_max(s->h_next, s->h_min);
    feroce_fluid_get_state(s, y);
    push_node(s, 0, y, zero); /* the history before 0 is constant */
    derivative_now(s);
    memcpy(s->prev_dy, s->dy, sizeof s->dy);
}

double feroce_fluid_err_norm(const struct feroce_fluid_sim *s, const double *y1, const double *e)
{
    uint32_t n = s->p->nclasses, i, j;
    double tol = s->p->rel_tol, norm = fabs(e[0]) / (tol * feroce_fluid_max(fabs(y1[0]), 1.0));

    for (i = 0; i < n; i++) {
        double line = s->line_pkts[i];

        if (!s->active[i])
            continue;
        for (j = 1 + W * i; j < 1 + W * (i + 1); j++) {
            uint32_t v = j - 1 - W * i;
            double floor = v == 0 ? 1e-6 : v == 3 ? 10.0 : 1e-3 * line;

            norm = feroce_fluid_max(norm, fabs(e[j]) / (tol * feroce_fluid_max(fabs(y1[j]), floor)));
        }
    }
    return isfinite(norm) ? norm : INFINITY;
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
    push_node(s, s->t, y, k4);
    prune(s);
    if (feroce_fluid_schedule(s)) {
        s->stab = 0; /* a class joined or left: bs3 again until the step is held */
        s->held = 0;
        derivative_now(s);
        feroce_fluid_get_state(s, y);
        push_node(s, s->t, y, s->dy);
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
