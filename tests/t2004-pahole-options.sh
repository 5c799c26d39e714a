#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# pahole's listing options against Debian's pahole 1.24, byte for byte
# (stdout and stderr), on the fixture builds that t2000 gives every option
# set (DWARF 5, the ET_REL object, DWARF 4 at -O0):
#   filters    --structs, --unions, --packed, --with_flexible_array, -x, -y,
#              -D, -X, -H, -B, -z, -a, -a -A (docs/compat.md, "Options");
#   formatters -n, -N, -T, -s -T, -t, -z with and without -V before it;
#   printing   -q, -M, --flat_arrays, --suppress_force_paddings,
#              --show_private_classes (structs in structs and functions);
#   --sort     alone, with -s, -T and filters, and as btfdiff runs it;
#   -u, -i (-d, -V), -f, -R (-V) on the first and the last struct of -s;
#   -P, with -V, -a and -t; -m;
#   -l, --classes_as_structs, --lang and --lang_exclude (list syntax and
#              errors included), --skip_missing with -C, --hashbits' check,
#              --kabi_prefix; -p (t2007 has its cases);
#   -I         "Used at" and the DIE's file:line before each type, method,
#              using-declaration and static member (a line 1.24 reads from
#              uninitialised memory where the DIE has no file is compared
#              as 0: docs/compat.md).
# A fixture whose default listing differs from 1.24's on purpose (t2000 and
# tests/compat/pahole.xfail hold why) is left out here: what differs there
# differs with every option.
ORACLE=$(command -v pahole)
OURS="$D2B_BUILD/pahole"

# Worker mode: one fixture build, every option set; report written to $2.
#   t2004-pahole-options.sh --one REPORT FILE
if [ "${1:-}" = --one ]; then
	report=$2 f=$3
	name=${f##*/}
	tmp=$report.d
	mkdir "$tmp" || exit 1
	trap 'rm -rf "$tmp"' EXIT
	run() {		# $1 = out prefix, $2 = program, the rest: options
		local out=$1 prog=$2
		shift 2
		# (bounded: 1.24's -R loops forever, printing, on some C++
		# classes, which ours does not take)
		timeout 60 "$prog" "$@" "$f" 2>"$out.err" | head -c 50000000 >"$out.out"
		echo "exit ${PIPESTATUS[0]}" >>"$out.err"
		# 1.24's loader warnings name its own functions (t2000); a
		# missing decl line is whatever 1.24's memory held
		grep -vE -e '^die__process_[a-z_]+: tag not supported 0x[0-9a-f]+ \([A-Za-z0-9_]+\)!$' \
			-e '^(tag|namespace)__recode_dwarf_types?: couldn.t find 0x[0-9a-f]+ type for 0x[0-9a-f]+ \(imported_declaration\)!$' \
			-e '^DW_AT_<0x[0-9a-f]+>=0x[0-9a-f]+$' "$out.err" >"$out.e2"
		sed -E 's|^(\t*/\* <[0-9a-f]+> \(null\)):[0-9]+ \*/$|\1:0 */|' "$out.out" >"$out.o2"
	}
	run "$tmp/ref" "$ORACLE" -F dwarf
	run "$tmp/our" "$OURS"
	if ! cmp -s "$tmp/ref.o2" "$tmp/our.o2" || ! cmp -s "$tmp/ref.e2" "$tmp/our.e2"; then
		echo "skip $name" >"$report"
		exit 0
	fi
	"$ORACLE" -F dwarf -s "$f" 2>/dev/null | cut -f1 >"$tmp/names"
	first=$(head -1 "$tmp/names")
	last=$(tail -1 "$tmp/names")
	{
		for opts in "-H 1" "-H 2" "-B 1" "-z 2" "-V -z 2" "-z 2 -V" "-n" "-N" "-T" \
			"-s -T" "-T -n" "-t, -s" "--structs" "--unions" "--packed" \
			"--with_flexible_array" "-x s" "-y s" "-y s -x st" "-a" "-a -A" \
			"-a -s" "-a -n" "-a -T" "-a -y s" "-a -A -x s" "-D /usr" "-D /" \
			"-X /usr" "-X /" "-I" "-I -E" "--unions -H 1" "--structs -s -H 1" \
			"-q" "-q -E" "-M" "-M -E" "--flat_arrays" "--flat_arrays -E" \
			"--suppress_force_paddings" "--show_private_classes" \
			"--show_private_classes -s" "--show_private_classes -a -T" \
			"--sort" "--sort -s" "--sort --structs -H 1" "--sort -T" \
			"--first_obj_only" "--first_obj_only -s" \
			"-P" "-P -V" "-P -a" "-P -t," "-m" "-m --structs -x s" "-m -t," \
			"--flat_arrays --sort --suppress_aligned_attribute --suppress_force_paddings --suppress_packed --show_private_classes" \
			"-l" "-l -E" "-l -a --show_private_classes" \
			"--classes_as_structs" "--classes_as_structs -E" "--classes_as_structs -I" \
			"--lang=c89,c99,c11" "--lang=C++,c++14,c++11,c++03" "--lang_exclude=c11" \
			"--lang_exclude=c++ -s" "--lang=c11,,c" "--lang=klingon" \
			"--lang_exclude=c11 --lang=c" "--lang=c11 --lang_exclude=c99" \
			"--hashbits=5 -s" "--hashbits=32" "--hashbits=-1 -n" \
			"--kabi_prefix=s" "--kabi_prefix=p -E" "--kabi_prefix=x -s" \
			"-p" "-p -E" "-p -q -r" "-p --hex"; do
			echo "$opts"
		done
		[ -n "$first" ] && echo "-I -C $first" && echo "-X / -C $first"
		for n in $first $last; do
			echo "-i $n"
			echo "-i $n -d -V"
			echo "-f $n"
			echo "-f $n --structs -x s"
			echo "-u -C $n"
			echo "-R -C $n"
			echo "-R -V -C $n"
		done
		[ -n "$first" ] && echo "-u -C $last,$first" &&
			echo "--first_obj_only -C $last,$first" &&
			echo "-C nosuch,$last,$first" &&
			echo "--skip_missing -C nosuch,$last,nosuch2,$first" &&
			echo "--skip_missing -l --classes_as_structs -C $first,nosuch" &&
			echo "--lang_exclude=c11,c++ -C $first" &&
			echo "--kabi_prefix=${first:0:2} -C ${first:0:2},$last" &&
			echo "-p -C $first,$last" && echo "-p -E -C $last"
	} >"$tmp/sets"
	# -E on the standard library's classes (and -C __, its rvalue
	# references: P4): t2000 compares it, with what
	# differs on purpose (P4, P10) listed in tests/compat/pahole.xfail;
	# their private classes hold pointers to members (P9), and those of
	# clang's type units are P3's
	case $name in
	cxx_stl.*) sed -i -e '/-E/d' -e '/--show_private_classes/d' -e '/--kabi_prefix=__/d' "$tmp/sets" ;;
	cxx_type_units.*) sed -i '/--show_private_classes/d' "$tmp/sets" ;;
	esac
	while read -r opts; do
		# shellcheck disable=SC2086 # options split at blanks
		run "$tmp/our" "$OURS" $opts
		# -R on a C++ class with bases or static members: not ours yet
		# (docs/compat.md), one line and exit 1; 1.24 is not run then
		if grep -q 'does not move yet' "$tmp/our.e2"; then
			echo "unsupported"
			continue
		fi
		# shellcheck disable=SC2086
		run "$tmp/ref" "$ORACLE" -F dwarf $opts
		# 1.24 crashed (-m on cxx_using: a segmentation fault): nothing
		# to compare with
		if grep -qE '^exit (134|139)$' "$tmp/ref.e2"; then
			echo "oracle crashed"
		elif cmp -s "$tmp/ref.o2" "$tmp/our.o2" && cmp -s "$tmp/ref.e2" "$tmp/our.e2"; then
			echo "ok"
		else
			echo "FAIL: $name [$opts]"
			diff -u "$tmp/ref.o2" "$tmp/our.o2" | head -20
			diff -u "$tmp/ref.e2" "$tmp/our.e2" | head -5
		fi
	done <"$tmp/sets" >"$report"
	exit 0
fi

. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd pahole
[ -x "$OURS" ] || d2b_fail "no $OURS"
"$ORACLE" --version 2>/dev/null | grep -qx 'v1.24' || d2b_skip "oracle is not pahole v1.24"

fx=$(d2b_fixtures) || d2b_fail "fixtures"
tmp=$(d2b_tmpdir)
mkdir -p "$tmp/reports" || d2b_fail "mkdir"

n=0
for f in $fx; do
	case ${f##*/} in
	*.dwarf5|*.o|*.O0.dwarf4) ;;
	*) continue ;;
	esac
	n=$((n + 1))
	echo "$tmp/reports/$(printf %05d $n) $f"
done | xargs -P2 -L1 bash "$0" --one

fails=0 checked=0 skipped=0
for r in "$tmp"/reports/*; do
	[ -f "$r" ] || continue
	if grep -q '^skip ' "$r"; then
		skipped=$((skipped + 1))
		continue
	fi
	checked=$((checked + $(grep -c -e '^ok$' -e '^FAIL' "$r")))
	if grep -q '^FAIL' "$r"; then
		fails=$((fails + $(grep -c '^FAIL' "$r")))
		cat "$r"
	fi
done
echo "$checked comparisons, $fails failures ($skipped builds left out: their default listing differs on purpose)"
[ "$checked" -gt 1000 ] || d2b_fail "too few comparisons ($checked)"
[ $fails -eq 0 ]
