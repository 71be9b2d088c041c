# Goodput of one board against the path MTU into each receiver (from an advcam-receiver run's
# pmtu.csv): feroce's ConnectX (line rate) and Soft-RoCE receivers (with and without PFC from
# the NIC), the wire's and the CPU's limits, and the hardware points at PMTU 4096.
#   gnuplot -e "dir=...; out=...; term=...; t='...'" plots/study-receiver-pmtu.gp
load 'plots/study-common.gp'
set title sprintf("One board into each receiver: goodput against the path MTU (RDMA WRITE)\n%s", t)
set xlabel 'path MTU (bytes of payload per packet)'
set ylabel 'goodput (Gb/s)'
set logscale x 2
set xrange [200:5200]
set xtics ('256' 256, '512' 512, '1024' 1024, '2048' 2048, '4096' 4096)
set yrange [0:11]
set ytics 1
set key at graph 0.02, graph 0.6 left top box opaque font ',10'
set datafile missing ''
f = dir.'/pmtu.csv'
# the two limits as wide pale bands under feroce's curves (which lie on them): drawn thin and
# dashed they would be hidden, their legend entries pointing at nothing
plot f skip 1 using 1:5 with lines lw 9 lc rgb '#c8c8c8' title 'wire limit (PMTU + 82 B per packet)', \
     f skip 1 using 1:6 with lines lw 9 lc rgb '#ffc890' title 'Soft-RoCE CPU model (per packet + per byte)', \
     f skip 1 using 1:2 with linespoints lw 2 pt 7 ps 1.2 lc rgb '#1f77b4' title 'feroce: ConnectX receiver (line rate)', \
     f skip 1 using 1:3 with linespoints lw 2 pt 5 ps 1.2 lc rgb '#d62728' title 'feroce: Soft-RoCE, PFC from its NIC', \
     f skip 1 using 1:4 with linespoints lw 2 pt 9 ps 1.2 lc rgb '#9467bd' title 'feroce: Soft-RoCE without PFC (drops, go-back-N: near 0)', \
     f skip 1 using 1:7 with points pt 6 ps 3 lw 3 lc rgb '#1f77b4' title 'hardware: KCU105 into ConnectX-5', \
     f skip 1 using 1:8 with points pt 4 ps 3 lw 3 lc rgb '#d62728' title 'hardware: KCU105 into Soft-RoCE (VM)', \
     f skip 1 using 1:2:(sprintf('%.2f', $2)) with labels offset 0,-1.2 font ',9' notitle, \
     f skip 1 using 1:3:(sprintf('%.2f', $3)) with labels offset 0,1 font ',9' notitle
