/*
 * feroce-fluid-margin.c - linearisation of the fluid model around its fixed
 * point, the open-loop transfer function and its phase margin.
 *
 * Per class, v = (alpha, Rt, Rc, u) obeys dv/dt = f(v, P(t - tau*), Rc(t - tau*)).
 * With A0 = df/dv, a1 = df/dX and b = df/dP (central differences at the fixed
 * point), the transfer from the delayed marking probability to Rc is
 *   G_i(s) = e3' (s I - A0 - a1 e3' e^{-s tau*})^{-1} b   (e3 picks Rc),
 * and with dq/dt = sum_i n_i Rc_i - C and P = p' q (p' the ramp's slope) the
 * loop broken at the queue is
 *   L(s) = -(p' / s) e^{-s tau*} sum_i n_i G_i(s),   closed loop 1 + L(s) = 0.
 * Unlike the authors' stability.m (hand-expanded for small p), every term of
 * the model is kept.
 */
#include "feroce-fluid.h"

#include <complex.h>
#include <math.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define NS 4 /* alpha, Rt, Rc, u */

struct lin {
    double A0[NS][NS], a1[NS], b[NS];
};

static void linearise(const struct feroce_fluid_params *p, uint32_t i, const struct feroce_fluid_fixed *fp,
                      double P, struct lin *L)
{
    const struct feroce_fluid_class *c = &p->cls[i];
    double pkt_bits = 8.0 * p->packet_bytes;
    double line = c->rp.line_rate_bps / pkt_bits, lo = c->rp.min_rate_bps / pkt_bits;
    double v0[NS] = { fp->f[i].alpha, fp->f[i].rt, fp->f[i].rc, fp->f[i].u }, X = fp->f[i].rc;
    double up[NS], dn[NS], v[NS], hgt;
    int j, r;

    /* the clamp at the line rate is a kink: differentiate without it (line doubled) */
    for (j = 0; j < NS; j++) {
        hgt = 1e-6 * fmax(fabs(v0[j]), j == 0 ? 1e-3 : lo);
        memcpy(v, v0, sizeof v);
        v[j] = v0[j] + hgt;
        feroce_fluid_flow_rhs(p, c, line * 2, lo, v, P, X, up);
        v[j] = v0[j] - hgt;
        feroce_fluid_flow_rhs(p, c, line * 2, lo, v, P, X, dn);
        for (r = 0; r < NS; r++)
            L->A0[r][j] = (up[r] - dn[r]) / (2 * hgt);
    }
    hgt = 1e-6 * X;
    feroce_fluid_flow_rhs(p, c, line * 2, lo, v0, P, X + hgt, up);
    feroce_fluid_flow_rhs(p, c, line * 2, lo, v0, P, X - hgt, dn);
    for (r = 0; r < NS; r++)
        L->a1[r] = (up[r] - dn[r]) / (2 * hgt);
    hgt = 1e-6 * P;
    feroce_fluid_flow_rhs(p, c, line * 2, lo, v0, P + hgt, X, up);
    feroce_fluid_flow_rhs(p, c, line * 2, lo, v0, P - hgt, X, dn);
    for (r = 0; r < NS; r++)
        L->b[r] = (up[r] - dn[r]) / (2 * hgt);
}

/* Component 2 (Rc) of M^{-1} b, Gaussian elimination with partial pivoting. */
static double complex solve_rc(double complex M[NS][NS], const double b[NS])
{
    double complex x[NS], A[NS][NS + 1];
    int r, c, k;

    for (r = 0; r < NS; r++) {
        for (c = 0; c < NS; c++)
            A[r][c] = M[r][c];
        A[r][NS] = b[r];
    }
    for (k = 0; k < NS; k++) {
        int piv = k;

        for (r = k + 1; r < NS; r++)
            if (cabs(A[r][k]) > cabs(A[piv][k]))
                piv = r;
        if (piv != k)
            for (c = 0; c <= NS; c++) {
                double complex t = A[k][c];

                A[k][c] = A[piv][c];
                A[piv][c] = t;
            }
        for (r = k + 1; r < NS; r++) {
            double complex f = A[r][k] / A[k][k];

            for (c = k; c <= NS; c++)
                A[r][c] -= f * A[k][c];
        }
    }
    for (r = NS - 1; r >= 0; r--) {
        double complex s = A[r][NS];

        for (c = r + 1; c < NS; c++)
            s -= A[r][c] * x[c];
        x[r] = s / A[r][r];
    }
    return x[2];
}

struct loop {
    const struct feroce_fluid_params *p;
    double slope; /* p' per packet */
    double tau;   /* s */
    struct lin lin[FEROCE_FLUID_MAX_CLASSES];
};

static double complex loop_at(const struct loop *lp, double w)
{
    double complex s = I * w, delay = cexp(-s * lp->tau), sum = 0;
    uint32_t i;
    int r, c;

    for (i = 0; i < lp->p->nclasses; i++) {
        const struct lin *L = &lp->lin[i];
        double complex M[NS][NS];

        for (r = 0; r < NS; r++)
            for (c = 0; c < NS; c++)
                M[r][c] = (r == c ? s : 0) - L->A0[r][c] - (c == 2 ? L->a1[r] * delay : 0);
        sum += lp->p->cls[i].flows * solve_rc(M, L->b);
    }
    return -lp->slope / s * delay * sum;
}

static void loop_setup(const struct feroce_fluid_params *p, const struct feroce_fluid_fixed *fp,
                       struct loop *lp)
{
    uint32_t i;

    lp->p = p;
    lp->slope = p->cp.pmax / (double)(p->cp.kmax_bytes - p->cp.kmin_bytes) * p->packet_bytes;
    lp->tau = (double)p->delay_ns * 1e-9;
    for (i = 0; i < p->nclasses; i++)
        linearise(p, i, fp, fp->p, &lp->lin[i]);
}

void feroce_fluid_loop(const struct feroce_fluid_params *p, const struct feroce_fluid_fixed *fp, double omega,
                       double *re, double *im)
{
    struct loop lp;
    double complex L;

    loop_setup(p, fp, &lp);
    L = loop_at(&lp, omega);
    *re = creal(L);
    *im = cimag(L);
}

static double gain_log(const struct loop *lp, double lw)
{
    return log(cabs(loop_at(lp, exp(lw))));
}

/* The phase of L(j w) without the loop delay's e^{-j w tau*}, unwrapped next to `near`. */
static double phase_near(const struct loop *lp, double w, double near)
{
    double ph = carg(loop_at(lp, w) * cexp(I * w * lp->tau));

    return ph + 2 * M_PI * nearbyint((near - ph) / (2 * M_PI));
}

/*
 * Smallest phase margin over all gain crossovers in [1, 1e9] rad/s.  The phase is unwrapped
 * from low frequencies (the loop's own part along the scan, the delay's -w tau* exactly), so a
 * loop whose delay turns the phase past -180 degrees gets a margin below -180, not a wrapped one.
 */
static void margin_of(const struct loop *lp, double *pm_deg, double *wc)
{
    const int n = 720;
    double lo = log(1.0), hi = log(1e9), prev_x = lo, prev_g = gain_log(lp, lo);
    double prev_ph = carg(loop_at(lp, 1.0) * cexp(I * 1.0 * lp->tau));
    int k, it;

    *pm_deg = INFINITY;
    *wc = 0;
    for (k = 1; k <= n; k++) {
        double x = lo + (hi - lo) * k / n, gx = gain_log(lp, x), ph = phase_near(lp, exp(x), prev_ph);

        if ((prev_g > 0) != (gx > 0)) {
            double a = prev_x, b = x, ga = prev_g, w, pm;

            for (it = 0; it < 60; it++) {
                double mid = 0.5 * (a + b), gm = gain_log(lp, mid);

                if ((gm > 0) == (ga > 0)) {
                    a = mid;
                    ga = gm;
                } else {
                    b = mid;
                }
            }
            w = exp(0.5 * (a + b));
            pm = 180.0 + (phase_near(lp, w, prev_ph) - w * lp->tau) * 180.0 / M_PI;
            if (pm < *pm_deg) {
                *pm_deg = pm;
                *wc = w;
            }
        }
        prev_x = x;
        prev_g = gx;
        prev_ph = ph;
    }
}

static enum feroce_err check_ramp(const struct feroce_fluid_params *p, const struct feroce_fluid_fixed *fp,
                                  struct feroce_check *why)
{
    if (fp->congested && !fp->in_ramp)
        return feroce_fail(why, FEROCE_E_CP_PMAX, "pmax", p->cp.pmax,
                           ">= the equilibrium marking probability p* = %.6g: the queue sits at Kmax where "
                           "marking jumps to 1, no linearisation",
                           fp->p);
    return FEROCE_OK;
}

enum feroce_err feroce_fluid_margin(const struct feroce_fluid_params *p, struct feroce_fluid_margin *m,
                                    struct feroce_check *why)
{
    struct loop lp;
    double wc;
    enum feroce_err err = feroce_fluid_fixed_point(p, &m->fixed, why);

    if (err != FEROCE_OK)
        return err;
    m->phase_margin_deg = INFINITY;
    m->crossover_hz = 0;
    if (!m->fixed.congested)
        return FEROCE_OK; /* no queue, no loop */
    err = check_ramp(p, &m->fixed, why);
    if (err != FEROCE_OK)
        return err;
    loop_setup(p, &m->fixed, &lp);
    margin_of(&lp, &m->phase_margin_deg, &wc);
    m->crossover_hz = wc / (2 * M_PI);
    return FEROCE_OK;
}

enum feroce_err feroce_fluid_boundary(const struct feroce_fluid_params *p, int64_t max_delay_ns,
                                      int64_t *delay_ns, struct feroce_check *why)
{
    struct feroce_fluid_fixed fp;
    struct loop lp;
    double pm, wc;
    int64_t lo = 0, hi, step = max_delay_ns / 200 > 0 ? max_delay_ns / 200 : 1, d;
    enum feroce_err err = feroce_fluid_fixed_point(p, &fp, why);

    if (err != FEROCE_OK)
        return err;
    if (!fp.congested) {
        *delay_ns = max_delay_ns;
        return FEROCE_OK;
    }
    err = check_ramp(p, &fp, why);
    if (err != FEROCE_OK)
        return err;
    loop_setup(p, &fp, &lp);
    lp.tau = 0;
    margin_of(&lp, &pm, &wc);
    if (!(pm > 0)) {
        *delay_ns = 0;
        return FEROCE_OK;
    }
    for (d = step;; d += step) {
        if (d > max_delay_ns)
            d = max_delay_ns;
        lp.tau = d * 1e-9;
        margin_of(&lp, &pm, &wc);
        if (!(pm > 0))
            break;
        if (d == max_delay_ns) {
            *delay_ns = max_delay_ns;
            return FEROCE_OK;
        }
        lo = d;
    }
    hi = d;
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;

        lp.tau = mid * 1e-9;
        margin_of(&lp, &pm, &wc);
        if (pm > 0)
            lo = mid;
        else
            hi = mid;
    }
    *delay_ns = lo;
    return FEROCE_OK;
}
