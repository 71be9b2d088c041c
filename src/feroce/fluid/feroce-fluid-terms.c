/*
 * feroce-fluid-terms.c - the rate terms of one flow of the DCQCN fluid model.
 *
 * P is the marking probability seen by the flow's packets and X its rate
 * (both delayed by tau*).  Every (1-P)^x is exp(x log1p(-P)) (or, for k
 * stages of a counter of L packets, a k-th power of 1/(1 + expm1(-L log1p(-P))))
 * and every 1-(1-P)^x is -expm1(x log1p(-P)), so that P of 1e-9 keeps its digits.
 * The paper's terms (spec/fluid.md) are the default; the others model the
 * core's reaction point (src/feroce/doc/fluid.md, "Terms").
 */
#include "feroce-fluid-step.h"

#include <math.h>

struct mark {
    double P;
    double l; /* log1p(-P) */
};

/* (1-P)^x: no mark in x packets */
static double survive(const struct mark *m, double x)
{
    if (x <= 0 || m->P == 0)
        return 1.0;
    if (m->P >= 1)
        return 0.0;
    return exp(x * m->l);
}

/* 1-(1-P)^x: at least one mark in x packets */
static double hit(const struct mark *m, double x)
{
    if (x <= 0 || m->P == 0)
        return 0.0;
    if (m->P >= 1)
        return 1.0;
    return -expm1(x * m->l);
}

/* x^n by squaring (x in [0, 1]: (1-P)^(n L) from (1-P)^L, its relative error n eps) */
static double pow_n(double x, uint32_t n)
{
    double r = 1.0;

    for (; n > 0; n >>= 1, x *= x)
        if (n & 1)
            r *= x;
    return r;
}

/* A counter that expires every L packets and restarts at each mark: its events per second,
 * X P / ((1-P)^-L - 1) (the paper's b and d, times X), and (1-P)^L, both from one expm1. */
struct counter {
    double events;
    double pass; /* (1-P)^L: no mark in L packets */
};

static void counter(const struct mark *m, double X, double L, struct counter *c)
{
    double e;

    if (m->P == 0) {
        c->events = X / L;
        c->pass = 1.0;
        return;
    }
    if (m->P >= 1) {
        c->events = 0.0;
        c->pass = 0.0;
        return;
    }
    e = expm1(-L * m->l);
    c->events = X * m->P / e;
    c->pass = 1 / (1 + e);
}

/* Sum over k = 1..n of (1-P)^(x0 + (k-1) L): the expected hyper step count (linear mode). */
static double geometric(const struct mark *m, double x0, double L, double n)
{
    if (m->P == 0)
        return n;
    return survive(m, x0) * hit(m, n * L) / hit(m, L);
}

/* The mean hyper stage past F given a hyper event (linear mode; capped where a linear step would
 * have reached the line rate), 0 for a constant step. */
static double hyper_mean(const struct feroce_rp_params *rp, const struct mark *m, double x0, double L)
{
    double n;

    if (rp->hai_mode != FEROCE_HAI_LINEAR)
        return 0.0;
    n = ceil(sqrt(2 * rp->line_rate_bps / feroce_fluid_max(rp->rhai_bps, 1.0))) + 1;
    return geometric(m, x0, L, n) / feroce_fluid_max(survive(m, x0), 1e-300);
}

/* CNPs per second. */
static double cnp_rate(const struct feroce_fluid_params *p, const struct mark *m, double X, double tau)
{
    if (tau == 0)
        return m->P * X; /* a CNP per marked packet */
    if (p->cnp == FEROCE_FLUID_CNP_PAPER)
        return hit(m, tau * X) / tau;
    /* renewal: tau of silence after a CNP, then the first mark (mean 1/(P X)) */
    return m->P * X / (1 + m->P * X * tau);
}

/* Probability of at least one CNP in a window W (stationary). */
static double cnp_in_window(const struct feroce_fluid_params *p, const struct mark *m, double X, double tau,
                            double W)
{
    double pxt;

    if (p->cnp == FEROCE_FLUID_CNP_PAPER || tau == 0)
        return hit(m, W * X);
    if (m->P == 0)
        return 0.0;
    pxt = m->P * X * tau;
    /* inter-CNP time I = tau + E, E of mean 1/(P X); P(no CNP in W) = int_W^inf P(I > x) dx / E[I] */
    if (W <= tau)
        return W * m->P * X / (1 + pxt);
    return 1 - survive(m, (W - tau) * X) / (1 + pxt);
}

/* Survival of the CNP interval: P(I > L). */
static double cnp_gap_longer(const struct mark *m, double X, double tau, double L)
{
    return L < tau ? 1.0 : survive(m, (L - tau) * X);
}

double feroce_fluid_mark(const struct feroce_fluid_params *p, double q_pkts)
{
    double q = q_pkts * p->packet_bytes;
    double kmin = (double)p->cp.kmin_bytes, kmax = (double)p->cp.kmax_bytes;

    if (q <= kmin)
        return 0.0;
    if (p->ramp == FEROCE_FLUID_RAMP_LINEAR)
        return feroce_fluid_min(1.0, (q - kmin) / (kmax - kmin) * p->cp.pmax);
    if (q > kmax)
        return 1.0;
    return (q - kmin) / (kmax - kmin) * p->cp.pmax;
}

/* Odds below 1e-15 count as 0 (they cannot move a double sum; it saves the hyper terms' work). */
static double negligible(double x)
{
    return x < 1e-15 ? 0.0 : x;
}

/* 0 below lo, 1 above lo + width, linear between */
static double ramp(double x, double lo, double width)
{
    return x <= lo ? 0.0 : x >= lo + width ? 1.0 : (x - lo) / width;
}

void feroce_fluid_terms_base(const struct feroce_fluid_params *p, const struct feroce_fluid_class *c,
                             double P, double X, struct feroce_fluid_terms *t)
{
    const struct feroce_rp_params *rp = &c->rp;
    double pkt_bits = 8.0 * p->packet_bytes;
    double tau = (double)c->np_interval_ns * 1e-9;
    double K = (double)rp->alpha_period_ns * 1e-9;
    double D = (double)rp->decrease_period_ns * 1e-9;
    double T = (double)rp->increase_timer_ns * 1e-9;
    double LB = (double)rp->byte_counter_bytes / p->packet_bytes; /* 0: disabled */
    double LT = T * X;
    double F = rp->F;
    double rai = rp->rai_bps / pkt_bits, rhai = rp->rhai_bps / pkt_bits;
    double lambda, byte_ev, timer_ev, additive, first_inc;
    struct counter cb = { 0, 1 }, ct = { 0, 1 };
    struct mark m;

    if (P < 0)
        P = 0;
    if (P > 1)
        P = 1;
    if (X < 0)
        X = 0;
    m.P = P;
    m.l = P < 1 ? log1p(-P) : -INFINITY;

    /* cuts: at each CNP, or at a decrease tick that follows a CNP */
    lambda = cnp_rate(p, &m, X, tau);
    t->cut = D > 0 ? cnp_in_window(p, &m, X, tau, D) / D : lambda;

    /* alpha */
    if (rp->alpha_mode == FEROCE_ALPHA_PERIODIC || p->cnp == FEROCE_FLUID_CNP_PAPER) {
        /* a tick every K folds in "a CNP since the last tick" (the paper's equation) */
        double phi = cnp_in_window(p, &m, X, tau, K);

        t->up = rp->g * phi / K;
        t->down = rp->g * (1 - phi) / K;
    } else if (P == 0) {
        t->up = 0;
        t->down = rp->g / K;
    } else {
        /* on_cnp: +g(1-alpha) per CNP; -g alpha per expiry of the timer restarted by each CNP,
         * expiries per CNP gap I = sum_j P(I >= j K) */
        double n0 = floor(tau / K);
        double expiries = n0 + survive(&m, ((n0 + 1) * K - tau) * X) / hit(&m, K * X);

        t->up = rp->g * lambda;
        t->down = rp->g * lambda * expiries;
    }

    /* increase events: byte counter every LB packets, timer every T (both restart at a cut); every
     * (1-P)^(k L) below is a power of the counter's (1-P)^L */
    if (LB > 0)
        counter(&m, X, LB, &cb);
    if (LT > 0)
        counter(&m, X, LT, &ct);
    byte_ev = LB > 0 ? cb.events : 0.0;
    timer_ev = LT > 0 ? ct.events : 0.0;
    t->recover = byte_ev + timer_ev;
    if (LB > 0) {
        /* the paper: an event is additive when its own counter is past F stages.  Hyper needs both
         * counters past F: (F+1) max(LB, LT) packets without a mark (stationary odds), and that many
         * packets sent since the last cut (u: so that a flow recovering from a cut at a low rate does
         * not count as hyper when P is 0) */
        double Lmax = feroce_fluid_max(LB, LT);
        double xb = (F + 1) * Lmax - LB, xt = (F + 1) * Lmax - LT;
        double sb = pow_n(cb.pass, rp->F), st = pow_n(ct.pass, rp->F), sxb, sxt;

        /* (1-P)^xb and (1-P)^xt: the slower counter's F stages, the other's (F+1) Lmax - L, that is
         * the slower's F + 1 stages over the other's one (0 if that one's underflowed: the rate it
         * multiplies is then 0) */
        if (LB >= LT) {
            sxb = sb;
            sxt = ct.pass > 0 ? sb * cb.pass / ct.pass : 0.0;
        } else {
            sxt = st;
            sxb = cb.pass > 0 ? st * ct.pass / cb.pass : 0.0;
        }
        additive = byte_ev * sb + timer_ev * st;
        t->hyp[0] = rhai * byte_ev * negligible(sxb);
        t->hyp[1] = rhai * timer_ev * negligible(sxt);
        t->mean[0] = t->hyp[0] > 0 ? hyper_mean(rp, &m, xb, Lmax) : 0; /* skipped when it cannot count */
        t->mean[1] = t->hyp[1] > 0 ? hyper_mean(rp, &m, xt, Lmax) : 0;
        t->gate_lo = (F + 0.5) * Lmax;
        t->gate_w = Lmax;
        t->stage_l = Lmax;
        t->stage_off = F;
        first_inc = feroce_fluid_min(T, LB / feroce_fluid_max(X, 1e-300));
    } else {
        /* timer only: stage F+1 is additive, later stages hyper (step (ts - F - 1) R_HAI if linear) */
        double st = LT > 0 ? pow_n(ct.pass, rp->F) : 1.0, st1 = LT > 0 ? st * ct.pass : 1.0;

        additive = timer_ev * (st - st1);
        t->hyp[0] = 0;
        t->mean[0] = 0;
        t->hyp[1] = rhai * timer_ev * negligible(st1);
        t->mean[1] = t->hyp[1] > 0 ? hyper_mean(rp, &m, (F + 1) * LT, LT) : 0;
        t->gate_lo = (F + 1.5) * LT;
        t->gate_w = LT;
        t->stage_l = feroce_fluid_max(LT, 1e-300);
        t->stage_off = F + 1;
        first_inc = T;
    }
    t->add = rai * additive;
    t->increase = NAN; /* feroce_fluid_increase(t, u) */

    /* Rt <- Rc at a cut: always, or only when an increase event came since the last cut */
    if (rp->clamp == FEROCE_CLAMP_ALWAYS || t->cut == 0)
        t->clamp = 1.0;
    else if (p->cnp == FEROCE_FLUID_CNP_NP && D == 0)
        t->clamp = cnp_gap_longer(&m, X, tau, first_inc);
    else
        t->clamp = exp(-t->cut * first_inc);
}

double feroce_fluid_increase(const struct feroce_fluid_terms *t, double u)
{
    double gate = ramp(u, t->gate_lo, t->gate_w), hyper = 0, stage;
    int i;

    if (gate > 0) {
        /* linear mode: the mean stage past F, at most the stage u packets reach */
        stage = u / t->stage_l - t->stage_off;
        for (i = 0; i < 2; i++)
            hyper += t->hyp[i] *
                     (t->mean[i] > 0 ? feroce_fluid_max(1.0, feroce_fluid_min(t->mean[i], stage)) : 1.0);
    }
    return t->add + gate * hyper;
}

void feroce_fluid_terms(const struct feroce_fluid_params *p, const struct feroce_fluid_class *c, double P,
                        double X, double u, struct feroce_fluid_terms *t)
{
    feroce_fluid_terms_base(p, c, P, X, t);
    t->increase = feroce_fluid_increase(t, u);
}

void feroce_fluid_flow_rhs_terms(const struct feroce_fluid_terms *t, double line, double floor_rate,
                                 const double v[4], double dv[4])
{
    double alpha = v[0], rt = v[1], rc = v[2];

    dv[0] = t->up * (1 - alpha) - t->down * alpha;
    dv[1] = -t->clamp * t->cut * (rt - rc) + feroce_fluid_increase(t, v[3]);
    dv[2] = -t->cut * feroce_fluid_min(rc * alpha / 2, rc - floor_rate) + (rt - rc) / 2 * t->recover;
    if (rt >= line && dv[1] > 0)
        dv[1] = 0;
    if (rc >= line && dv[2] > 0)
        dv[2] = 0;
    dv[3] = rc - t->cut * v[3];
}

void feroce_fluid_flow_rhs(const struct feroce_fluid_params *p, const struct feroce_fluid_class *c,
                           double line, double floor_rate, const double v[4], double P, double X,
                           double dv[4])
{
    struct feroce_fluid_terms t;

    feroce_fluid_terms_base(p, c, P, X, &t);
    feroce_fluid_flow_rhs_terms(&t, line, floor_rate, v, dv);
}
