"""Shared fixtures of the Python package's tests: where the test data are.  With
FEROCE_TEST_INSTALLED set (ctest with the build's venv), the package imported must be the one
pip installed into that environment, with the core it compiled, not a build tree's."""
import os
import sys

import pytest

if os.environ.get("FEROCE_TEST_INSTALLED"):
    import feroce

    _where = os.path.realpath(feroce.__file__)
    _prefix = os.path.realpath(sys.prefix) + os.sep
    assert _where.startswith(_prefix), "imported %s, not the package installed in %s" % (_where, sys.prefix)
    assert os.path.realpath(feroce._lib.lib._name).startswith(os.path.dirname(_where) + os.sep), \
        "the installed package loads %s, not its own core" % feroce._lib.lib._name

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")


@pytest.fixture
def data_dir():
    return DATA


def read_vectors(path):
    """(frame bytes, icrc hex) of each 'frame' line of icrc.txt."""
    out, frame = [], None
    with open(path) as fh:
        for line in fh:
            words = line.split()
            if len(words) == 2 and words[0] == "frame":
                frame = bytes.fromhex(words[1])
            elif len(words) == 2 and words[0] == "icrc" and frame is not None:
                out.append((frame, words[1]))
                frame = None
    return out
