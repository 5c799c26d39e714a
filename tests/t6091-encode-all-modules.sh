#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Against the world, every module: each of the Debian cloud kernel's ~1,100
# modules (the corpus's all-modules/, bench/fetch-corpus.sh) encoded by us as
# the kernel build does (`pahole -J --btf_gen_floats -j --lang_exclude=rust
# --btf_base vmlinux`, detached), checked:
#   - the encoding succeeds, bpftool reads the split BTF on the vmlinux's
#     .BTF, and its first id follows the base's last;
#   - `dwarf2btf btfdiff --base=vmlinux SHIPPED OURS` against the .BTF Debian
#     shipped in the module (pahole 1.24's) shows only differences that
#     upstream pahole's function rules explain, each checked on the module:
#       only in ours: the function's only ELF symbols are compiler clones
#         (NAME.isra.0, NAME.constprop.0: M1 of tests/compat/modules-vs-debian.txt);
#       only in 1.24's: our --verbose names the function as skipped (its
#         reason: unexpected register usage, ambiguous address, reordered
#         parameters, a prototype that differs between units);
#   - any other difference (a type, a function defined twice in one and once
#     in the other) must vanish against pahole 1.24 run here at -j1: Debian's
#     build ran it with -j, and 1.24's -j is not deterministic (romfs.ko and
#     blocklayoutdriver.ko get a second `struct module` in some runs).
# The modules t6090 lists are compared there in detail; here the rules are
# the list.
. "$D2B_SRC/tests/lib.sh"
corpus=$(d2b_corpus) || d2b_skip "no kernel corpus (D2B_CORPUS=1 fetches it)"
all=$corpus/all-modules
[ -d "$all" ] && [ -f "$corpus/.complete-all-modules" ] ||
	d2b_skip "the corpus has no all-modules/ (bench/fetch-corpus.sh extracts it)"
d2b_need_cmd objcopy readelf bpftool
# the recheck's oracle (only a module the rules leave unexplained needs it)
ref_pahole=
[ "$(pahole --version 2>/dev/null)" = v1.24 ] && ref_pahole=pahole
tmp=$(d2b_tmpdir)
vmlinux=$corpus/vmlinux
base_types=$(d2b_base_btf "$vmlinux" "$tmp/vmlinux.btf") ||
	d2b_fail "cannot extract vmlinux's .BTF"
flags=(-J --btf_gen_floats --lang_exclude=rust --btf_base="$vmlinux")

# explained DIFF LOG KO: print each line of DIFF that the rules above do not
# explain; counts the explained ones by kind in $tmp/kinds
explained() {
	local diff=$1 log=$2 ko=$3 line name syms=
	while IFS= read -r line; do
		case $line in
		'btfdiff: '*) continue ;;
		'function '*': only in B')
			name=${line#function }; name=${name%%: *}
			[ -n "$syms" ] || { readelf -sW "$ko" | awk '$4 == "FUNC" { print $8 }' | sort -u >"$tmp/syms"; syms=1; }
			if ! grep -qxF "$name" "$tmp/syms" && grep -q "^$name\.[a-z]" "$tmp/syms"; then
				echo "only ours: clone symbols only" >>"$tmp/kinds"
				continue
			fi ;;
		'function '*': only in A'*)
			name=${line#function }; name=${name%%: *}
			local why
			why=$(grep -m1 "^$name : skipping BTF encoding of function due to " "$log") && {
				echo "only 1.24's: skipped for ${why#*due to }" | sed 's/;.*//' >>"$tmp/kinds"
				continue
			} ;;
		esac
		echo "$line"
	done <"$diff"
}

n=0
total=0
rechecked=0
while IFS= read -r ko; do
	m=$(basename "$ko" .ko)
	n=$((n + 1))
	"$D2B_BUILD/pahole" -j2 "${flags[@]}" --verbose --btf_encode_detached="$tmp/ours" "$ko" >"$tmp/log" 2>&1 ||
		{ tail -3 "$tmp/log" >&2; fail "$m: encoding failed"; continue; }
	bpftool -B "$tmp/vmlinux.btf" btf dump file "$tmp/ours" >"$tmp/dump" 2>&1 ||
		{ head -3 "$tmp/dump" >&2; fail "$m: bpftool rejects our split BTF"; continue; }
	first=$(sed -n '1s/^\[\([0-9]*\)\].*/\1/p' "$tmp/dump")
	[ -z "$first" ] || [ "$first" = $((base_types + 1)) ] ||
		fail "$m: our split BTF starts at id $first, the base has $base_types types"
	rc=0
	"$D2B" btfdiff --base="$vmlinux" "$ko" "$tmp/ours" >"$tmp/diff" || rc=$?
	[ "$rc" = 0 ] || [ "$rc" = 1 ] || { fail "$m: btfdiff failed (exit $rc)"; continue; }
	# (a module may have nothing of its own: cast_common.ko, 0 entries)
	entries=$(sed -n 's/^btfdiff: .*(\([0-9]*\) entries in A.*/\1/p; s/^btfdiff: equal (\([0-9]*\) entries)$/\1/p' "$tmp/diff")
	[ -n "$entries" ] || { fail "$m: no btfdiff summary: $(tail -1 "$tmp/diff")"; continue; }
	total=$((total + entries))
	[ "$rc" = 0 ] && continue
	explained "$tmp/diff" "$tmp/log" "$ko" >"$tmp/left"
	[ -s "$tmp/left" ] || continue
	# against 1.24 here, deterministic at -j1
	rechecked=$((rechecked + 1))
	if [ -z "$ref_pahole" ]; then
		sed "s/^/$m: unexplained: /" "$tmp/left" >&2
		fail "$m: differences the rules do not explain, and no pahole 1.24 to recheck them against"
		continue
	fi
	"$ref_pahole" "${flags[@]}" --btf_encode_detached="$tmp/ref" "$ko" >/dev/null 2>&1 ||
		{ fail "$m: pahole 1.24 failed"; continue; }
	rc=0
	"$D2B" btfdiff --base="$vmlinux" "$tmp/ref" "$tmp/ours" >"$tmp/diff" || rc=$?
	[ "$rc" = 0 ] || [ "$rc" = 1 ] || { fail "$m: btfdiff failed (exit $rc)"; continue; }
	explained "$tmp/diff" "$tmp/log" "$ko" >"$tmp/left"
	if [ -s "$tmp/left" ]; then
		sed "s/^/$m: unexplained: /" "$tmp/left" >&2
		fail "$m: $(wc -l <"$tmp/left") differences no rule explains"
	fi
done < <(find "$all" -name '*.ko' | LC_ALL=C sort)

[ "$n" -ge 1000 ] || fail "only $n modules in $all"
[ "$total" -ge 10000 ] || fail "only $total entries compared in all"
echo "$n modules, $total entries compared; $rechecked rechecked against pahole 1.24 -j1; differences explained:"
[ -f "$tmp/kinds" ] && sort "$tmp/kinds" | uniq -c | sort -rn
[ "$fails" = 0 ] || d2b_fail "$fails failures"
echo ok
