#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# BTF encoder at kernel scale: encode the corpus vmlinux with -j2, bpftool
# and libbpf accept it, and it is about as big as pahole's (skip without the
# corpus; D2B_CORPUS=1 fetches it).
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
size=$(stat -c %s "$tmp/vmlinux.btf")
[ "$size" -gt 3000000 ] && [ "$size" -lt 6000000 ] || d2b_fail "implausible BTF size $size"
echo "ok ($size bytes)"
