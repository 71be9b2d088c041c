#!/bin/sh
# Renders the pictures of a study run (PNG and SVG):
#   plots/render.sh RUNDIR [PREFIX]
# writes PREFIX-throughput, -queue, -rate, -jain .png/.svg (the ones whose data
# the run has); for an advcam-camera run -switches instead of -queue and -rate, and -load
# (offered against delivered), -events (events lost per window), -buffer (the boards' buffers),
# for an advcam-mtu run (mtu.csv) -mtu and -throughput, for an advcam-receiver run
# (bench.csv) -pmtu and -bench, for an advcam-window run (window.csv) -window. PREFIX defaults to
# plots/<RUNDIR's name>. Run from the repository root.
# Titles show the parameters in force (params.txt: the flags, DCQCN's preset and what was set over
# it, every attribute given by its short name); a point of a sweep (points/KEY beside sweep.db) is
# named by its sweep and values.  A picture that fails is said on stderr and leaves no file; the
# others are drawn, and render.sh then exits 1.
set -eu
[ $# -ge 1 ] && [ -d "$1" ] || { echo "usage: plots/render.sh RUNDIR [PREFIX]" >&2; exit 2; }
dir=$1
prefix=${2:-plots/$(basename "$dir")}
[ -f "$dir/goodput.csv" ] || { echo "render.sh: $dir/goodput.csv missing: not a study run" >&2; exit 2; }
[ -f "$dir/params.txt" ] || { echo "render.sh: $dir/params.txt missing: not a finished study run" >&2; exit 2; }
dir=$(cd "$dir" && pwd)
case $prefix in /*) ;; *) prefix=$PWD/$prefix ;; esac
mkdir -p "$(dirname "$prefix")"
cd "$(dirname "$0")/.."
# gnuplot gets plain names (a quote in a folder's name would end its strings): the run
# through a link, the pictures into a folder of ours, moved to PREFIX at the end
# the run's name in the titles: its folder's, or for a point of a sweep (points/KEY) the sweep's
# name and the point's values, from the sweep's database
run=$(basename "$dir")
sweepdb=$(dirname "$(dirname "$dir")")/sweep.db
if printf '%s' "$run" | grep -qE '^[0-9a-f]{16}$' && [ -f "$sweepdb" ] && command -v sqlite3 > /dev/null; then
    point=$(sqlite3 "$sweepdb" "SELECT p.sweep || ': ' || group_concat(j.key || '=' || j.value, ', ')
                                FROM points p, json_each(p.combo) j WHERE p.key = '$run'" 2> /dev/null)
    [ -n "$point" ] && [ "$point" != ": " ] && run=$point
fi
run=$(printf '%s' "$run" | sed 's/[\\"]/\\&/g') # for the titles, in gnuplot's double quotes
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ln -s "$dir" "$tmp/run"
dir=$tmp/run
final=$prefix
prefix=$tmp/pic
param() { sed -n "s/^$1=//p" "$dir/params.txt" 2>/dev/null; }
has() { grep -q "^$1=" "$dir/params.txt" 2>/dev/null; }
# a rate as the params record it (bits per second) in Gb/s
gbps() { awk -v r="$1" 'BEGIN { sub(/bps$/, "", r); printf "%g Gb/s", r / 1e9 }'; }
n=$(( $(head -1 "$dir/goodput.csv" | tr ',' '\n' | wc -l) - 2 ))
onoff() { [ "$(param "$1")" = 1 ] && echo "$2" || echo "$3"; }
# an ns-3 attribute by its short name: Attribute, or Type::Attribute when two given share it
short() {
    a=${1#ns3::}
    n=$(grep -c "^ns3::[^=]*::${a##*::}=" "$dir/params.txt")
    [ "$n" -gt 1 ] && echo "$a" || echo "${a##*::}"
}
# the attributes given on the command line (params.txt's ns3:: lines), except those matching $1:
# "A=v, B=w"
attrs() {
    grep '^ns3::' "$dir/params.txt" | grep -v "${1:-^$}" | while IFS= read -r line; do
        printf '%s=%s\n' "$(short "${line%%=*}")" "${line#*=}"
    done | paste -sd, - | sed 's/,/, /g'
}
# DCQCN as in force: the preset, then what was set over it: the study's --g, --rai (Mb/s) and
# --timer (s) when not 0 (the preset's), and every DcqcnReactionPoint attribute given (a flag
# bound to an attribute records the attribute's value: shown once, by the attribute)
dcqcn() {
    over=$(grep '^ns3::DcqcnReactionPoint::' "$dir/params.txt" | while IFS= read -r line; do
        printf '%s=%s\n' "$(short "${line%%=*}")" "${line#*=}"; done | paste -sd, - | sed 's/,/, /g')
    g=$(param g); rai=$(param rai); timer=$(param timer)
    case $rai in ''|0) ;; *) over="R_AI=$rai Mb/s${over:+, $over}" ;; esac
    case $timer in ''|0) ;; *) has ns3::DcqcnReactionPoint::IncreaseTimer ||
        over="T=$(awk -v s="$timer" 'BEGIN { printf "%g", s * 1e6 }') us${over:+, $over}" ;; esac
    case $g in ''|0) ;; *) has ns3::DcqcnReactionPoint::G || over="g=$g${over:+, $over}" ;; esac
    echo "DCQCN $(param preset)${over:+ with $over}"
}
ecn="ECN Kmin $(param kmin) B Kmax $(param kmax) B Pmax $(param pmax)"
kind=incast
if [ -f "$dir/bench.csv" ]; then
    kind=receiver
    soft="Soft-RoCE $(awk -v s="$(param softPacketCost)" 'BEGIN { printf "%g", s * 1e6 }') us per packet + bytes at $(gbps "$(param softByteRate)"), $(param softBuffer)-B buffer"
    links="$(gbps "$(param linkRate)") links of $(awk -v s="$(param linkDelay)" 'BEGIN { printf "%g", s * 1e6 }') us, $(param messageSize)-B WRITEs, $(param maxOutstanding) outstanding"
    # the PMTU picture: one board -> switch -> receiver per point, no bench parameters
    title="$run: $soft\\none board -> switch -> receiver per point, $links"
    benchTitle="$run: $soft; $links\\n$(param boards) boards in the bench, PMTU $(param benchPmtu), switch PFC, $ecn"
elif [ -f "$dir/window.csv" ]; then
    kind=window
    us() { awk -v s="$1" 'BEGIN { printf "%g us", s * 1e6 }'; }
    title="$run: one board -> receiver per point$(onoff viaSwitch ' (through a switch)' ''), $(gbps "$(param linkRate)") links, PMTU $(param pmtu)\\nAckReq every $(param ackReqMessages) messages, receiver ACKs on AckReq, completion latency $(us "$(param completionLatency)")"
elif [ -f "$dir/mtu.csv" ]; then
    kind=mtu
    title="$run: a board -> switch -> receiver per PMTU, $(gbps "$(param linkRate)") links, $(param messageSize)-B WRITEs"
elif has receivers; then
    kind=camera
    title="$run: $(param boards) boards ($(param boardsPerLeaf) per leaf, $(gbps "$(param uplinkRate)") uplinks), $(param receivers) receivers at $(gbps "$(param receiverRate)")\\n$(param fragmentSize)-B fragments every $(awk -v s="$(param triggerInterval)" 'BEGIN { printf "%g", s * 1e6 }') us$(onoff poisson ' (Poisson)' ''), $(awk -v b="$(param boardBuffer)" 'BEGIN { if (b % 1024 == 0) printf "%g KiB", b / 1024; else printf "%d B", b }') board buffers\\n$(onoff dcqcn "$(dcqcn)" 'no DCQCN'), $(onoff pfc PFC 'no PFC'), $ecn"
elif has presets; then
    kind=sawtooth
    title="$run: $n boards -> switch -> receiver, CNP interval $(awk -v s="$(param cnpInterval)" 'BEGIN { printf "%g", s * 1e6 }') us, $ecn"
else
    ms() { awk -v s="$1" 'BEGIN { printf "%.3g ms", s * 1e3 }'; }
    timer="ACK timeout $(ms "$(param ackTimeout)")"
    [ "$(param ackJitter)" = 0 ] || timer="$timer + up to $(ms "$(param ackJitter)")"
    title="$run: $n boards, $(onoff dcqcn "$(dcqcn)" 'no DCQCN'), $(onoff pfc PFC 'no PFC')$(onoff pfcHonour '' ' (boards ignore PAUSE)')\\n$ecn, PMTU $(param pmtu)\\nswitch buffer $(param bufferSize) B, $(param messageSize)-B messages, $timer"
fi
# the other attributes given, on a line of their own
others=$(attrs '^ns3::DcqcnReactionPoint::')
[ -n "$others" ] && title="$title\\nwith $others" && benchTitle="${benchTitle:-}\\nwith $others"
kmin=$(param kmin); kmax=$(param kmax)
made=
failed=0
# draw PIC SCRIPT VARS: gnuplot draws PREFIX-PIC.TERM; a picture that fails (gnuplot's error, or
# nothing drawn) is said on stderr, leaves no file, and the others are drawn
draw() {
    if gnuplot -e "dir='$dir'; out='$prefix-$1'; term='$term'; $3" "plots/$2" 2> "$tmp/gnuplot.err" &&
        [ -s "$prefix-$1.$term" ]; then
        made="$made $prefix-$1.$term"
    else
        echo "render.sh: $1.$term failed: $(grep -v '^ *$' "$tmp/gnuplot.err" | tail -1)" >&2
        rm -f "$prefix-$1.$term"
        failed=$((failed + 1))
    fi
}
for term in png svg; do
    case $kind in
    receiver)
        draw pmtu study-receiver-pmtu.gp "t=\"$title\""
        draw bench study-receiver-bench.gp "t=\"$benchTitle\""
        continue ;;
    window)
        draw window study-window.gp "t=\"$title\""
        continue ;;
    mtu)
        draw mtu study-mtu.gp "t=\"$title\""
        draw throughput study-throughput.gp "n=$n; what='PMTU'; t=\"$title\""
        continue ;;
    camera)
        ymax=$(awk -v r="$(param receiverRate)" 'BEGIN { sub(/bps$/, "", r); print r / 1e9 * 1.05 }')
        draw throughput study-throughput.gp "n=$n; what='receiver'; ymax=$ymax; t=\"$title\""
        draw jain study-jain.gp "n=$n; what='the receivers'; t=\"$title\""
        draw switches study-switches.gp "kmin=${kmin:-0}; kmax=${kmax:-0}; t=\"$title\""
        # the camera's answer: offered against delivered, events lost, the boards' buffers, with
        # the steady state's start (metrics.txt's ss_start_ms)
        if head -1 "$dir/series.csv" | grep -q camera_events_lost; then
            ss=$(sed -n 's/^ss_start_ms=//p' "$dir/metrics.txt" 2>/dev/null)
            cam="boards=$(param boards); frag=$(param fragmentSize); ss=${ss:--1}; t=\"$title\""
            draw load study-camera-load.gp "n=$n; $cam"
            draw events study-camera-events.gp "$cam"
            draw buffer study-camera-buffer.gp "buffer=$(param boardBuffer); $cam"
        fi
        continue ;;
    esac
    for pic in throughput jain; do
        draw $pic study-$pic.gp "n=$n; t=\"$title\""
    done
    if [ -f "$dir/series.csv" ] && head -1 "$dir/series.csv" | grep -q queue_to_receiver_bytes; then
        draw queue study-queue.gp "kmin=${kmin:-0}; kmax=${kmax:-0}; t=\"$title\""
    fi
    if [ -f "$dir/series.csv" ] && head -1 "$dir/series.csv" | grep -q board0_rc_gbps; then
        if head -1 "$dir/series.csv" | grep -q board0_rt_gbps; then
            # one panel per board, named by its parameters
            labels=$(awk -v p="$(param presets)" -v t="$(param timers)" -v k="$(param alphaPeriods)" \
                         -v g="$(param gs)" -v r="$(param rais)" 'BEGIN {
                n = split(p, P, ","); split(t, T, ","); split(k, K, ","); split(g, G, ","); split(r, R, ",")
                for (i = 1; i <= n; i++) {
                    s = P[i]
                    if (T[i] != "0") s = s ",T=" T[i]
                    if (K[i] != "0") s = s ",K=" K[i]
                    if (G[i] != "0") s = s ",g=" G[i]
                    if (R[i] != "0") s = s ",R_AI=" R[i] "Mb/s"
                    printf "%s%s", (i > 1 ? " " : ""), s
                } }')
            # each panel's scale: 1.15 x the board's largest goodput, Rc or Rt after the warm-up
            tops=$(awk -F, -v n=$n -v w="$(param warmup)" '
                FNR == 1 { f++; next }
                $1 <= w * 1e9 { next }
                { for (i = 1; i <= n; i++) {
                      c = f == 1 ? i + 1 : 3 + i; v = $c; if (v > m[i]) m[i] = v
                      if (f == 2) { v = $(3 + n + i); if (v > m[i]) m[i] = v } } }
                END { for (i = 1; i <= n; i++) printf "%s%g", (i > 1 ? " " : ""), (m[i] > 0 ? 1.15 * m[i] : 1) }' \
                "$dir/goodput.csv" "$dir/series.csv")
            draw rate study-rate.gp "n=$n; panels=1; tops='$tops'; labels='$labels'; t=\"$title\""
        else
            draw rate study-rate.gp "n=$n; t=\"$title\""
        fi
    fi
done
wrote=
for f in $made; do
    mv "$f" "$final${f#"$prefix"}"
    wrote="$wrote $final${f#"$prefix"}"
done
echo "render.sh: wrote$wrote"
[ "$failed" -eq 0 ] || { echo "render.sh: $failed pictures failed (the others were drawn)" >&2; exit 1; }
