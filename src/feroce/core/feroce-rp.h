/*
 * feroce-rp.h - DCQCN reaction point: the sender's per-QP rate limiter.
 *
 * Implements src/feroce/doc/dcqcn.md
 * exactly.  The caller owns the memory; nothing here allocates, reads a
 * clock or draws a random number.  Time is integer nanoseconds, rates are
 * bits per second.
 *
 * Timers are lazy: no callback runs between calls.  Every call brings the
 * state to its `now` from the elapsed time, processing the alpha, decrease
 * and increase timers that expired in between in time order.  Events at one
 * instant are applied in the spec's order (CNP, alpha tick, decrease tick,
 * increase expiry, transmitted bytes) whatever order the calls come in.
 */
#ifndef FEROCE_RP_H
#define FEROCE_RP_H

#include <stdint.h>

#include "feroce-check.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FEROCE_NEVER INT64_MAX

/*
 * Instants and timer periods lie in [0, FEROCE_TIME_MAX] (2^62 - 1 ns, 146
 * years; cycles for the fixed-point model): an instant plus a period then
 * stays below FEROCE_NEVER, so no timer sum overflows and every lazy catch-up
 * ends.  Calls refuse an instant outside it with FEROCE_E_TIME_RANGE before
 * touching the state; validation refuses longer periods.
 */
#define FEROCE_TIME_MAX (INT64_MAX / 2)

static inline enum feroce_err feroce_time_check(int64_t last, int64_t now)
{
    if (now < 0 || now > FEROCE_TIME_MAX)
        return FEROCE_E_TIME_RANGE;
    return now < last ? FEROCE_E_TIME_BACKWARDS : FEROCE_OK;
}

enum feroce_alpha_mode {
    FEROCE_ALPHA_ON_CNP = 0, /* SIGCOMM'15: update at each CNP, decay on a timer */
    FEROCE_ALPHA_PERIODIC    /* ConnectX: a free-running tick folds in a CNP flag */
};

enum feroce_hai_mode {
    FEROCE_HAI_CONSTANT = 0, /* step R_HAI */
    FEROCE_HAI_LINEAR        /* step R_HAI * (stage - F) */
};

enum feroce_clamp {
    FEROCE_CLAMP_ALWAYS = 0,    /* Rt <- Rc at every cut */
    FEROCE_CLAMP_AFTER_INCREASE /* only after an increase event, or at the first cut */
};

/* Parameters: validated once by feroce_rp_validate(), then read-only. */
struct feroce_rp_params {
    double line_rate_bps;
    double min_rate_bps;  /* floor of every cut */
    double g;             /* alpha gain, (0, 1] */
    double initial_alpha; /* alpha set at the first CNP, [0, 1] */
    enum feroce_alpha_mode alpha_mode;
    int64_t alpha_period_ns;     /* K */
    int64_t decrease_period_ns;  /* D; 0 = cut at each CNP */
    int64_t increase_timer_ns;   /* T */
    uint64_t byte_counter_bytes; /* B; 0 disables the byte counter */
    uint32_t F;                  /* fast-recovery stages */
    double rai_bps;              /* R_AI */
    double rhai_bps;             /* R_HAI */
    enum feroce_hai_mode hai_mode;
    enum feroce_clamp clamp;
    double first_cnp_rate_bps; /* 0, or the rate set at the first CNP */
};

/* The variables of the rate limiter at one instant. */
struct feroce_rp_vars {
    double rc; /* current rate */
    double rt; /* target rate */
    double alpha;
    uint64_t ts;        /* timer stage */
    uint64_t bs;        /* byte stage */
    uint64_t byte_acc;  /* bytes counted towards the next byte-counter event */
    int64_t next_alpha; /* next alpha tick (periodic) or expiry (on_cnp) */
    int64_t next_dec;   /* next decrease tick, FEROCE_NEVER when D = 0 */
    int64_t next_inc;   /* next increase-timer expiry, FEROCE_NEVER before the first cut */
    uint8_t active;     /* a CNP has arrived: timers and byte counter run */
    uint8_t alpha_flag; /* periodic: a CNP since the last alpha tick */
    uint8_t dec_flag;   /* D > 0: a CNP since the last decrease tick */
    uint8_t may_clamp;  /* clamp after_increase: the next cut may set Rt <- Rc */
};

/*
 * One QP's reaction point.  `cur` is the state at `now` as every caller sees
 * it; `base` is the state just before `now` (all timers < now processed) and
 * the counts of the instant let a late CNP at `now` be put back in its place
 * in the order of events.
 */
struct feroce_rp_state {
    struct feroce_rp_vars cur;
    struct feroce_rp_vars base;
    int64_t now;
    uint32_t cnps_now;
    uint64_t bytes_now;
};

/* Parameter sets of src/feroce/doc/dcqcn.md "Presets"; rates scale with line_rate_bps where the preset says
 * so. */
enum feroce_err feroce_rp_preset(struct feroce_rp_params *p, const char *name, double line_rate_bps,
                                 struct feroce_check *why);

/* FEROCE_OK, or the first bad parameter in *why (may be NULL). */
enum feroce_err feroce_rp_validate(const struct feroce_rp_params *p, struct feroce_check *why);

/*
 * Set one parameter by its script name (src/feroce/doc/dcqcn.md, e.g. "g", "alpha_mode",
 * "rai_bps") from text: numbers as strtod reads them, enums by name.  Does not
 * validate ranges; call feroce_rp_validate() after the last change.
 */
enum feroce_err feroce_rp_set_param(struct feroce_rp_params *p, const char *name, const char *value,
                                    struct feroce_check *why);

/* Rc = Rt = line rate, inactive until the first CNP (now is clamped to [0, FEROCE_TIME_MAX]). */
void feroce_rp_init(struct feroce_rp_state *s, const struct feroce_rp_params *p, int64_t now);

/*
 * The calls below return FEROCE_E_TIME_RANGE for a now outside [0, FEROCE_TIME_MAX] and
 * FEROCE_E_TIME_BACKWARDS for a now before the last call's, leaving the state as it was.
 */

/* A CNP arrives at now. */
enum feroce_err feroce_rp_cnp(struct feroce_rp_state *s, const struct feroce_rp_params *p, int64_t now);

/* The QP transmitted `bytes` at now (feeds the byte counter). */
enum feroce_err feroce_rp_tx(struct feroce_rp_state *s, const struct feroce_rp_params *p, int64_t now,
                             uint64_t bytes);

/* Bring the state to now without an event (a query sees every timer at now). */
enum feroce_err feroce_rp_advance(struct feroce_rp_state *s, const struct feroce_rp_params *p, int64_t now);

/* Current rate at the instant of the last call. */
static inline double feroce_rp_rate(const struct feroce_rp_state *s)
{
    return s->cur.rc;
}

/*
 * The earliest instant after the last call at which a timer can change the
 * rate (a pending decrease tick, or an increase expiry while Rc or Rt is below
 * the line rate); FEROCE_NEVER if none.  Alpha ticks change only alpha and are
 * not reported.  A caller that wants to act on rate changes (re-time a paced
 * send, log Rc) calls feroce_rp_advance() at this instant.
 */
int64_t feroce_rp_next_deadline(const struct feroce_rp_state *s, const struct feroce_rp_params *p);

const char *feroce_alpha_mode_name(enum feroce_alpha_mode m);
const char *feroce_hai_mode_name(enum feroce_hai_mode m);
const char *feroce_clamp_name(enum feroce_clamp c);

#ifdef __cplusplus
}
#endif

#endif /* FEROCE_RP_H */
