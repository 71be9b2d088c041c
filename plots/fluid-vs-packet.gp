# Queue and board 0's rates over time, packet model against fluid model (examples/fluid-vs-packet.sh).
#   gnuplot -e "dir='results/fluid-vs-packet'" -e "name='40g-10'" plots/fluid-vs-packet.gp
set terminal pngcairo size 1000,700
set output dir.'/'.name.'.png'
set datafile separator ','
# the scales of the steady part (after 20 ms): the start-up transient goes off the top
stats dir.'/'.name.'-packet/series.csv' skip 1 using ($1 >= 20e6 ? $2/1e3 : NaN) name 'PQ' nooutput
stats dir.'/'.name.'-fluid-np.csv' skip 1 using ($1 >= 0.02 ? $2/1e3 : NaN) name 'FQ' nooutput
stats dir.'/'.name.'-packet/series.csv' skip 1 using ($1 >= 20e6 ? $3 : NaN) name 'PR' nooutput
set multiplot layout 2,1 title 'DCQCN '.name.': packet model vs fluid model'
set grid
set xlabel 'time (ms)'
set xrange [0:200]
set ylabel 'queue (KB)'
set yrange [0:1.3 * (PQ_max > FQ_max ? PQ_max : FQ_max)]
set key top right
plot dir.'/'.name.'-packet/series.csv' skip 1 using ($1/1e6):($2/1e3) with lines lw 1 lc rgb '#1f77b4' title 'packet (mean per 100 us)', \
     dir.'/'.name.'-fluid-paper.csv' skip 1 using ($1*1e3):($2/1e3) with lines lw 2 lc rgb '#d62728' title 'fluid, paper', \
     dir.'/'.name.'-fluid-np.csv' skip 1 using ($1*1e3):($2/1e3) with lines lw 2 dt 2 lc rgb '#2ca02c' title 'fluid, feroce terms'
set ylabel 'board 0 rate (Gb/s)'
set yrange [0:1.3 * PR_max]
plot dir.'/'.name.'-packet/series.csv' skip 1 using ($1/1e6):3 with lines lw 1 lc rgb '#1f77b4' title 'packet Rc', \
     dir.'/'.name.'-packet/series.csv' skip 1 using ($1/1e6):4 with lines lw 1 lc rgb '#9467bd' title 'packet Rt', \
     dir.'/'.name.'-fluid-paper.csv' skip 1 using ($1*1e3):($4/1e9) with lines lw 2 lc rgb '#d62728' title 'fluid Rc, paper', \
     dir.'/'.name.'-fluid-np.csv' skip 1 using ($1*1e3):($4/1e9) with lines lw 2 dt 2 lc rgb '#2ca02c' title 'fluid Rc, feroce terms'
unset multiplot
