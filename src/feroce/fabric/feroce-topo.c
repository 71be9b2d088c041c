/*
 * feroce-topo.c - fabrics: building, reading, checking and writing them (feroce-topo.h).
 */
#include "feroce-topo.h"

#include "feroce-fabric-util.h"
#include "feroce-text.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *const role_names[FEROCE_ROLE_COUNT] = { "host", "board", "receiver", "switch" };

const char *feroce_role_name(enum feroce_role role)
{
    return (unsigned)role < FEROCE_ROLE_COUNT ? role_names[role] : "?";
}

void feroce_topo_init(struct feroce_topo *t, const char *path)
{
    memset(t, 0, sizeof *t);
    t->path = feroce_xstrdup(path);
}

static void free_settings(struct feroce_setting *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(s[i].key);
        free(s[i].value);
    }
    free(s);
}

void feroce_topo_free(struct feroce_topo *t)
{
    for (size_t i = 0; i < t->n_nodes; i++) {
        free(t->nodes[i].name);
        free_settings(t->nodes[i].settings, t->nodes[i].n_settings);
    }
    for (size_t i = 0; i < t->n_models; i++) {
        free(t->models[i].name);
        free_settings(t->models[i].settings, t->models[i].n_settings);
    }
    free(t->nodes);
    free(t->links);
    free(t->models);
    free(t->outages);
    free(t->index);
    free(t->path);
    memset(t, 0, sizeof *t);
}

/* the slot of name in the index: its node's, or the empty one where it would go */
static size_t index_slot(const struct feroce_topo *t, const char *name)
{
    size_t mask = t->index_cap - 1, i = feroce_fnv1a(name, strlen(name)) & mask;
    while (t->index[i] >= 0 && strcmp(t->nodes[t->index[i]].name, name) != 0)
        i = (i + 1) & mask;
    return i;
}

static void index_grow(struct feroce_topo *t)
{
    free(t->index);
    t->index_cap = t->index_cap ? 2 * t->index_cap : 64;
    t->index = feroce_xmalloc(t->index_cap * sizeof *t->index);
    for (size_t i = 0; i < t->index_cap; i++)
        t->index[i] = -1;
    for (size_t n = 0; n < t->n_nodes; n++)
        t->index[index_slot(t, t->nodes[n].name)] = (int32_t)n;
}

int feroce_topo_find(const struct feroce_topo *t, const char *name)
{
    if (!t->index_cap)
        return -1;
    return t->index[index_slot(t, name)];
}

int feroce_topo_find_model(const struct feroce_topo *t, const char *name)
{
    for (size_t i = 0; i < t->n_models; i++)
        if (strcmp(t->models[i].name, name) == 0)
            return (int)i;
    return -1;
}

int feroce_topo_add_node(struct feroce_topo *t, const char *name, enum feroce_role role, int model, int line)
{
    if (feroce_topo_find(t, name) >= 0)
        return -1;
    if (2 * (t->n_nodes + 1) > t->index_cap)
        index_grow(t);
    FEROCE_GROW(t->nodes, t->n_nodes, t->nodes_cap);
    struct feroce_topo_node *n = &t->nodes[t->n_nodes];
    memset(n, 0, sizeof *n);
    n->name = feroce_xstrdup(name);
    n->role = role;
    n->model = model;
    n->line = line;
    t->index[index_slot(t, name)] = (int32_t)t->n_nodes;
    return (int)t->n_nodes++;
}

int feroce_topo_add_model(struct feroce_topo *t, const char *name, int line)
{
    if (feroce_topo_find_model(t, name) >= 0)
        return -1;
    FEROCE_GROW(t->models, t->n_models, t->models_cap);
    struct feroce_topo_model *m = &t->models[t->n_models];
    memset(m, 0, sizeof *m);
    m->name = feroce_xstrdup(name);
    m->line = line;
    return (int)t->n_models++;
}

int feroce_topo_add_link(struct feroce_topo *t, uint32_t a, uint32_t b, uint64_t rate_bps, int64_t delay_ns,
                         double error_rate, int line)
{
    FEROCE_GROW(t->links, t->n_links, t->links_cap);
    t->links[t->n_links] = (struct feroce_topo_link){ a, b, rate_bps, delay_ns, error_rate, line };
    return (int)t->n_links++;
}

int feroce_topo_find_link(const struct feroce_topo *t, uint32_t a, uint32_t b)
{
    for (size_t l = 0; l < t->n_links; l++) {
        const struct feroce_topo_link *k = &t->links[l];
        if ((k->a == a && k->b == b) || (k->a == b && k->b == a))
            return (int)l;
    }
    return -1;
}

int feroce_topo_add_outage(struct feroce_topo *t, uint32_t link, int64_t down_ns, int64_t up_ns, int line,
                           char *err, size_t errlen)
{
    const struct feroce_topo_link *k = &t->links[link];
    char at[32], until[32];
    feroce_format_time(down_ns, at, sizeof at);
    if (up_ns >= 0 && up_ns <= down_ns)
        return feroce_text_fail(err, errlen, t->path, line,
                                "link %s %s comes back up at %s, not after it goes down at %s: expected "
                                "down AT [UP] with UP > AT",
                                t->nodes[k->a].name, t->nodes[k->b].name,
                                feroce_format_time(up_ns, until, sizeof until), at);
    for (size_t i = 0; i < t->n_outages; i++) {
        const struct feroce_topo_outage *o = &t->outages[i];
        if (o->link == link && (o->up_ns < 0 || down_ns <= o->up_ns) && (up_ns < 0 || o->down_ns <= up_ns))
            return feroce_text_fail(err, errlen, t->path, line,
                                    "link %s %s goes down at %s while it is down from line %d: expected one "
                                    "outage at a time per link",
                                    t->nodes[k->a].name, t->nodes[k->b].name, at, o->line);
    }
    FEROCE_GROW(t->outages, t->n_outages, t->outages_cap);
    t->outages[t->n_outages++] = (struct feroce_topo_outage){ link, down_ns, up_ns, line };
    return 0;
}

static void add_setting(struct feroce_setting **s, size_t *n, const char *key, const char *value, int line)
{
    *s = feroce_xrealloc(*s, (*n + 1) * sizeof **s);
    (*s)[*n] = (struct feroce_setting){ feroce_xstrdup(key), feroce_xstrdup(value), line };
    (*n)++;
}

void feroce_topo_node_set(struct feroce_topo *t, uint32_t node, const char *key, const char *value, int line)
{
    add_setting(&t->nodes[node].settings, &t->nodes[node].n_settings, key, value, line);
}

void feroce_topo_model_set(struct feroce_topo *t, uint32_t model, const char *key, const char *value,
                           int line)
{
    add_setting(&t->models[model].settings, &t->models[model].n_settings, key, value, line);
}

/* ---- reading ---- */

/* a name: letters, digits, and _ . - */
static int valid_name(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.' && *s != '-')
            return 0;
    return 1;
}

/* KEY=VALUE with KEY an attribute name (a letter, then letters and digits) and a VALUE */
static int split_setting(char *word, char **key, char **value)
{
    char *eq = strchr(word, '=');
    if (!eq || eq == word || !eq[1] || !isalpha((unsigned char)word[0]))
        return 0;
    for (char *p = word; p < eq; p++)
        if (!isalnum((unsigned char)*p))
            return 0;
    *eq = '\0';
    *key = word;
    *value = eq + 1;
    return 1;
}

static int read_link_fields(struct feroce_text *tx, char **w, uint64_t *rate, int64_t *delay, char *err,
                            size_t errlen)
{
    const char *why = feroce_parse_rate(w[0], rate);
    if (why)
        return feroce_text_fail(err, errlen, tx->path, tx->line, "rate %s %s", w[0], why);
    why = feroce_parse_time(w[1], delay);
    if (why)
        return feroce_text_fail(err, errlen, tx->path, tx->line, "delay %s %s", w[1], why);
    return 0;
}

static int read_error_rate(struct feroce_text *tx, const char *text, double *p, char *err, size_t errlen)
{
    const char *why = feroce_parse_double(text, p);
    if (!why && (*p < 0 || *p >= 1))
        why = "is out of range";
    if (why)
        return feroce_text_fail(err, errlen, tx->path, tx->line, "error rate %s %s: expected 0 <= p < 1",
                                text, why);
    return 0;
}

/* the nodes A B of a link or outage line: declared above */
static int read_ends(struct feroce_text *tx, const struct feroce_topo *t, char **names, int ends[2], char *err,
                     size_t errlen)
{
    for (int i = 0; i < 2; i++) {
        ends[i] = feroce_topo_find(t, names[i]);
        if (ends[i] < 0)
            return feroce_text_fail(err, errlen, tx->path, tx->line,
                                    "node %s is unknown: expected a node declared above", names[i]);
    }
    return 0;
}

static int read_feroce(struct feroce_text *tx, struct feroce_topo *t, char *err, size_t errlen)
{
    int n;
    while ((n = feroce_text_next(tx, err, errlen)) > 0) {
        char **w = tx->words;
        if (strcmp(w[0], "model") == 0) {
            if (n < 2 || !valid_name(w[1]))
                return feroce_text_fail(
                    err, errlen, tx->path, tx->line,
                    "expected model NAME KEY=VALUE... (a name of letters, digits, _ . -)");
            int m = feroce_topo_add_model(t, w[1], tx->line);
            if (m < 0)
                return feroce_text_fail(err, errlen, tx->path, tx->line, "model %s is defined twice", w[1]);
            for (int i = 2; i < n; i++) {
                char *key, *value;
                if (!split_setting(w[i], &key, &value))
                    return feroce_text_fail(
                        err, errlen, tx->path, tx->line,
                        "%s is not a setting: expected KEY=VALUE (an attribute and its value)", w[i]);
                feroce_topo_model_set(t, (uint32_t)m, key, value, tx->line);
            }
        } else if (strcmp(w[0], "node") == 0) {
            if (n < 3 || !valid_name(w[1]))
                return feroce_text_fail(err, errlen, tx->path, tx->line,
                                        "expected node NAME ROLE [model=MODEL] [KEY=VALUE...]");
            int role = -1;
            for (int r = 0; r < FEROCE_ROLE_COUNT; r++)
                if (strcmp(w[2], role_names[r]) == 0)
                    role = r;
            if (role < 0)
                return feroce_text_fail(err, errlen, tx->path, tx->line,
                                        "role %s is not known: expected host, board, receiver or switch",
                                        w[2]);
            int node = feroce_topo_add_node(t, w[1], (enum feroce_role)role, -1, tx->line);
            if (node < 0)
                return feroce_text_fail(err, errlen, tx->path, tx->line, "node %s is declared twice", w[1]);
            for (int i = 3; i < n; i++) {
                char *key, *value;
                if (!split_setting(w[i], &key, &value))
                    return feroce_text_fail(
                        err, errlen, tx->path, tx->line,
                        "%s is not a setting: expected KEY=VALUE (an attribute and its value)", w[i]);
                if (strcmp(key, "model") == 0) {
                    int m = feroce_topo_find_model(t, value);
                    if (m < 0)
                        return feroce_text_fail(err, errlen, tx->path, tx->line,
                                                "model %s is unknown: expected a model defined above", value);
                    t->nodes[node].model = m;
                } else {
                    feroce_topo_node_set(t, (uint32_t)node, key, value, tx->line);
                }
            }
        } else if (strcmp(w[0], "link") == 0) {
            if (n < 5 || n > 6)
                return feroce_text_fail(err, errlen, tx->path, tx->line,
                                        "expected link A B RATE DELAY [error=P]");
            int ends[2] = { 0, 0 }; // set by read_ends (GCC -O3 cannot see it)
            if (read_ends(tx, t, w + 1, ends, err, errlen) != 0)
                return -1;
            uint64_t rate;
            int64_t delay;
            double p = 0;
            if (read_link_fields(tx, w + 3, &rate, &delay, err, errlen) != 0)
                return -1;
            if (n == 6) {
                if (strncmp(w[5], "error=", 6) != 0)
                    return feroce_text_fail(err, errlen, tx->path, tx->line, "%s: expected error=P", w[5]);
                if (read_error_rate(tx, w[5] + 6, &p, err, errlen) != 0)
                    return -1;
            }
            feroce_topo_add_link(t, (uint32_t)ends[0], (uint32_t)ends[1], rate, delay, p, tx->line);
        } else if (strcmp(w[0], "down") == 0) {
            if (n < 4 || n > 5)
                return feroce_text_fail(err, errlen, tx->path, tx->line,
                                        "expected down A B AT [UP] (the link of A and B goes down at AT, "
                                        "back up at UP)");
            int ends[2] = { 0, 0 }; // set by read_ends (GCC -O3 cannot see it)
            if (read_ends(tx, t, w + 1, ends, err, errlen) != 0)
                return -1;
            int link = feroce_topo_find_link(t, (uint32_t)ends[0], (uint32_t)ends[1]);
            if (link < 0)
                return feroce_text_fail(err, errlen, tx->path, tx->line,
                                        "no link joins %s and %s: expected a link declared above", w[1],
                                        w[2]);
            int64_t times[2] = { 0, -1 };
            for (int i = 3; i < n; i++) {
                const char *why = feroce_parse_time(w[i], &times[i - 3]);
                if (why)
                    return feroce_text_fail(err, errlen, tx->path, tx->line, "%s %s %s",
                                            i == 3 ? "down time" : "up time", w[i], why);
            }
            if (feroce_topo_add_outage(t, (uint32_t)link, times[0], times[1], tx->line, err, errlen) != 0)
                return -1;
        } else {
            return feroce_text_fail(err, errlen, tx->path, tx->line,
                                    "%s is not a directive: expected model, node, link or down", w[0]);
        }
    }
    return n;
}

static int read_hpcc(struct feroce_text *tx, struct feroce_topo *t, char *err, size_t errlen)
{
    uint64_t n_nodes, n_switches, n_links;
    const uint64_t max_nodes = 1u << 24;
    if (tx->n_words != 3)
        return feroce_text_fail(err, errlen, tx->path, tx->line,
                                "expected N S L (nodes, switches, links; the HPCC simulator's format)");
    if (feroce_text_u64(tx, "N", tx->words[0], max_nodes, &n_nodes, err, errlen) ||
        feroce_text_u64(tx, "S", tx->words[1], n_nodes, &n_switches, err, errlen) ||
        feroce_text_u64(tx, "L", tx->words[2], 64 * max_nodes, &n_links, err, errlen))
        return -1;
    int header = tx->line;
    unsigned char *is_switch = feroce_xcalloc(n_nodes ? n_nodes : 1, 1);
    uint64_t seen = 0;
    int rc = 0;
    while (rc >= 0 && seen < n_switches && (rc = feroce_text_next(tx, err, errlen)) > 0) {
        for (size_t i = 0; i < tx->n_words && rc > 0; i++) {
            uint64_t id;
            if (seen == n_switches) {
                rc = feroce_text_fail(err, errlen, tx->path, tx->line,
                                      "more switch ids than S = %llu (line %d)",
                                      (unsigned long long)n_switches, header);
            } else if (feroce_text_u64(tx, "switch id", tx->words[i], n_nodes - 1, &id, err, errlen) != 0) {
                rc = -1;
            } else if (is_switch[id]) {
                rc = feroce_text_fail(err, errlen, tx->path, tx->line, "switch id %llu is listed twice",
                                      (unsigned long long)id);
            } else {
                is_switch[id] = 1;
                seen++;
            }
        }
    }
    if (rc == 0 && seen < n_switches)
        rc = feroce_text_fail(err, errlen, tx->path, tx->line, "%llu switch ids given, S = %llu (line %d)",
                              (unsigned long long)seen, (unsigned long long)n_switches, header);
    for (uint64_t i = 0; i < n_nodes && rc >= 0; i++) {
        char name[24];
        snprintf(name, sizeof name, "%llu", (unsigned long long)i);
        feroce_topo_add_node(t, name, is_switch[i] ? FEROCE_ROLE_SWITCH : FEROCE_ROLE_HOST, -1, header);
    }
    free(is_switch);
    if (rc < 0)
        return -1;
    uint64_t links = 0;
    while ((rc = feroce_text_next(tx, err, errlen)) > 0) {
        char **w = tx->words;
        if (links == n_links)
            return feroce_text_fail(err, errlen, tx->path, tx->line, "more links than L = %llu (line %d)",
                                    (unsigned long long)n_links, header);
        if (tx->n_words != 5)
            return feroce_text_fail(err, errlen, tx->path, tx->line,
                                    "expected src dst rate delay error_rate (5 words), found %zu",
                                    tx->n_words);
        uint64_t a, b, rate;
        int64_t delay;
        double p;
        if (feroce_text_u64(tx, "node", w[0], n_nodes - 1, &a, err, errlen) ||
            feroce_text_u64(tx, "node", w[1], n_nodes - 1, &b, err, errlen) ||
            read_link_fields(tx, w + 2, &rate, &delay, err, errlen) ||
            read_error_rate(tx, w[4], &p, err, errlen))
            return -1;
        feroce_topo_add_link(t, (uint32_t)a, (uint32_t)b, rate, delay, p, tx->line);
        links++;
    }
    if (rc < 0)
        return -1;
    if (links < n_links)
        return feroce_text_fail(err, errlen, tx->path, tx->line, "%llu links given, L = %llu (line %d)",
                                (unsigned long long)links, (unsigned long long)n_links, header);
    return 0;
}

int feroce_topo_read(const char *path, struct feroce_topo *t, char *err, size_t errlen)
{
    struct feroce_text tx;
    feroce_topo_init(t, path);
    if (feroce_text_open(&tx, path, err, errlen) != 0) {
        feroce_topo_free(t);
        return -1;
    }
    int rc = feroce_text_next(&tx, err, errlen);
    if (rc == 0)
        rc = feroce_text_fail(err, errlen, path, 0, "is empty: expected a topology");
    else if (rc > 0 && strcmp(tx.words[0], "feroce-topology") == 0) {
        t->format = FEROCE_TOPO_FEROCE;
        if (tx.n_words != 2 || strcmp(tx.words[1], "1") != 0)
            rc = feroce_text_fail(err, errlen, path, tx.line,
                                  "expected feroce-topology 1 (the format's version)");
        else
            rc = read_feroce(&tx, t, err, errlen);
    } else if (rc > 0 && isdigit((unsigned char)tx.words[0][0])) {
        t->format = FEROCE_TOPO_HPCC;
        rc = read_hpcc(&tx, t, err, errlen);
    } else if (rc > 0) {
        rc = feroce_text_fail(err, errlen, path, tx.line,
                              "expected \"feroce-topology 1\" (feroce's format) or \"N S L\" (the HPCC "
                              "simulator's)");
    }
    feroce_text_close(&tx);
    if (rc >= 0)
        rc = feroce_topo_check(t, err, errlen);
    if (rc < 0)
        feroce_topo_free(t);
    return rc < 0 ? -1 : 0;
}

/* ---- checking ---- */

struct adjacency {
    uint32_t *start; /* node i's links: link[start[i] .. start[i + 1]) */
    uint32_t *link;
};

static void adjacency_build(const struct feroce_topo *t, struct adjacency *adj)
{
    adj->start = feroce_xcalloc(t->n_nodes + 1, sizeof *adj->start);
    adj->link = feroce_xmalloc((2 * t->n_links + 1) * sizeof *adj->link);
    for (size_t l = 0; l < t->n_links; l++) {
        adj->start[t->links[l].a + 1]++;
        adj->start[t->links[l].b + 1]++;
    }
    for (size_t i = 0; i < t->n_nodes; i++)
        adj->start[i + 1] += adj->start[i];
    uint32_t *fill = feroce_xmalloc((t->n_nodes + 1) * sizeof *fill);
    memcpy(fill, adj->start, (t->n_nodes + 1) * sizeof *fill);
    for (size_t l = 0; l < t->n_links; l++) {
        adj->link[fill[t->links[l].a]++] = (uint32_t)l;
        adj->link[fill[t->links[l].b]++] = (uint32_t)l;
    }
    free(fill);
}

static void adjacency_free(struct adjacency *adj)
{
    free(adj->start);
    free(adj->link);
}

static uint32_t other_end(const struct feroce_topo_link *l, uint32_t node)
{
    return l->a == node ? l->b : l->a;
}

static int by_ends(const void *x, const void *y, void *ctx)
{
    const struct feroce_topo_link *links = ctx;
    uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
    uint32_t ia = links[i].a < links[i].b ? links[i].a : links[i].b;
    uint32_t ib = links[i].a < links[i].b ? links[i].b : links[i].a;
    uint32_t ja = links[j].a < links[j].b ? links[j].a : links[j].b;
    uint32_t jb = links[j].a < links[j].b ? links[j].b : links[j].a;
    if (ia != ja)
        return ia < ja ? -1 : 1;
    if (ib != jb)
        return ib < jb ? -1 : 1;
    return i < j ? -1 : i > j;
}

int feroce_topo_check(const struct feroce_topo *t, char *err, size_t errlen)
{
    const struct feroce_topo_node *nodes = t->nodes;
    if (t->n_nodes < 2)
        return feroce_text_fail(err, errlen, t->path, 0, "has %zu node%s: expected at least two", t->n_nodes,
                                t->n_nodes == 1 ? "" : "s");
    for (size_t l = 0; l < t->n_links; l++) {
        const struct feroce_topo_link *k = &t->links[l];
        if (k->a == k->b)
            return feroce_text_fail(err, errlen, t->path, k->line, "link %s %s joins a node to itself",
                                    nodes[k->a].name, nodes[k->b].name);
    }
    /* duplicates: the links sorted by their ends, neighbours compared */
    uint32_t *order = feroce_xmalloc((t->n_links + 1) * sizeof *order);
    for (size_t l = 0; l < t->n_links; l++)
        order[l] = (uint32_t)l;
    feroce_sort(order, t->n_links, sizeof *order, by_ends, t->links);
    for (size_t i = 1; i < t->n_links; i++) {
        const struct feroce_topo_link *p = &t->links[order[i - 1]], *q = &t->links[order[i]];
        if ((p->a == q->a && p->b == q->b) || (p->a == q->b && p->b == q->a)) {
            free(order);
            return feroce_text_fail(
                err, errlen, t->path, q->line,
                "link %s %s repeats the link of line %d: expected one link between two nodes",
                nodes[q->a].name, nodes[q->b].name, p->line);
        }
    }
    free(order);
    struct adjacency adj;
    adjacency_build(t, &adj);
    int rc = 0;
    for (size_t n = 0; n < t->n_nodes && rc == 0; n++) {
        uint32_t degree = adj.start[n + 1] - adj.start[n];
        if (nodes[n].role != FEROCE_ROLE_SWITCH && degree > 1)
            rc = feroce_text_fail(err, errlen, t->path, t->links[adj.link[adj.start[n] + 1]].line,
                                  "%s %s has a second link: expected one (a host has one NIC; put a switch "
                                  "between)",
                                  feroce_role_name(nodes[n].role), nodes[n].name);
    }
    /* connected: breadth first from node 0 */
    uint32_t *queue = feroce_xmalloc(t->n_nodes * sizeof *queue);
    unsigned char *seen = feroce_xcalloc(t->n_nodes, 1);
    size_t head = 0, tail = 0;
    queue[tail++] = 0;
    seen[0] = 1;
    while (head < tail) {
        uint32_t u = queue[head++];
        for (uint32_t i = adj.start[u]; i < adj.start[u + 1]; i++) {
            uint32_t v = other_end(&t->links[adj.link[i]], u);
            if (!seen[v]) {
                seen[v] = 1;
                queue[tail++] = v;
            }
        }
    }
    for (size_t n = 0; n < t->n_nodes && rc == 0; n++)
        if (!seen[n])
            rc = feroce_text_fail(err, errlen, t->path, nodes[n].line,
                                  "%s %s is not connected to %s %s: the fabric is disconnected",
                                  feroce_role_name(nodes[n].role), nodes[n].name,
                                  feroce_role_name(nodes[0].role), nodes[0].name);
    free(queue);
    free(seen);
    adjacency_free(&adj);
    return rc;
}

/* ---- writing ---- */

static void write_settings(FILE *f, const struct feroce_setting *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(f, " %s=%s", s[i].key, s[i].value);
}

int feroce_topo_write(const struct feroce_topo *t, FILE *f, enum feroce_topo_format format, char *err,
                      size_t errlen)
{
    char rate[32], delay[32];
    if (format == FEROCE_TOPO_FEROCE) {
        fprintf(f, "feroce-topology 1\n");
        for (size_t m = 0; m < t->n_models; m++) {
            fprintf(f, "model %s", t->models[m].name);
            write_settings(f, t->models[m].settings, t->models[m].n_settings);
            fputc('\n', f);
        }
        for (size_t n = 0; n < t->n_nodes; n++) {
            const struct feroce_topo_node *node = &t->nodes[n];
            fprintf(f, "node %s %s", node->name, feroce_role_name(node->role));
            if (node->model >= 0)
                fprintf(f, " model=%s", t->models[node->model].name);
            write_settings(f, node->settings, node->n_settings);
            fputc('\n', f);
        }
        for (size_t l = 0; l < t->n_links; l++) {
            const struct feroce_topo_link *k = &t->links[l];
            fprintf(f, "link %s %s %s %s", t->nodes[k->a].name, t->nodes[k->b].name,
                    feroce_format_rate(k->rate_bps, rate, sizeof rate),
                    feroce_format_time(k->delay_ns, delay, sizeof delay));
            if (k->error_rate > 0)
                fprintf(f, " error=%.17g", k->error_rate);
            fputc('\n', f);
        }
        for (size_t i = 0; i < t->n_outages; i++) {
            const struct feroce_topo_outage *o = &t->outages[i];
            const struct feroce_topo_link *k = &t->links[o->link];
            fprintf(f, "down %s %s %s", t->nodes[k->a].name, t->nodes[k->b].name,
                    feroce_format_time(o->down_ns, delay, sizeof delay));
            if (o->up_ns >= 0)
                fprintf(f, " %s", feroce_format_time(o->up_ns, delay, sizeof delay));
            fputc('\n', f);
        }
        return ferror(f) ? feroce_text_fail(err, errlen, t->path, 0, "could not be written") : 0;
    }
    for (size_t n = 0; n < t->n_nodes; n++)
        if (t->nodes[n].n_settings || t->nodes[n].model >= 0)
            return feroce_text_fail(err, errlen, t->path, t->nodes[n].line,
                                    "node %s has settings, which the HPCC simulator's format cannot say",
                                    t->nodes[n].name);
    if (t->n_outages)
        return feroce_text_fail(err, errlen, t->path, t->outages[0].line,
                                "has outages, which the HPCC simulator's format cannot say (its LINK_DOWN is "
                                "a key of its configuration)");
    size_t n_switches = 0;
    for (size_t n = 0; n < t->n_nodes; n++)
        n_switches += feroce_topo_is_switch(t, (uint32_t)n);
    fprintf(f, "%zu %zu %zu\n", t->n_nodes, n_switches, t->n_links);
    const char *sep = "";
    for (size_t n = 0; n < t->n_nodes; n++)
        if (feroce_topo_is_switch(t, (uint32_t)n)) {
            fprintf(f, "%s%zu", sep, n);
            sep = " ";
        }
    fputc('\n', f);
    for (size_t l = 0; l < t->n_links; l++) {
        const struct feroce_topo_link *k = &t->links[l];
        fprintf(f, "%u %u %s %lldns %f\n", k->a, k->b, feroce_format_rate(k->rate_bps, rate, sizeof rate),
                (long long)k->delay_ns, k->error_rate);
    }
    return ferror(f) ? feroce_text_fail(err, errlen, t->path, 0, "could not be written") : 0;
}

/* ---- queries ---- */

void feroce_topo_host_links(const struct feroce_topo *t, uint32_t *out)
{
    for (size_t n = 0; n < t->n_nodes; n++)
        out[n] = UINT32_MAX;
    for (size_t l = 0; l < t->n_links; l++) {
        const struct feroce_topo_link *k = &t->links[l];
        if (!feroce_topo_is_switch(t, k->a))
            out[k->a] = (uint32_t)l;
        if (!feroce_topo_is_switch(t, k->b))
            out[k->b] = (uint32_t)l;
    }
}

void feroce_topo_distances(const struct feroce_topo *t, uint32_t src, uint32_t *out)
{
    struct adjacency adj;
    adjacency_build(t, &adj);
    uint32_t *queue = feroce_xmalloc(t->n_nodes * sizeof *queue);
    for (size_t n = 0; n < t->n_nodes; n++)
        out[n] = UINT32_MAX;
    size_t head = 0, tail = 0;
    queue[tail++] = src;
    out[src] = 0;
    while (head < tail) {
        uint32_t u = queue[head++];
        if (u != src && !feroce_topo_is_switch(t, u))
            continue; /* hosts carry no transit traffic */
        for (uint32_t i = adj.start[u]; i < adj.start[u + 1]; i++) {
            uint32_t v = other_end(&t->links[adj.link[i]], u);
            if (out[v] == UINT32_MAX) {
                out[v] = out[u] + 1;
                queue[tail++] = v;
            }
        }
    }
    free(queue);
    adjacency_free(&adj);
}
