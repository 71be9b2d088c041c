"""The wire codec through Python: known-answer frames, round trips, every opcode, errors."""
import os

import pytest

import feroce
from feroce import wire
from conftest import DATA, read_vectors

VECTORS = read_vectors(os.path.join(DATA, "icrc.txt"))


def test_known_frames_parse_with_good_icrc_and_rebuild_identically():
    decodable = 0
    for frame, icrc in VECTORS:
        assert wire.icrc_ok(frame)
        try:
            f = wire.parse(frame)
        except feroce.FeroceError as e:
            assert e.code == "FEROCE_WIRE_UNKNOWN_OPCODE"  # UC and UD frames: not in feroce's RC table
            continue
        decodable += 1
        assert f.icrc_ok and "%08x" % int.from_bytes(f.icrc.to_bytes(4, "little"), "big") == icrc
        assert wire.build(f.opcode, f.payload, **f.fields()) == frame
    assert decodable >= 2


def test_connectx_cnp_capture():
    frame = VECTORS[0][0]
    f = wire.parse(frame)
    assert (f.opcode, f.opcode_name, f.becn, f.dscp, f.ecn, f.sport, f.destqp) == (0x81, "CNP", 1, 48, 2, 0, 0x118)
    mine = wire.cnp(0x118, src_mac=f.src_mac, dst_mac=f.dst_mac, src_ip=f.src_ip, dst_ip=f.dst_ip,
                    ip_id=f.ip_id, ttl=f.ttl)
    assert mine == frame and len(mine) == 74


@pytest.mark.parametrize("opcode", wire.OPCODES)
def test_every_opcode_round_trips(opcode):
    flags = feroce._lib.opcode_flags(opcode)
    payload = bytes(range(37)) if flags & 16 else b""
    fields = dict(src_mac="02:00:00:00:00:01", dst_mac="02:00:00:00:00:02", src_ip="10.0.0.1", dst_ip="10.0.0.2",
                  destqp=0xABCDEF, psn=0xFFFFFF, ackreq=1, vlan=1, pcp=3, vid=100, va=2**64 - 1, rkey=0x1234,
                  dmalen=37, immdt=0xDEADBEEF, syndrome=0x1F, msn=7, ecn=feroce.ECN_CE)
    frame = wire.build(opcode, payload, **fields)
    f = wire.parse(frame)
    assert f.icrc_ok and f.opcode == opcode and f.payload == payload
    assert (f.destqp, f.psn, f.ackreq, f.pcp, f.vid, f.ecn) == (0xABCDEF, 0xFFFFFF, 1, 3, 100, 3)
    if flags & 1:
        assert (f.va, f.rkey, f.dmalen) == (2**64 - 1, 0x1234, 37)
    if flags & 2:
        assert f.immdt == 0xDEADBEEF
    if flags & 4:
        assert (f.syndrome, f.msn) == (0x1F, 7)
    assert wire.build(opcode, f.payload, **f.fields()) == frame


def test_ce_mark_keeps_icrc_and_corruption_breaks_it():
    frame = bytearray(wire.build(wire.OP_WRITE_ONLY, b"x" * 100, ecn=feroce.ECN_ECT0))
    frame[15] |= 3  # a switch sets CE in the TOS byte: ICRC masks it
    assert wire.icrc_ok(frame)
    frame[60] ^= 1
    assert not wire.icrc_ok(frame) and not wire.parse(frame).icrc_ok


def test_errors_name_the_field():
    with pytest.raises(feroce.FeroceError, match=r"destqp = 16777216 is not allowed: expected an integer in 0..16777215 \(24 bits\)"):
        wire.build(wire.OP_SEND_ONLY, b"a", destqp=1 << 24)
    with pytest.raises(feroce.FeroceError, match="opcode = 18 is not allowed"):
        wire.build(0x12)
    with pytest.raises(feroce.FeroceError, match="qpn is not a field"):
        wire.build(wire.OP_SEND_ONLY, b"a", qpn=1)
    with pytest.raises(feroce.FeroceError, match="payload = 3 bytes is not allowed: expected none"):
        wire.build(wire.OP_ACK, b"abc")
    with pytest.raises(feroce.FeroceError, match="payload = 0 bytes is not allowed"):
        wire.build(wire.OP_WRITE_MIDDLE)
    with pytest.raises(feroce.FeroceError, match="src_ip = '10.0.0.256' is not allowed"):
        wire.build(wire.OP_SEND_ONLY, b"a", src_ip="10.0.0.256")
    with pytest.raises(feroce.FeroceError, match="parse: FEROCE_WIRE_BAD_IP_LENGTH: IPv4 total length inconsistent"):
        wire.parse(wire.build(wire.OP_SEND_ONLY, b"a" * 100)[:50])
    with pytest.raises(feroce.FeroceError, match="parse: FEROCE_WIRE_TRUNCATED: fewer bytes"):
        wire.parse(b"\x00" * 10)
