/*
 * sweep-plot.h - pictures of a sweep with gnuplot (plots/sweep-heatmap.gp,
 * plots/sweep-lines.gp), PNG and SVG.
 */
#ifndef FEROCE_SWEEP_PLOT_H
#define FEROCE_SWEEP_PLOT_H

#include "sweep-context.h"

/* feroce-sweep plot FILE [--out DIR] [heatmap|lines METRIC X Y [NAME=VALUE...]] */
int sweep_cmd_plot(const char *file, const struct sweep_opts *o);

#endif /* FEROCE_SWEEP_PLOT_H */
