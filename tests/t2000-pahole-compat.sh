#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# pahole front end: our output must equal Debian's pahole 1.24 (the oracle)
# byte for byte, stdout and stderr, on every fixture build:
#   - the default listing on every build;
#   - --hex, -s and -E -C <first struct> on the DWARF 5 builds, the ET_REL
#     object and one DWARF 4 build (O0) of each compiler;
#   - the same bytes for -j1 and -j4 (with threads: --thread_bytes=0) on
#     the multi-unit fixtures.
# Lists read (one line each: ID FIXTURE-GLOB OPTIONS, "*" for every option
# set; OPTIONS is the rest of the line):
#   tests/compat/pahole.xfail  deliberate differences, 1.24 bugs we do not
#                              copy (reasons in docs/compat.md): compared,
#                              reported as "xfail", do not fail the test;
#   tests/compat/pahole.todo   not implemented yet: reported as "TODO (not
#                              implemented yet)", do not fail the test.
# A listed case that stops differing fails the test (XPASS / TODO-PASS), so
# that stale lines are removed.
#
# pahole's outputs are cached in $D2B_BUILD/fixtures/pahole-ref (rebuilt when
# the fixture binary is newer), and the comparisons run two at a time.
ORACLE=$(command -v pahole)
OURS="$D2B_BUILD/pahole"

# Worker mode: one comparison, its report written to $3.
#   t2000-pahole-compat.sh --one REFDIR REPORT FILE [OPTS...]
if [ "${1:-}" = --one ]; then
	refdir=$2 report=$3 f=$4
	shift 4
	name=${f##*/}
	tmp=$report.d
	mkdir "$tmp" || exit 1
	trap 'rm -rf "$tmp"' EXIT
	listed() {	# $1 = list file, $2 = options; prints the ID
		[ -f "$1" ] || return 1
		local id glob opts
		while read -r id glob opts; do
			case $id in ''|'#'*) continue ;; esac
			# shellcheck disable=SC2053
			if [[ $name == $glob ]] && { [ "$opts" = "$2" ] || [ "$opts" = "*" ]; }; then
				echo "$id"
				return 0
			fi
		done <"$1"
		return 1
	}
	if [ "${1:-}" = --jobs ]; then
		"$OURS" -j1 "$f" >"$tmp/j1.out" 2>&1
		# (--thread_bytes=0: threads even for a file this small)
		"$OURS" -j4 --thread_bytes=0 "$f" >"$tmp/j4.out" 2>&1
		cmp -s "$tmp/j1.out" "$tmp/j4.out" ||
			echo "FAIL: $name: -j1 and -j4 differ" >"$report"
		exit 0
	fi
	key=$(printf '%s' "$*" | tr -c 'A-Za-z0-9_,=-' '_')
	ref=$refdir/$name.${key:-default}
	if [ ! -f "$ref.out" ] || [ "$f" -nt "$ref.out" ]; then
		"$ORACLE" "$@" "$f" >"$ref.out.$$" 2>"$ref.err.$$"
		mv -f "$ref.err.$$" "$ref.err"
		mv -f "$ref.out.$$" "$ref.out"
	fi
	"$OURS" "$@" "$f" >"$tmp/our.out" 2>"$tmp/our.err"
	# pahole's loader warnings about DWARF tags it cannot handle name its
	# own functions; we do not print them (docs/compat.md, "stderr")
	grep -vE -e '^die__process_[a-z_]+: tag not supported 0x[0-9a-f]+ \([A-Za-z0-9_]+\)!$' \
		-e '^(tag|namespace)__recode_dwarf_types?: couldn.t find 0x[0-9a-f]+ type for 0x[0-9a-f]+ \(imported_declaration\)!$' \
		-e '^DW_AT_<0x[0-9a-f]+>=0x[0-9a-f]+$' \
		"$ref.err" >"$tmp/ref.err"
	xf=$(listed "$D2B_SRC/tests/compat/pahole.xfail" "$*")
	td=$(listed "$D2B_SRC/tests/compat/pahole.todo" "$*")
	# P4 (docs/compat.md): pahole prints nothing for an rvalue reference
	# type; gcc declares every class's implicit move constructor and
	# assignment, so in C++ fixtures a parameter "T &&" is compared as
	# pahole's empty one (members of such types: cxx_rvalue, in the xfail)
	case $name in
	*cxx*)
		# (a type's template arguments may hold commas: <...> balanced)
		perl -pe 's/(\(|, )(?:[^,()<>]|(<(?:[^<>]++|(?2))*>))*?&&(?=[,)])/$1/g' \
			"$tmp/our.out" >"$tmp/our.p4" && mv "$tmp/our.p4" "$tmp/our.out" ;;
	esac
	if cmp -s "$ref.out" "$tmp/our.out" && cmp -s "$tmp/ref.err" "$tmp/our.err"; then
		if [ -n "$xf" ]; then
			echo "XPASS: $name [$*] (remove $xf from tests/compat/pahole.xfail)"
		elif [ -n "$td" ]; then
			echo "TODO-PASS: $name [$*] (remove $td from tests/compat/pahole.todo)"
		else
			echo "ok"
		fi
	elif [ -n "$xf" ]; then
		echo "xfail $xf: $name [$*]"
	elif [ -n "$td" ]; then
		echo "TODO (not implemented yet) $td: $name [$*]"
	else
		echo "FAIL: $name [$*]"
		diff -u "$ref.out" "$tmp/our.out" | head -20
		diff -u "$tmp/ref.err" "$tmp/our.err" | head -5
	fi >"$report"
	exit 0
fi

. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd pahole
[ -x "$OURS" ] || d2b_fail "no $OURS"
"$ORACLE" --version 2>/dev/null | grep -qx 'v1.24' || d2b_skip "oracle is not pahole v1.24"

fx=$(d2b_fixtures) || d2b_fail "fixtures"
tmp=$(d2b_tmpdir)
refdir=$D2B_BUILD/fixtures/pahole-ref
mkdir -p "$refdir" "$tmp/reports" || d2b_fail "mkdir"

# The job list: one comparison a line, "FILE [OPTS...]".
full_options() {	# does build $1 get every option set?
	case $1 in
	*.dwarf5|*.o) return 0 ;;
	*.O0.dwarf4) return 0 ;;
	esac
	return 1
}
for f in $fx; do
	name=$(basename "$f")
	echo "$f"
	if full_options "$name"; then
		echo "$f --hex"
		echo "$f -s"
	fi
	fixture=${name%%.*}
	[ -d "$D2B_SRC/tests/fixtures/$fixture" ] && echo "$f --jobs"
done >"$tmp/jobs"

run_jobs() {	# $1 = job list, $2 = prefix of the report names
	local n=0
	while read -r line; do
		n=$((n + 1))
		echo "$refdir $tmp/reports/$2$(printf %05d $n) $line"
	done <"$1" | xargs -P2 -L1 bash "$0" --one
}
run_jobs "$tmp/jobs" a

# -E -C <first struct of -s>, once the -s outputs are cached.
for f in $fx; do
	name=$(basename "$f")
	full_options "$name" || continue
	first=$(head -1 "$refdir/$name.-s.out" 2>/dev/null | cut -f1)
	[ -n "$first" ] && echo "$f -E -C $first"
done >"$tmp/jobs2"
run_jobs "$tmp/jobs2" b

fails=0 checked=0 xfails=0 todos=0
for r in "$tmp"/reports/*; do
	checked=$((checked + 1))
	case $(head -c 5 "$r") in
	ok) ;;
	xfail) xfails=$((xfails + 1)); cat "$r" ;;
	TODO\ ) todos=$((todos + 1)); cat "$r" ;;
	*) fails=$((fails + 1)); cat "$r" ;;
	esac
done
[ "$checked" -gt 0 ] || d2b_fail "no comparison ran"

# P9: pointers to members and std::nullptr_t have the ABI's sizes (the
# compilers give none), so the layout adds up
mp=0
for f in $(printf '%s\n' $fx | grep '/cxx_member_ptrs\.'); do
	mp=$((mp + 1))
	"$OURS" -C MemberPtrs "$f" >"$tmp/mp.out" 2>&1
	for want in 'data_ptr; +/\* +8 +8 \*/' 'method_ptr; +/\* +16 +16 \*/' \
		'none; +/\* +32 +8 \*/' 'data_ptrs\[2\]; +/\* +48 +16 \*/' \
		'sum members: 51, holes: 2, sum holes: 13'; do
		grep -qE "$want" "$tmp/mp.out" ||
			{ echo "FAIL: $(basename "$f"): no line /$want/"; fails=$((fails + 1)); }
	done
	! grep -q 'BRAIN FART' "$tmp/mp.out" ||
		{ echo "FAIL: $(basename "$f"): the sums do not add up"; fails=$((fails + 1)); }
done
[ $mp -ge 4 ] || { echo "FAIL: only $mp builds of cxx_member_ptrs"; fails=$((fails + 1)); }

# P11: the nested struct of a packed class has its holes; P12: a class
# whose reference sits at an odd offset is packed
for f in $(printf '%s\n' $fx | grep '/cxx_packed_nested\.gcc\.'); do
	"$OURS" -C Outer "$f" >"$tmp/p11.out" 2>&1
	grep -qF '/* sum members: 9, holes: 1, sum holes: 3 */' "$tmp/p11.out" && ! grep -q 'BRAIN FART' "$tmp/p11.out" ||
		{ echo "FAIL: $(basename "$f"): the nested struct's hole"; fails=$((fails + 1)); }
done
for f in $(printf '%s\n' $fx | grep '/cxx_packed_ref\.'); do
	"$OURS" -C WithRef "$f" 2>&1 | grep -qxF '} __attribute__((__packed__));' ||
		{ echo "FAIL: $(basename "$f"): WithRef not packed"; fails=$((fails + 1)); }
done

# P10: a using-declaration of a type prints the type's name
for f in $(printf '%s\n' $fx | grep '/cxx_using_type\.gcc\.'); do
	"$OURS" -C Derived "$f" 2>&1 | grep -qxF '	using ::value_type;' ||
		{ echo "FAIL: $(basename "$f"): no 'using ::value_type;'"; fails=$((fails + 1)); }
done

# error path: a missing file is one line "pahole: ..." and exit 1
"$OURS" /nonexistent/file >"$tmp/o" 2>"$tmp/e"; rc=$?
[ $rc -eq 1 ] || { echo "FAIL: missing file exit $rc"; fails=$((fails + 1)); }
[ "$(wc -l <"$tmp/e")" -eq 1 ] && grep -q '^pahole: ' "$tmp/e" ||
	{ echo "FAIL: missing file message"; cat "$tmp/e"; fails=$((fails + 1)); }
# --thread_bytes (ours: threads for this much DWARF each) takes a byte count
for bad in x -1 12k ''; do
	rc=0
	"$OURS" -j2 --thread_bytes="$bad" /proc/self/exe >"$tmp/o" 2>"$tmp/e" || rc=$?
	[ $rc -eq 1 ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] &&
		grep -q "^pahole: invalid --thread_bytes value '$bad'" "$tmp/e" ||
		{ echo "FAIL: --thread_bytes='$bad': exit $rc: $(cat "$tmp/e")"; fails=$((fails + 1)); }
done
# --version is not the oracle's: the newest release whose kernel-facing
# options we support (docs/compat.md, "pahole --version"; t6095 checks them)
[ "$("$OURS" --version)" = "v1.27" ] || { echo "FAIL: --version"; fails=$((fails + 1)); }

echo "$checked comparisons: $fails failures, $xfails xfail, $todos TODO (not implemented yet)"
[ $fails -eq 0 ]
