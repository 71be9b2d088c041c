/*
 * feroce-sweep - parameter sweeps over any feroce scenario program: a grid
 * from a sweep file, run in parallel on local cores or as a SLURM job array,
 * resumable, into an sqlite database, with statistics and pictures.
 * Format and commands: src/feroce/doc/sweep-reference.md.
 *
 *   feroce-sweep run FILE [-j N] [--retry-failed] [--timeout S] [--dir DIR]
 *   feroce-sweep report FILE [--csv OUT]
 *   feroce-sweep plot FILE [--out DIR] [heatmap|lines METRIC X Y [NAME=VALUE...]]
 *   feroce-sweep list FILE [-v]
 *   feroce-sweep status FILE
 *   feroce-sweep slurm FILE --shared-dir DIR [--time T] [--max-parallel N] [--sbatch-option OPT]... [--all]
 *   feroce-sweep merge FILE SHARD...
 *   feroce-sweep task SHARED_DIR N           (what a SLURM task runs)
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "feroce-db.h"
#include "sweep-context.h"
#include "sweep-db.h"
#include "sweep-plot.h"
#include "sweep-report.h"
#include "sweep-run.h"
#include "sweep-slurm.h"

static const char usage[] =
    "usage: feroce-sweep COMMAND FILE [OPTIONS]\n"
    "  run FILE [-j N] [--retry-failed] [--timeout S]   run the points not done yet, N at a time (default: "
    "all "
    "cores)\n"
    "  report FILE [--csv OUT]                          mean, sd and 95% CI per combination; CSV (default "
    "DIR/report.csv)\n"
    "  plot FILE [--out DIR] [heatmap|lines METRIC X Y [NAME=VALUE...]]\n"
    "                                                   the file's plot lines (or this one) as PNG and SVG\n"
    "  list FILE [-v]                                   the grid: every point, its key, seed and state\n"
    "  status FILE                                      counts, and every failed point with its stderr\n"
    "  slurm FILE --shared-dir DIR [--time T] [--max-parallel N] [--sbatch-option OPT]... [--all]\n"
    "                                                   write a SLURM job array (one point per task) and its "
    "task list\n"
    "  merge FILE SHARD...                              merge shards (shard.db, shard dirs, a --shared-dir) "
    "into the sweep\n"
    "  task SHARED_DIR N                                run task N of a job array (what job.sbatch runs)\n"
    "  version                                          print feroce's version\n"
    "options of every command: --dir DIR (the sweep's directory; default results/sweeps/NAME),\n"
    "  --key-version V (the version in the points' keys; default this build's), --program PATH\n"
    "the sweep file format: src/feroce/doc/sweep-reference.md\n";

enum {
    C_RUN = 1,
    C_REPORT = 2,
    C_PLOT = 4,
    C_LIST = 8,
    C_STATUS = 16,
    C_SLURM = 32,
    C_MERGE = 64,
    C_TASK = 128
};
#define C_ALL 255

struct option_def {
    const char *name; /* long name without -- */
    char short_name;
    int takes_value;
    int commands;
};

static const struct option_def options[] = {
    { "jobs", 'j', 1, C_RUN },
    { "retry-failed", 0, 0, C_RUN },
    { "timeout", 0, 1, C_RUN | C_SLURM | C_TASK },
    { "dir", 0, 1, C_ALL & ~C_TASK },
    { "key-version", 0, 1, C_ALL },
    { "program", 0, 1, C_RUN | C_SLURM | C_TASK },
    { "csv", 0, 1, C_REPORT },
    { "out", 0, 1, C_PLOT },
    { "shared-dir", 0, 1, C_SLURM },
    { "time", 0, 1, C_SLURM },
    { "max-parallel", 0, 1, C_SLURM },
    { "sbatch-option", 0, 1, C_SLURM },
    { "all", 0, 0, C_SLURM },
    { "verbose", 'v', 0, C_LIST | C_STATUS },
    { NULL, 0, 0, 0 },
};

/* One line: what is wrong, then where the usage is (feroce-sweep --help prints it). */
static int bad_usage(const char *fmt, const char *a, const char *b)
{
    fputs("feroce-sweep: ", stderr);
    fprintf(stderr, fmt, a, b);
    fputs(" (see feroce-sweep --help)\n", stderr);
    return SWEEP_EXIT_USAGE;
}

static int set_option(struct sweep_opts *o, const char *name, const char *value)
{
    if (strcmp(name, "jobs") == 0) {
        if (!parse_long(value, 1, 4096, &o->jobs))
            return bad_usage("-j = \"%s\" is not allowed: expected an integer in [1, 4096]%s", value, "");
    } else if (strcmp(name, "retry-failed") == 0) {
        o->retry_failed = 1;
    } else if (strcmp(name, "timeout") == 0) {
        if (!parse_double(value, &o->timeout_s) || o->timeout_s <= 0)
            return bad_usage("--timeout = \"%s\" is not allowed: expected seconds > 0%s", value, "");
    } else if (strcmp(name, "dir") == 0) {
        o->dir = value;
    } else if (strcmp(name, "key-version") == 0) {
        o->version = value;
    } else if (strcmp(name, "program") == 0) {
        o->program = value;
    } else if (strcmp(name, "csv") == 0) {
        o->csv = value;
    } else if (strcmp(name, "out") == 0) {
        o->out = value;
    } else if (strcmp(name, "shared-dir") == 0) {
        o->shared_dir = value;
    } else if (strcmp(name, "time") == 0) {
        o->time_limit = value;
    } else if (strcmp(name, "max-parallel") == 0) {
        if (!parse_long(value, 1, 1000000, &o->max_parallel))
            return bad_usage("--max-parallel = \"%s\" is not allowed: expected an integer >= 1%s", value, "");
    } else if (strcmp(name, "sbatch-option") == 0) {
        strv_push(&o->sbatch, value);
    } else if (strcmp(name, "all") == 0) {
        o->all = 1;
    } else if (strcmp(name, "verbose") == 0) {
        o->verbose = 1;
    }
    return 0;
}

static int parse_args(int argc, char **argv, int command, const char *command_name, struct sweep_opts *o)
{
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            for (i++; i < argc; i++)
                strv_push(&o->args, argv[i]);
            break;
        }
        if (a[0] != '-' || a[1] == '\0') {
            strv_push(&o->args, a);
            continue;
        }
        const struct option_def *d = NULL;
        const char *value = NULL;
        if (a[1] == '-') {
            const char *eq = strchr(a, '=');
            size_t n = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
            for (const struct option_def *p = options; p->name; p++)
                if (strlen(p->name) == n && strncmp(p->name, a + 2, n) == 0)
                    d = p;
            if (eq)
                value = eq + 1;
        } else {
            for (const struct option_def *p = options; p->name; p++)
                if (p->short_name && p->short_name == a[1])
                    d = p;
            if (d && a[2])
                value = a + 2;
        }
        if (!d)
            return bad_usage("option \"%s\" is not allowed%s", a, "");
        if (!(d->commands & command))
            return bad_usage("option \"%s\" is not an option of %s", a, command_name);
        if (d->takes_value && !value) {
            if (i + 1 >= argc)
                return bad_usage("option \"%s\" needs a value%s", a, "");
            value = argv[++i];
        } else if (!d->takes_value && value) {
            return bad_usage("option \"%s\" takes no value%s", a, "");
        }
        int rc = set_option(o, d->name, value);
        if (rc)
            return rc;
    }
    return 0;
}

static const char *state_name(enum sweep_state s)
{
    return s == SWEEP_DONE ? "done" : s == SWEEP_FAILED ? "failed" : "pending";
}

static int cmd_list(const char *file, const struct sweep_opts *o)
{
    struct sweep_ctx c;
    int rc = sweep_ctx_open(&c, file, o, CTX_READ);
    if (rc)
        return rc;
    char err[2048];
    char *program = sweep_program(&c.sf, o->program, err, sizeof err);
    enum sweep_state *state = xcalloc(c.g.n_points, sizeof *state);
    int *attempts = xcalloc(c.g.n_points, sizeof *attempts);
    if (c.db && sweep_db_load(c.db, &c.g, state, attempts, err, sizeof err) != 0) {
        fprintf(stderr, "feroce-sweep: %s: %s\n", c.db_path, err);
        rc = SWEEP_EXIT_FAILED;
    }
    printf("# sweep %s: program %s (%s)\n", c.sf.name, c.sf.program, program ? program : "not found");
    printf("# %zu parameters, %zu combinations", c.g.n_params, c.g.n_combos);
    if (c.g.n_excluded)
        printf(" (%zu more excluded by require)", c.g.n_excluded);
    printf(" x %ld replications = %zu points; version %s; directory %s\n", c.sf.replications, c.g.n_points,
           c.g.version, c.dir);
    printf("# point key seed state parameters\n");
    for (size_t i = 0; i < c.g.n_points; i++) {
        const struct sweep_point *pt = &c.g.points[i];
        char *combo = sweep_grid_combo_text(&c.g, pt->combo);
        printf("%zu %s %ld %s %s\n", i, pt->key, pt->seed, state_name(state[i]), combo);
        free(combo);
        if (o->verbose) {
            char *dir = xasprintf("%s/points/%s", c.dir, pt->key), *db = xasprintf("%s/run.db", dir);
            struct strv argv = { 0 };
            sweep_grid_argv(&c.g, pt, program ? program : c.sf.program, dir, db, &argv);
            fputs("   ", stdout);
            for (size_t k = 0; k < argv.n; k++) {
                char *q = shell_quote(argv.v[k]);
                printf(" %s", q);
                free(q);
            }
            fputs("\n", stdout);
            strv_free(&argv);
            free(dir);
            free(db);
        }
    }
    free(state);
    free(attempts);
    free(program);
    sweep_ctx_close(&c);
    return rc;
}

static int cmd_status(const char *file, const struct sweep_opts *o)
{
    struct sweep_ctx c;
    int rc = sweep_ctx_open(&c, file, o, CTX_READ);
    if (rc)
        return rc;
    char err[1024];
    enum sweep_state *state = xcalloc(c.g.n_points, sizeof *state);
    int *attempts = xcalloc(c.g.n_points, sizeof *attempts);
    if (c.db && sweep_db_load(c.db, &c.g, state, attempts, err, sizeof err) != 0) {
        fprintf(stderr, "feroce-sweep: %s: %s\n", c.db_path, err);
        rc = SWEEP_EXIT_FAILED;
        goto out;
    }
    size_t done = 0, failed = 0;
    for (size_t i = 0; i < c.g.n_points; i++) {
        done += state[i] == SWEEP_DONE;
        failed += state[i] == SWEEP_FAILED;
    }
    printf("%s: %zu points: %zu done, %zu failed, %zu not run (%s)\n", c.sf.name, c.g.n_points, done, failed,
           c.g.n_points - done - failed, c.db ? c.db_path : "not run yet");
    if (failed && c.db) {
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(
                c.db,
                "SELECT key, seed, attempts, error, command, stderr_tail, finished_at FROM points "
                "WHERE status = 'failed' ORDER BY finished_at, key",
                -1, &st, NULL) != SQLITE_OK) {
            fprintf(stderr, "feroce-sweep: %s: %s\n", c.db_path, sqlite3_errmsg(c.db));
            rc = SWEEP_EXIT_FAILED;
            goto out;
        }
        while (sqlite3_step(st) == SQLITE_ROW) {
            const struct sweep_point *pt = sweep_grid_find(&c.g, (const char *)sqlite3_column_text(st, 0));
            if (!pt)
                continue;
            char *combo = sweep_grid_combo_text(&c.g, pt->combo);
            printf("\nfailed: point %s (%s%sseed %ld), %d attempt%s, last at %s: %s\n", pt->key, combo,
                   *combo ? ", " : "", pt->seed, sqlite3_column_int(st, 2),
                   sqlite3_column_int(st, 2) == 1 ? "" : "s", (const char *)sqlite3_column_text(st, 6),
                   (const char *)sqlite3_column_text(st, 3));
            free(combo);
            const char *cmd = (const char *)sqlite3_column_text(st, 4);
            if (cmd)
                printf("  command: %s\n", cmd);
            const char *tail = (const char *)sqlite3_column_text(st, 5);
            if (tail && *tail) {
                /* the last lines of its stderr, indented */
                const char *start = tail + strlen(tail);
                int lines = 0;
                while (start > tail && lines < (o->verbose ? 1000 : 10))
                    if (*--start == '\n')
                        lines++;
                if (*start == '\n')
                    start++;
                printf("  stderr%s:\n", start > tail ? " (last lines)" : "");
                for (const char *l = start; *l;) {
                    const char *nl = strchr(l, '\n');
                    int n = nl ? (int)(nl - l) : (int)strlen(l);
                    printf("    %.*s\n", n, l);
                    l += n + (nl ? 1 : 0);
                }
            }
        }
        sqlite3_finalize(st);
        printf("\nrun them again with: feroce-sweep run %s --retry-failed\n", file);
    }
    if (failed || done < c.g.n_points)
        rc = SWEEP_EXIT_FAILED;
out:
    free(state);
    free(attempts);
    sweep_ctx_close(&c);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return bad_usage("a COMMAND is needed: run, report, plot, list, status, slurm, merge, task or "
                         "version%s%s",
                         "", "");
    if (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(usage, stdout);
        return 0;
    }
    if (strcmp(argv[1], "version") == 0 || strcmp(argv[1], "--version") == 0) {
        printf("feroce-sweep %s\n", feroce_version());
        return 0;
    }
    static const struct {
        const char *name;
        int id;
    } commands[] = {
        { "run", C_RUN },       { "report", C_REPORT }, { "plot", C_PLOT },   { "list", C_LIST },
        { "status", C_STATUS }, { "slurm", C_SLURM },   { "merge", C_MERGE }, { "task", C_TASK }
    };
    int command = 0;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            command = commands[i].id;
    if (!command)
        return bad_usage(
            "command \"%s\" is not allowed: expected run, report, plot, list, status, slurm, merge, "
            "task or version%s",
            argv[1], "");
    struct sweep_opts o = { .timeout_s = -1 };
    int rc = parse_args(argc, argv, command, argv[1], &o);
    if (rc)
        goto out;
    size_t want = command == C_TASK ? 2 : 1;
    if (o.args.n < want) {
        rc = bad_usage("%s needs %s", argv[1], command == C_TASK ? "SHARED_DIR and N" : "a sweep FILE");
        goto out;
    }
    int extra_ok = command == C_PLOT || command == C_MERGE;
    if (o.args.n > want && !extra_ok) {
        rc = bad_usage("%s: unexpected argument \"%s\"", argv[1], o.args.v[want]);
        goto out;
    }
    /* the arguments after FILE (plot's, merge's shards) */
    char *file = xstrdup(o.args.v[0]);
    char *second = command == C_TASK ? xstrdup(o.args.v[1]) : NULL;
    struct strv rest = { 0 };
    for (size_t i = want; i < o.args.n; i++)
        strv_push(&rest, o.args.v[i]);
    strv_free(&o.args);
    o.args = rest;
    switch (command) {
    case C_RUN:
        rc = sweep_cmd_run(file, &o);
        break;
    case C_REPORT:
        rc = sweep_cmd_report(file, &o);
        break;
    case C_PLOT:
        rc = sweep_cmd_plot(file, &o);
        break;
    case C_LIST:
        rc = cmd_list(file, &o);
        break;
    case C_STATUS:
        rc = cmd_status(file, &o);
        break;
    case C_SLURM:
        rc = sweep_cmd_slurm(file, &o);
        break;
    case C_MERGE:
        rc = sweep_cmd_merge(file, &o);
        break;
    case C_TASK:
        rc = sweep_cmd_task(file, second, &o);
        break;
    }
    free(file);
    free(second);
out:
    strv_free(&o.args);
    strv_free(&o.sbatch);
    return rc;
}
