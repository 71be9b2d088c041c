/*
 * test-rp-fixed.c - the fixed-point reaction point (feroce-rp-fixed.h).
 *
 * Hand-computed register values for each integer rule and both roundings,
 * the named errors of a bad format, the clock conversions, the lazy timers
 * against a copy advanced every cycle, and the fixed model against the
 * double one: with wide registers and a 1 GHz clock it must follow the float
 * trace closely, with identical stage counts.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "core-tests.h"
#include "feroce-rp-fixed.h"

static void message_of(const struct feroce_check *why, char *buf, size_t len)
{
    feroce_check_message(why, buf, len);
}

/* A format by hand: 1 GHz (1 ns cycles), auto LSB. */
static struct feroce_rp_fixed_format format(uint32_t rate_bits, uint32_t alpha_bits, enum feroce_rounding r)
{
    struct feroce_rp_fixed_format f;

    feroce_rp_fixed_format_preset(&f, "default", NULL);
    f.clock_hz = 1000000000;
    f.rate_bits = rate_bits;
    f.alpha_bits = alpha_bits;
    f.rate_rounding = r;
    f.alpha_rounding = r;
    return f;
}

void test_rp_fixed_presets(void)
{
    struct feroce_rp_fixed_format f;
    struct feroce_rp_fixed_params p;
    struct feroce_rp_params rules;
    struct feroce_check why;
    char msg[512];

    CHECK_EQ(feroce_rp_fixed_format_preset(&f, "default", &why), FEROCE_OK);
    CHECK_EQ(f.clock_hz, 156250000);
    CHECK_EQ(f.rate_bits, 32);
    CHECK_EQ(f.alpha_bits, 16);
    CHECK_EQ(f.rate_rounding, FEROCE_ROUND_TRUNCATE);
    /* every rules preset builds on the default format */
    feroce_rp_preset(&rules, "paper", 10e9, NULL);
    CHECK_EQ(feroce_rp_fixed_build(&p, &rules, &f, &why), FEROCE_OK);
    CHECK_EQ(p.line, 1u << 31);
    CHECK_EQ(p.fmt.rate_lsb_bps, 10e9 / 2147483648.0);
    CHECK_EQ(p.g, 256);               /* 1/256 of 2^16 */
    CHECK_EQ(p.initial_alpha, 65536); /* 1.0 */
    CHECK_EQ(p.alpha_period, 8594);   /* 55 us x 156.25 MHz = 8593.75 cycles, to the nearest */
    CHECK_EQ(p.increase_timer, 8594);
    CHECK_EQ(p.decrease_period, 0);
    CHECK_EQ(p.min_rate, 2147484); /* 10 Mb/s / 4.66 b/s, to the nearest */
    feroce_rp_preset(&rules, "connectx", 10e9, NULL);
    CHECK_EQ(feroce_rp_fixed_build(&p, &rules, &f, &why), FEROCE_OK);
    CHECK_EQ(p.g, 320);               /* 5/1024 */
    CHECK_EQ(p.initial_alpha, 65472); /* 1023/1024 */
    CHECK_EQ(p.decrease_period, 625); /* 4 us */
    feroce_rp_preset(&rules, "hpcc", 100e9, NULL);
    CHECK_EQ(feroce_rp_fixed_build(&p, &rules, &f, &why), FEROCE_OK);

    /* SURF: bytes/s in 32 bits, Q0.10 */
    CHECK_EQ(feroce_rp_fixed_format_preset(&f, "surf", &why), FEROCE_OK);
    CHECK_EQ(f.rate_lsb_bps, 8);
    CHECK_EQ(f.alpha_bits, 10);
    CHECK_EQ(f.alpha_rounding, FEROCE_ROUND_NEAREST);
    CHECK_EQ(f.rate_rounding, FEROCE_ROUND_TRUNCATE);
    feroce_rp_preset(&rules, "connectx", 10e9, NULL);
    CHECK_EQ(feroce_rp_fixed_build(&p, &rules, &f, &why), FEROCE_OK);
    CHECK_EQ(p.line, 1250000000u);
    CHECK_EQ(p.rai, 625000); /* 5 Mb/s in bytes/s */
    CHECK_EQ(p.g, 5);
    CHECK_EQ(p.initial_alpha, 1023);

    CHECK_EQ(feroce_rp_fixed_format_preset(&f, "asic", &why), FEROCE_E_UNKNOWN_PRESET);
    message_of(&why, msg, sizeof msg);
    CHECK_STR_CONTAINS(msg, "format = \"asic\" is not allowed: expected default or surf");
}

void test_rp_fixed_set_format(void)
{
    struct feroce_rp_fixed_format f;
    struct feroce_check why;
    char msg[512];

    feroce_rp_fixed_format_preset(&f, "default", NULL);
    CHECK_EQ(feroce_rp_fixed_set_format(&f, "clock_hz", "250e6", &why), FEROCE_OK);
    CHECK_EQ(f.clock_hz, 250000000);
    CHECK_EQ(feroce_rp_fixed_set_format(&f, "rate_bits", "20", &why), FEROCE_OK);
    CHECK_EQ(f.rate_bits, 20);
    CHECK_EQ(feroce_rp_fixed_set_format(&f, "rate_lsb_bps", "1e6", &why), FEROCE_OK);
    CHECK_EQ(f.rate_lsb_bps, 1e6);
    CHECK_EQ(feroce_rp_fixed_set_format(&f, "alpha_bits", "10", &why), FEROCE_OK);
    CHECK_EQ(f.alpha_bits, 10);
    CHECK_EQ(feroce_rp_fixed_set_format(&f, "rounding", "nearest", &why), FEROCE_OK);
    CHECK_EQ(f.rate_rounding, FEROCE_ROUND_NEAREST);
    CHECK_EQ(f.alpha_rounding, FEROCE_ROUND_NEAREST);
    CHECK_EQ(feroce_rp_fixed_set_format(&f, "rate_rounding", "truncate", &why), FEROCE_OK);
    CHECK_EQ(f.rate_rounding, FEROCE_ROUND_TRUNCATE);
    CHECK_EQ(f.alpha_rounding, FEROCE_ROUND_NEAREST);

    CHECK_EQ(feroce_rp_fixed_set_format(&f, "rounding", "up", &why), FEROCE_E_BAD_VALUE);
    message_of(&why, msg, sizeof msg);
    CHECK_STR_CONTAINS(msg, "rounding = \"up\" is not allowed: expected truncate or nearest");
    CHECK_EQ(feroce_rp_fixed_set_format(&f, "alpha_bits", "9.5", &why), FEROCE_E_BAD_VALUE);
    CHECK_EQ(feroce_rp_fixed_set_format(&f, "width", "9", &why), FEROCE_E_UNKNOWN_PARAM);
    message_of(&why, msg, sizeof msg);
    CHECK_STR_CONTAINS(msg, "format = \"width\" is not allowed: expected a format field");

    /* one line of text: a preset, then settings */
    CHECK_EQ(feroce_rp_fixed_parse_format(&f, "surf", &why), FEROCE_OK);
    CHECK_EQ(f.rate_lsb_bps, 8);
    CHECK_EQ(feroce_rp_fixed_parse_format(&f, "default,alpha_bits=12,rounding=nearest", &why), FEROCE_OK);
    CHECK_EQ(f.alpha_bits, 12);
    CHECK_EQ(f.rate_bits, 32);
    CHECK_EQ(f.rate_rounding, FEROCE_ROUND_NEAREST);
    CHECK_EQ(feroce_rp_fixed_parse_format(&f, "rate_bits=20", &why), FEROCE_OK);
    CHECK_EQ(f.rate_bits, 20);
    CHECK_EQ(f.alpha_bits, 16);
    CHECK_EQ(feroce_rp_fixed_parse_format(&f, "surf,width=3", &why), FEROCE_E_UNKNOWN_PARAM);
    CHECK_EQ(feroce_rp_fixed_parse_format(&f, "surf,12", &why), FEROCE_E_BAD_VALUE);
    message_of(&why, msg, sizeof msg);
    CHECK_STR_CONTAINS(msg, "format = \"12\" is not allowed: expected a preset name first");
    CHECK_EQ(feroce_rp_fixed_parse_format(&f, "asic,alpha_bits=3", &why), FEROCE_E_UNKNOWN_PRESET);
    CHECK_EQ(f.rate_bits, 20); /* unchanged on error */
}

/* build `rules` on `f` and return the error and its message */
static enum feroce_err build_error(const struct feroce_rp_params *rules,
                                   const struct feroce_rp_fixed_format *f, char *msg, size_t len)
{
    struct feroce_rp_fixed_params p;
    struct feroce_check why;
    enum feroce_err err = feroce_rp_fixed_build(&p, rules, f, &why);

    msg[0] = '\0';
    if (err != FEROCE_OK)
        message_of(&why, msg, len);
    return err;
}

void test_rp_fixed_validation(void)
{
    struct feroce_rp_params rules;
    struct feroce_rp_fixed_format f, bad;
    char msg[512];

    feroce_rp_preset(&rules, "paper", 10e9, NULL);
    feroce_rp_fixed_format_preset(&f, "default", NULL);

    /* g not representable in the alpha bits */
    bad = f;
    bad.alpha_bits = 6;
    CHECK_EQ(build_error(&rules, &bad, msg, sizeof msg), FEROCE_E_FIXED_G);
    CHECK_STR_CONTAINS(msg, "g = 0.00390625 is not allowed: expected a multiple of 2^-6 in (0, 1]");
    rules.g = 0.003;
    bad.alpha_bits = 10;
    CHECK_EQ(build_error(&rules, &bad, msg, sizeof msg), FEROCE_E_FIXED_G);
    CHECK_STR_CONTAINS(msg, "g = 0.003 is not allowed");
    CHECK_STR_CONTAINS(msg, "nearest: 3/1024");
    rules.g = 1.0 / 256;
    rules.initial_alpha = 0.3;
    CHECK_EQ(build_error(&rules, &f, msg, sizeof msg), FEROCE_E_FIXED_INITIAL_ALPHA);
    CHECK_STR_CONTAINS(msg, "initial_alpha = 0.3 is not allowed: expected a multiple of 2^-16 in [0, 1]");
    rules.initial_alpha = 1;

    /* a timer shorter than one cycle (6.4 ns at 156.25 MHz) */
    rules.alpha_period_ns = 6;
    CHECK_EQ(build_error(&rules, &f, msg, sizeof msg), FEROCE_E_FIXED_TIMER);
    CHECK_STR_CONTAINS(msg,
                       "alpha_period_ns = 6 is not allowed: expected >= one cycle of clock_hz = 156250000 "
                       "(6.4 ns)");
    rules.alpha_period_ns = 7; /* 1.09 cycles: one cycle */
    CHECK_EQ(build_error(&rules, &f, msg, sizeof msg), FEROCE_OK);
    rules.decrease_period_ns = 1;
    CHECK_EQ(build_error(&rules, &f, msg, sizeof msg), FEROCE_E_FIXED_TIMER);
    CHECK_STR_CONTAINS(msg, "decrease_period_ns = 1 is not allowed");
    feroce_rp_preset(&rules, "paper", 10e9, NULL);

    /* a line rate beyond the rate register: SURF's 32 bits of bytes/s hold 34.36 Gb/s */
    feroce_rp_fixed_format_preset(&bad, "surf", NULL);
    feroce_rp_preset(&rules, "paper", 40e9, NULL);
    CHECK_EQ(build_error(&rules, &bad, msg, sizeof msg), FEROCE_E_FIXED_LINE_RATE);
    CHECK_STR_CONTAINS(msg,
                       "line_rate_bps = 40000000000 is not allowed: expected <= 34359738360 b/s: the rate "
                       "register holds 2^32 - 1 LSBs of rate_lsb_bps = 8");
    feroce_rp_preset(&rules, "paper", 10e9, NULL);
    rules.rai_bps = 3; /* below half of 8 b/s */
    CHECK_EQ(build_error(&rules, &bad, msg, sizeof msg), FEROCE_E_FIXED_RATE_STEP);
    CHECK_STR_CONTAINS(msg, "rai_bps = 3 is not allowed: expected 0 or >= half an LSB");
    rules.rai_bps = 0; /* zero is a setting, not a rounding */
    CHECK_EQ(build_error(&rules, &bad, msg, sizeof msg), FEROCE_OK);
    /* min_rate must stay >= 1 LSB: with 8-bit registers the LSB is 78 Mb/s */
    bad = f;
    bad.rate_bits = 8;
    CHECK_EQ(build_error(&rules, &bad, msg, sizeof msg), FEROCE_E_FIXED_RATE_STEP);
    CHECK_STR_CONTAINS(msg, "min_rate_bps = 10000000 is not allowed: expected >= half an LSB");

    /* format fields out of range */
    feroce_rp_preset(&rules, "paper", 10e9, NULL);
    bad = f;
    bad.rate_bits = 49;
    CHECK_EQ(build_error(&rules, &bad, msg, sizeof msg), FEROCE_E_FIXED_RATE_BITS);
    CHECK_STR_CONTAINS(msg, "rate_bits = 49 is not allowed: expected [2, 48]");
    bad = f;
    bad.alpha_bits = 0;
    CHECK_EQ(build_error(&rules, &bad, msg, sizeof msg), FEROCE_E_FIXED_ALPHA_BITS);
    bad.alpha_bits = 30;
    bad.rate_bits = 40;
    CHECK_EQ(build_error(&rules, &bad, msg, sizeof msg), FEROCE_E_FIXED_ALPHA_BITS);
    CHECK_STR_CONTAINS(msg, "alpha_bits = 30 is not allowed: expected <= 22: rate_bits + alpha_bits <= 62");
    bad = f;
    bad.clock_hz = 999;
    CHECK_EQ(build_error(&rules, &bad, msg, sizeof msg), FEROCE_E_FIXED_CLOCK);
    CHECK_STR_CONTAINS(msg, "clock_hz = 999 is not allowed");
    bad = f;
    bad.rate_lsb_bps = -1;
    CHECK_EQ(build_error(&rules, &bad, msg, sizeof msg), FEROCE_E_FIXED_RATE_LSB);
    bad = f;
    bad.alpha_rounding = (enum feroce_rounding)7;
    CHECK_EQ(build_error(&rules, &bad, msg, sizeof msg), FEROCE_E_FIXED_ROUNDING);
    CHECK_STR_CONTAINS(msg, "alpha_rounding = 7 is not allowed");
    /* the rules are checked first, with their own names */
    rules.g = 2;
    CHECK_EQ(build_error(&rules, &f, msg, sizeof msg), FEROCE_E_RP_G);
}

void test_rp_fixed_clock(void)
{
    struct feroce_rp_fixed_format f;
    struct feroce_rp_fixed_params p;
    struct feroce_rp_params rules;

    feroce_rp_preset(&rules, "paper", 10e9, NULL);
    feroce_rp_fixed_format_preset(&f, "default", NULL); /* 6.4 ns cycles */
    CHECK_EQ(feroce_rp_fixed_build(&p, &rules, &f, NULL), FEROCE_OK);
    CHECK_EQ(feroce_rp_fixed_cycle_at(&p, 0), 0);
    CHECK_EQ(feroce_rp_fixed_cycle_at(&p, 6), 0);
    CHECK_EQ(feroce_rp_fixed_cycle_at(&p, 7), 1);
    CHECK_EQ(feroce_rp_fixed_cycle_at(&p, 31), 4);
    CHECK_EQ(feroce_rp_fixed_cycle_at(&p, 32), 5);
    CHECK_EQ(feroce_rp_fixed_cycle_at(&p, 3600000000000LL), 562500000000LL); /* one hour */
    CHECK_EQ(feroce_rp_fixed_ns_at(&p, 0), 0);
    CHECK_EQ(feroce_rp_fixed_ns_at(&p, 1), 7);
    CHECK_EQ(feroce_rp_fixed_ns_at(&p, 5), 32);
    CHECK_EQ(feroce_rp_fixed_ns_at(&p, 562500000000LL), 3600000000000LL);
    /* the two are inverse on cycle starts */
    for (int64_t c = 0; c < 2000; c++)
        if (feroce_rp_fixed_cycle_at(&p, feroce_rp_fixed_ns_at(&p, c)) != c)
            CHECK(0);
}

/*
 * Hand-computed registers.  Rate registers of 8 bits (line = 128 LSBs of
 * 78.125 Mb/s), alpha of 4 fraction bits, g = 3/16, initial alpha 11/16,
 * on_cnp, D = 0, clamp always, timers long enough not to interfere.
 */
static void small_rules(struct feroce_rp_params *r)
{
    feroce_rp_preset(r, "paper", 10e9, NULL);
    r->min_rate_bps = 78.125e6; /* 1 LSB */
    r->g = 3.0 / 16;
    r->initial_alpha = 11.0 / 16;
    r->alpha_period_ns = 1000000;
    r->increase_timer_ns = 1000000;
    r->byte_counter_bytes = 0;
    r->F = 5;
}

void test_rp_fixed_recipe(void)
{
    struct feroce_rp_params rules;
    struct feroce_rp_fixed_format f;
    struct feroce_rp_fixed_params p;
    struct feroce_rp_fixed_state s;

    small_rules(&rules);

    /* truncation */
    f = format(8, 4, FEROCE_ROUND_TRUNCATE);
    CHECK_EQ(feroce_rp_fixed_build(&p, &rules, &f, NULL), FEROCE_OK);
    CHECK_EQ(p.line, 128);
    CHECK_EQ(p.g, 3);
    CHECK_EQ(p.initial_alpha, 11);
    CHECK_EQ(p.min_rate, 1);
    feroce_rp_fixed_init(&s, &p, 0);
    CHECK_EQ(s.cur.rc, 128);
    CHECK_EQ(s.cur.alpha, 11);
    feroce_rp_fixed_cnp(&s, &p, 10);
    /* cut: dec = 128 x 11 >> 5 = 44; Rc = 84; then A = (11 x 13 >> 4) + 3 = 8 + 3 = 11 */
    CHECK_EQ(s.cur.rt, 128);
    CHECK_EQ(s.cur.rc, 84);
    CHECK_EQ(s.cur.alpha, 11);
    feroce_rp_fixed_cnp(&s, &p, 20);
    /* Rt = 84; dec = 84 x 11 >> 5 = 924 >> 5 = 28; Rc = 56 */
    CHECK_EQ(s.cur.rt, 84);
    CHECK_EQ(s.cur.rc, 56);
    /* alpha expiry at 20 + K: A = 11 x 13 >> 4 = 8 */
    feroce_rp_fixed_advance(&s, &p, 20 + 1000000);
    CHECK_EQ(s.cur.alpha, 8);
    /* the increase expiry at the same instant: fast recovery, Rc = (84 + 56) >> 1 = 70 */
    CHECK_EQ(s.cur.ts, 1);
    CHECK_EQ(s.cur.rc, 70);
    feroce_rp_fixed_advance(&s, &p, 20 + 2000000);
    CHECK_EQ(s.cur.rc, 77);                        /* (84 + 70) >> 1 */
    feroce_rp_fixed_advance(&s, &p, 20 + 3000000); /* (84 + 77) >> 1 = 80 (80.5 truncated) */
    CHECK_EQ(s.cur.rc, 80);
    CHECK_EQ(s.cur.alpha, 4); /* 8 x 13 >> 4 = 6; 6 x 13 >> 4 = 4 */

    /* round to nearest, ties up */
    f = format(8, 4, FEROCE_ROUND_NEAREST);
    CHECK_EQ(feroce_rp_fixed_build(&p, &rules, &f, NULL), FEROCE_OK);
    feroce_rp_fixed_init(&s, &p, 0);
    feroce_rp_fixed_cnp(&s, &p, 10);
    /* dec = (1408 + 16) >> 5 = 44; A = (143 + 8) >> 4 + 3 = 9 + 3 = 12 */
    CHECK_EQ(s.cur.rc, 84);
    CHECK_EQ(s.cur.alpha, 12);
    feroce_rp_fixed_cnp(&s, &p, 20);
    /* dec = (84 x 12 + 16) >> 5 = 1024 >> 5 = 32 (31.5 up); Rc = 52; A = (156 + 8) >> 4 + 3 = 13 */
    CHECK_EQ(s.cur.rc, 52);
    CHECK_EQ(s.cur.alpha, 13);
    feroce_rp_fixed_advance(&s, &p, 20 + 1000000);
    CHECK_EQ(s.cur.rc, 68);    /* (84 + 52 + 1) >> 1 */
    CHECK_EQ(s.cur.alpha, 11); /* (169 + 8) >> 4 = 11 */
    feroce_rp_fixed_advance(&s, &p, 20 + 2000000);
    CHECK_EQ(s.cur.rc, 76); /* (84 + 68 + 1) >> 1 */

    /* the floor: min_rate of 40 LSBs stops the cut */
    rules.min_rate_bps = 40 * 78.125e6;
    f = format(8, 4, FEROCE_ROUND_TRUNCATE);
    CHECK_EQ(feroce_rp_fixed_build(&p, &rules, &f, NULL), FEROCE_OK);
    feroce_rp_fixed_init(&s, &p, 0);
    feroce_rp_fixed_cnp(&s, &p, 10);
    feroce_rp_fixed_cnp(&s, &p, 20);
    CHECK_EQ(s.cur.rc, 56);
    feroce_rp_fixed_cnp(&s, &p, 30);
    CHECK_EQ(s.cur.rc, 40); /* 56 - 19 = 37, floored */
}

/* Additive and hyper stages with the line-rate cap (timer only, F = 1, linear hyper). */
void test_rp_fixed_increase_stages(void)
{
    struct feroce_rp_params rules;
    struct feroce_rp_fixed_format f = format(8, 4, FEROCE_ROUND_TRUNCATE);
    struct feroce_rp_fixed_params p;
    struct feroce_rp_fixed_state s;

    small_rules(&rules);
    rules.initial_alpha = 1;
    rules.F = 1;
    rules.rai_bps = 2 * 78.125e6;  /* 2 LSBs */
    rules.rhai_bps = 5 * 78.125e6; /* 5 LSBs */
    rules.hai_mode = FEROCE_HAI_LINEAR;
    rules.increase_timer_ns = 100;
    CHECK_EQ(feroce_rp_fixed_build(&p, &rules, &f, NULL), FEROCE_OK);
    CHECK_EQ(p.rai, 2);
    CHECK_EQ(p.rhai, 5);
    feroce_rp_fixed_init(&s, &p, 0);
    feroce_rp_fixed_cnp(&s, &p, 0); /* Rc = 64, Rt = 128 */
    feroce_rp_fixed_cnp(&s, &p, 1); /* Rt = 64; A = (16 x 13 >> 4) + 3 = 16: Rc = 32 */
    CHECK_EQ(s.cur.rc, 32);
    CHECK_EQ(s.cur.rt, 64);
    feroce_rp_fixed_advance(&s, &p, 101); /* ts 1: fast recovery: Rc = 48 */
    CHECK_EQ(s.cur.rc, 48);
    CHECK_EQ(s.cur.rt, 64);
    feroce_rp_fixed_advance(&s, &p, 201); /* ts 2: additive: Rt = 66, Rc = 57 */
    CHECK_EQ(s.cur.rt, 66);
    CHECK_EQ(s.cur.rc, 57);
    feroce_rp_fixed_advance(&s, &p, 301); /* ts 3: hyper, step 5 x (3 - 1 - 1): Rt = 71, Rc = 64 */
    CHECK_EQ(s.cur.rt, 71);
    CHECK_EQ(s.cur.rc, 64);
    feroce_rp_fixed_advance(&s, &p, 401); /* ts 4: step 10: Rt = 81, Rc = 72 */
    CHECK_EQ(s.cur.rt, 81);
    CHECK_EQ(s.cur.rc, 72);
    feroce_rp_fixed_advance(&s, &p, 1101); /* ts 11: Rt capped at the line */
    CHECK_EQ(s.cur.ts, 11);
    CHECK_EQ(s.cur.rt, 128);
    /* truncated averages stop one LSB short of Rt: the rate limiter settles at line - 1 */
    feroce_rp_fixed_advance(&s, &p, 100000);
    CHECK_EQ(s.cur.rc, 127);
    CHECK_EQ(feroce_rp_fixed_next_deadline(&s, &p), FEROCE_NEVER);
    f.rate_rounding = FEROCE_ROUND_NEAREST;
    CHECK_EQ(feroce_rp_fixed_build(&p, &rules, &f, NULL), FEROCE_OK);
    feroce_rp_fixed_init(&s, &p, 0);
    feroce_rp_fixed_cnp(&s, &p, 0);
    feroce_rp_fixed_advance(&s, &p, 100000);
    CHECK_EQ(s.cur.rc, 128); /* rounding up reaches it */
}

/*
 * SURF's alpha (Q0.10, g = 4/1024, rounded to nearest) never decays below
 * 128/1024: (128 x 1020 + 512) >> 10 = 128.  Truncation decays to 0.
 */
void test_rp_fixed_alpha_floor(void)
{
    struct feroce_rp_params rules;
    struct feroce_rp_fixed_format f;
    struct feroce_rp_fixed_params p;
    struct feroce_rp_fixed_state s;

    feroce_rp_preset(&rules, "connectx", 10e9, NULL);
    rules.g = 4.0 / 1024;
    feroce_rp_fixed_format_preset(&f, "surf", NULL);
    CHECK_EQ(feroce_rp_fixed_build(&p, &rules, &f, NULL), FEROCE_OK);
    feroce_rp_fixed_init(&s, &p, 0);
    feroce_rp_fixed_cnp(&s, &p, 0);
    CHECK_EQ(s.cur.alpha, 1023);
    feroce_rp_fixed_advance(&s, &p, 1000000000); /* 1 s: 156250 alpha ticks */
    CHECK_EQ(s.cur.alpha, 128);
    f.alpha_rounding = FEROCE_ROUND_TRUNCATE;
    CHECK_EQ(feroce_rp_fixed_build(&p, &rules, &f, NULL), FEROCE_OK);
    feroce_rp_fixed_init(&s, &p, 0);
    feroce_rp_fixed_cnp(&s, &p, 0);
    feroce_rp_fixed_advance(&s, &p, 1000000000);
    CHECK_EQ(s.cur.alpha, 0);
}

void test_rp_fixed_time_backwards(void)
{
    struct feroce_rp_params rules;
    struct feroce_rp_fixed_format f;
    struct feroce_rp_fixed_params p;
    struct feroce_rp_fixed_state s, before;

    feroce_rp_preset(&rules, "paper", 10e9, NULL);
    feroce_rp_fixed_format_preset(&f, "default", NULL);
    feroce_rp_fixed_build(&p, &rules, &f, NULL);
    feroce_rp_fixed_init(&s, &p, 100);
    feroce_rp_fixed_cnp(&s, &p, 200);
    before = s;
    CHECK_EQ(feroce_rp_fixed_cnp(&s, &p, 199), FEROCE_E_TIME_BACKWARDS);
    CHECK_EQ(feroce_rp_fixed_tx(&s, &p, 199, 10), FEROCE_E_TIME_BACKWARDS);
    CHECK_EQ(feroce_rp_fixed_advance(&s, &p, 0), FEROCE_E_TIME_BACKWARDS);
    CHECK_EQ(feroce_rp_fixed_advance(&s, &p, FEROCE_TIME_MAX + 1), FEROCE_E_TIME_RANGE);
    CHECK_EQ(feroce_rp_fixed_cnp(&s, &p, INT64_MAX), FEROCE_E_TIME_RANGE);
    CHECK(memcmp(&s, &before, sizeof s) == 0);
    /* the conversions saturate instead of wrapping; the last cycle is caught up in bounded time */
    CHECK_EQ(feroce_rp_fixed_cycle_at(&p, INT64_MAX), INT64_C(1441151880758558719)); /* x 0.15625, exact */
    CHECK_EQ(feroce_rp_fixed_ns_at(&p, FEROCE_TIME_MAX), FEROCE_NEVER);
    CHECK_EQ(feroce_rp_fixed_cycle_at(&p, 1000000000), 156250000);
    CHECK_EQ(feroce_rp_fixed_advance(&s, &p, FEROCE_TIME_MAX), FEROCE_OK);
    CHECK_EQ(feroce_rp_fixed_cnp(&s, &p, FEROCE_TIME_MAX), FEROCE_OK);
}

/* ---- random scripts ----------------------------------------------------- */

static uint64_t rng_state;

static uint64_t rnd64(void) /* xorshift64*, test-local */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}

static uint64_t below(uint64_t n)
{
    return rnd64() % n;
}

static void random_rules(struct feroce_rp_params *p, int64_t scale_ns)
{
    static const char *names[] = { "paper", "connectx", "hpcc" };

    feroce_rp_preset(p, names[below(3)], below(2) ? 10e9 : 100e9, NULL);
    if (below(2)) {
        p->alpha_mode = below(2) ? FEROCE_ALPHA_PERIODIC : FEROCE_ALPHA_ON_CNP;
        p->decrease_period_ns = below(2) ? 0 : scale_ns * (int64_t)(1 + below(8));
        p->byte_counter_bytes = below(2) ? 0 : 1000 * (1 + below(100));
        p->F = (uint32_t)below(6);
        p->hai_mode = below(2) ? FEROCE_HAI_LINEAR : FEROCE_HAI_CONSTANT;
        p->clamp = below(2) ? FEROCE_CLAMP_AFTER_INCREASE : FEROCE_CLAMP_ALWAYS;
        p->g = below(2) ? 1.0 / 16 : 1.0 / 256;
        p->initial_alpha = below(2) ? 1.0 : 0.5;
        if (below(3)) {
            p->first_cnp_rate_bps = 0;
        } else {
            /* at least the floor, which hpcc's 1 Gb/s may exceed */
            double r = p->line_rate_bps / (double)(2 + below(20));
            p->first_cnp_rate_bps = r > p->min_rate_bps ? r : p->min_rate_bps;
        }
    }
    p->alpha_period_ns = scale_ns * (int64_t)(1 + below(8));
    p->increase_timer_ns = scale_ns * (int64_t)(1 + below(30));
}

static int same_regs(const struct feroce_rp_fixed_regs *a, const struct feroce_rp_fixed_regs *b)
{
    return a->rc == b->rc && a->rt == b->rt && a->alpha == b->alpha && a->ts == b->ts && a->bs == b->bs &&
           a->byte_acc == b->byte_acc;
}

/*
 * Lazy timers: one copy is called at events only (a CNP possibly reported
 * after the bytes of its cycle), another is also advanced at every cycle in
 * between and receives each cycle's events in the spec's order.  Registers
 * must agree exactly after every event.
 */
void test_rp_fixed_lazy_equals_stepped(void)
{
    int script, mismatches = 0;
    static const enum feroce_rounding modes[] = { FEROCE_ROUND_TRUNCATE, FEROCE_ROUND_NEAREST };

    rng_state = 0x243F6A8885A308D3ULL;
    for (script = 0; script < 120; script++) {
        struct feroce_rp_params rules;
        struct feroce_rp_fixed_format f =
            format(10 + (uint32_t)below(30), 8 + (uint32_t)below(12), modes[below(2)]);
        struct feroce_rp_fixed_params p;
        struct feroce_rp_fixed_state lazy, stepped;
        int64_t t = 0, c;
        int n;

        random_rules(&rules, 3 + (int64_t)below(20)); /* timers of a few cycles */
        if (feroce_rp_fixed_build(&p, &rules, &f, NULL) != FEROCE_OK) {
            script--; /* a format too narrow for these rules: draw again */
            continue;
        }
        feroce_rp_fixed_init(&lazy, &p, 0);
        feroce_rp_fixed_init(&stepped, &p, 0);
        for (n = 0; n < 60; n++) {
            int cnp = below(3) == 0;
            uint64_t bytes = below(2) ? below(4000) : 0;

            t += 1 + (int64_t)below(400);
            for (c = stepped.now + 1; c < t; c++)
                feroce_rp_fixed_advance(&stepped, &p, c);
            if (cnp)
                feroce_rp_fixed_cnp(&stepped, &p, t);
            feroce_rp_fixed_tx(&stepped, &p, t, bytes);
            /* the lazy copy hears the bytes first */
            feroce_rp_fixed_tx(&lazy, &p, t, bytes);
            if (cnp)
                feroce_rp_fixed_cnp(&lazy, &p, t);
            if (!same_regs(&lazy.cur, &stepped.cur) && mismatches++ < 5)
                fprintf(stderr,
                        "script %d event %d t %lld: lazy rc %llu alpha %u, stepped rc %llu alpha %u\n",
                        script, n, (long long)t, (unsigned long long)lazy.cur.rc, lazy.cur.alpha,
                        (unsigned long long)stepped.cur.rc, stepped.cur.alpha);
        }
    }
    CHECK_EQ(mismatches, 0);
}

/*
 * The worst relative deviation of fixed Rc from double Rc over random scripts
 * of the three presets, with a 1 GHz clock (timers exact); stage counts must
 * be identical.  Truncating alpha biases it low by about one LSB / g, so the
 * deviation shrinks with the alpha width.
 */
static double worst_deviation(uint32_t rate_bits, uint32_t alpha_bits, int *stage_mismatches)
{
    int script;
    double worst = 0;

    rng_state = 0x13198A2E03707344ULL;
    for (script = 0; script < 300; script++) {
        struct feroce_rp_params rules;
        struct feroce_rp_fixed_format f =
            format(rate_bits, alpha_bits, below(2) ? FEROCE_ROUND_NEAREST : FEROCE_ROUND_TRUNCATE);
        struct feroce_rp_fixed_params p;
        struct feroce_rp_fixed_state fx;
        struct feroce_rp_state fl;
        int64_t t = 0;
        int n;

        random_rules(&rules, 1000);
        CHECK_EQ(feroce_rp_fixed_build(&p, &rules, &f, NULL), FEROCE_OK);
        feroce_rp_fixed_init(&fx, &p, 0);
        feroce_rp_init(&fl, &rules, 0);
        for (n = 0; n < 80; n++) {
            double dev;

            t += 1 + (int64_t)below(below(2) ? 5000 : 100000);
            if (below(3) == 0) {
                feroce_rp_cnp(&fl, &rules, t);
                feroce_rp_fixed_cnp(&fx, &p, t);
            } else {
                uint64_t b = below(20000);

                feroce_rp_tx(&fl, &rules, t, b);
                feroce_rp_fixed_tx(&fx, &p, t, b);
            }
            dev = fabs(feroce_rp_fixed_rate(&fx, &p) - fl.cur.rc) / fl.cur.rc;
            worst = dev > worst ? dev : worst;
            if (fx.cur.ts != fl.cur.ts || fx.cur.bs != fl.cur.bs)
                (*stage_mismatches)++;
        }
    }
    return worst;
}

void test_rp_fixed_follows_float(void)
{
    int stage_mismatches = 0;
    double narrow = worst_deviation(40, 12, &stage_mismatches);
    double wide = worst_deviation(40, 22, &stage_mismatches);

    CHECK_EQ(stage_mismatches, 0);
    CHECK(wide < 1e-3);
    CHECK(wide > 0);            /* the arithmetic does differ */
    CHECK(wide < narrow / 100); /* and converges: 10 more alpha bits, about 2^10 less bias */
    if (!(wide < 1e-3 && wide < narrow / 100))
        fprintf(stderr, "  worst relative deviation of Rc: %.3g (12 alpha bits), %.3g (22)\n", narrow, wide);
}

/*
 * Random formats across their whole allowed ranges (widths, LSBs, clocks, roundings) on random
 * scripts: a format is either refused with a named error or runs with its registers in range
 * (min_rate <= Rc <= line, Rt <= line, alpha <= 1, byte accumulator below B).  Run under
 * ASan/UBSan too (feroce-core-tests-asan): no overflow anywhere.
 */
void test_rp_fixed_random_formats(void)
{
    int built = 0, refused = 0, bad = 0, unnamed = 0, i;

    rng_state = 0xA4093822299F31D0ULL;
    for (i = 0; i < 2000; i++) {
        struct feroce_rp_params rules;
        struct feroce_rp_fixed_format f;
        struct feroce_rp_fixed_params p;
        struct feroce_rp_fixed_state s;
        struct feroce_check why;
        int64_t t = 0;
        int n;

        random_rules(&rules, (int64_t)(1 + below(100000)));
        rules.line_rate_bps = below(2) ? 10e9 : (double)(1 + below(400)) * 1e9;
        rules.min_rate_bps = rules.line_rate_bps / (double)(2 + below(100000));
        rules.rai_bps = rules.min_rate_bps * (double)below(10);
        rules.rhai_bps = rules.min_rate_bps * (double)below(100);
        if (rules.first_cnp_rate_bps > 0)
            rules.first_cnp_rate_bps = rules.line_rate_bps / 3;
        f.clock_hz = below(4) ? 156250000 : 1000 + below(UINT64_C(10000000000));
        f.rate_bits = 2 + (uint32_t)below(47);
        f.rate_lsb_bps = below(2) ? 0 : ldexp(1.0, (int)below(20)) / (double)(1 + below(7));
        f.alpha_bits = 1 + (uint32_t)below(31);
        f.rate_rounding = below(2) ? FEROCE_ROUND_NEAREST : FEROCE_ROUND_TRUNCATE;
        f.alpha_rounding = below(2) ? FEROCE_ROUND_NEAREST : FEROCE_ROUND_TRUNCATE;
        if (feroce_rp_fixed_build(&p, &rules, &f, &why) != FEROCE_OK) {
            refused++;
            if (why.code < FEROCE_E_RP_LINE_RATE || why.code >= FEROCE_E_COUNT || !why.param)
                unnamed++;
            continue;
        }
        built++;
        feroce_rp_fixed_init(&s, &p, 0);
        for (n = 0; n < 200; n++) {
            const struct feroce_rp_fixed_regs *v = &s.cur;

            t += (int64_t)below(below(2) ? 100 : 1000000);
            if (below(3) == 0)
                feroce_rp_fixed_cnp(&s, &p, t);
            else if (below(2))
                feroce_rp_fixed_tx(&s, &p, t, below(4) ? below(100000) : UINT64_MAX / 2);
            else
                feroce_rp_fixed_advance(&s, &p, t);
            if (v->rc < p.min_rate || v->rc > p.line || v->rt > p.line || v->alpha > p.alpha_one ||
                (p.byte_counter && v->byte_acc >= p.byte_counter))
                bad++;
        }
        /* many byte-counter events in one call = the same bytes one event per call */
        if (p.byte_counter && p.byte_counter < UINT64_C(1) << 40) {
            struct feroce_rp_fixed_state whole = s, chunks = s;
            uint64_t k, events = 1 + below(3000), extra = below(p.byte_counter);

            t++;
            feroce_rp_fixed_tx(&whole, &p, t, events * p.byte_counter + extra);
            for (k = 0; k < events; k++)
                feroce_rp_fixed_tx(&chunks, &p, t, p.byte_counter);
            feroce_rp_fixed_tx(&chunks, &p, t, extra);
            if (!same_regs(&whole.cur, &chunks.cur))
                bad++;
        }
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(unnamed, 0);
    CHECK(built > 200); /* both outcomes are exercised */
    CHECK(refused > 200);
}
