"""feroce: the DCQCN golden model and RoCEv2 codec of feroce's C core, for Python test benches.

ctypes over libferoce-core (standard library only).  Every call takes time as an argument
(integer ns); nothing needs an event loop, so cocotb coroutines call it directly.
See src/feroce/doc/firmware.md.
"""
try:
    from ._version import __version__  # written by setup.py (pip) or CMake
except ImportError:  # the source folder itself on PYTHONPATH
    __version__ = "unknown"
from ._lib import FEROCE_NEVER, FEROCE_TIME_MAX, FeroceError
from .points import ECN_CE, ECN_ECT0, ECN_ECT1, ECN_NOT_ECT, CongestionPoint, NotificationPoint
from .rp import ReactionPoint, Script, rp_params, run_script
from . import wire
from .emu import Answer, EmulatedSwitch
from .fixed import FixedReactionPoint, Scoreboard, config_registers, fixed_params

__all__ = ["FEROCE_NEVER", "FEROCE_TIME_MAX", "FeroceError", "ReactionPoint", "rp_params", "run_script", "Script", "NotificationPoint",
           "CongestionPoint", "ECN_NOT_ECT", "ECN_ECT1", "ECN_ECT0", "ECN_CE", "wire", "EmulatedSwitch", "Answer",
           "FixedReactionPoint", "Scoreboard", "fixed_params", "config_registers"]
