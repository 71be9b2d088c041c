# A heatmap of one metric of a sweep over two of its parameters: the mean over
# replications in each cell, with its value written in the cell (up to 12 x 16
# cells); a cell with nothing done (left out by `require`, or not run yet) is a
# hatched hole marked n/a.  feroce-sweep plot writes the data and calls this
# script; by hand:
#   gnuplot -e "in='d.dat'; out='plots/x'; nx=3; ny=3; xt='(\"5000\" 0, \"20000\" 1, \"80000\" 2)'; \
#               yt='(...)'; xl='kmin'; yl='kmax'; cb='jain_min'; t='title'; lo=0.9; hi=1" plots/sweep-heatmap.gp
# in: rows "xi yi colour n label textcolour kind" (xi, yi: value indices; colour: the mean, NaN
#     in a hole; n: replications; label: the mean as written in the cell; kind: value, hole, or
#     zero for a 0 on a log colour scale),
#     a blank line after each xi.  lo, hi: the colour scale's ends; logcb=1: a log colour scale,
#     on which a 0 is a light grey cell; zeros: how many.
#     t, t2, t3: the title's lines.  Writes out.png and out.svg.
if (!exists("in")) in = 'heatmap.dat'
if (!exists("out")) out = 'heatmap'
if (!exists("t")) t = ''
if (!exists("t2")) t2 = ''
if (!exists("t3")) t3 = ''
if (!exists("xl")) xl = 'x'
if (!exists("yl")) yl = 'y'
if (!exists("cb")) cb = ''
if (!exists("xt")) xt = ''
if (!exists("yt")) yt = ''
if (!exists("nx")) nx = 1
if (!exists("ny")) ny = 1
if (!exists("lo")) lo = 0
if (!exists("hi")) hi = 1
if (!exists("logcb")) logcb = 0
if (!exists("zeros")) zeros = 0

set datafile missing 'NaN'
if (hi == lo) { hi = lo + (lo == 0 ? 1 : abs(lo) * 1e-3) }
set xrange [-0.5:nx - 0.5]
set yrange [-0.5:ny - 0.5]
if (logcb) { set logscale cb }
set cbrange [lo:hi]
if (strlen(xt) > 0) { eval('set xtics '.xt) }
if (strlen(yt) > 0) { eval('set ytics '.yt) }
set tics out nomirror scale 0.5
if (nx > 8) { set xtics rotate by 45 right }
set rmargin 16
set xlabel xl
set ylabel yl
set cblabel cb.(logcb ? (zeros ? ' (log scale; light grey: 0)' : ' (log scale)') : '')
set title t.(strlen(t2) ? "\n".t2 : '').(strlen(t3) ? "\n".t3 : '')
unset key
# viridis (dark blue = low, yellow = high), as gnuplot's defined palette
set palette defined (0 '#440154', 1 '#414487', 2 '#2a788e', 3 '#22a884', 4 '#7ad151', 5 '#fde725')
set style fill solid 1.0 noborder
# a cell is a box (a hair wider than the grid, so no seam shows between neighbours)
w = 0.51

do for [fmt in "png svg"] {
    if (fmt eq "png") {
        set terminal pngcairo size 900,640 font ',11' noenhanced
    } else {
        set terminal svg size 900,640 font 'Helvetica,11' noenhanced dynamic background '#ffffff'
    }
    set output out.'.'.fmt
    if (nx <= 12 && ny <= 16) {
        plot in using 1:2:(w):(w):3 with boxxyerror lc palette, \
             in using 1:2:(w):(strcol(7) eq 'zero' ? w : NaN) with boxxyerror lc rgb '#d0d0d0', \
             in using 1:2:(0.5):(strcol(7) eq 'hole' ? 0.5 : NaN) with boxxyerror fs pattern 4 lc rgb '#a0a0a0', \
             in using 1:2:5:6 with labels textcolor rgb variable
    } else {
        # too many cells to write their values legibly: the colours and the holes alone
        plot in using 1:2:(w):(w):3 with boxxyerror lc palette, \
             in using 1:2:(w):(strcol(7) eq 'zero' ? w : NaN) with boxxyerror lc rgb '#d0d0d0', \
             in using 1:2:(0.5):(strcol(7) eq 'hole' ? 0.5 : NaN) with boxxyerror fs pattern 4 lc rgb '#a0a0a0'
    }
    set output
}
