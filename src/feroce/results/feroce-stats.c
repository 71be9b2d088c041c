/*
 * feroce-stats.c - statistics on GSL (feroce-stats.h).
 */
#include "feroce-stats.h"

#include <math.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

double feroce_jain(const double *x, size_t n)
{
    double sum = 0, squares = 0;
    for (size_t i = 0; i < n; i++) {
        sum += x[i];
        squares += x[i] * x[i];
    }
    if (n == 0 || squares == 0)
        return NAN;
    return sum * sum / ((double)n * squares);
}

double feroce_ci95(double sd, size_t n)
{
    if (n < 2)
        return NAN;
    return gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) * sd / sqrt((double)n);
}

void feroce_summarize(double *x, size_t n, struct feroce_summary *s)
{
    s->n = n;
    if (n == 0) {
        s->mean = s->sd = s->ci95 = s->min = s->p50 = s->p90 = s->p99 = s->max = NAN;
        return;
    }
    gsl_sort(x, 1, n);
    s->mean = gsl_stats_mean(x, 1, n);
    s->sd = n > 1 ? gsl_stats_sd_m(x, 1, n, s->mean) : 0;
    s->ci95 = feroce_ci95(s->sd, n);
    s->min = x[0];
    s->max = x[n - 1];
    s->p50 = gsl_stats_quantile_from_sorted_data(x, 1, n, 0.50);
    s->p90 = gsl_stats_quantile_from_sorted_data(x, 1, n, 0.90);
    s->p99 = gsl_stats_quantile_from_sorted_data(x, 1, n, 0.99);
}
