/*
 * feroce-cdf.c - flow-size distributions (feroce-cdf.h).
 */
#include "feroce-cdf.h"

#include "feroce-fabric-util.h"
#include "feroce-text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void feroce_cdf_free(struct feroce_cdf *cdf)
{
    free(cdf->size);
    free(cdf->p);
    memset(cdf, 0, sizeof *cdf);
}

int feroce_cdf_read(const char *path, struct feroce_cdf *cdf, char *err, size_t errlen)
{
    struct feroce_text tx;
    size_t cap = 0;
    int *lines = NULL, rc;
    memset(cdf, 0, sizeof *cdf);
    if (feroce_text_open(&tx, path, err, errlen) != 0)
        return -1;
    while ((rc = feroce_text_next(&tx, err, errlen)) > 0) {
        double size, p;
        const char *why = NULL;
        if (tx.n_words != 2) {
            rc = feroce_text_fail(err, errlen, path, tx.line, "expected SIZE P (2 words), found %zu",
                                  tx.n_words);
            break;
        }
        if ((why = feroce_parse_double(tx.words[0], &size)) != NULL || size < 0) {
            rc = feroce_text_fail(err, errlen, path, tx.line, "size %s %s: expected bytes >= 0", tx.words[0],
                                  why ? why : "is negative");
            break;
        }
        if ((why = feroce_parse_double(tx.words[1], &p)) != NULL || p < 0) {
            rc = feroce_text_fail(err, errlen, path, tx.line, "probability %s %s: expected >= 0", tx.words[1],
                                  why ? why : "is negative");
            break;
        }
        if (cdf->n && size <= cdf->size[cdf->n - 1]) {
            rc = feroce_text_fail(err, errlen, path, tx.line,
                                  "size %s is not above the size of line %d: expected increasing sizes",
                                  tx.words[0], lines[cdf->n - 1]);
            break;
        }
        if (cdf->n && p <= cdf->p[cdf->n - 1]) {
            rc = feroce_text_fail(err, errlen, path, tx.line,
                                  "probability %s is not above the probability of line %d: the CDF is not "
                                  "increasing",
                                  tx.words[1], lines[cdf->n - 1]);
            break;
        }
        if (!cdf->n && p != 0) {
            rc = feroce_text_fail(err, errlen, path, tx.line,
                                  "the CDF starts at %s: expected 0 (no flow below the first size)",
                                  tx.words[1]);
            break;
        }
        if (cdf->n == cap) {
            cap = cap ? 2 * cap : 16;
            cdf->size = feroce_xrealloc(cdf->size, cap * sizeof *cdf->size);
            cdf->p = feroce_xrealloc(cdf->p, cap * sizeof *cdf->p);
            lines = feroce_xrealloc(lines, cap * sizeof *lines);
        }
        cdf->size[cdf->n] = size;
        cdf->p[cdf->n] = p;
        lines[cdf->n++] = tx.line;
    }
    if (rc == 0 && cdf->n < 2)
        rc = feroce_text_fail(err, errlen, path, tx.line, "has %zu point%s: expected at least two", cdf->n,
                              cdf->n == 1 ? "" : "s");
    if (rc == 0) {
        double last = cdf->p[cdf->n - 1];
        if (last != 1 && last != 100)
            rc = feroce_text_fail(err, errlen, path, lines[cdf->n - 1],
                                  "the CDF ends at %g: expected 1 (or 100, in percent)", last);
        else
            for (size_t i = 0; i < cdf->n; i++)
                cdf->p[i] /= last;
    }
    free(lines);
    feroce_text_close(&tx);
    if (rc < 0) {
        feroce_cdf_free(cdf);
        return -1;
    }
    return 0;
}

double feroce_cdf_mean(const struct feroce_cdf *cdf)
{
    double sum = 0;
    for (size_t i = 1; i < cdf->n; i++)
        sum += (cdf->size[i] + cdf->size[i - 1]) / 2 * (cdf->p[i] - cdf->p[i - 1]);
    return sum;
}

uint64_t feroce_cdf_sample(const struct feroce_cdf *cdf, double u)
{
    size_t i = 1;
    while (i + 1 < cdf->n && u > cdf->p[i])
        i++;
    double x0 = cdf->size[i - 1], x1 = cdf->size[i], y0 = cdf->p[i - 1], y1 = cdf->p[i];
    double x = x0 + (x1 - x0) / (y1 - y0) * (u - y0);
    return x < 1 ? 1 : (uint64_t)x;
}
