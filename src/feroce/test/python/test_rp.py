"""The float reaction point through Python: the public known answers, errors by name."""
import glob
import os

import pytest

import feroce
from conftest import DATA


def expected_rows(path):
    rows = []
    with open(path) as fh:
        for line in fh:
            if line.startswith("#> ") and not line.startswith("#> t_ns"):
                rows.append(line[3:].strip())
    return rows


@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(DATA, "rp-*.txt"))))
def test_public_scripts_match_known_answers(path):
    with open(path) as fh:
        rows = feroce.run_script(fh.read())
    got = ["%d,%s,%.6f,%.6f,%.9f,%d,%d" % r for r in rows]
    want = expected_rows(path)
    assert len(want) > 5
    assert got == want


def test_connectx_first_cut():
    rp = feroce.ReactionPoint("connectx", line_rate_bps=10e9)
    assert rp.rc == 10e9 and rp.next_deadline() is None
    rp.cnp(0)
    assert rp.next_deadline() == 4000  # the decrease tick
    rp.advance(4000)
    assert rp.rc == pytest.approx(5101731461.016290, abs=1e-6)
    assert rp.rt == 10e9
    assert rp.state()["active"] is True


def test_overrides_by_script_name():
    rp = feroce.ReactionPoint("paper", 25e9, g=1 / 128, alpha_mode="periodic", decrease_period_ns=4000,
                              hai_mode="constant")
    p = feroce.rp.params_dict(rp.params)
    assert p["g"] == 1 / 128 and p["alpha_mode"] == "periodic" and p["hai_mode"] == "constant"
    assert p["line_rate_bps"] == 25e9


def test_bad_parameter_raises_core_message():
    with pytest.raises(feroce.FeroceError) as e:
        feroce.ReactionPoint("paper", g=2)
    assert str(e.value) == "g = 2 is not allowed: expected (0, 1]"
    assert e.value.code == "FEROCE_E_RP_G" and e.value.param == "g"
    with pytest.raises(feroce.FeroceError, match=r"min_rate_bps = 20000000000 is not allowed: expected \(0, line_rate_bps = 10000000000\]"):
        feroce.ReactionPoint("paper", min_rate_bps=20e9)


def test_unknown_names_are_refused():
    with pytest.raises(feroce.FeroceError, match='preset = "fast" is not allowed: expected paper, connectx or hpcc'):
        feroce.ReactionPoint("fast")
    with pytest.raises(feroce.FeroceError) as e:
        feroce.ReactionPoint("paper", gain=0.1)
    assert e.value.code == "FEROCE_E_UNKNOWN_PARAM" and "gain" in str(e.value)
    with pytest.raises(feroce.FeroceError, match="alpha_mode"):
        feroce.ReactionPoint("paper", alpha_mode="sometimes")


def test_time_must_not_go_back():
    rp = feroce.ReactionPoint("paper")
    rp.cnp(1000)
    with pytest.raises(feroce.FeroceError, match=r"cnp: now = 999 is not allowed: expected >= 1000"):
        rp.cnp(999)
    with pytest.raises(feroce.FeroceError, match=r"now = 1.5 is not allowed: expected an integer"):
        rp.advance(1.5)
    with pytest.raises(feroce.FeroceError, match=r"bytes = -1 is not allowed"):
        rp.tx(2000, -1)
    rp.tx(2000, 4096)  # still usable after refused calls
    assert rp.now == 2000


def test_bad_script_line_is_named():
    with pytest.raises(feroce.FeroceError, match="line 2"):
        feroce.run_script("preset paper\n0 jump\n")
