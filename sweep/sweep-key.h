/*
 * sweep-key.h - the stable key of a point: a hash of everything that decides
 * its result (program, fixed flags, parameter values, seed, feroce version).
 */
#ifndef FEROCE_SWEEP_KEY_H
#define FEROCE_SWEEP_KEY_H

#include <stddef.h>
#include <stdint.h>

#define SWEEP_KEY_LEN 16 /* hex digits */

struct sweep_inputs;

struct sweep_key_input {
    const char *program; /* as the sweep file names it */
    const char *const *flags;
    size_t n_flags;
    const char *const *names;  /* swept parameters ... */
    const char *const *values; /* ... and their values */
    size_t n_params;
    long seed;
    const char *version;
    struct sweep_inputs *inputs; /* the program's input files (NULL: none) */
};

/* The canonical text of a point (flags in order, parameters sorted by name, the content of
 * each file the run reads: sweep-inputs.h): a new string; the key is its hash. */
char *sweep_key_spec(const struct sweep_key_input *in);

/* 64-bit FNV-1a of a string. */
uint64_t sweep_fnv1a64(const char *s);

/* The key of a spec as SWEEP_KEY_LEN lower-case hex digits and a NUL. */
void sweep_key_of_spec(const char *spec, char key[SWEEP_KEY_LEN + 1]);

#endif /* FEROCE_SWEEP_KEY_H */
