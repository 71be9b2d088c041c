"""The DCQCN reaction point (src/feroce/doc/dcqcn.md), double precision: the core's feroce_rp_*."""
import ctypes
import re

from . import _lib
from ._lib import FeroceError

PARAM_NAMES = ("line_rate_bps", "min_rate_bps", "g", "initial_alpha", "alpha_mode", "alpha_period_ns",
               "decrease_period_ns", "increase_timer_ns", "byte_counter_bytes", "F", "rai_bps", "rhai_bps",
               "hai_mode", "clamp", "first_cnp_rate_bps")

_ENUM_NAMES = {"alpha_mode": _lib.alpha_mode_name, "hai_mode": _lib.hai_mode_name, "clamp": _lib.clamp_name}


def rp_params(preset="paper", line_rate_bps=10e9, **overrides):
    """A validated struct feroce_rp_params: a preset (paper, connectx, hpcc) at a line rate, then
    overrides by their script names (dcqcn.md), numbers or enum names ("periodic", "linear", ...)."""
    p = _lib.RpParams()
    name = _lib.as_text("preset", preset, "a preset name: paper, connectx or hpcc")
    _lib.call_checked(_lib.rp_preset, ctypes.byref(p), name, _lib.as_real("line_rate_bps", line_rate_bps))
    for key, value in overrides.items():
        _lib.call_checked(_lib.rp_set_param, ctypes.byref(p), _lib.as_text("param", key),
                          _lib.param_text(key, value))
    _lib.call_checked(_lib.rp_validate, ctypes.byref(p))
    return p


def params_dict(p):
    """The parameters as {script name: value}, enums by name."""
    out = {}
    for name in PARAM_NAMES:
        v = getattr(p, name)
        out[name] = _ENUM_NAMES[name](v).decode() if name in _ENUM_NAMES else v
    return out


class ReactionPoint:
    """One QP's rate limiter.  Time is an argument of every call (integer ns, never
    decreasing): no event loop, so a cocotb coroutine or any test bench can drive it.

        rp = ReactionPoint("connectx", line_rate_bps=10e9)
        rp.cnp(0); rp.advance(4000); rp.rc  -> 5101731461.01629
    """

    def __init__(self, preset="paper", line_rate_bps=10e9, now=0, **overrides):
        self.params = rp_params(preset, line_rate_bps, **overrides)
        self._s = _lib.RpState()
        _lib.rp_init(ctypes.byref(self._s), ctypes.byref(self.params), _lib.as_time("now", now))

    def _call(self, what, fn, now, *extra):
        now = _lib.as_time(what + ": now", now)
        if fn(ctypes.byref(self._s), ctypes.byref(self.params), now, *extra) != 0:
            raise _lib.time_error(what, now, self._s.now)

    def cnp(self, now):
        """A CNP arrives at now."""
        self._call("cnp", _lib.rp_cnp, now)

    def tx(self, now, nbytes):
        """The QP transmitted nbytes at now (the byte counter)."""
        self._call("tx", _lib.rp_tx, now, _lib.as_uint("bytes", nbytes, 64))

    def advance(self, now):
        """Bring the state to now (every timer up to and including now)."""
        self._call("advance", _lib.rp_advance, now)

    def next_deadline(self):
        """Earliest instant a timer can change the rate, or None."""
        t = _lib.rp_next_deadline(ctypes.byref(self._s), ctypes.byref(self.params))
        return None if t == _lib.FEROCE_NEVER else t

    @property
    def now(self):
        return self._s.now

    rc = property(lambda self: self._s.cur.rc, doc="current rate, b/s")
    rt = property(lambda self: self._s.cur.rt, doc="target rate, b/s")
    alpha = property(lambda self: self._s.cur.alpha)
    ts = property(lambda self: self._s.cur.ts, doc="timer stage")
    bs = property(lambda self: self._s.cur.bs, doc="byte stage")

    def state(self):
        """The registers as a dict: rc, rt, alpha, ts, bs, byte_acc, active."""
        v = self._s.cur
        return {"rc": v.rc, "rt": v.rt, "alpha": v.alpha, "ts": v.ts, "bs": v.bs, "byte_acc": v.byte_acc,
                "active": bool(v.active)}


def run_script(text):
    """Run a rate-limiter script (dcqcn.md, "Rate-limiter trace format") on the float model;
    returns the rows the trace tool prints, as tuples (t_ns, event, rc, rt, alpha, ts, bs).
    A bad line raises FeroceError naming it."""
    if not isinstance(text, str):
        raise _lib._bad("text", text, "the script as a str")
    preset, overrides, events = "paper", {}, []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].split()
        if not line:
            continue
        if line[0] == "preset" and len(line) == 2:
            preset = line[1]
        elif line[0] == "param" and len(line) == 3:
            overrides[line[1]] = line[2]
        elif len(line) >= 2 and _INTEGER.fullmatch(line[0]):
            events.append((lineno, int(line[0]), line[1:]))
        else:
            raise FeroceError("line %d: %r is not allowed: expected preset, param or <t_ns> cnp|tx|query"
                              % (lineno, raw.strip()), "FEROCE_E_BAD_VALUE", "line")
    line_rate = overrides.pop("line_rate_bps", "10e9")
    rp = ReactionPoint(preset, _lib.as_real("line_rate_bps", _script_number(line_rate)), **overrides)
    rows = []
    for lineno, t, ev in events:
        try:
            if ev[0] == "cnp" and len(ev) == 1:
                rp.cnp(t)
            elif ev[0] == "tx" and len(ev) == 2 and _INTEGER.fullmatch(ev[1]):
                rp.tx(t, int(ev[1]))
            elif ev[0] == "query" and len(ev) == 1:
                rp.advance(t)
            else:
                raise FeroceError("event %r is not allowed: expected cnp, tx <bytes> or query" % " ".join(ev),
                                  "FEROCE_E_BAD_VALUE", "event")
        except FeroceError as e:
            raise FeroceError("line %d: %s" % (lineno, e), e.code, e.param) from None
        rows.append((t, ev[0], rp.rc, rp.rt, rp.alpha, rp.ts, rp.bs))
    return rows


_INTEGER = re.compile(r"-?[0-9]+")


def _script_number(text):
    try:
        return float(text)
    except ValueError:
        raise FeroceError('line_rate_bps = "%s" is not allowed: expected a finite number' % text,
                          "FEROCE_E_BAD_VALUE", "line_rate_bps") from None
