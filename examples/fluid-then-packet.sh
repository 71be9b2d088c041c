#!/bin/sh
# From a fluid screen to packet runs: read the rows of a finished feroce-fluid-study sweep, keep the
# points with a positive phase margin, and run advcam-incast on exactly those points (their flows,
# loop delay, Kmin, Kmax, Pmax, R_AI, g and timer), one row each into OUTDIR/packet.db.
#   sh examples/fluid-then-packet.sh SWEEP_DB BUILD_DIR OUTDIR [FLAG...]
# SWEEP_DB is the fluid sweep's database (results/sweeps/NAME/sweep.db); the FLAGs are fixed flags
# for advcam-incast (e.g. --duration=50ms --ns3::FeroceNetDevice::DataRate=40Gbps).  The loop delay
# becomes --linkDelay = delay / 4 (two links out, two back).  (A feroce-sweep file cannot hold an
# arbitrary set of points: its lists take each value once.)
set -eu
db=$1
build=$2
out=$3
shift 3
[ -f "$db" ] || { echo "fluid-then-packet: SWEEP_DB = $db is not allowed: expected a sweep database" >&2; exit 2; }
program=$build/examples/advcam-incast
mkdir -p "$out/points"
rows=$(sqlite3 -separator '|' "$db" "select id, coalesce(json_extract(params, '\$.flows'), ''),
    coalesce(json_extract(params, '\$.delay'), ''), coalesce(json_extract(params, '\$.kmin'), ''),
    coalesce(json_extract(params, '\$.kmax'), ''), coalesce(json_extract(params, '\$.pmax'), ''),
    coalesce(json_extract(params, '\$.rai'), ''), coalesce(json_extract(params, '\$.g'), ''),
    coalesce(json_extract(params, '\$.timer'), ''), json_extract(metrics, '\$.phase_margin_deg')
    from runs where scenario = 'feroce-fluid-study' and json_extract(metrics, '\$.stable') = 1 order by id")
[ -n "$rows" ] || { echo "fluid-then-packet: no stable point in $db" >&2; exit 1; }
echo "| fluid row | flows | delay | kmin | kmax | pmax | rai | g | timer | margin (deg) | packet queue_max_bytes | packet jain_min |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
echo "$rows" | while IFS='|' read -r id flows delay kmin kmax pmax rai g timer margin; do
    args=
    [ -n "$flows" ] && args="$args --boards=$flows"
    [ -n "$delay" ] && args="$args --linkDelay=$(echo "$delay" | awk '{ u = $1; sub(/^[-0-9.e+]+/, "", u);
        f = u == "ms" ? 1e6 : u == "us" ? 1e3 : u == "s" ? 1e9 : 1; printf "%.0fns", ($1 + 0) * f / 4 }')"
    [ -n "$kmin" ] && args="$args --kmin=$kmin"
    [ -n "$kmax" ] && args="$args --kmax=$kmax"
    [ -n "$pmax" ] && args="$args --pmax=$pmax"
    [ -n "$rai" ] && args="$args --rai=$rai"
    [ -n "$g" ] && args="$args --g=$g"
    [ -n "$timer" ] && args="$args --timer=$timer"
    # shellcheck disable=SC2086
    "$program" --leave=0 --pfc=0 $args "$@" --outdir="$out/points/$id" --db="$out/packet.db" \
        > "$out/points/$id.log" 2>&1 || { echo "fluid-then-packet: point $id failed: $(tail -1 "$out/points/$id.log")" >&2; exit 1; }
    qmax=$(sed -n 's/^queue_max_bytes=//p' "$out/points/$id/metrics.txt")
    jain=$(sed -n 's/^jain_min=//p' "$out/points/$id/metrics.txt")
    echo "| $id | $flows | $delay | $kmin | $kmax | $pmax | $rai | $g | $timer | $margin | $qmax | $jain |"
done
