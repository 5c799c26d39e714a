#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# pahole -p (--expand_pointers) against Debian's pahole 1.24, byte for
# byte (stdout, stderr, exit status): what pointers reach, expanded with a
# '*' per level before the name; each type once more inside itself (1.24's
# recursivity_level, per type, typedef and qualifier apart); -E's switch
# replaced by it; offset comments only on the outer members, with 1.24's
# spacing after a multi-line member; cacheline comments shared with the
# expansions; the const pointee quirk; with -E, -q, -r, --hex, -M,
# --suppress_aligned_attribute; on gcc's DWARF 5 and 4 and clang's. The
# sources are tests/expand_pointers/t*.c (and t13.cc, C++).
ORACLE=$(command -v pahole)
OURS="$D2B_BUILD/pahole"

. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd pahole gcc g++ clang
[ -x "$OURS" ] || d2b_fail "no $OURS"
"$ORACLE" --version 2>/dev/null | grep -qx 'v1.24' || d2b_skip "oracle is not pahole v1.24"

tmp=$(d2b_tmpdir)
srcdir=$D2B_SRC/tests/expand_pointers
for c in "$srcdir"/t*.c; do
	b=$(basename "$c" .c)
	gcc -g -c "$c" -o "$tmp/$b.o" && gcc -gdwarf-4 -c "$c" -o "$tmp/${b}_d4.o" &&
		clang -g -c -w "$c" -o "$tmp/${b}_cl.o" || d2b_fail "build $b"
done
g++ -g -c "$srcdir/t13.cc" -o "$tmp/t13.o" || d2b_fail "build t13.cc"

checked=0 fails=0
# compare ARGS...: 1.24 (-F dwarf) and ours, in $tmp
compare() {
	(cd "$tmp" && "$ORACLE" -F dwarf "$@" >ref.out 2>ref.err; echo "exit $?" >>ref.err
	 "$OURS" "$@" >our.out 2>our.err; echo "exit $?" >>our.err)
	checked=$((checked + 1))
	d2b_same_run "$tmp/ref" "$tmp/our" "$*" || fails=$((fails + 1))
}

# the types each source is about, with the options that matter to them
while read -r file names; do
	for o in "-p" "-E -p" "-p -q" "-p -r" "-p --hex" "-p -M" "-p --suppress_aligned_attribute" \
		"-E -p -q"; do
		# shellcheck disable=SC2086 # options split at blanks
		compare $o -C "$names" "$file"
	done
done <<'NAMES'
t1.o outer
t1_d4.o outer
t1_cl.o outer
t2.o holder,node
t3.o s1,big
t4.o mods
t5.o anon
t5_cl.o anon
t6.o misc
t6_cl.o misc
t7.o L0
t8.o U
t9_cl.o fpad,user
t10.o top
t11.o td
t12.o tnode
t13.o Bar
t14.o cl
t15.o arrs
t16.o D0
t17.o ln
t18.o TU
t19.o cn
t20.o outer2
NAMES
# whole listings: no state leaks from one type to the next
for c in "$srcdir"/t*.c; do
	b=$(basename "$c" .c)
	for f in "$b.o" "${b}_d4.o" "${b}_cl.o"; do
		for o in "-p" "-E -p" "-p -r"; do
			# shellcheck disable=SC2086
			compare $o "$f"
		done
	done
done
echo "$checked comparisons, $fails failures"
[ "$checked" -gt 300 ] || d2b_fail "too few comparisons ($checked)"
[ $fails -eq 0 ]
