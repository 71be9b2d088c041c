/* fluid-cmd.h - the subcommands of feroce-fluid; each returns the exit status. */
#ifndef FLUID_CMD_H
#define FLUID_CMD_H

#include <stdio.h>

#include "fluid-args.h"

int fluid_cmd_run(int argc, char **argv);
int fluid_cmd_fixedpoint(int argc, char **argv);
int fluid_cmd_margin(int argc, char **argv);
int fluid_cmd_boundary(int argc, char **argv);
int fluid_cmd_map(int argc, char **argv);
int fluid_cmd_study(int argc, char **argv, const char *prog);

/* Integrate a's model for a->duration_s and write the CSV (t_s, q_bytes, p, then per class
 * rcN_bps, rtN_bps, alphaN) to out every a->window_s; accumulates the queue's mean over
 * [warmup, duration]: queue mean/min/max (bytes) in q_stats[0..2], per-class mean Rc (bps) and alpha,
 * Jain's index over the active flows' Rc min and mean in jain[0..1] (any may be NULL).
 * 0, or 1 with a message on err when the run diverged. */
int fluid_integrate(const struct fluid_args *a, FILE *out, double warmup_s, double *q_stats, double *rc_mean,
                    double *alpha_mean, double *jain, const char *prog, FILE *err);

/* Write to path via path.tmp and a rename, so a failed run leaves no half-written file. */
FILE *fluid_open_atomic(const char *path, char *tmp, size_t len);
int fluid_commit_atomic(FILE *f, const char *tmp, const char *path);

#endif
