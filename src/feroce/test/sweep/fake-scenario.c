/*
 * fake-scenario.c - a scenario program for feroce-sweep's tests: it follows
 * the contract of the real ones (--outdir, --RngRun, --db, --duration, its
 * own flags and ns-3 attributes --ns3::Type::Attr=V; one row into --db at its
 * very end; bad flags: a message and exit status 2) and computes its metrics
 * from its flags by known formulas, so statistics can be checked by hand:
 *
 *   goodput_gbps = x            jain_min = 1 / (1 + y)     value = 10 x + seed
 *   square = y seed^2           queue_max_bytes = 1000 x + y
 *   seed = seed                 undefined = null (NaN)
 *   events = 1 ms / interval    decades = 10^y (0 when y <= 0)
 *
 * (--interval=TIME, a time with ns-3's units, 1ms by default).
 *
 * It can also be told to misbehave: --sleep=S, --spin=S (busy), --fail=STATUS
 * (with --fail-seed=N: only for that RngRun), --fail-unless=DIR (status 3
 * unless DIR exists), --stderr=TEXT,
 * --crash=1 (abort), --selfkill=1 (SIGKILL itself), --rows=N (write N rows
 * instead of one), --log=DIR (append "x y seed" to DIR/runs.log when it
 * finishes), --noclose=1 (exit without closing
 * --db, so its row stays in the write-ahead log), or all of that by name with
 * --mode=ok|fail|crash|kill|hang|norow|tworows (fail: status 3; hang: sleep
 * for 1000 s; norow: exit 0 without a row; tworows: two rows).
 *
 * Its input files, as the front door declares them (sweep-inputs.h): --topology, --flows and
 * --config name files it reads (--PrintInputFlags); a configuration's "include PATH" lines name
 * more (--PrintInputs prints them all).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "feroce-db.h"

static int bad(const char *what, const char *value)
{
    fprintf(stderr, "fake-scenario: %s = \"%s\" is not allowed\n", what, value);
    return 2;
}

static int number(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return *s && *end == '\0' && errno == 0 && isfinite(*v);
}

/* an ns-3 time: a number and a unit (s, ms, us, ns) */
static int ns3_time(const char *s, double *seconds)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s)
        return 0;
    if (strcmp(end, "s") == 0 || *end == '\0')
        *seconds = v;
    else if (strcmp(end, "ms") == 0)
        *seconds = v * 1e-3;
    else if (strcmp(end, "us") == 0)
        *seconds = v * 1e-6;
    else if (strcmp(end, "ns") == 0)
        *seconds = v * 1e-9;
    else
        return 0;
    return 1;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* --PrintInputFlags, --PrintInputs: what the front door answers (sweep-inputs.h) */
static void print_inputs(int argc, char **argv)
{
    int flags = 0, inputs = 0;
    for (int i = 1; i < argc; i++) {
        flags |= strcmp(argv[i], "--PrintInputFlags") == 0;
        inputs |= strcmp(argv[i], "--PrintInputs") == 0;
    }
    if (flags) {
        printf("topology\nflows\nconfig\n");
        exit(0);
    }
    if (!inputs)
        return;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--topology=", 11) == 0 || strncmp(a, "--flows=", 8) == 0)
            printf("%s\n", strchr(a, '=') + 1);
        if (strncmp(a, "--config=", 9) != 0)
            continue;
        printf("%s\n", a + 9);
        FILE *f = fopen(a + 9, "r");
        if (!f)
            exit(2); /* as a run refuses a configuration it cannot read */
        char line[1024];
        while (fgets(line, sizeof line, f))
            if (strncmp(line, "include ", 8) == 0)
                printf("%.*s\n", (int)strcspn(line + 8, "\n"), line + 8);
        fclose(f);
    }
    exit(0);
}

int main(int argc, char **argv)
{
    print_inputs(argc, argv);
    double t0 = now();
    const char *outdir = NULL, *db_path = NULL, *stderr_text = NULL, *fail_unless = NULL, *log = NULL;
    double x = 0, y = 0, sleep_s = 0, spin_s = 0, sim_s = 0.005, interval_s = 1e-3, v;
    long seed = 1, fail = 0, fail_seed = -1, rows = 1;
    int crash = 0, selfkill = 0, noclose = 0;
    struct feroce_db_param params[64];
    size_t n_params = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *eq = strchr(a, '=');
        if (strncmp(a, "--", 2) != 0 || !eq) {
            fprintf(stderr, "fake-scenario: argument \"%s\" is not allowed: expected --NAME=VALUE\n", a);
            return 2;
        }
        size_t n = (size_t)(eq - a - 2);
        char name[128];
        if (n >= sizeof name)
            return bad("flag", a);
        memcpy(name, a + 2, n);
        name[n] = '\0';
        const char *val = eq + 1;
        if (n_params < 64) {
            params[n_params].name = strdup(name);
            params[n_params++].value = val;
        }
        if (strcmp(name, "outdir") == 0)
            outdir = val;
        else if (strcmp(name, "db") == 0)
            db_path = val;
        else if (strcmp(name, "RngRun") == 0) {
            if (!number(val, &v) || v < 1 || v != floor(v))
                return bad("RngRun", val);
            seed = (long)v;
        } else if (strcmp(name, "duration") == 0) {
            if (!ns3_time(val, &sim_s) || sim_s <= 0)
                return bad("duration", val);
        } else if (strcmp(name, "interval") == 0) {
            if (!ns3_time(val, &interval_s) || interval_s <= 0)
                return bad("interval", val);
        } else if (strcmp(name, "x") == 0) {
            if (!number(val, &x))
                return bad("x", val);
        } else if (strcmp(name, "y") == 0) {
            if (!number(val, &y))
                return bad("y", val);
        } else if (strcmp(name, "label") == 0 || strcmp(name, "topology") == 0 ||
                   strcmp(name, "flows") == 0 || strcmp(name, "config") == 0) {
            /* any text */
        } else if (strcmp(name, "sleep") == 0) {
            if (!number(val, &sleep_s) || sleep_s < 0)
                return bad("sleep", val);
        } else if (strcmp(name, "spin") == 0) {
            if (!number(val, &spin_s) || spin_s < 0)
                return bad("spin", val);
        } else if (strcmp(name, "fail") == 0) {
            if (!number(val, &v) || v < 0 || v > 255)
                return bad("fail", val);
            fail = (long)v;
        } else if (strcmp(name, "fail-seed") == 0) {
            if (!number(val, &v))
                return bad("fail-seed", val);
            fail_seed = (long)v;
        } else if (strcmp(name, "fail-unless") == 0) {
            fail_unless = val;
        } else if (strcmp(name, "stderr") == 0) {
            stderr_text = val;
        } else if (strcmp(name, "crash") == 0) {
            crash = strcmp(val, "1") == 0;
        } else if (strcmp(name, "selfkill") == 0) {
            selfkill = strcmp(val, "1") == 0;
        } else if (strcmp(name, "noclose") == 0) {
            noclose = strcmp(val, "1") == 0;
        } else if (strcmp(name, "rows") == 0) {
            if (!number(val, &v) || v < 0)
                return bad("rows", val);
            rows = (long)v;
        } else if (strcmp(name, "mode") == 0) {
            if (strcmp(val, "fail") == 0)
                fail = 3;
            else if (strcmp(val, "crash") == 0)
                crash = 1;
            else if (strcmp(val, "kill") == 0)
                selfkill = 1;
            else if (strcmp(val, "hang") == 0)
                sleep_s = 1000;
            else if (strcmp(val, "norow") == 0)
                rows = 0;
            else if (strcmp(val, "tworows") == 0)
                rows = 2;
            else if (strcmp(val, "ok") != 0)
                return bad("mode", val);
        } else if (strcmp(name, "log") == 0) {
            log = val;
        } else if (strncmp(name, "ns3::", 5) == 0) {
            /* an ns-3 attribute: recorded in params, no effect */
        } else {
            fprintf(stderr, "fake-scenario: unknown flag --%s\n", name);
            return 2;
        }
    }
    if (!outdir) {
        fprintf(stderr, "fake-scenario: --outdir is missing\n");
        return 2;
    }
    if (mkdir(outdir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "fake-scenario: cannot create %s: %s\n", outdir, strerror(errno));
        return 2;
    }
    if (stderr_text)
        fprintf(stderr, "%s\n", stderr_text);
    if (sleep_s > 0) {
        struct timespec ts = { .tv_sec = (time_t)sleep_s,
                               .tv_nsec = (long)((sleep_s - floor(sleep_s)) * 1e9) };
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
            ;
    }
    if (spin_s > 0) {
        volatile double sink = 0;
        double end = now() + spin_s;
        while (now() < end)
            for (int i = 0; i < 1000; i++)
                sink += i;
    }
    if (crash) {
        fprintf(stderr, "fake-scenario: crashing as asked\n");
        fflush(stderr);
        abort();
    }
    if (selfkill) {
        fprintf(stderr, "fake-scenario: killing myself as asked\n");
        fflush(stderr);
        kill(getpid(), SIGKILL);
    }
    if (fail && (fail_seed < 0 || fail_seed == seed)) {
        fprintf(stderr, "fake-scenario: failing with status %ld as asked (RngRun %ld)\n", fail, seed);
        return (int)fail;
    }
    if (fail_unless && access(fail_unless, F_OK) != 0) {
        fprintf(stderr, "fake-scenario: %s does not exist\n", fail_unless);
        return 3;
    }
    /* an output file, as a real scenario writes its time series */
    char path[4096];
    snprintf(path, sizeof path, "%s/out.csv", outdir);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "x,y,seed\n%g,%g,%ld\n", x, y, seed);
        fclose(f);
    }
    if (db_path) {
        struct feroce_db_metric metrics[] = {
            { "goodput_gbps", x },
            { "jain_min", 1 / (1 + y) },
            { "value", 10 * x + (double)seed },
            { "square", y * (double)seed * (double)seed },
            { "queue_max_bytes", 1000 * x + y },
            { "seed", (double)seed },
            { "undefined", NAN },
            { "events", 1e-3 / interval_s },
            { "decades", y > 0 ? pow(10, y) : 0 },
        };
        char started[32], command[8192] = "";
        feroce_db_now(started, sizeof started);
        for (int i = 0; i < argc; i++) {
            strncat(command, argv[i], sizeof command - strlen(command) - 2);
            if (i + 1 < argc)
                strcat(command, " ");
        }
        struct feroce_db_run run = { .scenario = "fake-scenario",
                                     .version = feroce_version(),
                                     .seed = seed,
                                     .started_at = started,
                                     .sim_s = sim_s,
                                     .outdir = outdir,
                                     .command = command,
                                     .params = params,
                                     .n_params = n_params,
                                     .metrics = metrics,
                                     .n_metrics = sizeof metrics / sizeof metrics[0] };
        sqlite3 *db;
        char err[512];
        if (feroce_db_open(db_path, &db, err, sizeof err) != 0) {
            fprintf(stderr, "fake-scenario: %s\n", err);
            return 1;
        }
        run.wall_s = now() - t0;
        for (long r = 0; r < rows; r++)
            if (feroce_db_insert_run(db, &run, NULL, err, sizeof err) != 0) {
                fprintf(stderr, "fake-scenario: %s\n", err);
                sqlite3_close(db);
                return 1;
            }
        if (noclose)
            _exit(0); /* the row is committed, in the -wal file, not checkpointed */
        sqlite3_close(db);
    }
    if (log) {
        char path[4096];
        snprintf(path, sizeof path, "%s/runs.log", log);
        int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0666);
        if (fd >= 0) {
            dprintf(fd, "%g %g %ld\n", x, y, seed);
            close(fd);
        }
    }
    for (size_t i = 0; i < n_params; i++)
        free((char *)params[i].name);
    return 0;
}
