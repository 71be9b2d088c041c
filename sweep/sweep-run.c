/*
 * sweep-run.c - running points (sweep-run.h).
 *
 * run: every point of the grid that has no points row (and, with
 * --retry-failed, every failed one) is started, at most -j at a time, in
 * DIR/points/KEY (emptied first: a point that was running when an earlier
 * driver died runs again from the start).  As soon as a point ends the next
 * one starts, then the ended one is recorded in one transaction.
 */
#define _GNU_SOURCE
#include "sweep-run.h"

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "feroce-db.h"
#include "sweep-db.h"
#include "sweep-progress.h"
#include "sweep-runner.h"

#define STDERR_TAIL_BYTES 4096

long sweep_cores(void)
{
#ifdef CPU_COUNT
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
#endif
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? n : 1;
}

struct run_totals {
    size_t started, done, failed;
    double first_start, last_end;
    double points_wall; /* sum over the points run */
    long jobs;
    int interrupted;
};

/* Where a point runs. */
typedef char *(*point_dir_fn)(const void *arg, const struct sweep_point *pt);

static char *local_point_dir(const void *arg, const struct sweep_point *pt)
{
    return xasprintf("%s/points/%s", (const char *)arg, pt->key);
}

static char *shard_point_dir(const void *arg, const struct sweep_point *pt)
{
    (void)pt;
    return xasprintf("%s/point", (const char *)arg);
}

/* The last non-empty line of a text. */
static const char *last_line(const char *text, char *buf, size_t len)
{
    const char *end = text + strlen(text);
    while (end > text && (end[-1] == '\n' || end[-1] == '\r'))
        end--;
    const char *start = end;
    while (start > text && start[-1] != '\n')
        start--;
    size_t n = (size_t)(end - start);
    if (n >= len)
        n = len - 1;
    memcpy(buf, start, n);
    buf[n] = '\0';
    return buf;
}

static void report_failure(struct sweep_progress *pr, const struct sweep_grid *g,
                           const struct sweep_point *pt, const char *why, const char *tail, const char *dir)
{
    char *combo = sweep_grid_combo_text(g, pt->combo);
    char line[300];
    last_line(tail ? tail : "", line, sizeof line);
    progress_message(pr, "feroce-sweep: point %s (%s%sseed %ld) failed: %s%s%s%s; see %s/stderr.txt", pt->key,
                     combo, *combo ? ", " : "", pt->seed, why, *line ? ": \"" : "", line, *line ? "\"" : "",
                     dir);
    free(combo);
}

/* Starts a process that runs n_points points (runner_start's arguments); 0 or SWEEP_EXIT_FAILED, said. */
static int start_process(struct sweep_runner *r, size_t index, char *const argv[], const char *dir,
                         double timeout_s, size_t n_points, struct sweep_progress *pr, struct run_totals *t)
{
    char err[1024];
    if (runner_start(r, index, argv, dir, timeout_s, err, sizeof err) != 0) {
        progress_message(pr, "feroce-sweep: %s", err);
        return SWEEP_EXIT_FAILED;
    }
    t->started += n_points;
    pr->running = r->n;
    return 0;
}

/* The start of a run of processes: the runner, the clock, the progress line. */
static void run_begin(struct sweep_runner *r, long jobs, struct sweep_progress *pr, struct run_totals *t)
{
    runner_init(r);
    t->jobs = jobs;
    t->first_start = now_s();
    t->last_end = t->first_start;
    progress_draw(pr, 1);
}

/* Waits up to a second for a process to end: 1 when one did (f filled), 0 when none did (the progress
 * line redrawn), -1 when a signal interrupts the run (t->interrupted set). */
static int wait_process(struct sweep_runner *r, struct sweep_finished *f, struct sweep_progress *pr,
                        struct run_totals *t)
{
    int sig = 0;
    int w = runner_wait(r, now_s() + 1.0, f, &sig);
    if (w < 0)
        t->interrupted = sig;
    else if (w == 0)
        progress_draw(pr, 0);
    else
        pr->running = r->n;
    return w;
}

/* How an ended process went; *tail (to free, NULL when it exited 0) is the end of its stderr. */
static struct sweep_outcome process_outcome(const struct sweep_finished *f, char **tail)
{
    *tail = NULL;
    if (f->exit_status != 0 || f->proc.timed_out) {
        char *errfile = xasprintf("%s/stderr.txt", f->proc.dir);
        *tail = read_tail(errfile, STDERR_TAIL_BYTES);
        free(errfile);
    }
    struct sweep_outcome o = { .exit_status = f->proc.timed_out ? -1 : f->exit_status,
                               .signal = f->proc.timed_out ? 0 : f->signal,
                               .timed_out = f->proc.timed_out,
                               .wall_s = f->wall_s,
                               .stderr_tail = *tail,
                               .command = f->proc.command };
    return o;
}

/* Counts a recorded point (done or failed), saying why when it failed. */
static void count_point(struct sweep_progress *pr, struct run_totals *t, const struct sweep_grid *g,
                        const struct sweep_point *pt, enum sweep_state state, const char *why,
                        const char *tail, const char *dir)
{
    pr->finished++;
    if (state == SWEEP_DONE) {
        t->done++;
        pr->done++;
    } else {
        t->failed++;
        pr->failed++;
        report_failure(pr, g, pt, why, tail, dir);
    }
}

/* The end of an ended process's bookkeeping: its time, and what wait_process and process_outcome gave. */
static void process_done(struct sweep_finished *f, char *tail, struct sweep_progress *pr,
                         struct run_totals *t)
{
    t->points_wall += f->wall_s;
    t->last_end = now_s();
    free(tail);
    free(f->proc.dir);
    free(f->proc.command);
    progress_draw(pr, 1);
}

/* Stops the processes still running (what they run, and whose points run again: "points", "they" or
 * "batches", "their points"); after a signal says so and returns 128 + the signal, else rc. */
static int run_end(struct sweep_runner *r, struct sweep_progress *pr, const struct run_totals *t,
                   const char *what, const char *whose, int rc)
{
    size_t stopped = r->n;
    runner_done(r);
    progress_clear(pr);
    if (t->interrupted) {
        fprintf(stderr,
                "feroce-sweep: interrupted (%s): %zu points finished and recorded; %zu running %s stopped "
                "(%s run again next time)\n",
                strsignal(t->interrupted), t->done + t->failed, stopped, what, whose);
        return 128 + t->interrupted;
    }
    return rc;
}

static int start_point(struct sweep_runner *r, const struct sweep_grid *g, const struct sweep_point *pt,
                       const char *program, double timeout_s, point_dir_fn dir_of, const void *dir_arg,
                       struct sweep_progress *pr, struct run_totals *t)
{
    char *dir = dir_of(dir_arg, pt);
    char *db_file = xasprintf("%s/run.db", dir);
    struct strv argv = { 0 };
    sweep_grid_argv(g, pt, program, dir, db_file, &argv);
    int rc = start_process(r, (size_t)(pt - g->points), argv.v, dir, timeout_s, 1, pr, t);
    strv_free(&argv);
    free(db_file);
    free(dir);
    return rc;
}

/* Runs points todo[0..n) of g, recording each into db. */
static int run_points(const struct sweep_grid *g, sqlite3 *db, const char *program, const size_t *todo,
                      size_t n, long jobs, double timeout_s, point_dir_fn dir_of, const void *dir_arg,
                      struct sweep_progress *pr, struct run_totals *t)
{
    struct sweep_runner r;
    char err[1024], why[600];
    int rc = 0;
    size_t next = 0;
    run_begin(&r, jobs, pr, t);
    while ((next < n || r.n > 0) && rc == 0) {
        /* start as many as there are free slots */
        while (next < n && r.n < (size_t)jobs && rc == 0)
            rc = start_point(&r, g, &g->points[todo[next++]], program, timeout_s, dir_of, dir_arg, pr, t);
        if (rc)
            break;
        struct sweep_finished f;
        int w = wait_process(&r, &f, pr, t);
        if (w < 0)
            break;
        if (w == 0)
            continue;
        /* the next point first, then the bookkeeping of this one */
        if (next < n && r.n < (size_t)jobs)
            rc = start_point(&r, g, &g->points[todo[next++]], program, timeout_s, dir_of, dir_arg, pr, t);
        const struct sweep_point *pt = &g->points[f.proc.point];
        char *tail;
        struct sweep_outcome o = process_outcome(&f, &tail);
        char *db_file = xasprintf("%s/run.db", f.proc.dir);
        why[0] = '\0';
        int s = sweep_db_record(db, g, pt, &o, db_file, why, sizeof why, err, sizeof err);
        free(db_file);
        if (s == SWEEP_DONE || s == SWEEP_FAILED) {
            count_point(pr, t, g, pt, s, why, tail, f.proc.dir);
        } else {
            pr->finished++;
            progress_message(pr, "feroce-sweep: cannot record point %s: %s", pt->key, err);
            rc = SWEEP_EXIT_FAILED;
        }
        process_done(&f, tail, pr, t);
    }
    return run_end(&r, pr, t, "points", "they", rc);
}

/* ---- batches: many points per process (the sweep file's "batch N") ---- */

struct batch {
    size_t first, n; /* todo[first .. first + n) */
    char *points;    /* the points file */
    char *dir;       /* where the process runs (its stdout, stderr and batch.db) */
    char **commands; /* each point's command as a per-point run has it */
};

static void batch_free(struct batch *b)
{
    if (b->points)
        remove(b->points);
    free(b->points);
    free(b->dir);
    for (size_t i = 0; b->commands && i < b->n; i++)
        free(b->commands[i]);
    free(b->commands);
    memset(b, 0, sizeof *b);
}

/* Writes the batch's points file: one line per point, its argv (as a per-point run gets it, the
 * point's directory emptied first) separated by tabs. */
static int batch_prepare(struct batch *b, const struct sweep_grid *g, const size_t *todo, const char *program,
                         const char *sweep_dir, char *err, size_t errlen)
{
    const struct sweep_point *first = &g->points[todo[b->first]];
    size_t cap = 4096, len = 0;
    char *text = xmalloc(cap);
    b->points = xasprintf("%s/batches/%s.points", sweep_dir, first->key);
    b->dir = xasprintf("%s/batches/%s", sweep_dir, first->key);
    b->commands = xcalloc(b->n, sizeof *b->commands);
    for (size_t i = 0; i < b->n; i++) {
        const struct sweep_point *pt = &g->points[todo[b->first + i]];
        char *dir = local_point_dir(sweep_dir, pt), *db_file = xasprintf("%s/run.db", dir);
        struct strv argv = { 0 };
        sweep_grid_argv(g, pt, program, dir, db_file, &argv);
        b->commands[i] = runner_join_command(argv.v);
        int bad = remove_tree(dir) != 0 || mkdirs(dir) != 0;
        if (bad)
            snprintf(err, errlen, "cannot make the point directory %s: %s", dir, strerror(errno));
        for (size_t a = 0; a < argv.n && !bad; a++) {
            size_t w = strlen(argv.v[a]);
            if (strpbrk(argv.v[a], "\t\n")) {
                snprintf(err, errlen,
                         "argument \"%s\" of point %s has a tab or a newline: a batch cannot pass it",
                         argv.v[a], pt->key);
                bad = 1;
                break;
            }
            if (len + w + 2 > cap) {
                cap = 2 * (len + w + 2);
                text = xrealloc(text, cap);
            }
            memcpy(text + len, argv.v[a], w);
            len += w;
            text[len++] = a + 1 < argv.n ? '\t' : '\n';
        }
        strv_free(&argv);
        free(db_file);
        free(dir);
        if (bad) {
            free(text);
            return -1;
        }
    }
    char *parent = dir_name(b->points);
    int rc = mkdirs(parent) != 0 || write_file_atomic(b->points, text, len) != 0 ? -1 : 0;
    if (rc)
        snprintf(err, errlen, "cannot write %s: %s", b->points, strerror(errno));
    free(parent);
    free(text);
    return rc;
}

static int start_batch(struct sweep_runner *r, struct batch *b, size_t index, const char *program,
                       double timeout_s, struct sweep_progress *pr, struct run_totals *t)
{
    char *batch_arg = xasprintf("--batch=%s", b->points), *db_arg = xasprintf("--db=%s/batch.db", b->dir);
    char *argv[] = { (char *)program, batch_arg, db_arg, NULL };
    int rc = start_process(r, index, argv, b->dir, timeout_s > 0 ? timeout_s * (double)b->n : 0, b->n, pr, t);
    free(batch_arg);
    free(db_arg);
    return rc;
}

/* Runs points todo[0..n) of g in batches of at most batch_size points per process (fewer, so that every job
 * has a batch), at most jobs processes at a time; each batch recorded in one transaction. */
static int run_batches(const struct sweep_grid *g, sqlite3 *db, const char *program, const size_t *todo,
                       size_t n, long jobs, long batch_size, double timeout_s, const char *sweep_dir,
                       struct sweep_progress *pr, struct run_totals *t)
{
    size_t per = (n + (size_t)jobs - 1) / (size_t)jobs, nb;
    char err[1024];
    int rc = 0;
    if (per > (size_t)batch_size)
        per = (size_t)batch_size;
    if (per < 1)
        per = 1;
    nb = (n + per - 1) / per;
    struct batch *bs = xcalloc(nb, sizeof *bs);
    for (size_t i = 0; i < nb; i++) {
        bs[i].first = i * per;
        bs[i].n = i + 1 < nb ? per : n - i * per;
    }
    struct sweep_runner r;
    size_t next = 0;
    run_begin(&r, jobs, pr, t);
    while ((next < nb || r.n > 0) && rc == 0) {
        while (next < nb && r.n < (size_t)jobs && rc == 0) {
            if (batch_prepare(&bs[next], g, todo, program, sweep_dir, err, sizeof err) != 0) {
                progress_message(pr, "feroce-sweep: %s", err);
                rc = SWEEP_EXIT_FAILED;
                break;
            }
            rc = start_batch(&r, &bs[next], next, program, timeout_s, pr, t);
            next++;
        }
        if (rc)
            break;
        struct sweep_finished f;
        int w = wait_process(&r, &f, pr, t);
        if (w < 0)
            break;
        if (w == 0)
            continue;
        struct batch *b = &bs[f.proc.point];
        char *tail;
        struct sweep_outcome o = process_outcome(&f, &tail);
        struct sweep_batch_point *bp = xcalloc(b->n, sizeof *bp);
        for (size_t i = 0; i < b->n; i++) {
            bp[i].pt = &g->points[todo[b->first + i]];
            bp[i].command = b->commands[i];
        }
        char *batch_db = xasprintf("%s/batch.db", f.proc.dir);
        if (sweep_db_record_batch(db, g, bp, b->n, &o, batch_db, err, sizeof err) != 0) {
            progress_message(pr, "feroce-sweep: cannot record the batch in %s: %s", f.proc.dir, err);
            rc = SWEEP_EXIT_FAILED;
        } else {
            for (size_t i = 0; i < b->n; i++)
                count_point(pr, t, g, bp[i].pt, bp[i].state, bp[i].why, bp[i].tail ? bp[i].tail : tail,
                            f.proc.dir);
        }
        for (size_t i = 0; i < b->n; i++)
            free(bp[i].tail);
        free(bp);
        free(batch_db);
        batch_free(b);
        process_done(&f, tail, pr, t);
    }
    rc = run_end(&r, pr, t, "batches", "their points", rc);
    for (size_t i = 0; i < nb; i++)
        batch_free(&bs[i]);
    free(bs);
    return rc;
}

static double cpu_s(int who)
{
    struct rusage ru;
    getrusage(who, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
           (double)ru.ru_stime.tv_usec * 1e-6;
}

int sweep_cmd_run(const char *file, const struct sweep_opts *o)
{
    struct sweep_ctx c;
    char err[2048];
    /* the program first: nothing is created for a sweep that cannot run */
    int rc = sweep_ctx_open(&c, file, o, CTX_FILE);
    if (rc)
        return rc;
    char *program = sweep_program(&c.sf, o->program, err, sizeof err);
    sweep_ctx_close(&c);
    if (!program) {
        fprintf(stderr, "feroce-sweep: %s\n", err);
        return SWEEP_EXIT_USAGE;
    }
    rc = sweep_ctx_open(&c, file, o, CTX_WRITE);
    if (rc) {
        free(program);
        return rc;
    }
    size_t np = c.g.n_points;
    enum sweep_state *state = xcalloc(np, sizeof *state);
    int *attempts = xcalloc(np, sizeof *attempts);
    if (sweep_db_load(c.db, &c.g, state, attempts, err, sizeof err) != 0) {
        fprintf(stderr, "feroce-sweep: %s: %s\n", c.db_path, err);
        rc = SWEEP_EXIT_FAILED;
        goto out;
    }
    size_t *todo = xcalloc(np, sizeof *todo);
    size_t n_todo = 0, n_done = 0, n_failed = 0;
    for (size_t i = 0; i < np; i++) {
        if (state[i] == SWEEP_DONE)
            n_done++;
        else if (state[i] == SWEEP_FAILED && !o->retry_failed)
            n_failed++;
        else
            todo[n_todo++] = i;
    }
    long jobs = o->jobs > 0 ? o->jobs : sweep_cores();
    if (jobs > (long)n_todo && n_todo > 0)
        jobs = (long)n_todo;
    double timeout_s = o->timeout_s >= 0 ? o->timeout_s : c.sf.timeout_s;
    struct sweep_progress pr;
    progress_init(&pr, np, n_done, n_failed, n_todo);
    if (pr.tty)
        fprintf(stderr,
                "feroce-sweep: %s: %zu points (%zu combinations x %ld replications), %zu done, %zu failed, "
                "%zu to "
                "run on %ld jobs in %s\n",
                c.sf.name, np, c.g.n_combos, c.sf.replications, n_done, n_failed, n_todo, jobs, c.dir);
    struct run_totals t = { 0 };
    double cpu0 = cpu_s(RUSAGE_SELF);
    if (n_todo > 0 && c.sf.batch > 1)
        rc = run_batches(&c.g, c.db, program, todo, n_todo, jobs, c.sf.batch, timeout_s, c.dir, &pr, &t);
    else if (n_todo > 0)
        rc = run_points(&c.g, c.db, program, todo, n_todo, jobs, timeout_s, local_point_dir, c.dir, &pr, &t);
    double cpu_self = cpu_s(RUSAGE_SELF) - cpu0, cpu_children = cpu_s(RUSAGE_CHILDREN);
    free(todo);
    if (rc > 128)
        goto out;

    /* the summary, from the database as it now is */
    if (sweep_db_load(c.db, &c.g, state, attempts, err, sizeof err) != 0) {
        fprintf(stderr, "feroce-sweep: %s: %s\n", c.db_path, err);
        rc = SWEEP_EXIT_FAILED;
        goto out;
    }
    size_t done = 0, failed = 0, pending = 0;
    for (size_t i = 0; i < np; i++) {
        done += state[i] == SWEEP_DONE;
        failed += state[i] == SWEEP_FAILED;
        pending += state[i] == SWEEP_PENDING;
    }
    printf("feroce-sweep: %s: %zu points (%zu combinations x %ld replications): %zu done, %zu failed, %zu "
           "not run\n",
           c.sf.name, np, c.g.n_combos, c.sf.replications, done, failed, pending);
    if (t.started > 0) {
        double elapsed = t.last_end - t.first_start;
        long j = t.jobs < (long)t.started ? t.jobs : (long)t.started;
        double ideal = t.points_wall / (double)j;
        printf(
            "feroce-sweep: this run: %zu points (%zu done, %zu failed) in %.2f s on %ld jobs; points' wall "
            "time "
            "%.2f s (%.2f s per job): driver overhead %.1f%%; driver CPU %.3f s (%.2f%% of the points' %.2f "
            "s)\n",
            t.started, t.done, t.failed, elapsed, t.jobs, t.points_wall, ideal,
            ideal > 0 ? 100 * (elapsed - ideal) / ideal : 0.0, cpu_self,
            cpu_children > 0 ? 100 * cpu_self / cpu_children : 0.0, cpu_children);
    } else {
        printf("feroce-sweep: nothing to run\n");
    }
    if (failed > 0)
        printf(
            "feroce-sweep: %zu failed points: \"feroce-sweep status %s\" lists them, \"feroce-sweep run %s "
            "--retry-failed\" runs them again\n",
            failed, file, file);
    if (rc == 0 && (failed > 0 || pending > 0))
        rc = SWEEP_EXIT_FAILED;
out:
    free(state);
    free(attempts);
    free(program);
    sweep_ctx_close(&c);
    return rc;
}

int sweep_cmd_task(const char *shared_dir, const char *n_text, const struct sweep_opts *o)
{
    long n;
    if (!parse_long(n_text, 1, LONG_MAX, &n)) {
        fprintf(stderr, "feroce-sweep task: N = \"%s\" is not allowed: expected a task number >= 1\n",
                n_text);
        return SWEEP_EXIT_USAGE;
    }
    /* tasks.txt: a "# sweep FILE" line, then one "KEY INDEX" line per task */
    char *tasks_path = xasprintf("%s/tasks.txt", shared_dir);
    char *tasks = read_file(tasks_path, NULL);
    if (!tasks) {
        fprintf(stderr, "feroce-sweep task: cannot read %s: %s\n", tasks_path, strerror(errno));
        free(tasks_path);
        return SWEEP_EXIT_USAGE;
    }
    char file[PATH_MAX] = "", key[SWEEP_KEY_LEN + 1] = "";
    long index = -1, line_no = 0;
    for (char *save = NULL, *line = strtok_r(tasks, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "# sweep ", 8) == 0) {
            snprintf(file, sizeof file, "%s", line + 8);
            continue;
        }
        if (line[0] == '#')
            continue;
        if (++line_no == n && sscanf(line, "%16s %ld", key, &index) != 2)
            index = -1;
    }
    free(tasks);
    if (!file[0] || index < 0) {
        fprintf(stderr, "feroce-sweep task: %s has no sweep file line or no task %ld (it has %ld)\n",
                tasks_path, n, line_no);
        free(tasks_path);
        return SWEEP_EXIT_USAGE;
    }
    free(tasks_path);

    struct sweep_ctx c;
    struct sweep_opts ro = *o;
    int rc = sweep_ctx_open(&c, file, &ro, CTX_FILE);
    if (rc)
        return rc;
    if ((size_t)index >= c.g.n_points || strcmp(c.g.points[index].key, key) != 0) {
        fprintf(stderr,
                "feroce-sweep task: task %ld is point %ld with key %s, but this feroce-sweep (version %s) "
                "finds %s "
                "there: the task list was made by another version or from another sweep file\n",
                n, index, key, c.g.version,
                (size_t)index < c.g.n_points ? c.g.points[index].key : "no point");
        sweep_ctx_close(&c);
        return SWEEP_EXIT_USAGE;
    }
    char err[2048];
    char *program = sweep_program(&c.sf, o->program, err, sizeof err);
    if (!program) {
        fprintf(stderr, "feroce-sweep task: %s\n", err);
        sweep_ctx_close(&c);
        return SWEEP_EXIT_USAGE;
    }
    char *shard = xasprintf("%s/shards/%s", shared_dir, key);
    char *shard_db = xasprintf("%s/shard.db", shard);
    sqlite3 *db = NULL;
    if (mkdirs(shard) != 0 || sweep_db_open(shard_db, &db, err, sizeof err) != 0 ||
        sweep_db_save_file(db, &c.sf, err, sizeof err) != 0) {
        fprintf(stderr, "feroce-sweep task: %s: %s\n", shard_db, db ? err : strerror(errno));
        rc = SWEEP_EXIT_FAILED;
    } else {
        size_t todo = (size_t)index;
        struct sweep_progress pr;
        progress_init(&pr, 1, 0, 0, 1);
        pr.tty = 0;
        struct run_totals t = { 0 };
        double timeout_s = o->timeout_s >= 0 ? o->timeout_s : c.sf.timeout_s;
        rc = run_points(&c.g, db, program, &todo, 1, 1, timeout_s, shard_point_dir, shard, &pr, &t);
        if (rc == 0 && t.done != 1)
            rc = SWEEP_EXIT_FAILED;
        if (rc == 0)
            printf("feroce-sweep task %ld: point %s done in %.2f s into %s\n", n, key, t.points_wall,
                   shard_db);
    }
    sqlite3_close(db);
    free(shard_db);
    free(shard);
    free(program);
    sweep_ctx_close(&c);
    return rc;
}
