/*
 * fluid-study.c - one fluid run as a study: the time series and the metrics of
 * the run, its fixed point and its phase margin, written as one row of the
 * results database like the packet model's studies (feroce-db).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "feroce-db.h"
#include "fluid-cmd.h"

static const char *const study_flags[] = { "duration", "window", "warmup", "outdir", "db", "RngRun", NULL };

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int fluid_cmd_study(int argc, char **argv, const char *prog)
{
    struct fluid_args a;
    struct feroce_fluid_margin m;
    struct feroce_check why;
    struct feroce_db_param params[130];
    struct feroce_db_metric metrics[16 + 2 * FEROCE_FLUID_MAX_CLASSES];
    static char names[2 * FEROCE_FLUID_MAX_CLASSES][32];
    double t0 = now_s(), q[3], rc[FEROCE_FLUID_MAX_CLASSES], alpha[FEROCE_FLUID_MAX_CLASSES], jain[2];
    double in = 0, C, warmup;
    char path[4096], tmp[4200], started[32], err[512], *command;
    size_t n_params = 0, n_metrics = 0, len = 0;
    int r, i, have_margin;
    uint32_t c;
    FILE *out;
    sqlite3 *db;
    int64_t id;

    r = fluid_args_parse(&a, argc, argv, 1, study_flags, prog, stderr);
    if (r)
        return r;
    /* --warmup: parsed here (fluid_args keeps duration and window) */
    warmup = a.duration_s / 2;
    for (i = 0; i < a.nflags; i++)
        if (strcmp(a.flag_name[i], "warmup") == 0) {
            int64_t ns;

            if (fluid_parse_time_ns(a.flag_value[i], &ns) != 0 || ns < 0 || ns * 1e-9 >= a.duration_s) {
                fprintf(stderr, "%s: warmup = %s is not allowed: expected a time in [0, duration)\n", prog,
                        a.flag_value[i]);
                return 2;
            }
            warmup = ns * 1e-9;
        }
    if (a.window_s > a.duration_s) {
        fprintf(stderr, "%s: window = %g s is not allowed: expected <= duration = %g s\n", prog, a.window_s,
                a.duration_s);
        return 2;
    }
    if (!a.outdir)
        a.outdir = "results/fluid-study";
    if (mkdir(a.outdir, 0777) != 0) {
        struct stat st;

        if (stat(a.outdir, &st) != 0 || !S_ISDIR(st.st_mode)) {
            fprintf(stderr, "%s: outdir = %s is not allowed: cannot create the directory\n", prog, a.outdir);
            return 2;
        }
    }
    feroce_db_now(started, sizeof started);
    snprintf(path, sizeof path, "%s/series.csv", a.outdir);
    out = fluid_open_atomic(path, tmp, sizeof tmp);
    if (!out) {
        fprintf(stderr, "%s: outdir = %s is not allowed: cannot write %s\n", prog, a.outdir, tmp);
        return 2;
    }
    r = fluid_integrate(&a, out, warmup, q, rc, alpha, jain, prog, stderr);
    if (r) {
        fclose(out);
        remove(tmp);
        return r;
    }
    if (fluid_commit_atomic(out, tmp, path) != 0) {
        fprintf(stderr, "%s: cannot write %s\n", prog, path);
        return 1;
    }
    have_margin = feroce_fluid_margin(&a.p, &m, &why) == FEROCE_OK;
    C = a.p.bottleneck_bps;
    for (c = 0; c < a.p.nclasses; c++)
        in += a.p.cls[c].flows * rc[c];

#define METRIC(n, v)                                                                                         \
    do {                                                                                                     \
        metrics[n_metrics].name = (n);                                                                       \
        metrics[n_metrics++].value = (v);                                                                    \
    } while (0)
    METRIC("goodput_gbps", fmin(in, C) * 1e-9);
    METRIC("jain_min", isinf(jain[0]) ? NAN : jain[0]);
    METRIC("jain_mean", jain[1]);
    METRIC("queue_mean_bytes", q[0]);
    METRIC("queue_min_bytes", q[1]);
    METRIC("queue_max_bytes", q[2]);
    METRIC("p_star", have_margin ? m.fixed.p : NAN);
    METRIC("q_star_bytes", have_margin ? m.fixed.q_pkts * a.p.packet_bytes : NAN);
    METRIC("phase_margin_deg", have_margin ? (isinf(m.phase_margin_deg) ? 180 : m.phase_margin_deg) : NAN);
    METRIC("crossover_hz", have_margin ? m.crossover_hz : NAN);
    METRIC("stable", have_margin ? (m.phase_margin_deg > 0) : NAN);
    for (c = 0; c < a.p.nclasses; c++) {
        snprintf(names[2 * c], sizeof names[0], "rc%u_gbps", c);
        snprintf(names[2 * c + 1], sizeof names[0], "alpha%u", c);
        METRIC(names[2 * c], rc[c] * 1e-9);
        METRIC(names[2 * c + 1], alpha[c]);
    }
#undef METRIC
    for (i = 0; i < a.nflags && n_params < 130; i++) {
        const char *n = a.flag_name[i];

        if (strcmp(n, "outdir") == 0 || strcmp(n, "db") == 0 || strcmp(n, "RngRun") == 0)
            continue;
        params[n_params].name = n;
        params[n_params++].value = a.flag_value[i];
    }
    for (i = 0; i < argc; i++)
        len += strlen(argv[i]) + 1;
    command = calloc(len + 1, 1);
    for (i = 0; i < argc && command; i++) {
        strcat(command, argv[i]);
        if (i + 1 < argc)
            strcat(command, " ");
    }
    printf("%s: queue_mean_bytes=%.6g queue_max_bytes=%.6g goodput_gbps=%.6g jain_min=%.6g p_star=%.6g "
           "phase_margin_deg=%.6g\n",
           prog, q[0], q[2], fmin(in, C) * 1e-9, jain[0], have_margin ? m.fixed.p : NAN,
           have_margin ? m.phase_margin_deg : NAN);
    printf("wrote %s\n", path);
    if (a.db && strcmp(a.db, "none") != 0) {
        struct feroce_db_run run = { "feroce-fluid-study",
                                     feroce_version(),
                                     a.seed,
                                     started,
                                     now_s() - t0,
                                     a.duration_s,
                                     a.outdir,
                                     command ? command : prog,
                                     params,
                                     n_params,
                                     metrics,
                                     n_metrics };

        if (feroce_db_open(a.db, &db, err, sizeof err) != 0 ||
            feroce_db_insert_run(db, &run, &id, err, sizeof err) != 0) {
            fprintf(stderr, "%s: db = %s: %s\n", prog, a.db, err);
            free(command);
            return 1;
        }
        sqlite3_close(db);
        printf("row %lld in %s\n", (long long)id, a.db);
    }
    free(command);
    return 0;
}
