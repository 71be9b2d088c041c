/*
 * feroce-traffic.h - where flows come from: a flow list (a file), Poisson background traffic
 * drawn from a size CDF at a load of the senders' links, and an incast overlay (N senders x a
 * size into one receiver, periodically or at Poisson times), merged in order of start time.
 *
 * Flows are made one at a time, when asked for, so a run of 10^6 flows holds one pending flow
 * per source, not the list.  Every random number comes from the caller's uniform generator
 * (feroce_rng: the study passes an ns-3 random variable stream per source), so a run is
 * reproducible from its seed, and adding an incast overlay leaves the background flows as
 * they were.
 *
 * Background: each sender starts flows at exponential gaps of mean 8 x mean size / (load x its
 * link rate), from start on and before stop; per flow it draws the destination, then the size,
 * then its next gap.  Destinations: a receiver other than the sender, uniformly (random pairs),
 * or the sender's image in a random cyclic permutation of the hosts drawn once (each sends to
 * one and receives from one; senders and receivers must then be the same nodes).
 *
 * Incast: an event every period (or at exponential gaps of that mean), from start on and before
 * stop; per event the receiver (the one given, or one drawn among the receivers) and N distinct
 * senders other than it, drawn uniformly; each sends size bytes at the event's time.
 */
#ifndef FEROCE_TRAFFIC_H
#define FEROCE_TRAFFIC_H

#include "feroce-cdf.h"
#include "feroce-flows.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A uniform random number generator on [0, 1). */
struct feroce_rng {
    double (*uniform)(void *ctx);
    void *ctx;
};

enum feroce_pairs { FEROCE_PAIRS_RANDOM = 0, FEROCE_PAIRS_PERMUTATION };

struct feroce_poisson {
    const struct feroce_cdf *cdf; /* borrowed: kept until feroce_traffic_free */
    double load;                  /* of each sender's link: 0 < load <= 1 */
    enum feroce_pairs pairs;
    int64_t start_ns, stop_ns;
    uint8_t prio;
};

struct feroce_incast {
    unsigned senders; /* N, at least 1, at most the senders other than the receiver */
    uint64_t size;    /* bytes each sends */
    int64_t period_ns;
    int poisson; /* exponential gaps of mean period_ns, instead of a fixed period */
    int64_t start_ns, stop_ns;
    int receiver; /* a node index among the receivers, or -1: drawn for each event */
    uint8_t prio;
};

struct feroce_traffic;

/* Senders and receivers: node indices of t that are not switches (copied). */
struct feroce_traffic *feroce_traffic_new(const struct feroce_topo *t, const uint32_t *senders,
                                          size_t n_senders, const uint32_t *receivers, size_t n_receivers);
void feroce_traffic_free(struct feroce_traffic *g);

/* The sources, merged in start order (ties: in the order they were added).  The list is
 * borrowed; the others return 0, or -1 with the parameter, its value and what is allowed. */
void feroce_traffic_add_list(struct feroce_traffic *g, const struct feroce_flow_list *l);
int feroce_traffic_add_poisson(struct feroce_traffic *g, const struct feroce_poisson *p,
                               struct feroce_rng rng, char *err, size_t errlen);
int feroce_traffic_add_incast(struct feroce_traffic *g, const struct feroce_incast *p, struct feroce_rng rng,
                              char *err, size_t errlen);
/* At most this many flows in all (0: no limit). */
void feroce_traffic_set_limit(struct feroce_traffic *g, uint64_t max_flows);

/* The next flow in start order: 1, or 0 when there are no more. */
int feroce_traffic_next(struct feroce_traffic *g, struct feroce_flow *f);

#ifdef __cplusplus
}
#endif

#endif /* FEROCE_TRAFFIC_H */
