# One metric of a sweep against one parameter, one line per value of another,
# with error bars (95% confidence interval of the mean over replications).
# feroce-sweep plot writes the data and calls this script; by hand:
#   gnuplot -e "in='d.dat'; out='plots/x'; ns=2; title1='kmin=5000'; title2='kmin=20000'; \
#               xl='kmax'; yl='jain_min'; t='title'; logx=0; logy=0; xt=''" plots/sweep-lines.gp
# in: one block per line (two blank lines between blocks) of rows "x mean low high n zero":
#     x on the axis's scale (a value with a unit in the unit of xl), the bar from low to high;
#     on a log y axis a mean of 0 is NaN and `zero` is where it is drawn (the axis's bottom),
#     else NaN (ybottom: that bottom).  ns: the lines (those with data), titleI their legends; xt: the tics
#     ("(\"label\" position, ...)"), empty to let gnuplot choose; catx=1 when the parameter is
#     not a number (x is then the value's index).  t, t2, t3: the title's lines.
#     Writes out.png and out.svg.
if (!exists("in")) in = 'lines.dat'
if (!exists("out")) out = 'lines'
if (!exists("t")) t = ''
if (!exists("t2")) t2 = ''
if (!exists("t3")) t3 = ''
if (!exists("xl")) xl = 'x'
if (!exists("yl")) yl = 'y'
if (!exists("ns")) ns = 1
if (!exists("logx")) logx = 0
if (!exists("logy")) logy = 0
if (!exists("zeros")) zeros = 0
if (!exists("xt")) xt = ''
if (!exists("catx")) catx = 0

set datafile missing 'NaN'
set xlabel xl
set ylabel yl.(logy ? ' (log scale)' : '')
title = t.(strlen(t2) ? "\n".t2 : '').(strlen(t3) ? "\n".t3 : '')
set title title
set grid
set key outside right top
if (logx) { set logscale x }
if (logy) { set logscale y }
if (strlen(xt) > 0) { eval('set xtics '.xt) }
if (catx || strlen(xt) > 0) { set autoscale xfix }
set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05
# on a log axis the zeros sit on its bottom edge, half a factor below the least mean
if (logy && exists("ybottom")) { set yrange [ybottom:*]; set offsets graph 0.05, graph 0.05, graph 0.05, 0 }
if (ns == 0) {
    # nothing done yet for these values: an empty frame that says so
    set xrange [0:1]
    set yrange [0:1]
    unset xtics
    set label 1 'no data yet' at graph 0.5, graph 0.5 center
}
title_of(i) = value(sprintf('title%d', i))

do for [fmt in "png svg"] {
    if (fmt eq "png") {
        set terminal pngcairo size 1000,600 font ',11' noenhanced
    } else {
        set terminal svg size 1000,600 font 'Helvetica,11' noenhanced dynamic background '#ffffff'
    }
    set output out.'.'.fmt
    if (ns == 0) {
        plot NaN notitle
    } else {
        if (zeros > 0) {
            plot for [i = 1:ns] in index (i - 1) using 1:2:3:4 with yerrorlines lw 2 pt 7 ps 0.8 lc i title title_of(i), \
                 for [i = 1:ns] in index (i - 1) using 1:6 with points pt 6 ps 1.4 lc i notitle, \
                 NaN with points pt 6 ps 1.4 lc rgb 'black' title '0 (drawn at the bottom)'
        } else {
            plot for [i = 1:ns] in index (i - 1) using 1:2:3:4 with yerrorlines lw 2 pt 7 ps 0.8 lc i title title_of(i)
        }
    }
    set output
}
