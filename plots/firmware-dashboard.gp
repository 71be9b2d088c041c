# The firmware bench's dashboard, as the AdvCam team draws it from its cocotb bench: the DUT's
# measured throughput and its Rc register (with feroce's golden Rc), the switch's egress queue
# with the ECN thresholds, and the CNPs over time.  Input: the CSV of a cocotb bench
# (examples/firmware/cocotb, e.g. the XGMII incast's wire-incast.csv).
#   gnuplot -e "in='wire-incast.csv'" -e "out='plots/firmware-dashboard.png'" plots/firmware-dashboard.gp
# columns: cycle,t_us,tx_gbps,dut_rc_gbps,golden_rc_gbps,queue_bytes,kmin_bytes,kmax_bytes,cnps
if (!exists("in")) in = 'wire-incast.csv'
if (!exists("out")) out = 'plots/firmware-dashboard.png'
if (!exists("title")) title = 'roce\_dcqcn\_top.v on XGMII (Verilator, cocotb) in a 3:1 incast of feroce''s emulated switch'
set terminal pngcairo size 1000,820 font ',11'
set output out
set datafile separator ','
set key autotitle columnhead
stats in using 2 nooutput
tmax = STATS_max
set xrange [0:tmax]
set grid
set lmargin 10
set rmargin 4
set multiplot layout 3,1 title title
# 1. throughput and rate
set ylabel 'Gb/s'
set yrange [0:11]
set format x ''
set key at graph 0.99, graph 0.35 right opaque box
plot in using 2:3 with lines lw 1.5 lc rgb '#9ecae1' title 'measured throughput (20 us)', \
     '' using 2:4 with steps lw 4 lc rgb '#1f77b4' title 'DUT Rc register', \
     '' using 2:5 with steps lw 1.5 lc rgb '#d62728' dt 2 title 'golden Rc (feroce)'
# 2. the switch's egress queue and its ECN ramp
set ylabel 'queue (KB)'
set yrange [0:*]
set key at graph 0.99, graph 0.95 right opaque box
plot in using 2:($6/1e3) with steps lw 2 lc rgb '#2ca02c' title 'switch egress queue', \
     '' using 2:($7/1e3) with lines lw 1 lc rgb '#555555' dt 3 title 'Kmin', \
     '' using 2:($8/1e3) with lines lw 1 lc rgb '#555555' dt 2 title 'Kmax'
# 3. the CNPs the DUT received
set ylabel 'CNPs'
set xlabel 'time (us)'
set format x '%g'
set yrange [0:*]
set key at graph 0.01, graph 0.95 left opaque box
plot in using 2:9 with steps lw 2 lc rgb '#9467bd' title 'CNPs received (count)'
unset multiplot
