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

#include "sweep-inputs.h"
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

/* a file the run reads: "file=PATH=HASH" with the 64-bit FNV-1a of its bytes, so that an edited
 * topology, flow or configuration file makes new points; a value of an input flag that names no
 * file adds nothing, a file the program names that cannot be read is "missing" */
static void add_file(struct text *t, const char *path, int named_by_flag)
{
    char hex[17];
    if (sweep_inputs_hash(path, hex) != 0 && named_by_flag)
        return;
    char *kv = xasprintf("file=%s=", path);
    add(t, kv, hex);
    free(kv);
}

char *sweep_key_spec(const struct sweep_key_input *in)
{
    struct text t = { 0 };
    add(&t, "feroce-sweep point 1", "");
    add(&t, "program=", in->program);
    struct strv command = { 0 }; /* the point's flags, as the program is asked which files it reads */
    for (size_t i = 0; i < in->n_flags; i++) {
        add(&t, "flag=", in->flags[i]);
        strv_push(&command, in->flags[i]);
        const char *eq = strchr(in->flags[i], '=');
        if (eq && in->inputs && sweep_inputs_is_input(in->inputs, in->flags[i]))
            add_file(&t, eq + 1, 1);
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
        char *flag = xasprintf("--%s=%s", in->names[order[i]], in->values[order[i]]);
        strv_push(&command, flag);
        if (in->inputs && sweep_inputs_is_input(in->inputs, flag))
            add_file(&t, in->values[order[i]], 1);
        free(flag);
    }
    free(order);
    /* the files the program reads that no flag names (a configuration's topology, ...) */
    const char *files =
        in->inputs ? sweep_inputs_files(in->inputs, (const char *const *)command.v, command.n) : "";
    while (*files) {
        size_t len = strcspn(files, "\n");
        char *path = xmalloc(len + 1);
        memcpy(path, files, len);
        path[len] = '\0';
        int named = 0;
        for (size_t i = 0; i < command.n && !named; i++) {
            const char *eq = strchr(command.v[i], '=');
            named = eq && strcmp(eq + 1, path) == 0 && sweep_inputs_is_input(in->inputs, command.v[i]);
        }
        if (!named)
            add_file(&t, path, 0);
        free(path);
        files += len + (files[len] == '\n');
    }
    strv_free(&command);
    char seed[32];
    snprintf(seed, sizeof seed, "%ld", in->seed);
    add(&t, "seed=", seed);
    add(&t, "version=", in->version);
    return t.s;
}
