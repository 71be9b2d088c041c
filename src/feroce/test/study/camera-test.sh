#!/bin/sh
# advcam-camera's counters add up and its steady state is judged:
# - with losses at the boards' buffers and at the switches (PFC off, small buffers): frames lost
#   anywhere = the sum of the places, fragments and camera events generated = delivered (built)
#   + lost by cause + in flight, per receiver and per leaf summed to the totals, no violation;
# - the convergence warning: a run too short to judge warns (stderr, params.txt), a steady run
#   long enough does not; the steady state starts after the start-up's losses;
# - --triggerRate is --triggerInterval as a rate (the same run);
# - the camera's pictures (offered against delivered, events lost, the boards' buffers) drawn.
#   camera-test.sh ADVCAM_CAMERA REPO_ROOT WORK_DIR
set -eu
. "$(dirname "$0")/../lib.sh"
prog=$1
root=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
m() { sed -n "s/^$2=//p" "$work/$1/metrics.txt"; }
# the sum of a CSV's column (by name)
colsum() {
    awk -F, -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
                       { s += $k } END { print s + 0 }' "$work/$1/$2"
}
eq() { [ "$1" = "$2" ] || { echo "  $1 != $2" >&2; return 1; }; }
small="--boards=12 --boardsPerLeaf=4 --receivers=2 --receiverRate=10Gbps --db=none"

# losses everywhere: 12 boards x 4 KiB every 4 us (98 Gb/s) into 2 receivers at 10 Gb/s, 16 KiB
# board buffers, switches without PFC and with 100 KB of buffer
"$prog" $small --triggerInterval=4us --boardBuffer=16384 --pfc=0 --bufferSize=100000 \
    --duration=2ms --window=100us --warmup=200us --outdir="$work/loss" > "$work/loss.out" 2> "$work/loss.err"
check "no sum fails" eq "$(m loss identity_violations)" 0
check "frames lost at the switches" test "$(m loss drops_switch)" -gt 0
check "drops = the places" eq "$(m loss drops)" \
    $(($(m loss drops_switch) + $(m loss drops_rx_buffer) + $(m loss drops_error_model) + $(m loss drops_unknown) + $(m loss drops_qp_error) + $(m loss drops_link_down)))
check "the switch's causes" eq "$(m loss drops_switch)" $(($(m loss drops_lossless) + $(m loss drops_lossy)))
check "fragments lost at the boards" test "$(m loss fragments_lost_board_buffer)" -gt 0
check "fragments add up" eq "$(m loss fragments_generated)" \
    $(($(m loss fragments_delivered) + $(m loss fragments_lost) + $(m loss fragments_in_flight)))
check "fragments lost by cause" eq "$(m loss fragments_lost)" \
    $(($(m loss fragments_lost_board_buffer) + $(m loss fragments_lost_request_failed)))
check "legacy names: fragments" eq "$(m loss events_lost)" "$(m loss fragments_lost_board_buffer)"
check "camera events lost" test "$(m loss camera_events_lost)" -gt 0
check "camera events add up" eq "$(m loss camera_events_generated)" \
    $(($(m loss camera_events_built) + $(m loss camera_events_lost) + $(m loss camera_events_in_flight)))
check "camera events lost by cause" eq "$(m loss camera_events_lost)" \
    $(($(m loss camera_events_lost_board_buffer) + $(m loss camera_events_lost_request_failed)))
check "an event lost once, however many fragments" test "$(m loss camera_events_lost)" -le "$(m loss fragments_lost)"
check "per receiver: built" eq "$(colsum loss receivers.csv events_built)" "$(m loss camera_events_built)"
check "per receiver: lost" eq "$(colsum loss receivers.csv events_lost)" "$(m loss camera_events_lost)"
check "per receiver: assigned" eq "$(colsum loss receivers.csv events_assigned)" "$(m loss camera_events_generated)"
check "per leaf: fragments" eq "$(colsum loss leaves.csv fragments_generated)" "$(m loss fragments_generated)"
check "per leaf: lost" eq "$(colsum loss leaves.csv fragments_lost)" "$(m loss fragments_lost_board_buffer)"
check "per place: frames" eq $(($(colsum loss leaves.csv drops) + $(colsum loss receivers.csv drops) + \
    $(awk -F, '$1 == "agg" { print $8 }' "$work/loss/switches.csv"))) "$(m loss drops)"
check "series: the last row is the whole run" eq \
    "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "camera_events_lost") k = i } END { print $k }' "$work/loss/series.csv")" \
    "$(m loss camera_events_lost)"

# too short to judge: a warning, on stderr and in params.txt
"$prog" $small --duration=1ms --window=100us --warmup=100us --outdir="$work/short" > /dev/null 2> "$work/short.err"
check "too short: warned" grep -q 'warning: the steady state has [0-9]* windows.*too few to judge' "$work/short.err"
check "too short: recorded" grep -q '^warnings=.*too few to judge' "$work/short/params.txt"

# the start-up transient: the boards' first events overflow the receivers (2 x 10 Gb/s, 16 KiB
# buffers) until DCQCN has slowed them; a light load after that (12 x 4 KiB every 48 us, 8 Gb/s)
# keeps the steady state lossless; long enough (200 windows) to be judged, without a warning
"$prog" $small --triggerInterval=48us --boardBuffer=16384 --duration=20ms --window=100us \
    --warmup=0ms --outdir="$work/steady" > "$work/steady.out" 2> "$work/steady.err"
check "long enough: no warning" test ! -s "$work/steady.err"
check "long enough: none recorded" test -z "$(grep '^warnings=' "$work/steady/params.txt")"
check "steady goodput with its interval" test -n "$(m steady goodput_gbps_ss_ci95 | grep -v nan)"
check "steady goodput = offered" awk -v g="$(m steady goodput_gbps_ss)" -v o="$(m steady offered_gbps)" \
    'BEGIN { exit !(g > 0.97 * o && g < 1.03 * o) }'
check "no loss in the steady state" eq "$(m steady camera_events_lost_ss)" 0
check "the steady queue below the whole run's" awk -v s="$(m steady queue_max_bytes_ss)" \
    -v w="$(m steady queue_max_bytes)" 'BEGIN { exit !(s <= w) }'

# --triggerRate: the same run as --triggerInterval
"$prog" $small --triggerRate=62500 --duration=1ms --window=100us --outdir="$work/rate" > /dev/null 2>&1
"$prog" $small --triggerInterval=16us --duration=1ms --window=100us --outdir="$work/interval" > /dev/null 2>&1
check "a rate is an interval" eq "$(grep -v '^warnings=' "$work/rate/metrics.txt")" \
    "$(grep -v '^warnings=' "$work/interval/metrics.txt")"
check "the interval recorded" eq "$(grep '^triggerInterval=' "$work/rate/params.txt")" \
    "$(grep '^triggerInterval=' "$work/interval/params.txt")"

# the camera's pictures
if command -v gnuplot > /dev/null; then
    cd "$root"
    sh plots/render.sh "$work/loss" "$work/pic" > /dev/null
    for p in load events buffer; do
        check "picture $p" test -s "$work/pic-$p.png"
    done
    check "the load's title: the parameters in force" sh -c "tr -d '\n' < '$work/pic-load.svg' | grep -q '12 boards (4 per leaf.*no PFC'"
fi
finish
