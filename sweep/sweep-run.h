/*
 * sweep-run.h - the commands that run points: run (a sweep on local cores)
 * and task (one point of a SLURM job array into its own shard).
 */
#ifndef FEROCE_SWEEP_RUN_H
#define FEROCE_SWEEP_RUN_H

#include "sweep-context.h"

/* feroce-sweep run FILE [-j N] [--retry-failed] [--timeout S] [--dir DIR] */
int sweep_cmd_run(const char *file, const struct sweep_opts *o);

/* feroce-sweep task SHARED_DIR N: the point on line N of SHARED_DIR/tasks.txt */
int sweep_cmd_task(const char *shared_dir, const char *n, const struct sweep_opts *o);

/* The number of processors this process may run on. */
long sweep_cores(void);

#endif /* FEROCE_SWEEP_RUN_H */
