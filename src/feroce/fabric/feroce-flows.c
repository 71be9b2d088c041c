/*
 * feroce-flows.c - flow lists and flow files (feroce-flows.h).
 */
#include "feroce-flows.h"

#include "feroce-fabric-util.h"
#include "feroce-text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const op_names[FEROCE_FLOW_OPS] = { "write", "write_imm", "send" };
static const char *const kind_names[FEROCE_FLOW_KINDS] = { "background", "incast" };

const char *feroce_flow_op_name(enum feroce_flow_op op)
{
    return (unsigned)op < FEROCE_FLOW_OPS ? op_names[op] : "?";
}

const char *feroce_flow_kind_name(enum feroce_flow_kind kind)
{
    return (unsigned)kind < FEROCE_FLOW_KINDS ? kind_names[kind] : "?";
}

void feroce_flow_list_free(struct feroce_flow_list *l)
{
    free(l->flows);
    memset(l, 0, sizeof *l);
}

void feroce_flow_list_add(struct feroce_flow_list *l, const struct feroce_flow *f)
{
    FEROCE_GROW(l->flows, l->n, l->cap);
    l->flows[l->n++] = *f;
}

static int by_start(const void *a, const void *b, void *ctx)
{
    (void)ctx;
    int64_t x = ((const struct feroce_flow *)a)->start_ns, y = ((const struct feroce_flow *)b)->start_ns;
    return x < y ? -1 : x > y;
}

void feroce_flow_list_sort(struct feroce_flow_list *l)
{
    feroce_sort(l->flows, l->n, sizeof *l->flows, by_start, NULL);
}

/* the checks every flow passes, whatever its file */
static int check_flow(const struct feroce_text *tx, const struct feroce_topo *t, const struct feroce_flow *f,
                      char *err, size_t errlen)
{
    const char *src = t->nodes[f->src].name, *dst = t->nodes[f->dst].name;
    if (f->src == f->dst)
        return feroce_text_fail(err, errlen, tx->path, tx->line, "flow from %s to itself: expected two nodes",
                                src);
    for (int i = 0; i < 2; i++) {
        uint32_t n = i ? f->dst : f->src;
        if (feroce_topo_is_switch(t, n))
            return feroce_text_fail(err, errlen, tx->path, tx->line,
                                    "node %s is a switch: expected a host, board or receiver", i ? dst : src);
    }
    return 0;
}

static int read_size(const struct feroce_text *tx, const char *word, uint64_t *size, char *err, size_t errlen)
{
    const char *why = feroce_parse_u64(word, size);
    if (!why && (*size < 1 || *size > FEROCE_FLOW_MAX_SIZE))
        why = "is out of range";
    if (why)
        return feroce_text_fail(err, errlen, tx->path, tx->line, "size %s %s: expected 1..%llu bytes", word,
                                why, (unsigned long long)FEROCE_FLOW_MAX_SIZE);
    return 0;
}

static int read_node_number(const struct feroce_text *tx, const struct feroce_topo *t, const char *word,
                            uint32_t *node, char *err, size_t errlen)
{
    uint64_t v;
    const char *why = feroce_parse_u64(word, &v);
    if (why || v >= t->n_nodes)
        return feroce_text_fail(err, errlen, tx->path, tx->line,
                                "node %s is unknown: expected a node number 0..%zu of %s", word,
                                t->n_nodes - 1, t->path);
    *node = (uint32_t)v;
    return 0;
}

static int read_hpcc(struct feroce_text *tx, const struct feroce_topo *t, struct feroce_flow_list *l,
                     char *err, size_t errlen)
{
    uint64_t count;
    if (tx->n_words != 1 || feroce_parse_u64(tx->words[0], &count))
        return feroce_text_fail(
            err, errlen, tx->path, tx->line,
            "expected the number of flows (the HPCC simulator's format) or feroce-flows 1");
    int header = tx->line, rc;
    while ((rc = feroce_text_next(tx, err, errlen)) > 0) {
        char **w = tx->words;
        if (l->n == count)
            return feroce_text_fail(err, errlen, tx->path, tx->line, "more flows than the %llu of line %d",
                                    (unsigned long long)count, header);
        if (tx->n_words != 6)
            return feroce_text_fail(err, errlen, tx->path, tx->line,
                                    "expected src dst pg dport size start_s (6 words), found %zu",
                                    tx->n_words);
        struct feroce_flow f = { 0 };
        uint64_t pg, dport;
        double start_s;
        if (read_node_number(tx, t, w[0], &f.src, err, errlen) ||
            read_node_number(tx, t, w[1], &f.dst, err, errlen) ||
            feroce_text_u64(tx, "pg", w[2], 7, &pg, err, errlen) ||
            feroce_text_u64(tx, "dport", w[3], 65535, &dport, err, errlen) ||
            read_size(tx, w[4], &f.size, err, errlen))
            return -1;
        const char *why = feroce_parse_double(w[5], &start_s);
        if (!why && start_s < 0)
            why = "is before 0";
        if (!why && start_s > 1e6)
            why = "is out of range";
        if (why)
            return feroce_text_fail(err, errlen, tx->path, tx->line, "start %s %s: expected 0..1000000 s",
                                    w[5], why);
        f.start_ns = (int64_t)nearbyint(start_s * 1e9);
        f.prio = (uint8_t)pg;
        f.dport = (uint16_t)dport;
        f.kind = dport == FEROCE_FLOW_DPORT_INCAST ? FEROCE_FLOW_INCAST : FEROCE_FLOW_BACKGROUND;
        f.op = FEROCE_FLOW_WRITE;
        if (check_flow(tx, t, &f, err, errlen))
            return -1;
        feroce_flow_list_add(l, &f);
    }
    if (rc < 0)
        return -1;
    if (l->n < count)
        return feroce_text_fail(err, errlen, tx->path, tx->line, "%zu flows given, line %d says %llu", l->n,
                                header, (unsigned long long)count);
    return 0;
}

static int read_node_name(const struct feroce_text *tx, const struct feroce_topo *t, const char *word,
                          uint32_t *node, char *err, size_t errlen)
{
    int n = feroce_topo_find(t, word);
    if (n < 0)
        return feroce_text_fail(err, errlen, tx->path, tx->line, "node %s is unknown: expected a node of %s",
                                word, t->path);
    *node = (uint32_t)n;
    return 0;
}

static int read_option(const struct feroce_text *tx, const char *word, struct feroce_flow *f, char *err,
                       size_t errlen)
{
    const char *eq = strchr(word, '=');
    uint64_t v;
    if (!eq)
        return feroce_text_fail(err, errlen, tx->path, tx->line,
                                "%s: expected op=, prio=, kind= or dport=", word);
    size_t klen = (size_t)(eq - word);
    const char *value = eq + 1;
    if (klen == 2 && strncmp(word, "op", 2) == 0) {
        for (int i = 0; i < FEROCE_FLOW_OPS; i++)
            if (strcmp(value, op_names[i]) == 0) {
                f->op = (uint8_t)i;
                return 0;
            }
        return feroce_text_fail(err, errlen, tx->path, tx->line,
                                "op %s is not known: expected write, write_imm or send", value);
    }
    if (klen == 4 && strncmp(word, "kind", 4) == 0) {
        for (int i = 0; i < FEROCE_FLOW_KINDS; i++)
            if (strcmp(value, kind_names[i]) == 0) {
                f->kind = (uint8_t)i;
                return 0;
            }
        return feroce_text_fail(err, errlen, tx->path, tx->line,
                                "kind %s is not known: expected background or incast", value);
    }
    if (klen == 4 && strncmp(word, "prio", 4) == 0) {
        if (feroce_text_u64(tx, "prio", value, 7, &v, err, errlen))
            return -1;
        f->prio = (uint8_t)v;
        return 0;
    }
    if (klen == 5 && strncmp(word, "dport", 5) == 0) {
        if (feroce_text_u64(tx, "dport", value, 65535, &v, err, errlen))
            return -1;
        f->dport = (uint16_t)v;
        return 0;
    }
    return feroce_text_fail(err, errlen, tx->path, tx->line,
                            "%.*s is not an option: expected op, prio, kind or dport", (int)klen, word);
}

static int read_feroce(struct feroce_text *tx, const struct feroce_topo *t, struct feroce_flow_list *l,
                       char *err, size_t errlen)
{
    int rc;
    while ((rc = feroce_text_next(tx, err, errlen)) > 0) {
        char **w = tx->words;
        if (tx->n_words < 4)
            return feroce_text_fail(err, errlen, tx->path, tx->line,
                                    "expected SRC DST SIZE START [op=OP] [prio=P] [kind=KIND] [dport=N]");
        struct feroce_flow f = { 0 };
        f.prio = 3; /* the queue pairs' default Priority, and the peers' pg */
        f.dport = 0;
        int dport_given = 0;
        if (read_node_name(tx, t, w[0], &f.src, err, errlen) ||
            read_node_name(tx, t, w[1], &f.dst, err, errlen) || read_size(tx, w[2], &f.size, err, errlen))
            return -1;
        if (w[3][0] == '-')
            return feroce_text_fail(err, errlen, tx->path, tx->line, "start %s is before 0: expected >= 0",
                                    w[3]);
        const char *why = feroce_parse_time(w[3], &f.start_ns);
        if (why)
            return feroce_text_fail(err, errlen, tx->path, tx->line, "start %s %s", w[3], why);
        for (size_t i = 4; i < tx->n_words; i++) {
            if (strncmp(w[i], "dport=", 6) == 0)
                dport_given = 1;
            if (read_option(tx, w[i], &f, err, errlen))
                return -1;
        }
        if (!dport_given)
            f.dport = f.kind == FEROCE_FLOW_INCAST ? FEROCE_FLOW_DPORT_INCAST : FEROCE_FLOW_DPORT_BACKGROUND;
        if (check_flow(tx, t, &f, err, errlen))
            return -1;
        feroce_flow_list_add(l, &f);
    }
    return rc;
}

int feroce_flows_read(const char *path, const struct feroce_topo *t, struct feroce_flow_list *l, char *err,
                      size_t errlen)
{
    struct feroce_text tx;
    memset(l, 0, sizeof *l);
    if (feroce_text_open(&tx, path, err, errlen) != 0)
        return -1;
    int rc = feroce_text_next(&tx, err, errlen);
    if (rc == 0)
        rc = feroce_text_fail(err, errlen, path, 0, "is empty: expected flows");
    else if (rc > 0 && strcmp(tx.words[0], "feroce-flows") == 0) {
        if (tx.n_words != 2 || strcmp(tx.words[1], "1") != 0)
            rc = feroce_text_fail(err, errlen, path, tx.line,
                                  "expected feroce-flows 1 (the format's version)");
        else
            rc = read_feroce(&tx, t, l, err, errlen);
    } else if (rc > 0) {
        rc = read_hpcc(&tx, t, l, err, errlen);
    }
    feroce_text_close(&tx);
    if (rc < 0) {
        feroce_flow_list_free(l);
        return -1;
    }
    feroce_flow_list_sort(l);
    return 0;
}

void feroce_flows_write_header(FILE *f, enum feroce_flows_format format, size_t n)
{
    if (format == FEROCE_FLOWS_FEROCE)
        fprintf(f, "feroce-flows 1\n");
    else
        fprintf(f, "%zu\n", n);
}

void feroce_flows_write(FILE *f, enum feroce_flows_format format, const struct feroce_topo *t,
                        const struct feroce_flow *flow)
{
    if (format == FEROCE_FLOWS_HPCC) {
        fprintf(f, "%u %u %u %u %llu %.9f\n", flow->src, flow->dst, flow->prio, flow->dport,
                (unsigned long long)flow->size, (double)flow->start_ns * 1e-9);
        return;
    }
    char start[32];
    fprintf(f, "%s %s %llu %s", t->nodes[flow->src].name, t->nodes[flow->dst].name,
            (unsigned long long)flow->size, feroce_format_time(flow->start_ns, start, sizeof start));
    if (flow->op != FEROCE_FLOW_WRITE)
        fprintf(f, " op=%s", op_names[flow->op]);
    if (flow->prio != 3)
        fprintf(f, " prio=%u", flow->prio);
    if (flow->kind != FEROCE_FLOW_BACKGROUND)
        fprintf(f, " kind=%s", kind_names[flow->kind]);
    unsigned dflt =
        flow->kind == FEROCE_FLOW_INCAST ? FEROCE_FLOW_DPORT_INCAST : FEROCE_FLOW_DPORT_BACKGROUND;
    if (flow->dport != dflt)
        fprintf(f, " dport=%u", flow->dport);
    fputc('\n', f);
}
