#!/usr/bin/env bash
# Build dwarf2btf and run its main job on an embedded default: it compiles a
# small sample program and prints its struct layouts and functions from the
# DWARF it reads. On a fresh Debian 12 machine it first installs the build
# dependencies (as root, or through sudo).
set -euo pipefail
cd "$(dirname "$0")"

build_deps="cmake make gcc libc6-dev pkg-config libelf-dev libbpf-dev zlib1g-dev libzstd-dev"
missing=$(dpkg-query -W -f='${Package} ${Status}\n' $build_deps 2>/dev/null |
	awk '!/ installed$/ {print $1}')
for p in $build_deps; do
	dpkg-query -W "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "${missing// /}" ]; then
	sudo=; [ "$(id -u)" = 0 ] || sudo=sudo
	$sudo apt-get update -qq
	$sudo apt-get install -y -qq $missing >/dev/null
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
exec ./build/dwarf2btf "$@"
