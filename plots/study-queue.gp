# The switch queue toward the receiver (most bytes per window) with Kmin/Kmax and the PAUSE intervals.
#   gnuplot -e "dir=...; out=...; term=...; kmin=5000; kmax=200000; t='...'" plots/study-queue.gp
load 'plots/study-common.gp'
if (!exists("kmin")) kmin = 0
if (!exists("kmax")) kmax = 0
set title sprintf("Switch egress queue toward the receiver\n%s", t)
set xlabel 'time (ms)'
set xrange [0:tmax]
set ylabel 'queue (KB, most per window)'
set yrange [0:*]
set style fill transparent solid 0.35 noborder
pf = dir.'/pause.csv'
npause = int(system(sprintf("[ -f '%s' ] && awk 'END { print NR - 1 }' '%s' || echo 0", pf, pf)))
if (npause > 0) {
    plot dir.'/series.csv' every ::1 using (mid($1)):($2/1e3) with histeps lw 2 lc rgb '#1f77b4' title 'queue', \
         kmin/1e3 with lines dt 2 lw 1.5 lc rgb '#2ca02c' title sprintf('Kmin %g KB', kmin/1e3), \
         kmax/1e3 with lines dt 2 lw 1.5 lc rgb '#d62728' title sprintf('Kmax %g KB', kmax/1e3), \
         pf every ::1 using (($3+$4)/2e6):(0):(($4-$3)/2e6):(kmax/1e3/20+1) with boxxyerror lc rgb '#ff7f0e' title 'PAUSE asserted (any port)'
} else {
    # no PAUSE in the run (an empty pause.csv would make gnuplot warn)
    plot dir.'/series.csv' every ::1 using (mid($1)):($2/1e3) with histeps lw 2 lc rgb '#1f77b4' title 'queue', \
         kmin/1e3 with lines dt 2 lw 1.5 lc rgb '#2ca02c' title sprintf('Kmin %g KB', kmin/1e3), \
         kmax/1e3 with lines dt 2 lw 1.5 lc rgb '#d62728' title sprintf('Kmax %g KB', kmax/1e3)
}
