/*
 * sweep-inputs.h - the files a point's run reads, as its program says, so that a point's key
 * covers their content: an edited topology, flow or configuration file (or a file a
 * configuration names) makes new points, and a file the points write (a log) changes nothing.
 *
 * A program built on feroce's front door declares which of its flags name input files
 * ("PROGRAM --PrintInputFlags": their names, one a line) and says which files a command line
 * reads ("PROGRAM INPUT-FLAGS --PrintInputs": the paths, one a line, those a configuration names
 * included).  A program that answers neither (exit status not 0) declares no input: its points'
 * keys cover no file.  Each distinct set of input flags is asked once.
 */
#ifndef FEROCE_SWEEP_INPUTS_H
#define FEROCE_SWEEP_INPUTS_H

#include <stddef.h>

struct sweep_inputs;

/* The inputs of a program (its path; NULL: a program that cannot be run, no inputs). */
struct sweep_inputs *sweep_inputs_new(const char *program_path);
void sweep_inputs_free(struct sweep_inputs *in);

/* Whether flag ("--name=value" or "name") is one of the program's input-file flags. */
int sweep_inputs_is_input(const struct sweep_inputs *in, const char *flag);

/* The files a command reads ("--name=value" flags; those that are not input flags are left out
 * of the question), one path a line ending in '\n'; "" when none.  Owned by in. */
const char *sweep_inputs_files(struct sweep_inputs *in, const char *const *flags, size_t n);

/* 64-bit FNV-1a of a file's bytes as 16 hex digits into hex; 0, or -1 (not a readable regular
 * file: hex is "missing"). */
int sweep_inputs_hash(const char *path, char hex[17]);

#endif /* FEROCE_SWEEP_INPUTS_H */
