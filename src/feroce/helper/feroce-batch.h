/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_BATCH_H
#define FEROCE_BATCH_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup feroce
 * A study's batch mode (feroce-sweep's "batch N"; src/feroce/doc/sweep-reference.md,
 * "Batches"): `PROGRAM --batch=FILE --db=DB` runs every point of FILE, one a line (the point's
 * own command line, program first, its arguments separated by tabs), without paying the
 * process's start-up (loading ns-3, registering its types) for each point.
 *
 * A fork server.  ns-3 keeps process-wide state (the simulator, Config, global values, the RNG
 * run, attribute defaults, Names), so points cannot share a process; they share its start
 * instead.  The server reads and checks FILE, then for each point forks a child at the start of
 * FeroceStudy::Parse, where a fresh process of the program would be with that command line:
 * nothing the server does touches that state, so the child runs the point exactly as the
 * point's own process would (its files, and its row in the point's --db), and a child that
 * fails (bad input, a failed run, a crash or a kill) fails alone.  Once every point has ended,
 * the server copies each point's row into DB's table runs and writes one line per point into
 * table batch (line, run_id, exit_status, signal, wall_s, error), all in one transaction: a
 * server that dies leaves no line, and feroce-sweep marks the batch's points failed.
 */
class FeroceBatch
{
  public:
    /**
     * Serves a batch when argv asks for one (--batch=FILE).  Returns true when this process
     * goes on as one run of the study: argv asks for no batch (argc and argv are untouched),
     * or this is a point's child (argc and argv are now the point's).  Returns false in the
     * server once the batch is over, with the process's exit code in *exitCode: 0 (DB written;
     * some points may have failed), 1 (DB could not be written), 2 (bad input: an argument
     * besides --batch and --db, or a line of FILE that is not a point of this program; one
     * line on stderr, and no point runs).
     */
    static bool Serve(const std::string& program, int& argc, char**& argv, int* exitCode);

    /// A point's child tells its server where its row went: row id of database db (0: none).
    /// Nothing happens outside a batch.
    static void ReportRow(const std::string& db, int64_t id);
};

} // namespace ns3

#endif /* FEROCE_BATCH_H */
