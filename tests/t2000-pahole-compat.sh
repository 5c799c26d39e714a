#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# pahole front end: our output must equal Debian's pahole 1.24 (the oracle)
# byte for byte, on every fixture, for the default listing, --hex, -s,
# -E -C <first struct>; and be identical for -j1 and -j4.
# Known, deliberate differences are listed in docs/compat.md; a fixture whose
# name matches an "xfail" line of tests/compat/pahole.xfail is compared but
# its difference does not fail the test (it must still differ, so a fixed
# case is noticed).
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd pahole
ORACLE=$(command -v pahole)
OURS="$D2B_BUILD/pahole"
[ -x "$OURS" ] || d2b_fail "no $OURS"
"$ORACLE" --version 2>/dev/null | grep -qx 'v1.24' || d2b_skip "oracle is not pahole v1.24"

fx=$(d2b_fixtures) || d2b_fail "fixtures"
tmp=$(d2b_tmpdir)
xfail="$D2B_SRC/tests/compat/pahole.xfail"
fails=0 checked=0

is_xfail() {	# $1 = fixture basename, $2 = option set
	[ -f "$xfail" ] || return 1
	grep -v '^#' "$xfail" | while read -r id glob opts; do
		[ -n "$id" ] || continue
		# shellcheck disable=SC2053
		if [[ $1 == $glob ]] && [ "$opts" = "$2" -o "$opts" = "*" ]; then
			echo "$id"
			return 0
		fi
	done | grep -q .
}

compare() {	# $1 = file, rest = options
	local f=$1; shift
	local name; name=$(basename "$f")
	"$ORACLE" "$@" "$f" >"$tmp/ref.out" 2>"$tmp/ref.err"
	"$OURS" "$@" "$f" >"$tmp/our.out" 2>"$tmp/our.err"
	checked=$((checked + 1))
	if cmp -s "$tmp/ref.out" "$tmp/our.out" && cmp -s "$tmp/ref.err" "$tmp/our.err"; then
		if is_xfail "$name" "$*"; then
			echo "XPASS: $name [$*] (remove it from tests/compat/pahole.xfail)"
			fails=$((fails + 1))
		fi
		return
	fi
	if is_xfail "$name" "$*"; then
		echo "xfail: $name [$*]"
		return
	fi
	echo "FAIL: $name [$*]"
	diff -u "$tmp/ref.out" "$tmp/our.out" | head -20
	diff -u "$tmp/ref.err" "$tmp/our.err" | head -5
	fails=$((fails + 1))
}

for f in $fx; do
	compare "$f"
	compare "$f" --hex
	compare "$f" -s
	first=$("$ORACLE" -s "$f" 2>/dev/null | head -1 | cut -f1)
	[ -n "$first" ] && compare "$f" -E -C "$first"
	"$OURS" -j1 "$f" >"$tmp/j1.out" 2>&1
	"$OURS" -j4 "$f" >"$tmp/j4.out" 2>&1
	cmp -s "$tmp/j1.out" "$tmp/j4.out" || { echo "FAIL: $f: -j1 and -j4 differ"; fails=$((fails + 1)); }
done

# error path: a missing file is one line "pahole: ..." and exit 1
"$OURS" /nonexistent/file >"$tmp/o" 2>"$tmp/e"; rc=$?
[ $rc -eq 1 ] || { echo "FAIL: missing file exit $rc"; fails=$((fails + 1)); }
[ "$(wc -l <"$tmp/e")" -eq 1 ] && grep -q '^pahole: ' "$tmp/e" ||
	{ echo "FAIL: missing file message"; cat "$tmp/e"; fails=$((fails + 1)); }
[ "$("$OURS" --version)" = "v1.24" ] || { echo "FAIL: --version"; fails=$((fails + 1)); }

echo "$checked comparisons, $fails failures"
[ $fails -eq 0 ]
