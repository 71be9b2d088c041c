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


class Script:
    """A rate-limiter script (dcqcn.md, "Rate-limiter trace format") read and checked line by
    line: preset, params (text, as the script gives them), line_rate_bps, and the events as
    (line number, t_ns, "cnp" | "tx" | "query", bytes).  A bad line raises FeroceError naming it."""

    def __init__(self, text):
        if not isinstance(text, str):
            raise _lib._bad("text", text, "the script as a str")
        self.preset, self.params, self.events = "paper", {}, []
        for lineno, raw in enumerate(text.splitlines(), 1):
            words = raw.split("#", 1)[0].split()
            if not words:
                continue
            if words[0] == "preset" and len(words) == 2:
                self.preset = words[1]
            elif words[0] == "param" and len(words) == 3:
                self.params[words[1]] = words[2]
            elif len(words) >= 2 and _INTEGER.fullmatch(words[0]):
                ev = words[1:]
                if ev in (["cnp"], ["query"]):
                    self.events.append((lineno, int(words[0]), ev[0], 0))
                elif len(ev) == 2 and ev[0] == "tx" and _INTEGER.fullmatch(ev[1]):
                    self.events.append((lineno, int(words[0]), "tx", int(ev[1])))
                else:
                    raise FeroceError("line %d: event %r is not allowed: expected cnp, tx <bytes> or query"
                                      % (lineno, " ".join(ev)), "FEROCE_E_BAD_VALUE", "event")
            else:
                raise FeroceError("line %d: %r is not allowed: expected preset, param or <t_ns> cnp|tx|query"
                                  % (lineno, raw.strip()), "FEROCE_E_BAD_VALUE", "line")
        text_rate = self.params.pop("line_rate_bps", "10e9")
        try:
            self.line_rate_bps = float(text_rate)
        except ValueError:
            raise FeroceError('line_rate_bps = "%s" is not allowed: expected a finite number' % text_rate,
                              "FEROCE_E_BAD_VALUE", "line_rate_bps") from None


def run_script(text):
    """Run a rate-limiter script (Script) on the float model; returns the rows the trace tool
    prints, as tuples (t_ns, event, rc, rt, alpha, ts, bs).  A bad line raises FeroceError naming it."""
    script = Script(text)
    rp = ReactionPoint(script.preset, script.line_rate_bps, **script.params)
    rows = []
    for lineno, t, event, nbytes in script.events:
        try:
            if event == "cnp":
                rp.cnp(t)
            elif event == "tx":
                rp.tx(t, nbytes)
            else:
                rp.advance(t)
        except FeroceError as e:
            raise FeroceError("line %d: %s" % (lineno, e), e.code, e.param) from None
        rows.append((t, event, rp.rc, rp.rt, rp.alpha, rp.ts, rp.bs))
    return rows


_INTEGER = re.compile(r"-?[0-9]+")
