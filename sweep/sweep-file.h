/*
 * sweep-file.h - the sweep file: what to run, which parameters to vary and
 * how, replications, metrics and pictures (format: src/feroce/doc/sweep-reference.md).
 */
#ifndef FEROCE_SWEEP_FILE_H
#define FEROCE_SWEEP_FILE_H

#include <stddef.h>

#include "sweep-util.h"

enum sweep_range { SWEEP_LIST, SWEEP_LIN, SWEEP_LOG };

struct sweep_param {
    char *name;         /* flag name without "--": kmin, ns3::FeroceSwitch::Kmin */
    struct strv values; /* as passed to the program */
    enum sweep_range range;
    int zip; /* zip group (params of one group vary together); -1: on its own */
    int line;
};

struct sweep_require {
    char *lhs, *rhs; /* parameter names or numbers */
    char op[3];      /* < <= > >= == != */
    int line;
};

enum sweep_plot_kind { SWEEP_HEATMAP, SWEEP_LINES };
/* a plot line's scale keyword: logx/linx (lines: the X axis), logy/liny (lines: the metric's
 * axis), logcb/lincb (heatmap: the colour scale); auto without one */
enum sweep_scale { SWEEP_SCALE_AUTO = -1, SWEEP_SCALE_LIN = 0, SWEEP_SCALE_LOG = 1 };

struct sweep_plot {
    enum sweep_plot_kind kind;
    char *metric;
    char *x;
    char *y;        /* heatmap: the y axis; lines: one line per value of y */
    struct strv at; /* "name=value": the other parameters held fixed */
    int x_scale;      /* lines: enum sweep_scale of X */
    int metric_scale; /* enum sweep_scale of the metric (lines: y; heatmap: colour) */
    int line;
};

struct sweep_file {
    char *path;
    char *text;    /* the file as read */
    char *name;    /* sweep name (default: the file's name without extension) */
    char *program; /* as written */
    int program_line;
    struct strv flags; /* fixed flags, in order */
    struct sweep_param *params;
    size_t n_params;
    struct sweep_require *requires;
    size_t n_requires;
    long replications; /* RngRun 1..replications */
    struct strv metrics;
    double timeout_s; /* per point; 0: none */
    long batch;       /* points per process (1: one process per point; more: the program takes --batch) */
    struct sweep_plot *plots;
    size_t n_plots;
    int n_zip;
};

/* Reads and checks a sweep file.  On error: -1, and "PATH:LINE: message"
 * (or "PATH: message") in err. */
int sweep_file_load(const char *path, struct sweep_file *sf, char *err, size_t errlen);
/* The same from text already in memory (path is used in messages only). */
int sweep_file_parse(const char *path, const char *text, struct sweep_file *sf, char *err, size_t errlen);
void sweep_file_free(struct sweep_file *sf);

/* The index of a parameter by name, or -1. */
long sweep_file_param(const struct sweep_file *sf, const char *name);

/* Whether a metric name is allowed (letters, digits, _). */
int sweep_metric_name_ok(const char *name);

#endif /* FEROCE_SWEEP_FILE_H */
