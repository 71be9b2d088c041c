/*
 * feroce-rp-fixed.c - DCQCN reaction point in fixed-point arithmetic
 * (doc/dcqcn.md, "Fixed-point reaction point").
 *
 * The rules and the lazy timers are those of feroce-rp.c; each integer line
 * carries the real-valued rule it implements in a comment.  W is rate_bits,
 * Wa is alpha_bits, RND_r(x, s) is x / 2^s rounded by the rounding mode r.
 */
#include "feroce-rp-fixed.h"

#include <string.h>

enum stage { STAGE_FAST_RECOVERY, STAGE_ADDITIVE, STAGE_HYPER };

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

/* x / 2^s rounded by r (s >= 1) */
static uint64_t rnd(enum feroce_rounding r, uint64_t x, uint32_t s)
{
    if (r == FEROCE_ROUND_NEAREST)
        return (x + (UINT64_C(1) << (s - 1))) >> s;
    return x >> s;
}

/* ---- the rules ---------------------------------------------------------- */

/* alpha <- (1 - g) alpha + g:  A <- RND_a(A (2^Wa - G), Wa) + G */
static uint32_t alpha_raise(const struct feroce_rp_fixed_params *p, uint32_t a)
{
    return (uint32_t)rnd(p->fmt.alpha_rounding, (uint64_t)a * (p->alpha_one - p->g), p->fmt.alpha_bits) +
           p->g;
}

/* alpha <- (1 - g) alpha:  A <- RND_a(A (2^Wa - G), Wa) */
static uint32_t alpha_decay(const struct feroce_rp_fixed_params *p, uint32_t a)
{
    return (uint32_t)rnd(p->fmt.alpha_rounding, (uint64_t)a * (p->alpha_one - p->g), p->fmt.alpha_bits);
}

/*
 * Cut: Rt <- Rc (if the clamp policy allows); Rc <- max(min_rate, Rc (1 - alpha/2)):
 * Rc <- max(min_rate, Rc - RND_r(Rc A, Wa + 1)).
 */
static void cut(const struct feroce_rp_fixed_params *p, struct feroce_rp_fixed_regs *v, int64_t now)
{
    uint64_t dec;

    if (p->clamp == FEROCE_CLAMP_ALWAYS || v->may_clamp)
        v->rt = v->rc;
    dec = rnd(p->fmt.rate_rounding, v->rc * v->alpha, p->fmt.alpha_bits + 1);
    v->rc = max_u(p->min_rate, v->rc - dec);
    v->ts = 0;
    v->bs = 0;
    v->byte_acc = 0;
    v->may_clamp = 0;
    v->next_inc = now + p->increase_timer;
}

static enum stage increase_stage(const struct feroce_rp_fixed_params *p, const struct feroce_rp_fixed_regs *v)
{
    if (p->byte_counter > 0) {
        if (max_u(v->ts, v->bs) <= p->F)
            return STAGE_FAST_RECOVERY;
        if (min_u(v->ts, v->bs) > p->F)
            return STAGE_HYPER;
        return STAGE_ADDITIVE;
    }
    if (v->ts <= p->F)
        return STAGE_FAST_RECOVERY;
    if (v->ts == (uint64_t)p->F + 1)
        return STAGE_ADDITIVE;
    return STAGE_HYPER;
}

/* Rt + step, at most the line rate, without overflow */
static uint64_t add_capped(const struct feroce_rp_fixed_params *p, uint64_t rt, uint64_t step)
{
    return step >= p->line - rt ? p->line : rt + step;
}

/* Hyper step: R_HAI, or R_HAI (min(ts, bs) - F) / R_HAI (ts - F - 1); saturates at the line rate. */
static uint64_t hyper_step(const struct feroce_rp_fixed_params *p, const struct feroce_rp_fixed_regs *v)
{
    uint64_t over;

    if (p->hai_mode == FEROCE_HAI_CONSTANT)
        return p->rhai;
    if (p->byte_counter > 0)
        over = min_u(v->ts, v->bs) - p->F;
    else
        over = v->ts - p->F - 1;
    if (p->rhai && over > p->line / p->rhai)
        return p->line;
    return p->rhai * over;
}

/* One increase event, stage counts already incremented.  Returns 1 if Rc or Rt changed. */
static int increase(const struct feroce_rp_fixed_params *p, struct feroce_rp_fixed_regs *v)
{
    uint64_t rc = v->rc, rt = v->rt;

    switch (increase_stage(p, v)) {
    case STAGE_FAST_RECOVERY:
        break;
    case STAGE_ADDITIVE:
        v->rt = add_capped(p, v->rt, p->rai); /* Rt <- min(line, Rt + R_AI) */
        break;
    case STAGE_HYPER:
        v->rt = add_capped(p, v->rt, hyper_step(p, v));
        break;
    }
    v->rc = rnd(p->fmt.rate_rounding, v->rt + v->rc, 1); /* Rc <- (Rt + Rc) / 2 */
    v->may_clamp = 1;
    return v->rc != rc || v->rt != rt;
}

/*
 * Once an increase event leaves Rc and Rt unchanged and no later step of the
 * same kind of event can move Rt, every later one changes nothing:
 * RND((Rt + Rc)/2) = Rc stays.  Between two cuts the stages only move forward:
 * timer events grow ts with bs fixed, byte events grow bs with ts fixed, so
 * the stages still ahead are known (doc/dcqcn.md, "Increase events").
 */
static int increase_settled(const struct feroce_rp_fixed_params *p, const struct feroce_rp_fixed_regs *v,
                            int changed, int by_bytes)
{
    uint64_t grows = by_bytes ? v->bs : v->ts, fixed = by_bytes ? v->ts : v->bs;

    if (changed)
        return 0;
    if (v->rt == p->line)
        return 1;
    if (p->byte_counter == 0) /* timer only: fast recovery, one additive event at F + 1, hyper */
        return p->rhai == 0 && (p->rai == 0 || v->ts > p->F);
    if (fixed <= p->F) /* the other count keeps min(ts, bs) <= F: additive from here on */
        return p->rai == 0;
    return p->rhai == 0 && (p->rai == 0 || grows > p->F); /* additive while grows <= F, then hyper */
}

/* ---- lazy timers -------------------------------------------------------- */

static void alpha_through(const struct feroce_rp_fixed_params *p, struct feroce_rp_fixed_regs *v, int64_t t)
{
    while (v->next_alpha <= t) {
        if (!v->alpha_flag && alpha_decay(p, v->alpha) == v->alpha) {
            /* a fixed point of the decay (0, or a value round-to-nearest keeps): skip the rest */
            v->next_alpha = skip_past(v->next_alpha, p->alpha_period, t);
            return;
        }
        if (p->alpha_mode == FEROCE_ALPHA_PERIODIC && v->alpha_flag)
            v->alpha = alpha_raise(p, v->alpha);
        else
            v->alpha = alpha_decay(p, v->alpha);
        v->alpha_flag = 0;
        v->next_alpha += p->alpha_period;
    }
}

static void increase_through(const struct feroce_rp_fixed_params *p, struct feroce_rp_fixed_regs *v,
                             int64_t t)
{
    while (v->next_inc <= t) {
        int changed;

        v->ts++;
        changed = increase(p, v);
        v->next_inc += p->increase_timer;
        if (increase_settled(p, v, changed, 0) && v->next_inc <= t) {
            int64_t left = (t - v->next_inc) / p->increase_timer + 1;

            v->ts += (uint64_t)left;
            v->next_inc += left * p->increase_timer;
        }
    }
}

static void advance_through(const struct feroce_rp_fixed_params *p, struct feroce_rp_fixed_regs *v, int64_t t)
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
        v->next_dec = skip_past(v->next_dec, p->decrease_period, t);
    alpha_through(p, v, t);
    increase_through(p, v, t);
}

static void apply_cnp(const struct feroce_rp_fixed_params *p, struct feroce_rp_fixed_regs *v, int64_t now)
{
    int first = !v->active;

    if (first) {
        v->active = 1;
        v->alpha = p->initial_alpha;
        v->next_alpha = now + p->alpha_period;
        if (p->decrease_period > 0)
            v->next_dec = now + p->decrease_period;
    }
    if (first && p->first_cnp_rate > 0) {
        /* Rc = Rt = first_cnp_rate, capped to [min_rate, Rc]; counts as a cut */
        v->rc = v->rt = min_u(max_u(p->first_cnp_rate, p->min_rate), v->rc);
        v->may_clamp = 0;
        if (p->decrease_period == 0) {
            v->ts = 0;
            v->bs = 0;
            v->byte_acc = 0;
            v->next_inc = now + p->increase_timer;
        }
    } else if (p->decrease_period == 0) {
        cut(p, v, now);
    }
    if (p->decrease_period > 0)
        v->dec_flag = 1;
    if (p->alpha_mode == FEROCE_ALPHA_ON_CNP) {
        v->alpha = alpha_raise(p, v->alpha); /* after the cut: the cut uses the old alpha */
        v->next_alpha = now + p->alpha_period;
    } else if (!first) {
        v->alpha_flag = 1;
    }
}

static void apply_tx(const struct feroce_rp_fixed_params *p, struct feroce_rp_fixed_regs *v, uint64_t bytes)
{
    uint64_t b = p->byte_counter;

    if (!v->active || b == 0)
        return;
    while (bytes > 0) {
        uint64_t room = b - v->byte_acc;

        if (bytes < room) {
            v->byte_acc += bytes;
            return;
        }
        bytes -= room;
        v->byte_acc = 0;
        v->bs++;
        if (increase_settled(p, v, increase(p, v), 1)) {
            v->bs += bytes / b;
            v->byte_acc = bytes % b;
            return;
        }
    }
}

static void move_to(struct feroce_rp_fixed_state *s, const struct feroce_rp_fixed_params *p, int64_t t)
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

void feroce_rp_fixed_init(struct feroce_rp_fixed_state *s, const struct feroce_rp_fixed_params *p,
                          int64_t now)
{
    struct feroce_rp_fixed_regs *v = &s->cur;

    memset(s, 0, sizeof *s);
    v->rc = p->line;
    v->rt = p->line;
    v->alpha = p->initial_alpha;
    v->next_alpha = FEROCE_NEVER;
    v->next_dec = FEROCE_NEVER;
    v->next_inc = FEROCE_NEVER;
    v->may_clamp = 1;
    s->base = *v;
    s->now = now < 0 ? 0 : now > FEROCE_TIME_MAX ? FEROCE_TIME_MAX : now;
}

enum feroce_err feroce_rp_fixed_advance(struct feroce_rp_fixed_state *s,
                                        const struct feroce_rp_fixed_params *p, int64_t now)
{
    enum feroce_err e = feroce_time_check(s->now, now);

    if (e != FEROCE_OK)
        return e;
    move_to(s, p, now);
    return FEROCE_OK;
}

enum feroce_err feroce_rp_fixed_cnp(struct feroce_rp_fixed_state *s, const struct feroce_rp_fixed_params *p,
                                    int64_t now)
{
    enum feroce_err e = feroce_time_check(s->now, now);
    uint32_t i;

    if (e != FEROCE_OK)
        return e;
    move_to(s, p, now);
    s->cnps_now++;
    s->cur = s->base;
    for (i = 0; i < s->cnps_now; i++)
        apply_cnp(p, &s->cur, now);
    advance_through(p, &s->cur, now);
    apply_tx(p, &s->cur, s->bytes_now);
    return FEROCE_OK;
}

enum feroce_err feroce_rp_fixed_tx(struct feroce_rp_fixed_state *s, const struct feroce_rp_fixed_params *p,
                                   int64_t now, uint64_t bytes)
{
    enum feroce_err e = feroce_time_check(s->now, now);

    if (e != FEROCE_OK)
        return e;
    move_to(s, p, now);
    s->bytes_now = s->bytes_now + bytes < s->bytes_now ? UINT64_MAX : s->bytes_now + bytes;
    apply_tx(p, &s->cur, bytes);
    return FEROCE_OK;
}

int64_t feroce_rp_fixed_next_deadline(const struct feroce_rp_fixed_state *s,
                                      const struct feroce_rp_fixed_params *p)
{
    const struct feroce_rp_fixed_regs *v = &s->cur;
    int64_t d = FEROCE_NEVER;

    if (!v->active)
        return FEROCE_NEVER;
    if (v->dec_flag)
        d = v->next_dec;
    /* an expiry moves something unless Rt is at the line and the average keeps Rc */
    if (v->next_inc < d && (v->rt != p->line || rnd(p->fmt.rate_rounding, v->rt + v->rc, 1) != v->rc))
        d = v->next_inc;
    return d;
}
