#!/usr/bin/env bash
# Kernel scale: our pfunct on the Debian cloud vmlinux and three modules
# equals pfunct 1.24 (-F dwarf), function bodies (-i, -T -V, -I, -t) too. 1.24 needs ~10 minutes per vmlinux listing,
# so its outputs are cached beside the corpus (keyed by its version) and
# made only when missing. Also: identical output for -j1, -j2, -j4, -j8.
. "$D2B_SRC/tests/lib.sh"
corpus=$(d2b_corpus) || d2b_skip "no kernel corpus (D2B_CORPUS=1 fetches it)"
d2b_need_cmd pfunct
tmp=$(d2b_tmpdir)
ours=$D2B_BUILD/pfunct
ver=$(pfunct --version)
refdir=$corpus/ref
mkdir -p "$refdir"

# ref FILE OPTS...: print the path of pfunct 1.24's cached output
ref() {
	local file=$1
	shift
	local tag
	tag=$(printf '%s' "$*" | tr -c 'A-Za-z0-9_-' '_')
	d2b_cached_ref "$refdir/$(basename "$file").pfunct-$ver-dwarf.$tag.txt" 1800 \
		pfunct -F dwarf "$@" "$file" || d2b_fail "pfunct 1.24 $* $file failed"
}

fails=0
# check_as SED FILE OPTS...: ours (-j2) against 1.24's cached output, both
# read through the sed script SED ('' for none)
check_as() {
	local sed_script=$1 file=$2
	shift 2
	local want
	want=$(ref "$file" "$@")
	if ! "$ours" -j2 "$@" "$file" > "$tmp/got" 2> "$tmp/err"; then
		echo "FAIL: pfunct $* $(basename "$file") exited non-zero: $(head -1 "$tmp/err")" >&2
		fails=$((fails + 1))
	elif ! cmp -s <(sed "$sed_script" "$tmp/got") <(sed "$sed_script" "$want"); then
		echo "FAIL: pfunct $* $(basename "$file") differs from 1.24:" >&2
		diff <(sed "$sed_script" "$tmp/got") <(sed "$sed_script" "$want") | head -20 >&2
		fails=$((fails + 1))
	fi
}

check() { # FILE OPTS...
	check_as '' "$@"
}

# check_bodies FILE OPTS...: check for -i / -T -V, gcc's __func__ (no
# DW_AT_decl_line: 1.24 prints stack garbage, we 0, PF-NULL-LINE) read as
# line 0 on both sides.
check_bodies() {
	check_as 's|\(__func__; /\* scope: [a-z]* \*/ *// \) *[0-9]*$|\1    0|' "$@"
}

check "$corpus/vmlinux"
check "$corpus/vmlinux" -P
check "$corpus/vmlinux" -I	# 1.24: ~4 minutes
check "$corpus/vmlinux" -t
check "$corpus/vmlinux" -b	# 1.24: ~9 minutes
check "$corpus/vmlinux" --compile
check "$corpus/vmlinux" -c sk_buff -V	# 1.24: ~12 s and 2.9 GB
check "$corpus/vmlinux" --symtab
for m in "$corpus"/modules/*.ko; do
	for opts in "" "-P" "-s" "--no_parm_names -P" "-S" "-g" "-c sk_buff -V" "-c net_device" \
		--symtab; do
		# shellcheck disable=SC2086
		check "$m" $opts
	done
	for opts in "-I" "-t" "-b" "--compile"; do
		check "$m" "$opts"
	done
	for opts in "-i" "-T -V"; do
		# shellcheck disable=SC2086
		check_bodies "$m" $opts
	done
done

# The same bytes for any number of threads.
sums=
for j in 1 2 4 8; do
	sums="$sums $("$ours" -j$j -P "$corpus/vmlinux" | md5sum | cut -d' ' -f1)"
done
[ "$(echo $sums | tr ' ' '\n' | sort -u | wc -l)" = 1 ] ||
	{ echo "FAIL: -j1/-j2/-j4/-j8 outputs differ: $sums" >&2; fails=$((fails + 1)); }

[ "$fails" = 0 ] || d2b_fail "$fails pfunct kernel comparisons failed"
echo "pfunct kernel: vmlinux and $(ls "$corpus"/modules/*.ko | wc -l) modules identical to $ver"
