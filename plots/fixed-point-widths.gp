# Largest relative deviation of the fixed-point Rc from the double Rc against the register widths
# (fixed-point-widths output): rate width with alpha kept wide, alpha width with rate kept wide.
#   gnuplot -e "in='results/fixed-point-widths/widths.csv'; out='plots/fixed-point-widths.png'" \
#           plots/fixed-point-widths.gp
if (!exists("in")) in = 'results/fixed-point-widths/widths.csv'
if (!exists("out")) out = 'plots/fixed-point-widths.png'
if (!exists("tol")) tol = 1e-3
set terminal pngcairo size 1300,560 font ',11'
set output out
set datafile separator ','
set datafile missing ''
set logscale y
set format y '10^{%T}'
set yrange [1e-7:10]
set grid
set key top right font ',10'
set ylabel 'largest |Rc_{fixed} - Rc_{double}| / Rc_{double}'
presets = 'paper connectx hpcc'
colors = '#1f77b4 #d62728 #2ca02c'
sel(p, r, s, x) = (stringcolumn(1) eq p && stringcolumn(2) eq r && stringcolumn(3) eq s && \
                   strlen(stringcolumn(6)) > 0) ? x : 1/0
set multiplot layout 1,2 title 'Fixed-point DCQCN reaction point: deviation from double precision (300 random scripts per preset)'
set title 'rate register width (alpha: 28 fraction bits)'
set xlabel 'rate\_bits (LSB = line rate / 2^{rate\_bits-1})'
set xrange [12:34]
plot for [i=1:3] in using (sel(word(presets, i), 'truncate', 'rate', $4)):6 with linespoints \
         lc rgb word(colors, i) pt 7 ps 0.6 lw 1.5 title word(presets, i).' truncate', \
     for [i=1:3] in using (sel(word(presets, i), 'nearest', 'rate', $4)):6 with linespoints \
         lc rgb word(colors, i) pt 6 ps 0.7 dt 2 lw 1.5 title word(presets, i).' nearest', \
     tol with lines lc rgb '#000000' dt 3 title '0.1 %'
set title 'alpha fraction bits (rate: 32 bits)'
set xlabel 'alpha\_bits'
set xrange [8:30]
plot for [i=1:3] in using (sel(word(presets, i), 'truncate', 'alpha', $5)):6 with linespoints \
         lc rgb word(colors, i) pt 7 ps 0.6 lw 1.5 title word(presets, i).' truncate', \
     for [i=1:3] in using (sel(word(presets, i), 'nearest', 'alpha', $5)):6 with linespoints \
         lc rgb word(colors, i) pt 6 ps 0.7 dt 2 lw 1.5 title word(presets, i).' nearest', \
     tol with lines lc rgb '#000000' dt 3 title '0.1 %'
unset multiplot
