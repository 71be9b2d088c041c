/*
 * fluid-args.c - feroce-fluid's flags: the packet model's names (advcam-incast:
 * --preset --g --rai --timer --kmin --kmax --pmax ...) and presets (the core's),
 * values with units, every error one line naming the flag, its value and what
 * is allowed.
 */
#include "fluid-args.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "feroce-np.h"

/* ---- values with units ------------------------------------------------- */

static int number_prefix(const char *text, double *v, const char **rest)
{
    char *end;

    errno = 0;
    *v = strtod(text, &end);
    if (end == text || errno == ERANGE || !isfinite(*v))
        return -1;
    *rest = end;
    return 0;
}

int fluid_parse_time_ns(const char *text, int64_t *ns)
{
    static const struct {
        const char *unit;
        double ns;
    } units[] = { { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 } };
    const char *rest;
    double v;
    size_t i;

    if (number_prefix(text, &v, &rest) != 0)
        return -1;
    for (i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(rest, units[i].unit) == 0) {
            double x = v * units[i].ns;

            if (fabs(x) > 9e18 || fabs(x - nearbyint(x)) > 1e-6 * fmax(1, fabs(x)))
                return -1;
            *ns = (int64_t)llround(x);
            return 0;
        }
    return -1;
}

int fluid_parse_rate_bps(const char *text, double default_unit, double *bps)
{
    static const struct {
        const char *unit;
        double bps;
    } units[] = { { "bps", 1 },    { "b/s", 1 },    { "Kbps", 1e3 }, { "Kb/s", 1e3 }, { "kbps", 1e3 },
                  { "Mbps", 1e6 }, { "Mb/s", 1e6 }, { "Gbps", 1e9 }, { "Gb/s", 1e9 } };
    const char *rest;
    double v;
    size_t i;

    if (number_prefix(text, &v, &rest) != 0)
        return -1;
    if (*rest == '\0' && default_unit > 0) {
        *bps = v * default_unit;
        return 0;
    }
    for (i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(rest, units[i].unit) == 0) {
            *bps = v * units[i].bps;
            return 0;
        }
    return -1;
}

int fluid_parse_bytes(const char *text, uint64_t *bytes)
{
    static const struct {
        const char *unit;
        double bytes;
    } units[] = { { "", 1 }, { "B", 1 }, { "KB", 1e3 }, { "MB", 1e6 }, { "KiB", 1024 }, { "MiB", 1048576 } };
    const char *rest;
    double v;
    size_t i;

    if (number_prefix(text, &v, &rest) != 0)
        return -1;
    for (i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(rest, units[i].unit) == 0) {
            double x = v * units[i].bytes;

            if (x < 0 || x > 1e18 || x != floor(x))
                return -1;
            *bytes = (uint64_t)x;
            return 0;
        }
    return -1;
}

static int parse_real(const char *text, double *v)
{
    const char *rest;

    return number_prefix(text, v, &rest) != 0 || *rest != '\0' ? -1 : 0;
}

/* ---- model flags ---------------------------------------------------------- */

enum scope { GLOBAL, CLASS };

static int bad(char *msg, size_t len, const char *name, const char *value, const char *expected)
{
    snprintf(msg, len, "%.60s = %.180s is not allowed: expected %.250s", name, value, expected);
    return 2;
}

/* Which of two keywords v is: 0 the first, 1 the second, -1 neither. */
static int choose(const char *v, const char *first, const char *second)
{
    return strcmp(v, first) == 0 ? 0 : strcmp(v, second) == 0 ? 1 : -1;
}

/* A DCQCN flag on one class. */
static int apply_class(struct feroce_fluid_class *c, const char *name, const char *v, char *msg, size_t len)
{
    struct feroce_rp_params *rp = &c->rp;
    struct feroce_check why;
    int64_t ns;
    uint64_t bytes;
    double x;

    if (strcmp(name, "g") == 0) {
        if (parse_real(v, &rp->g) != 0)
            return bad(msg, len, name, v, "a number in (0, 1]");
    } else if (strcmp(name, "initial-alpha") == 0) {
        if (parse_real(v, &rp->initial_alpha) != 0)
            return bad(msg, len, name, v, "a number in [0, 1]");
    } else if (strcmp(name, "rai") == 0 || strcmp(name, "rhai") == 0 || strcmp(name, "min-rate") == 0 ||
               strcmp(name, "first-cnp-rate") == 0) {
        if (fluid_parse_rate_bps(v, 1e6, &x) != 0)
            return bad(msg, len, name, v, "a rate: Mb/s, or a number with bps, Kbps, Mbps or Gbps");
        *(strcmp(name, "rai") == 0    ? &rp->rai_bps
          : strcmp(name, "rhai") == 0 ? &rp->rhai_bps
          : name[0] == 'm'            ? &rp->min_rate_bps
                                      : &rp->first_cnp_rate_bps) = x;
    } else if (strcmp(name, "line-rate") == 0) {
        if (fluid_parse_rate_bps(v, 0, &x) != 0)
            return bad(msg, len, name, v, "a rate with its unit, e.g. 10Gbps");
        rp->line_rate_bps = x;
    } else if (strcmp(name, "timer") == 0 || strcmp(name, "alpha-period") == 0 ||
               strcmp(name, "decrease-period") == 0 || strcmp(name, "cnp-interval") == 0) {
        if (fluid_parse_time_ns(v, &ns) != 0)
            return bad(msg, len, name, v, "a whole number of ns with its unit, e.g. 55us");
        *(strcmp(name, "timer") == 0          ? &rp->increase_timer_ns
          : strcmp(name, "alpha-period") == 0 ? &rp->alpha_period_ns
          : name[0] == 'd'                    ? &rp->decrease_period_ns
                                              : &c->np_interval_ns) = ns;
    } else if (strcmp(name, "byte-counter") == 0) {
        if (fluid_parse_bytes(v, &bytes) != 0)
            return bad(msg, len, name, v, "bytes (0 disables the byte counter), e.g. 10MB");
        rp->byte_counter_bytes = bytes;
    } else if (strcmp(name, "F") == 0) {
        if (feroce_rp_set_param(rp, "F", v, &why) != FEROCE_OK)
            return bad(msg, len, name, v, "a non-negative integer");
    } else if (strcmp(name, "alpha-mode") == 0 || strcmp(name, "hai-mode") == 0 ||
               strcmp(name, "clamp") == 0) {
        const char *core = name[0] == 'a' ? "alpha_mode" : name[0] == 'h' ? "hai_mode" : "clamp";

        if (feroce_rp_set_param(rp, core, v, &why) != FEROCE_OK)
            return bad(msg, len, name, v, why.allowed);
    } else if (strcmp(name, "param") == 0) {
        /* --param=NAME=VALUE with the core's names (spec/dcqcn.md) */
        char key[64];
        const char *eq = strchr(v, '=');

        if (!eq || (size_t)(eq - v) >= sizeof key)
            return bad(msg, len, name, v,
                       "NAME=VALUE with a reaction-point parameter name, e.g. rai_bps=40e6");
        memcpy(key, v, (size_t)(eq - v));
        key[eq - v] = '\0';
        if (feroce_rp_set_param(rp, key, eq + 1, &why) != FEROCE_OK) {
            feroce_check_message(&why, msg, len);
            return 2;
        }
    } else {
        return -1; /* not a class flag */
    }
    return 0;
}

int fluid_args_apply(struct feroce_fluid_params *p, const char *name, const char *v, char *msg, size_t len)
{
    int64_t ns;
    uint64_t bytes;
    double x;
    uint32_t i;
    int r;

    if (strcmp(name, "line-rate") == 0) {
        if (fluid_parse_rate_bps(v, 0, &x) != 0)
            return bad(msg, len, name, v, "a rate with its unit, e.g. 10Gbps");
        p->bottleneck_bps = x;
        for (i = 0; i < p->nclasses; i++)
            p->cls[i].rp.line_rate_bps = x;
        return 0;
    }
    if (strcmp(name, "bottleneck") == 0) {
        if (fluid_parse_rate_bps(v, 0, &p->bottleneck_bps) != 0)
            return bad(msg, len, name, v, "a rate with its unit, e.g. 10Gbps");
        return 0;
    }
    if (strcmp(name, "flows") == 0) {
        if (parse_real(v, &x) != 0 || x != floor(x) || x < 1 || x > 1000000)
            return bad(msg, len, name, v, "an integer in [1, 1000000]");
        if (p->nclasses != 1)
            return bad(msg, len, name, v, "no --flows with several classes (give each --class its count)");
        p->cls[0].flows = (uint32_t)x;
        return 0;
    }
    if (strcmp(name, "delay") == 0 || strcmp(name, "step") == 0) {
        if (fluid_parse_time_ns(v, &ns) != 0)
            return bad(msg, len, name, v, "a whole number of ns with its unit, e.g. 50us");
        *(name[0] == 'd' ? &p->delay_ns : &p->max_step_ns) = ns;
        return 0;
    }
    if (strcmp(name, "method") == 0) {
        int k = choose(v, "bs3", "rk4");

        if (k < 0)
            return bad(msg, len, name, v, "bs3 (adaptive, the default) or rk4 (fixed step)");
        p->method = k == 0 ? FEROCE_FLUID_BS3 : FEROCE_FLUID_RK4;
        return 0;
    }
    if (strcmp(name, "max-step") == 0) {
        if (fluid_parse_time_ns(v, &ns) != 0 || ns < 1 || ns > 1000000)
            return bad(msg, len, name, v, "a time in [1 ns, 1 ms] with its unit, e.g. 100us");
        p->adaptive_max_step_ns = ns;
        return 0;
    }
    if (strcmp(name, "rtol") == 0) {
        if (parse_real(v, &x) != 0 || !(x >= 1e-9 && x <= 0.1))
            return bad(msg, len, name, v, "a number in [1e-9, 0.1]");
        p->rel_tol = x;
        return 0;
    }
    if (strcmp(name, "kmin") == 0 || strcmp(name, "kmax") == 0) {
        if (fluid_parse_bytes(v, &bytes) != 0)
            return bad(msg, len, name, v, "bytes, e.g. 200000 or 200KB (KB = 1000 B)");
        *(name[1] == 'm' && name[2] == 'i' ? &p->cp.kmin_bytes : &p->cp.kmax_bytes) = bytes;
        return 0;
    }
    if (strcmp(name, "pmax") == 0) {
        if (parse_real(v, &p->cp.pmax) != 0)
            return bad(msg, len, name, v, "a number in (0, 1]");
        return 0;
    }
    if (strcmp(name, "packet-bytes") == 0) {
        if (fluid_parse_bytes(v, &bytes) != 0 || bytes > 65536)
            return bad(msg, len, name, v, "bytes in [64, 65536]");
        p->packet_bytes = (uint32_t)bytes;
        return 0;
    }
    if (strcmp(name, "ramp") == 0) {
        int k = choose(v, "red", "linear");

        if (k < 0)
            return bad(msg, len, name, v, "red or linear");
        p->ramp = k == 0 ? FEROCE_FLUID_RAMP_RED : FEROCE_FLUID_RAMP_LINEAR;
        return 0;
    }
    if (strcmp(name, "cnp-model") == 0) {
        int k = choose(v, "paper", "np");

        if (k < 0)
            return bad(msg, len, name, v, "paper or np");
        p->cnp = k == 0 ? FEROCE_FLUID_CNP_PAPER : FEROCE_FLUID_CNP_NP;
        return 0;
    }
    for (i = 0; i < p->nclasses; i++) {
        r = apply_class(&p->cls[i], name, v, msg, len);
        if (r < 0)
            return bad(
                msg, len, "flag", name,
                "a model flag: line-rate, bottleneck, flows, delay, method, step, max-step, rtol, kmin, "
                "kmax, pmax, packet-bytes, "
                "cnp-model, ramp, g, initial-alpha, rai, rhai, min-rate, timer, alpha-period, "
                "decrease-period, cnp-interval, byte-counter, F, alpha-mode, hai-mode, clamp or param");
        if (r != 0)
            return r;
    }
    return 0;
}

/* ---- classes ----------------------------------------------------------------- */

/* "N[,key=value...]": keys preset, join, leave and the DCQCN flags. */
static int parse_class(struct feroce_fluid_class *c, const struct feroce_fluid_params *base, const char *spec,
                       char *msg, size_t len)
{
    char buf[512], *save = NULL, *tok;
    double x;
    int first = 1;

    if (strlen(spec) >= sizeof buf)
        return bad(msg, len, "class", spec, "at most 511 characters");
    strcpy(buf, spec);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save), first = 0) {
        char *eq = strchr(tok, '=');

        if (first) {
            if (parse_real(tok, &x) != 0 || x != floor(x) || x < 1 || x > 1000000)
                return bad(msg, len, "class", spec,
                           "COUNT[,key=value...] with COUNT an integer in [1, 1000000]");
            c->flows = (uint32_t)x;
            continue;
        }
        if (!eq)
            return bad(msg, len, "class", spec, "key=value items after the count");
        *eq = '\0';
        if (strcmp(tok, "preset") == 0) {
            struct feroce_fluid_params tmp;
            struct feroce_check why;

            if (feroce_fluid_preset(&tmp, eq + 1, base->bottleneck_bps, 1, &why) != FEROCE_OK) {
                feroce_check_message(&why, msg, len);
                return 2;
            }
            c->rp = tmp.cls[0].rp;
            c->np_interval_ns = tmp.cls[0].np_interval_ns;
        } else if (strcmp(tok, "join") == 0 || strcmp(tok, "leave") == 0) {
            int64_t ns;

            if (fluid_parse_time_ns(eq + 1, &ns) != 0)
                return bad(msg, len, tok, eq + 1, "a time with its unit, e.g. 30ms");
            *(tok[0] == 'j' ? &c->join_ns : &c->leave_ns) = ns;
        } else {
            int r = apply_class(c, tok, eq + 1, msg, len);

            if (r < 0)
                return bad(msg, len, "class key", tok,
                           "preset, join, leave, g, rai, rhai, timer, alpha-period, decrease-period, "
                           "byte-counter, F, min-rate, initial-alpha, alpha-mode, hai-mode, clamp, "
                           "cnp-interval, line-rate or param");
            if (r)
                return r;
        }
    }
    return 0;
}

/* "start:stop,start:stop,...": one flow per entry (advcam-incast's --schedule). */
static int parse_schedule(struct feroce_fluid_params *p, const char *spec, char *msg, size_t len)
{
    char buf[2048], *save = NULL, *tok;
    struct feroce_fluid_class tmpl = p->cls[0];
    uint32_t n = 0;

    if (strlen(spec) >= sizeof buf)
        return bad(msg, len, "schedule", spec, "at most 2047 characters");
    strcpy(buf, spec);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *colon = strchr(tok, ':');
        struct feroce_fluid_class *c;

        if (n == FEROCE_FLUID_MAX_CLASSES)
            return bad(msg, len, "schedule", spec, "at most 64 start:stop pairs");
        c = &p->cls[n++];
        *c = tmpl;
        c->flows = 1;
        if (!colon)
            return bad(msg, len, "schedule", spec, "start:stop pairs with units, e.g. 0ms:30ms,0ms:60ms");
        *colon = '\0';
        if (fluid_parse_time_ns(tok, &c->join_ns) != 0 || fluid_parse_time_ns(colon + 1, &c->leave_ns) != 0)
            return bad(msg, len, "schedule", spec, "start:stop pairs with units, e.g. 0ms:30ms,0ms:60ms");
    }
    if (n == 0)
        return bad(msg, len, "schedule", spec, "start:stop pairs with units, e.g. 0ms:30ms,0ms:60ms");
    p->nclasses = n;
    return 0;
}

/* ---- the whole command line ------------------------------------------------ */

static const char *const model_flags[] = { "preset",
                                           "line-rate",
                                           "bottleneck",
                                           "flows",
                                           "delay",
                                           "method",
                                           "step",
                                           "max-step",
                                           "rtol",
                                           "kmin",
                                           "kmax",
                                           "pmax",
                                           "packet-bytes",
                                           "cnp-model",
                                           "ramp",
                                           "g",
                                           "initial-alpha",
                                           "rai",
                                           "rhai",
                                           "min-rate",
                                           "first-cnp-rate",
                                           "timer",
                                           "alpha-period",
                                           "decrease-period",
                                           "cnp-interval",
                                           "byte-counter",
                                           "F",
                                           "alpha-mode",
                                           "hai-mode",
                                           "clamp",
                                           "param",
                                           "class",
                                           "schedule",
                                           NULL };

static int in_list(const char *const *list, const char *name)
{
    for (; list && *list; list++)
        if (strcmp(*list, name) == 0)
            return 1;
    return 0;
}

static int apply_extra(struct fluid_args *a, const char *name, const char *v, char *msg, size_t len)
{
    int64_t ns;
    double x;

    if (strcmp(name, "duration") == 0 || strcmp(name, "window") == 0) {
        if (fluid_parse_time_ns(v, &ns) != 0 || ns <= 0 || ns > 100000000000LL)
            return bad(msg, len, name, v, "a time in (0, 100 s] with its unit, e.g. 100ms");
        *(name[0] == 'd' ? &a->duration_s : &a->window_s) = ns * 1e-9;
    } else if (strcmp(name, "max-delay") == 0) {
        if (fluid_parse_time_ns(v, &ns) != 0 || ns <= 0 || ns > 100000000)
            return bad(msg, len, name, v, "a time in (0, 100 ms] with its unit, e.g. 200us");
        a->max_delay_ns = ns;
    } else if (strcmp(name, "RngRun") == 0) {
        if (parse_real(v, &x) != 0 || x < 1 || x != floor(x) || x > 2147483647.0)
            return bad(msg, len, name, v, "an integer >= 1 (the fluid model draws no random number)");
        a->seed = (long)x;
    } else if (strcmp(name, "out") == 0) {
        a->out = v;
    } else if (strcmp(name, "x") == 0) {
        a->x = v;
    } else if (strcmp(name, "y") == 0) {
        a->y = v;
    } else if (strcmp(name, "outdir") == 0) {
        a->outdir = v;
    } else if (strcmp(name, "db") == 0) {
        a->db = v;
    }
    return 0;
}

int fluid_args_parse(struct fluid_args *a, int argc, char **argv, int first, const char *const *extra,
                     const char *prog, FILE *err)
{
    char msg[512], name[64];
    const char *preset = "paper", *line = "10Gbps", *classes[FEROCE_FLUID_MAX_CLASSES], *schedule = NULL;
    double line_bps;
    int nclasses = 0, i, r;
    struct feroce_check why;

    memset(a, 0, sizeof *a);
    a->duration_s = 0.1;
    a->window_s = 10e-6;
    a->seed = 1;
    a->max_delay_ns = 1000000;
    /* split --name=value / --name value and check the names before anything else */
    for (i = first; i < argc; i++) {
        const char *arg = argv[i], *eq, *v;
        size_t n;

        if (strncmp(arg, "--", 2) != 0) {
            fprintf(err, "%s: argument \"%s\" is not allowed: expected --NAME=VALUE\n", prog, arg);
            return 2;
        }
        eq = strchr(arg, '=');
        n = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
        if (n == 0 || n >= sizeof name) {
            fprintf(err, "%s: argument \"%s\" is not allowed: expected --NAME=VALUE\n", prog, arg);
            return 2;
        }
        memcpy(name, arg + 2, n);
        name[n] = '\0';
        if (!in_list(model_flags, name) && !in_list(extra, name)) {
            fprintf(err, "%s: flag --%s is not allowed here: expected a model flag (see %s --help) or one of",
                    prog, name, prog);
            for (; extra && *extra; extra++)
                fprintf(err, " --%s", *extra);
            fprintf(err, "\n");
            return 2;
        }
        if (eq) {
            v = eq + 1;
        } else if (i + 1 < argc) {
            v = argv[++i];
        } else {
            fprintf(err, "%s: flag --%s has no value\n", prog, name);
            return 2;
        }
        if (a->nflags == 128) {
            fprintf(err, "%s: too many flags (at most 128)\n", prog);
            return 2;
        }
        a->flag_name[a->nflags] = strdup(name);
        a->flag_value[a->nflags++] = v;
    }
    /* the preset and the line rate first (presets scale with it), then the flags in order */
    for (i = 0; i < a->nflags; i++) {
        if (strcmp(a->flag_name[i], "preset") == 0)
            preset = a->flag_value[i];
        else if (strcmp(a->flag_name[i], "line-rate") == 0)
            line = a->flag_value[i];
    }
    if (fluid_parse_rate_bps(line, 0, &line_bps) != 0 || !(line_bps > 0)) {
        fprintf(err, "%s: line-rate = %s is not allowed: expected a rate > 0 with its unit, e.g. 10Gbps\n",
                prog, line);
        return 2;
    }
    if (feroce_fluid_preset(&a->p, preset, line_bps, 2, &why) != FEROCE_OK) {
        feroce_check_message(&why, msg, sizeof msg);
        fprintf(err, "%s: %s\n", prog, msg);
        return 2;
    }
    for (i = 0; i < a->nflags; i++) {
        const char *n = a->flag_name[i], *v = a->flag_value[i];

        if (strcmp(n, "preset") == 0 || strcmp(n, "line-rate") == 0)
            continue;
        if (strcmp(n, "class") == 0) {
            if (nclasses == FEROCE_FLUID_MAX_CLASSES) {
                fprintf(err, "%s: class = %s is not allowed: expected at most %d classes\n", prog, v,
                        FEROCE_FLUID_MAX_CLASSES);
                return 2;
            }
            classes[nclasses++] = v;
            continue;
        }
        if (strcmp(n, "schedule") == 0) {
            schedule = v;
            continue;
        }
        r = in_list(extra, n) ? apply_extra(a, n, v, msg, sizeof msg)
                              : fluid_args_apply(&a->p, n, v, msg, sizeof msg);
        if (r != 0) {
            fprintf(err, "%s: %s\n", prog, msg);
            return 2;
        }
    }
    for (i = 0; i < a->nflags && (nclasses > 0 || schedule); i++)
        if (strcmp(a->flag_name[i], "flows") == 0) {
            fprintf(err,
                    "%s: flows = %s is not allowed with --class or --schedule: expected the count in each "
                    "class\n",
                    prog, a->flag_value[i]);
            return 2;
        }
    if (nclasses > 0 && schedule) {
        fprintf(err, "%s: schedule = %s is not allowed: expected --class or --schedule, not both\n", prog,
                schedule);
        return 2;
    }
    if (schedule && (r = parse_schedule(&a->p, schedule, msg, sizeof msg)) != 0) {
        fprintf(err, "%s: %s\n", prog, msg);
        return 2;
    }
    if (nclasses > 0) {
        struct feroce_fluid_class tmpl = a->p.cls[0];

        for (i = 0; i < nclasses; i++) {
            a->p.cls[i] = tmpl;
            a->p.cls[i].flows = 1;
            r = parse_class(&a->p.cls[i], &a->p, classes[i], msg, sizeof msg);
            if (r != 0) {
                fprintf(err, "%s: %s\n", prog, msg);
                return 2;
            }
        }
        a->p.nclasses = (uint32_t)nclasses;
    }
    /* each integrator's own flags: refused with the other, not silently ignored */
    for (i = 0; i < a->nflags; i++) {
        const char *n = a->flag_name[i];
        int rk4 = a->p.method == FEROCE_FLUID_RK4;

        if ((strcmp(n, "step") == 0 && !rk4) ||
            ((strcmp(n, "max-step") == 0 || strcmp(n, "rtol") == 0) && rk4)) {
            fprintf(err, "%s: %s = %s is not allowed with --method=%s: expected %s\n", prog, n,
                    a->flag_value[i], rk4 ? "rk4" : "bs3",
                    rk4 ? "--step (the fixed step)" : "--max-step and --rtol (or --method=rk4 with --step)");
            return 2;
        }
    }
    if (feroce_fluid_validate(&a->p, &why) != FEROCE_OK) {
        feroce_check_message(&why, msg, sizeof msg);
        fprintf(err, "%s: %s\n", prog, msg);
        return 2;
    }
    return 0;
}
