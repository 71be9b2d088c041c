/*
 * sweep-progress.c - progress on a terminal (sweep-progress.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "sweep-progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "sweep-util.h"

void progress_init(struct sweep_progress *p, size_t total, size_t done, size_t failed, size_t todo)
{
    p->tty = isatty(2);
    p->total = total;
    p->done = done;
    p->failed = failed;
    p->todo = todo;
    p->running = 0;
    p->finished = 0;
    p->start = now_s();
    p->last_draw = 0;
    p->drawn = 0;
}

void progress_draw(struct sweep_progress *p, int force)
{
    if (!p->tty)
        return;
    double now = now_s();
    if (!force && now - p->last_draw < 1.0)
        return;
    p->last_draw = now;
    char elapsed[32], eta[32] = "?";
    double t = now - p->start;
    format_duration(t, elapsed, sizeof elapsed);
    if (p->finished > 0 && p->todo >= p->finished)
        format_duration(t / (double)p->finished * (double)(p->todo - p->finished), eta, sizeof eta);
    fprintf(stderr, "\r\033[Kferoce-sweep: %zu/%zu done, %zu failed, %zu running, elapsed %s, ETA %s",
            p->done, p->total, p->failed, p->running, elapsed, eta);
    fflush(stderr);
    p->drawn = 1;
}

void progress_clear(struct sweep_progress *p)
{
    if (p->tty && p->drawn) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        p->drawn = 0;
    }
}

void progress_message(struct sweep_progress *p, const char *fmt, ...)
{
    progress_clear(p);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    progress_draw(p, 1);
}
