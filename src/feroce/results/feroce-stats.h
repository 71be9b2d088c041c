/*
 * feroce-stats.h - the statistics of a run and of a sweep: Jain's fairness
 * index, order statistics and Student-t confidence intervals (GSL).
 */
#ifndef FEROCE_STATS_H
#define FEROCE_STATS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Jain's index (sum x)^2 / (n sum x^2) of n >= 1 shares: 1 when equal, 1/n
 * when one takes all.  NaN when n == 0 or every share is 0. */
double feroce_jain(const double *x, size_t n);

struct feroce_summary {
    size_t n;
    double mean;
    double sd;   /* sample standard deviation (n - 1); 0 when n == 1 */
    double ci95; /* half width of the 95% confidence interval of the mean (Student t, n - 1 dof) */
    double min;
    double p50;
    double p90;
    double p99;
    double max;
};

/* Summarises x[0..n) (sorting it in place); every field is NaN when n == 0,
 * and ci95 is NaN when n == 1. */
void feroce_summarize(double *x, size_t n, struct feroce_summary *s);

/* Half width of the 95% confidence interval of a mean of n samples with
 * standard deviation sd: t(0.975, n - 1) sd / sqrt(n); NaN when n < 2. */
double feroce_ci95(double sd, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* FEROCE_STATS_H */
