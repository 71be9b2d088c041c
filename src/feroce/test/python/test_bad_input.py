"""Every wrong type or value given to the package raises feroce.FeroceError naming the parameter
(never a ctypes or decoding error, a wrapped integer, a hang or a crash); time near the 64-bit
limit is refused or answered in bounded time (issue 23, items 7 and 8)."""
import signal

import pytest

import feroce
from feroce import wire

NOT_A_NUMBER = [None, "x", [], object(), b"1", True]
NOT_AN_INSTANT = NOT_A_NUMBER + [-1, 1.5, float("nan"), float("inf"), 2**62, 2**63 - 1, 2**63, 2**64, -2**63 - 1]
NOT_TEXT = [None, 7, 1.5, b"paper", ["paper"], "pa\0per", "\udcff"]
NOT_BYTES = [None, 5, -1, "frame", [1, 2], 1.5]


@pytest.fixture(autouse=True)
def bounded_time():
    """A call that hangs fails the test instead of the run (SIGALRM after 20 s)."""
    def timeout(signum, frame):
        raise TimeoutError("a call did not return within 20 s")
    old = signal.signal(signal.SIGALRM, timeout)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def refused(call, value, name):
    with pytest.raises(feroce.FeroceError) as e:
        call(value)
    assert name in str(e.value), str(e.value)
    assert "is not allowed" in str(e.value) or "is not a" in str(e.value), str(e.value)
    return str(e.value)


def test_freed_name_is_not_read():
    """The core's error keeps a pointer to the parameter's name: the package keeps the name alive
    (a temporary name.encode() used to be freed first, and the message read freed memory)."""
    for _ in range(200):
        with pytest.raises(feroce.FeroceError) as e:
            feroce.ReactionPoint("paper", byte_counter_bytes=-5)
        assert str(e.value) == ('byte_counter_bytes = "-5" is not allowed: expected a non-negative integer '
                                'number of bytes')
        assert e.value.param == "byte_counter_bytes" and e.value.code == "FEROCE_E_BAD_VALUE"
    with pytest.raises(feroce.FeroceError) as e:
        feroce.fixed_params("paper", fmt_overrides={"alpha_bits": "many"})
    assert e.value.param == "alpha_bits", str(e.value)


@pytest.mark.parametrize("value", NOT_AN_INSTANT, ids=repr)
def test_instants_are_checked_not_wrapped(value):
    rp = feroce.ReactionPoint("paper")
    for call, name in ((rp.cnp, "cnp: now"), (rp.advance, "advance: now"), (lambda v: rp.tx(v, 1), "tx: now"),
                       (lambda v: feroce.ReactionPoint("paper", now=v), "now")):
        if value == 2**62 and name != "now":
            continue  # 2^62 - 1 is the last instant; 2^62 is refused below
        refused(call, value, name)
    assert rp.now == 0  # nothing changed
    fx = feroce.FixedReactionPoint("connectx")
    sb = feroce.Scoreboard(fx.params)
    sw = feroce.EmulatedSwitch("paper")
    for call, name in ((fx.advance, "advance: cycle"), (fx.cycle_at, "t_ns"), (fx.ns_at, "cycle"),
                       (sb.cnp, "cnp: cycle"), (lambda v: sb.check(v, 0, 0, 0), "check: cycle"),
                       (sw.poll, "poll: now"), (sw.advance, "advance: now"),
                       (lambda v: feroce.NotificationPoint(interval_ns=0).on_ce(v), "now")):
        if value == 2**62 and name in ("advance: cycle", "cnp: cycle", "check: cycle", "cycle", "t_ns"):
            continue
        refused(call, value, name)


def test_the_last_instant_is_answered_in_bounded_time():
    rp = feroce.ReactionPoint("paper")
    rp.cnp(0)
    refused(rp.advance, 2**63 - 1, "advance: now")  # used to loop for ever
    refused(rp.advance, 2**62, "advance: now")
    rp.advance(feroce.FEROCE_TIME_MAX)
    assert rp.rc == 10e9 and rp.now == feroce.FEROCE_TIME_MAX
    fx = feroce.FixedReactionPoint("connectx")
    fx.cnp(0)
    fx.advance(feroce.FEROCE_TIME_MAX)
    fast = feroce.FixedReactionPoint("connectx", fmt_overrides={"clock_hz": 10**10})
    refused(fast.cycle_at, feroce.FEROCE_TIME_MAX, "t_ns")  # its cycle would be beyond 2^62 - 1
    assert fx.ns_at(1000) == 6400
    rows = feroce.run_script("0 cnp\n%d query\n" % feroce.FEROCE_TIME_MAX)
    assert rows[-1][0] == feroce.FEROCE_TIME_MAX
    with pytest.raises(feroce.FeroceError, match=r"line 2: advance: now = 9223372036854775000 is not allowed"):
        feroce.run_script("0 cnp\n9223372036854775000 query\n")


@pytest.mark.parametrize("value", NOT_TEXT, ids=repr)
def test_names_must_be_text(value):
    refused(lambda v: feroce.ReactionPoint(v), value, "preset")
    refused(lambda v: feroce.fixed_params("paper", fmt=v), value, "format")
    refused(lambda v: feroce.EmulatedSwitch(v), value, "switch preset")
    if value is not None:  # None: no preset, the values given one by one
        refused(lambda v: feroce.NotificationPoint(v), value, "np preset")
        refused(lambda v: feroce.CongestionPoint(v), value, "cp preset")
    if not isinstance(value, (int, float)):  # numbers are values of a parameter
        refused(lambda v: feroce.ReactionPoint("paper", g=v), value, "g")
        refused(lambda v: feroce.fixed_params("paper", fmt_overrides={"rounding": v}), value, "rounding")


@pytest.mark.parametrize("value", NOT_A_NUMBER, ids=repr)
def test_numbers_must_be_numbers(value):
    refused(lambda v: feroce.ReactionPoint("paper", line_rate_bps=v), value, "line_rate_bps")
    refused(lambda v: feroce.CongestionPoint(kmin_bytes=1, kmax_bytes=2, pmax=v), value, "pmax")
    refused(lambda v: feroce.CongestionPoint("paper").mark(100, v), value, "u")
    refused(lambda v: feroce.EmulatedSwitch("paper", egress_rate_bps=v), value, "egress_rate_bps")
    refused(lambda v: feroce.EmulatedSwitch("paper", senders=v), value, "senders")
    refused(lambda v: feroce.ReactionPoint("paper").tx(0, v), value, "bytes")
    refused(lambda v: feroce.Scoreboard(feroce.fixed_params(), check_every=v), value, "check_every")
    refused(lambda v: wire.build(wire.OP_SEND_ONLY, psn=v), value, "psn")


@pytest.mark.parametrize("value", [-1, 2**24, 2**64, -2**63 - 1], ids=repr)
def test_integers_out_of_range_are_not_wrapped(value):
    refused(lambda v: wire.build(wire.OP_SEND_ONLY, destqp=v), value, "destqp")
    refused(lambda v: feroce.EmulatedSwitch("paper", dut_qpn=v), value, "dut_qpn")
    refused(lambda v: feroce.ReactionPoint("paper").tx(0, v), value, "bytes") if value < 0 or value >= 2**64 else None
    refused(lambda v: feroce.Scoreboard(feroce.fixed_params()).check(0, v, 0, 0), value, "rc") \
        if value < 0 or value >= 2**64 else None


@pytest.mark.parametrize("value", NOT_BYTES, ids=repr)
def test_frames_must_be_bytes(value):
    refused(lambda v: wire.parse(v), value, "data")
    refused(lambda v: wire.icrc_ok(v), value, "data")
    refused(lambda v: wire.build(wire.OP_SEND_ONLY, v), value, "payload")
    refused(lambda v: feroce.EmulatedSwitch("paper").dut_frame(0, v), value, "frame")


def test_containers_and_objects_of_the_wrong_kind():
    refused(lambda v: feroce.EmulatedSwitch("paper", sender_rp=v), [("g", 1)], "sender_rp")
    refused(lambda v: feroce.fixed_params("paper", fmt_overrides=v), "rounding=nearest", "fmt_overrides")
    refused(lambda v: feroce.Scoreboard(v), feroce.rp_params(), "params")
    refused(lambda v: feroce.FixedReactionPoint(params=v), {"rc": 1}, "params")
    refused(lambda v: feroce.Scoreboard(feroce.fixed_params(), compare=v), "rc", "compare")
    refused(lambda v: feroce.Scoreboard(feroce.fixed_params(), compare=v), [], "compare")
    refused(lambda v: feroce.Scoreboard(feroce.fixed_params(), compare=v), ["rc", "ts"], "compare")
    refused(lambda v: feroce.Scoreboard(feroce.fixed_params()).write_csv(v), 3, "path")
    refused(lambda v: feroce.run_script(v), None, "text")
    refused(lambda v: wire.build(wire.OP_SEND_ONLY, src_ip=v), True, "src_ip")
    refused(lambda v: wire.build(wire.OP_SEND_ONLY, dst_mac=v), "aa:bb", "dst_mac")
    refused(lambda v: wire.build(v), "0x04", "opcode")
    with pytest.raises(feroce.FeroceError, match="gain is not a parameter|param = \"gain\""):
        feroce.EmulatedSwitch("paper", gain=1)


def test_script_lines_are_named():
    for text, line in (("0 cnp\n1\u00b2 query\n", 2), ("0 cnp\n10 tx \u00b2\n", 2), ("0 cnp\n-5 query\n", 2),
                       ("param line_rate_bps fast\n0 cnp\n", None)):
        with pytest.raises(feroce.FeroceError) as e:
            feroce.run_script(text)
        assert line is None or str(e.value).startswith("line %d: " % line), str(e.value)
