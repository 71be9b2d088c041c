/*
 * feroce-fluid-fixed.c - the exact equilibrium of the fluid model.
 *
 * For a marking probability P, each class's equilibrium rate Rc_i(P) solves
 * dRc/dt = 0 with alpha and Rt at their own equilibria (dalpha/dt = 0:
 * alpha = up / (up + down); dRt/dt = 0: Rt = Rc + increase / (clamp cut), at
 * most the line rate) and X = Rc.  The shared P then solves
 * sum_i n_i Rc_i(P) = C.  Both are one-dimensional roots found by GSL's
 * Brent solver (the outer one in log P).
 */
#include "feroce-fluid.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>
#include <math.h>
#include <string.h>

struct at_p {
    const struct feroce_fluid_params *p;
    const struct feroce_fluid_class *c;
    double P, line, floor_rate;
};

/* alpha and Rt at their equilibria for (P, Rc); returns dRc/dt there. */
static double flow_equilibrium(const struct at_p *a, double rc, struct feroce_fluid_flow *f)
{
    struct feroce_fluid_terms t;
    double v[4], dv[4];

    /* the cut rate does not depend on u; u = Rc / cut */
    feroce_fluid_terms(a->p, a->c, a->P, rc, 0, &t);
    f->u = t.cut > 0 ? rc / t.cut : 1e300;
    feroce_fluid_terms(a->p, a->c, a->P, rc, f->u, &t);
    f->rc = rc;
    f->alpha = t.up + t.down > 0 ? t.up / (t.up + t.down) : 0;
    if (t.clamp * t.cut > 0)
        f->rt = fmin(a->line, rc + t.increase / (t.clamp * t.cut));
    else
        f->rt = a->line;
    v[0] = f->alpha;
    v[1] = f->rt;
    v[2] = rc;
    v[3] = f->u;
    feroce_fluid_flow_rhs(a->p, a->c, a->line, a->floor_rate, v, a->P, rc, dv);
    return dv[2];
}

static double rc_residual(double rc, void *arg)
{
    struct feroce_fluid_flow f;

    return flow_equilibrium(arg, rc, &f);
}

/* Brent on [lo, hi] where fn changes sign; returns the root. */
static double brent(double (*fn)(double, void *), void *arg, double lo, double hi, double epsrel)
{
    gsl_function F = { fn, arg };
    gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
    double x = 0.5 * (lo + hi);
    int i, status = GSL_CONTINUE;

    gsl_root_fsolver_set(s, &F, lo, hi);
    for (i = 0; i < 200 && status == GSL_CONTINUE; i++) {
        gsl_root_fsolver_iterate(s);
        x = gsl_root_fsolver_root(s);
        status = gsl_root_test_interval(gsl_root_fsolver_x_lower(s), gsl_root_fsolver_x_upper(s), 0, epsrel);
    }
    gsl_root_fsolver_free(s);
    return x;
}

/* Equilibrium of one class at P: Rc in [floor, line]. */
static void class_at(const struct feroce_fluid_params *p, uint32_t i, double P, struct feroce_fluid_flow *f)
{
    double pkt_bits = 8.0 * p->packet_bytes;
    struct at_p a = { p, &p->cls[i], P, p->cls[i].rp.line_rate_bps / pkt_bits,
                      p->cls[i].rp.min_rate_bps / pkt_bits };
    double rc;

    if (flow_equilibrium(&a, a.line, f) >= 0)
        return; /* not held below the line rate */
    if (flow_equilibrium(&a, a.floor_rate, f) <= 0)
        return; /* held at the floor */
    rc = brent(rc_residual, &a, a.floor_rate, a.line, 1e-14);
    flow_equilibrium(&a, rc, f);
}

static double excess(const struct feroce_fluid_params *p, double P, struct feroce_fluid_flow *f)
{
    double sum = 0;
    uint32_t i;

    for (i = 0; i < p->nclasses; i++) {
        class_at(p, i, P, &f[i]);
        sum += p->cls[i].flows * f[i].rc;
    }
    return sum / (p->bottleneck_bps / (8.0 * p->packet_bytes)) - 1;
}

static double excess_log(double logp, void *arg)
{
    struct feroce_fluid_flow f[FEROCE_FLUID_MAX_CLASSES];

    return excess(arg, exp(logp), f);
}

enum feroce_err feroce_fluid_fixed_point(const struct feroce_fluid_params *p, struct feroce_fluid_fixed *fp,
                                         struct feroce_check *why)
{
    enum feroce_err err = feroce_fluid_validate(p, why);
    double pkt_bits = 8.0 * p->packet_bytes, C = p->bottleneck_bps / pkt_bits;
    double kmin = (double)p->cp.kmin_bytes / p->packet_bytes,
           kmax = (double)p->cp.kmax_bytes / p->packet_bytes;
    double line_sum = 0, lo = log(1e-16), P;
    uint32_t i;
    gsl_error_handler_t *old;

    if (err != FEROCE_OK)
        return err;
    memset(fp, 0, sizeof *fp);
    for (i = 0; i < p->nclasses; i++)
        line_sum += p->cls[i].flows * p->cls[i].rp.line_rate_bps / pkt_bits;
    fp->p_taylor = NAN;
    if (line_sum <= C) {
        for (i = 0; i < p->nclasses; i++) {
            fp->f[i].rc = fp->f[i].rt = p->cls[i].rp.line_rate_bps / pkt_bits;
            fp->f[i].alpha = 0;
        }
        fp->in_ramp = 1;
        return FEROCE_OK;
    }
    fp->congested = 1;
    old = gsl_set_error_handler_off();
    if (excess(p, 1.0, fp->f) >= 0) {
        gsl_set_error_handler(old);
        return feroce_fail(why, FEROCE_E_RP_MIN_RATE, "min_rate_bps", p->cls[0].rp.min_rate_bps,
                           "low enough that the flows at their floor fit the bottleneck (no equilibrium)");
    }
    if (excess(p, exp(lo), fp->f) <= 0)
        P = exp(lo);
    else
        P = exp(brent(excess_log, (void *)p, lo, 0, 1e-15));
    gsl_set_error_handler(old);
    excess(p, P, fp->f);
    fp->p = P;
    fp->in_ramp = P <= p->cp.pmax || p->ramp == FEROCE_FLUID_RAMP_LINEAR;
    fp->q_pkts = fp->in_ramp ? kmin + P / p->cp.pmax * (kmax - kmin) : kmax;
    if (p->nclasses == 1) {
        /* Zhu et al. 2016: p* ~ [R_AI N^2 / (tau' C^2) (1/B + N/(T C))^2]^(1/3) */
        const struct feroce_rp_params *rp = &p->cls[0].rp;
        double N = p->cls[0].flows, rai = rp->rai_bps / pkt_bits;
        double B = (double)rp->byte_counter_bytes / p->packet_bytes;
        double K = rp->alpha_period_ns * 1e-9, T = rp->increase_timer_ns * 1e-9;
        double inner = (B > 0 ? 1 / B : 0) + N / (T * C);

        fp->p_taylor = cbrt(rai * N * N / (K * C * C) * inner * inner);
    }
    return FEROCE_OK;
}
