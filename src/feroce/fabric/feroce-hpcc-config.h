/*
 * feroce-hpcc-config.h - the HPCC simulator's run configuration ("KEY value" lines, its
 * mix/config.txt as run.py writes it), read into what feroce does with each key.
 *
 * Every key of the peer's scratch/third.cc is known here; each is mapped to a feroce attribute
 * (with its unit converted), taken as the study's input (files, stop time, rate maps,
 * window), accepted because it is a no-op for DCQCN in the peer as well, or refused by name with
 * why.  An unknown key, a missing or malformed value, or a value feroce cannot model is one
 * line "FILE:LINE: ..." (src/feroce/doc/fabric.md has the table).
 */
#ifndef FEROCE_HPCC_CONFIG_H
#define FEROCE_HPCC_CONFIG_H

#include "feroce-topo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A value per link rate (KMIN_MAP, KMAX_MAP, PMAX_MAP): Kmin and Kmax in bytes. */
struct feroce_rate_map {
    size_t n;
    uint64_t rate_bps[16];
    double value[16];
    int line; /* 0: not given */
};

struct feroce_hpcc_config {
    char *path;
    char *topology; /* TOPOLOGY_FILE, resolved (NULL: not given) */
    char *flows;    /* FLOW_FILE, resolved */
    int topology_line, flows_line;
    int64_t stop_ns; /* SIMULATOR_STOP_TIME (-1: not given) */
    int stop_line;
    double error_rate; /* ERROR_RATE_PER_LINK: of the links whose own is 0 */
    uint32_t payload;  /* PACKET_PAYLOAD_SIZE (0: not given) */
    int has_window;    /* HAS_WIN 1: a window of the largest bandwidth-delay product */
    int window_line;
    struct feroce_rate_map kmin, kmax, pmax;
    /* LINK_DOWN t a b: the link between nodes a and b goes down at 2 s + t us, for good (0 0 0:
     * none; the peer then computes its routes again) */
    int64_t link_down_ns;
    uint32_t link_down_a, link_down_b;
    int link_down_line;
    /* ns-3 attribute settings: key "ns3::Type::Attribute", the value as ns-3 reads it */
    struct feroce_setting *settings;
    size_t n_settings;
    /* notes for the user: keys whose value feroce does not use as the peer does (one line each) */
    char **warnings;
    size_t n_warnings;
};

/* Reads a configuration; 0, or -1 with "FILE:LINE: what is wrong" in err (c is then empty).
 * Relative file names resolve as the peer runs (the current folder), else beside the config,
 * else from the config's parent folder (the peer's simulation/ layout). */
int feroce_hpcc_config_read(const char *path, struct feroce_hpcc_config *c, char *err, size_t errlen);
void feroce_hpcc_config_free(struct feroce_hpcc_config *c);

/* The value of a rate map for a link rate: 1 and *value, or 0 when the map has no entry for it. */
int feroce_rate_map_get(const struct feroce_rate_map *m, uint64_t rate_bps, double *value);

#ifdef __cplusplus
}
#endif

#endif /* FEROCE_HPCC_CONFIG_H */
