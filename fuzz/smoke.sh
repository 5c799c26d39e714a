#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# fuzz/smoke.sh: every harness for ${D2B_FUZZ_SECONDS:-60} seconds (see
# fuzz/run.sh); exits non-zero when any of them crashed, leaked or hung.
# Exits 77 (skipped) when the fuzz build is missing and cannot be made.
set -u
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${D2B_FUZZ_BUILD:-$(dirname "$src")/build-fuzz}
secs=${D2B_FUZZ_SECONDS:-60}
if ! command -v clang >/dev/null; then
	echo "fuzz/smoke.sh: no clang: skipped" >&2
	exit 77
fi
if ! cmake -S "$src" -B "$build" -DCMAKE_C_COMPILER=clang -DD2B_FUZZ=ON \
	-DD2B_SANITIZE=address > /dev/null ||
   ! cmake --build "$build" -j2 --target fuzz_dwarf fuzz_cli fuzz_btf fuzz_encode fuzz_dedup fuzz_encode_base > /dev/null; then
	echo "fuzz/smoke.sh: cannot build the harnesses in $build" >&2
	exit 1
fi
export D2B_FUZZ_BUILD=$build
fails=0
for h in fuzz_dwarf fuzz_cli fuzz_btf fuzz_encode fuzz_dedup fuzz_encode_base; do
	printf '%s: ' "$h"
	# D2B_FUZZ_SEED fixes libFuzzer's seed (CI does, so that a run that
	# passed once keeps exploring the same way; unset: a random seed).
	bash "$src/fuzz/run.sh" "$h" "$secs" ${D2B_FUZZ_SEED:+-seed=$D2B_FUZZ_SEED} ||
		fails=$((fails + 1))
done
[ $fails = 0 ]
