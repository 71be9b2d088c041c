# A fabric's queues (an advcam-camera run): the most bytes queued per window on each egress
# port of the aggregation switch toward a receiver (series.csv columns agg_to_rx*_queue_bytes)
# and on each leaf's uplink (leaf*_uplink_queue_bytes), a panel each, with Kmin and Kmax.
#   gnuplot -e "dir=...; out=...; term=...; kmin=5000; kmax=200000; t='...'" plots/study-switches.gp
load 'plots/study-common.gp'
if (!exists("kmin")) kmin = 0
if (!exists("kmax")) kmax = 0
if (term eq 'svg') {
    set terminal svg size 1000,800 dynamic noenhanced font 'sans,12' background '#ffffff'
} else {
    set terminal pngcairo size 1000,800 noenhanced font ',11'
}
set output out.'.'.term
header = system(sprintf("head -1 '%s/series.csv'", dir))
ncol = words(system(sprintf("head -1 '%s/series.csv' | tr ',' ' '", dir)))
names = system(sprintf("head -1 '%s/series.csv' | tr ',' ' '", dir))
# columns whose name starts with `a` and ends with `b`
columns(a, b) = system(sprintf("head -1 '%s/series.csv' | tr ',' '\\n' | awk '/^%s.*%s$/ { printf \"%%d \", NR }'", dir, a, b))
toRx = columns('agg_to_rx', '_queue_bytes')
uplinks = columns('leaf', '_uplink_queue_bytes')
set multiplot layout 2,1 title sprintf("Switch egress queues, most bytes per window\n%s", t)
set xlabel 'time (ms)'
set xrange [0:tmax]
set ylabel 'queue (KB)'
set yrange [0:*]
set key outside right top box opaque
set lmargin 10
set rmargin 30
set title 'aggregation switch, toward each receiver'
plot for [c in toRx] dir.'/series.csv' using (mid($1)):(column(int(c))/1e3) with histeps lw 1.5 title word(names, int(c)), \
     kmin/1e3 with lines dt 2 lw 1.5 lc rgb '#2ca02c' title sprintf('Kmin %g KB', kmin/1e3), \
     kmax/1e3 with lines dt 2 lw 1.5 lc rgb '#d62728' title sprintf('Kmax %g KB', kmax/1e3)
set title 'each leaf switch, on its uplink to the aggregation switch'
plot for [c in uplinks] dir.'/series.csv' using (mid($1)):(column(int(c))/1e3) with histeps lw 1.5 title word(names, int(c)), \
     kmin/1e3 with lines dt 2 lw 1.5 lc rgb '#2ca02c' title sprintf('Kmin %g KB', kmin/1e3), \
     kmax/1e3 with lines dt 2 lw 1.5 lc rgb '#d62728' title sprintf('Kmax %g KB', kmax/1e3)
unset multiplot
