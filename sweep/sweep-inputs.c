/*
 * sweep-inputs.c - the files a point's run reads (sweep-inputs.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "sweep-inputs.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweep-util.h"

struct answer {
    char *question; /* the input flags, '\n'-joined */
    char *files;
};

struct sweep_inputs {
    char *program;
    struct strv flags; /* input-file flag names */
    struct answer *answers;
    size_t n_answers, cap;
};

/* Runs argv (stderr silenced), its stdout into *out; 0 if it exited 0. */
static int run_capture(char *const *argv, char **out)
{
    int fd[2];
    *out = NULL;
    if (pipe(fd) != 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        dup2(fd[1], STDOUT_FILENO);
        if (null >= 0) {
            dup2(null, STDERR_FILENO);
            dup2(null, STDIN_FILENO);
        }
        close(fd[0]);
        close(fd[1]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(fd[1]);
    size_t n = 0, cap = 256;
    char *buf = xmalloc(cap);
    ssize_t got;
    while ((got = read(fd[0], buf + n, cap - n - 1)) > 0) {
        n += (size_t)got;
        if (cap - n < 2)
            buf = xrealloc(buf, cap *= 2);
    }
    close(fd[0]);
    buf[n] = '\0';
    int status;
    while (waitpid(pid, &status, 0) < 0)
        ;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        free(buf);
        return -1;
    }
    *out = buf;
    return 0;
}

struct sweep_inputs *sweep_inputs_new(const char *program_path)
{
    struct sweep_inputs *in = xcalloc(1, sizeof *in);
    if (!program_path)
        return in;
    in->program = xstrdup(program_path);
    char *argv[] = { in->program, "--PrintInputFlags", NULL }, *out;
    if (run_capture(argv, &out) != 0)
        return in;
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n"))
        strv_push(&in->flags, line);
    free(out);
    return in;
}

void sweep_inputs_free(struct sweep_inputs *in)
{
    if (!in)
        return;
    for (size_t i = 0; i < in->n_answers; i++) {
        free(in->answers[i].question);
        free(in->answers[i].files);
    }
    free(in->answers);
    strv_free(&in->flags);
    free(in->program);
    free(in);
}

int sweep_inputs_is_input(const struct sweep_inputs *in, const char *flag)
{
    const char *name = strncmp(flag, "--", 2) == 0 ? flag + 2 : flag;
    size_t len = strcspn(name, "=");
    for (size_t i = 0; i < in->flags.n; i++)
        if (strlen(in->flags.v[i]) == len && strncmp(in->flags.v[i], name, len) == 0)
            return 1;
    return 0;
}

const char *sweep_inputs_files(struct sweep_inputs *in, const char *const *flags, size_t n)
{
    struct strv argv = { 0 };
    strv_push(&argv, in->program ? in->program : "");
    size_t len = 1;
    for (size_t i = 0; i < n; i++)
        if (sweep_inputs_is_input(in, flags[i])) {
            strv_push(&argv, flags[i]);
            len += strlen(flags[i]) + 1;
        }
    if (argv.n == 1) {
        strv_free(&argv);
        return "";
    }
    char *question = xmalloc(len);
    question[0] = '\0';
    for (size_t i = 1; i < argv.n; i++) {
        strcat(question, argv.v[i]);
        strcat(question, "\n");
    }
    for (size_t i = 0; i < in->n_answers; i++)
        if (strcmp(in->answers[i].question, question) == 0) {
            free(question);
            strv_free(&argv);
            return in->answers[i].files;
        }
    strv_push(&argv, "--PrintInputs");
    char *files;
    if (run_capture(argv.v, &files) != 0) {
        /* the program refused the command (a file missing, a bad value): the flags' own files */
        size_t flen = 1;
        for (size_t i = 1; i < argv.n - 1; i++)
            flen += strlen(argv.v[i]) + 1;
        files = xmalloc(flen);
        files[0] = '\0';
        for (size_t i = 1; i < argv.n - 1; i++) {
            const char *eq = strchr(argv.v[i], '=');
            if (eq && eq[1]) {
                strcat(files, eq + 1);
                strcat(files, "\n");
            }
        }
    }
    strv_free(&argv);
    if (in->n_answers == in->cap) {
        in->cap = in->cap ? 2 * in->cap : 8;
        in->answers = xrealloc(in->answers, in->cap * sizeof *in->answers);
    }
    in->answers[in->n_answers++] = (struct answer){ question, files };
    return files;
}

int sweep_inputs_hash(const char *path, char hex[17])
{
    struct stat st;
    FILE *f;
    if (!*path || stat(path, &st) != 0 || !S_ISREG(st.st_mode) || !(f = fopen(path, "rb"))) {
        snprintf(hex, 17, "missing");
        return -1;
    }
    unsigned long long h = 0xcbf29ce484222325ULL;
    int c;
    while ((c = getc(f)) != EOF)
        h = (h ^ (unsigned char)c) * 0x100000001b3ULL;
    fclose(f);
    snprintf(hex, 17, "%016llx", h);
    return 0;
}
