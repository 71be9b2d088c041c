/*
 * fluid-map.c - feroce-fluid map: the phase margin over a grid of two
 * parameters, as CSV (gnuplot's grid layout: a blank line after each x) and a
 * gnuplot heatmap with the zero-margin contour.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "feroce-number.h"
#include "fluid-cmd.h"

static const char *const map_flags[] = { "x", "y", "out", NULL };

/* the flag's kind of value (fluid-args.h) */
enum axis_kind {
    AX_TIME = FLUID_TIME,
    AX_RATE = FLUID_RATE,
    AX_BYTES = FLUID_BYTES,
    AX_COUNT = FLUID_COUNT,
    AX_REAL = FLUID_REAL
};

struct axis {
    char name[64];
    enum axis_kind kind;
    double from, to; /* canonical units: ns, b/s, bytes, plain */
    int count, log;
    const char *unit; /* of the CSV and the picture */
    double scale;     /* canonical -> displayed */
};

static int parse_end(enum axis_kind k, const char *text, double *v)
{
    int64_t ns;
    uint64_t b;

    switch (k) {
    case AX_TIME:
        if (fluid_parse_time_ns(text, &ns) != 0)
            return -1;
        *v = (double)ns;
        return 0;
    case AX_RATE:
        return fluid_parse_rate_bps(text, 1e6, v);
    case AX_BYTES:
        if (fluid_parse_bytes(text, &b) != 0)
            return -1;
        *v = (double)b;
        return 0;
    default:
        return feroce_number_real(text, v, NULL);
    }
}

/* NAME:FROM:TO:COUNT[:log] */
static int parse_axis(const char *flag, const char *spec, struct axis *ax)
{
    char buf[256], *f[6], *save = NULL, *tok;
    int n = 0;

    if (!spec || strlen(spec) >= sizeof buf)
        return -1;
    strcpy(buf, spec);
    for (tok = strtok_r(buf, ":", &save); tok && n < 6; tok = strtok_r(NULL, ":", &save))
        f[n++] = tok;
    if (n < 4 || n > 5 || (n == 5 && strcmp(f[4], "log") != 0 && strcmp(f[4], "lin") != 0))
        return -1;
    (void)flag;
    snprintf(ax->name, sizeof ax->name, "%s", f[0]);
    ax->kind = (enum axis_kind)fluid_args_unit(f[0]);
    ax->log = n == 5 && strcmp(f[4], "log") == 0;
    ax->count = atoi(f[3]);
    if (ax->count < 2 || ax->count > 1000 || parse_end(ax->kind, f[1], &ax->from) != 0 ||
        parse_end(ax->kind, f[2], &ax->to) != 0 || (ax->log && !(ax->from > 0 && ax->to > 0)))
        return -1;
    ax->unit = ax->kind == AX_TIME ? "us" : ax->kind == AX_RATE ? "Mbps" : ax->kind == AX_BYTES ? "KB" : "";
    ax->scale = ax->kind == AX_TIME ? 1e-3 : ax->kind == AX_RATE ? 1e-6 : ax->kind == AX_BYTES ? 1e-3 : 1;
    return 0;
}

static double axis_value(const struct axis *ax, int i)
{
    double u = (double)i / (ax->count - 1), v;

    v = ax->log ? exp(log(ax->from) + u * (log(ax->to) - log(ax->from))) : ax->from + u * (ax->to - ax->from);
    if (ax->kind != AX_REAL && ax->kind != AX_RATE)
        v = nearbyint(v);
    return v;
}

static void axis_text(const struct axis *ax, double v, char *buf, size_t len)
{
    switch (ax->kind) {
    case AX_TIME:
        snprintf(buf, len, "%.0fns", v);
        break;
    case AX_RATE:
        snprintf(buf, len, "%.10gbps", v);
        break;
    default:
        snprintf(buf, len, "%.10g", v);
    }
}

int fluid_cmd_map(int argc, char **argv)
{
    const char *prog = "feroce-fluid map";
    struct fluid_args a;
    struct axis ax[2];
    char tmp[4200], path[4096], msg[512], vx[64], vy[64], cmd[8400];
    const char *prefix;
    FILE *out, *gp;
    int r = fluid_args_parse(&a, argc, argv, 2, map_flags, prog, stderr), i, j, bad = 0;

    if (r)
        return r;
    if (parse_axis("x", a.x, &ax[0]) != 0 || parse_axis("y", a.y, &ax[1]) != 0) {
        const char *which = parse_axis("x", a.x, &ax[0]) != 0 ? "x" : "y";
        const char *v = which[0] == 'x' ? a.x : a.y;

        fprintf(stderr,
                "%s: %s = %s is not allowed: expected NAME:FROM:TO:COUNT[:log] with a model flag's NAME, "
                "COUNT in [2, 1000] and ends > 0 for log, e.g. kmax:20KB:2MB:30:log\n",
                prog, which, v ? v : "(missing)");
        return 2;
    }
    /* both ends must be valid settings: check them before the grid runs */
    for (i = 0; i < 2; i++)
        for (j = 0; j < 2; j++) {
            struct feroce_fluid_params p = a.p;
            struct feroce_check why;

            axis_text(&ax[i], j ? ax[i].to : ax[i].from, vx, sizeof vx);
            if (fluid_args_apply(&p, ax[i].name, vx, msg, sizeof msg) != 0 ||
                (feroce_fluid_validate(&p, &why) != FEROCE_OK &&
                 feroce_check_message(&why, msg, sizeof msg))) {
                fprintf(stderr, "%s: %s: %s\n", prog, i ? "y" : "x", msg);
                return 2;
            }
        }
    prefix = a.out ? a.out : "fluid-map";
    snprintf(path, sizeof path, "%s.csv", prefix);
    out = *prefix ? fluid_open_atomic(path, tmp, sizeof tmp) : NULL;
    if (!out) {
        fprintf(stderr, "%s: out = %s is not allowed: expected a file prefix that can be written\n", prog, prefix);
        return 2;
    }
    fprintf(out, "%s%s%s,%s%s%s,phase_margin_deg,crossover_hz,p,q_bytes\n", ax[0].name,
            *ax[0].unit ? "_" : "", ax[0].unit, ax[1].name, *ax[1].unit ? "_" : "", ax[1].unit);
    for (i = 0; i < ax[0].count; i++) {
        for (j = 0; j < ax[1].count; j++) {
            struct feroce_fluid_params p = a.p;
            struct feroce_fluid_margin m;
            struct feroce_check why;
            double x = axis_value(&ax[0], i), y = axis_value(&ax[1], j);

            axis_text(&ax[0], x, vx, sizeof vx);
            axis_text(&ax[1], y, vy, sizeof vy);
            if (fluid_args_apply(&p, ax[0].name, vx, msg, sizeof msg) != 0 ||
                fluid_args_apply(&p, ax[1].name, vy, msg, sizeof msg) != 0 ||
                feroce_fluid_margin(&p, &m, &why) != FEROCE_OK) {
                m.phase_margin_deg = NAN;
                m.crossover_hz = NAN;
                m.fixed.p = NAN;
                m.fixed.q_pkts = NAN;
                bad++;
            }
            fprintf(out, "%.10g,%.10g,%.6g,%.6g,%.6g,%.6g\n", x * ax[0].scale, y * ax[1].scale,
                    isinf(m.phase_margin_deg) ? 180.0 : m.phase_margin_deg, m.crossover_hz, m.fixed.p,
                    m.fixed.q_pkts * p.packet_bytes);
        }
        fprintf(out, "\n");
    }
    if (fluid_commit_atomic(out, tmp, path) != 0) {
        fprintf(stderr, "%s: cannot write %s\n", prog, path);
        return 1;
    }
    snprintf(path, sizeof path, "%s.gp", prefix);
    gp = fluid_open_atomic(path, tmp, sizeof tmp);
    if (!gp) {
        fprintf(stderr, "%s: cannot write %s\n", prog, tmp);
        return 1;
    }
    fprintf(gp,
            "# feroce-fluid map: heatmap of the phase margin with its zero contour\n"
            "# gnuplot -e \"in='%s.csv'\" -e \"out='%s.png'\" %s.gp\n"
            "if (!exists('in')) in = '%s.csv'\n"
            "if (!exists('out')) out = '%s.png'\n"
            "set datafile separator ','\n"
            "set datafile missing 'nan'\n"
            "set contour base\nset cntrparam levels discrete 0\nunset clabel\n"
            "set for [i=1:8] linetype i lc rgb 'black' lw 3\n"
            "set autoscale xfix\nset autoscale yfix\n"
            "set terminal pngcairo size 900,700\nset output out\n"
            "set view map\nset pm3d at b corners2color c1\nset palette defined (-90 'red', 0 'white', 90 "
            "'blue')\n"
            "set cbrange [-90:90]\nset cblabel 'phase margin (deg)'\n"
            "%s%s"
            "set xlabel '%s%s%s%s'\nset ylabel '%s%s%s%s'\n"
            "set title 'DCQCN fluid model: phase margin (black line: 0; red: negative, unstable)'\n"
            "unset key\n"
            "splot in skip 1 using 1:2:3 with pm3d nocontour, in skip 1 using 1:2:3 with lines nosurface\n",
            prefix, prefix, prefix, prefix, prefix, ax[0].log ? "set logscale x\n" : "",
            ax[1].log ? "set logscale y\n" : "", ax[0].name, *ax[0].unit ? " (" : "", ax[0].unit,
            *ax[0].unit ? ")" : "", ax[1].name, *ax[1].unit ? " (" : "", ax[1].unit, *ax[1].unit ? ")" : "");
    if (fluid_commit_atomic(gp, tmp, path) != 0) {
        fprintf(stderr, "%s: cannot write %s\n", prog, path);
        return 1;
    }
    snprintf(cmd, sizeof cmd, "gnuplot -e \"in='%s.csv'\" -e \"out='%s.png'\" '%s.gp' 2>&1", prefix, prefix,
             prefix);
    if (system(cmd) != 0)
        fprintf(stderr, "%s: gnuplot failed or is missing: %s.png not drawn (CSV and script written)\n", prog,
                prefix);
    printf("wrote %s.csv %s.gp %s.png (%d points, %d without a margin)\n", prefix, prefix, prefix,
           ax[0].count * ax[1].count, bad);
    return 0;
}
