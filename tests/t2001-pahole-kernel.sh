#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# pahole on the kernel corpus: our output must equal Debian's pahole 1.24 run
# with -F dwarf (1.24 reads .BTF by default when the file has one) byte for
# byte:
#   - -C for task_struct, sk_buff, page, inode, file, net_device on vmlinux;
#   - the whole default listing of vmlinux and of each module;
#   - on vmlinux, the listing with -H, -z, -T, -n, --packed,
#     --with_flexible_array, -y, -a -s, -D, -I -C task_struct, -i, -f, -u,
#     --sort, -R (-V), -P, -m, -l, --skip_missing, --lang(_exclude); some of
#     them with -F btf on the vmlinux's .BTF, and --compile there (whose
#     output, and ours of the DWARF, must compile); btfdiff with
#     our pahole, on the .BTF and on ours: no lines;
#   - the same bytes for -j1, -j2, -j4 and -j8 on vmlinux.
# Skipped (77) without the corpus (see bench/fetch-corpus.sh, or D2B_CORPUS=1).
#
# pahole's outputs are cached beside the corpus, keyed by the oracle's
# version: $corpus/ref/NAME.pahole-VERSION-dwarf[.OPTS].txt. Each is written
# to a temporary name and renamed, so an interrupted run leaves none behind.
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd pahole
corpus=$(d2b_corpus) || d2b_skip "no kernel corpus (run bench/fetch-corpus.sh)"
ORACLE=$(command -v pahole)
OURS="$D2B_BUILD/pahole"
[ -x "$OURS" ] || d2b_fail "no $OURS"
ver=$("$ORACLE" --version 2>/dev/null)
[ "$ver" = v1.24 ] || d2b_skip "oracle is not pahole v1.24"
vmlinux=$corpus/vmlinux
[ -s "$vmlinux" ] || d2b_skip "no $vmlinux"

tmp=$(d2b_tmpdir)
refdir=$corpus/ref
mkdir -p "$refdir" || d2b_fail "cannot create $refdir"
fails=0 checked=0

# ref FILE [OPTS...]: print the path of pahole's cached output for FILE with
# OPTS, running pahole if the cache lacks it.
ref() {
	local f=$1; shift
	local key; key=$(basename "$f").pahole-$ver-dwarf
	[ $# -gt 0 ] && key="$key.$(printf "%s" "$*" | tr -c 'A-Za-z0-9_,=-' '_')"
	d2b_cached_ref "$refdir/$key.txt" 1800 "$ORACLE" -F dwarf "$@" "$f" ||
		d2b_fail "pahole $* $f failed"
}

# compare FILE [OPTS...]: ours with OPTS and $JOBS (not given to pahole,
# whose output order changes with -j) against pahole's.
compare() {
	local f=$1; shift
	local r; r=$(ref "$f" "$@") || exit 1
	checked=$((checked + 1))
	if ! "$OURS" ${JOBS:-} "$@" "$f" >"$tmp/our.out" 2>"$tmp/our.err"; then
		echo "FAIL: $(basename "$f") [$*]: exit status"
		head -3 "$tmp/our.err"
		fails=$((fails + 1))
		return
	fi
	if ! cmp -s "$r" "$tmp/our.out"; then
		echo "FAIL: $(basename "$f") [$*]: $(diff "$r" "$tmp/our.out" | grep -c '^[<>]') lines differ"
		diff -u "$r" "$tmp/our.out" | head -30
		fails=$((fails + 1))
	fi
}

for c in task_struct sk_buff page inode file net_device; do
	compare "$vmlinux" -C "$c"
done

JOBS=-j2 compare "$vmlinux"
sums=$(md5sum <"$tmp/our.out" | cut -d' ' -f1)

# The listing's filters and formatters (t2004 has them on the fixtures)
for opts in "-H 5" "-z 32" "-T" "-n" "--packed" "--with_flexible_array" "-y tcp" \
	"-a -s" "-D include/linux" "-I -C task_struct" "-i list_head -d -V" \
	"-f task_struct" "-u -C task_struct,sk_buff" "--sort" "-R -C task_struct" \
	"-R -V -C sk_buff,page,inode,file,net_device" "-P" "-m" "-l" \
	"--skip_missing -C nosuch,sk_buff,task_struct" "--lang_exclude=c11 -s" "--lang=c89,c11 -n"; do
	# shellcheck disable=SC2086 # options split at blanks
	JOBS=-j2 compare "$vmlinux" $opts
done
for m in "$corpus"/modules/*.ko; do
	[ -f "$m" ] && compare "$m"
done

# The same options on the vmlinux's .BTF (1.24 reads it in about a second:
# not cached)
for opts in "-H 5" "-T" "--sort" "-a -s" "-i list_head -d -V" "-f task_struct" \
	"--packed" "-q -C task_struct" "--compile" "--compile -C task_struct,sk_buff" "-l"; do
	checked=$((checked + 1))
	# shellcheck disable=SC2086 # options split at blanks
	"$ORACLE" -F btf $opts "$vmlinux" >"$tmp/ref.btf.out" 2>&1
	# shellcheck disable=SC2086
	"$OURS" -F btf $opts "$vmlinux" >"$tmp/our.btf.out" 2>&1
	if ! cmp -s "$tmp/ref.btf.out" "$tmp/our.btf.out"; then
		echo "FAIL: -F btf $opts: $(diff "$tmp/ref.btf.out" "$tmp/our.btf.out" | grep -c '^[<>]') lines differ"
		diff -u "$tmp/ref.btf.out" "$tmp/our.btf.out" | head -20
		fails=$((fails + 1))
	fi
done

# --compile: 1.24's (above, on the BTF) compiles, and so does ours on the
# DWARF (1.24 takes BTF only)
for fmt in btf dwarf; do
	checked=$((checked + 1))
	"$OURS" -F $fmt --compile "$vmlinux" >"$tmp/compile.h" 2>"$tmp/compile.err"
	if [ "$(grep -c '^struct .* {$' "$tmp/compile.h")" -lt 5000 ] || [ -s "$tmp/compile.err" ] ||
	   ! gcc -fsyntax-only -w -x c "$tmp/compile.h" 2>"$tmp/cc.err"; then
		echo "FAIL: -F $fmt --compile of the vmlinux does not compile:"
		head -5 "$tmp/cc.err" "$tmp/compile.err"
		fails=$((fails + 1))
	fi
done

# btfdiff (dwarves' script: pahole -F dwarf and -F btf, both --sort)
# with our pahole, on the vmlinux's own .BTF and on the BTF we encode:
# no difference, as with 1.24 (compat.md, "pahole's options")
if command -v btfdiff >/dev/null; then
	for b in "$vmlinux" "$tmp/ours.btf"; do
		if [ "$b" = "$tmp/ours.btf" ]; then
			"$D2B_BUILD/dwarf2btf" encode --btf_gen_floats -j2 \
				--btf_encode_detached="$b" "$vmlinux" || d2b_fail "encode"
		fi
		checked=$((checked + 1))
		PAHOLE=$OURS btfdiff "$vmlinux" "$b" >"$tmp/btfdiff" 2>&1
		if [ -s "$tmp/btfdiff" ]; then
			echo "FAIL: btfdiff vmlinux $(basename "$b") with our pahole:"
			head -20 "$tmp/btfdiff"
			fails=$((fails + 1))
		fi
	done
	# (and that btfdiff ran ours: our -F btf --sort of the BTF)
	checked=$((checked + 1))
	[ "$("$OURS" -F btf --sort "$vmlinux" | grep -c '^struct ')" -gt 5000 ] ||
		{ echo "FAIL: -F btf --sort lists too few structs"; fails=$((fails + 1)); }
fi

# Output bytes must not depend on the number of threads.
for j in 1 4 8; do
	s=$("$OURS" -j$j "$vmlinux" 2>/dev/null | md5sum | cut -d' ' -f1)
	sums="$sums $s"
done
checked=$((checked + 1))
[ "$(echo $sums | tr ' ' '\n' | sort -u | wc -l)" = 1 ] ||
	{ echo "FAIL: -j1/-j2/-j4/-j8 outputs differ:$sums"; fails=$((fails + 1)); }

echo "$checked comparisons, $fails failures"
[ $fails -eq 0 ]
