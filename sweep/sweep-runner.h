/*
 * sweep-runner.h - running points as child processes: each in its own
 * process group and directory, stdout and stderr into files there, killed at
 * its timeout and when feroce-sweep itself dies.
 */
#ifndef FEROCE_SWEEP_RUNNER_H
#define FEROCE_SWEEP_RUNNER_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

struct sweep_proc {
    pid_t pid; /* also its process group */
    size_t point;
    double started;
    double deadline; /* 0: none */
    int timed_out;
    char *dir;
    char *command;
};

struct sweep_runner {
    struct sweep_proc *procs;
    size_t n, cap;
    sigset_t mask, old_mask;
};

/* How a child ended (the proc's strings are handed over: free them). */
struct sweep_finished {
    struct sweep_proc proc;
    int exit_status; /* -1 when killed */
    int signal;
    double wall_s;
};

/* Blocks SIGCHLD, SIGINT, SIGTERM and SIGHUP, which runner_wait then takes
 * synchronously. */
void runner_init(struct sweep_runner *r);
void runner_done(struct sweep_runner *r);

/* Starts argv[0] (a path) with argv in dir (emptied first), stdout and
 * stderr to dir/stdout.txt and dir/stderr.txt, stdin from /dev/null.
 * timeout_s 0: none.  0, or -1 with a message. */
int runner_start(struct sweep_runner *r, size_t point, char *const argv[], const char *dir, double timeout_s,
                 char *err, size_t errlen);

/* Waits for a child to end, at most until the monotonic time until.
 * Returns 1 (f filled), 0 (time reached), or -1 when SIGINT, SIGTERM or
 * SIGHUP arrived (*sig set).  Kills children at their deadlines meanwhile. */
int runner_wait(struct sweep_runner *r, double until, struct sweep_finished *f, int *sig);

/* argv (NULL-terminated) as one line for sh, each word quoted when it needs it (new string). */
char *runner_join_command(char *const argv[]);

/* Kills every running child's process group and reaps them. */
void runner_kill_all(struct sweep_runner *r);

#endif /* FEROCE_SWEEP_RUNNER_H */
