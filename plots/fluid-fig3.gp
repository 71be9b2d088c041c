# Phase margin against N (the paper's Fig. 3) from plots/fluid-fig3.sh's CSV.
set terminal pngcairo size 800,500
set output out
set datafile separator ','
set xlabel 'number of flows N'
set ylabel 'phase margin (degrees)'
set title 'DCQCN fluid model, 40 Gb/s, paper parameters: phase margin of the linearised loop'
set grid
set key bottom right
set xrange [0:62]
plot in skip 1 using 1:2 with linespoints pt 7 title 'tau* = 0 us', \
     in skip 1 using 1:3 with linespoints pt 5 title 'tau* = 50 us', \
     in skip 1 using 1:4 with linespoints pt 9 title 'tau* = 100 us', \
     0 with lines lc 'black' dt 2 notitle
