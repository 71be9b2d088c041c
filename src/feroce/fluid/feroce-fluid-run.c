/*
 * feroce-fluid-run.c - time integration of the fluid model: what both
 * integrators share, and classic RK4 with a fixed step h and the delay
 * tau* = k h by the method of steps (the adaptive one: feroce-fluid-bs3.c).
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
        return feroce_fluid_bs3_ring_len(p);
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

void feroce_fluid_delayed_terms(const struct feroce_fluid_sim *s, double qd, const double *xd,
                                struct feroce_fluid_terms *t)
{
    const struct feroce_fluid_params *p = s->p;
    double P = feroce_fluid_mark(p, qd > 0 ? qd : 0);
    uint32_t i;

    for (i = 0; i < p->nclasses; i++)
        if (s->active[i])
            feroce_fluid_terms_base(p, &p->cls[i], P, xd[i], &t[i]);
}

void feroce_fluid_rhs(const struct feroce_fluid_sim *s, const double *y, const struct feroce_fluid_terms *t,
                      double *dy)
{
    const struct feroce_fluid_params *p = s->p;
    double in = 0;
    uint32_t i;

    for (i = 0; i < p->nclasses; i++) {
        if (!s->active[i]) {
            dy[1 + W * i] = dy[2 + W * i] = dy[3 + W * i] = dy[4 + W * i] = 0;
            continue;
        }
        in += p->cls[i].flows * y[3 + W * i];
        feroce_fluid_flow_rhs_terms(&t[i], s->line_pkts[i], s->min_pkts[i], y + 1 + W * i, dy + 1 + W * i);
    }
    dy[0] = in - s->C;
    if (y[0] <= 0 && dy[0] < 0)
        dy[0] = 0;
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

/* Classes join (fresh: line rate, initial alpha) and leave at the first step at or after their time. */
int feroce_fluid_schedule(struct feroce_fluid_sim *s)
{
    double t_ns = s->t * 1e9 + 1e-6;
    uint32_t i;
    int changed = 0;

    for (i = 0; i < s->p->nclasses; i++) {
        const struct feroce_fluid_class *c = &s->p->cls[i];
        int on = t_ns >= (double)c->join_ns && (c->leave_ns == FEROCE_NEVER || t_ns < (double)c->leave_ns);

        if (on && !s->active[i]) {
            s->f[i].alpha = c->rp.initial_alpha;
            s->f[i].rt = s->f[i].rc = s->line_pkts[i];
            s->f[i].u = 0;
        }
        changed |= on != s->active[i];
        s->active[i] = (uint8_t)on;
    }
    return changed;
}

double feroce_fluid_next_event(const struct feroce_fluid_sim *s)
{
    double t_ns = s->t * 1e9 + 1e-6, next = INFINITY;
    uint32_t i;

    for (i = 0; i < s->p->nclasses; i++) {
        const struct feroce_fluid_class *c = &s->p->cls[i];

        if ((double)c->join_ns > t_ns)
            next = feroce_fluid_min(next, (double)c->join_ns * 1e-9);
        if (c->leave_ns != FEROCE_NEVER && (double)c->leave_ns > t_ns)
            next = feroce_fluid_min(next, (double)c->leave_ns * 1e-9);
    }
    return next;
}

void feroce_fluid_get_state(const struct feroce_fluid_sim *s, double *y)
{
    uint32_t i;

    y[0] = s->q;
    for (i = 0; i < s->p->nclasses; i++) {
        y[1 + W * i] = s->f[i].alpha;
        y[2 + W * i] = s->f[i].rt;
        y[3 + W * i] = s->f[i].rc;
        y[4 + W * i] = s->f[i].u;
    }
}

int feroce_fluid_set_state(struct feroce_fluid_sim *s, const double *y)
{
    uint32_t i;
    int moved = y[0] < 0;

    s->q = feroce_fluid_max(0, y[0]);
    for (i = 0; i < s->p->nclasses; i++) {
        struct feroce_fluid_flow *f = &s->f[i];
        double line = s->line_pkts[i], lo = s->min_pkts[i];
        const double *v = y + 1 + W * i;

        f->alpha = feroce_fluid_min(1, feroce_fluid_max(0, v[0]));
        f->rt = feroce_fluid_min(line, feroce_fluid_max(lo, v[1]));
        f->rc = feroce_fluid_min(line, feroce_fluid_max(lo, v[2]));
        f->u = feroce_fluid_max(0, v[3]);
        moved |= f->alpha != v[0] || f->rt != v[1] || f->rc != v[2] || f->u != v[3];
        if (!isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2]))
            f->rc = NAN; /* reported by the caller's finiteness check */
    }
    return moved;
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
