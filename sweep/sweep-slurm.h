/*
 * sweep-slurm.h - the cluster backend: a SLURM job array whose tasks each run
 * one point into a shard on a shared filesystem, and the merge of shards
 * into the sweep's database.
 */
#ifndef FEROCE_SWEEP_SLURM_H
#define FEROCE_SWEEP_SLURM_H

#include "sweep-context.h"

/* feroce-sweep slurm FILE --shared-dir DIR [--time T] [--max-parallel N] [--sbatch-option OPT]... [--all] */
int sweep_cmd_slurm(const char *file, const struct sweep_opts *o);

/* feroce-sweep merge FILE SHARD... (shard.db files, shard directories, or directories of them) */
int sweep_cmd_merge(const char *file, const struct sweep_opts *o);

#endif /* FEROCE_SWEEP_SLURM_H */
