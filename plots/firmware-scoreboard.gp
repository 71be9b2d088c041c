# The firmware co-simulation's scoreboard picture: the DUT's Rc register, the golden model's Rc,
# and the DUT's measured throughput over time (the CSV of feroce-cosim, e.g. tb_cosim csv=).
#   gnuplot -e "in='incast.csv'; out='plots/firmware-scoreboard.png'" plots/firmware-scoreboard.gp
if (!exists("in")) in = 'results/firmware-incast.csv'
if (!exists("out")) out = 'plots/firmware-scoreboard.png'
if (!exists("title")) title = 'Verilog rate limiter (Verilator) in a 3:1 incast against feroce'
set terminal pngcairo size 1000,560 font ',11'
set output out
set datafile separator ','
set title title
set xlabel 'time (us)'
set ylabel 'rate (Gb/s)'
set y2label 'alpha'
set yrange [0:11]
set y2range [0:1.05]
set ytics nomirror
set y2tics
set grid
set key at graph 0.98, graph 0.42 right opaque box
plot in using ($2/1e3):($9) with lines lw 1 lc rgb '#9ecae1' title 'DUT measured throughput', \
     '' using ($2/1e3):($3/1e9) with steps lw 4 lc rgb '#1f77b4' title 'DUT Rc register', \
     '' using ($2/1e3):($4/1e9) with steps lw 1.5 lc rgb '#d62728' dt 2 title 'golden Rc (feroce)', \
     '' using ($2/1e3):7 axes x1y2 with steps lw 1 lc rgb '#777777' title 'DUT alpha', \
     '' using ($2/1e3):($12 > 0 ? 10.5 : 1/0) with points pt 9 ps 1 lc rgb '#d62728' title 'mismatch'
