/*
 * sweep-util.h - small helpers of feroce-sweep: allocation that exits on
 * failure, growable string lists, paths and clocks.
 */
#ifndef FEROCE_SWEEP_UTIL_H
#define FEROCE_SWEEP_UTIL_H

#include <stddef.h>

/* Exit statuses of feroce-sweep. */
enum {
    SWEEP_EXIT_OK = 0,     /* everything asked for was done */
    SWEEP_EXIT_FAILED = 1, /* some point failed, is missing, or a step failed */
    SWEEP_EXIT_USAGE = 2,  /* bad command line or sweep file */
};

struct strv {
    char **v;
    size_t n, cap;
};

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* printf into a new string */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void strv_push(struct strv *s, const char *str); /* copies str */
void strv_free(struct strv *s);
long strv_find(const struct strv *s, const char *str); /* index or -1 */

/* mkdir -p; 0 or -1 with errno */
int mkdirs(const char *path);
/* rm -rf; 0 or -1 with errno (a missing path is not an error) */
int remove_tree(const char *path);
/* The whole file as a NUL-terminated string (NULL with errno when unreadable). */
char *read_file(const char *path, size_t *len);
/* At most max bytes from the end of a file, starting at a line when it can. */
char *read_tail(const char *path, size_t max);
/* Writes data to path atomically (a temporary file renamed over it). */
int write_file_atomic(const char *path, const char *data, size_t len);

/* The directory part of path ("." when none), as a new string. */
char *dir_name(const char *path);
/* The last component of path without its extension, as a new string. */
char *base_stem(const char *path);
/* path made absolute against the current directory (not resolving links). */
char *absolute_path(const char *path);
/* This program's own executable as an absolute path, or NULL. */
char *self_exe(void);

/* Seconds on a monotonic clock. */
double now_s(void);
/* "1:02:03" or "2:03" for a duration in seconds. */
void format_duration(double s, char *buf, size_t len);

/* A word quoted for sh when it needs it (new string). */
char *shell_quote(const char *word);

/* Parses a whole string as a finite double; 1 on success. */
int parse_double(const char *s, double *out);
/* Parses a whole string as a long in [min, max]; 1 on success. */
int parse_long(const char *s, long min, long max, long *out);

#endif /* FEROCE_SWEEP_UTIL_H */
