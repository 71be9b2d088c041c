/*
 * test-results.c - the results layer: statistics against hand-computed values
 * and the database's rows, schema and atomicity.
 *
 *   feroce-results-tests SCRATCH_DIR
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "feroce-db.h"
#include "feroce-stats.h"
#include "test-results.h"

static void test_jain(void)
{
    double equal[] = { 3, 3, 3 };
    double hog[] = { 9, 0, 0 };
    double mixed[] = { 1, 2, 3 }; /* 36 / (3 * 14) */
    double zeros[] = { 0, 0 };
    CHECK_NEAR(feroce_jain(equal, 3), 1.0, 1e-15);
    CHECK_NEAR(feroce_jain(hog, 3), 1.0 / 3, 1e-15);
    CHECK_NEAR(feroce_jain(mixed, 3), 36.0 / 42, 1e-15);
    CHECK(isnan(feroce_jain(zeros, 2)));
    CHECK(isnan(feroce_jain(NULL, 0)));
}

static void test_summary(void)
{
    /* 2 4 4 4 5 5 7 9: mean 5, sample sd sqrt(32/7) */
    double x[] = { 9, 4, 2, 4, 5, 7, 4, 5 };
    struct feroce_summary s;
    feroce_summarize(x, 8, &s);
    CHECK(s.n == 8);
    CHECK_NEAR(s.mean, 5.0, 1e-12);
    CHECK_NEAR(s.sd, sqrt(32.0 / 7), 1e-12);
    /* t(0.975, 7) = 2.364624252 (tables) */
    CHECK_NEAR(s.ci95, 2.364624252 * sqrt(32.0 / 7) / sqrt(8.0), 1e-8);
    CHECK(s.min == 2 && s.max == 9);
    CHECK_NEAR(s.p50, 4.5, 1e-12);         /* between the 4th and 5th of 8 */
    CHECK_NEAR(s.p90, 7 + 0.3 * 2, 1e-12); /* (n-1) 0.9 = 6.3: x[6] + 0.3 (x[7] - x[6]) */
    CHECK(x[0] == 2 && x[7] == 9);         /* sorted in place */

    double one[] = { 4 };
    feroce_summarize(one, 1, &s);
    CHECK(s.mean == 4 && s.sd == 0 && isnan(s.ci95));
    feroce_summarize(NULL, 0, &s);
    CHECK(isnan(s.mean) && s.n == 0);
    /* t(0.975, 1) = 12.7062047 */
    CHECK_NEAR(feroce_ci95(1.0, 2), 12.7062047 / sqrt(2.0), 1e-6);
}

static int count_rows(sqlite3 *db)
{
    sqlite3_stmt *st;
    int n = -1;
    sqlite3_prepare_v2(db, "SELECT count(*) FROM runs", -1, &st, NULL);
    if (sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return n;
}

static void test_db(const char *dir)
{
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/results-test.db", dir);
    unlink(path);
    sqlite3 *db;
    CHECK(feroce_db_open(path, &db, err, sizeof err) == 0);
    if (!db)
        return;
    CHECK(count_rows(db) == 0);

    struct feroce_db_param params[] = { { "boards", "3" },
                                        { "preset", "hpcc" },
                                        { "duration", "0.09" },
                                        { "odd name", "1.5e" },
                                        { "label", "a \"quoted\"\\ value" },
                                        { "neg", "-0.5" } };
    struct feroce_db_metric metrics[] = {
        { "goodput_gbps", 9.25 }, { "jain_min", NAN }, { "drops", 0 }, { "cnps", 33 }, { "extra", 0.1 }
    };
    struct feroce_db_run run = { "advcam-incast",
                                 feroce_version(),
                                 7,
                                 "2026-11-21T10:00:00Z",
                                 1.5,
                                 0.09,
                                 "results/x",
                                 "advcam-incast --boards=3",
                                 params,
                                 6,
                                 metrics,
                                 5,
                                 NULL };
    int64_t id = 0;
    CHECK(feroce_db_insert_run(db, &run, &id, err, sizeof err) == 0);
    CHECK(id == 1);
    CHECK(count_rows(db) == 1);

    sqlite3_stmt *st;
    CHECK(sqlite3_prepare_v2(
              db,
              "SELECT scenario, seed, goodput_gbps, jain_min IS NULL, drops, cnps, "
              "json_extract(params, '$.boards'), json_type(params, '$.boards'), "
              "json_extract(params, '$.preset'), json_type(params, '$.\"odd name\"'), "
              "json_extract(params, '$.neg'), json_extract(metrics, '$.extra'), "
              "json_type(metrics, '$.jain_min'), typeof(drops), json_extract(params, '$.label') FROM runs",
              -1, &st, NULL) == SQLITE_OK);
    CHECK(sqlite3_step(st) == SQLITE_ROW);
    CHECK_STR(sqlite3_column_text(st, 0), "advcam-incast");
    CHECK(sqlite3_column_int64(st, 1) == 7);
    CHECK(sqlite3_column_double(st, 2) == 9.25);
    CHECK(sqlite3_column_int(st, 3) == 1);
    CHECK(sqlite3_column_int(st, 4) == 0);
    CHECK(sqlite3_column_int(st, 5) == 33);
    CHECK(sqlite3_column_int(st, 6) == 3);
    CHECK_STR(sqlite3_column_text(st, 7), "integer");
    CHECK_STR(sqlite3_column_text(st, 8), "hpcc");
    CHECK_STR(sqlite3_column_text(st, 9), "text"); /* "1.5e" is not a number */
    CHECK(sqlite3_column_double(st, 10) == -0.5);
    CHECK(sqlite3_column_double(st, 11) == 0.1);
    CHECK_STR(sqlite3_column_text(st, 12), "null");
    CHECK_STR(sqlite3_column_text(st, 13), "integer");
    CHECK_STR(sqlite3_column_text(st, 14), "a \"quoted\"\\ value");
    sqlite3_finalize(st);

    /* a failing insert (NOT NULL scenario) leaves nothing and says why */
    run.scenario = NULL;
    err[0] = '\0';
    CHECK(feroce_db_insert_run(db, &run, NULL, err, sizeof err) != 0);
    CHECK(strstr(err, "inserting the run") != NULL);
    CHECK(count_rows(db) == 1);
    sqlite3_close(db);

    /* reopening keeps the row and the schema version */
    CHECK(feroce_db_open(path, &db, err, sizeof err) == 0);
    CHECK(count_rows(db) == 1);
    sqlite3_exec(db, "PRAGMA user_version = 99", NULL, NULL, NULL);
    sqlite3_close(db);
    CHECK(feroce_db_open(path, &db, err, sizeof err) != 0);
    CHECK(strstr(err, "newer") != NULL);

    /* a directory that does not exist is named */
    CHECK(feroce_db_open("/nonexistent-dir/x.db", &db, err, sizeof err) != 0);
    CHECK(strstr(err, "/nonexistent-dir/x.db") != NULL);
    unlink(path);
}

/* feroce_db_params_json and feroce_db_copy_run (what feroce-sweep builds on) */
static void test_copy(const char *dir)
{
    struct feroce_db_param p[] = { { "kmin", "5000" }, { "preset", "paper" }, { "g", "0.0625" } };
    char *json = feroce_db_params_json(p, 3);
    CHECK_STR(json, "{\"kmin\":5000,\"preset\":\"paper\",\"g\":0.0625}");
    sqlite3_free(json);
    json = feroce_db_params_json(NULL, 0);
    CHECK_STR(json, "{}");
    sqlite3_free(json);

    char a_path[512], b_path[512], err[256];
    snprintf(a_path, sizeof a_path, "%s/copy-a.db", dir);
    snprintf(b_path, sizeof b_path, "%s/copy-b.db", dir);
    unlink(a_path);
    unlink(b_path);
    sqlite3 *a, *b;
    CHECK(feroce_db_open(a_path, &a, err, sizeof err) == 0);
    CHECK(feroce_db_open(b_path, &b, err, sizeof err) == 0);
    if (!a || !b)
        return;
    struct feroce_db_metric m[] = { { "goodput_gbps", 9.5 },
                                    { "jain_min", NAN },
                                    { "queue_max_bytes", 12345 } };
    struct feroce_db_run run = {
        "advcam-incast", "v1", 3, "2026-11-21T10:00:00Z", 2.5, 0.01, "out", "cmd", p, 3, m, 3, NULL
    };
    int64_t first, id;
    CHECK(feroce_db_insert_run(b, &run, &first, err, sizeof err) == 0); /* b's ids start ahead of a's */
    CHECK(feroce_db_insert_run(b, &run, &first, err, sizeof err) == 0);
    CHECK(feroce_db_insert_run(a, &run, &id, err, sizeof err) == 0);
    CHECK(id == 1);
    int64_t copied = 0;
    CHECK(feroce_db_copy_run(a, id, b, &copied, err, sizeof err) == 0);
    CHECK(copied == 3);
    CHECK(count_rows(b) == 3);
    sqlite3_stmt *st;
    /* every column but the id is equal */
    CHECK(sqlite3_prepare_v2(
              b,
              "SELECT scenario, version, seed, started_at, wall_s, sim_s, outdir, command, params, "
              "metrics, goodput_gbps, jain_min IS NULL FROM runs WHERE id = 3",
              -1, &st, NULL) == SQLITE_OK);
    CHECK(sqlite3_step(st) == SQLITE_ROW);
    CHECK_STR(sqlite3_column_text(st, 0), "advcam-incast");
    CHECK_STR(sqlite3_column_text(st, 1), "v1");
    CHECK(sqlite3_column_int(st, 2) == 3);
    CHECK_STR(sqlite3_column_text(st, 3), "2026-11-21T10:00:00Z");
    CHECK(sqlite3_column_double(st, 4) == 2.5);
    CHECK(sqlite3_column_double(st, 5) == 0.01);
    CHECK_STR(sqlite3_column_text(st, 6), "out");
    CHECK_STR(sqlite3_column_text(st, 7), "cmd");
    CHECK_STR(sqlite3_column_text(st, 8), "{\"kmin\":5000,\"preset\":\"paper\",\"g\":0.0625}");
    CHECK_STR(sqlite3_column_text(st, 9),
              "{\"goodput_gbps\":9.5,\"jain_min\":null,\"queue_max_bytes\":12345}");
    CHECK(sqlite3_column_double(st, 10) == 9.5);
    CHECK(sqlite3_column_int(st, 11) == 1);
    sqlite3_finalize(st);
    /* a missing run is named */
    CHECK(feroce_db_copy_run(a, 42, b, NULL, err, sizeof err) != 0);
    CHECK(strstr(err, "no run with id 42") != NULL);
    CHECK(count_rows(b) == 3);
    /* inside the caller's transaction: rolled back, nothing stays */
    CHECK(sqlite3_exec(b, "BEGIN", NULL, NULL, NULL) == SQLITE_OK);
    CHECK(feroce_db_copy_run(a, id, b, NULL, err, sizeof err) == 0);
    CHECK(count_rows(b) == 4);
    CHECK(sqlite3_exec(b, "ROLLBACK", NULL, NULL, NULL) == SQLITE_OK);
    CHECK(count_rows(b) == 3);
    sqlite3_close(a);
    sqlite3_close(b);
    unlink(a_path);
    unlink(b_path);
}

int main(int argc, char **argv)
{
    test_jain();
    test_summary();
    test_steady();
    test_db(argc > 1 ? argv[1] : ".");
    test_copy(argc > 1 ? argv[1] : ".");
    printf("%ld passed, %ld failed\n", check_passed, check_failed);
    return check_failed ? 1 : 0;
}
