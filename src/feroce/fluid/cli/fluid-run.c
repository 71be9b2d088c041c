/*
 * fluid-run.c - subcommands run, fixedpoint, margin and boundary of feroce-fluid.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fluid-cmd.h"

static const char *const run_flags[] = { "duration", "window", "out", NULL };
static const char *const no_flags[] = { NULL };
static const char *const boundary_flags[] = { "max-delay", NULL };

FILE *fluid_open_atomic(const char *path, char *tmp, size_t len)
{
    struct stat st;

    snprintf(tmp, len, "%s.tmp", path);
    /* what the rename at the end needs, checked before the run: a name, not a folder's */
    if (!*path || (stat(path, &st) == 0 && S_ISDIR(st.st_mode)))
        return NULL;
    return fopen(tmp, "w");
}

int fluid_commit_atomic(FILE *f, const char *tmp, const char *path)
{
    if (fflush(f) != 0 || ferror(f)) {
        fclose(f);
        remove(tmp);
        return -1;
    }
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        remove(tmp);
        return -1;
    }
    return 0;
}

int fluid_integrate(const struct fluid_args *a, FILE *out, double warmup_s, double *q_stats, double *rc_mean,
                    double *alpha_mean, double *jain, const char *prog, FILE *err)
{
    const struct feroce_fluid_params *p = &a->p;
    struct feroce_fluid_sim sim;
    struct feroce_fluid_flow f[FEROCE_FLUID_MAX_CLASSES];
    struct feroce_check why;
    double *ring = calloc(feroce_fluid_ring_len(p), sizeof(double));
    double pkt_bits = 8.0 * p->packet_bytes, q, t;
    long j, nsamples = (long)floor(a->duration_s / a->window_s + 1e-9), counted = 0;
    uint32_t i;
    char msg[512];

    if (!ring) {
        fprintf(err, "%s: out of memory for the delay line\n", prog);
        return 1;
    }
    feroce_fluid_init(&sim, p, ring);
    if (jain) {
        jain[0] = INFINITY;
        jain[1] = 0;
    }
    if (q_stats) {
        q_stats[0] = 0;
        q_stats[1] = INFINITY;
        q_stats[2] = 0;
    }
    for (i = 0; i < p->nclasses; i++) {
        if (rc_mean)
            rc_mean[i] = 0;
        if (alpha_mean)
            alpha_mean[i] = 0;
    }
    if (out) {
        fprintf(out, "t_s,q_bytes,p");
        for (i = 0; i < p->nclasses; i++)
            fprintf(out, ",rc%u_bps,rt%u_bps,alpha%u", i, i, i);
        fprintf(out, "\n");
    }
    for (j = 0; j <= nsamples; j++) {
        t = j * a->window_s;
        if (feroce_fluid_advance(&sim, t, &why) != FEROCE_OK) {
            feroce_check_message(&why, msg, sizeof msg);
            fprintf(err, "%s: %s\n", prog, msg);
            free(ring);
            return 1;
        }
        feroce_fluid_sample(&sim, t, &q, f);
        if (out) {
            fprintf(out, "%.9g,%.6g,%.6g", t, q * p->packet_bytes, feroce_fluid_mark(p, q));
            for (i = 0; i < p->nclasses; i++) {
                int on = sim.active[i];

                fprintf(out, ",%.6g,%.6g,%.6g", on ? f[i].rc * pkt_bits : 0, on ? f[i].rt * pkt_bits : 0,
                        on ? f[i].alpha : 0);
            }
            fprintf(out, "\n");
        }
        if (t >= warmup_s - 1e-12) {
            double sx = 0, sxx = 0, nf = 0, J;

            counted++;
            for (i = 0; i < p->nclasses; i++)
                if (sim.active[i]) {
                    sx += p->cls[i].flows * f[i].rc;
                    sxx += p->cls[i].flows * f[i].rc * f[i].rc;
                    nf += p->cls[i].flows;
                }
            J = nf > 0 && sxx > 0 ? sx * sx / (nf * sxx) : NAN;
            if (jain && !isnan(J)) {
                jain[0] = fmin(jain[0], J);
                jain[1] += J;
            }
            if (q_stats) {
                q_stats[0] += q * p->packet_bytes;
                q_stats[1] = fmin(q_stats[1], q * p->packet_bytes);
                q_stats[2] = fmax(q_stats[2], q * p->packet_bytes);
            }
            for (i = 0; i < p->nclasses; i++) {
                if (rc_mean)
                    rc_mean[i] += sim.active[i] ? f[i].rc * pkt_bits : 0;
                if (alpha_mean)
                    alpha_mean[i] += f[i].alpha;
            }
        }
    }
    if (counted > 0) {
        if (jain)
            jain[1] /= counted;
        if (q_stats)
            q_stats[0] /= counted;
        for (i = 0; i < p->nclasses; i++) {
            if (rc_mean)
                rc_mean[i] /= counted;
            if (alpha_mean)
                alpha_mean[i] /= counted;
        }
    }
    free(ring);
    return 0;
}

int fluid_cmd_run(int argc, char **argv)
{
    struct fluid_args a;
    char tmp[4096];
    FILE *out = stdout;
    int r = fluid_args_parse(&a, argc, argv, 2, run_flags, "feroce-fluid run", stderr);

    if (r)
        return r;
    if (a.window_s > a.duration_s) {
        fprintf(stderr, "feroce-fluid run: window = %g s is not allowed: expected <= duration = %g s\n",
                a.window_s, a.duration_s);
        return 2;
    }
    if (a.out && !(out = fluid_open_atomic(a.out, tmp, sizeof tmp))) {
        fprintf(stderr, "feroce-fluid run: out = %s is not allowed: expected a file that can be written\n", a.out);
        return 2;
    }
    r = fluid_integrate(&a, out, 0, NULL, NULL, NULL, NULL, "feroce-fluid run", stderr);
    if (a.out) {
        if (r) {
            fclose(out);
            remove(tmp);
            return r;
        }
        if (fluid_commit_atomic(out, tmp, a.out) != 0) {
            fprintf(stderr, "feroce-fluid run: cannot write %s\n", a.out);
            return 1;
        }
    }
    return r;
}

int fluid_cmd_fixedpoint(int argc, char **argv)
{
    struct fluid_args a;
    struct feroce_fluid_fixed fp;
    struct feroce_check why;
    char msg[512];
    double pkt_bits;
    uint32_t i;
    int r = fluid_args_parse(&a, argc, argv, 2, no_flags, "feroce-fluid fixedpoint", stderr);

    if (r)
        return r;
    if (feroce_fluid_fixed_point(&a.p, &fp, &why) != FEROCE_OK) {
        feroce_check_message(&why, msg, sizeof msg);
        fprintf(stderr, "feroce-fluid fixedpoint: %s\n", msg);
        return 1;
    }
    pkt_bits = 8.0 * a.p.packet_bytes;
    printf("p=%.9g\nq_bytes=%.9g\n", fp.p, fp.q_pkts * a.p.packet_bytes);
    for (i = 0; i < a.p.nclasses; i++) {
        char sfx[16] = "";

        if (a.p.nclasses > 1)
            snprintf(sfx, sizeof sfx, "%u", i);
        printf("alpha%s=%.9g\nrc%s_bps=%.9g\nrt%s_bps=%.9g\n", sfx, fp.f[i].alpha, sfx, fp.f[i].rc * pkt_bits,
               sfx, fp.f[i].rt * pkt_bits);
    }
    printf("in_ramp=%d\ncongested=%d\n", fp.in_ramp, fp.congested);
    if (!isnan(fp.p_taylor))
        printf("p_taylor=%.9g\n", fp.p_taylor);
    return 0;
}

int fluid_cmd_margin(int argc, char **argv)
{
    struct fluid_args a;
    struct feroce_fluid_margin m;
    struct feroce_check why;
    char msg[512];
    int r = fluid_args_parse(&a, argc, argv, 2, no_flags, "feroce-fluid margin", stderr);

    if (r)
        return r;
    if (feroce_fluid_margin(&a.p, &m, &why) != FEROCE_OK) {
        feroce_check_message(&why, msg, sizeof msg);
        fprintf(stderr, "feroce-fluid margin: %s\n", msg);
        return 1;
    }
    printf("phase_margin_deg=%.6g crossover_hz=%.6g\n", m.phase_margin_deg, m.crossover_hz);
    return 0;
}

int fluid_cmd_boundary(int argc, char **argv)
{
    struct fluid_args a;
    struct feroce_check why;
    char msg[512];
    int64_t d;
    int r = fluid_args_parse(&a, argc, argv, 2, boundary_flags, "feroce-fluid boundary", stderr);

    if (r)
        return r;
    if (feroce_fluid_boundary(&a.p, a.max_delay_ns, &d, &why) != FEROCE_OK) {
        feroce_check_message(&why, msg, sizeof msg);
        fprintf(stderr, "feroce-fluid boundary: %s\n", msg);
        return 1;
    }
    printf("max_delay_us=%.4f%s\n", d * 1e-3, d == a.max_delay_ns ? " (stable up to --max-delay)" : "");
    return 0;
}
