/*
 * sweep-util.c - small helpers of feroce-sweep (sweep-util.h).
 */
#define _XOPEN_SOURCE 700
#include "sweep-util.h"

#include "feroce-number.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void out_of_memory(void)
{
    fputs("feroce-sweep: out of memory\n", stderr);
    exit(SWEEP_EXIT_FAILED);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        out_of_memory();
    char *s = xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

void strv_push(struct strv *s, const char *str)
{
    if (s->n + 1 >= s->cap) {
        s->cap = s->cap ? 2 * s->cap : 8;
        s->v = xrealloc(s->v, s->cap * sizeof *s->v);
    }
    s->v[s->n++] = xstrdup(str);
    s->v[s->n] = NULL;
}

void strv_free(struct strv *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
    s->v = NULL;
    s->n = s->cap = 0;
}

long strv_find(const struct strv *s, const char *str)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->v[i], str) == 0)
            return (long)i;
    return -1;
}

int mkdirs(const char *path)
{
    char *p = xstrdup(path);
    int rc = 0;
    for (char *c = p + 1;; c++) {
        if (*c == '/' || *c == '\0') {
            char saved = *c;
            *c = '\0';
            if (mkdir(p, 0777) != 0 && errno != EEXIST) {
                rc = -1;
                break;
            }
            *c = saved;
            if (saved == '\0')
                break;
        }
    }
    int e = errno;
    free(p);
    errno = e;
    return rc;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    int rc = (flag == FTW_DP) ? rmdir(path) : unlink(path);
    return (rc != 0 && errno != ENOENT) ? -1 : 0;
}

int remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? 0 : -1;
    return nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = xmalloc(cap);
    for (;;) {
        if (n + 1 >= cap)
            buf = xrealloc(buf, cap *= 2);
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        errno = EIO;
        return NULL;
    }
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

char *read_tail(const char *path, size_t max)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return xstrdup("");
    off_t size = lseek(fd, 0, SEEK_END);
    off_t start = size > (off_t)max ? size - (off_t)max : 0;
    char *buf = xmalloc(max + 1);
    ssize_t n = size > 0 ? pread(fd, buf, (size_t)(size - start), start) : 0;
    close(fd);
    if (n < 0)
        n = 0;
    buf[n] = '\0';
    char *from = buf;
    if (start > 0) {
        char *nl = strchr(buf, '\n');
        if (nl && nl[1])
            from = nl + 1;
    }
    /* no trailing newline, and no bytes that are not text */
    size_t len = strlen(from);
    while (len > 0 && (from[len - 1] == '\n' || from[len - 1] == '\r'))
        from[--len] = '\0';
    char *out = xstrdup(from);
    free(buf);
    return out;
}

int write_file_atomic(const char *path, const char *data, size_t len)
{
    char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    int rc = -1;
    if (f) {
        int ok = fwrite(data, 1, len, f) == len;
        ok = (fclose(f) == 0) && ok;
        if (ok && rename(tmp, path) == 0)
            rc = 0;
        else
            unlink(tmp);
    }
    free(tmp);
    return rc;
}

char *dir_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return xstrdup(".");
    if (slash == path)
        return xstrdup("/");
    char *d = xmalloc((size_t)(slash - path) + 1);
    memcpy(d, path, (size_t)(slash - path));
    d[slash - path] = '\0';
    return d;
}

char *base_stem(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *b = xstrdup(slash ? slash + 1 : path);
    char *dot = strrchr(b, '.');
    if (dot && dot != b)
        *dot = '\0';
    return b;
}

char *absolute_path(const char *path)
{
    if (path[0] == '/')
        return xstrdup(path);
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return xstrdup(path);
    const char *p = path;
    while (p[0] == '.' && p[1] == '/')
        p += 2;
    if (strcmp(p, ".") == 0)
        return xstrdup(cwd);
    return xasprintf("%s/%s", cwd, p);
}

char *self_exe(void)
{
    char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0)
        return NULL;
    buf[n] = '\0';
    return xstrdup(buf);
}

double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void format_duration(double s, char *buf, size_t len)
{
    if (!isfinite(s) || s < 0) {
        snprintf(buf, len, "?");
        return;
    }
    long t = lround(s);
    if (t >= 3600)
        snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

char *shell_quote(const char *word)
{
    int plain = *word != '\0';
    for (const char *c = word; *c; c++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=./:,@%", *c))
            plain = 0;
    if (plain)
        return xstrdup(word);
    size_t n = 3;
    for (const char *c = word; *c; c++)
        n += (*c == '\'') ? 4 : 1;
    char *q = xmalloc(n), *o = q;
    *o++ = '\'';
    for (const char *c = word; *c; c++) {
        if (*c == '\'') {
            memcpy(o, "'\\''", 4);
            o += 4;
        } else {
            *o++ = *c;
        }
    }
    *o++ = '\'';
    *o = '\0';
    return q;
}

/* Numbers by feroce's one grammar (feroce-number.h, src/feroce/doc/input-grammar.md). */
int parse_double(const char *s, double *out)
{
    return feroce_number_real(s, out, NULL) == 0;
}

int parse_long(const char *s, long min, long max, long *out)
{
    int64_t v;
    if (feroce_number_i64(s, min, max, &v) != 0)
        return 0;
    *out = (long)v;
    return 1;
}
