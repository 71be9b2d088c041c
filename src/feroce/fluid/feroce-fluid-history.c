/*
 * feroce-fluid-history.c - the adaptive integrator's history of the delayed values: a node per
 * accepted step (time, q and each Rc, and their derivatives) in the caller's buffer, cubic Hermite
 * between nodes, and the delayed terms of a stage (from the history, or inside the step itself
 * when the step is longer than tau*).  The step is at least delay / 1000, so the history never
 * holds more than about 1000 nodes.  Used by both pairs of feroce-fluid-bs3.c and
 * feroce-fluid-rk3s.c; it calls only feroce-fluid-state.c.
 */
#include "feroce-fluid-step.h"

#include <string.h>

#define W FEROCE_FLUID_W

/* doubles per node: t, then q and each Rc, then their derivatives */
static size_t node_len(uint32_t nclasses)
{
    return 1 + 2 * (1 + (size_t)nclasses);
}

uint32_t feroce_fluid_history_cap(const struct feroce_fluid_params *p)
{
    /* 1000 steps of delay / 1000, the steps cut at joins and leaves, the tentative node */
    return p->delay_ns > 0 ? 1000 + 4 * p->nclasses + 8 : 4;
}

size_t feroce_fluid_history_len(const struct feroce_fluid_params *p)
{
    return feroce_fluid_history_cap(p) * node_len(p->nclasses);
}

static double *node(const struct feroce_fluid_sim *s, uint32_t j) /* j = 0: the oldest held */
{
    return s->ring + (size_t)((s->hhead + s->hcap + 1 - s->hn + j) % s->hcap) * node_len(s->p->nclasses);
}

void feroce_fluid_history_push(struct feroce_fluid_sim *s, double t, const double *y, const double *dy)
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
void feroce_fluid_history_prune(struct feroce_fluid_sim *s)
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
