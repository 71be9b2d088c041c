#!/bin/sh
# The package as a user gets it from `cmake --install`: Debian's python3 imports the installed
# `feroce`, which loads the installed libferoce-core (not the build tree's), and the installed
# feroce-rp-trace starts without LD_LIBRARY_PATH.
#   install-test.sh BUILD_DIR PYTHON3 PYTHON_INSTALL_DIR
set -eu
build=$1
python=$2
pydir=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" > /dev/null
cd "$tmp"
env -u LD_LIBRARY_PATH -u FEROCE_CORE_LIB PYTHONPATH="$tmp/prefix/$pydir" PYTHONDONTWRITEBYTECODE=1 "$python" - "$tmp/prefix" <<'PY'
import os, sys
import feroce
prefix = os.path.realpath(sys.argv[1])
lib = os.path.realpath(feroce._lib.lib._name)
pkg = os.path.realpath(feroce.__file__)
assert pkg.startswith(prefix + os.sep), "imported %s, not the installed package" % pkg
assert lib.startswith(prefix + os.sep), "loaded %s, not the installed library" % lib
rp = feroce.ReactionPoint("connectx")
rp.cnp(0)
rp.advance(4000)
assert abs(rp.rc - 5101731461.016290) < 1e-3, rp.rc
print("installed package", pkg, "loads", lib)
PY
printf '0 cnp\n1000 query\n' > "$tmp/s.txt"
env -u LD_LIBRARY_PATH "$tmp/prefix/bin/feroce-rp-trace" "$tmp/s.txt" | grep -q '^1000,query,'
echo "1 passed, 0 failed"
