#!/bin/sh
# advcam-eventbuilding as a user runs it, small and short (CI; the real runs are the docs'):
#  - static assignment without failure: goodput.csv byte for byte advcam-camera's;
#  - a receiver's host crashes and comes back, under both policies: every counter adds up
#    (identity_violations=0, and generated = built + lost by cause + in flight recomputed here
#    from events.csv), no event triggered after the assigner dropped it went to it, the dead
#    receiver builds events again after its return, static loses more;
#  - board-rule (every board applying the rule to the credits announced to all): nothing lost
#    and no late announcement without failure, the same output again; after a crash nothing is
#    posted to the dead receiver once it lapsed; announcements valid from the very next trigger
#    arrive late, events split and are counted as lost to disagreement, identities still exact;
#  - a slow (Soft-RoCE) receiver takes a smaller share under availability, and loses nothing;
#  - random failures (MTBF/MTTR) add up; a link (not host) down for less than the queue pairs'
#    retries loses nothing (RC retransmits);
#  - frames lost on a downed link are counted as drops_link_down;
#  - a stuck receiver: PAUSE spreads to the boards (802.3x stops them and their ACKs to the
#    assigner, never the receivers' ACKs and CNPs), the PFC watchdog ends it.
#   eventbuilding-test.sh EXAMPLES_DIR WORK_DIR
set -eu
. "$(dirname "$0")/../lib.sh"
bin=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
small="--boards=24 --boardsPerLeaf=12 --receivers=3 --db=none"
metric() { sed -n "s/^$2=//p" "$work/$1/metrics.txt"; }
same() { # NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then ok; else bad "$1: expected '$2', found '$3'"; fi
}
more() { # NAME A B: A > B
    if awk -v a="$2" -v b="$3" 'BEGIN { exit !(a > b) }'; then ok; else bad "$1: $2 is not > $3"; fi
}
run() { # NAME FLAGS...
    name=$1
    shift
    # shellcheck disable=SC2086 # the words of $small
    if ! "$bin/advcam-eventbuilding" $small --outdir="$work/$name" "$@" >"$work/$name.log" 2>&1; then
        bad "$name: exit status $?: $(tail -3 "$work/$name.log")"
    fi
}
adds_up() { # NAME: the identities, and events.csv's columns against the metrics
    same "$1: identity_violations" 0 "$(metric "$1" identity_violations)"
    sums=$(awk -F, 'NR > 1 { for (i = 2; i <= 9; i++) s[i] += $i }
        END { print s[2], s[3] + s[4] + s[5] + s[6] + s[7] + s[8] + s[9] }' "$work/$1/events.csv")
    same "$1: events.csv generated = built + lost + in flight" "${sums% *}" "${sums#* }"
    same "$1: events.csv generated = the metric" "$(metric "$1" events_generated)" "${sums% *}"
    lost=$(($(metric "$1" events_lost_board_buffer) + $(metric "$1" events_lost_receiver_dead) +
        $(metric "$1" events_lost_retries_exhausted) + $(metric "$1" events_lost_partial_timeout) +
        $(metric "$1" events_lost_disagreement)))
    same "$1: events_lost = the sum of its causes" "$(metric "$1" events_lost)" "$lost"
}

# the static rule is advcam-camera's: the same fabric, queue pairs and streams
run static --duration=3ms --window=500us --warmup=500us
# shellcheck disable=SC2086
"$bin/advcam-camera" $small --duration=3ms --window=500us --warmup=500us \
    --outdir="$work/camera" >"$work/camera.log" 2>&1
if cmp -s "$work/static/goodput.csv" "$work/camera/goodput.csv"; then ok; else
    bad "static assignment: goodput.csv differs from advcam-camera's"
fi
adds_up static
same "static: nothing lost" 0 "$(metric static events_lost)"

# receiver 1's host crashes at 2 ms and is back at 5 ms; its queue pairs give up after 4 timeouts
# of 200 us, connections are re-established 100 us after it is back
crash="--duration=10ms --failReceiver=1 --failAt=2ms --returnAt=5ms --ackTimeout=200us --retryCount=3"
# shellcheck disable=SC2086
run avail --assignment=availability $crash
# shellcheck disable=SC2086
run staticfail $crash
adds_up avail
adds_up staticfail
same "availability: posts after detection" 0 "$(metric avail posts_after_detection)"
more "availability: failure detected" "$(metric avail failure_detect_ms)" 0
more "availability: lost with the dead receiver" "$(metric avail events_lost_receiver_dead)" 0
same "availability: no board buffer loss" 0 "$(metric avail events_lost_board_buffer)"
# frames lost on the dead receiver's link are a place of their own (identities.txt: every frame
# its link lost is counted at one end)
more "availability: frames lost on the downed link" "$(metric avail drops_link_down)" 0
more "static: frames lost on the downed link" "$(metric staticfail drops_link_down)" 0
more "static loses more" "$(metric staticfail events_lost)" "$(metric avail events_lost)"
for r in avail staticfail; do
    more "$r: connections re-established" "$(metric $r reconnections)" 0
    # receiver 1 (column 14) builds events triggered after its return
    back=$(awk -F, 'NR > 1 && $1 > 0.006 { n += $14 } END { print n + 0 }' "$work/$r/events.csv")
    more "$r: receiver 1 builds again after its return" "$back" 0
    quiet=$(awk -F, 'NR > 1 && $1 > 0.003 && $1 <= 0.005 { n += $14 } END { print n + 0 }' \
        "$work/$r/events.csv")
    same "$r: receiver 1 builds nothing while down" 0 "$quiet"
done

# board-rule: no assigner; the receivers announce their credits to every board and every board
# applies one rule to what it has seen: in time, every board names the same receiver
run rule --assignment=board-rule --duration=3ms --window=500us --warmup=500us
adds_up rule
same "board-rule: nothing lost" 0 "$(metric rule events_lost)"
same "board-rule: no late announcement" 0 "$(metric rule announcements_late)"
same "board-rule: no event split" 0 "$(metric rule events_split)"
more "board-rule: announcements heard" "$(metric rule announcements_received)" 0
more "board-rule: control traffic counted" "$(metric rule control_fraction)" 0
# same parameters and seed, same output
run rule-again --assignment=board-rule --duration=3ms --window=500us --warmup=500us
for f in events.csv receivers.csv identities.txt goodput.csv; do
    if cmp -s "$work/rule/$f" "$work/rule-again/$f"; then ok; else bad "board-rule: $f differs"; fi
done
# the crash: the boards stop sending to the dead receiver when its credits run out, all alike
# shellcheck disable=SC2086
run rulefail --assignment=board-rule $crash
adds_up rulefail
same "board-rule: posts after the receiver lapsed" 0 "$(metric rulefail posts_after_detection)"
more "board-rule: the receiver lapsed" "$(metric rulefail failure_detect_ms)" 0
more "board-rule: lost with the dead receiver" "$(metric rulefail events_lost_receiver_dead)" 0
same "board-rule: no disagreement" 0 "$(metric rulefail events_lost_disagreement)"
same "board-rule: no board buffer loss" 0 "$(metric rulefail events_lost_board_buffer)"
more "static loses more than board-rule" "$(metric staticfail events_lost)" \
    "$(metric rulefail events_lost)"
more "board-rule: connections re-established" "$(metric rulefail reconnections)" 0
back=$(awk -F, 'NR > 1 && $1 > 0.006 { n += $14 } END { print n + 0 }' "$work/rulefail/events.csv")
more "board-rule: receiver 1 builds again after its return" "$back" 0
# announcements valid from the very next trigger (--announceLead=1), at Poisson triggers 1 us
# apart on average (small fragments): late at some boards and not at others, their rules
# diverge and events split; counted, and the identities still add up
run rulelate --assignment=board-rule --announceLead=1 --poisson=1 --triggerInterval=1us \
    --fragmentSize=256 --duration=2ms
adds_up rulelate
more "late announcements counted" "$(metric rulelate announcements_late)" 0
more "events split" "$(metric rulelate events_split)" 0
more "lost to disagreement" "$(metric rulelate events_lost_disagreement)" 0

# a slow receiver: Soft-RoCE at about 5 Gb/s beside two at 100 Gb/s
run slow --duration=8ms --assignment=availability --slowReceiver=2
adds_up slow
more "slow receiver's share below a third" 0.2 "$(metric slow rx2_events_built_fraction)"
same "slow receiver: nothing lost" 0 "$(metric slow events_lost)"

# random failures
run random --duration=10ms --assignment=availability --mtbf=4ms --mttr=1ms --ackTimeout=200us \
    --retryCount=3
adds_up random
more "random: failures happened" "$(metric random reconnections)" 0
# a link (not the host) down for 400 us, less than the queue pairs' retries: RC rides it out
run link --assignment=availability --duration=10ms --failReceiver=1 --failAt=2ms \
    --returnAt=2400us --ackTimeout=200us --retryCount=3 --failMode=link
adds_up link
same "a short link failure: nothing lost" 0 "$(metric link events_lost)"
same "a short link failure: no new connection" 0 "$(metric link reconnections)"

# a receiver that stops draining (Soft-RoCE at 1 Mb/s, its NIC sends PFC) behind switches of
# 1 MB: the PAUSE spreads to the boards; 802.3x that they obey stops them and the ACKs they owe
# the assigner; no PAUSE ever reaches the receivers (their ports carry only ACKs, CNPs and
# credits: the ACKs and CNPs toward the boards flow on); the PFC watchdog ends the storm
stuck="--duration=5ms --assignment=availability --slowReceiver=1 --slowByteRate=1Mbps --bufferSize=1000000"
# shellcheck disable=SC2086
run stuck-ignored $stuck --pfcHonour=0
# shellcheck disable=SC2086
run stuck-8023x $stuck --pauseFrames=802.3x --pauseHonour=802.3x
# shellcheck disable=SC2086
run stuck-watchdog $stuck --pauseFrames=802.3x --pauseHonour=802.3x --watchdog=1ms \
    --watchdogRestore=2ms
for r in stuck-ignored stuck-8023x stuck-watchdog; do
    adds_up $r
    same "$r: no PAUSE reached the receivers" 0 "$(metric $r rx_pause_frames_obeyed)"
done
same "PFC ignored: the boards obey none" 0 "$(metric stuck-ignored board_pause_frames_obeyed)"
same "PFC ignored: the control messages' ACKs flow" 0 "$(metric stuck-ignored control_timeouts)"
more "802.3x: the boards obey it" "$(metric stuck-8023x board_pause_frames_obeyed)" 0
more "802.3x: boards held" "$(metric stuck-8023x board_paused_ms_max)" 0.5
more "802.3x: the boards' ACKs to the assigner held" "$(metric stuck-8023x control_timeouts)" 0
more "watchdog: a storm found" "$(metric stuck-watchdog watchdog_storms)" 0
more "watchdog: frames to the stuck port dropped" "$(metric stuck-watchdog drops_watchdog)" 0
more "watchdog: more events built" "$(metric stuck-watchdog events_built)" \
    "$(metric stuck-8023x events_built)"
same "watchdog: no ACK of the control messages held" 0 "$(metric stuck-watchdog control_timeouts)"
finish
