# Jain's fairness index per window among the flows (boards) sending during the whole window.
#   gnuplot -e "dir=...; out=...; term=...; n=3; t='...'" plots/study-jain.gp
#   optional: what='the receivers' (among what; default the boards sending the whole window)
load 'plots/study-common.gp'
if (!exists("n")) n = 3
if (!exists("what")) what = 'boards sending all window'
set title sprintf("Jain's fairness index per window (%s)\n%s", what, t)
set key bottom right box opaque
set xlabel 'time (ms)'
set xrange [0:tmax]
set ylabel "Jain's index"
set yrange [0:1.05]
set datafile missing ''
plot dir.'/goodput.csv' every ::1 using (mid($1)):(column(n+2)) with linespoints pt 7 ps 0.5 lw 1.5 title "Jain's index", \
     1 with lines dt 2 lc rgb '#606060' title 'perfectly fair'
