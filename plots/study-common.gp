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
