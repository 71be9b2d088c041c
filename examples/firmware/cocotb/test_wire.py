"""cocotb bench of roce_dcqcn_top.v on the wire (Icarus Verilog, Verilator; top tb_roce): the DUT's
RDMA WRITE frames leave through its transmit XGMII, the CNPs and ACKs enter through its receive
XGMII, and its rate limiter is checked against feroce's golden model as in test_rate_limiter.py.

    incast        the 3:1 incast of feroce's emulated switch: each frame the DUT starts is read off
                  the transmit XGMII; its headers go to the switch at the instant its first byte
                  left (a cut-through port needs no more; the switch is held there meanwhile and
                  its answers are taken without running it), and the whole frame, once cocotbext-
                  eth's XgmiiSink has it, must pass the FCS and feroce's codec with its ICRC and
                  carry those headers.  The switch's CNPs and ACKs go in through cocotbext-eth's
                  XgmiiSource in the cycle they arrive; the DUT's CNP parser must apply each CNP
                  in the 12th cycle after its /T/, when the golden model gets it too
    fake_switch   the same with the team's throughput-threshold CNP forger
    scapy_frames  the DUT's first WRITE equals the one Scapy builds for its connection, byte for
                  byte; Scapy-built frames into the receive path: a WRITE and a CNP with a bad ICRC
                  or for another QP are not CNPs, a good CNP is applied (and checked by the model)

FEROCE_FAULT=1..3 breaks the rate limiter (test_rate_limiter.py); FEROCE_OUT gets the dashboard's
CSV (plots/firmware-dashboard.gp) and a failing window's VCD.
"""
import collections
import ipaddress
import logging
import struct

import cocotb
from cocotb.triggers import Event, RisingEdge
from cocotb.utils import get_time_from_sim_steps
from cocotbext.eth import XgmiiFrame, XgmiiSink, XgmiiSource

import feroce
from feroce import wire

from bench import Answer, Answers, Bench, BenchError, Settings, ThresholdSwitch

PAYLOAD = 4096
HDR = 70                  # Ethernet, IPv4, UDP, BTH, RETH
FRAME_LEN = HDR + PAYLOAD + 4
RX_LATENCY = 12           # cnp_rx.v: /T/ taken at edge E, the CNP applied at edge E + 12
START = 0xD5555555555555FB  # /S/, preamble, SFD in one word
CONN = dict(dut_mac="02:00:00:00:00:01", rx_mac="02:00:00:00:00:02", dut_ip="10.0.0.1", rx_ip="10.0.0.2",
            sport=0xC000, dest_qp=0x22, qpn=0x11, rkey=0x1234, va=0x10000000)


def _mac(text):
    return int(text.replace(":", ""), 16)


def _ip(text):
    return int(ipaddress.IPv4Address(text))


class Peer(Answers):
    """Frames at given instants into the DUT (the Scapy test's), with the switches' interface."""

    def dut_frame(self, t, frame):
        self.now = max(self.now, t)

    @property
    def horizon(self):
        return feroce.FEROCE_TIME_MAX


class WireBench:
    """The wire around roce_dcqcn_top: its XGMII through cocotbext-eth, a peer (the emulated
    switch, the fake switch or Scapy's frames) and the golden model's scoreboard."""

    def __init__(self, dut, settings, peer, name):
        self.dut, self.s, self.peer, self.name = dut, settings, peer, name
        self.params = feroce.fixed_params(settings.preset)
        self.b = Bench(dut, self.params, settings.fault, name, settings.out)
        self.source = self.sink = None
        self.applies = collections.deque()  # cycles in which CNPs sent in must reach the rate limiter
        self.woken = Event()
        self.headers = collections.deque()  # (start cycle, headers) of the frames read so far
        self.frames = []                    # the DUT's frames as the sink delivered them
        self.sent = []                      # (answer, cycle of its /T/ edge) into the DUT

    async def start(self):
        c = CONN
        await self.b.reset(cfg_dst_mac=_mac(c["rx_mac"]), cfg_src_mac=_mac(c["dut_mac"]), cfg_src_ip=_ip(c["dut_ip"]),
                           cfg_dst_ip=_ip(c["rx_ip"]), cfg_udp_sport=c["sport"], cfg_dest_qp=c["dest_qp"],
                           cfg_qpn=c["qpn"], cfg_rkey=c["rkey"], cfg_va=c["va"], enable=0)
        # cocotbext-eth's source and sink, once the DUT's XGMII is out of reset
        d = self.dut
        self.source = XgmiiSource(d.xgmii_rxd, d.xgmii_rxc, d.clk, d.rst)
        self.sink = XgmiiSink(d.xgmii_txd_mon, d.xgmii_txc_mon, d.clk, d.rst)  # tb_roce.v: why a copy
        for h in (d.xgmii_rxd, d.xgmii_txd_mon):  # not a line per frame
            logging.getLogger("cocotb." + h._path).setLevel(logging.WARNING)
        d.enable.value = 1
        cocotb.start_soon(self.check_frames())

    # ---- the receive path: answers into the DUT ------------------------------------------------
    def send(self, answer):
        def done(frame):
            # the /T/ word was driven at this edge; the DUT takes it at the next one
            edge = self.b.cycle_of(get_time_from_sim_steps(frame.sim_time_end, "ps")) + 1
            self.sent.append((answer, edge))
            if answer.kind == "cnp":
                self.applies.append(edge + RX_LATENCY)
                self.woken.set()
        self.source.send_nowait(XgmiiFrame.from_payload(answer.frame, tx_complete=done))

    # ---- the transmit path: every frame whole, through cocotbext-eth and feroce's codec -------
    async def check_frames(self):
        psn = 0
        while True:
            frame = await self.sink.recv()
            data = frame.get_payload()
            where = "%s: the DUT's frame %d" % (self.name, psn)
            if not frame.check_fcs():
                raise AssertionError("%s: bad FCS" % where)
            if len(data) != FRAME_LEN:
                raise AssertionError("%s: %d bytes, expected %d" % (where, len(data), FRAME_LEN))
            f = wire.parse(data)
            if not f.icrc_ok:
                raise AssertionError("%s: bad ICRC (0x%08x)" % (where, f.icrc))
            if (f.opcode, f.psn, f.ackreq, f.va) != (wire.OP_WRITE_ONLY, psn, psn % 4 == 3, CONN["va"] + psn * PAYLOAD):
                raise AssertionError("%s: %r (PSN %d, AckReq %d, VA 0x%x)" % (where, f, f.psn, f.ackreq, f.va))
            cycle, headers = self.headers.popleft()
            # /S/ goes out at tx_start's edge; the sink's copy (tb_roce.v) has it at the next one
            lag = self.b.cycle_of(get_time_from_sim_steps(frame.sim_time_start, "ps")) - cycle
            if data[:HDR] != headers or lag != 1:
                raise AssertionError("%s: the sink's frame (%d cycles after tx_start) is not the one read off the "
                                     "wire in the cycle after tx_start (cycle %d)" % (where, lag, cycle))
            self.frames.append(data)
            psn += 1

    # ---- the loop -------------------------------------------------------------------------------
    async def run(self, duration_us, marks=(0, 0)):
        b, dut, peer = self.b, self.dut, self.peer
        end = b.first_cycle_at(duration_us * 1000)
        reading = None  # (tx cycle, first byte's instant, bytes so far) of a frame read off the wire
        n = b.now_cycle()
        while True:
            if n > 0:
                b.compare(n - 1, queue=peer.queue_bytes, marks=marks)
            if n >= end:
                break
            self.woken.clear()
            t = b.ns_at(n)
            # a frame's headers off the transmit XGMII: /S/ in the cycle after tx_start, then words
            if reading is not None:
                n0, t0, got = reading
                txd, txc = int(dut.xgmii_txd.value), int(dut.xgmii_txc.value)
                if not got and (txc, txd) != (0x01, START):
                    raise AssertionError("%s: tx_start in cycle %d but no /S/ on the XGMII in the next cycle" %
                                         (self.name, n0))
                got = got + (txd.to_bytes(8, "little") if got or n > n0 + 1 else b"\x01")
                reading = (n0, t0, got)
                if len(got) > HDR:
                    headers = got[1:HDR + 1]
                    peer.dut_frame(t0, headers + bytes(PAYLOAD) + bytes(4))
                    self.headers.append((n0, headers))
                    reading = None
            if reading is not None:
                if t > peer.horizon:
                    raise BenchError("%s: the switch's answers are not known for cycle %d" % (self.name, n))
                answers = peer.take(t)
            else:
                answers = peer.poll(t)
            for a in answers:
                due = b.first_cycle_at(a.t_ns)
                if due != n:
                    raise BenchError("%s: an answer due in cycle %d was seen in %d" % (self.name, due, n))
                self.send(a)
            # this cycle's events: a frame starts (the rate limiter is charged), a CNP is applied
            nbytes = FRAME_LEN if int(dut.tx_start.value) else 0
            if nbytes:
                if reading is not None:
                    raise AssertionError("%s: tx_start in cycle %d while frame of cycle %d is on the wire"
                                         % (self.name, n, reading[0]))
                reading = (n, b.ns_at(n + 1), b"")
            if self.applies and self.applies[0] < n:
                raise BenchError("%s: a CNP due in cycle %d was seen in %d" % (self.name, self.applies[0], n))
            cnp = bool(self.applies) and self.applies[0] == n
            if cnp:
                self.applies.popleft()
            b.event(n, cnp, nbytes)
            if nbytes or cnp or reading is not None:
                nxt = n + 1
            else:
                due = [n + b.check_every, end]
                if peer.horizon < feroce.FEROCE_TIME_MAX:
                    due.append(b.sb.cycle_at(peer.horizon))
                if self.applies:
                    due.append(self.applies[0])
                if peer.next_answer() is not None:
                    due.append(b.first_cycle_at(peer.next_answer()))
                if b.sb.next_timer() is not None:
                    due.append(b.sb.next_timer() + 1)
                nxt = max(n + 1, min(due))
            n = await b.sleep_until(nxt, RisingEdge(dut.tx_start), self.woken.wait())
        if self.applies:
            raise AssertionError("%s: %d CNPs sent in were still on their way at the end" % (self.name, len(self.applies)))
        cnps = int(dut.cnps.value)
        if cnps != b.sb.cnps:
            raise AssertionError("%s: the DUT's receive path accepted %d CNPs, the bench sent %d"
                                 % (self.name, cnps, b.sb.cnps))
        b.write_csv("%s/%s.csv" % (self.s.out, self.name),
                    "threshold_bps,unused" if isinstance(peer, ThresholdSwitch) else "kmin_bytes,kmax_bytes")
        return b


async def closed_loop(dut, settings, peer, name, marks):
    w = WireBench(dut, settings, peer, name)
    await w.start()
    b = await w.run(settings.duration_us, marks)
    dut._log.info("%s; %d frames off the wire checked (FCS, ICRC, headers), %d frames into the DUT, rx_bad %d",
                  b.summary(), len(w.frames), len(w.sent), int(dut.rx_bad.value))
    if len(w.frames) < 2 or int(dut.rx_bad.value):
        raise AssertionError("%s: %d frames checked, rx_bad %d" % (name, len(w.frames), int(dut.rx_bad.value)))


@cocotb.test()
async def incast(dut):
    """3:1 incast into feroce's emulated switch, frames on the wire both ways."""
    s = Settings(duration_us=1000)
    sw = feroce.EmulatedSwitch(s.switch, senders=2, seed=s.seed, dut_qpn=CONN["qpn"])
    await closed_loop(dut, s, sw, "wire-incast", (sw.params.cp.kmin_bytes, sw.params.cp.kmax_bytes))


@cocotb.test()
async def fake_switch(dut):
    """The team's throughput-threshold CNP forger, frames on the wire both ways."""
    s = Settings(duration_us=500)
    sw = ThresholdSwitch(threshold_bps=5e9, dut_qpn=CONN["qpn"])
    await closed_loop(dut, s, sw, "wire-fake-switch", (int(sw.threshold_bps), 0))


def scapy_layers():
    try:
        from scapy.contrib import roce
        from scapy.layers.inet import IP, UDP
        from scapy.layers.l2 import Ether
        from scapy.packet import Raw
    except ImportError as e:
        raise BenchError("scapy_frames: Scapy is not importable (%s): install python3-scapy" % e) from None
    return Ether, IP, UDP, Raw, roce


@cocotb.test()
async def scapy_frames(dut):
    """Scapy's frames against the DUT's, both ways."""
    Ether, IP, UDP, Raw, roce = scapy_layers()
    c = CONN
    s = Settings(duration_us=100)

    def to_dut(bth):
        pkt = Ether(src=c["rx_mac"], dst=c["dut_mac"]) / IP(src=c["rx_ip"], dst=c["dut_ip"], tos=0x02, flags="DF") / \
            UDP(sport=0xC000, dport=4791) / bth
        return bytes(pkt)

    good = to_dut(roce.cnp(c["qpn"]))
    bad_icrc = good[:-1] + bytes([good[-1] ^ 0x01])
    other_qp = to_dut(roce.cnp(c["qpn"] + 1))
    write = to_dut(roce.BTH(opcode=0x0A, dqpn=c["qpn"], psn=5) / Raw(struct.pack(">QII", 0x1000, 7, 64) + bytes(64)))
    assert len(good) == 74 and wire.parse(good).icrc_ok and not wire.parse(bad_icrc).icrc_ok
    frames = [Answer(20000, "write", 5, write), Answer(30000, "cnp-bad", 0, bad_icrc),
              Answer(40000, "cnp-other-qp", 0, other_qp), Answer(50000, "cnp", 0, good)]
    w = WireBench(dut, s, Peer(frames), "scapy")
    await w.start()
    b = await w.run(s.duration_us)
    if (int(dut.cnps.value), int(dut.rx_bad.value)) != (1, 2):
        raise AssertionError("scapy: the DUT accepted %d CNPs and dropped %d CNP-sized frames: expected 1 and 2 "
                             "(the good CNP; the bad ICRC and the other QP)" % (int(dut.cnps.value),
                                                                               int(dut.rx_bad.value)))
    # the DUT's first WRITE is the frame Scapy builds for the connection, ICRC included
    payload = bytes(j % 256 for j in range(PAYLOAD))
    want = bytes(Ether(src=c["dut_mac"], dst=c["rx_mac"]) /
                 IP(src=c["dut_ip"], dst=c["rx_ip"], tos=0x02, flags="DF", id=0, ttl=64) /
                 UDP(sport=c["sport"], dport=4791, chksum=0) /
                 roce.BTH(opcode=0x0A, pkey=0xFFFF, dqpn=c["dest_qp"], psn=0) /
                 Raw(struct.pack(">QII", c["va"], c["rkey"], PAYLOAD) + payload))
    if not w.frames or w.frames[0] != want:
        got = w.frames[0] if w.frames else b""
        diff = next((i for i in range(min(len(got), len(want))) if got[i] != want[i]), min(len(got), len(want)))
        raise AssertionError("scapy: the DUT's first frame differs from Scapy's at byte %d (%d and %d bytes)"
                             % (diff, len(got), len(want)))
    dut._log.info("%s; the DUT's first WRITE equals Scapy's (%d bytes); Scapy's WRITE ignored, bad ICRC and other "
                  "QP dropped, good CNP applied", b.summary(), len(want))
