/*
 * feroce-fct.c - standalone FCT and slowdown bins (feroce-fct.h).
 */
#include "feroce-fct.h"

#include "feroce-fabric-util.h"

#include <math.h>
#include <stdlib.h>

/* serialization time of bytes on the wire at bps, in ns */
static double tx_ns(uint64_t bytes, uint64_t bps)
{
    return (double)bytes * 8e9 / (double)bps;
}

double feroce_fct_standalone_ns(const struct feroce_message_frames *m, const struct feroce_hop *fwd,
                                size_t n_fwd, const struct feroce_hop *rev, size_t n_rev)
{
    double delays = 0, longest = 0;
    for (size_t k = 0; k < n_fwd; k++)
        delays += (double)fwd[k].delay_ns;
    if (m->packets <= 1) {
        for (size_t k = 0; k < n_fwd; k++)
            longest += tx_ns(m->first, fwd[k].bps);
    } else {
        /* the first packet down to hop a, the middle ones across [a, b], the last from hop b */
        uint64_t middle = m->packets - 2;
        for (size_t a = 0; a < n_fwd; a++) {
            double head = 0;
            for (size_t k = 0; k <= a; k++)
                head += tx_ns(m->first, fwd[k].bps);
            double across = 0, slowest = 0;
            for (size_t b = a; b < n_fwd; b++) {
                double w = tx_ns(m->middle, fwd[b].bps);
                across += w;
                slowest = w > slowest ? w : slowest;
                double tail = 0;
                for (size_t k = b; k < n_fwd; k++)
                    tail += tx_ns(m->last, fwd[k].bps);
                /* with no middle packet the path steps from the first to the last at one hop */
                double path = middle ? head + across + (double)(middle - 1) * slowest + tail : head + tail;
                if (!middle && b > a)
                    continue;
                longest = path > longest ? path : longest;
            }
        }
    }
    double ack = 0;
    for (size_t k = 0; k < n_rev; k++)
        ack += tx_ns(m->ack, rev[k].bps) + (double)rev[k].delay_ns;
    return delays + longest + ack;
}

double feroce_slowdown(double fct_ns, double standalone_ns)
{
    double s = fct_ns / standalone_ns;
    return s < 1 ? 1 : s;
}

static int by_size(const void *x, const void *y, void *ctx)
{
    const struct feroce_fct_sample *a = x, *b = y;
    (void)ctx;
    if (a->size != b->size)
        return a->size < b->size ? -1 : 1;
    return a->slowdown < b->slowdown ? -1 : a->slowdown > b->slowdown;
}

static int by_value(const void *x, const void *y, void *ctx)
{
    double a = *(const double *)x, b = *(const double *)y;
    (void)ctx;
    return a < b ? -1 : a > b;
}

/* p50, p95, p99 of the n samples' slowdowns into b (NaN when n is 0); s: scratch of n doubles */
static void percentiles(const struct feroce_fct_sample *samples, size_t n, double *s,
                        struct feroce_fct_bin *b)
{
    if (!n) {
        b->p50 = b->p95 = b->p99 = NAN;
        return;
    }
    for (size_t k = 0; k < n; k++)
        s[k] = samples[k].slowdown;
    feroce_sort(s, n, sizeof *s, by_value, NULL);
    b->p50 = s[(size_t)((double)n * 0.50)];
    b->p95 = s[(size_t)((double)n * 0.95)];
    b->p99 = s[(size_t)((double)n * 0.99)];
}

size_t feroce_fct_bins(struct feroce_fct_sample *samples, size_t n, unsigned step_pct,
                       struct feroce_fct_bin *bins)
{
    if (step_pct < 1 || step_pct > 100)
        return 0;
    feroce_sort(samples, n, sizeof *samples, by_size, NULL);
    size_t n_bins = (100 + step_pct - 1) / step_pct;
    double *s = feroce_xmalloc((n ? n : 1) * sizeof *s);
    for (size_t i = 0; i < n_bins; i++) {
        size_t lo = (size_t)((uint64_t)i * step_pct * n / 100);
        size_t hi_pct = (i + 1) * step_pct > 100 ? 100 : (i + 1) * step_pct;
        size_t hi = (size_t)((uint64_t)hi_pct * n / 100);
        struct feroce_fct_bin *b = &bins[i];
        b->from_pct = (double)(i * step_pct);
        b->to_pct = (double)hi_pct;
        b->n = hi - lo;
        b->min_size = b->n ? samples[lo].size : 0;
        b->max_size = b->n ? samples[hi - 1].size : 0;
        percentiles(samples + lo, b->n, s, b);
    }
    free(s);
    return n_bins;
}

const char *const feroce_fct_decade_name[FEROCE_FCT_DECADES] = { "size_1k", "size_10k", "size_100k",
                                                                 "size_1m", "size_10m", "size_big" };

void feroce_fct_decades(struct feroce_fct_sample *samples, size_t n,
                        struct feroce_fct_bin bins[FEROCE_FCT_DECADES])
{
    feroce_sort(samples, n, sizeof *samples, by_size, NULL);
    double *s = feroce_xmalloc((n ? n : 1) * sizeof *s);
    uint64_t low = 0, high = 1000;
    size_t at = 0;
    for (int d = 0; d < FEROCE_FCT_DECADES; d++, low = high, high *= 10) {
        if (d == FEROCE_FCT_DECADES - 1)
            high = UINT64_MAX;
        size_t from = at;
        while (at < n && samples[at].size < high)
            at++;
        struct feroce_fct_bin *b = &bins[d];
        b->from_pct = b->to_pct = NAN;
        b->min_size = low;
        b->max_size = high == UINT64_MAX ? UINT64_MAX : high - 1;
        b->n = at - from;
        percentiles(samples + from, b->n, s, b);
    }
    free(s);
}

void feroce_fct_write_bins_header(FILE *f)
{
    fputs("binning,kind,from_pct,to_pct,min_size,max_size,flows,p50,p95,p99\n", f);
}

void feroce_fct_write_bins(FILE *f, const char *kind, struct feroce_fct_sample *samples, size_t n,
                           unsigned step_pct)
{
    struct feroce_fct_bin *bins = feroce_xmalloc((100 / (step_pct ? step_pct : 1) + 1) * sizeof *bins);
    size_t n_bins = feroce_fct_bins(samples, n, step_pct, bins);
    for (size_t i = 0; i < n_bins; i++)
        if (bins[i].n)
            fprintf(f, "share,%s,%g,%g,%llu,%llu,%zu,%.6g,%.6g,%.6g\n", kind, bins[i].from_pct,
                    bins[i].to_pct, (unsigned long long)bins[i].min_size,
                    (unsigned long long)bins[i].max_size, bins[i].n, bins[i].p50, bins[i].p95, bins[i].p99);
    free(bins);
    struct feroce_fct_bin d[FEROCE_FCT_DECADES];
    feroce_fct_decades(samples, n, d);
    for (int i = 0; i < FEROCE_FCT_DECADES; i++) {
        if (!d[i].n)
            continue;
        fprintf(f, "decade,%s,,,%llu,", kind, (unsigned long long)d[i].min_size);
        if (d[i].max_size != UINT64_MAX)
            fprintf(f, "%llu", (unsigned long long)d[i].max_size);
        fprintf(f, ",%zu,%.6g,%.6g,%.6g\n", d[i].n, d[i].p50, d[i].p95, d[i].p99);
    }
}
