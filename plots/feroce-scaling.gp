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
plot incast using 1:4 with linespoints lw 2 pt 7 title 'Simulator::Run', \
     '' using 1:($4 / $5) with linespoints lw 1 pt 6 dt 2 title 'per event'
set title 'advcam-camera, 10 ms, 4 receivers / 150 boards'
set xlabel 'front-end boards'
set ylabel 'us of CPU per delivered packet'
plot camera using 1:4 with linespoints lw 2 pt 7 title 'whole process'
unset multiplot
