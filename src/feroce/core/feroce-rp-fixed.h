/*
 * feroce-rp-fixed.h - DCQCN reaction point in fixed-point arithmetic: the
 * rate limiter as firmware builds it, register for register.
 *
 * Same rules, same order of events and same presets as the double-precision
 * reaction point (feroce-rp.h, src/feroce/doc/dcqcn.md); what changes is the
 * arithmetic (doc/dcqcn.md, "Fixed-point reaction point", gives the integer
 * recipe of every rule):
 *   - Rc, Rt, min_rate, R_AI, R_HAI, first_cnp_rate and the line rate are
 *     unsigned integers of `rate_bits` bits counting `rate_lsb_bps` each;
 *   - alpha is an unsigned fraction A / 2^alpha_bits with A in [0, 2^alpha_bits]
 *     (alpha_bits + 1 bits, so that alpha = 1 fits); g is G / 2^alpha_bits;
 *   - time is counted in cycles of a clock of `clock_hz`; timers are whole
 *     numbers of cycles; the byte counter counts bytes;
 *   - every product is rounded back to its register by truncation or to the
 *     nearest (ties up), chosen separately for rates and for alpha.
 *
 * Usage (a golden model in a test bench, cycle times from the simulator):
 *
 *     struct feroce_rp_params rules;     // the DCQCN rules: a preset + overrides
 *     struct feroce_rp_fixed_format fmt; // the register formats
 *     struct feroce_rp_fixed_params p;   // both, checked and in register units
 *     struct feroce_rp_fixed_state s;
 *     struct feroce_check why;
 *
 *     feroce_rp_preset(&rules, "paper", 10e9, &why);
 *     feroce_rp_fixed_format_preset(&fmt, "default", &why);
 *     if (feroce_rp_fixed_build(&p, &rules, &fmt, &why) != FEROCE_OK)
 *         ... feroce_check_message(&why, buf, len): names the parameter, value, allowed range
 *     feroce_rp_fixed_init(&s, &p, 0);
 *     feroce_rp_fixed_cnp(&s, &p, cycle);         // a CNP arrives in this cycle
 *     feroce_rp_fixed_tx(&s, &p, cycle, bytes);   // the QP sent bytes in this cycle
 *     feroce_rp_fixed_advance(&s, &p, cycle);     // no event: bring the registers to `cycle`
 *     s.cur.rc, s.cur.rt, s.cur.alpha             // the registers after every event of `cycle`
 *
 * Pure like the rest of the core: the caller owns the memory, nothing
 * allocates, reads a clock or draws a random number.  Timers are lazy: a call
 * processes every timer expiry since the previous call in time order, so a
 * caller may call at events only, or every cycle, or every N cycles, with the
 * same registers.  Events at one cycle are applied in the spec's order (CNP,
 * alpha tick, decrease tick, increase expiry, transmitted bytes) whatever the
 * order of the calls within that cycle.  Calls must not go back in time.
 */
#ifndef FEROCE_RP_FIXED_H
#define FEROCE_RP_FIXED_H

#include <stdint.h>

#include "feroce-check.h"
#include "feroce-rp.h"

#ifdef __cplusplus
extern "C" {
#endif

enum feroce_rounding {
    FEROCE_ROUND_TRUNCATE = 0, /* x >> s: drop the low bits */
    FEROCE_ROUND_NEAREST       /* (x + 2^(s-1)) >> s: to the nearest, ties up */
};

/*
 * The register formats.  Filled by feroce_rp_fixed_format_preset() (or by
 * hand), changed by name with feroce_rp_fixed_set_format(), checked by
 * feroce_rp_fixed_build().
 */
struct feroce_rp_fixed_format {
    uint64_t clock_hz;   /* cycles per second, an integer in [1000, 10e9]; 156250000 = 10GbE, 64-bit path */
    uint32_t rate_bits;  /* width of the Rc and Rt registers, [2, 48] */
    double rate_lsb_bps; /* b/s of one LSB; 0 = line_rate_bps / 2^(rate_bits - 1) */
    uint32_t alpha_bits; /* fraction bits of alpha and g, [1, 31]; rate_bits + alpha_bits <= 62 */
    enum feroce_rounding rate_rounding;  /* the cut's decrement and the increase's average */
    enum feroce_rounding alpha_rounding; /* the alpha products */
};

/*
 * The rules of a struct feroce_rp_params in register units, with the format
 * they were converted for.  Only feroce_rp_fixed_build() writes one; then it
 * is read-only and may be shared by any number of states.
 */
struct feroce_rp_fixed_params {
    struct feroce_rp_fixed_format fmt; /* as given, rate_lsb_bps resolved (never 0 here) */
    struct feroce_rp_params rules;     /* the real-valued rules this was built from */
    /* rate registers (LSBs) */
    uint64_t line;           /* the line rate: the initial and largest Rc and Rt */
    uint64_t min_rate;       /* floor of every cut, >= 1 */
    uint64_t rai;            /* R_AI */
    uint64_t rhai;           /* R_HAI */
    uint64_t first_cnp_rate; /* 0 = none */
    /* alpha registers (units of 2^-alpha_bits) */
    uint32_t alpha_one;     /* 2^alpha_bits: alpha = 1 */
    uint32_t g;             /* G = g x 2^alpha_bits, exact */
    uint32_t initial_alpha; /* initial_alpha x 2^alpha_bits, exact */
    /* timers (cycles) and counters */
    int64_t alpha_period;    /* K, >= 1 */
    int64_t decrease_period; /* D, 0 = cut at each CNP, else >= 1 */
    int64_t increase_timer;  /* T, >= 1 */
    uint64_t byte_counter;   /* B in bytes, 0 disables the byte counter */
    uint32_t F;              /* fast-recovery stages */
    enum feroce_alpha_mode alpha_mode;
    enum feroce_hai_mode hai_mode;
    enum feroce_clamp clamp;
};

/*
 * The registers of one rate limiter at one instant.  rc, rt and alpha are
 * what a firmware rate limiter holds and what a scoreboard compares; the
 * timers are kept as the cycle of their next expiry (a firmware down-counter
 * holds next_* - now).
 */
struct feroce_rp_fixed_regs {
    uint64_t rc;        /* current rate, LSBs */
    uint64_t rt;        /* target rate, LSBs */
    uint32_t alpha;     /* alpha x 2^alpha_bits, in [0, 2^alpha_bits] */
    uint32_t pad_;      /* always 0 */
    uint64_t ts;        /* timer stage */
    uint64_t bs;        /* byte stage */
    uint64_t byte_acc;  /* bytes counted towards the next byte-counter event, < B */
    int64_t next_alpha; /* cycle of the next alpha tick (periodic) or expiry (on_cnp) */
    int64_t next_dec;   /* cycle of the next decrease tick, FEROCE_NEVER when D = 0 */
    int64_t next_inc;   /* cycle of the next increase-timer expiry, FEROCE_NEVER before the first cut */
    uint8_t active;     /* a CNP has arrived: timers and byte counter run */
    uint8_t alpha_flag; /* periodic: a CNP since the last alpha tick */
    uint8_t dec_flag;   /* D > 0: a CNP since the last decrease tick */
    uint8_t may_clamp;  /* clamp after_increase: the next cut may set Rt <- Rc */
};

/*
 * One QP's fixed-point reaction point.  `cur` holds the registers after every
 * event of cycle `now`; `base` and the counts of the cycle let a CNP that is
 * reported after bytes or a query of the same cycle take its place first.
 */
struct feroce_rp_fixed_state {
    struct feroce_rp_fixed_regs cur;
    struct feroce_rp_fixed_regs base;
    int64_t now; /* cycle of the last call */
    uint32_t cnps_now;
    uint64_t bytes_now;
};

/*
 * Register formats by name:
 *   "default": clock 156.25 MHz, Rc/Rt of 32 bits with LSB line_rate / 2^31,
 *              alpha of 16 fraction bits, truncation everywhere;
 *   "surf":    SLAC SURF's RoCEv2 DCQCN (ethernet/RoCEv2/rtl/Dcqcn.vhd):
 *              clock 156.25 MHz, Rc/Rt of 32 bits in bytes/s (LSB 8 b/s),
 *              alpha Q0.10, alpha rounded to nearest, rates truncated.
 * FEROCE_E_UNKNOWN_PRESET for any other name.
 */
enum feroce_err feroce_rp_fixed_format_preset(struct feroce_rp_fixed_format *fmt, const char *name,
                                              struct feroce_check *why);

/*
 * Set one format field by name from text: clock_hz, rate_bits, rate_lsb_bps,
 * alpha_bits (integers or numbers as strtod reads them), rounding (sets both
 * roundings), rate_rounding, alpha_rounding ("truncate" or "nearest").
 * Ranges are checked by feroce_rp_fixed_build().
 */
enum feroce_err feroce_rp_fixed_set_format(struct feroce_rp_fixed_format *fmt, const char *name,
                                           const char *value, struct feroce_check *why);

/*
 * A format from one line of text: a preset name, then comma-separated
 * field=value settings ("surf", "default,alpha_bits=12,rounding=nearest",
 * or only settings, which start from "default").  Errors as
 * feroce_rp_fixed_format_preset() and feroce_rp_fixed_set_format(); a
 * setting without '=' is FEROCE_E_BAD_VALUE.  At most 255 characters.
 */
enum feroce_err feroce_rp_fixed_parse_format(struct feroce_rp_fixed_format *fmt, const char *text,
                                             struct feroce_check *why);

/*
 * Check `rules` (feroce_rp_validate) and `fmt`, convert the rules to register
 * units and write them to *out (untouched on error).  Refused, with the
 * parameter, its value and what is allowed in *why:
 *   - a format field out of range (FEROCE_E_FIXED_CLOCK, _RATE_BITS, _RATE_LSB,
 *     _ALPHA_BITS, _ROUNDING);
 *   - g or initial_alpha not a multiple of 2^-alpha_bits (FEROCE_E_FIXED_G,
 *     FEROCE_E_FIXED_INITIAL_ALPHA): firmware constants are exact;
 *   - a timer shorter than one cycle (FEROCE_E_FIXED_TIMER); timers are
 *     rounded to the nearest whole cycle;
 *   - a line rate beyond the rate register, (2^rate_bits - 1) LSBs
 *     (FEROCE_E_FIXED_LINE_RATE);
 *   - min_rate, or a non-zero R_AI, R_HAI or first_cnp_rate, that rounds to 0
 *     LSB (FEROCE_E_FIXED_RATE_STEP).  Rates are rounded to the nearest LSB.
 */
enum feroce_err feroce_rp_fixed_build(struct feroce_rp_fixed_params *out,
                                      const struct feroce_rp_params *rules,
                                      const struct feroce_rp_fixed_format *fmt, struct feroce_check *why);

/*
 * Rc = Rt = line, alpha = initial alpha, inactive until the first CNP; `now` is a cycle (clamped to
 * [0, FEROCE_TIME_MAX]).  The calls below refuse a cycle outside [0, FEROCE_TIME_MAX] with
 * FEROCE_E_TIME_RANGE, as feroce-rp.h does, leaving the state as it was.
 */
void feroce_rp_fixed_init(struct feroce_rp_fixed_state *s, const struct feroce_rp_fixed_params *p,
                          int64_t now);

/* A CNP arrives in cycle now.  FEROCE_E_TIME_BACKWARDS if now < s->now (state unchanged). */
enum feroce_err feroce_rp_fixed_cnp(struct feroce_rp_fixed_state *s, const struct feroce_rp_fixed_params *p,
                                    int64_t now);

/* The QP transmitted `bytes` in cycle now (feeds the byte counter). */
enum feroce_err feroce_rp_fixed_tx(struct feroce_rp_fixed_state *s, const struct feroce_rp_fixed_params *p,
                                   int64_t now, uint64_t bytes);

/* Bring the registers to cycle now without an event. */
enum feroce_err feroce_rp_fixed_advance(struct feroce_rp_fixed_state *s,
                                        const struct feroce_rp_fixed_params *p, int64_t now);

/*
 * The earliest cycle after the last call at which a timer can change Rc or Rt
 * (a pending decrease tick, or an increase expiry that would move Rc or Rt);
 * FEROCE_NEVER if none.  Alpha ticks are not reported.
 */
int64_t feroce_rp_fixed_next_deadline(const struct feroce_rp_fixed_state *s,
                                      const struct feroce_rp_fixed_params *p);

/* The cycle in which instant t_ns falls: floor(t_ns x clock_hz / 1e9), exact; 0 for t_ns < 0, FEROCE_NEVER
 * when the cycle is beyond FEROCE_TIME_MAX (a call given it refuses it). */
int64_t feroce_rp_fixed_cycle_at(const struct feroce_rp_fixed_params *p, int64_t t_ns);

/* The first whole ns at or after the start of `cycle`: ceil(cycle x 1e9 / clock_hz), exact; FEROCE_NEVER
 * beyond FEROCE_TIME_MAX ns. */
int64_t feroce_rp_fixed_ns_at(const struct feroce_rp_fixed_params *p, int64_t cycle);

/* A rate register in b/s: reg x rate_lsb_bps. */
static inline double feroce_rp_fixed_bps(const struct feroce_rp_fixed_params *p, uint64_t reg)
{
    return (double)reg * p->fmt.rate_lsb_bps;
}

/* The alpha register as a real number: reg / 2^alpha_bits. */
static inline double feroce_rp_fixed_alpha_value(const struct feroce_rp_fixed_params *p, uint32_t reg)
{
    return (double)reg / (double)p->alpha_one;
}

/* Current rate Rc in b/s after the last call. */
static inline double feroce_rp_fixed_rate(const struct feroce_rp_fixed_state *s,
                                          const struct feroce_rp_fixed_params *p)
{
    return feroce_rp_fixed_bps(p, s->cur.rc);
}

const char *feroce_rounding_name(enum feroce_rounding r);

#ifdef __cplusplus
}
#endif

#endif /* FEROCE_RP_FIXED_H */
