/*
 * sweep-context.h - what every command needs: the sweep file and its grid,
 * the sweep's directory and database, and the lock that keeps two drivers
 * from running one sweep at once.
 */
#ifndef FEROCE_SWEEP_CONTEXT_H
#define FEROCE_SWEEP_CONTEXT_H

#include <sqlite3.h>

#include "sweep-file.h"
#include "sweep-grid.h"
#include "sweep-util.h"

/* Command-line options (each command uses some). */
struct sweep_opts {
    const char *dir;     /* --dir: the sweep's directory */
    const char *version; /* --version: the version in the keys */
    long jobs;           /* -j */
    int retry_failed;    /* --retry-failed */
    double timeout_s;    /* --timeout; < 0: the file's */
    const char *csv;     /* --csv */
    const char *out;     /* --out */
    const char *shared_dir;
    const char *program; /* --program: the program's path, found already */
    const char *time_limit;
    long max_parallel;
    int all;
    int verbose;
    struct strv sbatch; /* --sbatch-option, repeatable */
    struct strv args;   /* positional arguments after the command */
};

struct sweep_ctx {
    struct sweep_file sf;
    struct sweep_grid g;
    char *dir;     /* the sweep's directory */
    char *db_path; /* DIR/sweep.db */
    sqlite3 *db;
    int lock_fd;
};

enum { CTX_READ = 0, CTX_WRITE = 1, CTX_FILE = 2 };

/* Loads the sweep file and expands it.  With CTX_WRITE also creates the
 * directory, takes the lock and opens (creating) the database; with CTX_READ
 * opens the database if it exists (c->db stays NULL if not); with CTX_FILE
 * touches no directory or database.  Prints the
 * reason and returns an exit status (SWEEP_EXIT_USAGE or _FAILED) on error,
 * 0 on success. */
int sweep_ctx_open(struct sweep_ctx *c, const char *file, const struct sweep_opts *o, int mode);
void sweep_ctx_close(struct sweep_ctx *c);

/* The sweep's directory for a sweep file: --dir, or results/sweeps/NAME. */
char *sweep_default_dir(const struct sweep_file *sf, const struct sweep_opts *o);

/* The program's path: PATH as written if it has a slash (relative to the
 * sweep file's directory), else found in $FEROCE_SWEEP_PATH, beside
 * feroce-sweep (../examples, ../scratch, its own directory), then $PATH.
 * NULL with a message naming where it looked. */
char *sweep_find_program(const struct sweep_file *sf, char *err, size_t errlen);
/* The program to run: given (--program), checked to be an executable file, as an absolute path;
 * else sweep_find_program's.  NULL with why in err. */
char *sweep_program(const struct sweep_file *sf, const char *given, char *err, size_t errlen);

#endif /* FEROCE_SWEEP_CONTEXT_H */
