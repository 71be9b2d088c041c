/*
 * feroce-stats.h - the statistics of a run and of a sweep: Jain's fairness
 * index, order statistics and Student-t confidence intervals (GSL), and the
 * steady state of a run's per-window series: where it starts (MSER-5), the
 * confidence interval of its mean (batch means) and whether the run was long
 * enough to tell (src/feroce/doc/results.md, "Steady state").
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

/*
 * MSER-5 (White, "An effective truncation heuristic for bias reduction in
 * simulation output", Simulation 69(6), 1997; White, Cobb and Spratt, WSC
 * 2000): the warm-up to drop from an output series.  The n observations are
 * averaged in k = n / 5 batches of 5 (the n mod 5 last are left out), Z_1..Z_k;
 * for each d in 0..k-2 (the batches after the first d; two at least)
 *
 *   MSER(d) = sum_{j>d} (Z_j - mean_{j>d} Z)^2 / (k - d)^2
 *
 * and d* is the smallest d with the least MSER(d).  The search stops at half
 * the batches (d <= k / 2), as MSER is erratic when few batches are left
 * (Hoad, Robinson and Davies, "Automated selection of the number of
 * replications..." / "Automating warm-up length estimation", JORS 61, 2010);
 * a d* at that limit says the series may still be settling at half its length.
 * The truncation is 5 d* observations.
 */
struct feroce_mser {
    size_t n;        /* observations */
    size_t batches;  /* k = n / 5 */
    size_t truncate; /* observations to drop from the start: 5 d* */
    double mser;     /* MSER(d*); NaN when k < 2 */
    int at_limit;    /* d* = k / 2 (k >= 2) */
};

void feroce_mser5(const double *x, size_t n, struct feroce_mser *out);

/*
 * Non-overlapping batch means (Law and Kelton, "Simulation Modeling and
 * Analysis", ch. 9.5.3): the last b m observations of x[0..n), m = n / b
 * (the n mod b first, nearest the warm-up, left out), in b batches of m;
 * the mean of the batch means, their standard deviation, and the half width
 * of the 95% confidence interval of the mean, t(0.975, b - 1) sd / sqrt(b).
 * The interval holds when the batch means are nearly independent and their
 * mean does not drift.  Two tests at the 1% level (a warning should be rare
 * for a run that has settled):
 * - independence, the von Neumann ratio test (Fishman, "Grouping
 *   observations in digital simulation", Management Science 24(5), 1978):
 *     C = 1 - sum_{j<b} (Z_j - Z_{j+1})^2 / (2 sum_j (Z_j - mean)^2)
 *   is about normal with mean 0 and variance (b - 2) / (b^2 - 1) for
 *   independent normal batch means; correlated when C > 2.326 times its
 *   standard deviation (one-sided);
 * - and batches at least twice as long as the series' correlation time,
 *   tau = (1 + r) / (1 - r) observations with r the lag-1 autocorrelation of
 *   the observations used, 0 when below 1.96 / sqrt(used) (not told apart
 *   from an independent series) (the AR(1) approximation of the integrated
 *   autocorrelation time; n / tau is the usual "effective sample size"):
 *   with shorter batches the test above has too little power;
 * - trend, the least-squares slope of Z_j against j: drifting when its t
 *   statistic passes t(0.995, b - 2) either way (two-sided).
 * A constant series (every batch mean equal) is independent and not drifting.
 */
struct feroce_batch_means {
    size_t batches;    /* b */
    size_t batch_size; /* m */
    double mean;
    double sd;          /* of the batch means */
    double ci95;        /* NaN when b < 2 */
    double von_neumann; /* C; NaN when b < 3 or the batch means are all equal */
    double trend_t;     /* the slope's t statistic; NaN when b < 3, 0 when the means are equal */
    double corr_time;   /* tau, in observations (1 when r is 0, infinite when r = 1) */
    int independent;    /* C below the 1% critical value (or undefined), and m >= 2 tau */
    int drifting;       /* |trend_t| above t(0.995, b - 2) */
};

/* -1 (out untouched) when batches < 2 or n < batches. */
int feroce_batch_means(const double *x, size_t n, size_t batches, struct feroce_batch_means *out);

/*
 * The convergence check of a run's series (one value per window): MSER-5 on
 * x, then FEROCE_SS_BATCHES batch means of x from its truncation (truncate
 * != 0: the steady state starts where MSER-5 says) or of the whole of x (0:
 * the caller chose where it starts), their trend and independence tests,
 * and (truncate 0) whether what MSER-5 would drop biases the mean.  The
 * verdict is the first that applies, in the order below.  On AR(1) series of
 * 100 windows and more that are steady, about 2% of runs get another verdict
 * than FEROCE_SS_SETTLED (src/feroce/test/results/test-steady.c).
 */
enum feroce_steady_verdict {
    FEROCE_SS_SETTLED = 0,
    FEROCE_SS_TOO_SHORT,  /* fewer than FEROCE_SS_MIN_WINDOWS windows: nothing to judge */
    FEROCE_SS_DRIFTING,   /* the batch means trend up or down: still changing */
    FEROCE_SS_TRANSIENT,  /* (truncate 0) MSER-5 would start later, what it keeps passes the
                             independence tests, and what it drops moves the mean by more than the
                             interval's half width: the warm-up is too short */
    FEROCE_SS_CORRELATED, /* the batch means are correlated: the run is short for its time scale */
};

#define FEROCE_SS_BATCHES 10
/* below this a steady series too often looks correlated (batches of one to three windows) */
#define FEROCE_SS_MIN_WINDOWS 40

struct feroce_steady {
    struct feroce_mser mser;      /* of x: where MSER-5 would start the steady state */
    size_t from;                  /* the first value judged: mser.truncate, or 0 */
    struct feroce_batch_means bm; /* of x[from..n); batches 0 when too short */
    enum feroce_steady_verdict verdict;
};

void feroce_steady_state(const double *x, size_t n, int truncate, struct feroce_steady *out);
/* What a verdict means, for a warning: "settled", "too few windows to judge", ... */
const char *feroce_steady_verdict_text(enum feroce_steady_verdict v);

#ifdef __cplusplus
}
#endif

#endif /* FEROCE_STATS_H */
