# Rc, Rt and alpha of feroce-rp-trace output over time.
#   gnuplot -e "in='results/rp-trace.csv'; out='plots/rp-trace.png'" plots/rp-trace.gp
if (!exists("in")) in = 'results/rp-trace.csv'
if (!exists("out")) out = 'plots/rp-trace.png'
set terminal pngcairo size 1000,560 font ',11'
set output out
set datafile separator ','
set key autotitle columnhead top right
set title 'DCQCN reaction point (feroce-rp-trace)'
set xlabel 'time (ms)'
set ylabel 'rate (Gb/s)'
set y2label 'alpha'
set yrange [0:*]
set y2range [0:1.05]
set ytics nomirror
set y2tics
set grid
plot in using ($1/1e6):($3/1e9) with steps lw 2 title 'Rc', \
     '' using ($1/1e6):($4/1e9) with steps lw 1 dt 2 title 'Rt', \
     '' using ($1/1e6):5 axes x1y2 with lines lw 1 lc rgb '#888888' title 'alpha', \
     '' using ($1/1e6):(stringcolumn(2) eq 'cnp' ? $3/1e9 : 1/0) with points pt 7 ps 0.6 title 'CNP'
