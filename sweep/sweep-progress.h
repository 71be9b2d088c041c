/*
 * sweep-progress.h - one line of progress on a terminal (done/total, failures,
 * running, elapsed, ETA), redrawn in place; nothing when stderr is not a
 * terminal.  Messages printed through it do not collide with the line.
 */
#ifndef FEROCE_SWEEP_PROGRESS_H
#define FEROCE_SWEEP_PROGRESS_H

#include <stddef.h>

struct sweep_progress {
    int tty;
    size_t total;  /* points in the grid */
    size_t done;   /* done, including before this run */
    size_t failed; /* failed and not to be run again */
    size_t running;
    size_t todo;     /* to run in this session */
    size_t finished; /* finished in this session (done or failed) */
    double start, last_draw;
    int drawn;
};

void progress_init(struct sweep_progress *p, size_t total, size_t done, size_t failed, size_t todo);
/* Redraws when something changed or a second has passed (force: now). */
void progress_draw(struct sweep_progress *p, int force);
/* Erases the line (before other output, and at the end). */
void progress_clear(struct sweep_progress *p);
/* A message on stderr above the progress line. */
void progress_message(struct sweep_progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* FEROCE_SWEEP_PROGRESS_H */
