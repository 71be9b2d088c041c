/*
 * feroce-fluid-rk3s.c - a stabilised explicit Runge-Kutta 3(2) pair with four
 * stages, which the adaptive integrator (feroce-fluid-bs3.c) takes over with
 * where bs3's step is held at its stability limit.
 *
 * Third order, its stability polynomial 1 + z + z^2/2 + z^3/6 + z^4/50 is
 * bounded by 1 on the negative real axis down to -5.4 (bs3's: -2.5), so a
 * steady run's step doubles for 4/3 of the evaluations.  Tableau: c = 0, 1/3,
 * 2/3, 1; a21 = 1/3, a31 = 2/3 - 0.48, a32 = 0.48, a41 = -0.56, a42 = 0.56,
 * a43 = 1; weights 1/8, 3/8, 3/8, 1/8 (so that sum b c^3 = 1/4 and
 * b A c^2 = 1/12 as at 4th order, and b A^2 c = 1/50 for the stability
 * polynomial).  The embedded 2nd-order solution uses the derivative at the
 * new state (first stage of the next step): weights 1/6, 1/3, 1/3, 0, 1/6.
 * Delayed values inside the step come from the history or the stages as in
 * bs3 (feroce_fluid_stage_terms).
 */
#include "feroce-fluid-step.h"

#define NV FEROCE_FLUID_NV
#define W  FEROCE_FLUID_W

double feroce_fluid_rk3s_attempt(const struct feroce_fluid_sim *s, const double *y, const double *k1,
                                 double h, double *y1, double *k5)
{
    static const double a31 = 2.0 / 3 - 0.48, a32 = 0.48, a41 = -0.56, a42 = 0.56, a43 = 1;
    /* the weights minus the embedded ones */
    static const double d1 = -1.0 / 24, d2 = 1.0 / 24, d3 = 1.0 / 24, d4 = 1.0 / 8, d5 = -1.0 / 6;
    uint32_t nv = 1 + W * s->p->nclasses, j;
    struct feroce_fluid_terms t[FEROCE_FLUID_MAX_CLASSES];
    double k2[NV], k3[NV], k4[NV], ys[NV], e[NV];
    struct feroce_fluid_in_step st = { y, k1, k1 };

    for (j = 0; j < nv; j++)
        ys[j] = y[j] + h / 3 * k1[j];
    feroce_fluid_stage_terms(s, s->t + h / 3, ys, &st, t);
    feroce_fluid_rhs(s, ys, t, k2);
    for (j = 0; j < nv; j++)
        ys[j] = y[j] + h * (a31 * k1[j] + a32 * k2[j]);
    st.ks = k2;
    feroce_fluid_stage_terms(s, s->t + 2 * h / 3, ys, &st, t);
    feroce_fluid_rhs(s, ys, t, k3);
    for (j = 0; j < nv; j++)
        ys[j] = y[j] + h * (a41 * k1[j] + a42 * k2[j] + a43 * k3[j]);
    st.ks = k3;
    feroce_fluid_stage_terms(s, s->t + h, ys, &st, t);
    feroce_fluid_rhs(s, ys, t, k4);
    for (j = 0; j < nv; j++)
        y1[j] = y[j] + h / 8 * (k1[j] + 3 * k2[j] + 3 * k3[j] + k4[j]);
    st.ks = k4;
    feroce_fluid_stage_terms(s, s->t + h, y1, &st, t);
    feroce_fluid_rhs(s, y1, t, k5);
    for (j = 0; j < nv; j++)
        e[j] = h * (d1 * k1[j] + d2 * k2[j] + d3 * k3[j] + d4 * k4[j] + d5 * k5[j]);
    return feroce_fluid_err_norm(s, y1, e);
}
