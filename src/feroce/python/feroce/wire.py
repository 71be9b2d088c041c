"""RoCEv2 frames as bytes (src/feroce/doc/rocev2-wire.md): build any RC frame or a CNP with its
ICRC, parse bytes back into fields.  The headers are encoded and decoded by the core
(feroce_roce_encode / feroce_roce_decode), the ICRC computed and checked by feroce_icrc."""
import ctypes
import ipaddress

from . import _lib
from ._lib import FeroceError

OP_SEND_FIRST, OP_SEND_MIDDLE, OP_SEND_LAST, OP_SEND_LAST_IMM = 0x00, 0x01, 0x02, 0x03
OP_SEND_ONLY, OP_SEND_ONLY_IMM = 0x04, 0x05
OP_WRITE_FIRST, OP_WRITE_MIDDLE, OP_WRITE_LAST, OP_WRITE_LAST_IMM = 0x06, 0x07, 0x08, 0x09
OP_WRITE_ONLY, OP_WRITE_ONLY_IMM = 0x0A, 0x0B
OP_ACK, OP_CNP = 0x11, 0x81
OPCODES = (0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x11, 0x81)

_OPF_RETH, _OPF_IMMDT, _OPF_AETH, _OPF_CNP, _OPF_PAYLOAD, _OPF_FIRST, _OPF_LAST = 1, 2, 4, 8, 16, 32, 128

# keyword -> (header, C field, width in bits | "mac" | "ip")
FIELDS = {
    "dst_mac": ("eth", "dst", "mac"), "src_mac": ("eth", "src", "mac"), "vlan": ("eth", "vlan", 1),
    "pcp": ("eth", "pcp", 3), "dei": ("eth", "dei", 1), "vid": ("eth", "vid", 12),
    "dscp": ("ip", "dscp", 6), "ecn": ("ip", "ecn", 2), "ip_id": ("ip", "id", 16), "df": ("ip", "df", 1),
    "ttl": ("ip", "ttl", 8), "src_ip": ("ip", "src", "ip"), "dst_ip": ("ip", "dst", "ip"),
    "sport": ("udp", "sport", 16), "udp_checksum": ("udp", "checksum", 16),
    "se": ("bth", "se", 1), "migreq": ("bth", "migreq", 1), "pkey": ("bth", "pkey", 16),
    "fecn": ("bth", "fecn", 1), "becn": ("bth", "becn", 1), "destqp": ("bth", "destqp", 24),
    "ackreq": ("bth", "ackreq", 1), "psn": ("bth", "psn", 24),
    "va": ("reth", "va", 64), "rkey": ("reth", "rkey", 32), "dmalen": ("reth", "dmalen", 32),
    "syndrome": ("aeth", "syndrome", 8), "msn": ("aeth", "msn", 24), "immdt": (None, "immdt", 32),
}

_WIRE_ERRORS = {
    1: "fewer bytes than the headers or lengths need", 2: "the output buffer is too small",
    3: "EtherType (after any tag) is not IPv4", 4: "IPv4 version not 4 or IHL not 5",
    5: "IPv4 total length inconsistent with the frame", 6: "an IPv4 fragment", 7: "IPv4 protocol is not UDP",
    8: "UDP destination port is not 4791", 9: "UDP length inconsistent with the IPv4 total length",
    10: "BTH transport header version not 0", 11: "opcode not in feroce's table",
    12: "pad count or payload size inconsistent with the opcode", 14: "a field does not fit its width",
}


def _mac(name, value):
    if isinstance(value, str):
        parts = value.split(":")
        try:
            value = bytes(int(x, 16) for x in parts) if len(parts) == 6 else b""
        except ValueError:
            value = b""
    if not isinstance(value, (bytes, bytearray)) or len(value) != 6:
        raise FeroceError("%s = %r is not allowed: expected 6 bytes or \"aa:bb:cc:dd:ee:ff\"" % (name, value),
                          "FEROCE_E_BAD_VALUE", name)
    return bytes(value)


def _ip(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        value = repr(value)  # not an address: refused below by name
    try:
        return int(ipaddress.IPv4Address(value))
    except (ValueError, ipaddress.AddressValueError):
        raise FeroceError("%s = %r is not allowed: expected an IPv4 address (\"10.0.0.1\" or a 32-bit int)"
                          % (name, value), "FEROCE_E_BAD_VALUE", name) from None


def _wire_error(what, code):
    name = _lib.wire_err_name(code).decode()
    return FeroceError("%s: %s: %s" % (what, name, _WIRE_ERRORS.get(code, "")), name, what)


def _check_opcode(opcode):
    if isinstance(opcode, bool) or not isinstance(opcode, int) or opcode not in OPCODES:
        raise FeroceError("opcode = %r is not allowed: expected one of %s" % (
            opcode, ", ".join("0x%02x" % o for o in OPCODES)), "FEROCE_E_BAD_VALUE", "opcode")
    return _lib.opcode_flags(opcode)


class Frame:
    """A decoded RoCEv2 frame: every field of FIELDS as an attribute, and opcode, opcode_name,
    payload (bytes), padcnt, ip_total_len, udp_len, udp_dport, ip_checksum, icrc (as found),
    icrc_ok, frame_len."""

    def fields(self):
        """The keywords that build() takes to write this frame again."""
        return {k: getattr(self, k) for k in FIELDS}

    def __repr__(self):
        return "Frame(%s, psn=%d, destqp=%d, payload=%d B)" % (self.opcode_name, self.psn, self.destqp,
                                                               len(self.payload))


def build(opcode, payload=b"", **fields):
    """The whole frame (Ethernet without FCS) as bytes: headers from the core's encoder, payload,
    pad to 4 bytes, ICRC, Ethernet padding to 60 bytes.  Unset fields take the core's defaults
    (feroce_roce_init: ECT(0), TTL 64, DF, source port 0xc000, P_Key 0xffff, BECN for a CNP)."""
    flags = _check_opcode(opcode)
    payload = _lib.as_bytes("payload", payload)
    if payload and not flags & _OPF_PAYLOAD:
        raise FeroceError("payload = %d bytes is not allowed: expected none for opcode 0x%02x (%s)" % (
            len(payload), opcode, _lib.opcode_name(opcode).decode()), "FEROCE_E_BAD_VALUE", "payload")
    if not payload and flags & _OPF_PAYLOAD and (flags & (_OPF_FIRST | _OPF_LAST)) != (_OPF_FIRST | _OPF_LAST):
        raise FeroceError("payload = 0 bytes is not allowed: expected at least 1 for opcode 0x%02x (%s): only an "
                          "Only packet may be empty" % (opcode, _lib.opcode_name(opcode).decode()),
                          "FEROCE_E_BAD_VALUE", "payload")
    if len(payload) > 65535 - 100:
        raise FeroceError("payload = %d bytes is not allowed: expected what fits 16-bit IPv4 lengths"
                          % len(payload), "FEROCE_E_BAD_VALUE", "payload")
    f = _lib.Roce()
    _lib.roce_init(ctypes.byref(f), opcode)
    for key, value in fields.items():
        if key not in FIELDS:
            raise FeroceError("%s is not a field: expected one of %s" % (key, ", ".join(FIELDS)),
                              "FEROCE_E_UNKNOWN_PARAM", key)
        hdr, cname, width = FIELDS[key]
        target = getattr(f, hdr) if hdr else f
        if width == "mac":
            ctypes.memmove(getattr(target, cname), _mac(key, value), 6)
        elif width == "ip":
            setattr(target, cname, _ip(key, value))
        else:
            setattr(target, cname, _lib.as_uint(key, value, width))
    f.payload_len = len(payload)
    _lib.roce_set_lengths(ctypes.byref(f))
    hlen = _lib.roce_header_len(ctypes.byref(f))
    buf = ctypes.create_string_buffer(hlen)
    code = _lib.roce_encode(ctypes.byref(f), buf, hlen)
    if code:
        raise _wire_error("build", code)
    pad = (4 - len(payload) % 4) % 4 if flags & _OPF_PAYLOAD else 0
    body = buf.raw + payload + bytes(pad)  # a CNP's 16 reserved bytes are part of its header
    ip = 18 if f.eth.vlan else 14
    icrc = _lib.icrc(body[ip:], len(body) - ip)
    frame = body + icrc.to_bytes(4, "little")
    return frame + bytes(max(0, 60 - len(frame)))


def cnp(destqp, src_mac="00:00:00:00:00:00", dst_mac="00:00:00:00:00:00", src_ip="0.0.0.0", dst_ip="0.0.0.0",
        **fields):
    """A RoCEv2 CNP to the data sender's QP destqp (DSCP 48, ECT(0), BECN, UDP source port 0)."""
    fields.setdefault("dscp", 48)
    fields.setdefault("sport", 0)
    return build(OP_CNP, destqp=destqp, src_mac=src_mac, dst_mac=dst_mac, src_ip=src_ip, dst_ip=dst_ip, **fields)


def parse(data):
    """Decode a RoCEv2 frame (Ethernet without FCS) into a Frame; FeroceError names what is wrong."""
    data = _lib.as_bytes("data", data)
    f = _lib.Roce()
    hlen = _lib.c_size_t()
    code = _lib.roce_decode(ctypes.byref(f), data, len(data), len(data), ctypes.byref(hlen))
    if code:
        raise _wire_error("parse", code)
    out = Frame()
    for key, (hdr, cname, width) in FIELDS.items():
        v = getattr(getattr(f, hdr) if hdr else f, cname)
        if width == "mac":
            v = ":".join("%02x" % b for b in v)
        elif width == "ip":
            v = str(ipaddress.IPv4Address(v))
        setattr(out, key, v)
    out.opcode = f.bth.opcode
    out.opcode_name = _lib.opcode_name(f.bth.opcode).decode()
    out.padcnt = f.bth.padcnt
    out.ip_total_len = f.ip.total_len
    out.ip_checksum = f.ip.checksum
    out.udp_len = f.udp.len
    out.udp_dport = f.udp.dport
    start = hlen.value
    out.payload = data[start:start + f.payload_len]
    computed, found = _lib.c_uint32(), _lib.c_uint32()
    out.icrc_ok = _lib.icrc_check(data, len(data), ctypes.byref(computed), ctypes.byref(found)) == 1
    out.icrc = found.value
    out.frame_len = len(data)
    return out


def icrc_ok(data):
    """True when the frame's ICRC is good."""
    data = _lib.as_bytes("data", data)
    return _lib.icrc_check(data, len(data), None, None) == 1
