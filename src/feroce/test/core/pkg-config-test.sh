#!/bin/sh
# The core as a firmware bench uses it: install the build into a temporary
# prefix, compile a C program with `pkg-config feroce-core` alone (no ns-3),
# run it without LD_LIBRARY_PATH, and check the first cut of the connectx preset.
#   pkg-config-test.sh BUILD_DIR C_COMPILER
set -eu
. "$(dirname "$0")/../lib.sh"
build=$1
cc=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" > /dev/null
pc=$(find "$tmp/prefix" -name feroce-core.pc)
cat > "$tmp/bench.c" <<'C'
#include <stdio.h>
#include "feroce-rp.h"
int main(void)
{
    struct feroce_rp_params p;
    struct feroce_rp_state s;
    if (feroce_rp_preset(&p, "connectx", 10e9, NULL) != FEROCE_OK)
        return 1;
    feroce_rp_init(&s, &p, 0);
    feroce_rp_cnp(&s, &p, 0);
    feroce_rp_advance(&s, &p, 4000);
    printf("%.6f\n", feroce_rp_rate(&s));
    return 0;
}
C
export PKG_CONFIG_PATH="$(dirname "$pc")"
# shellcheck disable=SC2046
"$cc" -std=c11 -Wall -Wextra -Werror "$tmp/bench.c" $(pkg-config --cflags --libs feroce-core) -o "$tmp/bench"
# no LD_LIBRARY_PATH: the .pc file's rpath finds the installed library
got=$(env -u LD_LIBRARY_PATH "$tmp/bench")
if [ "$got" = "5101731461.016290" ]; then ok; else bad "bench printed $got, expected 5101731461.016290"; fi
finish
