/*
 * feroce-cosim.c - the firmware co-simulation bench (feroce-cosim.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "feroce-cosim.h"

#include "feroce-emu-switch.h"
#include "feroce-icrc.h"
#include "feroce-rp-fixed.h"
#include "feroce-scoreboard.h"
#include "feroce-wire.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAYLOAD   4096 /* the DUT's RDMA WRITE packets: PMTU 4096 */
#define TPUT_ROWS 8    /* the measured throughput of a row: over the windows of the last 8 rows */

struct script_event {
    int64_t cycle;
    int cnp;
    uint64_t bytes;
};

struct cosim {
    int incast;
    struct feroce_rp_params rules;
    struct feroce_rp_fixed_format fmt;
    struct feroce_rp_fixed_params rp;
    struct feroce_sb_params sbp;
    struct feroce_sb_state sb;
    /* incast */
    struct feroce_emu_params emu;
    struct feroce_emu_state *sw;
    int64_t end_cycle;
    int64_t mac_free; /* first cycle the DUT's MAC may start a frame */
    uint32_t psn;
    int ack_every;
    uint8_t frame[PAYLOAD + 128];
    size_t frame_len;
    uint64_t acks;
    /* script */
    struct script_event *ev;
    size_t n_ev, next_ev;
    uint64_t tx_chunk;
    /* both: what waits for the DUT's inputs */
    uint32_t cnp_pending;
    uint64_t tx_pending;
    /* CSV */
    FILE *csv;
    char *csv_path; /* PATH.part while running */
    char *csv_final;
    int64_t sample;
    int64_t last_row;
    uint64_t window_bytes;
    uint64_t ring_bytes[TPUT_ROWS]; /* bytes of the last rows' windows, for the measured throughput */
    int64_t ring_cycles[TPUT_ROWS];
    unsigned ring_at;
    int reported;
    int error;
};

static void say(const char *fmt, ...)
{
    va_list ap;

    fputs("feroce-cosim: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static void say_check(const struct feroce_check *why)
{
    char buf[400];

    feroce_check_message(why, buf, sizeof buf);
    say("%s", buf);
}

static int parse_i64(const char *key, const char *v, int64_t lo, int64_t hi, int64_t *out)
{
    char *end;
    long long x;

    errno = 0;
    x = strtoll(v, &end, 10);
    if (errno || end == v || *end || x < lo || x > hi) {
        say("%s = %s is not allowed: expected an integer in %lld..%lld", key, v, (long long)lo,
            (long long)hi);
        return -1;
    }
    *out = x;
    return 0;
}

/* ---- scripts ------------------------------------------------------------- */

static char *trim(char *s)
{
    char *e;

    while (*s == ' ' || *s == '\t')
        s++;
    e = s + strlen(s);
    while (e > s && (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
        *--e = '\0';
    return s;
}

static int n_ev_grow(struct cosim *c, size_t *cap)
{
    struct script_event *ev;

    if (c->n_ev < *cap)
        return 0;
    *cap = *cap ? 2 * *cap : 64;
    ev = realloc(c->ev, *cap * sizeof *ev);
    if (!ev) {
        say("out of memory reading the script");
        return -1;
    }
    c->ev = ev;
    return 0;
}

/* Read preset/param lines into c->rules and the events into c->ev (ns, converted later). */
static int read_script(struct cosim *c, const char *path)
{
    FILE *f = fopen(path, "r");
    char line[512], preset[32] = "paper", *names[64], *values[64];
    size_t n_params = 0, cap = 0, i;
    long lineno = 0;
    double line_rate = 10e9;
    struct feroce_check why;
    int rc = -1;

    if (!f) {
        say("script = %s is not allowed: expected a readable file (%s)", path, strerror(errno));
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        char *s = trim(line), *hash = strchr(s, '#'), *tok[4];
        int n = 0;

        lineno++;
        if (hash)
            *hash = '\0';
        for (char *t = strtok(s, " \t"); t && n < 4; t = strtok(NULL, " \t"))
            tok[n++] = t;
        if (n == 0)
            continue;
        if (strcmp(tok[0], "preset") == 0 && n == 2) {
            snprintf(preset, sizeof preset, "%s", tok[1]);
        } else if (strcmp(tok[0], "param") == 0 && n == 3 && n_params < 64) {
            names[n_params] = strdup(tok[1]);
            values[n_params++] = strdup(tok[2]);
            if (strcmp(tok[1], "line_rate_bps") == 0)
                line_rate = strtod(tok[2], NULL);
        } else if (n >= 2 && (strcmp(tok[1], "cnp") == 0 || strcmp(tok[1], "tx") == 0 ||
                              strcmp(tok[1], "query") == 0)) {
            int64_t t, bytes = 0;

            if (parse_i64("t_ns", tok[0], 0, INT64_MAX / 1000, &t) ||
                (strcmp(tok[1], "tx") == 0 && (n != 3 || parse_i64("bytes", tok[2], 0, INT64_MAX, &bytes)))) {
                say("script %s line %ld: expected <t_ns> cnp | tx <bytes> | query", path, lineno);
                goto out;
            }
            if (n_ev_grow(c, &cap))
                goto out;
            c->ev[c->n_ev].cycle = t; /* ns for now */
            c->ev[c->n_ev].cnp = tok[1][0] == 'c';
            c->ev[c->n_ev++].bytes = (uint64_t)bytes;
        } else {
            say("script %s line %ld: '%s' is not allowed: expected preset, param or an event", path, lineno,
                tok[0]);
            goto out;
        }
    }
    if (feroce_rp_preset(&c->rules, preset, line_rate, &why) != FEROCE_OK) {
        say_check(&why);
        goto out;
    }
    for (i = 0; i < n_params; i++) {
        if (feroce_rp_set_param(&c->rules, names[i], values[i], &why) != FEROCE_OK) {
            say_check(&why);
            goto out;
        }
    }
    rc = 0;
out:
    for (i = 0; i < n_params; i++) {
        free(names[i]);
        free(values[i]);
    }
    fclose(f);
    return rc;
}

/* ---- the DUT's frames ----------------------------------------------------- */

/* An RDMA WRITE Middle of PAYLOAD bytes from the DUT (10.0.0.1) to the receiver (10.0.0.2). */
static void build_frame(struct cosim *c, int ackreq)
{
    struct feroce_roce f;
    size_t n;

    feroce_roce_init(&f, FEROCE_OP_WRITE_MIDDLE);
    memcpy(f.eth.src, "\x02\x00\x00\x00\x00\x01", 6);
    memcpy(f.eth.dst, "\x02\x00\x00\x00\x00\x02", 6);
    f.ip.src = 0x0a000001;
    f.ip.dst = 0x0a000002;
    f.bth.destqp = 0x11;
    f.bth.psn = c->psn;
    f.bth.ackreq = (uint8_t)ackreq;
    f.payload_len = PAYLOAD;
    feroce_roce_set_lengths(&f);
    n = feroce_roce_header_len(&f);
    feroce_roce_encode(&f, c->frame, sizeof c->frame);
    memset(c->frame + n, 0, PAYLOAD);
    feroce_icrc_put(c->frame + n + PAYLOAD,
                    feroce_icrc(c->frame + FEROCE_ETH_LEN, n + PAYLOAD - FEROCE_ETH_LEN));
    c->frame_len = n + PAYLOAD + FEROCE_ICRC_LEN;
}

/* ---- open ----------------------------------------------------------------- */

struct spec {
    char mode[16], script[1024], rp[32], format[32], sw[32], csv[1024];
    int64_t senders, seed, duration_ns, check_every, sample, tx_chunk, ack_every;
    char fmt_names[8][32], fmt_values[8][64];
    int n_fmt;
};

static int parse_spec(const char *text, struct spec *sp)
{
    char *copy = strdup(text ? text : ""), *save = NULL, *w;
    int rc = 0;

    memset(sp, 0, sizeof *sp);
    strcpy(sp->mode, "incast");
    strcpy(sp->rp, "connectx");
    strcpy(sp->format, "default");
    strcpy(sp->sw, "paper");
    sp->senders = 2;
    sp->seed = 1;
    sp->duration_ns = 2000000;
    sp->check_every = 1;
    sp->sample = 1024;
    sp->tx_chunk = 9000;
    sp->ack_every = 16;
    for (w = strtok_r(copy, " ,\t\n", &save); w && !rc; w = strtok_r(NULL, " ,\t\n", &save)) {
        char *eq = strchr(w, '='), *k = w, *v;

        if (!eq) {
            say("spec word = %s is not allowed: expected key=value", w);
            rc = -1;
            break;
        }
        *eq = '\0';
        v = eq + 1;
#define STR(name, field)                                                                                     \
    if (strcmp(k, name) == 0) {                                                                              \
        snprintf(sp->field, sizeof sp->field, "%s", v);                                                      \
        continue;                                                                                            \
    }
#define INT(name, field, lo, hi)                                                                             \
    if (strcmp(k, name) == 0) {                                                                              \
        rc = parse_i64(name, v, lo, hi, &sp->field);                                                         \
        continue;                                                                                            \
    }
        STR("mode", mode);
        STR("script", script);
        STR("rp", rp);
        STR("format", format);
        STR("switch", sw);
        STR("csv", csv);
        INT("senders", senders, 0, FEROCE_EMU_MAX_SENDERS);
        INT("seed", seed, 0, INT64_MAX);
        INT("duration_ns", duration_ns, 1, 1000000000000LL);
        INT("check_every", check_every, 0, INT64_MAX);
        INT("sample", sample, 1, INT64_MAX);
        INT("tx_chunk", tx_chunk, 1, 65535);
        INT("ack_every", ack_every, 0, 1000000);
#undef STR
#undef INT
        if (!strcmp(k, "clock_hz") || !strcmp(k, "rate_bits") || !strcmp(k, "rate_lsb_bps") ||
            !strcmp(k, "alpha_bits") || !strcmp(k, "rounding") || !strcmp(k, "rate_rounding") ||
            !strcmp(k, "alpha_rounding")) {
            if (sp->n_fmt == 8) {
                say("%s = %s is not allowed: expected at most 8 format options", k, v);
                rc = -1;
                break;
            }
            snprintf(sp->fmt_names[sp->n_fmt], 32, "%s", k);
            snprintf(sp->fmt_values[sp->n_fmt++], 64, "%s", v);
            continue;
        }
        say("%s is not allowed: expected mode, script, rp, format (and its fields), switch, "
            "senders, seed, "
            "duration_ns, check_every, sample, csv, tx_chunk or ack_every",
            k);
        rc = -1;
    }
    free(copy);
    if (!rc && strcmp(sp->mode, "incast") && strcmp(sp->mode, "script")) {
        say("mode = %s is not allowed: expected incast or script", sp->mode);
        rc = -1;
    }
    if (!rc && !strcmp(sp->mode, "script") && !sp->script[0]) {
        say("script = \"\" is not allowed: expected the path of a rate-limiter script "
            "(mode=script)");
        rc = -1;
    }
    return rc;
}

static int open_csv(struct cosim *c, const char *path)
{
    size_t n = strlen(path) + 6;

    c->csv_path = malloc(n);
    c->csv_final = strdup(path);
    if (!c->csv_path || !c->csv_final)
        return -1;
    snprintf(c->csv_path, n, "%s.part", path);
    c->csv = fopen(c->csv_path, "w");
    if (!c->csv) {
        say("csv = %s is not allowed: expected a writable path (%s)", path, strerror(errno));
        return -1;
    }
    fprintf(c->csv, "cycle,t_ns,dut_rc_bps,golden_rc_bps,dut_rt_bps,golden_rt_bps,dut_alpha,golden_alpha,"
                    "tx_gbps,queue_bytes,cnps,mismatches\n");
    return 0;
}

static void free_cosim(struct cosim *c)
{
    if (!c)
        return;
    if (c->csv) {
        fclose(c->csv);
        remove(c->csv_path);
    }
    free(c->csv_path);
    free(c->csv_final);
    free(c->ev);
    free(c->sw);
    free(c);
}

void *feroce_cosim_open(const char *text)
{
    struct spec sp;
    struct cosim *c;
    struct feroce_check why;
    int i;

    if (parse_spec(text, &sp))
        return NULL;
    c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->incast = !strcmp(sp.mode, "incast");
    if (c->incast) {
        if (feroce_rp_preset(&c->rules, sp.rp, 10e9, &why) != FEROCE_OK)
            goto bad;
    } else if (read_script(c, sp.script)) {
        goto fail;
    }
    if (feroce_rp_fixed_format_preset(&c->fmt, sp.format, &why) != FEROCE_OK)
        goto bad;
    for (i = 0; i < sp.n_fmt; i++)
        if (feroce_rp_fixed_set_format(&c->fmt, sp.fmt_names[i], sp.fmt_values[i], &why) != FEROCE_OK)
            goto bad;
    if (feroce_rp_fixed_build(&c->rp, &c->rules, &c->fmt, &why) != FEROCE_OK)
        goto bad;
    c->sbp.check_every = sp.check_every;
    c->sbp.compare = FEROCE_SB_ALL;
    if (feroce_sb_validate(&c->sbp, &why) != FEROCE_OK)
        goto bad;
    feroce_sb_init(&c->sb, &c->rp, 0);
    c->tx_chunk = (uint64_t)sp.tx_chunk;
    if (c->rp.byte_counter > 0 && c->tx_chunk > c->rp.byte_counter)
        c->tx_chunk = c->rp.byte_counter; /* at most one byte-counter event a cycle */
    c->sample = sp.sample;
    c->ack_every = (int)sp.ack_every;
    if (c->incast) {
        if (feroce_emu_preset(&c->emu, sp.sw, &why) != FEROCE_OK)
            goto bad;
        c->emu.senders = (uint32_t)sp.senders;
        c->emu.seed = (uint64_t)sp.seed;
        c->emu.dut_qpn = 0x11;
        c->emu.egress_rate_bps = c->rules.line_rate_bps;
        c->emu.dut_link_rate_bps = c->rules.line_rate_bps;
        if (feroce_emu_validate(&c->emu, &why) != FEROCE_OK)
            goto bad;
        c->sw = malloc(sizeof *c->sw);
        if (!c->sw)
            goto fail;
        feroce_emu_init(c->sw, &c->emu, 0);
        c->end_cycle = feroce_rp_fixed_cycle_at(&c->rp, sp.duration_ns);
    } else {
        size_t k;

        for (k = 0; k < c->n_ev; k++)
            c->ev[k].cycle = feroce_rp_fixed_cycle_at(&c->rp, c->ev[k].cycle);
        c->end_cycle = c->n_ev ? c->ev[c->n_ev - 1].cycle + 1 : 1;
    }
    if (sp.csv[0] && open_csv(c, sp.csv))
        goto fail;
    c->last_row = -1;
    return c;
bad:
    say_check(&why);
fail:
    free_cosim(c);
    return NULL;
}

/* ---- the bench, cycle by cycle --------------------------------------------- */

long long feroce_cosim_reg(void *h, const char *name)
{
    struct cosim *c = h;
    const struct feroce_rp_fixed_params *p = &c->rp;
    static const char *const names[] = { "line",
                                         "min_rate",
                                         "rai",
                                         "rhai",
                                         "first_cnp_rate",
                                         "g",
                                         "initial_alpha",
                                         "alpha_one",
                                         "alpha_period",
                                         "decrease_period",
                                         "increase_timer",
                                         "byte_counter",
                                         "F",
                                         "alpha_periodic",
                                         "hai_linear",
                                         "clamp_after_increase",
                                         "rate_nearest",
                                         "alpha_nearest",
                                         "rate_bits",
                                         "alpha_bits",
                                         "cost_per_byte" };
    long long v[] = { (long long)p->line,
                      (long long)p->min_rate,
                      (long long)p->rai,
                      (long long)p->rhai,
                      (long long)p->first_cnp_rate,
                      p->g,
                      p->initial_alpha,
                      p->alpha_one,
                      p->alpha_period,
                      p->decrease_period,
                      p->increase_timer,
                      (long long)p->byte_counter,
                      p->F,
                      p->alpha_mode == FEROCE_ALPHA_PERIODIC,
                      p->hai_mode == FEROCE_HAI_LINEAR,
                      p->clamp == FEROCE_CLAMP_AFTER_INCREASE,
                      p->fmt.rate_rounding == FEROCE_ROUND_NEAREST,
                      p->fmt.alpha_rounding == FEROCE_ROUND_NEAREST,
                      p->fmt.rate_bits,
                      p->fmt.alpha_bits,
                      llround(8.0 * (double)p->fmt.clock_hz / p->fmt.rate_lsb_bps) };
    size_t i;

    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i], name) == 0)
            return v[i];
    say("register = %s is not allowed: expected a name of feroce_cosim_reg()", name);
    c->error = 1;
    return -1;
}

int feroce_cosim_cnp(void *h, long long cycle)
{
    struct cosim *c = h;

    if (c->incast) {
        struct feroce_emu_output o;
        /* every answer whose first bit has arrived when this cycle starts */
        int64_t until = feroce_rp_fixed_ns_at(&c->rp, cycle);

        while (feroce_emu_poll(c->sw, &c->emu, until, &o)) {
            struct feroce_roce f;

            if (feroce_roce_decode(&f, o.frame, o.len, o.len, NULL) != FEROCE_WIRE_OK ||
                feroce_icrc_check(o.frame, o.len, NULL, NULL) != 1 || f.bth.destqp != c->emu.dut_qpn) {
                say("the switch answered with a frame the DUT's receive path would drop (cycle "
                    "%lld)",
                    cycle);
                c->error = 1;
                continue;
            }
            if (f.bth.opcode == FEROCE_OP_CNP)
                c->cnp_pending++;
            else
                c->acks++;
        }
    } else {
        while (c->next_ev < c->n_ev && c->ev[c->next_ev].cycle <= cycle) {
            const struct script_event *e = &c->ev[c->next_ev++];

            if (e->cnp)
                c->cnp_pending++;
            c->tx_pending += e->bytes;
        }
    }
    if (!c->cnp_pending)
        return 0;
    c->cnp_pending--;
    if (feroce_sb_cnp(&c->sb, &c->rp, cycle) != FEROCE_OK) {
        say("cnp: cycle = %lld is not allowed: expected >= %lld", cycle, (long long)c->sb.golden.now);
        c->error = 1;
    }
    return 1;
}

long long feroce_cosim_tx(void *h, long long cycle, int dut_ready)
{
    struct cosim *c = h;
    uint64_t bytes = 0;
    struct feroce_check why;

    if (c->incast) {
        if (!dut_ready || cycle < c->mac_free)
            return 0;
        build_frame(c, c->ack_every > 0 && (c->psn + 1) % (uint32_t)c->ack_every == 0);
        c->psn = (c->psn + 1) & FEROCE_PSN_MASK;
        if (feroce_emu_dut_frame(c->sw, &c->emu, feroce_rp_fixed_ns_at(&c->rp, cycle), c->frame, c->frame_len,
                                 &why) != FEROCE_OK) {
            say_check(&why);
            c->error = 1;
            return 0;
        }
        /* the MAC's 64-bit datapath: 8 bytes a cycle, with preamble, FCS and gap */
        c->mac_free = cycle + (int64_t)((feroce_wire_bytes(c->frame_len) * 8 * c->rp.fmt.clock_hz +
                                         (uint64_t)c->rules.line_rate_bps - 1) /
                                        (uint64_t)c->rules.line_rate_bps);
        bytes = c->frame_len;
    } else {
        bytes = c->tx_pending < c->tx_chunk ? c->tx_pending : c->tx_chunk;
        c->tx_pending -= bytes;
    }
    if (bytes && feroce_sb_tx(&c->sb, &c->rp, cycle, bytes) != FEROCE_OK) {
        say("tx: cycle = %lld is not allowed: expected >= %lld", cycle, (long long)c->sb.golden.now);
        c->error = 1;
    }
    c->window_bytes += bytes;
    return (long long)bytes;
}

int feroce_cosim_check(void *h, long long cycle, long long rc, long long rt, long long alpha)
{
    struct cosim *c = h;
    struct feroce_sb_regs d = { (uint64_t)rc, (uint64_t)rt, (uint32_t)alpha };
    int r = feroce_sb_check(&c->sb, &c->rp, &c->sbp, cycle, &d);

    if (r == -2) {
        say("check: cycle = %lld is not allowed: expected >= %lld", cycle, (long long)c->sb.golden.now);
        c->error = 1;
        return 1;
    }
    if (c->csv && (c->last_row < 0 || cycle - c->last_row >= c->sample)) {
        struct feroce_sb_regs g = feroce_sb_golden(&c->sb);
        uint64_t bytes = 0;
        int64_t cycles = 0;
        double secs;
        unsigned i;

        c->ring_bytes[c->ring_at] = c->window_bytes;
        c->ring_cycles[c->ring_at] = c->last_row < 0 ? 0 : cycle - c->last_row;
        c->ring_at = (c->ring_at + 1) % TPUT_ROWS;
        for (i = 0; i < TPUT_ROWS; i++) {
            bytes += c->ring_bytes[i];
            cycles += c->ring_cycles[i];
        }
        secs = (double)cycles / (double)c->rp.fmt.clock_hz;

        fprintf(c->csv, "%lld,%lld,%.3f,%.3f,%.3f,%.3f,%.9f,%.9f,%.6f,%llu,%llu,%llu\n", cycle,
                (long long)feroce_rp_fixed_ns_at(&c->rp, cycle), feroce_rp_fixed_bps(&c->rp, d.rc),
                feroce_rp_fixed_bps(&c->rp, g.rc), feroce_rp_fixed_bps(&c->rp, d.rt),
                feroce_rp_fixed_bps(&c->rp, g.rt), feroce_rp_fixed_alpha_value(&c->rp, d.alpha),
                feroce_rp_fixed_alpha_value(&c->rp, g.alpha), secs > 0 ? (double)bytes * 8 / secs / 1e9 : 0,
                c->incast ? (unsigned long long)feroce_emu_queue_bytes(c->sw) : 0ULL,
                (unsigned long long)c->sb.cnps, (unsigned long long)c->sb.mismatches);
        c->last_row = cycle;
        c->window_bytes = 0;
    }
    if (r == -1 && !c->reported) {
        char buf[400];

        feroce_sb_message(&c->sb, &c->rp, buf, sizeof buf);
        say("%s", buf);
        c->reported = 1;
        return 1;
    }
    return 0;
}

int feroce_cosim_done(void *h, long long cycle)
{
    struct cosim *c = h;

    if (c->error)
        return 1;
    if (c->incast)
        return cycle >= c->end_cycle;
    return c->next_ev >= c->n_ev && c->cnp_pending == 0 && c->tx_pending == 0 && cycle >= c->end_cycle;
}

int feroce_cosim_close(void *h)
{
    struct cosim *c = h;
    char buf[400];
    int fails;

    if (!c)
        return -1;
    feroce_sb_message(&c->sb, &c->rp, buf, sizeof buf);
    fails = (int)(c->sb.mismatches > 0x7fffffff ? 0x7fffffff : c->sb.mismatches);
    if (c->error && !fails)
        fails = -1;
    printf("feroce-cosim: %s: %s; %llu CNPs, %llu bytes", fails ? "FAIL" : "PASS", buf,
           (unsigned long long)c->sb.cnps, (unsigned long long)c->sb.tx_bytes);
    if (c->incast) {
        const struct feroce_emu_stats *st = &c->sw->stats;
        uint64_t total = st->dut_bytes;
        uint32_t i;

        for (i = 0; i < c->emu.senders; i++)
            total += st->sender_bytes[i];
        printf("; DUT share %.3f of %llu bytes delivered, %llu ACKs, queue max %llu B",
               total ? (double)st->dut_bytes / (double)total : 0.0, (unsigned long long)total,
               (unsigned long long)c->acks, (unsigned long long)st->queue_max_bytes);
    }
    printf("\n");
    fflush(stdout);
    if (c->csv) {
        int bad = fclose(c->csv) != 0;

        c->csv = NULL;
        if (bad || rename(c->csv_path, c->csv_final) != 0) {
            say("csv = %s could not be written (%s)", c->csv_final, strerror(errno));
            remove(c->csv_path);
            fails = fails ? fails : -1;
        } else {
            printf("feroce-cosim: wrote %s\n", c->csv_final);
        }
    }
    free_cosim(c);
    return fails;
}

void feroce_cosim_exit(int status)
{
    fflush(stdout);
    fflush(stderr);
    exit(status);
}
