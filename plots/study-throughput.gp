# Goodput of each flow (board) per window, with the instants flows leave (dashed).
#   gnuplot -e "dir='results/advcam-incast-dcqcn'; out='plots/x'; term='png'; n=3; t='...'" plots/study-throughput.gp
load 'plots/study-common.gp'
if (!exists("n")) n = 3
if (!exists("ymax")) ymax = 10.5
set title sprintf("Per-board goodput\n%s", t)
set xlabel 'time (ms)'
set ylabel 'goodput (Gb/s per window)'
set yrange [0:ymax]
plot for [i=2:n+1] dir.'/goodput.csv' every ::1 using ($1/1e6):i with steps lw 2 title columnhead(i), \
     dir.'/flows.csv' every ::1 using ($3/1e6):(0):(0):(ymax) with vectors nohead dt 2 lw 1.5 lc rgb '#606060' title 'board stops producing (its backlog drains)'
