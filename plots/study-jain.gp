# Jain's fairness index per window among the boards sending during the whole window.
#   gnuplot -e "dir=...; out=...; term=...; n=3; t='...'" plots/study-jain.gp
load 'plots/study-common.gp'
if (!exists("n")) n = 3
set title sprintf("Jain's fairness index per window (boards sending all window)\n%s", t)
set xlabel 'time (ms)'
set ylabel "Jain's index"
set yrange [0:1.05]
set datafile missing ''
plot dir.'/goodput.csv' every ::1 using ($1/1e6):(column(n+2)) with linespoints pt 7 ps 0.5 lw 1.5 title "Jain's index", \
     1 with lines dt 2 lc rgb '#606060' title 'perfectly fair'
