/*
 * feroce-flows.h - flows (one message from a host to another, from a start time) and the flow
 * files: feroce's and the HPCC simulator's.
 *
 * feroce's file (src/feroce/doc/fabric.md), nodes by name, times with a unit:
 *
 *   feroce-flows 1
 *   h0 h5 100000 1.5ms                      SRC DST SIZE START
 *   h1 h5 4096 2ms op=send prio=4 kind=incast dport=200
 *
 * The HPCC simulator's file: the number of flows, then "src dst pg dport size start_s" per flow,
 * nodes by number (the node's place in the topology), the start in seconds.  Its analysis
 * scripts tell incast flows (dport 200) from the others (dport 100); reading, dport 200 makes a
 * flow an incast flow.
 *
 * A flow's source and destination are two different nodes that are not switches; its size is at
 * least one byte; it starts at or after 0.  The list is sorted by start time (stable: flows that
 * start together keep the file's order).
 */
#ifndef FEROCE_FLOWS_H
#define FEROCE_FLOWS_H

#include "feroce-topo.h"

#ifdef __cplusplus
extern "C" {
#endif

enum feroce_flow_op {
    FEROCE_FLOW_WRITE = 0, /* RDMA WRITE */
    FEROCE_FLOW_WRITE_IMM, /* RDMA WRITE with immediate */
    FEROCE_FLOW_SEND,      /* SEND (the receiver posts a buffer for it) */
    FEROCE_FLOW_OPS
};

enum feroce_flow_kind { FEROCE_FLOW_BACKGROUND = 0, FEROCE_FLOW_INCAST, FEROCE_FLOW_KINDS };

/* "write", "write_imm", "send"; "background", "incast". */
const char *feroce_flow_op_name(enum feroce_flow_op op);
const char *feroce_flow_kind_name(enum feroce_flow_kind kind);

#define FEROCE_FLOW_DPORT_BACKGROUND 100          /* the peers' analysis: normal flows */
#define FEROCE_FLOW_DPORT_INCAST     200          /* and incast flows */
#define FEROCE_FLOW_MAX_SIZE         (1ULL << 31) /* the largest RDMA message (RETH DMA length) */

struct feroce_flow {
    int64_t start_ns;
    uint64_t size;     /* bytes of the message */
    uint32_t src, dst; /* node indices */
    uint16_t dport;    /* the peers' destination port: written into fct.txt */
    uint8_t prio;      /* priority 0..7 of its queue pair (the peers' pg) */
    uint8_t op;        /* enum feroce_flow_op */
    uint8_t kind;      /* enum feroce_flow_kind */
};

struct feroce_flow_list {
    struct feroce_flow *flows;
    size_t n, cap;
};

enum feroce_flows_format {
    FEROCE_FLOWS_FEROCE, /* feroce-flows 1 */
    FEROCE_FLOWS_HPCC    /* count, then src dst pg dport size start_s */
};

void feroce_flow_list_free(struct feroce_flow_list *l);
void feroce_flow_list_add(struct feroce_flow_list *l, const struct feroce_flow *f);
/* Sort by start time, stably. */
void feroce_flow_list_sort(struct feroce_flow_list *l);

/* Reads a flow file of either format (told apart by the first line) over topology t;
 * 0, or -1 with "FILE:LINE: what is wrong" in err (l is then empty). */
int feroce_flows_read(const char *path, const struct feroce_topo *t, struct feroce_flow_list *l, char *err,
                      size_t errlen);

/* The first line of a file of this format with n flows (the HPCC format's count). */
void feroce_flows_write_header(FILE *f, enum feroce_flows_format format, size_t n);
/* One flow's line. */
void feroce_flows_write(FILE *f, enum feroce_flows_format format, const struct feroce_topo *t,
                        const struct feroce_flow *flow);

#ifdef __cplusplus
}
#endif

#endif /* FEROCE_FLOWS_H */
