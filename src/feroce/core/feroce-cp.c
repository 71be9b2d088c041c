/*
 * feroce-cp.c - ECN marking (RED-like ramp of DCQCN) and PFC thresholds.
 */
#include "feroce-cp.h"

#include <math.h>
#include <string.h>

enum feroce_err feroce_cp_preset(struct feroce_cp_params *p, const char *name, double line_rate_bps,
                                 struct feroce_check *why)
{
    if (strcmp(name, "paper") == 0) {
        p->kmin_bytes = 5000; /* Zhu et al. 2015, section 5 */
        p->kmax_bytes = 200000;
        p->pmax = 0.01;
    } else if (strcmp(name, "hpcc") == 0) {
        double scale = line_rate_bps / 25e9; /* run.py: KB of 1000 B at 25 Gb/s */

        if (!(scale > 0) || !isfinite(scale))
            return feroce_fail(why, FEROCE_E_RP_LINE_RATE, "line_rate_bps", line_rate_bps, "> 0 (b/s)");
        p->kmin_bytes = (uint64_t)llround(100000 * scale);
        p->kmax_bytes = (uint64_t)llround(400000 * scale);
        p->pmax = 0.2;
    } else {
        return feroce_fail_text(why, FEROCE_E_UNKNOWN_PRESET, "cp preset", name, "paper or hpcc");
    }
    p->point = FEROCE_MARK_DEQUEUE;
    return FEROCE_OK;
}

enum feroce_err feroce_cp_validate(const struct feroce_cp_params *p, struct feroce_check *why)
{
    if (p->kmin_bytes > p->kmax_bytes)
        return feroce_fail(why, FEROCE_E_CP_KMIN_KMAX, "kmin_bytes", (double)p->kmin_bytes,
                           "<= kmax_bytes = %llu", (unsigned long long)p->kmax_bytes);
    if (!(p->pmax >= 0 && p->pmax <= 1))
        return feroce_fail(why, FEROCE_E_CP_PMAX, "pmax", p->pmax, "[0, 1]");
    if (p->point != FEROCE_MARK_DEQUEUE && p->point != FEROCE_MARK_ENQUEUE)
        return feroce_fail(why, FEROCE_E_CP_MARK_POINT, "mark_point", p->point, "dequeue (0) or enqueue (1)");
    return FEROCE_OK;
}

double feroce_cp_probability(const struct feroce_cp_params *p, uint64_t q)
{
    if (q <= p->kmin_bytes)
        return 0.0;
    if (q > p->kmax_bytes)
        return 1.0;
    /* Kmin < q <= Kmax, so Kmax > Kmin here */
    return (double)(q - p->kmin_bytes) / (double)(p->kmax_bytes - p->kmin_bytes) * p->pmax;
}

double feroce_cp_mark_probability(const struct feroce_cp_params *p, enum feroce_mark_point at,
                                  enum feroce_ecn ecn, uint64_t q_bytes)
{
    if (at != p->point || (ecn != FEROCE_ECN_ECT0 && ecn != FEROCE_ECN_ECT1))
        return 0.0;
    return feroce_cp_probability(p, q_bytes);
}

int feroce_cp_mark(const struct feroce_cp_params *p, enum feroce_mark_point at, enum feroce_ecn ecn,
                   uint64_t q_bytes, double u)
{
    return u < feroce_cp_mark_probability(p, at, ecn, q_bytes);
}

/* ---- PFC ---------------------------------------------------------------- */

enum feroce_err feroce_pfc_validate(const struct feroce_pfc_params *p, struct feroce_check *why)
{
    switch (p->mode) {
    case FEROCE_PFC_STATIC:
        if (p->xoff_bytes == 0)
            return feroce_fail(why, FEROCE_E_PFC_XOFF, "pfc_xoff_bytes", 0, "> 0 bytes");
        if (p->xon_bytes > p->xoff_bytes)
            return feroce_fail(why, FEROCE_E_PFC_XON, "pfc_xon_bytes", (double)p->xon_bytes,
                               "<= pfc_xoff_bytes = %llu", (unsigned long long)p->xoff_bytes);
        return FEROCE_OK;
    case FEROCE_PFC_DYNAMIC:
        /* switch ASICs offer alpha = 2^-7 .. 2^3; allow any value in that spirit */
        if (!(p->alpha > 0 && p->alpha <= 64))
            return feroce_fail(why, FEROCE_E_PFC_ALPHA, "pfc_alpha", p->alpha, "(0, 64]");
        return FEROCE_OK;
    }
    return feroce_fail(why, FEROCE_E_PFC_MODE, "pfc_mode", p->mode, "static (0) or dynamic (1)");
}

uint64_t feroce_pfc_xoff_threshold(const struct feroce_pfc_params *p, uint64_t free_shared_bytes)
{
    double t;

    if (p->mode == FEROCE_PFC_STATIC)
        return p->xoff_bytes;
    t = floor(p->alpha * (double)free_shared_bytes);
    return t >= 18446744073709549568.0 ? UINT64_MAX : (uint64_t)t;
}

uint64_t feroce_pfc_xon_threshold(const struct feroce_pfc_params *p, uint64_t free_shared_bytes)
{
    uint64_t xoff;

    if (p->mode == FEROCE_PFC_STATIC)
        return p->xon_bytes;
    xoff = feroce_pfc_xoff_threshold(p, free_shared_bytes);
    return xoff > p->xon_offset_bytes ? xoff - p->xon_offset_bytes : 0;
}

/* Ingress byte counts up to 2^53 convert to a double exactly. */
#define FEROCE_PFC_EXACT_BYTES (UINT64_C(1) << 53)

enum feroce_pfc_action feroce_pfc_decide(const struct feroce_pfc_params *p, int paused,
                                         uint64_t ingress_bytes, uint64_t free_shared_bytes)
{
    if (!paused && p->mode == FEROCE_PFC_DYNAMIC && ingress_bytes <= FEROCE_PFC_EXACT_BYTES)
        /* n > floor(x) <=> n > x for a whole n that a double holds exactly: no floor() per
           frame (the switch asks at every arrival and departure) */
        return (double)ingress_bytes > p->alpha * (double)free_shared_bytes ? FEROCE_PFC_XOFF
                                                                            : FEROCE_PFC_HOLD;
    if (!paused && ingress_bytes > feroce_pfc_xoff_threshold(p, free_shared_bytes))
        return FEROCE_PFC_XOFF;
    if (paused && ingress_bytes <= feroce_pfc_xon_threshold(p, free_shared_bytes))
        return FEROCE_PFC_XON;
    return FEROCE_PFC_HOLD;
}
