/*
 * feroce-fluid-run.c - time integration of the fluid model: the public
 * calls (init, advance, sample) for both integrators, and classic RK4 with a
 * fixed step h and the delay tau* = k h by the method of steps (the adaptive
 * one: feroce-fluid-bs3.c; the state both step: feroce-fluid-state.c).
 *
 * The delay line holds (q, Rc of each class) for the last k + 1 steps; an RK4
 * stage at t + h/2 reads the delayed values halfway between two rows.
 * Clamps: no negative drift of q at q = 0, no growth of Rc or Rt at the line
 * rate; after each step q >= 0, min_rate <= Rc, Rt <= line rate, alpha in [0, 1].
 */
#include "feroce-fluid-step.h"

#include <math.h>
#include <string.h>

#define NV FEROCE_FLUID_NV
#define W  FEROCE_FLUID_W

size_t feroce_fluid_ring_len(const struct feroce_fluid_params *p)
{
    double h;

    if (p->method == FEROCE_FLUID_BS3)
        return feroce_fluid_history_len(p);
    h = feroce_fluid_step_s(p);
    size_t k = (size_t)llround((double)p->delay_ns * 1e-9 / h);

    return (k + 1) * (1 + p->nclasses);
}

static double *ring_row(const struct feroce_fluid_sim *s, uint32_t back)
{
    uint32_t rows = s->k + 1;

    return s->ring + (size_t)((s->head + rows - back) % rows) * (1 + s->p->nclasses);
}

static void store(struct feroce_fluid_sim *s, double *row)
{
    uint32_t i;

    row[0] = s->q;
    for (i = 0; i < s->p->nclasses; i++)
        row[1 + i] = s->active[i] ? s->f[i].rc : s->line_pkts[i];
}

void feroce_fluid_init(struct feroce_fluid_sim *s, const struct feroce_fluid_params *p, double *ring)
{
    uint32_t i, j;
    double pkt_bits = 8.0 * p->packet_bytes;

    memset(s, 0, sizeof *s);
    s->p = p;
    s->ring = ring;
    s->C = p->bottleneck_bps / pkt_bits;
    for (i = 0; i < p->nclasses; i++) {
        s->line_pkts[i] = p->cls[i].rp.line_rate_bps / pkt_bits;
        s->min_pkts[i] = p->cls[i].rp.min_rate_bps / pkt_bits;
        s->f[i].alpha = p->cls[i].rp.initial_alpha;
        s->f[i].rt = s->f[i].rc = s->line_pkts[i];
        s->active[i] = p->cls[i].join_ns <= 0 && p->cls[i].leave_ns > 0;
    }
    if (p->method == FEROCE_FLUID_BS3) {
        feroce_fluid_bs3_init(s);
    } else {
        s->h = feroce_fluid_step_s(p);
        s->k = (uint32_t)llround((double)p->delay_ns * 1e-9 / s->h);
        for (j = 0; j <= s->k; j++) {
            s->head = j;
            store(s, ring_row(s, 0));
        }
    }
    s->prev_q = s->q;
    memcpy(s->prev_f, s->f, sizeof s->f);
}

static int finite_state(const struct feroce_fluid_sim *s)
{
    uint32_t i;

    if (!isfinite(s->q))
        return 0;
    for (i = 0; i < s->p->nclasses; i++)
        if (!isfinite(s->f[i].alpha) || !isfinite(s->f[i].rt) || !isfinite(s->f[i].rc) || s->f[i].rc < 0 ||
            s->f[i].rt < 0)
            return 0;
    return 1;
}

static void step(struct feroce_fluid_sim *s)
{
    uint32_t n = s->p->nclasses, nv = 1 + W * n, i, j;
    double y[NV], k1[NV], k2[NV], k3[NV], k4[NV], ys[NV];
    double xd[FEROCE_FLUID_MAX_CLASSES];
    struct feroce_fluid_terms t0[FEROCE_FLUID_MAX_CLASSES], th[FEROCE_FLUID_MAX_CLASSES];
    struct feroce_fluid_terms *t1 = s->next_terms;
    double h = s->h;

    feroce_fluid_get_state(s, y);
    if (s->k > 0) {
        /* the delayed inputs come from the delay line: row k at t, the mean of rows k and k-1 at
         * t + h/2 (stages 2 and 3 share it), row k-1 at t + h, which is row k of the next step */
        const double *r0 = ring_row(s, s->k), *r1 = ring_row(s, s->k - 1);

        if (s->next_terms_ok)
            memcpy(t0, t1, sizeof(t0[0]) * n);
        else
            feroce_fluid_delayed_terms(s, r0[0], r0 + 1, t0);
        for (i = 0; i < n; i++)
            xd[i] = (r0[1 + i] + r1[1 + i]) / 2;
        feroce_fluid_delayed_terms(s, (r0[0] + r1[0]) / 2, xd, th);
        feroce_fluid_delayed_terms(s, r1[0], r1 + 1, t1);
        s->next_terms_ok = 1;
        feroce_fluid_rhs(s, y, t0, k1);
        for (j = 0; j < nv; j++)
            ys[j] = y[j] + h / 2 * k1[j];
        feroce_fluid_rhs(s, ys, th, k2);
        for (j = 0; j < nv; j++)
            ys[j] = y[j] + h / 2 * k2[j];
        feroce_fluid_rhs(s, ys, th, k3);
        for (j = 0; j < nv; j++)
            ys[j] = y[j] + h * k3[j];
        feroce_fluid_rhs(s, ys, t1, k4);
    } else {
        /* no delay: each stage's "delayed" values are its own */
        double *kk[4] = { k1, k2, k3, k4 }, frac[4] = { 0, 0.5, 0.5, 1 };
        int stage;

        for (stage = 0; stage < 4; stage++) {
            const double *st = stage == 0 ? y : ys;

            if (stage > 0)
                for (j = 0; j < nv; j++)
                    ys[j] = y[j] + h * frac[stage] * kk[stage - 1][j];
            for (i = 0; i < n; i++)
                xd[i] = st[3 + W * i];
            feroce_fluid_delayed_terms(s, st[0], xd, t0);
            feroce_fluid_rhs(s, st, t0, kk[stage]);
        }
    }

    s->prev_q = s->q;
    memcpy(s->prev_f, s->f, sizeof(s->f[0]) * n);
    for (j = 0; j < nv; j++)
        y[j] += h / 6 * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]);
    feroce_fluid_set_state(s, y);
    s->steps++;
    s->t = (double)s->steps * h;
    s->head = (s->head + 1) % (s->k + 1);
    feroce_fluid_schedule(s);
    store(s, ring_row(s, 0));
}

enum feroce_err feroce_fluid_advance(struct feroce_fluid_sim *s, double t_s, struct feroce_check *why)
{
    while (feroce_fluid_time(s) < t_s - 1e-12) {
        if (s->p->method == FEROCE_FLUID_BS3) {
            if (!finite_state(s))
                return feroce_fail(why, FEROCE_E_BAD_VALUE, "fluid state", feroce_fluid_time(s),
                                   "finite q, rates and alpha: the run diverged at this time (s); "
                                   "try a smaller --rtol or --max-step");
            feroce_fluid_bs3_step(s);
        } else {
            step(s);
        }
        if (!finite_state(s))
            return feroce_fail(why, FEROCE_E_BAD_VALUE, "fluid state", feroce_fluid_time(s),
                               "finite q, rates and alpha: the run diverged at this time (s); "
                               "try a smaller step");
    }
    return FEROCE_OK;
}

void feroce_fluid_sample(const struct feroce_fluid_sim *s, double t_s, double *q_pkts,
                         struct feroce_fluid_flow *f)
{
    double t1 = feroce_fluid_time(s), w = s->steps > 0 ? (t1 - t_s) / s->h : 0;
    uint32_t i;

    if (s->p->method == FEROCE_FLUID_BS3) {
        feroce_fluid_bs3_sample(s, t_s, q_pkts, f);
        return;
    }
    if (w < 0)
        w = 0;
    if (w > 1)
        w = 1;
    *q_pkts = (1 - w) * s->q + w * s->prev_q;
    for (i = 0; i < s->p->nclasses; i++) {
        f[i].alpha = (1 - w) * s->f[i].alpha + w * s->prev_f[i].alpha;
        f[i].rt = (1 - w) * s->f[i].rt + w * s->prev_f[i].rt;
        f[i].rc = (1 - w) * s->f[i].rc + w * s->prev_f[i].rc;
        f[i].u = (1 - w) * s->f[i].u + w * s->prev_f[i].u;
    }
}
