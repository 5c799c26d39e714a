#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# pahole -C decodes of each unit only what printing the names needs (the
# partial load of load/load_cu.c, load_options.only_types; issue 4). Its
# output must be the full walk's, byte for byte: D2B_PAHOLE_FULL_WALK=1
# makes the same binary decode every unit whole. Checks:
#   - every struct, union, enum and typedef name of the C fixtures (gcc and
#     clang, -O0/-O2, DWARF 4/5), one -C run each, stdout and stderr, on two
#     of the eight builds; on all eight, the list of all of them in DIE
#     order and reversed (several names decoded into one unit's model, and
#     looked up by binary search: over 4 names), with a name twice, and
#     with a missing name in the middle;
#   - the options of our pahole (--hex, -E, -r, -s, -c 32, -F dwarf,
#     --suppress_packed, --suppress_aligned_attribute) on a few names each;
#   - the partial load is what ran: D2B_PAHOLE_STATS=1 reports partial
#     units for C files (and none with D2B_PAHOLE_FULL_WALK=1), fewer types
#     than the full walk for a unit's first type;
#   - C++ and type units (where it falls back to the full walk) the same;
#   - the kernel, when its corpus is cached: about 200 names (task_struct,
#     sk_buff, page, inode, file, mm_struct, enums, typedefs, names with
#     many anonymous members, names that do not exist, lists).
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd readelf
OURS="$D2B_BUILD/pahole"
[ -x "$OURS" ] || d2b_fail "no $OURS"
tmp=$(d2b_tmpdir)
checked=0

# names FILE: struct, union, enum, class and typedef names, in DIE order,
# each once
names() {
	readelf --debug-dump=info "$1" 2>/dev/null | awk '
		/^ *<[0-9]+><[0-9a-f]+>: Abbrev Number/ {
			t = ""
			if (match($0, /\(DW_TAG_[a-z_]+\)/))
				t = substr($0, RSTART + 8, RLENGTH - 9)
			next
		}
		t ~ /^(structure_type|union_type|enumeration_type|typedef|class_type)$/ && /DW_AT_name/ {
			if (!seen[$NF]++)
				print $NF
			t = ""
		}'
}

# same FILE OPTS...: the partial load prints what the full walk prints
same() {
	d2b_same_partial "$@"
}

# units FILE NAME [ENV]: the d2b-units line ("N units, P partial, T types")
units() {
	env ${3:+"$3"} D2B_PAHOLE_STATS=1 "$OURS" -C "$2" "$1" 2>&1 >/dev/null |
		sed -n 's/^d2b-units: //p'
}

fx=
for x in structs bitfields arrays enums qualifiers pahole_nested base_types \
	 functions btf_tags type_units multi_cu pahole_cxx cxx_classes; do
	fx="$fx $(d2b_fixtures "$x")" || d2b_fail "fixtures"
done
[ -n "$fx" ] || d2b_fail "no fixtures"
for f in $fx; do
	case $f in *.o) continue ;; esac
	list=$(names "$f")
	[ -n "$list" ] || { fail "$f: no names found"; continue; }
	# one run per name on two builds of eight: a few seconds
	case $f in
	*.gcc.O2.dwarf5|*.clang.O0.dwarf4)
		for n in $list; do
			same "$f" -C "$n"
		done ;;
	esac
	all=$(echo $list | tr ' ' ',')
	rev=$(echo $list | tr ' ' '\n' | tac | tr '\n' ',')
	same "$f" -C "$all"
	same "$f" -C "${rev%,}"
	first=${list%%$'\n'*}
	last=${list##*$'\n'}
	same "$f" -C "$first,no_such_type_zz,$last"
	same "$f" -C "$last,$all"	# a name twice, and over 4 names (sorted)
	same "$f" -C "no_such_type_zz"
	# options, on the first and last names and the list
	case $f in
	*.O2.dwarf5)
		for o in --hex -E -r -s "-c 32" "-F dwarf" --suppress_packed \
			 --suppress_aligned_attribute; do
			# shellcheck disable=SC2086
			same "$f" $o -C "$first"
			# shellcheck disable=SC2086
			same "$f" $o -C "$last"
			# shellcheck disable=SC2086
			same "$f" $o -C "$all"
		done ;;
	esac
done

# the partial load is what ran (a C unit), and decoded less
f=$(echo "$fx" | tr ' ' '\n' | grep -m1 'structs.gcc.O2.dwarf5$')
if [ -n "$f" ]; then
	n=$(names "$f" | head -n 1)
	p=$(units "$f" "$n")
	w=$(units "$f" "$n" D2B_PAHOLE_FULL_WALK=1)
	checked=$((checked + 1))
	[[ $p =~ ^([0-9]+)\ units,\ ([0-9]+)\ partial,\ ([0-9]+)\ types$ ]] ||
		fail "$f -C $n: no d2b-units line ('$p')"
	pu=${BASH_REMATCH[2]} pt=${BASH_REMATCH[3]}
	[[ $w =~ ^([0-9]+)\ units,\ ([0-9]+)\ partial,\ ([0-9]+)\ types$ ]] ||
		fail "$f -C $n: no d2b-units line for the full walk ('$w')"
	wu=${BASH_REMATCH[2]} wt=${BASH_REMATCH[3]}
	[ "${pu:-0}" -ge 1 ] || fail "$f -C $n: no partial unit ($p)"
	[ "${wu:-1}" = 0 ] || fail "$f -C $n: D2B_PAHOLE_FULL_WALK=1 made partial units ($w)"
	[ -n "$pt" ] && [ -n "$wt" ] && [ "$pt" -lt "$wt" ] ||
		fail "$f -C $n: the partial load made $pt types, the full walk $wt"
	# over 256 names: the full walk (decoding each unit's share of a
	# long list costs more than the walk), with the same output
	long=$(names "$f" | head -n 20 | paste -sd,)
	for _ in $(seq 14); do long="$long,$(names "$f" | head -n 20 | paste -sd,)"; done
	long="$long,no_such_type_zz"	# 301 names
	p=$(units "$f" "$long")
	checked=$((checked + 1))
	[[ $p =~ ^([0-9]+)\ units,\ 0\ partial, ]] || fail "$f: 301 names made partial units ($p)"
	same "$f" -C "$long"
	# 256 names: still partial
	mid=$(echo "$long" | cut -d, -f1-256)
	p=$(units "$f" "$mid")
	checked=$((checked + 1))
	[[ $p =~ ^([0-9]+)\ units,\ ([1-9][0-9]*)\ partial, ]] || fail "$f: 256 names made no partial unit ($p)"
	same "$f" -C "$mid"
fi

# The kernel, when its corpus is cached: names of the first units (where
# -C stops early, so the full walk is quick too) and well-known ones
if corpus=$(d2b_corpus) && [ -s "$corpus/vmlinux" ]; then
	v=$corpus/vmlinux
	kn=$(readelf --debug-dump=info "$v" 2>/dev/null | head -n 400000 | awk '
		/^ *<[0-9]+><[0-9a-f]+>: Abbrev Number/ {
			t = ""
			if (match($0, /\(DW_TAG_[a-z_]+\)/))
				t = substr($0, RSTART + 8, RLENGTH - 9)
			next
		}
		t ~ /^(structure_type|union_type|enumeration_type|typedef)$/ && /DW_AT_name/ {
			if (!seen[$NF]++)
				print $NF
			t = ""
		}' | awk 'NR % 4 == 1' | head -n 160)
	[ "$(echo "$kn" | wc -l)" -ge 100 ] || fail "vmlinux: too few names ($(echo "$kn" | wc -l))"
	for n in task_struct sk_buff page inode file mm_struct list_head \
		 task_struct,sk_buff,page sk_buff,task_struct inode,file,no_such_type_zz \
		 sk_buff,task_struct,page,sk_buff,inode,file,list_head,no_such_zz,mm_struct \
		 rq cfs_rq sched_entity pid_type irqreturn_t atomic_t bpf_prog \
		 net_device sock super_block dentry address_space vm_area_struct \
		 $kn; do
		same "$v" -j2 -C "$n"
	done
	same "$v" -j2 --hex -C task_struct
	same "$v" -j2 -E -C sk_buff
	checked=$((checked + 1))
	p=$(units "$v" task_struct)
	[[ $p == *" 1 partial,"* ]] || fail "vmlinux -C task_struct: '$p', want 1 partial unit"
fi
d2b_finish
