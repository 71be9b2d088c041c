/*
 * feroce-stats.c - statistics on GSL (feroce-stats.h).
 */
#include "feroce-stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

void feroce_mser5(const double *x, size_t n, struct feroce_mser *out)
{
    size_t k = n / 5;
    out->n = n;
    out->batches = k;
    out->truncate = 0;
    out->mser = NAN;
    out->at_limit = 0;
    if (k < 2)
        return;
    /* the batch means' mean and sum of squared deviations over j > d, for every d in one pass
     * from the end (Welford's update: no cancellation when the values are large and close) */
    double mean = 0, m2 = 0, best = INFINITY;
    size_t best_d = 0;
    for (size_t d = k; d-- > 0;) {
        double z = 0;
        for (size_t i = 0; i < 5; i++)
            z += x[5 * d + i];
        z /= 5;
        size_t left = k - d;
        double delta = z - mean;
        mean += delta / (double)left;
        m2 += delta * (z - mean);
        if (2 * d > k)
            continue;
        double m = m2 / ((double)left * (double)left);
        if (m <= best) { /* <=: the smallest d among equal ones, as d goes down */
            best = m;
            best_d = d;
        }
    }
    out->truncate = 5 * best_d;
    out->mser = best;
    out->at_limit = best_d == k / 2;
}

int feroce_batch_means(const double *x, size_t n, size_t batches, struct feroce_batch_means *out)
{
    if (batches < 2 || n < batches)
        return -1;
    size_t m = n / batches;
    const double *first = x + (n - batches * m);
    double *z = malloc(batches * sizeof *z);
    if (!z)
        return -1;
    for (size_t j = 0; j < batches; j++) {
        double s = 0;
        for (size_t i = 0; i < m; i++)
            s += first[j * m + i];
        z[j] = s / (double)m;
    }
    out->batches = batches;
    out->batch_size = m;
    out->mean = gsl_stats_mean(z, 1, batches);
    out->sd = gsl_stats_sd_m(z, 1, batches, out->mean);
    out->ci95 = feroce_ci95(out->sd, batches);
    out->von_neumann = NAN;
    out->trend_t = NAN;
    out->independent = 1;
    out->drifting = 0;
    double spread = 0, steps = 0, sxy = 0;
    double b = (double)batches, centre = (b - 1) / 2;
    for (size_t j = 0; j < batches; j++) {
        spread += (z[j] - out->mean) * (z[j] - out->mean);
        sxy += ((double)j - centre) * (z[j] - out->mean);
        if (j + 1 < batches)
            steps += (z[j] - z[j + 1]) * (z[j] - z[j + 1]);
    }
    if (batches >= 3 && spread > 0) {
        out->von_neumann = 1 - steps / (2 * spread);
        out->independent = out->von_neumann <= 2.3263478740408408 * sqrt((b - 2) / (b * b - 1));
        /* slope = sxy / sxx, its variance (residual sum of squares / (b - 2)) / sxx */
        double sxx = b * (b * b - 1) / 12;
        double slope = sxy / sxx;
        double residual = spread - slope * sxy;
        if (residual <= 0)
            out->trend_t = slope == 0 ? 0 : (slope > 0 ? INFINITY : -INFINITY); /* a straight line */
        else
            out->trend_t = slope / sqrt(residual / (b - 2) / sxx);
        out->drifting = fabs(out->trend_t) > gsl_cdf_tdist_Pinv(0.995, b - 2);
    } else if (batches >= 3) {
        out->trend_t = 0;
    }
    /* lag-1 autocorrelation of the observations: tau = (1 + r) / (1 - r) */
    size_t used = batches * m;
    double mean = out->mean, c0 = 0, c1 = 0;
    for (size_t i = 0; i < used; i++) {
        c0 += (first[i] - mean) * (first[i] - mean);
        if (i + 1 < used)
            c1 += (first[i] - mean) * (first[i + 1] - mean);
    }
    /* (an r within the noise of an independent series, 1.96 / sqrt(n), is taken as 0) */
    double r = c0 > 0 ? c1 / c0 : 0;
    if (r * sqrt((double)used) < 1.959963984540054)
        r = 0;
    out->corr_time = r >= 1 ? INFINITY : (1 + r) / (1 - r);
    if ((double)m < 2 * out->corr_time)
        out->independent = 0;
    free(z);
    return 0;
}

void feroce_steady_state(const double *x, size_t n, int truncate, struct feroce_steady *out)
{
    memset(out, 0, sizeof *out);
    out->bm.mean = out->bm.sd = out->bm.ci95 = out->bm.von_neumann = out->bm.trend_t = out->bm.corr_time =
        NAN;
    feroce_mser5(x, n, &out->mser);
    if (n < FEROCE_SS_MIN_WINDOWS) {
        out->verdict = FEROCE_SS_TOO_SHORT;
        return;
    }
    out->from = truncate ? out->mser.truncate : 0;
    feroce_batch_means(x + out->from, n - out->from, FEROCE_SS_BATCHES, &out->bm);
    /* (truncate 0) the part MSER-5 keeps, to tell a transient from a correlated series: a start-up
     * transient also makes the whole series look correlated */
    struct feroce_batch_means steady;
    int transient =
        !truncate && out->mser.truncate > 0 &&
        feroce_batch_means(x + out->mser.truncate, n - out->mser.truncate, FEROCE_SS_BATCHES, &steady) == 0 &&
        steady.independent && fabs(gsl_stats_mean(x, 1, n) - steady.mean) > steady.ci95;
    if (out->bm.drifting)
        out->verdict = FEROCE_SS_DRIFTING;
    else if (transient)
        out->verdict = FEROCE_SS_TRANSIENT;
    else if (!out->bm.independent)
        out->verdict = FEROCE_SS_CORRELATED;
    else
        out->verdict = FEROCE_SS_SETTLED;
}

const char *feroce_steady_verdict_text(enum feroce_steady_verdict v)
{
    switch (v) {
    case FEROCE_SS_SETTLED:
        return "settled";
    case FEROCE_SS_TOO_SHORT:
        return "too few windows to judge";
    case FEROCE_SS_DRIFTING:
        return "still changing after the warm-up";
    case FEROCE_SS_TRANSIENT:
        return "still settling after the warm-up";
    case FEROCE_SS_CORRELATED:
        return "batch means correlated (windows too short for the run's time scale)";
    }
    return "?";
}
