/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-batch.h"

#include "ns3/feroce-db.h"
#include "ns3/rng-stream.h"

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <signal.h>
#include <sstream>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>
#ifdef __linux__
#include <sys/prctl.h>
#endif

namespace ns3
{

namespace
{

/// What a point's child tells its server: where its row went (shared memory, cleared before
/// each fork).
struct RowReport
{
    int64_t id;
    int reported;
    char db[PATH_MAX];
};

/// In a point's child: where ReportRow writes (nullptr elsewhere).
RowReport* g_report = nullptr;

/// The bytes of a failed point's stderr kept as its error (what feroce-sweep keeps of a
/// point's stderr.txt).
const std::size_t kErrorTailBytes = 4096;

/// One line of the batch: the point's command line and how its child ended.
struct Point
{
    std::string text;        ///< the line, its tabs turned into ends of strings
    std::vector<char*> argv; ///< into text, ending with nullptr
    int exitStatus{0};       ///< -1 when a signal ended it
    int signal{0};           ///< the signal that ended it
    double wallSeconds{0};   ///< fork to exit
    std::string error;       ///< the end of its stderr when it failed
    std::string db;          ///< the database its row went to ("" when none)
    int64_t id{0};           ///< that row's id
};

std::string
Basename(const std::string& path)
{
    std::size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// Whether a and b name the same file (both exist), or are the same text.
bool
SameFile(const std::string& a, const std::string& b)
{
    struct stat sa;
    struct stat sb;
    if (stat(a.c_str(), &sa) == 0 && stat(b.c_str(), &sb) == 0)
    {
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    }
    return a == b;
}

/// Splits point p's line into its argv; why the line is not a point of this program (self:
/// its path) beside the batch's database, or "".
std::string
SplitPoint(Point& p, const std::string& self, const std::string& batchDb)
{
    if (p.text.find('\0') != std::string::npos)
    {
        return "holds a NUL byte";
    }
    if (p.text.empty())
    {
        return "is empty";
    }
    std::size_t start = 0;
    for (;;)
    {
        std::size_t tab = p.text.find('\t', start);
        p.argv.push_back(&p.text[start]);
        if (tab == std::string::npos)
        {
            break;
        }
        p.text[tab] = '\0';
        start = tab + 1;
    }
    p.argv.push_back(nullptr);
    std::string program = p.argv[0];
    if (program.empty())
    {
        return "starts with a tab";
    }
    if (Basename(program) != Basename(self) && !SameFile(program, self))
    {
        return "is a point of " + program;
    }
    for (std::size_t i = 1; i + 1 < p.argv.size(); i++)
    {
        std::string arg = p.argv[i];
        if (arg == "--batch" || arg.rfind("--batch=", 0) == 0)
        {
            return "has " + arg + " (a batch in a batch)";
        }
        if (arg.rfind("--db=", 0) == 0 && SameFile(arg.substr(5), batchDb))
        {
            return "has " + arg + ", the batch's own database";
        }
    }
    return "";
}

/// The end of a failed point's stderr, as feroce-sweep keeps a point's: at most the last
/// kErrorTailBytes, from a line's start, without the trailing newlines.
std::string
ErrorTail(const std::string& text)
{
    std::size_t from = 0;
    if (text.size() > kErrorTailBytes)
    {
        from = text.size() - kErrorTailBytes;
        std::size_t nl = text.find('\n', from);
        if (nl != std::string::npos && nl + 1 < text.size())
        {
            from = nl + 1;
        }
    }
    std::string tail = text.substr(from);
    tail = tail.substr(0, std::strlen(tail.c_str())); // text only: up to a NUL byte
    while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r'))
    {
        tail.pop_back();
    }
    return tail;
}

/// What a point's child wrote on stderr (the server's temporary file).
std::string
ReadAll(int fd)
{
    std::string text;
    char buf[65536];
    off_t at = 0;
    ssize_t n;
    while ((n = pread(fd, buf, sizeof buf, at)) > 0)
    {
        text.append(buf, std::size_t(n));
        at += n;
    }
    return text;
}

/// Runs point i in a child.  Returns true in the child (argc and argv made the point's), false
/// in the server once the child has ended; *failed: the server could not fork.
bool
RunPoint(std::vector<Point>& points,
         std::size_t i,
         FILE* errFile,
         RowReport* report,
         int& argc,
         char**& argv,
         bool* failed)
{
    Point& p = points[i];
    int errFd = fileno(errFile);
    std::memset(report, 0, sizeof *report);
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    if (ftruncate(errFd, 0) != 0 || lseek(errFd, 0, SEEK_SET) != 0)
    {
        *failed = true;
        return false;
    }
    auto t0 = std::chrono::steady_clock::now();
    pid_t server = getpid();
    pid_t pid = fork();
    if (pid < 0)
    {
        *failed = true;
        return false;
    }
    if (pid == 0)
    {
#ifdef __linux__
        prctl(PR_SET_PDEATHSIG, SIGKILL); // no point outlives its server
        if (getppid() != server)
        {
            _exit(127);
        }
#endif
        (void)server;
        if (dup2(errFd, STDERR_FILENO) < 0)
        {
            _exit(127);
        }
        std::fclose(errFile);
        g_report = report;
        argc = int(p.argv.size()) - 1;
        argv = p.argv.data();
        return true;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    {
    }
    p.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    p.exitStatus = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    p.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    std::string text = ReadAll(errFd);
    // the point's stderr on the server's, each line marked with the point's line
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line))
    {
        std::cerr << "line " << i + 1 << ": " << line << "\n";
    }
    if (p.exitStatus != 0)
    {
        p.error = ErrorTail(text);
        if (p.signal)
        {
            std::cerr << "line " << i + 1 << ": killed by signal " << p.signal << " ("
                      << strsignal(p.signal) << ")\n";
        }
    }
    else if (report->reported && report->id > 0)
    {
        report->db[sizeof report->db - 1] = '\0';
        p.db = report->db;
        p.id = report->id;
    }
    std::cerr.flush();
    return false;
}

/// Copies point p's row from its database into out ("" or why not); *id gets its new id.
std::string
CopyRow(const Point& p, sqlite3* out, int64_t* id)
{
    sqlite3* from = nullptr;
    char err[512] = "";
    std::string error;
    if (sqlite3_open_v2(p.db.c_str(), &from, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK)
    {
        error = "cannot open its --db " + p.db + ": " + sqlite3_errmsg(from);
    }
    else
    {
        sqlite3_busy_timeout(from, 60000);
        if (feroce_db_copy_run(from, p.id, out, id, err, sizeof err) != 0)
        {
            error = "cannot copy its row " + std::to_string(p.id) + " from " + p.db + ": " + err;
        }
    }
    sqlite3_close(from);
    return error;
}

/// Writes every point's row and line into the batch's database, in one transaction; "" or why
/// not.
std::string
WriteBatch(const std::string& path, std::vector<Point>& points)
{
    static const char schema[] =
        "DROP TABLE IF EXISTS batch; "
        "CREATE TABLE batch (line INTEGER PRIMARY KEY, run_id INTEGER, exit_status INTEGER, "
        "signal INTEGER, wall_s REAL NOT NULL, error TEXT)";
    static const char insert[] = "INSERT INTO batch (line, run_id, exit_status, signal, wall_s, "
                                 "error) VALUES (?,?,?,?,?,?)";
    sqlite3* db = nullptr;
    char err[512] = "";
    if (feroce_db_open(path.c_str(), &db, err, sizeof err) != 0)
    {
        sqlite3_close(db);
        return err;
    }
    int begun = feroce_db_begin(db, err, sizeof err);
    if (begun < 0 || sqlite3_exec(db, schema, nullptr, nullptr, nullptr) != SQLITE_OK)
    {
        std::string error = begun < 0 ? err : sqlite3_errmsg(db);
        feroce_db_rollback(db, begun);
        sqlite3_close(db);
        return error;
    }
    for (std::size_t i = 0; i < points.size(); i++)
    {
        Point& p = points[i];
        int64_t runId = 0;
        if (!p.db.empty())
        {
            std::string error = CopyRow(p, db, &runId);
            if (!error.empty())
            {
                p.error = error; // exited 0, but no row: feroce-sweep fails it with this
                runId = 0;
                std::cerr << "line " << i + 1 << ": " << error << std::endl;
            }
        }
        const struct feroce_db_value v[] = {
            FEROCE_DB_INT(int64_t(i + 1)),
            runId ? FEROCE_DB_INT(runId) : FEROCE_DB_NULL,
            p.signal ? FEROCE_DB_NULL : FEROCE_DB_INT(p.exitStatus),
            p.signal ? FEROCE_DB_INT(p.signal) : FEROCE_DB_NULL,
            FEROCE_DB_REAL(p.wallSeconds),
            p.error.empty() ? FEROCE_DB_NULL : FEROCE_DB_TEXT(p.error.c_str()),
        };
        if (feroce_db_write(db,
                            insert,
                            v,
                            sizeof v / sizeof v[0],
                            "a batch line",
                            err,
                            sizeof err) != 0)
        {
            feroce_db_rollback(db, begun);
            sqlite3_close(db);
            return err;
        }
    }
    std::string error;
    if (feroce_db_commit(db, begun, "the batch", err, sizeof err) != 0)
    {
        error = err;
    }
    sqlite3_close(db);
    return error;
}

/// A bad input of the batch: one line, exit status 2.
bool
Refuse(const std::string& program, const std::string& message, int* exitCode)
{
    std::cerr << program << ": " << message << std::endl;
    *exitCode = 2;
    return false;
}

} // namespace

void
FeroceBatch::ReportRow(const std::string& db, int64_t id)
{
    if (!g_report)
    {
        return;
    }
    std::snprintf(g_report->db, sizeof g_report->db, "%s", db.c_str());
    g_report->id = db.size() < sizeof g_report->db ? id : 0;
    g_report->reported = 1;
}

bool
FeroceBatch::Serve(const std::string& program, int& argc, char**& argv, int* exitCode)
{
    std::string file;
    std::string db;
    int batches = 0;
    int dbs = 0;
    for (int i = 1; i < argc; i++)
    {
        std::string arg = argv[i];
        if (arg.rfind("--batch=", 0) == 0)
        {
            file = arg.substr(8);
            batches++;
        }
        else if (arg.rfind("--db=", 0) == 0)
        {
            db = arg.substr(5);
            dbs++;
        }
    }
    if (batches == 0)
    {
        return true;
    }
    const std::string usage = "expected only --batch=FILE and --db=FILE";
    for (int i = 1; i < argc; i++)
    {
        std::string arg = argv[i];
        if (arg.rfind("--batch=", 0) != 0 && arg.rfind("--db=", 0) != 0)
        {
            return Refuse(program,
                          "argument " + arg + " is not allowed with --batch: " + usage,
                          exitCode);
        }
    }
    if (batches > 1 || dbs > 1)
    {
        return Refuse(program,
                      std::string(batches > 1 ? "--batch" : "--db") + " is given twice: " + usage +
                          ", once each",
                      exitCode);
    }
    char err[512] = "";
    if (db.empty() || db == "none")
    {
        return Refuse(program,
                      "--db=" + db + " is not allowed with --batch: expected the database file " +
                          "that takes the batch's rows",
                      exitCode);
    }
    if (feroce_db_check(db.c_str(), err, sizeof err) != 0)
    {
        return Refuse(program, "--db=" + db + " is not allowed: " + err, exitCode);
    }
    // in a child the points outlive this function: its command line is one of them
    auto owned = std::make_unique<std::vector<Point>>();
    std::vector<Point>& points = *owned;
    {
        std::ifstream in(file, std::ios::binary); // closed before the points run
        if (!in)
        {
            return Refuse(program,
                          "--batch=" + file +
                              " is not allowed: expected a readable file of points, one a line" +
                              (file.empty() ? "" : std::string(" (") + std::strerror(errno) + ")"),
                          exitCode);
        }
        std::string line;
        while (std::getline(in, line))
        {
            points.emplace_back();
            points.back().text = line;
        }
        if (in.bad())
        {
            return Refuse(program,
                          "--batch=" + file + " is not allowed: it cannot be read",
                          exitCode);
        }
    }
    for (std::size_t i = 0; i < points.size(); i++)
    {
        std::string why = SplitPoint(points[i], argv[0], db);
        if (!why.empty())
        {
            return Refuse(program,
                          "--batch=" + file + " is not allowed: line " + std::to_string(i + 1) +
                              " " + why + "; expected a point of " + program +
                              " on each line (the program, then its arguments, separated by tabs)",
                          exitCode);
        }
    }
    // the one-time set-up that depends on no point, done once here rather than in every child:
    // ns-3 computes MRG32k3a's jump-ahead matrices at a process's first random stream (a table
    // of constants in a function's static; more than half the instructions of a 1 ms
    // advcam-incast)
    RngStream warm(1, 1, 1);
    // the server's: a file for the children's stderr, a page for their rows
    FILE* errFile = std::tmpfile();
    void* page =
        mmap(nullptr, sizeof(RowReport), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (!errFile || page == MAP_FAILED)
    {
        std::cerr << program << ": cannot start the batch: " << std::strerror(errno) << std::endl;
        *exitCode = 1;
        return false;
    }
    RowReport* report = static_cast<RowReport*>(page);
    for (std::size_t i = 0; i < points.size(); i++)
    {
        bool forkFailed = false;
        if (RunPoint(points, i, errFile, report, argc, argv, &forkFailed))
        {
            owned.release(); // the point's child: on to its run, with its command line
            return true;
        }
        if (forkFailed)
        {
            std::cerr << program << ": cannot start point " << i + 1
                      << " of the batch: " << std::strerror(errno) << std::endl;
            *exitCode = 1;
            return false;
        }
    }
    std::fclose(errFile);
    munmap(page, sizeof(RowReport));
    std::string error = WriteBatch(db, points);
    if (!error.empty())
    {
        std::cerr << program << ": --db=" << db << ": " << error << std::endl;
        *exitCode = 1;
        return false;
    }
    std::size_t failed = 0;
    for (const Point& p : points)
    {
        failed += p.exitStatus != 0 || !p.error.empty();
    }
    std::cout << program << ": batch of " << points.size() << " points, " << failed
              << " failed, rows in " << db << std::endl;
    *exitCode = 0;
    return false;
}

} // namespace ns3
