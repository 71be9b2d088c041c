/*
 * sweep-grid.c - expanding a sweep file into combinations and points
 * (sweep-grid.h).
 *
 * Zipped parameters form one unit that steps through its values together;
 * every other parameter is a unit of its own.  Combinations are the cartesian
 * product of the units in the order of their first param line, the first one
 * varying slowest.  require lines then drop combinations.
 */
#define _POSIX_C_SOURCE 200809L
#include "sweep-grid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "feroce-db.h"

#define MAX_COMBOS 10000000u
#define MAX_POINTS 10000000u

const char *sweep_grid_value(const struct sweep_grid *g, size_t combo, size_t param)
{
    return g->sf->params[param].values.v[g->combos[combo * g->n_params + param]];
}

static const char *side_value(const struct sweep_grid *g, const size_t *idx, const char *side)
{
    long k = sweep_file_param(g->sf, side);
    return k >= 0 ? g->sf->params[k].values.v[idx[k]] : side;
}

/* 1 if the combination passes require r, 0 if not, -1 (message) if it cannot be compared. */
static int check_require(const struct sweep_grid *g, const struct sweep_require *r, const size_t *idx,
                         char *err, size_t errlen)
{
    const char *a = side_value(g, idx, r->lhs), *b = side_value(g, idx, r->rhs);
    double x, y;
    int numeric = parse_double(a, &x) && parse_double(b, &y);
    int cmp;
    if (numeric)
        cmp = (x > y) - (x < y);
    else if (strcmp(r->op, "==") == 0 || strcmp(r->op, "!=") == 0)
        cmp = strcmp(a, b) != 0;
    else {
        snprintf(err, errlen,
                 "%s:%d: require %s %s %s: \"%s\" %s \"%s\" is not allowed: expected numbers for %s",
                 g->sf->path, r->line, r->lhs, r->op, r->rhs, a, r->op, b, r->op);
        return -1;
    }
    if (strcmp(r->op, "<") == 0)
        return cmp < 0;
    if (strcmp(r->op, "<=") == 0)
        return cmp <= 0;
    if (strcmp(r->op, ">") == 0)
        return cmp > 0;
    if (strcmp(r->op, ">=") == 0)
        return cmp >= 0;
    if (strcmp(r->op, "==") == 0)
        return cmp == 0;
    return cmp != 0;
}

static int by_key(const void *a, const void *b)
{
    return strcmp((*(const struct sweep_point *const *)a)->key, (*(const struct sweep_point *const *)b)->key);
}

int sweep_grid_expand(const struct sweep_file *sf, const char *version, struct sweep_inputs *inputs,
                      struct sweep_grid *g, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    g->sf = sf;
    g->n_params = sf->n_params;
    g->version = xstrdup(version);
    size_t np = sf->n_params;

    /* units: a zip group or a lone parameter, by first appearance */
    size_t n_units = 0;
    size_t *unit_of = xcalloc(np, sizeof *unit_of);
    size_t *unit_size = xcalloc(np, sizeof *unit_size);
    for (size_t i = 0; i < np; i++) {
        size_t u = n_units;
        if (sf->params[i].zip >= 0)
            for (size_t j = 0; j < i; j++)
                if (sf->params[j].zip == sf->params[i].zip)
                    u = unit_of[j];
        unit_of[i] = u;
        if (u == n_units)
            unit_size[n_units++] = sf->params[i].values.n;
    }
    size_t total = 1;
    for (size_t u = 0; u < n_units; u++) {
        if (total > MAX_COMBOS / unit_size[u]) {
            snprintf(err, errlen, "%s: the grid has more than %u combinations: expected fewer values",
                     sf->path, MAX_COMBOS);
            free(unit_of);
            free(unit_size);
            sweep_grid_free(g);
            return -1;
        }
        total *= unit_size[u];
    }
    g->combos = xmalloc((total ? total : 1) * (np ? np : 1) * sizeof *g->combos);
    size_t *step = xcalloc(n_units ? n_units : 1, sizeof *step);
    size_t *idx = xcalloc(np ? np : 1, sizeof *idx);
    int rc = 0;
    for (size_t c = 0; c < total && rc == 0; c++) {
        /* the last unit varies fastest */
        size_t rest = c;
        for (size_t u = n_units; u-- > 0;) {
            step[u] = rest % unit_size[u];
            rest /= unit_size[u];
        }
        for (size_t i = 0; i < np; i++)
            idx[i] = step[unit_of[i]];
        int keep = 1;
        for (size_t r = 0; r < sf->n_requires && keep == 1; r++)
            keep = check_require(g, &sf->requires[r], idx, err, errlen);
        if (keep < 0)
            rc = -1;
        else if (keep)
            memcpy(&g->combos[g->n_combos++ * np], idx, np * sizeof *idx);
        else
            g->n_excluded++;
    }
    free(step);
    free(idx);
    free(unit_of);
    free(unit_size);
    if (rc) {
        sweep_grid_free(g);
        return -1;
    }

    /* every point is held in memory (a key, a seed, its arguments): refuse a grid too large to
     * hold, before allocating it */
    if (g->n_combos > MAX_POINTS / (size_t)sf->replications) {
        snprintf(err, errlen,
                 "%s: %zu combinations x %ld replications is more than %u points: expected fewer values "
                 "or replications",
                 sf->path, g->n_combos, sf->replications, MAX_POINTS);
        sweep_grid_free(g);
        return -1;
    }
    g->n_points = g->n_combos * (size_t)sf->replications;
    g->points = xcalloc(g->n_points, sizeof *g->points);
    const char **names = xmalloc((np ? np : 1) * sizeof *names);
    const char **values = xmalloc((np ? np : 1) * sizeof *values);
    for (size_t i = 0; i < np; i++)
        names[i] = sf->params[i].name;
    for (size_t c = 0; c < g->n_combos; c++) {
        for (size_t i = 0; i < np; i++)
            values[i] = sweep_grid_value(g, c, i);
        for (long r = 1; r <= sf->replications; r++) {
            struct sweep_point *pt = &g->points[c * (size_t)sf->replications + (size_t)(r - 1)];
            pt->combo = c;
            pt->seed = r;
            struct sweep_key_input in = { .program = sf->program,
                                          .flags = (const char *const *)sf->flags.v,
                                          .n_flags = sf->flags.n,
                                          .names = names,
                                          .values = values,
                                          .n_params = np,
                                          .seed = r,
                                          .version = version,
                                          .inputs = inputs };
            pt->spec = sweep_key_spec(&in);
            sweep_key_of_spec(pt->spec, pt->key);
        }
    }
    free(names);
    free(values);
    /* an index by key; two points with one key would be a hash collision */
    g->by_key = xmalloc((g->n_points ? g->n_points : 1) * sizeof *g->by_key);
    for (size_t i = 0; i < g->n_points; i++)
        g->by_key[i] = &g->points[i];
    qsort(g->by_key, g->n_points, sizeof *g->by_key, by_key);
    for (size_t i = 1; i < g->n_points; i++)
        if (strcmp(g->by_key[i - 1]->key, g->by_key[i]->key) == 0) {
            snprintf(err, errlen,
                     "%s: two points have the same key %s (a hash collision): expected distinct keys",
                     sf->path, g->by_key[i]->key);
            sweep_grid_free(g);
            return -1;
        }
    return 0;
}

void sweep_grid_free(struct sweep_grid *g)
{
    for (size_t i = 0; i < g->n_points; i++)
        free(g->points[i].spec);
    free(g->points);
    free(g->by_key);
    free(g->combos);
    free(g->version);
    memset(g, 0, sizeof *g);
}

const struct sweep_point *sweep_grid_find(const struct sweep_grid *g, const char *key)
{
    size_t lo = 0, hi = g->n_points;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(g->by_key[mid]->key, key);
        if (c == 0)
            return g->by_key[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

char *sweep_grid_combo_text(const struct sweep_grid *g, size_t combo)
{
    size_t len = 1;
    for (size_t i = 0; i < g->n_params; i++)
        len += strlen(g->sf->params[i].name) + strlen(sweep_grid_value(g, combo, i)) + 2;
    char *s = xmalloc(len);
    s[0] = '\0';
    for (size_t i = 0; i < g->n_params; i++) {
        if (i)
            strcat(s, " ");
        strcat(s, g->sf->params[i].name);
        strcat(s, "=");
        strcat(s, sweep_grid_value(g, combo, i));
    }
    return s;
}

char *sweep_grid_combo_json(const struct sweep_grid *g, size_t combo)
{
    struct feroce_db_param *p = xcalloc(g->n_params, sizeof *p);
    for (size_t i = 0; i < g->n_params; i++) {
        p[i].name = g->sf->params[i].name;
        p[i].value = sweep_grid_value(g, combo, i);
    }
    char *json = feroce_db_params_json(p, g->n_params);
    free(p);
    if (!json) {
        fputs("feroce-sweep: out of memory\n", stderr);
        exit(SWEEP_EXIT_FAILED);
    }
    char *copy = xstrdup(json);
    sqlite3_free(json);
    return copy;
}

void sweep_grid_argv(const struct sweep_grid *g, const struct sweep_point *pt, const char *program_path,
                     const char *outdir, const char *db, struct strv *argv)
{
    strv_push(argv, program_path);
    for (size_t i = 0; i < g->sf->flags.n; i++)
        strv_push(argv, g->sf->flags.v[i]);
    for (size_t i = 0; i < g->n_params; i++) {
        char *f = xasprintf("--%s=%s", g->sf->params[i].name, sweep_grid_value(g, pt->combo, i));
        strv_push(argv, f);
        free(f);
    }
    char *f = xasprintf("--RngRun=%ld", pt->seed);
    strv_push(argv, f);
    free(f);
    f = xasprintf("--outdir=%s", outdir);
    strv_push(argv, f);
    free(f);
    f = xasprintf("--db=%s", db);
    strv_push(argv, f);
    free(f);
}
