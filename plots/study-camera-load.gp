# The camera's load per window (an advcam-camera run): what the boards' triggers offered (events
# generated x boards x fragment bytes), what the receivers got (goodput), and what the boards'
# buffers lost (fragments that did not fit), with the steady state's start (dashed).
#   gnuplot -e "dir=...; out=...; term=...; n=4; boards=150; frag=4096; ss=1; t='...'" plots/study-camera-load.gp
#   n: receivers (goodput.csv's flows); ss: the steady state's start, ms (metrics.txt's ss_start_ms)
load 'plots/study-common.gp'
load 'plots/study-camera-common.gp'
if (!exists("n")) n = 4
set title sprintf("Offered and delivered load\n%s", t)
set xlabel 'time (ms)'
set xrange [0:tmax]
set ylabel 'Gb/s per window'
set yrange [0:*]
set key bottom right box opaque
gbps(bytes) = bytes * 8 / (w * 1e-3) / 1e9
plot series every ::1 using (mid($1)):(gbps(step(cgen, 1) * boards * frag)) with histeps lw 1 lc rgb '#7f7f7f' title 'offered (the triggers in the window)', \
     dir.'/goodput.csv' every ::1 using (mid($1)):(sum [i=2:n+1] column(i)) with histeps lw 2 lc rgb '#1f77b4' title 'delivered (all receivers)', \
     series every ::1 using (mid($1)):(gbps(step(cfrag, 2) * frag)) with histeps lw 2 lc rgb '#d62728' title 'lost (board buffers full)'
