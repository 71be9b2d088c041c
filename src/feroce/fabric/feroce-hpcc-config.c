/*
 * feroce-hpcc-config.c - the HPCC simulator's configuration keys (feroce-hpcc-config.h).
 *
 * Units as the peer's scratch/third.cc applies them: times of the DCQCN timers in us,
 * SIMULATOR_STOP_TIME in s, rates as ns-3 DataRate strings, KMIN_MAP/KMAX_MAP in KB of 1000 B,
 * BUFFER_SIZE in MB of 2^20 B, L2_ACK_INTERVAL and L2_CHUNK_SIZE in bytes.
 */
#define _POSIX_C_SOURCE 200809L

#include "feroce-hpcc-config.h"

#include "feroce-fabric-util.h"
#include "feroce-text.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum kind {
    K_TOPOLOGY,
    K_FLOWS,
    K_OUTPUT,      /* an output path: feroce writes into --outdir */
    K_QUIET,       /* used by the peer only when another key enables it (TRACE_FILE ...) */
    K_STOP,        /* s */
    K_CC_MODE,     /* 1 only */
    K_ATTR_US,     /* a DCQCN timer, us */
    K_ATTR_NUMBER, /* a number, as written */
    K_ATTR_RATE,   /* a DataRate string */
    K_CLAMP,
    K_ECN,
    K_DYNAMIC_PFC,
    K_PAYLOAD,
    K_ERROR_RATE,
    K_CHUNK,
    K_ACK_INTERVAL,
    K_BACK_TO_ZERO,
    K_HAS_WIN,
    K_GLOBAL_T,
    K_VAR_WIN,
    K_NOT_DCQCN, /* HPCC, TIMELY, DCTCP or PINT only: no meaning with CC_MODE 1, in the peer too */
    K_RATE_BOUND,
    K_ACK_HIGH_PRIO,
    K_LINK_DOWN,
    K_TRACE,
    K_MAP_KB,
    K_MAP_P,
    K_BUFFER_MB,
    K_QLEN,
    K_UNUSED /* parsed by the peer, used nowhere */
};

struct key {
    const char *name;
    enum kind kind;
    const char *attr; /* K_ATTR_*: the attribute */
};

static const struct key keys[] = {
    { "ENABLE_QCN", K_ECN, "ns3::FeroceSwitch::EcnEnabled" },
    { "USE_DYNAMIC_PFC_THRESHOLD", K_DYNAMIC_PFC, "ns3::FeroceSwitch::PfcMode" },
    { "PACKET_PAYLOAD_SIZE", K_PAYLOAD, "ns3::RoceQueuePair::Pmtu" },
    { "TOPOLOGY_FILE", K_TOPOLOGY, NULL },
    { "FLOW_FILE", K_FLOWS, NULL },
    { "TRACE_FILE", K_QUIET, NULL },
    { "TRACE_OUTPUT_FILE", K_QUIET, NULL },
    { "FCT_OUTPUT_FILE", K_OUTPUT, "fct.txt" },
    { "PFC_OUTPUT_FILE", K_OUTPUT, "pfc.txt" },
    { "SIMULATOR_STOP_TIME", K_STOP, NULL },
    { "CC_MODE", K_CC_MODE, NULL },
    { "ALPHA_RESUME_INTERVAL", K_ATTR_US, "ns3::DcqcnReactionPoint::AlphaPeriod" },
    { "RATE_DECREASE_INTERVAL", K_ATTR_US, "ns3::DcqcnReactionPoint::DecreasePeriod" },
    { "CLAMP_TARGET_RATE", K_CLAMP, "ns3::DcqcnReactionPoint::Clamp" },
    { "RP_TIMER", K_ATTR_US, "ns3::DcqcnReactionPoint::IncreaseTimer" },
    { "EWMA_GAIN", K_ATTR_NUMBER, "ns3::DcqcnReactionPoint::G" },
    { "FAST_RECOVERY_TIMES", K_ATTR_NUMBER, "ns3::DcqcnReactionPoint::FastRecoveryStages" },
    { "RATE_AI", K_ATTR_RATE, "ns3::DcqcnReactionPoint::RateAi" },
    { "RATE_HAI", K_ATTR_RATE, "ns3::DcqcnReactionPoint::RateHai" },
    { "MIN_RATE", K_ATTR_RATE, "ns3::DcqcnReactionPoint::MinRate" },
    { "DCTCP_RATE_AI", K_NOT_DCQCN, NULL },
    { "ERROR_RATE_PER_LINK", K_ERROR_RATE, NULL },
    { "L2_CHUNK_SIZE", K_CHUNK, NULL },
    { "L2_ACK_INTERVAL", K_ACK_INTERVAL, "ns3::RoceQueuePair::AckInterval" },
    { "L2_BACK_TO_ZERO", K_BACK_TO_ZERO, NULL },
    { "HAS_WIN", K_HAS_WIN, NULL },
    { "GLOBAL_T", K_GLOBAL_T, NULL },
    { "VAR_WIN", K_VAR_WIN, NULL },
    { "FAST_REACT", K_NOT_DCQCN, NULL },
    { "U_TARGET", K_NOT_DCQCN, NULL },
    { "MI_THRESH", K_NOT_DCQCN, NULL },
    { "INT_MULTI", K_NOT_DCQCN, NULL },
    { "MULTI_RATE", K_NOT_DCQCN, NULL },
    { "SAMPLE_FEEDBACK", K_NOT_DCQCN, NULL },
    { "PINT_LOG_BASE", K_NOT_DCQCN, NULL },
    { "PINT_PROB", K_NOT_DCQCN, NULL },
    { "RATE_BOUND", K_RATE_BOUND, NULL },
    { "ACK_HIGH_PRIO", K_ACK_HIGH_PRIO, NULL },
    { "LINK_DOWN", K_LINK_DOWN, NULL },
    { "ENABLE_TRACE", K_TRACE, NULL },
    { "KMAX_MAP", K_MAP_KB, NULL },
    { "KMIN_MAP", K_MAP_KB, NULL },
    { "PMAX_MAP", K_MAP_P, NULL },
    { "BUFFER_SIZE", K_BUFFER_MB, "ns3::FeroceSwitch::BufferSize" },
    { "QLEN_MON_FILE", K_QLEN, NULL },
    { "QLEN_MON_START", K_QLEN, NULL },
    { "QLEN_MON_END", K_QLEN, NULL },
    { "PAUSE_TIME", K_UNUSED,
      "feroce's PAUSE frames carry ns3::FeroceSwitch::PauseQuanta and are refreshed" },
    { "DATA_RATE", K_UNUSED, "the HPCC simulator reads and ignores it; the topology gives the rates" },
    { "LINK_DELAY", K_UNUSED, "the HPCC simulator reads and ignores it; the topology gives the delays" },
};

void feroce_hpcc_config_free(struct feroce_hpcc_config *c)
{
    free(c->path);
    free(c->topology);
    free(c->flows);
    for (size_t i = 0; i < c->n_settings; i++) {
        free(c->settings[i].key);
        free(c->settings[i].value);
    }
    free(c->settings);
    for (size_t i = 0; i < c->n_warnings; i++)
        free(c->warnings[i]);
    free(c->warnings);
    memset(c, 0, sizeof *c);
}

int feroce_rate_map_get(const struct feroce_rate_map *m, uint64_t rate_bps, double *value)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->rate_bps[i] == rate_bps) {
            *value = m->value[i];
            return 1;
        }
    return 0;
}

static void set(struct feroce_hpcc_config *c, const char *attr, const char *value, int line)
{
    c->settings = feroce_xrealloc(c->settings, (c->n_settings + 1) * sizeof *c->settings);
    c->settings[c->n_settings++] =
        (struct feroce_setting){ feroce_xstrdup(attr), feroce_xstrdup(value), line };
}

static void warn(struct feroce_hpcc_config *c, int line, const char *fmt, ...)
{
    char msg[512], full[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(full, sizeof full, "%s:%d: %s", c->path, line, msg);
    c->warnings = feroce_xrealloc(c->warnings, (c->n_warnings + 1) * sizeof *c->warnings);
    c->warnings[c->n_warnings++] = feroce_xstrdup(full);
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* the file as the peer runs (current folder), beside the config, or from the config's parent */
static char *resolve(const char *config, const char *name)
{
    if (name[0] == '/' || exists(name))
        return feroce_xstrdup(name);
    const char *slash = strrchr(config, '/');
    size_t len = slash ? (size_t)(slash - config) : 0; /* the config's folder: config[0, len) */
    for (int up = 0; up < 2 && len > 0; up++) {
        char *p = feroce_xmalloc(len + strlen(name) + 2);
        sprintf(p, "%.*s/%s", (int)len, config, name);
        if (exists(p))
            return p;
        free(p);
        while (len > 0 && config[len - 1] != '/')
            len--; /* up one folder */
        if (len > 0)
            len--;
    }
    return feroce_xstrdup(name); /* not found: its reader says so, naming it */
}

/* one value that must be a number in [lo, hi] (whole when whole is set) */
static int number(struct feroce_text *tx, const char *key, double lo, double hi, int whole, double *v,
                  char *err, size_t errlen)
{
    if (tx->n_words != 2)
        return feroce_text_fail(err, errlen, tx->path, tx->line, "%s: expected one value, found %zu", key,
                                tx->n_words - 1);
    const char *why = feroce_parse_double(tx->words[1], v);
    if (!why && (*v < lo || *v > hi))
        why = "is out of range";
    if (!why && whole && *v != floor(*v))
        why = "is not a whole number";
    if (why)
        return feroce_text_fail(err, errlen, tx->path, tx->line, "%s %s %s: expected %s%g..%g", key,
                                tx->words[1], why, whole ? "a whole number " : "", lo, hi);
    return 0;
}

static int read_map(struct feroce_text *tx, const char *key, int kb, struct feroce_rate_map *m, char *err,
                    size_t errlen)
{
    uint64_t n;
    if (tx->n_words < 2 || feroce_parse_u64(tx->words[1], &n) || n < 1 || n > 16 || tx->n_words != 2 + 2 * n)
        return feroce_text_fail(err, errlen, tx->path, tx->line,
                                "%s: expected N RATE_BPS VALUE ... (N pairs, 1 <= N <= 16)", key);
    m->n = (size_t)n;
    m->line = tx->line;
    for (size_t i = 0; i < n; i++) {
        const char *r = tx->words[2 + 2 * i], *v = tx->words[3 + 2 * i];
        uint64_t rate;
        double value;
        if (feroce_parse_u64(r, &rate) || rate == 0)
            return feroce_text_fail(err, errlen, tx->path, tx->line,
                                    "%s: rate %s: expected bit/s, a whole number > 0", key, r);
        for (size_t k = 0; k < i; k++)
            if (m->rate_bps[k] == rate)
                return feroce_text_fail(err, errlen, tx->path, tx->line, "%s: rate %s is given twice", key,
                                        r);
        const char *why = feroce_parse_double(v, &value);
        if (!why && (value < 0 || (!kb && value > 1)))
            why = "is out of range";
        if (why)
            return feroce_text_fail(err, errlen, tx->path, tx->line, "%s: value %s %s: expected %s", key, v,
                                    why, kb ? "KB >= 0" : "0..1");
        m->rate_bps[i] = rate;
        m->value[i] = kb ? value * 1000 : value;
    }
    return 0;
}

static int one_key(struct feroce_text *tx, const struct key *k, struct feroce_hpcc_config *c, char *err,
                   size_t errlen)
{
    const char *name = k->name, *v1 = tx->n_words > 1 ? tx->words[1] : "";
    char buf[64];
    double v;
    switch (k->kind) {
    case K_TOPOLOGY:
    case K_FLOWS:
    case K_OUTPUT:
    case K_QUIET:
        if (tx->n_words != 2)
            return feroce_text_fail(err, errlen, tx->path, tx->line, "%s: expected one file name", name);
        if (k->kind == K_TOPOLOGY) {
            c->topology = resolve(c->path, v1);
            c->topology_line = tx->line;
        } else if (k->kind == K_FLOWS) {
            c->flows = resolve(c->path, v1);
            c->flows_line = tx->line;
        } else if (k->kind == K_OUTPUT) {
            warn(c, tx->line, "%s %s is not used: feroce writes %s into --outdir", name, v1, k->attr);
        }
        return 0;
    case K_STOP:
        if (number(tx, name, 0, 1e6, 0, &v, err, errlen))
            return -1;
        c->stop_ns = (int64_t)nearbyint(v * 1e9);
        c->stop_line = tx->line;
        return 0;
    case K_CC_MODE:
        if (number(tx, name, 0, 1e9, 1, &v, err, errlen))
            return -1;
        if (v != 1)
            return feroce_text_fail(
                err, errlen, tx->path, tx->line,
                "CC_MODE %s is not allowed: feroce models DCQCN only: expected 1 (%s is %s)", v1, v1,
                v == 3    ? "HPCC"
                : v == 7  ? "TIMELY"
                : v == 8  ? "DCTCP"
                : v == 10 ? "HPCC-PINT"
                          : "not a mode of the HPCC simulator");
        return 0;
    case K_ATTR_US:
        if (number(tx, name, 0, 1e9, 0, &v, err, errlen))
            return -1;
        if (v * 1000 != floor(v * 1000))
            return feroce_text_fail(err, errlen, tx->path, tx->line, "%s %s is not a whole number of ns",
                                    name, v1);
        snprintf(buf, sizeof buf, "%.0fns", v * 1000);
        set(c, k->attr, buf, tx->line);
        if (strcmp(name, "ALPHA_RESUME_INTERVAL") == 0)
            set(c, "ns3::DcqcnReactionPoint::AlphaMode", "periodic", tx->line); /* the peer's alpha timer */
        return 0;
    case K_ATTR_NUMBER:
        if (number(tx, name, 0, 1e9, 0, &v, err, errlen))
            return -1;
        set(c, k->attr, v1, tx->line);
        return 0;
    case K_ATTR_RATE: {
        uint64_t bps;
        const char *why = tx->n_words == 2 ? feroce_parse_rate(v1, &bps) : "expected one value";
        if (why)
            return feroce_text_fail(err, errlen, tx->path, tx->line, "%s %s %s", name, v1, why);
        snprintf(buf, sizeof buf, "%llubps", (unsigned long long)bps);
        set(c, k->attr, buf, tx->line);
        return 0;
    }
    case K_CLAMP:
        if (number(tx, name, 0, 1, 1, &v, err, errlen))
            return -1;
        set(c, k->attr, v == 1 ? "always" : "after_increase", tx->line);
        return 0;
    case K_ECN:
        if (number(tx, name, 0, 1, 1, &v, err, errlen))
            return -1;
        set(c, k->attr, v == 1 ? "true" : "false", tx->line);
        return 0;
    case K_DYNAMIC_PFC:
        if (number(tx, name, 0, 1, 1, &v, err, errlen))
            return -1;
        if (v == 0)
            warn(c, tx->line,
                 "USE_DYNAMIC_PFC_THRESHOLD 0: the HPCC simulator's switch is dynamic whatever it says; "
                 "feroce's is dynamic too");
        set(c, k->attr, "dynamic", tx->line);
        return 0;
    case K_PAYLOAD: {
        if (number(tx, name, 1, 4096, 1, &v, err, errlen))
            return -1;
        unsigned mtu = 256;
        while (mtu < v)
            mtu *= 2;
        c->payload = (uint32_t)v;
        snprintf(buf, sizeof buf, "%u", mtu);
        if (mtu != v)
            warn(c, tx->line,
                 "PACKET_PAYLOAD_SIZE %s: feroce's queue pairs use an InfiniBand path MTU: Pmtu = %u bytes",
                 v1, mtu);
        set(c, k->attr, buf, tx->line);
        return 0;
    }
    case K_ERROR_RATE:
        if (number(tx, name, 0, 0.999999, 0, &v, err, errlen))
            return -1;
        c->error_rate = v;
        return 0;
    case K_CHUNK:
        return number(tx, name, 0, 4294967295.0, 1, &v, err, errlen); /* checked with the ACK interval */
    case K_ACK_INTERVAL:
        if (number(tx, name, 1, 4294967295.0, 1, &v, err, errlen))
            return -1;
        /* bytes between ACKs; 1: every packet.  feroce counts packets: checked at the end */
        snprintf(buf, sizeof buf, "%.0f", v);
        set(c, k->attr, buf, tx->line);
        return 0;
    case K_BACK_TO_ZERO:
        if (number(tx, name, 0, 1, 1, &v, err, errlen))
            return -1;
        if (v != 0)
            return feroce_text_fail(
                err, errlen, tx->path, tx->line,
                "L2_BACK_TO_ZERO 1 is not allowed: feroce's queue pairs go back to the NAKed PSN "
                "(go-back-N): expected 0");
        return 0;
    case K_HAS_WIN:
        if (number(tx, name, 0, 1, 1, &v, err, errlen))
            return -1;
        c->has_window = v == 1;
        c->window_line = tx->line;
        return 0;
    case K_GLOBAL_T:
    case K_VAR_WIN:
        return number(tx, name, 0, 1, 1, &v, err, errlen); /* checked with HAS_WIN at the end */
    case K_NOT_DCQCN: {
        uint64_t bps;
        if (tx->n_words != 2 || (feroce_parse_double(v1, &v) && feroce_parse_rate(v1, &bps)))
            return feroce_text_fail(err, errlen, tx->path, tx->line, "%s: expected one number or rate", name);
        return 0;
    }
    case K_RATE_BOUND:
        if (number(tx, name, 0, 1, 1, &v, err, errlen))
            return -1;
        if (v != 1)
            return feroce_text_fail(
                err, errlen, tx->path, tx->line,
                "RATE_BOUND 0 is not allowed: feroce's queue pairs are always paced at their "
                "DCQCN rate: expected 1");
        return 0;
    case K_ACK_HIGH_PRIO:
        if (number(tx, name, 0, 1, 1, &v, err, errlen))
            return -1;
        if (v == 1)
            warn(c, tx->line,
                 "ACK_HIGH_PRIO 1: feroce's NIC pauses ACKs with their data's priority (the peer's 0); its "
                 "switches send ACKs first (the peer queues them with the data)");
        return 0;
    case K_LINK_DOWN: {
        uint64_t t, a, b;
        if (tx->n_words != 4 || feroce_parse_u64(tx->words[1], &t) || feroce_parse_u64(tx->words[2], &a) ||
            feroce_parse_u64(tx->words[3], &b) || a > UINT32_MAX || b > UINT32_MAX || t > 1000000000000ULL)
            return feroce_text_fail(err, errlen, tx->path, tx->line,
                                    "LINK_DOWN: expected T_US A B (whole numbers; 0 0 0: none)");
        if (!t && (a || b))
            return feroce_text_fail(
                err, errlen, tx->path, tx->line,
                "LINK_DOWN 0 %llu %llu: the peer takes no link down at 0 us: expected T_US > 0, "
                "or 0 0 0 (none)",
                (unsigned long long)a, (unsigned long long)b);
        if (t) {
            /* the peer adds its 2 s start to the time (third.cc) */
            c->link_down_ns = 2000000000LL + (int64_t)t * 1000;
            c->link_down_a = (uint32_t)a;
            c->link_down_b = (uint32_t)b;
            c->link_down_line = tx->line;
        }
        return 0;
    }
    case K_TRACE:
        if (number(tx, name, 0, 1, 1, &v, err, errlen))
            return -1;
        if (v != 0)
            return feroce_text_fail(
                err, errlen, tx->path, tx->line,
                "ENABLE_TRACE 1 is not allowed: feroce's packet trace is pcap (--pcap=1): "
                "expected 0");
        return 0;
    case K_MAP_KB:
        return read_map(tx, name, 1, strcmp(name, "KMIN_MAP") == 0 ? &c->kmin : &c->kmax, err, errlen);
    case K_MAP_P:
        return read_map(tx, name, 0, &c->pmax, err, errlen);
    case K_BUFFER_MB:
        if (number(tx, name, 0, 1e6, 0, &v, err, errlen))
            return -1;
        snprintf(buf, sizeof buf, "%.0f", floor(v * 1048576));
        set(c, k->attr, buf, tx->line);
        return 0;
    case K_QLEN:
        return tx->n_words == 2
                   ? 0
                   : feroce_text_fail(err, errlen, tx->path, tx->line, "%s: expected one value", name);
    case K_UNUSED:
        return feroce_text_fail(err, errlen, tx->path, tx->line, "%s is not allowed: %s", name, k->attr);
    }
    return 0;
}

int feroce_hpcc_config_read(const char *path, struct feroce_hpcc_config *c, char *err, size_t errlen)
{
    struct feroce_text tx;
    memset(c, 0, sizeof *c);
    c->path = feroce_xstrdup(path);
    c->stop_ns = -1;
    if (feroce_text_open(&tx, path, err, errlen) != 0) {
        feroce_hpcc_config_free(c);
        return -1;
    }
    enum { N_KEYS = sizeof keys / sizeof keys[0] };
    int seen[N_KEYS] = { 0 };
    double values[N_KEYS] = { 0 };
    int rc;
    while ((rc = feroce_text_next(&tx, err, errlen)) > 0) {
        size_t i = 0;
        while (i < N_KEYS && strcmp(keys[i].name, tx.words[0]) != 0)
            i++;
        if (i == N_KEYS) {
            rc = feroce_text_fail(
                err, errlen, path, tx.line,
                "%s is not a key of the HPCC simulator's configuration (its mix/config_doc.txt)",
                tx.words[0]);
            break;
        }
        if (seen[i]) {
            rc = feroce_text_fail(err, errlen, path, tx.line, "%s is given twice (line %d)", keys[i].name,
                                  seen[i]);
            break;
        }
        seen[i] = tx.line;
        if (tx.n_words == 2)
            feroce_parse_double(tx.words[1], &values[i]);
        if ((rc = one_key(&tx, &keys[i], c, err, errlen)) < 0)
            break;
    }
    feroce_text_close(&tx);
    /* the keys that go together */
    double ack = 1, chunk = 0, global_t = 1, var_win = 0, qlen_start = 0, qlen_end = 0;
    int ack_line = 0, chunk_line = 0, qlen_line = 0;
    for (int i = 0; i < N_KEYS && rc >= 0; i++) {
        const char *name = keys[i].name;
        if (!seen[i])
            continue;
        if (strcmp(name, "L2_ACK_INTERVAL") == 0)
            ack = values[i], ack_line = seen[i];
        else if (strcmp(name, "L2_CHUNK_SIZE") == 0)
            chunk = values[i], chunk_line = seen[i];
        else if (strcmp(name, "GLOBAL_T") == 0)
            global_t = values[i];
        else if (strcmp(name, "VAR_WIN") == 0)
            var_win = values[i];
        else if (strcmp(name, "QLEN_MON_START") == 0)
            qlen_start = values[i];
        else if (strcmp(name, "QLEN_MON_END") == 0)
            qlen_end = values[i], qlen_line = seen[i];
    }
    if (rc >= 0) {
        uint32_t payload = c->payload ? c->payload : 1000;
        if (ack > 1 && ack < payload)
            ack = 1;
        if (ack > 1 && fmod(ack, payload) != 0)
            rc = feroce_text_fail(
                err, errlen, path, ack_line,
                "L2_ACK_INTERVAL %.0f is not allowed: feroce acknowledges every N packets: expected "
                "1 or a multiple of PACKET_PAYLOAD_SIZE (%u)",
                ack, payload);
        else if (chunk > 0 && ack > 1 && fmod(chunk, ack) != 0)
            rc = feroce_text_fail(
                err, errlen, path, chunk_line,
                "L2_CHUNK_SIZE %.0f is not allowed with L2_ACK_INTERVAL %.0f: an ACK at each "
                "chunk end needs chunks of whole ACK intervals",
                chunk, ack);
        else if (c->has_window && (global_t != 1 || var_win != 0))
            rc = feroce_text_fail(
                err, errlen, path, c->window_line,
                "HAS_WIN 1 is allowed only with GLOBAL_T 1 and VAR_WIN 0: feroce's window is "
                "one fixed size for every queue pair");
        for (size_t i = 0; i < c->n_settings && rc >= 0; i++)
            if (strcmp(c->settings[i].key, "ns3::RoceQueuePair::AckInterval") == 0) {
                char buf[32];
                snprintf(buf, sizeof buf, "%.0f", ack > 1 ? ack / payload : 1);
                free(c->settings[i].value);
                c->settings[i].value = feroce_xstrdup(buf);
            }
        if (rc >= 0 && qlen_end > qlen_start)
            warn(c, qlen_line,
                 "QLEN_MON_START..QLEN_MON_END: feroce writes no queue-length histogram (its series.csv has "
                 "the "
                 "queues)");
    }
    if (rc < 0) {
        feroce_hpcc_config_free(c);
        return -1;
    }
    return 0;
}
