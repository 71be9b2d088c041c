#!/bin/sh
# Builds the libFuzzer target fuzz-wire.c with clang (ASan+UBSan) and runs it
# for a bounded time from a seed corpus of the frames in test data icrc.txt
# and one PFC frame.  Exits non-zero on a crash, a failed check or no clang.
#   fuzz-wire.sh SOURCE_DIR BINARY_DIR [SECONDS]
# FUZZ_CC overrides the compiler (default clang); the run is deterministic (-seed=1).
set -eu
. "$(dirname "$0")/../lib.sh"
src=$1
out=$2
secs=${3:-20}
cc=${FUZZ_CC:-clang}
core=$src/src/feroce/core

if ! command -v "$cc" > /dev/null 2>&1; then
    echo "fuzz-wire: $cc not found; install clang with libFuzzer (Debian: apt-get install clang)" >&2
    exit 1
fi
mkdir -p "$out"
if ! "$cc" -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -g -O1 -std=c11 -Wall -Wextra \
    -I"$core" "$src/src/feroce/test/fuzz/fuzz-wire.c" "$core/feroce-wire.c" "$core/feroce-icrc.c" \
    -o "$out/fuzz-wire"; then
    echo "fuzz-wire: $cc cannot build a libFuzzer target; install clang (Debian package clang)" >&2
    exit 1
fi

# seeds: each "frame HEX" line of icrc.txt as a binary file, and a PFC frame
rm -rf "$out/seeds" "$out/corpus"
mkdir -p "$out/seeds" "$out/corpus"
hex_to_octal() {
    awk '{
        for (i = 1; i < length($0); i += 2)
            printf "\\%03o", (index("0123456789abcdef", substr($0, i, 1)) - 1) * 16 + \
                             index("0123456789abcdef", substr($0, i + 1, 1)) - 1
    }'
}
n=0
grep '^frame ' "$src/src/feroce/test/data/icrc.txt" | while read -r _ hex; do
    n=$((n + 1))
    # shellcheck disable=SC2059 # the format is the octal escapes
    printf "$(printf '%s' "$hex" | tr 'A-F' 'a-f' | hex_to_octal)" > "$out/seeds/icrc-$n"
done
pfc=0180c200000102000000000188080101008100ff0000000000000000000000000001
printf "$(printf '%s%052d' "$pfc" 0 | hex_to_octal)" > "$out/seeds/pfc"
if [ "$(ls "$out/seeds" | wc -l)" -lt 2 ]; then
    echo "fuzz-wire: no seeds from $src/src/feroce/test/data/icrc.txt" >&2
    exit 1
fi

cd "$out"
check "fuzz-wire: no crash, sanitizer report or failed check in $secs s" \
    ./fuzz-wire -max_total_time="$secs" -seed=1 -print_final_stats=1 -artifact_prefix="$out/" \
    corpus seeds
finish
