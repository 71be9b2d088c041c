#!/bin/sh
# The runs behind src/feroce/doc/eventbuilding.md and its pictures: the AdvCam camera (150
# boards, 62.5 kHz of 4 KiB fragments: 307 Gb/s) with one receiver's host crashing at 20 ms and
# back at 60 ms, 100 ms in all, the boards' queue pairs timing out as the boards' engine does
# (4.096 us x 2^10, 7 retries: 33.5 ms), connections re-established 1 ms after the return.
#
#   sh examples/advcam-eventbuilding.sh BUILD_DIR [OUTDIR]     (about 15 minutes of CPU)
#
# OUTDIR (results/advcam-eventbuilding): one run folder per point, eventbuilding.db (their rows),
# design.csv (per receivers, board buffer and policy: the events and their fates); pictures in
# plots/advcam-eventbuilding-{failure,load,design}.png.
set -eu
[ $# -ge 1 ] || { echo "usage: sh examples/advcam-eventbuilding.sh BUILD_DIR [OUTDIR]" >&2; exit 2; }
bin=$1/examples/advcam-eventbuilding
out=${2:-results/advcam-eventbuilding}
mkdir -p "$out"
out=$(cd "$out" && pwd)
db=$out/eventbuilding.db
crash="--duration=100ms --failReceiver=1 --failAt=20ms --returnAt=60ms --ackTimeout=4194304ns"
crash="$crash --reconnectDelay=1ms --db=$db"
point() { # NAME FLAGS...: one run, skipped when its metrics are there
    name=$1
    shift
    [ -f "$out/$name/metrics.txt" ] && return 0
    echo "advcam-eventbuilding.sh: $name" >&2
    "$bin" --outdir="$out/$name" "$@" >"$out/$name.log"
}

# the design grid: receivers x board buffer x policy, one receiver crashing
for k in 4 5 6; do
    for buf in 262144 1048576 4194304; do
        for policy in static availability board-rule; do
            # shellcheck disable=SC2086 # the words of $crash
            point "K$k-buf$buf-$policy" --receivers=$k --boardBuffer=$buf --assignment=$policy $crash
        done
    done
done
# the board rule with announcements valid from the very next trigger (late ones, counted)
# shellcheck disable=SC2086
point K5-buf1048576-board-rule-lead1 --receivers=5 --boardBuffer=1048576 --assignment=board-rule \
    --announceLead=1 $crash
# a slow receiver (Soft-RoCE, about 5 Gb/s) among five, no failure; under availability with one
# event slot per receiver (with 4, the 2.4 MB of events it accepts fill its NIC's buffer, and its
# PFC spreads through the lossless fabric: eventbuilding.md)
point slow-static --receivers=5 --slowReceiver=4 --duration=20ms --db="$db"
point slow-availability --receivers=5 --slowReceiver=4 --duration=20ms --assignment=availability \
    --eventSlots=1 --db="$db"
point slow-availability-slots4 --receivers=5 --slowReceiver=4 --duration=20ms \
    --assignment=availability --db="$db"

sqlite3 -csv -header "$db" "
  SELECT json_extract(params, '\$.receivers') AS receivers,
         json_extract(params, '\$.boardBuffer') AS board_buffer,
         json_extract(params, '\$.assignment') AS assignment,
         json_extract(params, '\$.announceLead') AS announce_lead,
         json_extract(metrics, '\$.events_generated') AS generated,
         json_extract(metrics, '\$.events_built') AS built,
         json_extract(metrics, '\$.events_lost_board_buffer') AS lost_board_buffer,
         json_extract(metrics, '\$.events_lost_receiver_dead') AS lost_receiver_dead,
         json_extract(metrics, '\$.events_lost_retries_exhausted') AS lost_retries_exhausted,
         json_extract(metrics, '\$.events_lost_partial_timeout') AS lost_partial_timeout,
         json_extract(metrics, '\$.events_lost_disagreement') AS lost_disagreement,
         json_extract(metrics, '\$.events_in_flight') AS in_flight,
         round(json_extract(metrics, '\$.build_latency_p50_us'), 1) AS latency_p50_us,
         round(json_extract(metrics, '\$.build_latency_p99_us'), 1) AS latency_p99_us,
         round(json_extract(metrics, '\$.build_latency_max_us'), 1) AS latency_max_us,
         round(json_extract(metrics, '\$.failure_detect_ms'), 3) AS detect_ms,
         round(json_extract(metrics, '\$.failure_last_post_ms'), 3) AS last_post_ms,
         json_extract(metrics, '\$.board_buffer_max_bytes') AS board_buffer_max,
         round(json_extract(metrics, '\$.control_fraction'), 4) AS control_fraction,
         json_extract(metrics, '\$.announcements_late') AS announcements_late,
         json_extract(metrics, '\$.events_split') AS events_split,
         json_extract(metrics, '\$.identity_violations') AS identity_violations
  FROM runs WHERE json_extract(params, '\$.failReceiver') = 1
  GROUP BY receivers, board_buffer, assignment, announce_lead
  ORDER BY assignment, announce_lead, board_buffer, receivers" >"$out/design.csv"
cat "$out/design.csv"

cd "$(dirname "$0")/.."
for term in png; do
    gnuplot -e "dir='$out'; term='$term'" plots/advcam-eventbuilding.gp
done
echo "advcam-eventbuilding.sh: wrote $out/design.csv, plots/advcam-eventbuilding-{failure,load,design}.png" >&2
