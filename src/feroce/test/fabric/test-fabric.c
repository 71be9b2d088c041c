/*
 * test-fabric.c - the fabric layer: topology, flow and CDF files read (good ones to their
 * values, every bad one of data/fabric/bad to its line and message), written back, generated;
 * traffic drawn at its load and pattern; the standalone FCT against the (packet, hop) grid
 * computed cell by cell and by hand; slowdown bins by hand.
 *
 *   feroce-fabric-tests DATA_DIR SCRATCH_DIR [TEST]
 */
#define _POSIX_C_SOURCE 200809L

#include "check.h"
#include "feroce-cdf.h"
#include "feroce-fct.h"
#include "feroce-flows.h"
#include "feroce-hpcc-config.h"
#include "feroce-text.h"
#include "feroce-topo-gen.h"
#include "feroce-topo.h"
#include "feroce-traffic.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *data_dir;
static const char *scratch_dir;

static char *path_of(const char *dir, const char *name)
{
    static char buf[4][1024];
    static int next;
    char *p = buf[next++ % 4];
    if (snprintf(p, sizeof buf[0], "%s/%s", dir, name) >= (int)sizeof buf[0])
        abort();
    return p;
}

static char *good(const char *name)
{
    static char dir[1024];
    snprintf(dir, sizeof dir, "%s/fabric/good", data_dir);
    return path_of(dir, name);
}

static void test_units(void)
{
    uint64_t bps;
    int64_t ns;
    double d;
    char buf[32];
    CHECK(feroce_parse_rate("25Gbps", &bps) == NULL && bps == 25000000000ULL);
    CHECK(feroce_parse_rate("5Mb/s", &bps) == NULL && bps == 5000000);
    CHECK(feroce_parse_rate("2.5Gbps", &bps) == NULL && bps == 2500000000ULL);
    CHECK(feroce_parse_rate("100kbps", &bps) == NULL && bps == 100000);
    CHECK_STR_CONTAINS(feroce_parse_rate("25", &bps), "has no unit");
    CHECK_STR_CONTAINS(feroce_parse_rate("25GB/s", &bps), "unknown unit");
    CHECK_STR_CONTAINS(feroce_parse_rate("0.5bps", &bps), "not a whole number");
    CHECK_STR_CONTAINS(feroce_parse_rate("0x10Gbps", &bps), "unknown unit");
    CHECK_STR_CONTAINS(feroce_parse_rate("-1Gbps", &bps), "out of range");
    CHECK(feroce_parse_time("0.001ms", &ns) == NULL && ns == 1000);
    CHECK(feroce_parse_time("1000ns", &ns) == NULL && ns == 1000);
    CHECK(feroce_parse_time("2s", &ns) == NULL && ns == 2000000000LL);
    CHECK(feroce_parse_time("1500ps", &ns) != NULL); /* 1.5 ns */
    CHECK(feroce_parse_time("3000ps", &ns) == NULL && ns == 3);
    CHECK_STR_CONTAINS(feroce_parse_time("1", &ns), "has no unit");
    CHECK(feroce_parse_double("1e-3", &d) == NULL && d == 1e-3);
    CHECK(feroce_parse_double("inf", &d) != NULL);
    CHECK(feroce_parse_double("nan", &d) != NULL);
    CHECK(feroce_parse_double("0x1p-1", &d) != NULL);
    CHECK(feroce_parse_double("1.5.2", &d) != NULL);
    CHECK(feroce_parse_double("1e999", &d) != NULL);
    CHECK_STR(feroce_format_rate(25000000000ULL, buf, sizeof buf), "25Gbps");
    CHECK_STR(feroce_format_rate(2500000000ULL, buf, sizeof buf), "2500Mbps");
    CHECK_STR(feroce_format_rate(7, buf, sizeof buf), "7bps");
    CHECK_STR(feroce_format_time(1000, buf, sizeof buf), "1us");
    CHECK_STR(feroce_format_time(1500, buf, sizeof buf), "1500ns");
    CHECK_STR(feroce_format_time(0, buf, sizeof buf), "0ns");
}

static void test_file_hash(void)
{
    char *p = path_of(scratch_dir, "hash.txt"), hex[17], err[256];
    FILE *f = fopen(p, "w");
    fputs("a", f);
    fclose(f);
    CHECK(feroce_file_hash(p, hex, err, sizeof err) == 0);
    CHECK_STR(hex, "af63dc4c8601ec8c"); /* FNV-1a 64 of "a" (the algorithm's published vector) */
    CHECK(feroce_file_hash(path_of(scratch_dir, "missing"), hex, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "cannot be read");
}

static void test_read_hpcc_topology(void)
{
    struct feroce_topo t;
    char err[600];
    CHECK(feroce_topo_read(good("fat_k4.txt"), &t, err, sizeof err) == 0);
    CHECK(t.format == FEROCE_TOPO_HPCC);
    CHECK(t.n_nodes == 36 && t.n_links == 48);
    size_t switches = 0;
    for (size_t n = 0; n < t.n_nodes; n++)
        switches += feroce_topo_is_switch(&t, (uint32_t)n);
    CHECK(switches == 20);
    CHECK(!feroce_topo_is_switch(&t, 15) && feroce_topo_is_switch(&t, 16));
    CHECK(t.links[0].a == 0 && t.links[0].b == 16 && t.links[0].rate_bps == 25000000000ULL &&
          t.links[0].delay_ns == 1000);
    CHECK(feroce_topo_find(&t, "35") == 35 && feroce_topo_find(&t, "36") == -1);
    /* links to: itself, a host on the same edge, the same pod, another pod, its edge, a core */
    uint32_t d[36];
    feroce_topo_distances(&t, 0, d);
    CHECK(d[0] == 0 && d[1] == 2 && d[2] == 4 && d[15] == 6 && d[16] == 1 && d[32] == 3);
    feroce_topo_free(&t);
}

static void test_read_feroce_topology(void)
{
    struct feroce_topo t;
    char err[600];
    CHECK(feroce_topo_read(good("small.topo"), &t, err, sizeof err) == 0);
    CHECK(t.format == FEROCE_TOPO_FEROCE && t.n_nodes == 5 && t.n_links == 4 && t.n_models == 1);
    int leaf = feroce_topo_find(&t, "leaf"), agg = feroce_topo_find(&t, "agg"),
        rx = feroce_topo_find(&t, "rx");
    CHECK(leaf == 3 && agg == 4 && rx == 2);
    CHECK(t.nodes[rx].role == FEROCE_ROLE_RECEIVER && t.nodes[leaf].role == FEROCE_ROLE_SWITCH);
    CHECK(t.nodes[leaf].model == 0 && t.nodes[agg].model == 0);
    CHECK(t.models[0].n_settings == 4);
    CHECK_STR(t.models[0].settings[1].key, "Kmin");
    CHECK_STR(t.models[0].settings[1].value, "20000");
    CHECK(t.models[0].settings[1].line == 3);
    CHECK(t.nodes[agg].n_settings == 1);
    CHECK_STR(t.nodes[agg].settings[0].key, "PfcEnabled");
    CHECK_STR(t.nodes[rx].settings[0].value, "hardware");
    CHECK(t.links[1].rate_bps == 25000000000ULL && t.links[1].delay_ns == 1000);
    CHECK(t.links[2].delay_ns == 500 && t.links[2].error_rate == 0.001);
    /* its outages: leaf-agg down from 20 us to 60 us, agg-rx from 100 us for good */
    CHECK(t.n_outages == 2);
    CHECK(t.outages[0].link == 2 && t.outages[0].down_ns == 20000 && t.outages[0].up_ns == 60000 &&
          t.outages[0].line == 13);
    CHECK(t.outages[1].link == 3 && t.outages[1].down_ns == 100000 && t.outages[1].up_ns == -1);
    CHECK(feroce_topo_find_link(&t, (uint32_t)rx, (uint32_t)agg) == 3 &&
          feroce_topo_find_link(&t, (uint32_t)rx, (uint32_t)leaf) == -1);
    /* another outage of a link: after the first is over, not while it lasts */
    CHECK(feroce_topo_add_outage(&t, 2, 60001, 70000, 0, err, sizeof err) == 0);
    CHECK(feroce_topo_add_outage(&t, 2, 10000, 20000, 0, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "goes down at 10us while it is down from line 13");
    t.n_outages = 2;
    /* written and read back: the same fabric */
    char *p = path_of(scratch_dir, "small-again.topo");
    FILE *f = fopen(p, "w");
    CHECK(feroce_topo_write(&t, f, FEROCE_TOPO_FEROCE, err, sizeof err) == 0);
    fclose(f);
    struct feroce_topo u;
    CHECK(feroce_topo_read(p, &u, err, sizeof err) == 0);
    CHECK(u.n_nodes == t.n_nodes && u.n_links == t.n_links && u.n_models == 1);
    for (size_t l = 0; l < t.n_links && l < u.n_links; l++)
        CHECK(u.links[l].a == t.links[l].a && u.links[l].b == t.links[l].b &&
              u.links[l].rate_bps == t.links[l].rate_bps && u.links[l].delay_ns == t.links[l].delay_ns &&
              u.links[l].error_rate == t.links[l].error_rate);
    CHECK_STR(u.nodes[agg].settings[0].value, "false");
    CHECK(u.n_outages == 2 && u.outages[0].link == 2 && u.outages[0].down_ns == 20000 &&
          u.outages[0].up_ns == 60000 && u.outages[1].up_ns == -1);
    /* the HPCC format cannot say settings */
    f = fopen(path_of(scratch_dir, "small.hpcc"), "w");
    CHECK(feroce_topo_write(&t, f, FEROCE_TOPO_HPCC, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "node rx has settings");
    fclose(f);
    feroce_topo_free(&u);
    feroce_topo_free(&t);
}

/* every file of data/fabric/bad: "# expect: LINE: text" (and "# topology: FILE" of good/ for flows) */
static void test_bad_files(void)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/fabric/bad", data_dir);
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    if (!d)
        return;
    struct feroce_topo k4;
    char err[600];
    CHECK(feroce_topo_read(good("fat_k4.txt"), &k4, err, sizeof err) == 0);
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d)) != NULL) {
        const char *name = e->d_name, *ext = strrchr(name, '.');
        if (name[0] == '.' || !ext)
            continue;
        char *path = path_of(dir, name), line[512], expect[512] = "", topo[256] = "";
        FILE *f = fopen(path, "r");
        while (f && fgets(line, sizeof line, f) && line[0] == '#') {
            line[strcspn(line, "\n")] = '\0';
            if (strncmp(line, "# expect: ", 10) == 0)
                snprintf(expect, sizeof expect, "%s", line + 10);
            else if (strncmp(line, "# topology: ", 12) == 0 &&
                     snprintf(topo, sizeof topo, "%s", line + 12) >= (int)sizeof topo)
                abort();
        }
        if (f)
            fclose(f);
        /* the message: PATH:LINE: text, or PATH: text for LINE 0 */
        char *colon = strchr(expect, ':');
        CHECK(colon != NULL);
        if (!colon)
            continue;
        *colon = '\0';
        char want[2200];
        int len = strcmp(expect, "0") == 0 ? snprintf(want, sizeof want, "%s:%s", path, colon + 1)
                                           : snprintf(want, sizeof want, "%s:%s:%s", path, expect, colon + 1);
        if (len >= (int)sizeof want)
            abort();
        int rc;
        if (strcmp(ext, ".topo") == 0) {
            struct feroce_topo t;
            rc = feroce_topo_read(path, &t, err, sizeof err);
        } else if (strcmp(ext, ".flows") == 0) {
            struct feroce_topo other, *t = &k4;
            if (topo[0]) {
                CHECK(feroce_topo_read(good(topo), &other, err, sizeof err) == 0);
                t = &other;
            }
            struct feroce_flow_list l;
            rc = feroce_flows_read(path, t, &l, err, sizeof err);
            if (topo[0])
                feroce_topo_free(&other);
        } else if (strcmp(ext, ".config") == 0) {
            struct feroce_hpcc_config c;
            rc = feroce_hpcc_config_read(path, &c, err, sizeof err);
        } else {
            struct feroce_cdf c;
            rc = feroce_cdf_read(path, &c, err, sizeof err);
        }
        CHECK(rc == -1);
        if (rc == -1 && strncmp(err, want, strlen(want)) != 0)
            check_report(__FILE__, __LINE__, "%s: got \"%s\", expected \"%s...\"", name, err, want);
        CHECK(strchr(err, '\n') == NULL);
        files++;
    }
    closedir(d);
    feroce_topo_free(&k4);
    CHECK(files >= 64);
}

static void write_hpcc(const struct feroce_topo *t, const char *name)
{
    char err[600];
    FILE *f = fopen(path_of(scratch_dir, name), "w");
    CHECK(feroce_topo_write(t, f, FEROCE_TOPO_HPCC, err, sizeof err) == 0);
    fclose(f);
}

static int same_file(const char *a, const char *b)
{
    FILE *f = fopen(a, "rb"), *g = fopen(b, "rb");
    int same = f && g;
    while (same) {
        int x = fgetc(f), y = fgetc(g);
        same = x == y;
        if (x == EOF)
            break;
    }
    if (f)
        fclose(f);
    if (g)
        fclose(g);
    return same;
}

static void test_generators(void)
{
    char err[600];
    struct feroce_topo t;
    /* the three-tier k=4 fat-tree is the HPCC experiment's file, byte for byte */
    struct feroce_fattree ft = { 4, 3, 1, 25000000000ULL, 25000000000ULL, 1000 };
    feroce_topo_init(&t, "fat-tree");
    CHECK(feroce_topo_fattree(&t, &ft, err, sizeof err) == 0 && feroce_topo_check(&t, err, sizeof err) == 0);
    write_hpcc(&t, "fat_k4.txt");
    CHECK(same_file(path_of(scratch_dir, "fat_k4.txt"), good("fat_k4.txt")));
    feroce_topo_free(&t);
    /* k=8: 128 hosts, 32 + 32 + 16 switches, 128 + 2 x 128 links */
    ft.k = 8;
    feroce_topo_init(&t, "fat-tree");
    CHECK(feroce_topo_fattree(&t, &ft, err, sizeof err) == 0 && feroce_topo_check(&t, err, sizeof err) == 0);
    CHECK(t.n_nodes == 208 && t.n_links == 384);
    uint32_t d[208];
    feroce_topo_distances(&t, 0, d);
    CHECK(d[127] == 6 && d[7] == 4 && d[3] == 2);
    feroce_topo_free(&t);
    /* two tiers, 3:1: 4 leaves of 6 hosts and 2 uplinks, 2 spines */
    struct feroce_fattree two = { 4, 2, 3, 10000000000ULL, 40000000000ULL, 500 };
    feroce_topo_init(&t, "fat-tree");
    CHECK(feroce_topo_fattree(&t, &two, err, sizeof err) == 0 && feroce_topo_check(&t, err, sizeof err) == 0);
    CHECK(t.n_nodes == 24 + 4 + 2 && t.n_links == 24 + 8);
    CHECK(t.links[24].rate_bps == 40000000000ULL && t.links[0].rate_bps == 10000000000ULL);
    feroce_topo_distances(&t, 0, d);
    CHECK(d[23] == 4 && d[5] == 2);
    feroce_topo_free(&t);
    struct feroce_fattree odd = { 5, 3, 1, 1, 1, 0 };
    feroce_topo_init(&t, "fat-tree");
    CHECK(feroce_topo_fattree(&t, &odd, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "k = 5 is not allowed: expected an even number");
    feroce_topo_free(&t);
    /* the camera: advcam-camera's order, boards then receivers then aggregation then leaves */
    struct feroce_camera cam = { 150, 24, 1, 4, 10000000000ULL, 100000000000ULL, 100000000000ULL, 1000 };
    feroce_topo_init(&t, "camera");
    CHECK(feroce_topo_camera(&t, &cam, err, sizeof err) == 0 && feroce_topo_check(&t, err, sizeof err) == 0);
    CHECK(t.n_nodes == 150 + 4 + 1 + 7 && t.n_links == 150 + 7 + 4);
    CHECK(feroce_topo_find(&t, "agg") == 154 && feroce_topo_find(&t, "leaf0") == 155);
    CHECK(t.links[24].a == 155 && t.links[24].b == 154);   /* leaf0's uplink after its 24 boards */
    CHECK(t.links[157].a == 150 && t.links[157].b == 154); /* rx0 on the aggregation switch */
    feroce_topo_free(&t);
    struct feroce_camera cam2 = { 8, 4, 2, 2, 10000000000ULL, 40000000000ULL, 100000000000ULL, 1000 };
    feroce_topo_init(&t, "camera");
    CHECK(feroce_topo_camera(&t, &cam2, err, sizeof err) == 0 && feroce_topo_check(&t, err, sizeof err) == 0);
    CHECK(feroce_topo_find(&t, "agg1") >= 0 && t.n_links == 8 + 2 * 2 + 2);
    feroce_topo_free(&t);
    struct feroce_leafspine ls = { 4, 2, 8, 25000000000ULL, 100000000000ULL, 1000 };
    feroce_topo_init(&t, "leaf-spine");
    CHECK(feroce_topo_leafspine(&t, &ls, err, sizeof err) == 0 &&
          feroce_topo_check(&t, err, sizeof err) == 0);
    CHECK(t.n_nodes == 32 + 6 && t.n_links == 32 + 8);
    feroce_topo_free(&t);
    struct feroce_bench bench = { 3, 10000000000ULL, 1000 };
    feroce_topo_init(&t, "bench");
    CHECK(feroce_topo_bench(&t, &bench, err, sizeof err) == 0 && feroce_topo_check(&t, err, sizeof err) == 0);
    CHECK(t.n_nodes == 5 && t.nodes[3].role == FEROCE_ROLE_RECEIVER && t.links[3].a == 3);
    feroce_topo_free(&t);
}

static void test_read_flows(void)
{
    struct feroce_topo t, s;
    struct feroce_flow_list l;
    char err[600];
    CHECK(feroce_topo_read(good("fat_k4.txt"), &t, err, sizeof err) == 0);
    CHECK(feroce_flows_read(good("k4.flows"), &t, &l, err, sizeof err) == 0);
    CHECK(l.n == 4);
    CHECK(l.flows[2].src == 13 && l.flows[2].dst == 15 && l.flows[2].size == 5101961 &&
          l.flows[2].start_ns == 2000002308LL && l.flows[2].prio == 3);
    CHECK(l.flows[1].kind == FEROCE_FLOW_INCAST && l.flows[1].dport == 200 &&
          l.flows[0].kind == FEROCE_FLOW_BACKGROUND);
    /* written in the same format, read back the same */
    char *p = path_of(scratch_dir, "k4-again.flows");
    FILE *f = fopen(p, "w");
    feroce_flows_write_header(f, FEROCE_FLOWS_HPCC, l.n);
    for (size_t i = 0; i < l.n; i++)
        feroce_flows_write(f, FEROCE_FLOWS_HPCC, &t, &l.flows[i]);
    fclose(f);
    CHECK(same_file(p, good("k4.flows")));
    feroce_flow_list_free(&l);
    CHECK(feroce_topo_read(good("small.topo"), &s, err, sizeof err) == 0);
    CHECK(feroce_flows_read(good("small.flows"), &s, &l, err, sizeof err) == 0);
    /* sorted by start, ties in file order */
    CHECK(l.n == 4);
    CHECK(l.flows[0].start_ns == 0 && l.flows[0].op == FEROCE_FLOW_WRITE_IMM && l.flows[0].dport == 7);
    CHECK(l.flows[1].size == 100000 && l.flows[2].size == 1);
    CHECK(l.flows[2].op == FEROCE_FLOW_SEND && l.flows[2].prio == 4);
    CHECK(l.flows[3].kind == FEROCE_FLOW_INCAST && l.flows[3].dport == 200 && l.flows[3].start_ns == 2000000);
    p = path_of(scratch_dir, "small-again.flows");
    f = fopen(p, "w");
    feroce_flows_write_header(f, FEROCE_FLOWS_FEROCE, l.n);
    for (size_t i = 0; i < l.n; i++)
        feroce_flows_write(f, FEROCE_FLOWS_FEROCE, &s, &l.flows[i]);
    fclose(f);
    struct feroce_flow_list m;
    CHECK(feroce_flows_read(p, &s, &m, err, sizeof err) == 0);
    CHECK(m.n == l.n && memcmp(m.flows, l.flows, l.n * sizeof *l.flows) == 0);
    feroce_flow_list_free(&m);
    feroce_flow_list_free(&l);
    feroce_topo_free(&s);
    feroce_topo_free(&t);
}

static void test_cdf(void)
{
    struct feroce_cdf c;
    char err[600];
    CHECK(feroce_cdf_read(good("two-point.cdf"), &c, err, sizeof err) == 0);
    CHECK_NEAR(feroce_cdf_mean(&c), 2000, 1e-9);
    CHECK(feroce_cdf_sample(&c, 0) == 1000 && feroce_cdf_sample(&c, 0.5) == 2000);
    CHECK(feroce_cdf_sample(&c, 0.9999999) == 2999);
    feroce_cdf_free(&c);
    /* WebSearch in percent: the trapezoid mean by hand, 1711250 bytes */
    CHECK(feroce_cdf_read(good("websearch-percent.cdf"), &c, err, sizeof err) == 0);
    CHECK(c.p[c.n - 1] == 1 && c.p[1] == 0.15);
    CHECK_NEAR(feroce_cdf_mean(&c), 1711250, 1e-6);
    CHECK(feroce_cdf_sample(&c, 0) == 1); /* 0 bytes: at least one */
    CHECK(feroce_cdf_sample(&c, 0.15) == 10000);
    uint64_t mid = feroce_cdf_sample(&c, 0.175); /* 15000, but for rounding: truncated, as int() */
    CHECK(mid == 14999 || mid == 15000);
    feroce_cdf_free(&c);
}

/* a deterministic uniform generator for the tests (the study gives ns-3 streams) */
static double lcg(void *ctx)
{
    uint64_t *s = ctx;
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) / 9007199254740992.0;
}

static void test_poisson_load(void)
{
    char err[600];
    struct feroce_topo t;
    struct feroce_cdf c;
    CHECK(feroce_topo_read(good("fat_k4.txt"), &t, err, sizeof err) == 0);
    CHECK(feroce_cdf_read(good("two-point.cdf"), &c, err, sizeof err) == 0);
    uint32_t hosts[16];
    for (uint32_t i = 0; i < 16; i++)
        hosts[i] = i;
    /* 50% of 25 Gb/s with 2000-byte flows: a flow every 1280 ns per host; 20 ms: about 250 000 */
    struct feroce_poisson p = { &c, 0.5, FEROCE_PAIRS_RANDOM, 1000000, 21000000, 3 };
    uint64_t seed = 1;
    struct feroce_rng rng = { lcg, &seed };
    struct feroce_traffic *g = feroce_traffic_new(&t, hosts, 16, hosts, 16);
    CHECK(feroce_traffic_add_poisson(g, &p, rng, err, sizeof err) == 0);
    struct feroce_flow f;
    uint64_t bytes[16] = { 0 }, received[16] = { 0 }, n = 0;
    int64_t last = 0;
    int ordered = 1, in_window = 1, no_self = 1;
    while (feroce_traffic_next(g, &f)) {
        ordered &= f.start_ns >= last;
        in_window &= f.start_ns >= p.start_ns && f.start_ns < p.stop_ns;
        no_self &= f.src != f.dst;
        last = f.start_ns;
        bytes[f.src] += f.size;
        received[f.dst]++;
        n++;
    }
    CHECK(ordered && in_window && no_self);
    CHECK(n > 240000 && n < 260000);
    for (int h = 0; h < 16; h++) {
        double load = (double)bytes[h] * 8 / 20e-3 / 25e9;
        CHECK_NEAR(load, 0.5, 0.02);
        CHECK_NEAR((double)received[h] / (double)n, 1.0 / 16, 0.005);
    }
    feroce_traffic_free(g);
    /* the same seed, the same flows */
    uint64_t s1 = 7, s2 = 7;
    struct feroce_rng r1 = { lcg, &s1 }, r2 = { lcg, &s2 };
    struct feroce_traffic *a = feroce_traffic_new(&t, hosts, 16, hosts, 16),
                          *b = feroce_traffic_new(&t, hosts, 16, hosts, 16);
    CHECK(feroce_traffic_add_poisson(a, &p, r1, err, sizeof err) == 0);
    CHECK(feroce_traffic_add_poisson(b, &p, r2, err, sizeof err) == 0);
    feroce_traffic_set_limit(a, 1000);
    feroce_traffic_set_limit(b, 1000);
    struct feroce_flow fa, fb;
    int same = 1, count = 0;
    while (feroce_traffic_next(a, &fa)) {
        same &= feroce_traffic_next(b, &fb) && memcmp(&fa, &fb, sizeof fa) == 0;
        count++;
    }
    CHECK(same && count == 1000 && !feroce_traffic_next(b, &fb));
    feroce_traffic_free(a);
    feroce_traffic_free(b);
    /* a load above 1, a permutation over different senders and receivers: refused */
    g = feroce_traffic_new(&t, hosts, 16, hosts, 16);
    p.load = 1.5;
    CHECK(feroce_traffic_add_poisson(g, &p, rng, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "load = 1.5 is not allowed: expected 0 < load <= 1");
    feroce_traffic_free(g);
    g = feroce_traffic_new(&t, hosts, 8, hosts + 8, 8);
    p.load = 0.5;
    p.pairs = FEROCE_PAIRS_PERMUTATION;
    CHECK(feroce_traffic_add_poisson(g, &p, rng, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "pairs = permutation");
    feroce_traffic_free(g);
    feroce_cdf_free(&c);
    feroce_topo_free(&t);
}

static void test_permutation(void)
{
    char err[600];
    struct feroce_topo t;
    struct feroce_cdf c;
    CHECK(feroce_topo_read(good("fat_k4.txt"), &t, err, sizeof err) == 0);
    CHECK(feroce_cdf_read(good("two-point.cdf"), &c, err, sizeof err) == 0);
    uint32_t hosts[16];
    for (uint32_t i = 0; i < 16; i++)
        hosts[i] = i;
    struct feroce_poisson p = { &c, 0.3, FEROCE_PAIRS_PERMUTATION, 0, 1000000, 3 };
    uint64_t seed = 3;
    struct feroce_rng rng = { lcg, &seed };
    struct feroce_traffic *g = feroce_traffic_new(&t, hosts, 16, hosts, 16);
    CHECK(feroce_traffic_add_poisson(g, &p, rng, err, sizeof err) == 0);
    int image[16];
    for (int i = 0; i < 16; i++)
        image[i] = -1;
    struct feroce_flow f;
    int consistent = 1;
    while (feroce_traffic_next(g, &f)) {
        consistent &= image[f.src] < 0 || image[f.src] == (int)f.dst;
        image[f.src] = (int)f.dst;
    }
    CHECK(consistent);
    /* one cycle through all 16 hosts */
    int at = 0, steps = 0;
    do {
        at = image[at];
        steps++;
    } while (at > 0 && steps <= 16);
    CHECK(at == 0 && steps == 16);
    feroce_traffic_free(g);
    feroce_cdf_free(&c);
    feroce_topo_free(&t);
}

static void test_incast_and_merge(void)
{
    char err[600];
    struct feroce_topo t;
    CHECK(feroce_topo_read(good("fat_k4.txt"), &t, err, sizeof err) == 0);
    struct feroce_flow_list l = { 0 };
    CHECK(feroce_flows_read(good("k4.flows"), &t, &l, err, sizeof err) == 0);
    uint32_t hosts[16];
    for (uint32_t i = 0; i < 16; i++)
        hosts[i] = i;
    uint64_t seed = 11;
    struct feroce_rng rng = { lcg, &seed };
    struct feroce_traffic *g = feroce_traffic_new(&t, hosts, 16, hosts, 16);
    feroce_traffic_add_list(g, &l);
    /* 8 senders x 64 KB into a drawn receiver every 10 us, from 2 s for 100 us: 10 events */
    struct feroce_incast in = { 8, 65536, 10000, 0, 2000000000LL, 2000100000LL, -1, 3 };
    CHECK(feroce_traffic_add_incast(g, &in, rng, err, sizeof err) == 0);
    struct feroce_flow f;
    int events = 0, from_list = 0, flows = 0;
    int64_t last = -1, event = -1;
    uint32_t rx = 0, seen = 0;
    int good_event = 1;
    while (feroce_traffic_next(g, &f)) {
        CHECK(f.start_ns >= last);
        last = f.start_ns;
        flows++;
        if (f.kind != FEROCE_FLOW_INCAST || f.size != 65536) {
            from_list++;
            continue;
        }
        if (f.start_ns != event) {
            good_event &= event < 0 || (seen == 0xff || __builtin_popcount(seen) == 8);
            event = f.start_ns;
            rx = f.dst;
            seen = 0;
            events++;
            CHECK(f.start_ns == 2000000000LL + (events - 1) * 10000LL);
        }
        good_event &= f.dst == rx && f.src != rx && !(seen & (1u << f.src)) && f.dport == 200;
        seen |= 1u << f.src;
    }
    CHECK(good_event && __builtin_popcount(seen) == 8);
    if (!(events == 10 && from_list == 4 && flows == 10 * 8 + 4))
        check_report(__FILE__, __LINE__, "events %d, from the list %d, flows %d", events, from_list, flows);
    feroce_traffic_free(g);
    /* 16 senders for a 16-host fabric: one is the receiver */
    g = feroce_traffic_new(&t, hosts, 16, hosts, 16);
    in.senders = 16;
    CHECK(feroce_traffic_add_incast(g, &in, rng, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "incast senders = 16 is not allowed");
    feroce_traffic_free(g);
    feroce_flow_list_free(&l);
    feroce_topo_free(&t);
}

/* the (packet, hop) grid cell by cell: C(i,j) = max(C(i,j-1) + d_{j-1}, C(i-1,j)) + s_i / r_j */
static double grid_fct(const struct feroce_message_frames *m, const struct feroce_hop *fwd, size_t h,
                       const struct feroce_hop *rev, size_t hr)
{
    double *c = calloc(h, sizeof *c), arrive = 0;
    for (uint64_t i = 0; i < m->packets; i++) {
        uint32_t s = i == 0 ? m->first : i + 1 == m->packets ? m->last : m->middle;
        double in = 0; /* when packet i is at hop j's sender */
        for (size_t j = 0; j < h; j++) {
            double start = in > c[j] ? in : c[j];
            c[j] = start + (double)s * 8e9 / (double)fwd[j].bps;
            in = c[j] + (double)fwd[j].delay_ns;
        }
        arrive = in;
    }
    free(c);
    for (size_t k = 0; k < hr; k++)
        arrive += (double)m->ack * 8e9 / (double)rev[k].bps + (double)rev[k].delay_ns;
    return arrive;
}

static void test_standalone_fct(void)
{
    /* by hand: 3 packets (1100, 1080, 500 B on the wire) over 2 hops of 10 Gb/s and 1 us, ACK of
     * 84 B back.  Hop 1 sends them back to back: done at 880, 1744, 2144 ns.  Hop 2 (store and
     * forward): the first arrives at 1880 and is sent by 2760, the second waits for it (3624),
     * the last arrives at 3144 and is sent by 4024, arriving at 5024; the ACK takes
     * 2 x (67.2 + 1000) */
    struct feroce_message_frames m = { 3, 1100, 1080, 500, 84 };
    struct feroce_hop hops[2] = { { 10000000000ULL, 1000 }, { 10000000000ULL, 1000 } };
    CHECK_NEAR(feroce_fct_standalone_ns(&m, hops, 2, hops, 2), 5024 + 2 * 1067.2, 1e-9);
    /* a slower second hop: the middle packets queue there: 880 + (1080 + 1080) x 1.6 ... */
    struct feroce_hop slow[2] = { { 10000000000ULL, 1000 }, { 5000000000ULL, 1000 } };
    struct feroce_message_frames m2 = { 4, 1100, 1080, 500, 84 };
    /* first at hop 1: 880 ns; hop 2 from 1880: 1100 x 1.6 = 1760 -> 3640; then 1080 x 1.6 twice
     * -> 7096; the last 500 x 1.6 = 800 -> 7896; arrives 8896 */
    CHECK_NEAR(feroce_fct_standalone_ns(&m2, slow, 2, NULL, 0), 8896, 1e-9);
    CHECK_NEAR(grid_fct(&m2, slow, 2, NULL, 0), 8896, 1e-9);
    /* one packet: the sum of its hops */
    struct feroce_message_frames one = { 1, 200, 0, 0, 84 };
    CHECK_NEAR(feroce_fct_standalone_ns(&one, slow, 2, NULL, 0), 200 * 0.8 + 200 * 1.6 + 2000, 1e-9);
    /* random paths and messages against the grid */
    uint64_t seed = 5;
    static const uint64_t rates[] = { 10000000000ULL, 25000000000ULL, 40000000000ULL, 100000000000ULL };
    int agree = 1;
    for (int trial = 0; trial < 2000; trial++) {
        struct feroce_hop fwd[6], rev[6];
        size_t h = 1 + (size_t)(lcg(&seed) * 6);
        for (size_t j = 0; j < h; j++) {
            fwd[j] = (struct feroce_hop){ rates[(int)(lcg(&seed) * 4)], (int64_t)(lcg(&seed) * 2000) };
            rev[h - 1 - j] = fwd[j];
        }
        struct feroce_message_frames r = { 1 + (uint64_t)(lcg(&seed) * 40),
                                           84 + (uint32_t)(lcg(&seed) * 4000),
                                           84 + (uint32_t)(lcg(&seed) * 4000),
                                           84 + (uint32_t)(lcg(&seed) * 4000), 84 };
        double a = feroce_fct_standalone_ns(&r, fwd, h, rev, h), b = grid_fct(&r, fwd, h, rev, h);
        agree &= fabs(a - b) <= 1e-6 * b;
    }
    CHECK(agree);
}

static const char *setting(const struct feroce_hpcc_config *c, const char *key)
{
    for (size_t i = 0; i < c->n_settings; i++)
        if (strcmp(c->settings[i].key, key) == 0)
            return c->settings[i].value;
    return NULL;
}

/* run.py's configuration for --cc dcqcn at 25 Gb/s, key by key */
static void test_hpcc_config(void)
{
    struct feroce_hpcc_config c;
    char err[600];
    CHECK(feroce_hpcc_config_read(good("k4-dcqcn.config"), &c, err, sizeof err) == 0);
    CHECK_STR(c.topology, good("fat_k4.txt")); /* beside the config */
    CHECK_STR(c.flows, good("k4.flows"));
    CHECK(c.stop_ns == 2100000000LL && c.payload == 1000 && !c.has_window && c.link_down_line == 0);
    CHECK_STR(setting(&c, "ns3::DcqcnReactionPoint::G"), "0.00390625");
    CHECK_STR(setting(&c, "ns3::DcqcnReactionPoint::AlphaPeriod"), "1000ns");
    CHECK_STR(setting(&c, "ns3::DcqcnReactionPoint::AlphaMode"), "periodic");
    CHECK_STR(setting(&c, "ns3::DcqcnReactionPoint::DecreasePeriod"), "4000ns");
    CHECK_STR(setting(&c, "ns3::DcqcnReactionPoint::IncreaseTimer"), "300000ns");
    CHECK_STR(setting(&c, "ns3::DcqcnReactionPoint::RateAi"), "5000000bps");
    CHECK_STR(setting(&c, "ns3::DcqcnReactionPoint::RateHai"), "50000000bps");
    CHECK_STR(setting(&c, "ns3::DcqcnReactionPoint::MinRate"), "1000000000bps");
    CHECK_STR(setting(&c, "ns3::DcqcnReactionPoint::Clamp"), "after_increase");
    CHECK_STR(setting(&c, "ns3::DcqcnReactionPoint::FastRecoveryStages"), "1");
    CHECK_STR(setting(&c, "ns3::FeroceSwitch::EcnEnabled"), "true");
    CHECK_STR(setting(&c, "ns3::FeroceSwitch::PfcMode"), "dynamic");
    CHECK_STR(setting(&c, "ns3::FeroceSwitch::BufferSize"), "8388608"); /* 8 MB of 2^20 B */
    CHECK_STR(setting(&c, "ns3::RoceQueuePair::Pmtu"), "1024");
    CHECK_STR(setting(&c, "ns3::RoceQueuePair::AckInterval"), "1");
    double v;
    CHECK(feroce_rate_map_get(&c.kmin, 25000000000ULL, &v) && v == 100000);
    CHECK(feroce_rate_map_get(&c.kmax, 100000000000ULL, &v) && v == 1600000);
    CHECK(feroce_rate_map_get(&c.pmax, 25000000000ULL, &v) && v == 0.2);
    CHECK(!feroce_rate_map_get(&c.kmin, 40000000000ULL, &v));
    /* the output paths, the payload rounded to a path MTU, ACK_HIGH_PRIO 1, the queue sampler */
    CHECK(c.n_warnings == 5);
    const char *where = good("k4-dcqcn.config:");
    for (size_t i = 0; i < c.n_warnings; i++)
        CHECK(strchr(c.warnings[i], '\n') == NULL && strncmp(c.warnings[i], where, strlen(where)) == 0);
    feroce_hpcc_config_free(&c);
}

static void test_slowdown_bins(void)
{
    CHECK(feroce_slowdown(50, 100) == 1 && feroce_slowdown(300, 100) == 3);
    /* 10 flows of sizes 10..1 with slowdowns 1..10 (the largest is the fastest); 2 bins of 50% */
    struct feroce_fct_sample s[10];
    for (int i = 0; i < 10; i++)
        s[i] = (struct feroce_fct_sample){ (uint64_t)(10 - i), (double)(i + 1) };
    struct feroce_fct_bin b[2];
    CHECK(feroce_fct_bins(s, 10, 50, b) == 2);
    /* bin 0: sizes 1..5, slowdowns 10..6 sorted 6 7 8 9 10: p50 = [2] = 8, p95 = [4] = 10 */
    CHECK(b[0].n == 5 && b[0].max_size == 5 && b[0].p50 == 8 && b[0].p95 == 10 && b[0].p99 == 10);
    CHECK(b[1].n == 5 && b[1].max_size == 10 && b[1].p50 == 3 && b[1].p99 == 5);
    CHECK(b[0].from_pct == 0 && b[0].to_pct == 50 && b[1].to_pct == 100);
    /* 3 flows in 5% bins: most bins empty, the last holds the largest */
    struct feroce_fct_bin many[20];
    struct feroce_fct_sample three[3] = { { 100, 2 }, { 5, 1 }, { 7, 4 } };
    CHECK(feroce_fct_bins(three, 3, 5, many) == 20);
    size_t filled = 0, total = 0;
    for (int i = 0; i < 20; i++) {
        filled += many[i].n > 0;
        total += many[i].n;
        CHECK(many[i].n > 0 || isnan(many[i].p50));
    }
    CHECK(filled == 3 && total == 3 && many[19].max_size == 100);
    CHECK(feroce_fct_bins(three, 3, 0, many) == 0);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s DATA_DIR SCRATCH_DIR [TEST]\n", argv[0]);
        return 2;
    }
    data_dir = argv[1];
    scratch_dir = argv[2];
    static const struct check_test tests[] = {
        CHECK_TEST(test_units),
        CHECK_TEST(test_file_hash),
        CHECK_TEST(test_read_hpcc_topology),
        CHECK_TEST(test_read_feroce_topology),
        CHECK_TEST(test_bad_files),
        CHECK_TEST(test_generators),
        CHECK_TEST(test_read_flows),
        CHECK_TEST(test_cdf),
        CHECK_TEST(test_poisson_load),
        CHECK_TEST(test_permutation),
        CHECK_TEST(test_incast_and_merge),
        CHECK_TEST(test_standalone_fct),
        CHECK_TEST(test_slowdown_bins),
        CHECK_TEST(test_hpcc_config),
    };
    return check_run(tests, sizeof tests / sizeof tests[0], argc > 3 ? argv[3] : NULL);
}
