"""The emulated DCQCN switch and receiver around a device under test (feroce-emu-switch.h)."""
import ctypes

from . import _lib
from ._lib import FeroceError
from .points import cp_params, np_params
from .rp import rp_params

MAX_SENDERS = 16
QUEUE_CAP = 2048
OUT_CAP = 256
CNP_CAP = 256
FRAME_MAX = 80
TIME_MAX = _lib.FEROCE_TIME_MAX // 1000  # FEROCE_EMU_TIME_MAX: the switch's clock is in ps
CNP, ACK = 1, 2
c = _lib


class EmuParams(ctypes.Structure):
    _fields_ = [("egress_rate_bps", c.c_double), ("dut_link_rate_bps", c.c_double), ("senders", c.c_uint32),
                ("sender_rate_bps", c.c_double), ("sender_frame_len", c.c_uint32), ("sender_dcqcn", c.c_int),
                ("sender_rp", c.RpParams), ("cp", c.CpParams), ("np", c.NpParams), ("buffer_bytes", c.c_uint64),
                ("link_delay_ns", c.c_int64), ("np_delay_ns", c.c_int64), ("dut_qpn", c.c_uint32),
                ("seed", c.c_uint64)]


class EmuOutput(ctypes.Structure):
    _fields_ = [("t_ns", c.c_int64), ("kind", c.c_int), ("psn", c.c_uint32), ("len", c.c_uint32),
                ("frame", c.c_uint8 * FRAME_MAX)]


class EmuSlot(ctypes.Structure):
    _fields_ = [("bytes", c.c_uint32), ("psn", c.c_uint32), ("src", c.c_uint8), ("ecn", c.c_uint8),
                ("ackreq", c.c_uint8), ("marked", c.c_uint8)]


class EmuStats(ctypes.Structure):
    _fields_ = [("dut_frames", c.c_uint64), ("dut_bytes", c.c_uint64), ("sender_bytes", c.c_uint64 * MAX_SENDERS),
                ("dut_marked", c.c_uint64), ("sender_marked", c.c_uint64), ("dut_dropped", c.c_uint64),
                ("sender_dropped", c.c_uint64), ("cnps_to_dut", c.c_uint64), ("acks_to_dut", c.c_uint64),
                ("cnps_to_senders", c.c_uint64), ("answers_lost", c.c_uint64), ("queue_max_bytes", c.c_uint64)]


class EmuState(ctypes.Structure):
    _fields_ = [("now", c.c_int64), ("now_ps", c.c_int64), ("rng", c.c_uint64),
                ("queue", EmuSlot * QUEUE_CAP), ("q_head", c.c_uint32), ("q_count", c.c_uint32),
                ("q_bytes", c.c_uint64), ("busy_until_ps", c.c_int64),
                ("inflight", EmuSlot * QUEUE_CAP), ("inflight_at_ps", c.c_int64 * QUEUE_CAP),
                ("in_head", c.c_uint32), ("in_count", c.c_uint32), ("dut_link_free_ps", c.c_int64),
                ("np_qp", c.NpState * (MAX_SENDERS + 1)), ("np_port", c.NpState), ("msn", c.c_uint32),
                ("dut_mac", c.c_uint8 * 6), ("rx_mac", c.c_uint8 * 6), ("dut_ip", c.c_uint32), ("rx_ip", c.c_uint32),
                ("rp", c.RpState * MAX_SENDERS), ("next_send_ps", c.c_int64 * MAX_SENDERS),
                ("cnp_at_ps", c.c_int64 * CNP_CAP), ("cnp_to", c.c_uint8 * CNP_CAP), ("cnp_head", c.c_uint32),
                ("cnp_count", c.c_uint32), ("out", EmuOutput * OUT_CAP), ("out_head", c.c_uint32),
                ("out_count", c.c_uint32), ("stats", EmuStats)]


for _name, _mirror in {"feroce_emu_params": EmuParams, "feroce_emu_output": EmuOutput, "feroce_emu_slot": EmuSlot,
                       "feroce_emu_stats": EmuStats, "feroce_emu_state": EmuState}.items():
    c.check_mirror(_name, _mirror)

P = ctypes.POINTER
_preset = c._fn("feroce_emu_preset", c.c_int, P(EmuParams), c.c_char_p, P(c.Check))
_validate = c._fn("feroce_emu_validate", c.c_int, P(EmuParams), P(c.Check))
_init = c._fn("feroce_emu_init", None, P(EmuState), P(EmuParams), c.c_int64)
_dut_frame = c._fn("feroce_emu_dut_frame", c.c_int, P(EmuState), P(EmuParams), c.c_int64, ctypes.c_char_p,
                   c.c_size_t, P(c.Check))
_advance = c._fn("feroce_emu_advance", c.c_int, P(EmuState), P(EmuParams), c.c_int64)
_poll = c._fn("feroce_emu_poll", c.c_int, P(EmuState), P(EmuParams), c.c_int64, P(EmuOutput))
_take = c._fn("feroce_emu_take", c.c_int, P(EmuState), P(EmuParams), c.c_int64, P(EmuOutput))
_next_answer = c._fn("feroce_emu_next_answer", c.c_int64, P(EmuState))

_SIMPLE = ("egress_rate_bps", "dut_link_rate_bps", "senders", "sender_rate_bps", "sender_frame_len",
           "sender_dcqcn", "buffer_bytes", "link_delay_ns", "np_delay_ns", "dut_qpn", "seed")


class Answer:
    """A frame the receiver sends back to the DUT: t_ns (its first bit at the DUT's MAC),
    kind ("cnp" or "ack"), psn (ACK), frame (bytes, Ethernet without FCS)."""
    __slots__ = ("t_ns", "kind", "psn", "frame")

    def __init__(self, o):
        self.t_ns, self.psn = o.t_ns, o.psn
        self.kind = "cnp" if o.kind == CNP else "ack"
        self.frame = bytes(o.frame[:o.len])

    def __repr__(self):
        return "Answer(%s at %d ns, %d B)" % (self.kind, self.t_ns, len(self.frame))


class EmulatedSwitch:
    """An N:1 incast around a DUT: its frames (with the instant its MAC starts each) go into the
    switch's egress queue beside `senders` virtual senders; ECN marking and CNP moderation are the
    core's; CNPs (and ACKs for AckReq) come back as frames with the instant they reach the DUT.
    Time is an argument (integer ns, never decreasing): no event loop.

        sw = EmulatedSwitch("paper", senders=2, seed=7)
        sw.dut_frame(t, frame)            # the DUT's MAC starts a frame at t
        for a in sw.poll(t): drive(a)     # answers due at or before t
    Keyword overrides: any field of struct feroce_emu_params (egress_rate_bps, senders, ...),
    kmin_bytes, kmax_bytes, pmax, mark_point, np_interval_ns, np_scope, and sender_preset /
    sender_rp (a dict of reaction-point overrides) for the virtual senders' DCQCN."""

    def __init__(self, preset="paper", now=0, sender_preset=None, sender_rp=None, **overrides):
        p = EmuParams()
        c.call_checked(_preset, ctypes.byref(p), c.as_text("switch preset", preset, "paper or hpcc"))
        cp = {k: overrides.pop(k) for k in ("kmin_bytes", "kmax_bytes", "pmax", "mark_point") if k in overrides}
        if cp:
            cur = {"kmin_bytes": p.cp.kmin_bytes, "kmax_bytes": p.cp.kmax_bytes, "pmax": p.cp.pmax,
                   "point": p.cp.point}
            if "mark_point" in cp:
                cp["point"] = cp.pop("mark_point")
            cur.update(cp)
            p.cp = cp_params(**cur)
        np_ = {k[3:]: overrides.pop(k) for k in ("np_interval_ns", "np_scope") if k in overrides}
        if np_:
            p.np = np_params(interval_ns=np_.get("interval_ns", p.np.interval_ns), scope=np_.get("scope", p.np.scope))
        sender_rp = c.as_dict("sender_rp", sender_rp)
        if sender_preset is not None or sender_rp:
            p.sender_rp = rp_params("connectx" if sender_preset is None else sender_preset,
                                    overrides.get("sender_rate_bps", 10e9), **sender_rp)
        for key, value in overrides.items():
            if key not in _SIMPLE:
                raise FeroceError("%s is not a parameter of the emulated switch: expected one of %s" % (
                    key, ", ".join(_SIMPLE + ("kmin_bytes", "kmax_bytes", "pmax", "mark_point", "np_interval_ns",
                                              "np_scope", "sender_preset", "sender_rp"))),
                    "FEROCE_E_UNKNOWN_PARAM", key)
            ftype = dict(EmuParams._fields_)[key]
            if ftype is c.c_double:
                value = c.as_real(key, value)
            else:
                bits = 8 * ctypes.sizeof(ftype) - (1 if ftype is c.c_int64 else 0)
                value = c.as_int(key, value, 0, (1 << bits) - 1)
            setattr(p, key, value)
        c.call_checked(_validate, ctypes.byref(p))
        self.params = p
        self._s = EmuState()
        _init(ctypes.byref(self._s), ctypes.byref(p), c.as_time("now", now, TIME_MAX))

    def dut_frame(self, now, frame):
        """The DUT's MAC starts transmitting frame (bytes, without FCS) at now."""
        frame = c.as_bytes("frame", frame)
        c.call_checked(_dut_frame, ctypes.byref(self._s), ctypes.byref(self.params),
                       c.as_time("dut_frame: now", now, TIME_MAX), frame, len(frame))

    def advance(self, now):
        now = c.as_time("advance: now", now, TIME_MAX)
        if _advance(ctypes.byref(self._s), ctypes.byref(self.params), now):
            raise c.time_error("advance", now, self._s.now)

    def poll(self, now):
        """Every answer that reaches the DUT at or before now, in time order (a list of Answer)."""
        now = c.as_time("poll: now", now, TIME_MAX)
        if now < self._s.now:
            raise c.time_error("poll", now, self._s.now)
        out, o = [], EmuOutput()
        while _poll(ctypes.byref(self._s), ctypes.byref(self.params), now, ctypes.byref(o)):
            out.append(Answer(o))
        return out

    def take(self, until):
        """Every answer that reaches the DUT at or before `until`, without running the switch (a
        bench holding the switch at the first byte of a DUT frame it has not read whole); until
        must not pass the horizon, now + 2 x link_delay_ns, up to which every answer is known."""
        until = c.as_time("take: until", until, TIME_MAX)
        if until > self.horizon:
            raise FeroceError("take: until = %d is not allowed: expected <= %d ns (now + 2 x link_delay_ns: "
                              "answers beyond are not known yet)" % (until, self.horizon), "FEROCE_E_BAD_VALUE",
                              "until")
        out, o = [], EmuOutput()
        while _take(ctypes.byref(self._s), ctypes.byref(self.params), until, ctypes.byref(o)):
            out.append(Answer(o))
        return out

    @property
    def horizon(self):
        """The instant up to which every answer to the DUT is known (now + 2 x link_delay_ns)."""
        return self._s.now + 2 * self.params.link_delay_ns

    def next_answer(self):
        """Instant of the next answer already known, or None."""
        t = _next_answer(ctypes.byref(self._s))
        return None if t == c.FEROCE_NEVER else t

    @property
    def now(self):
        return self._s.now

    @property
    def queue_bytes(self):
        return self._s.q_bytes

    def stats(self):
        st = self._s.stats
        d = {name: getattr(st, name) for name, _ in EmuStats._fields_ if name != "sender_bytes"}
        d["sender_bytes"] = list(st.sender_bytes[:self.params.senders])
        return d
