/*
 * sweep-grid.h - a sweep file expanded into parameter combinations and
 * points (a combination and a seed), each point with its stable key.
 */
#ifndef FEROCE_SWEEP_GRID_H
#define FEROCE_SWEEP_GRID_H

#include <stddef.h>

#include "sweep-file.h"
#include "sweep-key.h"

struct sweep_point {
    size_t combo; /* index of its parameter combination */
    long seed;    /* RngRun */
    char key[SWEEP_KEY_LEN + 1];
    char *spec; /* the canonical text hashed into key */
};

struct sweep_grid {
    const struct sweep_file *sf;
    size_t n_params;
    size_t n_combos;
    size_t *combos;             /* n_combos x n_params indices into each parameter's values */
    size_t n_excluded;          /* combinations left out by require lines */
    struct sweep_point *points; /* combination-major: combo 0 seeds 1..R, combo 1 ... */
    size_t n_points;
    struct sweep_point **by_key; /* points sorted by key */
    char *version;
};

struct sweep_inputs;

/* Expands sf (which must outlive the grid); each point's key covers the files its run reads as
 * inputs says (NULL: none).  -1 with a message on error. */
int sweep_grid_expand(const struct sweep_file *sf, const char *version, struct sweep_inputs *inputs,
                      struct sweep_grid *g, char *err, size_t errlen);
void sweep_grid_free(struct sweep_grid *g);

/* The value of parameter param in combination combo. */
const char *sweep_grid_value(const struct sweep_grid *g, size_t combo, size_t param);

/* The point with a key, or NULL. */
const struct sweep_point *sweep_grid_find(const struct sweep_grid *g, const char *key);

/* "kmin=5000 kmax=200000" (new string). */
char *sweep_grid_combo_text(const struct sweep_grid *g, size_t combo);

/* The combination's values as a JSON object (numbers as numbers; new string, free()). */
char *sweep_grid_combo_json(const struct sweep_grid *g, size_t combo);

/* The command of a point: program path, fixed flags, parameters, --RngRun,
 * --outdir and --db (NULL-terminated, free with strv_free). */
void sweep_grid_argv(const struct sweep_grid *g, const struct sweep_point *pt, const char *program_path,
                     const char *outdir, const char *db, struct strv *argv);

#endif /* FEROCE_SWEEP_GRID_H */
