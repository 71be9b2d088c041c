/*
 * sweep-axis.c - axes, scales and short names of a sweep's pictures (sweep-axis.h).
 */
#include "sweep-axis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct unit {
    const char *name;
    double factor;
};

/* ns-3's Time units (Time::SetResolution's names, and min/h/d) in seconds */
static const struct unit time_units[] = { { "fs", 1e-15 }, { "ps", 1e-12 }, { "ns", 1e-9 }, { "us", 1e-6 },
                                          { "ms", 1e-3 },  { "s", 1 },      { "min", 60 },  { "h", 3600 },
                                          { "d", 86400 },  { NULL, 0 } };
/* ns-3's DataRate prefixes */
static const struct unit rate_prefixes[] = { { "Ki", 1024.0 },
                                             { "Mi", 1024.0 * 1024 },
                                             { "Gi", 1024.0 * 1024 * 1024 },
                                             { "Ti", 1024.0 * 1024 * 1024 * 1024 },
                                             { "k", 1e3 },
                                             { "K", 1e3 },
                                             { "M", 1e6 },
                                             { "G", 1e9 },
                                             { "T", 1e12 },
                                             { "", 1 },
                                             { NULL, 0 } };
/* the units a picture shows, largest first */
static const struct unit time_show[] = {
    { "s", 1 }, { "ms", 1e-3 }, { "us", 1e-6 }, { "ns", 1e-9 }, { NULL, 0 }
};
static const struct unit rate_show[] = { { "Tb/s", 1e12 }, { "Gb/s", 1e9 }, { "Mb/s", 1e6 },
                                         { "kb/s", 1e3 },  { "b/s", 1 },    { NULL, 0 } };

static int rate_unit(const char *u, double *factor)
{
    for (const struct unit *p = rate_prefixes; p->name; p++) {
        size_t n = strlen(p->name);
        if (strncmp(u, p->name, n) != 0)
            continue;
        const char *rest = u + n;
        if (strcmp(rest, "bps") == 0 || strcmp(rest, "b/s") == 0) {
            *factor = p->factor;
            return 1;
        }
        if (strcmp(rest, "Bps") == 0 || strcmp(rest, "B/s") == 0) {
            *factor = 8 * p->factor;
            return 1;
        }
    }
    return 0;
}

int sweep_value_number(const char *s, double *v, enum sweep_dim *dim)
{
    char *end;
    double x = strtod(s, &end);
    if (end == s || !isfinite(x))
        return 0;
    if (*end == '\0') {
        *v = x;
        *dim = SWEEP_DIM_NUMBER;
        return 1;
    }
    for (const struct unit *u = time_units; u->name; u++)
        if (strcmp(end, u->name) == 0) {
            *v = x * u->factor;
            *dim = SWEEP_DIM_TIME;
            return 1;
        }
    double factor;
    if (rate_unit(end, &factor)) {
        *v = x * factor;
        *dim = SWEEP_DIM_RATE;
        return 1;
    }
    return 0;
}

/* gaps between sorted values: largest over smallest (1: evenly spaced) */
static double gap_ratio(const double *sorted, size_t n, int in_log)
{
    double lo = INFINITY, hi = 0;
    for (size_t i = 1; i < n; i++) {
        double g = in_log ? log(sorted[i]) - log(sorted[i - 1]) : sorted[i] - sorted[i - 1];
        lo = g < lo ? g : lo;
        hi = g > hi ? g : hi;
    }
    return lo > 0 ? hi / lo : INFINITY;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

void sweep_axis_init(struct sweep_axis *a, const struct sweep_param *p, int want_log)
{
    memset(a, 0, sizeof *a);
    a->n = p->values.n;
    a->at = xcalloc(a->n ? a->n : 1, sizeof *a->at);
    a->unit = "";
    a->numeric = 1;
    for (size_t i = 0; i < a->n && a->numeric; i++) {
        enum sweep_dim dim;
        if (!sweep_value_number(p->values.v[i], &a->at[i], &dim) || (i > 0 && dim != a->dim))
            a->numeric = 0;
        a->dim = dim;
    }
    if (!a->numeric) {
        for (size_t i = 0; i < a->n; i++)
            a->at[i] = (double)i;
        a->dim = SWEEP_DIM_NUMBER;
        return;
    }
    double lo = INFINITY, hi = 0, logs = 0;
    size_t nonzero = 0;
    for (size_t i = 0; i < a->n; i++) {
        lo = a->at[i] < lo ? a->at[i] : lo;
        hi = fabs(a->at[i]) > hi ? fabs(a->at[i]) : hi;
        if (a->at[i] != 0) {
            logs += log(fabs(a->at[i]));
            nonzero++;
        }
    }
    if (a->dim != SWEEP_DIM_NUMBER) {
        /* the largest unit in which the values' geometric mean is at least 1 (10us..1ms: us) */
        double typical = nonzero ? exp(logs / (double)nonzero) : 0;
        const struct unit *u = a->dim == SWEEP_DIM_TIME ? time_show : rate_show;
        while (u[1].name && typical / u->factor < 1)
            u++;
        a->unit = u->name;
        for (size_t i = 0; i < a->n; i++)
            a->at[i] /= u->factor;
    }
    if (want_log == SWEEP_SCALE_LOG || want_log == SWEEP_SCALE_LIN) {
        a->log = want_log == SWEEP_SCALE_LOG && lo > 0;
        return;
    }
    if (lo <= 0)
        return;
    if (p->range == SWEEP_LOG) {
        a->log = 1;
        return;
    }
    if (a->n < 3 || hi / lo < 10)
        return;
    double *sorted = xmalloc(a->n * sizeof *sorted);
    memcpy(sorted, a->at, a->n * sizeof *sorted);
    qsort(sorted, a->n, sizeof *sorted, by_value);
    a->log = gap_ratio(sorted, a->n, 1) < gap_ratio(sorted, a->n, 0);
    free(sorted);
}

void sweep_axis_free(struct sweep_axis *a)
{
    free(a->at);
    memset(a, 0, sizeof *a);
}

int sweep_metric_log(const double *v, size_t n, int want_log)
{
    double lo = INFINITY, hi = 0;
    int negative = 0;
    for (size_t i = 0; i < n; i++) {
        if (isnan(v[i]))
            continue;
        if (v[i] < 0)
            negative = 1;
        else if (v[i] > 0) {
            lo = v[i] < lo ? v[i] : lo;
            hi = v[i] > hi ? v[i] : hi;
        }
    }
    if (hi <= 0 || want_log == SWEEP_SCALE_LIN)
        return 0;
    if (want_log == SWEEP_SCALE_LOG)
        return !negative;
    return !negative && hi / lo >= 100;
}

/* "Type::Attribute" of "ns3::Type::Attribute", or NULL */
static const char *attribute_of(const char *name)
{
    if (strncmp(name, "ns3::", 5) != 0)
        return NULL;
    const char *sep = strstr(name + 5, "::");
    return sep && sep[2] ? name + 5 : NULL;
}

/* the part a short name keeps: Attribute, or the name itself */
static const char *shortest(const char *name)
{
    const char *typed = attribute_of(name);
    return typed ? strstr(typed, "::") + 2 : name;
}

char *sweep_short_name(const struct sweep_file *sf, const char *name)
{
    const char *typed = attribute_of(name);
    if (!typed)
        return xstrdup(name);
    const char *attr = shortest(name);
    size_t same = 0;
    for (size_t i = 0; i < sf->n_params; i++)
        same += strcmp(shortest(sf->params[i].name), attr) == 0;
    for (size_t i = 0; i < sf->flags.n; i++) {
        const char *f = sf->flags.v[i];
        if (strncmp(f, "--", 2) != 0 || !strchr(f, '='))
            continue;
        char *flag = xstrdup(f + 2);
        *strchr(flag, '=') = '\0';
        same += strcmp(flag, name) != 0 && strcmp(shortest(flag), attr) == 0;
        free(flag);
    }
    return xstrdup(same <= 1 ? attr : typed);
}

long sweep_plot_param(const struct sweep_file *sf, const char *name)
{
    long k = sweep_file_param(sf, name), found = -1;
    if (k >= 0)
        return k;
    for (size_t i = 0; i < sf->n_params; i++) {
        char *shown = sweep_short_name(sf, sf->params[i].name);
        if (strcmp(shown, name) == 0)
            found = found < 0 ? (long)i : -2;
        free(shown);
    }
    return found < 0 ? -1 : found;
}

char *sweep_fixed_flags(const struct sweep_file *sf)
{
    size_t len = 1;
    for (size_t i = 0; i < sf->flags.n; i++)
        len += strlen(sf->flags.v[i]) + 2;
    char *out = xmalloc(len);
    out[0] = '\0';
    for (size_t i = 0; i < sf->flags.n; i++) {
        const char *f = sf->flags.v[i];
        if (strncmp(f, "--", 2) == 0)
            f += 2;
        char *flag = xstrdup(f);
        char *value = strchr(flag, '=');
        if (value)
            *value++ = '\0';
        char *name = sweep_short_name(sf, flag);
        if (*out)
            strcat(out, ", ");
        strcat(out, name);
        if (value) {
            strcat(out, "=");
            strcat(out, value);
        }
        free(name);
        free(flag);
    }
    return out;
}
