/*
 * sweep-report.c - a sweep's statistics (sweep-report.h), computed with
 * feroce_summarize (GSL): sample standard deviation and the half width of the
 * 95% confidence interval of the mean, t(0.975, n - 1) sd / sqrt(n).
 */
#define _POSIX_C_SOURCE 200809L
#include "sweep-report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "feroce-db.h"
#include "sweep-axis.h"
#include "sweep-db.h"

/* The SQL expression of a metric of table runs (alias r). */
static char *metric_sql(const char *m)
{
    if (strcmp(m, "wall_s") == 0 || strcmp(m, "sim_s") == 0)
        return xasprintf("r.%s", m);
    for (int i = 0; feroce_db_metric_columns[i]; i++)
        if (strcmp(m, feroce_db_metric_columns[i]) == 0)
            return xasprintf("coalesce(r.%s, json_extract(r.metrics, '$.%s'))", m, m);
    return xasprintf("json_extract(r.metrics, '$.%s')", m);
}

int sweep_report_compute(sqlite3 *db, const struct sweep_grid *g, struct sweep_report *r, char *err,
                         size_t errlen)
{
    const struct sweep_file *sf = g->sf;
    size_t nm = sf->metrics.n, nc = g->n_combos;
    memset(r, 0, sizeof *r);
    r->g = g;
    r->n_metrics = nm;
    r->done = xcalloc(nc, sizeof *r->done);
    r->failed = xcalloc(nc, sizeof *r->failed);
    r->stats = xcalloc(nc * (nm ? nm : 1), sizeof *r->stats);
    /* values[combo][metric][replication] */
    size_t reps = (size_t)sf->replications;
    double *values = xcalloc(nc * (nm ? nm : 1) * reps, sizeof *values);
    size_t *count = xcalloc(nc * (nm ? nm : 1), sizeof *count);
    int rc = 0;
    if (db) {
        size_t len = 64;
        char **expr = xcalloc(nm ? nm : 1, sizeof *expr);
        for (size_t m = 0; m < nm; m++) {
            expr[m] = metric_sql(sf->metrics.v[m]);
            len += strlen(expr[m]) + 2;
        }
        char *sql = xmalloc(len + 128);
        strcpy(sql, "SELECT p.key, p.status");
        for (size_t m = 0; m < nm; m++) {
            strcat(sql, ", ");
            strcat(sql, expr[m]);
            free(expr[m]);
        }
        free(expr);
        strcat(sql, " FROM points p LEFT JOIN runs r ON r.id = p.run_id");
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
            snprintf(err, errlen, "reading the results: %s", sqlite3_errmsg(db));
            rc = -1;
        } else {
            int step;
            while ((step = sqlite3_step(st)) == SQLITE_ROW) {
                const struct sweep_point *pt = sweep_grid_find(g, (const char *)sqlite3_column_text(st, 0));
                if (!pt)
                    continue;
                size_t c = pt->combo;
                if (strcmp((const char *)sqlite3_column_text(st, 1), "done") != 0) {
                    r->failed[c]++;
                    continue;
                }
                r->done[c]++;
                for (size_t m = 0; m < nm; m++) {
                    int type = sqlite3_column_type(st, 2 + (int)m);
                    if (type != SQLITE_INTEGER && type != SQLITE_FLOAT)
                        continue; /* null (undefined) or not a number */
                    size_t k = c * nm + m;
                    values[k * reps + count[k]++] = sqlite3_column_double(st, 2 + (int)m);
                }
            }
            if (step != SQLITE_DONE) {
                snprintf(err, errlen, "reading the results: %s", sqlite3_errmsg(db));
                rc = -1;
            }
            sqlite3_finalize(st);
        }
        free(sql);
    }
    for (size_t k = 0; k < nc * nm; k++)
        feroce_summarize(values + k * reps, count[k], &r->stats[k]);
    free(values);
    free(count);
    if (rc)
        sweep_report_free(r);
    return rc;
}

void sweep_report_free(struct sweep_report *r)
{
    free(r->done);
    free(r->failed);
    free(r->stats);
    memset(r, 0, sizeof *r);
}

const struct feroce_summary *sweep_report_stat(const struct sweep_report *r, size_t combo, size_t metric)
{
    return &r->stats[combo * r->n_metrics + metric];
}

static void fmt_num(char *buf, size_t len, double v)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.4g", v);
}

void sweep_report_print(const struct sweep_report *r, FILE *out)
{
    const struct sweep_grid *g = r->g;
    const struct sweep_file *sf = g->sf;
    size_t np = g->n_params, nm = r->n_metrics, nc = g->n_combos;
    size_t ncol = np + 2 + nm, nrow = nc + 1;
    char **cell = xcalloc(ncol * nrow, sizeof *cell);
    for (size_t i = 0; i < np; i++)
        cell[i] = sweep_short_name(sf, sf->params[i].name); /* (the CSV has the full names) */
    cell[np] = xstrdup("runs");
    cell[np + 1] = xstrdup("failed");
    for (size_t m = 0; m < nm; m++)
        cell[np + 2 + m] = xasprintf("%s (mean ± ci95)", sf->metrics.v[m]);
    for (size_t c = 0; c < nc; c++) {
        char **row = cell + (c + 1) * ncol;
        for (size_t i = 0; i < np; i++)
            row[i] = xstrdup(sweep_grid_value(g, c, i));
        row[np] = xasprintf("%zu", r->done[c]);
        row[np + 1] = xasprintf("%zu", r->failed[c]);
        for (size_t m = 0; m < nm; m++) {
            const struct feroce_summary *s = sweep_report_stat(r, c, m);
            char mean[32], ci[32];
            fmt_num(mean, sizeof mean, s->mean);
            fmt_num(ci, sizeof ci, s->ci95);
            row[np + 2 + m] = s->n == 0   ? xstrdup("-")
                              : s->n == 1 ? xstrdup(mean)
                                          : xasprintf("%s ± %s", mean, ci);
        }
    }
    /* column widths in characters (± is two bytes, one character) */
    size_t *width = xcalloc(ncol, sizeof *width);
    for (size_t k = 0; k < ncol * nrow; k++) {
        size_t w = 0;
        for (const unsigned char *s = (const unsigned char *)cell[k]; *s; s++)
            w += (*s & 0xc0) != 0x80;
        if (w > width[k % ncol])
            width[k % ncol] = w;
    }
    if (sf->n_params == 0 && nc == 1)
        fprintf(out, "%s: no swept parameters\n", sf->name);
    for (size_t row = 0; row < nrow; row++) {
        for (size_t col = 0; col < ncol; col++) {
            const char *s = cell[row * ncol + col];
            size_t w = 0;
            for (const unsigned char *u = (const unsigned char *)s; *u; u++)
                w += (*u & 0xc0) != 0x80;
            /* parameters left-aligned, numbers right-aligned */
            if (col < np)
                fprintf(out, "%s%*s", s, (int)(width[col] - w), "");
            else
                fprintf(out, "%*s%s", (int)(width[col] - w), "", s);
            fputs(col + 1 < ncol ? "  " : "\n", out);
        }
    }
    for (size_t k = 0; k < ncol * nrow; k++)
        free(cell[k]);
    free(cell);
    free(width);
}

static void csv_field(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\n\r")) {
        fputc('"', f);
        for (; *s; s++) {
            if (*s == '"')
                fputc('"', f);
            fputc(*s, f);
        }
        fputc('"', f);
    } else {
        fputs(s, f);
    }
}

static void csv_num(FILE *f, double v)
{
    if (!isnan(v))
        fprintf(f, "%.10g", v);
}

int sweep_report_csv(const struct sweep_report *r, const char *path, char *err, size_t errlen)
{
    const struct sweep_grid *g = r->g;
    const struct sweep_file *sf = g->sf;
    char *tmp = xasprintf("%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
        free(tmp);
        return -1;
    }
    for (size_t i = 0; i < g->n_params; i++) {
        csv_field(f, sf->params[i].name);
        fputc(',', f);
    }
    fputs("runs,failed", f);
    for (size_t m = 0; m < r->n_metrics; m++) {
        const char *n = sf->metrics.v[m];
        fprintf(f, ",%s_n,%s_mean,%s_sd,%s_ci95", n, n, n, n);
    }
    fputc('\n', f);
    for (size_t c = 0; c < g->n_combos; c++) {
        for (size_t i = 0; i < g->n_params; i++) {
            csv_field(f, sweep_grid_value(g, c, i));
            fputc(',', f);
        }
        fprintf(f, "%zu,%zu", r->done[c], r->failed[c]);
        for (size_t m = 0; m < r->n_metrics; m++) {
            const struct feroce_summary *s = sweep_report_stat(r, c, m);
            fprintf(f, ",%zu,", s->n);
            csv_num(f, s->mean);
            fputc(',', f);
            csv_num(f, s->sd);
            fputc(',', f);
            csv_num(f, s->ci95);
        }
        fputc('\n', f);
    }
    int bad = ferror(f);
    if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}

int sweep_cmd_report(const char *file, const struct sweep_opts *o)
{
    struct sweep_ctx c;
    int rc = sweep_ctx_open(&c, file, o, CTX_READ);
    if (rc)
        return rc;
    char err[1024];
    struct sweep_report r;
    if (sweep_report_compute(c.db, &c.g, &r, err, sizeof err) != 0) {
        fprintf(stderr, "feroce-sweep: %s: %s\n", c.db_path, err);
        sweep_ctx_close(&c);
        return SWEEP_EXIT_FAILED;
    }
    size_t done = 0;
    for (size_t k = 0; k < c.g.n_combos; k++)
        done += r.done[k];
    if (done == 0) {
        /* nothing to report: say so, and write no empty report */
        if (!c.db)
            fprintf(stderr, "feroce-sweep: %s has not been run yet (no %s): feroce-sweep run %s first\n",
                    c.sf.name, c.db_path, file);
        else
            fprintf(stderr, "feroce-sweep: %s has no finished point yet: feroce-sweep run %s, or status\n",
                    c.sf.name, file);
        sweep_report_free(&r);
        sweep_ctx_close(&c);
        return SWEEP_EXIT_USAGE;
    }
    sweep_report_print(&r, stdout);
    fflush(stdout);
    char *csv = o->csv ? xstrdup(o->csv) : xasprintf("%s/report.csv", c.dir);
    if (!o->csv && mkdirs(c.dir) != 0) {
        fprintf(stderr, "feroce-sweep: cannot create %s: %s\n", c.dir, strerror(errno));
        rc = SWEEP_EXIT_FAILED;
    } else if (sweep_report_csv(&r, csv, err, sizeof err) != 0) {
        fprintf(stderr, "feroce-sweep: %s\n", err);
        rc = SWEEP_EXIT_FAILED;
    } else {
        fprintf(stderr, "feroce-sweep: wrote %s\n", csv);
    }
    free(csv);
    sweep_report_free(&r);
    sweep_ctx_close(&c);
    return rc;
}
