/*
 * feroce-rp-params.c - presets, validation and names of the reaction point's
 * parameters (src/feroce/doc/dcqcn.md, "Reaction point" table and "Presets").
 */
#include "feroce-rp.h"

#include "feroce-number.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ---- presets ------------------------------------------------------------ */

/* Zhu et al., SIGCOMM 2015: the paper's values, at the configured line rate. */
static void preset_paper(struct feroce_rp_params *p, double line)
{
    p->line_rate_bps = line;
    p->min_rate_bps = 10e6;
    p->g = 1.0 / 256;
    p->initial_alpha = 1.0;
    p->alpha_mode = FEROCE_ALPHA_ON_CNP;
    p->alpha_period_ns = 55000;
    p->decrease_period_ns = 0;
    p->increase_timer_ns = 55000;
    p->byte_counter_bytes = 10000000; /* 10 MB */
    p->F = 5;
    p->rai_bps = 40e6;
    p->rhai_bps = 50e6;
    p->hai_mode = FEROCE_HAI_LINEAR;
    p->clamp = FEROCE_CLAMP_ALWAYS;
    p->first_cnp_rate_bps = 0;
}

/* NVIDIA ConnectX-5 firmware defaults (mlxconfig / sysfs names in src/feroce/doc/dcqcn.md). */
static void preset_connectx(struct feroce_rp_params *p, double line)
{
    p->line_rate_bps = line;
    p->min_rate_bps = 1e6;            /* rpg_min_rate */
    p->g = 5.0 / 1024;                /* dce_tcp_g = 1019: 1 - g = 1019/1024 */
    p->initial_alpha = 1023.0 / 1024; /* initial_alpha_value */
    p->alpha_mode = FEROCE_ALPHA_PERIODIC;
    p->alpha_period_ns = 1000;             /* dce_tcp_rtt */
    p->decrease_period_ns = 4000;          /* rate_reduce_monitor_period */
    p->increase_timer_ns = 300000;         /* rpg_time_reset */
    p->byte_counter_bytes = 32767ull * 64; /* rpg_byte_reset */
    p->F = 1;                              /* rpg_threshold */
    p->rai_bps = 5e6;                      /* rpg_ai_rate */
    p->rhai_bps = 50e6;                    /* rpg_hai_rate */
    p->hai_mode = FEROCE_HAI_CONSTANT;
    p->clamp = FEROCE_CLAMP_AFTER_INCREASE;
    p->first_cnp_rate_bps = 0; /* rate_to_set_on_first_cnp */
}

/* The HPCC simulator's run.py "dcqcn" preset, as run.py writes it for --cc dcqcn; steps scale as
 * bw / 25 Gb/s.  Its MIN_RATE is 1000Mb/s at every bw (mix/config.txt and RdmaHw's default say
 * 100Mb/s, but those are not what run.py ran); capped at the line rate. */
static void preset_hpcc(struct feroce_rp_params *p, double line)
{
    double scale = line / 25e9;

    p->line_rate_bps = line;
    p->min_rate_bps = line < 1e9 ? line : 1e9;
    p->g = 1.0 / 256;
    p->initial_alpha = 1.0;
    p->alpha_mode = FEROCE_ALPHA_PERIODIC;
    p->alpha_period_ns = 1000;
    p->decrease_period_ns = 4000;
    p->increase_timer_ns = 300000;
    p->byte_counter_bytes = 0;
    p->F = 1;
    p->rai_bps = 5e6 * scale;
    p->rhai_bps = 50e6 * scale;
    p->hai_mode = FEROCE_HAI_CONSTANT;
    p->clamp = FEROCE_CLAMP_AFTER_INCREASE;
    p->first_cnp_rate_bps = 0;
}

enum feroce_err feroce_rp_preset(struct feroce_rp_params *p, const char *name, double line_rate_bps,
                                 struct feroce_check *why)
{
    if (!(line_rate_bps > 0) || !isfinite(line_rate_bps))
        return feroce_fail(why, FEROCE_E_RP_LINE_RATE, "line_rate_bps", line_rate_bps, "> 0 (b/s)");
    if (strcmp(name, "paper") == 0)
        preset_paper(p, line_rate_bps);
    else if (strcmp(name, "connectx") == 0)
        preset_connectx(p, line_rate_bps);
    else if (strcmp(name, "hpcc") == 0)
        preset_hpcc(p, line_rate_bps);
    else
        return feroce_fail_text(why, FEROCE_E_UNKNOWN_PRESET, "preset", name, "paper, connectx or hpcc");
    return FEROCE_OK;
}

/* ---- validation --------------------------------------------------------- */

enum feroce_err feroce_rp_validate(const struct feroce_rp_params *p, struct feroce_check *why)
{
    double line = p->line_rate_bps;

    if (!(line > 0) || !isfinite(line))
        return feroce_fail(why, FEROCE_E_RP_LINE_RATE, "line_rate_bps", line, "> 0 (b/s)");
    if (!(p->min_rate_bps > 0 && p->min_rate_bps <= line))
        return feroce_fail(why, FEROCE_E_RP_MIN_RATE, "min_rate_bps", p->min_rate_bps,
                           "(0, line_rate_bps = %.15g]", line);
    if (!(p->g > 0 && p->g <= 1))
        return feroce_fail(why, FEROCE_E_RP_G, "g", p->g, "(0, 1]");
    if (!(p->initial_alpha >= 0 && p->initial_alpha <= 1))
        return feroce_fail(why, FEROCE_E_RP_INITIAL_ALPHA, "initial_alpha", p->initial_alpha, "[0, 1]");
    if (p->alpha_mode != FEROCE_ALPHA_ON_CNP && p->alpha_mode != FEROCE_ALPHA_PERIODIC)
        return feroce_fail(why, FEROCE_E_RP_ALPHA_MODE, "alpha_mode", p->alpha_mode,
                           "on_cnp (0) or periodic (1)");
    if (p->alpha_period_ns <= 0 || p->alpha_period_ns > FEROCE_TIME_MAX)
        return feroce_fail(why, FEROCE_E_RP_ALPHA_PERIOD, "alpha_period_ns", (double)p->alpha_period_ns,
                           "(0, %lld] ns (alpha_mode %s runs the alpha timer)", (long long)FEROCE_TIME_MAX,
                           feroce_alpha_mode_name(p->alpha_mode));
    if (p->decrease_period_ns < 0 || p->decrease_period_ns > FEROCE_TIME_MAX)
        return feroce_fail(why, FEROCE_E_RP_DECREASE_PERIOD, "decrease_period_ns",
                           (double)p->decrease_period_ns, "[0, %lld] ns (0 = cut at each CNP)",
                           (long long)FEROCE_TIME_MAX);
    if (p->increase_timer_ns <= 0 || p->increase_timer_ns > FEROCE_TIME_MAX)
        return feroce_fail(why, FEROCE_E_RP_INCREASE_TIMER, "increase_timer_ns", (double)p->increase_timer_ns,
                           "(0, %lld] ns", (long long)FEROCE_TIME_MAX);
    /* stage counts are compared against F and F + 1 */
    if (p->F > 1000000)
        return feroce_fail(why, FEROCE_E_RP_F, "F", p->F, "[0, 1000000]");
    if (!(p->rai_bps >= 0 && p->rai_bps <= line))
        return feroce_fail(why, FEROCE_E_RP_RAI, "rai_bps", p->rai_bps, "[0, line_rate_bps = %.15g]", line);
    if (!(p->rhai_bps >= 0 && p->rhai_bps <= line))
        return feroce_fail(why, FEROCE_E_RP_RHAI, "rhai_bps", p->rhai_bps, "[0, line_rate_bps = %.15g]",
                           line);
    if (p->hai_mode != FEROCE_HAI_CONSTANT && p->hai_mode != FEROCE_HAI_LINEAR)
        return feroce_fail(why, FEROCE_E_RP_HAI_MODE, "hai_mode", p->hai_mode, "constant (0) or linear (1)");
    if (p->clamp != FEROCE_CLAMP_ALWAYS && p->clamp != FEROCE_CLAMP_AFTER_INCREASE)
        return feroce_fail(why, FEROCE_E_RP_CLAMP, "clamp", p->clamp, "always (0) or after_increase (1)");
    if (!(p->first_cnp_rate_bps == 0 ||
          (p->first_cnp_rate_bps >= p->min_rate_bps && p->first_cnp_rate_bps <= line)))
        return feroce_fail(why, FEROCE_E_RP_FIRST_CNP_RATE, "first_cnp_rate_bps", p->first_cnp_rate_bps,
                           "0 or [min_rate_bps = %.15g, line_rate_bps = %.15g]", p->min_rate_bps, line);
    return FEROCE_OK;
}

/* ---- names -------------------------------------------------------------- */

const char *feroce_alpha_mode_name(enum feroce_alpha_mode m)
{
    return m == FEROCE_ALPHA_PERIODIC ? "periodic" : m == FEROCE_ALPHA_ON_CNP ? "on_cnp" : "?";
}

const char *feroce_hai_mode_name(enum feroce_hai_mode m)
{
    return m == FEROCE_HAI_LINEAR ? "linear" : m == FEROCE_HAI_CONSTANT ? "constant" : "?";
}

const char *feroce_clamp_name(enum feroce_clamp c)
{
    return c == FEROCE_CLAMP_AFTER_INCREASE ? "after_increase" : c == FEROCE_CLAMP_ALWAYS ? "always" : "?";
}

/* A whole-string number by feroce's one grammar (feroce-number.h); 0 on success. */
static int parse_number(const char *text, double *out)
{
    return feroce_number_real(text, out, NULL);
}

/* A whole-string integer in [lo, hi] (decimal, 0x hex or an exponent form such as 10e6). */
static int parse_integer(const char *text, double lo, double hi, double *out)
{
    int64_t v;
    if (feroce_number_i64(text, INT64_MIN, INT64_MAX, &v) != 0 || (double)v < lo || (double)v > hi)
        return -1;
    *out = (double)v;
    return 0;
}

enum field_kind { F_RATE, F_REAL, F_NS, F_BYTES, F_COUNT, F_ALPHA_MODE, F_HAI_MODE, F_CLAMP };

struct field {
    const char *name;
    enum field_kind kind;
    size_t offset;
};

#define FIELD(n, k, m)                                                                                       \
    {                                                                                                        \
        n, k, offsetof(struct feroce_rp_params, m)                                                           \
    }
static const struct field fields[] = {
    FIELD("line_rate_bps", F_RATE, line_rate_bps),
    FIELD("min_rate_bps", F_RATE, min_rate_bps),
    FIELD("g", F_REAL, g),
    FIELD("initial_alpha", F_REAL, initial_alpha),
    FIELD("alpha_mode", F_ALPHA_MODE, alpha_mode),
    FIELD("alpha_period_ns", F_NS, alpha_period_ns),
    FIELD("decrease_period_ns", F_NS, decrease_period_ns),
    FIELD("increase_timer_ns", F_NS, increase_timer_ns),
    FIELD("byte_counter_bytes", F_BYTES, byte_counter_bytes),
    FIELD("F", F_COUNT, F),
    FIELD("rai_bps", F_RATE, rai_bps),
    FIELD("rhai_bps", F_RATE, rhai_bps),
    FIELD("hai_mode", F_HAI_MODE, hai_mode),
    FIELD("clamp", F_CLAMP, clamp),
    FIELD("first_cnp_rate_bps", F_RATE, first_cnp_rate_bps),
};
#undef FIELD

static enum feroce_err bad_value(struct feroce_check *why, const char *name, const char *value,
                                 const char *expected)
{
    return feroce_fail_text(why, FEROCE_E_BAD_VALUE, name, value, expected);
}

enum feroce_err feroce_rp_set_param(struct feroce_rp_params *p, const char *name, const char *value,
                                    struct feroce_check *why)
{
    const struct field *f = NULL;
    char *at;
    double x;
    size_t i;

    for (i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (strcmp(fields[i].name, name) == 0)
            f = &fields[i];
    if (!f)
        return feroce_fail_text(
            why, FEROCE_E_UNKNOWN_PARAM, "param", name,
            "a reaction-point parameter: line_rate_bps, min_rate_bps, g, initial_alpha, "
            "alpha_mode, alpha_period_ns, decrease_period_ns, increase_timer_ns, "
            "byte_counter_bytes, F, rai_bps, rhai_bps, hai_mode, clamp, first_cnp_rate_bps");
    at = (char *)p + f->offset;
    switch (f->kind) {
    case F_RATE:
    case F_REAL:
        if (parse_number(value, &x) != 0)
            return bad_value(why, name, value, "a finite number");
        *(double *)at = x;
        break;
    case F_NS:
        if (parse_integer(value, -9.2e18, 9.2e18, &x) != 0)
            return bad_value(why, name, value, "an integer number of ns");
        *(int64_t *)at = (int64_t)x;
        break;
    case F_BYTES:
        if (parse_integer(value, 0, 1.8e19, &x) != 0)
            return bad_value(why, name, value, "a non-negative integer number of bytes");
        *(uint64_t *)at = (uint64_t)x;
        break;
    case F_COUNT:
        if (parse_integer(value, 0, 4294967295.0, &x) != 0)
            return bad_value(why, name, value, "a non-negative integer");
        *(uint32_t *)at = (uint32_t)x;
        break;
    case F_ALPHA_MODE:
        if (strcmp(value, "on_cnp") == 0)
            *(enum feroce_alpha_mode *)at = FEROCE_ALPHA_ON_CNP;
        else if (strcmp(value, "periodic") == 0)
            *(enum feroce_alpha_mode *)at = FEROCE_ALPHA_PERIODIC;
        else
            return bad_value(why, name, value, "on_cnp or periodic");
        break;
    case F_HAI_MODE:
        if (strcmp(value, "constant") == 0)
            *(enum feroce_hai_mode *)at = FEROCE_HAI_CONSTANT;
        else if (strcmp(value, "linear") == 0)
            *(enum feroce_hai_mode *)at = FEROCE_HAI_LINEAR;
        else
            return bad_value(why, name, value, "constant or linear");
        break;
    case F_CLAMP:
        if (strcmp(value, "always") == 0)
            *(enum feroce_clamp *)at = FEROCE_CLAMP_ALWAYS;
        else if (strcmp(value, "after_increase") == 0)
            *(enum feroce_clamp *)at = FEROCE_CLAMP_AFTER_INCREASE;
        else
            return bad_value(why, name, value, "always or after_increase");
        break;
    }
    return FEROCE_OK;
}
