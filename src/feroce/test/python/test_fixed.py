"""The fixed-point reaction point and the scoreboard through Python, as a cocotb bench would use
them: time as an argument, a software DUT in a closed loop with the emulated switch."""
import os
import shutil
import subprocess

import pytest

import feroce
from feroce import wire

FRAME = wire.build(wire.OP_WRITE_MIDDLE, bytes(4096), src_ip="10.0.0.1", dst_ip="10.0.0.2", destqp=3)


def test_fixed_registers_follow_the_float_model():
    fx = feroce.FixedReactionPoint("connectx")
    fl = feroce.ReactionPoint("connectx")
    assert fx.rc == fx.params.line == 1 << 31 and fx.params.fmt.clock_hz == 156250000
    fx.cnp(0)
    fl.cnp(0)
    fx.advance(fx.cycle_at(4000))
    fl.advance(fx.ns_at(fx.cycle_at(4000)))
    assert isinstance(fx.rc, int) and fx.rc < fx.params.line
    assert fx.rc_bps == pytest.approx(fl.rc, rel=1e-4)
    assert fx.alpha_value == pytest.approx(fl.alpha, rel=1e-3)


def test_bad_formats_are_refused_by_name():
    with pytest.raises(feroce.FeroceError) as e:
        feroce.fixed_params("paper", g=1 / 3)
    assert e.value.param == "g" and "is not allowed" in str(e.value)
    with pytest.raises(feroce.FeroceError) as e:
        feroce.fixed_params("paper", alpha_period_ns=1)
    assert e.value.param == "alpha_period_ns" and "is not allowed" in str(e.value)
    with pytest.raises(feroce.FeroceError) as e:
        feroce.fixed_params("paper", fmt_overrides={"rate_bits": 16, "rate_lsb_bps": 1000})
    assert e.value.param == "line_rate_bps" and "is not allowed" in str(e.value)
    with pytest.raises(feroce.FeroceError, match='format = "fpga9000" is not allowed: expected default or surf'):
        feroce.fixed_params("paper", fmt="fpga9000")
    with pytest.raises(feroce.FeroceError, match="check_every"):
        feroce.Scoreboard(feroce.fixed_params(), check_every=-1)
    with pytest.raises(feroce.FeroceError, match="compare"):
        feroce.Scoreboard(feroce.fixed_params(), compare=("rc", "ts"))


def closed_loop(dut, sb, cycles=156250 * 2, record=None):
    """A 3:1 incast for `cycles` cycles: the DUT (a FixedReactionPoint) paces 4 KiB frames into the
    emulated switch, CNPs come back; the scoreboard sees what the DUT sees."""
    sw = feroce.EmulatedSwitch("paper", senders=2, seed=11)
    credit, mac_free = 0, 0
    cost = (len(FRAME) + 24) * round(8 * dut.params.fmt.clock_hz / dut.params.fmt.rate_lsb_bps)
    failed = None
    cycle = 0
    while cycle < cycles:
        t = dut.ns_at(cycle)
        for a in sw.poll(t):
            dut.cnp(cycle)
            sb.cnp(cycle)
        if credit >= 0 and cycle >= mac_free:
            sw.dut_frame(t, FRAME)
            dut.tx(cycle, len(FRAME))
            sb.tx(cycle, len(FRAME))
            credit -= cost
            mac_free = cycle + 523
        dut.advance(cycle)
        if sb.check(cycle, dut.rc, dut.rt, dut.alpha) is False and failed is None:
            failed = cycle
        # a cocotb bench would await a clock edge; here the next event is at most 64 cycles on
        step = 64
        credit = min(0, credit + dut.rc * step)
        cycle += step
    return failed, sw


def test_scoreboard_agrees_with_a_correct_dut_and_writes_its_picture(tmp_path):
    p = feroce.fixed_params("connectx")
    sb = feroce.Scoreboard(p, check_every=64, record_every=1024)
    failed, sw = closed_loop(feroce.FixedReactionPoint(params=p), sb)
    assert failed is None and sb.first_mismatch is None, sb.message()
    assert sb.compared > 4000 and sw.stats()["cnps_to_dut"] > 3
    assert sb.message().startswith("no mismatch in ")
    csv = str(tmp_path / "sb.csv")
    sb.write_csv(csv)
    assert open(csv).readline().startswith("cycle,t_ns,dut_rc_bps,golden_rc_bps")
    if shutil.which("gnuplot"):
        gp = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "plots", "firmware-scoreboard.gp")
        png = str(tmp_path / "sb.png")
        subprocess.run(["gnuplot", "-e", "in='%s'" % csv, "-e", "out='%s'" % png, gp], check=True)
        assert os.path.getsize(png) > 10000


def test_scoreboard_catches_a_dut_that_rounds_differently():
    p = feroce.fixed_params("connectx")
    dut = feroce.FixedReactionPoint("connectx", fmt_overrides={"rounding": "nearest"})
    sb = feroce.Scoreboard(p, check_every=64)
    failed, _ = closed_loop(dut, sb)
    m = sb.first_mismatch
    assert failed is not None and m is not None and m["cycle"] == failed
    assert m["reg"] in ("rc", "rt", "alpha") and m["expected"] != m["actual"]
    assert sb.message().startswith("first mismatch at cycle %d (%d ns): %s expected" % (m["cycle"], m["t_ns"], m["reg"]))


def test_scoreboard_time_and_values_are_checked():
    sb = feroce.Scoreboard(feroce.fixed_params())
    sb.cnp(100)
    with pytest.raises(feroce.FeroceError, match="cnp: cycle = 99 is not allowed"):
        sb.cnp(99)
    with pytest.raises(feroce.FeroceError, match="rc = -1 is not allowed"):
        sb.check(100, -1, 0, 0)
    assert sb.check(100, **sb.golden) is True
    assert sb.check(101, **sb.golden) is None  # no event, no periodic check
