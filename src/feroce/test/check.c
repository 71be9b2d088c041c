/*
 * check.c - the counters and the failure report of check.h.
 */
#include "check.h"

#include <stdarg.h>

long check_passed;
long check_failed;

void check_report(const char *file, int line, const char *fmt, ...)
{
    va_list ap;

    check_failed++;
    fprintf(stderr, "%s:%d: check failed: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}
