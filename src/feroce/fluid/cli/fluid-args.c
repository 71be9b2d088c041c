/*
 * fluid-args.c - feroce-fluid's flags: the packet model's names (advcam-incast:
 * --preset --g --rai --timer --kmin --kmax --pmax ...) and presets (the core's),
 * values with units, every error one line naming the flag, its value and what
 * is allowed.
 */
#include "fluid-args.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "feroce-np.h"
#include "feroce-number.h"

/* ---- values with units ------------------------------------------------- */

/* a number by the one grammar of every feroce program (feroce-number.h: no hex, blanks or +) */
static int number_prefix(const char *text, double *v, const char **rest)
{
    return feroce_number_real(text, v, rest);
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

/* a whole number >= 0 by the same grammar (decimal, 0x hexadecimal, or 1e3 and the like) */
static int parse_whole(const char *text, double *v)
{
    uint64_t magnitude;
    int negative;

    if (feroce_number_whole(text, &magnitude, &negative) != 0 || negative)
        return -1;
    *v = (double)magnitude;
    return 0;
}

/* ---- model flags ---------------------------------------------------------- */

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

/* How a flag's value is read, and what it is stored as. */
enum flag_read {
    R_REAL,    /* a number: double */
    R_RATE,    /* a rate with its unit: double b/s */
    R_MBPS,    /* a rate, Mb/s without a unit: double b/s */
    R_TIME,    /* a whole number of ns with its unit: int64_t ns */
    R_SECONDS, /* the same: double s */
    R_BYTES,   /* bytes: uint64_t */
    R_BYTES32, /* bytes: uint32_t */
    R_COUNT,   /* an integer: long */
    R_CHOICE,  /* one of two words: the enum value beside it (int) */
    R_CORE,    /* by the core's feroce_rp_set_param under the name word[0] */
    R_TEXT,    /* as given: const char * */
    R_SPECIAL  /* by code below: line-rate on the command line (every class and the bottleneck),
                  flows, param */
};

/* Where it goes. */
enum flag_where {
    IN_PARAMS, /* struct feroce_fluid_params */
    IN_CLASS,  /* struct feroce_fluid_class: every class from the command line, one in --class */
    IN_RP,     /* the class's struct feroce_rp_params */
    IN_ARGS    /* struct fluid_args: a subcommand's own flag */
};

struct flag {
    const char *name;
    enum flag_read read;
    enum flag_where where;
    size_t offset;
    const char *expected; /* NULL: the core's own words (R_CORE) */
    double lo, hi;        /* the value's range (times in ns) when lo < hi */
    const char *word[2];  /* R_CHOICE: the two words; R_CORE: the core's name */
    int value[2];         /* R_CHOICE: their values */
};

#define PARAM(m) .where = IN_PARAMS, .offset = offsetof(struct feroce_fluid_params, m)
#define CLASS(m) .where = IN_CLASS, .offset = offsetof(struct feroce_fluid_class, m)
#define RP(m)    .where = IN_RP, .offset = offsetof(struct feroce_rp_params, m)
#define ARGS(m)  .where = IN_ARGS, .offset = offsetof(struct fluid_args, m)

#define E_RATE   "a rate with its unit, e.g. 10Gbps"
#define E_MBPS   "a rate: Mb/s, or a number with bps, Kbps, Mbps or Gbps"
#define E_NS     "a whole number of ns with its unit, e.g. 50us"
#define E_RP_NS  "a whole number of ns with its unit, e.g. 55us"
#define E_KBYTES "bytes, e.g. 200000 or 200KB (KB = 1000 B)"
#define E_RUN    "a time in (0, 100 s] with its unit, e.g. 100ms"

/* Every flag: the model's (the packet model's names, advcam-incast --g --rai --timer --kmin ...)
 * and the subcommands' own (each subcommand names those it takes). */
static const struct flag flags[] = {
    { .name = "line-rate", .read = R_RATE, RP(line_rate_bps), .expected = E_RATE },
    { .name = "bottleneck", .read = R_RATE, PARAM(bottleneck_bps), .expected = E_RATE },
    { .name = "flows",
      .read = R_SPECIAL,
      PARAM(cls),
      .expected = "an integer in [1, 1000000]",
      .lo = 1,
      .hi = 1000000 },
    { .name = "delay", .read = R_TIME, PARAM(delay_ns), .expected = E_NS },
    { .name = "method",
      .read = R_CHOICE,
      PARAM(method),
      .expected = "bs3 (adaptive, the default) or rk4 (fixed step)",
      .word = { "bs3", "rk4" },
      .value = { FEROCE_FLUID_BS3, FEROCE_FLUID_RK4 } },
    { .name = "step", .read = R_TIME, PARAM(max_step_ns), .expected = E_NS },
    { .name = "max-step",
      .read = R_TIME,
      PARAM(adaptive_max_step_ns),
      .expected = "a time in [1 ns, 1 ms] with its unit, e.g. 100us",
      .lo = 1,
      .hi = 1000000 },
    { .name = "rtol",
      .read = R_REAL,
      PARAM(rel_tol),
      .expected = "a number in [1e-9, 0.1]",
      .lo = 1e-9,
      .hi = 0.1 },
    { .name = "kmin", .read = R_BYTES, PARAM(cp.kmin_bytes), .expected = E_KBYTES },
    { .name = "kmax", .read = R_BYTES, PARAM(cp.kmax_bytes), .expected = E_KBYTES },
    { .name = "pmax", .read = R_REAL, PARAM(cp.pmax), .expected = "a number in (0, 1]" },
    { .name = "packet-bytes",
      .read = R_BYTES32,
      PARAM(packet_bytes),
      .expected = "bytes in [64, 65536]",
      .lo = 0,
      .hi = 65536 },
    { .name = "cnp-model",
      .read = R_CHOICE,
      PARAM(cnp),
      .expected = "paper or np",
      .word = { "paper", "np" },
      .value = { FEROCE_FLUID_CNP_PAPER, FEROCE_FLUID_CNP_NP } },
    { .name = "ramp",
      .read = R_CHOICE,
      PARAM(ramp),
      .expected = "red or linear",
      .word = { "red", "linear" },
      .value = { FEROCE_FLUID_RAMP_RED, FEROCE_FLUID_RAMP_LINEAR } },
    { .name = "g", .read = R_REAL, RP(g), .expected = "a number in (0, 1]" },
    { .name = "initial-alpha", .read = R_REAL, RP(initial_alpha), .expected = "a number in [0, 1]" },
    { .name = "rai", .read = R_MBPS, RP(rai_bps), .expected = E_MBPS },
    { .name = "rhai", .read = R_MBPS, RP(rhai_bps), .expected = E_MBPS },
    { .name = "min-rate", .read = R_MBPS, RP(min_rate_bps), .expected = E_MBPS },
    { .name = "first-cnp-rate", .read = R_MBPS, RP(first_cnp_rate_bps), .expected = E_MBPS },
    { .name = "timer", .read = R_TIME, RP(increase_timer_ns), .expected = E_RP_NS },
    { .name = "alpha-period", .read = R_TIME, RP(alpha_period_ns), .expected = E_RP_NS },
    { .name = "decrease-period", .read = R_TIME, RP(decrease_period_ns), .expected = E_RP_NS },
    { .name = "cnp-interval", .read = R_TIME, CLASS(np_interval_ns), .expected = E_RP_NS },
    { .name = "byte-counter",
      .read = R_BYTES,
      RP(byte_counter_bytes),
      .expected = "bytes (0 disables the byte counter), e.g. 10MB" },
    { .name = "F",
      .read = R_CORE,
      RP(F),
      .expected = "a non-negative integer",
      .word = { "F" } },
    { .name = "alpha-mode", .read = R_CORE, RP(alpha_mode), .expected = NULL, .word = { "alpha_mode" } },
    { .name = "hai-mode", .read = R_CORE, RP(hai_mode), .expected = NULL, .word = { "hai_mode" } },
    { .name = "clamp", .read = R_CORE, RP(clamp), .expected = NULL, .word = { "clamp" } },
    /* --param=NAME=VALUE with the core's names (spec/dcqcn.md) */
    { .name = "param",
      .read = R_SPECIAL,
      RP(g),
      .expected = "NAME=VALUE with a reaction-point parameter name, e.g. rai_bps=40e6" },
    { .name = "duration", .read = R_SECONDS, ARGS(duration_s), .expected = E_RUN, .lo = 1, .hi = 1e11 },
    { .name = "window", .read = R_SECONDS, ARGS(window_s), .expected = E_RUN, .lo = 1, .hi = 1e11 },
    { .name = "max-delay",
      .read = R_TIME,
      ARGS(max_delay_ns),
      .expected = "a time in (0, 100 ms] with its unit, e.g. 200us",
      .lo = 1,
      .hi = 1e8 },
    { .name = "RngRun",
      .read = R_COUNT,
      ARGS(seed),
      .expected = "an integer >= 1 (the fluid model draws no random number)",
      .lo = 1,
      .hi = 2147483647.0 },
    { .name = "out", .read = R_TEXT, ARGS(out), .expected = "" },
    { .name = "x", .read = R_TEXT, ARGS(x), .expected = "" },
    { .name = "y", .read = R_TEXT, ARGS(y), .expected = "" },
    { .name = "outdir", .read = R_TEXT, ARGS(outdir), .expected = "" },
    { .name = "db", .read = R_TEXT, ARGS(db), .expected = "" },
};

static const struct flag *find_flag(const char *name)
{
    size_t i;

    for (i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (strcmp(flags[i].name, name) == 0)
            return &flags[i];
    return NULL;
}

enum fluid_unit fluid_args_unit(const char *name)
{
    const struct flag *f = find_flag(name);

    if (!f || f->where == IN_ARGS)
        return FLUID_REAL;
    switch (f->read) {
    case R_TIME:
    case R_SECONDS:
        return FLUID_TIME;
    case R_RATE:
    case R_MBPS:
        return FLUID_RATE;
    case R_BYTES:
    case R_BYTES32:
        return FLUID_BYTES;
    default:
        return strcmp(name, "flows") == 0 || strcmp(name, "F") == 0 ? FLUID_COUNT : FLUID_REAL;
    }
}

/* Read v as flag f into the struct at base; 0, or 2 with a message. */
static int read_flag(const struct flag *f, void *base, const char *v, char *msg, size_t len)
{
    void *dst = (char *)base + f->offset;
    struct feroce_check why;
    int64_t ns = 0;
    uint64_t bytes = 0;
    double x = 0;
    int ok, k;

    switch (f->read) {
    case R_CHOICE:
        k = choose(v, f->word[0], f->word[1]);
        if (k < 0)
            return bad(msg, len, f->name, v, f->expected);
        *(int *)dst = f->value[k];
        return 0;
    case R_CORE:
        if (feroce_rp_set_param(base, f->word[0], v, &why) != FEROCE_OK)
            return bad(msg, len, f->name, v, f->expected ? f->expected : why.allowed);
        return 0;
    case R_TEXT:
        *(const char **)dst = v;
        return 0;
    case R_SPECIAL: /* read by their callers */
        return 2;
    case R_REAL:
        ok = parse_real(v, &x) == 0;
        break;
    case R_COUNT:
        ok = parse_whole(v, &x) == 0;
        break;
    case R_RATE:
    case R_MBPS:
        ok = fluid_parse_rate_bps(v, f->read == R_MBPS ? 1e6 : 0, &x) == 0;
        break;
    case R_TIME:
    case R_SECONDS:
        ok = fluid_parse_time_ns(v, &ns) == 0;
        x = (double)ns;
        break;
    default: /* R_BYTES, R_BYTES32 */
        ok = fluid_parse_bytes(v, &bytes) == 0;
        x = (double)bytes;
        break;
    }
    /* a number, in its range (times in ns) when the flag has one */
    if (!ok || (f->lo < f->hi && !(x >= f->lo && x <= f->hi)))
        return bad(msg, len, f->name, v, f->expected);
    if (f->read == R_TIME)
        *(int64_t *)dst = ns;
    else if (f->read == R_SECONDS)
        *(double *)dst = ns * 1e-9;
    else if (f->read == R_BYTES)
        *(uint64_t *)dst = bytes;
    else if (f->read == R_BYTES32)
        *(uint32_t *)dst = (uint32_t)bytes;
    else if (f->read == R_COUNT)
        *(long *)dst = (long)x;
    else
        *(double *)dst = x;
    return 0;
}

/* --param=NAME=VALUE on one class's reaction point. */
static int apply_param(struct feroce_rp_params *rp, const char *v, char *msg, size_t len)
{
    struct feroce_check why;
    char key[64];
    const char *eq = strchr(v, '=');

    if (!eq || (size_t)(eq - v) >= sizeof key)
        return bad(msg, len, "param", v, find_flag("param")->expected);
    memcpy(key, v, (size_t)(eq - v));
    key[eq - v] = '\0';
    if (feroce_rp_set_param(rp, key, eq + 1, &why) != FEROCE_OK) {
        feroce_check_message(&why, msg, len);
        return 2;
    }
    return 0;
}

/* A DCQCN flag on one class: 0, 2 with a message, or -1 when it is not a class flag. */
static int apply_class(struct feroce_fluid_class *c, const char *name, const char *v, char *msg, size_t len)
{
    const struct flag *f = find_flag(name);

    if (!f || (f->where != IN_CLASS && f->where != IN_RP))
        return -1;
    if (f->read == R_SPECIAL)
        return apply_param(&c->rp, v, msg, len);
    return read_flag(f, f->where == IN_RP ? (void *)&c->rp : (void *)c, v, msg, len);
}

int fluid_args_apply(struct feroce_fluid_params *p, const char *name, const char *v, char *msg, size_t len)
{
    const struct flag *f = find_flag(name);
    uint32_t i;
    double x;
    int r;

    if (f && strcmp(name, "line-rate") == 0) {
        /* on the command line: the bottleneck and every class */
        if (read_flag(f, &p->cls[0].rp, v, msg, len) != 0)
            return 2;
        x = p->cls[0].rp.line_rate_bps;
        p->bottleneck_bps = x;
        for (i = 0; i < p->nclasses; i++)
            p->cls[i].rp.line_rate_bps = x;
        return 0;
    }
    if (f && strcmp(name, "flows") == 0) {
        if (parse_whole(v, &x) != 0 || x < f->lo || x > f->hi)
            return bad(msg, len, name, v, f->expected);
        if (p->nclasses != 1)
            return bad(msg, len, name, v, "no --flows with several classes (give each --class its count)");
        p->cls[0].flows = (uint32_t)x;
        return 0;
    }
    if (f && f->where == IN_PARAMS)
        return read_flag(f, p, v, msg, len);
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
            if (parse_whole(tok, &x) != 0 || x < 1 || x > 1000000)
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

/* A name of the model (the table's, and those fluid_args_parse reads itself). */
static int is_model_flag(const char *name)
{
    const struct flag *f = find_flag(name);

    return (f && f->where != IN_ARGS) || strcmp(name, "preset") == 0 || strcmp(name, "class") == 0 ||
           strcmp(name, "schedule") == 0;
}

static int in_list(const char *const *list, const char *name)
{
    for (; list && *list; list++)
        if (strcmp(*list, name) == 0)
            return 1;
    return 0;
}

/* A subcommand's own flag (one it reads itself, as study's --warmup, is left to it). */
static int apply_extra(struct fluid_args *a, const char *name, const char *v, char *msg, size_t len)
{
    const struct flag *f = find_flag(name);

    return f && f->where == IN_ARGS ? read_flag(f, a, v, msg, len) : 0;
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
        if (!is_model_flag(name) && !in_list(extra, name)) {
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
        /* each flag once (--class and --param repeat by design): a second value would replace
         * the first without a word */
        if (strcmp(name, "class") != 0 && strcmp(name, "param") != 0) {
            int k;

            for (k = 0; k < a->nflags; k++)
                if (strcmp(a->flag_name[k], name) == 0) {
                    fprintf(err, "%s: %s = %s is not allowed: expected one value (%s = %s is given too)\n", prog,
                            name, v, name, a->flag_value[k]);
                    return 2;
                }
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
