# The pictures of src/feroce/doc/eventbuilding.md, from examples/advcam-eventbuilding.sh's runs:
#   gnuplot -e "dir='RESULTS'; term='png'" plots/advcam-eventbuilding.gp
# writes plots/advcam-eventbuilding-failure, -load and -design (.png or .svg).
#   failure: events lost per 1 ms of trigger time and the building latency (p99 of each
#            millisecond) around one receiver's crash, static against availability-driven;
#   load:    the events each receiver built per millisecond under both policies, and the
#            shares of a slow (Soft-RoCE) receiver among five;
#   design:  events lost against the number of receivers, per board buffer and policy.
if (!exists("term")) term = 'png'
set datafile separator ','
set datafile columnheaders
set termoption noenhanced
set grid
k = 5
buf = 1048576
run(policy) = sprintf('%s/K%d-buf%d-%s', dir, k, buf, policy)
lost(d) = column('lost_board_buffer') + column('lost_receiver_dead') + \
          column('lost_retries_exhausted') + column('lost_partial_timeout') + \
          column('lost_disagreement')
mid(t) = t * 1e3 - 0.5
failAt = 20
returnAt = 60
size(w, h) = (term eq 'svg') ? sprintf('svg size %d,%d dynamic font "sans,12" background "#ffffff"', w, h) \
                             : sprintf('pngcairo size %d,%d font ",10"', w, h)

# ---- failure ------------------------------------------------------------------------------
eval('set terminal '.size(1100, 760))
set output 'plots/advcam-eventbuilding-failure.'.term
set multiplot layout 2,1 title sprintf("AdvCam camera, 150 boards, %d receivers, %d KiB board buffers: receiver 1's host down from %d to %d ms (grey)", k, buf / 1024, failAt, returnAt)
set object 1 rect from failAt, graph 0 to returnAt, graph 1 fc rgb '#e8e8e8' fs solid 1.0 noborder behind
set xrange [0:100]
set xlabel 'trigger time (ms)'
set ylabel 'events lost per ms (of 62.5)'
set yrange [0:*]
set key top right box opaque
plot run('static').'/events.csv' using (mid($1)):(lost(0)) with histeps lw 2 lc rgb '#d62728' title 'static (event n to receiver n mod K)', \
     run('availability').'/events.csv' using (mid($1)):(lost(0)) with histeps lw 2 lc rgb '#1f77b4' title 'availability (credits, an assigner)'
set ylabel 'building latency, p99 of each ms (us)'
set logscale y
set yrange [10:*]
plot run('static').'/events.csv' using (mid($1)):(column('latency_p99_us')) with histeps lw 2 lc rgb '#d62728' title 'static', \
     run('availability').'/events.csv' using (mid($1)):(column('latency_p99_us')) with histeps lw 2 lc rgb '#1f77b4' title 'availability'
unset multiplot
unset logscale y
unset object 1

# ---- load ---------------------------------------------------------------------------------
eval('set terminal '.size(1400, 520))
set output 'plots/advcam-eventbuilding-load.'.term
set multiplot layout 1,3 title 'Per-receiver load: events built per ms (by trigger time), and the shares of a slow receiver'
colors = '#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b'
set object 1 rect from failAt, graph 0 to returnAt, graph 1 fc rgb '#e8e8e8' fs solid 1.0 noborder behind
set xrange [0:100]
set yrange [0:*]
set xlabel 'trigger time (ms)'
set ylabel 'events built per ms'
set key top right box opaque font ',9'
do for [policy in 'static availability'] {
    set title sprintf('%s, receiver 1 down %d-%d ms', policy, failAt, returnAt)
    plot for [r=0:k-1] run(policy).'/events.csv' using (mid($1)):(column(sprintf('rx%d_built', r))) \
        with histeps lw 1.5 lc rgb word(colors, r + 1) title sprintf('rx%d', r)
}
unset object 1
set title 'receiver 4 a Soft-RoCE host (5 Gb/s), no failure (availability: 1 event slot)'
set xrange [-0.5:4.5]
set xtics 1
set xlabel 'receiver'
set ylabel 'share of the events built'
set yrange [0:0.35]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.35
plot dir.'/slow-static/receivers.csv' using ($1 - 0.18):(column('events_built_fraction')) with boxes lc rgb '#d62728' title 'static', \
     dir.'/slow-availability/receivers.csv' using ($1 + 0.18):(column('events_built_fraction')) with boxes lc rgb '#1f77b4' title 'availability'
unset multiplot
set xtics autofreq
set style data lines

# ---- design -------------------------------------------------------------------------------
eval('set terminal '.size(1000, 560))
set output 'plots/advcam-eventbuilding-design.'.term
set title "One receiver's host down 40 ms in a 100-ms run: events lost (of 6250) against the receivers\n(a receiver takes about 20000 events/s: four carry the camera's 62.5 kHz, three do not)"
set xrange [3.8:6.2]
set xtics 1
set xlabel 'receivers'
set ylabel 'events lost + 1'
set logscale y
set yrange [1:10000]
set key right center box opaque font ',9'
design = dir.'/design.csv'
sel(p, b) = (strcol('assignment') eq p && column('board_buffer') == b && column('announce_lead') == 4) ? 1 : 0
plot for [b in '262144 1048576 4194304'] design using (sel('static', int(b)) ? column('receivers') : NaN):(lost(0) + 1) \
        with linespoints lw 2 dt 2 pt 7 title sprintf('static, %d KiB', int(b) / 1024), \
     for [b in '262144 1048576 4194304'] design using (sel('availability', int(b)) ? column('receivers') : NaN):(lost(0) + 1) \
        with linespoints lw 2 pt 5 title sprintf('availability, %d KiB', int(b) / 1024), \
     for [b in '262144 1048576 4194304'] design using (sel('board-rule', int(b)) ? column('receivers') : NaN):(lost(0) + 1) \
        with linespoints lw 2 dt 3 pt 9 ps 1.3 title sprintf('board-rule, %d KiB', int(b) / 1024)
