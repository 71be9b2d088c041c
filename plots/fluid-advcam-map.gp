# Zero-margin contours of plots/fluid-advcam-map.sh's maps: one panel per board count, one line per
# loop delay; the stable side (positive margin) lies towards large Kmax and small R_AI.
set contour base
set cntrparam levels discrete 0
unset surface
set logscale xy
do for [n in '3 10 30 150'] {
    do for [d in '2 10 30 100'] {
        set table dir.'/contour-n'.n.'-d'.d.'.dat'
        set datafile separator ','
        splot dir.'/n'.n.'-d'.d.'.csv' skip 1 using 1:2:3 with lines
        set datafile separator whitespace
        unset table
    }
}
set terminal pngcairo size 1100,850
set output out
set multiplot layout 2,2 title 'AdvCam bench (10 Gb/s, paper preset, Pmax 1): zero phase margin; stable below/right of each line'
set xlabel 'Kmax (KB)'
set ylabel 'R_{AI} (Mb/s)'
set xrange [20:2000]
set yrange [1:100]
set grid
set key bottom right box noopaque
do for [n in '3 10 30 150'] {
    set title n.' boards'
    plot for [d in '2 10 30 100'] dir.'/contour-n'.n.'-d'.d.'.dat' using 1:2 with lines lw 2 title 'loop '.d.' us'
}
unset multiplot
