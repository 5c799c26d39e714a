#!/usr/bin/env bash
# Install what the tests need (Debian 12 packages: compilers, the oracles
# libdw, pahole 1.24, bpftool), build, and run every test with ctest.
#
#   D2B_CORPUS=0   skip the kernel-scale tests (they fetch a Debian cloud
#                  kernel's debug package, ~280 MB, into ~/.cache/dwarf2btf)
#   D2B_SANITIZERS=0  skip the ASan+UBSan and TSan runs
#   D2B_FUZZ_SECONDS=N  seconds per fuzz harness in the smoke run (0: none)
set -euo pipefail
cd "$(dirname "$0")"

deps="cmake make gcc g++ libc6-dev clang llvm pkg-config libelf-dev libbpf-dev zlib1g-dev libzstd-dev
      libdw-dev elfutils dwarves bpftool binutils time python3 libclang-rt-14-dev"
missing=
for p in $deps; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q ' installed$' || missing="$missing $p"
done
if [ -n "$missing" ]; then
	sudo=; [ "$(id -u)" = 0 ] || sudo=sudo
	$sudo apt-get update -qq
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
fi

export D2B_CORPUS=${D2B_CORPUS:-1}
if [ "$D2B_CORPUS" = 1 ]; then
	bench/fetch-corpus.sh >/dev/null
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j"$(nproc)" "$@"

# The same suite under ASan+UBSan (without the kernel-scale tests), and the
# multi-threaded tests under TSan. D2B_SANITIZERS=0 skips both.
if [ "${D2B_SANITIZERS:-1}" = 1 ] && [ $# = 0 ]; then
	for san in address thread; do
		cmake -S . -B "build-$san" -DD2B_SANITIZE=$san >/dev/null
		cmake --build "build-$san" -j"$(nproc)" >/dev/null
	done
	D2B_CORPUS=0 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1 \
		ctest --test-dir build-address --output-on-failure -j"$(nproc)"
	D2B_CORPUS=0 TSAN_OPTIONS=halt_on_error=1 \
		ctest --test-dir build-thread --output-on-failure -j"$(nproc)" \
		-R 'unit/test_pool|unit/test_btf_cut_names|t0200|t2000|t3000|t6030|t6035'
fi

# A short libFuzzer run of each harness (fuzz/README.md); D2B_FUZZ_SECONDS=0
# skips it. Every input that ever crashed is replayed by t7000 above, which
# fails the run. A NEW finding of this smoke is printed loudly (artifact path
# in the log) but fails the run only with D2B_FUZZ_STRICT=1: fuzzing finds new
# bugs at random, and a landing must not depend on the fuzzer's luck. Add the
# artifact to fuzz/regressions/ and fix it.
if [ "${D2B_FUZZ_SECONDS:-60}" != 0 ] && [ $# = 0 ]; then
	rc=0
	D2B_FUZZ_BUILD="$PWD/build-fuzz" D2B_FUZZ_SECONDS=${D2B_FUZZ_SECONDS:-60} \
		D2B_FUZZ_SEED=${D2B_FUZZ_SEED-1} \
		bash fuzz/smoke.sh || rc=$?
	if [ $rc != 0 ] && [ $rc != 77 ]; then
		echo "test.sh: FUZZ SMOKE FOUND A NEW FAILURE (see above): add it to fuzz/regressions/" >&2
		if [ "${D2B_FUZZ_STRICT:-0}" = 1 ]; then
			exit $rc
		fi
	fi
fi
# The script's status must not be that of the last test above (a false
# `[ ... ] && exit` made a non-strict fuzz finding fail the run).
exit 0
