# CPU per delivered packet against the size of the fabric (plots/feroce-scaling.sh writes the data).
#   variables: incast, camera (data files), png (output)
set terminal pngcairo size 1000,520 font ',11'
set output png
set termoption noenhanced
set grid
set logscale x 2
set key top left box opaque
set multiplot layout 1,2 title 'feroce: CPU time per delivered packet (minimum of runs)'
set title 'incastN: N senders -> one 10 Gb/s port, 50 ms'
set xlabel 'senders'
set ylabel 'us of CPU per delivered packet'
set yrange [0:*]
# the target: within 2x of the smallest case
first(f, col) = real(system(sprintf("awk '!/^#/ { print $%d; exit }' %s", col, f)))
incast2x = 2 * first(incast, 4)
plot incast using 1:4 with linespoints lw 2 pt 7 title 'Simulator::Run', \
     '' using 1:($4 / $5) with linespoints lw 1 pt 6 dt 2 title 'per event', \
     incast2x with lines lw 1 lc rgb 'gray40' dt 3 title '2x the 3-sender point'
set title 'advcam-camera, 10 ms, 4 receivers / 150 boards'
set xlabel 'front-end boards'
set ylabel 'us of CPU per delivered packet'
camera2x = 2 * first(camera, 7)
plot camera using 1:4 with linespoints lw 2 pt 7 title 'whole process (with set-up)', \
     '' using 1:7 with linespoints lw 2 pt 5 title 'Simulator::Run', \
     '' using 1:($7 / $8) with linespoints lw 1 pt 6 dt 2 title 'Run, per event', \
     camera2x with lines lw 1 lc rgb 'gray40' dt 3 title '2x the 24-board Run'
unset multiplot
