/*
 * sweep-key.c - the stable key of a point (sweep-key.h).
 *
 * The key is the 64-bit FNV-1a hash of the point's canonical text.  The text
 * itself is stored beside the key in the sweep database (points.spec, UNIQUE),
 * so two different points that hashed alike would be refused, not confused.
 */
#include "sweep-key.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep-util.h"

uint64_t sweep_fnv1a64(const char *s)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3u;
    }
    return h;
}

void sweep_key_of_spec(const char *spec, char key[SWEEP_KEY_LEN + 1])
{
    snprintf(key, SWEEP_KEY_LEN + 1, "%016llx", (unsigned long long)sweep_fnv1a64(spec));
}

struct text {
    char *s;
    size_t n, cap;
};

static void add(struct text *t, const char *a, const char *b)
{
    size_t need = t->n + strlen(a) + strlen(b) + 2;
    if (need > t->cap) {
        t->cap = need * 2;
        t->s = xrealloc(t->s, t->cap);
    }
    t->n += (size_t)sprintf(t->s + t->n, "%s%s\n", a, b);
}

char *sweep_key_spec(const struct sweep_key_input *in)
{
    struct text t = { 0 };
    add(&t, "feroce-sweep point 1", "");
    add(&t, "program=", in->program);
    for (size_t i = 0; i < in->n_flags; i++)
        add(&t, "flag=", in->flags[i]);
    /* parameters in name order, so reordering the param lines keeps the keys */
    size_t *order = xmalloc(in->n_params * sizeof *order);
    for (size_t i = 0; i < in->n_params; i++) {
        size_t j = i;
        while (j > 0 && strcmp(in->names[order[j - 1]], in->names[i]) > 0) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    for (size_t i = 0; i < in->n_params; i++) {
        char *kv = xasprintf("param=%s=", in->names[order[i]]);
        add(&t, kv, in->values[order[i]]);
        free(kv);
    }
    free(order);
    char seed[32];
    snprintf(seed, sizeof seed, "%ld", in->seed);
    add(&t, "seed=", seed);
    add(&t, "version=", in->version);
    return t.s;
}
