/*
 * feroce-text.c - the line reader and the units of the fabric files (feroce-text.h).
 */
#define _POSIX_C_SOURCE 200809L /* getline */

#include "feroce-text.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int feroce_text_fail(char *err, size_t errlen, const char *path, int line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line > 0)
        snprintf(err, errlen, "%s:%d: %s", path, line, msg);
    else
        snprintf(err, errlen, "%s: %s", path, msg);
    return -1;
}

int feroce_text_u64(const struct feroce_text *t, const char *what, const char *word, uint64_t max,
                    uint64_t *v, char *err, size_t errlen)
{
    const char *why = feroce_parse_u64(word, v);
    if (!why && *v > max)
        why = "is out of range";
    if (why)
        return feroce_text_fail(err, errlen, t->path, t->line, "%s %s %s: expected 0..%llu", what, word, why,
                                (unsigned long long)max);
    return 0;
}

int feroce_text_open(struct feroce_text *t, const char *path, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    t->path = path;
    t->f = fopen(path, "r");
    if (!t->f)
        return feroce_text_fail(err, errlen, path, 0, "cannot be read: %s", strerror(errno));
    return 0;
}

void feroce_text_close(struct feroce_text *t)
{
    if (t->f)
        fclose(t->f);
    free(t->buf);
    free(t->words);
    memset(t, 0, sizeof *t);
}

static void add_word(struct feroce_text *t, char *w)
{
    if (t->n_words == t->words_cap) {
        t->words_cap = t->words_cap ? 2 * t->words_cap : 16;
        t->words = realloc(t->words, t->words_cap * sizeof *t->words);
        if (!t->words)
            abort(); /* out of memory: as the rest of the program, no recovery */
    }
    t->words[t->n_words++] = w;
}

int feroce_text_next(struct feroce_text *t, char *err, size_t errlen)
{
    for (;;) {
        ssize_t n = getline(&t->buf, &t->cap, t->f);
        if (n < 0) {
            if (ferror(t->f))
                return feroce_text_fail(err, errlen, t->path, t->line + 1, "cannot be read: %s",
                                        strerror(errno));
            return 0;
        }
        t->line++;
        if ((size_t)n != strlen(t->buf))
            return feroce_text_fail(err, errlen, t->path, t->line, "has a NUL byte: expected text");
        t->n_words = 0;
        char *p = t->buf;
        for (;;) {
            while (*p && isspace((unsigned char)*p))
                p++;
            if (!*p || *p == '#')
                break;
            add_word(t, p);
            while (*p && !isspace((unsigned char)*p))
                p++;
            if (*p)
                *p++ = '\0';
        }
        if (t->n_words)
            return (int)t->n_words;
    }
}

/* digits [. digits] [e[+-]digits], with at least one digit before the exponent */
static size_t decimal_prefix(const char *s)
{
    size_t i = 0, digits = 0;
    if (s[i] == '+' || s[i] == '-')
        i++;
    while (isdigit((unsigned char)s[i]))
        i++, digits++;
    if (s[i] == '.') {
        i++;
        while (isdigit((unsigned char)s[i]))
            i++, digits++;
    }
    if (!digits)
        return 0;
    if (s[i] == 'e' || s[i] == 'E') {
        size_t j = i + 1;
        if (s[j] == '+' || s[j] == '-')
            j++;
        if (isdigit((unsigned char)s[j])) {
            while (isdigit((unsigned char)s[j]))
                j++;
            i = j;
        }
    }
    return i;
}

const char *feroce_parse_double(const char *text, double *value)
{
    size_t n = decimal_prefix(text);
    if (!n || text[n])
        return "is not a decimal number";
    errno = 0;
    *value = strtod(text, NULL);
    if (errno == ERANGE || !isfinite(*value))
        return "is out of range";
    return NULL;
}

const char *feroce_parse_u64(const char *text, uint64_t *value)
{
    if (!*text)
        return "is not a whole number";
    for (const char *p = text; *p; p++)
        if (!isdigit((unsigned char)*p))
            return "is not a whole number";
    errno = 0;
    unsigned long long v = strtoull(text, NULL, 10);
    if (errno == ERANGE)
        return "is out of range";
    *value = v;
    return NULL;
}

struct unit {
    const char *name;
    double scale;
};

/* the number and its unit from the table; NULL or why not */
static const char *number_with_unit(const char *text, const struct unit *units, double *value,
                                    const char *example)
{
    static char why[96];
    size_t n = decimal_prefix(text);
    if (!n)
        return "is not a number with a unit";
    if (!text[n]) {
        snprintf(why, sizeof why, "has no unit: expected e.g. %s", example);
        return why;
    }
    for (const struct unit *u = units; u->name; u++) {
        if (strcmp(text + n, u->name) == 0) {
            char num[64];
            if (n >= sizeof num)
                return "is out of range";
            memcpy(num, text, n);
            num[n] = '\0';
            double v = strtod(num, NULL);
            if (!isfinite(v))
                return "is out of range";
            *value = v * u->scale;
            return NULL;
        }
    }
    snprintf(why, sizeof why, "has an unknown unit \"%.16s\": expected e.g. %s", text + n, example);
    return why;
}

const char *feroce_parse_rate(const char *text, uint64_t *bps)
{
    static const struct unit units[] = { { "bps", 1 },    { "b/s", 1 },    { "Kbps", 1e3 },  { "kbps", 1e3 },
                                         { "Kb/s", 1e3 }, { "kb/s", 1e3 }, { "Mbps", 1e6 },  { "Mb/s", 1e6 },
                                         { "Gbps", 1e9 }, { "Gb/s", 1e9 }, { "Tbps", 1e12 }, { "Tb/s", 1e12 },
                                         { NULL, 0 } };
    double v;
    const char *why = number_with_unit(text, units, &v, "25Gbps");
    if (why)
        return why;
    if (!(v > 0) || v > 1e14)
        return "is out of range: expected > 0 and at most 100Tbps";
    double whole = nearbyint(v);
    if (fabs(v - whole) > 1e-6 * (whole > 1 ? whole : 1))
        return "is not a whole number of bit/s";
    *bps = (uint64_t)whole;
    return NULL;
}

const char *feroce_parse_time(const char *text, int64_t *ns)
{
    static const struct unit units[] = { { "s", 1e9 }, { "ms", 1e6 },  { "us", 1e3 },
                                         { "ns", 1 },  { "ps", 1e-3 }, { NULL, 0 } };
    double v;
    const char *why = number_with_unit(text, units, &v, "1us");
    if (why)
        return why;
    if (v < 0 || v > 1e15)
        return "is out of range: expected 0 to 1000000s";
    double whole = nearbyint(v);
    if (fabs(v - whole) > 1e-6 * (whole > 1 ? whole : 1))
        return "is not a whole number of ns";
    *ns = (int64_t)whole;
    return NULL;
}

const char *feroce_format_rate(uint64_t bps, char *buf, size_t len)
{
    static const struct unit units[] = {
        { "Tbps", 1e12 }, { "Gbps", 1e9 }, { "Mbps", 1e6 }, { "Kbps", 1e3 }, { NULL, 0 }
    };
    for (const struct unit *u = units; u->name; u++) {
        uint64_t scale = (uint64_t)u->scale;
        if (bps >= scale && bps % scale == 0) {
            snprintf(buf, len, "%llu%s", (unsigned long long)(bps / scale), u->name);
            return buf;
        }
    }
    snprintf(buf, len, "%llubps", (unsigned long long)bps);
    return buf;
}

const char *feroce_format_time(int64_t ns, char *buf, size_t len)
{
    static const struct unit units[] = { { "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 }, { NULL, 0 } };
    for (const struct unit *u = units; u->name; u++) {
        int64_t scale = (int64_t)u->scale;
        if (ns >= scale && ns % scale == 0) {
            snprintf(buf, len, "%lld%s", (long long)(ns / scale), u->name);
            return buf;
        }
    }
    snprintf(buf, len, "%lldns", (long long)ns);
    return buf;
}

int feroce_file_hash(const char *path, char hex[17], char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return feroce_text_fail(err, errlen, path, 0, "cannot be read: %s", strerror(errno));
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a, 64 bits */
    unsigned char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        for (size_t i = 0; i < n; i++)
            h = (h ^ buf[i]) * 0x100000001b3ULL;
    int bad = ferror(f);
    fclose(f);
    if (bad)
        return feroce_text_fail(err, errlen, path, 0, "cannot be read");
    snprintf(hex, 17, "%016llx", (unsigned long long)h);
    return 0;
}
