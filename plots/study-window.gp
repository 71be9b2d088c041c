# Goodput against the send-queue depth (from an advcam-window run's window.csv and
# hardware.csv): one panel per opcode and link delay, a curve per message size (points measured
# by feroce, lines the formula min(line, W M / (K T_msg + T_loop))), and on the SEND panel of the
# bench's delay the hardware bench (blue-rdma, SEND 4096 B: depth 4 -> 8.10, 16 -> 9.75 Gb/s),
# open squares so that feroce's points at the same depths show through.
#   gnuplot -e "dir=...; out=...; term=...; t='...'" plots/study-window.gp
if (!exists("term")) term = 'png'
if (!exists("t")) t = ''
if (term eq 'svg') {
    set terminal svg size 1500,860 dynamic font 'sans,12' background '#ffffff'
} else {
    set terminal pngcairo size 1500,860 font ',11'
}
set output out.'.'.term
set datafile separator ','
set termoption noenhanced
csv = dir.'/window.csv'
# the grid's values, in the order of the file
opcodes = system(sprintf("awk -F, 'NR > 1 && !s[$1]++ { printf \"%%s \", $1 }' '%s'", csv))
sizes = system(sprintf("awk -F, 'NR > 1 && !s[$2]++ { printf \"%%s \", $2 }' '%s'", csv))
delays = system(sprintf("awk -F, 'NR > 1 && !s[$3]++ { printf \"%%s \", $3 }' '%s'", csv))
maxdepth = real(system(sprintf("awk -F, 'NR > 1 && $4 > m { m = $4 } END { print m }' '%s'", csv)))
ymax = real(system(sprintf("awk -F, 'NR > 1 && $7 > m { m = $7 } END { print m * 1.12 }' '%s'", csv)))
benchdelay = real(system(sprintf("awk -F= '$1 == \"benchDelay\" { printf \"%%.0f\", $2 * 1e9 }' '%s/params.txt'", dir)))
hw = dir.'/hardware.csv'
nrow = words(opcodes)
ncol = words(delays)
colors = "#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b #e377c2 #7f7f7f"
set multiplot layout nrow, ncol title t font ',12'
set grid
set xrange [0:maxdepth + 1]
set yrange [0:ymax]
set xtics 4
set mxtics 4
set key bottom right box opaque font ',9' spacing 0.9
set xlabel 'send-queue depth W (work requests outstanding)'
set ylabel 'goodput (Gb/s)'
do for [r = 1:nrow] {
    op = word(opcodes, r)
    do for [c = 1:ncol] {
        d = word(delays, c)
        set title sprintf("%s, link delay %s ns", op eq 'send' ? 'SEND' : 'RDMA WRITE', d) font ',11'
        bench = (op eq 'send' && real(d) == benchdelay)
        hwtitle = bench ? 'hardware (blue-rdma, SEND 4096 B)' : ''
        plot for [i = 1:words(sizes)] csv skip 1 using \
                 ((strcol(1) eq op && strcol(3) eq d && strcol(2) eq word(sizes, i)) ? $4 : 1/0):6 \
                 with lines lw 1.2 dt 2 lc rgb word(colors, i) notitle, \
             for [i = 1:words(sizes)] csv skip 1 using \
                 ((strcol(1) eq op && strcol(3) eq d && strcol(2) eq word(sizes, i)) ? $4 : 1/0):5 \
                 with points pt 7 ps 0.6 lc rgb word(colors, i) title word(sizes, i).' B', \
             hw skip 1 using (bench ? $1 : 1/0):4 with points pt 4 ps 2.2 lw 2 lc rgb 'black' \
                 title hwtitle, \
             hw skip 1 using (bench ? $1 : 1/0):4:(sprintf('%.2f', $4)) with labels offset 2.2,-0.9 \
                 font ',9' notitle, \
             1/0 with lines lw 1.2 dt 2 lc rgb 'black' title 'formula'
    }
}
unset multiplot
