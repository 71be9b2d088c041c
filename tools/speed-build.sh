#!/bin/sh
# The fastest build of feroce, for sweeps and speed figures (src/feroce/doc/build.md, "The speed
# build"): Release (no logging, no asserts, -O3), the module linked with link-time optimisation,
# and optimised by a profile of its own programs:
#  1. built with FEROCE_PGO=generate, the module counts what it runs;
#  2. three short runs make the profile: the 3:1 and 64:1 incasts of feroce-bench and 10^3 FbHdp
#     flows on a k=8 fat-tree (switches, NICs, DCQCN, PFC, the event list at a fabric's size);
#  3. rebuilt in the same folder with FEROCE_PGO=use.
# Results are the same as the default build's, to the last digit.
#   sh tools/speed-build.sh [BUILD_DIR]      (default: build-speed)
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build-speed}
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DFEROCE_PGO=generate
cmake --build "$build" -j2 --target feroce-bench feroce-fabric feroce-topo
build=$(cd "$build" && pwd)
find "$build" -name '*.gcda' -exec rm -f {} +
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/examples/feroce-bench" --scenario=incast3 > /dev/null
"$build/examples/feroce-bench" --scenario=incast64 > /dev/null
"$build/bin/feroce-topo" fat-tree --k=8 --host-rate=10Gbps -o "$tmp/k8.topo"
"$build/examples/feroce-fabric" --topology="$tmp/k8.topo" --cdf="$src/examples/cdf/FbHdp.txt" \
    --load=0.3 --maxFlows=1000 --trafficStop=1000s --duration=53ms --preset=hpcc \
    --outdir="$tmp/fabric" --db=none > /dev/null 2>&1
cmake -S "$src" -B "$build" -DFEROCE_PGO=use
cmake --build "$build" -j2
