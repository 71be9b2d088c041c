/*
 * feroce-rp-trace - golden model of the DCQCN rate limiter.
 *
 * Reads an event script (src/feroce/doc/dcqcn.md, "Rate-limiter trace format") from a
 * file or stdin and writes one CSV row per event, after applying it, so a
 * firmware team can compare its rate limiter register by register.
 *
 *   feroce-rp-trace [--sample NS] [--fixed [FORMAT OPTIONS] [--hex]] [SCRIPT | -]
 *
 * --sample NS also writes a row with event "sample" at every multiple of NS
 * that falls strictly between two events, for plotting Rc over time; a sample
 * only observes the state, it changes nothing.
 *
 * --fixed runs the fixed-point reaction point (feroce-rp-fixed.h) beside the
 * double one on the same script: each row gives the fixed model's rates, its
 * registers as integers (in hex with --hex), the double model's Rc and the
 * relative deviation of the fixed Rc from it; the largest deviation is
 * reported on stderr at the end.  The format starts from --format NAME
 * (default, surf) and is changed by --clock-hz, --rate-bits, --rate-lsb-bps,
 * --alpha-bits, --rounding, --rate-rounding, --alpha-rounding.  Event times
 * stay in ns; the fixed model sees the cycle each one falls in.
 *
 * A script starts from a preset (default paper) at line_rate_bps (default
 * 10 Gb/s); `param` lines override single parameters.  The preset is built
 * with the script's line rate, so presets that scale with the link (hpcc) do.
 * Any bad line stops the run with its line number and a non-zero exit; rows
 * written before it stay written.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "feroce-number.h"
#include "feroce-rp-fixed.h"
#include "feroce-rp.h"

#define MAX_LINE   4096
#define MAX_PARAMS 64

struct override {
    char name[64];
    char value[64];
    long line;
};

struct script {
    const char *file;
    long line;
    char preset[32];
    long preset_line;
    struct override params[MAX_PARAMS];
    int nparams;
    int started;
    int64_t sample_ns; /* 0: no sample rows */
    int64_t next_sample;
    struct feroce_rp_params p;
    struct feroce_rp_state s;
    /* --fixed */
    int fixed;
    int hex;
    struct feroce_rp_fixed_format fmt;
    struct feroce_rp_fixed_params fp;
    struct feroce_rp_fixed_state fs;
    double worst_dev;
    int64_t worst_t;
    char worst_event[16];
};

/* s on stderr with every byte that is not printable ASCII as \xNN: a script's garbage stays
 * one line and leaves the terminal alone. */
static void put_escaped(const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c >= 0x7f)
            fprintf(stderr, "\\x%02x", c);
        else
            fputc(c, stderr);
    }
}

static void die(const struct script *sc, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;

    fflush(stdout);
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fputs("feroce-rp-trace: ", stderr);
    put_escaped(sc->file);
    fprintf(stderr, ":%ld: ", sc->line);
    put_escaped(msg);
    fputc('\n', stderr);
    exit(2);
}

static void die_check(struct script *sc, long line, const struct feroce_check *why)
{
    char msg[512];

    feroce_check_message(why, msg, sizeof msg);
    sc->line = line;
    die(sc, "%s", msg);
}

/* Build the parameters at the first event: preset at the line rate, then overrides in order. */
static void start(struct script *sc)
{
    struct feroce_check why;
    double line_rate = 10e9;
    long bad_line = sc->preset_line;
    int i;

    for (i = 0; i < sc->nparams; i++) {
        if (strcmp(sc->params[i].name, "line_rate_bps") != 0)
            continue;
        if (feroce_rp_set_param(&sc->p, "line_rate_bps", sc->params[i].value, &why) != FEROCE_OK)
            die_check(sc, sc->params[i].line, &why);
        line_rate = sc->p.line_rate_bps;
        bad_line = sc->params[i].line;
    }
    if (feroce_rp_preset(&sc->p, sc->preset, line_rate, &why) != FEROCE_OK)
        die_check(sc, bad_line, &why);
    for (i = 0; i < sc->nparams; i++)
        if (feroce_rp_set_param(&sc->p, sc->params[i].name, sc->params[i].value, &why) != FEROCE_OK)
            die_check(sc, sc->params[i].line, &why);
    if (feroce_rp_validate(&sc->p, &why) != FEROCE_OK) {
        /* blame the last line that set the bad parameter, else the preset */
        for (i = 0; i < sc->nparams; i++)
            if (strcmp(sc->params[i].name, why.param) == 0)
                bad_line = sc->params[i].line;
        die_check(sc, bad_line, &why);
    }
    if (sc->fixed && feroce_rp_fixed_build(&sc->fp, &sc->p, &sc->fmt, &why) != FEROCE_OK) {
        char msg[512];

        if (why.code >= FEROCE_E_FIXED_CLOCK && why.code <= FEROCE_E_FIXED_ROUNDING) {
            /* a format option: no script line to blame */
            feroce_check_message(&why, msg, sizeof msg);
            fflush(stdout);
            fprintf(stderr, "feroce-rp-trace: %s\n", msg);
            exit(2);
        }
        for (i = 0; i < sc->nparams; i++)
            if (strcmp(sc->params[i].name, why.param) == 0)
                bad_line = sc->params[i].line;
        die_check(sc, bad_line, &why);
    }
    feroce_rp_init(&sc->s, &sc->p, 0);
    sc->started = 1;
    if (sc->fixed) {
        feroce_rp_fixed_init(&sc->fs, &sc->fp, 0);
        printf(
            "t_ns,event,cycle,rc_bps,rt_bps,alpha,ts,bs,rc_reg,rt_reg,alpha_reg,float_rc_bps,rc_rel_dev\n");
    } else {
        printf("t_ns,event,rc_bps,rt_bps,alpha,ts,bs\n");
    }
}

/* A whole number >= 0 by feroce's one grammar (feroce-number.h). */
static int parse_i64(const char *text, int64_t *out)
{
    return feroce_number_i64(text, 0, INT64_MAX, out);
}

static void do_setting(struct script *sc, char **tok, int n)
{
    if (sc->started)
        die(sc, "'%s' after the first event: presets and params must come before events", tok[0]);
    if (strcmp(tok[0], "preset") == 0) {
        if (n != 2)
            die(sc, "expected 'preset NAME' (paper, connectx or hpcc)");
        if (sc->preset_line)
            die(sc, "a second preset line (the first is line %ld)", sc->preset_line);
        if (sc->nparams)
            die(sc, "preset after a param line: put the preset first, params override it");
        {
            /* the core knows the preset names */
            struct feroce_rp_params scratch;
            struct feroce_check why;

            if (feroce_rp_preset(&scratch, tok[1], 10e9, &why) != FEROCE_OK)
                die_check(sc, sc->line, &why);
        }
        snprintf(sc->preset, sizeof sc->preset, "%s", tok[1]);
        sc->preset_line = sc->line;
        return;
    }
    /* param NAME VALUE: checked now against a scratch copy so the error names this line */
    {
        struct feroce_rp_params scratch;
        struct feroce_check why;
        struct override *o;

        if (n != 3)
            die(sc, "expected 'param NAME VALUE'");
        if (feroce_rp_set_param(&scratch, tok[1], tok[2], &why) != FEROCE_OK)
            die_check(sc, sc->line, &why);
        if (sc->nparams == MAX_PARAMS)
            die(sc, "more than %d param lines", MAX_PARAMS);
        o = &sc->params[sc->nparams++];
        snprintf(o->name, sizeof o->name, "%s", tok[1]);
        snprintf(o->value, sizeof o->value, "%s", tok[2]);
        o->line = sc->line;
    }
}

/* A register as decimal, or as hex digits enough for `bits` bits. */
static void print_reg(const struct script *sc, uint64_t reg, uint32_t bits)
{
    if (sc->hex)
        printf(",0x%0*llx", (int)((bits + 3) / 4), (unsigned long long)reg);
    else
        printf(",%llu", (unsigned long long)reg);
}

static void print_fixed_row(struct script *sc, int64_t t, const char *event)
{
    const struct feroce_rp_fixed_regs *v = &sc->fs.cur;
    const struct feroce_rp_fixed_params *p = &sc->fp;
    double rc = feroce_rp_fixed_bps(p, v->rc), ref = sc->s.cur.rc, dev = (rc - ref) / ref;

    printf("%lld,%s,%lld,%.6f,%.6f,%.9f,%llu,%llu", (long long)t, event, (long long)sc->fs.now, rc,
           feroce_rp_fixed_bps(p, v->rt), feroce_rp_fixed_alpha_value(p, v->alpha), (unsigned long long)v->ts,
           (unsigned long long)v->bs);
    print_reg(sc, v->rc, p->fmt.rate_bits);
    print_reg(sc, v->rt, p->fmt.rate_bits);
    print_reg(sc, v->alpha, p->fmt.alpha_bits + 1);
    printf(",%.6f,%.3e\n", ref, dev);
    if (fabs(dev) > sc->worst_dev || sc->worst_event[0] == '\0') {
        sc->worst_dev = fabs(dev);
        sc->worst_t = t;
        snprintf(sc->worst_event, sizeof sc->worst_event, "%s", event);
    }
}

static void print_row(struct script *sc, int64_t t, const char *event)
{
    const struct feroce_rp_vars *v = &sc->s.cur;

    if (sc->fixed) {
        print_fixed_row(sc, t, event);
        return;
    }
    printf("%lld,%s,%.6f,%.6f,%.9f,%llu,%llu\n", (long long)t, event, v->rc, v->rt, v->alpha,
           (unsigned long long)v->ts, (unsigned long long)v->bs);
}

/* Sample rows at the multiples of sample_ns before t. */
static void sample_until(struct script *sc, int64_t t)
{
    if (!sc->sample_ns)
        return;
    if (sc->next_sample <= sc->s.now)
        sc->next_sample = (sc->s.now / sc->sample_ns + 1) * sc->sample_ns;
    for (; sc->next_sample < t; sc->next_sample += sc->sample_ns) {
        feroce_rp_advance(&sc->s, &sc->p, sc->next_sample);
        if (sc->fixed)
            feroce_rp_fixed_advance(&sc->fs, &sc->fp, feroce_rp_fixed_cycle_at(&sc->fp, sc->next_sample));
        print_row(sc, sc->next_sample, "sample");
    }
}

static void do_event(struct script *sc, char **tok, int n)
{
    enum feroce_err err = FEROCE_OK;
    int64_t t;
    int64_t bytes = 0;

    if (parse_i64(tok[0], &t) != 0)
        die(sc,
            "t_ns = \"%s\" is not allowed: expected a non-negative integer time in ns, or "
            "'preset', 'param' or '#'",
            tok[0]);
    if (t > FEROCE_TIME_MAX)
        die(sc, "t_ns = %lld is not allowed: expected a time in [0, %lld] ns", (long long)t,
            (long long)FEROCE_TIME_MAX);
    if (n < 2)
        die(sc, "expected an event after the time: cnp, tx BYTES or query");
    if (!sc->started)
        start(sc);
    if (sc->fixed && feroce_rp_fixed_cycle_at(&sc->fp, t) == FEROCE_NEVER)
        die(sc, "t_ns = %lld is not allowed: expected a time whose cycle at clock_hz = %llu is <= %lld",
            (long long)t, (unsigned long long)sc->fp.fmt.clock_hz, (long long)FEROCE_TIME_MAX);
    if (t < sc->s.now)
        die(sc, "t_ns = %lld is before the previous event (%lld): times must not decrease", (long long)t,
            (long long)sc->s.now);
    sample_until(sc, t);
    if ((strcmp(tok[1], "cnp") == 0 || strcmp(tok[1], "query") == 0) && n > 2)
        die(sc, "\"%s\" after %s is not allowed: expected '<t_ns> %s' alone", tok[2], tok[1], tok[1]);
    if (strcmp(tok[1], "cnp") == 0) {
        err = feroce_rp_cnp(&sc->s, &sc->p, t);
        if (sc->fixed && err == FEROCE_OK)
            err = feroce_rp_fixed_cnp(&sc->fs, &sc->fp, feroce_rp_fixed_cycle_at(&sc->fp, t));
    } else if (strcmp(tok[1], "query") == 0) {
        err = feroce_rp_advance(&sc->s, &sc->p, t);
        if (sc->fixed && err == FEROCE_OK)
            err = feroce_rp_fixed_advance(&sc->fs, &sc->fp, feroce_rp_fixed_cycle_at(&sc->fp, t));
    } else if (strcmp(tok[1], "tx") == 0) {
        if (n != 3 || parse_i64(tok[2], &bytes) != 0)
            die(sc, "expected '<t_ns> tx <bytes>' with a non-negative integer byte count");
        err = feroce_rp_tx(&sc->s, &sc->p, t, (uint64_t)bytes);
        if (sc->fixed && err == FEROCE_OK)
            err = feroce_rp_fixed_tx(&sc->fs, &sc->fp, feroce_rp_fixed_cycle_at(&sc->fp, t), (uint64_t)bytes);
    } else {
        die(sc, "event \"%s\" is not allowed: expected cnp, tx BYTES or query", tok[1]);
    }
    if (err != FEROCE_OK)
        die(sc, "%s", feroce_err_name(err));
    print_row(sc, t, tok[1]);
}

static void run(struct script *sc, FILE *in)
{
    char buf[MAX_LINE];

    while (fgets(buf, sizeof buf, in)) {
        char *tok[4];
        char *hash, *save = NULL, *w;
        size_t len = strlen(buf);
        int n = 0;

        sc->line++;
        if (len == sizeof buf - 1 && buf[len - 1] != '\n' && !feof(in))
            die(sc, "line longer than %d characters", MAX_LINE - 2);
        hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        for (w = strtok_r(buf, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
            if (n == 4)
                die(sc, "too many fields (at most 3 after the time)");
            tok[n++] = w;
        }
        if (n == 0)
            continue;
        if (strcmp(tok[0], "preset") == 0 || strcmp(tok[0], "param") == 0)
            do_setting(sc, tok, n);
        else
            do_event(sc, tok, n);
    }
    if (ferror(in))
        die(sc, "read error: %s", strerror(errno));
    if (!sc->started)
        start(sc);
}

/* An option given a second time: refused, so that neither value is dropped without a word. */
static int twice(const char *option, const char *value)
{
    fprintf(stderr, "feroce-rp-trace: %s = \"", option);
    put_escaped(value ? value : "");
    fprintf(stderr, "\" is not allowed: %s is given twice, expected once; see --help\n", option);
    return 2;
}

int main(int argc, char **argv)
{
    static const char usage[] =
        "usage: feroce-rp-trace [--sample NS] [--fixed [FORMAT OPTIONS] [--hex]] [SCRIPT | -]\n"
        "Reads a DCQCN rate-limiter event script (format: src/feroce/doc/dcqcn.md) and writes\n"
        "t_ns,event,rc_bps,rt_bps,alpha,ts,bs rows to stdout, one per event line;\n"
        "--sample NS adds a \"sample\" row at every multiple of NS ns between events.\n"
        "--fixed runs the fixed-point rate limiter beside the double one and writes\n"
        "t_ns,event,cycle,rc_bps,rt_bps,alpha,ts,bs,rc_reg,rt_reg,alpha_reg,float_rc_bps,rc_rel_dev;\n"
        "the largest |rc_rel_dev| goes to stderr.  Format options (doc/dcqcn.md):\n"
        "  --format NAME          default or surf (first; the others change it)\n"
        "  --clock-hz N           cycles per second (default 156250000)\n"
        "  --rate-bits N          width of Rc and Rt\n"
        "  --rate-lsb-bps X       b/s per LSB; 0 = line rate / 2^(rate_bits - 1)\n"
        "  --alpha-bits N         fraction bits of alpha and g\n"
        "  --rounding R           truncate or nearest, for rates and alpha\n"
        "  --rate-rounding R, --alpha-rounding R\n"
        "  --hex                  registers in hex\n";
    static const struct {
        const char *option, *field;
    } format_options[] = {
        { "--clock-hz", "clock_hz" },
        { "--rate-bits", "rate_bits" },
        { "--rate-lsb-bps", "rate_lsb_bps" },
        { "--alpha-bits", "alpha_bits" },
        { "--rounding", "rounding" },
        { "--rate-rounding", "rate_rounding" },
        { "--alpha-rounding", "alpha_rounding" },
    };
    const char *format_name = "default";
    int format_given = 0;
    const char *format_set[sizeof format_options / sizeof format_options[0]] = { 0 };
    struct feroce_check why;
    int fixed_only = 0;
    size_t k;
    static struct script sc;
    const char *path = NULL;
    FILE *in = stdin;
    int i;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(usage, stdout);
            return 0;
        } else if (strcmp(argv[i], "--sample") == 0 && i + 1 == argc) {
            fprintf(
                stderr,
                "feroce-rp-trace: --sample needs a value: --sample NS (an integer in [1, 2^62 - 1], ns); see --help\n");
            return 2;
        } else if (strcmp(argv[i], "--sample") == 0) {
            if (sc.sample_ns > 0)
                return twice(argv[i], argv[i + 1]);
            if (parse_i64(argv[++i], &sc.sample_ns) != 0 || sc.sample_ns <= 0 ||
                sc.sample_ns > FEROCE_TIME_MAX) {
                fputs("feroce-rp-trace: --sample = \"", stderr);
                put_escaped(argv[i]);
                fprintf(stderr, "\" is not allowed: expected an integer in [1, %lld] (ns); see --help\n",
                        (long long)FEROCE_TIME_MAX);
                return 2;
            }
        } else if (strcmp(argv[i], "--fixed") == 0) {
            sc.fixed = 1;
        } else if (strcmp(argv[i], "--hex") == 0) {
            sc.hex = 1;
            fixed_only = 1;
        } else if (strcmp(argv[i], "--format") == 0 && i + 1 < argc) {
            if (format_given++)
                return twice(argv[i], argv[i + 1]);
            format_name = argv[++i];
            fixed_only = 1;
        } else if (argv[i][0] == '-' && argv[i][1] == '-' && i + 1 < argc) {
            for (k = 0; k < sizeof format_options / sizeof format_options[0]; k++)
                if (strcmp(argv[i], format_options[k].option) == 0)
                    break;
            if (k == sizeof format_options / sizeof format_options[0]) {
                fputs("feroce-rp-trace: unexpected argument \"", stderr);
                put_escaped(argv[i]);
                fputs("\": expected the options --help lists and one SCRIPT (or -); see --help\n", stderr);
                return 2;
            }
            if (format_set[k])
                return twice(argv[i], argv[i + 1]);
            format_set[k] = argv[++i];
            fixed_only = 1;
        } else if (!path && (argv[i][0] != '-' || strcmp(argv[i], "-") == 0)) {
            path = argv[i];
        } else {
            fputs("feroce-rp-trace: unexpected argument \"", stderr);
            put_escaped(argv[i]);
            fputs("\": expected the options --help lists and one SCRIPT (or -); see --help\n", stderr);
            return 2;
        }
    }
    if (fixed_only && !sc.fixed) {
        fprintf(stderr, "feroce-rp-trace: format options and --hex need --fixed\n");
        return 2;
    }
    if (sc.fixed) {
        /* the format's names and texts now; its ranges with the rules, before the first row */
        if (feroce_rp_fixed_format_preset(&sc.fmt, format_name, &why) != FEROCE_OK) {
            char msg[512];

            feroce_check_message(&why, msg, sizeof msg);
            fprintf(stderr, "feroce-rp-trace: --format: %s\n", msg);
            return 2;
        }
        for (k = 0; k < sizeof format_options / sizeof format_options[0]; k++)
            if (format_set[k] && feroce_rp_fixed_set_format(&sc.fmt, format_options[k].field, format_set[k],
                                                            &why) != FEROCE_OK) {
                char msg[512];

                feroce_check_message(&why, msg, sizeof msg);
                fprintf(stderr, "feroce-rp-trace: %s: %s\n", format_options[k].option, msg);
                return 2;
            }
    }
    sc.file = "<stdin>";
    snprintf(sc.preset, sizeof sc.preset, "paper");
    if (path && strcmp(path, "-") != 0) {
        sc.file = path;
        in = fopen(path, "r");
        if (!in) {
            fputs("feroce-rp-trace: cannot open ", stderr);
            put_escaped(path);
            fprintf(stderr, ": %s\n", strerror(errno));
            return 2;
        }
    }
    run(&sc, in);
    if (in != stdin)
        fclose(in);
    if (sc.fixed && sc.worst_event[0])
        fprintf(stderr,
                "feroce-rp-trace: largest relative deviation of fixed Rc from double Rc: %.3e at t_ns = %lld "
                "(%s)\n",
                sc.worst_dev, (long long)sc.worst_t, sc.worst_event);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "feroce-rp-trace: write error: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}
