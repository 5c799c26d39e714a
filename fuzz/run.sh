#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# fuzz/run.sh HARNESS SECONDS [LIBFUZZER-OPTION...]
#
# Runs one libFuzzer harness (fuzz_dwarf, fuzz_cli, fuzz_btf, fuzz_encode,
# fuzz_dedup, fuzz_encode_base)
# for SECONDS on one
# core. The harnesses come from a clang build configured with
#   cmake -S . -B ../build-fuzz -DCMAKE_C_COMPILER=clang -DD2B_FUZZ=ON -DD2B_SANITIZE=address
# ($D2B_FUZZ_BUILD names another build directory). The seed corpus is made
# by fuzz/seeds.sh into BUILD/fuzz/seeds/HARNESS the first time; what the
# fuzzer learns goes to BUILD/fuzz/corpus/HARNESS (kept between runs), and
# a crashing input to BUILD/fuzz/artifacts/HARNESS/. The last libFuzzer
# status line ("#N DONE cov: ... ft: ... exec/s: ...") is in the log,
# BUILD/fuzz/HARNESS.log. Exits non-zero when the harness crashed, leaked,
# hung (-timeout) or ran out of memory (-rss_limit_mb).
set -u
if [ $# -lt 2 ]; then
	echo "usage: fuzz/run.sh HARNESS SECONDS [LIBFUZZER-OPTION...]" >&2
	exit 2
fi
harness=$1 secs=$2
shift 2
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${D2B_FUZZ_BUILD:-$(dirname "$src")/build-fuzz}
bin=$build/fuzz/$harness
if [ ! -x "$bin" ]; then
	echo "fuzz/run.sh: $bin not built (configure $build with -DD2B_FUZZ=ON)" >&2
	exit 2
fi
seeds=$build/fuzz/seeds/$harness
corpus=$build/fuzz/corpus/$harness
art=$build/fuzz/artifacts/$harness
log=$build/fuzz/$harness.log
if [ ! -d "$seeds" ] || [ -z "$(ls -A "$seeds" 2>/dev/null)" ]; then
	bash "$src/fuzz/seeds.sh" "$harness" "$seeds" || exit 2
fi
mkdir -p "$corpus" "$art"
dict=()
[ -f "$src/fuzz/$harness.dict" ] && dict=("-dict=$src/fuzz/$harness.dict")
# Leaks are reported at exit; UBSan findings abort (the build has
# -fno-sanitize-recover=undefined).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
rc=0
"$bin" "$corpus" "$seeds" "${dict[@]}" \
	-max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 -malloc_limit_mb=2048 \
	-max_len=65536 -close_fd_mask=2 -print_final_stats=1 \
	-error_exitcode=1 -timeout_exitcode=1 \
	-artifact_prefix="$art/" "$@" > "$log" 2>&1 || rc=$?
# The last status line (cov: edges, ft: features, exec/s) and the totals.
grep -E '^#[0-9]+:?[[:space:]].*cov:' "$log" | tail -n 1
grep -E '^stat::' "$log" | tr -s ' \n' ' '
echo
if [ $rc != 0 ]; then
	echo "fuzz/run.sh: $harness failed (exit $rc); log $log:" >&2
	grep -E 'ERROR|runtime error|SUMMARY|Test unit written|crash-|leak-|timeout-|oom-' "$log" | head -20 >&2
	# The first frames of the report's stack: where it went wrong, in a
	# CI log that keeps no artifact (a stack overflow's repeating frames
	# name the cycle).
	awk '/ERROR: |runtime error/ { on = 1 }
	     on && /^ *#[0-9]+ 0x/ { print; if (++n == 24) exit }' "$log" >&2
	# And the input itself when it is small, so that a finding on a
	# machine that is gone can be replayed: base64 -d > FILE.
	unit=$(sed -n 's/.*Test unit written to \([^ ]*\).*/\1/p' "$log" | head -n 1)
	if [ -n "$unit" ] && [ -f "$unit" ] && [ "$(stat -c %s "$unit")" -le 32768 ]; then
		echo "fuzz/run.sh: the input ($(stat -c %s "$unit") bytes), base64:" >&2
		base64 -w 76 "$unit" >&2
		echo "fuzz/run.sh: end of the input" >&2
	fi
fi
exit $rc
