/*
 * test-validation.c - every named validation error, and its message.
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "core-tests.h"
#include "feroce-cp.h"
#include "feroce-np.h"
#include "feroce-rp-fixed.h"
#include "feroce-rp.h"

static int seen[FEROCE_E_COUNT];

/* The message names the parameter, shows the value and what is allowed. */
static void expect(enum feroce_err got, enum feroce_err want, const struct feroce_check *why,
                   const char *param, const char *value, const char *allowed)
{
    char msg[512];

    CHECK_EQ(got, want);
    if (got != want)
        return;
    seen[want] = 1;
    CHECK_EQ(why->code, want);
    feroce_check_message(why, msg, sizeof msg);
    CHECK_STR_CONTAINS(msg, param);
    CHECK_STR_CONTAINS(msg, value);
    CHECK_STR_CONTAINS(msg, allowed);
    CHECK(strncmp(feroce_err_name(want), "FEROCE_E_", 9) == 0);
}

#define RP_CASE(field, bad, code, name, value, allowed)                                                      \
    do {                                                                                                     \
        struct feroce_rp_params p = ok;                                                                      \
        p.field = bad;                                                                                       \
        expect(feroce_rp_validate(&p, &why), code, &why, name, value, allowed);                              \
    } while (0)

void test_validation_errors(void)
{
    struct feroce_rp_params ok, p;
    struct feroce_np_params np = { 50000, FEROCE_NP_PER_QP }, n;
    struct feroce_cp_params cp = { 5000, 200000, 0.01, FEROCE_MARK_DEQUEUE }, c;
    struct feroce_pfc_params pfc = { FEROCE_PFC_STATIC, 100000, 80000, 0.5, 0 }, f;
    struct feroce_check why;
    int code;

    feroce_rp_preset(&ok, "paper", 10e9, NULL);
    CHECK_EQ(feroce_rp_validate(&ok, &why), FEROCE_OK);
    RP_CASE(line_rate_bps, 0, FEROCE_E_RP_LINE_RATE, "line_rate_bps", "= 0", "> 0");
    RP_CASE(line_rate_bps, INFINITY, FEROCE_E_RP_LINE_RATE, "line_rate_bps", "inf", "> 0");
    RP_CASE(min_rate_bps, 20e9, FEROCE_E_RP_MIN_RATE, "min_rate_bps", "20000000000",
            "(0, line_rate_bps = 10000000000]");
    RP_CASE(min_rate_bps, 0, FEROCE_E_RP_MIN_RATE, "min_rate_bps", "= 0", "(0, ");
    RP_CASE(g, 0, FEROCE_E_RP_G, "g", "= 0", "(0, 1]");
    RP_CASE(g, 1.5, FEROCE_E_RP_G, "g", "1.5", "(0, 1]");
    RP_CASE(g, NAN, FEROCE_E_RP_G, "g", "nan", "(0, 1]");
    RP_CASE(initial_alpha, -0.1, FEROCE_E_RP_INITIAL_ALPHA, "initial_alpha", "-0.1", "[0, 1]");
    RP_CASE(alpha_mode, (enum feroce_alpha_mode)7, FEROCE_E_RP_ALPHA_MODE, "alpha_mode", "7", "periodic");
    RP_CASE(alpha_period_ns, 0, FEROCE_E_RP_ALPHA_PERIOD, "alpha_period_ns", "= 0",
            "(0, 4611686018427387903] ns");
    RP_CASE(alpha_period_ns, INT64_MAX, FEROCE_E_RP_ALPHA_PERIOD, "alpha_period_ns", "9.22",
            "(0, 4611686018427387903]");
    RP_CASE(decrease_period_ns, -1, FEROCE_E_RP_DECREASE_PERIOD, "decrease_period_ns", "-1",
            "[0, 4611686018427387903]");
    RP_CASE(decrease_period_ns, FEROCE_TIME_MAX + 1, FEROCE_E_RP_DECREASE_PERIOD, "decrease_period_ns",
            "4.61", "[0, 4611686018427387903]");
    RP_CASE(increase_timer_ns, 0, FEROCE_E_RP_INCREASE_TIMER, "increase_timer_ns", "= 0",
            "(0, 4611686018427387903] ns");
    RP_CASE(F, 2000000, FEROCE_E_RP_F, "F", "2000000", "[0, 1000000]");
    RP_CASE(rai_bps, -1, FEROCE_E_RP_RAI, "rai_bps", "-1", "[0, line_rate_bps");
    RP_CASE(rhai_bps, 11e9, FEROCE_E_RP_RHAI, "rhai_bps", "11000000000", "[0, line_rate_bps");
    RP_CASE(hai_mode, (enum feroce_hai_mode)3, FEROCE_E_RP_HAI_MODE, "hai_mode", "3", "linear");
    RP_CASE(clamp, (enum feroce_clamp)9, FEROCE_E_RP_CLAMP, "clamp", "9", "after_increase");
    RP_CASE(first_cnp_rate_bps, 1e6, FEROCE_E_RP_FIRST_CNP_RATE, "first_cnp_rate_bps", "1000000",
            "0 or [min_rate_bps = 10000000, line_rate_bps = 10000000000]");
    RP_CASE(first_cnp_rate_bps, 11e9, FEROCE_E_RP_FIRST_CNP_RATE, "first_cnp_rate_bps", "11000000000",
            "0 or [");

    n = np;
    n.interval_ns = -5;
    expect(feroce_np_validate(&n, &why), FEROCE_E_NP_INTERVAL, &why, "np_interval_ns", "-5", ">= 0 ns");
    n = np;
    n.scope = (enum feroce_np_scope)4;
    expect(feroce_np_validate(&n, &why), FEROCE_E_NP_SCOPE, &why, "np_scope", "4", "per_port");

    c = cp;
    c.kmin_bytes = 300000;
    expect(feroce_cp_validate(&c, &why), FEROCE_E_CP_KMIN_KMAX, &why, "kmin_bytes", "300000",
           "<= kmax_bytes = 200000");
    c = cp;
    c.pmax = 1.01;
    expect(feroce_cp_validate(&c, &why), FEROCE_E_CP_PMAX, &why, "pmax", "1.01", "[0, 1]");
    c = cp;
    c.point = (enum feroce_mark_point)2;
    expect(feroce_cp_validate(&c, &why), FEROCE_E_CP_MARK_POINT, &why, "mark_point", "2", "enqueue");

    f = pfc;
    f.mode = (enum feroce_pfc_mode)5;
    expect(feroce_pfc_validate(&f, &why), FEROCE_E_PFC_MODE, &why, "pfc_mode", "5", "dynamic");
    f = pfc;
    f.xoff_bytes = 0;
    f.xon_bytes = 0;
    expect(feroce_pfc_validate(&f, &why), FEROCE_E_PFC_XOFF, &why, "pfc_xoff_bytes", "= 0", "> 0 bytes");
    f = pfc;
    f.xon_bytes = 100001;
    expect(feroce_pfc_validate(&f, &why), FEROCE_E_PFC_XON, &why, "pfc_xon_bytes", "100001",
           "<= pfc_xoff_bytes = 100000");
    f = pfc;
    f.mode = FEROCE_PFC_DYNAMIC;
    f.alpha = 0;
    expect(feroce_pfc_validate(&f, &why), FEROCE_E_PFC_ALPHA, &why, "pfc_alpha", "= 0", "(0, 64]");

    p = ok;
    expect(feroce_rp_set_param(&p, "gain", "1", &why), FEROCE_E_UNKNOWN_PARAM, &why, "param", "\"gain\"",
           "line_rate_bps");
    expect(feroce_rp_set_param(&p, "g", "half", &why), FEROCE_E_BAD_VALUE, &why, "g", "\"half\"",
           "finite number");
    expect(feroce_rp_preset(&p, "fast", 10e9, &why), FEROCE_E_UNKNOWN_PRESET, &why, "preset", "\"fast\"",
           "paper, connectx or hpcc");
    {
        struct feroce_rp_state s;

        feroce_rp_init(&s, &ok, 10);
        CHECK_EQ(feroce_rp_advance(&s, &ok, 9), FEROCE_E_TIME_BACKWARDS);
        seen[FEROCE_E_TIME_BACKWARDS] = 1;
        CHECK_EQ(feroce_rp_advance(&s, &ok, FEROCE_TIME_MAX + 1), FEROCE_E_TIME_RANGE);
        seen[FEROCE_E_TIME_RANGE] = 1;
    }

    /* the fixed-point reaction point's formats (test-rp-fixed.c checks the whole messages) */
    {
        struct feroce_rp_fixed_format fmt0, fm;
        struct feroce_rp_fixed_params fx;
        struct feroce_rp_params r;

        feroce_rp_fixed_format_preset(&fmt0, "surf", NULL);
#define FX_CASE(field, bad, code, name, value, allowed)                                                      \
    do {                                                                                                     \
        fm = fmt0;                                                                                           \
        fm.field = bad;                                                                                      \
        expect(feroce_rp_fixed_build(&fx, &ok, &fm, &why), code, &why, name, value, allowed);                \
    } while (0)
        FX_CASE(clock_hz, 10, FEROCE_E_FIXED_CLOCK, "clock_hz", "10", "[1000, 10000000000]");
        FX_CASE(rate_bits, 1, FEROCE_E_FIXED_RATE_BITS, "rate_bits", "= 1", "[2, 48]");
        FX_CASE(rate_lsb_bps, -8, FEROCE_E_FIXED_RATE_LSB, "rate_lsb_bps", "-8", "> 0 b/s");
        FX_CASE(alpha_bits, 32, FEROCE_E_FIXED_ALPHA_BITS, "alpha_bits", "32", "[1, 31]");
        FX_CASE(rate_rounding, (enum feroce_rounding)2, FEROCE_E_FIXED_ROUNDING, "rate_rounding", "2",
                "nearest");
        FX_CASE(alpha_bits, 7, FEROCE_E_FIXED_G, "g", "0.00390625", "multiple of 2^-7");
        FX_CASE(clock_hz, 10000, FEROCE_E_FIXED_TIMER, "alpha_period_ns", "55000", ">= one cycle");
        FX_CASE(rate_lsb_bps, 1, FEROCE_E_FIXED_LINE_RATE, "line_rate_bps", "10000000000",
                "<= 4294967295 b/s");
        FX_CASE(rate_lsb_bps, 25e6, FEROCE_E_FIXED_RATE_STEP, "min_rate_bps", "10000000", "half an LSB");
#undef FX_CASE
        r = ok;
        r.initial_alpha = 0.1;
        expect(feroce_rp_fixed_build(&fx, &r, &fmt0, &why), FEROCE_E_FIXED_INITIAL_ALPHA, &why,
               "initial_alpha", "0.1", "multiple of 2^-10");
    }

    /* every error code has a name and was produced above */
    for (code = 1; code < FEROCE_E_COUNT; code++) {
        CHECK(seen[code]);
        if (!seen[code])
            fprintf(stderr, "  %s not exercised\n", feroce_err_name((enum feroce_err)code));
    }
    CHECK(strcmp(feroce_err_name(FEROCE_E_COUNT), "FEROCE_E_UNKNOWN") == 0);
}
