# Goodput against the path MTU: measured by feroce, the analytic wire-overhead value, and the
# hardware measurement, as grouped bars with their values (from an advcam-mtu run's mtu.csv).
#   gnuplot -e "dir=...; out=...; term=...; t='...'" plots/study-mtu.gp
load 'plots/study-common.gp'
set title sprintf("Goodput of one board against the path MTU (RDMA WRITE, no congestion)\n%s", t)
set xlabel 'path MTU (bytes of payload per packet)'
set ylabel 'goodput (Gb/s)'
set yrange [0:11.5]
set ytics 1
set grid noxtics ytics
set key top left box opaque
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.95
set datafile missing ''
# three bars per group of width 1/(3 + gap): centres at group - 0.25, group, group + 0.25
plot dir.'/mtu.csv' skip 1 using 2:xtic(1) lc rgb '#1f77b4' title 'measured (feroce)', \
     '' skip 1 using 3 lc rgb '#ff7f0e' title 'analytic (PMTU + 82 B per packet)', \
     '' skip 1 using 4 lc rgb '#2ca02c' title 'hardware (KCU105 to ConnectX-5)', \
     '' skip 1 using ($0 - 0.25):2:(sprintf('%.3f', $2)) with labels offset 0,0.6 font ',9' notitle, \
     '' skip 1 using ($0):3:(sprintf('%.3f', $3)) with labels offset 0,0.6 font ',9' notitle, \
     '' skip 1 using ($0 + 0.25):4:(sprintf('%.1f', $4)) with labels offset 0,0.6 font ',9' notitle
