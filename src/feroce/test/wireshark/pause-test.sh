#!/bin/sh
# 802.3x link-level PAUSE frames under tshark, stock and with feroce's plugin:
#  1. the frames a simulated NIC sends (a Soft-RoCE receiver whose buffer sends 802.3x PAUSE,
#     RxPauseFrames 802.3x, in an AdvCam incast with --pcap=1): each decodes as MAC control
#     opcode 0x0001 with its pause time, nothing malformed, and the plugin names it "802.3x"
#     with its time in microseconds at 10 Gb/s;
#  2. known bytes (what feroce_link_pause_encode writes, and a PFC frame beside it), at the
#     plugin's default rate and at a rate given as a preference.
#
#   sh pause-test.sh ADVCAM_INCAST_PROGRAM SOURCE_DIR WORK_DIR
set -eu
prog=$1
src=$2
work=$3
plugin=$src/wireshark/feroce-roce.lua
. "$(dirname "$0")/../lib.sh"
for tool in tshark text2pcap; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "FAIL: $tool not found: install Debian package tshark" >&2
        exit 1
    fi
done
rm -rf "$work"
mkdir -p "$work"
same() { # NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then ok; else bad "$1: expected '$2', found '$3'"; fi
}
fields() { # PCAP [OPTIONS...] -> tab-separated fields of every MAC-control frame
    pcap=$1
    shift
    tshark -r "$pcap" -X lua_script:"$plugin" "$@" -Y macc -T fields -E separator=/t \
        -e macc.opcode -e macc.pause_time -e feroce.pause.kind -e feroce.pause.quanta \
        -e feroce.pause.us -e feroce.pause.resume -e _ws.malformed -e _ws.expert.severity \
        -e _ws.col.Info 2>"$work/tshark.err"
    # (tshark warns when run as root, as CI runs it)
    if grep -v 'Running as user' "$work/tshark.err" | grep -q .; then
        bad "tshark said: $(cat "$work/tshark.err")"
    fi
}

# 1. a simulated receiver NIC's 802.3x PAUSE frames (nodes: 0 the board, 1 the receiver)
"$prog" --boards=1 --duration=2ms --warmup=0 --pcap=1 --db=none --outdir="$work/run" \
    --ns3::RoceNic::ReceiverModel=software --ns3::RoceNic::RxProcessingRate=3Gbps \
    --ns3::RoceNic::RxPfc=1 --ns3::RoceNic::RxPauseFrames=802.3x >"$work/run.log"
fields "$work/run/advcam-1-0.pcap" >"$work/sim.tsv"
n=$(wc -l <"$work/sim.tsv")
if [ "$n" -gt 0 ]; then ok; else bad "no MAC-control frame in the receiver's pcap"; fi
same "opcode of every frame" 0 "$(awk -F '\t' '$1 != "0x0001"' "$work/sim.tsv" | wc -l)"
same "malformed or expert" 0 "$(awk -F '\t' '$7 != "" || $8 != ""' "$work/sim.tsv" | wc -l)"
same "the plugin's kind" 0 "$(awk -F '\t' '$3 != "802.3x"' "$work/sim.tsv" | wc -l)"
same "plugin quanta = tshark's pause_time" 0 "$(awk -F '\t' '$4 != $2' "$work/sim.tsv" | wc -l)"
# a PAUSE of RxPauseQuanta (65535) lasts 3355.392 us at 10 Gb/s; an XON is 0 (resume)
same "PAUSE and XON only" 0 "$(awk -F '\t' '!(($2 == 65535 && $5 == 3355.392) ||
    ($2 == 0 && $5 == 0 && ($6 == 1 || $6 == "True")))' "$work/sim.tsv" | wc -l)"
pauses=$(awk -F '\t' '$2 == 65535' "$work/sim.tsv" | wc -l)
if [ "$pauses" -gt 0 ]; then ok; else bad "no PAUSE (65535 quanta) among $n frames"; fi
same "Info of a PAUSE" "802.3x PAUSE 65535 quanta (3355.4 us at 10 Gb/s)" \
    "$(awk -F '\t' '$2 == 65535 { print $9; exit }' "$work/sim.tsv")"

# 2. known bytes: 802.3x of 0xfffe and of 0 from 02:00:00:00:00:07 (test_link_pause_round_trip),
#    a PFC frame pausing priority 3 for 1000 quanta
pad() { # HEX: padded with zeros to 60 bytes
    printf '%s' "$1"
    i=$((${#1} / 2))
    while [ $i -lt 60 ]; do
        printf '00'
        i=$((i + 1))
    done
    echo
}
head=0180c2000001020000000007 # to the MAC-control address, from 02:00:00:00:00:07
{
    pad "${head}88080001fffe"
    pad "${head}880800010000"
    pad "${head}880801010008000000000000"03e80000000000000000
} >"$work/frames.hex"
awk '{ h = $1; n = length(h) / 2
       for (o = 0; o < n; o += 16) {
           line = sprintf("%06x", o)
           for (i = o; i < o + 16 && i < n; i++) line = line " " substr(h, 2 * i + 1, 2)
           print line
       } }' "$work/frames.hex" >"$work/frames.hexdump"
text2pcap -q "$work/frames.hexdump" "$work/frames.pcap"
fields "$work/frames.pcap" >"$work/known.tsv"
same "known frames read" 3 "$(wc -l <"$work/known.tsv")"
line() { sed -n "$1p" "$work/known.tsv" | cut -f"$2"; }
same "802.3x opcode" 0x0001 "$(line 1 1)"
same "802.3x pause_time" 65534 "$(line 1 2)"
same "802.3x kind" 802.3x "$(line 1 3)"
same "802.3x us at 10 Gb/s" 3355.3408 "$(line 1 5)"
same "802.3x Info" "802.3x PAUSE 65534 quanta (3355.3 us at 10 Gb/s)" "$(line 1 9)"
same "802.3x resume" "802.3x PAUSE 0 (resume)" "$(line 2 9)"
same "PFC kind" PFC "$(line 3 3)"
same "PFC longest quanta" 1000 "$(line 3 4)"
same "PFC Info" "PFC PAUSE 1000 quanta (51.2 us at 10 Gb/s) c3=1000" "$(line 3 9)"
same "no malformed frame" "" "$(cut -f7 "$work/known.tsv" | tr -d '\n')"
fields "$work/frames.pcap" -o feroce.pause.rate_gbps:100 >"$work/known100.tsv"
same "802.3x us at 100 Gb/s" 335.53408 "$(sed -n 1p "$work/known100.tsv" | cut -f5)"
finish
