/*
 * feroce-fluid-bench - how fast the fluid model runs (a program, not a test).
 *
 *   feroce-fluid-bench [REPEATS]
 *
 * One line per case, key=value: the CPU seconds of a 100 ms run (the minimum over REPEATS, default
 * 5, alternating the cases), steps per second, and the CPU time per phase-margin point averaged
 * over a 20 x 20 grid of flows x delay.  The packet model's time for the same scenarios comes from
 * examples/fluid-vs-packet.sh, which runs both side by side.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "feroce-fluid.h"

static double cpu_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct bench_case {
    const char *name;
    const char *preset;
    double line;
    uint32_t flows;
    int64_t delay_ns;
    uint64_t kmax_bytes; /* 0: the preset's */
    double pmax;
    int64_t step_ns; /* 0: bs3 (adaptive, the default) */
};

struct bench_out {
    int64_t steps, rejected;
    double q_end, q_mean, q_min, q_max; /* bytes; the queue sampled every 100 us over 50-100 ms */
};

/* A 100 ms run sampled every 100 us (as feroce-fluid run --window=100us, without the output). */
static double run_once(const struct feroce_fluid_params *p, struct bench_out *o)
{
    struct feroce_fluid_sim s;
    struct feroce_fluid_flow f[FEROCE_FLUID_MAX_CLASSES];
    double *ring = calloc(feroce_fluid_ring_len(p), sizeof(double)), t0 = cpu_s(), t1, q, n = 0;
    int j;

    o->q_mean = o->q_max = 0;
    o->q_min = INFINITY;
    feroce_fluid_init(&s, p, ring);
    for (j = 0; j <= 1000; j++) {
        if (feroce_fluid_advance(&s, j * 100e-6, NULL) != FEROCE_OK)
            fprintf(stderr, "feroce-fluid-bench: run diverged\n");
        feroce_fluid_sample(&s, j * 100e-6, &q, f);
        if (j >= 500) {
            q *= p->packet_bytes;
            o->q_mean += q;
            o->q_min = fmin(o->q_min, q);
            o->q_max = fmax(o->q_max, q);
            n++;
        }
    }
    t1 = cpu_s();
    o->q_mean /= n;
    o->steps = s.steps;
    o->rejected = s.rejected;
    o->q_end = s.q * p->packet_bytes;
    free(ring);
    return t1 - t0;
}

int main(int argc, char **argv)
{
    static const struct bench_case cases[] = {
        { "advcam-3to1-10g", "paper", 10e9, 3, 4000, 0, 0, 0 },
        { "advcam-3to1-10g", "paper", 10e9, 3, 4000, 0, 0, 500 },
        { "advcam-3to1-10g", "paper", 10e9, 3, 4000, 0, 0, 4000 },
        { "paper-10flows-40g", "paper", 40e9, 10, 4000, 0, 0, 0 },
        { "paper-10flows-40g", "paper", 40e9, 10, 4000, 0, 0, 500 },
        { "paper-10flows-40g", "paper", 40e9, 10, 4000, 0, 0, 4000 },
        { "paper-10flows-40g-85us", "paper", 40e9, 10, 85000, 0, 0, 0 },
        { "paper-10flows-40g-85us", "paper", 40e9, 10, 85000, 0, 0, 500 },
        { "paper-64flows-40g-85us", "paper", 40e9, 64, 85000, 2000000, 0.1, 0 },
        { "paper-64flows-40g-85us", "paper", 40e9, 64, 85000, 2000000, 0.1, 500 },
        { "hpcc-3to1-10g", "hpcc", 10e9, 3, 4000, 0, 0, 0 },
        { "hpcc-3to1-10g", "hpcc", 10e9, 3, 4000, 0, 0, 500 },
    };
    const size_t nc = sizeof cases / sizeof cases[0];
    double best[16];
    struct bench_out out[16];
    int repeats = argc > 1 ? atoi(argv[1]) : 5, r, i, j, points = 0;
    struct feroce_fluid_params p;
    double t0, t1, worst = 0;
    size_t c;

    if (repeats < 1 || repeats > 1000) {
        fprintf(stderr, "feroce-fluid-bench: repeats = %s is not allowed: expected 1..1000\n", argv[1]);
        return 2;
    }
    for (c = 0; c < nc; c++)
        best[c] = INFINITY;
    for (r = 0; r < repeats; r++)
        for (c = 0; c < nc; c++) {
            double t;

            feroce_fluid_preset(&p, cases[c].preset, cases[c].line, cases[c].flows, NULL);
            p.delay_ns = cases[c].delay_ns;
            if (cases[c].step_ns) {
                p.method = FEROCE_FLUID_RK4;
                p.max_step_ns = cases[c].step_ns;
            }
            if (cases[c].kmax_bytes) {
                p.cp.kmax_bytes = cases[c].kmax_bytes;
                p.cp.pmax = cases[c].pmax;
            }
            t = run_once(&p, &out[c]);
            if (t < best[c])
                best[c] = t;
        }
    for (c = 0; c < nc; c++)
        printf("case=%s method=%s simulated_ms=100 cpu_ms=%.3f steps=%lld rejected=%lld ns_per_step=%.0f "
               "q_mean_bytes=%.0f q_min_bytes=%.0f q_max_bytes=%.0f q_end_bytes=%.0f\n",
               cases[c].name, cases[c].step_ns ? (cases[c].step_ns == 500 ? "rk4-500ns" : "rk4-4us") : "bs3",
               best[c] * 1e3, (long long)out[c].steps, (long long)out[c].rejected,
               best[c] * 1e9 / (double)out[c].steps, out[c].q_mean, out[c].q_min, out[c].q_max, out[c].q_end);
    /* margin per point over flows 2..150 x delay 2..100 us, at 10 Gb/s with the paper preset */
    t0 = cpu_s();
    for (i = 0; i < 20; i++)
        for (j = 0; j < 20; j++) {
            struct feroce_fluid_margin m;
            double pt0 = cpu_s();

            feroce_fluid_preset(&p, "paper", 10e9, (uint32_t)(2 + i * 148 / 19), NULL);
            p.delay_ns = 2000 + j * 98000 / 19;
            p.ramp = FEROCE_FLUID_RAMP_LINEAR;
            if (feroce_fluid_margin(&p, &m, NULL) == FEROCE_OK)
                points++;
            worst = fmax(worst, cpu_s() - pt0);
        }
    t1 = cpu_s();
    printf("case=margin-grid points=%d cpu_ms_per_point=%.3f worst_ms=%.3f\n", points, (t1 - t0) * 1e3 / 400,
           worst * 1e3);
    return 0;
}
