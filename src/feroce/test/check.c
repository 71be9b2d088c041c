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

int check_run(const struct check_test *tests, size_t n, const char *only)
{
    size_t i;
    int ran = 0;

    for (i = 0; i < n; i++) {
        long before = check_failed;

        if (only && strcmp(only, tests[i].name) != 0)
            continue;
        tests[i].run();
        ran++;
        printf("%-40s %s\n", tests[i].name, check_failed == before ? "ok" : "FAILED");
    }
    if (ran == 0) {
        fprintf(stderr, "no test named %s\n", only ? only : "?");
        return 2;
    }
    printf("%ld passed, %ld failed\n", check_passed, check_failed);
    return check_failed ? 1 : 0;
}
