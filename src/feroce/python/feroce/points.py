"""The DCQCN notification point (CNP moderation) and congestion point (ECN marking)."""
import ctypes

from . import _lib
from ._lib import FeroceError

ECN_NOT_ECT, ECN_ECT1, ECN_ECT0, ECN_CE = 0, 1, 2, 3
_SCOPES = {"per_qp": 0, "per_port": 1}
_POINTS = {"dequeue": 0, "enqueue": 1}


def _enum(name, value, table):
    if isinstance(value, str) and value in table:
        return table[value]
    if isinstance(value, int) and not isinstance(value, bool) and value in table.values():
        return value
    raise FeroceError("%s = %r is not allowed: expected %s" % (name, value, " or ".join(table)),
                      "FEROCE_E_BAD_VALUE", name)


def np_params(preset=None, interval_ns=None, scope=None):
    p = _lib.NpParams()
    if preset is not None:
        _lib.call_checked(_lib.np_preset, ctypes.byref(p), _lib.as_text("np preset", preset, "paper or hpcc"))
    elif interval_ns is None:
        raise FeroceError("interval_ns = None is not allowed: expected a preset (paper, hpcc) or an interval "
                          "in ns", "FEROCE_E_BAD_VALUE", "interval_ns")
    if interval_ns is not None:
        p.interval_ns = _lib.as_int("np_interval_ns", interval_ns, -2**63, _lib.FEROCE_TIME_MAX, " number of ns")
    if scope is not None:
        p.scope = _enum("np_scope", scope, _SCOPES)
    _lib.call_checked(_lib.np_validate, ctypes.byref(p))
    return p


class NotificationPoint:
    """A receiver's CNP moderation for one QP (or one port, scope per_port): on_ce(now) says
    whether a CE-marked packet arriving at now is answered with a CNP."""

    def __init__(self, preset=None, interval_ns=None, scope=None):
        self.params = np_params(preset, interval_ns, scope)
        self._s = _lib.NpState()

    def on_ce(self, now):
        return bool(_lib.np_on_ce(ctypes.byref(self.params), ctypes.byref(self._s), _lib.as_time("now", now)))

    @property
    def last_cnp(self):
        return self._s.last_cnp if self._s.sent else None


def cp_params(preset=None, line_rate_bps=10e9, kmin_bytes=None, kmax_bytes=None, pmax=None, point=None):
    p = _lib.CpParams()
    if preset is not None:
        _lib.call_checked(_lib.cp_preset, ctypes.byref(p), _lib.as_text("cp preset", preset, "paper or hpcc"),
                          _lib.as_real("line_rate_bps", line_rate_bps))
    elif None in (kmin_bytes, kmax_bytes, pmax):
        raise FeroceError("kmin_bytes, kmax_bytes, pmax = %r, %r, %r is not allowed: expected a preset "
                          "(paper, hpcc) or all three" % (kmin_bytes, kmax_bytes, pmax), "FEROCE_E_BAD_VALUE",
                          "kmin_bytes")
    if kmin_bytes is not None:
        p.kmin_bytes = _lib.as_uint("kmin_bytes", kmin_bytes, 64)
    if kmax_bytes is not None:
        p.kmax_bytes = _lib.as_uint("kmax_bytes", kmax_bytes, 64)
    if pmax is not None:
        p.pmax = _lib.as_real("pmax", pmax)
    if point is not None:
        p.point = _enum("mark_point", point, _POINTS)
    _lib.call_checked(_lib.cp_validate, ctypes.byref(p))
    return p


class CongestionPoint:
    """A switch egress queue's ECN marking (RED-like ramp Kmin..Kmax to Pmax).  The caller draws
    u uniform in [0, 1): mark(q_bytes, u) says whether to set CE."""

    def __init__(self, preset=None, line_rate_bps=10e9, kmin_bytes=None, kmax_bytes=None, pmax=None,
                 point=None):
        self.params = cp_params(preset, line_rate_bps, kmin_bytes, kmax_bytes, pmax, point)

    def probability(self, q_bytes):
        return _lib.cp_probability(ctypes.byref(self.params), _lib.as_uint("q_bytes", q_bytes, 64))

    def mark(self, q_bytes, u, ecn=ECN_ECT0, at=None):
        """1/0 decision at marking point `at` (default: the configured one) for a packet with this ECN
        field when the queue holds q_bytes, given the caller's uniform draw u in [0, 1)."""
        u = _lib.as_real("u", u)
        if not 0.0 <= u < 1.0:
            raise FeroceError("u = %r is not allowed: expected a uniform draw in [0, 1)" % u,
                              "FEROCE_E_BAD_VALUE", "u")
        at = self.params.point if at is None else _enum("at", at, _POINTS)
        ecn = _lib.as_uint("ecn", ecn, 2)
        return bool(_lib.cp_mark(ctypes.byref(self.params), at, ecn, _lib.as_uint("q_bytes", q_bytes, 64), u))
