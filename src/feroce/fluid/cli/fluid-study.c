/*
 * fluid-study.c - one fluid run as a study: the time series and the metrics of
 * the run, its fixed point and its phase margin, written as one row of the
 * results database like the packet model's studies (feroce-db).
 *
 * With --batch=FILE --db=DB it runs many points in one process (feroce-sweep's
 * "batch" directive): FILE holds one point per line, its arguments separated by
 * tabs as a per-point run gets them (program first); each point is run exactly
 * as that run would be, and its row goes into DB with a line of table batch
 * (line, run_id, exit_status, wall_s, error), all in one transaction.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "feroce-db.h"
#include "fluid-cmd.h"

static const char *const study_flags[] = { "duration", "window", "warmup", "outdir", "db", "RngRun", NULL };

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One point: its arguments as a per-point run gets them.  Error messages go to msg, the summary to info
 * (NULL: none); the row into batch_db when it is not NULL (the caller's transaction), else into --db.
 * Returns the exit status the per-point run has; *row_id gets the row's id (0 when none). */
static int study_point_in(struct fluid_args *ap, int argc, char **argv, const char *prog, FILE *msg,
                          FILE *info, sqlite3 *batch_db, int64_t *row_id)
{
    struct feroce_fluid_margin m;
    struct feroce_check why;
    struct feroce_db_param params[130];
    struct feroce_db_metric metrics[16 + 2 * FEROCE_FLUID_MAX_CLASSES];
    static char names[2 * FEROCE_FLUID_MAX_CLASSES][32];
    double t0 = now_s(), q[3], rc[FEROCE_FLUID_MAX_CLASSES], alpha[FEROCE_FLUID_MAX_CLASSES], jain[2];
    double in = 0, C, warmup;
    char path[4096], tmp[4200], started[32], err[512], *command;
    size_t n_params = 0, n_metrics = 0, len = 0;
    int r, i, have_margin;
    uint32_t c;
    FILE *out;
    sqlite3 *db = NULL;
    int64_t id;

    *row_id = 0;
    err[0] = '\0';
    r = fluid_args_parse(ap, argc, argv, 1, study_flags, prog, msg);
    if (r)
        return r;
    /* --warmup: parsed here (fluid_args keeps duration and window) */
    warmup = ap->duration_s / 2;
    for (i = 0; i < ap->nflags; i++)
        if (strcmp(ap->flag_name[i], "warmup") == 0) {
            int64_t ns;

            if (fluid_parse_time_ns(ap->flag_value[i], &ns) != 0 || ns < 0 || ns * 1e-9 >= ap->duration_s) {
                fprintf(msg, "%s: warmup = %s is not allowed: expected a time in [0, duration)\n", prog,
                        ap->flag_value[i]);
                return 2;
            }
            warmup = ns * 1e-9;
        }
    if (ap->window_s > ap->duration_s) {
        fprintf(msg, "%s: window = %g s is not allowed: expected <= duration = %g s\n", prog, ap->window_s,
                ap->duration_s);
        return 2;
    }
    if (!ap->outdir)
        ap->outdir = "results/fluid-study";
    /* every target checked before the run: the row's database too */
    if (!batch_db && ap->db && strcmp(ap->db, "none") != 0 && feroce_db_check(ap->db, err, sizeof err) != 0) {
        fprintf(msg, "%s: db = %s is not allowed: %s (none: write no row)\n", prog, ap->db, err);
        return 2;
    }
    if (mkdir(ap->outdir, 0777) != 0) {
        struct stat st;

        if (stat(ap->outdir, &st) != 0 || !S_ISDIR(st.st_mode)) {
            fprintf(msg, "%s: outdir = %s is not allowed: cannot create the directory\n", prog, ap->outdir);
            return 2;
        }
    }
    feroce_db_now(started, sizeof started);
    snprintf(path, sizeof path, "%s/series.csv", ap->outdir);
    out = fluid_open_atomic(path, tmp, sizeof tmp);
    if (!out) {
        fprintf(msg, "%s: outdir = %s is not allowed: cannot write %s\n", prog, ap->outdir, tmp);
        return 2;
    }
    r = fluid_integrate(ap, out, warmup, q, rc, alpha, jain, prog, msg);
    if (r) {
        fclose(out);
        remove(tmp);
        return r;
    }
    have_margin = feroce_fluid_margin(&ap->p, &m, &why) == FEROCE_OK;
    C = ap->p.bottleneck_bps;
    for (c = 0; c < ap->p.nclasses; c++)
        in += ap->p.cls[c].flows * rc[c];

#define METRIC(n, v)                                                                                         \
    do {                                                                                                     \
        metrics[n_metrics].name = (n);                                                                       \
        metrics[n_metrics++].value = (v);                                                                    \
    } while (0)
    METRIC("goodput_gbps", fmin(in, C) * 1e-9);
    METRIC("jain_min", isinf(jain[0]) ? NAN : jain[0]);
    METRIC("jain_mean", jain[1]);
    METRIC("queue_mean_bytes", q[0]);
    METRIC("queue_min_bytes", q[1]);
    METRIC("queue_max_bytes", q[2]);
    METRIC("p_star", have_margin ? m.fixed.p : NAN);
    METRIC("q_star_bytes", have_margin ? m.fixed.q_pkts * ap->p.packet_bytes : NAN);
    METRIC("phase_margin_deg", have_margin ? (isinf(m.phase_margin_deg) ? 180 : m.phase_margin_deg) : NAN);
    METRIC("crossover_hz", have_margin ? m.crossover_hz : NAN);
    METRIC("stable", have_margin ? (m.phase_margin_deg > 0) : NAN);
    for (c = 0; c < ap->p.nclasses; c++) {
        snprintf(names[2 * c], sizeof names[0], "rc%u_gbps", c);
        snprintf(names[2 * c + 1], sizeof names[0], "alpha%u", c);
        METRIC(names[2 * c], rc[c] * 1e-9);
        METRIC(names[2 * c + 1], alpha[c]);
    }
#undef METRIC
    for (i = 0; i < ap->nflags && n_params < 130; i++) {
        const char *n = ap->flag_name[i];

        if (strcmp(n, "outdir") == 0 || strcmp(n, "db") == 0 || strcmp(n, "RngRun") == 0)
            continue;
        params[n_params].name = n;
        params[n_params++].value = ap->flag_value[i];
    }
    for (i = 0; i < argc; i++)
        len += strlen(argv[i]) + 1;
    command = calloc(len + 1, 1);
    for (i = 0; i < argc && command; i++) {
        strcat(command, argv[i]);
        if (i + 1 < argc)
            strcat(command, " ");
    }
    if (info) {
        fprintf(info,
                "%s: queue_mean_bytes=%.6g queue_max_bytes=%.6g goodput_gbps=%.6g jain_min=%.6g p_star=%.6g "
                "phase_margin_deg=%.6g\n",
                prog, q[0], q[2], fmin(in, C) * 1e-9, jain[0], have_margin ? m.fixed.p : NAN,
                have_margin ? m.phase_margin_deg : NAN);
    }
    /* the row and series.csv together: the row in an open transaction, the file renamed, then
     * the commit; a failure leaves neither */
    if (batch_db || (ap->db && strcmp(ap->db, "none") != 0)) {
        struct feroce_db_run run = { .scenario = "feroce-fluid-study",
                                     .version = feroce_version(),
                                     .seed = ap->seed,
                                     .started_at = started,
                                     .wall_s = now_s() - t0,
                                     .sim_s = ap->duration_s,
                                     .outdir = ap->outdir,
                                     .command = command ? command : prog,
                                     .params = params,
                                     .n_params = n_params,
                                     .metrics = metrics,
                                     .n_metrics = n_metrics };

        if (batch_db) {
            if (feroce_db_insert_run(batch_db, &run, &id, err, sizeof err) != 0) {
                fprintf(msg, "%s: the batch's db: %s\n", prog, err);
                free(command);
                fclose(out);
                remove(tmp);
                return 1;
            }
        } else if (feroce_db_open(ap->db, &db, err, sizeof err) != 0 ||
                   sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK ||
                   feroce_db_insert_run(db, &run, &id, err, sizeof err) != 0) {
            fprintf(msg, "%s: db = %s: %s\n", prog, ap->db, db && !err[0] ? sqlite3_errmsg(db) : err);
            sqlite3_close(db);
            free(command);
            fclose(out);
            remove(tmp);
            return 1;
        }
        *row_id = id;
    }
    free(command);
    if (fluid_commit_atomic(out, tmp, path) != 0 || (db && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)) {
        fprintf(msg, "%s: cannot write %s%s%s\n", prog, path, db ? " or commit its row: " : "",
                db ? sqlite3_errmsg(db) : "");
        if (db)
            sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        sqlite3_close(db);
        remove(path);
        *row_id = 0;
        return 1;
    }
    if (info) {
        fprintf(info, "wrote %s\n", path);
        if (db)
            fprintf(info, "row %lld in %s\n", (long long)*row_id, ap->db);
    }
    sqlite3_close(db);
    return 0;
}

static int study_point(int argc, char **argv, const char *prog, FILE *msg, FILE *info, sqlite3 *batch_db,
                       int64_t *row_id)
{
    struct fluid_args a;
    int r, i;

    memset(&a, 0, sizeof a);
    r = study_point_in(&a, argc, argv, prog, msg, info, batch_db, row_id);
    for (i = 0; i < a.nflags; i++)
        free((char *)a.flag_name[i]);
    return r;
}

/* A tab-separated line into argv (in place); the number of arguments, or -1 when there are too many. */
static int split_line(char *line, char **argv, int max)
{
    int n = 0;
    char *save = NULL, *t;

    for (t = strtok_r(line, "\t", &save); t; t = strtok_r(NULL, "\t", &save)) {
        if (n == max)
            return -1;
        argv[n++] = t;
    }
    return n;
}

static int batch_fail(const char *prog, const char *what, const char *file, const char *why)
{
    fprintf(stderr, "%s: %s = %s is not allowed: %s\n", prog, what, file, why);
    return 2;
}

/* --batch=FILE --db=DB: every point of FILE in this process, their rows in one transaction. */
static int study_batch(const char *file, const char *db_path, const char *prog)
{
    static const char schema[] =
        "CREATE TABLE IF NOT EXISTS batch (line INTEGER PRIMARY KEY, run_id INTEGER, "
        "exit_status INTEGER NOT NULL, wall_s REAL NOT NULL, error TEXT)";
    FILE *in = fopen(file, "r");
    char *line = NULL, *argv[160], err[512], *text;
    size_t cap = 0, len;
    ssize_t got;
    sqlite3 *db = NULL;
    sqlite3_stmt *put = NULL;
    long n = 0, failed = 0;
    int rc = 1;

    if (!in) {
        snprintf(err, sizeof err, "expected a readable file of points (%s)", strerror(errno));
        return batch_fail(prog, "batch", file, err);
    }
    if (feroce_db_open(db_path, &db, err, sizeof err) != 0) {
        fclose(in);
        sqlite3_close(db);
        return batch_fail(prog, "db", db_path, err);
    }
    if (sqlite3_exec(db, schema, NULL, NULL, NULL) != SQLITE_OK ||
        feroce_db_begin(db, err, sizeof err) != 1 ||
        sqlite3_prepare_v2(db,
                           "INSERT INTO batch (line, run_id, exit_status, wall_s, error) VALUES (?,?,?,?,?)",
                           -1, &put, NULL) != SQLITE_OK) {
        fprintf(stderr, "%s: db = %s: %s\n", prog, db_path, sqlite3_errmsg(db));
        goto out;
    }
    while ((got = getline(&line, &cap, in)) >= 0) {
        double t0 = now_s();
        FILE *msg;
        int argc, status;
        int64_t id;

        n++;
        if (got > 0 && line[got - 1] == '\n')
            line[--got] = '\0';
        argc = split_line(line, argv, (int)(sizeof argv / sizeof argv[0]));
        text = NULL;
        len = 0;
        msg = open_memstream(&text, &len);
        if (!msg) {
            fprintf(stderr, "%s: out of memory\n", prog);
            goto out;
        }
        if (argc < 1) {
            fprintf(msg,
                    "%s: batch line %ld is not allowed: expected the program, then its arguments, "
                    "separated by tabs\n",
                    prog, n);
            status = 2;
            id = 0;
        } else {
            status = study_point(argc, argv, prog, msg, NULL, db, &id);
        }
        fclose(msg);
        while (len > 0 && text[len - 1] == '\n')
            text[--len] = '\0';
        if (status != 0) {
            failed++;
            fprintf(stderr, "line %ld: %s\n", n, text);
        }
        const struct feroce_db_value v[] = { FEROCE_DB_INT(n),
                                             status == 0 ? FEROCE_DB_INT(id) : FEROCE_DB_NULL,
                                             FEROCE_DB_INT(status), FEROCE_DB_REAL(now_s() - t0),
                                             FEROCE_DB_TEXT(status ? text : NULL) };
        sqlite3_reset(put);
        feroce_db_bind(put, v, sizeof v / sizeof v[0]);
        free(text);
        if (sqlite3_step(put) != SQLITE_DONE) {
            fprintf(stderr, "%s: db = %s: %s\n", prog, db_path, sqlite3_errmsg(db));
            goto out;
        }
    }
    if (feroce_db_commit(db, 1, "the batch", err, sizeof err) != 0) {
        fprintf(stderr, "%s: db = %s: %s\n", prog, db_path, err);
        goto out;
    }
    printf("%s: batch of %ld points, %ld failed, rows in %s\n", prog, n, failed, db_path);
    rc = 0;
out:
    free(line);
    fclose(in);
    sqlite3_finalize(put);
    sqlite3_close(db); /* without a COMMIT the transaction is rolled back: no row of the batch */
    return rc;
}

int fluid_cmd_study(int argc, char **argv, const char *prog)
{
    const char *batch = NULL, *db = NULL;
    int64_t id;
    int i;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf(
                "usage: %s [--outdir=DIR] [--db=FILE] [--RngRun=N] [--duration=T] [--window=T] [--warmup=T] "
                "[MODEL FLAGS]\n"
                "       %s --batch=FILE --db=FILE   (points of feroce-sweep's \"batch N\", one per line)\n"
                "the model flags are feroce-fluid's (feroce-fluid --help); src/feroce/doc/fluid.md, "
                "\"Sweeps\"\n",
                prog, prog);
            return 0;
        }
        if (strncmp(argv[i], "--batch=", 8) == 0)
            batch = argv[i] + 8;
        else if (strncmp(argv[i], "--db=", 5) == 0)
            db = argv[i] + 5;
    }
    if (!batch)
        return study_point(argc, argv, prog, stderr, stdout, NULL, &id);
    for (i = 1; i < argc; i++)
        if (strncmp(argv[i], "--batch=", 8) != 0 && strncmp(argv[i], "--db=", 5) != 0) {
            fprintf(stderr,
                    "%s: argument \"%s\" is not allowed with --batch: expected only --batch=FILE "
                    "and --db=FILE\n",
                    prog, argv[i]);
            return 2;
        }
    if (!db || !*db || strcmp(db, "none") == 0) {
        fprintf(stderr, "%s: db = %s is not allowed with --batch: expected a database file for the rows\n",
                prog, db ? db : "(none given)");
        return 2;
    }
    if (!*batch)
        return batch_fail(prog, "batch", batch, "expected a file of points, one per line");
    return study_batch(batch, db, prog);
}
