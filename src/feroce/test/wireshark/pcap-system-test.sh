#!/bin/sh
# The pcaps of an AdvCam incast, read back by tshark with feroce's plugin:
# no malformed frame, no expert warning, every RoCEv2 frame with a good ICRC,
# every packet type present, and the counts of CE marks, CNPs, NAKs and PFC
# frames equal to the simulator's own counters.
#
#   sh pcap-system-test.sh ADVCAM_INCAST_PROGRAM SOURCE_DIR WORK_DIR
set -eu
prog=$1
src=$2
work=$3
plugin=$src/wireshark/feroce-roce.lua
if ! command -v tshark >/dev/null 2>&1; then
    echo "tshark not found: install Debian package tshark" >&2
    exit 1
fi
rm -rf "$work"
mkdir -p "$work"
. "$(dirname "$0")/../lib.sh"
same() { # NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then ok; else bad "$1: expected $2, found $3"; fi
}
positive() { # NAME ACTUAL
    if [ "$2" -gt 0 ]; then ok; else bad "$1: none"; fi
}
# one tshark pass per pcap; the checks then count its rows with awk
fields() { # PCAP -> PCAP.tsv
    tshark -r "$1" -X lua_script:"$plugin" --disable-protocol rpcordma --disable-heuristic eth_over_ib \
        -o ip.check_checksum:TRUE -T fields -E separator=/t \
        -e udp.dstport -e feroce.icrc.good -e _ws.malformed -e _ws.expert.severity -e ip.dsfield.ecn \
        -e ip.dst -e infiniband.bth.opcode -e infiniband.aeth.syndrome.opcode -e macc.opcode \
        -e macc.cbfc.pause_time.c3 >"$1.tsv" 2>/dev/null
}
count() { # PCAP AWK-CONDITION (columns: 1 udp.dstport 2 icrc.good 3 malformed 4 expert severities
    #                            5 ecn 6 ip.dst 7 opcode 8 aeth opcode 9 macc opcode 10 pause c3)
    awk -F '\t' "function warn(s,  n, a, i) { n = split(s, a, \",\"); for (i = 1; i <= n; i++)
                  if (a[i] + 0 >= 6291456) return 1; return 0 }
                  $2 { c++ } END { print c + 0 }" "$1.tsv"
}
counter() { # NAME
    sed -n "s/^$1=//p" "$out/metrics.txt"
}

run() { # NAME FLAGS...
    name=$1
    shift
    out=$work/$name
    "$prog" --boards=3 --duration=4ms --pcap=1 --RngRun=1 --outdir="$out" --db=none "$@" >"$work/$name.log"
    # nodes 0..2 are the boards, 3 the receiver, 4 the switch
    rx=$out/advcam-3-0.pcap
    for f in "$out"/*.pcap; do
        fields "$f"
        b=$(basename "$f")
        same "$name $b: malformed or expert warning" 0 "$(count "$f" '$3 != "" || warn($4)')"
        same "$name $b: bad ICRC" 0 "$(count "$f" '$2 == "0" || $2 == "False"')"
        same "$name $b: RoCEv2 frames with a good ICRC" "$(count "$f" '$1 == 4791')" \
            "$(count "$f" '$1 == 4791 && ($2 == "1" || $2 == "True")')"
    done
    same "$name: CE marks at the receiver" "$(counter ce_received)" "$(count "$rx" '$5 == 3 && $6 == "10.0.0.4"')"
    same "$name: CNPs" "$(counter cnps)" "$(count "$rx" '$7 == 129')"
    same "$name: NAKs" "$(counter naks)" "$(count "$rx" '$8 == 3')"
    pfc=0
    pause=0
    for f in "$out"/advcam-4-*.pcap; do
        pfc=$((pfc + $(count "$f" '$9 == "0x0101"')))
        pause=$((pause + $(count "$f" '$9 == "0x0101" && $10 > 0')))
    done
    same "$name: PFC frames" "$(($(counter pause_frames) + $(counter resume_frames)))" "$pfc"
    same "$name: PAUSE frames" "$(counter pause_frames)" "$pause"
}

# RDMA WRITEs with DCQCN, PFC on a small buffer, and some loss at the receiver
run write --loss=0.004 --bufferSize=400000 --kmax=100000 --pmax=0.05
for op in 6 7 8 17 129; do
    positive "write: opcode $op" "$(count "$rx" "\$7 == $op")"
done
positive "write: NAKs" "$(counter naks)"
positive "write: PAUSE frames" "$(counter pause_frames)"
positive "write: CE marks" "$(counter ce_received)"
# SENDs with immediate, one packet and several packets per message
run send --write=0 --imm=1 --messageSize=6000 --pmtu=1024 --bufferSize=400000 --kmax=100000 --pmax=0.05
for op in 0 1 3 17 129; do
    positive "send: opcode $op" "$(count "$rx" "\$7 == $op")"
done
run imm --imm=1 --messageSize=4000 --pmtu=4096 --bufferSize=400000 --kmax=100000 --pmax=0.05
positive "write with immediate: opcode 11" "$(count "$rx" '$7 == 11')"
finish
