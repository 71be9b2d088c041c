/*
 * test-number.c - the one grammar of numbers (feroce-number.h, input-grammar.md).
 */
#include <math.h>
#include <stdint.h>

#include "check.h"
#include "core-tests.h"
#include "feroce-number.h"

void test_number_whole(void)
{
    uint64_t u = 0;
    int64_t i = 0;
    /* decimal, hexadecimal, an exponent that is whole */
    CHECK(feroce_number_u64("123", UINT64_MAX, &u) == 0 && u == 123);
    CHECK(feroce_number_u64("0x7b", UINT64_MAX, &u) == 0 && u == 123);
    CHECK(feroce_number_u64("0X7B", UINT64_MAX, &u) == 0 && u == 123);
    CHECK(feroce_number_u64("1e9", UINT64_MAX, &u) == 0 && u == 1000000000);
    CHECK(feroce_number_u64("2.5e3", UINT64_MAX, &u) == 0 && u == 2500);
    CHECK(feroce_number_u64("1.0", UINT64_MAX, &u) == 0 && u == 1);
    CHECK(feroce_number_u64("18446744073709551615", UINT64_MAX, &u) == 0 && u == UINT64_MAX);
    CHECK(feroce_number_u64("0xffffffffffffffff", UINT64_MAX, &u) == 0 && u == UINT64_MAX);
    CHECK(feroce_number_u64("-0", UINT64_MAX, &u) == 0 && u == 0);
    /* not whole numbers, or out of range */
    const char *bad[] = { "",     "1.5",  "3x",   "-1",   "+1",   " 1",   "1 ",   "1,000", "0x",  "0xg",
                          "1e-1", "1e",   "e9",   ".",    "0x1p-4", "inf", "nan",  "18446744073709551616",
                          "0x10000000000000000",  "1e20", "1e400", NULL };
    for (int k = 0; bad[k]; k++)
        CHECK(feroce_number_u64(bad[k], UINT64_MAX, &u) != 0);
    CHECK(feroce_number_u64("101", 100, &u) != 0);
    CHECK(feroce_number_i64("-9223372036854775808", INT64_MIN, INT64_MAX, &i) == 0 && i == INT64_MIN);
    CHECK(feroce_number_i64("9223372036854775807", INT64_MIN, INT64_MAX, &i) == 0 && i == INT64_MAX);
    CHECK(feroce_number_i64("9223372036854775808", INT64_MIN, INT64_MAX, &i) != 0);
    CHECK(feroce_number_i64("-0x10", INT64_MIN, INT64_MAX, &i) == 0 && i == -16);
    CHECK(feroce_number_i64("-5", 0, 10, &i) != 0);
}

void test_number_real(void)
{
    double d = 0;
    const char *rest = NULL;
    CHECK(feroce_number_real("2.5", &d, NULL) == 0 && d == 2.5);
    CHECK(feroce_number_real(".5", &d, NULL) == 0 && d == 0.5);
    CHECK(feroce_number_real("5.", &d, NULL) == 0 && d == 5);
    CHECK(feroce_number_real("-1e-3", &d, NULL) == 0 && d == -1e-3);
    CHECK(feroce_number_real("-0", &d, NULL) == 0 && d == 0 && !signbit(d));
    CHECK(feroce_number_real("30ms", &d, &rest) == 0 && d == 30 && rest[0] == 'm');
    CHECK(feroce_number_real("1e3ns", &d, &rest) == 0 && d == 1000 && rest[0] == 'n');
    const char *bad[] = { "", "0x1p-4", "0x10", "inf", "nan", "-inf", "1e400", "+1", " 1", "1 ", "0.5abc", "e3",
                          "-", ".", NULL };
    for (int k = 0; bad[k]; k++)
        CHECK(feroce_number_real(bad[k], &d, NULL) != 0);
    /* a unit after a number is the caller's; a hex float is no number at all */
    CHECK(feroce_number_real("0x1p-20s", &d, &rest) == 0 && d == 0 && rest[0] == 'x');
}
