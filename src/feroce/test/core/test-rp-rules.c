/*
 * test-rp-rules.c - each rule of src/feroce/doc/dcqcn.md "Reaction point", one at a time.
 */
#include <math.h>

#include "check.h"
#include "core-tests.h"
#include "feroce-rp.h"

static struct feroce_rp_params preset(const char *name)
{
    struct feroce_rp_params p;

    feroce_rp_preset(&p, name, 10e9, NULL);
    return p;
}

void test_rp_initial_state(void)
{
    struct feroce_rp_params p = preset("paper");
    struct feroce_rp_state s;

    feroce_rp_init(&s, &p, 0);
    CHECK_EQ(feroce_rp_rate(&s), 10e9);
    CHECK_EQ(s.cur.rt, 10e9);
    /* nothing runs before the first CNP: no timer, no byte counting */
    feroce_rp_tx(&s, &p, 1000, 50000000);
    feroce_rp_advance(&s, &p, 1000000000);
    CHECK_EQ(feroce_rp_rate(&s), 10e9);
    CHECK_EQ(s.cur.bs, 0);
    CHECK_EQ(s.cur.ts, 0);
    CHECK_EQ(s.cur.byte_acc, 0);
    CHECK_EQ(feroce_rp_next_deadline(&s, &p), FEROCE_NEVER);
}

void test_rp_first_cnp_paper(void)
{
    struct feroce_rp_params p = preset("paper");
    struct feroce_rp_state s;

    p.initial_alpha = 0.5;
    feroce_rp_init(&s, &p, 0);
    feroce_rp_cnp(&s, &p, 100);
    /* cut with alpha = initial_alpha, then alpha <- (1 - g) alpha + g */
    CHECK_EQ(s.cur.rc, 10e9 * (1 - 0.25));
    CHECK_EQ(s.cur.rt, 10e9);
    CHECK_EQ(s.cur.alpha, (1 - p.g) * 0.5 + p.g);
    /* alpha timer and increase timer both next at 100 + 55 us */
    CHECK_EQ(s.cur.next_alpha, 100 + 55000);
    CHECK_EQ(s.cur.next_inc, 100 + 55000);
    feroce_rp_advance(&s, &p, 100 + 55000 - 1);
    CHECK_EQ(s.cur.ts, 0);
    feroce_rp_advance(&s, &p, 100 + 55000);
    CHECK_EQ(s.cur.ts, 1);
    CHECK_EQ(s.cur.rc, (10e9 + 7.5e9) / 2); /* fast recovery */
    CHECK_EQ(s.cur.alpha, (1 - p.g) * ((1 - p.g) * 0.5 + p.g));
}

void test_rp_min_rate_floor(void)
{
    struct feroce_rp_params p = preset("paper");
    struct feroce_rp_state s;
    int i;

    feroce_rp_init(&s, &p, 0);
    for (i = 0; i < 40; i++) {
        feroce_rp_cnp(&s, &p, i);
        CHECK(s.cur.rc >= p.min_rate_bps);
    }
    CHECK_EQ(s.cur.rc, p.min_rate_bps);
}

void test_rp_clamp_policies(void)
{
    struct feroce_rp_params p = preset("paper");
    struct feroce_rp_state s;
    double rc1;

    /* always: the second cut clamps Rt to the Rc it found */
    feroce_rp_init(&s, &p, 0);
    feroce_rp_cnp(&s, &p, 0);
    rc1 = s.cur.rc;
    feroce_rp_cnp(&s, &p, 10);
    CHECK_EQ(s.cur.rt, rc1);

    /* after_increase: no increase between the cuts, Rt stays at the line rate */
    p.clamp = FEROCE_CLAMP_AFTER_INCREASE;
    feroce_rp_init(&s, &p, 0);
    feroce_rp_cnp(&s, &p, 0);
    CHECK_EQ(s.cur.rt, 10e9); /* the first cut clamps (Rt <- Rc = line) */
    feroce_rp_cnp(&s, &p, 10);
    CHECK_EQ(s.cur.rt, 10e9);
    /* an increase event (timer at 10 + T) re-enables the clamp */
    feroce_rp_advance(&s, &p, 10 + p.increase_timer_ns);
    rc1 = s.cur.rc;
    feroce_rp_cnp(&s, &p, 10 + p.increase_timer_ns + 1);
    CHECK_EQ(s.cur.rt, rc1);
}

/* F = 2, byte counter on: FR while max(ts, bs) <= F, hyper when min(ts, bs) > F, else additive. */
void test_rp_stages_byte_counter(void)
{
    struct feroce_rp_params p = preset("paper");
    struct feroce_rp_state s;
    int64_t T = p.increase_timer_ns, t0 = 1;
    double rt;
    int i;

    p.F = 2;
    p.hai_mode = FEROCE_HAI_CONSTANT;
    p.byte_counter_bytes = 1000;
    feroce_rp_init(&s, &p, 0);
    feroce_rp_cnp(&s, &p, 0);
    feroce_rp_cnp(&s, &p, t0); /* a second cut: Rt below the line rate */
    rt = s.cur.rt;
    CHECK(rt < p.line_rate_bps);
    /* two timer events and two byte events: all fast recovery */
    feroce_rp_advance(&s, &p, t0 + 2 * T);
    feroce_rp_tx(&s, &p, t0 + 2 * T, 2000);
    CHECK_EQ(s.cur.ts, 2);
    CHECK_EQ(s.cur.bs, 2);
    CHECK_EQ(s.cur.rt, rt);
    /* ts = 3 > F but bs = 2: additive */
    feroce_rp_advance(&s, &p, t0 + 3 * T);
    CHECK_EQ(s.cur.rt, rt + p.rai_bps);
    /* bs = 3: min(ts, bs) = 3 > F: hyper */
    feroce_rp_tx(&s, &p, t0 + 3 * T, 1000);
    CHECK_EQ(s.cur.rt, rt + p.rai_bps + p.rhai_bps);
    /* byte accumulator keeps the remainder; a cut clears it */
    feroce_rp_tx(&s, &p, t0 + 3 * T, 999);
    CHECK_EQ(s.cur.byte_acc, 999);
    CHECK_EQ(s.cur.bs, 3);
    feroce_rp_cnp(&s, &p, t0 + 3 * T + 1);
    CHECK_EQ(s.cur.byte_acc, 0);
    CHECK_EQ(s.cur.bs, 0);
    CHECK_EQ(s.cur.ts, 0);
    for (i = 0; i < 3; i++)
        feroce_rp_tx(&s, &p, t0 + 3 * T + 2, 333);
    CHECK_EQ(s.cur.byte_acc, 999);
}

/* Byte counter disabled: ts <= F fast recovery, ts = F + 1 additive, ts > F + 1 hyper. */
void test_rp_stages_timer_only(void)
{
    struct feroce_rp_params p = preset("paper");
    struct feroce_rp_state s;
    int64_t T = p.increase_timer_ns;
    double rt;

    p.F = 1;
    p.byte_counter_bytes = 0;
    p.hai_mode = FEROCE_HAI_CONSTANT;
    feroce_rp_init(&s, &p, 0);
    feroce_rp_cnp(&s, &p, 0);
    feroce_rp_cnp(&s, &p, 1); /* Rt now below the line rate */
    rt = s.cur.rt;
    CHECK(rt < 10e9);
    feroce_rp_advance(&s, &p, 1 + T);
    CHECK_EQ(s.cur.rt, rt); /* ts = 1 = F */
    feroce_rp_advance(&s, &p, 1 + 2 * T);
    CHECK_EQ(s.cur.rt, rt + p.rai_bps); /* ts = 2 = F + 1 */
    feroce_rp_advance(&s, &p, 1 + 3 * T);
    CHECK_EQ(s.cur.rt, rt + p.rai_bps + p.rhai_bps); /* ts = 3 */
    feroce_rp_tx(&s, &p, 1 + 3 * T, 100000000);
    CHECK_EQ(s.cur.bs, 0);
}

/* Linear hyper step: R_HAI (min(ts, bs) - F), or R_HAI (ts - F - 1) with the counter off. */
void test_rp_hai_linear(void)
{
    struct feroce_rp_params p = preset("paper");
    struct feroce_rp_state s;
    int64_t T = p.increase_timer_ns;
    double rt;
    int i;

    p.F = 1;
    p.byte_counter_bytes = 0;
    p.hai_mode = FEROCE_HAI_LINEAR;
    feroce_rp_init(&s, &p, 0);
    for (i = 0; i < 4; i++)
        feroce_rp_cnp(&s, &p, i);
    rt = s.cur.rt;
    feroce_rp_advance(&s, &p, 3 + 2 * T); /* FR, AI */
    CHECK_EQ(s.cur.rt, rt + p.rai_bps);
    feroce_rp_advance(&s, &p, 3 + 3 * T); /* ts = 3: step R_HAI * 1 */
    CHECK_EQ(s.cur.rt, rt + p.rai_bps + p.rhai_bps);
    feroce_rp_advance(&s, &p, 3 + 4 * T); /* ts = 4: step R_HAI * 2 */
    CHECK_EQ(s.cur.rt, rt + p.rai_bps + p.rhai_bps + 2 * p.rhai_bps);

    p.byte_counter_bytes = 1000;
    feroce_rp_init(&s, &p, 0);
    for (i = 0; i < 4; i++)
        feroce_rp_cnp(&s, &p, i);
    rt = s.cur.rt;
    feroce_rp_advance(&s, &p, 3 + 3 * T);  /* ts 1..3, bs 0: FR, AI, AI */
    feroce_rp_tx(&s, &p, 3 + 3 * T, 3000); /* bs 1: AI, bs 2: hyper x1, bs 3: hyper x2 */
    CHECK_EQ(s.cur.rt, rt + 3 * p.rai_bps + p.rhai_bps + 2 * p.rhai_bps);
}

void test_rp_caps(void)
{
    struct feroce_rp_params p = preset("connectx");
    struct feroce_rp_state s;

    p.rhai_bps = p.line_rate_bps; /* huge steps */
    p.rai_bps = p.line_rate_bps;
    feroce_rp_init(&s, &p, 0);
    feroce_rp_cnp(&s, &p, 0);
    feroce_rp_advance(&s, &p, 100000000);
    CHECK(s.cur.rt <= p.line_rate_bps);
    CHECK(s.cur.rc <= p.line_rate_bps);
    CHECK_EQ(s.cur.rt, p.line_rate_bps);
    CHECK_EQ(s.cur.rc, p.line_rate_bps);
}

void test_rp_first_cnp_rate_on_cnp(void)
{
    struct feroce_rp_params p = preset("paper");
    struct feroce_rp_state s;

    p.first_cnp_rate_bps = 2e9;
    feroce_rp_init(&s, &p, 0);
    feroce_rp_tx(&s, &p, 0, 12345); /* not counted: before the first CNP */
    feroce_rp_cnp(&s, &p, 10);
    CHECK_EQ(s.cur.rc, 2e9);
    CHECK_EQ(s.cur.rt, 2e9);
    CHECK_EQ(s.cur.alpha, (1 - p.g) * p.initial_alpha + p.g); /* updated as usual */
    CHECK_EQ(s.cur.next_inc, 10 + p.increase_timer_ns);       /* restarts as for a cut */
    CHECK_EQ(s.cur.byte_acc, 0);
    /* a second CNP cuts normally; clamp always sets Rt to 2e9 */
    feroce_rp_cnp(&s, &p, 20);
    CHECK_EQ(s.cur.rt, 2e9);
    CHECK(s.cur.rc < 2e9);

    /* capped to [min_rate, Rc]: a first_cnp_rate equal to the line rate leaves Rc */
    p.first_cnp_rate_bps = p.line_rate_bps;
    feroce_rp_init(&s, &p, 0);
    feroce_rp_cnp(&s, &p, 0);
    CHECK_EQ(s.cur.rc, p.line_rate_bps);

    /* after_increase: setting first_cnp_rate counts as a cut, so the next cut does not clamp */
    p.first_cnp_rate_bps = 2e9;
    p.clamp = FEROCE_CLAMP_AFTER_INCREASE;
    feroce_rp_init(&s, &p, 0);
    feroce_rp_cnp(&s, &p, 0);
    feroce_rp_cnp(&s, &p, 1);
    CHECK_EQ(s.cur.rt, 2e9);
    CHECK(s.cur.rc < 2e9);
}

void test_rp_first_cnp_rate_periodic(void)
{
    struct feroce_rp_params p = preset("connectx");
    struct feroce_rp_state s;

    p.first_cnp_rate_bps = 3e9;
    feroce_rp_init(&s, &p, 0);
    feroce_rp_cnp(&s, &p, 0);
    CHECK_EQ(s.cur.rc, 3e9);
    CHECK_EQ(s.cur.rt, 3e9);
    CHECK_EQ(s.cur.alpha, p.initial_alpha);
    CHECK_EQ(s.cur.next_inc, FEROCE_NEVER); /* no increase timer until the first cut */
    CHECK_EQ(s.cur.dec_flag, 1);
    feroce_rp_advance(&s, &p, p.decrease_period_ns);
    CHECK(s.cur.rc < 3e9); /* the first cut, D after the CNP */
    CHECK_EQ(s.cur.rt, 3e9);
    CHECK_EQ(s.cur.next_inc, p.decrease_period_ns + p.increase_timer_ns);
}

/* D > 0: at most one cut per decrease period, at the tick after the CNP. */
void test_rp_decrease_period(void)
{
    struct feroce_rp_params p = preset("connectx");
    struct feroce_rp_state s;
    double rc;
    int i;

    feroce_rp_init(&s, &p, 0);
    feroce_rp_cnp(&s, &p, 0);
    CHECK_EQ(s.cur.rc, 10e9); /* first cut comes D later */
    feroce_rp_advance(&s, &p, 3999);
    CHECK_EQ(s.cur.rc, 10e9);
    feroce_rp_advance(&s, &p, 4000);
    rc = s.cur.rc;
    CHECK(rc < 10e9);
    for (i = 0; i < 10; i++)
        feroce_rp_cnp(&s, &p, 4100 + 300 * i); /* ten CNPs in one period */
    feroce_rp_advance(&s, &p, 7999);
    CHECK_EQ(s.cur.rc, rc);
    feroce_rp_advance(&s, &p, 8000);
    CHECK(s.cur.rc < rc); /* one cut */
    rc = s.cur.rc;
    feroce_rp_advance(&s, &p, 12000);
    CHECK_EQ(s.cur.rc, rc); /* no CNP since: no cut */
    CHECK_EQ(s.cur.dec_flag, 0);
}

void test_rp_on_cnp_with_decrease_period(void)
{
    struct feroce_rp_params p = preset("paper");
    struct feroce_rp_state s;
    double alpha;

    p.decrease_period_ns = 50000;
    feroce_rp_init(&s, &p, 0);
    feroce_rp_cnp(&s, &p, 0);
    alpha = s.cur.alpha;
    CHECK_EQ(alpha, (1 - p.g) * 1.0 + p.g); /* alpha still updates at the CNP */
    CHECK_EQ(s.cur.rc, 10e9);               /* but the cut waits for the tick */
    feroce_rp_advance(&s, &p, 50000);
    CHECK_EQ(s.cur.rc, 10e9 * (1 - alpha / 2));
}

void test_rp_periodic_alpha(void)
{
    struct feroce_rp_params p = preset("hpcc");
    struct feroce_rp_state s;
    double a;

    p.decrease_period_ns = 0; /* periodic alpha with a cut at each CNP */
    feroce_rp_init(&s, &p, 0);
    feroce_rp_cnp(&s, &p, 0);
    CHECK_EQ(s.cur.alpha, 1.0);
    CHECK_EQ(s.cur.rc, 5e9);
    feroce_rp_cnp(&s, &p, 500); /* sets the flag, cuts with alpha 1 */
    CHECK_EQ(s.cur.rc, 2.5e9);
    CHECK_EQ(s.cur.alpha_flag, 1);
    feroce_rp_advance(&s, &p, 1000);
    a = (1 - p.g) * 1.0 + p.g;
    CHECK_EQ(s.cur.alpha, a);
    feroce_rp_advance(&s, &p, 2000);
    CHECK_EQ(s.cur.alpha, (1 - p.g) * a);
}

/* Events at one instant: CNP, alpha tick, decrease tick, increase expiry, bytes, whatever the call order. */
void test_rp_same_instant_order(void)
{
    const char *names[] = { "paper", "connectx", "hpcc" };
    int k;

    for (k = 0; k < 3; k++) {
        struct feroce_rp_params p = preset(names[k]);
        struct feroce_rp_state a, b;
        int64_t t = 4000 + 300000; /* increase, alpha and decrease timers coincide (connectx, hpcc) */

        p.byte_counter_bytes = p.byte_counter_bytes ? 100000 : 0;
        feroce_rp_init(&a, &p, 0);
        feroce_rp_init(&b, &p, 0);
        feroce_rp_cnp(&a, &p, 0);
        feroce_rp_cnp(&b, &p, 0);
        /* a: canonical order */
        feroce_rp_cnp(&a, &p, t);
        feroce_rp_tx(&a, &p, t, 250000);
        feroce_rp_advance(&a, &p, t);
        /* b: the CNP arrives after a query and the bytes */
        feroce_rp_advance(&b, &p, t);
        feroce_rp_tx(&b, &p, t, 150000);
        feroce_rp_tx(&b, &p, t, 100000);
        feroce_rp_cnp(&b, &p, t);
        CHECK_EQ(a.cur.rc, b.cur.rc);
        CHECK_EQ(a.cur.rt, b.cur.rt);
        CHECK_EQ(a.cur.alpha, b.cur.alpha);
        CHECK_EQ(a.cur.ts, b.cur.ts);
        CHECK_EQ(a.cur.bs, b.cur.bs);
        CHECK_EQ(a.cur.byte_acc, b.cur.byte_acc);
    }
}

void test_rp_time_backwards(void)
{
    struct feroce_rp_params p = preset("paper");
    struct feroce_rp_state s;

    feroce_rp_init(&s, &p, 0);
    CHECK_EQ(feroce_rp_cnp(&s, &p, 1000), FEROCE_OK);
    CHECK_EQ(feroce_rp_cnp(&s, &p, 999), FEROCE_E_TIME_BACKWARDS);
    CHECK_EQ(feroce_rp_tx(&s, &p, 999, 1), FEROCE_E_TIME_BACKWARDS);
    CHECK_EQ(feroce_rp_advance(&s, &p, 999), FEROCE_E_TIME_BACKWARDS);
    CHECK_EQ(s.now, 1000);
    /* near the 64-bit limit: refused, or (up to FEROCE_TIME_MAX) caught up in bounded time */
    CHECK_EQ(feroce_rp_advance(&s, &p, INT64_MAX - 55000), FEROCE_E_TIME_RANGE);
    CHECK_EQ(feroce_rp_cnp(&s, &p, -1), FEROCE_E_TIME_RANGE);
    CHECK_EQ(feroce_rp_tx(&s, &p, FEROCE_TIME_MAX + 1, 1), FEROCE_E_TIME_RANGE);
    CHECK_EQ(s.now, 1000);
    CHECK_EQ(feroce_rp_advance(&s, &p, FEROCE_TIME_MAX), FEROCE_OK);
    CHECK_EQ(s.cur.rc, p.line_rate_bps);
    CHECK_EQ(feroce_rp_cnp(&s, &p, FEROCE_TIME_MAX), FEROCE_OK);
    CHECK_EQ(s.cur.alpha, p.g); /* alpha had decayed to 0: the cut left Rc, the CNP raised alpha */
    CHECK_EQ(s.cur.next_inc, FEROCE_TIME_MAX + p.increase_timer_ns);
    feroce_rp_init(&s, &p, INT64_MAX);
    CHECK_EQ(s.now, FEROCE_TIME_MAX);
}

/* A QP idle for an hour of simulated time: the lazy timers catch up and the state is sane. */
void test_rp_long_idle(void)
{
    struct feroce_rp_params p = preset("connectx");
    struct feroce_rp_state s;
    int64_t hour = 3600LL * 1000000000LL;

    feroce_rp_init(&s, &p, 0);
    feroce_rp_cnp(&s, &p, 0);
    feroce_rp_advance(&s, &p, hour);
    CHECK_EQ(s.cur.alpha, 0.0);
    CHECK_EQ(s.cur.rc, p.line_rate_bps);
    CHECK_EQ(s.cur.rt, p.line_rate_bps);
    CHECK_EQ(s.cur.ts, (hour - 4000) / p.increase_timer_ns);
    CHECK(s.cur.next_alpha > hour && s.cur.next_alpha <= hour + p.alpha_period_ns);
    /* and it still reacts */
    feroce_rp_cnp(&s, &p, hour + 1);
    feroce_rp_advance(&s, &p, hour + 1 + 4000);
    CHECK(s.cur.rc < p.line_rate_bps);
}

/* The rate changes only at a reported deadline. */
void test_rp_next_deadline(void)
{
    const char *names[] = { "paper", "connectx", "hpcc" };
    int k;

    for (k = 0; k < 3; k++) {
        struct feroce_rp_params p = preset(names[k]);
        struct feroce_rp_state s;
        int64_t d;
        int steps = 0;

        feroce_rp_init(&s, &p, 0);
        feroce_rp_cnp(&s, &p, 0);
        feroce_rp_cnp(&s, &p, 2000);
        while ((d = feroce_rp_next_deadline(&s, &p)) != FEROCE_NEVER && steps < 100000) {
            double rc = s.cur.rc, rt = s.cur.rt;

            CHECK(d > s.now);
            feroce_rp_advance(&s, &p, d - 1);
            CHECK_EQ(s.cur.rc, rc);
            CHECK_EQ(s.cur.rt, rt);
            feroce_rp_advance(&s, &p, d);
            steps++;
        }
        CHECK(steps > 0 && steps < 100000);
        CHECK_EQ(s.cur.rc, p.line_rate_bps); /* deadlines stop once back at the line rate */
    }
}

void test_rp_presets(void)
{
    struct feroce_rp_params p;
    struct feroce_check why;

    CHECK_EQ(feroce_rp_preset(&p, "paper", 40e9, &why), FEROCE_OK);
    CHECK_EQ(feroce_rp_validate(&p, &why), FEROCE_OK);
    CHECK_EQ(p.line_rate_bps, 40e9);
    CHECK_EQ(p.g, 1.0 / 256);
    CHECK_EQ(p.alpha_period_ns, 55000);
    CHECK_EQ(p.byte_counter_bytes, 10000000);
    CHECK_EQ(p.F, 5);
    CHECK_EQ(p.hai_mode, FEROCE_HAI_LINEAR);

    CHECK_EQ(feroce_rp_preset(&p, "connectx", 25e9, &why), FEROCE_OK);
    CHECK_EQ(feroce_rp_validate(&p, &why), FEROCE_OK);
    CHECK_EQ(1 - p.g, 1019.0 / 1024);
    CHECK_EQ(p.initial_alpha, 1023.0 / 1024);
    CHECK_EQ(p.byte_counter_bytes, 32767 * 64);
    CHECK_EQ(p.rai_bps, 5e6);
    CHECK_EQ(p.clamp, FEROCE_CLAMP_AFTER_INCREASE);

    CHECK_EQ(feroce_rp_preset(&p, "hpcc", 100e9, &why), FEROCE_OK);
    CHECK_EQ(feroce_rp_validate(&p, &why), FEROCE_OK);
    CHECK_EQ(p.rai_bps, 20e6); /* 5 Mb/s x 100G / 25G */
    CHECK_EQ(p.rhai_bps, 200e6);
    CHECK_EQ(p.byte_counter_bytes, 0);
    CHECK_EQ(p.min_rate_bps, 1e9); /* run.py's MIN_RATE 1000Mb/s, not scaled */
    CHECK_EQ(feroce_rp_preset(&p, "hpcc", 400e6, &why), FEROCE_OK);
    CHECK_EQ(p.min_rate_bps, 400e6); /* capped at the line rate */

    CHECK_EQ(feroce_rp_preset(&p, "dctcp", 10e9, &why), FEROCE_E_UNKNOWN_PRESET);
    CHECK_EQ(feroce_rp_preset(&p, "paper", 0, &why), FEROCE_E_RP_LINE_RATE);
}

void test_rp_set_param(void)
{
    struct feroce_rp_params p;
    struct feroce_check why;
    char msg[512];

    feroce_rp_preset(&p, "paper", 10e9, NULL);
    CHECK_EQ(feroce_rp_set_param(&p, "g", "0.125", &why), FEROCE_OK);
    CHECK_EQ(p.g, 0.125);
    CHECK_EQ(feroce_rp_set_param(&p, "alpha_period_ns", "10e3", &why), FEROCE_OK);
    CHECK_EQ(p.alpha_period_ns, 10000);
    CHECK_EQ(feroce_rp_set_param(&p, "byte_counter_bytes", "0", &why), FEROCE_OK);
    CHECK_EQ(p.byte_counter_bytes, 0);
    CHECK_EQ(feroce_rp_set_param(&p, "F", "3", &why), FEROCE_OK);
    CHECK_EQ(p.F, 3);
    CHECK_EQ(feroce_rp_set_param(&p, "alpha_mode", "periodic", &why), FEROCE_OK);
    CHECK_EQ(p.alpha_mode, FEROCE_ALPHA_PERIODIC);
    CHECK_EQ(feroce_rp_set_param(&p, "hai_mode", "constant", &why), FEROCE_OK);
    CHECK_EQ(p.hai_mode, FEROCE_HAI_CONSTANT);
    CHECK_EQ(feroce_rp_set_param(&p, "clamp", "after_increase", &why), FEROCE_OK);
    CHECK_EQ(p.clamp, FEROCE_CLAMP_AFTER_INCREASE);
    CHECK_EQ(feroce_rp_set_param(&p, "first_cnp_rate_bps", "1e9", &why), FEROCE_OK);
    CHECK_EQ(p.first_cnp_rate_bps, 1e9);

    CHECK_EQ(feroce_rp_set_param(&p, "F", "2.5", &why), FEROCE_E_BAD_VALUE);
    feroce_check_message(&why, msg, sizeof msg);
    CHECK_STR_CONTAINS(msg, "F = \"2.5\"");
    CHECK_STR_CONTAINS(msg, "non-negative integer");
    CHECK_EQ(feroce_rp_set_param(&p, "g", "abc", &why), FEROCE_E_BAD_VALUE);
    CHECK_EQ(feroce_rp_set_param(&p, "g", "1e999", &why), FEROCE_E_BAD_VALUE);
    CHECK_EQ(feroce_rp_set_param(&p, "alpha_period_ns", "-5.5", &why), FEROCE_E_BAD_VALUE);
    CHECK_EQ(feroce_rp_set_param(&p, "alpha_mode", "sometimes", &why), FEROCE_E_BAD_VALUE);
    feroce_check_message(&why, msg, sizeof msg);
    CHECK_STR_CONTAINS(msg, "on_cnp or periodic");
    CHECK_EQ(feroce_rp_set_param(&p, "kmin", "1", &why), FEROCE_E_UNKNOWN_PARAM);
    feroce_check_message(&why, msg, sizeof msg);
    CHECK_STR_CONTAINS(msg, "\"kmin\"");
    CHECK_EQ(p.g, 0.125); /* failed sets change nothing */
}
