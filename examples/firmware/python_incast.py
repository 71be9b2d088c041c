#!/usr/bin/python3
"""The firmware loop from Python, without an HDL simulator: a software DUT (feroce's own
fixed-point reaction point, or one that rounds the other way with --fault) paces 4 KiB RDMA
WRITE frames into the emulated DCQCN switch beside two virtual senders; the CNPs come back as
frames; the scoreboard compares the DUT's registers every cycle with events and every 64 cycles,
and writes the CSV that plots/firmware-scoreboard.gp draws.  The calls are those a cocotb
coroutine makes (src/feroce/doc/firmware.md); time is an argument, there is no event loop.

    PYTHONPATH=build/python /usr/bin/python3 examples/firmware/python_incast.py --csv out.csv
Exit status 0 when the DUT agreed register for register, 1 otherwise, 2 for a bad option.
"""
import argparse
import sys

import feroce
from feroce import wire


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--duration-us", type=int, default=2000)
    ap.add_argument("--preset", default="connectx", help="the DUT's DCQCN rules")
    ap.add_argument("--format", default="default", help="the DUT's register formats (default, surf)")
    ap.add_argument("--fault", choices=["none", "rounding"], default="none")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--csv")
    a = ap.parse_args()
    try:
        golden = feroce.fixed_params(a.preset, fmt=a.format)
        wrong = {"rounding": "nearest"} if a.fault == "rounding" else None
        dut = feroce.FixedReactionPoint(a.preset, fmt=a.format, fmt_overrides=wrong)
        sw = feroce.EmulatedSwitch("paper", senders=2, seed=a.seed, dut_qpn=0x11)
        if a.duration_us <= 0:
            raise feroce.FeroceError("duration_us = %d is not allowed: expected > 0" % a.duration_us)
    except feroce.FeroceError as e:
        print("python_incast: %s" % e, file=sys.stderr)
        return 2
    sb = feroce.Scoreboard(golden, check_every=64, record_every=1024)
    frame = wire.build(wire.OP_WRITE_MIDDLE, bytes(4096), src_mac="02:00:00:00:00:01",
                       dst_mac="02:00:00:00:00:02", src_ip="10.0.0.1", dst_ip="10.0.0.2", destqp=0x22)
    fmt = golden.fmt
    cost = (len(frame) + 24) * round(8 * fmt.clock_hz / fmt.rate_lsb_bps)  # credit per frame on the wire
    mac_cycles = -(-(len(frame) + 24) * 8 * fmt.clock_hz // int(golden.rules.line_rate_bps))
    end = dut.cycle_at(a.duration_us * 1000)
    credit, mac_free, cycle = 0, 0, 0
    while cycle < end:
        t = dut.ns_at(cycle)
        for answer in sw.poll(t):  # CNPs whose first bit has arrived
            if wire.parse(answer.frame).opcode == wire.OP_CNP:
                dut.cnp(cycle)
                sb.cnp(cycle)
        if credit >= 0 and cycle >= mac_free:  # the DUT's pacing allows a frame, the MAC is free
            sw.dut_frame(t, frame)
            dut.tx(cycle, len(frame))
            sb.tx(cycle, len(frame))
            credit -= cost
            mac_free = cycle + mac_cycles
        dut.advance(cycle)
        sb.check(cycle, dut.rc, dut.rt, dut.alpha)
        # jump to the next cycle that can matter (at most 64 on): the MAC frees or the credit refills
        refill = -(-(-credit) // dut.rc) if credit < 0 else 1
        step = max(1, min(64, max(mac_free - cycle, refill)))
        credit = min(0, credit + dut.rc * step)
        cycle += step
    st = sw.stats()
    total = st["dut_bytes"] + sum(st["sender_bytes"])
    print("python_incast: %s: %s; %d CNPs; DUT share %.3f of %d bytes delivered" % (
        "FAIL" if sb.mismatches else "PASS", sb.message(), st["cnps_to_dut"], st["dut_bytes"] / total, total))
    if a.csv:
        sb.write_csv(a.csv)
        print("python_incast: wrote %s" % a.csv)
    return 1 if sb.mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
