/*
 * test-results.h - the results layer's test groups, run by test-results.c's main.
 */
#ifndef FEROCE_TEST_RESULTS_H
#define FEROCE_TEST_RESULTS_H

void test_steady(void);

#endif /* FEROCE_TEST_RESULTS_H */
