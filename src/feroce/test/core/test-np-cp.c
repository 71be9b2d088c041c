/*
 * test-np-cp.c - notification point (CNP moderation), congestion point
 * (ECN marking) and PFC thresholds.
 */
#include "check.h"
#include "core-tests.h"
#include "feroce-cp.h"
#include "feroce-np.h"

void test_np_moderation(void)
{
    struct feroce_np_params p;
    struct feroce_np_state qp1, qp2, port;
    int64_t t;
    int sent = 0;

    CHECK_EQ(feroce_np_preset(&p, "paper", NULL), FEROCE_OK);
    CHECK_EQ(p.interval_ns, 50000);
    feroce_np_init(&qp1);
    feroce_np_init(&qp2);
    feroce_np_init(&port);
    CHECK_EQ(feroce_np_on_ce(&p, &qp1, 0), 1); /* the first CE always answers */
    CHECK_EQ(feroce_np_on_ce(&p, &qp1, 49999), 0);
    CHECK_EQ(feroce_np_on_ce(&p, &qp2, 49999), 1); /* per QP: another QP has its own */
    CHECK_EQ(feroce_np_on_ce(&p, &qp1, 50000), 1); /* t - last >= N */
    CHECK_EQ(feroce_np_on_ce(&p, &qp1, 60000), 0);
    /* a CE on every 1 us for 1 ms: one CNP per 50 us */
    feroce_np_init(&qp1);
    for (t = 0; t < 1000000; t += 1000)
        sent += feroce_np_on_ce(&p, &qp1, t);
    CHECK_EQ(sent, 20);

    /* N = 0: a CNP for every CE-marked packet */
    CHECK_EQ(feroce_np_preset(&p, "hpcc", NULL), FEROCE_OK);
    feroce_np_init(&qp1);
    CHECK_EQ(feroce_np_on_ce(&p, &qp1, 5), 1);
    CHECK_EQ(feroce_np_on_ce(&p, &qp1, 5), 1);

    /* per port: two QPs share one moderation state */
    p.interval_ns = 50000;
    p.scope = FEROCE_NP_PER_PORT;
    feroce_np_init(&qp1);
    feroce_np_init(&qp2);
    feroce_np_init(&port);
    CHECK(feroce_np_select(&p, &qp1, &port) == &port);
    CHECK_EQ(feroce_np_on_ce(&p, feroce_np_select(&p, &qp1, &port), 0), 1);
    CHECK_EQ(feroce_np_on_ce(&p, feroce_np_select(&p, &qp2, &port), 10), 0);
    p.scope = FEROCE_NP_PER_QP;
    CHECK(feroce_np_select(&p, &qp1, &port) == &qp1);
    CHECK_EQ(feroce_np_preset(&p, "sometimes", NULL), FEROCE_E_UNKNOWN_PRESET);
}

void test_cp_probability(void)
{
    struct feroce_cp_params p = { 100000, 400000, 0.2, FEROCE_MARK_DEQUEUE };

    CHECK_EQ(feroce_cp_probability(&p, 0), 0.0);
    CHECK_EQ(feroce_cp_probability(&p, 100000), 0.0); /* q <= Kmin */
    CHECK_EQ(feroce_cp_probability(&p, 250000), 0.1); /* halfway: Pmax / 2 */
    CHECK_EQ(feroce_cp_probability(&p, 400000), 0.2); /* q = Kmax: Pmax */
    CHECK_EQ(feroce_cp_probability(&p, 400001), 1.0); /* q > Kmax */
    /* Kmin = Kmax: a step (DCTCP-style threshold) */
    p.kmin_bytes = p.kmax_bytes = 30000;
    CHECK_EQ(feroce_cp_probability(&p, 30000), 0.0);
    CHECK_EQ(feroce_cp_probability(&p, 30001), 1.0);
    CHECK_EQ(feroce_cp_validate(&p, NULL), FEROCE_OK);
}

void test_cp_marking(void)
{
    struct feroce_cp_params p = { 5000, 200000, 0.01, FEROCE_MARK_DEQUEUE };
    struct feroce_cp_params hp;

    /* only the configured point marks, only ECT packets, only when u < p */
    CHECK_EQ(feroce_cp_mark(&p, FEROCE_MARK_DEQUEUE, FEROCE_ECN_ECT0, 300000, 0.999), 1);
    CHECK_EQ(feroce_cp_mark(&p, FEROCE_MARK_DEQUEUE, FEROCE_ECN_ECT1, 300000, 0.5), 1);
    CHECK_EQ(feroce_cp_mark(&p, FEROCE_MARK_ENQUEUE, FEROCE_ECN_ECT0, 300000, 0.0), 0);
    CHECK_EQ(feroce_cp_mark(&p, FEROCE_MARK_DEQUEUE, FEROCE_ECN_NOT_ECT, 300000, 0.0), 0);
    CHECK_EQ(feroce_cp_mark(&p, FEROCE_MARK_DEQUEUE, FEROCE_ECN_CE, 300000, 0.0), 0);
    CHECK_EQ(feroce_cp_mark(&p, FEROCE_MARK_DEQUEUE, FEROCE_ECN_ECT0, 5000, 0.0), 0);
    CHECK_EQ(feroce_cp_mark(&p, FEROCE_MARK_DEQUEUE, FEROCE_ECN_ECT0, 200000, 0.0099), 1);
    CHECK_EQ(feroce_cp_mark(&p, FEROCE_MARK_DEQUEUE, FEROCE_ECN_ECT0, 200000, 0.01), 0);
    p.point = FEROCE_MARK_ENQUEUE;
    CHECK_EQ(feroce_cp_mark(&p, FEROCE_MARK_ENQUEUE, FEROCE_ECN_ECT0, 300000, 0.5), 1);
    CHECK_EQ(feroce_cp_mark(&p, FEROCE_MARK_DEQUEUE, FEROCE_ECN_ECT0, 300000, 0.5), 0);

    CHECK_EQ(feroce_cp_preset(&hp, "hpcc", 10e9, NULL), FEROCE_OK);
    CHECK_EQ(hp.kmin_bytes, 40000); /* 100 KB x 10/25 */
    CHECK_EQ(hp.kmax_bytes, 160000);
    CHECK_EQ(hp.pmax, 0.2);
    CHECK_EQ(feroce_cp_preset(&hp, "paper", 10e9, NULL), FEROCE_OK);
    CHECK_EQ(hp.kmin_bytes, 5000);
    CHECK_EQ(hp.kmax_bytes, 200000);
    CHECK_EQ(feroce_cp_preset(&hp, "red", 10e9, NULL), FEROCE_E_UNKNOWN_PRESET);
}

/* Over uniform draws, the marked fraction of a constant queue follows Pmax's line. */
void test_cp_marking_statistics(void)
{
    struct feroce_cp_params p = { 20000, 120000, 0.5, FEROCE_MARK_DEQUEUE };
    uint64_t q;

    for (q = 0; q <= 140000; q += 10000) {
        int i, n = 100000, marked = 0;
        double expect = q <= 20000 ? 0 : q > 120000 ? 1 : (double)(q - 20000) / 100000 * 0.5;

        for (i = 0; i < n; i++)
            marked += feroce_cp_mark(&p, FEROCE_MARK_DEQUEUE, FEROCE_ECN_ECT0, q, (i + 0.5) / n);
        CHECK_NEAR((double)marked / n, expect, 1.0 / n);
    }
}

void test_pfc_static(void)
{
    struct feroce_pfc_params p = { FEROCE_PFC_STATIC, 100000, 80000, 0, 0 };

    CHECK_EQ(feroce_pfc_validate(&p, NULL), FEROCE_OK);
    CHECK_EQ(feroce_pfc_decide(&p, 0, 100000, 0), FEROCE_PFC_HOLD);
    CHECK_EQ(feroce_pfc_decide(&p, 0, 100001, 0), FEROCE_PFC_XOFF);
    CHECK_EQ(feroce_pfc_decide(&p, 1, 100001, 0), FEROCE_PFC_HOLD); /* already paused */
    CHECK_EQ(feroce_pfc_decide(&p, 1, 80001, 0), FEROCE_PFC_HOLD);  /* hysteresis */
    CHECK_EQ(feroce_pfc_decide(&p, 1, 80000, 0), FEROCE_PFC_XON);
    CHECK_EQ(feroce_pfc_decide(&p, 0, 80000, 0), FEROCE_PFC_HOLD); /* not paused: nothing to resume */
    /* the static thresholds ignore the free buffer */
    CHECK_EQ(feroce_pfc_xoff_threshold(&p, 1), 100000);
    CHECK_EQ(feroce_pfc_xon_threshold(&p, 123456789), 80000);
}

void test_pfc_dynamic(void)
{
    struct feroce_pfc_params p = { FEROCE_PFC_DYNAMIC, 0, 0, 0.125, 3000 };

    CHECK_EQ(feroce_pfc_validate(&p, NULL), FEROCE_OK);
    /* threshold = alpha x free shared buffer */
    CHECK_EQ(feroce_pfc_xoff_threshold(&p, 8000000), 1000000);
    CHECK_EQ(feroce_pfc_xon_threshold(&p, 8000000), 997000);
    CHECK_EQ(feroce_pfc_decide(&p, 0, 1000000, 8000000), FEROCE_PFC_HOLD);
    CHECK_EQ(feroce_pfc_decide(&p, 0, 1000001, 8000000), FEROCE_PFC_XOFF);
    /* as the buffer fills the same ingress bytes cross the threshold */
    CHECK_EQ(feroce_pfc_decide(&p, 0, 500001, 4000000), FEROCE_PFC_XOFF);
    CHECK_EQ(feroce_pfc_decide(&p, 1, 997000, 8000000), FEROCE_PFC_XON);
    CHECK_EQ(feroce_pfc_decide(&p, 1, 997001, 8000000), FEROCE_PFC_HOLD);
    /* no free buffer: pause anything, resume only when empty */
    CHECK_EQ(feroce_pfc_decide(&p, 0, 1, 0), FEROCE_PFC_XOFF);
    CHECK_EQ(feroce_pfc_decide(&p, 1, 0, 0), FEROCE_PFC_XON);
}

/* Both states at ingress bytes n: the decision is what the thresholds define. */
static void check_decide_at(const struct feroce_pfc_params *p, uint64_t free_bytes, uint64_t n)
{
    uint64_t xoff = feroce_pfc_xoff_threshold(p, free_bytes);
    uint64_t xon = feroce_pfc_xon_threshold(p, free_bytes);

    CHECK_EQ(feroce_pfc_decide(p, 0, n, free_bytes), n > xoff ? FEROCE_PFC_XOFF : FEROCE_PFC_HOLD);
    CHECK_EQ(feroce_pfc_decide(p, 1, n, free_bytes), n <= xon ? FEROCE_PFC_XON : FEROCE_PFC_HOLD);
}

/* The decision is the thresholds' definition, wherever alpha x free is whole, fractional or
   huge, and whatever the ingress bytes (the dynamic XOFF compares without floor()). */
void test_pfc_decide_is_threshold(void)
{
    static const double alphas[] = { 0.125, 0.3, 1.0 / 3, 2.5, 64 };
    static const uint64_t frees[] = {
        0, 1, 7, 8, 8000000, 12345679, UINT64_C(1) << 53, (UINT64_C(1) << 53) + 1, UINT64_MAX / 64, UINT64_MAX
    };
    static const uint64_t bytes[] = {
        0, 1, (UINT64_C(1) << 53) - 1, UINT64_C(1) << 53, (UINT64_C(1) << 53) + 1, UINT64_MAX / 2, UINT64_MAX
    };
    size_t a, f, k;

    for (a = 0; a < sizeof alphas / sizeof alphas[0]; a++)
        for (f = 0; f < sizeof frees / sizeof frees[0]; f++) {
            struct feroce_pfc_params p = { FEROCE_PFC_DYNAMIC, 0, 0, alphas[a], 3000 };
            uint64_t xoff = feroce_pfc_xoff_threshold(&p, frees[f]);
            uint64_t xon = feroce_pfc_xon_threshold(&p, frees[f]);
            /* around the thresholds, and across the 2^53 boundary */
            uint64_t around[] = { xoff - 1, xoff, xoff + 1, xon - 1, xon, xon + 1 };

            for (k = 0; k < sizeof around / sizeof around[0]; k++)
                check_decide_at(&p, frees[f], around[k]);
            for (k = 0; k < sizeof bytes / sizeof bytes[0]; k++)
                check_decide_at(&p, frees[f], bytes[k]);
        }
}
