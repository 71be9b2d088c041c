/*
 * feroce-topo-gen.h - fabrics made to measure: k-ary fat-trees (two and three tiers, with
 * oversubscription), leaf-spine, the AdvCam camera and its 3:1 bench.
 *
 * Each fills an empty struct feroce_topo (feroce_topo_init) and returns 0, or -1 with the
 * parameter, its value and what is allowed in err.  Node and link orders are part of the
 * contract (src/feroce/doc/fabric.md): a program that builds the fabric in file order creates
 * its objects in that order, so the camera and the bench build exactly as advcam-camera and
 * RoceHelper::InstallIncast do, and the three-tier fat-tree numbers its nodes as the HPCC
 * simulator's fat-tree files do (hosts, edge, aggregation, core).
 */
#ifndef FEROCE_TOPO_GEN_H
#define FEROCE_TOPO_GEN_H

#include "feroce-topo.h"

#ifdef __cplusplus
extern "C" {
#endif

struct feroce_fattree {
    unsigned k;          /* ports per switch, even, 2..64 */
    unsigned tiers;      /* 2 (leaf-spine of k-port switches) or 3 (edge, aggregation, core) */
    unsigned oversub;    /* hosts per edge switch = oversub x k/2 (1: full bisection) */
    uint64_t host_bps;   /* host links */
    uint64_t fabric_bps; /* links between switches */
    int64_t delay_ns;    /* every link */
};

struct feroce_leafspine {
    unsigned leaves, spines, hosts_per_leaf;
    uint64_t host_bps, uplink_bps;
    int64_t delay_ns;
};

/* advcam-camera's fabric: boards on leaves, each leaf linked to every aggregation switch,
 * receivers spread over the aggregation switches (receiver i on aggregation i mod aggs). */
struct feroce_camera {
    unsigned boards, boards_per_leaf, aggs, receivers;
    uint64_t board_bps, uplink_bps, receiver_bps;
    int64_t delay_ns;
};

/* RoceHelper::InstallIncast's star: senders boards and one receiver on one switch. */
struct feroce_bench {
    unsigned senders;
    uint64_t bps;
    int64_t delay_ns;
};

int feroce_topo_fattree(struct feroce_topo *t, const struct feroce_fattree *p, char *err, size_t errlen);
int feroce_topo_leafspine(struct feroce_topo *t, const struct feroce_leafspine *p, char *err, size_t errlen);
int feroce_topo_camera(struct feroce_topo *t, const struct feroce_camera *p, char *err, size_t errlen);
int feroce_topo_bench(struct feroce_topo *t, const struct feroce_bench *p, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* FEROCE_TOPO_GEN_H */
