#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# BTF encoder: the planted cases of btf_funcs/, btf_vars.c and btf_kfunc.c,
# each encoded or skipped for the right reason (--verbose text, presence or
# absence in bpftool's dump), and every output accepted by bpftool; the decl
# tags of btf_tags.c (struct, member, typedef, variable, function, parameter)
# are those pahole 1.24 writes.
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd bpftool

tmp=$(d2b_tmpdir)
fx=$(d2b_fixtures 'btf_[fvkt]*') || d2b_fail "fixtures"
fails=0
fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

# enc FILE OUT [OPTIONS...]: encode, keep --verbose output in OUT.log,
# bpftool's dump in OUT.dump.
enc() {
	local file=$1 out=$2
	shift 2
	"$D2B" encode --verbose "$@" --btf_encode_detached="$out" "$file" >"$out.log" 2>&1 ||
		{ cat "$out.log" >&2; d2b_fail "encode $file $*"; }
	bpftool btf dump file "$out" >"$out.dump" 2>&1 || fail "bpftool rejects $out ($file $*)"
	bpftool btf dump file "$out" format c >/dev/null 2>&1 || fail "bpftool format c rejects $out"
}
has_func() { grep -q "^\[[0-9]*\] FUNC '$1' " "$2.dump"; }
skipped() { grep -qx "$1 : skipping BTF encoding of function due to $2" "$3.log"; }

for f in $fx; do
	case $f in
	*.o)	# one CU, sections at 0: covered by the fixture test
		;;
	*/btf_funcs.*.dwarf*)
		b=$tmp/$(basename "$f")
		enc "$f" "$b.def" --btf_features=default
		enc "$f" "$b.old"
		for v in def old; do
			skipped dup_addr "ambiguous address" "$b.$v" || fail "$f ($v): dup_addr not skipped as ambiguous"
			has_func dup_addr "$b.$v" && fail "$f ($v): dup_addr in BTF"
			skipped packed_on_stack "uncertain parameter location" "$b.$v" ||
				fail "$f ($v): packed_on_stack not skipped as uncertain"
			has_func packed_on_stack "$b.$v" && fail "$f ($v): packed_on_stack in BTF"
			for fn in plain_func vararg_func main b_main; do
				has_func $fn "$b.$v" || fail "$f ($v): $fn missing"
			done
		done
		# clash: one parameter in a.c, two in b.c's inlined copy (clang -O2
		# leaves no trace of that copy)
		[ "${f#*clang.O2}" != "$f" ] || {
		skipped clash "inconsistent prototype" "$b.def" || fail "$f: clash not skipped as inconsistent"
		has_func clash "$b.def" && fail "$f: clash in BTF with consistent_func"
		has_func clash "$b.old" || fail "$f: clash missing without consistent_func"
		grep -q "^clash : skipping BTF encoding of function due to param count mismatch; 1 params != 2 params$" \
			"$b.def.log" || fail "$f: no param count message for clash"
		}
		# the varargs function ends with an unnamed void parameter
		id=$(sed -n "s/^\[[0-9]*\] FUNC 'vararg_func' type_id=\([0-9]*\) .*/\1/p" "$b.def.dump")
		grep -A2 "^\[$id\] FUNC_PROTO" "$b.def.dump" | tail -n 1 | grep -qx "	'(anon)' type_id=0" ||
			fail "$f: vararg_func does not end in '...'"
		case $f in
		*gcc.O2*)
			skipped reorder "reordered parameters" "$b.def" || fail "$f: reorder not skipped as reordered"
			has_func reorder "$b.def" && fail "$f: reorder in BTF"
			;;
		*O0*)
			has_func reorder "$b.def" || fail "$f: reorder missing at -O0"
			;;
		esac
		;;
	*/btf_vars.*.dwarf*)
		b=$tmp/$(basename "$f")
		enc "$f" "$b.def" --btf_features=default
		enc "$f" "$b.glob" --btf_features=+global_var
		enc "$f" "$b.novar" --btf_features=float,decl_tag,type_tag
		enc "$f" "$b.old" --skip_encoding_btf_enum64
		# per-CPU only by default
		grep -q "DATASEC '.data..percpu' size=" "$b.def.dump" || fail "$f: no .data..percpu DATASEC"
		for v in pcpu_counter pcpu_grid pcpu_static; do
			grep -q "VAR '$v' " "$b.def.dump" || fail "$f: VAR $v missing"
		done
		grep -q "VAR 'pcpu_static' .*linkage=static" "$b.def.dump" || fail "$f: pcpu_static not static"
		grep -q "VAR 'global_plain'" "$b.def.dump" && fail "$f: global_plain without global_var"
		grep -q "DATASEC '.data'" "$b.def.dump" && fail "$f: .data DATASEC without global_var"
		# everything with global_var
		for v in global_plain global_msg global_neg global_small static_big; do
			grep -q "VAR '$v' " "$b.glob.dump" || fail "$f: VAR $v missing with global_var"
		done
		grep -q "VAR" "$b.novar.dump" && fail "$f: VAR without the var feature"
		# enum64, floats
		grep -q "ENUM64 'big64' encoding=UNSIGNED size=8 vlen=3" "$b.def.dump" || fail "$f: enum big64"
		grep -q "'BIG_TOP' val=18446744073709551615ULL" "$b.def.dump" || fail "$f: BIG_TOP value"
		grep -q "ENUM64 'neg64' encoding=SIGNED size=8" "$b.def.dump" || fail "$f: enum neg64"
		grep -q "'NEG_MIN' val=-4294967296LL" "$b.def.dump" || fail "$f: NEG_MIN value"
		grep -q "ENUM 'small' encoding=SIGNED size=4" "$b.def.dump" || fail "$f: enum small"
		grep -q "ENUM 'big64' encoding=UNSIGNED size=8" "$b.old.dump" || fail "$f: big64 as ENUM without enum64"
		grep -q "FLOAT 'double' size=8" "$b.def.dump" || fail "$f: FLOAT double"
		grep -q "INT 'double' size=8 bits_offset=0 nr_bits=64 encoding=(none)" "$b.old.dump" ||
			fail "$f: double as INT without float"
		# flexible array: 0 elements; int[3][4] flattened to int[12], as pahole does
		grep -q "'payload' type_id=" "$b.def.dump" || fail "$f: payload member"
		id=$(sed -n "s/^\t'payload' type_id=\([0-9]*\) .*/\1/p" "$b.def.dump")
		grep -q "^\[$id\] ARRAY '(anon)' type_id=[0-9]* index_type_id=[0-9]* nr_elems=0$" "$b.def.dump" ||
			fail "$f: flexible array is not ARRAY[0]"
		id=$(sed -n "s/^\t'cells' type_id=\([0-9]*\) .*/\1/p" "$b.def.dump")
		elem=$(sed -n "s/^\[$id\] ARRAY '(anon)' type_id=\([0-9]*\) index_type_id=[0-9]* nr_elems=12$/\1/p" "$b.def.dump")
		[ -n "$elem" ] && grep -q "^\[$elem\] INT 'int' " "$b.def.dump" ||
			fail "$f: int[3][4] is not one ARRAY[12] of int"
		# bit-fields
		grep -q "'flags' type_id=[0-9]* bits_offset=36 bitfield_size=12" "$b.def.dump" || fail "$f: bit-field"
		;;
	*/btf_tags.*.dwarf*)
		b=$tmp/$(basename "$f")
		enc "$f" "$b.ours"
		/usr/bin/pahole -J --btf_encode_detached="$b.ref" "$f" >/dev/null 2>&1 ||
			{ fail "$f: pahole 1.24 -J failed"; continue; }
		bpftool btf dump file "$b.ref" >"$b.ref.dump" 2>&1 || fail "bpftool rejects pahole's $b.ref"
		for v in ours ref; do
			# each DECL_TAG as 'value' -> KIND 'target name' component_idx
			awk '/^\[/ { id = substr($1, 2, length($1) - 2); kind[id] = $2; name[id] = $3 }
			     $2 == "DECL_TAG" { tag[++n] = $0 }
			     END { for (i = 1; i <= n; i++) { split(tag[i], f, " ")
				     t = f[4]; sub(/type_id=/, "", t); c = f[5]
				     print f[3], kind[t], name[t], c } }' "$b.$v.dump" | sort >"$b.$v.tags"
		done
		[ -s "$b.ref.tags" ] || fail "$f: pahole 1.24 wrote no DECL_TAG"
		cmp -s "$b.ours.tags" "$b.ref.tags" ||
			fail "$f: decl tags differ from pahole 1.24's: $(diff "$b.ours.tags" "$b.ref.tags" | head -4)"
		;;
	*/btf_kfunc.*.dwarf*)
		b=$tmp/$(basename "$f")
		enc "$f" "$b.def" --btf_features=default
		enc "$f" "$b.notag" --btf_features=decl_tag
		for fn in my_kfunc fast_kfunc not_a_kfunc; do
			has_func $fn "$b.def" || fail "$f: $fn missing"
		done
		tagged() { # FUNC TAG FILE
			local id
			id=$(sed -n "s/^\[\([0-9]*\)\] FUNC '$1' .*/\1/p" "$3.dump")
			grep -q "DECL_TAG '$2' type_id=$id component_idx=-1" "$3.dump"
		}
		tagged my_kfunc bpf_kfunc "$b.def" || fail "$f: my_kfunc not tagged bpf_kfunc"
		tagged fast_kfunc bpf_kfunc "$b.def" || fail "$f: fast_kfunc not tagged bpf_kfunc"
		tagged fast_kfunc bpf_fastcall "$b.def" || fail "$f: fast_kfunc not tagged bpf_fastcall"
		tagged my_kfunc bpf_fastcall "$b.def" && fail "$f: my_kfunc tagged bpf_fastcall"
		tagged not_a_kfunc bpf_kfunc "$b.def" && fail "$f: not_a_kfunc tagged"
		grep -q "bpf_kfunc" "$b.notag.dump" && fail "$f: kfunc tags without decl_tag_kfuncs"
		;;
	esac
done
[ "$fails" = 0 ] || d2b_fail "$fails failures"
echo "ok"
