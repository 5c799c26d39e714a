#!/usr/bin/env bash
# Install what the tests need (Debian 12 packages: compilers, the oracles
# libdw, pahole 1.24, bpftool), build, and run every test with ctest.
#
#   D2B_CORPUS=0   skip the kernel-scale tests (they fetch a Debian cloud
#                  kernel's debug package, ~280 MB, into ~/.cache/dwarf2btf)
set -euo pipefail
cd "$(dirname "$0")"

deps="cmake make gcc g++ clang llvm pkg-config libelf-dev libbpf-dev zlib1g-dev libzstd-dev
      libdw-dev elfutils dwarves bpftool binutils time"
missing=
for p in $deps; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q ' installed$' || missing="$missing $p"
done
if [ -n "$missing" ]; then
	sudo=; [ "$(id -u)" = 0 ] || sudo=sudo
	$sudo apt-get update -qq
	$sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
fi

export D2B_CORPUS=${D2B_CORPUS:-1}
if [ "$D2B_CORPUS" = 1 ]; then
	bench/fetch-corpus.sh >/dev/null
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j"$(nproc)" "$@"
