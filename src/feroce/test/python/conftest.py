"""Shared fixtures of the Python package's tests: where the test data are."""
import os

import pytest

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
