#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Against the world, modules: the corpus modules (nfs, tcp_bbr, virtio_net)
# encoded by us as split BTF on top of the vmlinux .BTF Debian shipped
# (--btf_base=vmlinux, with the flags Debian's 6.1 build gave pahole 1.24:
# --btf_gen_floats -j --lang_exclude=rust, as t6070), against the .BTF
# Debian shipped inside each .ko (split BTF on the same base), compared by
# `dwarf2btf btfdiff --base=vmlinux`.
#
# Every difference must be listed in tests/compat/modules-vs-debian.txt
# (explained in docs/compat.md); an unlisted difference fails, and so does
# a listed one that is gone. Each listed explanation is checked too:
#   M1  the module's symbol table has NAME.SUFFIX as an STT_FUNC and no
#       plain NAME (a clone 1.24 did not match);
#   M2  our --verbose names the function as skipped for "unexpected
#       register usage for parameter".
# Also: bpftool accepts each of our split BTFs with the base, and our split
# BTF starts where the base ends (its ids continue the base's, as the
# kernel's module loader requires).
. "$D2B_SRC/tests/lib.sh"
corpus=$(d2b_corpus) || d2b_skip "no kernel corpus (D2B_CORPUS=1 fetches it)"
d2b_need_cmd objcopy readelf bpftool
tmp=$(d2b_tmpdir)
vmlinux=$corpus/vmlinux
LIST=$D2B_SRC/tests/compat/modules-vs-debian.txt
[ -f "$LIST" ] || d2b_fail "no $LIST"
base_types=$(d2b_base_btf "$vmlinux" "$tmp/vmlinux.btf") ||
	d2b_fail "cannot extract vmlinux's .BTF"

checked=0
case $(pkg-config --modversion libbpf 2>/dev/null) in
1.1.*) libbpf_1_1=yes ;;
*) libbpf_1_1=no; echo "note: libbpf is not 1.1: no comparison with its dedup" ;;
esac
for m in nfs tcp_bbr virtio_net; do
	ko=$corpus/modules/$m.ko
	[ -f "$ko" ] || { fail "no $ko"; continue; }
	objcopy --dump-section .BTF="$tmp/$m.shipped" "$ko" "$tmp/discard" ||
		{ fail "$m: cannot extract the shipped .BTF"; continue; }
	"$D2B_BUILD/pahole" -j2 --btf_gen_floats --lang_exclude=rust --verbose \
		--btf_base="$vmlinux" --btf_encode_detached="$tmp/$m.ours" "$ko" >"$tmp/$m.log" 2>&1 ||
		{ cat "$tmp/$m.log" >&2; fail "$m: encoding failed"; continue; }
	# the merge's pre-dedup and our dedup (libbpf 1.1's rules) change no
	# byte of split BTF either: against libbpf 1.1's dedup of every copy
	# (and the base read without libbpf's parse, our bytes written, against
	# libbpf's parse of the base and its serialisation of the result)
	if [ "$libbpf_1_1" = yes ]; then
		"$D2B" encode -j1 --no_prededup --btf_gen_floats --lang_exclude=rust \
			--btf_base="$vmlinux" --btf_encode_detached="$tmp/$m.all" "$ko" ||
			{ fail "$m: encoding with --no_prededup failed"; continue; }
		cmp -s "$tmp/$m.ours" "$tmp/$m.all" ||
			fail "$m: the pre-dedup or our dedup changed the split BTF"
	fi
	bpftool -B "$tmp/vmlinux.btf" btf dump file "$tmp/$m.ours" >"$tmp/$m.dump" 2>&1 ||
		{ head -3 "$tmp/$m.dump" >&2; fail "$m: bpftool rejects our split BTF"; continue; }
	first=$(sed -n '1s/^\[\([0-9]*\)\].*/\1/p' "$tmp/$m.dump")
	[ "$first" = $((base_types + 1)) ] ||
		fail "$m: our split BTF starts at id $first, the base has $base_types types"
	rc=0
	"$D2B" btfdiff --base="$vmlinux" "$tmp/$m.shipped" "$tmp/$m.ours" >"$tmp/$m.diff" || rc=$?
	[ "$rc" = 0 ] || [ "$rc" = 1 ] || { fail "$m: btfdiff failed (exit $rc)"; continue; }
	checked=$((checked + 1))
	n=$(sed -n 's/^btfdiff: .*(\([0-9]*\) entries in A.*/\1/p; s/^btfdiff: equal (\([0-9]*\) entries)$/\1/p' "$tmp/$m.diff")
	[ "${n:-0}" -gt 10 ] || fail "$m: only '${n}' entries compared"

	grep -v '^btfdiff: ' "$tmp/$m.diff" | sort >"$tmp/$m.got"
	awk -v m="$m" '$1 !~ /^#/ && $2 == m { $1 = ""; $2 = ""; sub(/^  /, ""); print }' "$LIST" |
		sort >"$tmp/$m.want"
	comm -23 "$tmp/$m.got" "$tmp/$m.want" | sed "s/^/$m: unexplained: /" >"$tmp/$m.new"
	comm -13 "$tmp/$m.got" "$tmp/$m.want" | sed "s/^/$m: explained but gone: /" >>"$tmp/$m.new"
	if [ -s "$tmp/$m.new" ]; then
		cat "$tmp/$m.new" >&2
		fail "$m: $(wc -l <"$tmp/$m.new") differences against $LIST"
	fi

	# the explanations hold
	readelf -sW "$ko" | awk '$4 == "FUNC" { print $8 }' | sort -u >"$tmp/$m.syms"
	while read -r id mod what name rest; do
		case $id in ''|'#'*) continue ;; esac
		[ "$mod" = "$m" ] || continue
		[ "$what" = function ] || { fail "$m: $id is not about a function: $what $name"; continue; }
		name=${name%:}
		case $id in
		M1)
			grep -qx "$name" "$tmp/$m.syms" && fail "$m: M1 $name has a plain symbol"
			grep -q "^$name\.[a-z]" "$tmp/$m.syms" || fail "$m: M1 $name has no clone symbol"
			[ "$rest" = "only in B" ] || fail "$m: M1 $name is not one of ours only"
			;;
		M2)
			grep -qx "$name : skipping BTF encoding of function due to unexpected register usage for parameter" \
				"$tmp/$m.log" || fail "$m: M2 $name is not skipped for unexpected register usage"
			[ "$rest" = "only in A" ] || fail "$m: M2 $name is not one of 1.24's only"
			;;
		*)	fail "$m: unknown id $id in $LIST" ;;
		esac
	done <"$LIST"
	[ -s "$tmp/$m.new" ] || echo "$m: $n entries, $(wc -l <"$tmp/$m.got") differences, all explained"
done
[ "$checked" = 3 ] || fail "only $checked modules compared"
[ "$fails" = 0 ] || d2b_fail "$fails failures"
echo ok
