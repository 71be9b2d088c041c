"""The fixed-point reaction point (feroce-rp-fixed.h) and the golden-model scoreboard
(feroce-scoreboard.h): a firmware rate limiter's registers, and their check."""
import ctypes
import os

from . import _lib as c
from ._lib import FeroceError
from .rp import rp_params


class FixedFormat(ctypes.Structure):
    _fields_ = [("clock_hz", c.c_uint64), ("rate_bits", c.c_uint32), ("rate_lsb_bps", c.c_double),
                ("alpha_bits", c.c_uint32), ("rate_rounding", c.c_int), ("alpha_rounding", c.c_int)]


class FixedParams(ctypes.Structure):
    _fields_ = [("fmt", FixedFormat), ("rules", c.RpParams), ("line", c.c_uint64), ("min_rate", c.c_uint64),
                ("rai", c.c_uint64), ("rhai", c.c_uint64), ("first_cnp_rate", c.c_uint64),
                ("alpha_one", c.c_uint32), ("g", c.c_uint32), ("initial_alpha", c.c_uint32),
                ("alpha_period", c.c_int64), ("decrease_period", c.c_int64), ("increase_timer", c.c_int64),
                ("byte_counter", c.c_uint64), ("F", c.c_uint32), ("alpha_mode", c.c_int), ("hai_mode", c.c_int),
                ("clamp", c.c_int)]


class FixedRegs(ctypes.Structure):
    _fields_ = [("rc", c.c_uint64), ("rt", c.c_uint64), ("alpha", c.c_uint32), ("pad_", c.c_uint32),
                ("ts", c.c_uint64), ("bs", c.c_uint64), ("byte_acc", c.c_uint64), ("next_alpha", c.c_int64),
                ("next_dec", c.c_int64), ("next_inc", c.c_int64), ("active", c.c_uint8), ("alpha_flag", c.c_uint8),
                ("dec_flag", c.c_uint8), ("may_clamp", c.c_uint8)]


class FixedState(ctypes.Structure):
    _fields_ = [("cur", FixedRegs), ("base", FixedRegs), ("now", c.c_int64), ("cnps_now", c.c_uint32),
                ("bytes_now", c.c_uint64)]


class SbParams(ctypes.Structure):
    _fields_ = [("check_every", c.c_int64), ("compare", ctypes.c_uint)]


class SbRegs(ctypes.Structure):
    _fields_ = [("rc", c.c_uint64), ("rt", c.c_uint64), ("alpha", c.c_uint32)]


class SbMismatch(ctypes.Structure):
    _fields_ = [("cycle", c.c_int64), ("reg", c.c_int), ("expected", c.c_uint64), ("actual", c.c_uint64),
                ("golden", SbRegs), ("device", SbRegs)]


class SbState(ctypes.Structure):
    _fields_ = [("golden", FixedState), ("event_cycle", c.c_int64), ("next_check", c.c_int64),
                ("last_checked", c.c_int64), ("compared", c.c_uint64), ("mismatches", c.c_uint64),
                ("cnps", c.c_uint64), ("tx_bytes", c.c_uint64), ("first", SbMismatch)]


for _name, _mirror in {"feroce_rp_fixed_format": FixedFormat, "feroce_rp_fixed_params": FixedParams,
                       "feroce_rp_fixed_regs": FixedRegs, "feroce_rp_fixed_state": FixedState,
                       "feroce_sb_params": SbParams, "feroce_sb_regs": SbRegs, "feroce_sb_mismatch": SbMismatch,
                       "feroce_sb_state": SbState}.items():
    c.check_mirror(_name, _mirror)

P = ctypes.POINTER
_format_preset = c._fn("feroce_rp_fixed_format_preset", c.c_int, P(FixedFormat), c.c_char_p, P(c.Check))
_set_format = c._fn("feroce_rp_fixed_set_format", c.c_int, P(FixedFormat), c.c_char_p, c.c_char_p, P(c.Check))
_build = c._fn("feroce_rp_fixed_build", c.c_int, P(FixedParams), P(c.RpParams), P(FixedFormat), P(c.Check))
_init = c._fn("feroce_rp_fixed_init", None, P(FixedState), P(FixedParams), c.c_int64)
_cnp = c._fn("feroce_rp_fixed_cnp", c.c_int, P(FixedState), P(FixedParams), c.c_int64)
_tx = c._fn("feroce_rp_fixed_tx", c.c_int, P(FixedState), P(FixedParams), c.c_int64, c.c_uint64)
_advance = c._fn("feroce_rp_fixed_advance", c.c_int, P(FixedState), P(FixedParams), c.c_int64)
_next_deadline = c._fn("feroce_rp_fixed_next_deadline", c.c_int64, P(FixedState), P(FixedParams))
_cycle_at = c._fn("feroce_rp_fixed_cycle_at", c.c_int64, P(FixedParams), c.c_int64)
_ns_at = c._fn("feroce_rp_fixed_ns_at", c.c_int64, P(FixedParams), c.c_int64)
_sb_validate = c._fn("feroce_sb_validate", c.c_int, P(SbParams), P(c.Check))
_sb_init = c._fn("feroce_sb_init", None, P(SbState), P(FixedParams), c.c_int64)
_sb_cnp = c._fn("feroce_sb_cnp", c.c_int, P(SbState), P(FixedParams), c.c_int64)
_sb_tx = c._fn("feroce_sb_tx", c.c_int, P(SbState), P(FixedParams), c.c_int64, c.c_uint64)
_sb_check = c._fn("feroce_sb_check", c.c_int, P(SbState), P(FixedParams), P(SbParams), c.c_int64, P(SbRegs))
_sb_message = c._fn("feroce_sb_message", c.c_int, P(SbState), P(FixedParams), c.c_char_p, c.c_size_t)

REG_NAMES = {1: "rc", 2: "rt", 4: "alpha"}


def _cycle_at_checked(params, t_ns):
    cycle = _cycle_at(ctypes.byref(params), c.as_time("t_ns", t_ns))
    if cycle == c.FEROCE_NEVER:
        raise c._bad("t_ns", t_ns, "an instant whose cycle at clock_hz = %d is <= %d" % (params.fmt.clock_hz,
                                                                                       c.FEROCE_TIME_MAX))
    return cycle


def _ns_at_checked(params, cycle):
    t = _ns_at(ctypes.byref(params), c.as_time("cycle", cycle, unit=" (a cycle)"))
    if t == c.FEROCE_NEVER:
        raise c._bad("cycle", cycle, "a cycle that starts at most %d ns in" % c.FEROCE_TIME_MAX)
    return t


def fixed_params(preset="paper", line_rate_bps=10e9, fmt="default", fmt_overrides=None, **overrides):
    """struct feroce_rp_fixed_params: the DCQCN rules (a preset and overrides, as rp_params) in the
    register formats `fmt` (default | surf) with overrides by name (clock_hz, rate_bits, rate_lsb_bps,
    alpha_bits, rounding, rate_rounding, alpha_rounding).  A format that cannot hold the rules (g not a
    multiple of 2^-alpha_bits, a timer shorter than one cycle, a line rate beyond the rate register)
    raises FeroceError naming the parameter, its value and what is allowed."""
    rules = rp_params(preset, line_rate_bps, **overrides)
    f = FixedFormat()
    c.call_checked(_format_preset, ctypes.byref(f), c.as_text("format", fmt, "a format name: default or surf"))
    for name, value in c.as_dict("fmt_overrides", fmt_overrides).items():
        c.call_checked(_set_format, ctypes.byref(f), c.as_text("format field", name), c.param_text(name, value))
    p = FixedParams()
    c.call_checked(_build, ctypes.byref(p), ctypes.byref(rules), ctypes.byref(f))
    return p


def _as_params(params):
    if not isinstance(params, FixedParams):
        raise c._bad("params", params, "the result of feroce.fixed_params()")
    return params


def config_registers(params):
    """The configuration a firmware rate limiter holds for these rules, in its register units: the
    cfg_* inputs of examples/firmware/dcqcn_rate_limiter.v (and feroce_cosim_reg()): rates in LSBs,
    g and initial_alpha in 2^-alpha_bits, timers in cycles, mode bits, and cost_per_byte, the pacing
    credit a byte on the wire costs (8 x clock_hz / rate LSB)."""
    p = _as_params(params)
    return {"line": p.line, "min_rate": p.min_rate, "rai": p.rai, "rhai": p.rhai, "first_cnp_rate": p.first_cnp_rate,
            "g": p.g, "initial_alpha": p.initial_alpha, "alpha_period": p.alpha_period,
            "decrease_period": p.decrease_period, "increase_timer": p.increase_timer,
            "byte_counter": p.byte_counter, "f": p.F, "alpha_periodic": int(p.alpha_mode == 1),
            "hai_linear": int(p.hai_mode == 1), "clamp_after_increase": int(p.clamp == 1),
            "rate_nearest": int(p.fmt.rate_rounding == 1), "alpha_nearest": int(p.fmt.alpha_rounding == 1),
            "cost_per_byte": round(8 * p.fmt.clock_hz / p.fmt.rate_lsb_bps)}


class FixedReactionPoint:
    """A firmware rate limiter's registers: Rc and Rt in rate LSBs, alpha in 2^-alpha_bits, time in
    cycles of the format's clock (an argument of every call, never decreasing; no event loop).

        rp = FixedReactionPoint("connectx", fmt="surf")
        rp.cnp(rp.cycle_at(0)); rp.advance(rp.cycle_at(4000)); rp.rc, rp.rc_bps
    """

    def __init__(self, preset="paper", line_rate_bps=10e9, fmt="default", fmt_overrides=None, now=0, params=None,
                 **overrides):
        self.params = _as_params(params) if params is not None else fixed_params(preset, line_rate_bps, fmt,
                                                                                 fmt_overrides, **overrides)
        self._s = FixedState()
        _init(ctypes.byref(self._s), ctypes.byref(self.params), c.as_time("now", now, unit=" (a cycle)"))

    def _call(self, what, fn, cycle, *extra):
        cycle = c.as_time(what + ": cycle", cycle, unit=" (a cycle)")
        if fn(ctypes.byref(self._s), ctypes.byref(self.params), cycle, *extra):
            raise FeroceError("%s: cycle = %d is not allowed: expected >= %d (the cycle of the last call)"
                              % (what, cycle, self._s.now), "FEROCE_E_TIME_BACKWARDS", "cycle")

    def cnp(self, cycle):
        self._call("cnp", _cnp, cycle)

    def tx(self, cycle, nbytes):
        self._call("tx", _tx, cycle, c.as_uint("bytes", nbytes, 64))

    def advance(self, cycle):
        self._call("advance", _advance, cycle)

    def next_deadline(self):
        t = _next_deadline(ctypes.byref(self._s), ctypes.byref(self.params))
        return None if t == c.FEROCE_NEVER else t

    def cycle_at(self, t_ns):
        return _cycle_at_checked(self.params, t_ns)

    def ns_at(self, cycle):
        return _ns_at_checked(self.params, cycle)

    now = property(lambda self: self._s.now, doc="cycle of the last call")
    rc = property(lambda self: self._s.cur.rc, doc="Rc register (LSBs)")
    rt = property(lambda self: self._s.cur.rt, doc="Rt register (LSBs)")
    alpha = property(lambda self: self._s.cur.alpha, doc="alpha register (2^-alpha_bits)")
    ts = property(lambda self: self._s.cur.ts)
    bs = property(lambda self: self._s.cur.bs)
    rc_bps = property(lambda self: self._s.cur.rc * self.params.fmt.rate_lsb_bps)
    rt_bps = property(lambda self: self._s.cur.rt * self.params.fmt.rate_lsb_bps)
    alpha_value = property(lambda self: self._s.cur.alpha / self.params.alpha_one)

    def registers(self):
        return {"rc": self.rc, "rt": self.rt, "alpha": self.alpha}


class Scoreboard:
    """The golden fixed-point reaction point beside a device under test: tell it every CNP and every
    transmitted byte count with the cycle the device saw it, offer the device's registers with
    check(); it compares them in each cycle with an event and every check_every cycles.

        sb = Scoreboard(fixed_params("connectx"), check_every=64)
        sb.cnp(cycle); sb.tx(cycle, 4154)
        assert sb.check(cycle, dut.rc, dut.rt, dut.alpha) is not False, sb.message()
    check() returns None (not compared), True (equal) or False (different; the first is kept in
    first_mismatch).  record_every > 0 keeps a row every that many cycles for write_csv()."""

    def __init__(self, params, check_every=0, compare=("rc", "rt", "alpha"), start=0, record_every=0):
        self.params = _as_params(params)
        if isinstance(compare, str) or not isinstance(compare, (list, tuple, set, frozenset)) or not compare:
            raise c._bad("compare", compare, "a non-empty list of names among rc, rt, alpha")
        mask = 0
        for name in compare:
            if name not in REG_NAMES.values():
                raise FeroceError("compare = %r is not allowed: expected names among rc, rt, alpha" % (name,),
                                  "FEROCE_E_BAD_VALUE", "compare")
            mask |= {v: k for k, v in REG_NAMES.items()}[name]
        self._sp = SbParams(c.as_time("check_every", check_every, unit=" of cycles"), mask)
        c.call_checked(_sb_validate, ctypes.byref(self._sp))
        self._s = SbState()
        _sb_init(ctypes.byref(self._s), ctypes.byref(self.params), c.as_time("start", start, unit=" (a cycle)"))
        self.record_every = c.as_time("record_every", record_every, unit=" of cycles")
        self.rows = []
        self._window_bytes = 0

    def _event(self, what, fn, cycle, *extra):
        cycle = c.as_time(what + ": cycle", cycle, unit=" (a cycle)")
        if fn(ctypes.byref(self._s), ctypes.byref(self.params), cycle, *extra):
            raise FeroceError("%s: cycle = %d is not allowed: expected >= %d (the cycle of the last call)"
                              % (what, cycle, self._s.golden.now), "FEROCE_E_TIME_BACKWARDS", "cycle")

    def cnp(self, cycle):
        self._event("cnp", _sb_cnp, cycle)

    def tx(self, cycle, nbytes):
        self._event("tx", _sb_tx, cycle, c.as_uint("bytes", nbytes, 64))
        self._window_bytes += nbytes

    def check(self, cycle, rc, rt, alpha):
        cycle = c.as_time("check: cycle", cycle, unit=" (a cycle)")
        regs = SbRegs(c.as_uint("rc", rc, 64), c.as_uint("rt", rt, 64), c.as_uint("alpha", alpha, 32))
        r = _sb_check(ctypes.byref(self._s), ctypes.byref(self.params), ctypes.byref(self._sp), cycle,
                      ctypes.byref(regs))
        if r == -2:
            raise FeroceError("check: cycle = %d is not allowed: expected >= %d (the cycle of the last call)"
                              % (cycle, self._s.golden.now), "FEROCE_E_TIME_BACKWARDS", "cycle")
        if self.record_every and (not self.rows or cycle - self.rows[-1][0] >= self.record_every):
            self._record(cycle, regs)
        return None if r == 0 else r == 1

    def _record(self, cycle, regs):
        p, g = self.params, self._s.golden.cur
        lsb, one = p.fmt.rate_lsb_bps, p.alpha_one
        span = cycle - self.rows[-1][0] if self.rows else 0
        gbps = self._window_bytes * 8 * p.fmt.clock_hz / span / 1e9 if span else 0.0
        self.rows.append((cycle, self.ns_at(cycle), regs.rc * lsb, g.rc * lsb, regs.rt * lsb, g.rt * lsb,
                          regs.alpha / one, g.alpha / one, gbps, self._s.cnps, self._s.mismatches))
        self._window_bytes = 0

    def ns_at(self, cycle):
        return _ns_at_checked(self.params, cycle)

    def cycle_at(self, t_ns):
        return _cycle_at_checked(self.params, t_ns)

    def next_timer(self):
        """The earliest cycle after the last call at which a timer of the golden model fires (alpha
        tick or expiry, decrease tick, increase expiry), or None: a bench that sleeps between events
        wakes there to compare every cycle in which a register can change."""
        g = self._s.golden
        if not g.cur.active:
            return None
        t = min(g.cur.next_alpha, g.cur.next_dec, g.cur.next_inc)
        return None if t >= c.FEROCE_NEVER else t

    @property
    def golden(self):
        g = self._s.golden.cur
        return {"rc": g.rc, "rt": g.rt, "alpha": g.alpha}

    compared = property(lambda self: self._s.compared)
    mismatches = property(lambda self: self._s.mismatches)
    cnps = property(lambda self: self._s.cnps, doc="CNPs given to the golden model")
    tx_bytes = property(lambda self: self._s.tx_bytes, doc="bytes given to the golden model")

    @property
    def first_mismatch(self):
        """None, or {cycle, t_ns, reg, expected, actual, golden, device} of the first failed comparison."""
        if not self._s.mismatches:
            return None
        m = self._s.first
        regs = lambda r: {"rc": r.rc, "rt": r.rt, "alpha": r.alpha}
        return {"cycle": m.cycle, "t_ns": self.ns_at(m.cycle), "reg": REG_NAMES[m.reg], "expected": m.expected,
                "actual": m.actual, "golden": regs(m.golden), "device": regs(m.device)}

    def message(self):
        buf = ctypes.create_string_buffer(512)
        _sb_message(ctypes.byref(self._s), ctypes.byref(self.params), buf, len(buf))
        return buf.value.decode()

    def write_csv(self, path):
        """The recorded rows in the columns of the HDL bench's CSV (plots/firmware-scoreboard.gp draws
        them); written to PATH.part and renamed, so a failure leaves no half-written file."""
        if not isinstance(path, (str, os.PathLike)):
            raise c._bad("path", path, "a file name")
        path = os.fspath(path)
        tmp = path + ".part"
        with open(tmp, "w") as fh:
            fh.write("cycle,t_ns,dut_rc_bps,golden_rc_bps,dut_rt_bps,golden_rt_bps,dut_alpha,golden_alpha,"
                     "tx_gbps,queue_bytes,cnps,mismatches\n")
            for r in self.rows:
                fh.write("%d,%d,%.3f,%.3f,%.3f,%.3f,%.9f,%.9f,%.6f,0,%d,%d\n" % r)
        os.replace(tmp, path)
