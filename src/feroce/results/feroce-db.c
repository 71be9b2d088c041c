/*
 * feroce-db.c - the results database (src/feroce/doc/results.md).
 */
#define _POSIX_C_SOURCE 200809L /* gmtime_r under -std=c11 */

#include "feroce-db.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef FEROCE_VERSION
#define FEROCE_VERSION "unknown"
#endif

/* 2: the warnings column (a version 1 file gets it when a run opens it) */
#define SCHEMA_VERSION 2

const char *const feroce_db_metric_columns[] = { "goodput_gbps", "jain_min",     "jain_mean",
                                                 "drops",        "pause_frames", "cnps",
                                                 "ecn_marks",    "retransmits",  NULL };

static const char schema_sql[] = "CREATE TABLE IF NOT EXISTS runs (\n"
                                 "  id INTEGER PRIMARY KEY,\n"
                                 "  scenario TEXT NOT NULL,\n"
                                 "  version TEXT NOT NULL,\n"
                                 "  seed INTEGER NOT NULL,\n"
                                 "  started_at TEXT NOT NULL,\n"
                                 "  wall_s REAL,\n"
                                 "  sim_s REAL,\n"
                                 "  outdir TEXT,\n"
                                 "  command TEXT,\n"
                                 "  params TEXT NOT NULL CHECK (json_valid(params)),\n"
                                 "  metrics TEXT NOT NULL CHECK (json_valid(metrics)),\n"
                                 "  goodput_gbps REAL,\n"
                                 "  jain_min REAL,\n"
                                 "  jain_mean REAL,\n"
                                 "  drops INTEGER,\n"
                                 "  pause_frames INTEGER,\n"
                                 "  cnps INTEGER,\n"
                                 "  ecn_marks INTEGER,\n"
                                 "  retransmits INTEGER,\n"
                                 "  warnings TEXT\n"
                                 ");\n"
                                 "CREATE INDEX IF NOT EXISTS runs_scenario ON runs (scenario, started_at);\n";

const char *feroce_version(void)
{
    return FEROCE_VERSION;
}

void feroce_db_now(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int feroce_db_fail(char *err, size_t errlen, const char *what, sqlite3 *db)
{
    snprintf(err, errlen, "%s: %s", what, db ? sqlite3_errmsg(db) : "out of memory");
    return -1;
}

/* Whether table runs has column name (0 also when there is no such table). */
static int runs_has_column(sqlite3 *db, const char *name)
{
    sqlite3_stmt *st;
    int found = 0;
    if (sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_info('runs')", -1, &st, NULL) != SQLITE_OK)
        return 0;
    while (!found && sqlite3_step(st) == SQLITE_ROW)
        found = strcmp((const char *)sqlite3_column_text(st, 0), name) == 0;
    sqlite3_finalize(st);
    return found;
}

/* Why an existing file cannot hold feroce's rows ("" when it can): a schema version newer than
 * this feroce's, or a table runs without the columns a row fills. */
static void check_schema(sqlite3 *db, char *err, size_t errlen)
{
    static const char *const columns[] = { "id",    "scenario", "version", "seed",   "started_at", "wall_s",
                                           "sim_s", "outdir",   "command", "params", "metrics",    NULL };
    sqlite3_stmt *st;
    int version = 0;
    err[0] = '\0';
    if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        version = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (version > SCHEMA_VERSION) {
        snprintf(err, errlen, "schema version %d is newer than this feroce's (%d)", version, SCHEMA_VERSION);
        return;
    }
    int tables = 0;
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_schema WHERE name = 'runs'", -1, &st, NULL) ==
            SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        tables = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (tables == 0)
        return; /* created by the run */
    for (int i = 0; columns[i]; i++)
        if (!runs_has_column(db, columns[i])) {
            snprintf(err, errlen, "its table runs has another schema (no column %s)", columns[i]);
            return;
        }
    for (int i = 0; feroce_db_metric_columns[i]; i++)
        if (!runs_has_column(db, feroce_db_metric_columns[i])) {
            snprintf(err, errlen, "its table runs has another schema (no column %s)",
                     feroce_db_metric_columns[i]);
            return;
        }
}

int feroce_db_create_schema(sqlite3 *db, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    int version = 0;
    if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
        return feroce_db_fail(err, errlen, "reading the schema version", db);
    if (sqlite3_step(st) == SQLITE_ROW)
        version = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (version > SCHEMA_VERSION) {
        snprintf(err, errlen, "schema version %d is newer than this feroce's (%d)", version, SCHEMA_VERSION);
        return -1;
    }
    check_schema(db, err, errlen);
    if (err[0])
        return -1;
    char *msg = NULL;
    char sql[sizeof schema_sql + 128];
    /* a version 1 table gets the warnings column */
    snprintf(sql, sizeof sql, "BEGIN IMMEDIATE;\n%s%sPRAGMA user_version = %d;\nCOMMIT;\n", schema_sql,
             version >= 1 && !runs_has_column(db, "warnings") ? "ALTER TABLE runs ADD COLUMN warnings TEXT;\n"
                                                              : "",
             SCHEMA_VERSION);
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(err, errlen, "creating the schema: %s", msg ? msg : sqlite3_errmsg(db));
        sqlite3_free(msg);
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    return 0;
}

int feroce_db_open(const char *path, sqlite3 **db, char *err, size_t errlen)
{
    *db = NULL;
    if (sqlite3_open_v2(path, db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "cannot open %s: %s", path, *db ? sqlite3_errmsg(*db) : "out of memory");
        sqlite3_close(*db);
        *db = NULL;
        return -1;
    }
    sqlite3_busy_timeout(*db, 60000);
    char *msg = NULL;
    if (sqlite3_exec(*db, "PRAGMA journal_mode = WAL", NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(err, errlen, "%s: cannot switch to WAL: %s", path, msg ? msg : sqlite3_errmsg(*db));
        sqlite3_free(msg);
        sqlite3_close(*db);
        *db = NULL;
        return -1;
    }
    if (feroce_db_create_schema(*db, err, errlen) != 0) {
        sqlite3_close(*db);
        *db = NULL;
        return -1;
    }
    return 0;
}

/* The nearest existing folder of path (path itself, or a parent) into dir. */
static void nearest_existing_dir(const char *path, char *dir, size_t len)
{
    snprintf(dir, len, "%s", path);
    struct stat sb;
    while (stat(dir, &sb) != 0) {
        char *slash = strrchr(dir, '/');
        if (!slash) {
            snprintf(dir, len, ".");
            return;
        }
        if (slash == dir) {
            dir[1] = '\0';
            return;
        }
        *slash = '\0';
    }
}

int feroce_db_check(const char *path, char *err, size_t errlen)
{
    struct stat sb;
    if (path[0] == '\0') {
        snprintf(err, errlen, "an empty path is not a database");
        return -1;
    }
    if (strlen(path) >= PATH_MAX) {
        snprintf(err, errlen, "the path is longer than %d bytes", PATH_MAX - 1);
        return -1;
    }
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, "/");
        if (n > NAME_MAX) {
            snprintf(err, errlen, "a name in the path is longer than %d bytes", NAME_MAX);
            return -1;
        }
        p += n;
        p += *p == '/';
    }
    if (lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode) && stat(path, &sb) != 0) {
        snprintf(err, errlen, "a symbolic link to a missing file");
        return -1;
    }
    if (stat(path, &sb) != 0) {
        /* created at the end of the run, with its missing folders */
        char dir[4096];
        nearest_existing_dir(path, dir, sizeof dir);
        if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
            snprintf(err, errlen, "%s is not a folder", dir);
            return -1;
        }
        /* a file made and removed at once: what the end of the run will do there (access()
         * says yes to root on read-only or special file systems such as /proc) */
        char trial[4200];
        snprintf(trial, sizeof trial, "%s/.feroce-db-XXXXXX", strcmp(dir, "/") == 0 ? "" : dir);
        int fd = mkstemp(trial);
        if (fd < 0) {
            snprintf(err, errlen, "cannot create it: %s is not writable (%s)", dir, strerror(errno));
            return -1;
        }
        close(fd);
        unlink(trial);
        return 0;
    }
    if (!S_ISREG(sb.st_mode)) {
        snprintf(err, errlen, "not a file (%s)", S_ISDIR(sb.st_mode) ? "a folder" : "not a regular file");
        return -1;
    }
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "cannot open it: %s", db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close(db);
        return -1;
    }
    sqlite3_busy_timeout(db, 60000);
    int rc = -1;
    sqlite3_stmt *st = NULL;
    if (sqlite3_db_readonly(db, "main") == 1) {
        snprintf(err, errlen, "read-only");
    } else if (sqlite3_prepare_v2(db, "PRAGMA quick_check", -1, &st, NULL) != SQLITE_OK ||
               sqlite3_step(st) != SQLITE_ROW ||
               strcmp((const char *)sqlite3_column_text(st, 0), "ok") != 0) {
        snprintf(err, errlen, "not an sqlite database, or a damaged one (%s)",
                 st && sqlite3_column_text(st, 0) ? (const char *)sqlite3_column_text(st, 0)
                                                  : sqlite3_errmsg(db));
    } else {
        sqlite3_finalize(st);
        st = NULL;
        check_schema(db, err, errlen);
        if (!err[0] && sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
            snprintf(err, errlen, "cannot write into it: %s", sqlite3_errmsg(db));
        else if (!err[0])
            rc = 0;
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return rc;
}

/* JSON's number grammar (RFC 8259 section 6), which strtod's is wider than. */
static int is_json_number(const char *s)
{
    if (*s == '-')
        s++;
    if (*s == '0')
        s++;
    else if (isdigit((unsigned char)*s))
        while (isdigit((unsigned char)*s))
            s++;
    else
        return 0;
    if (*s == '.') {
        s++;
        if (!isdigit((unsigned char)*s))
            return 0;
        while (isdigit((unsigned char)*s))
            s++;
    }
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        if (!isdigit((unsigned char)*s))
            return 0;
        while (isdigit((unsigned char)*s))
            s++;
    }
    return *s == '\0';
}

static void json_string(sqlite3_str *out, const char *s)
{
    sqlite3_str_appendchar(out, 1, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            sqlite3_str_appendf(out, "\\%c", c);
        else if (c < 0x20)
            sqlite3_str_appendf(out, "\\u%04x", c);
        else
            sqlite3_str_appendchar(out, 1, (char)c);
    }
    sqlite3_str_appendchar(out, 1, '"');
}

char *feroce_db_params_json(const struct feroce_db_param *params, size_t n)
{
    sqlite3_str *out = sqlite3_str_new(NULL);
    sqlite3_str_appendchar(out, 1, '{');
    for (size_t i = 0; i < n; i++) {
        if (i)
            sqlite3_str_appendchar(out, 1, ',');
        json_string(out, params[i].name);
        sqlite3_str_appendchar(out, 1, ':');
        if (is_json_number(params[i].value))
            sqlite3_str_appendall(out, params[i].value);
        else
            json_string(out, params[i].value);
    }
    sqlite3_str_appendchar(out, 1, '}');
    return sqlite3_str_finish(out);
}

static char *params_json(const struct feroce_db_run *run)
{
    return feroce_db_params_json(run->params, run->n_params);
}

static char *metrics_json(const struct feroce_db_run *run)
{
    sqlite3_str *out = sqlite3_str_new(NULL);
    sqlite3_str_appendchar(out, 1, '{');
    for (size_t i = 0; i < run->n_metrics; i++) {
        if (i)
            sqlite3_str_appendchar(out, 1, ',');
        json_string(out, run->metrics[i].name);
        if (isfinite(run->metrics[i].value))
            sqlite3_str_appendf(out, ":%.17g", run->metrics[i].value);
        else
            sqlite3_str_appendall(out, ":null");
    }
    sqlite3_str_appendchar(out, 1, '}');
    return sqlite3_str_finish(out);
}

void feroce_db_bind(sqlite3_stmt *st, const struct feroce_db_value *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int p = (int)i + 1;
        if (v[i].type == SQLITE_INTEGER)
            sqlite3_bind_int64(st, p, v[i].i);
        else if (v[i].type == SQLITE_FLOAT)
            sqlite3_bind_double(st, p, v[i].d);
        else if (v[i].type == SQLITE_TEXT && v[i].s)
            sqlite3_bind_text(st, p, v[i].s, -1, SQLITE_TRANSIENT);
        else
            sqlite3_bind_null(st, p);
    }
}

int feroce_db_write(sqlite3 *db, const char *sql, const struct feroce_db_value *values, size_t n,
                    const char *what, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return feroce_db_fail(err, errlen, what, db);
    feroce_db_bind(st, values, n);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : feroce_db_fail(err, errlen, what, db);
}

int feroce_db_begin(sqlite3 *db, char *err, size_t errlen)
{
    if (!sqlite3_get_autocommit(db))
        return 0;
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return feroce_db_fail(err, errlen, "starting the transaction", db);
    return 1;
}

int feroce_db_commit(sqlite3 *db, int begun, const char *what, char *err, size_t errlen)
{
    if (begun != 1 || sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
        return 0;
    char ctx[256];
    snprintf(ctx, sizeof ctx, "committing %s", what);
    feroce_db_fail(err, errlen, ctx, db);
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

void feroce_db_rollback(sqlite3 *db, int begun)
{
    if (begun == 1)
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
}

int feroce_db_insert_run(sqlite3 *db, const struct feroce_db_run *run, int64_t *id, char *err, size_t errlen)
{
    static const char sql[] = "INSERT INTO runs (scenario, version, seed, started_at, wall_s, sim_s, outdir, "
                              "command, params, metrics, goodput_gbps, jain_min, jain_mean, drops, "
                              "pause_frames, cnps, ecn_marks, retransmits, warnings) "
                              "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
    enum { FIRST_METRIC_COLUMN = 10, WARNINGS_COLUMN = 18, COLUMNS = 19 };
    char *params = params_json(run);
    char *metrics = metrics_json(run);
    int rc = -1;
    if (!params || !metrics) {
        feroce_db_fail(err, errlen, "building the row", NULL);
        goto out;
    }
    struct feroce_db_value v[COLUMNS] = {
        FEROCE_DB_TEXT(run->scenario),   FEROCE_DB_TEXT(run->version), FEROCE_DB_INT(run->seed),
        FEROCE_DB_TEXT(run->started_at), FEROCE_DB_REAL(run->wall_s),  FEROCE_DB_REAL(run->sim_s),
        FEROCE_DB_TEXT(run->outdir),     FEROCE_DB_TEXT(run->command), FEROCE_DB_TEXT(params),
        FEROCE_DB_TEXT(metrics),
    };
    for (int c = 0; feroce_db_metric_columns[c]; c++) {
        v[FIRST_METRIC_COLUMN + c] = FEROCE_DB_NULL;
        for (size_t i = 0; i < run->n_metrics; i++)
            if (strcmp(run->metrics[i].name, feroce_db_metric_columns[c]) == 0 &&
                isfinite(run->metrics[i].value))
                v[FIRST_METRIC_COLUMN + c] = FEROCE_DB_REAL(run->metrics[i].value);
    }
    v[WARNINGS_COLUMN] = run->warnings ? FEROCE_DB_TEXT(run->warnings) : FEROCE_DB_NULL;
    /* inside a caller's transaction (a batch of points) the row joins it */
    int begun = feroce_db_begin(db, err, errlen);
    if (begun < 0)
        goto out;
    if (feroce_db_write(db, sql, v, COLUMNS, "inserting the run", err, errlen) != 0) {
        feroce_db_rollback(db, begun);
        goto out;
    }
    if (id)
        *id = sqlite3_last_insert_rowid(db);
    rc = feroce_db_commit(db, begun, "the run", err, errlen);
out:
    sqlite3_free(params);
    sqlite3_free(metrics);
    return rc;
}

int feroce_db_copy_run(sqlite3 *from, int64_t from_id, sqlite3 *to, int64_t *to_id, char *err, size_t errlen)
{
    sqlite3_stmt *get = NULL, *put = NULL;
    sqlite3_str *sql = NULL;
    char *text = NULL;
    int rc = -1;
    if (sqlite3_prepare_v2(from, "SELECT * FROM runs WHERE id = ?", -1, &get, NULL) != SQLITE_OK) {
        feroce_db_fail(err, errlen, "reading the run", from);
        goto out;
    }
    sqlite3_bind_int64(get, 1, from_id);
    int step = sqlite3_step(get);
    if (step != SQLITE_ROW) {
        if (step == SQLITE_DONE)
            snprintf(err, errlen, "no run with id %lld", (long long)from_id);
        else
            feroce_db_fail(err, errlen, "reading the run", from);
        goto out;
    }
    /* every column but the id, by name, so the two files need only agree on names */
    int n = sqlite3_column_count(get);
    sql = sqlite3_str_new(NULL);
    sqlite3_str_appendall(sql, "INSERT INTO runs (");
    int first = 1;
    for (int c = 0; c < n; c++) {
        if (strcmp(sqlite3_column_name(get, c), "id") == 0)
            continue;
        sqlite3_str_appendf(sql, "%s\"%w\"", first ? "" : ", ", sqlite3_column_name(get, c));
        first = 0;
    }
    sqlite3_str_appendall(sql, ") VALUES (");
    first = 1;
    for (int c = 0; c < n; c++) {
        if (strcmp(sqlite3_column_name(get, c), "id") == 0)
            continue;
        sqlite3_str_appendall(sql, first ? "?" : ", ?");
        first = 0;
    }
    sqlite3_str_appendall(sql, ")");
    text = sqlite3_str_finish(sql);
    sql = NULL;
    if (!text) {
        feroce_db_fail(err, errlen, "building the copy", NULL);
        goto out;
    }
    if (sqlite3_prepare_v2(to, text, -1, &put, NULL) != SQLITE_OK) {
        feroce_db_fail(err, errlen, "preparing the copy", to);
        goto out;
    }
    for (int c = 0, i = 1; c < n; c++)
        if (strcmp(sqlite3_column_name(get, c), "id") != 0)
            sqlite3_bind_value(put, i++, sqlite3_column_value(get, c));
    if (sqlite3_step(put) != SQLITE_DONE) {
        feroce_db_fail(err, errlen, "copying the run", to);
        goto out;
    }
    if (to_id)
        *to_id = sqlite3_last_insert_rowid(to);
    rc = 0;
out:
    sqlite3_finalize(get);
    sqlite3_finalize(put);
    sqlite3_free(sqlite3_str_finish(sql));
    sqlite3_free(text);
    return rc;
}
