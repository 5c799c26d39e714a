#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# pahole --compile against Debian's pahole 1.24, byte for byte (stdout,
# stderr, exit status). 1.24 takes BTF only ("--compile currently only
# works with BTF."), so each fixture build (DWARF 5 at -O0, and the ET_REL
# object) is encoded by 1.24's own -J on a copy and both read that BTF:
# the whole listing, -C on the first and last struct (no ';' after the
# type), a missing name with and without --skip_missing, and options that
# --compile ignores without -C. A build whose plain -F btf listing differs
# from 1.24's (its BTF loader reads no type tags: docs/compat.md P5) is left
# out. On DWARF, which is ours only, every C build's output must compile.
ORACLE=$(command -v pahole)
OURS="$D2B_BUILD/pahole"

. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd pahole gcc
[ -x "$OURS" ] || d2b_fail "no $OURS"
"$ORACLE" --version 2>/dev/null | grep -qx 'v1.24' || d2b_skip "oracle is not pahole v1.24"

fx=$(d2b_fixtures) || d2b_fail "fixtures"
tmp=$(d2b_tmpdir)

run() {		# $1 = out prefix, $2 = program, the rest: arguments
	local out=$1 prog=$2
	shift 2
	timeout 60 "$prog" "$@" >"$out.out" 2>"$out.err"
	echo "exit $?" >>"$out.err"
}

checked=0 fails=0 skipped=0 compiled=0
for f in $fx; do
	case ${f##*/} in
	*.O0.dwarf5|*.o) ;;
	*) continue ;;
	esac
	name=${f##*/}
	btf=$tmp/$name.btf
	cp "$f" "$btf" || d2b_fail "cp"
	# (1.24's encoder: the BTF both read)
	if ! "$ORACLE" -J "$btf" >/dev/null 2>&1; then
		skipped=$((skipped + 1))
		continue
	fi
	run "$tmp/ref" "$ORACLE" -F btf "$btf"
	run "$tmp/our" "$OURS" -F btf "$btf"
	if ! cmp -s "$tmp/ref.out" "$tmp/our.out" || ! cmp -s "$tmp/ref.err" "$tmp/our.err"; then
		skipped=$((skipped + 1))
		continue
	fi
	names=$("$ORACLE" -F btf -s "$btf" 2>/dev/null | cut -f1)
	first=$(echo "$names" | head -1)
	last=$(echo "$names" | tail -1)
	sets=("--compile" "--compile -E --suppress_aligned_attribute --suppress_packed --flat_arrays"
	      "--compile -C nosuch")
	if [ -n "$first" ]; then
		sets+=("--compile -C $first" "--compile -E -C $last,$first"
		       "--compile -C nosuch,$first" "--compile --skip_missing -C nosuch,$last,$first"
		       "--compile --suppress_aligned_attribute -C $last")
	fi
	for opts in "${sets[@]}"; do
		# shellcheck disable=SC2086 # options split at blanks
		run "$tmp/ref" "$ORACLE" -F btf $opts "$btf"
		# shellcheck disable=SC2086
		run "$tmp/our" "$OURS" -F btf $opts "$btf"
		# 1.24 crashed, or gave up at a typedef of void ("tag not
		# found, please report": we print "typedef void NAME;",
		# docs/compat.md): nothing to compare
		if grep -qE '^exit (134|139)$' "$tmp/ref.err" ||
		   grep -q 'typedef__emit_definitions.*tag not found' "$tmp/ref.err"; then
			continue
		fi
		checked=$((checked + 1))
		d2b_same_run "$tmp/ref" "$tmp/our" "$name [$opts]" || fails=$((fails + 1))
	done
	# DWARF, ours only: C compiles (the same emitter; a declaration is no
	# definition there)
	case $name in
	cxx_*|pahole_cxx*|pfunct_*) ;;
	*)
		"$OURS" --compile "$f" >"$tmp/dw.h" 2>"$tmp/dw.err" ||
			{ fails=$((fails + 1)); echo "FAIL: $name: --compile on DWARF exits $?"; }
		if [ -s "$tmp/dw.h" ]; then
			if gcc -fsyntax-only -w -x c "$tmp/dw.h" 2>"$tmp/cc.err"; then
				compiled=$((compiled + 1))
			else
				echo "note: $name: DWARF --compile output does not compile (1.24's emitter):"
				head -3 "$tmp/cc.err"
			fi
		fi
		;;
	esac
done
echo "$checked comparisons, $fails failures ($skipped builds left out); $compiled DWARF outputs compile"
[ "$checked" -gt 100 ] || d2b_fail "too few comparisons ($checked)"
[ "$compiled" -gt 20 ] || d2b_fail "too few DWARF outputs compile ($compiled)"
[ $fails -eq 0 ]
