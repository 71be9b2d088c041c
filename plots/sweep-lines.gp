# One metric of a sweep against one parameter, one line per value of another,
# with error bars (95% confidence interval of the mean over replications).
# feroce-sweep plot writes the data and calls this script; by hand:
#   gnuplot -e "in='d.dat'; out='plots/x'; ns=3; titles='kmin=5000 kmin=20000 kmin=80000'; \
#               xl='kmax'; yl='jain_min'; t='title'; logx=0; xt=''" plots/sweep-lines.gp
# in: one block per line (two blank lines between blocks) of rows "x mean ci95 n";
#     xt: the tics, one per value of the parameter ("(\"label\" position, ...)"); catx=1 when
#     the parameter is not a number (x is then the value's index).
#     Writes out.png and out.svg.
if (!exists("in")) in = 'lines.dat'
if (!exists("out")) out = 'lines'
if (!exists("t")) t = ''
if (!exists("xl")) xl = 'x'
if (!exists("yl")) yl = 'y'
if (!exists("ns")) ns = 1
if (!exists("titles")) titles = ''
if (!exists("logx")) logx = 0
if (!exists("xt")) xt = ''
if (!exists("catx")) catx = 0

set datafile missing 'NaN'
set xlabel xl
set ylabel yl
set title t
set grid
set key outside right top
if (logx) { set logscale x }
if (strlen(xt) > 0) { eval('set xtics '.xt) }
set autoscale xfix
set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05

do for [fmt in "png svg"] {
    if (fmt eq "png") {
        set terminal pngcairo size 1000,600 font ',11' noenhanced
    } else {
        set terminal svg size 1000,600 font 'Helvetica,11' noenhanced dynamic background '#ffffff'
    }
    set output out.'.'.fmt
    plot for [i = 1:ns] in index (i - 1) using 1:2:3 with yerrorlines lw 2 pt 7 ps 0.8 title word(titles, i)
    set output
}
