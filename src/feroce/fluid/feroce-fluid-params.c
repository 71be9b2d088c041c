/*
 * feroce-fluid-params.c - the fluid model's parameters: presets (the core's)
 * and validation with the core's named errors.
 */
#include "feroce-fluid.h"

#include <math.h>
#include <string.h>

#include "feroce-np.h"

enum feroce_err feroce_fluid_preset(struct feroce_fluid_params *p, const char *preset, double line_rate_bps,
                                    uint32_t flows, struct feroce_check *why)
{
    struct feroce_np_params np;
    const char *other = strcmp(preset, "hpcc") == 0 ? "hpcc" : "paper";
    enum feroce_err err;

    memset(p, 0, sizeof *p);
    err = feroce_rp_preset(&p->cls[0].rp, preset, line_rate_bps, why);
    if (err != FEROCE_OK)
        return err;
    /* as the packet model's NIC and switch: the NP and CP presets exist for paper and hpcc;
     * connectx keeps the paper's 50 us CNP interval and ECN ramp */
    feroce_np_preset(&np, other, NULL);
    err = feroce_cp_preset(&p->cp, other, line_rate_bps, why);
    if (err != FEROCE_OK)
        return err;
    p->bottleneck_bps = line_rate_bps;
    p->delay_ns = 4000;
    p->packet_bytes = 1000;
    p->method = FEROCE_FLUID_BS3;
    p->max_step_ns = 500;
    p->adaptive_max_step_ns = 1000000;
    p->rel_tol = 1e-4;
    p->cnp = FEROCE_FLUID_CNP_PAPER;
    p->nclasses = 1;
    p->cls[0].np_interval_ns = np.interval_ns;
    p->cls[0].flows = flows;
    p->cls[0].join_ns = 0;
    p->cls[0].leave_ns = FEROCE_NEVER;
    return FEROCE_OK;
}

enum feroce_err feroce_fluid_validate(const struct feroce_fluid_params *p, struct feroce_check *why)
{
    enum feroce_err err;
    uint32_t i;

    if (!(p->bottleneck_bps > 0) || !isfinite(p->bottleneck_bps))
        return feroce_fail(why, FEROCE_E_RP_LINE_RATE, "bottleneck_bps", p->bottleneck_bps, "> 0 (b/s)");
    err = feroce_cp_validate(&p->cp, why);
    if (err != FEROCE_OK)
        return err;
    if (p->cp.kmax_bytes == p->cp.kmin_bytes)
        return feroce_fail(why, FEROCE_E_CP_KMIN_KMAX, "kmin_bytes", (double)p->cp.kmin_bytes,
                           "< kmax_bytes = %llu (the fluid model needs a marking ramp)",
                           (unsigned long long)p->cp.kmax_bytes);
    if (!(p->cp.pmax > 0))
        return feroce_fail(why, FEROCE_E_CP_PMAX, "pmax", p->cp.pmax, "(0, 1] (the fluid model needs marks)");
    if (p->packet_bytes < 64 || p->packet_bytes > 65536)
        return feroce_fail(why, FEROCE_E_BAD_VALUE, "packet_bytes", p->packet_bytes, "[64, 65536] bytes");
    if (p->delay_ns < 0 || p->delay_ns > 100000000)
        return feroce_fail(why, FEROCE_E_BAD_VALUE, "delay_ns", (double)p->delay_ns,
                           "[0, 1e8] ns (0 to 100 ms)");
    if (p->max_step_ns < 1 || p->max_step_ns > 100000)
        return feroce_fail(why, FEROCE_E_BAD_VALUE, "step_ns", (double)p->max_step_ns, "[1, 100000] ns");
    /* the delay line holds delay / step rows of 1 + classes doubles: at most 2e7 doubles (160 MB) */
    if (p->method == FEROCE_FLUID_RK4 &&
        (double)p->delay_ns / (double)p->max_step_ns * (1.0 + p->nclasses) > 2e7)
        return feroce_fail(why, FEROCE_E_BAD_VALUE, "step_ns", (double)p->max_step_ns,
                           ">= delay_ns x (1 + classes) / 2e7 = %.15g ns (the delay line would be too long)",
                           ceil((double)p->delay_ns * (1.0 + p->nclasses) / 2e7));
    if (p->method != FEROCE_FLUID_RK4 && p->method != FEROCE_FLUID_BS3)
        return feroce_fail(why, FEROCE_E_BAD_VALUE, "method", p->method, "rk4 (0) or bs3 (1)");
    if (p->adaptive_max_step_ns < 1 || p->adaptive_max_step_ns > 1000000)
        return feroce_fail(why, FEROCE_E_BAD_VALUE, "max_step_ns", (double)p->adaptive_max_step_ns,
                           "[1, 1e6] ns");
    if (!(p->rel_tol >= 1e-9 && p->rel_tol <= 0.1))
        return feroce_fail(why, FEROCE_E_BAD_VALUE, "rtol", p->rel_tol, "[1e-9, 0.1]");
    if (p->cnp != FEROCE_FLUID_CNP_PAPER && p->cnp != FEROCE_FLUID_CNP_NP)
        return feroce_fail(why, FEROCE_E_BAD_VALUE, "cnp_model", p->cnp, "paper (0) or np (1)");
    if (p->ramp != FEROCE_FLUID_RAMP_RED && p->ramp != FEROCE_FLUID_RAMP_LINEAR)
        return feroce_fail(why, FEROCE_E_BAD_VALUE, "ramp", p->ramp, "red (0) or linear (1)");
    if (p->nclasses < 1 || p->nclasses > FEROCE_FLUID_MAX_CLASSES)
        return feroce_fail(why, FEROCE_E_BAD_VALUE, "classes", p->nclasses, "[1, %d]",
                           FEROCE_FLUID_MAX_CLASSES);
    for (i = 0; i < p->nclasses; i++) {
        const struct feroce_fluid_class *c = &p->cls[i];

        err = feroce_rp_validate(&c->rp, why);
        if (err != FEROCE_OK)
            return err;
        if (c->rp.first_cnp_rate_bps != 0)
            return feroce_fail(why, FEROCE_E_RP_FIRST_CNP_RATE, "first_cnp_rate_bps",
                               c->rp.first_cnp_rate_bps,
                               "0 in the fluid model (a one-off jump at the first CNP is not modelled)");
        if (c->np_interval_ns < 0)
            return feroce_fail(why, FEROCE_E_NP_INTERVAL, "np_interval_ns", (double)c->np_interval_ns,
                               ">= 0 ns (0 = a CNP per CE-marked packet)");
        if (c->flows < 1 || c->flows > 1000000)
            return feroce_fail(why, FEROCE_E_BAD_VALUE, "flows", c->flows, "[1, 1000000]");
        if (c->join_ns < 0 || c->leave_ns <= c->join_ns)
            return feroce_fail(why, FEROCE_E_BAD_VALUE, "join_ns", (double)c->join_ns,
                               ">= 0 and < leave_ns = %.15g", (double)c->leave_ns);
    }
    return FEROCE_OK;
}

double feroce_fluid_step_s(const struct feroce_fluid_params *p)
{
    int64_t k;

    if (p->delay_ns == 0)
        return (double)p->max_step_ns * 1e-9;
    k = (p->delay_ns + p->max_step_ns - 1) / p->max_step_ns;
    return (double)p->delay_ns * 1e-9 / (double)k;
}
