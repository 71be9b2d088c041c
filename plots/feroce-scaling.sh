#!/bin/bash
# feroce-scaling.sh [BUILD_DIR [OUT_DIR]]: CPU time per event and per delivered packet as the
# fabric grows.
#
#  - incast: feroce-bench --scenario=incastN, N senders -> one switch port (10 Gb/s, 1000-B
#    payloads, DCQCN, an ACK per packet, 50 ms); CPU of Simulator::Run (the bench's cpu_s);
#  - camera: advcam-camera --boards=B, otherwise at its defaults (10 ms), with receivers in
#    proportion (4 per 150 boards, as the default camera; at most 64) so that every receiver link
#    carries the same load whatever B; CPU (user + system) of the whole process, set-up and
#    output files included, and CPU of Simulator::Run alone with its events (the study's console
#    line); delivered packets = delivered bytes / 4096 (the default PMTU and fragment are both
#    4096 B: one packet per fragment).
# Writes OUT_DIR/incast.dat, OUT_DIR/camera.dat and plots/feroce-scaling.png (gnuplot).
# The machine should be otherwise idle; each point is the minimum of REPEAT runs (default 3).
# SKIP_INCAST=1 or SKIP_CAMERA=1 keeps that curve's data file from an earlier run in OUT_DIR.
set -eu
build=${1:-build}
out=${2:-results/scaling}
repeat=${REPEAT:-3}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
bench=$build/examples/feroce-bench
camera=$build/examples/advcam-camera

field() { # field NAME LINE
    echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}

if [ "${SKIP_INCAST:-0}" = 1 ] && [ -f "$out/incast.dat" ]; then
    echo "keeping $out/incast.dat"
else
echo "# senders cpu_s delivered_pkts us_per_pkt events_per_pkt" > "$out/incast.dat.tmp"
for n in ${INCAST_SENDERS:-3 8 16 32 64 128 256 512 1024}; do
    best=
    for _ in $(seq "$repeat"); do
        line=$("$bench" --scenario="incast$n")
        cpu=$(field cpu_s "$line")
        if [ -z "$best" ] || awk -v a="$cpu" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best=$cpu
            pkts=$(field delivered_pkts "$line")
            epp=$(field events_per_pkt "$line")
        fi
    done
    awk -v n="$n" -v c="$best" -v p="$pkts" -v e="$epp" \
        'BEGIN { printf "%d %.4f %d %.3f %.2f\n", n, c, p, c / p * 1e6, e }' >> "$out/incast.dat.tmp"
    tail -1 "$out/incast.dat.tmp"
done
mv "$out/incast.dat.tmp" "$out/incast.dat"
fi

if [ "${SKIP_CAMERA:-0}" = 1 ] && [ -f "$out/camera.dat" ]; then
    echo "keeping $out/camera.dat"
else
echo "# boards cpu_s delivered_pkts us_per_pkt receivers run_cpu_s run_us_per_pkt events_per_pkt" \
    > "$out/camera.dat.tmp"
TIMEFORMAT='%3U %3S'
for b in ${CAMERA_BOARDS:-24 48 96 150 300 600 1000 2000}; do
    rx=$(( (b * 4 + 149) / 150 ))
    [ "$rx" -le 64 ] || rx=64
    best=
    bestRun=
    for _ in $(seq "$repeat"); do
        rm -rf "$out/camera-run"
        # the program's own stderr (its warnings) apart: only time's line in t
        t=$({ time "$camera" --boards="$b" --receivers="$rx" --outdir="$out/camera-run" \
            --db=none > "$out/camera-run.log" 2> "$out/camera-run.err"; } 2>&1)
        cpu=$(echo "$t" | awk '{ print $1 + $2 }')
        # "advcam-camera: wall W s (CPU C s, N events) for ..."
        run=$(sed -n 's/.*(CPU \([0-9.e+-]*\) s, \([0-9]*\) events).*/\1 \2/p' "$out/camera-run.log")
        if [ -z "$best" ] || awk -v a="$cpu" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best=$cpu
            pkts=$(awk -F, 'NR > 1 { s += $3 } END { printf "%d", s / 4096 }' "$out/camera-run/boards.csv")
        fi
        rcpu=${run% *}
        if [ -z "$bestRun" ] || awk -v a="$rcpu" -v b="$bestRun" 'BEGIN { exit !(a < b) }'; then
            bestRun=$rcpu
            events=${run#* }
        fi
    done
    awk -v n="$b" -v c="$best" -v p="$pkts" -v r="$rx" -v rc="$bestRun" -v e="$events" \
        'BEGIN { printf "%d %.3f %d %.3f %d %.3f %.3f %.2f\n", n, c, p, c / p * 1e6, r, rc, rc / p * 1e6, e / p }' \
        >> "$out/camera.dat.tmp"
    tail -1 "$out/camera.dat.tmp"
done
rm -rf "$out/camera-run" "$out/camera-run.log" "$out/camera-run.err"
mv "$out/camera.dat.tmp" "$out/camera.dat"
fi

gnuplot -e "incast='$out/incast.dat'; camera='$out/camera.dat'; png='$here/feroce-scaling.png'" \
    "$here/feroce-scaling.gp"
echo "wrote $here/feroce-scaling.png"
