# The camera's event loss per window (an advcam-camera run): camera events lost (an event is lost
# when any board lost its fragment) on the left axis, fragments lost on the right one, with the
# steady state's start (dashed).
#   gnuplot -e "dir=...; out=...; term=...; boards=150; ss=1; t='...'" plots/study-camera-events.gp
load 'plots/study-common.gp'
load 'plots/study-camera-common.gp'
set title sprintf("Events lost per window\n%s", t)
set xlabel 'time (ms)'
set xrange [0:tmax]
set ylabel 'camera events lost per window'
set y2label 'fragments lost per window'
set yrange [0:*]
set y2range [0:*]
set ytics nomirror
set y2tics
set key top right box opaque
plot series every ::1 using (mid($1)):(step(cevents, 1)) with histeps lw 2 lc rgb '#d62728' title 'camera events', \
     series every ::1 using (mid($1)):(step(cfrag, 2)) axes x1y2 with histeps lw 1.5 dt 2 lc rgb '#ff7f0e' title 'fragments (right axis)'
