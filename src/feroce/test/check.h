/*
 * check.h - the few assertions the C unit tests need (the core's, the results layer's).
 *
 * Each test is a function; CHECK* count and report failures with file:line
 * and go on (check.c); a test's main() ends with the line "N passed, N failed"
 * (checks, not functions) from check_passed and check_failed.
 */
#ifndef FEROCE_TEST_CHECK_H
#define FEROCE_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

extern long check_passed;
extern long check_failed;

void check_report(const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#define CHECK(cond)                                                                                          \
    do {                                                                                                     \
        if (cond)                                                                                            \
            check_passed++;                                                                                  \
        else                                                                                                 \
            check_report(__FILE__, __LINE__, "%s", #cond);                                                   \
    } while (0)

/* exact comparison of numbers (doubles included): the core is deterministic */
#define CHECK_EQ(a, b)                                                                                       \
    do {                                                                                                     \
        double check_a_ = (double)(a), check_b_ = (double)(b);                                               \
        if (check_a_ == check_b_)                                                                            \
            check_passed++;                                                                                  \
        else                                                                                                 \
            check_report(__FILE__, __LINE__, "%s == %s (%.17g vs %.17g)", #a, #b, check_a_, check_b_);       \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                                                \
    do {                                                                                                     \
        double check_a_ = (double)(a), check_b_ = (double)(b);                                               \
        if (check_a_ - check_b_ <= (tol) && check_b_ - check_a_ <= (tol))                                    \
            check_passed++;                                                                                  \
        else                                                                                                 \
            check_report(__FILE__, __LINE__, "%s ~ %s (%.17g vs %.17g)", #a, #b, check_a_, check_b_);        \
    } while (0)

/* a string (NULL fails) equal to an expected one */
#define CHECK_STR(a, b) CHECK((a) != NULL && strcmp((const char *)(a), (b)) == 0)

#define CHECK_STR_CONTAINS(hay, needle)                                                                      \
    do {                                                                                                     \
        if (strstr((hay), (needle)))                                                                         \
            check_passed++;                                                                                  \
        else                                                                                                 \
            check_report(__FILE__, __LINE__, "\"%s\" contains \"%s\"", (hay), (needle));                     \
    } while (0)

/* A test program's table of tests and its runner: check_run runs every test, or only the one
 * named `only` (NULL: all), prints a line a test and then "N passed, N failed", and returns the
 * exit status (0 all passed, 1 a check failed, 2 no test of that name). */
struct check_test {
    const char *name;
    void (*run)(void);
};
#define CHECK_TEST(fn) {#fn, fn}
int check_run(const struct check_test *tests, size_t n, const char *only);

#endif /* FEROCE_TEST_CHECK_H */
