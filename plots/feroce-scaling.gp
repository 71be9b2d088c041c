# CPU per event and per delivered packet against the size of the fabric (plots/feroce-scaling.sh
# writes the data).  The target is per event: within 2x of the smallest case.
#   variables: incast, camera (data files), png (output)
set terminal pngcairo size 1100,540 font ',11'
set output png
set termoption noenhanced
set grid
set logscale x 2
set key top left box opaque
set multiplot layout 1,2 title 'feroce: CPU time per event (right axis) and per delivered packet (left), minimum of runs'
set ytics nomirror
set y2tics
set yrange [0:*]
set y2range [0:*]
first(f, col) = real(system(sprintf("awk '!/^#/ { print $%d; exit }' %s", col, f)))
set title 'incastN: N senders -> one 10 Gb/s port, 50 ms'
set xlabel 'senders'
set ylabel 'us of CPU per delivered packet'
set y2label 'us of CPU per event'
incast2x = 2 * first(incast, 4) / first(incast, 5)
plot incast using 1:4 axes x1y1 with linespoints lw 1 pt 6 dt 2 title 'Run, per packet', \
     '' using 1:($4 / $5) axes x1y2 with linespoints lw 2 pt 7 title 'Run, per event', \
     incast2x axes x1y2 with lines lw 1 lc rgb 'gray40' dt 3 title '2x the 3-sender point, per event'
set title 'advcam-camera, 10 ms, 4 receivers / 150 boards'
set xlabel 'front-end boards'
camera2x = 2 * first(camera, 7) / first(camera, 8)
plot camera using 1:4 axes x1y1 with linespoints lw 1 pt 4 dt 2 title 'whole process, per packet', \
     '' using 1:7 axes x1y1 with linespoints lw 1 pt 6 dt 2 title 'Run, per packet', \
     '' using 1:($7 / $8) axes x1y2 with linespoints lw 2 pt 7 title 'Run, per event', \
     camera2x axes x1y2 with lines lw 1 lc rgb 'gray40' dt 3 title '2x the 24-board point, per event'
unset multiplot
