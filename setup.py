"""Builds the feroce package with its C core (see pyproject.toml).

The core's sources are the `core` lines of sources.txt (the one list every build reads) and the
version is CMakeLists.txt's feroce_base_version.  They are compiled into feroce/_core*.so, a plain
shared library that feroce._lib loads with ctypes (no Python C API: an Extension only because
setuptools knows how to build and place one)."""
import os
import re

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


def read(name):
    with open(os.path.join(HERE, name)) as fh:
        return fh.read()


CORE = [w[1] for w in (line.split() for line in read("sources.txt").splitlines()) if len(w) == 2 and w[0] == "core"]
VERSION = re.search(r"set\(feroce_base_version ([0-9][0-9.]*)\)", read("CMakeLists.txt")).group(1)


class BuildPy(build_py):
    """Also writes feroce/_version.py (CMake writes its own into the build tree and the install)."""

    def run(self):
        super().run()
        with open(os.path.join(self.build_lib, "feroce", "_version.py"), "w") as fh:
            fh.write('__version__ = "%s"\n' % VERSION)


setup(
    version=VERSION,
    cmdclass={"build_py": BuildPy},
    ext_modules=[Extension("feroce._core", sources=CORE, include_dirs=["src/feroce/core"], libraries=["m"],
                           extra_compile_args=["-std=c11", "-O2"])],
)
