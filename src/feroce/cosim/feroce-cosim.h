/*
 * feroce-cosim.h - the firmware co-simulation bench on the core, behind a
 * handful of scalar calls that an HDL simulator reaches through DPI-C
 * (SystemVerilog) or VHPIDIRECT (VHDL).
 *
 * One handle runs one bench, cycle by cycle, in one of two modes:
 *   - incast: the DUT (a rate limiter) paces RDMA WRITE frames into the
 *     emulated DCQCN switch (feroce-emu-switch.h) beside N-1 virtual senders;
 *     the CNPs the receiver sends back are driven into the DUT;
 *   - script: a rate-limiter script (doc/dcqcn.md, "Rate-limiter trace
 *     format") drives the DUT's CNP and byte inputs.
 * In both, the scoreboard (feroce-scoreboard.h) sees the same CNPs and bytes
 * as the DUT, compares its registers, and the bench writes a CSV of DUT and
 * golden registers and the DUT's measured throughput.
 *
 * Not part of the core: it allocates once at open and writes files.
 * Every call returns; a run ends at its duration (incast) or at the end of
 * its script, and feroce_cosim_done() says so, so a bench cannot run away.
 */
#ifndef FEROCE_COSIM_H
#define FEROCE_COSIM_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Open a bench from a spec of key=value words separated by spaces or commas
 * (commas survive a simulator plusarg):
 *   mode=incast|script  (incast)
 *   script=PATH         the rate-limiter script (mode=script)
 *   rp=PRESET           the DUT's DCQCN rules in incast mode (connectx); a script names its own
 *   format=NAME         register formats (default | surf), then any of clock_hz, rate_bits,
 *                       rate_lsb_bps, alpha_bits, rounding, rate_rounding, alpha_rounding
 *   switch=PRESET       ECN and CNP moderation of the emulated switch (paper | hpcc)
 *   senders=N           virtual senders beside the DUT (2: a 3:1 incast)
 *   seed=N              the switch's marking draws (1)
 *   duration_ns=T       incast length (2000000)
 *   check_every=N       periodic comparison every N cycles besides every event (1)
 *   sample=N            a CSV row every N cycles (1024)
 *   csv=PATH            the CSV (written to PATH.part, renamed when closed)
 *   tx_chunk=N          script: bytes per cycle at most on the byte input (9000)
 *   ack_every=N         incast: AckReq on every N-th frame, 0 none (16)
 * Returns NULL after printing one line "feroce-cosim: NAME = VALUE is not allowed: ..." to stderr.
 */
void *feroce_cosim_open(const char *spec);

/*
 * A register of the DUT's configuration, in register units: line, min_rate,
 * rai, rhai, first_cnp_rate (LSBs); g, initial_alpha, alpha_one (alpha
 * units); alpha_period, decrease_period, increase_timer (cycles);
 * byte_counter (bytes); F; alpha_periodic, hai_linear, clamp_after_increase,
 * rate_nearest, alpha_nearest (0/1); rate_bits, alpha_bits; cost_per_byte
 * (pacing: 8 x clock_hz / rate LSB, rounded); -1 for an unknown name (printed).
 */
long long feroce_cosim_reg(void *h, const char *name);

/* 1 when a CNP reaches the DUT in this cycle (one per cycle; the scoreboard sees it too), else
 * 0. */
int feroce_cosim_cnp(void *h, long long cycle);

/*
 * The bytes the DUT transmits in this cycle (its byte counter input), 0 if
 * none.  incast: a frame starts when dut_ready and the MAC is free (the frame
 * enters the switch); script: the script's bytes, at most tx_chunk a cycle.
 */
long long feroce_cosim_tx(void *h, long long cycle, int dut_ready);

/*
 * The DUT's registers after every event of this cycle.  Returns 1 on the
 * first mismatch (printed once, with cycle, register, expected and actual),
 * 0 otherwise; writes the CSV rows.
 */
int feroce_cosim_check(void *h, long long cycle, long long rc, long long rt, long long alpha);

/* 1 when the run is over at this cycle. */
int feroce_cosim_done(void *h, long long cycle);

/*
 * Print the summary ("feroce-cosim: PASS ..." or "feroce-cosim: FAIL first
 * mismatch ..."), close the CSV, free the handle.  Returns the number of
 * failed comparisons (0: the DUT agreed register for register).
 */
int feroce_cosim_close(void *h);

/*
 * Flush and end the process with this status: a bench's way to fail with a
 * plain exit status (Verilator's $fatal aborts, which test drivers count as
 * a crash, not as a failure).
 */
void feroce_cosim_exit(int status);

#ifdef __cplusplus
}
#endif

#endif /* FEROCE_COSIM_H */
