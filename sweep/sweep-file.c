/*
 * sweep-file.c - reading and checking a sweep file (sweep-file.h; the format
 * is documented in src/feroce/doc/sweep-reference.md).
 *
 * One directive per line, words separated by blanks, "double quotes" around a
 * word with blanks in it, "#" at the start of a word begins a comment.  Every
 * error names the file, the line, the value and what was expected.
 */
#define _POSIX_C_SOURCE 200809L
#include "sweep-file.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "feroce-db.h"
#include "feroce-number.h"
#include "sweep-axis.h"

#define MAX_VALUES       100000
#define MAX_REPLICATIONS 100000
#define MAX_BATCH        100000

/* the flags feroce-sweep sets itself, for every point */
static const char *const reserved[] = { "outdir", "RngRun", "db", NULL };

struct parser {
    const char *path;
    int line;
    char *err;
    size_t errlen;
    struct sweep_file *sf;
    int name_line, combine_line, replications_line, timeout_line, metrics_line, batch_line;
    int combine_zip;
    struct strv zips; /* each zip line's names, blank separated */
    int *zip_lines;
};

static int fail(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct parser *p, const char *fmt, ...)
{
    int n = p->line > 0 ? snprintf(p->err, p->errlen, "%s:%d: ", p->path, p->line)
                        : snprintf(p->err, p->errlen, "%s: ", p->path);
    if (n < 0 || (size_t)n >= p->errlen)
        return -1;
    char raw[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    /* the file's bytes as \xNN where they are not printable: one line, the terminal untouched */
    size_t o = (size_t)n;
    for (const unsigned char *c = (const unsigned char *)raw; *c && o + 5 < p->errlen; c++) {
        if (*c < 0x20 || *c >= 0x7f)
            o += (size_t)snprintf(p->err + o, p->errlen - o, "\\x%02x", *c);
        else
            p->err[o++] = (char)*c;
    }
    p->err[o] = '\0';
    return -1;
}

/* Splits a line into words; returns -1 (message in p) on an unterminated quote. */
static int split(struct parser *p, const char *line, struct strv *words)
{
    const char *c = line;
    char *buf = xmalloc(strlen(line) + 1);
    for (;;) {
        while (*c == ' ' || *c == '\t' || *c == '\r')
            c++;
        if (*c == '\0' || *c == '#')
            break;
        size_t n = 0;
        while (*c && *c != ' ' && *c != '\t' && *c != '\r') {
            if (*c == '"') {
                c++;
                while (*c && *c != '"') {
                    if (*c == '\\' && (c[1] == '"' || c[1] == '\\'))
                        c++;
                    buf[n++] = *c++;
                }
                if (*c != '"') {
                    free(buf);
                    return fail(p, "a quote \" is not closed: expected \"...\" on one line");
                }
                c++;
            } else {
                buf[n++] = *c++;
            }
        }
        buf[n] = '\0';
        strv_push(words, buf);
    }
    free(buf);
    return 0;
}

static int name_ok(const char *s)
{
    if (!isalpha((unsigned char)*s))
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && !strchr("_:.-", *s))
            return 0;
    return 1;
}

int sweep_metric_name_ok(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return 0;
    return 1;
}

static int is_reserved(const char *name)
{
    for (int i = 0; reserved[i]; i++)
        if (strcmp(name, reserved[i]) == 0)
            return 1;
    return 0;
}

static int is_integer_literal(const char *s)
{
    if (*s == '-' || *s == '+')
        s++;
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return 0;
    return 1;
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The value of a range point as the program will see it. */
static char *format_value(double v, int integer)
{
    if (integer)
        return xasprintf("%.0f", v);
    char *s = xasprintf("%.10g", v);
    if (strcmp(s, "-0") == 0) {
        free(s);
        s = xstrdup("0");
    }
    return s;
}

/* The flag name of "--name=value" or "--name" (new string), or NULL. */
static char *flag_name(const char *flag)
{
    if (strncmp(flag, "--", 2) != 0 || !flag[2] || flag[2] == '=')
        return NULL;
    const char *eq = strchr(flag, '=');
    size_t n = eq ? (size_t)(eq - flag - 2) : strlen(flag + 2);
    char *name = xmalloc(n + 1);
    memcpy(name, flag + 2, n);
    name[n] = '\0';
    return name;
}

static long flag_index(const struct sweep_file *sf, const char *name)
{
    for (size_t i = 0; i < sf->flags.n; i++) {
        char *f = flag_name(sf->flags.v[i]);
        int same = f && strcmp(f, name) == 0;
        free(f);
        if (same)
            return (long)i;
    }
    return -1;
}

long sweep_file_param(const struct sweep_file *sf, const char *name)
{
    for (size_t i = 0; i < sf->n_params; i++)
        if (strcmp(sf->params[i].name, name) == 0)
            return (long)i;
    return -1;
}

static int once(struct parser *p, int *seen, const char *what)
{
    if (*seen)
        return fail(p, "%s is given twice (first on line %d): expected one %s line", what, *seen, what);
    *seen = p->line;
    return 0;
}

static int want_args(struct parser *p, const struct strv *w, size_t n, const char *usage)
{
    if (w->n != n + 1)
        return fail(p, "%s takes %zu value%s, found %zu: expected \"%s\"", w->v[0], n, n == 1 ? "" : "s",
                    w->n - 1, usage);
    return 0;
}

static int parse_range(struct parser *p, struct sweep_param *param, const struct strv *w)
{
    const char *kind = w->v[2];
    if (w->n != 6)
        return fail(
            p, "param %s %s takes FROM TO COUNT, found %zu value%s: expected \"param %s %s FROM TO COUNT\"",
            param->name, kind, w->n - 3, w->n - 3 == 1 ? "" : "s", param->name, kind);
    double from, to;
    long count;
    if (!parse_double(w->v[3], &from))
        return fail(p, "param %s: FROM = \"%s\" is not allowed: expected a number", param->name, w->v[3]);
    if (!parse_double(w->v[4], &to))
        return fail(p, "param %s: TO = \"%s\" is not allowed: expected a number", param->name, w->v[4]);
    if (!parse_long(w->v[5], 2, MAX_VALUES, &count))
        return fail(p, "param %s: COUNT = \"%s\" is not allowed: expected an integer in [2, %d]", param->name,
                    w->v[5], MAX_VALUES);
    if (param->range == SWEEP_LOG && (from <= 0 || to <= 0))
        return fail(p, "param %s log: FROM = %s and TO = %s are not allowed: expected both > 0", param->name,
                    w->v[3], w->v[4]);
    if (from == to)
        return fail(p, "param %s: FROM = TO = %s: expected two different ends (or \"list\" for one value)",
                    param->name, w->v[3]);
    int integer = is_integer_literal(w->v[3]) && is_integer_literal(w->v[4]);
    for (long i = 0; i < count; i++) {
        double f = (double)i / (double)(count - 1), v;
        if (i == count - 1)
            v = to;
        else if (param->range == SWEEP_LIN)
            v = from + (to - from) * f;
        else
            v = from * pow(to / from, f);
        if (integer)
            v = nearbyint(v);
        char *s = format_value(v, integer);
        /* the values are monotone: a repeat after rounding is the previous one */
        if (param->values.n > 0 && strcmp(param->values.v[param->values.n - 1], s) == 0) {
            free(s);
            return fail(
                p,
                "param %s: %ld values from %s to %s repeat after rounding to integers (integer ends "
                "give integer values): expected fewer values, or ends written as decimals (e.g. %s.0)",
                param->name, count, w->v[3], w->v[4], w->v[3]);
        }
        strv_push(&param->values, s);
        free(s);
    }
    return 0;
}

static int parse_param(struct parser *p, const struct strv *w)
{
    struct sweep_file *sf = p->sf;
    if (w->n < 3)
        return fail(
            p, "param needs a name and values: expected \"param NAME list V...\", \"param NAME lin FROM TO "
               "COUNT\" or \"param NAME log FROM TO COUNT\"");
    const char *name = w->v[1];
    if (!name_ok(name))
        return fail(p,
                    "parameter name \"%s\" is not allowed: expected a flag name without \"--\": a letter, "
                    "then letters, digits, _ - . and :, e.g. kmin or ns3::FeroceSwitch::Kmin",
                    name);
    if (is_reserved(name))
        return fail(p, "parameter \"%s\" is not allowed: feroce-sweep sets --%s itself for each point", name,
                    name);
    long prev = sweep_file_param(sf, name);
    if (prev >= 0)
        return fail(p, "parameter \"%s\" is given twice (first on line %d): expected one param line per name",
                    name, sf->params[prev].line);
    long flag = flag_index(sf, name);
    if (flag >= 0)
        return fail(p, "parameter \"%s\" is also a fixed flag (%s): expected it in one place only", name,
                    sf->flags.v[flag]);
    sf->params = xrealloc(sf->params, (sf->n_params + 1) * sizeof *sf->params);
    struct sweep_param *param = &sf->params[sf->n_params++];
    memset(param, 0, sizeof *param);
    param->name = xstrdup(name);
    param->zip = -1;
    param->line = p->line;
    const char *kind = w->v[2];
    if (strcmp(kind, "list") == 0) {
        param->range = SWEEP_LIST;
        if (w->n < 4)
            return fail(p, "param %s list has no values: expected \"param %s list V...\"", name, name);
        if (w->n - 3 > MAX_VALUES)
            return fail(p, "param %s: %zu values: expected at most %d", name, w->n - 3, MAX_VALUES);
        for (size_t i = 3; i < w->n; i++) {
            if (!*w->v[i])
                return fail(p, "param %s: an empty value \"\" is not allowed: expected a value", name);
            strv_push(&param->values, w->v[i]);
        }
        /* each value once: sorted, a repeat is next to its twin */
        const char **sorted = xmalloc(param->values.n * sizeof *sorted);
        memcpy(sorted, param->values.v, param->values.n * sizeof *sorted);
        qsort(sorted, param->values.n, sizeof *sorted, compare_strings);
        for (size_t i = 1; i < param->values.n; i++)
            if (strcmp(sorted[i - 1], sorted[i]) == 0) {
                char *twice = xstrdup(sorted[i]);
                free(sorted);
                int rc =
                    fail(p, "param %s: value \"%s\" is given twice: expected each value once", name, twice);
                free(twice);
                return rc;
            }
        free(sorted);
        return 0;
    }
    if (strcmp(kind, "lin") == 0 || strcmp(kind, "log") == 0) {
        param->range = kind[1] == 'i' ? SWEEP_LIN : SWEEP_LOG;
        return parse_range(p, param, w);
    }
    return fail(p, "param %s: \"%s\" is not allowed: expected list, lin or log", name, kind);
}

static int parse_flags(struct parser *p, const struct strv *w)
{
    struct sweep_file *sf = p->sf;
    if (w->n < 2)
        return fail(p, "flags has no flags: expected \"flags --NAME=VALUE...\"");
    for (size_t i = 1; i < w->n; i++) {
        char *name = flag_name(w->v[i]);
        if (!name)
            return fail(p, "flag \"%s\" is not allowed: expected --NAME=VALUE", w->v[i]);
        if (is_reserved(name)) {
            fail(p, "flag \"%s\" is not allowed: feroce-sweep sets --%s itself for each point", w->v[i],
                 name);
            free(name);
            return -1;
        }
        long param = sweep_file_param(sf, name);
        long dup = flag_index(sf, name);
        if (param >= 0 || dup >= 0) {
            if (param >= 0)
                fail(p, "flag \"%s\" is also a swept parameter (line %d): expected it in one place only",
                     w->v[i], sf->params[param].line);
            else
                fail(p, "flag \"%s\" is given twice (also %s): expected each flag once", w->v[i],
                     sf->flags.v[dup]);
            free(name);
            return -1;
        }
        free(name);
        strv_push(&sf->flags, w->v[i]);
    }
    return 0;
}

static int parse_timeout(struct parser *p, const char *s)
{
    /* a number by the one grammar (feroce-number.h), then no unit (seconds), s, m or h */
    const char *end = NULL;
    double v = 0;
    double unit = 0;
    if (feroce_number_real(s, &v, &end) != 0)
        unit = 0;
    else if (strcmp(end, "") == 0 || strcmp(end, "s") == 0)
        unit = 1;
    else if (strcmp(end, "m") == 0)
        unit = 60;
    else if (strcmp(end, "h") == 0)
        unit = 3600;
    if (unit == 0 || v <= 0 || !isfinite(v * unit))
        return fail(p, "timeout = \"%s\" is not allowed: expected seconds > 0 (e.g. 600, 90s, 10m, 2h)", s);
    p->sf->timeout_s = v * unit;
    return 0;
}

static int parse_require(struct parser *p, const struct strv *w)
{
    static const char *const ops[] = { "<", "<=", ">", ">=", "==", "!=", NULL };
    if (w->n != 4)
        return fail(p, "require takes A OP B, found %zu word%s: expected e.g. \"require kmin < kmax\"",
                    w->n - 1, w->n == 2 ? "" : "s");
    int op = -1;
    for (int i = 0; ops[i]; i++)
        if (strcmp(w->v[2], ops[i]) == 0)
            op = i;
    if (op < 0)
        return fail(p, "require: operator \"%s\" is not allowed: expected <, <=, >, >=, == or !=", w->v[2]);
    struct sweep_file *sf = p->sf;
    sf->requires = xrealloc(sf->requires, (sf->n_requires + 1) * sizeof *sf->requires);
    struct sweep_require *r = &sf->requires[sf->n_requires++];
    r->lhs = xstrdup(w->v[1]);
    r->rhs = xstrdup(w->v[3]);
    snprintf(r->op, sizeof r->op, "%s", ops[op]);
    r->line = p->line;
    return 0;
}

static int parse_plot(struct parser *p, const struct strv *w)
{
    static const char usage[] =
        "expected \"plot heatmap METRIC X Y [NAME=VALUE...]\" or \"plot lines METRIC X "
        "SERIES [NAME=VALUE...]\"";
    if (w->n < 5)
        return fail(p, "plot needs a kind, a metric and two parameters: %s", usage);
    enum sweep_plot_kind kind;
    if (strcmp(w->v[1], "heatmap") == 0)
        kind = SWEEP_HEATMAP;
    else if (strcmp(w->v[1], "lines") == 0)
        kind = SWEEP_LINES;
    else
        return fail(p, "plot kind \"%s\" is not allowed: %s", w->v[1], usage);
    struct sweep_file *sf = p->sf;
    sf->plots = xrealloc(sf->plots, (sf->n_plots + 1) * sizeof *sf->plots);
    struct sweep_plot *pl = &sf->plots[sf->n_plots++];
    memset(pl, 0, sizeof *pl);
    pl->kind = kind;
    pl->metric = xstrdup(w->v[2]);
    pl->x = xstrdup(w->v[3]);
    pl->y = xstrdup(w->v[4]);
    pl->line = p->line;
    pl->x_scale = pl->metric_scale = SWEEP_SCALE_AUTO;
    int heat = kind == SWEEP_HEATMAP;
    for (size_t i = 5; i < w->n; i++) {
        const char *o = w->v[i];
        int *scale = NULL;
        if (!heat && (strcmp(o, "logx") == 0 || strcmp(o, "linx") == 0))
            scale = &pl->x_scale;
        else if (!heat && (strcmp(o, "logy") == 0 || strcmp(o, "liny") == 0))
            scale = &pl->metric_scale;
        else if (heat && (strcmp(o, "logcb") == 0 || strcmp(o, "lincb") == 0))
            scale = &pl->metric_scale;
        if (scale) {
            if (*scale != SWEEP_SCALE_AUTO)
                return fail(p, "plot: \"%s\" is not allowed: a second scale for the same axis", o);
            *scale = o[1] == 'o' ? SWEEP_SCALE_LOG : SWEEP_SCALE_LIN;
            continue;
        }
        if (!strchr(o, '=') || o[0] == '=')
            return fail(
                p, "plot: \"%s\" is not allowed: expected NAME=VALUE (a parameter held fixed) or %s", o,
                heat ? "logcb, lincb (the colour scale)" : "logx, linx, logy, liny (the axes' scales)");
        strv_push(&pl->at, o);
    }
    return 0;
}

static int directive(struct parser *p, const struct strv *w)
{
    struct sweep_file *sf = p->sf;
    const char *d = w->v[0];
    if (strcmp(d, "name") == 0) {
        if (once(p, &p->name_line, "name") || want_args(p, w, 1, "name NAME"))
            return -1;
        if (!*w->v[1])
            return fail(p, "name \"\" is not allowed: expected letters, digits, _, . and -");
        for (const char *c = w->v[1]; *c; c++)
            if (!isalnum((unsigned char)*c) && !strchr("_.-", *c))
                return fail(p, "name \"%s\" is not allowed: expected letters, digits, _, . and -", w->v[1]);
        if (w->v[1][0] == '.')
            return fail(p, "name \"%s\" is not allowed: expected a name that does not start with .", w->v[1]);
        free(sf->name);
        sf->name = xstrdup(w->v[1]);
        return 0;
    }
    if (strcmp(d, "program") == 0) {
        if (once(p, &sf->program_line, "program") || want_args(p, w, 1, "program NAME-OR-PATH"))
            return -1;
        sf->program = xstrdup(w->v[1]);
        return 0;
    }
    if (strcmp(d, "flags") == 0)
        return parse_flags(p, w);
    if (strcmp(d, "param") == 0)
        return parse_param(p, w);
    if (strcmp(d, "zip") == 0) {
        if (w->n < 3)
            return fail(p, "zip needs two or more parameters: expected \"zip NAME NAME...\"");
        sf->n_zip++;
        p->zip_lines = xrealloc(p->zip_lines, (size_t)sf->n_zip * sizeof *p->zip_lines);
        p->zip_lines[sf->n_zip - 1] = p->line;
        size_t len = 0;
        for (size_t i = 1; i < w->n; i++)
            len += strlen(w->v[i]) + 1;
        char *names = xmalloc(len + 1);
        names[0] = '\0';
        for (size_t i = 1; i < w->n; i++) {
            strcat(names, w->v[i]);
            if (i + 1 < w->n)
                strcat(names, " ");
        }
        strv_push(&p->zips, names);
        free(names);
        return 0;
    }
    if (strcmp(d, "combine") == 0) {
        if (once(p, &p->combine_line, "combine") || want_args(p, w, 1, "combine cartesian|zip"))
            return -1;
        if (strcmp(w->v[1], "cartesian") == 0)
            p->combine_zip = 0;
        else if (strcmp(w->v[1], "zip") == 0)
            p->combine_zip = 1;
        else
            return fail(p, "combine \"%s\" is not allowed: expected cartesian or zip", w->v[1]);
        return 0;
    }
    if (strcmp(d, "replications") == 0) {
        if (once(p, &p->replications_line, "replications") || want_args(p, w, 1, "replications R"))
            return -1;
        if (!parse_long(w->v[1], 1, MAX_REPLICATIONS, &sf->replications))
            return fail(p,
                        "replications = \"%s\" is not allowed: expected an integer in [1, %d] (RngRun 1..R)",
                        w->v[1], MAX_REPLICATIONS);
        return 0;
    }
    if (strcmp(d, "metrics") == 0) {
        if (once(p, &p->metrics_line, "metrics"))
            return -1;
        if (w->n < 2)
            return fail(p, "metrics has no names: expected \"metrics NAME...\" (e.g. jain_min goodput_gbps)");
        for (size_t i = 1; i < w->n; i++) {
            if (!sweep_metric_name_ok(w->v[i]))
                return fail(p, "metric \"%s\" is not allowed: expected a name of letters, digits and _",
                            w->v[i]);
            if (strv_find(&sf->metrics, w->v[i]) >= 0)
                return fail(p, "metric \"%s\" is given twice: expected each metric once", w->v[i]);
            strv_push(&sf->metrics, w->v[i]);
        }
        return 0;
    }
    if (strcmp(d, "timeout") == 0) {
        if (once(p, &p->timeout_line, "timeout") || want_args(p, w, 1, "timeout SECONDS"))
            return -1;
        return parse_timeout(p, w->v[1]);
    }
    if (strcmp(d, "batch") == 0) {
        if (once(p, &p->batch_line, "batch") || want_args(p, w, 1, "batch N"))
            return -1;
        if (!parse_long(w->v[1], 1, MAX_BATCH, &sf->batch))
            return fail(
                p,
                "batch = \"%s\" is not allowed: expected an integer in [1, %d] (points per process; the "
                "program takes --batch=FILE --db=DB)",
                w->v[1], MAX_BATCH);
        return 0;
    }
    if (strcmp(d, "require") == 0)
        return parse_require(p, w);
    if (strcmp(d, "plot") == 0)
        return parse_plot(p, w);
    return fail(p,
                "unknown directive \"%s\": expected name, program, flags, param, zip, combine, replications, "
                "metrics, timeout, batch, require or plot",
                d);
}

/* Checks that need the whole file. */
static int finish(struct parser *p)
{
    struct sweep_file *sf = p->sf;
    p->line = 0;
    if (!sf->program)
        return fail(p, "no program line: expected \"program NAME-OR-PATH\" (e.g. program advcam-incast)");
    /* zip groups */
    for (int z = 0; z < sf->n_zip; z++) {
        p->line = p->zip_lines[z];
        struct strv names = { 0 };
        char *copy = xstrdup(p->zips.v[z]), *save = NULL;
        for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save))
            strv_push(&names, t);
        free(copy);
        long first = -1;
        int rc = 0;
        for (size_t i = 0; i < names.n && rc == 0; i++) {
            long k = sweep_file_param(sf, names.v[i]);
            if (k < 0)
                rc = fail(p, "zip: \"%s\" is not a parameter: expected names from param lines", names.v[i]);
            else if (sf->params[k].zip >= 0)
                rc = fail(
                    p, "zip: parameter %s is already zipped on line %d: expected each parameter in one zip",
                    names.v[i], p->zip_lines[sf->params[k].zip]);
            else if (first >= 0 && sf->params[k].values.n != sf->params[first].values.n)
                rc = fail(p,
                          "zip: %s has %zu values and %s has %zu: expected zipped parameters with as many "
                          "values each",
                          sf->params[first].name, sf->params[first].values.n, names.v[i],
                          sf->params[k].values.n);
            else {
                sf->params[k].zip = z;
                if (first < 0)
                    first = k;
            }
        }
        strv_free(&names);
        if (rc)
            return rc;
    }
    if (p->combine_zip && sf->n_params > 0) {
        p->line = p->combine_line;
        if (sf->n_zip > 0)
            return fail(p, "combine zip zips every parameter: expected no zip lines with it");
        for (size_t i = 1; i < sf->n_params; i++)
            if (sf->params[i].values.n != sf->params[0].values.n)
                return fail(p,
                            "combine zip: %s has %zu values and %s has %zu: expected as many values for "
                            "every parameter",
                            sf->params[0].name, sf->params[0].values.n, sf->params[i].name,
                            sf->params[i].values.n);
        for (size_t i = 0; i < sf->n_params; i++)
            sf->params[i].zip = 0;
        sf->n_zip = 1;
    }
    for (size_t i = 0; i < sf->n_requires; i++) {
        struct sweep_require *r = &sf->requires[i];
        p->line = r->line;
        const char *sides[2] = { r->lhs, r->rhs };
        for (int s = 0; s < 2; s++) {
            double v;
            int equality = strcmp(r->op, "==") == 0 || strcmp(r->op, "!=") == 0;
            if (sweep_file_param(sf, sides[s]) < 0 && !parse_double(sides[s], &v) && !equality)
                return fail(p,
                            "require: \"%s\" is not allowed: expected a parameter name or a number (a word "
                            "only with == and !=)",
                            sides[s]);
        }
    }
    if (sf->metrics.n == 0)
        for (int i = 0; feroce_db_metric_columns[i]; i++)
            strv_push(&sf->metrics, feroce_db_metric_columns[i]);
    for (size_t i = 0; i < sf->n_plots; i++) {
        struct sweep_plot *pl = &sf->plots[i];
        p->line = pl->line;
        if (strv_find(&sf->metrics, pl->metric) < 0)
            return fail(p, "plot: metric \"%s\" is not allowed: expected one of the metrics line",
                        pl->metric);
        /* a plot may name an ns-3 attribute by its short name (sweep-axis.h): from here on, the full one */
        long kx = sweep_plot_param(sf, pl->x), ky = sweep_plot_param(sf, pl->y);
        if (kx < 0)
            return fail(p, "plot: \"%s\" is not a parameter: expected X from the param lines", pl->x);
        if (ky < 0)
            return fail(p, "plot: \"%s\" is not a parameter: expected %s from the param lines", pl->y,
                        pl->kind == SWEEP_HEATMAP ? "Y" : "SERIES");
        free(pl->x);
        free(pl->y);
        pl->x = xstrdup(sf->params[kx].name);
        pl->y = xstrdup(sf->params[ky].name);
        if (strcmp(pl->x, pl->y) == 0)
            return fail(p, "plot: %s twice: expected two different parameters", pl->x);
        if (pl->x_scale == SWEEP_SCALE_LOG) {
            const struct sweep_param *px = &sf->params[kx];
            for (size_t v = 0; v < px->values.n; v++) {
                double x;
                enum sweep_dim dim;
                if (!sweep_value_number(px->values.v[v], &x, &dim) || x <= 0)
                    return fail(p,
                                "plot: logx with %s = \"%s\" is not allowed: expected every value of %s "
                                "a number above 0",
                                pl->x, px->values.v[v], pl->x);
            }
        }
        for (size_t a = 0; a < pl->at.n; a++) {
            char *name = xstrdup(pl->at.v[a]);
            char *value = strchr(name, '=');
            *value++ = '\0';
            long k = sweep_plot_param(sf, name);
            int rc = 0;
            if (k >= 0 && strcmp(name, sf->params[k].name) != 0) {
                char *full = xasprintf("%s=%s", sf->params[k].name, value);
                free(pl->at.v[a]);
                pl->at.v[a] = full;
                free(name);
                name = xstrdup(full);
                value = strchr(name, '=');
                *value++ = '\0';
            }
            if (k < 0)
                rc = fail(
                    p, "plot: \"%s\" is not a parameter: expected NAME=VALUE with NAME from the param lines",
                    name);
            else if (strcmp(name, pl->x) == 0 || strcmp(name, pl->y) == 0)
                rc = fail(p, "plot: %s is an axis of this plot: expected only other parameters held fixed",
                          name);
            else if (strv_find(&sf->params[k].values, value) < 0)
                rc = fail(p, "plot: %s = \"%s\" is not allowed: expected one of the values of %s (line %d)",
                          name, value, name, sf->params[k].line);
            free(name);
            if (rc)
                return rc;
        }
    }
    return 0;
}

int sweep_file_parse(const char *path, const char *text, struct sweep_file *sf, char *err, size_t errlen)
{
    memset(sf, 0, sizeof *sf);
    sf->path = xstrdup(path);
    sf->text = xstrdup(text);
    sf->name = base_stem(path);
    sf->replications = 1;
    sf->batch = 1;
    struct parser p = { .path = path, .err = err, .errlen = errlen, .sf = sf };
    int rc = 0;
    const char *line = text;
    while (rc == 0 && *line) {
        p.line++;
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        char *copy = xmalloc(len + 1);
        memcpy(copy, line, len);
        copy[len] = '\0';
        struct strv words = { 0 };
        if (split(&p, copy, &words) != 0)
            rc = -1;
        else if (words.n > 0)
            rc = directive(&p, &words);
        strv_free(&words);
        free(copy);
        line = nl ? nl + 1 : line + len;
    }
    if (rc == 0)
        rc = finish(&p);
    strv_free(&p.zips);
    free(p.zip_lines);
    if (rc)
        sweep_file_free(sf);
    return rc;
}

int sweep_file_load(const char *path, struct sweep_file *sf, char *err, size_t errlen)
{
    size_t len;
    char *text = read_file(path, &len);
    if (!text) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        memset(sf, 0, sizeof *sf);
        return -1;
    }
    if (strlen(text) != len) {
        snprintf(err, errlen, "%s: a NUL byte: expected a text file", path);
        free(text);
        memset(sf, 0, sizeof *sf);
        return -1;
    }
    int rc = sweep_file_parse(path, text, sf, err, errlen);
    free(text);
    return rc;
}

void sweep_file_free(struct sweep_file *sf)
{
    free(sf->path);
    free(sf->text);
    free(sf->name);
    free(sf->program);
    strv_free(&sf->flags);
    for (size_t i = 0; i < sf->n_params; i++) {
        free(sf->params[i].name);
        strv_free(&sf->params[i].values);
    }
    free(sf->params);
    for (size_t i = 0; i < sf->n_requires; i++) {
        free(sf->requires[i].lhs);
        free(sf->requires[i].rhs);
    }
    free(sf->requires);
    strv_free(&sf->metrics);
    for (size_t i = 0; i < sf->n_plots; i++) {
        free(sf->plots[i].metric);
        free(sf->plots[i].x);
        free(sf->plots[i].y);
        strv_free(&sf->plots[i].at);
    }
    free(sf->plots);
    memset(sf, 0, sizeof *sf);
}
