/*
 * feroce-db.h - the results database: one row per run in an sqlite file
 * (schema and queries in src/feroce/doc/results.md).
 *
 * A run's row is written in one transaction, so a run killed before or while
 * it writes leaves either its whole row or nothing.  The file is in WAL mode
 * and every call waits up to a minute for a lock, so parallel runs (a sweep on
 * every core) can share one database.
 */
#ifndef FEROCE_DB_H
#define FEROCE_DB_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A parameter: a value that parses fully as a finite number is stored as a
 * JSON number, anything else as a JSON string. */
struct feroce_db_param {
    const char *name;
    const char *value;
};

/* A metric; NaN is stored as null (e.g. Jain's index when no window qualified). */
struct feroce_db_metric {
    const char *name;
    double value;
};

struct feroce_db_run {
    const char *scenario;   /* program name, e.g. "advcam-incast" */
    const char *version;    /* feroce_version() */
    int64_t seed;           /* ns-3 RngRun */
    const char *started_at; /* ISO 8601 UTC, feroce_db_now() */
    double wall_s;
    double sim_s;
    const char *outdir;  /* where the run's time series went */
    const char *command; /* the command line as typed */
    const struct feroce_db_param *params;
    size_t n_params;
    const struct feroce_db_metric *metrics;
    size_t n_metrics;
    const char *warnings; /* the run's warnings as a JSON array of strings; NULL: none */
};

/* The metrics that have their own column in table runs (the rest are only in
 * runs.metrics), NULL-terminated. */
extern const char *const feroce_db_metric_columns[];

/* feroce's version: the project version and, in a git checkout, the commit. */
const char *feroce_version(void);

/* Now as "YYYY-MM-DDTHH:MM:SSZ" into buf (at least 21 bytes). */
void feroce_db_now(char *buf, size_t len);

/* Opens (creating if missing) the database at path with its schema and WAL.
 * Returns 0, or -1 with a message in err. */
int feroce_db_open(const char *path, sqlite3 **db, char *err, size_t errlen);

/* Checks, writing nothing, that a run can write its row at path: an sqlite database
 * that is intact and writable, whose schema version is not newer than this feroce's and
 * whose table runs (if any) has feroce's columns, or a missing file (not a dangling link,
 * no name too long) whose nearest existing folder is writable.  Returns 0, or -1 with why
 * not in err. */
int feroce_db_check(const char *path, char *err, size_t errlen);

/* ---- the helpers every writer of a feroce database uses (results, feroce-sweep, feroce-fluid) ----
 * Errors are "WHAT: sqlite's message" in err and -1. */

/* "WHAT: sqlite's message" into err, returning -1 (db NULL: out of memory). */
int feroce_db_fail(char *err, size_t errlen, const char *what, sqlite3 *db);

/* A value for a statement's parameter: SQL null, an integer, a real, or a text (a NULL text is
 * SQL null). */
struct feroce_db_value {
    int type; /* SQLITE_NULL, SQLITE_INTEGER, SQLITE_FLOAT or SQLITE_TEXT */
    int64_t i;
    double d;
    const char *s;
};
#ifdef __cplusplus /* C++ has no compound literals (ns-3 builds with -Wpedantic -Werror) */
#define FEROCE_DB_VALUE(t, i, d, s) (feroce_db_value{ (t), (i), (d), (s) })
#else
#define FEROCE_DB_VALUE(t, i, d, s) ((struct feroce_db_value){ (t), (i), (d), (s) })
#endif
#define FEROCE_DB_NULL    FEROCE_DB_VALUE(SQLITE_NULL, 0, 0, NULL)
#define FEROCE_DB_INT(v)  FEROCE_DB_VALUE(SQLITE_INTEGER, (v), 0, NULL)
#define FEROCE_DB_REAL(v) FEROCE_DB_VALUE(SQLITE_FLOAT, 0, (v), NULL)
#define FEROCE_DB_TEXT(v) FEROCE_DB_VALUE(SQLITE_TEXT, 0, 0, (v))

/* Binds values[0..n-1] to the statement's parameters 1..n (texts copied). */
void feroce_db_bind(sqlite3_stmt *st, const struct feroce_db_value *values, size_t n);

/* One statement that writes: prepared, values bound, run to its end, finalized.  0, or -1 with
 * "WHAT: ..." in err. */
int feroce_db_write(sqlite3 *db, const char *sql, const struct feroce_db_value *values, size_t n,
                    const char *what, char *err, size_t errlen);

/* A transaction.  BEGIN IMMEDIATE takes the write lock at once, so writers that share the file
 * wait for each other (the busy timeout) instead of one failing when it would upgrade a read lock
 * in the middle.  feroce_db_begin returns 1 when it began one, 0 when the caller's own
 * transaction is open already (the work joins it), -1 with err.  feroce_db_commit commits what
 * begin began (begun = 1): 0, or -1 with "committing WHAT: ..." after rolling back.
 * feroce_db_rollback rolls back what begin began. */
int feroce_db_begin(sqlite3 *db, char *err, size_t errlen);
int feroce_db_commit(sqlite3 *db, int begun, const char *what, char *err, size_t errlen);
void feroce_db_rollback(sqlite3 *db, int begun);

/* Creates the schema in an open database (idempotent). */
int feroce_db_create_schema(sqlite3 *db, char *err, size_t errlen);

/* Inserts one run in one transaction (or, inside a transaction the caller opened, as part of it);
 * *id gets its rowid (id may be NULL). */
int feroce_db_insert_run(sqlite3 *db, const struct feroce_db_run *run, int64_t *id, char *err, size_t errlen);

/* Parameters as a JSON object (the form of runs.params); sqlite3_free it.
 * NULL when out of memory. */
char *feroce_db_params_json(const struct feroce_db_param *params, size_t n);

/* Copies run from_id of database from into table runs of database to (a new
 * id, given in *to_id when to_id is not NULL).  Columns are matched by name.
 * Opens no transaction of its own, so a caller can make the copy part of a
 * larger one (feroce-sweep copies a point's row and marks it done at once). */
int feroce_db_copy_run(sqlite3 *from, int64_t from_id, sqlite3 *to, int64_t *to_id, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* FEROCE_DB_H */
