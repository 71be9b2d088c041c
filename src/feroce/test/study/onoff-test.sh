#!/bin/sh
# The AdvCam bench of the main job (3 -> 2 -> 1 boards ignoring PFC PAUSE, 2 MB switch,
# 4 x 64 KiB outstanding, ACK timeout 4.096 us x 2^10): with PFC alone the boards take the
# link in turn, stalled by losses until their ACK timeout; with DCQCN they share it and
# nothing is lost. AckTimeoutJitter draws from the RngRun's streams.
#   onoff-test.sh ADVCAM_INCAST WORK_DIR
set -eu
. "$(dirname "$0")/../lib.sh"
prog=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
bench="--duration=90ms --pfcHonour=0 --bufferSize=2000000 --messageSize=65536 --ackTimeout=4194304ns --db=none"
metric() { sed -n "s/^$2=//p" "$work/$1/metrics.txt"; }
# at least: metric RUN NAME MIN
atleast() { awk -v v="$(metric "$1" "$2")" -v m="$3" 'BEGIN { exit !(v != "" && v + 0 >= m) }'; }
atmost() { awk -v v="$(metric "$1" "$2")" -v m="$3" 'BEGIN { exit !(v != "" && v + 0 <= m) }'; }
# boards that had the link alone (>= 90% of a window's goodput) in some window after 5 ms
soloists() {
    awk -F, 'NR > 1 && $1 > 5e6 { t = 0; m = 0; b = 0
        for (i = 2; i <= 4; i++) { t += $i; if ($i > m) { m = $i; b = i } }
        if (t > 0 && m >= 0.9 * t) seen[b] = 1 }
        END { n = 0; for (k in seen) n++; print n }' "$work/$1/goodput.csv"
}

# shellcheck disable=SC2086 # $bench is a list of flags
"$prog" $bench --dcqcn=0 --outdir="$work/pfc" >"$work/pfc.log"
check "PFC alone: one board has the link in >= 30% of the contended windows" atleast pfc solo_fraction 0.3
check "PFC alone: the link changes hands >= 3 times" atleast pfc handovers 3
check "PFC alone: every board has the link alone at some time" test "$(soloists pfc)" = 3
check "PFC alone: frames are lost" atleast pfc drops 1
check "PFC alone: boards wait for ACK timeouts" atleast pfc timeouts 3
check "PFC alone: the switch sent PAUSE (ignored)" atleast pfc pause_frames 1
check "PFC alone: recovery.csv has timeouts of every board" \
    test "$(awk -F, '$3 == "timeout" { print $2 }' "$work/pfc/recovery.csv" | sort -u | wc -l)" = 3
check "PFC alone: Jain's index falls to 1/3" atmost pfc jain_min 0.34

# shellcheck disable=SC2086
"$prog" $bench --outdir="$work/dcqcn" >"$work/dcqcn.log"
check "DCQCN: no window has a single board" atmost dcqcn solo_fraction 0
check "DCQCN: no idle window" atmost dcqcn idle_fraction 0
check "DCQCN: Jain's index >= 0.95 in every window" atleast dcqcn jain_min 0.95
check "DCQCN: nothing lost" atmost dcqcn drops 0
check "DCQCN: no timeout" atmost dcqcn timeouts 0
check "DCQCN: recovery.csv has only its header" test "$(wc -l <"$work/dcqcn/recovery.csv")" = 1

# the timeouts' jitter comes from the run's streams
for run in a b; do
    # shellcheck disable=SC2086
    "$prog" $bench --dcqcn=0 --ackJitter=4ms --RngRun=5 --outdir="$work/jitter-$run" >/dev/null
done
# shellcheck disable=SC2086
"$prog" $bench --dcqcn=0 --ackJitter=4ms --RngRun=6 --outdir="$work/jitter-c" >/dev/null
check "same RngRun, same recovery" cmp -s "$work/jitter-a/recovery.csv" "$work/jitter-b/recovery.csv"
check "another RngRun, other timeout instants" \
    test "$(cmp -s "$work/jitter-a/recovery.csv" "$work/jitter-c/recovery.csv" && echo same)" != same
check "jitter: boards still take turns" atleast jitter-a handovers 3
check "ackJitter recorded" test "$(sed -n 's/^ackJitter=//p' "$work/jitter-a/params.txt")" = 0.0040000000000000001

finish
