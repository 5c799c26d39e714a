#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The binary is linked as the build says (CMakeLists.txt, "How the libraries
# are linked"): with D2B_STATIC a static PIE (no program interpreter, no
# shared object needed, type DYN so that its layout is randomised); with
# only D2B_STATIC_LIBS glibc alone is shared. Each kind then runs.
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd readelf
cache="$D2B_BUILD/CMakeCache.txt"
[ -f "$cache" ] || d2b_skip "no CMakeCache.txt in $D2B_BUILD"
opt() { sed -n "s/^$1:BOOL=//p" "$cache"; }
static=$(opt D2B_STATIC)
libs=$(opt D2B_STATIC_LIBS)

hdr=$(readelf -hlW "$D2B") || d2b_fail "readelf $D2B"
needed=$(readelf -dW "$D2B" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort | tr '\n' ' ')

case "$static" in
ON)
	echo "$hdr" | grep -q 'INTERP' && d2b_fail "static build has a program interpreter"
	echo "$hdr" | grep -Eq 'Type: +DYN' || d2b_fail "static build is not a PIE: $(echo "$hdr" | grep Type:)"
	[ -z "$needed" ] || d2b_fail "static build needs shared objects: $needed"
	;;
*)
	echo "$hdr" | grep -q 'INTERP' || d2b_fail "dynamic build without a program interpreter"
	if [ "$libs" = ON ]; then
		for n in $needed; do
			case "$n" in
			libc.so.*|ld-linux*) ;;
			*) d2b_fail "D2B_STATIC_LIBS build needs $n" ;;
			esac
		done
	else
		echo "$needed" | grep -q 'libbpf' || d2b_fail "shared build does not need libbpf: $needed"
	fi
	;;
esac

out=$("$D2B" --version) || d2b_fail "--version failed"
case "$out" in
"dwarf2btf "[0-9]*) ;;
*) d2b_fail "--version printed '$out'" ;;
esac
echo "D2B_STATIC=$static D2B_STATIC_LIBS=$libs needed: ${needed:-none}"
