/*
 * sweep-report.h - statistics of a sweep: per parameter combination, the
 * mean, standard deviation and 95% confidence interval (Student t) of each
 * metric over its replications; a table and a CSV file.
 */
#ifndef FEROCE_SWEEP_REPORT_H
#define FEROCE_SWEEP_REPORT_H

#include <stdio.h>

#include <sqlite3.h>

#include "feroce-stats.h"
#include "sweep-context.h"
#include "sweep-grid.h"

struct sweep_report {
    const struct sweep_grid *g;
    size_t n_metrics;
    size_t *done;                 /* per combination: replications done */
    size_t *failed;               /* per combination: replications failed */
    struct feroce_summary *stats; /* n_combos x n_metrics */
};

/* Computes the report from the sweep database (db NULL: nothing run yet). */
int sweep_report_compute(sqlite3 *db, const struct sweep_grid *g, struct sweep_report *r, char *err,
                         size_t errlen);
void sweep_report_free(struct sweep_report *r);

const struct feroce_summary *sweep_report_stat(const struct sweep_report *r, size_t combo, size_t metric);

/* The table, one line per combination: values, runs, failed, mean ± ci95 per metric. */
void sweep_report_print(const struct sweep_report *r, FILE *out);
/* The CSV: parameters, runs, failed, then METRIC_n, _mean, _sd, _ci95 per metric. */
int sweep_report_csv(const struct sweep_report *r, const char *path, char *err, size_t errlen);

/* feroce-sweep report FILE [--csv OUT] */
int sweep_cmd_report(const char *file, const struct sweep_opts *o);

#endif /* FEROCE_SWEEP_REPORT_H */
