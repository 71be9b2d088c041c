"""Loading libferoce-core and the ctypes mirrors of its structs.

The layouts below mirror src/feroce/core/*.h; at import each one is checked against
feroce_abi_sizeof() so that a header change that is not carried here fails loudly
instead of corrupting memory.
"""
import ctypes
import ctypes.util
import importlib.machinery
import os

c_int64 = ctypes.c_int64
c_uint64 = ctypes.c_uint64
c_uint32 = ctypes.c_uint32
c_uint16 = ctypes.c_uint16
c_uint8 = ctypes.c_uint8
c_double = ctypes.c_double
c_int = ctypes.c_int  # C enums
c_char_p = ctypes.c_char_p
c_size_t = ctypes.c_size_t

FEROCE_NEVER = 2**63 - 1
FEROCE_TIME_MAX = FEROCE_NEVER // 2  # feroce-rp.h: instants and periods lie in [0, FEROCE_TIME_MAX]


class FeroceError(ValueError):
    """A value the core refused.  str() is the core's one-line message naming the
    parameter or field, its value and what is allowed; .code is the core's error name
    (e.g. "FEROCE_E_RP_G") and .param the parameter or field."""

    def __init__(self, message, code=None, param=None):
        super().__init__(message)
        self.code = code
        self.param = param


def _library_path():
    env = os.environ.get("FEROCE_CORE_LIB")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:  # pip install: the core built into the package
        bundled = os.path.join(here, "_core" + suffix)
        if os.path.exists(bundled):
            return bundled
    try:
        from . import _paths  # written by CMake into the build tree and the installed package
        path = _paths.library_path()
        if os.path.exists(path):
            return path
    except ImportError:
        pass
    found = ctypes.util.find_library("feroce-core")
    if found:
        return found
    raise ImportError("libferoce-core not found: pip install the package (it builds the core), build feroce "
                      "(cmake --build) and import it from BUILD/python, or set FEROCE_CORE_LIB to the library's path")


lib = ctypes.CDLL(_library_path())


# ---- feroce-check.h ---------------------------------------------------------

class Check(ctypes.Structure):
    _fields_ = [("code", c_int), ("param", c_char_p), ("value", c_double),
                ("text", ctypes.c_char * 48), ("allowed", ctypes.c_char * 256)]


# ---- feroce-rp.h ------------------------------------------------------------

class RpParams(ctypes.Structure):
    _fields_ = [("line_rate_bps", c_double), ("min_rate_bps", c_double), ("g", c_double),
                ("initial_alpha", c_double), ("alpha_mode", c_int), ("alpha_period_ns", c_int64),
                ("decrease_period_ns", c_int64), ("increase_timer_ns", c_int64),
                ("byte_counter_bytes", c_uint64), ("F", c_uint32), ("rai_bps", c_double),
                ("rhai_bps", c_double), ("hai_mode", c_int), ("clamp", c_int),
                ("first_cnp_rate_bps", c_double)]


class RpVars(ctypes.Structure):
    _fields_ = [("rc", c_double), ("rt", c_double), ("alpha", c_double), ("ts", c_uint64),
                ("bs", c_uint64), ("byte_acc", c_uint64), ("next_alpha", c_int64), ("next_dec", c_int64),
                ("next_inc", c_int64), ("active", c_uint8), ("alpha_flag", c_uint8),
                ("dec_flag", c_uint8), ("may_clamp", c_uint8)]


class RpState(ctypes.Structure):
    _fields_ = [("cur", RpVars), ("base", RpVars), ("now", c_int64), ("cnps_now", c_uint32),
                ("bytes_now", c_uint64)]


# ---- feroce-np.h, feroce-cp.h -------------------------------------------------

class NpParams(ctypes.Structure):
    _fields_ = [("interval_ns", c_int64), ("scope", c_int)]


class NpState(ctypes.Structure):
    _fields_ = [("last_cnp", c_int64), ("sent", c_uint8)]


class CpParams(ctypes.Structure):
    _fields_ = [("kmin_bytes", c_uint64), ("kmax_bytes", c_uint64), ("pmax", c_double), ("point", c_int)]


# ---- feroce-wire.h ----------------------------------------------------------

class Eth(ctypes.Structure):
    _fields_ = [("dst", c_uint8 * 6), ("src", c_uint8 * 6), ("vlan", c_uint8), ("pcp", c_uint8),
                ("dei", c_uint8), ("vid", c_uint16), ("type", c_uint16)]


class Ipv4(ctypes.Structure):
    _fields_ = [("dscp", c_uint8), ("ecn", c_uint8), ("total_len", c_uint16), ("id", c_uint16),
                ("df", c_uint8), ("ttl", c_uint8), ("proto", c_uint8), ("checksum", c_uint16),
                ("src", c_uint32), ("dst", c_uint32)]


class Udp(ctypes.Structure):
    _fields_ = [("sport", c_uint16), ("dport", c_uint16), ("len", c_uint16), ("checksum", c_uint16)]


class Bth(ctypes.Structure):
    _fields_ = [("opcode", c_uint8), ("se", c_uint8), ("migreq", c_uint8), ("padcnt", c_uint8),
                ("tver", c_uint8), ("pkey", c_uint16), ("fecn", c_uint8), ("becn", c_uint8),
                ("destqp", c_uint32), ("ackreq", c_uint8), ("psn", c_uint32)]


class Reth(ctypes.Structure):
    _fields_ = [("va", c_uint64), ("rkey", c_uint32), ("dmalen", c_uint32)]


class Aeth(ctypes.Structure):
    _fields_ = [("syndrome", c_uint8), ("msn", c_uint32)]


class Roce(ctypes.Structure):
    _fields_ = [("eth", Eth), ("ip", Ipv4), ("udp", Udp), ("bth", Bth), ("reth", Reth), ("aeth", Aeth),
                ("immdt", c_uint32), ("payload_len", c_uint32)]


_MIRRORS = {"feroce_check": Check, "feroce_rp_params": RpParams, "feroce_rp_vars": RpVars,
            "feroce_rp_state": RpState, "feroce_np_params": NpParams, "feroce_np_state": NpState,
            "feroce_cp_params": CpParams, "feroce_roce": Roce, "feroce_eth": Eth, "feroce_ipv4": Ipv4,
            "feroce_udp": Udp, "feroce_bth": Bth, "feroce_reth": Reth, "feroce_aeth": Aeth}


def _fn(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


P = ctypes.POINTER
abi_sizeof = _fn("feroce_abi_sizeof", c_size_t, c_char_p)


def check_mirror(c_name, mirror):
    """ImportError unless the ctypes mirror has the C struct's size."""
    size = abi_sizeof(c_name.encode())
    if size != ctypes.sizeof(mirror):
        raise ImportError("feroce: struct %s is %d bytes in libferoce-core but %d in the Python mirror: "
                          "the package and the library come from different versions"
                          % (c_name, size, ctypes.sizeof(mirror)))


for _name, _mirror in _MIRRORS.items():
    check_mirror(_name, _mirror)

err_name = _fn("feroce_err_name", c_char_p, c_int)
check_message = _fn("feroce_check_message", c_int, P(Check), c_char_p, c_size_t)

rp_preset = _fn("feroce_rp_preset", c_int, P(RpParams), c_char_p, c_double, P(Check))
rp_validate = _fn("feroce_rp_validate", c_int, P(RpParams), P(Check))
rp_set_param = _fn("feroce_rp_set_param", c_int, P(RpParams), c_char_p, c_char_p, P(Check))
rp_init = _fn("feroce_rp_init", None, P(RpState), P(RpParams), c_int64)
rp_cnp = _fn("feroce_rp_cnp", c_int, P(RpState), P(RpParams), c_int64)
rp_tx = _fn("feroce_rp_tx", c_int, P(RpState), P(RpParams), c_int64, c_uint64)
rp_advance = _fn("feroce_rp_advance", c_int, P(RpState), P(RpParams), c_int64)
rp_next_deadline = _fn("feroce_rp_next_deadline", c_int64, P(RpState), P(RpParams))
alpha_mode_name = _fn("feroce_alpha_mode_name", c_char_p, c_int)
hai_mode_name = _fn("feroce_hai_mode_name", c_char_p, c_int)
clamp_name = _fn("feroce_clamp_name", c_char_p, c_int)

np_preset = _fn("feroce_np_preset", c_int, P(NpParams), c_char_p, P(Check))
np_validate = _fn("feroce_np_validate", c_int, P(NpParams), P(Check))
np_on_ce = _fn("feroce_np_on_ce", c_int, P(NpParams), P(NpState), c_int64)

cp_preset = _fn("feroce_cp_preset", c_int, P(CpParams), c_char_p, c_double, P(Check))
cp_validate = _fn("feroce_cp_validate", c_int, P(CpParams), P(Check))
cp_probability = _fn("feroce_cp_probability", c_double, P(CpParams), c_uint64)
cp_mark = _fn("feroce_cp_mark", c_int, P(CpParams), c_int, c_int, c_uint64, c_double)

wire_err_name = _fn("feroce_wire_err_name", c_char_p, c_int)
opcode_flags = _fn("feroce_opcode_flags", ctypes.c_uint, c_uint8)
opcode_name = _fn("feroce_opcode_name", c_char_p, c_uint8)
roce_init = _fn("feroce_roce_init", None, P(Roce), c_uint8)
roce_header_len = _fn("feroce_roce_header_len", c_size_t, P(Roce))
roce_frame_len = _fn("feroce_roce_frame_len", c_size_t, P(Roce))
roce_set_lengths = _fn("feroce_roce_set_lengths", None, P(Roce))
roce_encode = _fn("feroce_roce_encode", c_int, P(Roce), ctypes.c_char_p, c_size_t)
roce_decode = _fn("feroce_roce_decode", c_int, P(Roce), ctypes.c_char_p, c_size_t, c_size_t, P(c_size_t))
ipv4_offset = _fn("feroce_ipv4_offset", c_size_t, ctypes.c_char_p, c_size_t)
icrc = _fn("feroce_icrc", c_uint32, ctypes.c_char_p, c_size_t)
icrc_check = _fn("feroce_icrc_check", c_int, ctypes.c_char_p, c_size_t, P(c_uint32), P(c_uint32))


def raise_check(code, why):
    """Raise FeroceError with the core's message when code is not FEROCE_OK.  why.param may point
    into a string the caller passed to the core: the caller keeps it alive until this returns
    (call_checked does)."""
    if code == 0:
        return
    buf = ctypes.create_string_buffer(512)
    check_message(ctypes.byref(why), buf, len(buf))
    param = why.param.decode("utf-8", "replace") if why.param else None
    raise FeroceError(buf.value.decode("utf-8", "replace"), err_name(code).decode(), param)


def call_checked(fn, *args):
    """fn(*args, &why), then FeroceError with the core's message unless it returned FEROCE_OK.
    The arguments stay referenced here until the message is built: the core's struct feroce_check
    keeps a pointer to the parameter name, which may be one of them (never pass a temporary
    straight to the core and read *why after the call: its buffer is freed when the call returns)."""
    why = Check()
    code = fn(*args, ctypes.byref(why))
    raise_check(code, why)
    return args


def _bad(name, value, allowed):
    return FeroceError("%s = %r is not allowed: expected %s" % (name, value, allowed), "FEROCE_E_BAD_VALUE", name)


def time_error(what, now, last):
    """The error of a call whose time went backwards (the core returns FEROCE_E_TIME_BACKWARDS)."""
    return FeroceError("%s: now = %d is not allowed: expected >= %d ns (the instant of the last call)"
                       % (what, now, last), "FEROCE_E_TIME_BACKWARDS", "now")


def as_int(name, value, lo, hi, unit=""):
    """An integer in [lo, hi]; bools, floats with a fraction and non-numbers are refused by name
    (never wrapped to the width of a C integer)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise _bad(name, value, "an integer%s in [%d, %d]" % (unit, lo, hi))
    return value


def as_time(name, value, hi=FEROCE_TIME_MAX, unit=" number of ns"):
    """An instant: an integer in [0, hi] (FEROCE_TIME_MAX unless the callee's range is smaller)."""
    return as_int(name, value, 0, hi, unit)


def as_uint(name, value, bits):
    if isinstance(value, bool) or not isinstance(value, int) or value < 0 or value >= 1 << bits:
        raise _bad(name, value, "an integer in 0..%d (%d bits)" % ((1 << bits) - 1, bits))
    return value


def as_real(name, value):
    """A real number as a C double (ints and floats; nan and inf go on to the core's range checks)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _bad(name, value, "a number")
    try:
        return float(value)
    except OverflowError:
        raise _bad(name, value, "a number that fits a double") from None


def as_text(name, value, allowed="text"):
    """A str for the core as UTF-8 bytes without NUL (the core reads up to the first NUL)."""
    if not isinstance(value, str):
        raise _bad(name, value, allowed)
    try:
        data = value.encode("utf-8")
    except UnicodeEncodeError:
        raise _bad(name, value, allowed + " (encodable as UTF-8)") from None
    if b"\0" in data:
        raise _bad(name, value, allowed + " without NUL characters")
    return data


def as_bytes(name, value):
    """bytes, bytearray or memoryview as bytes (an int is refused: bytes(5) would be five zeros)."""
    if not isinstance(value, (bytes, bytearray, memoryview)):
        raise _bad(name, value if not isinstance(value, str) else value[:40], "bytes (a frame)")
    return bytes(value)


def as_dict(name, value):
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _bad(name, value, "a dict of parameter names and values")
    return value


def param_text(name, value):
    """A parameter value as the text the core's set_param functions parse: numbers in full
    precision, names as they are; anything else is refused here."""
    if isinstance(value, bool):
        return b"1" if value else b"0"
    if isinstance(value, float):
        return repr(value).encode()
    if isinstance(value, int):
        return str(value).encode()
    return as_text(name, value, "a number or a name")
