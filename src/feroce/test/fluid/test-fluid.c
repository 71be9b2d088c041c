/*
 * test-fluid.c - validation of the DCQCN fluid model against the published
 * values (spec/fluid.md) and against itself: fixed point vs a long ODE run,
 * the Taylor p*, the phase margin's sign vs the ODE's oscillation, named
 * errors.  Ends with "N passed, N failed".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "feroce-fluid.h"

/* The paper's setting at 40 Gb/s: the paper preset without hyper increase (not in its model). */
static void paper(struct feroce_fluid_params *p, uint32_t flows, int64_t delay_ns)
{
    CHECK_EQ(feroce_fluid_preset(p, "paper", 40e9, flows, NULL), FEROCE_OK);
    p->cls[0].rp.rhai_bps = 0;
    p->delay_ns = delay_ns;
}

struct run_stats {
    double q_min, q_max, q_mean, alpha_mean, rc_mean;
};

/* Integrate to t1 and collect the queue (bytes) over [t0, t1], sampled every 10 us. */
static void run(const struct feroce_fluid_params *p, double t0, double t1, struct run_stats *st)
{
    struct feroce_fluid_sim s;
    struct feroce_fluid_flow f[FEROCE_FLUID_MAX_CLASSES];
    double *ring = calloc(feroce_fluid_ring_len(p), sizeof(double)), t, n = 0, q;
    int ok = 1;

    feroce_fluid_init(&s, p, ring);
    st->q_min = INFINITY;
    st->q_max = st->q_mean = st->alpha_mean = st->rc_mean = 0;
    for (t = 0; t <= t1 + 1e-12; t += 10e-6) {
        ok &= feroce_fluid_advance(&s, t, NULL) == FEROCE_OK;
        if (t >= t0) {
            feroce_fluid_sample(&s, t, &q, f);
            q *= p->packet_bytes;
            st->q_min = fmin(st->q_min, q);
            st->q_max = fmax(st->q_max, q);
            st->q_mean += q;
            st->alpha_mean += f[0].alpha;
            st->rc_mean += f[0].rc * 8.0 * p->packet_bytes;
            n++;
        }
    }
    CHECK(ok);
    st->q_mean /= n;
    st->alpha_mean /= n;
    st->rc_mean /= n;
    free(ring);
}

/* spec/fluid.md: 4 us loop, the queue settles near 20 KB (N = 2) and 120 KB (N = 10); alpha 0.102 / 0.154 */
static void test_published_queues(void)
{
    struct feroce_fluid_params p;
    struct feroce_fluid_fixed fp;

    paper(&p, 2, 4000);
    CHECK_EQ(feroce_fluid_fixed_point(&p, &fp, NULL), FEROCE_OK);
    CHECK_NEAR(fp.q_pkts * 1000, 20.1e3, 0.5e3);
    CHECK_NEAR(fp.f[0].alpha, 0.102, 0.002);
    CHECK_NEAR(fp.f[0].rc * 8000, 20e9, 1e3);
    paper(&p, 10, 4000);
    CHECK_EQ(feroce_fluid_fixed_point(&p, &fp, NULL), FEROCE_OK);
    CHECK_NEAR(fp.q_pkts * 1000, 122.4e3, 1.5e3);
    CHECK_NEAR(fp.f[0].alpha, 0.154, 0.002);
    CHECK(fp.in_ramp && fp.congested);
}

/* the fixed point is where a long run of the ODE ends */
static void test_fixed_point_vs_ode(void)
{
    static const uint32_t flows[] = { 2, 10, 30 };
    struct feroce_fluid_params p;
    struct feroce_fluid_fixed fp;
    struct run_stats st;
    size_t i;

    for (i = 0; i < 3; i++) {
        paper(&p, flows[i], 4000);
        p.cp.kmax_bytes = 2000000; /* p* of 30 flows is above 1%: the authors' ramp */
        p.cp.pmax = 0.1;
        CHECK_EQ(feroce_fluid_fixed_point(&p, &fp, NULL), FEROCE_OK);
        run(&p, 0.15, 0.2, &st);
        CHECK_NEAR(st.q_mean / (fp.q_pkts * 1000), 1.0, 0.002);
        CHECK(st.q_max - st.q_min < 0.001 * st.q_mean);
        CHECK_NEAR(st.alpha_mean / fp.f[0].alpha, 1.0, 0.002);
        CHECK_NEAR(st.rc_mean / (fp.f[0].rc * 8000), 1.0, 0.001);
    }
}

/* the paper's Taylor p* over-estimates the exact root, by less for smaller p */
static void test_taylor(void)
{
    struct feroce_fluid_params p;
    struct feroce_fluid_fixed f2, f10;

    paper(&p, 2, 4000);
    CHECK_EQ(feroce_fluid_fixed_point(&p, &f2, NULL), FEROCE_OK);
    paper(&p, 10, 4000);
    CHECK_EQ(feroce_fluid_fixed_point(&p, &f10, NULL), FEROCE_OK);
    CHECK(f2.p_taylor > f2.p && f2.p_taylor < 1.25 * f2.p);
    CHECK(f10.p_taylor > f10.p && f10.p_taylor < 1.35 * f10.p);
    CHECK(f2.p_taylor / f2.p < f10.p_taylor / f10.p);
}

/* 85 us, N = 10: quiet first, then an oscillation between about 0 and 250-300 KB */
static void test_oscillation_n10(void)
{
    struct feroce_fluid_params p;
    struct run_stats early, late;

    paper(&p, 10, 85000);
    run(&p, 0.01, 0.02, &early);
    run(&p, 0.08, 0.1, &late);
    CHECK(early.q_max - early.q_min < 100e3);
    CHECK(late.q_min < 1e3);
    CHECK(late.q_max > 200e3 && late.q_max < 320e3);
}

/* the authors' Kmax 2000 KB / Pmax 0.1: N = 64 settles near 1.1-1.2 MB at 4 and 85 us */
static void test_n64(void)
{
    static const int64_t delays[] = { 4000, 85000 };
    struct feroce_fluid_params p;
    struct run_stats st;
    size_t i;

    for (i = 0; i < 2; i++) {
        paper(&p, 64, delays[i]);
        p.cp.kmax_bytes = 2000000;
        p.cp.pmax = 0.1;
        run(&p, 0.18, 0.2, &st);
        CHECK(st.q_mean > 1.1e6 && st.q_mean < 1.2e6);
        CHECK(st.q_max - st.q_min < 0.01 * st.q_mean);
    }
}

/* a negative margin <-> the ODE's oscillation does not die out */
static void test_margin_sign_vs_ode(void)
{
    static const struct {
        uint32_t flows;
        int64_t delay_ns;
    } pts[] = { { 2, 0 }, { 2, 50000 }, { 2, 150000 }, { 10, 50000 }, { 10, 100000 }, { 30, 100000 } };
    struct feroce_fluid_params p;
    struct feroce_fluid_margin m;
    struct run_stats st;
    int positive = 0, negative = 0;
    size_t i;

    for (i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        paper(&p, pts[i].flows, pts[i].delay_ns);
        p.cp.kmax_bytes = 2000000;
        p.cp.pmax = 0.1;
        CHECK_EQ(feroce_fluid_margin(&p, &m, NULL), FEROCE_OK);
        run(&p, 0.14, 0.15, &st);
        if (m.phase_margin_deg > 0) {
            positive++;
            CHECK(st.q_max - st.q_min < 0.01 * st.q_mean);
        } else {
            negative++;
            CHECK(st.q_max - st.q_min > 0.5 * m.fixed.q_pkts * 1000);
        }
    }
    CHECK(positive >= 3 && negative >= 2);
}

/* the margin falls with the delay; the boundary sits where it crosses 0 */
static void test_boundary(void)
{
    struct feroce_fluid_params p;
    struct feroce_fluid_margin m;
    int64_t d;

    paper(&p, 10, 0);
    CHECK_EQ(feroce_fluid_boundary(&p, 1000000, &d, NULL), FEROCE_OK);
    CHECK(d > 50000 && d < 85000);
    p.delay_ns = d - 2000;
    CHECK_EQ(feroce_fluid_margin(&p, &m, NULL), FEROCE_OK);
    CHECK(m.phase_margin_deg > 0);
    p.delay_ns = d + 2000;
    CHECK_EQ(feroce_fluid_margin(&p, &m, NULL), FEROCE_OK);
    CHECK(m.phase_margin_deg < 0);
}

/* classes: 3 -> 2 -> 1, each share C / active */
static void test_classes_schedule(void)
{
    struct feroce_fluid_params p;
    struct feroce_fluid_sim s;
    double *ring;
    uint32_t i;

    CHECK_EQ(feroce_fluid_preset(&p, "paper", 10e9, 1, NULL), FEROCE_OK);
    p.nclasses = 3;
    for (i = 1; i < 3; i++)
        p.cls[i] = p.cls[0];
    p.cls[0].leave_ns = 30000000;
    p.cls[1].leave_ns = 60000000;
    CHECK_EQ(feroce_fluid_validate(&p, NULL), FEROCE_OK);
    ring = calloc(feroce_fluid_ring_len(&p), sizeof(double));
    feroce_fluid_init(&s, &p, ring);
    CHECK_EQ(feroce_fluid_advance(&s, 0.029, NULL), FEROCE_OK);
    CHECK_NEAR(s.f[2].rc * 8000 / (10e9 / 3), 1.0, 0.02);
    CHECK_EQ(feroce_fluid_advance(&s, 0.059, NULL), FEROCE_OK);
    CHECK(!s.active[0] && s.active[1]);
    CHECK_NEAR(s.f[2].rc * 8000 / 5e9, 1.0, 0.02);
    CHECK_EQ(feroce_fluid_advance(&s, 0.09, NULL), FEROCE_OK);
    CHECK(s.f[2].rc * 8000 > 9.9e9);
    free(ring);
}

/* the adaptive integrator (the default) against fixed-step RK4 at 500 ns, steady and oscillating */
static void test_bs3_matches_rk4(void)
{
    struct feroce_fluid_params p;
    struct run_stats a, b;
    int i;

    for (i = 0; i < 4; i++) {
        if (i == 0)
            CHECK_EQ(feroce_fluid_preset(&p, "paper", 10e9, 3, NULL), FEROCE_OK); /* the AdvCam bench */
        else if (i == 1)
            paper(&p, 10, 85000); /* oscillating */
        else if (i == 2)
            CHECK_EQ(feroce_fluid_preset(&p, "hpcc", 10e9, 3, NULL), FEROCE_OK); /* the extensions */
        else
            paper(&p, 2, 150000); /* negative margin, large delay */
        CHECK_EQ(p.method, FEROCE_FLUID_BS3);
        run(&p, 0.05, 0.1, &a);
        p.method = FEROCE_FLUID_RK4;
        p.max_step_ns = 500;
        run(&p, 0.05, 0.1, &b);
        CHECK_NEAR(a.q_mean / b.q_mean, 1.0, 0.005);
        CHECK_NEAR(a.q_max / b.q_max, 1.0, 0.01);
        CHECK_NEAR(a.q_min, b.q_min, 0.01 * b.q_max);
        CHECK_NEAR(a.alpha_mean / b.alpha_mean, 1.0, 0.005);
        CHECK_NEAR(a.rc_mean / b.rc_mean, 1.0, 0.002);
    }
}

/* bs3 hands over to the stabilised pair once its step is held (the AdvCam bench is steady from
 * ~20 ms), the step then passes bs3's stability limit (~220 us), the queue stays on rk4's; a class
 * leaving hands back to bs3 */
static void test_stabilised_pair(void)
{
    struct feroce_fluid_params p, r;
    struct feroce_fluid_sim s;
    struct feroce_fluid_flow f[FEROCE_FLUID_MAX_CLASSES];
    double *ring, q, q_rk4, h_max = 0, t;
    int on = 0;
    uint32_t i;

    CHECK_EQ(feroce_fluid_preset(&p, "paper", 10e9, 3, NULL), FEROCE_OK);
    ring = calloc(feroce_fluid_ring_len(&p), sizeof(double));
    feroce_fluid_init(&s, &p, ring);
    CHECK_EQ(s.stab, 0);
    for (t = 1e-3; t <= 0.1 + 1e-12; t += 1e-3) {
        CHECK_EQ(feroce_fluid_advance(&s, t, NULL), FEROCE_OK);
        on |= s.stab;
        if (t > 0.05)
            h_max = fmax(h_max, s.h);
    }
    CHECK(on && s.stab);
    CHECK(h_max > 350e-6);
    CHECK(s.steps < 450); /* bs3 alone: 547 */
    feroce_fluid_sample(&s, 0.1, &q, f);
    free(ring);
    r = p;
    r.method = FEROCE_FLUID_RK4;
    r.max_step_ns = 500;
    ring = calloc(feroce_fluid_ring_len(&r), sizeof(double));
    feroce_fluid_init(&s, &r, ring);
    CHECK_EQ(feroce_fluid_advance(&s, 0.1, NULL), FEROCE_OK);
    feroce_fluid_sample(&s, 0.1, &q_rk4, f);
    CHECK_NEAR(q / q_rk4, 1.0, 1e-4);
    free(ring);

    CHECK_EQ(feroce_fluid_preset(&p, "paper", 10e9, 1, NULL), FEROCE_OK);
    p.nclasses = 3;
    for (i = 1; i < 3; i++)
        p.cls[i] = p.cls[0];
    p.cls[0].leave_ns = 60000000;
    CHECK_EQ(feroce_fluid_validate(&p, NULL), FEROCE_OK);
    ring = calloc(feroce_fluid_ring_len(&p), sizeof(double));
    feroce_fluid_init(&s, &p, ring);
    CHECK_EQ(feroce_fluid_advance(&s, 0.055, NULL), FEROCE_OK);
    CHECK(s.stab);
    CHECK_EQ(feroce_fluid_advance(&s, 0.0601, NULL), FEROCE_OK);
    CHECK(!s.active[0] && !s.stab);
    free(ring);
}

/* a delay that is not a multiple of the step: the step shrinks to delay / k, exactly */
static void test_step_divides_delay(void)
{
    struct feroce_fluid_params p;
    double h;

    paper(&p, 2, 85000);
    p.method = FEROCE_FLUID_RK4;
    p.max_step_ns = 300;
    h = feroce_fluid_step_s(&p);
    CHECK(h <= 300e-9);
    CHECK_NEAR(85e-6 / h, nearbyint(85e-6 / h), 1e-9);
}

static void test_named_errors(void)
{
    struct feroce_fluid_params p;
    struct feroce_check why;
    char msg[512];

    paper(&p, 2, 4000);
    p.delay_ns = -1;
    CHECK_EQ(feroce_fluid_validate(&p, &why), FEROCE_E_BAD_VALUE);
    feroce_check_message(&why, msg, sizeof msg);
    CHECK_STR_CONTAINS(msg, "delay_ns = -1 is not allowed");
    paper(&p, 2, 4000);
    p.cls[0].rp.g = 2;
    CHECK_EQ(feroce_fluid_validate(&p, &why), FEROCE_E_RP_G);
    paper(&p, 2, 4000);
    p.cp.kmin_bytes = p.cp.kmax_bytes + 1;
    CHECK_EQ(feroce_fluid_validate(&p, &why), FEROCE_E_CP_KMIN_KMAX);
    paper(&p, 2, 4000);
    p.cls[0].flows = 0;
    CHECK_EQ(feroce_fluid_validate(&p, &why), FEROCE_E_BAD_VALUE);
    CHECK_STR_CONTAINS(why.param, "flows");
    paper(&p, 2, 4000);
    p.cls[0].rp.first_cnp_rate_bps = 1e9;
    CHECK_EQ(feroce_fluid_validate(&p, &why), FEROCE_E_RP_FIRST_CNP_RATE);
    CHECK_EQ(feroce_fluid_preset(&p, "fast", 40e9, 2, &why), FEROCE_E_UNKNOWN_PRESET);
}

/* the feroce extensions: hpcc (byte counter off, periodic alpha, decrease period) has an equilibrium
 * the ODE reaches, and its margin is defined */
static void test_hpcc_preset(void)
{
    struct feroce_fluid_params p;
    struct feroce_fluid_margin m;
    struct run_stats st;

    CHECK_EQ(feroce_fluid_preset(&p, "hpcc", 25e9, 4, NULL), FEROCE_OK);
    p.delay_ns = 4000;
    CHECK_EQ(feroce_fluid_margin(&p, &m, NULL), FEROCE_OK);
    CHECK(m.fixed.congested && m.fixed.in_ramp);
    run(&p, 0.15, 0.2, &st);
    if (m.phase_margin_deg > 0)
        CHECK_NEAR(st.q_mean / (m.fixed.q_pkts * 1000), 1.0, 0.05);
    CHECK_NEAR(st.rc_mean * 4 / 25e9, 1.0, 0.02);
}

/* mixed presets (advcam-sawtooth's boards): the classes' fixed point is where a long run ends */
static void test_mixed_presets(void)
{
    static const char *const presets[] = { "paper", "connectx", "hpcc" };
    struct feroce_fluid_params p, one;
    struct feroce_fluid_fixed fp;
    struct feroce_fluid_sim s;
    double *ring, sum = 0;
    uint32_t i;

    CHECK_EQ(feroce_fluid_preset(&p, "paper", 10e9, 1, NULL), FEROCE_OK);
    p.nclasses = 3;
    for (i = 0; i < 3; i++) {
        CHECK_EQ(feroce_fluid_preset(&one, presets[i], 10e9, 1, NULL), FEROCE_OK);
        p.cls[i] = one.cls[0];
    }
    CHECK_EQ(feroce_fluid_fixed_point(&p, &fp, NULL), FEROCE_OK);
    for (i = 0; i < 3; i++)
        sum += fp.f[i].rc;
    CHECK_NEAR(sum * 8000 / 10e9, 1.0, 1e-9);
    CHECK(fp.f[0].rc > fp.f[1].rc && fp.f[1].rc > fp.f[2].rc); /* unequal shares */
    ring = calloc(feroce_fluid_ring_len(&p), sizeof(double));
    feroce_fluid_init(&s, &p, ring);
    CHECK_EQ(feroce_fluid_advance(&s, 4.0, NULL), FEROCE_OK);
    for (i = 0; i < 3; i++)
        CHECK_NEAR(s.f[i].rc / fp.f[i].rc, 1.0, 0.003);
    CHECK_NEAR(s.q / fp.q_pkts, 1.0, 0.003);
    free(ring);
}

/* a state that is no longer finite stops the run with a named error at its time */
static void test_divergence_detected(void)
{
    struct feroce_fluid_params p;
    struct feroce_fluid_sim s;
    struct feroce_check why;
    double *ring;
    char msg[512];

    paper(&p, 2, 4000);
    ring = calloc(feroce_fluid_ring_len(&p), sizeof(double));
    feroce_fluid_init(&s, &p, ring);
    CHECK_EQ(feroce_fluid_advance(&s, 1e-3, &why), FEROCE_OK);
    s.f[0].rt = NAN; /* what an unstable step would leave */
    CHECK_EQ(feroce_fluid_advance(&s, 2e-3, &why), FEROCE_E_BAD_VALUE);
    feroce_check_message(&why, msg, sizeof msg);
    CHECK_STR_CONTAINS(msg, "fluid state = 0.001");
    CHECK_STR_CONTAINS(msg, "diverged");
    free(ring);
}

static const struct check_test tests[] = {
    CHECK_TEST(test_published_queues),
    CHECK_TEST(test_fixed_point_vs_ode),
    CHECK_TEST(test_taylor),
    CHECK_TEST(test_oscillation_n10),
    CHECK_TEST(test_n64),
    CHECK_TEST(test_margin_sign_vs_ode),
    CHECK_TEST(test_boundary),
    CHECK_TEST(test_classes_schedule),
    CHECK_TEST(test_bs3_matches_rk4),
    CHECK_TEST(test_stabilised_pair),
    CHECK_TEST(test_step_divides_delay),
    CHECK_TEST(test_named_errors),
    CHECK_TEST(test_hpcc_preset),
    CHECK_TEST(test_divergence_detected),
    CHECK_TEST(test_mixed_presets),
};

int main(int argc, char **argv)
{
    return check_run(tests, sizeof tests / sizeof tests[0], argc > 1 ? argv[1] : NULL);
}
