/*
 * feroce-fct.h - flow completion times: the time a flow would take alone on its path (the
 * standalone FCT, the denominator of the slowdown) and the slowdown by flow size, binned as the
 * HPCC simulator's analysis bins it (analysis/fct_analysis.py).
 */
#ifndef FEROCE_FCT_H
#define FEROCE_FCT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A link crossed: the sending end's rate and the propagation delay. */
struct feroce_hop {
    uint64_t bps;
    int64_t delay_ns;
};

/* A message's frames on the wire, in bytes with preamble, FCS and gap: its first packet, each
 * middle one and its last (one packet: first only), and the ACK of its last packet. */
struct feroce_message_frames {
    uint64_t packets;
    uint32_t first, middle, last;
    uint32_t ack;
};

/*
 * The standalone FCT in ns: from the post to the ACK of the last packet at the sender, with the
 * path to itself.  The packets leave back to back at the first hop's rate and are stored and
 * forwarded at every hop; the last one's arrival is the longest path through the grid of
 * (packet, hop) serialization times (C(i,j) = max(C(i,j-1) + d, C(i-1,j)) + s_i / r_j), which,
 * the middle packets being equal, is a maximum over the hops a <= b where the first packet
 * hands over to the middle ones and these to the last (the middle ones each take the slowest
 * hop of [a, b]); then the ACK crosses the reverse hops alone.  Plus every propagation delay.
 */
double feroce_fct_standalone_ns(const struct feroce_message_frames *m, const struct feroce_hop *fwd,
                                size_t n_fwd, const struct feroce_hop *rev, size_t n_rev);

/* fct / standalone, at least 1 (as the peers' analysis: a flow is never faster than alone). */
double feroce_slowdown(double fct_ns, double standalone_ns);

struct feroce_fct_sample {
    uint64_t size;
    double slowdown;
};

struct feroce_fct_bin {
    double from_pct, to_pct; /* the bin's share of the flows, smallest first (decades: NaN) */
    uint64_t min_size;       /* its smallest flow (decades: the lower edge) */
    uint64_t max_size;       /* its largest flow, the x of the peers' plots (decades: the upper edge
                              * less 1, UINT64_MAX for the last) */
    size_t n;
    double p50, p95, p99; /* NaN when the bin is empty */
};

/*
 * Sorts samples by size (ties by slowdown) and cuts them into ceil(100 / step_pct) bins of
 * step_pct percent of the flows: bin i holds flows [i step n / 100, (i + 1) step n / 100) (whole
 * numbers, rounded down), percentile p of a bin its sorted slowdowns at index floor(count p), as
 * fct_analysis.py.  step_pct: 1..100.  Returns the number of bins (bins must hold that many).
 */
size_t feroce_fct_bins(struct feroce_fct_sample *samples, size_t n, unsigned step_pct,
                       struct feroce_fct_bin *bins);

/* Decade bins of size, fixed across runs (for the results row and sweeps): below 1 KB, 10 KB,
 * 100 KB, 1 MB, 10 MB, and the rest (KB = 1000 B); their metric names' prefixes. */
#define FEROCE_FCT_DECADES 6
extern const char *const feroce_fct_decade_name[FEROCE_FCT_DECADES]; /* "size_1k" ... "size_big" */
/* The samples' slowdowns per decade bin (percentiles as feroce_fct_bins; sorts the samples). */
void feroce_fct_decades(struct feroce_fct_sample *samples, size_t n, struct feroce_fct_bin bins[FEROCE_FCT_DECADES]);

/* fct-bins.csv: the header, then a kind's rows ("share" bins of step_pct, then "decade" bins;
 * empty bins left out): binning,kind,from_pct,to_pct,min_size,max_size,flows,p50,p95,p99. */
void feroce_fct_write_bins_header(FILE *f);
void feroce_fct_write_bins(FILE *f, const char *kind, struct feroce_fct_sample *samples, size_t n,
                           unsigned step_pct);

#ifdef __cplusplus
}
#endif

#endif /* FEROCE_FCT_H */
