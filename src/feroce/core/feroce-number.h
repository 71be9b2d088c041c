/*
 * feroce-number.h - the one grammar of numbers of every feroce program
 * (src/feroce/doc/input-grammar.md): command-line flags, --ns3:: values, sweep
 * files and rate-limiter scripts all read numbers through these.
 *
 *   whole numbers  decimal digits (123), hexadecimal after 0x (0x7b), or a decimal
 *                  with a fraction or an exponent whose value is whole (1e9, 2.5e3);
 *                  a '-' only where the value may be negative
 *   real numbers   decimal: 2.5, -1, 1e-3, .5, 5.; no hexadecimal, inf or nan
 *   never          blanks, a leading '+', thousands separators, trailing text
 *
 * No I/O, no locale: the same text means the same number everywhere.
 */
#ifndef FEROCE_NUMBER_H
#define FEROCE_NUMBER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Length of the decimal number (as above) at the head of text, 0 if none. */
size_t feroce_number_scan(const char *text);

/* A whole number: its magnitude and sign.  0, or -1 when text is not one or its magnitude
 * does not fit 64 bits. */
int feroce_number_whole(const char *text, uint64_t *magnitude, int *negative);

/* A whole number in [min, max]; 0 or -1. */
int feroce_number_u64(const char *text, uint64_t max, uint64_t *out);
int feroce_number_i64(const char *text, int64_t min, int64_t max, int64_t *out);

/* A finite real number at the head of text; *rest (if rest is not NULL) points after it, else
 * the number must be all of text.  0 or -1. */
int feroce_number_real(const char *text, double *out, const char **rest);

#ifdef __cplusplus
}
#endif

#endif /* FEROCE_NUMBER_H */
