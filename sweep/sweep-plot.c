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
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweep-axis.h"
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

/* '("label" position, ...)': a tic at each value (lines: at the value on a numeric axis, labelled
 * with the number in the axis's unit; heatmaps and words: at the value's index, as written) */
static char *tics(const struct sweep_param *p, const struct sweep_axis *a)
{
    size_t len = 3;
    for (size_t i = 0; i < p->values.n; i++)
        len += 2 * strlen(p->values.v[i]) + 64;
    char *s = xmalloc(len), *o = s;
    o += sprintf(o, "(");
    for (size_t i = 0; i < p->values.n; i++) {
        o += sprintf(o, "%s\"", i ? ", " : "");
        if (a && a->numeric && *a->unit)
            o += sprintf(o, "%.6g", a->at[i]);
        else
            for (const char *v = p->values.v[i]; *v; v++)
                if (*v != '"' && *v != '\'' && *v != '\\')
                    *o++ = *v;
        o += sprintf(o, "\" %.17g", a ? a->at[i] : (double)i);
    }
    sprintf(o, ")");
    return s;
}

/* Runs gnuplot on script with the variables; its stderr goes into errors (kept when it fails:
 * gnuplot's warnings about a picture that came out are noise). */
static int run_gnuplot(const char *script, struct strv *vars, const char *errors, char *err, size_t errlen)
{
    struct strv argv = { 0 };
    strv_push(&argv, "gnuplot");
    for (size_t i = 0; i < vars->n; i++) {
        strv_push(&argv, "-e");
        strv_push(&argv, vars->v[i]);
    }
    strv_push(&argv, script);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    pid_t pid;
    int rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv.v, environ);
    posix_spawn_file_actions_destroy(&fa);
    strv_free(&argv);
    if (rc != 0) {
        snprintf(err, errlen, "cannot run gnuplot: %s (install gnuplot-nox)", strerror(rc));
        return -1;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        /* gnuplot's last complaint, on one line */
        char *tail = read_tail(errors, 300);
        for (char *c = tail; c && *c; c++)
            if (*c == '\n' || *c == '\r')
                *c = ' ';
        snprintf(err, errlen, "gnuplot %s failed (status %d)%s%s", script,
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1, tail && *tail ? ": " : "", tail ? tail : "");
        free(tail);
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

/* A number for the data files: 10 significant digits, NaN as gnuplot's scripts expect it. */
struct num_text {
    char s[32];
};

static struct num_text num(double v)
{
    struct num_text t;
    if (isnan(v))
        strcpy(t.s, "NaN");
    else
        snprintf(t.s, sizeof t.s, "%.10g", v);
    return t;
}

/* A cell's or point's statistics, or NULL when no replication is done. */
static const struct feroce_summary *stat_at(const struct picture *p, size_t *idx, size_t i, size_t j)
{
    idx[p->x] = i;
    idx[p->y] = j;
    long c = find_combo(p->r->g, idx);
    const struct feroce_summary *s = c >= 0 ? sweep_report_stat(p->r, (size_t)c, (size_t)p->metric) : NULL;
    return s && s->n > 0 ? s : NULL;
}

/* A heatmap cell's label: 3 significant digits, whole numbers from 1000 up (no exponent). */
static void cell_label(char *buf, size_t len, double v)
{
    if (fabs(v) >= 1000)
        snprintf(buf, len, "%.0f", v);
    else
        snprintf(buf, len, "%.3g", v);
}

/* The title's second and third lines: the sweep's fixed flags, wrapped at about 110 characters
 * (what did not fit ends in "..."). */
static void push_flags(struct strv *vars, const struct sweep_file *sf)
{
    char *flags = sweep_fixed_flags(sf);
    char *line[2] = { flags, NULL };
    size_t width = 110;
    if (strlen(flags) > width) {
        char *cut = flags + width;
        while (cut > flags && strncmp(cut, ", ", 2) != 0)
            cut--;
        if (cut > flags) {
            *cut = '\0';
            line[1] = cut + 2;
            if (strlen(line[1]) > width)
                strcpy(line[1] + width - 3, "...");
        }
    }
    char *fixed = xasprintf("%s%s", *flags ? "with " : "", flags);
    push_var(vars, "t2", fixed);
    push_var(vars, "t3", line[1] ? line[1] : "");
    free(fixed);
    free(flags);
}

/* What a picture's data file says about its scales and lines. */
struct plot_data {
    int logm;       /* the metric on a log scale */
    double lo, hi;  /* the means' range (above 0 on a log scale); lo > hi: none */
    double floor_y; /* lines on a log scale: where zeros are drawn, half a factor below lo */
    size_t zeros;   /* means of 0 on a log scale */
    size_t reps_min, reps_max;
    struct strv titles; /* lines: the legend of each line that has data */
};

static void write_heatmap(FILE *f, const struct picture *p, size_t *idx, struct plot_data *d)
{
    size_t nx = p->r->g->sf->params[p->x].values.n, ny = p->r->g->sf->params[p->y].values.n;
    double span = d->logm ? log(d->hi / d->lo) : d->hi - d->lo;
    for (size_t i = 0; i < nx; i++) {
        for (size_t j = 0; j < ny; j++) {
            const struct feroce_summary *s = stat_at(p, idx, i, j);
            if (!s) {
                fprintf(f, "%zu %zu NaN 0 n/a %d hole\n", i, j, 0x808080);
                continue;
            }
            /* on a log scale a 0 has no colour: a grey cell of its own */
            int zero = d->logm && s->mean <= 0;
            double colour = zero ? NAN : s->mean;
            double frac = zero ? 1 : span > 0 ? (d->logm ? log(colour / d->lo) : colour - d->lo) / span : 0.5;
            d->zeros += zero;
            char label[64];
            cell_label(label, sizeof label, s->mean);
            fprintf(f, "%zu %zu %s %zu %s %d %s\n", i, j, num(colour).s, s->n, label,
                    frac >= 0.5 ? 0x000000 : 0xffffff, zero ? "zero" : "value");
        }
        fputc('\n', f);
    }
}

static void write_lines(FILE *f, const struct picture *p, size_t *idx, const struct sweep_axis *ax,
                        struct plot_data *d)
{
    const struct sweep_file *sf = p->r->g->sf;
    const struct sweep_param *py = &sf->params[p->y];
    char *yname = sweep_short_name(sf, py->name);
    for (size_t j = 0; j < py->values.n; j++) {
        int any = 0;
        for (size_t i = 0; i < ax->n; i++) {
            const struct feroce_summary *s = stat_at(p, idx, i, j);
            if (!s)
                continue;
            if (!any && d->titles.n)
                fputs("\n\n", f);
            any = 1;
            double ci = s->n > 1 ? s->ci95 : 0.0, y = s->mean, bottom = y - ci, top = y + ci, zero = NAN;
            if (d->logm && y <= 0) {
                zero = d->floor_y;
                y = bottom = top = NAN;
                d->zeros++;
            } else if (d->logm && bottom < d->floor_y) {
                bottom = d->floor_y;
            }
            fprintf(f, "%s %s %s %s %zu %s\n", num(ax->at[i]).s, num(y).s, num(bottom).s, num(top).s, s->n,
                    num(zero).s);
        }
        if (any) {
            char *t = xasprintf("%s=%s", yname, py->values.v[j]);
            strv_push(&d->titles, t);
            free(t);
        }
    }
    free(yname);
}

/* Writes the picture's data file and fills d. */
static int write_data(const char *dat, const struct picture *p, const struct sweep_axis *ax,
                      struct plot_data *d, char *err, size_t errlen)
{
    const struct sweep_grid *g = p->r->g;
    size_t nx = g->sf->params[p->x].values.n, ny = g->sf->params[p->y].values.n;
    size_t *idx = xmalloc((g->n_params ? g->n_params : 1) * sizeof *idx);
    memcpy(idx, p->idx, g->n_params * sizeof *idx);
    double *means = xmalloc(nx * ny * sizeof *means);
    d->reps_min = (size_t)-1;
    for (size_t i = 0; i < nx; i++)
        for (size_t j = 0; j < ny; j++) {
            const struct feroce_summary *s = stat_at(p, idx, i, j);
            means[i * ny + j] = s ? s->mean : NAN;
            if (s && s->n < d->reps_min)
                d->reps_min = s->n;
            if (s && s->n > d->reps_max)
                d->reps_max = s->n;
        }
    d->logm = sweep_metric_log(means, nx * ny, p->pl->metric_scale);
    d->lo = INFINITY;
    d->hi = -INFINITY;
    for (size_t k = 0; k < nx * ny; k++)
        if (!isnan(means[k]) && (!d->logm || means[k] > 0)) {
            d->lo = means[k] < d->lo ? means[k] : d->lo;
            d->hi = means[k] > d->hi ? means[k] : d->hi;
        }
    free(means);
    d->floor_y = d->lo / 2;
    FILE *f = fopen(dat, "w");
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", dat, strerror(errno));
        free(idx);
        return -1;
    }
    if (p->pl->kind == SWEEP_HEATMAP)
        write_heatmap(f, p, idx, d);
    else
        write_lines(f, p, idx, ax, d);
    free(idx);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        snprintf(err, errlen, "cannot write %s", dat);
        return -1;
    }
    return 0;
}

/* Moves what gnuplot drew into partial.{png,svg} to out.{png,svg} when it succeeded and both are
 * whole; removes them either way, so a failed picture leaves nothing and the previous one stays. */
static int publish(const char *partial, const char *out, const char *script, int rc, char *err, size_t errlen)
{
    const char *ext[2] = { "png", "svg" };
    for (int e = 0; e < 2 && rc == 0; e++) {
        char *from = xasprintf("%s.%s", partial, ext[e]);
        struct stat st;
        if (stat(from, &st) != 0 || st.st_size == 0) {
            snprintf(err, errlen, "gnuplot %s left no picture %s.%s", script, out, ext[e]);
            rc = -1;
        }
        free(from);
    }
    for (int e = 0; e < 2; e++) {
        char *from = xasprintf("%s.%s", partial, ext[e]), *to = xasprintf("%s.%s", out, ext[e]);
        if (rc == 0 && rename(from, to) != 0) {
            snprintf(err, errlen, "cannot write %s: %s", to, strerror(errno));
            rc = -1;
        }
        unlink(from);
        free(from);
        free(to);
    }
    unlink(partial); /* (a script that set no extension) */
    return rc;
}

static int draw(const struct picture *p, const char *out_dir, const char *data_dir, const char *scripts,
                char *err, size_t errlen)
{
    const struct sweep_file *sf = p->r->g->sf;
    const struct sweep_plot *pl = p->pl;
    const struct sweep_param *px = &sf->params[p->x], *py = &sf->params[p->y];
    const char *metric = sf->metrics.v[p->metric];
    int heat = pl->kind == SWEEP_HEATMAP;
    char *xname = sweep_short_name(sf, px->name), *yname = sweep_short_name(sf, py->name);
    /* the scale keywords given are part of the name: the same picture on other scales is another file */
    const char *scale[2] = { pl->x_scale == SWEEP_SCALE_AUTO ? ""
                             : pl->x_scale                   ? "-logx"
                                                             : "-linx",
                             pl->metric_scale == SWEEP_SCALE_AUTO ? ""
                             : heat                               ? (pl->metric_scale ? "-logcb" : "-lincb")
                                                                  : (pl->metric_scale ? "-logy" : "-liny") };
    char *name = xasprintf("%s-%s-%s-%s-%s%s%s%s%s", sf->name, heat ? "heatmap" : "lines", metric, xname,
                           yname, *p->facet_file ? "-" : "", p->facet_file, scale[0], scale[1]);
    char *file_name = safe(name);
    free(name);
    char *out = xasprintf("%s/%s", out_dir, file_name);
    /* gnuplot draws into hidden files, renamed over the pictures only when both are whole */
    char *partial = xasprintf("%s/.%s.partial-%ld", out_dir, file_name, (long)getpid());
    char *dat = xasprintf("%s/%s.dat", data_dir, file_name);
    free(file_name);
    struct sweep_axis ax = { 0 };
    if (!heat)
        sweep_axis_init(&ax, px, pl->x_scale);
    struct plot_data d = { 0 };
    struct strv vars = { 0 };
    char *title = NULL, *script = NULL;
    int rc = write_data(dat, p, &ax, &d, err, errlen);
    if (rc != 0)
        goto done;
    char reps[64];
    if (d.reps_max == 0)
        snprintf(reps, sizeof reps, "no data yet");
    else if (d.reps_min == d.reps_max)
        snprintf(reps, sizeof reps, "mean of %zu run%s", d.reps_max, d.reps_max == 1 ? "" : "s");
    else
        snprintf(reps, sizeof reps, "mean of %zu to %zu runs", d.reps_min, d.reps_max);
    title = xasprintf("%s: %s (%s%s)%s%s", sf->name, metric, reps, heat || !d.reps_max ? "" : ", 95% CI",
                      *p->facet ? " at " : "", p->facet);
    push_var(&vars, "in", dat);
    push_var(&vars, "out", partial);
    push_var(&vars, "t", title);
    push_flags(&vars, sf);
    /* the X axis's label says its unit and scale: "interval (us, log scale)" */
    int unit = ax.unit && *ax.unit;
    char *xl = unit || ax.log ? xasprintf("%s (%s%s%s)", xname, unit ? ax.unit : "",
                                          unit && ax.log ? ", " : "", ax.log ? "log scale" : "")
                              : xstrdup(xname);
    push_var(&vars, "xl", xl);
    free(xl);
    if (heat) {
        char *xt = tics(px, NULL), *yt = tics(py, NULL);
        push_var(&vars, "yl", yname);
        push_var(&vars, "cb", metric);
        push_var(&vars, "xt", xt);
        push_var(&vars, "yt", yt);
        push_num(&vars, "nx", (double)px->values.n);
        push_num(&vars, "ny", (double)py->values.n);
        push_num(&vars, "lo", d.lo <= d.hi ? d.lo : 0); /* (nothing to colour: any scale) */
        push_num(&vars, "hi", d.lo <= d.hi ? d.hi : 1);
        push_num(&vars, "logcb", d.logm);
        push_num(&vars, "zeros", (double)d.zeros);
        free(xt);
        free(yt);
        script = xasprintf("%s/sweep-heatmap.gp", scripts);
    } else {
        push_var(&vars, "yl", metric);
        push_num(&vars, "ns", (double)d.titles.n);
        for (size_t k = 0; k < d.titles.n; k++) {
            char *v = xasprintf("title%zu", k + 1);
            push_var(&vars, v, d.titles.v[k]);
            free(v);
        }
        push_num(&vars, "logx", ax.log);
        push_num(&vars, "logy", d.logm);
        push_num(&vars, "zeros", (double)d.zeros);
        if (d.logm)
            push_num(&vars, "ybottom", d.floor_y);
        char *xt = ax.n <= 12 || !ax.numeric ? tics(px, &ax) : xstrdup("");
        push_var(&vars, "xt", xt);
        push_num(&vars, "catx", !ax.numeric);
        free(xt);
        script = xasprintf("%s/sweep-lines.gp", scripts);
    }
    char *errors = xasprintf("%s.stderr", partial);
    rc = run_gnuplot(script, &vars, errors, err, errlen);
    unlink(errors);
    free(errors);
    rc = publish(partial, out, script, rc, err, errlen);
    if (rc == 0)
        printf("feroce-sweep: wrote %s.png and %s.svg\n", out, out);
done:
    strv_free(&vars);
    strv_free(&d.titles);
    sweep_axis_free(&ax);
    free(xname);
    free(yname);
    free(script);
    free(title);
    free(dat);
    free(partial);
    free(out);
    return rc;
}

/* Draws one plot line: one picture per combination of the free parameters. */
static void draw_plot(const struct sweep_report *r, const struct sweep_plot *pl, const char *out_dir,
                      const char *data_dir, const char *scripts, size_t *pictures, size_t *failed)
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
    char err[1024];
    for (;;) {
        /* the other parameters' values, by their short names */
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
            char *shown = sweep_short_name(sf, sf->params[i].name);
            strcat(p.facet, shown);
            strcat(p.facet, "=");
            strcat(p.facet, sf->params[i].values.v[p.idx[i]]);
            strcat(p.facet_file, shown);
            strcat(p.facet_file, "=");
            strcat(p.facet_file, sf->params[i].values.v[p.idx[i]]);
            free(shown);
        }
        (*pictures)++;
        if (draw(&p, out_dir, data_dir, scripts, err, sizeof err) != 0) {
            /* one picture failed: say so, and draw the others */
            fprintf(stderr, "feroce-sweep: %s\n", err);
            (*failed)++;
        }
        free(p.facet);
        free(p.facet_file);
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
    size_t pictures = 0, failed = 0;
    for (size_t i = 0; i < c.sf.n_plots && rc == 0; i++)
        draw_plot(&r, &c.sf.plots[i], out_dir, data_dir, scripts, &pictures, &failed);
    if (failed) {
        fprintf(stderr, "feroce-sweep: %zu of %zu pictures failed (the others were drawn)\n", failed,
                pictures);
        rc = SWEEP_EXIT_FAILED;
    }
    free(scripts);
    free(out_dir);
    free(data_dir);
    sweep_report_free(&r);
    sweep_ctx_close(&c);
    return rc;
}
