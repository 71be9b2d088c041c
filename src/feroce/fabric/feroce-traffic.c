/*
 * feroce-traffic.c - flow sources merged in start order (feroce-traffic.h).
 */
#include "feroce-traffic.h"

#include "feroce-fabric-util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum source_kind { SOURCE_LIST, SOURCE_POISSON, SOURCE_INCAST };

struct arrival {
    int64_t t;
    uint32_t sender; /* index into senders */
};

struct source {
    enum source_kind kind;
    struct feroce_rng rng;
    struct feroce_flow head; /* the next flow, when has_head */
    int has_head;
    /* list */
    const struct feroce_flow_list *list;
    size_t next;
    /* Poisson background: a heap of the senders' next arrivals */
    struct feroce_poisson poisson;
    double *mean_gap_ns; /* per sender */
    struct arrival *heap;
    size_t heap_n;
    uint32_t *image; /* permutation: sender i sends to receivers[image[i]] */
    /* incast */
    struct feroce_incast incast;
    int64_t event_ns;
    unsigned pending; /* flows of the current event still to give */
    uint32_t *drawn;  /* the current event's senders (node indices) */
    uint32_t receiver;
    uint32_t *scratch;
};

struct feroce_traffic {
    const struct feroce_topo *topo;
    uint32_t *senders, *receivers;
    size_t n_senders, n_receivers;
    int32_t *receiver_pos; /* node -> its place among the receivers, -1 */
    uint64_t *link_bps;    /* node -> its link's rate */
    struct source *sources;
    size_t n_sources, cap;
    uint64_t limit, given;
};

static uint32_t *copy_nodes(const uint32_t *nodes, size_t n)
{
    uint32_t *c = feroce_xmalloc((n ? n : 1) * sizeof *c);
    memcpy(c, nodes, n * sizeof *c);
    return c;
}

struct feroce_traffic *feroce_traffic_new(const struct feroce_topo *t, const uint32_t *senders,
                                          size_t n_senders, const uint32_t *receivers, size_t n_receivers)
{
    struct feroce_traffic *g = feroce_xcalloc(1, sizeof *g);
    g->topo = t;
    g->senders = copy_nodes(senders, n_senders);
    g->receivers = copy_nodes(receivers, n_receivers);
    g->n_senders = n_senders;
    g->n_receivers = n_receivers;
    g->receiver_pos = feroce_xmalloc(t->n_nodes * sizeof *g->receiver_pos);
    for (size_t n = 0; n < t->n_nodes; n++)
        g->receiver_pos[n] = -1;
    for (size_t i = 0; i < n_receivers; i++)
        g->receiver_pos[receivers[i]] = (int32_t)i;
    uint32_t *links = feroce_xmalloc(t->n_nodes * sizeof *links);
    feroce_topo_host_links(t, links);
    g->link_bps = feroce_xcalloc(t->n_nodes, sizeof *g->link_bps);
    for (size_t n = 0; n < t->n_nodes; n++)
        if (links[n] != UINT32_MAX)
            g->link_bps[n] = t->links[links[n]].rate_bps;
    free(links);
    return g;
}

void feroce_traffic_free(struct feroce_traffic *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->n_sources; i++) {
        struct source *s = &g->sources[i];
        free(s->mean_gap_ns);
        free(s->heap);
        free(s->image);
        free(s->drawn);
        free(s->scratch);
    }
    free(g->sources);
    free(g->senders);
    free(g->receivers);
    free(g->receiver_pos);
    free(g->link_bps);
    free(g);
}

static struct source *new_source(struct feroce_traffic *g, enum source_kind kind, struct feroce_rng rng)
{
    FEROCE_GROW(g->sources, g->n_sources, g->cap);
    struct source *s = &g->sources[g->n_sources++];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->rng = rng;
    return s;
}

void feroce_traffic_add_list(struct feroce_traffic *g, const struct feroce_flow_list *l)
{
    struct feroce_rng none = { NULL, NULL };
    new_source(g, SOURCE_LIST, none)->list = l;
}

void feroce_traffic_set_limit(struct feroce_traffic *g, uint64_t max_flows)
{
    g->limit = max_flows;
}

static double uniform(struct source *s)
{
    return s->rng.uniform(s->rng.ctx);
}

/* an exponential gap of this mean, in whole ns (as traffic_gen.py: int(-ln(1 - u) mean)) */
static int64_t exponential_ns(struct source *s, double mean_ns)
{
    return (int64_t)(-log(1 - uniform(s)) * mean_ns);
}

/* a uniform index in [0, n) */
static size_t draw_index(struct source *s, size_t n)
{
    size_t i = (size_t)(uniform(s) * (double)n);
    return i < n ? i : n - 1;
}

/* ---- Poisson background ---- */

static int arrival_before(const struct arrival *a, const struct arrival *b)
{
    return a->t < b->t || (a->t == b->t && a->sender < b->sender);
}

static void heap_push(struct source *s, struct arrival a)
{
    size_t i = s->heap_n++;
    while (i > 0 && arrival_before(&a, &s->heap[(i - 1) / 2])) {
        s->heap[i] = s->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    s->heap[i] = a;
}

static void heap_pop(struct source *s)
{
    struct arrival last = s->heap[--s->heap_n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= s->heap_n)
            break;
        if (c + 1 < s->heap_n && arrival_before(&s->heap[c + 1], &s->heap[c]))
            c++;
        if (!arrival_before(&s->heap[c], &last))
            break;
        s->heap[i] = s->heap[c];
        i = c;
    }
    if (s->heap_n)
        s->heap[i] = last;
}

static int poisson_next(struct feroce_traffic *g, struct source *s, struct feroce_flow *f)
{
    if (!s->heap_n)
        return 0;
    struct arrival a = s->heap[0];
    uint32_t src = g->senders[a.sender], dst;
    if (s->image) {
        dst = g->receivers[s->image[a.sender]];
    } else {
        int32_t pos = g->receiver_pos[src];
        if (pos < 0) {
            dst = g->receivers[draw_index(s, g->n_receivers)];
        } else {
            size_t j = draw_index(s, g->n_receivers - 1);
            dst = g->receivers[j >= (size_t)pos ? j + 1 : j];
        }
    }
    memset(f, 0, sizeof *f);
    f->start_ns = a.t;
    f->src = src;
    f->dst = dst;
    f->size = feroce_cdf_sample(s->poisson.cdf, uniform(s));
    f->prio = s->poisson.prio;
    f->op = FEROCE_FLOW_WRITE;
    f->kind = FEROCE_FLOW_BACKGROUND;
    f->dport = FEROCE_FLOW_DPORT_BACKGROUND;
    heap_pop(s);
    a.t += exponential_ns(s, s->mean_gap_ns[a.sender]);
    if (a.t < s->poisson.stop_ns)
        heap_push(s, a);
    return 1;
}

static int fail(char *err, size_t errlen, const char *fmt, double value, const char *allowed)
{
    snprintf(err, errlen, fmt, value, allowed);
    return -1;
}

int feroce_traffic_add_poisson(struct feroce_traffic *g, const struct feroce_poisson *p,
                               struct feroce_rng rng, char *err, size_t errlen)
{
    if (!(p->load > 0 && p->load <= 1))
        return fail(err, errlen, "load = %g is not allowed: %s", p->load,
                    "expected 0 < load <= 1 (a fraction of each sender's link)");
    if (p->start_ns < 0 || p->stop_ns < p->start_ns)
        return fail(err, errlen, "traffic stop = %gns is not allowed: %s", (double)p->stop_ns,
                    "expected at or after its start, which is >= 0");
    if (!g->n_senders || !g->n_receivers)
        return fail(err, errlen, "senders = %g is not allowed: %s", (double)g->n_senders,
                    "expected senders and receivers");
    for (size_t i = 0; i < g->n_senders; i++)
        if (g->n_receivers == 1 && g->receivers[0] == g->senders[i])
            return fail(err, errlen, "receivers = %g is not allowed: %s", 1.0,
                        "expected a receiver other than each sender");
    struct source *s = new_source(g, SOURCE_POISSON, rng);
    s->poisson = *p;
    double mean = feroce_cdf_mean(p->cdf);
    s->mean_gap_ns = feroce_xmalloc(g->n_senders * sizeof *s->mean_gap_ns);
    s->heap = feroce_xmalloc(g->n_senders * sizeof *s->heap);
    if (p->pairs == FEROCE_PAIRS_PERMUTATION) {
        int same = g->n_senders == g->n_receivers && g->n_senders >= 2;
        for (size_t i = 0; same && i < g->n_senders; i++)
            same = g->receiver_pos[g->senders[i]] >= 0;
        if (!same) {
            g->n_sources--;
            free(s->mean_gap_ns);
            free(s->heap);
            return fail(err, errlen, "pairs = permutation is not allowed with %g senders: %s",
                        (double)g->n_senders,
                        "expected the same nodes (at least two) as senders and receivers");
        }
        /* Sattolo's shuffle: a uniformly drawn cycle through every host, so nobody sends to
         * itself; image[i] is the receiver (by its place) of sender i */
        uint32_t *cycle = feroce_xmalloc(g->n_receivers * sizeof *cycle);
        for (size_t i = 0; i < g->n_receivers; i++)
            cycle[i] = (uint32_t)i;
        for (size_t i = g->n_receivers - 1; i > 0; i--) {
            size_t j = draw_index(s, i);
            uint32_t x = cycle[i];
            cycle[i] = cycle[j];
            cycle[j] = x;
        }
        s->image = feroce_xmalloc(g->n_senders * sizeof *s->image);
        for (size_t i = 0; i < g->n_senders; i++) {
            size_t pos = (size_t)g->receiver_pos[g->senders[i]];
            s->image[i] = cycle[pos];
        }
        free(cycle);
    }
    for (size_t i = 0; i < g->n_senders; i++) {
        s->mean_gap_ns[i] = 8 * mean * 1e9 / (p->load * (double)g->link_bps[g->senders[i]]);
        struct arrival a = { p->start_ns + exponential_ns(s, s->mean_gap_ns[i]), (uint32_t)i };
        if (a.t < p->stop_ns)
            heap_push(s, a);
    }
    return 0;
}

/* ---- incast ---- */

static void incast_event(struct feroce_traffic *g, struct source *s)
{
    const struct feroce_incast *p = &s->incast;
    s->receiver = p->receiver >= 0 ? (uint32_t)p->receiver : g->receivers[draw_index(s, g->n_receivers)];
    size_t n = 0;
    for (size_t i = 0; i < g->n_senders; i++)
        if (g->senders[i] != s->receiver)
            s->scratch[n++] = g->senders[i];
    /* the first N of a partial Fisher-Yates shuffle */
    for (unsigned i = 0; i < p->senders; i++) {
        size_t j = i + draw_index(s, n - i);
        uint32_t x = s->scratch[i];
        s->scratch[i] = s->scratch[j];
        s->scratch[j] = x;
        s->drawn[i] = s->scratch[i];
    }
    s->pending = p->senders;
}

static int incast_next(struct feroce_traffic *g, struct source *s, struct feroce_flow *f)
{
    const struct feroce_incast *p = &s->incast;
    if (!s->pending) {
        if (s->event_ns >= p->stop_ns)
            return 0;
        incast_event(g, s);
    }
    memset(f, 0, sizeof *f);
    f->start_ns = s->event_ns;
    f->src = s->drawn[p->senders - s->pending];
    f->dst = s->receiver;
    f->size = p->size;
    f->prio = p->prio;
    f->op = FEROCE_FLOW_WRITE;
    f->kind = FEROCE_FLOW_INCAST;
    f->dport = FEROCE_FLOW_DPORT_INCAST;
    if (--s->pending == 0)
        s->event_ns += p->poisson ? exponential_ns(s, (double)p->period_ns) : p->period_ns;
    return 1;
}

int feroce_traffic_add_incast(struct feroce_traffic *g, const struct feroce_incast *p, struct feroce_rng rng,
                              char *err, size_t errlen)
{
    if (p->period_ns <= 0)
        return fail(err, errlen, "incast period = %gns is not allowed: %s", (double)p->period_ns,
                    "expected > 0");
    if (p->size < 1 || p->size > FEROCE_FLOW_MAX_SIZE)
        return fail(err, errlen, "incast size = %g is not allowed: %s", (double)p->size,
                    "expected 1..2^31 bytes");
    if (p->start_ns < 0 || p->stop_ns < p->start_ns)
        return fail(err, errlen, "incast stop = %gns is not allowed: %s", (double)p->stop_ns,
                    "expected at or after its start, which is >= 0");
    if (p->receiver >= 0 && ((size_t)p->receiver >= g->topo->n_nodes || g->receiver_pos[p->receiver] < 0))
        return fail(err, errlen, "incast receiver = %g is not allowed: %s", (double)p->receiver,
                    "expected one of the receivers");
    if (!g->n_receivers)
        return fail(err, errlen, "receivers = %g is not allowed: %s", 0.0, "expected at least one");
    /* N senders other than the receiver, whichever it is */
    size_t available = g->n_senders;
    for (size_t i = 0; i < g->n_receivers; i++) {
        if (p->receiver >= 0 && g->receivers[i] != (uint32_t)p->receiver)
            continue;
        size_t others = 0;
        for (size_t k = 0; k < g->n_senders; k++)
            others += g->senders[k] != g->receivers[i];
        if (others < available)
            available = others;
    }
    if (p->senders < 1 || p->senders > available)
        return fail(err, errlen, "incast senders = %g is not allowed: %s", (double)p->senders,
                    available ? "expected 1 .. the senders other than the receiver" : "expected a sender");
    struct source *s = new_source(g, SOURCE_INCAST, rng);
    s->incast = *p;
    s->event_ns = p->poisson ? p->start_ns + exponential_ns(s, (double)p->period_ns) : p->start_ns;
    s->drawn = feroce_xmalloc(p->senders * sizeof *s->drawn);
    s->scratch = feroce_xmalloc((g->n_senders ? g->n_senders : 1) * sizeof *s->scratch);
    return 0;
}

/* ---- merging ---- */

static int source_next(struct feroce_traffic *g, struct source *s, struct feroce_flow *f)
{
    switch (s->kind) {
    case SOURCE_LIST:
        if (s->next == s->list->n)
            return 0;
        *f = s->list->flows[s->next++];
        return 1;
    case SOURCE_POISSON:
        return poisson_next(g, s, f);
    case SOURCE_INCAST:
        return incast_next(g, s, f);
    }
    return 0;
}

int feroce_traffic_next(struct feroce_traffic *g, struct feroce_flow *f)
{
    if (g->limit && g->given == g->limit)
        return 0;
    struct source *best = NULL;
    for (size_t i = 0; i < g->n_sources; i++) {
        struct source *s = &g->sources[i];
        if (!s->has_head)
            s->has_head = source_next(g, s, &s->head);
        if (s->has_head && (!best || s->head.start_ns < best->head.start_ns))
            best = s;
    }
    if (!best)
        return 0;
    *f = best->head;
    best->has_head = 0;
    g->given++;
    return 1;
}
