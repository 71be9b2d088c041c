# Goodput of each flow (board) per window, with the instants flows leave (dashed) and, above the
# curves, each board's NAKs and ACK timeouts (advcam-incast's recovery.csv).
# (No `every ::1` where columnhead names a curve: the header is not data, and it would skip a row.)
#   gnuplot -e "dir='results/advcam-incast-dcqcn'; out='plots/x'; term='png'; n=3; t='...'" plots/study-throughput.gp
#   optional: what='receiver' (the flows are not boards: no leaving instants), ymax=105
load 'plots/study-common.gp'
if (!exists("n")) n = 3
if (!exists("ymax")) ymax = 10.5
if (!exists("what")) what = 'board'
set title sprintf("Per-%s goodput\n%s", what, t)
set xlabel 'time (ms)'
set xrange [0:tmax]
set ylabel 'goodput (Gb/s per window)'
set yrange [0:ymax]
if (what eq 'board') {
    set key outside right top vertical box opaque
    set yrange [0:ymax + 1]
    # recovery.csv (advcam-incast): each board's NAKs and ACK timeouts, in its colour, above
    rec = dir.'/recovery.csv'
    nrec = int(system(sprintf("[ -f '%s' ] && awk 'END { print NR - 1 }' '%s' || echo 0", rec, rec)))
    # gnuplot opens the files of a plot command even for an empty loop: name one that exists
    if (nrec == 0) { rec = dir.'/goodput.csv' }
    plot for [i=2:n+1] dir.'/goodput.csv' using (mid($1)):i with histeps lw 2 title columnhead(i), \
         dir.'/flows.csv' every ::1 using ($3/1e6):(0):(0):(ymax) with vectors nohead dt 2 lw 1.5 lc rgb '#606060' title 'board stops producing', \
         NaN with points pt 2 ps 1.2 lc rgb 'black' title (nrec > 0 ? 'NAK' : ''), \
         NaN with points pt 9 ps 1.5 lc rgb 'black' title (nrec > 0 ? 'ACK timeout' : ''), \
         for [k=1:(nrec > 0 ? 1 : 0)] rec using ($1/1e6):(strcol(3) eq 'nak' ? ymax + 0.3 : 1/0):($2+1) with points pt 2 ps 1.2 lc variable notitle, \
         for [k=1:(nrec > 0 ? 1 : 0)] rec using ($1/1e6):(strcol(3) eq 'timeout' ? ymax + 0.7 : 1/0):($2+1) with points pt 9 ps 1.5 lc variable notitle
} else {
    set key bottom right box opaque
    plot for [i=2:n+1] dir.'/goodput.csv' using (mid($1)):i with histeps lw 2 title columnhead(i)
}
