#!/bin/sh
# plots/render.sh's titles show the parameters in force: DCQCN's preset with what was set over
# it (study flags, attributes given), the other attributes given by their short names, and for
# a point of a sweep the sweep's name and the point's values instead of its key.  A picture
# that fails leaves no file, the others are drawn and render.sh exits 1.
#   render-test.sh ADVCAM_INCAST REPO_ROOT WORK_DIR
set -eu
. "$(dirname "$0")/../lib.sh"
prog=$1
root=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
command -v gnuplot > /dev/null || { echo "gnuplot not installed: pictures not tested"; exit 77; }
cd "$root"
# a title line of an SVG picture
titled() { tr -d '\n' < "$1" | grep -q ">$2<"; }

"$prog" --duration=3ms --warmup=1ms --g=0.0625 --rai=40 --timer=100us \
    --ns3::RoceQueuePair::AckTimeout=2ms --outdir="$work/flags" --db=none > /dev/null
sh plots/render.sh "$work/flags" "$work/flags/pic" > /dev/null
check "flags over the preset" titled "$work/flags/pic-throughput.svg" \
    'flags: 3 boards, DCQCN paper with g=0.0625, T=100 us, R_AI=40 Mb/s, PFC'
check "other attributes by short name" titled "$work/flags/pic-jain.svg" 'with AckTimeout=2ms'

# an attribute that a flag is bound to is shown once, by the attribute
"$prog" --duration=3ms --warmup=1ms --ns3::DcqcnReactionPoint::G=0.25 --outdir="$work/attr" --db=none > /dev/null
sh plots/render.sh "$work/attr" "$work/attr/pic" > /dev/null
check "an attribute over the preset" titled "$work/attr/pic-throughput.svg" \
    'attr: 3 boards, DCQCN paper with G=0.25, PFC'

# a sweep's point: the sweep's name and the point's values from its database
key=0123456789abcdef
mkdir -p "$work/sweep/points"
cp -r "$work/flags" "$work/sweep/points/$key"
sqlite3 "$work/sweep/sweep.db" "CREATE TABLE points (key TEXT, sweep TEXT, combo TEXT);
    INSERT INTO points VALUES ('$key', 'camera-ecn', '{\"kmin\":5000,\"kmax\":50000}')"
sh plots/render.sh "$work/sweep/points/$key" "$work/point" > /dev/null
check "a sweep point by its values" titled "$work/point-jain.svg" \
    'camera-ecn: kmin=5000, kmax=50000: 3 boards, DCQCN paper with g=0.0625, T=100 us, R_AI=40 Mb/s, PFC'

# a picture that fails: the others drawn, no file for it (an earlier one stays), exit 1
mkdir -p "$work/broken"
cp -r plots "$work/broken/"
echo 'plot undefined_in_this_test' > "$work/broken/plots/study-jain.gp"
echo old > "$work/flags/pic-jain.png"
if sh "$work/broken/plots/render.sh" "$work/flags" "$work/flags/pic" > "$work/broken.out" 2> "$work/broken.err"; then
    bad "render.sh exited 0 with a failed picture"
else
    ok
fi
check "said which" grep -q 'jain.png failed: .*undefined_in_this_test' "$work/broken.err"
check "the earlier picture stays" test "$(cat "$work/flags/pic-jain.png")" = old
check "the others drawn" test -s "$work/flags/pic-queue.svg"
check "counted" grep -q '2 pictures failed (the others were drawn)' "$work/broken.err"
finish
