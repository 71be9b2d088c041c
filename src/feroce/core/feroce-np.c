/*
 * feroce-np.c - DCQCN notification point (CNP moderation).
 */
#include "feroce-np.h"

#include <string.h>

enum feroce_err feroce_np_preset(struct feroce_np_params *p, const char *name, struct feroce_check *why)
{
    if (strcmp(name, "paper") == 0) {
        p->interval_ns = 50000; /* Zhu et al. 2015: N = 50 us */
        p->scope = FEROCE_NP_PER_QP;
    } else if (strcmp(name, "hpcc") == 0) {
        p->interval_ns = 0; /* HPCC simulator: a CNP per CE-marked packet */
        p->scope = FEROCE_NP_PER_QP;
    } else {
        return feroce_fail_text(why, FEROCE_E_UNKNOWN_PRESET, "np preset", name, "paper or hpcc");
    }
    return FEROCE_OK;
}

enum feroce_err feroce_np_validate(const struct feroce_np_params *p, struct feroce_check *why)
{
    if (p->interval_ns < 0)
        return feroce_fail(why, FEROCE_E_NP_INTERVAL, "np_interval_ns", (double)p->interval_ns,
                           ">= 0 ns (0 = a CNP per CE-marked packet)");
    if (p->scope != FEROCE_NP_PER_QP && p->scope != FEROCE_NP_PER_PORT)
        return feroce_fail(why, FEROCE_E_NP_SCOPE, "np_scope", p->scope, "per_qp (0) or per_port (1)");
    return FEROCE_OK;
}

int feroce_np_on_ce(const struct feroce_np_params *p, struct feroce_np_state *s, int64_t now)
{
    if (s->sent && now - s->last_cnp < p->interval_ns)
        return 0;
    s->sent = 1;
    s->last_cnp = now;
    return 1;
}
