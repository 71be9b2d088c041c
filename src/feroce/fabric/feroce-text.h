/*
 * feroce-text.h - the line reader and the units of the fabric files
 * (topology, flows, size CDFs, the peers' KEY value configuration).
 *
 * Every file error is one line "FILE:LINE: what is wrong" in the caller's
 * buffer; nothing is printed.  Numbers are decimal only (no hex, no inf or
 * nan); rates and times need a unit.  Grammar: src/feroce/doc/fabric.md.
 */
#ifndef FEROCE_TEXT_H
#define FEROCE_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A file read line by line, each line split into blank-separated words; '#' starts a comment. */
struct feroce_text {
    FILE *f;
    const char *path;
    int line;     /* number of the line last returned (from 1) */
    char *buf;    /* that line's text, split in place */
    size_t cap;   /* of buf */
    char **words; /* the line's words */
    size_t n_words;
    size_t words_cap;
};

/* Opens path; 0, or -1 with "PATH: why" in err. */
int feroce_text_open(struct feroce_text *t, const char *path, char *err, size_t errlen);
/* The next line that has words: their number (t->words), 0 at the end of the file, -1 on a read
 * error or a line with a NUL byte (err says which). */
int feroce_text_next(struct feroce_text *t, char *err, size_t errlen);
void feroce_text_close(struct feroce_text *t);

/* Writes "PATH:LINE: message" (or "PATH: message" when line is 0) into err; returns -1. */
int feroce_text_fail(char *err, size_t errlen, const char *path, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Reads word as a whole number 0..max into *v; 0, or -1 with "PATH:LINE: WHAT WORD is out of
 * range: expected 0..MAX" (or what else is wrong with it) in err. */
int feroce_text_u64(const struct feroce_text *t, const char *what, const char *word, uint64_t max,
                    uint64_t *v, char *err, size_t errlen);

/*
 * The parsers return NULL when text is a valid value, else what is wrong with it, as words
 * that follow the value in a message ("has no unit: expected e.g. 25Gbps").
 */
/* A rate with its unit: bps Kbps Mbps Gbps Tbps, or b/s Kb/s Mb/s Gb/s Tb/s (k for K too);
 * decimal prefixes, > 0 and at most 100 Tb/s, a whole number of bit/s. */
const char *feroce_parse_rate(const char *text, uint64_t *bps);
/* A time with its unit: s ms us ns (and ps when whole ns); >= 0, a whole number of ns, at most
 * 10^6 s. */
const char *feroce_parse_time(const char *text, int64_t *ns);
/* A whole decimal number 0..UINT64_MAX (digits only). */
const char *feroce_parse_u64(const char *text, uint64_t *value);
/* A finite decimal number (digits, one point, an exponent; no hex, inf, nan). */
const char *feroce_parse_double(const char *text, double *value);

/* A rate written as ns-3 reads it ("25Gbps", "2500Mbps", "1bps": the largest unit that divides
 * it), into buf; returns buf. */
const char *feroce_format_rate(uint64_t bps, char *buf, size_t len);
/* A time written with the largest unit that divides it ("1us", "1500ns", "0ns"), into buf. */
const char *feroce_format_time(int64_t ns, char *buf, size_t len);

/* 64-bit FNV-1a of a file's bytes as 16 hex digits (for a sweep point's identity); 0, or -1 with
 * "PATH: why" in err. */
int feroce_file_hash(const char *path, char hex[17], char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* FEROCE_TEXT_H */
