# SPDX-License-Identifier: GPL-2.0-only
# tests/lib.sh: the library every shell test sources first:
#
#     . "$D2B_SRC/tests/lib.sh"
#
# ctest gives each test D2B (the dwarf2btf binary), D2B_BUILD (build dir),
# D2B_SRC (source dir) and D2B_TOOLS (build/tests/tools). A test exits 0 on
# success, 77 when skipped, anything else on failure.
#
#   d2b_fixtures [FILTER]  build the fixture binaries that are missing or older
#                          than their sources (or this file) and print their
#                          paths, one a line. FILTER is a glob on the fixture
#                          NAME. Fixture sources in tests/fixtures/:
#                            NAME.c    one CU          NAME.cc   C++, one CU
#                            NAME/     a directory of *.c (or *.cc): several CUs
#                          Each is built with {gcc,clang} x {-O0,-O2} x
#                          {-gdwarf-4,-gdwarf-5} into
#                            $D2B_BUILD/fixtures/NAME.CC.ON.dwarfV
#                          (CC is gcc or clang also for C++, which uses g++ /
#                          clang++), plus one ET_REL object of the first source
#                            $D2B_BUILD/fixtures/NAME.gcc.O2.dwarf5.o
#                          A source whose first line holds
#                          "/* fixture: clang-only */" is built with clang only,
#                          "/* fixture: gcc-only */" with gcc only
#                          (its object is then NAME.clang.O2.dwarf5.o).
#                          "fixture-cflags: FLAGS */" in its first 5 lines
#                          adds FLAGS to every compile of that fixture;
#                          "fixture: no-object" there builds no ET_REL object
#                          (e.g. type units, which an object keeps in COMDAT
#                          .debug_info sections that libdw cannot follow).
#                          Builds go to a temporary name and are renamed into
#                          place, so concurrent tests may call this at once.
#                          Returns 1 (compiler errors on stderr) if a build
#                          fails, so call it as
#                            fx=$(d2b_fixtures) || d2b_fail "fixtures"
#                            for f in $fx; do ...; done
#   d2b_skip MSG           print MSG and exit 77 (skip)
#   d2b_fail MSG           print MSG and exit 1
#   d2b_need_cmd CMD...    skip unless every CMD is on PATH (or executable)
#   d2b_corpus             print the kernel corpus directory (vmlinux and
#                          modules/*.ko) when D2B_CORPUS=1 (fetches it) or
#                          when a complete cached copy exists; else return 1
#                          (always 1 with D2B_CORPUS=0)
#   fail MSG / d2b_finish  count a failed check and go on / end with the tally
#                          (the test counts its checks in $checked)
#   d2b_same_run REF OUR LABEL
#                          whether REF.out/REF.err and OUR.out/OUR.err (two
#                          runs' stdout and stderr) hold the same bytes; when
#                          not, prints "FAIL: LABEL" and the heads of the
#                          diffs, and returns 1
#   d2b_tmpdir             print a per-test temporary directory (created on
#                          the first call), removed when the test exits. It is
#                          removed by an EXIT trap set when this file is
#                          sourced: a test that sets its own EXIT trap must
#                          call d2b_cleanup from it.

if [ -z "${D2B_SRC:-}" ]; then
	D2B_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
fi

d2b_skip() {
	echo "SKIP: $*" >&2
	exit 77
}

d2b_fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# Tests that make many checks and report each failure: fail MSG prints one
# FAIL line and goes on; count each check in $checked; d2b_finish prints the
# tally and exits 0 only when some check ran and none failed.
fails=0
checked=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

d2b_finish() {
	[ "$checked" -gt 0 ] || d2b_fail "nothing compared"
	echo "$checked comparisons: $fails failures"
	[ "$fails" -eq 0 ]
}

# d2b_same_partial FILE OPTS...: "$OURS" OPTS FILE prints, stdout and
# stderr, what it prints with D2B_PAHOLE_FULL_WALK=1 (pahole -C's partial
# models against the whole ones: t2032 for DWARF, t2033 for BTF); counts
# a check, reports a difference with fail, and an empty output too. Needs
# $OURS and $tmp.
d2b_same_partial() {
	local f=$1 b=$tmp/run
	shift
	"$OURS" "$@" "$f" >"$b.part" 2>"$b.part.err"
	D2B_PAHOLE_FULL_WALK=1 "$OURS" "$@" "$f" >"$b.full" 2>"$b.full.err"
	checked=$((checked + 1))
	if ! cmp -s "$b.part" "$b.full" || ! cmp -s "$b.part.err" "$b.full.err"; then
		fail "$f $*: the partial model differs from the whole one"
		diff -u "$b.full" "$b.part" | head -20
		diff -u "$b.full.err" "$b.part.err" | head -5
		return
	fi
	[ -s "$b.part" ] || [ -s "$b.part.err" ] || fail "$f $*: no output at all"
}

# d2b_base_btf VMLINUX OUT: VMLINUX's .BTF into the raw file OUT (objcopy);
# prints its number of types (bpftool). Non-zero if either fails.
d2b_base_btf() {
	objcopy --dump-section .BTF="$2" "$1" "$2.discard" || return 1
	rm -f "$2.discard"
	bpftool btf dump file "$2" | grep -c '^\['
}

d2b_need_cmd() {
	local c
	for c in "$@"; do
		if [ -x "$c" ] || command -v "$c" >/dev/null 2>&1; then
			continue
		fi
		d2b_skip "needs '$c'"
	done
}

# One directory per test process ($$ is the test's shell even inside $(...)).
_d2b_tmp=${TMPDIR:-/tmp}/d2b-test.$$

d2b_same_run() {
	if cmp -s "$1.out" "$2.out" && cmp -s "$1.err" "$2.err"; then
		return 0
	fi
	echo "FAIL: $3"
	diff -a -u "$1.out" "$2.out" | head -20
	diff -a -u "$1.err" "$2.err" | head -6
	return 1
}

d2b_tmpdir() {
	mkdir -p "$_d2b_tmp" && echo "$_d2b_tmp"
}

d2b_cleanup() {
	rm -rf "$_d2b_tmp"
}
trap d2b_cleanup EXIT

d2b_corpus() {
	local cache=${D2B_CORPUS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/dwarf2btf}
	[ "${D2B_CORPUS:-}" = 0 ] && return 1
	if [ -s "$cache/vmlinux" ] && [ -f "$cache/.complete" ]; then
		echo "$cache"
		return 0
	fi
	if [ "${D2B_CORPUS:-0}" = 1 ]; then
		"$D2B_SRC/bench/fetch-corpus.sh"
		return
	fi
	return 1
}

# _d2b_build OUT SRC... -- CMD...: run CMD -o TMP if OUT is missing or older
# than any SRC, then rename TMP to OUT.
_d2b_build() {
	local out=$1 s stale=0
	shift
	local srcs=()
	while [ "$1" != "--" ]; do srcs+=("$1"); shift; done
	shift
	if [ ! -e "$out" ]; then
		stale=1
	else
		for s in "${srcs[@]}"; do
			if [ "$s" -nt "$out" ]; then stale=1; break; fi
		done
	fi
	[ "$stale" = 1 ] || return 0
	local tmp="$out.tmp.$$.$BASHPID"
	if ! "$@" -o "$tmp"; then
		rm -f "$tmp"
		echo "d2b_fixtures: failed: $* -o $out" >&2
		return 1
	fi
	mv -f "$tmp" "$out"
}

# d2b_cached_ref OUT LIMIT CMD...: the path OUT, after running CMD (stdout
# to OUT, at most LIMIT seconds) when OUT is missing or empty: the oracles'
# outputs on the kernel corpus are cached beside it, keyed by their version.
# Returns 1 (and caches nothing) when CMD fails.
d2b_cached_ref() {
	local out=$1 limit=$2
	shift 2
	if [ ! -s "$out" ]; then
		timeout "$limit" "$@" >"$out.tmp.$$" 2>/dev/null || { rm -f "$out.tmp.$$"; return 1; }
		mv -f "$out.tmp.$$" "$out"
	fi
	echo "$out"
}

d2b_fixtures() {
	local filter=${1:-*}
	local fixdir="$D2B_SRC/tests/fixtures"
	local outdir="${D2B_BUILD:?D2B_BUILD is not set}/fixtures"
	local src name lang ccs cc drv o v out deps pids rc=0 objcc
	local -a cfiles
	mkdir -p "$outdir" || return 1
	for src in "$fixdir"/*; do
		cfiles=()
		case $src in
		*.c)  name=$(basename "$src" .c);  lang=c;   cfiles=("$src") ;;
		*.cc) name=$(basename "$src" .cc); lang="c++"; cfiles=("$src") ;;
		*)
			[ -d "$src" ] || continue
			name=$(basename "$src")
			lang=c
			shopt -s nullglob
			cfiles=("$src"/*.c)
			if [ ${#cfiles[@]} = 0 ]; then
				cfiles=("$src"/*.cc)
				lang="c++"
			fi
			shopt -u nullglob
			[ ${#cfiles[@]} -gt 0 ] || continue
			;;
		esac
		# shellcheck disable=SC2254
		case $name in $filter) ;; *) continue ;; esac
		deps=("${cfiles[@]}" "${BASH_SOURCE[0]}")
		[ -d "$src" ] && deps+=("$src"/*)
		if head -n 1 "${cfiles[0]}" | grep -q 'fixture: clang-only'; then
			ccs="clang"
		elif head -n 1 "${cfiles[0]}" | grep -q 'fixture: gcc-only'; then
			ccs="gcc"
		else
			ccs="gcc clang"
		fi
		local -a extra=()
		local line
		line=$(head -n 5 "${cfiles[0]}" | grep -o 'fixture-cflags:[^*]*' | head -n 1)
		# shellcheck disable=SC2206
		[ -n "$line" ] && extra=(${line#fixture-cflags:})
		pids=()
		for cc in $ccs; do
			case $cc-$lang in
			gcc-c) drv=(gcc -fno-eliminate-unused-debug-types) ;;
			gcc-c++) drv=(g++ -fno-eliminate-unused-debug-types) ;;
			clang-c) drv=(clang) ;;
			clang-c++) drv=(clang++) ;;
			esac
			for o in 0 2; do
				for v in 4 5; do
					out="$outdir/$name.$cc.O$o.dwarf$v"
					_d2b_build "$out" "${deps[@]}" -- \
						"${drv[@]}" -g -gdwarf-$v -O$o -w "${extra[@]}" "${cfiles[@]}" &
					pids+=($!)
				done
			done
		done
		objcc=${ccs%% *}
		if head -n 5 "${cfiles[0]}" | grep -q 'fixture: no-object'; then
			objcc=
		fi
		case $objcc-$lang in
		gcc-c) drv=(gcc -fno-eliminate-unused-debug-types) ;;
		gcc-c++) drv=(g++ -fno-eliminate-unused-debug-types) ;;
		clang-c) drv=(clang) ;;
		clang-c++) drv=(clang++) ;;
		esac
		if [ -n "$objcc" ]; then
			_d2b_build "$outdir/$name.$objcc.O2.dwarf5.o" "${deps[@]}" -- \
				"${drv[@]}" -g -gdwarf-5 -O2 -w "${extra[@]}" -c "${cfiles[0]}" &
			pids+=($!)
		fi
		for o in "${pids[@]}"; do
			wait "$o" || rc=1
		done
		[ $rc = 0 ] || return 1
		for cc in $ccs; do
			for o in 0 2; do
				for v in 4 5; do
					echo "$outdir/$name.$cc.O$o.dwarf$v"
				done
			done
		done
		[ -z "$objcc" ] || echo "$outdir/$name.$objcc.O2.dwarf5.o"
	done
	return $rc
}

# d2b_random_worker SEED DIR REPORT REBUILD: the start of a randomized
# test's worker (SCRIPT --seed SEED DIR REPORT, run by d2b_random_run):
# sets seed, dir and checked=0, makes DIR, opens REPORT on fd 3 and defines
# "fail CASE WHAT" (detail lines on stdin), which reports a failure with
# REBUILD (the commands that remake the sources) and $build_cmd after it.
d2b_random_worker() {
	seed=$1 dir=$2 _d2b_rebuild=$4
	checked=0
	mkdir -p "$dir" || exit 1
	exec 3>"$3"
	fail() {
		echo "FAIL: seed $seed: $1: $2"
		echo "  rebuild: $_d2b_rebuild; $build_cmd"
		sed 's/^/  /'
	} >&3
}

# d2b_random_run SCRIPT SEEDS JOBS KEEP: the driver of a randomized test
# (t2040, t3002). SEEDS names the seeds ("1-38 173 206"); for each, runs
# "bash SCRIPT --seed SEED DIR REPORT" (JOBS at once), whose REPORT holds a
# "checked N" line, FAIL lines with what follows them, and "excused: "
# lines. Prints each seed's failures (in full the first of each check, a
# check being what a FAIL line names after the build, "-f NAME" one for
# every NAME; the others in one line), copies a failing seed's files into
# KEEP when KEEP is not empty, then the totals and the excused lines
# counted. Returns 0 when something was compared and nothing failed.
d2b_random_run() {
	local script=$1 spec=$2 jobs=$3 keep=$4 tmp seeds= s r
	local nseeds=0 fails=0 checked=0 start=$SECONDS

	tmp=$(d2b_tmpdir)
	mkdir -p "$tmp/reports" || d2b_fail "mkdir"
	for s in $spec; do
		case $s in
		*-*) seeds="$seeds $(seq "${s%-*}" "${s#*-}" | tr '\n' ' ')" ;;
		*) seeds="$seeds $s" ;;
		esac
	done
	for s in $seeds; do
		echo "$s $tmp/seed$s $tmp/reports/$s"
	done | xargs -P"$jobs" -L1 bash "$script" --seed
	: >"$tmp/excused"
	for s in $seeds; do
		nseeds=$((nseeds + 1))
		r=$tmp/reports/$s
		if [ ! -f "$r" ] || ! grep -q '^checked [0-9]*$' "$r"; then
			echo "FAIL: seed $s: no report (the worker died)"
			fails=$((fails + 1))
			continue
		fi
		checked=$((checked + $(sed -n 's/^checked //p' "$r")))
		grep '^excused: ' "$r" >>"$tmp/excused"
		grep -q '^FAIL' "$r" || continue
		fails=$((fails + $(grep -c '^FAIL' "$r")))
		grep -v -e '^checked ' -e '^excused: ' "$r" | awk '
			/^FAIL/ {
				k = $0
				sub(/^FAIL: seed [0-9]+: [^:]*: /, "", k)
				sub(/:.*/, "", k)
				sub(/ -f .*/, " -f", k)
				full = !(k in seen)
				seen[k] = 1
			}
			full || /^FAIL/'
		if [ -n "$keep" ]; then
			mkdir -p "$keep" && cp -r "$tmp/seed$s" "$keep/"
		fi
	done
	[ "$checked" -gt 0 ] || d2b_fail "nothing compared"
	echo "$nseeds seeds, $checked comparisons in $((SECONDS - start)) s: $fails failures"
	if [ -s "$tmp/excused" ]; then
		echo "excused (not failures):"
		sort "$tmp/excused" | uniq -c | sort -rn
	fi
	[ "$fails" -eq 0 ]
}

# d2b_random_builds SEED DIR CALLBACK: for a randomized test's worker,
# builds DIR/u1.c (and DIR/u2.c) eight ways, {gcc,clang} x {-O0,-O2} x
# {-gdwarf-4,-gdwarf-5}: as the unit's ET_REL object or as an executable of
# the two units, alternating with SEED; gcc with
# -fno-eliminate-unused-debug-types on even seeds. For each build it sets
# i (1..8), f (the file), case (what was built), build_cmd (how, for the
# "rebuild:" line) and ccerr (the compiler's messages) and runs CALLBACK;
# a build that fails is given to the caller's "fail CASE WHAT" instead.
d2b_random_builds() {
	local seed=$1 dir=$2 callback=$3 cc o v kind
	local -a cflags src

	i=0
	for cc in gcc clang; do
		for o in 0 2; do
			for v in 4 5; do
				i=$((i + 1))
				cflags=(-g "-gdwarf-$v" "-O$o" -Wall)
				[ $cc = gcc ] && [ $((seed % 2)) = 0 ] &&
					cflags+=(-fno-eliminate-unused-debug-types)
				f=$dir/$cc.O$o.dwarf$v
				if [ $(((seed + i) % 2)) = 0 ]; then
					f=$f.o
					build_cmd="$cc ${cflags[*]} -c u1.c"
					kind="object"
					src=(-c "$dir/u1.c")
				else
					build_cmd="$cc ${cflags[*]} u1.c u2.c"
					kind="executable, 2 CUs"
					src=("$dir/u1.c" "$dir/u2.c")
				fi
				case="$cc ${cflags[*]} ($kind)"
				ccerr=$f.cc.err
				if ! $cc "${cflags[@]}" "${src[@]}" -o "$f" 2>"$ccerr"; then
					head -5 "$ccerr" | fail "$case" "does not compile (a generator bug)"
					continue
				fi
				"$callback"
			done
		done
	done
}
