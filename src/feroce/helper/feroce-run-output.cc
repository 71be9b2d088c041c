/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-run-output.h"

#include "ns3/feroce-db.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ns3
{

namespace
{

/// What the signal handler prints (formatted by Begin: a handler may only write).
char g_interrupted[PATH_MAX + 256];
std::size_t g_interruptedLength = 0;

void
OnSignal(int sig)
{
    if (g_interruptedLength > 0)
    {
        ssize_t ignored = write(STDERR_FILENO, g_interrupted, g_interruptedLength);
        (void)ignored;
    }
    std::signal(sig, SIG_DFL);
    raise(sig); // the shell sees the signal: exit status 128 + sig
}

/// The names in dir (no "." or "..").
std::vector<std::string>
ListFolder(const std::string& dir)
{
    std::vector<std::string> names;
    if (DIR* d = opendir(dir.c_str()))
    {
        while (dirent* e = readdir(d))
        {
            std::string name = e->d_name;
            if (name != "." && name != "..")
            {
                names.push_back(name);
            }
        }
        closedir(d);
    }
    return names;
}

/// Why a run could not write into dir ("" if it can): an existing folder must be
/// writable, a missing one creatable in its nearest existing parent; names not too long.
std::string
CheckFolder(const std::string& dir)
{
    if (dir.size() >= PATH_MAX - 64)
    {
        return "the path is longer than " + std::to_string(PATH_MAX - 64) + " bytes";
    }
    for (std::size_t at = 0; at < dir.size();)
    {
        std::size_t slash = dir.find('/', at);
        std::size_t n = (slash == std::string::npos ? dir.size() : slash) - at;
        if (n > NAME_MAX)
        {
            return "a name in it is longer than " + std::to_string(NAME_MAX) + " bytes";
        }
        at += n + 1;
    }
    struct stat sb;
    std::string probe = dir;
    while (stat(probe.c_str(), &sb) != 0)
    {
        struct stat link;
        if (lstat(probe.c_str(), &link) == 0)
        {
            return probe + " is a symbolic link to a missing folder";
        }
        std::size_t slash = probe.find_last_of('/');
        probe = slash == std::string::npos ? "." : slash == 0 ? "/" : probe.substr(0, slash);
    }
    if (!S_ISDIR(sb.st_mode))
    {
        return probe == dir ? "it is not a folder" : probe + " is not a folder";
    }
    // a folder made and removed at once: what the run will do there, without leaving anything
    // (access() says yes to root on read-only or special file systems)
    std::string trial = (probe == "/" ? "" : probe) + "/.feroce-outdir-XXXXXX";
    std::vector<char> name(trial.begin(), trial.end());
    name.push_back('\0');
    if (!mkdtemp(name.data()))
    {
        return "cannot create a folder in " + probe + " (" + std::strerror(errno) + ")";
    }
    rmdir(name.data());
    return "";
}

/// Blocks SIGINT and SIGTERM while it lives (they are delivered when it ends).
class SignalsHeld
{
  public:
    SignalsHeld()
    {
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, SIGINT);
        sigaddset(&set, SIGTERM);
        sigprocmask(SIG_BLOCK, &set, &m_old);
    }

    ~SignalsHeld()
    {
        sigprocmask(SIG_SETMASK, &m_old, nullptr);
    }

  private:
    sigset_t m_old;
};

} // namespace

FeroceRunOutput::FeroceRunOutput(const std::string& program,
                                 const std::string& outdir,
                                 const std::string& db)
    : m_program(program),
      m_outdir(outdir),
      m_db(db)
{
}

FeroceRunOutput::~FeroceRunOutput()
{
    if (!m_folder.empty())
    {
        // the run did not publish: its files stay, marked, as a killed run's would
        std::signal(SIGINT, SIG_DFL);
        std::signal(SIGTERM, SIG_DFL);
    }
}

bool
FeroceRunOutput::MakeDirectories(const std::string& path, std::vector<std::string>* created)
{
    for (std::size_t i = 1; i <= path.size(); i++)
    {
        if (i == path.size() || path[i] == '/')
        {
            std::string part = path.substr(0, i);
            if (mkdir(part.c_str(), 0777) == 0)
            {
                if (created)
                {
                    created->push_back(part);
                }
            }
            else if (errno != EEXIST)
            {
                return false;
            }
        }
    }
    return true;
}

std::string
FeroceRunOutput::Check(const std::vector<std::string>& names) const
{
    if (m_outdir.empty())
    {
        return "--outdir= is not allowed: expected a folder";
    }
    std::string why = CheckFolder(m_outdir);
    if (!why.empty())
    {
        return "--outdir=" + m_outdir + " is not allowed: " + why;
    }
    for (const std::string& name : names)
    {
        struct stat sb;
        std::string path = m_outdir + "/" + name;
        if (lstat(path.c_str(), &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISLNK(sb.st_mode))
        {
            return "--outdir=" + m_outdir + " is not allowed: " + path +
                   " is in the way (not a file)";
        }
    }
    if (m_db != "none")
    {
        char err[512];
        if (feroce_db_check(m_db.c_str(), err, sizeof err) != 0)
        {
            return "--db=" + m_db + " is not allowed: " + err + " (none: write no row)";
        }
    }
    return "";
}

std::string
FeroceRunOutput::Begin(std::string* leftover)
{
    leftover->clear();
    if (!MakeDirectories(m_outdir, &m_createdDirs))
    {
        return "cannot create " + m_outdir + ": " + std::strerror(errno);
    }
    // a folder of its own: never another run's, whose files stay where they are
    for (int n = 1; n <= 1000; n++)
    {
        std::string folder = m_outdir + "/incomplete-run" + (n == 1 ? "" : "-" + std::to_string(n));
        if (mkdir(folder.c_str(), 0777) == 0)
        {
            m_folder = folder;
            break;
        }
        if (errno != EEXIST)
        {
            return "cannot create " + folder + ": " + std::strerror(errno);
        }
        if (leftover->empty())
        {
            *leftover = folder;
        }
    }
    if (m_folder.empty())
    {
        return "cannot create a folder for the run in " + m_outdir +
               ": incomplete-run .. incomplete-run-1000 all exist";
    }
    int n = std::snprintf(g_interrupted,
                          sizeof g_interrupted,
                          "%s: interrupted: the run's files stay in %s, no row\n",
                          m_program.c_str(),
                          m_folder.c_str());
    g_interruptedLength = n > 0 ? std::min<std::size_t>(n, sizeof g_interrupted - 1) : 0;
    std::signal(SIGINT, OnSignal);
    std::signal(SIGTERM, OnSignal);
    return "";
}

bool
FeroceRunOutput::HasBegun() const
{
    return !m_folder.empty();
}

std::string
FeroceRunOutput::GetPath(const std::string& name) const
{
    return m_folder + "/" + name;
}

const std::string&
FeroceRunOutput::GetOutdir() const
{
    return m_outdir;
}

const std::string&
FeroceRunOutput::GetDb() const
{
    return m_db;
}

void
FeroceRunOutput::Undo(std::vector<Move>& moves)
{
    for (auto m = moves.rbegin(); m != moves.rend(); ++m)
    {
        std::rename(m->to.c_str(), m->from.c_str());
    }
    moves.clear();
}

std::string
FeroceRunOutput::Publish(const std::function<std::string(sqlite3*, int64_t*)>& insertRow,
                         int64_t* id)
{
    SignalsHeld held;
    std::vector<std::string> names = ListFolder(m_folder);
    for (const std::string& name : names)
    {
        struct stat sb;
        std::string to = m_outdir + "/" + name;
        if (lstat(to.c_str(), &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISLNK(sb.st_mode))
        {
            return "cannot publish the run: " + to + " is in the way (not a file)";
        }
    }
    sqlite3* db = nullptr;
    if (m_db != "none")
    {
        char err[512];
        std::size_t slash = m_db.find_last_of('/');
        if (slash != std::string::npos && slash > 0 && !MakeDirectories(m_db.substr(0, slash)))
        {
            return "cannot create the folder of --db " + m_db + ": " + std::strerror(errno);
        }
        if (feroce_db_open(m_db.c_str(), &db, err, sizeof err) != 0)
        {
            return "results database " + m_db + ": " + err;
        }
        if (sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) != SQLITE_OK)
        {
            std::string why = sqlite3_errmsg(db);
            sqlite3_close(db);
            return "results database " + m_db + ": starting the transaction: " + why;
        }
        std::string error = insertRow(db, id);
        if (!error.empty())
        {
            sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
            sqlite3_close(db);
            return "results database " + m_db + ": " + error;
        }
    }
    // the files: any a former run left in OUTDIR under the same name are set aside, to come
    // back if the publish fails; so are a former run's captures this run did not write (a run
    // of fewer devices, or without --pcap), which would otherwise stand beside its results
    std::string aside = m_folder + "/.replaced";
    std::vector<Move> moves;
    std::string error;
    std::vector<std::string> replaced = names;
    for (const std::string& name : ListFolder(m_outdir))
    {
        struct stat sb;
        bool capture = name.size() > 5 && name.compare(name.size() - 5, 5, ".pcap") == 0;
        if (capture && std::find(names.begin(), names.end(), name) == names.end() &&
            lstat((m_outdir + "/" + name).c_str(), &sb) == 0 && S_ISREG(sb.st_mode))
        {
            replaced.push_back(name);
        }
    }
    for (const std::string& name : replaced)
    {
        std::string from = m_folder + "/" + name;
        std::string to = m_outdir + "/" + name;
        bool ours = std::find(names.begin(), names.end(), name) != names.end();
        struct stat sb;
        if (lstat(to.c_str(), &sb) == 0)
        {
            if (mkdir(aside.c_str(), 0777) != 0 && errno != EEXIST)
            {
                error = "cannot create " + aside + ": " + std::strerror(errno);
                break;
            }
            if (std::rename(to.c_str(), (aside + "/" + name).c_str()) != 0)
            {
                error = "cannot move the former " + to + " aside: " + std::strerror(errno);
                break;
            }
            moves.push_back({to, aside + "/" + name});
        }
        if (!ours)
        {
            continue;
        }
        if (std::rename(from.c_str(), to.c_str()) != 0)
        {
            error = "cannot move " + name + " into " + m_outdir + ": " + std::strerror(errno);
            break;
        }
        moves.push_back({from, to});
    }
    if (error.empty() && db && sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK)
    {
        error = "results database " + m_db + ": committing the run: " + sqlite3_errmsg(db);
    }
    if (!error.empty())
    {
        Undo(moves);
        rmdir(aside.c_str());
        if (db)
        {
            sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
            sqlite3_close(db);
        }
        return error;
    }
    sqlite3_close(db);
    for (const std::string& name : ListFolder(aside))
    {
        std::remove((aside + "/" + name).c_str());
    }
    rmdir(aside.c_str());
    rmdir(m_folder.c_str());
    m_folder.clear();
    // published: an interruption now just ends the process
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    return "";
}

void
FeroceRunOutput::Cleanup()
{
    if (!m_folder.empty())
    {
        for (const std::string& name : ListFolder(m_folder))
        {
            std::remove((m_folder + "/" + name).c_str());
        }
        rmdir(m_folder.c_str());
        m_folder.clear();
        std::signal(SIGINT, SIG_DFL);
        std::signal(SIGTERM, SIG_DFL);
    }
    for (auto d = m_createdDirs.rbegin(); d != m_createdDirs.rend(); ++d)
    {
        rmdir(d->c_str()); // only if empty
    }
    m_createdDirs.clear();
}

} // namespace ns3
