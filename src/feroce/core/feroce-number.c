/*
 * feroce-number.c - the one grammar of numbers (feroce-number.h).
 */
#include "feroce-number.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int is_hex_digit(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

size_t feroce_number_scan(const char *text)
{
    size_t i = 0, digits = 0;
    if (text[i] == '-')
        i++;
    while (is_digit(text[i])) {
        i++;
        digits++;
    }
    if (text[i] == '.') {
        i++;
        while (is_digit(text[i])) {
            i++;
            digits++;
        }
    }
    if (digits == 0)
        return 0;
    if (text[i] == 'e' || text[i] == 'E') {
        size_t j = i + 1, exp_digits = 0;
        if (text[j] == '+' || text[j] == '-')
            j++;
        while (is_digit(text[j])) {
            j++;
            exp_digits++;
        }
        if (exp_digits > 0)
            i = j;
    }
    return i;
}

int feroce_number_whole(const char *text, uint64_t *magnitude, int *negative)
{
    *negative = text[0] == '-';
    const char *body = text + *negative;
    if (body[0] == '0' && (body[1] == 'x' || body[1] == 'X')) {
        const char *hex = body + 2;
        size_t n = strlen(hex);
        if (n == 0 || n > 16)
            return -1;
        uint64_t v = 0;
        for (size_t i = 0; i < n; i++) {
            if (!is_hex_digit(hex[i]))
                return -1;
            v = v * 16 + (uint64_t)(is_digit(hex[i]) ? hex[i] - '0' : (hex[i] | 0x20) - 'a' + 10);
        }
        *magnitude = v;
        return 0;
    }
    size_t len = strlen(body);
    if (len == 0 || body[0] == '-' || feroce_number_scan(body) != len)
        return -1;
    /* the digits without the point, where the point was, and the exponent: an exact integer */
    char digits[64];
    size_t n = 0, i = 0;
    long point = -1;
    for (; i < len && body[i] != 'e' && body[i] != 'E'; i++) {
        if (body[i] == '.')
            point = (long)n;
        else if (n < sizeof digits - 1)
            digits[n++] = body[i];
        else
            return -1;
    }
    digits[n] = '\0';
    errno = 0;
    long exponent = i < len ? strtol(body + i + 1, NULL, 10) : 0;
    if (errno == ERANGE || exponent > 1000 || exponent < -1000)
        return -1;
    long scale = exponent - (point < 0 ? 0 : (long)n - point);
    size_t first = 0;
    while (first < n && digits[first] == '0')
        first++;
    if (first == n) {
        *magnitude = 0;
        return 0;
    }
    memmove(digits, digits + first, n - first + 1);
    n -= first;
    while (scale < 0 && n > 0 && digits[n - 1] == '0') {
        digits[--n] = '\0';
        scale++;
    }
    if (scale < 0 || (long)n + scale > 20)
        return -1; /* a fraction, or more than 20 digits */
    uint64_t v = 0;
    for (size_t k = 0; k < n + (size_t)scale; k++) {
        unsigned d = k < n ? (unsigned)(digits[k] - '0') : 0;
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *magnitude = v;
    return 0;
}

int feroce_number_u64(const char *text, uint64_t max, uint64_t *out)
{
    uint64_t m;
    int negative;
    if (feroce_number_whole(text, &m, &negative) != 0 || (negative && m != 0) || m > max)
        return -1;
    *out = m;
    return 0;
}

int feroce_number_i64(const char *text, int64_t min, int64_t max, int64_t *out)
{
    uint64_t m;
    int negative;
    if (feroce_number_whole(text, &m, &negative) != 0)
        return -1;
    if (negative ? m > (uint64_t)INT64_MAX + 1 : m > (uint64_t)INT64_MAX)
        return -1;
    int64_t v = negative ? (m == 0 ? 0 : -(int64_t)(m - 1) - 1) : (int64_t)m;
    if (v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

int feroce_number_real(const char *text, double *out, const char **rest)
{
    size_t n = feroce_number_scan(text);
    char buf[80];
    if (n == 0 || n >= sizeof buf || (!rest && text[n] != '\0'))
        return -1;
    memcpy(buf, text, n);
    buf[n] = '\0';
    errno = 0;
    double v = strtod(buf, NULL);
    if (!isfinite(v) || errno == ERANGE)
        return -1;
    *out = v == 0 ? 0 : v; /* no -0 */
    if (rest)
        *rest = text + n;
    return 0;
}
