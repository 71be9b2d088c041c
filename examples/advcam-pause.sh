#!/bin/sh
# The runs behind src/feroce/doc/eventbuilding.md's "802.3x PAUSE for the boards": the 3:1 bench
# (advcam-incast, 90 ms, 2 MB switch buffer, 64 KiB messages, the boards' 4.2 ms ACK timeout) and
# the camera (advcam-eventbuilding, 150 boards, static assignment, 10 ms), each with
#   pfc-ignored   the switch sends PFC, the boards obey none of it (the AdvCam MAC today)
#   802.3x        the switch sends 802.3x PAUSE, the boards obey it (PauseHonour 802.3x)
#   pfc-obeyed    the switch sends PFC and the NICs obey it (a ConnectX-like board)
# with DCQCN on and off.  Then the camera with a receiver that stops draining (a Soft-RoCE host
# at 1 Mb/s whose NIC sends PFC): its switch port stays paused and the PAUSE spreads, with the
# switches' 12 MB buffers and with 1 MB ones, under static and availability assignment:
#   pfc-ignored       PFC, ignored by the boards
#   802.3x            802.3x on every switch port, obeyed by every NIC (the receivers too)
#   pfc-obeyed        PFC, obeyed by every NIC
#   802.3x-watchdog   802.3x and the switches' PFC watchdog (1 ms, drop)
# Do the boards stop, and do the ACKs and CNPs toward them (the receivers send them) or the
# control messages stop too?
#
#   sh examples/advcam-pause.sh BUILD_DIR [OUTDIR]       (a few minutes of CPU)
#
# OUTDIR (results/advcam-pause): a run folder per point, pause.db (their rows) and pause.csv.
set -eu
[ $# -ge 1 ] || { echo "usage: sh examples/advcam-pause.sh BUILD_DIR [OUTDIR]" >&2; exit 2; }
bin=$1/examples
out=${2:-results/advcam-pause}
mkdir -p "$out"
out=$(cd "$out" && pwd)
db=$out/pause.db
point() { # NAME PROGRAM FLAGS...
    name=$1
    prog=$2
    shift 2
    [ -f "$out/$name/metrics.txt" ] && return 0
    echo "advcam-pause.sh: $name" >&2
    "$bin/$prog" --outdir="$out/$name" --db="$db" "$@" >"$out/$name.log" 2>&1
}
bench="--duration=90ms --bufferSize=2000000 --messageSize=65536 --ackTimeout=4194304ns"
camera="--duration=10ms --ackTimeout=4194304ns"
for dcqcn in 1 0; do
    # shellcheck disable=SC2086 # the words of $bench and $camera
    {
        point "bench-pfc-ignored-dcqcn$dcqcn" advcam-incast $bench --dcqcn=$dcqcn --pfcHonour=0
        point "bench-802.3x-dcqcn$dcqcn" advcam-incast $bench --dcqcn=$dcqcn \
            --ns3::FeroceSwitch::PauseFrames=802.3x --ns3::RoceNic::PauseHonour=802.3x
        point "bench-pfc-obeyed-dcqcn$dcqcn" advcam-incast $bench --dcqcn=$dcqcn --pfcHonour=1
        point "camera-pfc-ignored-dcqcn$dcqcn" advcam-eventbuilding $camera --dcqcn=$dcqcn \
            --pfcHonour=0
        point "camera-802.3x-dcqcn$dcqcn" advcam-eventbuilding $camera --dcqcn=$dcqcn \
            --pauseFrames=802.3x --pauseHonour=802.3x
        point "camera-pfc-obeyed-dcqcn$dcqcn" advcam-eventbuilding $camera --dcqcn=$dcqcn \
            --pfcHonour=1
    }
done
stuck="--duration=10ms --ackTimeout=4194304ns --slowReceiver=1 --slowByteRate=1Mbps"
wd="--watchdog=1ms --watchdogRestore=2ms"
for buffer in 12000000 1000000; do
    for a in static availability; do
        p="stuck-$buffer-$a"
        s="$stuck --bufferSize=$buffer --assignment=$a"
        # shellcheck disable=SC2086 # the words of $s and $wd
        {
            point "$p-pfc-ignored" advcam-eventbuilding $s --pfcHonour=0
            point "$p-802.3x" advcam-eventbuilding $s --pauseFrames=802.3x --pauseHonour=802.3x
            point "$p-pfc-obeyed" advcam-eventbuilding $s --pfcHonour=1
            point "$p-802.3x-watchdog" advcam-eventbuilding $s --pauseFrames=802.3x \
                --pauseHonour=802.3x $wd
        }
    done
done
sqlite3 -csv -header "$db" "
  SELECT replace(json_extract(params, '\$.outdir'), '$out/', '') AS point,
         round(coalesce(json_extract(metrics, '\$.goodput_gbps'),
                        json_extract(metrics, '\$.goodput_gbps_mean')), 3) AS goodput_gbps,
         round(coalesce(json_extract(metrics, '\$.jain_mean'),
                        json_extract(metrics, '\$.jain_boards')), 4) AS jain,
         json_extract(metrics, '\$.drops') AS drops,
         json_extract(metrics, '\$.drops_lossless') AS drops_lossless,
         json_extract(metrics, '\$.retransmits') AS retransmits,
         json_extract(metrics, '\$.pause_frames') AS pause_frames,
         round(json_extract(metrics, '\$.pause_time_ms'), 3) AS pause_time_ms,
         json_extract(metrics, '\$.events_lost') AS events_lost,
         round(json_extract(metrics, '\$.build_latency_p99_us'), 1) AS latency_p99_us,
         round(json_extract(metrics, '\$.latency_p99_us'), 1) AS message_latency_p99_us,
         json_extract(metrics, '\$.events_built') AS events_built,
         round(json_extract(metrics, '\$.board_paused_ms_max'), 3) AS board_paused_ms_max,
         json_extract(metrics, '\$.board_pause_frames_obeyed') AS board_pause_obeyed,
         json_extract(metrics, '\$.rx_pause_frames_obeyed') AS rx_pause_obeyed,
         json_extract(metrics, '\$.board_timeouts') AS board_timeouts,
         json_extract(metrics, '\$.control_timeouts') AS control_timeouts,
         json_extract(metrics, '\$.watchdog_storms') AS watchdog_storms,
         json_extract(metrics, '\$.drops_watchdog') AS drops_watchdog
  FROM runs ORDER BY point" >"$out/pause.csv"
cat "$out/pause.csv"
