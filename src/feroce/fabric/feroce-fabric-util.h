/*
 * feroce-fabric-util.h - memory, hashing and sorting shared by the fabric files' code.
 *
 * Out of memory aborts (the programs that read fabrics have no way to go on without it).
 */
#ifndef FEROCE_FABRIC_UTIL_H
#define FEROCE_FABRIC_UTIL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void *feroce_xmalloc(size_t size);
void *feroce_xcalloc(size_t n, size_t size);
void *feroce_xrealloc(void *p, size_t size);
char *feroce_xstrdup(const char *s);

/* Make room for one more element of the array a holding n of cap. */
#define FEROCE_GROW(a, n, cap)                                                                               \
    do {                                                                                                     \
        if ((n) == (cap)) {                                                                                  \
            (cap) = (cap) ? 2 * (cap) : 16;                                                                  \
            (a) = feroce_xrealloc((a), (cap) * sizeof *(a));                                                 \
        }                                                                                                    \
    } while (0)

/* 64-bit FNV-1a of n bytes. */
uint64_t feroce_fnv1a(const void *data, size_t n);

/* A stable sort (merge sort) of n elements of size bytes by cmp(a, b, ctx). */
void feroce_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *, void *),
                 void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* FEROCE_FABRIC_UTIL_H */
