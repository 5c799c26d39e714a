#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# References into type units (DW_FORM_ref_sig8, docs/compat.md P3): pahole
# 1.24 is no oracle there (it aborts on DWARF 4 .debug_types and loses the
# members whose types live in DWARF 5 type units), so the oracle is the same
# source built without type units. For each compiler that puts the fixture's
# types into type units (gcc for C and C++, clang for C++ with DWARF 4),
# -O0/-O2, DWARF 4 and 5:
#   - the build really has type units and ref_sig8 references (else this
#     test would prove nothing);
#   - `pahole -C NAME` prints every struct, union and class byte for byte as
#     in the build without type units;
#   - the struct whose members' types all live in type units shows those
#     members with their types, offsets and sizes (named, so that a wrong
#     oracle build cannot make the comparison pass vacuously).
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd gcc g++ readelf
OURS="$D2B_BUILD/pahole"
[ -x "$OURS" ] || d2b_fail "no $OURS"
tmp=$(d2b_tmpdir)

# check SRC DRIVER V O NAME...: build SRC with and without type units
check() {
	local src=$1 drv=$2 v=$3 o=$4 name
	shift 4
	local b=$tmp/$(basename "$src").$drv.O$o.dwarf$v
	"$drv" -g -gdwarf-"$v" -O"$o" -w -fdebug-types-section -o "$b.tu" "$src" ||
		{ fail "build $b.tu"; return; }
	"$drv" -g -gdwarf-"$v" -O"$o" -w -o "$b.plain" "$src" ||
		{ fail "build $b.plain"; return; }
	# type units: DWARF 4 .debug_types, DWARF 5 units of type DW_UT_type
	if [ "$v" = 4 ]; then
		readelf -S "$b.tu" | grep -q '\.debug_types' ||
			{ fail "$b.tu has no .debug_types"; return; }
	else
		readelf --debug-dump=info "$b.tu" 2>/dev/null | grep -q 'DW_UT_type' ||
			{ fail "$b.tu has no type unit"; return; }
	fi
	readelf --debug-dump=info "$b.tu" 2>/dev/null | grep -q 'signature: 0x' ||
		{ fail "$b.tu has no DW_FORM_ref_sig8 reference"; return; }
	for name in "$@"; do
		"$OURS" -C "$name" "$b.plain" >"$b.$name.plain" 2>&1
		"$OURS" -C "$name" "$b.tu" >"$b.$name.tu" 2>&1
		checked=$((checked + 1))
		[ -s "$b.$name.plain" ] || { fail "$b.plain: no $name"; continue; }
		grep -q 'ERROR' "$b.$name.tu" && fail "$b.tu: $name has an error"
		diff -u "$b.$name.plain" "$b.$name.tu" >"$b.$name.diff" ||
			{ fail "$b.tu: $name differs from the build without type units"; head -20 "$b.$name.diff"; }
	done
	# tu_tagged's members: enum, anonymous union of a struct and a union,
	# pointer to itself, pointer to a const struct, all in type units
	if [ "$(basename "$src")" = type_units.c ]; then
		grep -qE '^	enum tu_kind +kind; +/\* +0 +4 \*/$' "$b.tu_tagged.tu" ||
			fail "$b.tu: tu_tagged.kind is not 'enum tu_kind' at 0, size 4"
		grep -qE '^		struct tu_point +pt; +/\* +8 +8 \*/$' "$b.tu_tagged.tu" ||
			fail "$b.tu: tu_tagged's union lacks 'struct tu_point pt' at 8"
		grep -qE '^	const struct tu_point  \* +ref; +/\* +24 +8 \*/$' "$b.tu_tagged.tu" ||
			fail "$b.tu: tu_tagged.ref is not 'const struct tu_point *' at 24"
	fi
}

c_src=$D2B_SRC/tests/fixtures/type_units.c
cxx_src=$D2B_SRC/tests/fixtures/cxx_type_units.cc
for v in 4 5; do
	for o in 0 2; do
		check "$c_src" gcc $v $o tu_tagged tu_point tu_value
		check "$cxx_src" g++ $v $o Vec List Node
	done
done
# clang puts C++ types with linkage into type units (DWARF 4 .debug_types
# and DWARF 5 alike); 1.24 aborts on the DWARF 4 ones
if command -v clang++ >/dev/null 2>&1; then
	for v in 4 5; do
		check "$cxx_src" clang++ $v 0 Vec List Node
	done
fi

d2b_finish
