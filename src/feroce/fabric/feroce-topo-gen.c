/*
 * feroce-topo-gen.c - the fabric generators (feroce-topo-gen.h).
 */
#include "feroce-topo-gen.h"

#include "feroce-text.h"

#include <stdio.h>

/* n nodes named PREFIXi (or PREFIX alone when n is 1 and alone is set); the first's index */
static uint32_t add_nodes(struct feroce_topo *t, const char *prefix, unsigned n, enum feroce_role role,
                          int alone)
{
    uint32_t first = (uint32_t)t->n_nodes;
    for (unsigned i = 0; i < n; i++) {
        char name[64];
        if (n == 1 && alone)
            snprintf(name, sizeof name, "%s", prefix);
        else
            snprintf(name, sizeof name, "%s%u", prefix, i);
        feroce_topo_add_node(t, name, role, -1, 0);
    }
    return first;
}

static int bad(char *err, size_t errlen, const char *what, const char *name, unsigned value,
               const char *allowed)
{
    snprintf(err, errlen, "%s: %s = %u is not allowed: expected %s", what, name, value, allowed);
    return -1;
}

static int check_link(char *err, size_t errlen, const char *what, uint64_t bps, int64_t delay_ns)
{
    if (bps == 0) {
        snprintf(err, errlen, "%s: a link rate of 0 is not allowed: expected > 0", what);
        return -1;
    }
    if (delay_ns < 0) {
        snprintf(err, errlen, "%s: delay = %lldns is not allowed: expected >= 0", what, (long long)delay_ns);
        return -1;
    }
    return 0;
}

int feroce_topo_fattree(struct feroce_topo *t, const struct feroce_fattree *p, char *err, size_t errlen)
{
    const char *what = "fat-tree";
    if (p->k < 2 || p->k > 64 || p->k % 2)
        return bad(err, errlen, what, "k", p->k, "an even number 2..64");
    if (p->tiers != 2 && p->tiers != 3)
        return bad(err, errlen, what, "tiers", p->tiers, "2 or 3");
    if (p->oversub < 1 || p->oversub > 64)
        return bad(err, errlen, what, "oversubscription", p->oversub,
                   "1..64 (hosts per uplink of an edge switch)");
    if (check_link(err, errlen, what, p->host_bps, p->delay_ns) ||
        check_link(err, errlen, what, p->fabric_bps, 0))
        return -1;
    unsigned half = p->k / 2, per_edge = p->oversub * half;
    if (p->tiers == 2) {
        /* k leaves of k/2 uplinks, k/2 spines of k ports */
        uint32_t h0 = add_nodes(t, "h", p->k * per_edge, FEROCE_ROLE_HOST, 0);
        uint32_t leaf0 = add_nodes(t, "leaf", p->k, FEROCE_ROLE_SWITCH, 0);
        uint32_t spine0 = add_nodes(t, "spine", half, FEROCE_ROLE_SWITCH, 0);
        for (unsigned h = 0; h < p->k * per_edge; h++)
            feroce_topo_add_link(t, h0 + h, leaf0 + h / per_edge, p->host_bps, p->delay_ns, 0, 0);
        for (unsigned l = 0; l < p->k; l++)
            for (unsigned s = 0; s < half; s++)
                feroce_topo_add_link(t, leaf0 + l, spine0 + s, p->fabric_bps, p->delay_ns, 0, 0);
        return 0;
    }
    /* k pods of k/2 edge and k/2 aggregation switches; (k/2)^2 core switches; aggregation a of
     * every pod links to cores a k/2 .. a k/2 + k/2 - 1 */
    unsigned edges = p->k * half;
    uint32_t h0 = add_nodes(t, "h", edges * per_edge, FEROCE_ROLE_HOST, 0);
    uint32_t edge0 = add_nodes(t, "edge", edges, FEROCE_ROLE_SWITCH, 0);
    uint32_t agg0 = add_nodes(t, "agg", edges, FEROCE_ROLE_SWITCH, 0);
    uint32_t core0 = add_nodes(t, "core", half * half, FEROCE_ROLE_SWITCH, 0);
    for (unsigned h = 0; h < edges * per_edge; h++)
        feroce_topo_add_link(t, h0 + h, edge0 + h / per_edge, p->host_bps, p->delay_ns, 0, 0);
    for (unsigned pod = 0; pod < p->k; pod++) {
        for (unsigned e = 0; e < half; e++)
            for (unsigned a = 0; a < half; a++)
                feroce_topo_add_link(t, edge0 + pod * half + e, agg0 + pod * half + a, p->fabric_bps,
                                     p->delay_ns, 0, 0);
        for (unsigned a = 0; a < half; a++)
            for (unsigned c = 0; c < half; c++)
                feroce_topo_add_link(t, agg0 + pod * half + a, core0 + a * half + c, p->fabric_bps,
                                     p->delay_ns, 0, 0);
    }
    return 0;
}

int feroce_topo_leafspine(struct feroce_topo *t, const struct feroce_leafspine *p, char *err, size_t errlen)
{
    const char *what = "leaf-spine";
    if (p->leaves < 1 || p->leaves > 4096)
        return bad(err, errlen, what, "leaves", p->leaves, "1..4096");
    if (p->spines < 1 || p->spines > 1024)
        return bad(err, errlen, what, "spines", p->spines, "1..1024");
    if (p->hosts_per_leaf < 1 || p->hosts_per_leaf > 1024)
        return bad(err, errlen, what, "hosts per leaf", p->hosts_per_leaf, "1..1024");
    if (p->leaves * p->hosts_per_leaf < 2)
        return bad(err, errlen, what, "hosts per leaf", p->hosts_per_leaf, "at least 2 hosts in all");
    if (check_link(err, errlen, what, p->host_bps, p->delay_ns) ||
        check_link(err, errlen, what, p->uplink_bps, 0))
        return -1;
    uint32_t h0 = add_nodes(t, "h", p->leaves * p->hosts_per_leaf, FEROCE_ROLE_HOST, 0);
    uint32_t leaf0 = add_nodes(t, "leaf", p->leaves, FEROCE_ROLE_SWITCH, 0);
    uint32_t spine0 = add_nodes(t, "spine", p->spines, FEROCE_ROLE_SWITCH, 0);
    for (unsigned h = 0; h < p->leaves * p->hosts_per_leaf; h++)
        feroce_topo_add_link(t, h0 + h, leaf0 + h / p->hosts_per_leaf, p->host_bps, p->delay_ns, 0, 0);
    for (unsigned l = 0; l < p->leaves; l++)
        for (unsigned s = 0; s < p->spines; s++)
            feroce_topo_add_link(t, leaf0 + l, spine0 + s, p->uplink_bps, p->delay_ns, 0, 0);
    return 0;
}

int feroce_topo_camera(struct feroce_topo *t, const struct feroce_camera *p, char *err, size_t errlen)
{
    const char *what = "camera";
    if (p->boards < 1 || p->boards > 100000)
        return bad(err, errlen, what, "boards", p->boards, "1..100000");
    if (p->boards_per_leaf < 1 || p->boards_per_leaf > 1024)
        return bad(err, errlen, what, "boards per leaf", p->boards_per_leaf, "1..1024");
    if (p->aggs < 1 || p->aggs > 64)
        return bad(err, errlen, what, "aggregation switches", p->aggs, "1..64");
    if (p->receivers < 1 || p->receivers > 1024)
        return bad(err, errlen, what, "receivers", p->receivers, "1..1024");
    if (check_link(err, errlen, what, p->board_bps, p->delay_ns) ||
        check_link(err, errlen, what, p->uplink_bps, 0) || check_link(err, errlen, what, p->receiver_bps, 0))
        return -1;
    unsigned leaves = (p->boards + p->boards_per_leaf - 1) / p->boards_per_leaf;
    /* advcam-camera's order: boards, receivers, then the switches, aggregation first */
    uint32_t b0 = add_nodes(t, "board", p->boards, FEROCE_ROLE_BOARD, 0);
    uint32_t rx0 = add_nodes(t, "rx", p->receivers, FEROCE_ROLE_RECEIVER, 0);
    uint32_t agg0 = add_nodes(t, "agg", p->aggs, FEROCE_ROLE_SWITCH, 1);
    uint32_t leaf0 = add_nodes(t, "leaf", leaves, FEROCE_ROLE_SWITCH, 0);
    for (unsigned l = 0; l < leaves; l++) {
        for (unsigned b = l * p->boards_per_leaf; b < p->boards && b < (l + 1) * p->boards_per_leaf; b++)
            feroce_topo_add_link(t, b0 + b, leaf0 + l, p->board_bps, p->delay_ns, 0, 0);
        for (unsigned a = 0; a < p->aggs; a++)
            feroce_topo_add_link(t, leaf0 + l, agg0 + a, p->uplink_bps, p->delay_ns, 0, 0);
    }
    for (unsigned k = 0; k < p->receivers; k++)
        feroce_topo_add_link(t, rx0 + k, agg0 + k % p->aggs, p->receiver_bps, p->delay_ns, 0, 0);
    return 0;
}

int feroce_topo_bench(struct feroce_topo *t, const struct feroce_bench *p, char *err, size_t errlen)
{
    const char *what = "bench";
    if (p->senders < 1 || p->senders > 4096)
        return bad(err, errlen, what, "senders", p->senders, "1..4096");
    if (check_link(err, errlen, what, p->bps, p->delay_ns))
        return -1;
    uint32_t b0 = add_nodes(t, "board", p->senders, FEROCE_ROLE_BOARD, 0);
    add_nodes(t, "rx", 1, FEROCE_ROLE_RECEIVER, 1); /* host N, on port N */
    uint32_t sw = add_nodes(t, "sw", 1, FEROCE_ROLE_SWITCH, 1);
    for (unsigned b = 0; b <= p->senders; b++)
        feroce_topo_add_link(t, b0 + b, sw, p->bps, p->delay_ns, 0, 0);
    return 0;
}
