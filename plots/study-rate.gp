# Each board's DCQCN current rate Rc (sampled at the end of each window) beside its measured goodput.
#   gnuplot -e "dir=...; out=...; term=...; n=3; t='...'" plots/study-rate.gp
#   optional: panels=1: one panel per board with its target rate Rt too (series.csv columns
#   board<i>_rt_gbps after the n Rc columns, as advcam-sawtooth writes them), each on the scale
#   of tops='...' (one number per board); labels='...' one word per board, written in its panel
load 'plots/study-common.gp'
if (!exists("n")) n = 3
if (!exists("panels")) panels = 0
if (!panels) {
    set title sprintf("DCQCN rate Rc and measured goodput per board\n%s", t)
    set xlabel 'time (ms)'
    set xrange [0:tmax]
    set ylabel 'Gb/s'
    set yrange [0:10.5]
    plot for [i=2:n+1] dir.'/goodput.csv' using (mid($1)):i with histeps lw 2 lc i-1 title columnhead(i).' measured', \
         for [i=1:n] dir.'/series.csv' every ::1 using ($1/1e6):(column(3+i)) with lines dt 2 lw 1.5 lc i title sprintf('board%d Rc', i-1)
} else {
    # taller: a panel per board
    if (term eq 'svg') {
        set terminal svg size 1000,240+220*n dynamic noenhanced font 'sans,12' background '#ffffff'
    } else {
        set terminal pngcairo size 1000,240+220*n noenhanced font ',11'
    }
    set output out.'.'.term
    set multiplot layout n,1 title sprintf("DCQCN rate limiter per board: Rc and Rt at the end of each window, goodput per window\n(each panel on the scale of its board after the warm-up)\n%s", t)
    set ylabel 'Gb/s'
    set xrange [0:tmax]
    set key outside right top box opaque
    set lmargin 10
    # each board on its own scale (tops='...': one number per board, Gb/s; render.sh gives the
    # largest value after the warm-up): a board held low shows its saw-tooth too
    # and its goodput's running mean over the last avg windows (a board slower than a packet
    # per window shows as a comb)
    if (!exists("avg")) { avg = 10 }
    array last[avg]
    mean(v, k) = (last[int(k) % avg + 1] = v, (sum [j=1:avg] last[j]) / (k + 1 < avg ? k + 1 : avg))
    do for [i=1:n] {
        do for [j=1:avg] { last[j] = 0 }
        if (exists("tops")) { set yrange [0:word(tops, i) + 0] } else { set yrange [0:10.5] }
        if (i == n) { set xlabel 'time (ms)' } else { unset xlabel }
        if (exists("labels")) { set label 1 word(labels, i) at graph 0.01, graph 0.92 left front } else { unset label 1 }
        plot dir.'/goodput.csv' every ::1 using (mid($1)):(column(i+1)) with histeps lw 1.5 lc rgb '#9ecae1' title sprintf('board%d goodput', i-1), \
             dir.'/goodput.csv' every ::1 using ($1/1e6):(mean(column(i+1), $0)) with lines lw 2 lc rgb '#08519c' title sprintf('mean of the last %d windows', avg), \
             dir.'/series.csv' every ::1 using ($1/1e6):(column(3+i)) with steps lw 1.5 lc rgb '#d62728' title sprintf('board%d Rc', i-1), \
             dir.'/series.csv' every ::1 using ($1/1e6):(column(3+n+i)) with steps dt 2 lw 1.5 lc rgb '#2ca02c' title sprintf('board%d Rt', i-1)
    }
    unset multiplot
}
