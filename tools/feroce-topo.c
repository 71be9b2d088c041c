/*
 * feroce-topo - fabrics as files: generate a fat-tree, a leaf-spine, the AdvCam camera or its
 * bench; check a topology (and a flow or CDF file over it); convert between feroce's format and
 * the HPCC simulator's.  Formats and rules: src/feroce/doc/fabric.md.
 *
 *   feroce-topo fat-tree --k=4 --host-rate=25Gbps --format=hpcc > fat_k4.txt
 *   feroce-topo camera --boards=150 --boards-per-leaf=24 -o camera.topo
 *   feroce-topo check fat_k4.txt --flows=flows.txt --cdf=WebSearch.txt
 *
 * A bad argument or file is one line on stderr and exit status 2, and nothing is written.
 */
#define _POSIX_C_SOURCE 200809L

#include "feroce-topo.h"
#include "feroce-cdf.h"
#include "feroce-fct.h"
#include "feroce-flows.h"
#include "feroce-text.h"
#include "feroce-topo-gen.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
    "usage: feroce-topo COMMAND [--option=value...]\n"
    "  fat-tree   --k=4 --tiers=3 --oversub=1 --host-rate=25Gbps --fabric-rate=RATE --delay=1us\n"
    "  leaf-spine --leaves=4 --spines=2 --hosts-per-leaf=8 --host-rate=25Gbps --uplink-rate=100Gbps "
    "--delay=1us\n"
    "  camera     --boards=150 --boards-per-leaf=24 --aggs=1 --receivers=4 --board-rate=10Gbps\n"
    "             --uplink-rate=100Gbps --receiver-rate=100Gbps --delay=1us\n"
    "  bench      --senders=3 --rate=10Gbps --delay=1us\n"
    "    each with --format=feroce|hpcc (default feroce) and -o FILE (default: standard output)\n"
    "  check FILE [--flows=FILE] [--cdf=FILE]   read and check; print what is in them\n"
    "  convert FILE --format=feroce|hpcc [-o FILE]\n"
    "  fct-bins FCT_TXT [--step=5]   slowdown bins (fct-bins.csv) of an fct.txt, feroce's or the\n"
    "                                HPCC simulator's: dport 200 incast, others background\n"
    "Formats: src/feroce/doc/fabric.md.\n";

/* one line, exit 2 */
static void die(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2), noreturn))
#endif
    ;

#include <stdarg.h>

static void die(const char *fmt, ...)
{
    va_list ap;
    fputs("feroce-topo: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(2);
}

struct option {
    const char *name;
    const char *value; /* default, then what was given */
    int given;
};

static struct option *find(struct option *opts, const char *name, size_t len)
{
    for (struct option *o = opts; o->name; o++)
        if (strlen(o->name) == len && strncmp(o->name, name, len) == 0)
            return o;
    return NULL;
}

/* --name=value into opts (each at most once); -o FILE; the remaining words into rest */
static void parse(int argc, char **argv, struct option *opts, const char **out, const char **rest,
                  int max_rest)
{
    int n_rest = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-o") == 0) {
            if (i + 1 == argc)
                die("-o needs a file name");
            *out = argv[++i];
        } else if (strncmp(a, "--", 2) == 0) {
            const char *eq = strchr(a, '=');
            if (!eq)
                die("%s is not allowed: expected --name=value", a);
            struct option *o = find(opts, a + 2, (size_t)(eq - a - 2));
            if (!o)
                die("%.*s is not an option of this command: expected one of those feroce-topo --help lists",
                    (int)(eq - a), a);
            if (o->given)
                die("%.*s is given twice", (int)(eq - a), a);
            o->value = eq + 1;
            o->given = 1;
        } else if (n_rest < max_rest) {
            rest[n_rest++] = a;
        } else {
            die("%s is not allowed here: expected --name=value", a);
        }
    }
}

static const char *get(struct option *opts, const char *name)
{
    return find(opts, name, strlen(name))->value;
}

static unsigned get_count(struct option *opts, const char *name)
{
    uint64_t v;
    const char *text = get(opts, name), *why = feroce_parse_u64(text, &v);
    if (why || v > 1000000)
        die("--%s=%s %s: expected a whole number 0..1000000", name, text, why ? why : "is out of range");
    return (unsigned)v;
}

static uint64_t get_rate(struct option *opts, const char *name)
{
    uint64_t v;
    const char *text = get(opts, name), *why = feroce_parse_rate(text, &v);
    if (why)
        die("--%s=%s %s", name, text, why);
    return v;
}

static int64_t get_time(struct option *opts, const char *name)
{
    int64_t v;
    const char *text = get(opts, name), *why = feroce_parse_time(text, &v);
    if (why)
        die("--%s=%s %s", name, text, why);
    return v;
}

static enum feroce_topo_format get_format(struct option *opts)
{
    const char *f = get(opts, "format");
    if (strcmp(f, "feroce") == 0)
        return FEROCE_TOPO_FEROCE;
    if (strcmp(f, "hpcc") == 0)
        return FEROCE_TOPO_HPCC;
    die("--format=%s is not allowed: expected feroce or hpcc", f);
}

/* writes t to out (a temporary file renamed into place, so a failure leaves nothing) or stdout */
static int write_topology(const struct feroce_topo *t, enum feroce_topo_format format, const char *out)
{
    char err[600];
    if (!out) {
        if (feroce_topo_write(t, stdout, format, err, sizeof err) != 0)
            die("%s", err);
        return fflush(stdout) == 0 ? 0 : 1;
    }
    size_t len = strlen(out) + 16;
    char *tmp = malloc(len);
    snprintf(tmp, len, "%s.tmp%ld", out, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        die("-o %s cannot be written: %s", out, strerror(errno));
    int rc = feroce_topo_write(t, f, format, err, sizeof err);
    if (fclose(f) != 0 && rc == 0) {
        rc = -1;
        snprintf(err, sizeof err, "-o %s could not be written", out);
    }
    if (rc == 0 && rename(tmp, out) != 0) {
        rc = -1;
        snprintf(err, sizeof err, "-o %s cannot be written: %s", out, strerror(errno));
    }
    if (rc != 0) {
        remove(tmp);
        die("%s", err);
    }
    free(tmp);
    return 0;
}

static int generate(const char *cmd, int argc, char **argv)
{
    struct option opts[] = { { "k", "4", 0 },
                             { "tiers", "3", 0 },
                             { "oversub", "1", 0 },
                             { "host-rate", "25Gbps", 0 },
                             { "fabric-rate", NULL, 0 },
                             { "leaves", "4", 0 },
                             { "spines", "2", 0 },
                             { "hosts-per-leaf", "8", 0 },
                             { "uplink-rate", "100Gbps", 0 },
                             { "boards", "150", 0 },
                             { "boards-per-leaf", "24", 0 },
                             { "aggs", "1", 0 },
                             { "receivers", "4", 0 },
                             { "board-rate", "10Gbps", 0 },
                             { "receiver-rate", "100Gbps", 0 },
                             { "senders", "3", 0 },
                             { "rate", "10Gbps", 0 },
                             { "delay", "1us", 0 },
                             { "format", "feroce", 0 },
                             { NULL, NULL, 0 } };
    /* the options each generator takes */
    static const char *const fat[] = { "k", "tiers", "oversub", "host-rate", "fabric-rate", NULL };
    static const char *const ls[] = {
        "leaves", "spines", "hosts-per-leaf", "host-rate", "uplink-rate", NULL
    };
    static const char *const cam[] = { "boards",     "boards-per-leaf", "aggs",          "receivers",
                                       "board-rate", "uplink-rate",     "receiver-rate", NULL };
    static const char *const bench[] = { "senders", "rate", NULL };
    const char *const *mine = strcmp(cmd, "fat-tree") == 0     ? fat
                              : strcmp(cmd, "leaf-spine") == 0 ? ls
                              : strcmp(cmd, "camera") == 0     ? cam
                                                               : bench;
    const char *out = NULL, *rest[1];
    parse(argc, argv, opts, &out, rest, 0);
    for (struct option *o = opts; o->name; o++) {
        int ok = strcmp(o->name, "delay") == 0 || strcmp(o->name, "format") == 0;
        for (const char *const *m = mine; *m && !ok; m++)
            ok = strcmp(*m, o->name) == 0;
        if (o->given && !ok)
            die("--%s is not an option of %s", o->name, cmd);
    }
    char what[160], err[600];
    snprintf(what, sizeof what, "%s", cmd);
    struct feroce_topo t;
    feroce_topo_init(&t, what);
    int64_t delay = get_time(opts, "delay");
    int rc;
    if (mine == fat) {
        struct feroce_fattree p = { get_count(opts, "k"),
                                    get_count(opts, "tiers"),
                                    get_count(opts, "oversub"),
                                    get_rate(opts, "host-rate"),
                                    0,
                                    delay };
        p.fabric_bps = get(opts, "fabric-rate") ? get_rate(opts, "fabric-rate") : p.host_bps;
        rc = feroce_topo_fattree(&t, &p, err, sizeof err);
    } else if (mine == ls) {
        struct feroce_leafspine p = { get_count(opts, "leaves"),         get_count(opts, "spines"),
                                      get_count(opts, "hosts-per-leaf"), get_rate(opts, "host-rate"),
                                      get_rate(opts, "uplink-rate"),     delay };
        rc = feroce_topo_leafspine(&t, &p, err, sizeof err);
    } else if (mine == cam) {
        struct feroce_camera p = { get_count(opts, "boards"),       get_count(opts, "boards-per-leaf"),
                                   get_count(opts, "aggs"),         get_count(opts, "receivers"),
                                   get_rate(opts, "board-rate"),    get_rate(opts, "uplink-rate"),
                                   get_rate(opts, "receiver-rate"), delay };
        rc = feroce_topo_camera(&t, &p, err, sizeof err);
    } else {
        struct feroce_bench p = { get_count(opts, "senders"), get_rate(opts, "rate"), delay };
        rc = feroce_topo_bench(&t, &p, err, sizeof err);
    }
    if (rc == 0)
        rc = feroce_topo_check(&t, err, sizeof err);
    if (rc != 0)
        die("%s", err);
    enum feroce_topo_format format = get_format(opts);
    rc = write_topology(&t, format, out);
    feroce_topo_free(&t);
    return rc;
}

static int check(int argc, char **argv)
{
    struct option opts[] = { { "flows", NULL, 0 }, { "cdf", NULL, 0 }, { NULL, NULL, 0 } };
    const char *out = NULL, *rest[2] = { NULL, NULL };
    parse(argc, argv, opts, &out, rest, 1);
    if (!rest[0])
        die("check needs a topology file");
    if (out)
        die("-o is not an option of check");
    char err[600];
    struct feroce_topo t;
    if (feroce_topo_read(rest[0], &t, err, sizeof err) != 0)
        die("%s", err);
    size_t roles[FEROCE_ROLE_COUNT] = { 0 };
    for (size_t n = 0; n < t.n_nodes; n++)
        roles[t.nodes[n].role]++;
    printf("%s: %s format, %zu nodes (", rest[0], t.format == FEROCE_TOPO_HPCC ? "HPCC" : "feroce",
           t.n_nodes);
    const char *sep = "";
    for (int r = 0; r < FEROCE_ROLE_COUNT; r++)
        if (roles[r]) {
            printf("%s%zu %s%s", sep, roles[r], feroce_role_name((enum feroce_role)r),
                   roles[r] == 1             ? ""
                   : r == FEROCE_ROLE_SWITCH ? "es"
                                             : "s");
            sep = ", ";
        }
    printf("), %zu links, %zu models", t.n_links, t.n_models);
    /* the fabric's reach: the shortest and the longest path between two hosts, in links */
    uint32_t *d = malloc(t.n_nodes * sizeof *d), shortest = UINT32_MAX, longest = 0;
    for (size_t a = 0; d && a < t.n_nodes; a++) {
        if (feroce_topo_is_switch(&t, (uint32_t)a))
            continue;
        feroce_topo_distances(&t, (uint32_t)a, d);
        for (size_t b = 0; b < t.n_nodes; b++)
            if (b != a && !feroce_topo_is_switch(&t, (uint32_t)b)) {
                shortest = d[b] < shortest ? d[b] : shortest;
                longest = d[b] > longest ? d[b] : longest;
            }
    }
    free(d);
    if (longest)
        printf(", host to host %u to %u links", shortest, longest);
    printf("\n");
    int rc = 0;
    if (get(opts, "flows")) {
        struct feroce_flow_list l;
        if (feroce_flows_read(get(opts, "flows"), &t, &l, err, sizeof err) != 0) {
            fprintf(stderr, "feroce-topo: %s\n", err);
            rc = 2;
        } else {
            uint64_t bytes = 0;
            for (size_t i = 0; i < l.n; i++)
                bytes += l.flows[i].size;
            printf("%s: %zu flows, %llu bytes", get(opts, "flows"), l.n, (unsigned long long)bytes);
            if (l.n)
                printf(", starting %.9f s to %.9f s", l.flows[0].start_ns * 1e-9,
                       l.flows[l.n - 1].start_ns * 1e-9);
            printf("\n");
            feroce_flow_list_free(&l);
        }
    }
    if (rc == 0 && get(opts, "cdf")) {
        struct feroce_cdf c;
        if (feroce_cdf_read(get(opts, "cdf"), &c, err, sizeof err) != 0) {
            fprintf(stderr, "feroce-topo: %s\n", err);
            rc = 2;
        } else {
            printf("%s: %zu points, %.0f to %.0f bytes, mean %.1f bytes\n", get(opts, "cdf"), c.n, c.size[0],
                   c.size[c.n - 1], feroce_cdf_mean(&c));
            feroce_cdf_free(&c);
        }
    }
    feroce_topo_free(&t);
    return rc;
}

static int convert(int argc, char **argv)
{
    struct option opts[] = { { "format", NULL, 0 }, { NULL, NULL, 0 } };
    const char *out = NULL, *rest[1] = { NULL };
    parse(argc, argv, opts, &out, rest, 1);
    if (!rest[0])
        die("convert needs a topology file");
    if (!get(opts, "format"))
        die("convert needs --format=feroce or --format=hpcc");
    enum feroce_topo_format format = get_format(opts);
    char err[600];
    struct feroce_topo t;
    if (feroce_topo_read(rest[0], &t, err, sizeof err) != 0)
        die("%s", err);
    int rc = write_topology(&t, format, out);
    feroce_topo_free(&t);
    return rc;
}

/* fct.txt: sip dip sport dport size start_ns fct_ns standalone_fct_ns, per line */
static int fct_bins(int argc, char **argv)
{
    struct option opts[] = { { "step", "5", 0 }, { NULL, NULL, 0 } };
    const char *out = NULL, *rest[1] = { NULL };
    parse(argc, argv, opts, &out, rest, 1);
    if (!rest[0])
        die("fct-bins needs an fct.txt");
    if (out)
        die("-o is not an option of fct-bins");
    unsigned step = get_count(opts, "step");
    if (step < 1 || step > 100)
        die("--step=%u is not allowed: expected 1..100 (percent of the flows per bin)", step);
    char err[600];
    struct feroce_text tx;
    if (feroce_text_open(&tx, rest[0], err, sizeof err) != 0)
        die("%s", err);
    struct feroce_fct_sample *s[FEROCE_FLOW_KINDS] = { NULL, NULL };
    size_t n[FEROCE_FLOW_KINDS] = { 0, 0 }, cap[FEROCE_FLOW_KINDS] = { 0, 0 };
    int rc;
    while ((rc = feroce_text_next(&tx, err, sizeof err)) > 0) {
        uint64_t dport, size, fct, alone;
        char **w = tx.words;
        if (tx.n_words != 8 || feroce_parse_u64(w[3], &dport) || feroce_parse_u64(w[4], &size) ||
            feroce_parse_u64(w[6], &fct) || feroce_parse_u64(w[7], &alone) || alone == 0)
            die("%s:%d: expected sip dip sport dport size start_ns fct_ns standalone_fct_ns (whole numbers, "
                "standalone > 0)",
                rest[0], tx.line);
        int k = dport == FEROCE_FLOW_DPORT_INCAST ? FEROCE_FLOW_INCAST : FEROCE_FLOW_BACKGROUND;
        if (n[k] == cap[k]) {
            cap[k] = cap[k] ? 2 * cap[k] : 1024;
            s[k] = realloc(s[k], cap[k] * sizeof *s[k]);
            if (!s[k])
                die("out of memory");
        }
        s[k][n[k]++] = (struct feroce_fct_sample){ size, feroce_slowdown((double)fct, (double)alone) };
    }
    feroce_text_close(&tx);
    if (rc < 0)
        die("%s", err);
    feroce_fct_write_bins_header(stdout);
    for (int k = 0; k < FEROCE_FLOW_KINDS; k++) {
        if (n[k])
            feroce_fct_write_bins(stdout, feroce_flow_kind_name((enum feroce_flow_kind)k), s[k], n[k], step);
        free(s[k]);
    }
    return fflush(stdout) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        die("a command is needed: fat-tree, leaf-spine, camera, bench, check, convert or fct-bins (--help)");
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        fputs(usage, stdout);
        return 0;
    }
    if (strcmp(cmd, "fat-tree") == 0 || strcmp(cmd, "leaf-spine") == 0 || strcmp(cmd, "camera") == 0 ||
        strcmp(cmd, "bench") == 0)
        return generate(cmd, argc - 2, argv + 2);
    if (strcmp(cmd, "check") == 0)
        return check(argc - 2, argv + 2);
    if (strcmp(cmd, "convert") == 0)
        return convert(argc - 2, argv + 2);
    if (strcmp(cmd, "fct-bins") == 0)
        return fct_bins(argc - 2, argv + 2);
    die("%s is not a command: expected fat-tree, leaf-spine, camera, bench, check, convert or fct-bins", cmd);
}
