/*
 * feroce-cosim-vhpi.c - the co-simulation bench (feroce-cosim.h) for VHDL
 * through GHDL's VHPIDIRECT.  GHDL 2.0 (Debian, mcode backend) passes VHDL
 * integers as int32_t but fails to elaborate 64-bit integer types and passes
 * strings as bounds-carrying records, so this face uses 32-bit integers only:
 * one bench per process, its spec from the environment variable
 * FEROCE_COSIM_SPEC, registers and rates split in halves that fit a natural.
 */
#include <stdint.h>
#include <stdlib.h>

#include "feroce-cosim.h"

static void *bench;

/* Open the bench of $FEROCE_COSIM_SPEC: 1, or 0 after the refusal is printed. */
int32_t feroce_vhpi_open(void)
{
    const char *spec = getenv("FEROCE_COSIM_SPEC");

    bench = feroce_cosim_open(spec ? spec : "");
    return bench != NULL;
}

/* Register number `index` of the list below, bits 30 x half .. 30 x half + 29 (half 0 or 1). */
int32_t feroce_vhpi_reg(int32_t index, int32_t half)
{
    static const char *const names[] = { "line",           "min_rate",       "rai",
                                         "rhai",           "first_cnp_rate", "g",
                                         "initial_alpha",  "alpha_period",   "decrease_period",
                                         "increase_timer", "byte_counter",   "F",
                                         "alpha_periodic", "hai_linear",     "clamp_after_increase",
                                         "rate_nearest",   "alpha_nearest",  "rate_bits",
                                         "alpha_bits",     "cost_per_byte" };
    long long v;

    if (!bench || index < 0 || index >= (int32_t)(sizeof names / sizeof names[0]) || half < 0 || half > 1)
        return -1;
    v = feroce_cosim_reg(bench, names[index]);
    return v < 0 ? -1 : (int32_t)((v >> (30 * half)) & 0x3fffffff);
}

int32_t feroce_vhpi_cnp(int32_t cycle)
{
    return feroce_cosim_cnp(bench, cycle);
}

int32_t feroce_vhpi_tx(int32_t cycle, int32_t ready)
{
    return (int32_t)feroce_cosim_tx(bench, cycle, ready);
}

/* Rc and Rt as 16-bit halves (hi, lo), alpha whole. */
int32_t feroce_vhpi_check(int32_t cycle, int32_t rc_hi, int32_t rc_lo, int32_t rt_hi, int32_t rt_lo,
                          int32_t alpha)
{
    long long rc = (long long)rc_hi << 16 | rc_lo, rt = (long long)rt_hi << 16 | rt_lo;

    return feroce_cosim_check(bench, cycle, rc, rt, alpha);
}

int32_t feroce_vhpi_done(int32_t cycle)
{
    return feroce_cosim_done(bench, cycle);
}

/* Close and end the process: status 0 when the DUT agreed, 1 otherwise (GHDL's own exit is 0). */
int32_t feroce_vhpi_close(void)
{
    int fails = feroce_cosim_close(bench);

    bench = NULL;
    feroce_cosim_exit(fails != 0);
    return fails;
}
