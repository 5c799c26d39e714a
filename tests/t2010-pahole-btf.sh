#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# pahole -F btf: our text must equal Debian's pahole 1.24 (the oracle) byte
# for byte, stdout and stderr, when both read the same BTF:
#   - every *.O2.dwarf5 fixture build, its BTF made two ways:
#       j.BUILD  a copy of the build with .BTF added by the oracle's -J
#                (skipped where the oracle cannot encode it);
#       d.BUILD  a raw BTF file from our --btf_encode_detached;
#     each compared with no option, -E and --hex;
#   - float, double and long double members and parameters in BTF
#     (--btf_gen_floats), which must print as from the DWARF (P8);
#   - a source written here that exercises the alignment pahole infers for
#     BTF (which has none): cacheline-aligned members and structs, aligned
#     unions, bit-fields, negative and 64-bit enumerators;
#   - the corpus vmlinux's shipped .BTF (default and -E; skipped without a
#     corpus, see d2b_corpus in tests/lib.sh).
# tests/compat/pahole-btf.xfail lists the deliberate differences (one line
# each: ID CASE-GLOB OPTIONS, "*" for every option set; CASE is j.BUILD,
# d.BUILD, align.o or vmlinux; docs/compat.md explains each ID). A listed
# case is reported as "xfail" and does not fail the test; a listed case
# that matches fails it (XPASS), so that stale lines are removed.
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd pahole
ORACLE=$(command -v pahole)
OURS="$D2B_BUILD/pahole"
[ -x "$OURS" ] || d2b_fail "no $OURS"
"$ORACLE" --version 2>/dev/null | grep -qx 'v1.24' || d2b_skip "oracle is not pahole v1.24"
XFAIL=$D2B_SRC/tests/compat/pahole-btf.xfail

tmp=$(d2b_tmpdir)
fails=0 checked=0 xfails=0

listed() {	# $1 = case name, $2 = options; prints the ID
	[ -f "$XFAIL" ] || return 1
	local id glob opts
	while read -r id glob opts; do
		case $id in ''|'#'*) continue ;; esac
		# shellcheck disable=SC2053
		if [[ $1 == $glob ]] && { [ "$opts" = "$2" ] || [ "$opts" = "*" ]; }; then
			echo "$id"
			return 0
		fi
	done <"$XFAIL"
	return 1
}

compare() {	# $1 = case name, $2 = BTF file, rest = options
	local name=$1 f=$2 td
	shift 2
	checked=$((checked + 1))
	"$ORACLE" -F btf "$@" "$f" >"$tmp/ref.out" 2>"$tmp/ref.err"
	"$OURS" -F btf "$@" "$f" >"$tmp/our.out" 2>"$tmp/our.err"
	td=$(listed "$name" "$*")
	if cmp -s "$tmp/ref.out" "$tmp/our.out" && cmp -s "$tmp/ref.err" "$tmp/our.err"; then
		if [ -n "$td" ]; then
			echo "XPASS: $name [$*] (remove $td from tests/compat/pahole-btf.xfail)"
			fails=$((fails + 1))
		fi
	elif [ -n "$td" ]; then
		echo "xfail $td: $name [$*]"
		xfails=$((xfails + 1))
	else
		echo "FAIL: $name [$*]"
		diff -u "$tmp/ref.out" "$tmp/our.out" | head -20
		diff -u "$tmp/ref.err" "$tmp/our.err" | head -5
		fails=$((fails + 1))
	fi
}

# The oracle's BTF really lacks alignment: the inference is what we test.
cat >"$tmp/align.c" <<'EOF'
struct cl { long a; int b __attribute__((__aligned__(64))); char c; };
struct al16 { long x; } __attribute__((__aligned__(16)));
struct mid { char c; struct al16 s; short t __attribute__((__aligned__(32))); };
union un { int i; struct al16 s; char buf[20]; };
struct bits { unsigned a:3, b:7; char c; unsigned long d:40, e:20; int f; };
struct holder {
	struct cl cl;
	union un u;
	struct bits b;
	enum { NEG = -3, POS = 7 } e;
	enum { BIG = 0x100000000LL, NBIG = -2LL } e64;
	char tail[0];
} __attribute__((__aligned__(128)));
struct holder h;
struct mid m;
EOF
if command -v gcc >/dev/null 2>&1 &&
   gcc -g -c -o "$tmp/align.o" "$tmp/align.c" &&
   "$ORACLE" -J "$tmp/align.o" >"$tmp/j.log" 2>&1; then
	for o in "" -E --hex; do
		# shellcheck disable=SC2086
		compare align.o "$tmp/align.o" $o
	done
	# the inferred attributes must be there: a test that cannot fail is none
	"$OURS" -F btf "$tmp/align.o" >"$tmp/h.out" 2>&1
	while read -r want; do
		grep -qF -- "$want" "$tmp/h.out" ||
			{ echo "FAIL: align.o: no line '$want'"; fails=$((fails + 1)); }
	done <<'EOF'
int                        b __attribute__((__aligned__(64))); /*    64     4 */
/* forced alignments: 1, forced holes: 1, sum forced holes: 56 */
struct al16                s __attribute__((__aligned__(16))); /*    16    16 */
} __attribute__((__aligned__(128)));
NEG = 4294967293,
NBIG = 18446744073709551614,
EOF
else
	echo "note: gcc or pahole -J unavailable, alignment source not checked"
fi

# Floating-point members and parameters (BTF_KIND_FLOAT, --btf_gen_floats):
# 1.24 prints them "single double" (P8); ours prints the type's name, the
# same text as from the DWARF.
cat >"$tmp/floats.c" <<'EOF'
struct fl { float f; const volatile double d; long double ld; float *pf; char c; double arr[2]; };
union ufl { float f; int i; };
double fl_sum(struct fl *p, float k, union ufl *u) { return p->d + k + u->f; }
struct fl fl_var;
EOF
if command -v gcc >/dev/null 2>&1 && gcc -g -O2 -c -o "$tmp/floats.o" "$tmp/floats.c"; then
	cp "$tmp/floats.o" "$tmp/floats.j.o"
	if "$ORACLE" -J --btf_gen_floats "$tmp/floats.j.o" >/dev/null 2>&1; then
		for o in "" -E --hex; do
			# shellcheck disable=SC2086
			compare floats.j.o "$tmp/floats.j.o" $o
		done
	fi
	"$OURS" --btf_gen_floats --btf_encode_detached="$tmp/floats.btf" "$tmp/floats.o" >/dev/null 2>&1 ||
		d2b_fail "cannot encode floats.o"
	compare floats.d.btf "$tmp/floats.btf"
	"$OURS" -F btf "$tmp/floats.btf" >"$tmp/fl.btf.out" 2>&1
	"$OURS" -F dwarf "$tmp/floats.o" >"$tmp/fl.dwarf.out" 2>&1
	if ! cmp -s "$tmp/fl.btf.out" "$tmp/fl.dwarf.out" || grep -q single "$tmp/fl.btf.out" ||
	   ! grep -qE '^	long double +ld; +/\* +16 +16 \*/$' "$tmp/fl.btf.out"; then
		echo "FAIL: floats: -F btf differs from -F dwarf"
		diff -u "$tmp/fl.dwarf.out" "$tmp/fl.btf.out" | head -20
		fails=$((fails + 1))
	fi
	checked=$((checked + 1))
else
	echo "note: gcc unavailable, floats not checked"
fi

fx=$(d2b_fixtures '*') || d2b_fail "fixtures"
for f in $fx; do
	name=$(basename "$f")
	case $name in *.O2.dwarf5) ;; *) continue ;; esac
	cp "$f" "$tmp/j.$name" || d2b_fail "cp $f"
	if "$ORACLE" -J "$tmp/j.$name" >/dev/null 2>&1; then
		for o in "" -E --hex; do
			# shellcheck disable=SC2086
			compare "j.$name" "$tmp/j.$name" $o
		done
	fi
	rm -f "$tmp/j.$name"
	if "$OURS" --btf_encode_detached="$tmp/d.$name" "$f" >/dev/null 2>&1; then
		for o in "" -E --hex; do
			# shellcheck disable=SC2086
			compare "d.$name" "$tmp/d.$name" $o
		done
	fi
	rm -f "$tmp/d.$name"
done

if corpus=$(d2b_corpus) && [ -f "$corpus/vmlinux" ]; then
	compare vmlinux "$corpus/vmlinux"
	compare vmlinux "$corpus/vmlinux" -E
else
	echo "note: no corpus, vmlinux not checked"
fi

# `pahole NAME`: without -C, a first argument that is no readable file
# names types read from the running kernel's BTF (PAHOLE_VMLINUX_BTF_FILENAME
# points ours at a fixture's): the same text as -C on that BTF, a list
# too, a missing name as -C reports it (exit 0); a missing path (with a
# '/') stays a missing file, and so does any name when there is no
# running kernel's BTF to read.
sole_src=$(echo "$fx" | grep 'gcc.O2.dwarf5$' | head -n 1)
"$OURS" --btf_encode_detached="$tmp/sole.btf" "$sole_src" >/dev/null 2>&1 ||
	d2b_fail "cannot encode $sole_src"
sole_names=$("$OURS" -F btf -s "$tmp/sole.btf" | awk 'NR <= 2 { print $1 }' | paste -sd, -)
[ -n "$sole_names" ] || d2b_fail "no struct in $sole_src"
for names in "${sole_names%%,*}" "$sole_names" "no_such_type_zz"; do
	for o in "" -E; do
		# shellcheck disable=SC2086
		PAHOLE_VMLINUX_BTF_FILENAME=$tmp/sole.btf "$OURS" $o "$names" >"$tmp/sole.out" 2>"$tmp/sole.err" ||
			{ echo "FAIL: pahole $o $names: exit $?"; fails=$((fails + 1)); }
		# shellcheck disable=SC2086
		"$OURS" -F btf $o -C "$names" "$tmp/sole.btf" >"$tmp/sole.want" 2>"$tmp/sole.wanterr"
		if ! cmp -s "$tmp/sole.out" "$tmp/sole.want" || ! cmp -s "$tmp/sole.err" "$tmp/sole.wanterr"; then
			echo "FAIL: pahole $o $names differs from -C $names"
			fails=$((fails + 1))
		fi
		checked=$((checked + 1))
	done
done
grep -q "type 'no_such_type_zz' not found" "$tmp/sole.err" ||
	{ echo "FAIL: pahole no_such_type_zz: '$(cat "$tmp/sole.err")'"; fails=$((fails + 1)); }
PAHOLE_VMLINUX_BTF_FILENAME=$tmp/sole.btf "$OURS" "$tmp/no/such/file" >/dev/null 2>"$tmp/sole.err" &&
	{ echo "FAIL: a missing path was read as type names"; fails=$((fails + 1)); }
grep -q "No such file" "$tmp/sole.err" || { echo "FAIL: missing path: '$(cat "$tmp/sole.err")'"; fails=$((fails + 1)); }
PAHOLE_VMLINUX_BTF_FILENAME=$tmp/no_kernel_btf "$OURS" "${sole_names%%,*}" >/dev/null 2>"$tmp/sole.err" &&
	{ echo "FAIL: a name without a kernel BTF did not fail"; fails=$((fails + 1)); }
[ "$(wc -l <"$tmp/sole.err")" = 1 ] || { echo "FAIL: not one line: $(cat "$tmp/sole.err")"; fails=$((fails + 1)); }
# and as pahole 1.24 prints it from the running kernel's BTF, where there is one
if [ -r /sys/kernel/btf/vmlinux ]; then
	"$OURS" list_head >"$tmp/sole.out" 2>/dev/null
	"$ORACLE" list_head 2>/dev/null >"$tmp/sole.want"
	cmp -s "$tmp/sole.out" "$tmp/sole.want" && [ -s "$tmp/sole.out" ] ||
		{ echo "FAIL: pahole list_head differs from pahole 1.24's"; fails=$((fails + 1)); }
	checked=$((checked + 1))
fi

[ "$checked" -gt 0 ] || d2b_fail "no comparison ran"
echo "$checked comparisons: $fails failures, $xfails xfail (deliberate, docs/compat.md)"
[ $fails -eq 0 ]
