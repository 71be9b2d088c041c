/*
 * feroce-check.c - names and messages of validation errors.
 */
#include "feroce-check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static const char *const err_names[FEROCE_E_COUNT] = {
    [FEROCE_OK] = "FEROCE_OK",
    [FEROCE_E_RP_LINE_RATE] = "FEROCE_E_RP_LINE_RATE",
    [FEROCE_E_RP_MIN_RATE] = "FEROCE_E_RP_MIN_RATE",
    [FEROCE_E_RP_G] = "FEROCE_E_RP_G",
    [FEROCE_E_RP_INITIAL_ALPHA] = "FEROCE_E_RP_INITIAL_ALPHA",
    [FEROCE_E_RP_ALPHA_MODE] = "FEROCE_E_RP_ALPHA_MODE",
    [FEROCE_E_RP_ALPHA_PERIOD] = "FEROCE_E_RP_ALPHA_PERIOD",
    [FEROCE_E_RP_DECREASE_PERIOD] = "FEROCE_E_RP_DECREASE_PERIOD",
    [FEROCE_E_RP_INCREASE_TIMER] = "FEROCE_E_RP_INCREASE_TIMER",
    [FEROCE_E_RP_F] = "FEROCE_E_RP_F",
    [FEROCE_E_RP_RAI] = "FEROCE_E_RP_RAI",
    [FEROCE_E_RP_RHAI] = "FEROCE_E_RP_RHAI",
    [FEROCE_E_RP_HAI_MODE] = "FEROCE_E_RP_HAI_MODE",
    [FEROCE_E_RP_CLAMP] = "FEROCE_E_RP_CLAMP",
    [FEROCE_E_RP_FIRST_CNP_RATE] = "FEROCE_E_RP_FIRST_CNP_RATE",
    [FEROCE_E_NP_INTERVAL] = "FEROCE_E_NP_INTERVAL",
    [FEROCE_E_NP_SCOPE] = "FEROCE_E_NP_SCOPE",
    [FEROCE_E_CP_KMIN_KMAX] = "FEROCE_E_CP_KMIN_KMAX",
    [FEROCE_E_CP_PMAX] = "FEROCE_E_CP_PMAX",
    [FEROCE_E_CP_MARK_POINT] = "FEROCE_E_CP_MARK_POINT",
    [FEROCE_E_PFC_MODE] = "FEROCE_E_PFC_MODE",
    [FEROCE_E_PFC_XOFF] = "FEROCE_E_PFC_XOFF",
    [FEROCE_E_PFC_XON] = "FEROCE_E_PFC_XON",
    [FEROCE_E_PFC_ALPHA] = "FEROCE_E_PFC_ALPHA",
    [FEROCE_E_UNKNOWN_PARAM] = "FEROCE_E_UNKNOWN_PARAM",
    [FEROCE_E_BAD_VALUE] = "FEROCE_E_BAD_VALUE",
    [FEROCE_E_UNKNOWN_PRESET] = "FEROCE_E_UNKNOWN_PRESET",
    [FEROCE_E_TIME_BACKWARDS] = "FEROCE_E_TIME_BACKWARDS",
    [FEROCE_E_FIXED_CLOCK] = "FEROCE_E_FIXED_CLOCK",
    [FEROCE_E_FIXED_RATE_BITS] = "FEROCE_E_FIXED_RATE_BITS",
    [FEROCE_E_FIXED_RATE_LSB] = "FEROCE_E_FIXED_RATE_LSB",
    [FEROCE_E_FIXED_ALPHA_BITS] = "FEROCE_E_FIXED_ALPHA_BITS",
    [FEROCE_E_FIXED_ROUNDING] = "FEROCE_E_FIXED_ROUNDING",
    [FEROCE_E_FIXED_G] = "FEROCE_E_FIXED_G",
    [FEROCE_E_FIXED_INITIAL_ALPHA] = "FEROCE_E_FIXED_INITIAL_ALPHA",
    [FEROCE_E_FIXED_TIMER] = "FEROCE_E_FIXED_TIMER",
    [FEROCE_E_FIXED_LINE_RATE] = "FEROCE_E_FIXED_LINE_RATE",
    [FEROCE_E_FIXED_RATE_STEP] = "FEROCE_E_FIXED_RATE_STEP",
    [FEROCE_E_TIME_RANGE] = "FEROCE_E_TIME_RANGE",
};

const char *feroce_err_name(enum feroce_err code)
{
    if ((unsigned)code >= FEROCE_E_COUNT || !err_names[code])
        return "FEROCE_E_UNKNOWN";
    return err_names[code];
}

enum feroce_err feroce_fail(struct feroce_check *why, enum feroce_err code, const char *param, double value,
                            const char *allowed_fmt, ...)
{
    va_list ap;

    if (!why)
        return code;
    why->code = code;
    why->param = param;
    why->value = value;
    why->text[0] = '\0';
    va_start(ap, allowed_fmt);
    vsnprintf(why->allowed, sizeof why->allowed, allowed_fmt, ap);
    va_end(ap);
    return code;
}

enum feroce_err feroce_fail_text(struct feroce_check *why, enum feroce_err code, const char *param,
                                 const char *text, const char *allowed)
{
    if (!why)
        return code;
    feroce_fail(why, code, param, 0.0, "%s", allowed);
    snprintf(why->text, sizeof why->text, "\"%s\"", text);
    return code;
}

int feroce_check_message(const struct feroce_check *why, char *buf, size_t len)
{
    char value[32];

    if (why->code == FEROCE_OK)
        return snprintf(buf, len, "ok");
    if (why->text[0])
        return snprintf(buf, len, "%s = %s is not allowed: expected %s", why->param ? why->param : "?",
                        why->text, why->allowed);
    /* shortest of %.15g / %.17g that reads back as the same double */
    snprintf(value, sizeof value, "%.15g", why->value);
    if (strtod(value, NULL) != why->value)
        snprintf(value, sizeof value, "%.17g", why->value);
    return snprintf(buf, len, "%s = %s is not allowed: expected %s", why->param ? why->param : "?", value,
                    why->allowed);
}
