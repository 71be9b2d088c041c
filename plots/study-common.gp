# Shared by the study pictures: terminal from `term` (png or svg), output `out`.<term>.
#   variables: dir (run directory), out (path without extension), term, t (title line)
if (!exists("term")) term = 'png'
if (!exists("t")) t = ''
if (term eq 'svg') {
    set terminal svg size 1000,560 dynamic font 'sans,12' background '#ffffff'
} else {
    set terminal pngcairo size 1000,560 font ',11'
}
set output out.'.'.term
set datafile separator ','
set grid
set termoption noenhanced
set key top right box opaque
# The window in ms: goodput.csv's first row is stamped at the end of the first window. A value
# of a window (goodput, most bytes queued) is drawn over that window: `using (mid($1)):... with
# histeps` (its centre; histeps spans the window), on a time axis `set xrange [0:tmax]`.
if (!exists("w")) w = real(system(sprintf("awk -F, 'NR == 2 { print $1 / 1e6; exit }' '%s/goodput.csv'", dir)))
tmax = real(system(sprintf("awk -F, 'NR > 1 { t = $1 } END { print t / 1e6 }' '%s/goodput.csv'", dir)))
mid(t_ns) = t_ns / 1e6 - w / 2
