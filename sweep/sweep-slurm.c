/*
 * sweep-slurm.c - SLURM job arrays and shards (sweep-slurm.h).
 *
 * SHARED_DIR/
 *   job.sbatch        the array job: task i runs "feroce-sweep task SHARED_DIR i"
 *   tasks.txt         "# sweep FILE", then "KEY INDEX" for task 1, 2, ...
 *   NAME.sweep        a copy of the sweep file the tasks read
 *   logs/task-I.out   each task's stdout and stderr
 *   shards/KEY/       shard.db (a sweep database holding one point) and point/ (its outputs)
 */
#define _DEFAULT_SOURCE
#include "sweep-slurm.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sweep-db.h"

int sweep_cmd_slurm(const char *file, const struct sweep_opts *o)
{
    if (!o->shared_dir) {
        fprintf(stderr,
                "feroce-sweep slurm: --shared-dir DIR is missing: expected a directory every node can read "
                "and write\n");
        return SWEEP_EXIT_USAGE;
    }
    struct sweep_ctx c;
    int rc = sweep_ctx_open(&c, file, o, CTX_READ);
    if (rc)
        return rc;
    char err[2048];
    char *program = sweep_program(&c.sf, o->program, err, sizeof err);
    char *self = self_exe();
    char *shared = absolute_path(o->shared_dir);
    char *cwd = absolute_path(".");
    char *logs = xasprintf("%s/logs", shared), *shards = xasprintf("%s/shards", shared);
    char *base = strrchr(file, '/') ? xstrdup(strrchr(file, '/') + 1) : xstrdup(file);
    char *copy = xasprintf("%s/%s", shared, base);
    char *tasks_path = xasprintf("%s/tasks.txt", shared), *job_path = xasprintf("%s/job.sbatch", shared);
    enum sweep_state *state = xcalloc(c.g.n_points, sizeof *state);
    int *attempts = xcalloc(c.g.n_points, sizeof *attempts);
    size_t n = 0;
    char *tasks = NULL, *job = NULL;
    if (!program) {
        fprintf(stderr, "feroce-sweep: %s\n", err);
        rc = SWEEP_EXIT_USAGE;
        goto out;
    }
    if (!self) {
        fprintf(stderr, "feroce-sweep: cannot find this program's own path (/proc/self/exe)\n");
        rc = SWEEP_EXIT_FAILED;
        goto out;
    }
    if (c.db && !o->all && sweep_db_load(c.db, &c.g, state, attempts, err, sizeof err) != 0) {
        fprintf(stderr, "feroce-sweep: %s: %s\n", c.db_path, err);
        rc = SWEEP_EXIT_FAILED;
        goto out;
    }
    if (mkdirs(logs) != 0 || mkdirs(shards) != 0) {
        fprintf(stderr, "feroce-sweep: cannot create %s: %s\n", shared, strerror(errno));
        rc = SWEEP_EXIT_FAILED;
        goto out;
    }
    /* the task list: points not done here (all of them with --all) */
    size_t cap = 256 + strlen(copy) + 64 * c.g.n_points, len = 0;
    tasks = xmalloc(cap);
    len += (size_t)sprintf(
        tasks + len,
        "# feroce-sweep tasks of sweep %s (version %s): task N runs the point on the N-th line "
        "below that is not a comment: KEY INDEX\n# sweep %s\n",
        c.sf.name, c.g.version, copy);
    for (size_t i = 0; i < c.g.n_points; i++) {
        if (!o->all && state[i] == SWEEP_DONE)
            continue;
        len += (size_t)sprintf(tasks + len, "%s %zu\n", c.g.points[i].key, i);
        n++;
    }
    if (n == 0) {
        printf("feroce-sweep: nothing to submit: every point of %s is done in %s\n", c.sf.name, c.db_path);
        goto out;
    }
    char *q_self = shell_quote(self), *q_prog = shell_quote(program), *q_shared = shell_quote(shared);
    char *q_version = o->version ? shell_quote(o->version) : NULL;
    char timeout[64] = "";
    double timeout_s = o->timeout_s >= 0 ? o->timeout_s : c.sf.timeout_s;
    if (timeout_s > 0)
        snprintf(timeout, sizeof timeout, " --timeout %g", timeout_s);
    size_t extra = 0;
    for (size_t i = 0; i < o->sbatch.n; i++)
        extra += strlen(o->sbatch.v[i]) + 16;
    job = xmalloc(4096 + extra + 4 * strlen(shared) + strlen(self) + strlen(program) + strlen(cwd) +
                  strlen(file));
    size_t j = 0;
    j += (size_t)sprintf(
        job + j,
        "#!/bin/sh\n"
        "# feroce-sweep job array for sweep %s (version %s): %zu points, one per task, each into\n"
        "# its own shard %s/shards/KEY/.  Submit, then merge when it has finished\n"
        "# (merging again later is harmless):\n"
        "#   sbatch %s\n"
        "#   feroce-sweep merge %s %s/shards\n",
        c.sf.name, c.g.version, n, shared, job_path, file, shared);
    j += (size_t)sprintf(job + j, "#SBATCH --job-name=feroce-%s\n", c.sf.name);
    if (o->max_parallel > 0)
        j += (size_t)sprintf(job + j, "#SBATCH --array=1-%zu%%%ld\n", n, o->max_parallel);
    else
        j += (size_t)sprintf(job + j, "#SBATCH --array=1-%zu\n", n);
    j += (size_t)sprintf(job + j,
                         "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n#SBATCH --output=%s/task-%%a.out\n"
                         "#SBATCH --chdir=%s\n",
                         logs, cwd);
    if (o->time_limit)
        j += (size_t)sprintf(job + j, "#SBATCH --time=%s\n", o->time_limit);
    for (size_t i = 0; i < o->sbatch.n; i++)
        j += (size_t)sprintf(job + j, "#SBATCH %s\n", o->sbatch.v[i]);
    j += (size_t)sprintf(job + j, "exec %s task --program %s%s%s%s %s \"$SLURM_ARRAY_TASK_ID\"\n", q_self,
                         q_prog, timeout, q_version ? " --version " : "", q_version ? q_version : "",
                         q_shared);
    free(q_self);
    free(q_prog);
    free(q_shared);
    free(q_version);
    if (write_file_atomic(copy, c.sf.text, strlen(c.sf.text)) != 0 ||
        write_file_atomic(tasks_path, tasks, len) != 0 || write_file_atomic(job_path, job, j) != 0 ||
        chmod(job_path, 0755) != 0) {
        fprintf(stderr, "feroce-sweep: cannot write into %s: %s\n", shared, strerror(errno));
        rc = SWEEP_EXIT_FAILED;
        goto out;
    }
    if (n > 1000)
        fprintf(stderr,
                "feroce-sweep: %zu tasks: more than SLURM's default MaxArraySize (1001) allows; ask your "
                "administrator or split the sweep\n",
                n);
    printf("feroce-sweep: wrote %s (%zu tasks) and %s\n", job_path, n, tasks_path);
    printf("feroce-sweep: submit with \"sbatch %s\", then \"feroce-sweep merge %s %s/shards\"\n", job_path,
           file, shared);
out:
    free(tasks);
    free(job);
    free(state);
    free(attempts);
    free(program);
    free(self);
    free(shared);
    free(cwd);
    free(logs);
    free(shards);
    free(base);
    free(copy);
    free(tasks_path);
    free(job_path);
    sweep_ctx_close(&c);
    return rc;
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Every shard.db a SHARD argument names, in name order. */
static void shard_files(const char *arg, struct strv *out, struct strv *missing)
{
    if (is_file(arg)) {
        strv_push(out, arg);
        return;
    }
    char *own = xasprintf("%s/shard.db", arg);
    if (is_file(own)) {
        strv_push(out, own);
        free(own);
        return;
    }
    free(own);
    if (!is_dir(arg)) {
        strv_push(missing, arg);
        return;
    }
    char *sub = xasprintf("%s/shards", arg);
    const char *dir = is_dir(sub) ? sub : arg;
    struct dirent **list;
    int n = scandir(dir, &list, NULL, alphasort);
    size_t before = out->n;
    for (int i = 0; i < n; i++) {
        if (list[i]->d_name[0] != '.') {
            char *db = xasprintf("%s/%s/shard.db", dir, list[i]->d_name);
            if (is_file(db))
                strv_push(out, db);
            free(db);
        }
        free(list[i]);
    }
    if (n >= 0)
        free(list);
    if (out->n == before)
        strv_push(missing, arg);
    free(sub);
}

int sweep_cmd_merge(const char *file, const struct sweep_opts *o)
{
    if (o->args.n == 0) {
        fprintf(stderr,
                "feroce-sweep merge: no shards: expected \"feroce-sweep merge FILE SHARD...\" (shard.db "
                "files, shard directories, or a --shared-dir)\n");
        return SWEEP_EXIT_USAGE;
    }
    struct strv files = { 0 }, missing = { 0 };
    for (size_t i = 0; i < o->args.n; i++)
        shard_files(o->args.v[i], &files, &missing);
    for (size_t i = 0; i < missing.n; i++)
        fprintf(stderr, "feroce-sweep merge: %s: no shard.db there\n", missing.v[i]);
    struct sweep_ctx c;
    int rc = sweep_ctx_open(&c, file, o, CTX_WRITE);
    if (rc) {
        strv_free(&files);
        strv_free(&missing);
        return rc;
    }
    struct sweep_merge_counts n = { 0 };
    size_t bad = 0;
    char err[1024];
    for (size_t i = 0; i < files.n; i++)
        if (sweep_db_merge(c.db, &c.g, files.v[i], &n, err, sizeof err) != 0) {
            fprintf(stderr, "feroce-sweep merge: %s\n", err);
            bad++;
        }
    printf("feroce-sweep: merged %zu shards into %s: %zu points done, %zu failed, %zu done already, %zu "
           "failures "
           "kept as recorded\n",
           files.n - bad, c.db_path, n.done, n.failed, n.already, n.kept);
    if (n.foreign)
        fprintf(stderr,
                "feroce-sweep merge: %zu points are not points of %s at version %s (another sweep, or "
                "another version: see --version): not merged\n",
                n.foreign, c.sf.name, c.g.version);
    enum sweep_state *state = xcalloc(c.g.n_points, sizeof *state);
    int *attempts = xcalloc(c.g.n_points, sizeof *attempts);
    if (sweep_db_load(c.db, &c.g, state, attempts, err, sizeof err) == 0) {
        size_t done = 0, failed = 0;
        for (size_t i = 0; i < c.g.n_points; i++) {
            done += state[i] == SWEEP_DONE;
            failed += state[i] == SWEEP_FAILED;
        }
        printf("feroce-sweep: %s: %zu points: %zu done, %zu failed, %zu not run\n", c.sf.name, c.g.n_points,
               done, failed, c.g.n_points - done - failed);
    }
    free(state);
    free(attempts);
    if (bad || missing.n || n.foreign)
        rc = SWEEP_EXIT_FAILED;
    strv_free(&files);
    strv_free(&missing);
    sweep_ctx_close(&c);
    return rc;
}
