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
#include <sys/stat.h>

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

/* a value that names a regular file (relative to where feroce-sweep runs, as the points run):
 * "file=VALUE=HASH" with the 64-bit FNV-1a of its bytes, so that an edited topology, flow or
 * configuration file makes new points; nothing when it names no file */
static void add_file(struct text *t, const char *value)
{
    struct stat st;
    FILE *f;
    if (!*value || stat(value, &st) != 0 || !S_ISREG(st.st_mode) || !(f = fopen(value, "rb")))
        return;
    uint64_t h = 0xcbf29ce484222325u;
    int c;
    while ((c = getc(f)) != EOF)
        h = (h ^ (unsigned char)c) * 0x100000001b3u;
    fclose(f);
    char *kv = xasprintf("file=%s=", value), hex[17];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
    add(t, kv, hex);
    free(kv);
}

char *sweep_key_spec(const struct sweep_key_input *in)
{
    struct text t = { 0 };
    add(&t, "feroce-sweep point 1", "");
    add(&t, "program=", in->program);
    for (size_t i = 0; i < in->n_flags; i++) {
        add(&t, "flag=", in->flags[i]);
        const char *eq = strchr(in->flags[i], '=');
        if (eq)
            add_file(&t, eq + 1);
    }
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
        add_file(&t, in->values[order[i]]);
    }
    free(order);
    char seed[32];
    snprintf(seed, sizeof seed, "%ld", in->seed);
    add(&t, "seed=", seed);
    add(&t, "version=", in->version);
    return t.s;
}
