# The 3:1 bench into a Soft-RoCE receiver, four ways (from an advcam-receiver run): per
# configuration, where the queue builds (the switch's egress toward the receiver, the NIC's
# receive buffer; most bytes per window) and the boards' total goodput.
#   gnuplot -e "dir=...; out=...; term=...; t='...'" plots/study-receiver-bench.gp
load 'plots/study-common.gp'
if (term eq 'svg') {
    set terminal svg size 1100,760 dynamic font 'sans,12' background '#ffffff'
} else {
    set terminal pngcairo size 1100,760 font ',10'
}
set output out.'.'.term
set datafile columnheaders
boards = int(system(sprintf("awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^nicpfc0_dcqcn0_board/) n++; print n }' '%s/goodput.csv'", dir)))
bench = dir.'/bench.csv'
cell(cfg, col) = system(sprintf("awk -F, -v c='%s' -v k=%d '$1 == c { print $k }' '%s'", cfg, col, bench))
total(cfg) = sum [i=0:boards-1] column(sprintf('%s_board%d_gbps', cfg, i))
set multiplot layout 2,2 title sprintf("3:1 bench into a Soft-RoCE receiver: where the queue builds\n%s", t)
set xlabel 'time (ms)'
set xrange [0:tmax]
set ylabel 'bytes queued (KB, most per window)'
set logscale y
set yrange [1:20000]
set y2label 'goodput of the boards (Gb/s)'
set y2range [0:12]
set y2tics 2
set ytics nomirror
set key top right box opaque font ',9'
do for [cfg in 'nicpfc0_dcqcn0 nicpfc1_dcqcn0 nicpfc0_dcqcn1 nicpfc1_dcqcn1'] {
    pfc = substr(cfg, 7, 7) eq '1' ? 'NIC PFC' : 'no NIC PFC'
    dcqcn = substr(cfg, 14, 14) eq '1' ? 'DCQCN' : 'no DCQCN'
    set title sprintf("%s, %s: %.2f Gb/s, %s NIC drops, %s ECN marks", pfc, dcqcn, \
        real(cell(cfg, 4)), cell(cfg, 14), cell(cfg, 12))
    plot dir.'/series.csv' using (mid($1)):(column(cfg.'_switch_queue_bytes')/1e3 + 1) with histeps lw 2 lc rgb '#1f77b4' title 'switch egress queue', \
         dir.'/series.csv' using (mid($1)):(column(cfg.'_nic_buffer_bytes')/1e3 + 1) with histeps lw 2 lc rgb '#d62728' title 'NIC receive buffer', \
         dir.'/goodput.csv' using (mid($1)):(total(cfg)) axes x1y2 with histeps lw 1.5 dt 2 lc rgb '#2ca02c' title 'goodput (right axis)'
}
unset multiplot
