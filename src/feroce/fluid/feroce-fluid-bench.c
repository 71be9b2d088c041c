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
    int64_t step_ns;
};

static double run_once(const struct feroce_fluid_params *p, int64_t *steps, double *q_end)
{
    struct feroce_fluid_sim s;
    double *ring = calloc(feroce_fluid_ring_len(p), sizeof(double)), t0 = cpu_s(), t1;

    feroce_fluid_init(&s, p, ring);
    if (feroce_fluid_advance(&s, 0.1, NULL) != FEROCE_OK)
        fprintf(stderr, "feroce-fluid-bench: run diverged\n");
    t1 = cpu_s();
    *steps = s.steps;
    *q_end = s.q * p->packet_bytes;
    free(ring);
    return t1 - t0;
}

int main(int argc, char **argv)
{
    static const struct bench_case cases[] = {
        { "advcam-3to1-10g", "paper", 10e9, 3, 4000, 0, 0, 500 },
        { "advcam-3to1-10g", "paper", 10e9, 3, 4000, 0, 0, 4000 },
        { "paper-10flows-40g", "paper", 40e9, 10, 4000, 0, 0, 500 },
        { "paper-10flows-40g", "paper", 40e9, 10, 4000, 0, 0, 4000 },
        { "paper-64flows-40g-85us", "paper", 40e9, 64, 85000, 2000000, 0.1, 500 },
        { "paper-64flows-40g-85us", "paper", 40e9, 64, 85000, 2000000, 0.1, 4000 },
        { "hpcc-3to1-10g", "hpcc", 10e9, 3, 4000, 0, 0, 500 },
    };
    const size_t nc = sizeof cases / sizeof cases[0];
    double best[16], q_end[16], step_s[16];
    int64_t steps[16];
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
            p.max_step_ns = cases[c].step_ns;
            if (cases[c].kmax_bytes) {
                p.cp.kmax_bytes = cases[c].kmax_bytes;
                p.cp.pmax = cases[c].pmax;
            }
            step_s[c] = feroce_fluid_step_s(&p);
            t = run_once(&p, &steps[c], &q_end[c]);
            if (t < best[c])
                best[c] = t;
        }
    for (c = 0; c < nc; c++)
        printf("case=%s simulated_ms=100 step_ns=%.0f cpu_ms=%.2f steps_per_s=%.3g q_end_bytes=%.0f\n",
               cases[c].name, step_s[c] * 1e9, best[c] * 1e3, steps[c] / best[c], q_end[c]);
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
