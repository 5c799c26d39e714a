#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Randomized differential test against Debian's pahole 1.24 (the oracle).
# For each seed, tests/tools/gen_types.py writes a translation unit full of
# random type declarations (and a second unit with the same types, other
# globals and functions). Each seed is built eight ways, {gcc,clang} x
# {-O0,-O2} x {-gdwarf-4,-gdwarf-5}: half of the builds (alternating with
# the seed) link both units into an executable of two CUs, the other half
# are the first unit's ET_REL object (-c). gcc gets
# -fno-eliminate-unused-debug-types on even seeds. On every build:
#   (a) `pahole [OPTS] FILE`, ours against 1.24, byte for byte, stdout and
#       stderr, for OPTS = (none), --hex, -s and -E -C S (the struct the
#       generator names in its last line), as t2000 compares them: the
#       lines "die__process_*: tag not supported ..." that we do not print
#       (docs/compat.md) are dropped from 1.24's stderr first;
#   (b) the BTF: `pahole -J --btf_encode_detached=F FILE`, ours and 1.24's
#       (and both with --btf_gen_floats), compared by content with
#       `dwarf2btf btfdiff` as t6070/t6090 do, plus the same number of
#       types (bpftool), and bpftool must read ours;
#   (c) `pahole -F btf` on each of the two BTFs without floats (P8), ours
#       against 1.24 as in (a), with no options and with -r --hex -E -C
#       for the struct of (a) and s1; and -r -c 32
#       --suppress_aligned_attribute on the build;
#   (d) on half of the object builds, split BTF as for a module: unit 2
#       built the same way, encoded on 1.24's BTF of unit 1 (the base);
#       ours with --no_prededup against 1.24's (btfdiff and the type
#       count), and ours by default against that (only a second copy of
#       a struct or union the base has may be missing: docs/btf.md, M3).
# A difference fails the test with the seed, compiler, flags, the commands
# that rebuild the case and the first differing lines (for the first
# failure of each check in a seed; the others in one line).
#
# The generator leaves out what docs/compat.md lists as deliberate
# differences (_Atomic: P1, btf tags: P2/P5, type units: P3, C++: P4).
# Excused, and counted in the last lines of the log:
#   - a BTF function only in 1.24's that our --verbose names as skipped,
#     or only in ours whose only symbols are clones: upstream's FUNC rules,
#     which we follow on purpose (B1/M1; as t6091). The generator makes
#     few of them (no static functions, no struct arguments; a double in
#     a register at -O2 is "unexpected register usage" upstream);
#   - both encoders failing on the same file: libbpf refuses a union
#     member at a non-zero bit offset, which gcc's DWARF gives bit-fields
#     of an under-aligned typedef.
#
# Environment (for exploring; the defaults are what ctest runs):
#   D2B_T2040_SEEDS   the seeds, e.g. "1 2 3", "100-199" or "1-9 42"
#                     (default below)
#   D2B_T2040_JOBS    seeds run at once (default 2)
#   D2B_T2040_KEEP    a directory: keep each failing seed's files there
#   D2B_T2040_GENFLAGS  more arguments for gen_types.py, e.g. --more-funcs
#                     (static, inline, K&R functions, struct arguments and
#                     returns: for pfunct; their BTF FUNCs differ on
#                     purpose, B1/M1, so they are not in the default run)
ORACLE=$(command -v pahole)
OURS="$D2B_BUILD/pahole"
GEN="$D2B_SRC/tests/tools/gen_types.py"

# Worker mode: every build and comparison of one seed; the report (one
# "checked N" line, FAIL blocks, "excused: ..." lines) goes to REPORT.
#   t2040-random-types.sh --seed SEED DIR REPORT
# shellcheck disable=SC2317 # (the checks are called back by d2b_random_builds)
if [ "${1:-}" = --seed ]; then
	. "$D2B_SRC/tests/lib.sh"
	set -u
	d2b_random_worker "$2" "$3" "$4" \
		"python3 $GEN $2 ${D2B_T2040_GENFLAGS:-}>u1.c; python3 $GEN $2 --unit 2 ${D2B_T2040_GENFLAGS:-}>u2.c"

	# run_cmp LABEL OPTS...: ours against 1.24 on $f
	run_cmp() {	# LABEL OPTS...: on $input (default: the build $f)
		local label=$1 r=$dir/cmp target=${input:-$f}
		shift
		checked=$((checked + 1))
		timeout 60 "$ORACLE" "$@" "$target" >"$r.ref.out" 2>"$r.ref.raw"
		grep -vE '^die__process_[a-z_]+: tag not supported 0x[0-9a-f]+ \([a-z_]+\)!$' \
			"$r.ref.raw" >"$r.ref.err"
		timeout 60 "$OURS" "$@" "$target" >"$r.our.out" 2>"$r.our.err"
		if ! cmp -s "$r.ref.out" "$r.our.out"; then
			diff -u "$r.ref.out" "$r.our.out" | head -20 |
				fail "$case" "pahole $label: stdout differs (- 1.24, + ours)"
		elif ! cmp -s "$r.ref.err" "$r.our.err"; then
			diff -u "$r.ref.err" "$r.our.err" | head -10 |
				fail "$case" "pahole $label: stderr differs (- 1.24, + ours)"
		fi
	}

	# explained DIFF LOG: the lines of btfdiff's DIFF that upstream's
	# function rules, which we follow on purpose (docs/compat.md B1, M1,
	# as t6091 applies them), do not explain; the explained ones are
	# counted in the report ("excused: REASON")
	explained() {	# DIFF LOG [ELF: where M1 looks for symbols; default $f]
		local line name why elf=${3:-$f}
		while IFS= read -r line; do
			case $line in
			'btfdiff: '*) continue ;;
			'function '*': only in A')
				# B1: our --verbose names it as skipped
				name=${line#function }
				name=${name%%: *}
				if why=$(grep -m1 -F "$name : skipping BTF encoding of function due to " "$2"); then
					echo "excused: B1, ${why#*due to }" >&3
					continue
				fi ;;
			'function '*': only in B')
				# M1: its only symbols are clones (NAME.isra.0)
				name=${line#function }
				name=${name%%: *}
				if ! readelf -sW "$elf" | awk '$4 == "FUNC" { print $8 }' | grep -qxF "$name" &&
					readelf -sW "$elf" | awk '$4 == "FUNC" { print $8 }' | grep -q "^$name\."; then
					echo "excused: M1, clone symbols only" >&3
					continue
				fi ;;
			esac
			echo "$line"
		done <"$1"
	}

	# btf_cmp OPTS...: -J with OPTS, ours against 1.24 on $f
	btf_cmp() {
		local r=$dir/btf label="pahole -J $*" rc rc1 rc2 n1 n2
		checked=$((checked + 1))
		rm -f "$r.ref" "$r.our"
		timeout 60 "$ORACLE" -J "$@" --btf_encode_detached="$r.ref" "$f" >"$r.ref.log" 2>&1
		rc1=$?
		[ -s "$r.ref" ] || [ $rc1 -ne 0 ] || rc1=255
		timeout 60 "$OURS" -J --verbose "$@" --btf_encode_detached="$r.our" "$f" >"$r.our.log" 2>&1
		rc2=$?
		[ -s "$r.our" ] || [ $rc2 -ne 0 ] || rc2=255
		if [ $rc1 -ne 0 ] && [ $rc2 -ne 0 ]; then
			# the same verdict: e.g. libbpf refuses a union member
			# at a bit offset that gcc's DWARF gives an under-aligned
			# bit-field (both say so, in their own words)
			echo "excused: both failed to encode" >&3
			return
		elif [ $rc1 -ne 0 ]; then
			head -5 "$r.ref.log" | fail "$case" "$label: pahole 1.24 failed (exit $rc1), ours did not"
			return
		elif [ $rc2 -ne 0 ]; then
			grep -v ' : skipping BTF encoding of function due to ' "$r.our.log" | head -5 |
				fail "$case" "$label: ours failed (exit $rc2), pahole 1.24 did not"
			return
		fi
		if ! bpftool btf dump file "$r.our" >"$r.our.dump" 2>&1; then
			head -5 "$r.our.dump" | fail "$case" "$label: bpftool rejects our BTF"
			return
		fi
		bpftool btf dump file "$r.ref" >"$r.ref.dump" 2>&1
		rc=0
		"$D2B" btfdiff "$r.ref" "$r.our" >"$r.diff" 2>&1 || rc=$?
		if [ $rc -eq 1 ]; then
			explained "$r.diff" "$r.our.log" >"$r.left"
			if [ -s "$r.left" ]; then
				head -20 "$r.left" | fail "$case" "$label: btfdiff (A 1.24, B ours)"
			fi
			# (the prototypes of the functions left out differ too)
			return
		elif [ $rc -ne 0 ]; then
			head -5 "$r.diff" | fail "$case" "$label: btfdiff failed (exit $rc)"
			return
		fi
		n1=$(grep -c '^\[' "$r.ref.dump")
		n2=$(grep -c '^\[' "$r.our.dump")
		if [ "$n1" != "$n2" ]; then
			diff <(sed -n 's/^\[[0-9]*\] //p' "$r.ref.dump" | sort) \
				<(sed -n 's/^\[[0-9]*\] //p' "$r.our.dump" | sort) | head -20 |
				fail "$case" "$label: $n1 types in 1.24's BTF, $n2 in ours (sorted type lines, < 1.24, > ours)"
		fi
	}

	# shellcheck disable=SC2086
	if ! python3 "$GEN" "$seed" ${D2B_T2040_GENFLAGS:-} >"$dir/u1.c" ||
		! python3 "$GEN" "$seed" --unit 2 ${D2B_T2040_GENFLAGS:-} >"$dir/u2.c"; then
		echo "FAIL: seed $seed: gen_types.py failed" >&3
		exit 0
	fi
	expand=$(sed -n 's|^/\* expand: \([A-Za-z0-9_]*\) \*/$|\1|p' "$dir/u1.c")
	# the checks of one build (d2b_random_builds sets f, case, i, ccerr)
	# split BTF, as for a module: unit 2 built as the object $f is (unit
	# 1's) and encoded on the BTF 1.24 made of $f (btf.ref, by the last
	# btf_cmp). Ours with --no_prededup must give libbpf's result, what
	# 1.24 gives (but for B1/M1); ours by default that result or one
	# where a struct or union that 1.24 keeps a second copy of maps to
	# the base's (docs/btf.md, "A split BTF where libbpf keeps a copy").
	split_cmp() {
		local r=$dir/split label="pahole -J --btf_gen_floats --btf_base (unit 2 on unit 1)" line name n1 n2 kind_uc
		checked=$((checked + 1))
		[ -s "$dir/btf.ref" ] || return
		cp "$dir/btf.ref" "$r.base" || return
		rm -f "$r.ref" "$r.our" "$r.nop"
		if ! $cc "${cflags[@]}" -c "$dir/u2.c" -o "$r.mod.o" 2>/dev/null; then
			echo "unit 2" | fail "$case" "$label: does not compile (a generator bug)"
			return
		fi
		timeout 60 "$ORACLE" -J --btf_gen_floats --btf_base="$r.base" \
			--btf_encode_detached="$r.ref" "$r.mod.o" >/dev/null 2>&1
		[ -s "$r.ref" ] || { echo "excused: 1.24 failed to encode a split BTF" >&3; return; }
		if ! timeout 60 "$OURS" -J --verbose --btf_gen_floats --btf_base="$r.base" \
			--btf_encode_detached="$r.our" "$r.mod.o" >"$r.our.log" 2>&1 ||
		   ! timeout 60 "$OURS" -J --no_prededup --btf_gen_floats --btf_base="$r.base" \
			--btf_encode_detached="$r.nop" "$r.mod.o" >/dev/null 2>&1; then
			grep -v ' : skipping BTF encoding of function due to ' "$r.our.log" | head -5 |
				fail "$case" "$label: ours failed"
			return
		fi
		if ! bpftool -B "$r.base" btf dump file "$r.our" >"$r.our.dump" 2>&1; then
			head -5 "$r.our.dump" | fail "$case" "$label: bpftool rejects our split BTF"
			return
		fi
		"$D2B" btfdiff --base="$r.base" "$r.ref" "$r.nop" >"$r.diff" 2>&1
		explained "$r.diff" "$r.our.log" "$r.mod.o" >"$r.left"
		if [ -s "$r.left" ]; then
			head -20 "$r.left" | fail "$case" "$label --no_prededup: btfdiff (A 1.24, B ours)"
			return
		fi
		if ! grep -q ' : skipping BTF encoding' "$r.our.log" && ! grep -q '^function ' "$r.diff"; then
			bpftool -B "$r.base" btf dump file "$r.ref" >"$r.ref.dump" 2>&1
			bpftool -B "$r.base" btf dump file "$r.nop" >"$r.nop.dump" 2>&1
			n1=$(grep -c '^\[' "$r.ref.dump")
			n2=$(grep -c '^\[' "$r.nop.dump")
			[ "$n1" = "$n2" ] ||
				echo "$n1 types in 1.24's, $n2 in ours" | fail "$case" "$label --no_prededup: type count"
		fi
		"$D2B" btfdiff --base="$r.base" "$r.nop" "$r.our" >"$r.diff" 2>&1
		while IFS= read -r line; do
			case $line in
			'btfdiff: '*) continue ;;
			'struct '*': only in A'|'union '*': only in A')
				name=${line#* }
				name=${name%: only in A}
				kind_uc=${line%% *}
				if bpftool btf dump file "$r.base" | grep -q "^\[[0-9]*\] ${kind_uc^^} '$name' "; then
					echo "excused: a second copy of a base ${line%% *} not kept" >&3
					continue
				fi ;;
			esac
			echo "$line"
		done <"$r.diff" >"$r.left"
		if [ -s "$r.left" ]; then
			head -20 "$r.left" | fail "$case" "$label: btfdiff (A ours --no_prededup, B ours)"
		fi
	}

	# the BTF each encoder wrote, printed (no floats in it: P8)
	btf_print() {
		local b
		for b in ref our; do
			input=$dir/btf.$b
			[ -s "$input" ] || continue
			run_cmp "-F btf ($b BTF)" -F btf
			[ -n "$expand" ] && run_cmp "-F btf -r --hex -E -C $expand,s1 ($b BTF)" \
				-F btf -r --hex -E -C "$expand,s1"
		done
		input=
	}
	check_build() {
		run_cmp "(no options)"
		run_cmp "--hex" --hex
		run_cmp "-s" -s
		[ -n "$expand" ] && run_cmp "-E -C $expand" -E -C "$expand"
		run_cmp "-r -c 32 --suppress_aligned_attribute" -r -c 32 --suppress_aligned_attribute
		btf_cmp
		btf_print
		btf_cmp --btf_gen_floats
		if [ "$kind" = object ] && [ $((i % 4)) -lt 2 ]; then
			split_cmp
		fi
	}

	d2b_random_builds "$seed" "$dir" check_build
	echo "checked $checked" >&3
	exit 0
fi

. "$D2B_SRC/tests/lib.sh"
set -u
d2b_need_cmd pahole gcc clang python3 bpftool readelf timeout
[ -x "$OURS" ] || d2b_fail "no $OURS"
[ -x "$D2B" ] || d2b_fail "no $D2B"
"$ORACLE" --version 2>/dev/null | grep -qx 'v1.24' || d2b_skip "oracle is not pahole v1.24"

# (173 and 206 once made bit-fields of under-aligned typedefs, P7, which
# the generator now leaves out; 42 makes a split BTF where libbpf keeps a
# copy of a base struct, M3)
d2b_random_run "$0" "${D2B_T2040_SEEDS:-1-38 42 173 206}" "${D2B_T2040_JOBS:-2}" "${D2B_T2040_KEEP:-}"
