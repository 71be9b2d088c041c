# Rc of one paced QP under a CNP episode, one line per DCQCN preset (examples/dcqcn-rate-limiter).
#   gnuplot -e "dir='results'; out='plots/rate-limiter.png'" plots/rate-limiter.gp
if (!exists("dir")) dir = 'results'
if (!exists("out")) out = 'plots/rate-limiter.png'
set terminal pngcairo size 1000,560 font ',11'
set output out
set datafile separator ','
set title 'Rate limiter of one QP: CNPs every 50 us for 2 ms, then recovery'
set xlabel 'time (ms)'
set ylabel 'Rc (Gb/s)'
set yrange [0:10.5]
set key bottom right
set grid
plot for [p in 'paper connectx hpcc'] \
     sprintf('%s/dcqcn-rate-limiter-%s/rate-limiter.csv', dir, p) \
     every ::1 using ($1/1e6):($2/1e9) with lines lw 2 title p
