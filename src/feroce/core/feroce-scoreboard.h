/*
 * feroce-scoreboard.h - a golden-model scoreboard for a firmware DCQCN rate
 * limiter: the core's fixed-point reaction point (feroce-rp-fixed.h), in the
 * device's register formats, fed with the same CNP arrivals and transmitted
 * bytes as the device, compared with the device's Rc, Rt and alpha registers.
 *
 * The bench tells the scoreboard every CNP and every transmitted byte count
 * with the cycle in which the device saw it, and offers the device's
 * registers after every cycle (or only some): the scoreboard compares them in
 * each cycle that had an event and every `check_every` cycles, and keeps the
 * first mismatch (cycle, register, expected, actual).  Pure like the core: no
 * allocation, no I/O; a comparison costs the lazy advance of one reaction
 * point, so a bench may offer every cycle without slowing down.
 */
#ifndef FEROCE_SCOREBOARD_H
#define FEROCE_SCOREBOARD_H

#include <stddef.h>
#include <stdint.h>

#include "feroce-rp-fixed.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which registers are compared. */
enum feroce_sb_reg { FEROCE_SB_RC = 1, FEROCE_SB_RT = 2, FEROCE_SB_ALPHA = 4, FEROCE_SB_ALL = 7 };

struct feroce_sb_params {
    int64_t check_every; /* cycles between periodic comparisons; 0 = only in cycles with an event */
    unsigned compare;    /* FEROCE_SB_* bits */
};

/* A device's registers, in the units of feroce_rp_fixed_regs. */
struct feroce_sb_regs {
    uint64_t rc;
    uint64_t rt;
    uint32_t alpha;
};

struct feroce_sb_mismatch {
    int64_t cycle;
    enum feroce_sb_reg reg; /* the first register that differs */
    uint64_t expected;
    uint64_t actual;
    struct feroce_sb_regs golden; /* all three, expected */
    struct feroce_sb_regs device; /* all three, actual */
};

struct feroce_sb_state {
    struct feroce_rp_fixed_state golden;
    int64_t event_cycle;  /* a CNP or bytes came in this cycle: compare it */
    int64_t next_check;   /* next periodic comparison */
    int64_t last_checked; /* cycle of the last comparison, -1 before the first */
    uint64_t compared;    /* comparisons made */
    uint64_t mismatches;  /* comparisons that failed */
    uint64_t cnps;
    uint64_t tx_bytes;
    struct feroce_sb_mismatch first;
};

enum feroce_err feroce_sb_validate(const struct feroce_sb_params *sp, struct feroce_check *why);

/* The golden model starts in `cycle`: Rc = Rt = line, as a device leaving reset. */
void feroce_sb_init(struct feroce_sb_state *s, const struct feroce_rp_fixed_params *rp, int64_t cycle);

/* The device saw a CNP in `cycle`.  FEROCE_E_TIME_BACKWARDS before the last call's cycle,
 * FEROCE_E_TIME_RANGE outside [0, FEROCE_TIME_MAX]. */
enum feroce_err feroce_sb_cnp(struct feroce_sb_state *s, const struct feroce_rp_fixed_params *rp,
                              int64_t cycle);

/* The device counted `bytes` transmitted in `cycle`. */
enum feroce_err feroce_sb_tx(struct feroce_sb_state *s, const struct feroce_rp_fixed_params *rp,
                             int64_t cycle, uint64_t bytes);

/*
 * The device's registers after every event of `cycle`.  Returns 0 when this
 * cycle is not compared (no event, periodic check not due), 1 when compared
 * and equal, -1 when compared and different (the first such is kept in
 * s->first), -2 when cycle goes back or lies outside [0, FEROCE_TIME_MAX].
 */
int feroce_sb_check(struct feroce_sb_state *s, const struct feroce_rp_fixed_params *rp,
                    const struct feroce_sb_params *sp, int64_t cycle, const struct feroce_sb_regs *device);

/* The golden registers at the last call. */
static inline struct feroce_sb_regs feroce_sb_golden(const struct feroce_sb_state *s)
{
    struct feroce_sb_regs r = { s->golden.cur.rc, s->golden.cur.rt, s->golden.cur.alpha };

    return r;
}

const char *feroce_sb_reg_name(enum feroce_sb_reg r);

/*
 * "first mismatch at cycle C (T ns): rc expected E (X b/s), actual A (Y b/s)"
 * (alpha as a fraction), or "no mismatch in N comparisons".  Like snprintf.
 */
int feroce_sb_message(const struct feroce_sb_state *s, const struct feroce_rp_fixed_params *rp, char *buf,
                      size_t len);

#ifdef __cplusplus
}
#endif

#endif /* FEROCE_SCOREBOARD_H */
