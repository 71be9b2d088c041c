"""What the cocotb benches of examples/firmware share (src/feroce/doc/firmware.md, "cocotb").

- Settings: the bench's knobs, from FEROCE_* environment variables, checked by name.
- Bench: the DUT's reset and configuration (from the golden model's parameters), and the loop
  that compares the DUT's Rc, Rt and alpha with feroce's golden fixed-point model in every cycle
  where a register can change (a CNP, transmitted bytes, a timer of the golden model) and every
  `check_every` cycles in between.  It sleeps between those cycles (the clock runs in the HDL),
  so a 2 ms incast costs a few thousand Python wake-ups, not 312 500.  The first mismatch fails
  the test with the cycle, the register, expected and actual, and writes the failing window as a
  VCD (every cycle the bench compared, with the DUT's inputs, before the mismatch).
- ThresholdSwitch: the AdvCam team's present fake switch (a CNP whenever the DUT's measured
  throughput passes a threshold), with the emulated switch's interface, for parity.
- read_script: a rate-limiter script (dcqcn.md) as the golden model's parameters and events.
- Dashboard rows: measured throughput, Rc, the switch's queue or threshold, CNPs, as CSV for
  plots/firmware-dashboard.gp.
"""
import collections
import math
import os

from cocotb.triggers import First, RisingEdge, Timer
from cocotb.utils import get_sim_time

import feroce
from feroce import wire

PERIOD_PS = 6400  # the clock of the tops tb_*.v / tb_*.vhd: 156.25 MHz, a 64-bit 10GbE datapath
CLOCK_HZ = 156250000
THROUGHPUT_CYCLES = 3125  # the dashboard's throughput window: 20 us


class BenchError(Exception):
    """A bench that cannot run as asked (a bad setting, a DUT that does not answer)."""


def _setting(name, default, kind, allowed):
    text = os.environ.get(name)
    if text is None or text == "":
        return default
    try:
        value = kind(text)
    except ValueError:
        value = None
    if value is None or not allowed(value):
        raise BenchError("%s = %r is not allowed: expected %s" % (name, text, allowed.__doc__))
    return value


def _positive(v):
    """a positive integer"""
    return v > 0


def _fault(v):
    """0 (none), 1 (wrong rounding), 2 (timers before the CNP) or 3 (a CNP lost)"""
    return 0 <= v <= 3


def _any(v):
    """a value"""
    return True


class Settings:
    """The knobs of a bench run (make ... FEROCE_FAULT=1 or the environment):
    FEROCE_FAULT (0..3), FEROCE_DURATION_US, FEROCE_PRESET (the DUT's rules), FEROCE_SWITCH (its
    ECN and CNP moderation: paper, hpcc), FEROCE_SEED (of the switch's marking draws),
    FEROCE_SCRIPT (a rate-limiter script), FEROCE_OUT (folder of the CSV and VCD files)."""

    def __init__(self, duration_us=2000):
        self.fault = _setting("FEROCE_FAULT", 0, int, _fault)
        self.duration_us = _setting("FEROCE_DURATION_US", duration_us, int, _positive)
        self.preset = _setting("FEROCE_PRESET", "connectx", str, _any)
        self.switch = _setting("FEROCE_SWITCH", "paper", str, _any)
        self.seed = _setting("FEROCE_SEED", 1, int, _positive)
        self.script = os.environ.get("FEROCE_SCRIPT") or None
        self.out = os.environ.get("FEROCE_OUT") or os.getcwd()
        if not os.path.isdir(self.out):
            raise BenchError("FEROCE_OUT = %r is not allowed: expected an existing folder" % self.out)
        if self.script is not None and not os.path.isfile(self.script):
            raise BenchError("FEROCE_SCRIPT = %r is not allowed: expected a rate-limiter script file" % self.script)


class Bench:
    """A DUT with the rate limiter's registers (rc, rt, alpha, tx_ready) and configuration
    inputs (cfg_*, fault) at the top, and its golden model."""

    def __init__(self, dut, params, fault=0, name="bench", out=".", check_every=64, window=512):
        if params.fmt.clock_hz != CLOCK_HZ:
            raise BenchError("clock_hz = %d is not allowed: expected %d (the clock of the bench's top)"
                             % (params.fmt.clock_hz, CLOCK_HZ))
        self.dut = dut
        self.params = params
        self.fault = fault
        self.name = name
        self.out = out
        self.check_every = check_every
        # check_every=1: every check() call compares; the loop decides which cycles it looks at
        self.sb = feroce.Scoreboard(params, check_every=1)
        self.trace = collections.deque(maxlen=window)  # the cycles compared, for the failing window
        self.inputs = (0, 0)  # the events driven for the cycle being compared (cnp, bytes)
        self.t0 = None  # sim time (ps) of cycle 0's edge
        self.rows = []
        self.sent = collections.deque()  # (cycle, bytes) of the frames in the last THROUGHPUT_CYCLES
        self.last_row = None

    # ---- time ---------------------------------------------------------------------------------
    def ns_at(self, cycle):
        return self.sb.ns_at(cycle)

    def cycle_of(self, t_ps):
        """The cycle whose edge is at or just before sim time t_ps."""
        return (int(t_ps) - self.t0) // PERIOD_PS

    def first_cycle_at(self, t_ns):
        """The first cycle that starts at or after t_ns (an answer reaching the DUT then is seen in it)."""
        c = self.sb.cycle_at(t_ns)
        return c if self.ns_at(c) >= t_ns else c + 1

    async def sleep_until(self, cycle, *others):
        """Sleep to the middle of `cycle` (before its edge: where its inputs are driven and the registers
        show the cycle before), or until one of `others` fires; returns the cycle woken in."""
        now = self.now_cycle()
        if cycle > now:
            t = Timer((cycle - now) * PERIOD_PS, "ps")
            if others:
                fired = await First(t, *others)
                if fired is not t:
                    # an edge of a DUT output (just after a clock edge) or an event of the bench: go on
                    # to the middle of the next cycle
                    now_ps = int(get_sim_time("ps"))
                    c = self.cycle_of(now_ps) + 1
                    delay = self.t0 + c * PERIOD_PS - PERIOD_PS // 2 - now_ps
                    if delay > 0:
                        await Timer(delay, "ps")
                    return c
            else:
                await t
        return self.now_cycle()

    def now_cycle(self):
        """The cycle whose edge comes next (the bench acts in the middle of a cycle)."""
        return self.cycle_of(get_sim_time("ps")) + 1

    # ---- reset and configuration --------------------------------------------------------------
    async def reset(self, **extra):
        d = self.dut
        d.rst.value = 1
        for name, value in feroce.config_registers(self.params).items():
            getattr(d, "cfg_" + name).value = value
        for name, value in extra.items():
            getattr(d, name).value = value
        d.fault.value = self.fault
        for _ in range(3):
            await RisingEdge(d.clk)
        await Timer(PERIOD_PS // 2, "ps")
        d.rst.value = 0
        self.t0 = int(get_sim_time("ps")) + PERIOD_PS // 2  # the next edge is cycle 0's

    # ---- the comparison ---------------------------------------------------------------------------
    def registers(self):
        d = self.dut
        try:
            return int(d.rc.value), int(d.rt.value), int(d.alpha.value)
        except ValueError:
            raise BenchError("the DUT's registers are not all 0/1 (%s, %s, %s): is it out of reset and configured?"
                             % (d.rc.value, d.rt.value, d.alpha.value)) from None

    def compare(self, cycle, **record):
        """The registers after `cycle`'s edge (the bench is in the middle of cycle + 1) against the
        golden model's; raises AssertionError at the first mismatch."""
        rc, rt, alpha = self.registers()
        ok = self.sb.check(cycle, rc, rt, alpha)
        g = self.sb.golden
        self.trace.append((cycle, self.inputs, (rc, rt, alpha), (g["rc"], g["rt"], g["alpha"])))
        if self.last_row is None or cycle - self.last_row >= 1024:
            self.row(cycle, rc, **record)
        if ok is False:
            vcd = os.path.join(self.out, "%s-window.vcd" % self.name)
            self.write_window(vcd)
            raise AssertionError("%s: FAIL: %s; the failing window: %s" % (self.name, self.sb.message(), vcd))

    def event(self, cycle, cnp, nbytes):
        """The events driven into the DUT for `cycle`, given to the golden model too."""
        if cnp:
            self.sb.cnp(cycle)
        if nbytes:
            self.sb.tx(cycle, nbytes)
            self.sent.append((cycle, nbytes + 24))  # on the wire: preamble, FCS, gap
        self.inputs = (cnp, nbytes)

    def row(self, cycle, rc, queue=0, marks=(0, 0)):
        """A dashboard row: the throughput measured over the last 20 us (as the team's fake switch
        measures it), the DUT's and the golden Rc, the switch's queue and marks, the CNPs so far."""
        while self.sent and self.sent[0][0] <= cycle - THROUGHPUT_CYCLES:
            self.sent.popleft()
        gbps = sum(b for _, b in self.sent) * 8 * CLOCK_HZ / THROUGHPUT_CYCLES / 1e9
        lsb = self.params.fmt.rate_lsb_bps
        self.rows.append((cycle, self.ns_at(cycle) / 1000, gbps, rc * lsb / 1e9, self.sb.golden["rc"] * lsb / 1e9,
                          queue, marks[0], marks[1], self.sb.cnps))
        self.last_row = cycle

    def write_csv(self, path, threshold_label="kmin_bytes,kmax_bytes"):
        tmp = path + ".part"
        with open(tmp, "w") as fh:
            fh.write("cycle,t_us,tx_gbps,dut_rc_gbps,golden_rc_gbps,queue_bytes,%s,cnps\n" % threshold_label)
            for r in self.rows:
                fh.write("%d,%.3f,%.4f,%.6f,%.6f,%d,%s,%s,%d\n" % r)
        os.replace(tmp, path)

    def write_window(self, path):
        """The cycles compared before the mismatch as a VCD: the DUT's inputs in each, its registers
        and the golden model's after it (values hold between the cycles the bench looked at)."""
        signals = [("cnp_valid", 1), ("tx_bytes", 16), ("dut_rc", 32), ("dut_rt", 32), ("dut_alpha", 17),
                   ("golden_rc", 32), ("golden_rt", 32), ("golden_alpha", 17), ("cycle", 48)]
        ids = {name: chr(33 + i) for i, (name, _) in enumerate(signals)}
        with open(path, "w") as fh:
            fh.write("$timescale 1ps $end\n$scope module %s $end\n" % self.name)
            for name, width in signals:
                fh.write("$var wire %d %s %s $end\n" % (width, ids[name], name))
            fh.write("$upscope $end\n$enddefinitions $end\n")
            for cycle, (cnp, nbytes), dut, gold in self.trace:
                values = (cnp, nbytes) + dut + gold + (cycle,)
                fh.write("#%d\n" % (self.t0 + cycle * PERIOD_PS))
                for (name, width), v in zip(signals, values):
                    fh.write("b%s %s\n" % (format(v, "b"), ids[name]) if width > 1 else "%d%s\n" % (v, ids[name]))

    def summary(self):
        return "%s: PASS: %s; %d CNPs, %d bytes" % (self.name, self.sb.message(), self.sb.cnps, self.sb.tx_bytes)


class Answer:
    """A frame to the DUT at t_ns, as feroce.Answer: kind "cnp" or "ack", psn, frame (bytes)."""
    __slots__ = ("t_ns", "kind", "psn", "frame")

    def __init__(self, t_ns, kind, psn, frame):
        self.t_ns, self.kind, self.psn, self.frame = t_ns, kind, psn, frame


class Answers:
    """Frames on their way to the DUT, in time order, with feroce.EmulatedSwitch's calls to take
    them (take, poll, next_answer); the peers of the benches that are not the emulated switch."""

    def __init__(self, answers=()):
        self.answers = collections.deque(sorted(answers, key=lambda a: a.t_ns))
        self.now = 0
        self.queue_bytes = 0

    def take(self, until):
        out = []
        while self.answers and self.answers[0].t_ns <= until:
            out.append(self.answers.popleft())
        return out

    def poll(self, t):
        self.now = max(self.now, t)
        return self.take(t)

    def next_answer(self):
        return self.answers[0].t_ns if self.answers else None


class ThresholdSwitch(Answers):
    """The AdvCam team's DCQCN check before feroce: no queue and no marking, but a CNP forged
    whenever the DUT's throughput measured over the last `window_ns` passes `threshold_bps`, at
    most one per `interval_ns` (a receiver's CNP moderation), reaching the DUT `delay_ns` later.
    It has feroce.EmulatedSwitch's interface (dut_frame, poll, next_answer, queue_bytes, stats),
    so a bench moves from this check to the emulated switch by changing one line."""

    def __init__(self, threshold_bps=5e9, window_ns=20000, interval_ns=50000, delay_ns=2000, dut_qpn=0x11):
        self.threshold_bps, self.window_ns, self.interval_ns = threshold_bps, window_ns, interval_ns
        self.delay_ns, self.dut_qpn = delay_ns, dut_qpn
        super().__init__()
        self.sent = collections.deque()  # (t_ns, bytes) of the DUT's frames in the window
        self.last_cnp = None
        self.link_delay_ns = delay_ns  # answers are known this long before they arrive
        self.counts = {"dut_frames": 0, "dut_bytes": 0, "cnps_to_dut": 0}

    def measured_bps(self, t):
        while self.sent and self.sent[0][0] <= t - self.window_ns:
            self.sent.popleft()
        return sum(b for _, b in self.sent) * 8e9 / self.window_ns

    def dut_frame(self, t, frame):
        f = wire.parse(frame)  # the addresses to answer
        self.now = t
        self.sent.append((t, len(frame) + 24))  # on the wire: preamble, FCS and gap
        self.counts["dut_frames"] += 1
        self.counts["dut_bytes"] += len(frame)
        if self.measured_bps(t) > self.threshold_bps and (self.last_cnp is None or
                                                          t - self.last_cnp >= self.interval_ns):
            self.last_cnp = t
            cnp = wire.cnp(self.dut_qpn, src_mac=f.dst_mac, dst_mac=f.src_mac, src_ip=f.dst_ip, dst_ip=f.src_ip)
            self.answers.append(Answer(t + self.delay_ns, "cnp", 0, cnp))
            self.counts["cnps_to_dut"] += 1

    @property
    def horizon(self):
        """A CNP is forged when a frame starts: every one up to now + delay_ns is known."""
        return self.now + self.delay_ns

    def stats(self):
        return dict(self.counts)


def read_script(path):
    """A rate-limiter script file (feroce.Script: dcqcn.md, "Rate-limiter trace format") as the
    golden model's parameters in the default register format and its events (t_ns, cnp, bytes)."""
    try:
        with open(path) as fh:
            script = feroce.Script(fh.read())
    except (OSError, UnicodeDecodeError) as e:
        raise BenchError("FEROCE_SCRIPT = %r cannot be read: %s" % (path, e)) from None
    params = feroce.fixed_params(script.preset, script.line_rate_bps, **script.params)
    return params, [(t, event == "cnp", nbytes) for _, t, event, nbytes in script.events]


def mac_cycles(frame_len, line_bps):
    """Cycles a frame of frame_len bytes (without FCS) holds a 64-bit MAC, with preamble, FCS and gap."""
    return math.ceil((frame_len + 24) * 8 * CLOCK_HZ / line_bps)


__all__ = ["Bench", "BenchError", "Settings", "ThresholdSwitch", "Answer", "Answers", "read_script", "mac_cycles",
           "PERIOD_PS", "CLOCK_HZ"]
