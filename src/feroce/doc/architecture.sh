#!/bin/sh
# Draws the architecture picture of src/feroce/doc/README.md from architecture.dot with graphviz
# (Debian's graphviz package, installed by .ci/install-deps):
#   sh src/feroce/doc/architecture.sh
set -eu
cd "$(dirname "$0")"
dot -Tpng -Gdpi=100 architecture.dot -o architecture.png
dot -Tsvg architecture.dot -o architecture.svg
echo "architecture.png, architecture.svg in $(pwd)"
