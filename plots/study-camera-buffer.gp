# The boards' on-board buffers per window (an advcam-camera run): the most bytes any board held
# during the window and the boards' mean at its end, against the buffer's size, with the steady
# state's start (dashed).
#   gnuplot -e "dir=...; out=...; term=...; buffer=65536; ss=1; t='...'" plots/study-camera-buffer.gp
load 'plots/study-common.gp'
load 'plots/study-camera-common.gp'
if (!exists("buffer")) buffer = 0
set title sprintf("Board buffer occupancy\n%s", t)
set xlabel 'time (ms)'
set xrange [0:tmax]
set ylabel 'KiB'
set yrange [0:buffer / 1024 * 1.45]
set key top right box opaque
cmax = col('board_buffer_max_bytes')
cmean = col('board_buffer_mean_bytes')
plot series every ::1 using (mid($1)):(column(cmax) / 1024) with histeps lw 2 lc rgb '#d62728' title 'most held by a board', \
     series every ::1 using (mid($1)):(column(cmean) / 1024) with histeps lw 2 lc rgb '#1f77b4' title "boards' mean (window's end)", \
     buffer / 1024 with lines dt 2 lw 1.5 lc rgb '#404040' title sprintf('buffer %g KiB', buffer / 1024)
