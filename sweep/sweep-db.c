/*
 * sweep-db.c - a sweep's database (sweep-db.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "sweep-db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "feroce-db.h"

static const char points_sql[] = "CREATE TABLE IF NOT EXISTS points (\n"
                                 "  key TEXT PRIMARY KEY,\n"
                                 "  sweep TEXT NOT NULL,\n"
                                 "  spec TEXT NOT NULL UNIQUE,\n"
                                 "  combo TEXT NOT NULL CHECK (json_valid(combo)),\n"
                                 "  seed INTEGER NOT NULL,\n"
                                 "  version TEXT NOT NULL,\n"
                                 "  status TEXT NOT NULL CHECK (status IN ('done', 'failed')),\n"
                                 "  run_id INTEGER UNIQUE REFERENCES runs (id),\n"
                                 "  exit_status INTEGER,\n"
                                 "  signal INTEGER,\n"
                                 "  timed_out INTEGER NOT NULL DEFAULT 0,\n"
                                 "  error TEXT,\n"
                                 "  stderr_tail TEXT,\n"
                                 "  attempts INTEGER NOT NULL,\n"
                                 "  wall_s REAL,\n"
                                 "  command TEXT,\n"
                                 "  finished_at TEXT NOT NULL,\n"
                                 "  CHECK ((status = 'done') = (run_id IS NOT NULL))\n"
                                 ");\n"
                                 "CREATE INDEX IF NOT EXISTS points_sweep ON points (sweep, status);\n"
                                 "CREATE TABLE IF NOT EXISTS sweep (\n"
                                 "  name TEXT PRIMARY KEY,\n"
                                 "  file TEXT NOT NULL,\n"
                                 "  updated_at TEXT NOT NULL\n"
                                 ");\n";

int sweep_db_open(const char *path, sqlite3 **db, char *err, size_t errlen)
{
    if (feroce_db_open(path, db, err, errlen) != 0)
        return -1;
    char *msg = NULL;
    /* WAL with synchronous NORMAL: a commit survives the death of any process
     * (kill -9); only a power cut can lose the last few, never half of one. */
    if (sqlite3_exec(*db, "PRAGMA synchronous = NORMAL", NULL, NULL, &msg) != SQLITE_OK ||
        sqlite3_exec(*db, points_sql, NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(err, errlen, "%s: creating the points table: %s", path, msg ? msg : sqlite3_errmsg(*db));
        sqlite3_free(msg);
        sqlite3_close(*db);
        *db = NULL;
        return -1;
    }
    return 0;
}

int sweep_db_load(sqlite3 *db, const struct sweep_grid *g, enum sweep_state *state, int *attempts, char *err,
                  size_t errlen)
{
    for (size_t i = 0; i < g->n_points; i++) {
        state[i] = SWEEP_PENDING;
        attempts[i] = 0;
    }
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT key, status, attempts FROM points", -1, &st, NULL) != SQLITE_OK)
        return feroce_db_fail(err, errlen, "reading the points", db);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const struct sweep_point *pt = sweep_grid_find(g, (const char *)sqlite3_column_text(st, 0));
        if (!pt)
            continue; /* another version or sweep in the same file */
        size_t i = (size_t)(pt - g->points);
        state[i] = strcmp((const char *)sqlite3_column_text(st, 1), "done") == 0 ? SWEEP_DONE : SWEEP_FAILED;
        attempts[i] = sqlite3_column_int(st, 2);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return feroce_db_fail(err, errlen, "reading the points", db);
    return 0;
}

/* A points row (what both recording and merging write). */
struct row {
    const char *key, *sweep, *spec, *combo, *version, *status, *error, *stderr_tail, *command, *finished_at;
    long long seed, run_id; /* run_id 0: none */
    int exit_status, signal, timed_out, attempts;
    int has_exit; /* exit_status is meaningful */
    double wall_s;
};

/* Inserts or replaces a points row; never replaces a done row. */
static int put_row(sqlite3 *db, const struct row *r, char *err, size_t errlen)
{
    static const char sql[] =
        "INSERT INTO points (key, sweep, spec, combo, seed, version, status, run_id, exit_status, signal, "
        "timed_out, error, stderr_tail, attempts, wall_s, command, finished_at) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17) "
        "ON CONFLICT (key) DO UPDATE SET status = ?7, run_id = ?8, exit_status = ?9, signal = ?10, "
        "timed_out = ?11, error = ?12, stderr_tail = ?13, attempts = ?14, wall_s = ?15, command = ?16, "
        "finished_at = ?17 WHERE points.status != 'done'";
    const struct feroce_db_value v[] = {
        FEROCE_DB_TEXT(r->key),
        FEROCE_DB_TEXT(r->sweep),
        FEROCE_DB_TEXT(r->spec),
        FEROCE_DB_TEXT(r->combo),
        FEROCE_DB_INT(r->seed),
        FEROCE_DB_TEXT(r->version),
        FEROCE_DB_TEXT(r->status),
        r->run_id ? FEROCE_DB_INT(r->run_id) : FEROCE_DB_NULL,
        r->has_exit ? FEROCE_DB_INT(r->exit_status) : FEROCE_DB_NULL,
        r->signal ? FEROCE_DB_INT(r->signal) : FEROCE_DB_NULL,
        FEROCE_DB_INT(r->timed_out),
        FEROCE_DB_TEXT(r->error),
        FEROCE_DB_TEXT(r->stderr_tail),
        FEROCE_DB_INT(r->attempts),
        FEROCE_DB_REAL(r->wall_s),
        FEROCE_DB_TEXT(r->command),
        FEROCE_DB_TEXT(r->finished_at),
    };
    return feroce_db_write(db, sql, v, sizeof v / sizeof v[0], "writing the point", err, errlen);
}

/* The point's status ("" when it has no row) and attempts. */
static int get_state(sqlite3 *db, const char *key, char *status, size_t len, int *attempts, char *finished,
                     size_t flen, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT status, attempts, finished_at FROM points WHERE key = ?", -1, &st,
                           NULL) != SQLITE_OK)
        return feroce_db_fail(err, errlen, "reading a point", db);
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    status[0] = '\0';
    *attempts = 0;
    if (finished)
        finished[0] = '\0';
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        snprintf(status, len, "%s", (const char *)sqlite3_column_text(st, 0));
        *attempts = sqlite3_column_int(st, 1);
        if (finished)
            snprintf(finished, flen, "%s", (const char *)sqlite3_column_text(st, 2));
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return feroce_db_fail(err, errlen, "reading a point", db);
    return 0;
}

/* The id of the one run in a point's own database; -1 with a reason if not exactly one. */
static int64_t the_run(sqlite3 *pdb, char *why, size_t whylen)
{
    sqlite3_stmt *st;
    int64_t id = -1;
    if (sqlite3_prepare_v2(pdb, "SELECT id FROM runs", -1, &st, NULL) != SQLITE_OK) {
        snprintf(why, whylen, "its --db has no readable table runs: %s", sqlite3_errmsg(pdb));
        return -1;
    }
    int n = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        if (n++ == 0)
            id = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        snprintf(why, whylen, "reading its --db: %s", sqlite3_errmsg(pdb));
        return -1;
    }
    if (n != 1) {
        snprintf(why, whylen, "exited 0 but its --db holds %d runs: expected exactly 1", n);
        return -1;
    }
    return id;
}

/* A finished point's own database.  Its program has exited: when it left no
 * write-ahead log the file is complete and is read as immutable (no locks, no
 * -shm and -wal files made and removed for each point, which costs the driver
 * more than the rest of the recording); otherwise it is opened normally, so
 * the rows in the log are read too. */
static int open_point_db(const char *path, sqlite3 **db)
{
    char *wal = xasprintf("%s-wal", path);
    int has_wal = access(wal, F_OK) == 0;
    free(wal);
    if (has_wal)
        return sqlite3_open_v2(path, db, SQLITE_OPEN_READWRITE, NULL);
    char *uri = sqlite3_mprintf("file:%s?immutable=1", path);
    int rc = sqlite3_open_v2(uri, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
    sqlite3_free(uri);
    return rc;
}

/* The process's own failure, for a point or a batch ("" when it exited 0). */
static void process_reason(const struct sweep_outcome *o, char *reason, size_t len)
{
    reason[0] = '\0';
    if (o->timed_out)
        snprintf(reason, len, "timed out after %.1f s (killed)", o->wall_s);
    else if (o->signal)
        snprintf(reason, len, "killed by signal %d (%s)", o->signal, strsignal(o->signal));
    else if (o->exit_status != 0)
        snprintf(reason, len, "exit status %d", o->exit_status);
}

/* A point's row as the process that ran it ended (command: the point's; combo: its JSON text). */
static struct row outcome_row(const struct sweep_grid *g, const struct sweep_point *pt,
                              const struct sweep_outcome *o, const char *combo, const char *command,
                              const char *now)
{
    struct row r = { .key = pt->key,
                     .sweep = g->sf->name,
                     .spec = pt->spec,
                     .combo = combo,
                     .version = g->version,
                     .stderr_tail = o->stderr_tail,
                     .command = command,
                     .finished_at = now,
                     .seed = pt->seed,
                     .exit_status = o->exit_status,
                     .has_exit = o->exit_status >= 0,
                     .signal = o->signal,
                     .timed_out = o->timed_out,
                     .wall_s = o->wall_s };
    return r;
}

/* Inside a transaction, writes point r's row, done with run src of sdb copied (src >= 0) or failed
 * for reason, one attempt more than the points table has: 0, 1 when the point is done already (the
 * first record kept: another driver or a merge), -1 with err. */
static int put_outcome(sqlite3 *db, struct row *r, sqlite3 *sdb, int64_t src, const char *reason, char *err,
                       size_t errlen)
{
    char status[16];
    if (get_state(db, r->key, status, sizeof status, &r->attempts, NULL, 0, err, errlen) != 0)
        return -1;
    if (strcmp(status, "done") == 0)
        return 1;
    r->attempts++;
    if (src >= 0) {
        int64_t id;
        if (feroce_db_copy_run(sdb, src, db, &id, err, errlen) != 0)
            return -1;
        r->run_id = id;
        r->status = "done";
        r->stderr_tail = NULL;
    } else {
        r->status = "failed";
        r->error = reason;
    }
    return put_row(db, r, err, errlen) != 0 ? -1 : 0;
}

int sweep_db_record(sqlite3 *db, const struct sweep_grid *g, const struct sweep_point *pt,
                    const struct sweep_outcome *o, const char *point_db, char *why, size_t whylen, char *err,
                    size_t errlen)
{
    char reason[512] = "";
    char now[32];
    feroce_db_now(now, sizeof now);
    char *combo = sweep_grid_combo_json(g, pt->combo);
    struct row r = outcome_row(g, pt, o, combo, o->command, now);
    sqlite3 *pdb = NULL;
    int64_t src = -1;
    process_reason(o, reason, sizeof reason);
    if (!reason[0]) {
        if (access(point_db, F_OK) != 0)
            snprintf(reason, sizeof reason, "exited 0 but wrote no --db file %s", point_db);
        else if (open_point_db(point_db, &pdb) != SQLITE_OK)
            snprintf(reason, sizeof reason, "exited 0 but its --db cannot be opened: %s",
                     sqlite3_errmsg(pdb));
        else {
            sqlite3_busy_timeout(pdb, 60000);
            src = the_run(pdb, reason, sizeof reason);
        }
    }

    int result = -1;
    int begun = feroce_db_begin(db, err, errlen);
    if (begun < 0)
        goto out;
    int put = put_outcome(db, &r, pdb, src, reason, err, errlen);
    if (put != 0) {
        if (put > 0)
            result = SWEEP_DONE;
        feroce_db_rollback(db, begun);
        goto out;
    }
    if (feroce_db_commit(db, begun, "the point", err, errlen) != 0)
        goto out;
    result = src >= 0 ? SWEEP_DONE : SWEEP_FAILED;
    if (why)
        snprintf(why, whylen, "%s", reason);
out:
    sqlite3_close(pdb);
    free(combo);
    return result;
}

static const char *col_text(sqlite3_stmt *st, int i);

int sweep_db_record_batch(sqlite3 *db, const struct sweep_grid *g, struct sweep_batch_point *pts, size_t n,
                          const struct sweep_outcome *o, const char *batch_db, char *err, size_t errlen)
{
    char proc_reason[400], now[32];
    sqlite3 *bdb = NULL;
    sqlite3_stmt *line = NULL;
    int result = -1;
    feroce_db_now(now, sizeof now);
    process_reason(o, proc_reason, sizeof proc_reason);
    if (!proc_reason[0]) {
        if (access(batch_db, F_OK) != 0)
            snprintf(proc_reason, sizeof proc_reason, "exited 0 but wrote no --db file %s", batch_db);
        /* a batch of a packet study says which signal ended a point (column signal); the fluid
         * study's points end by themselves */
        else if (open_point_db(batch_db, &bdb) != SQLITE_OK ||
                 (sqlite3_prepare_v2(
                      bdb, "SELECT run_id, exit_status, wall_s, error, signal FROM batch WHERE line = ?", -1,
                      &line, NULL) != SQLITE_OK &&
                  sqlite3_prepare_v2(
                      bdb, "SELECT run_id, exit_status, wall_s, error, NULL FROM batch WHERE line = ?", -1,
                      &line, NULL) != SQLITE_OK))
            snprintf(proc_reason, sizeof proc_reason, "exited 0 but its --db has no readable table batch: %s",
                     sqlite3_errmsg(bdb));
        else
            sqlite3_busy_timeout(bdb, 60000);
    }
    int begun = feroce_db_begin(db, err, errlen);
    if (begun < 0)
        goto out;
    for (size_t i = 0; i < n; i++) {
        struct sweep_batch_point *b = &pts[i];
        char reason[512] = "";
        char *combo = sweep_grid_combo_json(g, b->pt->combo);
        struct row r = outcome_row(g, b->pt, o, combo, b->command, now);
        r.stderr_tail = NULL;
        r.wall_s = o->wall_s / (double)n;
        int64_t src = -1;
        b->tail = NULL;
        if (proc_reason[0]) {
            snprintf(reason, sizeof reason, "its batch process (%zu points) failed: %s", n, proc_reason);
            r.stderr_tail = o->stderr_tail;
        } else {
            sqlite3_reset(line);
            sqlite3_bind_int64(line, 1, (sqlite3_int64)(i + 1));
            int step = sqlite3_step(line);
            if (step != SQLITE_ROW) {
                snprintf(reason, sizeof reason, "exited 0 but its --db has no line %zu in table batch%s%s",
                         i + 1, step == SQLITE_DONE ? "" : ": ",
                         step == SQLITE_DONE ? "" : sqlite3_errmsg(bdb));
            } else {
                struct sweep_outcome po = { .exit_status = sqlite3_column_type(line, 1) == SQLITE_NULL
                                                               ? -1
                                                               : sqlite3_column_int(line, 1),
                                            .signal = sqlite3_column_int(line, 4) };
                r.exit_status = po.exit_status;
                r.has_exit = po.exit_status >= 0;
                r.signal = po.signal;
                r.wall_s = sqlite3_column_double(line, 2);
                if (sqlite3_column_type(line, 3) != SQLITE_NULL)
                    b->tail = xstrdup(col_text(line, 3));
                process_reason(&po, reason, sizeof reason); /* the words of a point run alone */
                if (!reason[0] && sqlite3_column_type(line, 0) == SQLITE_NULL)
                    snprintf(reason, sizeof reason, "exited 0 but its --db holds no run for line %zu", i + 1);
                else if (!reason[0])
                    src = sqlite3_column_int64(line, 0);
                r.stderr_tail = b->tail;
            }
        }
        int put = put_outcome(db, &r, bdb, src, reason, err, errlen);
        free(combo);
        if (put < 0) {
            feroce_db_rollback(db, begun);
            goto out;
        }
        if (put > 0) {
            b->state = SWEEP_DONE; /* recorded already: the first kept */
            continue;
        }
        b->state = src >= 0 ? SWEEP_DONE : SWEEP_FAILED;
        snprintf(b->why, sizeof b->why, "%s", reason);
    }
    if (feroce_db_commit(db, begun, "the batch", err, errlen) == 0)
        result = 0;
out:
    sqlite3_finalize(line);
    sqlite3_close(bdb);
    return result;
}

static const char *col_text(sqlite3_stmt *st, int i)
{
    return (const char *)sqlite3_column_text(st, i);
}

int sweep_db_merge(sqlite3 *db, const struct sweep_grid *g, const char *shard, struct sweep_merge_counts *c,
                   char *err, size_t errlen)
{
    sqlite3 *sdb = NULL;
    sqlite3_stmt *st = NULL;
    int rc = -1;
    if (access(shard, R_OK) != 0) {
        snprintf(err, errlen, "%s: cannot read the shard", shard);
        return -1;
    }
    if (sqlite3_open_v2(shard, &sdb, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s: %s", shard, sqlite3_errmsg(sdb));
        sqlite3_close(sdb);
        return -1;
    }
    sqlite3_busy_timeout(sdb, 60000);
    if (sqlite3_prepare_v2(
            sdb,
            "SELECT key, sweep, spec, combo, seed, version, status, run_id, exit_status, signal, "
            "timed_out, error, stderr_tail, attempts, wall_s, command, finished_at FROM points",
            -1, &st, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s: not a sweep database: %s", shard, sqlite3_errmsg(sdb));
        sqlite3_close(sdb);
        return -1;
    }
    int begun = feroce_db_begin(db, err, errlen);
    if (begun < 0)
        goto out;
    struct sweep_merge_counts n = { 0 };
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        struct row r = { .key = col_text(st, 0),
                         .sweep = col_text(st, 1),
                         .spec = col_text(st, 2),
                         .combo = col_text(st, 3),
                         .seed = sqlite3_column_int64(st, 4),
                         .version = col_text(st, 5),
                         .status = col_text(st, 6),
                         .run_id = sqlite3_column_int64(st, 7),
                         .exit_status = sqlite3_column_int(st, 8),
                         .has_exit = sqlite3_column_type(st, 8) != SQLITE_NULL,
                         .signal = sqlite3_column_int(st, 9),
                         .timed_out = sqlite3_column_int(st, 10),
                         .error = col_text(st, 11),
                         .stderr_tail = col_text(st, 12),
                         .attempts = sqlite3_column_int(st, 13),
                         .wall_s = sqlite3_column_double(st, 14),
                         .command = col_text(st, 15),
                         .finished_at = col_text(st, 16) };
        const struct sweep_point *pt = sweep_grid_find(g, r.key);
        if (!pt || strcmp(pt->spec, r.spec) != 0) {
            n.foreign++;
            continue;
        }
        char status[16], finished[32];
        int attempts;
        if (get_state(db, r.key, status, sizeof status, &attempts, finished, sizeof finished, err, errlen) !=
            0)
            goto rollback;
        if (strcmp(status, "done") == 0) {
            n.already++;
            continue;
        }
        int shard_done = strcmp(r.status, "done") == 0;
        if (!shard_done && status[0] && strcmp(r.finished_at, finished) <= 0) {
            n.kept++; /* a failure recorded here already, as late or later */
            continue;
        }
        if (shard_done) {
            int64_t id;
            if (feroce_db_copy_run(sdb, r.run_id, db, &id, err, errlen) != 0)
                goto rollback;
            r.run_id = id;
        }
        if (attempts > r.attempts)
            r.attempts = attempts;
        if (put_row(db, &r, err, errlen) != 0)
            goto rollback;
        if (shard_done)
            n.done++;
        else
            n.failed++;
    }
    if (step != SQLITE_DONE) {
        snprintf(err, errlen, "%s: reading the points: %s", shard, sqlite3_errmsg(sdb));
        goto rollback;
    }
    if (feroce_db_commit(db, begun, "the merge", err, errlen) != 0)
        goto out;
    c->done += n.done;
    c->failed += n.failed;
    c->already += n.already;
    c->foreign += n.foreign;
    c->kept += n.kept;
    rc = 0;
    goto out;
rollback:
    feroce_db_rollback(db, begun);
out:
    sqlite3_finalize(st);
    sqlite3_close(sdb);
    return rc;
}

int sweep_db_save_file(sqlite3 *db, const struct sweep_file *sf, char *err, size_t errlen)
{
    char now[32];
    feroce_db_now(now, sizeof now);
    const struct feroce_db_value v[] = { FEROCE_DB_TEXT(sf->name), FEROCE_DB_TEXT(sf->text),
                                         FEROCE_DB_TEXT(now) };
    return feroce_db_write(db, "INSERT OR REPLACE INTO sweep (name, file, updated_at) VALUES (?, ?, ?)", v, 3,
                           "saving the sweep file", err, errlen);
}
