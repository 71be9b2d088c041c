# A heatmap of one metric of a sweep over two of its parameters: the mean over
# replications in each cell, with its value written in the cell (up to 12 x 16 cells).  feroce-sweep
# plot writes the data and calls this script; by hand:
#   gnuplot -e "in='d.dat'; out='plots/x'; nx=3; ny=3; xt='(\"5000\" 0, \"20000\" 1, \"80000\" 2)'; \
#               yt='(...)'; xl='kmin'; yl='kmax'; cb='jain_min'; t='title'" plots/sweep-heatmap.gp
# in: rows "xi yi mean n" (xi, yi: value indices; n: replications; NaN mean: no data),
#     a blank line after each xi.  Writes out.png and out.svg.
if (!exists("in")) in = 'heatmap.dat'
if (!exists("out")) out = 'heatmap'
if (!exists("t")) t = ''
if (!exists("xl")) xl = 'x'
if (!exists("yl")) yl = 'y'
if (!exists("cb")) cb = ''
if (!exists("xt")) xt = ''
if (!exists("yt")) yt = ''
if (!exists("nx")) nx = 1
if (!exists("ny")) ny = 1

set datafile missing 'NaN'
stats in using 3 nooutput
lo = STATS_min
hi = STATS_max
mid = (lo + hi) / 2
if (hi == lo) { hi = lo + (lo == 0 ? 1 : abs(lo) * 1e-3) }

set view map
set xrange [-0.5:nx - 0.5]
set yrange [-0.5:ny - 0.5]
set cbrange [lo:hi]
if (strlen(xt) > 0) { eval('set xtics '.xt) }
if (strlen(yt) > 0) { eval('set ytics '.yt) }
set tics out nomirror scale 0.5
if (nx > 8) { set xtics rotate by 45 right }
set rmargin 16
set xlabel xl
set ylabel yl
set cblabel cb
set title t
unset key
# viridis (dark blue = low, yellow = high), as gnuplot's defined palette
set palette defined (0 '#440154', 1 '#414487', 2 '#2a788e', 3 '#22a884', 4 '#7ad151', 5 '#fde725')
set style fill solid 1.0 noborder
# a cell's label: 3 significant digits, whole numbers from 1000 up (no exponent)
cell(v, n) = (n > 0 && v == v) ? (abs(v) >= 1000 ? sprintf('%.0f', v) : gprintf('%.3g', v)) : 'n/a'

do for [fmt in "png svg"] {
    if (fmt eq "png") {
        set terminal pngcairo size 900,640 font ',11' noenhanced
    } else {
        set terminal svg size 900,640 font 'Helvetica,11' noenhanced dynamic background '#ffffff'
    }
    set output out.'.'.fmt
    if (nx <= 12 && ny <= 16) {
        plot in using 1:2:3 with image, \
             in using 1:2:(cell($3, $4)):($3 >= mid ? 0x000000 : 0xffffff) with labels textcolor rgb variable, \
             in using 1:2:($4 == 0 || $3 != $3 ? 'n/a' : '') with labels textcolor rgb '#808080'
    } else {
        # too many cells to write their values legibly: the colours alone
        plot in using 1:2:3 with image
    }
    set output
}
