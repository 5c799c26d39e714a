#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# BTF encoder at kernel scale: encode the corpus vmlinux with -j2, bpftool
# and libbpf accept it, and it is about as big as pahole's; the merge's
# pre-dedup drops most repeated types and changes no byte of the result,
# nor does our own dedup (against libbpf's, with and without pre-dedup),
# nor do the cut keys (their census's prediction holds; with every name
# cut the check finds the names defined twice and the second round gives
# the same bytes) (skip without the corpus; D2B_CORPUS=1 fetches it).
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd bpftool
corpus=$(d2b_corpus) || d2b_skip "no kernel corpus (D2B_CORPUS=1 fetches it)"
tmp=$(d2b_tmpdir)

"$D2B" encode -j2 --stats --btf_features=encode_force,var,float,enum64,decl_tag,type_tag \
	--btf_encode_detached="$tmp/vmlinux.btf" "$corpus/vmlinux" 2>"$tmp/stats" ||
	{ cat "$tmp/stats" >&2; d2b_fail "encode vmlinux"; }
cat "$tmp/stats"
grep -q "^stats: threads 2 (started 2)" "$tmp/stats" || d2b_fail "two workers did not run"
bpftool btf dump file "$tmp/vmlinux.btf" >"$tmp/dump" || d2b_fail "bpftool rejects the vmlinux BTF"
grep -q "^\[[0-9]*\] STRUCT 'task_struct' size=" "$tmp/dump" || d2b_fail "no task_struct"
grep -q "^\[[0-9]*\] FUNC 'schedule' " "$tmp/dump" || d2b_fail "no FUNC schedule"
grep -q "^\[[0-9]*\] DATASEC '.data..percpu' " "$tmp/dump" || d2b_fail "no per-CPU DATASEC"
# at least 2 M of the 3.4 M types the units give are exact repeats, and
# nearly all of those are never encoded (placeholders: btf_model_keys.h)
dropped=$(sed -n 's/.*(\([0-9]*\) repeated types dropped.*/\1/p' "$tmp/stats")
[ "${dropped:-0}" -gt 2000000 ] || d2b_fail "pre-dedup dropped only '$dropped' types"
skipped=$(sed -n 's/.*, \([0-9]*\) of them never encoded.*/\1/p' "$tmp/stats")
[ "${skipped:-0}" -gt 2000000 ] || d2b_fail "only '$skipped' repeats were not encoded"
# from -j4 the workers resolve their fragments' strings against those
# merged so far (most of them), and the bytes stay the same
"$D2B" encode -j4 --stats --btf_features=encode_force,var,float,enum64,decl_tag,type_tag \
	--btf_encode_detached="$tmp/j4.btf" "$corpus/vmlinux" 2>"$tmp/j4.stats" ||
	{ cat "$tmp/j4.stats" >&2; d2b_fail "encode -j4"; }
cmp "$tmp/vmlinux.btf" "$tmp/j4.btf" || d2b_fail "-j4 (strings resolved by the workers) differs"
resolved=$(sed -n 's/.*; \([0-9]*\) of \([0-9]*\) strings resolved.*/\1 \2/p' "$tmp/j4.stats")
set -- $resolved
[ "${1:-0}" -gt $(( ${2:-1} / 2 )) ] || d2b_fail "-j4: only '$resolved' strings resolved by the workers"
# the model's keys never join two types the records' keys tell apart
"$D2B" encode -j2 --stats --check_model_keys --btf_features=encode_force,var,float,enum64,decl_tag,type_tag \
	--btf_encode_detached="$tmp/chk.btf" "$corpus/vmlinux" 2>"$tmp/chk.stats" ||
	{ cat "$tmp/chk.stats" >&2; d2b_fail "encode --check_model_keys"; }
grep '^stats: check_model_keys' "$tmp/chk.stats"
cmp "$tmp/vmlinux.btf" "$tmp/chk.btf" || d2b_fail "--check_model_keys changed the BTF"
grep -q "^stats: dedup .*(ours, " "$tmp/stats" ||
	d2b_fail "our dedup did not run (the types went to libbpf)"
# the cut keys (btf_cut_names.h): the census ran and its prediction held
# (no second round), and the copies that reached a FWD where others reach
# the struct are repeats: ~0.12 M types into the dedup, not 0.85 M
grep -q "^stats: cut keys: census " "$tmp/stats" || d2b_fail "no census of the cut keys"
grep -q "encoded again with exact keys" "$tmp/stats" && d2b_fail "the cut keys' check failed on the vmlinux"
into=$(sed -n 's/^stats: dedup .*(ours, \([0-9]*\) -> .*/\1/p' "$tmp/stats")
[ "${into:-999999999}" -lt 300000 ] || d2b_fail "'$into' types into the dedup: the cut keys joined little"
# every name cut: the ten the kernel defines twice show in the result,
# and the second round with exact keys gives the same bytes
"$D2B" encode -j2 --stats --cut_names=all --btf_features=encode_force,var,float,enum64,decl_tag,type_tag \
	--btf_encode_detached="$tmp/cutall.btf" "$corpus/vmlinux" 2>"$tmp/cutall.stats" ||
	{ cat "$tmp/cutall.stats" >&2; d2b_fail "encode --cut_names=all"; }
grep -q "encoded again with exact keys: '.*' is defined twice" "$tmp/cutall.stats" ||
	d2b_fail "--cut_names=all was not encoded again: $(grep 'cut keys' "$tmp/cutall.stats")"
cmp "$tmp/vmlinux.btf" "$tmp/cutall.btf" || d2b_fail "--cut_names=all (encoded again) changed the BTF"
# our dedup has libbpf 1.1's rules (Debian 12's): compare with that one
case $(pkg-config --modversion libbpf 2>/dev/null) in
1.1.*)
	"$D2B" encode -j1 --no_prededup --btf_features=encode_force,var,float,enum64,decl_tag,type_tag \
		--btf_encode_detached="$tmp/all.btf" "$corpus/vmlinux" || d2b_fail "encode --no_prededup"
	cmp "$tmp/vmlinux.btf" "$tmp/all.btf" || d2b_fail "pre-dedup (and our dedup) changed the BTF"
	"$D2B" encode -j2 --libbpf_dedup --btf_features=encode_force,var,float,enum64,decl_tag,type_tag \
		--btf_encode_detached="$tmp/lib.btf" "$corpus/vmlinux" || d2b_fail "encode --libbpf_dedup"
	cmp "$tmp/vmlinux.btf" "$tmp/lib.btf" || d2b_fail "our dedup differs from libbpf's" ;;
*)	echo "note: libbpf is not 1.1: no comparison with its dedup" ;;
esac
size=$(stat -c %s "$tmp/vmlinux.btf")
[ "$size" -gt 3000000 ] && [ "$size" -lt 6000000 ] || d2b_fail "implausible BTF size $size"
echo "ok ($size bytes)"
