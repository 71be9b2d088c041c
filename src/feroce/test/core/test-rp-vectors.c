/*
 * test-rp-vectors.c - the known-answer traces (test data rp-*.txt, copied
 * from the project's shared vectors) through the core's API.
 *
 * Each file is an event script whose expected CSV follows as "#> " lines; the
 * rows are formatted as feroce-rp-trace prints them (rates to 6 decimals,
 * alpha to 9) and compared as text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core-tests.h"
#include "feroce-rp.h"

static void run_vector(const char *name)
{
    char path[1024], line[256], row[256];
    char expected[64][260];
    struct feroce_rp_params p;
    struct feroce_rp_state s;
    char preset[32] = "paper", pname[64][64], pvalue[64][64];
    int nexp = 0, nparam = 0, nrows = 0, started = 0, i;
    double line_rate = 10e9;
    FILE *f;

    snprintf(path, sizeof path, "%s/%s", test_data_dir, name);
    f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f)
        return;
    /* expected rows first */
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "#> ", 3) == 0 && nexp < 64) {
            line[strcspn(line, "\n")] = '\0';
            snprintf(expected[nexp++], sizeof expected[0], "%s", line + 3);
        }
    CHECK(nexp > 1);
    rewind(f);
    while (fgets(line, sizeof line, f)) {
        char a[64], b[64], c[64];
        int n;

        if (line[0] == '#')
            continue;
        n = sscanf(line, "%63s %63s %63s", a, b, c);
        if (n <= 0)
            continue;
        if (strcmp(a, "preset") == 0) {
            snprintf(preset, sizeof preset, "%.31s", b);
            continue;
        }
        if (strcmp(a, "param") == 0) {
            if (strcmp(b, "line_rate_bps") == 0)
                line_rate = atof(c);
            snprintf(pname[nparam], sizeof pname[0], "%s", b);
            snprintf(pvalue[nparam++], sizeof pvalue[0], "%s", c);
            continue;
        }
        if (!started) {
            CHECK_EQ(feroce_rp_preset(&p, preset, line_rate, NULL), FEROCE_OK);
            for (i = 0; i < nparam; i++)
                CHECK_EQ(feroce_rp_set_param(&p, pname[i], pvalue[i], NULL), FEROCE_OK);
            CHECK_EQ(feroce_rp_validate(&p, NULL), FEROCE_OK);
            feroce_rp_init(&s, &p, 0);
            started = 1;
        }
        if (strcmp(b, "cnp") == 0)
            feroce_rp_cnp(&s, &p, atoll(a));
        else if (strcmp(b, "tx") == 0)
            feroce_rp_tx(&s, &p, atoll(a), strtoull(c, NULL, 10));
        else
            feroce_rp_advance(&s, &p, atoll(a));
        snprintf(row, sizeof row, "%s,%s,%.6f,%.6f,%.9f,%llu,%llu", a, b, s.cur.rc, s.cur.rt, s.cur.alpha,
                 (unsigned long long)s.cur.ts, (unsigned long long)s.cur.bs);
        nrows++;
        CHECK(nrows < nexp);
        if (nrows < nexp && strcmp(row, expected[nrows]) != 0) {
            fprintf(stderr, "%s row %d:\n  got      %s\n  expected %s\n", name, nrows, row, expected[nrows]);
            CHECK(0);
        }
    }
    fclose(f);
    CHECK_EQ(nrows, nexp - 1); /* every expected row produced (the first is the header) */
}

void test_rp_vectors(void)
{
    run_vector("rp-paper.txt");
    run_vector("rp-connectx.txt");
    run_vector("rp-hpcc.txt");
}
