#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# pfunct's function bodies and -b/--compile against Debian's pfunct 1.24,
# byte for byte (stdout; ours must exit 0): -i and -T -V (the block tree: variables and
# their scopes, labels, lexical blocks with their offsets and sizes, inline
# expansions with their sizes summed over DW_AT_ranges), -I, -t, their
# mixes with -E, -s, -P, -l, and -f's bodies (-i, -T without addresses, -T
# -l, -T -s); -b and --compile (each function's types before it, the
# struct a type is only declared as printed empty, 1.24's bodies of return
# statements), on tests/pfunct_bodies (hot/cold split functions, expansions
# inside expansions, 20 nested blocks, three units sharing a static inline
# and an external function) built by gcc and clang, -O0 and -O2, DWARF 4
# and 5, as objects (whose addresses 1.24 lays out from 0x10000) and as
# executables. The kernel's (-I, -t; -i on modules) are t3001's.
ORACLE=$(command -v pfunct)
OURS="$D2B_BUILD/pfunct"

. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd pfunct gcc clang
[ -x "$OURS" ] || d2b_fail "no $OURS"
"$ORACLE" --version 2>/dev/null | grep -qx 'v1.24' || d2b_skip "oracle is not pfunct v1.24"

tmp=$(d2b_tmpdir)
src=$D2B_SRC/tests/pfunct_bodies
checked=0 fails=0

# same ARGS...: 1.24 and ours, stdout
same() {
	checked=$((checked + 1))
	"$ORACLE" "$@" >"$tmp/want" 2>/dev/null
	if ! "$OURS" "$@" >"$tmp/got" 2>"$tmp/err"; then
		echo "FAIL: pfunct $*: ours exited non-zero: $(head -1 "$tmp/err")" >&2
		fails=$((fails + 1))
	elif ! cmp -s "$tmp/want" "$tmp/got"; then
		echo "FAIL: pfunct $* (- 1.24, + ours)" >&2
		diff -u "$tmp/want" "$tmp/got" | sed -n 3,14p >&2
		fails=$((fails + 1))
	fi
}

modes=("-i" "-T -V" "-I" "-I -V" "-t" "-t -E" "-i -s" "-i -P" "-E -i" "-i -l"
       "-T" "-i --no_parm_names")
for cc in gcc clang; do
	for opt in O0 O2; do
		for dw in 4 5; do
			b=$tmp/$cc-$opt-dw$dw
			cf=(-"$opt" -g -gdwarf-"$dw" -w)
			"$cc" "${cf[@]}" -c "$src/blocks.c" -o "$b-blocks.o" &&
				"$cc" "${cf[@]}" "$src/blocks.c" -o "$b-blocks" &&
				"$cc" "${cf[@]}" -c "$src/deep.c" -o "$b-deep.o" || d2b_fail "build $b"
			for u in a b main; do
				"$cc" "${cf[@]}" -c "$src/multi/$u.c" -o "$b-$u.o" || d2b_fail "build $b $u"
			done
			"$cc" "$b-a.o" "$b-b.o" "$b-main.o" -o "$b-multi" || d2b_fail "link $b"
			"$cc" "${cf[@]}" -c "$src/types.c" -o "$b-types.o" &&
				"$cc" "${cf[@]}" -c "$src/declared.c" -o "$b-declared.o" ||
				d2b_fail "build $b types"
			for f in "$b-blocks.o" "$b-blocks" "$b-deep.o" "$b-multi"; do
				for m in "${modes[@]}"; do
					# shellcheck disable=SC2086
					same $m "$f"
				done
			done
			# -b and --compile: every function's types, and one's
			for f in "$b-types.o" "$b-declared.o" "$b-blocks" "$b-multi"; do
				for m in "-b" "--compile" "-b -l" "--compile -T" "-b -t" "-b -V"; do
					# shellcheck disable=SC2086
					same $m "$f"
				done
			done
			for fn in ret_ptr ret_struct ret_typedef ret_enum ret_const_ptr ret_void; do
				same -b -f "$fn" "$b-types.o"
				same --compile="$fn" "$b-types.o"
			done
			same -b "$b-types.o" "$b-declared.o"
			same --compile "$b-a.o" "$b-b.o" "$b-main.o"
			for fn in nested_blocks sq report_error once_inlined checked_div; do
				for m in "-i -f" "-T -f" "-T -l -f" "-T -s -f"; do
					# shellcheck disable=SC2086
					same $m "$fn" "$b-blocks"
				done
				same -i -f "$fn" "$b-blocks.o"
			done
			# several files: the listing over all their units, and -f
			# once in each file
			for m in "-i" "-I" "-t" "-V"; do
				same "$m" "$b-a.o" "$b-b.o" "$b-main.o"
			done
			same -i -f helper "$b-a.o" "$b-b.o" "$b-main.o"
			same -i -f clamp "$b-a.o" "$b-b.o" "$b-main.o"
			same -i -f deep "$b-deep.o" "$b-deep.o"
		done
	done
done
[ "$checked" -ge 944 ] || d2b_fail "only $checked comparisons"

[ $fails = 0 ] || d2b_fail "$fails of $checked comparisons differ"
echo "ok: $checked comparisons"
