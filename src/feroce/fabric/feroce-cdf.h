/*
 * feroce-cdf.h - a flow-size distribution given by its cumulative distribution function at a
 * few sizes, drawn by inverse transform with linear interpolation between them, as the HPCC
 * simulator's traffic_gen.py draws (its custom_rand.py).
 *
 * The file: one "SIZE P" per line, sizes in bytes, P the probability that a flow is no larger:
 * as a fraction (ending at 1) or in percent (ending at 100, the peers' files); both columns
 * strictly increasing, P starting at 0.  Shipped: examples/cdf/ (WebSearch, FbHdp; citations in
 * src/feroce/doc/fabric.md).
 */
#ifndef FEROCE_CDF_H
#define FEROCE_CDF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct feroce_cdf {
    double *size; /* bytes */
    double *p;    /* 0 .. 1 */
    size_t n;
};

/* 0, or -1 with "FILE:LINE: what is wrong" in err. */
int feroce_cdf_read(const char *path, struct feroce_cdf *cdf, char *err, size_t errlen);
void feroce_cdf_free(struct feroce_cdf *cdf);

/* The mean size of the piecewise-linear distribution, in bytes. */
double feroce_cdf_mean(const struct feroce_cdf *cdf);

/* The size at probability u in [0, 1): interpolated, then truncated to whole bytes, at least 1
 * (as custom_rand.py and traffic_gen.py). */
uint64_t feroce_cdf_sample(const struct feroce_cdf *cdf, double u);

#ifdef __cplusplus
}
#endif

#endif /* FEROCE_CDF_H */
