/*
 * feroce-rp.c - DCQCN reaction point (src/feroce/doc/dcqcn.md, "Reaction point").
 *
 * Rates are doubles: the rules are real-valued and the known-answer traces
 * were produced with IEEE double arithmetic in exactly the order written
 * beside each line.  Every timer is evaluated lazily (advance_through()).
 */
#include "feroce-rp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * An alpha below 2^-64 can no longer move a rate (1 - alpha/2 rounds to 1)
 * and only costs decay iterations; it is flushed to 0, which ends the decay
 * loop of a long-idle QP after at most a few thousand ticks.
 */
#define ALPHA_FLUSH 0x1p-64

enum stage { STAGE_FAST_RECOVERY, STAGE_ADDITIVE, STAGE_HYPER };

static double min_d(double a, double b)
{
    return a < b ? a : b;
}

static uint64_t min_u(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

static uint64_t max_u(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* First instant of the series next, next + period, ... that is > t. */
static int64_t skip_past(int64_t next, int64_t period, int64_t t)
{
    if (next > t)
        return next;
    return next + ((t - next) / period + 1) * period;
}

/* ---- the rules ---------------------------------------------------------- */

static double alpha_flush(double alpha)
{
    return alpha < ALPHA_FLUSH ? 0.0 : alpha;
}

/* alpha <- (1 - g) alpha + g */
static double alpha_raise(const struct feroce_rp_params *p, double alpha)
{
    return (1.0 - p->g) * alpha + p->g;
}

/* alpha <- (1 - g) alpha */
static double alpha_decay(const struct feroce_rp_params *p, double alpha)
{
    return alpha_flush((1.0 - p->g) * alpha);
}

/* Cut: Rt <- Rc (if the clamp policy allows); Rc <- max(min_rate, Rc (1 - alpha/2)). */
static void cut(const struct feroce_rp_params *p, struct feroce_rp_vars *v, int64_t now)
{
    double rc;

    if (p->clamp == FEROCE_CLAMP_ALWAYS || v->may_clamp)
        v->rt = v->rc;
    rc = v->rc * (1.0 - v->alpha / 2.0);
    v->rc = rc > p->min_rate_bps ? rc : p->min_rate_bps;
    v->ts = 0;
    v->bs = 0;
    v->byte_acc = 0;
    v->may_clamp = 0;
    v->next_inc = now + p->increase_timer_ns;
}

static enum stage increase_stage(const struct feroce_rp_params *p, const struct feroce_rp_vars *v)
{
    if (p->byte_counter_bytes > 0) {
        if (max_u(v->ts, v->bs) <= p->F)
            return STAGE_FAST_RECOVERY;
        if (min_u(v->ts, v->bs) > p->F)
            return STAGE_HYPER;
        return STAGE_ADDITIVE;
    }
    /* byte counter disabled: the HPCC simulator's timer-only sequence */
    if (v->ts <= p->F)
        return STAGE_FAST_RECOVERY;
    if (v->ts == (uint64_t)p->F + 1)
        return STAGE_ADDITIVE;
    return STAGE_HYPER;
}

static double hyper_step(const struct feroce_rp_params *p, const struct feroce_rp_vars *v)
{
    uint64_t over;

    if (p->hai_mode == FEROCE_HAI_CONSTANT)
        return p->rhai_bps;
    if (p->byte_counter_bytes > 0)
        over = min_u(v->ts, v->bs) - p->F; /* R_HAI (min(ts, bs) - F) */
    else
        over = v->ts - p->F - 1; /* R_HAI (ts - F - 1) */
    return p->rhai_bps * (double)over;
}

/*
 * One increase event, stage counts already incremented.
 * Returns 1 if Rc or Rt changed.
 */
static int increase(const struct feroce_rp_params *p, struct feroce_rp_vars *v)
{
    double rc = v->rc, rt = v->rt;

    switch (increase_stage(p, v)) {
    case STAGE_FAST_RECOVERY:
        break;
    case STAGE_ADDITIVE:
        v->rt = min_d(p->line_rate_bps, v->rt + p->rai_bps); /* Rt <- min(line, Rt + R_AI) */
        break;
    case STAGE_HYPER:
        v->rt = min_d(p->line_rate_bps, v->rt + hyper_step(p, v));
        break;
    }
    v->rc = (v->rt + v->rc) / 2.0; /* Rc <- (Rt + Rc) / 2 */
    v->may_clamp = 1;
    return v->rc != rc || v->rt != rt;
}

/* Whether Rt + step rounds back to Rt (a zero step, or one below half an ulp of Rt). */
static int step_vanishes(const struct feroce_rp_vars *v, double step)
{
    return v->rt + step == v->rt;
}

/* Whether no hyper step ahead can move Rt: the constant one vanishes, or R_HAI (n) is 0 for every n. */
static int hyper_vanishes(const struct feroce_rp_params *p, const struct feroce_rp_vars *v)
{
    return p->hai_mode == FEROCE_HAI_CONSTANT ? step_vanishes(v, p->rhai_bps) : p->rhai_bps == 0.0;
}

/*
 * Once an increase event has left Rc and Rt unchanged and no later event of
 * the same kind can move Rt, every later one changes nothing ((Rt + Rc)/2 = Rc
 * holds for the same doubles): the rest only count.  Rt cannot move at the
 * line rate, nor while the steps still ahead vanish.  Between two cuts timer
 * events grow ts with bs fixed and byte events grow bs with ts fixed, so the
 * stages still ahead are known (as in feroce-rp-fixed.c); with R_HAI = 0 and
 * Rt below the line rate this ends the loop over a long gap at once.
 */
static int increase_settled(const struct feroce_rp_params *p, const struct feroce_rp_vars *v, int by_bytes)
{
    uint64_t grows = by_bytes ? v->bs : v->ts, fixed = by_bytes ? v->ts : v->bs;

    if (v->rt == p->line_rate_bps)
        return 1;
    if (p->byte_counter_bytes == 0) /* timer only: fast recovery, one additive event at F + 1, hyper */
        return hyper_vanishes(p, v) && (v->ts > p->F || step_vanishes(v, p->rai_bps));
    if (fixed <= p->F) /* the other count keeps min(ts, bs) <= F: additive from here on */
        return step_vanishes(v, p->rai_bps);
    /* additive while grows <= F, then hyper */
    return hyper_vanishes(p, v) && (grows > p->F || step_vanishes(v, p->rai_bps));
}

/* ---- lazy timers -------------------------------------------------------- */

/*
 * alpha after n decays, the same doubles as n calls of alpha_decay(): the
 * product with 1 - g in [0, 1) never grows alpha, so when a block of products
 * in a row ends at or above ALPHA_FLUSH none of them was flushed, and when a
 * block leaves alpha unchanged it is a fixed point (0, or 1 - g rounding to 1).
 * Blocks of 8, then 4, then single steps keep the per-tick cost near one
 * multiplication.
 */
static double alpha_decay_n(const struct feroce_rp_params *p, double alpha, int64_t n)
{
    const double m = 1.0 - p->g;

    while (n >= 8) {
        double a = alpha * m * m * m * m * m * m * m * m; /* left to right: eight steps */

        if (a == alpha)
            return alpha;
        if (a < ALPHA_FLUSH)
            break;
        alpha = a;
        n -= 8;
    }
    if (n >= 4) {
        double a = alpha * m * m * m * m;

        if (a >= ALPHA_FLUSH) {
            alpha = a;
            n -= 4;
        }
    }
    for (; n > 0 && alpha != 0.0; n--)
        alpha = alpha_flush(m * alpha);
    return alpha;
}

/* Alpha ticks (periodic) or expiries (on_cnp) at instants <= t. */
static void alpha_through(const struct feroce_rp_params *p, struct feroce_rp_vars *v, int64_t t)
{
    int64_t n;

    if (v->next_alpha > t)
        return;
    if (v->alpha_flag) {
        /* only periodic sets the flag: the first tick folds in g */
        v->alpha =
            p->alpha_mode == FEROCE_ALPHA_PERIODIC ? alpha_raise(p, v->alpha) : alpha_decay(p, v->alpha);
        v->alpha_flag = 0;
        v->next_alpha += p->alpha_period_ns;
        if (v->next_alpha > t)
            return;
    }
    /* the ticks left, at next_alpha, + K, ..., <= t, are plain decays */
    n = (t - v->next_alpha) / p->alpha_period_ns + 1;
    v->alpha = alpha_decay_n(p, v->alpha, n);
    v->next_alpha += n * p->alpha_period_ns;
}

/* Increase-timer expiries at instants <= t. */
static void increase_through(const struct feroce_rp_params *p, struct feroce_rp_vars *v, int64_t t)
{
    while (v->next_inc <= t) {
        int changed;

        v->ts++;
        changed = increase(p, v);
        v->next_inc += p->increase_timer_ns;
        if (!changed && v->next_inc <= t && increase_settled(p, v, 0)) {
            int64_t left = (t - v->next_inc) / p->increase_timer_ns + 1;

            v->ts += (uint64_t)left;
            v->next_inc += left * p->increase_timer_ns;
        }
    }
}

/* Every timer at instants <= t, in time order, same-instant order alpha, decrease, increase. */
static void advance_through(const struct feroce_rp_params *p, struct feroce_rp_vars *v, int64_t t)
{
    if (!v->active)
        return;
    if (v->dec_flag && v->next_dec <= t) {
        int64_t td = v->next_dec;

        alpha_through(p, v, td);
        increase_through(p, v, td - 1); /* an expiry at td is superseded by the cut's restart */
        v->dec_flag = 0;
        cut(p, v, td);
    }
    if (v->next_dec != FEROCE_NEVER)
        v->next_dec = skip_past(v->next_dec, p->decrease_period_ns, t);
    alpha_through(p, v, t);
    increase_through(p, v, t);
}

/* A CNP at now, timers before now already processed. */
static void apply_cnp(const struct feroce_rp_params *p, struct feroce_rp_vars *v, int64_t now)
{
    int first = !v->active;

    if (first) {
        v->active = 1;
        v->alpha = p->initial_alpha;
        v->next_alpha = now + p->alpha_period_ns;
        if (p->decrease_period_ns > 0)
            v->next_dec = now + p->decrease_period_ns;
    }
    if (first && p->first_cnp_rate_bps > 0) {
        /* Rc = Rt = first_cnp_rate, capped to [min_rate, Rc]; counts as a cut */
        double r = p->first_cnp_rate_bps > p->min_rate_bps ? p->first_cnp_rate_bps : p->min_rate_bps;

        v->rc = v->rt = min_d(r, v->rc);
        v->may_clamp = 0;
        if (p->decrease_period_ns == 0) {
            v->ts = 0;
            v->bs = 0;
            v->byte_acc = 0;
            v->next_inc = now + p->increase_timer_ns;
        }
    } else if (p->decrease_period_ns == 0) {
        cut(p, v, now);
    }
    if (p->decrease_period_ns > 0)
        v->dec_flag = 1;
    if (p->alpha_mode == FEROCE_ALPHA_ON_CNP) {
        v->alpha = alpha_raise(p, v->alpha); /* after the cut: the cut uses the old alpha */
        v->next_alpha = now + p->alpha_period_ns;
    } else if (!first) {
        v->alpha_flag = 1;
    }
}

/* Transmitted bytes at now, timers at now already processed. */
static void apply_tx(const struct feroce_rp_params *p, struct feroce_rp_vars *v, uint64_t bytes)
{
    uint64_t b = p->byte_counter_bytes;

    if (!v->active || b == 0)
        return;
    /* add without overflow: byte_acc < B always holds here */
    while (bytes > 0) {
        uint64_t room = b - v->byte_acc;

        if (bytes < room) {
            v->byte_acc += bytes;
            return;
        }
        bytes -= room;
        v->byte_acc = 0;
        v->bs++;
        if (!increase(p, v) && increase_settled(p, v, 1)) {
            /* the remaining events only count */
            v->bs += bytes / b;
            v->byte_acc = bytes % b;
            return;
        }
    }
}

/* Move the state to instant t >= s->now; a new instant starts with no events. */
static void move_to(struct feroce_rp_state *s, const struct feroce_rp_params *p, int64_t t)
{
    if (t == s->now)
        return;
    advance_through(p, &s->cur, t - 1);
    s->base = s->cur;
    s->now = t;
    s->cnps_now = 0;
    s->bytes_now = 0;
    advance_through(p, &s->cur, t);
}

/* ---- public ------------------------------------------------------------- */

void feroce_rp_init(struct feroce_rp_state *s, const struct feroce_rp_params *p, int64_t now)
{
    struct feroce_rp_vars *v = &s->cur;

    memset(s, 0, sizeof *s);
    v->rc = p->line_rate_bps;
    v->rt = p->line_rate_bps;
    v->alpha = p->initial_alpha;
    v->next_alpha = FEROCE_NEVER;
    v->next_dec = FEROCE_NEVER;
    v->next_inc = FEROCE_NEVER;
    v->may_clamp = 1; /* the first cut always clamps */
    s->base = *v;
    s->now = now < 0 ? 0 : now > FEROCE_TIME_MAX ? FEROCE_TIME_MAX : now;
}

enum feroce_err feroce_rp_advance(struct feroce_rp_state *s, const struct feroce_rp_params *p, int64_t now)
{
    enum feroce_err e = feroce_time_check(s->now, now);

    if (e != FEROCE_OK)
        return e;
    move_to(s, p, now);
    return FEROCE_OK;
}

enum feroce_err feroce_rp_cnp(struct feroce_rp_state *s, const struct feroce_rp_params *p, int64_t now)
{
    enum feroce_err e = feroce_time_check(s->now, now);
    uint32_t i;

    if (e != FEROCE_OK)
        return e;
    move_to(s, p, now);
    /* replay the instant from its base so that every CNP precedes the timers and bytes */
    s->cnps_now++;
    s->cur = s->base;
    for (i = 0; i < s->cnps_now; i++)
        apply_cnp(p, &s->cur, now);
    advance_through(p, &s->cur, now);
    apply_tx(p, &s->cur, s->bytes_now);
    return FEROCE_OK;
}

enum feroce_err feroce_rp_tx(struct feroce_rp_state *s, const struct feroce_rp_params *p, int64_t now,
                             uint64_t bytes)
{
    enum feroce_err e = feroce_time_check(s->now, now);

    if (e != FEROCE_OK)
        return e;
    move_to(s, p, now);
    s->bytes_now = s->bytes_now + bytes < s->bytes_now ? UINT64_MAX : s->bytes_now + bytes;
    apply_tx(p, &s->cur, bytes);
    return FEROCE_OK;
}

int64_t feroce_rp_next_deadline(const struct feroce_rp_state *s, const struct feroce_rp_params *p)
{
    const struct feroce_rp_vars *v = &s->cur;
    int64_t d = FEROCE_NEVER;

    if (!v->active)
        return FEROCE_NEVER;
    if (v->dec_flag)
        d = v->next_dec;
    if (v->next_inc < d && (v->rc != p->line_rate_bps || v->rt != p->line_rate_bps))
        d = v->next_inc;
    return d;
}
