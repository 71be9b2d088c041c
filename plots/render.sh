#!/bin/sh
# Renders the pictures of a study run (PNG and SVG):
#   plots/render.sh RUNDIR [PREFIX]
# writes PREFIX-throughput, -queue, -rate, -jain .png/.svg (the ones whose data
# the run has); for an advcam-camera run -switches instead of -queue and -rate,
# for an advcam-mtu run (mtu.csv) -mtu and -throughput, for an advcam-receiver run
# (bench.csv) -pmtu and -bench, for an advcam-window run (window.csv) -window. PREFIX defaults to
# plots/<RUNDIR's name>. Run from the repository root.
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
run=$(basename "$dir" | sed 's/[\\"]/\\&/g') # for the titles, in gnuplot's double quotes
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
    title="$run: $(param boards) boards ($(param boardsPerLeaf) per leaf, $(gbps "$(param uplinkRate)") uplinks), $(param receivers) receivers at $(gbps "$(param receiverRate)"), $(param fragmentSize)-B fragments every $(awk -v s="$(param triggerInterval)" 'BEGIN { printf "%g", s * 1e6 }') us\\n$(onoff dcqcn "DCQCN $(param preset)" 'no DCQCN'), $(onoff pfc PFC 'no PFC'), $ecn"
elif has presets; then
    kind=sawtooth
    title="$run: $n boards -> switch -> receiver, CNP interval $(awk -v s="$(param cnpInterval)" 'BEGIN { printf "%g", s * 1e6 }') us, $ecn"
else
    ms() { awk -v s="$1" 'BEGIN { printf "%.3g ms", s * 1e3 }'; }
    timer="ACK timeout $(ms "$(param ackTimeout)")"
    [ "$(param ackJitter)" = 0 ] || timer="$timer + up to $(ms "$(param ackJitter)")"
    title="$run: $n boards, $(onoff dcqcn "DCQCN $(param preset)" 'no DCQCN'), $(onoff pfc PFC 'no PFC')$(onoff pfcHonour '' ' (boards ignore PAUSE)')\\n$ecn, PMTU $(param pmtu)\\nswitch buffer $(param bufferSize) B, $(param messageSize)-B messages, $timer"
fi
kmin=$(param kmin); kmax=$(param kmax)
made=
for term in png svg; do
    case $kind in
    receiver)
        gnuplot -e "dir='$dir'; out='$prefix-pmtu'; term='$term'; t=\"$title\"" plots/study-receiver-pmtu.gp
        gnuplot -e "dir='$dir'; out='$prefix-bench'; term='$term'; t=\"$benchTitle\"" plots/study-receiver-bench.gp
        made="$made $prefix-pmtu.$term $prefix-bench.$term"
        continue ;;
    window)
        gnuplot -e "dir='$dir'; out='$prefix-window'; term='$term'; t=\"$title\"" plots/study-window.gp
        made="$made $prefix-window.$term"
        continue ;;
    mtu)
        gnuplot -e "dir='$dir'; out='$prefix-mtu'; term='$term'; t=\"$title\"" plots/study-mtu.gp
        gnuplot -e "dir='$dir'; out='$prefix-throughput'; term='$term'; n=$n; what='PMTU'; t=\"$title\"" plots/study-throughput.gp
        made="$made $prefix-mtu.$term $prefix-throughput.$term"
        continue ;;
    camera)
        ymax=$(awk -v r="$(param receiverRate)" 'BEGIN { sub(/bps$/, "", r); print r / 1e9 * 1.05 }')
        gnuplot -e "dir='$dir'; out='$prefix-throughput'; term='$term'; n=$n; what='receiver'; ymax=$ymax; t=\"$title\"" plots/study-throughput.gp
        gnuplot -e "dir='$dir'; out='$prefix-jain'; term='$term'; n=$n; what='the receivers'; t=\"$title\"" plots/study-jain.gp
        gnuplot -e "dir='$dir'; out='$prefix-switches'; term='$term'; kmin=${kmin:-0}; kmax=${kmax:-0}; t=\"$title\"" plots/study-switches.gp
        made="$made $prefix-throughput.$term $prefix-jain.$term $prefix-switches.$term"
        continue ;;
    esac
    for pic in throughput jain; do
        gnuplot -e "dir='$dir'; out='$prefix-$pic'; term='$term'; n=$n; t=\"$title\"" plots/study-$pic.gp
        made="$made $prefix-$pic.$term"
    done
    if [ -f "$dir/series.csv" ] && head -1 "$dir/series.csv" | grep -q queue_to_receiver_bytes; then
        gnuplot -e "dir='$dir'; out='$prefix-queue'; term='$term'; kmin=${kmin:-0}; kmax=${kmax:-0}; t=\"$title\"" plots/study-queue.gp
        made="$made $prefix-queue.$term"
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
            gnuplot -e "dir='$dir'; out='$prefix-rate'; term='$term'; n=$n; panels=1; tops='$tops'; labels='$labels'; t=\"$title\"" plots/study-rate.gp
        else
            gnuplot -e "dir='$dir'; out='$prefix-rate'; term='$term'; n=$n; t=\"$title\"" plots/study-rate.gp
        fi
        made="$made $prefix-rate.$term"
    fi
done
wrote=
for f in $made; do
    mv "$f" "$final${f#"$prefix"}"
    wrote="$wrote $final${f#"$prefix"}"
done
echo "render.sh: wrote$wrote"
