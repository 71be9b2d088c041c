/*
 * sweep-context.c - sweep file, grid, directory, database and lock
 * (sweep-context.h).
 */
#define _DEFAULT_SOURCE
#include "sweep-context.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "feroce-db.h"
#include "sweep-db.h"
#include "sweep-inputs.h"

char *sweep_default_dir(const struct sweep_file *sf, const struct sweep_opts *o)
{
    if (o->dir)
        return xstrdup(o->dir);
    return xasprintf("results/sweeps/%s", sf->name);
}

int sweep_ctx_open(struct sweep_ctx *c, const char *file, const struct sweep_opts *o, int mode)
{
    char err[1024];
    memset(c, 0, sizeof *c);
    c->lock_fd = -1;
    if (sweep_file_load(file, &c->sf, err, sizeof err) != 0) {
        fprintf(stderr, "feroce-sweep: %s\n", err);
        return SWEEP_EXIT_USAGE;
    }
    /* the program says which files its runs read (a program that cannot be found: none; the
     * commands that run it say why) */
    char *program = sweep_program(&c->sf, o->program, err, sizeof err);
    struct sweep_inputs *inputs = sweep_inputs_new(program);
    free(program);
    int rc =
        sweep_grid_expand(&c->sf, o->version ? o->version : feroce_version(), inputs, &c->g, err, sizeof err);
    sweep_inputs_free(inputs);
    if (rc != 0) {
        fprintf(stderr, "feroce-sweep: %s\n", err);
        sweep_file_free(&c->sf);
        return SWEEP_EXIT_USAGE;
    }
    c->dir = sweep_default_dir(&c->sf, o);
    c->db_path = xasprintf("%s/sweep.db", c->dir);
    if (mode == CTX_FILE)
        return 0;
    if (mode == CTX_READ) {
        if (access(c->db_path, F_OK) != 0)
            return 0;
        if (sweep_db_open(c->db_path, &c->db, err, sizeof err) != 0) {
            fprintf(stderr, "feroce-sweep: %s\n", err);
            sweep_ctx_close(c);
            return SWEEP_EXIT_FAILED;
        }
        return 0;
    }
    if (mkdirs(c->dir) != 0) {
        /* a folder that cannot be made is bad input, refused before any point starts */
        fprintf(stderr,
                "feroce-sweep: --dir = \"%s\" is not allowed: expected a folder that can be created (%s)\n",
                c->dir, strerror(errno));
        sweep_ctx_close(c);
        return SWEEP_EXIT_USAGE;
    }
    char *lock = xasprintf("%s/.lock", c->dir);
    c->lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (c->lock_fd < 0 || flock(c->lock_fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno == EWOULDBLOCK)
            fprintf(stderr,
                    "feroce-sweep: another feroce-sweep is working on %s (%s is locked): wait for it\n",
                    c->dir, lock);
        else
            fprintf(stderr, "feroce-sweep: cannot lock %s: %s\n", lock, strerror(errno));
        free(lock);
        sweep_ctx_close(c);
        return SWEEP_EXIT_FAILED;
    }
    free(lock);
    if (sweep_db_open(c->db_path, &c->db, err, sizeof err) != 0 ||
        sweep_db_save_file(c->db, &c->sf, err, sizeof err) != 0) {
        fprintf(stderr, "feroce-sweep: %s\n", err);
        sweep_ctx_close(c);
        return SWEEP_EXIT_FAILED;
    }
    return 0;
}

void sweep_ctx_close(struct sweep_ctx *c)
{
    if (c->db)
        sqlite3_close(c->db);
    if (c->lock_fd >= 0)
        close(c->lock_fd);
    sweep_grid_free(&c->g);
    sweep_file_free(&c->sf);
    free(c->dir);
    free(c->db_path);
    memset(c, 0, sizeof *c);
    c->lock_fd = -1;
}

/* Whether path is a program: an executable regular file (a folder is searchable, not runnable). */
static int is_program(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && access(path, X_OK) == 0;
}

static char *try_dir(const char *dir, const char *program, struct strv *looked)
{
    char *path = xasprintf("%s/%s", dir, program);
    if (is_program(path)) {
        char resolved[PATH_MAX];
        char *abs = realpath(path, resolved) ? xstrdup(resolved) : absolute_path(path);
        free(path);
        return abs;
    }
    if (looked)
        strv_push(looked, dir);
    free(path);
    return NULL;
}

char *sweep_program(const struct sweep_file *sf, const char *given, char *err, size_t errlen)
{
    if (!given)
        return sweep_find_program(sf, err, errlen);
    if (!is_program(given)) {
        struct stat sb;
        int folder = stat(given, &sb) == 0 && S_ISDIR(sb.st_mode);
        snprintf(err, errlen, "--program %s is not allowed: %s, not an executable file", given,
                 folder                  ? "a folder"
                 : stat(given, &sb) == 0 ? "not executable"
                                         : "no such file");
        return NULL;
    }
    return absolute_path(given);
}

char *sweep_find_program(const struct sweep_file *sf, char *err, size_t errlen)
{
    const char *prog = sf->program;
    if (strchr(prog, '/')) {
        char *path;
        if (prog[0] == '/') {
            path = xstrdup(prog);
        } else {
            char *d = dir_name(sf->path);
            char *rel = xasprintf("%s/%s", d, prog);
            path = absolute_path(rel);
            free(rel);
            free(d);
        }
        if (!is_program(path)) {
            struct stat sb;
            int folder = stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
            snprintf(err, errlen,
                     "%s:%d: program %s: %s is not an executable file (%s): build it or fix the path",
                     sf->path, sf->program_line, prog, path,
                     folder ? "a folder" : strerror(errno ? errno : EACCES));
            free(path);
            return NULL;
        }
        return path;
    }
    struct strv looked = { 0 };
    char *found = NULL;
    const char *env = getenv("FEROCE_SWEEP_PATH");
    if (env && *env) {
        char *copy = xstrdup(env), *save = NULL;
        for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save))
            found = try_dir(d, prog, &looked);
        free(copy);
    }
    char *self = self_exe();
    if (self && !found) {
        char *bin = dir_name(self);
        char *examples = xasprintf("%s/../examples", bin), *scratch = xasprintf("%s/../scratch", bin);
        if (!found)
            found = try_dir(examples, prog, &looked);
        if (!found)
            found = try_dir(scratch, prog, &looked);
        if (!found)
            found = try_dir(bin, prog, &looked);
        free(examples);
        free(scratch);
        free(bin);
    }
    free(self);
    const char *path = getenv("PATH");
    if (!found && path && *path) {
        char *copy = xstrdup(path), *save = NULL;
        for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save))
            found = try_dir(d, prog, NULL); /* named as $PATH in the message */
        free(copy);
    }
    if (!found) {
        size_t n = 0;
        int w = snprintf(err, errlen, "%s:%d: program %s not found: looked in ", sf->path, sf->program_line,
                         prog);
        if (w > 0)
            n = (size_t)w;
        for (size_t i = 0; i < looked.n && n < errlen; i++) {
            w = snprintf(err + n, errlen - n, "%s, ", looked.v[i]);
            if (w > 0)
                n += (size_t)w;
        }
        if (n < errlen)
            snprintf(err + n, errlen - n,
                     "$FEROCE_SWEEP_PATH and $PATH: build it (cmake --build build) or give "
                     "its path");
    }
    strv_free(&looked);
    return found;
}
