/*
 * fluid-args.h - command-line flags of feroce-fluid: the packet model's
 * names and presets turned into struct feroce_fluid_params, by one table of
 * flags (name, how its value is read, where it goes, what is allowed).
 */
#ifndef FLUID_ARGS_H
#define FLUID_ARGS_H

#include <stdio.h>

#include "feroce-fluid.h"

#define FLUID_MAX_EXTRA 32

/* What a subcommand parsed: the model and the run's own flags. */
struct fluid_args {
    struct feroce_fluid_params p;
    double duration_s;       /* run */
    double window_s;         /* run: sampling interval of the CSV */
    const char *out;         /* output file (run: CSV; map: file prefix) */
    const char *x, *y;       /* map axes: NAME:FROM:TO:COUNT[:log] */
    const char *outdir, *db; /* study (feroce-sweep's contract) */
    long seed;
    int64_t max_delay_ns; /* boundary */
    /* flags as given, for the study's row */
    int nflags;
    const char *flag_name[128];
    const char *flag_value[128];
};

/*
 * Parse argv[first..] (each --name=value or --name value).  `extra` lists the subcommand's own
 * flags (NULL-terminated) beyond the model's.  Prints one line naming the bad flag on err and
 * returns 2; 0 when all is valid.
 */
int fluid_args_parse(struct fluid_args *a, int argc, char **argv, int first, const char *const *extra,
                     const char *prog, FILE *err);

/* Apply one model flag (without "--") to p, as the command line would; 0, or 2 with a message in
 * msg.  Used by map to set the axes' values. */
int fluid_args_apply(struct feroce_fluid_params *p, const char *name, const char *value, char *msg,
                     size_t len);

/* What a model flag's values are (FLUID_REAL for a name that is not one): map's axes. */
enum fluid_unit { FLUID_TIME, FLUID_RATE, FLUID_BYTES, FLUID_COUNT, FLUID_REAL };
enum fluid_unit fluid_args_unit(const char *name);

/* Parsers of values with units; 0 on success. */
int fluid_parse_time_ns(const char *text, int64_t *ns);
int fluid_parse_rate_bps(const char *text, double default_unit, double *bps);
int fluid_parse_bytes(const char *text, uint64_t *bytes);

#endif
