#!/bin/sh
# Tests the Wireshark Lua plugin wireshark/feroce-roce.lua with tshark: the ICRC
# known-answer frames of src/feroce/test/data/icrc.txt and frames derived from them
# (corrupted: bad ICRC; CE-marked, TTL-decremented, BECN-toggled, VLAN-tagged, Ethernet-padded:
# ICRC still good), written to a pcap with text2pcap.
#   plugin-test.sh SOURCE_DIR WORK_DIR
# Prints each failed check and the counts; exits non-zero if any check fails.
set -eu
. "$(dirname "$0")/../lib.sh"

if [ $# -ne 2 ]; then
    echo "usage: $0 SOURCE_DIR WORK_DIR" >&2
    exit 2
fi
root=$1
work=$2
plugin=$root/wireshark/feroce-roce.lua
vectors=$root/src/feroce/test/data/icrc.txt

for tool in tshark text2pcap; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "FAIL: $tool not found: install Debian package tshark (apt-get install tshark)" >&2
        exit 1
    fi
done
for f in "$plugin" "$vectors"; do
    if [ ! -r "$f" ]; then
        echo "FAIL: cannot read $f" >&2
        exit 1
    fi
done
mkdir -p "$work"

# ---- frame editing: a frame is a lower-case hex string, bytes numbered from 0 ----------------
getb() { echo "$1" | cut -c$(($2 * 2 + 1))-$(($2 * 2 + 2)); }
setb() { awk -v h="$1" -v i="$2" -v v="$3" 'BEGIN { print substr(h, 1, 2 * i) v substr(h, 2 * i + 3) }'; }
xorb() { setb "$1" "$2" "$(printf '%02x' $((0x$(getb "$1" "$2") ^ $3)))"; }
insert() { awk -v h="$1" -v i="$2" -v v="$3" 'BEGIN { print substr(h, 1, 2 * i) v substr(h, 2 * i + 1) }'; }

# Recomputes the IPv4 header checksum, and the UDP checksum unless it is 0 (Ethernet II,
# optionally one 802.1Q tag).
fixsums() {
    awk -v h="$1" '
    function hx(s,   i, v) { v = 0; for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
    function b(i) { return hx(substr(h, 2 * i + 1, 2)) }
    function w(i) { return b(i) * 256 + b(i + 1) }
    function setw(i, v) { h = substr(h, 1, 2 * i) sprintf("%04x", v) substr(h, 2 * i + 5) }
    function fold(s) { while (s > 65535) s = int(s / 65536) + s % 65536; return s }
    BEGIN {
        ip = (w(12) == 33024) ? 18 : 14
        ihl = (b(ip) % 16) * 4
        setw(ip + 10, 0)
        s = 0
        for (i = 0; i < ihl; i += 2) s += w(ip + i)
        setw(ip + 10, 65535 - fold(s))
        udp = ip + ihl
        if (b(ip + 9) == 17 && w(udp + 6) != 0) {
            len = w(udp + 4)
            setw(udp + 6, 0)
            s = 17 + len
            for (i = 12; i < 20; i += 2) s += w(ip + i)
            for (i = 0; i + 1 < len; i += 2) s += w(udp + i)
            if (len % 2) s += b(udp + len - 1) * 256
            s = 65535 - fold(s)
            setw(udp + 6, s == 0 ? 65535 : s)
        }
        print h
    }'
}

# ---- the frames: "name expect hex" per line, expect = good | bad | none (not RoCEv2) ---------
frames=$work/frames.txt
: > "$frames"
add() { echo "$1 $2 $3" >> "$frames"; }

# the known answers: "name hex icrc-as-on-the-wire"
awk '/^# V[0-9]+:/ { name = substr($2, 1, length($2) - 1) }
     $1 == "frame" { hex = tolower($2) }
     $1 == "icrc" { print name, hex, tolower($2) }' "$vectors" > "$work/vectors.txt"
nvec=$(wc -l < "$work/vectors.txt")
if [ "$nvec" -eq 3 ]; then ok "read 3 known-answer frames from $vectors"; else bad "expected 3 known-answer frames in $vectors, found $nvec"; fi

while read -r name hex icrc; do
    iplen=$((0x$(getb "$hex" 16)$(getb "$hex" 17)))
    bth=$((14 + 20 + 8))
    add "$name" good "$hex"
    # the last byte before the ICRC (payload, pad or extended header) flipped
    add "$name-payload-flip" bad "$(fixsums "$(xorb "$hex" $((14 + iplen - 5)) 0x01)")"
    # an unmasked header byte flipped: IPv4 identification (header checksum fixed)
    add "$name-ipid-flip" bad "$(fixsums "$(xorb "$hex" 19 0x80)")"
    # the ICRC itself flipped (the UDP checksum, when there is one, covers it: fixed)
    add "$name-icrc-flip" bad "$(fixsums "$(xorb "$hex" $((14 + iplen - 1)) 0x10)")"
    # ECN set to CE and TTL decremented, as a switch does: masked, ICRC still good
    h=$(setb "$hex" 15 "$(printf '%02x' $((0x$(getb "$hex" 15) | 3)))")
    h=$(setb "$h" 22 "$(printf '%02x' $((0x$(getb "$hex" 22) - 1)))")
    add "$name-ce-ttl" good "$(fixsums "$h")"
    # BECN toggled: masked, ICRC still good
    add "$name-becn" good "$(fixsums "$(xorb "$hex" $((bth + 4)) 0x40)")"
done < "$work/vectors.txt"

v1=$(awk '$1 == "V1" { print $2 }' "$work/vectors.txt")
v5=$(awk '$1 == "V5" { print $2 }' "$work/vectors.txt")
# an 802.1Q tag (PCP 3, VID 100): ICRC still good; and the same with a corrupted payload
add V1-vlan good "$(insert "$v1" 12 81006064)"
add V1-vlan-payload-flip bad "$(fixsums "$(xorb "$(insert "$v1" 12 81006064)" 60 0x01)")"
# Ethernet padding after the IPv4 packet: the ICRC is found from the IPv4 total length
add V5-padded good "${v5}000000000000000000000000000000000000"
# UDP destination port 4792: not RoCEv2, no feroce fields at all
add V5-port4792 none "$(fixsums "$(setb "$v5" 37 b8)")"

nframes=$(wc -l < "$frames")
pcap=$work/feroce-roce-test.pcap
awk '{ h = $3; n = length(h) / 2
       for (o = 0; o < n; o += 16) {
           line = sprintf("%06x", o)
           for (i = o; i < o + 16 && i < n; i++) line = line " " substr(h, 2 * i + 1, 2)
           print line
       } }' "$frames" > "$work/frames.hexdump"
text2pcap -q "$work/frames.hexdump" "$pcap"

# ---- tshark -----------------------------------------------------------------------------------
out=$work/tshark.out
err=$work/tshark.err
set -- tshark -r "$pcap" -X lua_script:"$plugin" \
    --disable-protocol rpcordma --disable-heuristic eth_over_ib \
    -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE
if "$@" -T fields -E separator='|' \
        -e frame.number -e feroce.icrc.status -e feroce.icrc.good -e feroce.icrc \
        -e feroce.icrc.computed -e _ws.expert.severity -e _ws.expert.message -e _ws.malformed \
        -e feroce.cnp.destqp -e feroce.cnp.becn -e _ws.col.Info > "$out" 2> "$err"; then
    ok "tshark ran with the plugin"
else
    bad "tshark failed:"
    cat "$err"
fi
if grep -iE 'lua|error' "$err" > /dev/null; then
    bad "tshark reported errors:"
    cat "$err"
else
    ok "no Lua error on tshark's stderr"
fi
"$@" -q -z expert > "$work/expert.txt" 2>> "$err" || true

got=$(wc -l < "$out")
if [ "$got" -eq "$nframes" ]; then ok "tshark read $got frames"; else bad "tshark read $got frames, expected $nframes"; fi

# is_true VALUE: tshark 4.0 prints booleans as 1/0, later versions as True/False
is_true() { [ "$1" = 1 ] || [ "$1" = True ]; }

n=0
while read -r name expect hex; do
    n=$((n + 1))
    line=$(sed -n "${n}p" "$out")
    status=$(echo "$line" | cut -d'|' -f2)
    good=$(echo "$line" | cut -d'|' -f3)
    found=$(echo "$line" | cut -d'|' -f4)
    computed=$(echo "$line" | cut -d'|' -f5)
    severity=$(echo "$line" | cut -d'|' -f6)
    message=$(echo "$line" | cut -d'|' -f7)
    malformed=$(echo "$line" | cut -d'|' -f8)
    what="frame $n $name"
    case $expect in
    good)
        if [ "$status" = good ] && is_true "$good" && [ -n "$found" ] && [ "$found" = "$computed" ] &&
                [ -z "$severity" ]; then
            ok "$what: ICRC good ($found), no expert info"
        else
            bad "$what: expected a good ICRC and no expert info, got status '$status' good '$good' found '$found' computed '$computed' expert '$message'"
        fi ;;
    bad)
        case $message in *"Bad ICRC"*) has_bad=1 ;; *) has_bad=0 ;; esac
        if [ "$status" = bad ] && ! is_true "$good" && [ "$found" != "$computed" ] && [ $has_bad = 1 ] &&
                [ "$severity" = "$(echo "$severity" | grep -v ',')" ]; then
            ok "$what: ICRC bad ($found, computed $computed), expert '$message'"
        else
            bad "$what: expected only a bad ICRC error, got status '$status' good '$good' found '$found' computed '$computed' expert '$message'"
        fi
        case $severity in
        8388608 | Error) ok "$what: expert severity error" ;;
        *) bad "$what: expert severity '$severity', expected error (8388608)" ;;
        esac ;;
    none)
        if [ -z "$status$good$found" ] && [ -z "$severity" ]; then
            ok "$what: not RoCEv2, no feroce fields, no expert info"
        else
            bad "$what: not RoCEv2 but got status '$status' ICRC '$found' expert '$message'"
        fi ;;
    esac
    if [ -n "$malformed" ]; then bad "$what: malformed"; fi
done < "$frames"

# the ICRC found equals the known answer (on the wire least-significant byte first)
while read -r name hex icrc; do
    want=$(echo "$icrc" | sed 's/\(..\)\(..\)\(..\)\(..\)/0x\4\3\2\1/')
    n=$(awk -v v="$name" '$1 == v { print NR; exit }' "$frames")
    found=$(sed -n "${n}p" "$out" | cut -d'|' -f4)
    if [ "$found" = "$want" ]; then ok "$name: feroce.icrc $found = known answer $icrc (wire order)"; else bad "$name: feroce.icrc '$found', known answer $icrc is $want"; fi
done < "$work/vectors.txt"

# the CNP (V1): DestQP and BECN as in the frame, decoded in the tree and the Info column
qp=$(printf '0x%02s%02s%02s' "$(getb "$v1" 47)" "$(getb "$v1" 48)" "$(getb "$v1" 49)")
check_cnp() { # name destqp becn
    n=$(awk -v v="$1" '$1 == v { print NR; exit }' "$frames")
    line=$(sed -n "${n}p" "$out")
    destqp=$(echo "$line" | cut -d'|' -f9)
    becn=$(echo "$line" | cut -d'|' -f10)
    info=$(echo "$line" | cut -d'|' -f11)
    if [ -n "$destqp" ] && [ $((destqp)) -eq $(($2)) ] && [ "$becn" = "$3" ] &&
            [ "$info" = "$(echo "$info" | grep "^CNP DestQP=$2")" ]; then
        ok "$1: CNP DestQP $destqp BECN $becn, Info '$info'"
    else
        bad "$1: expected CNP DestQP $2 BECN $3, got DestQP '$destqp' BECN '$becn' Info '$info'"
    fi
}
check_cnp V1 "$qp" 1
check_cnp V1-becn "$qp" 0
check_cnp V1-vlan "$qp" 1
ncnp=$(cut -d'|' -f9 "$out" | grep -c . || true)
# BTH opcode: byte 42, or 46 after an 802.1Q tag; BECN: bit 6 of BTH byte 4
cnps() {
    awk -v becn="${1-}" '{ bth = substr($3, 25, 4) == "8100" ? 46 : 42 }
        substr($3, 2 * bth + 1, 2) == "81" &&
        (becn == "" || index("4567cdef", substr($3, 2 * bth + 9, 1)) > 0) { n++ }
        END { print n + 0 }' "$frames"
}
ncnp_want=$(cnps)
nbecn_want=$(cnps 1)
if [ "$ncnp" -eq "$ncnp_want" ]; then ok "$ncnp CNPs decoded, as many as frames with BTH opcode 0x81"; else bad "$ncnp CNPs decoded, expected $ncnp_want"; fi

# the display filters of the README
count() { "$@" -Y "$filter" 2>/dev/null | grep -c . || true; }
for spec in "feroce.icrc.good == 0:$(grep -c ' bad ' "$frames")" \
            "feroce.icrc.status == \"bad\":$(grep -c ' bad ' "$frames")" \
            "feroce.cnp:$ncnp_want" "feroce.cnp.becn == 1:$nbecn_want"; do
    filter=${spec%:*}
    want=${spec##*:}
    got=$(count "$@")
    if [ "$got" -eq "$want" ]; then ok "filter '$filter': $got frames"; else bad "filter '$filter': $got frames, expected $want"; fi
done

# -z expert: only "Bad ICRC" errors, one per corrupted frame, no warnings
nbad=$(grep -c ' bad ' "$frames")
nerr=$(grep -c 'Bad ICRC' "$work/expert.txt" || true)
if grep -q 'Errors (' "$work/expert.txt" && ! grep -qE '^(Warns|Notes) \(' "$work/expert.txt" &&
        grep -q "Errors ($nbad)" "$work/expert.txt" && [ "$nerr" -ge 1 ]; then
    ok "tshark -z expert: $nbad errors (Bad ICRC), no warnings or notes"
else
    bad "tshark -z expert does not show exactly $nbad Bad ICRC errors:"
    cat "$work/expert.txt"
fi

finish
