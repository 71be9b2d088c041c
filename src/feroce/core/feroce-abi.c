/*
 * feroce-abi.c - sizes of the core's public structs (feroce-abi.h).
 */
#include "feroce-abi.h"

#include <string.h>

#include "feroce-check.h"
#include "feroce-cp.h"
#include "feroce-emu-switch.h"
#include "feroce-np.h"
#include "feroce-rp-fixed.h"
#include "feroce-rp.h"
#include "feroce-scoreboard.h"
#include "feroce-wire.h"

/* clang-format off */
#define ENTRY(type) { #type, sizeof(struct type) }
/* clang-format on */

static const struct {
    const char *name;
    size_t size;
} sizes[] = {
    ENTRY(feroce_check),
    ENTRY(feroce_rp_params),
    ENTRY(feroce_rp_vars),
    ENTRY(feroce_rp_state),
    ENTRY(feroce_np_params),
    ENTRY(feroce_np_state),
    ENTRY(feroce_cp_params),
    ENTRY(feroce_roce),
    ENTRY(feroce_eth),
    ENTRY(feroce_ipv4),
    ENTRY(feroce_udp),
    ENTRY(feroce_bth),
    ENTRY(feroce_reth),
    ENTRY(feroce_aeth),
    ENTRY(feroce_pfc),
    ENTRY(feroce_emu_params),
    ENTRY(feroce_emu_output),
    ENTRY(feroce_emu_slot),
    ENTRY(feroce_emu_stats),
    ENTRY(feroce_emu_state),
    ENTRY(feroce_rp_fixed_format),
    ENTRY(feroce_rp_fixed_params),
    ENTRY(feroce_rp_fixed_regs),
    ENTRY(feroce_rp_fixed_state),
    ENTRY(feroce_sb_params),
    ENTRY(feroce_sb_regs),
    ENTRY(feroce_sb_mismatch),
    ENTRY(feroce_sb_state),
};

size_t feroce_abi_sizeof(const char *name)
{
    size_t i;

    for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (strcmp(sizes[i].name, name) == 0)
            return sizes[i].size;
    return 0;
}
