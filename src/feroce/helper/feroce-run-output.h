/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_RUN_OUTPUT_H
#define FEROCE_RUN_OUTPUT_H

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

struct sqlite3;

namespace ns3
{

/**
 * \ingroup feroce
 * Where a run's files go, and how they appear (src/feroce/doc/studies.md, "Outputs").
 *
 * Every target is checked before the run (Check: the output folder can be made, the database
 * can take a row).  While the run lasts its files are in a folder of its own,
 * OUTDIR/incomplete-run (or incomplete-run-2, -3... when a killed or running run holds that
 * one: its files are left where they are).  Publish inserts the row in an open transaction,
 * moves the files into OUTDIR, then commits: any failure moves every file back and rolls the
 * row back, so row and files appear together or not at all.  SIGINT and SIGTERM end the run
 * like a failure that keeps its files: they stay in the run's folder (marked incomplete), no
 * row; signals wait while Publish runs.
 */
class FeroceRunOutput
{
  public:
    FeroceRunOutput(const std::string& program, const std::string& outdir, const std::string& db);
    ~FeroceRunOutput();

    /**
     * Why the run could not write its outputs ("" if it can), naming the flag: --outdir not
     * a folder, not creatable, a name too long, one of names (files the run will write) a
     * folder in the way; --db not a database feroce can write into.
     */
    std::string Check(const std::vector<std::string>& names) const;

    /**
     * Creates the run's folder (and OUTDIR's missing parents) and catches SIGINT and SIGTERM.
     * "" or the message; *leftover: the folder of an unfinished run found there ("" if none).
     */
    std::string Begin(std::string* leftover);
    bool HasBegun() const;
    /// Where output name goes while the run lasts (Begin first).
    std::string GetPath(const std::string& name) const;

    /**
     * Publishes the run: row (insertRow, called inside the open transaction; "" or its
     * message; nothing when --db=none) and files together, or neither.  "" or the message.
     */
    std::string Publish(const std::function<std::string(sqlite3*, int64_t*)>& insertRow,
                        int64_t* id);
    /// A failed run: removes its files, its folder and the folders Begin made.
    void Cleanup();

    const std::string& GetOutdir() const;
    const std::string& GetDb() const;

    /// mkdir -p: every missing parent too, each one made listed in created.
    static bool MakeDirectories(const std::string& path,
                                std::vector<std::string>* created = nullptr);

  private:
    /// Renames done by Publish, undone in reverse when it fails.
    struct Move
    {
        std::string from;
        std::string to;
    };

    static void Undo(std::vector<Move>& moves);

    std::string m_program;
    std::string m_outdir;
    std::string m_db;
    std::string m_folder; ///< the run's own, while it lasts
    std::vector<std::string> m_createdDirs;
};

} // namespace ns3

#endif /* FEROCE_RUN_OUTPUT_H */
