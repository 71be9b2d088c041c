/*
 * feroce-scoreboard.c - golden-model scoreboard of a firmware rate limiter (feroce-scoreboard.h).
 */
#include "feroce-scoreboard.h"

#include <stdio.h>

enum feroce_err feroce_sb_validate(const struct feroce_sb_params *sp, struct feroce_check *why)
{
    if (sp->check_every < 0 || sp->check_every > FEROCE_TIME_MAX)
        return feroce_fail(why, FEROCE_E_BAD_VALUE, "check_every", (double)sp->check_every,
                           "[0, %lld] cycles (0 = compare only in cycles with an event)",
                           (long long)FEROCE_TIME_MAX);
    if (sp->compare == 0 || (sp->compare & ~(unsigned)FEROCE_SB_ALL))
        return feroce_fail(why, FEROCE_E_BAD_VALUE, "compare", sp->compare,
                           "a non-empty set of rc (1), rt (2), alpha (4)");
    return FEROCE_OK;
}

void feroce_sb_init(struct feroce_sb_state *s, const struct feroce_rp_fixed_params *rp, int64_t cycle)
{
    feroce_rp_fixed_init(&s->golden, rp, cycle);
    s->event_cycle = -1;
    s->next_check = cycle;
    s->last_checked = -1;
    s->compared = 0;
    s->mismatches = 0;
    s->cnps = 0;
    s->tx_bytes = 0;
    s->first.cycle = -1;
}

enum feroce_err feroce_sb_cnp(struct feroce_sb_state *s, const struct feroce_rp_fixed_params *rp,
                              int64_t cycle)
{
    enum feroce_err e = feroce_rp_fixed_cnp(&s->golden, rp, cycle);

    if (e == FEROCE_OK) {
        s->event_cycle = cycle;
        s->cnps++;
    }
    return e;
}

enum feroce_err feroce_sb_tx(struct feroce_sb_state *s, const struct feroce_rp_fixed_params *rp,
                             int64_t cycle, uint64_t bytes)
{
    enum feroce_err e = feroce_rp_fixed_tx(&s->golden, rp, cycle, bytes);

    if (e == FEROCE_OK) {
        s->event_cycle = cycle;
        s->tx_bytes += bytes;
    }
    return e;
}

int feroce_sb_check(struct feroce_sb_state *s, const struct feroce_rp_fixed_params *rp,
                    const struct feroce_sb_params *sp, int64_t cycle, const struct feroce_sb_regs *device)
{
    struct feroce_sb_regs g;
    enum feroce_sb_reg bad = 0;
    int due = cycle == s->event_cycle;

    if (feroce_rp_fixed_advance(&s->golden, rp, cycle) != FEROCE_OK)
        return -2;
    if (sp->check_every > 0 && cycle >= s->next_check) {
        due = 1;
        s->next_check = cycle + sp->check_every;
    }
    if (!due || cycle == s->last_checked)
        return 0;
    s->last_checked = cycle;
    s->compared++;
    g = feroce_sb_golden(s);
    if ((sp->compare & FEROCE_SB_RC) && g.rc != device->rc)
        bad = FEROCE_SB_RC;
    else if ((sp->compare & FEROCE_SB_RT) && g.rt != device->rt)
        bad = FEROCE_SB_RT;
    else if ((sp->compare & FEROCE_SB_ALPHA) && g.alpha != device->alpha)
        bad = FEROCE_SB_ALPHA;
    if (!bad)
        return 1;
    if (s->mismatches++ == 0) {
        s->first.cycle = cycle;
        s->first.reg = bad;
        s->first.expected = bad == FEROCE_SB_RC ? g.rc : bad == FEROCE_SB_RT ? g.rt : g.alpha;
        s->first.actual = bad == FEROCE_SB_RC ? device->rc : bad == FEROCE_SB_RT ? device->rt : device->alpha;
        s->first.golden = g;
        s->first.device = *device;
    }
    return -1;
}

const char *feroce_sb_reg_name(enum feroce_sb_reg r)
{
    return r == FEROCE_SB_RC ? "rc" : r == FEROCE_SB_RT ? "rt" : r == FEROCE_SB_ALPHA ? "alpha" : "?";
}

int feroce_sb_message(const struct feroce_sb_state *s, const struct feroce_rp_fixed_params *rp, char *buf,
                      size_t len)
{
    const struct feroce_sb_mismatch *m = &s->first;
    long long t = (long long)feroce_rp_fixed_ns_at(rp, m->cycle);

    if (!s->mismatches)
        return snprintf(buf, len, "no mismatch in %llu comparisons", (unsigned long long)s->compared);
    if (m->reg == FEROCE_SB_ALPHA)
        return snprintf(
            buf, len,
            "first mismatch at cycle %lld (%lld ns): alpha expected %llu (%.9f), actual %llu (%.9f); "
            "%llu of %llu comparisons failed",
            (long long)m->cycle, t, (unsigned long long)m->expected,
            feroce_rp_fixed_alpha_value(rp, (uint32_t)m->expected), (unsigned long long)m->actual,
            feroce_rp_fixed_alpha_value(rp, (uint32_t)m->actual), (unsigned long long)s->mismatches,
            (unsigned long long)s->compared);
    return snprintf(
        buf, len,
        "first mismatch at cycle %lld (%lld ns): %s expected %llu (%.3f b/s), actual %llu (%.3f b/s); "
        "%llu of %llu comparisons failed",
        (long long)m->cycle, t, feroce_sb_reg_name(m->reg), (unsigned long long)m->expected,
        feroce_rp_fixed_bps(rp, m->expected), (unsigned long long)m->actual,
        feroce_rp_fixed_bps(rp, m->actual), (unsigned long long)s->mismatches,
        (unsigned long long)s->compared);
}
