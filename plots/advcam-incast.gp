# Goodput of each AdvCam board in 1 ms windows (examples/advcam-incast: boards leave 3 -> 2 -> 1).
#   gnuplot -e "dir='results/advcam-incast-dcqcn'; out='plots/advcam-incast-dcqcn.png'; t='DCQCN'" plots/advcam-incast.gp
if (!exists("dir")) dir = 'results/advcam-incast-dcqcn'
if (!exists("out")) out = 'plots/advcam-incast-dcqcn.png'
if (!exists("t")) t = ''
set terminal pngcairo size 1000,560 font ',11'
set output out
set datafile separator ','
set title sprintf('AdvCam incast, 3 boards -> 1 receiver at 10 Gb/s: %s', t)
set xlabel 'time (ms)'
set ylabel 'goodput per board (Gb/s, 1 ms windows)'
set yrange [0:10.5]
set key top right
set grid
file = dir.'/goodput.csv'
plot for [i=2:4] file every ::1 using ($1/1e6):i with steps lw 2 title sprintf('board %d', i-2)
