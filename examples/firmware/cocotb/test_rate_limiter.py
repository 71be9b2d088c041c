"""cocotb bench of the rate limiter alone (dcqcn_rate_limiter.v under Icarus Verilog and Verilator,
dcqcn_rate_limiter.vhd under GHDL; top tb_rate_limiter), checked against feroce's golden model.

    incast        the DUT paces 4 KiB RDMA WRITEs into feroce's emulated DCQCN switch beside two
                  virtual DCQCN senders (a 3:1 incast); the switch marks ECN, the receiver behind
                  it moderates CNPs, and the CNPs come back to the DUT at the instant they arrive
    fake_switch   the same DUT with the AdvCam team's present check: a CNP whenever the measured
                  throughput passes a threshold (bench.ThresholdSwitch)
    script        a rate-limiter script (FEROCE_SCRIPT) drives the DUT's CNPs and bytes

In every test the scoreboard compares Rc, Rt and alpha with the golden fixed-point model in each
cycle where a register can change and every 64 cycles in between; the first mismatch fails the
test (cycle, register, expected, actual) and writes the failing window as a VCD.  FEROCE_FAULT=1,
2 or 3 breaks the DUT on purpose (wrong rounding, timers before the CNP, a CNP lost): the test
must then fail.  Run with examples/firmware/cocotb/Makefile (src/feroce/doc/firmware.md).
"""
import collections

import cocotb
from cocotb.triggers import RisingEdge

import feroce
from feroce import wire

from bench import Bench, Settings, ThresholdSwitch, mac_cycles, read_script

DUT_QPN = 0x11


def write_frame(psn):
    """The DUT's frames as the switch sees them: 4 KiB RDMA WRITE Middle packets of its QP."""
    return wire.build(wire.OP_WRITE_MIDDLE, bytes(4096), src_mac="02:00:00:00:00:01", dst_mac="02:00:00:00:00:02",
                      src_ip="10.0.0.1", dst_ip="10.0.0.2", destqp=0x22, psn=psn)


async def closed_loop(dut, settings, switch, name, marks=(0, 0)):
    """The DUT paces frames (its tx_ready, a 64-bit MAC) into `switch`; the CNPs that come back are
    its cnp_valid in the first cycle that starts after their arrival, one a cycle."""
    params = feroce.fixed_params(settings.preset)
    b = Bench(dut, params, settings.fault, name, settings.out)
    await b.reset()
    frame_len = len(write_frame(0))
    mac = mac_cycles(frame_len, params.rules.line_rate_bps)
    link = b.first_cycle_at(switch.link_delay_ns if hasattr(switch, "link_delay_ns") else
                            switch.params.link_delay_ns) - 1  # answers are known that far ahead
    end = b.first_cycle_at(settings.duration_us * 1000)
    cnps, mac_free, psn, n = collections.deque(), 0, 0, 0
    while True:
        if n > 0:
            b.compare(n - 1, queue=switch.queue_bytes, marks=marks)
        if n >= end:
            break
        t = b.ns_at(n)
        for a in switch.poll(t):
            if a.kind == "cnp":
                due = b.first_cycle_at(a.t_ns)
                assert due == n or cnps, "%s: a CNP due in cycle %d was seen late, in %d" % (name, due, n)
                cnps.append(due)
        cnp = bool(cnps) and cnps[0] <= n
        if cnp:
            cnps.popleft()
        nbytes = 0
        ready = int(dut.tx_ready.value)
        if ready and n >= mac_free:
            switch.dut_frame(t, write_frame(psn))
            psn = (psn + 1) & 0xFFFFFF
            mac_free = n + mac
            nbytes = frame_len
        dut.cnp_valid.value = int(cnp)
        dut.tx_valid.value = int(nbytes > 0)
        dut.tx_bytes.value = nbytes
        b.event(n, cnp, nbytes)
        if cnp or nbytes:
            nxt = n + 1  # compare this cycle, clear the inputs
        else:
            due = [n + b.check_every, end, n + link]
            if cnps:
                due.append(cnps[0])
            if switch.next_answer() is not None:
                due.append(b.first_cycle_at(switch.next_answer()))
            if b.sb.next_timer() is not None:
                due.append(b.sb.next_timer() + 1)
            if mac_free > n:
                due.append(mac_free)
            nxt = max(n + 1, min(due))
        waiting_for_credit = n >= mac_free and not ready
        n = await b.sleep_until(nxt, *((RisingEdge(dut.tx_ready),) if waiting_for_credit else ()))
    st = switch.stats()
    if st["cnps_to_dut"] != b.sb.cnps + len(cnps):
        raise AssertionError("%s: the switch sent %d CNPs, the DUT was given %d" % (name, st["cnps_to_dut"], b.sb.cnps))
    b.write_csv("%s/%s.csv" % (settings.out, name))
    dut._log.info("%s; DUT frames %d, switch %s", b.summary(), st["dut_frames"], st)
    return b


@cocotb.test()
async def incast(dut):
    """3:1 incast into feroce's emulated switch (ECN marking, CNP moderation, real CNP frames)."""
    s = Settings(duration_us=2000)
    sw = feroce.EmulatedSwitch(s.switch, senders=2, seed=s.seed, dut_qpn=DUT_QPN)
    await closed_loop(dut, s, sw, "incast", marks=(sw.params.cp.kmin_bytes, sw.params.cp.kmax_bytes))


@cocotb.test()
async def fake_switch(dut):
    """The same DUT under the team's throughput-threshold CNP forger."""
    s = Settings(duration_us=1000)
    sw = ThresholdSwitch(threshold_bps=5e9, dut_qpn=DUT_QPN)
    await closed_loop(dut, s, sw, "fake-switch", marks=(int(sw.threshold_bps), 0))


@cocotb.test()
async def script(dut):
    """A rate-limiter script's CNPs and bytes (FEROCE_SCRIPT), in the cycles their times fall in;
    a cycle takes one CNP and at most one byte-counter event (larger tx are split)."""
    s = Settings()
    if s.script is None:
        raise AssertionError("script: FEROCE_SCRIPT is not set: expected a rate-limiter script file")
    params, events = read_script(s.script)
    b = Bench(dut, params, s.fault, "script", s.out)
    await b.reset()
    chunk = min(9000, params.byte_counter) if params.byte_counter else 9000
    by_cycle = collections.deque((b.sb.cycle_at(t), cnp, nbytes) for t, cnp, nbytes in events)
    end = by_cycle[-1][0] + 1 if by_cycle else 1
    cnps, tx_left, n = 0, 0, 0
    while True:
        if n > 0:
            b.compare(n - 1)
        if n >= end and not cnps and not tx_left:
            break
        while by_cycle and by_cycle[0][0] <= n:
            _, cnp, nbytes = by_cycle.popleft()
            cnps += cnp
            tx_left += nbytes
        cnp = cnps > 0
        cnps -= cnp
        nbytes = min(tx_left, chunk)
        tx_left -= nbytes
        dut.cnp_valid.value = int(cnp)
        dut.tx_valid.value = int(nbytes > 0)
        dut.tx_bytes.value = nbytes
        b.event(n, cnp, nbytes)
        due = [n + b.check_every, end]
        if by_cycle:
            due.append(by_cycle[0][0])
        if b.sb.next_timer() is not None:
            due.append(b.sb.next_timer() + 1)
        nxt = n + 1 if cnp or nbytes or cnps or tx_left else max(n + 1, min(due))
        n = await b.sleep_until(nxt)
    dut._log.info(b.summary())
