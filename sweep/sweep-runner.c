/*
 * sweep-runner.c - points as child processes (sweep-runner.h).
 *
 * Signals are blocked and taken with sigtimedwait, so a child's end is seen
 * at once (no polling) and no handler runs at an awkward moment.  Each child
 * is the leader of its own process group (a timeout kills the group: the
 * program and anything it started) and, on Linux, asks to be killed when
 * feroce-sweep dies (PR_SET_PDEATHSIG), so a kill -9 of the driver leaves no
 * point running on behind it, writing into a directory the next run reuses.
 */
#define _GNU_SOURCE
#include "sweep-runner.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "sweep-util.h"

void runner_init(struct sweep_runner *r)
{
    memset(r, 0, sizeof *r);
    sigemptyset(&r->mask);
    sigaddset(&r->mask, SIGCHLD);
    sigaddset(&r->mask, SIGINT);
    sigaddset(&r->mask, SIGTERM);
    sigaddset(&r->mask, SIGHUP);
    sigprocmask(SIG_BLOCK, &r->mask, &r->old_mask);
}

void runner_done(struct sweep_runner *r)
{
    runner_kill_all(r);
    free(r->procs);
    sigprocmask(SIG_SETMASK, &r->old_mask, NULL);
}

char *runner_join_command(char *const argv[])
{
    size_t len = 1;
    char **q = NULL;
    size_t n = 0;
    while (argv[n])
        n++;
    q = xmalloc((n ? n : 1) * sizeof *q);
    for (size_t i = 0; i < n; i++) {
        q[i] = shell_quote(argv[i]);
        len += strlen(q[i]) + 1;
    }
    char *s = xmalloc(len);
    s[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        if (i)
            strcat(s, " ");
        strcat(s, q[i]);
        free(q[i]);
    }
    free(q);
    return s;
}

int runner_start(struct sweep_runner *r, size_t point, char *const argv[], const char *dir, double timeout_s,
                 char *err, size_t errlen)
{
    if (remove_tree(dir) != 0 || mkdirs(dir) != 0) {
        snprintf(err, errlen, "cannot make the point directory %s: %s", dir, strerror(errno));
        return -1;
    }
    char *out_path = xasprintf("%s/stdout.txt", dir), *err_path = xasprintf("%s/stderr.txt", dir);
    int in = open("/dev/null", O_RDONLY | O_CLOEXEC);
    int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    int errfd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    free(out_path);
    free(err_path);
    if (in < 0 || out < 0 || errfd < 0) {
        snprintf(err, errlen, "cannot open the output files in %s: %s", dir, strerror(errno));
        if (in >= 0)
            close(in);
        if (out >= 0)
            close(out);
        if (errfd >= 0)
            close(errfd);
        return -1;
    }
    pid_t parent = getpid();
    double started = now_s();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "cannot start a process: %s", strerror(errno));
        close(in);
        close(out);
        close(errfd);
        return -1;
    }
    if (pid == 0) {
        setpgid(0, 0);
#ifdef __linux__
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127); /* the driver died before prctl */
#endif
        (void)parent;
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        signal(SIGPIPE, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(errfd, 2) < 0)
            _exit(127);
        execv(argv[0], argv);
        dprintf(2, "feroce-sweep: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid); /* also here, so a kill of the group cannot come before the child's own setpgid */
    close(in);
    close(out);
    close(errfd);
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 8;
        r->procs = xrealloc(r->procs, r->cap * sizeof *r->procs);
    }
    struct sweep_proc *p = &r->procs[r->n++];
    memset(p, 0, sizeof *p);
    p->pid = pid;
    p->point = point;
    p->started = started;
    p->deadline = timeout_s > 0 ? started + timeout_s : 0;
    p->dir = xstrdup(dir);
    p->command = runner_join_command(argv);
    return 0;
}

static int reap(struct sweep_runner *r, struct sweep_finished *f)
{
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        for (size_t i = 0; i < r->n; i++) {
            if (r->procs[i].pid != pid)
                continue;
            f->proc = r->procs[i];
            f->wall_s = now_s() - f->proc.started;
            f->exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
            f->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
            r->procs[i] = r->procs[--r->n];
            return 1;
        }
    }
    return 0;
}

int runner_wait(struct sweep_runner *r, double until, struct sweep_finished *f, int *sig)
{
    for (;;) {
        if (reap(r, f))
            return 1;
        double now = now_s();
        double wake = until;
        for (size_t i = 0; i < r->n; i++) {
            struct sweep_proc *p = &r->procs[i];
            if (p->deadline <= 0 || p->timed_out)
                continue;
            if (now >= p->deadline) {
                p->timed_out = 1;
                kill(-p->pid, SIGKILL);
            } else if (p->deadline < wake) {
                wake = p->deadline;
            }
        }
        if (now >= until)
            return 0;
        double dt = wake - now;
        if (dt < 0)
            dt = 0;
        struct timespec ts = { .tv_sec = (time_t)dt, .tv_nsec = (long)((dt - (double)(time_t)dt) * 1e9) };
        siginfo_t info;
        int s = sigtimedwait(&r->mask, &info, &ts);
        if (s == SIGINT || s == SIGTERM || s == SIGHUP) {
            *sig = s;
            return -1;
        }
        /* SIGCHLD, a timeout or EINTR: look again */
    }
}

void runner_kill_all(struct sweep_runner *r)
{
    for (size_t i = 0; i < r->n; i++)
        kill(-r->procs[i].pid, SIGKILL);
    for (size_t i = 0; i < r->n; i++) {
        waitpid(r->procs[i].pid, NULL, 0);
        free(r->procs[i].dir);
        free(r->procs[i].command);
    }
    r->n = 0;
}
