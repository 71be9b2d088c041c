# Shared by the camera's pictures (after study-common.gp): series.csv's columns by name, a
# counter's increase per window, and the steady state's start as a dashed vertical line.
#   variables: boards, frag (bytes), ss (the steady state's start, ms; < 0: not drawn)
if (!exists("boards")) boards = 1
if (!exists("frag")) frag = 0
if (!exists("ss")) ss = -1
series = dir.'/series.csv'
# the column of series.csv named name, 0 if none
colname(name) = system(sprintf("head -1 '%s' | tr ',' '\\n' | grep -nx '%s' | cut -d: -f1 | head -1", series, name))
col(name) = (s_ = colname(name), strlen(s_) ? int(s_) : 0)
# camera events (an event is lost when any board lost its fragment); events_lost counts the
# boards' fragments (a name kept from before camera events were counted)
cgen = col('camera_events_generated')
cevents = col('camera_events_lost')
cfrag = col('events_lost')
# a cumulative column's increase in this window; k (1..4) keeps a last value of its own, so that
# each curve of a plot uses its own k
array last[4] = [0, 0, 0, 0]
step(c, k) = (v_ = column(c), d_ = v_ - last[k], last[k] = v_, d_)
if (ss >= 0) {
    set arrow 1 from ss, graph 0 to ss, graph 1 nohead dt 2 lw 1.5 lc rgb '#404040' front
    set label 1 sprintf(' steady state from %g ms', ss) at ss, graph 0.97 left front
}
