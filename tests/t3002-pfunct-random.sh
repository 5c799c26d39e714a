#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Randomized differential test of pfunct against Debian's pfunct 1.24 (the
# oracle, /usr/bin/pfunct). For each seed, tests/tools/gen_types.py
# --more-funcs writes two translation units of random types and varied
# functions (static, static inline, noinline, extern, K&R definitions,
# struct and union parameters and returns by value, function pointer
# parameters and returns, varargs, declarations of the other unit's
# functions). Each seed is built eight ways, as t2040 builds it,
# {gcc,clang} x {-O0,-O2} x {-gdwarf-4,-gdwarf-5}: half of the builds
# (alternating with the seed) link both units into an executable of two
# CUs, the other half are the first unit's ET_REL object (-c). gcc gets
# -fno-eliminate-unused-debug-types on even seeds. A compiler warning or
# error is a generator bug and fails the seed. On every build, `pfunct
# [OPTS] FILE`, ours against 1.24, stdout byte for byte (and ours must
# exit 0), as t3000 compares them: 1.24's stderr is dropped and its
# "(null):N */" becomes "(null):0 */", ours too (PF-NULL-LINE, docs/compat-pfunct.md);
# nothing else is excused. OPTS:
#   - on four of the eight builds (alternating with the seed): (none), -P,
#     --no_parm_names -P, -s, -V, -E, -H, -p, -N, -l -P, -l, -S, -g,
#     --symtab, -i, -I, -t, -b, --compile, -c NAME (and -V) for each struct, and on executables
#     -a ADDR at each function symbol;
#     on the other four: (none), -P and -s;
#   - on every build: -f NAME for every name 1.24 lists and one it does
#     not, and --function=main --no_parm_names;
#   - on the BTF that pahole 1.24 and ours encode from every build
#     (--btf_encode_detached, no floats): -F btf with (none), -P and
#     -s --no_parm_names -P.
# The generator leaves out what docs/compat-pfunct.md lists as differences
# (_Atomic: PF-ATOMIC, C++: t3000 on its fixtures, PF-RVALUE, type units: PF-TYPE-UNITS,
# btf_type_tag: PF-BTF-TYPE-TAG).
# A difference fails the test with the seed, compiler, flags, the commands
# that rebuild the case and the first differing lines (for the first
# failure of each check in a seed; the others in one line).
#
# Environment (for exploring; the defaults are what ctest runs):
#   D2B_T3002_SEEDS   the seeds, e.g. "1 2 3", "100-199" or "1-9 42"
#                     (default below)
#   D2B_T3002_JOBS    seeds run at once (default 2)
#   D2B_T3002_KEEP    a directory: keep each failing seed's files there
#   D2B_T3002_ALLMODES=1  every option set on all eight builds
#   D2B_PFUNCT        our pfunct (default $D2B_BUILD/pfunct), as in t3000
ORACLE=/usr/bin/pfunct
OURS=${D2B_PFUNCT:-$D2B_BUILD/pfunct}
GEN="$D2B_SRC/tests/tools/gen_types.py"

# Worker mode: every build and comparison of one seed; the report (one
# "checked N" line and FAIL blocks) goes to REPORT.
#   t3002-pfunct-random.sh --seed SEED DIR REPORT
# shellcheck disable=SC2317 # (the checks are called back by d2b_random_builds)
if [ "${1:-}" = --seed ]; then
	. "$D2B_SRC/tests/lib.sh"
	set -u
	d2b_random_worker "$2" "$3" "$4" \
		"python3 $GEN $2 --more-funcs >u1.c; python3 $GEN $2 --unit 2 --more-funcs >u2.c"

	# oracle ARGS...: pfunct 1.24's stdout, PF-NULL-LINE normalized
	oracle() {
		timeout 60 "$ORACLE" "$@" 2>/dev/null | sed 's|(null):[0-9]* \*/$|(null):0 */|'
	}

	# same OPTS...: ours against 1.24 on $input (default: the build $f)
	same() {
		local r=$dir/cmp rc=0 label="pfunct${*:+ $*}" target=${input:-$f}
		checked=$((checked + 1))
		oracle "$@" "$target" >"$r.ref"
		timeout 60 "$OURS" "$@" "$target" >"$r.our" 2>"$r.err" || rc=$?
		sed -i 's|(null):[0-9]* \*/$|(null):0 */|' "$r.our"
		if [ $rc -ne 0 ]; then
			head -5 "$r.err" | fail "$case" "$label: ours exited $rc"
		elif ! cmp -s "$r.ref" "$r.our"; then
			diff -u "$r.ref" "$r.our" | head -20 |
				fail "$case" "$label: stdout differs (- 1.24, + ours)"
		fi
	}

	if ! python3 "$GEN" "$seed" --more-funcs >"$dir/u1.c" ||
		! python3 "$GEN" "$seed" --unit 2 --more-funcs >"$dir/u2.c"; then
		echo "FAIL: seed $seed: gen_types.py failed" >&3
		exit 0
	fi
	# the checks of one build (d2b_random_builds sets f, case, i, ccerr)
	check_build() {
		if grep -qE '(warning|error):' "$f.cc.err"; then
			grep -E '(warning|error):' "$f.cc.err" | head -5 |
				fail "$case" "compiler warning (a generator bug)"
		fi
		if [ "${D2B_T3002_ALLMODES:-0}" = 1 ] || [ $((i % 2)) = $((seed % 2)) ]; then
			modes=("" "-P" "--no_parm_names -P" "-s" "-V" "-E" "-H" "-p" "-N" "-l -P" "-l"
			       "-S" "-g" "--symtab" "-i" "-I" "-t" "-b" "--compile")
			full=1
		else
			modes=("" "-P" "-s")
			full=0
		fi
		for m in "${modes[@]}"; do
			# shellcheck disable=SC2086
			same $m
		done
		if [ $full = 1 ]; then
			# -c for each struct, and -a at each function symbol
			# (executables: a .o's addresses are laid out from 0x10000)
			for s in $(pahole --sizes "$f" 2>/dev/null | cut -f1 | sort -u); do
				same -c "$s"
				same -c "$s" -V
			done
			if [ "$(od -An -tx1 -j16 -N1 "$f" | tr -d ' ')" != 01 ]; then
				for a in $(timeout 60 "$OURS" --symtab "$f" | awk '{print $3}'); do
					same -a "$a"
				done
			fi
		fi
		for fn in $(oracle "$f" | sort -u) no_such_function; do
			same -f "$fn"
		done
		same --function=main --no_parm_names
		# the BTF of the build, each encoder's (no floats: PF-BTF-FLOAT)
		rm -f "$dir/btf.ref" "$dir/btf.our"
		timeout 60 pahole -J --btf_encode_detached="$dir/btf.ref" "$f" >/dev/null 2>&1
		timeout 60 "$D2B_BUILD/pahole" -J --btf_encode_detached="$dir/btf.our" "$f" >/dev/null 2>&1 ||
			echo "ours failed" | fail "$case" "pahole -J"
		for input in "$dir/btf.ref" "$dir/btf.our"; do
			[ -s "$input" ] || continue
			same -F btf
			same -F btf -P
			same -F btf -s --no_parm_names -P
		done
		input=
	}

	d2b_random_builds "$seed" "$dir" check_build
	echo "checked $checked" >&3
	exit 0
fi

. "$D2B_SRC/tests/lib.sh"
set -u
d2b_need_cmd gcc clang python3 timeout
[ -x "$ORACLE" ] || d2b_skip "needs $ORACLE (Debian's dwarves 1.24)"
"$ORACLE" --version 2>/dev/null | grep -qx 'v1.24' || d2b_skip "$ORACLE is not v1.24"
[ -x "$OURS" ] || d2b_fail "no $OURS"

# (14: gcc -O2's out-of-line copy of a varargs function, which 1.24
# prints without "..." when the copy's own DIE has none)
d2b_random_run "$0" "${D2B_T3002_SEEDS:-1-24}" "${D2B_T3002_JOBS:-2}" "${D2B_T3002_KEEP:-}"
