#!/bin/sh
# What the firmware's fixed-point arithmetic changes on the AdvCam 3:1 bench (the main job's
# advcam-incast run: 3 -> 2 -> 1 boards, DCQCN paper preset, MAC without PFC): the same bench
# with the boards' QPs in double precision and in several register formats
# (RoceNic::FixedPointFormat), over RUNS values of RngRun; a row per run, then mean and
# standard deviation per format.
#   examples/fixed-point-advcam.sh ADVCAM-INCAST OUTDIR [RUNS [PRESET]]
# writes OUTDIR/runs.csv, OUTDIR/summary.csv and OUTDIR/<format>-<run>/ (the runs' files).
set -eu
[ $# -ge 2 ] || { echo "usage: fixed-point-advcam.sh ADVCAM-INCAST OUTDIR [RUNS [PRESET]]" >&2; exit 2; }
tool=$1
out=$2
runs=${3:-10}
preset=${4:-paper}
case $runs in ''|*[!0-9]*|0) echo "fixed-point-advcam.sh: RUNS = $runs is not allowed: expected an integer >= 1" >&2; exit 2 ;; esac
bench="--preset=$preset --duration=90ms --pfcHonour=0 --bufferSize=2000000 --messageSize=65536 --ackTimeout=4194304ns --db=none"
# name|FixedPointFormat ("" = double precision)
formats='double|
default|default
surf|surf
surf-alpha-truncate|surf,alpha_rounding=truncate
narrow-16-10|default,rate_bits=16,alpha_bits=10
surf-alpha-16|surf,alpha_bits=16'
mkdir -p "$out"
tmp=$out/runs.csv.tmp
echo "format,run,goodput_gbps,jain_min,jain_mean,queue_max_bytes,queue_mean_bytes,queue_sd_2boards_bytes,cnps,board0_gbps,board1_gbps,board2_gbps" > "$tmp"
echo "$formats" | while IFS='|' read -r name fmt; do
    r=1
    while [ "$r" -le "$runs" ]; do
        dir=$out/$name-$r
        # shellcheck disable=SC2086
        "$tool" $bench --RngRun="$r" --ns3::RoceNic::FixedPointFormat="$fmt" --outdir="$dir" > "$dir.log" 2>&1 ||
            { echo "fixed-point-advcam.sh: $name run $r failed: $(tail -1 "$dir.log")" >&2; rm -f "$tmp"; exit 1; }
        m() { sed -n "s/^$1=//p" "$dir/metrics.txt"; }
        # the queue toward the receiver, mean of the 1 ms samples after the first 5 ms
        qmean=$(awk -F, 'NR > 1 && $1 > 5000000 { s += $2; n++ } END { printf "%.0f", n ? s / n : 0 }' "$dir/series.csv")
        # how much it swings while two boards share the link (33..60 ms): standard deviation
        qsd=$(awk -F, 'NR > 1 && $1 >= 33000000 && $1 <= 60000000 { s += $2; q += $2 * $2; n++ }
                       END { m = n ? s / n : 0; v = n ? q / n - m * m : 0; printf "%.0f", sqrt(v > 0 ? v : 0) }' "$dir/series.csv")
        echo "$name,$r,$(m goodput_gbps),$(m jain_min),$(m jain_mean),$(m queue_max_bytes),$qmean,$qsd,$(m cnps),$(m board0_gbps),$(m board1_gbps),$(m board2_gbps)" >> "$tmp"
        r=$((r + 1))
    done
done
mv "$tmp" "$out/runs.csv"
awk -F, 'NR > 1 { k = $1; if (!(k in n)) order[++nk] = k; n[k]++
                  for (i = 3; i <= 12; i++) { s[k, i] += $i; q[k, i] += $i * $i } }
         END { print "format,runs,goodput_gbps,goodput_sd,jain_min,jain_min_sd,jain_mean,jain_mean_sd,queue_max_bytes,queue_max_sd,queue_mean_bytes,queue_mean_sd,queue_sd_2boards_bytes,queue_sd_2boards_sd,cnps,cnps_sd"
               for (j = 1; j <= nk; j++) { k = order[j]; line = k "," n[k]
                   for (i = 3; i <= 9; i++) { mu = s[k, i] / n[k]; v = q[k, i] / n[k] - mu * mu
                       line = line "," sprintf("%.4g,%.2g", mu, sqrt(v > 0 ? v : 0)) }
                   print line } }' "$out/runs.csv" > "$out/summary.csv"
# the summary as columns (two passes: widths, then rows)
awk -F, 'NR == FNR { for (i = 1; i <= NF; i++) if (length($i) > w[i]) w[i] = length($i); next }
         { for (i = 1; i <= NF; i++) printf "%-*s  ", w[i], $i; printf "\n" }' "$out/summary.csv" "$out/summary.csv"
echo "wrote $out/runs.csv,summary.csv"
