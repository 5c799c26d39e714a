#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# pahole -C on BTF builds a partial model (btf/btf_load.c, want_closure():
# the named types, every type they reach, the DECL_TAGs on those; issue 4).
# Its output must be the whole model's, byte for byte:
# D2B_PAHOLE_FULL_WALK=1 makes the same binary build the whole model.
# Checks:
#   - the O2 DWARF 5 fixture builds (gcc and clang), encoded to raw BTF by
#     our encoder: every struct, union, enum and typedef name, one -C run
#     each; all of them in one list, in id order and reversed, with a name
#     twice and a missing one in the middle; options -E, -r -E, --hex, -s,
#     -c 32, --suppress_packed, --suppress_aligned_attribute on the list;
#   - the partial model is what ran, and is smaller: D2B_PAHOLE_STATS=1
#     reports the model's types;
#   - the kernel, when its corpus is cached: every named struct, union,
#     enum and typedef of the vmlinux's .BTF, in lists of 250 (plain and
#     -E), and task_struct alone in under a quarter of the types (7,057 of
#     52,839 model types in the Debian 6.1 kernel).
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd bpftool
OURS="$D2B_BUILD/pahole"
[ -x "$OURS" ] || d2b_fail "no $OURS"
tmp=$(d2b_tmpdir)
checked=0

# names BTF: named struct, union, enum and typedef types, in id order, once
# (not bpftool's "(anon)": -C reads NAME(ARGS) as 1.24 does)
names() {
	bpftool btf dump file "$1" 2>/dev/null |
		sed -n -E "s/^\[[0-9]+\] (STRUCT|UNION|ENUM|ENUM64|TYPEDEF) '([^']+)'.*/\2/p" |
		awk '$0 != "(anon)" && !seen[$0]++'
}

# same BTF OPTS...: the partial model prints what the whole one prints
same() {
	local f=$1
	shift
	d2b_same_partial "$f" -F btf "$@"
}

# model_types BTF NAME [ENV]: the types of the model a -C NAME run built
model_types() {
	env ${3:+"$3"} D2B_PAHOLE_STATS=1 "$OURS" -F btf -C "$2" "$1" 2>&1 >/dev/null |
		sed -n 's/^d2b-btf-model: \([0-9]*\) types$/\1/p'
}

fx=
for x in structs bitfields arrays enums qualifiers pahole_nested base_types \
	 functions btf_tags multi_cu; do
	fx="$fx $(d2b_fixtures "$x")" || d2b_fail "fixtures"
done
nr_btf=0
for f in $fx; do
	case $f in *.O2.dwarf5) ;; *) continue ;; esac
	btf=$tmp/$(basename "$f").btf
	"$OURS" -J --btf_encode_detached="$btf" "$f" 2>"$tmp/enc.err" ||
		{ fail "$f: cannot encode: $(head -1 "$tmp/enc.err")"; continue; }
	nr_btf=$((nr_btf + 1))
	list=$(names "$btf")
	[ -n "$list" ] || { fail "$btf: no names found"; continue; }
	for n in $list; do
		same "$btf" -C "$n"
	done
	all=$(echo "$list" | paste -sd,)
	rev=$(echo "$list" | tac | paste -sd,)
	first=$(echo "$list" | head -1)
	same "$btf" -C "$all"
	same "$btf" -C "$rev"
	same "$btf" -C "$first,no_such_type_here,$rev,$first"
	for o in -E "-r -E" --hex -s "-c 32" --suppress_packed --suppress_aligned_attribute; do
		# shellcheck disable=SC2086
		same "$btf" $o -C "$all"
	done
	# the partial model ran: never more types than the whole model
	part=$(model_types "$btf" "$first")
	full=$(model_types "$btf" "$first" D2B_PAHOLE_FULL_WALK=1)
	if [ -z "$part" ] || [ -z "$full" ] || [ "$part" -gt "$full" ]; then
		fail "$btf -C $first: model of '$part' types, the whole one '$full'"
	fi
done
[ "$nr_btf" -ge 4 ] || fail "only $nr_btf fixture BTFs encoded"
# one fixture type that reaches few others: a strictly smaller model
btf=$(ls "$tmp"/*structs*gcc*.btf 2>/dev/null | head -1)
if [ -n "$btf" ]; then
	small=$(names "$btf" | head -1)
	part=$(model_types "$btf" "$small")
	full=$(model_types "$btf" "$small" D2B_PAHOLE_FULL_WALK=1)
	[ -n "$part" ] && [ -n "$full" ] && [ "$part" -lt "$full" ] ||
		fail "$btf -C $small: partial model of '$part' types, not fewer than '$full'"
else
	fail "no structs fixture BTF"
fi

if corpus=$(d2b_corpus) && [ -s "$corpus/vmlinux" ]; then
	vml=$corpus/vmlinux
	d2b_base_btf "$vml" "$tmp/vmlinux.btf" >/dev/null ||
		d2b_fail "cannot extract the vmlinux's .BTF"
	names "$tmp/vmlinux.btf" >"$tmp/knames"
	nk=$(wc -l <"$tmp/knames")
	[ "$nk" -gt 10000 ] || fail "vmlinux: only $nk names"
	split -l 250 "$tmp/knames" "$tmp/kpart."
	for p in "$tmp"/kpart.*; do
		l=$(paste -sd, "$p")
		same "$vml" -C "$l"
		same "$vml" -E -C "$l"
	done
	same "$vml" -C task_struct
	part=$(model_types "$vml" task_struct)
	full=$(model_types "$vml" task_struct D2B_PAHOLE_FULL_WALK=1)
	if [ -z "$part" ] || [ -z "$full" ] || [ $((part * 4)) -ge "$full" ]; then
		fail "vmlinux -C task_struct: model of '$part' types, the whole one '$full'"
	fi
	echo "vmlinux: $nk names; -C task_struct model $part of $full types"
else
	echo "no kernel corpus: kernel part skipped"
fi
d2b_finish
