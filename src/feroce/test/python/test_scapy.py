"""Cross-check of feroce's codec against an independent implementation: Scapy's RoCE layers
(scapy.contrib.roce, Debian's python3-scapy).  Scapy parses feroce's frames with the same
fields and recomputes the same ICRC; feroce parses frames Scapy builds."""
import struct

import pytest

import feroce
from feroce import wire

scapy_all = pytest.importorskip("scapy.all")
roce = pytest.importorskip("scapy.contrib.roce")
Ether, Dot1Q, IP, UDP, Raw = scapy_all.Ether, scapy_all.Dot1Q, scapy_all.IP, scapy_all.UDP, scapy_all.Raw
BTH, AETH, CNPPadding = roce.BTH, roce.AETH, roce.CNPPadding

COMMON = dict(src_mac="02:00:00:00:00:01", dst_mac="02:00:00:00:00:02", src_ip="10.0.0.1", dst_ip="10.0.0.2",
              destqp=0x00C0DE, psn=0xFFFFFE, sport=0xC123, ip_id=77)


def scapy_icrc_matches(frame):
    """Scapy recomputes the ICRC of the frame from its own layers: True if it writes the same bytes."""
    p = Ether(frame)
    p[BTH].icrc = None
    return bytes(p) == frame


@pytest.mark.parametrize("opcode", wire.OPCODES)
@pytest.mark.parametrize("vlan", [0, 1])
def test_scapy_parses_feroce_frames(opcode, vlan):
    flags = feroce._lib.opcode_flags(opcode)
    payload = bytes(range(1, 42)) if flags & 16 else b""
    frame = wire.build(opcode, payload, vlan=vlan, pcp=5, vid=42, ecn=feroce.ECN_CE, ackreq=1, se=1,
                       va=0x1122334455667788, rkey=0xCAFE, dmalen=41, immdt=0xFEEDF00D, syndrome=0x60, msn=0x123456,
                       **COMMON)
    f = wire.parse(frame)
    p = Ether(frame)
    if vlan:
        assert (p[Dot1Q].prio, p[Dot1Q].vlan) == (5, 42)
    assert (p[Ether].src, p[Ether].dst) == (COMMON["src_mac"], COMMON["dst_mac"])
    assert (p[IP].src, p[IP].dst, p[IP].tos, p[IP].ttl, p[IP].id, p[IP].len) == (
        f.src_ip, f.dst_ip, f.dscp << 2 | f.ecn, 64, 77, f.ip_total_len)
    assert p[IP].flags == "DF" and p[IP].chksum == f.ip_checksum
    assert (p[UDP].sport, p[UDP].dport, p[UDP].len, p[UDP].chksum) == (0xC123, 4791, f.udp_len, 0)
    b = p[BTH]
    assert (b.opcode, b.solicited, b.migreq, b.padcount, b.version, b.pkey) == (opcode, 1, 0, f.padcnt, 0, 0xFFFF)
    assert (b.fecn, b.becn, b.dqpn, b.ackreq, b.psn) == (0, f.becn, 0x00C0DE, 1, 0xFFFFFE)
    # Scapy's FCSField reads the ICRC bytes big-endian; feroce puts the CRC least significant byte first
    assert b.icrc == struct.unpack(">I", struct.pack("<I", f.icrc))[0]
    assert scapy_icrc_matches(frame)
    rest = bytes(b.payload)  # Scapy leaves RETH and ImmDt in the payload; the ICRC is its own field
    if opcode == wire.OP_ACK:
        assert (p[AETH].syndrome, p[AETH].msn) == (0x60, 0x123456)
    elif opcode == wire.OP_CNP:
        assert p.haslayer(CNPPadding) and (p[CNPPadding].reserved1, p[CNPPadding].reserved2) == (0, 0)
    else:
        off = 0
        if flags & 1:
            assert struct.unpack(">QII", rest[:16]) == (0x1122334455667788, 0xCAFE, 41)
            off = 16
        if flags & 2:
            assert struct.unpack(">I", rest[off:off + 4]) == (0xFEEDF00D,)
            off += 4
        assert rest[off:off + len(payload)] == payload and len(rest) - off - len(payload) == f.padcnt


def test_feroce_parses_scapy_frames():
    reth = struct.pack(">QII", 0xABCDEF0123456789, 0x77, 1000)
    payload = b"\xa5" * 1000
    cases = [
        # (Scapy packet, opcode, payload as feroce sees it)
        (BTH(opcode=0x0A, dqpn=0x123, psn=0x10, ackreq=1) / Raw(reth + payload), 0x0A, payload),
        (BTH(opcode=0x04, dqpn=0x123, psn=0x11, padcount=1) / Raw(b"abc" + b"\0"), 0x04, b"abc"),
        (BTH(opcode=0x11, dqpn=0x456, psn=0x10) / AETH(syndrome=0x1F, msn=3), 0x11, b""),
        (roce.cnp(0x789), 0x81, b""),
    ]
    for bth, opcode, want_payload in cases:
        # Scapy computes a real UDP checksum here (feroce keeps it as given; the ICRC masks it)
        pkt = Ether(src="02:00:00:00:00:0a", dst="02:00:00:00:00:0b") / IP(
            src="192.168.0.7", dst="192.168.0.9", tos=0x02, flags="DF", id=9) / UDP(sport=0xC000, dport=4791) / bth
        frame = bytes(pkt)
        f = wire.parse(frame)
        assert f.icrc_ok, "feroce rejects Scapy's ICRC for opcode 0x%02x" % opcode
        assert (f.opcode, f.src_ip, f.dst_ip, f.ecn, f.dscp, f.ip_id) == (opcode, "192.168.0.7", "192.168.0.9", 2, 0, 9)
        assert (f.src_mac, f.dst_mac, f.sport) == ("02:00:00:00:00:0a", "02:00:00:00:00:0b", 0xC000)
        assert f.udp_checksum == Ether(frame)[UDP].chksum != 0
        assert (f.destqp, f.psn, f.becn) == (bth.dqpn, bth.psn, bth.becn)
        assert f.payload == want_payload
        if opcode == 0x0A:
            assert (f.va, f.rkey, f.dmalen, f.ackreq) == (0xABCDEF0123456789, 0x77, 1000, 1)
        if opcode == 0x11:
            assert (f.syndrome, f.msn) == (0x1F, 3)
        # and feroce writes the identical frame from the fields it read
        assert wire.build(f.opcode, f.payload, **f.fields()) == frame
