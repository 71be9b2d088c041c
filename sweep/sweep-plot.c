/*
 * sweep-plot.c - pictures of a sweep (sweep-plot.h).
 *
 * For each plot line of the sweep file (or the one on the command line) the
 * report's means are written as a data file and gnuplot draws it.  The
 * parameters that are neither an axis nor held fixed with NAME=VALUE give one
 * picture per combination of their values.
 */
#define _GNU_SOURCE
#include "sweep-plot.h"

#include <errno.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweep-report.h"

extern char **environ;

#ifndef FEROCE_PLOTS_DIR
#define FEROCE_PLOTS_DIR "plots"
#endif

/* The directory of the gnuplot scripts. */
static char *scripts_dir(void)
{
    const char *env = getenv("FEROCE_PLOTS_DIR");
    if (env && *env)
        return xstrdup(env);
    char *self = self_exe();
    if (self) {
        char *bin = dir_name(self);
        char *share = xasprintf("%s/../share/feroce/plots", bin);
        free(bin);
        free(self);
        char *probe = xasprintf("%s/sweep-heatmap.gp", share);
        int ok = access(probe, R_OK) == 0;
        free(probe);
        if (ok)
            return share;
        free(share);
    }
    return xstrdup(FEROCE_PLOTS_DIR);
}

/* A name made safe for a file name. */
static char *safe(const char *s)
{
    char *out = xstrdup(s);
    for (char *c = out; *c; c++)
        if (!(*c >= 'a' && *c <= 'z') && !(*c >= 'A' && *c <= 'Z') && !(*c >= '0' && *c <= '9') &&
            !strchr("_.=-", *c))
            *c = '_';
    return out;
}

/* A string as a gnuplot single-quoted literal's contents. */
static char *gp_quote(const char *s)
{
    size_t n = 1;
    for (const char *c = s; *c; c++)
        n += *c == '\'' ? 2 : 1;
    char *q = xmalloc(n), *o = q;
    for (const char *c = s; *c; c++) {
        if (*c == '\'')
            *o++ = '\'';
        *o++ = *c;
    }
    *o = '\0';
    return q;
}

/* '("v0" 0, "v1" 1, ...)': tics at the values' indices (at_values: at the values themselves). */
static char *tics(const struct sweep_param *p, int at_values)
{
    size_t len = 3;
    for (size_t i = 0; i < p->values.n; i++)
        len += 2 * strlen(p->values.v[i]) + 24;
    char *s = xmalloc(len), *o = s;
    o += sprintf(o, "(");
    for (size_t i = 0; i < p->values.n; i++) {
        const char *v = p->values.v[i];
        o += sprintf(o, "%s\"", i ? ", " : "");
        for (; *v; v++)
            if (*v != '"' && *v != '\'' && *v != '\\')
                *o++ = *v;
        if (at_values)
            o += sprintf(o, "\" %s", p->values.v[i]);
        else
            o += sprintf(o, "\" %zu", i);
    }
    sprintf(o, ")");
    return s;
}

static int run_gnuplot(const char *script, struct strv *vars, char *err, size_t errlen)
{
    struct strv argv = { 0 };
    strv_push(&argv, "gnuplot");
    for (size_t i = 0; i < vars->n; i++) {
        strv_push(&argv, "-e");
        strv_push(&argv, vars->v[i]);
    }
    strv_push(&argv, script);
    pid_t pid;
    int rc = posix_spawnp(&pid, "gnuplot", NULL, NULL, argv.v, environ);
    strv_free(&argv);
    if (rc != 0) {
        snprintf(err, errlen, "cannot run gnuplot: %s (install gnuplot-nox)", strerror(rc));
        return -1;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        snprintf(err, errlen, "gnuplot %s failed (status %d)", script,
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        return -1;
    }
    return 0;
}

static void push_var(struct strv *vars, const char *name, const char *value)
{
    char *q = gp_quote(value);
    char *v = xasprintf("%s='%s'", name, q);
    strv_push(vars, v);
    free(v);
    free(q);
}

static void push_num(struct strv *vars, const char *name, double value)
{
    char *v = xasprintf("%s=%.17g", name, value);
    strv_push(vars, v);
    free(v);
}

/* The combination with the given value index of every parameter, or -1. */
static long find_combo(const struct sweep_grid *g, const size_t *idx)
{
    for (size_t c = 0; c < g->n_combos; c++)
        if (memcmp(&g->combos[c * g->n_params], idx, g->n_params * sizeof *idx) == 0)
            return (long)c;
    return -1;
}

struct picture {
    const struct sweep_report *r;
    const struct sweep_plot *pl;
    long metric, x, y;
    size_t *idx;      /* value index of every parameter (the fixed and facet ones set) */
    char *facet;      /* "g=0.0625, rai=40", or "" */
    char *facet_file; /* "g=0.0625-rai=40", or "" */
};

static int draw(const struct picture *p, const char *out_dir, const char *data_dir, const char *scripts,
                char *err, size_t errlen)
{
    const struct sweep_grid *g = p->r->g;
    const struct sweep_file *sf = g->sf;
    const struct sweep_param *px = &sf->params[p->x], *py = &sf->params[p->y];
    const char *metric = sf->metrics.v[p->metric];
    int heat = p->pl->kind == SWEEP_HEATMAP;
    char *name = xasprintf("%s-%s-%s-%s-%s%s%s", sf->name, heat ? "heatmap" : "lines", metric, px->name,
                           py->name, *p->facet_file ? "-" : "", p->facet_file);
    char *file_name = safe(name);
    char *out = xasprintf("%s/%s", out_dir, file_name);
    char *dat = xasprintf("%s/%s.dat", data_dir, file_name);
    free(file_name);
    free(name);
    FILE *f = fopen(dat, "w");
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", dat, strerror(errno));
        free(dat);
        free(out);
        return -1;
    }
    size_t *idx = xmalloc((g->n_params ? g->n_params : 1) * sizeof *idx);
    memcpy(idx, p->idx, g->n_params * sizeof *idx);
    size_t reps_min = (size_t)-1, reps_max = 0;
    int numeric_x = 1;
    double v;
    for (size_t i = 0; i < px->values.n; i++)
        numeric_x = numeric_x && parse_double(px->values.v[i], &v);
    if (heat) {
        for (size_t i = 0; i < px->values.n; i++) {
            for (size_t j = 0; j < py->values.n; j++) {
                idx[p->x] = i;
                idx[p->y] = j;
                long c = find_combo(g, idx);
                const struct feroce_summary *s =
                    c >= 0 ? sweep_report_stat(p->r, (size_t)c, (size_t)p->metric) : NULL;
                size_t n = s ? s->n : 0;
                fprintf(f, "%zu %zu %.10g %zu\n", i, j, n ? s->mean : NAN, n);
                if (n && n < reps_min)
                    reps_min = n;
                if (n > reps_max)
                    reps_max = n;
            }
            fputc('\n', f);
        }
    } else {
        for (size_t j = 0; j < py->values.n; j++) {
            for (size_t i = 0; i < px->values.n; i++) {
                idx[p->x] = i;
                idx[p->y] = j;
                long c = find_combo(g, idx);
                const struct feroce_summary *s =
                    c >= 0 ? sweep_report_stat(p->r, (size_t)c, (size_t)p->metric) : NULL;
                size_t n = s ? s->n : 0;
                double x = numeric_x ? strtod(px->values.v[i], NULL) : (double)i;
                if (n)
                    fprintf(f, "%.10g %.10g %.10g %zu\n", x, s->mean, n > 1 ? s->ci95 : 0.0, n);
                if (n && n < reps_min)
                    reps_min = n;
                if (n > reps_max)
                    reps_max = n;
            }
            fputs(j + 1 < py->values.n ? "\n\n" : "\n", f);
        }
    }
    free(idx);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        snprintf(err, errlen, "cannot write %s", dat);
        free(dat);
        free(out);
        return -1;
    }
    char reps[64];
    if (reps_max == 0)
        snprintf(reps, sizeof reps, "no data yet");
    else if (reps_min == reps_max)
        snprintf(reps, sizeof reps, "mean of %zu run%s", reps_max, reps_max == 1 ? "" : "s");
    else
        snprintf(reps, sizeof reps, "mean of %zu to %zu runs", reps_min, reps_max);
    char *title =
        heat ? xasprintf("%s: %s (%s)%s%s", sf->name, metric, reps, *p->facet ? " at " : "", p->facet)
             : xasprintf("%s: %s (%s, 95%% CI)%s%s", sf->name, metric, reps, *p->facet ? " at " : "",
                         p->facet);
    struct strv vars = { 0 };
    push_var(&vars, "in", dat);
    push_var(&vars, "out", out);
    push_var(&vars, "t", title);
    push_var(&vars, "xl", px->name);
    char *script;
    if (heat) {
        char *xt = tics(px, 0), *yt = tics(py, 0);
        push_var(&vars, "yl", py->name);
        push_var(&vars, "cb", metric);
        push_var(&vars, "xt", xt);
        push_var(&vars, "yt", yt);
        push_num(&vars, "nx", (double)px->values.n);
        push_num(&vars, "ny", (double)py->values.n);
        free(xt);
        free(yt);
        script = xasprintf("%s/sweep-heatmap.gp", scripts);
    } else {
        size_t len = 1;
        for (size_t j = 0; j < py->values.n; j++)
            len += strlen(py->name) + strlen(py->values.v[j]) + 2;
        char *titles = xmalloc(len);
        titles[0] = '\0';
        for (size_t j = 0; j < py->values.n; j++) {
            if (j)
                strcat(titles, " ");
            strcat(titles, py->name);
            strcat(titles, "=");
            strcat(titles, py->values.v[j]);
        }
        push_var(&vars, "yl", metric);
        push_var(&vars, "titles", titles);
        push_num(&vars, "ns", (double)py->values.n);
        push_num(&vars, "logx", numeric_x && px->range == SWEEP_LOG);
        char *xt = tics(px, numeric_x);
        push_var(&vars, "xt", xt);
        push_num(&vars, "catx", !numeric_x);
        free(xt);
        free(titles);
        script = xasprintf("%s/sweep-lines.gp", scripts);
    }
    int rc = run_gnuplot(script, &vars, err, errlen);
    if (rc == 0)
        printf("feroce-sweep: wrote %s.png and %s.svg\n", out, out);
    strv_free(&vars);
    free(script);
    free(title);
    free(dat);
    free(out);
    return rc;
}

/* Draws one plot line: one picture per combination of the free parameters. */
static int draw_plot(const struct sweep_report *r, const struct sweep_plot *pl, const char *out_dir,
                     const char *data_dir, const char *scripts, char *err, size_t errlen)
{
    const struct sweep_grid *g = r->g;
    const struct sweep_file *sf = g->sf;
    size_t np = g->n_params;
    struct picture p = { .r = r, .pl = pl };
    p.metric = strv_find(&sf->metrics, pl->metric);
    p.x = sweep_file_param(sf, pl->x);
    p.y = sweep_file_param(sf, pl->y);
    p.idx = xcalloc(np ? np : 1, sizeof *p.idx);
    int *fixed = xcalloc(np ? np : 1, sizeof *fixed);
    fixed[p.x] = fixed[p.y] = 1;
    for (size_t a = 0; a < pl->at.n; a++) {
        char *name = xstrdup(pl->at.v[a]);
        char *value = strchr(name, '=');
        *value++ = '\0';
        long k = sweep_file_param(sf, name);
        p.idx[k] = (size_t)strv_find(&sf->params[k].values, value);
        fixed[k] = 1;
        free(name);
    }
    /* odometer over the free parameters */
    int rc = 0;
    for (;;) {
        size_t len = 1;
        for (size_t i = 0; i < np; i++)
            if (i != (size_t)p.x && i != (size_t)p.y)
                len += strlen(sf->params[i].name) + strlen(sf->params[i].values.v[p.idx[i]]) + 3;
        p.facet = xmalloc(len);
        p.facet_file = xmalloc(len);
        p.facet[0] = p.facet_file[0] = '\0';
        for (size_t i = 0; i < np; i++) {
            if (i == (size_t)p.x || i == (size_t)p.y)
                continue;
            if (p.facet[0]) {
                strcat(p.facet, ", ");
                strcat(p.facet_file, "-");
            }
            strcat(p.facet, sf->params[i].name);
            strcat(p.facet, "=");
            strcat(p.facet, sf->params[i].values.v[p.idx[i]]);
            strcat(p.facet_file, sf->params[i].name);
            strcat(p.facet_file, "=");
            strcat(p.facet_file, sf->params[i].values.v[p.idx[i]]);
        }
        rc = draw(&p, out_dir, data_dir, scripts, err, errlen);
        free(p.facet);
        free(p.facet_file);
        if (rc)
            break;
        size_t i = np;
        while (i-- > 0) {
            if (fixed[i])
                continue;
            if (++p.idx[i] < sf->params[i].values.n)
                break;
            p.idx[i] = 0;
        }
        if (i == (size_t)-1)
            break;
    }
    free(fixed);
    free(p.idx);
    return rc;
}

int sweep_cmd_plot(const char *file, const struct sweep_opts *o)
{
    struct sweep_ctx c;
    int rc;
    if (o->args.n > 0) {
        /* the plot on the command line, checked as if it were the file's last line */
        struct sweep_file probe;
        char err[1024];
        if (sweep_file_load(file, &probe, err, sizeof err) != 0) {
            fprintf(stderr, "feroce-sweep: %s\n", err);
            return SWEEP_EXIT_USAGE;
        }
        sweep_file_free(&probe);
        rc = sweep_ctx_open(&c, file, o, CTX_READ);
        if (rc)
            return rc;
        size_t len = 16;
        for (size_t i = 0; i < o->args.n; i++)
            len += strlen(o->args.v[i]) * 2 + 4;
        char *line = xmalloc(len);
        strcpy(line, "plot");
        for (size_t i = 0; i < o->args.n; i++) {
            strcat(line, " \"");
            strcat(line, o->args.v[i]);
            strcat(line, "\"");
        }
        char *text = xasprintf("%s\n%s\n", c.sf.text, line);
        free(line);
        struct sweep_file with;
        char *label = xasprintf("%s (and the command line's plot as its last line)", file);
        if (sweep_file_parse(label, text, &with, err, sizeof err) != 0) {
            /* an error on the appended line is the command line's, not a line of the file */
            size_t lines = 0;
            for (const char *p = c.sf.text; *p; p++)
                lines += *p == '\n';
            size_t n = strlen(label);
            char *end = NULL;
            long at = strncmp(err, label, n) == 0 && err[n] == ':' ? strtol(err + n + 1, &end, 10) : 0;
            if (at > (long)lines && end && *end == ':')
                fprintf(stderr, "feroce-sweep: the plot on the command line:%s\n", end + 1);
            else if (at > 0 && end && *end == ':')
                fprintf(stderr, "feroce-sweep: %s:%ld:%s\n", file, at, end + 1);
            else
                fprintf(stderr, "feroce-sweep: %s\n", err);
            free(text);
            free(label);
            sweep_ctx_close(&c);
            return SWEEP_EXIT_USAGE;
        }
        free(text);
        free(label);
        /* keep only the new plot */
        for (size_t i = 0; i < c.sf.n_plots; i++) {
            free(c.sf.plots[i].metric);
            free(c.sf.plots[i].x);
            free(c.sf.plots[i].y);
            strv_free(&c.sf.plots[i].at);
        }
        free(c.sf.plots);
        /* the command line's plot is the last of with's: free the others, keep it */
        for (size_t i = 0; i + 1 < with.n_plots; i++) {
            free(with.plots[i].metric);
            free(with.plots[i].x);
            free(with.plots[i].y);
            strv_free(&with.plots[i].at);
        }
        with.plots[0] = with.plots[with.n_plots - 1];
        c.sf.plots = with.plots;
        c.sf.n_plots = 1;
        with.plots = NULL;
        with.n_plots = 0;
        sweep_file_free(&with);
    } else {
        rc = sweep_ctx_open(&c, file, o, CTX_READ);
        if (rc)
            return rc;
    }
    char err[1024];
    if (c.sf.n_plots == 0) {
        fprintf(stderr,
                "feroce-sweep: %s has no plot lines: expected \"plot heatmap METRIC X Y\" or \"plot lines "
                "METRIC X SERIES\" in the file or after the file on the command line\n",
                file);
        sweep_ctx_close(&c);
        return SWEEP_EXIT_USAGE;
    }
    struct sweep_report r;
    if (sweep_report_compute(c.db, &c.g, &r, err, sizeof err) != 0) {
        fprintf(stderr, "feroce-sweep: %s: %s\n", c.db_path, err);
        sweep_ctx_close(&c);
        return SWEEP_EXIT_FAILED;
    }
    /* the data always beside the sweep's results, the pictures where asked */
    char *data_dir = xasprintf("%s/plots", c.dir);
    char *out_dir = o->out ? xstrdup(o->out) : xstrdup(data_dir);
    char *scripts = scripts_dir();
    if (mkdirs(out_dir) != 0 || mkdirs(data_dir) != 0) {
        fprintf(stderr, "feroce-sweep: cannot create %s: %s\n", mkdirs(out_dir) ? out_dir : data_dir,
                strerror(errno));
        rc = SWEEP_EXIT_FAILED;
    }
    for (size_t i = 0; i < c.sf.n_plots && rc == 0; i++)
        if (draw_plot(&r, &c.sf.plots[i], out_dir, data_dir, scripts, err, sizeof err) != 0) {
            fprintf(stderr, "feroce-sweep: %s\n", err);
            rc = SWEEP_EXIT_FAILED;
        }
    free(scripts);
    free(out_dir);
    free(data_dir);
    sweep_report_free(&r);
    sweep_ctx_close(&c);
    return rc;
}
