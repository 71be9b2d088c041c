/*
 * feroce-fabric-util.c - memory, hashing and sorting of the fabric files' code.
 */
#include "feroce-fabric-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *check(void *p)
{
    if (!p) {
        fputs("feroce: out of memory\n", stderr);
        abort();
    }
    return p;
}

void *feroce_xmalloc(size_t size)
{
    return check(malloc(size ? size : 1));
}

void *feroce_xcalloc(size_t n, size_t size)
{
    return check(calloc(n ? n : 1, size ? size : 1));
}

void *feroce_xrealloc(void *p, size_t size)
{
    return check(realloc(p, size ? size : 1));
}

char *feroce_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(feroce_xmalloc(n), s, n);
}

uint64_t feroce_fnv1a(const void *data, size_t n)
{
    const unsigned char *p = data;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

static void merge(char *a, char *tmp, size_t n, size_t size, int (*cmp)(const void *, const void *, void *),
                  void *ctx)
{
    if (n < 2)
        return;
    size_t half = n / 2;
    merge(a, tmp, half, size, cmp, ctx);
    merge(a + half * size, tmp, n - half, size, cmp, ctx);
    size_t i = 0, j = half, k = 0;
    while (i < half && j < n) {
        /* the left one first on ties: stable */
        if (cmp(a + j * size, a + i * size, ctx) < 0)
            memcpy(tmp + k++ * size, a + j++ * size, size);
        else
            memcpy(tmp + k++ * size, a + i++ * size, size);
    }
    memcpy(tmp + k * size, a + i * size, (half - i) * size);
    k += half - i;
    memcpy(tmp + k * size, a + j * size, (n - j) * size);
    memcpy(a, tmp, n * size);
}

void feroce_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *, void *), void *ctx)
{
    if (n < 2)
        return;
    char *tmp = feroce_xmalloc(n * size);
    merge(base, tmp, n, size, cmp, ctx);
    free(tmp);
}
