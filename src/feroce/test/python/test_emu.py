"""The emulated switch through Python: a closed loop with a software DUT (the float reaction
point pacing 4 KiB WRITEs) in a 3:1 incast, answers as real frames, errors by name."""
import pytest

import feroce
from feroce import wire

FRAME = wire.build(wire.OP_WRITE_MIDDLE, bytes(4096), src_mac="02:00:00:00:00:01", dst_mac="02:00:00:00:00:02",
                   src_ip="10.0.0.1", dst_ip="10.0.0.2", destqp=5)


def closed_loop(seed, duration_ns=3000000, **overrides):
    sw = feroce.EmulatedSwitch("paper", seed=seed, dut_qpn=0x42, **overrides)
    rp = feroce.ReactionPoint("connectx")
    bits = (len(FRAME) + 24) * 8
    t, cnps, late = 0.0, 0, 0
    while t < duration_ns:
        now = int(t)
        for a in sw.poll(now):
            f = wire.parse(a.frame)
            assert a.kind == "cnp" and f.opcode == wire.OP_CNP and f.destqp == 0x42 and f.icrc_ok
            assert f.dst_ip == "10.0.0.1" and f.dscp == 48
            late = max(late, now - a.t_ns)
            rp.cnp(a.t_ns)
            cnps += 1
        rp.advance(now)
        sw.dut_frame(now, FRAME)
        rp.tx(now, len(FRAME))
        t += bits / min(10e9, rp.rc) * 1e9
    return sw, rp, cnps, late


def test_incast_slows_the_dut_to_its_share():
    sw, rp, cnps, late = closed_loop(seed=1)
    st = sw.stats()
    assert cnps == st["cnps_to_dut"] - len(sw.poll(sw.now)) > 5
    assert rp.rc < 9e9  # the DUT was cut
    total = st["dut_bytes"] + sum(st["sender_bytes"])
    assert total > 0.9 * 3e-3 * 10e9 / 8 * 0.9  # the bottleneck stays busy
    share = st["dut_bytes"] / total
    assert 0.2 < share < 0.5, share  # about a third each
    assert st["dut_dropped"] == 0 and st["sender_dropped"] == 0 and st["answers_lost"] == 0


def test_same_seed_same_run():
    a = closed_loop(seed=5, duration_ns=1000000)[0].stats()
    b = closed_loop(seed=5, duration_ns=1000000)[0].stats()
    assert a == b


def test_ack_answers_ackreq_frames():
    sw = feroce.EmulatedSwitch("hpcc", senders=0)
    sw.dut_frame(0, wire.build(wire.OP_WRITE_ONLY, b"z" * 100, psn=99, ackreq=1, src_ip="10.0.0.9"))
    assert sw.poll(5000) == [] and sw.next_answer() is not None
    (a,) = sw.poll(sw.next_answer())
    f = wire.parse(a.frame)
    assert a.kind == "ack" and a.psn == 99 and f.opcode == wire.OP_ACK and f.psn == 99 and f.dst_ip == "10.0.0.9"


def test_errors_name_the_parameter():
    with pytest.raises(feroce.FeroceError, match="senders = 17 is not allowed: expected 0..16"):
        feroce.EmulatedSwitch(senders=17)
    with pytest.raises(feroce.FeroceError, match=r"pmax = 3 is not allowed: expected \[0, 1\]"):
        feroce.EmulatedSwitch(pmax=3)
    with pytest.raises(feroce.FeroceError, match="g = 0 is not allowed"):
        feroce.EmulatedSwitch(sender_rp={"g": 0})
    with pytest.raises(feroce.FeroceError, match="speed is not a parameter of the emulated switch"):
        feroce.EmulatedSwitch(speed=1)
    sw = feroce.EmulatedSwitch()
    with pytest.raises(feroce.FeroceError, match='frame = "FEROCE_WIRE_NOT_IPV4" is not allowed'):
        sw.dut_frame(0, b"\0" * 20)
    sw.advance(100)
    with pytest.raises(feroce.FeroceError, match="now = 99 is not allowed"):
        sw.dut_frame(99, FRAME)
    with pytest.raises(feroce.FeroceError, match="poll: now = 50 is not allowed"):
        sw.poll(50)


def test_take_answers_without_running_the_switch():
    """A bench that holds the switch at a DUT frame's first byte still gets each answer in time."""
    sw = feroce.EmulatedSwitch("paper", senders=0, dut_qpn=0x11)
    frame = wire.build(wire.OP_WRITE_MIDDLE, bytes(4096), src_ip="10.0.0.1", dst_ip="10.0.0.2", destqp=0x22, psn=7,
                       ackreq=1)
    sw.dut_frame(100, frame)
    sw.advance(9923)
    assert sw.horizon == 11923 and sw.next_answer() == 11923
    assert sw.take(11922) == []
    (ack,) = sw.take(11923)
    assert ack.kind == "ack" and ack.psn == 7 and sw.now == 9923
    with pytest.raises(feroce.FeroceError, match=r"take: until = 11924 is not allowed: expected <= 11923 ns"):
        sw.take(11924)
