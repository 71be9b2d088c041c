"""Notification point and congestion point through Python."""
import pytest

import feroce


def test_np_moderation_per_interval():
    np_ = feroce.NotificationPoint(interval_ns=50000)
    assert np_.last_cnp is None
    assert np_.on_ce(0) is True
    assert np_.on_ce(49999) is False
    assert np_.on_ce(50000) is True
    assert np_.last_cnp == 50000


def test_np_presets_and_errors():
    hpcc = feroce.NotificationPoint("hpcc")
    assert all(hpcc.on_ce(t) for t in (0, 1, 2))
    with pytest.raises(feroce.FeroceError, match=r"np_interval_ns = -1 is not allowed: expected >= 0 ns"):
        feroce.NotificationPoint(interval_ns=-1)
    with pytest.raises(feroce.FeroceError, match="np_scope"):
        feroce.NotificationPoint(interval_ns=0, scope="per_switch")
    with pytest.raises(feroce.FeroceError, match='np preset = "fast"'):
        feroce.NotificationPoint("fast")


def test_cp_ramp_and_draw():
    cp = feroce.CongestionPoint(kmin_bytes=5000, kmax_bytes=200000, pmax=0.01)
    assert cp.probability(5000) == 0.0
    assert cp.probability(102500) == pytest.approx(0.005)
    assert cp.probability(200000) == pytest.approx(0.01)
    assert cp.probability(200001) == 1.0
    assert cp.mark(102500, 0.0049) is True
    assert cp.mark(102500, 0.0051) is False
    assert cp.mark(300000, 0.999) is True
    assert cp.mark(300000, 0.5, ecn=feroce.ECN_NOT_ECT) is False
    assert cp.mark(300000, 0.5, at="enqueue") is False  # only at the configured marking point


def test_cp_preset_and_errors():
    cp = feroce.CongestionPoint("hpcc", line_rate_bps=10e9)
    assert (cp.params.kmin_bytes, cp.params.kmax_bytes, cp.params.pmax) == (40000, 160000, 0.2)
    with pytest.raises(feroce.FeroceError, match=r"kmin_bytes = 300000 is not allowed: expected <= kmax_bytes = 200000"):
        feroce.CongestionPoint(kmin_bytes=300000, kmax_bytes=200000, pmax=0.01)
    with pytest.raises(feroce.FeroceError, match=r"pmax = 1.5 is not allowed: expected \[0, 1\]"):
        feroce.CongestionPoint(kmin_bytes=0, kmax_bytes=1, pmax=1.5)
    with pytest.raises(feroce.FeroceError, match=r"u = 1.0 is not allowed"):
        cp.mark(100, 1.0)
