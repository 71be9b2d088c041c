/*
 * feroce-fluid-state.c - the fluid model's state as the vector y the integrators step (q, then
 * alpha, Rt, Rc and u of each class), its derivative from the delayed terms, the clamps that keep
 * it physical, the joins and leaves of classes, and the error norm of a step.  What both
 * integrators (feroce-fluid-run.c's RK4, feroce-fluid-bs3.c's adaptive pairs) build on; it calls
 * only the model's terms (feroce-fluid-terms.c).
 */
#include "feroce-fluid-step.h"

#include <math.h>

#define W FEROCE_FLUID_W

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
