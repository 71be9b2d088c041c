/*
 * sweep-axis.h - how a sweep's parameters and metrics become a picture's axes:
 * values written with units (10us, 2.5Gbps) as numbers in a unit chosen to
 * read them, linear or log scales (by a plot line's keyword, or chosen from
 * the values), and short names for ns-3 attributes in titles, legends and
 * tables.
 */
#ifndef FEROCE_SWEEP_AXIS_H
#define FEROCE_SWEEP_AXIS_H

#include <stddef.h>

#include "sweep-file.h"

enum sweep_dim { SWEEP_DIM_NUMBER, SWEEP_DIM_TIME, SWEEP_DIM_RATE };

/* A value as a sweep file writes it, as a number: a plain number, a time with ns-3's units
 * (fs ps ns us ms s min h d: in seconds) or a data rate (bps b/s Bps B/s with k K M G T Ki Mi
 * Gi Ti: in bits per second).  0 if it is none of them. */
int sweep_value_number(const char *s, double *v, enum sweep_dim *dim);

/* A parameter's axis in a lines picture. */
struct sweep_axis {
    int numeric; /* every value a number of one dimension: placed at its value */
    enum sweep_dim dim;
    const char *unit; /* shown in the label: "us", "Gb/s", or "" */
    double *at;       /* the values in that unit (numeric), else 0 1 2 ... */
    size_t n;
    int log;
};

/* want_log: SWEEP_SCALE_AUTO, _LIN or _LOG (a plot line's keyword).  Auto: log when the
 * parameter is a log range, or when its values are numbers above 0 that span at least a decade
 * and are closer to evenly spaced in log than in linear measure. */
void sweep_axis_init(struct sweep_axis *a, const struct sweep_param *p, int want_log);
void sweep_axis_free(struct sweep_axis *a);

/* Whether a metric's axis (the y axis of lines, the colour scale of a heatmap) is logarithmic:
 * by the keyword, else when its values above 0 span two decades or more and none is below 0
 * (zeros are drawn at the bottom of the scale).  Never when no value is above 0. */
int sweep_metric_log(const double *v, size_t n, int want_log);

/* A parameter's or flag's name as pictures and tables show it: an ns-3 attribute
 * ns3::Type::Attribute by its Attribute alone when no other parameter of the sweep has that
 * short name, else by Type::Attribute; other names as they are. */
char *sweep_short_name(const struct sweep_file *sf, const char *name);

/* The index of a parameter named in a plot line: by its name, or by its short name when that
 * names one parameter only; -1 if none. */
long sweep_plot_param(const struct sweep_file *sf, const char *name);

/* The fixed flags of the sweep file as "name=value, name=value" with short names. */
char *sweep_fixed_flags(const struct sweep_file *sf);

#endif /* FEROCE_SWEEP_AXIS_H */
