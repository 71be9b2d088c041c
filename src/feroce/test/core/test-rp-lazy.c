/*
 * test-rp-lazy.c - the lazy core against a step-by-step reference.
 *
 * The reference below is a plain discrete-event model written from
 * src/feroce/doc/dcqcn.md: it fires every alpha tick, decrease tick and increase expiry
 * one by one in time order, with no shortcut, and applies the events of one
 * instant in the spec's order.  Random event scripts (seeded, so every run is
 * the same) drive it and the core, which sees the same events in script order
 * (a CNP may come after a query or bytes of its instant) and only at event
 * times; a third copy of the core is also advanced at every deadline it
 * reports.  All three must agree exactly, bit for bit.
 */
#include <stdint.h>

#include "check.h"
#include "core-tests.h"
#include "feroce-rp.h"

/* ---- the reference ------------------------------------------------------ */

struct ref {
    const struct feroce_rp_params *p;
    struct feroce_rp_vars v; /* only the fields the spec names are used */
};

static void ref_cut(struct ref *r, int64_t t)
{
    const struct feroce_rp_params *p = r->p;
    struct feroce_rp_vars *v = &r->v;
    double rc;

    if (p->clamp == FEROCE_CLAMP_ALWAYS || v->may_clamp)
        v->rt = v->rc;
    rc = v->rc * (1.0 - v->alpha / 2.0);
    v->rc = rc < p->min_rate_bps ? p->min_rate_bps : rc;
    v->ts = v->bs = v->byte_acc = 0;
    v->may_clamp = 0;
    v->next_inc = t + p->increase_timer_ns;
}

static void ref_increase(struct ref *r)
{
    const struct feroce_rp_params *p = r->p;
    struct feroce_rp_vars *v = &r->v;
    uint64_t F = p->F, lo = v->ts < v->bs ? v->ts : v->bs, hi = v->ts > v->bs ? v->ts : v->bs;
    int stage; /* 0 FR, 1 AI, 2 hyper */
    double step;

    if (p->byte_counter_bytes)
        stage = hi <= F ? 0 : lo > F ? 2 : 1;
    else
        stage = v->ts <= F ? 0 : v->ts == F + 1 ? 1 : 2;
    if (stage == 1)
        v->rt = v->rt + p->rai_bps < p->line_rate_bps ? v->rt + p->rai_bps : p->line_rate_bps;
    if (stage == 2) {
        step = p->rhai_bps;
        if (p->hai_mode == FEROCE_HAI_LINEAR)
            step = p->rhai_bps * (double)(p->byte_counter_bytes ? lo - F : v->ts - F - 1);
        v->rt = v->rt + step < p->line_rate_bps ? v->rt + step : p->line_rate_bps;
    }
    v->rc = (v->rt + v->rc) / 2.0;
    v->may_clamp = 1;
}

static void ref_cnp(struct ref *r, int64_t t)
{
    const struct feroce_rp_params *p = r->p;
    struct feroce_rp_vars *v = &r->v;
    int first = !v->active;

    if (first) {
        v->active = 1;
        v->alpha = p->initial_alpha;
        v->next_alpha = t + p->alpha_period_ns;
        if (p->decrease_period_ns)
            v->next_dec = t + p->decrease_period_ns;
    }
    if (first && p->first_cnp_rate_bps > 0) {
        double x = p->first_cnp_rate_bps < p->min_rate_bps ? p->min_rate_bps : p->first_cnp_rate_bps;

        v->rc = v->rt = x < v->rc ? x : v->rc;
        v->may_clamp = 0;
        if (!p->decrease_period_ns) {
            v->ts = v->bs = v->byte_acc = 0;
            v->next_inc = t + p->increase_timer_ns;
        }
    } else if (!p->decrease_period_ns) {
        ref_cut(r, t);
    }
    if (p->decrease_period_ns)
        v->dec_flag = 1;
    if (p->alpha_mode == FEROCE_ALPHA_ON_CNP) {
        v->alpha = (1.0 - p->g) * v->alpha + p->g;
        v->next_alpha = t + p->alpha_period_ns;
    } else if (!first) {
        v->alpha_flag = 1;
    }
}

/* Fire every timer at instants < until (or <= until when inclusive), one at a time. */
static void ref_timers(struct ref *r, int64_t until, int inclusive)
{
    const struct feroce_rp_params *p = r->p;
    struct feroce_rp_vars *v = &r->v;

    if (!v->active)
        return;
    for (;;) {
        int64_t t = v->next_alpha;

        if (v->next_dec < t)
            t = v->next_dec;
        if (v->next_inc < t)
            t = v->next_inc;
        if (inclusive ? t > until : t >= until)
            return;
        if (v->next_alpha == t) {
            double a = (1.0 - p->g) * v->alpha;

            if (p->alpha_mode == FEROCE_ALPHA_PERIODIC && v->alpha_flag)
                v->alpha = a + p->g;
            else
                v->alpha = a < 0x1p-64 ? 0.0 : a; /* the core's documented flush */
            v->alpha_flag = 0;
            v->next_alpha += p->alpha_period_ns;
        } else if (v->next_dec == t) {
            v->next_dec += p->decrease_period_ns;
            if (v->dec_flag) {
                v->dec_flag = 0;
                ref_cut(r, t);
            }
        } else {
            v->ts++;
            ref_increase(r);
            v->next_inc += p->increase_timer_ns;
        }
    }
}

static void ref_bytes(struct ref *r, uint64_t bytes)
{
    struct feroce_rp_vars *v = &r->v;
    uint64_t b = r->p->byte_counter_bytes;

    if (!v->active || !b)
        return;
    v->byte_acc += bytes;
    while (v->byte_acc >= b) {
        v->byte_acc -= b;
        v->bs++;
        ref_increase(r);
    }
}

/* ---- random scripts ----------------------------------------------------- */

static uint64_t rng_state;

static uint64_t rnd(void) /* xorshift64*, test-local */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}

static uint64_t rnd_below(uint64_t n)
{
    return rnd() % n;
}

static void random_params(struct feroce_rp_params *p)
{
    static const char *names[] = { "paper", "connectx", "hpcc" };
    static const int64_t periods[] = { 1000, 4000, 50000, 55000 };
    static const int64_t decrease[] = { 0, 0, 4000, 50000 };
    static const int64_t timers[] = { 5000, 55000, 300000 };
    static const uint64_t counters[] = { 0, 65536, 1000000, 10000000 };

    feroce_rp_preset(p, names[rnd_below(3)], rnd_below(2) ? 10e9 : 100e9, NULL);
    if (rnd_below(2)) {
        p->alpha_mode = rnd_below(2) ? FEROCE_ALPHA_PERIODIC : FEROCE_ALPHA_ON_CNP;
        p->alpha_period_ns = periods[rnd_below(4)];
        p->decrease_period_ns = decrease[rnd_below(4)];
        p->increase_timer_ns = timers[rnd_below(3)];
        p->byte_counter_bytes = counters[rnd_below(4)];
        p->F = (uint32_t)rnd_below(6);
        p->hai_mode = rnd_below(2) ? FEROCE_HAI_LINEAR : FEROCE_HAI_CONSTANT;
        p->clamp = rnd_below(2) ? FEROCE_CLAMP_AFTER_INCREASE : FEROCE_CLAMP_ALWAYS;
        p->g = rnd_below(2) ? 1.0 / 16 : 1.0 / 256;
        p->initial_alpha = rnd_below(2) ? 1.0 : 0.5;
        if (rnd_below(3)) {
            p->first_cnp_rate_bps = 0;
        } else {
            /* at least the floor, which hpcc's 1 Gb/s may exceed */
            double r = p->line_rate_bps / (double)(2 + rnd_below(20));
            p->first_cnp_rate_bps = r > p->min_rate_bps ? r : p->min_rate_bps;
        }
    }
}

static int same(const struct feroce_rp_vars *a, const struct feroce_rp_vars *b)
{
    return a->rc == b->rc && a->rt == b->rt && a->alpha == b->alpha && a->ts == b->ts && a->bs == b->bs &&
           a->byte_acc == b->byte_acc;
}

enum { EV_CNP, EV_TX, EV_QUERY };

void test_rp_lazy_equals_reference(void)
{
    int script, mismatches = 0, events = 0;

    rng_state = 0x9E3779B97F4A7C15ULL;
    for (script = 0; script < 400; script++) {
        struct feroce_rp_params p;
        struct feroce_rp_state lazy, stepped;
        struct ref r;
        int64_t t = 0;
        int n;

        random_params(&p);
        CHECK_EQ(feroce_rp_validate(&p, NULL), FEROCE_OK);
        feroce_rp_init(&lazy, &p, 0);
        feroce_rp_init(&stepped, &p, 0);
        r.p = &p;
        r.v = lazy.cur;

        for (n = 0; n < 150; n++) {
            /* one instant: a few events in random order */
            int k, count = 1 + (int)rnd_below(3), cnps = 0;
            uint64_t bytes = 0;
            int64_t d;

            t += 1 + (int64_t)rnd_below(rnd_below(2) ? 20000 : 400000); /* a new instant */
            if (rnd_below(3) == 0)
                t += (1000 - t % 1000) % 1000; /* land on timer instants */
            while ((d = feroce_rp_next_deadline(&stepped, &p)) < t)
                feroce_rp_advance(&stepped, &p, d);
            for (k = 0; k < count; k++) {
                int ev = rnd_below(10) < 3 ? EV_CNP : rnd_below(2) ? EV_TX : EV_QUERY;
                uint64_t b = rnd_below(3) ? rnd_below(5000) : rnd_below(30000000);

                if (ev == EV_CNP) {
                    feroce_rp_cnp(&lazy, &p, t);
                    feroce_rp_cnp(&stepped, &p, t);
                    cnps++;
                } else if (ev == EV_TX) {
                    feroce_rp_tx(&lazy, &p, t, b);
                    feroce_rp_tx(&stepped, &p, t, b);
                    bytes += b;
                } else {
                    feroce_rp_advance(&lazy, &p, t);
                    feroce_rp_advance(&stepped, &p, t);
                }
            }
            /* the reference applies the instant in the spec's order */
            ref_timers(&r, t, 0);
            while (cnps--)
                ref_cnp(&r, t);
            ref_timers(&r, t, 1);
            ref_bytes(&r, bytes);
            events++;
            if (!same(&lazy.cur, &r.v) || !same(&stepped.cur, &lazy.cur)) {
                if (mismatches++ < 5)
                    fprintf(stderr,
                            "script %d event %d t=%lld: lazy rc=%.17g rt=%.17g a=%.17g ts=%llu bs=%llu | "
                            "ref rc=%.17g rt=%.17g a=%.17g ts=%llu bs=%llu | stepped rc=%.17g\n",
                            script, n, (long long)t, lazy.cur.rc, lazy.cur.rt, lazy.cur.alpha,
                            (unsigned long long)lazy.cur.ts, (unsigned long long)lazy.cur.bs, r.v.rc, r.v.rt,
                            r.v.alpha, (unsigned long long)r.v.ts, (unsigned long long)r.v.bs,
                            stepped.cur.rc);
            }
        }
    }
    CHECK_EQ(mismatches, 0);
    CHECK_EQ(events, 400 * 150);
}

/* ---- long gaps ---------------------------------------------------------- */

/* The core and the reference, side by side, see the same events. */
struct pair {
    struct feroce_rp_state s;
    struct ref r;
};

static void pair_init(struct pair *q, const struct feroce_rp_params *p)
{
    feroce_rp_init(&q->s, p, 0);
    q->r.p = p;
    q->r.v = q->s.cur;
}

static void pair_cnp(struct pair *q, int64_t t)
{
    feroce_rp_cnp(&q->s, q->r.p, t);
    ref_timers(&q->r, t, 0);
    ref_cnp(&q->r, t);
    ref_timers(&q->r, t, 1);
}

static void pair_tx(struct pair *q, int64_t t, uint64_t bytes)
{
    feroce_rp_tx(&q->s, q->r.p, t, bytes);
    ref_timers(&q->r, t, 1);
    ref_bytes(&q->r, bytes);
}

/* Expiries of the series next, next + period, ... at instants <= t. */
static int64_t expiries(int64_t next, int64_t period, int64_t t)
{
    return next > t ? 0 : (t - next) / period + 1;
}

/*
 * R_HAI = 0 with Rt below the line rate: once Rc has met Rt no increase event
 * moves anything, and a gap of 10^12 ns (3.3 million to 200 million expiries)
 * must give in one call the state the step-by-step rule gives.  The reference
 * steps a smaller gap, then shows the state settled; the huge gap must agree
 * with it and with the counts of the expiries in between.
 */
void test_rp_lazy_settled_long_gap(void)
{
    static const char *names[] = { "paper", "connectx", "hpcc" };
    const int64_t small = 2000000000LL, huge = 1000000000000LL;
    int k, rai, timer;

    for (k = 0; k < 3; k++)
        for (rai = 0; rai < 2; rai++)
            for (timer = 0; timer < 2; timer++) {
                struct feroce_rp_params p;
                struct pair q, late;
                struct ref settled;
                int64_t n;

                feroce_rp_preset(&p, names[k], 10e9, NULL);
                p.rhai_bps = 0;
                if (!rai)
                    p.rai_bps = 0;
                if (timer)
                    p.increase_timer_ns = 5000; /* 2 * 10^8 expiries in the huge gap */
                CHECK_EQ(feroce_rp_validate(&p, NULL), FEROCE_OK);
                pair_init(&q, &p);
                pair_cnp(&q, 0);
                pair_cnp(&q, 100);
                pair_cnp(&q, 9000);
                pair_cnp(&q, 20000);
                pair_cnp(&q, 1000000); /* after an increase: clamp after_increase sets Rt <- Rc */
                pair_cnp(&q, 1000100);
                late = q;

                /* one call over the small gap equals the reference's steps */
                feroce_rp_advance(&q.s, &p, small);
                ref_timers(&q.r, small, 1);
                CHECK(same(&q.s.cur, &q.r.v));
                if (!rai || p.byte_counter_bytes == 0) { /* else R_AI steps Rt up to the line */
                    if (!(q.r.v.rt < p.line_rate_bps))
                        fprintf(stderr, "%s rai %d timer %d: rt %.17g\n", names[k], rai, timer, q.r.v.rt);
                    CHECK(q.r.v.rt < p.line_rate_bps);
                }

                /* the premise: another small gap of steps moves nothing but the counts */
                settled = q.r;
                ref_timers(&settled, 2 * small, 1);
                CHECK_EQ(settled.v.rc, q.r.v.rc);
                CHECK_EQ(settled.v.rt, q.r.v.rt);
                CHECK_EQ(settled.v.alpha, q.r.v.alpha);

                /* the huge gap, in one call from the last CNP and from the small gap */
                n = expiries(q.r.v.next_inc, p.increase_timer_ns, huge);
                feroce_rp_advance(&late.s, &p, huge);
                feroce_rp_advance(&q.s, &p, huge);
                CHECK(same(&late.s.cur, &q.s.cur));
                CHECK_EQ(q.s.cur.rc, q.r.v.rc);
                CHECK_EQ(q.s.cur.rt, q.r.v.rt);
                CHECK_EQ(q.s.cur.alpha, q.r.v.alpha);
                CHECK_EQ(q.s.cur.ts, q.r.v.ts + (uint64_t)n);
                CHECK_EQ(q.s.cur.bs, q.r.v.bs);
                CHECK_EQ(q.s.cur.next_inc, q.r.v.next_inc + n * p.increase_timer_ns);
                CHECK_EQ(q.s.cur.next_alpha,
                         q.r.v.next_alpha +
                             expiries(q.r.v.next_alpha, p.alpha_period_ns, huge) * p.alpha_period_ns);

                /* and it still reacts: a CNP cuts as the reference does from the same state */
                q.r.v = q.s.cur;
                pair_cnp(&q, huge + 1);
                pair_tx(&q, huge + 50000000, 1500);
                CHECK(same(&q.s.cur, &q.r.v));
            }
}

/*
 * Byte events with R_AI = R_HAI = 0: 10^15 bytes in one call are 1.5 * 10^10
 * events of 64 KiB, every one after the first few a no-op.
 */
void test_rp_lazy_settled_many_bytes(void)
{
    const uint64_t B = 65536, some = 1000 * B + 123, many = 1000000000000000ULL;
    struct feroce_rp_params p;
    struct pair q;
    struct ref more;
    int64_t t;
    int timer_first;

    for (timer_first = 0; timer_first < 2; timer_first++) {
        feroce_rp_preset(&p, "paper", 10e9, NULL);
        p.byte_counter_bytes = B;
        p.rai_bps = 0;
        p.rhai_bps = 0;
        CHECK_EQ(feroce_rp_validate(&p, NULL), FEROCE_OK);
        pair_init(&q, &p);
        pair_cnp(&q, 0);
        pair_cnp(&q, 10);
        t = timer_first ? 400000 : 20; /* ts past F (hyper ahead), or 0 (additive ahead) */
        pair_tx(&q, t, some);
        CHECK(same(&q.s.cur, &q.r.v));
        more = q.r;
        ref_bytes(&more, some);
        CHECK_EQ(more.v.rc, q.r.v.rc);
        CHECK_EQ(more.v.rt, q.r.v.rt);

        feroce_rp_tx(&q.s, &p, t, many);
        CHECK_EQ(q.s.cur.rc, q.r.v.rc);
        CHECK_EQ(q.s.cur.rt, q.r.v.rt);
        CHECK_EQ(q.s.cur.bs, q.r.v.bs + (q.r.v.byte_acc + many) / B);
        CHECK_EQ(q.s.cur.byte_acc, (q.r.v.byte_acc + many) % B);
        CHECK(q.s.cur.rt < p.line_rate_bps);
    }
}

/*
 * A QP that sends once a millisecond with a 55 us alpha period: each call
 * crosses 18 alpha periods.  Bit for bit with the reference at every event,
 * for gains down to 1 (1 - g = 0) and so small that 1 - g rounds to 1; then a
 * gap of 10^12 ns.
 */
void test_rp_lazy_rare_sender(void)
{
    static const char *names[] = { "paper", "connectx", "hpcc" };
    static const double gains[] = { 1.0 / 256, 5.0 / 1024, 1.0 / 16, 1.0, 0.5, 1e-17 };
    const int64_t ms = 1000000, huge = 1000000000000LL;
    int k, gi, bad = 0;

    for (k = 0; k < 3; k++)
        for (gi = 0; gi < 6; gi++) {
            struct feroce_rp_params p;
            struct pair q;
            struct ref later;
            int64_t t;

            feroce_rp_preset(&p, names[k], 10e9, NULL);
            p.alpha_period_ns = 55000;
            p.g = gains[gi];
            CHECK_EQ(feroce_rp_validate(&p, NULL), FEROCE_OK);
            pair_init(&q, &p);
            for (t = 0; t <= 3000 * ms; t += ms) {
                if (t < 100 * ms && t % (7 * ms) == 0)
                    pair_cnp(&q, t + 3);
                pair_tx(&q, t + 3, 4096);
                bad += !same(&q.s.cur, &q.r.v);
            }
            /* a 10 s silence stepped, then 10^12 ns in one call */
            later = q.r;
            ref_timers(&later, t + 10000 * ms, 1);
            feroce_rp_advance(&q.s, &p, t + 10000 * ms);
            bad += !same(&q.s.cur, &later.v);
            feroce_rp_advance(&q.s, &p, huge);
            CHECK_EQ(q.s.cur.alpha, p.g < 1e-16 ? later.v.alpha : 0.0);
            CHECK(q.s.cur.next_alpha > huge && q.s.cur.next_alpha <= huge + p.alpha_period_ns);
        }
    CHECK_EQ(bad, 0);
}
