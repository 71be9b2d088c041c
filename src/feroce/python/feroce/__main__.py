"""python -m feroce: the installed package at a glance, and the golden model from the shell.

    python -m feroce --version         the package's version and the core library it loads
    python -m feroce trace SCRIPT|-    a rate-limiter script (dcqcn.md) on the float model: the rows
                                       feroce-rp-trace prints (t_ns,event,rc_bps,rt_bps,alpha,ts,bs)
A bad argument or script line is one line on stderr and exit status 2.
"""
import sys

from . import FeroceError, __version__, _lib, run_script

USAGE = "usage: python -m feroce --version | trace SCRIPT|-"


def main(argv):
    if argv == ["--version"]:
        print("feroce %s (core: %s)" % (__version__, _lib.lib._name))
        return 0
    if argv in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if len(argv) != 2 or argv[0] != "trace":
        print("feroce: arguments %s are not allowed: expected --version or trace SCRIPT (%s)"
              % (" ".join(argv) or "(none)", USAGE), file=sys.stderr)
        return 2
    try:
        if argv[1] == "-":
            text = sys.stdin.read()
        else:
            with open(argv[1], encoding="utf-8") as fh:
                text = fh.read()
        rows = run_script(text)
    except (OSError, UnicodeDecodeError) as e:
        print("feroce: script %s cannot be read: %s" % (argv[1], e), file=sys.stderr)
        return 2
    except FeroceError as e:
        print("feroce: %s: %s" % (argv[1], e), file=sys.stderr)
        return 2
    out = ["t_ns,event,rc_bps,rt_bps,alpha,ts,bs"] + ["%d,%s,%.6f,%.6f,%.9f,%d,%d" % r for r in rows]
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
