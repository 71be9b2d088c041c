# Each board's DCQCN current rate Rc (sampled at the end of each window) beside its measured goodput.
#   gnuplot -e "dir=...; out=...; term=...; n=3; t='...'" plots/study-rate.gp
load 'plots/study-common.gp'
if (!exists("n")) n = 3
set title sprintf("DCQCN rate Rc and measured goodput per board\n%s", t)
set xlabel 'time (ms)'
set ylabel 'Gb/s'
set yrange [0:10.5]
plot for [i=2:n+1] dir.'/goodput.csv' every ::1 using ($1/1e6):i with steps lw 2 lc i-1 title columnhead(i).' measured', \
     for [i=1:n] dir.'/series.csv' every ::1 using ($1/1e6):(column(3+i)) with lines dt 2 lw 1.5 lc i title sprintf('board%d Rc', i-1)
