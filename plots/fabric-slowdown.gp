# FCT slowdown against flow size (examples/feroce-fabric's fct-bins.csv), the form of the HPCC
# paper's FCT figures: p50, p95 and p99 of each bin of a share of the flows, at the bin's largest
# size; background flows.  A second fct-bins.csv (peer=, e.g. of the HPCC simulator's fct.txt
# through feroce-topo fct-bins) is drawn beside it, dashed.
#   gnuplot -e "in='results/feroce-fabric/fct-bins.csv'; out='plots/fabric-slowdown.png'" plots/fabric-slowdown.gp
#   ... -e "peer='hpcc-bins.csv'; name='feroce'; peername='HPCC simulator'; title='...'"
if (!exists("in")) in = 'results/feroce-fabric/fct-bins.csv'
if (!exists("out")) out = 'plots/fabric-slowdown.png'
if (!exists("name")) name = 'feroce'
if (!exists("peername")) peername = 'peer'
if (!exists("title")) title = 'FCT slowdown by flow size (background flows)'
set terminal pngcairo size 1000,600 font ',11'
set output out
set datafile separator ','
set title title
set xlabel 'flow size (bytes, the largest of each bin)'
set ylabel 'FCT slowdown (FCT / standalone FCT)'
set logscale x
set format x '10^{%L}'
set logscale y 2
set grid xtics ytics mxtics
set key bottom right
share(c) = (strcol(1) eq 'share' && strcol(2) eq 'background') ? column(c) : NaN
plot in using (share(6)):(share(10)) with linespoints lw 2 pt 7 ps 0.6 lc rgb '#c00000' title name.' p99', \
     in using (share(6)):(share(9)) with linespoints lw 2 pt 7 ps 0.6 lc rgb '#e07000' title name.' p95', \
     in using (share(6)):(share(8)) with linespoints lw 2 pt 7 ps 0.6 lc rgb '#0060c0' title name.' p50', \
     for [i=1:exists("peer")] peer using (share(6)):(share(10)) with linespoints lw 2 dt 2 pt 6 ps 0.6 lc rgb '#c00000' title peername.' p99', \
     for [i=1:exists("peer")] peer using (share(6)):(share(9)) with linespoints lw 2 dt 2 pt 6 ps 0.6 lc rgb '#e07000' title peername.' p95', \
     for [i=1:exists("peer")] peer using (share(6)):(share(8)) with linespoints lw 2 dt 2 pt 6 ps 0.6 lc rgb '#0060c0' title peername.' p50'
