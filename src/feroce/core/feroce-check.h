/*
 * feroce-check.h - named validation errors of the feroce core.
 *
 * Every validate function fills a struct feroce_check when a parameter is
 * out of range; feroce_check_message() turns it into one line naming the
 * parameter, the value and what is allowed.  No I/O: the caller prints it.
 */
#ifndef FEROCE_CHECK_H
#define FEROCE_CHECK_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum feroce_err {
    FEROCE_OK = 0,
    /* reaction point */
    FEROCE_E_RP_LINE_RATE,
    FEROCE_E_RP_MIN_RATE,
    FEROCE_E_RP_G,
    FEROCE_E_RP_INITIAL_ALPHA,
    FEROCE_E_RP_ALPHA_MODE,
    FEROCE_E_RP_ALPHA_PERIOD,
    FEROCE_E_RP_DECREASE_PERIOD,
    FEROCE_E_RP_INCREASE_TIMER,
    FEROCE_E_RP_F,
    FEROCE_E_RP_RAI,
    FEROCE_E_RP_RHAI,
    FEROCE_E_RP_HAI_MODE,
    FEROCE_E_RP_CLAMP,
    FEROCE_E_RP_FIRST_CNP_RATE,
    /* notification point */
    FEROCE_E_NP_INTERVAL,
    FEROCE_E_NP_SCOPE,
    /* congestion point */
    FEROCE_E_CP_KMIN_KMAX,
    FEROCE_E_CP_PMAX,
    FEROCE_E_CP_MARK_POINT,
    /* PFC thresholds */
    FEROCE_E_PFC_MODE,
    FEROCE_E_PFC_XOFF,
    FEROCE_E_PFC_XON,
    FEROCE_E_PFC_ALPHA,
    /* names, presets and calls */
    FEROCE_E_UNKNOWN_PARAM,
    FEROCE_E_BAD_VALUE,
    FEROCE_E_UNKNOWN_PRESET,
    FEROCE_E_TIME_BACKWARDS,
    /* fixed-point reaction point: register formats */
    FEROCE_E_FIXED_CLOCK,
    FEROCE_E_FIXED_RATE_BITS,
    FEROCE_E_FIXED_RATE_LSB,
    FEROCE_E_FIXED_ALPHA_BITS,
    FEROCE_E_FIXED_ROUNDING,
    FEROCE_E_FIXED_G,
    FEROCE_E_FIXED_INITIAL_ALPHA,
    FEROCE_E_FIXED_TIMER,
    FEROCE_E_FIXED_LINE_RATE,
    FEROCE_E_FIXED_RATE_STEP,
    /* an instant outside [0, FEROCE_TIME_MAX] (feroce-rp.h) */
    FEROCE_E_TIME_RANGE,
    FEROCE_E_COUNT /* number of codes, not an error */
};

/* Why a check failed: which parameter, its value, and the allowed set. */
struct feroce_check {
    enum feroce_err code;
    const char *param; /* parameter name as in src/feroce/doc/dcqcn.md */
    double value;      /* the bad value, when it is a number */
    char text[48];     /* the bad value as given, when it is not a number ("" otherwise) */
    char allowed[256]; /* e.g. "(0, 1]" or "<= kmax_bytes (200000)" */
};

/* Short fixed name of a code, e.g. "FEROCE_E_RP_G". */
const char *feroce_err_name(enum feroce_err code);

/*
 * Write "NAME = VALUE is not allowed: expected ALLOWED" into buf (always
 * NUL-terminated when len > 0).  Returns the length snprintf would write.
 */
int feroce_check_message(const struct feroce_check *why, char *buf, size_t len);

/*
 * Record a failed check; returns code so validators can `return feroce_fail(...)`.
 * feroce_fail_text() records a bad value that is text (an unknown name).
 */
enum feroce_err feroce_fail(struct feroce_check *why, enum feroce_err code, const char *param, double value,
                            const char *allowed_fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
enum feroce_err feroce_fail_text(struct feroce_check *why, enum feroce_err code, const char *param,
                                 const char *text, const char *allowed);

#ifdef __cplusplus
}
#endif

#endif /* FEROCE_CHECK_H */
