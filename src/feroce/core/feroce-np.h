/*
 * feroce-np.h - DCQCN notification point: when a receiver answers a CE mark
 * with a CNP (src/feroce/doc/dcqcn.md, "Notification point").
 *
 * One struct feroce_np_state per QP (scope per_qp) or per receiving port
 * (scope per_port); the caller picks which one a packet uses with
 * feroce_np_select() and sends the CNP when feroce_np_on_ce() says so.
 */
#ifndef FEROCE_NP_H
#define FEROCE_NP_H

#include <stdint.h>

#include "feroce-check.h"

#ifdef __cplusplus
extern "C" {
#endif

enum feroce_np_scope {
    FEROCE_NP_PER_QP = 0, /* one last_cnp per QP (paper, HPCC simulator) */
    FEROCE_NP_PER_PORT    /* one last_cnp per receiving port (ConnectX option) */
};

struct feroce_np_params {
    int64_t interval_ns; /* N: at most one CNP per N; 0 = one CNP per CE-marked packet */
    enum feroce_np_scope scope;
};

struct feroce_np_state {
    int64_t last_cnp; /* instant of the last CNP sent */
    uint8_t sent;     /* a CNP was ever sent */
};

/* paper: 50 us per QP; hpcc: 0 (every CE mark). */
enum feroce_err feroce_np_preset(struct feroce_np_params *p, const char *name, struct feroce_check *why);

enum feroce_err feroce_np_validate(const struct feroce_np_params *p, struct feroce_check *why);

static inline void feroce_np_init(struct feroce_np_state *s)
{
    s->last_cnp = 0;
    s->sent = 0;
}

/* The state that moderates this packet: the QP's or the port's, by scope. */
static inline struct feroce_np_state *
feroce_np_select(const struct feroce_np_params *p, struct feroce_np_state *qp, struct feroce_np_state *port)
{
    return p->scope == FEROCE_NP_PER_PORT ? port : qp;
}

/*
 * A CE-marked data packet arrives at now.  Returns 1 when a CNP is to be sent
 * now (and records it), 0 when moderation suppresses it.
 */
int feroce_np_on_ce(const struct feroce_np_params *p, struct feroce_np_state *s, int64_t now);

#ifdef __cplusplus
}
#endif

#endif /* FEROCE_NP_H */
