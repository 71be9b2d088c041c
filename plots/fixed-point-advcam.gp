# The AdvCam 3:1 bench in double precision and in a fixed-point format (fixed-point-advcam.sh
# output): each board's Rc and the queue toward the receiver, 1 ms samples.
#   gnuplot -e "a='results/fixed-point-advcam/double-1'; b='results/fixed-point-advcam/surf-alpha-truncate-1'; \
#               bname='surf, alpha truncated'; preset='paper'; out='plots/fixed-point-advcam.png'" \
#           plots/fixed-point-advcam.gp
if (!exists("a")) a = 'results/fixed-point-advcam/double-1'
if (!exists("b")) b = 'results/fixed-point-advcam/surf-alpha-truncate-1'
if (!exists("bname")) bname = 'fixed point'
if (!exists("out")) out = 'plots/fixed-point-advcam.png'
if (!exists("preset")) preset = 'paper'
set terminal pngcairo size 1100,760 font ',11'
set output out
set datafile separator ','
set grid
set key top left maxrows 3 font ',10'
colors = '#1f77b4 #d62728 #2ca02c'
set multiplot layout 2,1 title 'AdvCam 3 -> 2 -> 1 boards, DCQCN '.preset.' preset: double precision (solid) and '.bname.' (dashed), RngRun 1'
set ylabel 'Rc (Gb/s)'
set yrange [0:12]
set xrange [0:90]
unset xlabel
plot for [i=1:3] a.'/series.csv' using ($1/1e6):(column(3 + i)) with lines lw 1.8 lc rgb word(colors, i) \
         title sprintf('board %d double', i - 1), \
     for [i=1:3] b.'/series.csv' using ($1/1e6):(column(3 + i)) with lines lw 1.8 dt 2 lc rgb word(colors, i) \
         title sprintf('board %d %s', i - 1, bname)
set ylabel 'queue to the receiver (KB)'
set key top right maxrows 2
set xlabel 'time (ms)'
set yrange [0:*]
plot a.'/series.csv' using ($1/1e6):($2/1e3) with lines lw 1.5 lc rgb '#444444' title 'double', \
     b.'/series.csv' using ($1/1e6):($2/1e3) with lines lw 1.5 dt 2 lc rgb '#ff7f0e' title bname
unset multiplot
