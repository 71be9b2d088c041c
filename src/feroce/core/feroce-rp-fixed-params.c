/*
 * feroce-rp-fixed-params.c - register formats of the fixed-point reaction
 * point: presets, names, and the checked conversion of the real-valued rules
 * into register units (doc/dcqcn.md, "Fixed-point reaction point").
 */
#include "feroce-rp-fixed.h"

#include "feroce-number.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NS_PER_S UINT64_C(1000000000)

/* ---- presets ------------------------------------------------------------ */

/*
 * "default": a 10GbE datapath of 64 bits (156.25 MHz); Rc/Rt of 32 bits with
 * the line rate at 2^31; alpha of 16 fraction bits (g = 1/256 and ConnectX's
 * Q10 5/1024 are exact); truncation, the cheapest logic.
 */
static void format_default(struct feroce_rp_fixed_format *f)
{
    f->clock_hz = 156250000;
    f->rate_bits = 32;
    f->rate_lsb_bps = 0;
    f->alpha_bits = 16;
    f->rate_rounding = FEROCE_ROUND_TRUNCATE;
    f->alpha_rounding = FEROCE_ROUND_TRUNCATE;
}

/*
 * "surf": SLAC's SURF library, ethernet/RoCEv2/rtl (Dcqcn.vhd, RateDecProc.vhd,
 * AlphaUpdate.vhd): CLK_FREQ_G 156.25 MHz; Rc, Rt, Rai, Rhai, Rmin of 32 bits
 * in bytes/s (LINE_RATE_G 1_250_000_000 = 10 Gb/s); alpha and alphaG (= 1 - g)
 * Q0.10; the alpha products rounded to nearest (+512 before >> 10), the cut's
 * decrement Rc x alpha >> 11 truncated.
 */
static void format_surf(struct feroce_rp_fixed_format *f)
{
    f->clock_hz = 156250000;
    f->rate_bits = 32;
    f->rate_lsb_bps = 8;
    f->alpha_bits = 10;
    f->rate_rounding = FEROCE_ROUND_TRUNCATE;
    f->alpha_rounding = FEROCE_ROUND_NEAREST;
}

enum feroce_err feroce_rp_fixed_format_preset(struct feroce_rp_fixed_format *fmt, const char *name,
                                              struct feroce_check *why)
{
    if (strcmp(name, "default") == 0)
        format_default(fmt);
    else if (strcmp(name, "surf") == 0)
        format_surf(fmt);
    else
        return feroce_fail_text(why, FEROCE_E_UNKNOWN_PRESET, "format", name, "default or surf");
    return FEROCE_OK;
}

const char *feroce_rounding_name(enum feroce_rounding r)
{
    return r == FEROCE_ROUND_NEAREST ? "nearest" : r == FEROCE_ROUND_TRUNCATE ? "truncate" : "?";
}

/* ---- set by name -------------------------------------------------------- */

static int parse_rounding(const char *text, enum feroce_rounding *out)
{
    if (strcmp(text, "truncate") == 0)
        *out = FEROCE_ROUND_TRUNCATE;
    else if (strcmp(text, "nearest") == 0)
        *out = FEROCE_ROUND_NEAREST;
    else
        return -1;
    return 0;
}

enum feroce_err feroce_rp_fixed_set_format(struct feroce_rp_fixed_format *fmt, const char *name,
                                           const char *value, struct feroce_check *why)
{
    double x;

    if (strcmp(name, "rounding") == 0 || strcmp(name, "rate_rounding") == 0 ||
        strcmp(name, "alpha_rounding") == 0) {
        enum feroce_rounding r;

        if (parse_rounding(value, &r) != 0)
            return feroce_fail_text(why, FEROCE_E_BAD_VALUE, name, value, "truncate or nearest");
        if (strcmp(name, "alpha_rounding") != 0)
            fmt->rate_rounding = r;
        if (strcmp(name, "rate_rounding") != 0)
            fmt->alpha_rounding = r;
        return FEROCE_OK;
    }
    if (strcmp(name, "rate_lsb_bps") == 0) {
        if (feroce_number_real(value, &x, NULL) != 0)
            return feroce_fail_text(why, FEROCE_E_BAD_VALUE, name, value, "a finite number (b/s), 0 = auto");
        fmt->rate_lsb_bps = x;
        return FEROCE_OK;
    }
    if (strcmp(name, "clock_hz") == 0 || strcmp(name, "rate_bits") == 0 || strcmp(name, "alpha_bits") == 0) {
        uint64_t whole;
        if (feroce_number_u64(value, 1000000000000ULL, &whole) != 0)
            return feroce_fail_text(why, FEROCE_E_BAD_VALUE, name, value, "a non-negative integer");
        x = (double)whole;
        if (name[0] == 'c')
            fmt->clock_hz = (uint64_t)x;
        else if (name[0] == 'r')
            fmt->rate_bits = x > 1000 ? 1000 : (uint32_t)x;
        else
            fmt->alpha_bits = x > 1000 ? 1000 : (uint32_t)x;
        return FEROCE_OK;
    }
    return feroce_fail_text(why, FEROCE_E_UNKNOWN_PARAM, "format", name,
                            "a format field: clock_hz, rate_bits, rate_lsb_bps, alpha_bits, rounding, "
                            "rate_rounding, alpha_rounding");
}

enum feroce_err feroce_rp_fixed_parse_format(struct feroce_rp_fixed_format *fmt, const char *text,
                                             struct feroce_check *why)
{
    char buf[256], *item = buf;
    struct feroce_rp_fixed_format f;
    enum feroce_err err;
    int first = 1;

    if (strlen(text) >= sizeof buf)
        return feroce_fail_text(why, FEROCE_E_BAD_VALUE, "format", text, "at most 255 characters");
    memcpy(buf, text, strlen(text) + 1);
    format_default(&f);
    while (item) {
        char *comma = strchr(item, ','), *eq;

        if (comma)
            *comma = '\0';
        eq = strchr(item, '=');
        if (!eq && first) {
            if ((err = feroce_rp_fixed_format_preset(&f, item, why)) != FEROCE_OK)
                return err;
        } else if (!eq) {
            return feroce_fail_text(why, FEROCE_E_BAD_VALUE, "format", item,
                                    "a preset name first, then field=value settings");
        } else {
            *eq = '\0';
            if ((err = feroce_rp_fixed_set_format(&f, item, eq + 1, why)) != FEROCE_OK)
                return err;
        }
        first = 0;
        item = comma ? comma + 1 : NULL;
    }
    *fmt = f;
    return FEROCE_OK;
}

/* ---- time --------------------------------------------------------------- */

/* (q x m + r), saturated to FEROCE_NEVER beyond FEROCE_TIME_MAX (r < 2^63 / 2 by the callers) */
static int64_t scaled(uint64_t q, uint64_t m, uint64_t r)
{
    if (q > (uint64_t)FEROCE_TIME_MAX / m || q * m > (uint64_t)FEROCE_TIME_MAX - r)
        return FEROCE_NEVER;
    return (int64_t)(q * m + r);
}

int64_t feroce_rp_fixed_cycle_at(const struct feroce_rp_fixed_params *p, int64_t t_ns)
{
    uint64_t f = p->fmt.clock_hz, t = t_ns < 0 ? 0 : (uint64_t)t_ns;

    return scaled(t / NS_PER_S, f, (t % NS_PER_S) * f / NS_PER_S);
}

int64_t feroce_rp_fixed_ns_at(const struct feroce_rp_fixed_params *p, int64_t cycle)
{
    uint64_t f = p->fmt.clock_hz, c = cycle < 0 ? 0 : (uint64_t)cycle;

    return scaled(c / f, NS_PER_S, ((c % f) * NS_PER_S + f - 1) / f);
}

/* ---- build -------------------------------------------------------------- */

/* A timer of ns as whole cycles, to the nearest (ties up); 0 if shorter than one cycle. */
static int64_t timer_cycles(uint64_t clock_hz, int64_t ns)
{
    uint64_t t = (uint64_t)ns, q = t / NS_PER_S, r = t % NS_PER_S;
    uint64_t whole = q * clock_hz + r * clock_hz / NS_PER_S, rem = r * clock_hz % NS_PER_S;

    if (whole == 0)
        return 0;
    return (int64_t)(whole + (2 * rem >= NS_PER_S ? 1 : 0));
}

static enum feroce_err check_timer(struct feroce_check *why, const struct feroce_rp_fixed_format *f,
                                   const char *name, int64_t ns, int64_t *out)
{
    if ((uint64_t)ns / NS_PER_S >= (UINT64_MAX / 4) / f->clock_hz)
        return feroce_fail(why, FEROCE_E_FIXED_TIMER, name, (double)ns, "< %.6g ns at clock_hz = %llu",
                           1e9 * (double)((UINT64_MAX / 4) / f->clock_hz), (unsigned long long)f->clock_hz);
    *out = timer_cycles(f->clock_hz, ns);
    if (*out > FEROCE_TIME_MAX)
        return feroce_fail(why, FEROCE_E_FIXED_TIMER, name, (double)ns, "<= %lld cycles at clock_hz = %llu",
                           (long long)FEROCE_TIME_MAX, (unsigned long long)f->clock_hz);
    if (*out < 1)
        return feroce_fail(why, FEROCE_E_FIXED_TIMER, name, (double)ns,
                           ">= one cycle of clock_hz = %llu (%.6g ns)", (unsigned long long)f->clock_hz,
                           1e9 / (double)f->clock_hz);
    return FEROCE_OK;
}

/* A rate to the nearest LSB; a non-zero rate (or any, when required) must not round to 0. */
static enum feroce_err check_rate(struct feroce_check *why, double lsb, const char *name, double bps,
                                  int zero_ok, uint64_t *out)
{
    double units = floor(bps / lsb + 0.5);

    *out = (uint64_t)units;
    if (*out == 0 && !(zero_ok && bps == 0))
        return feroce_fail(why, FEROCE_E_FIXED_RATE_STEP, name, bps,
                           "%s>= half an LSB of the rate register (rate_lsb_bps = %.15g): it rounds to 0",
                           zero_ok ? "0 or " : "", lsb);
    return FEROCE_OK;
}

/* x = n / 2^bits exactly, n in [lo, 2^bits] */
static int exact_fraction(double x, uint32_t bits, double lo, uint32_t *out)
{
    double n = ldexp(x, (int)bits);

    if (n != floor(n) || n < lo || n > ldexp(1.0, (int)bits))
        return -1;
    *out = (uint32_t)n;
    return 0;
}

static enum feroce_err check_format(const struct feroce_rp_fixed_format *f, struct feroce_check *why)
{
    if (f->clock_hz < 1000 || f->clock_hz > UINT64_C(10000000000))
        return feroce_fail(why, FEROCE_E_FIXED_CLOCK, "clock_hz", (double)f->clock_hz,
                           "an integer in [1000, 10000000000] Hz");
    if (f->rate_bits < 2 || f->rate_bits > 48)
        return feroce_fail(why, FEROCE_E_FIXED_RATE_BITS, "rate_bits", f->rate_bits, "[2, 48]");
    if (!(f->rate_lsb_bps >= 0) || !isfinite(f->rate_lsb_bps))
        return feroce_fail(why, FEROCE_E_FIXED_RATE_LSB, "rate_lsb_bps", f->rate_lsb_bps,
                           "> 0 b/s, or 0 for line_rate_bps / 2^(rate_bits - 1)");
    if (f->alpha_bits < 1 || f->alpha_bits > 31)
        return feroce_fail(why, FEROCE_E_FIXED_ALPHA_BITS, "alpha_bits", f->alpha_bits, "[1, 31]");
    /* the cut's product Rc x A has rate_bits + alpha_bits + 1 bits */
    if (f->rate_bits + f->alpha_bits > 62)
        return feroce_fail(why, FEROCE_E_FIXED_ALPHA_BITS, "alpha_bits", f->alpha_bits,
                           "<= %u: rate_bits + alpha_bits <= 62 (rate_bits = %u)", 62 - f->rate_bits,
                           f->rate_bits);
    if (f->rate_rounding != FEROCE_ROUND_TRUNCATE && f->rate_rounding != FEROCE_ROUND_NEAREST)
        return feroce_fail(why, FEROCE_E_FIXED_ROUNDING, "rate_rounding", f->rate_rounding,
                           "truncate (0) or nearest (1)");
    if (f->alpha_rounding != FEROCE_ROUND_TRUNCATE && f->alpha_rounding != FEROCE_ROUND_NEAREST)
        return feroce_fail(why, FEROCE_E_FIXED_ROUNDING, "alpha_rounding", f->alpha_rounding,
                           "truncate (0) or nearest (1)");
    return FEROCE_OK;
}

enum feroce_err feroce_rp_fixed_build(struct feroce_rp_fixed_params *out,
                                      const struct feroce_rp_params *rules,
                                      const struct feroce_rp_fixed_format *fmt, struct feroce_check *why)
{
    struct feroce_rp_fixed_params p;
    enum feroce_err err;
    double lsb, line_units, top;
    uint32_t wa = fmt->alpha_bits;

    if ((err = feroce_rp_validate(rules, why)) != FEROCE_OK)
        return err;
    if ((err = check_format(fmt, why)) != FEROCE_OK)
        return err;
    memset(&p, 0, sizeof p);
    p.fmt = *fmt;
    p.rules = *rules;

    /* rates */
    lsb = fmt->rate_lsb_bps > 0 ? fmt->rate_lsb_bps : ldexp(rules->line_rate_bps, -(int)(fmt->rate_bits - 1));
    p.fmt.rate_lsb_bps = lsb;
    top = ldexp(1.0, (int)fmt->rate_bits) - 1;
    line_units = floor(rules->line_rate_bps / lsb + 0.5);
    if (line_units > top)
        return feroce_fail(why, FEROCE_E_FIXED_LINE_RATE, "line_rate_bps", rules->line_rate_bps,
                           "<= %.15g b/s: the rate register holds 2^%u - 1 LSBs of rate_lsb_bps = %.15g",
                           top * lsb, fmt->rate_bits, lsb);
    if (line_units < 1)
        return feroce_fail(why, FEROCE_E_FIXED_LINE_RATE, "line_rate_bps", rules->line_rate_bps,
                           ">= half an LSB of the rate register (rate_lsb_bps = %.15g)", lsb);
    p.line = (uint64_t)line_units;
    if ((err = check_rate(why, lsb, "min_rate_bps", rules->min_rate_bps, 0, &p.min_rate)) != FEROCE_OK ||
        (err = check_rate(why, lsb, "rai_bps", rules->rai_bps, 1, &p.rai)) != FEROCE_OK ||
        (err = check_rate(why, lsb, "rhai_bps", rules->rhai_bps, 1, &p.rhai)) != FEROCE_OK ||
        (err = check_rate(why, lsb, "first_cnp_rate_bps", rules->first_cnp_rate_bps, 1, &p.first_cnp_rate)) !=
            FEROCE_OK)
        return err;
    if (p.min_rate > p.line)
        p.min_rate = p.line;
    if (p.first_cnp_rate > p.line)
        p.first_cnp_rate = p.line;

    /* alpha: firmware constants are exact */
    p.alpha_one = UINT32_C(1) << wa;
    if (exact_fraction(rules->g, wa, 1, &p.g) != 0)
        return feroce_fail(why, FEROCE_E_FIXED_G, "g", rules->g,
                           "a multiple of 2^-%u in (0, 1] (alpha_bits = %u); nearest: %.0f/%u", wa, wa,
                           fmax(1, floor(ldexp(rules->g, (int)wa) + 0.5)), p.alpha_one);
    if (exact_fraction(rules->initial_alpha, wa, 0, &p.initial_alpha) != 0)
        return feroce_fail(why, FEROCE_E_FIXED_INITIAL_ALPHA, "initial_alpha", rules->initial_alpha,
                           "a multiple of 2^-%u in [0, 1] (alpha_bits = %u); nearest: %.0f/%u", wa, wa,
                           floor(ldexp(rules->initial_alpha, (int)wa) + 0.5), p.alpha_one);

    /* timers */
    if ((err = check_timer(why, fmt, "alpha_period_ns", rules->alpha_period_ns, &p.alpha_period)) !=
            FEROCE_OK ||
        (err = check_timer(why, fmt, "increase_timer_ns", rules->increase_timer_ns, &p.increase_timer)) !=
            FEROCE_OK)
        return err;
    if (rules->decrease_period_ns > 0 &&
        (err = check_timer(why, fmt, "decrease_period_ns", rules->decrease_period_ns, &p.decrease_period)) !=
            FEROCE_OK)
        return err;

    p.byte_counter = rules->byte_counter_bytes;
    p.F = rules->F;
    p.alpha_mode = rules->alpha_mode;
    p.hai_mode = rules->hai_mode;
    p.clamp = rules->clamp;
    *out = p;
    return FEROCE_OK;
}
