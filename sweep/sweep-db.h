/*
 * sweep-db.h - a sweep's database: table runs of the results database (one
 * row per finished point, as the program wrote it) and table points (one row
 * per point that finished or failed; schema in src/feroce/doc/sweep-reference.md).
 *
 * A point is recorded in one transaction: its run copied into runs and its
 * points row marked done together, so a kill -9 at any moment leaves either
 * both or neither.  A point with no points row has not finished; nothing else
 * is ever written, so there is no "running" state to clean up after a crash.
 */
#ifndef FEROCE_SWEEP_DB_H
#define FEROCE_SWEEP_DB_H

#include <stddef.h>

#include <sqlite3.h>

#include "sweep-grid.h"

enum sweep_state { SWEEP_PENDING = 0, SWEEP_DONE = 1, SWEEP_FAILED = 2 };

/* How a point's process ended, as the runner saw it. */
struct sweep_outcome {
    int exit_status; /* exit status when it exited, else -1 */
    int signal;      /* the signal that killed it, else 0 */
    int timed_out;   /* killed by feroce-sweep at the timeout */
    double wall_s;   /* start to end, as feroce-sweep measured */
    const char *stderr_tail;
    const char *command;
};

/* Opens (creating) a sweep database: the runs schema, the points table. */
int sweep_db_open(const char *path, sqlite3 **db, char *err, size_t errlen);

/* Each point's state and attempts so far (arrays of g->n_points). */
int sweep_db_load(sqlite3 *db, const struct sweep_grid *g, enum sweep_state *state, int *attempts, char *err,
                  size_t errlen);

/* Records a finished point.  When it exited 0 and its own database
 * (point_db) holds exactly one run, the run is copied and the point marked
 * done; otherwise the point is marked failed with what went wrong.  Returns
 * SWEEP_DONE or SWEEP_FAILED, or -1 (message in err) when the sweep database
 * itself could not be written.  why (when not NULL) gets a one-line reason
 * for a failure. */
int sweep_db_record(sqlite3 *db, const struct sweep_grid *g, const struct sweep_point *pt,
                    const struct sweep_outcome *o, const char *point_db, char *why, size_t whylen, char *err,
                    size_t errlen);

/* One point of a batch: the point and its command as a per-point run would have it. */
struct sweep_batch_point {
    const struct sweep_point *pt;
    const char *command;
    int state;     /* out: SWEEP_DONE or SWEEP_FAILED */
    char why[300]; /* out: the reason of a failure */
    char *tail;    /* out: the point's error message (free it) */
};

/* Records the points of a batch (one process, its rows in batch_db's tables runs and batch) in one
 * transaction.  A point is done when the process exited 0 and batch_db holds its line with exit status
 * 0 and its run; otherwise it is failed: with its own exit status and message, or, when the process
 * itself failed (o), with the process's.  Returns 0, or -1 (message in err) when the sweep database
 * itself could not be written. */
int sweep_db_record_batch(sqlite3 *db, const struct sweep_grid *g, struct sweep_batch_point *pts, size_t n,
                          const struct sweep_outcome *o, const char *batch_db, char *err, size_t errlen);

struct sweep_merge_counts {
    size_t done;    /* new done points */
    size_t failed;  /* new or updated failed points */
    size_t already; /* done already in the sweep database */
    size_t foreign; /* not points of this sweep (another sweep or version) */
    size_t kept;    /* failed in the shard, kept as recorded */
};

/* Merges a shard (a sweep database of some points, e.g. one SLURM task's) in
 * one transaction: never overwrites a done point, so merging twice changes
 * nothing. */
int sweep_db_merge(sqlite3 *db, const struct sweep_grid *g, const char *shard, struct sweep_merge_counts *c,
                   char *err, size_t errlen);

/* Saves the sweep's name and file text (table sweep). */
int sweep_db_save_file(sqlite3 *db, const struct sweep_file *sf, char *err, size_t errlen);

#endif /* FEROCE_SWEEP_DB_H */
