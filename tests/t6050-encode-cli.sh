#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# dwarf2btf encode: options and errors. --supported_btf_features, strict
# feature lists, distilled_base (libbpf 1.1 lacks it), bad input, an
# unwritable output; -J writes a .BTF that bpftool reads from the ELF;
# split BTF on a base, and where libbpf keeps a copy that we do not;
# --kabi_prefix as 1.24 encodes it.
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd bpftool
tmp=$(d2b_tmpdir)
fx=$(d2b_fixtures 'btf_funcs') || d2b_fail "fixtures"
f=$(echo "$fx" | grep 'gcc.O2.dwarf5$')
[ -n "$f" ] || d2b_fail "no btf_funcs.gcc.O2.dwarf5"

out=$("$D2B" encode --supported_btf_features) || d2b_fail "--supported_btf_features"
[ "$out" = "encode_force,var,float,decl_tag,type_tag,enum64,optimized_func,consistent_func,decl_tag_kfuncs,reproducible_build,distilled_base,global_var" ] ||
	d2b_fail "--supported_btf_features printed '$out'"

# non-strict ignores unknown names; strict names the culprit
"$D2B" encode --btf_features=var,no_such_thing --btf_encode_detached="$tmp/a" "$f" ||
	d2b_fail "unknown feature rejected without strict"
if "$D2B" encode --btf_features_strict=var,no_such_thing --btf_encode_detached="$tmp/b" "$f" 2>"$tmp/err"; then
	d2b_fail "strict accepted an unknown feature"
fi
grep -q "Feature 'no_such_thing' in 'var,no_such_thing' is not supported" "$tmp/err" || d2b_fail "strict message: $(cat "$tmp/err")"
[ -e "$tmp/b" ] && d2b_fail "output written after an error"
if "$D2B" encode --btf_features=+distilled_base --btf_encode_detached="$tmp/c" "$f" 2>"$tmp/err"; then
	d2b_fail "distilled_base accepted"
fi
grep -q "distilled_base needs btf__distill_base" "$tmp/err" || d2b_fail "distilled_base message: $(cat "$tmp/err")"

# --check_model_keys checks the pre-dedup: with --no_prededup it is refused,
# not a silent pass
if "$D2B" encode --check_model_keys --no_prededup --btf_encode_detached="$tmp/k" "$f" 2>"$tmp/err"; then
	d2b_fail "--check_model_keys --no_prededup accepted"
fi
grep -q "not with --no_prededup" "$tmp/err" || d2b_fail "check_model_keys message: $(cat "$tmp/err")"
[ -e "$tmp/k" ] && d2b_fail "output written after an error"

# --thread_bytes and --window (a benchmark knob) take a count, nothing else
for opt in --thread_bytes --window; do
	for v in x -1 '' 12k; do
		rc=0
		"$D2B" encode -j2 "$opt=$v" --btf_encode_detached="$tmp/t" "$f" 2>"$tmp/err" || rc=$?
		[ "$rc" = 2 ] || d2b_fail "$opt='$v': exit $rc"
		grep -q "bad $opt '$v'" "$tmp/err" || d2b_fail "$opt='$v': $(cat "$tmp/err")"
		[ -e "$tmp/t" ] && d2b_fail "output written after $opt='$v'"
	done
done

# and as two words, as getopt takes pahole's options
"$D2B_BUILD/pahole" -J -j2 --thread_bytes 0 --btf_encode_detached="$tmp/t2" "$f" ||
	d2b_fail "--thread_bytes 0 (two words) rejected"
[ -s "$tmp/t2" ] || d2b_fail "--thread_bytes 0: no output"

# bad input and output
"$D2B" encode --btf_encode_detached="$tmp/d" /nonexistent 2>"$tmp/err" && d2b_fail "missing input accepted"
[ "$(wc -l <"$tmp/err")" = 1 ] || d2b_fail "not a one-line error: $(cat "$tmp/err")"
echo "not an ELF" >"$tmp/junk"
"$D2B" encode --btf_encode_detached="$tmp/e" "$tmp/junk" 2>/dev/null && d2b_fail "junk input accepted"
"$D2B" encode --btf_encode_detached="$tmp/nodir/x" "$f" 2>"$tmp/err" && d2b_fail "unwritable output accepted"
grep -q "nodir" "$tmp/err" || d2b_fail "unwritable output message: $(cat "$tmp/err")"
"$D2B" encode "$f" 2>/dev/null && d2b_fail "no output mode accepted"
"$D2B" encode --bogus "$f" 2>/dev/null && d2b_fail "unknown option accepted"

# -J: into a copy of the ELF; the same bytes as detached
cp "$f" "$tmp/elf"
"$D2B" encode -J --btf_features=default "$tmp/elf" || d2b_fail "-J"
"$D2B" encode --btf_features=default --btf_encode_detached="$tmp/raw" "$f" || d2b_fail "detached"
bpftool btf dump file "$tmp/elf" >"$tmp/elf.dump" || d2b_fail "bpftool cannot read .BTF of the ELF"
bpftool btf dump file "$tmp/raw" >"$tmp/raw.dump" || d2b_fail "bpftool rejects the raw BTF"
cmp -s "$tmp/elf.dump" "$tmp/raw.dump" || d2b_fail "-J and detached BTF differ"
"$tmp/elf" >/dev/null; [ $? -lt 2 ] || d2b_fail "the executable no longer runs after -J"

# split BTF against a base: only new types, and libbpf parses it on the base
"$D2B" encode --btf_base="$tmp/raw" --btf_features=default --btf_encode_detached="$tmp/split" "$f" ||
	d2b_fail "--btf_base"
bpftool -B "$tmp/raw" btf dump file "$tmp/split" >"$tmp/split.dump" || d2b_fail "bpftool rejects the split BTF"
[ "$(grep -c '^\[' "$tmp/split.dump")" = 0 ] || d2b_fail "split BTF of the same file is not empty"
# the base from an ELF's .BTF (the kernel build's --btf_base vmlinux): the
# same split BTF as from the raw base
"$D2B" encode --btf_base="$tmp/elf" --btf_features=default --btf_encode_detached="$tmp/split2" "$f" ||
	d2b_fail "--btf_base=ELF"
cmp -s "$tmp/split" "$tmp/split2" || d2b_fail "split BTF on an ELF base differs from the raw base's"

# a split struct whose members reach two copies of a chain that the base
# holds once (docs/btf.md, "A split BTF where libbpf keeps a copy"):
# libbpf keeps a second struct ns, our pre-dedup maps it to the base's;
# --no_prededup gives libbpf's result (pahole 1.24's, where it is here)
if command -v gcc >/dev/null 2>&1; then
	printf '%s\n' 'typedef const volatile short t2;' 'typedef t2 t95[7];' \
		'struct ns { const volatile t95 a; t95 b; short c; };' >"$tmp/cv_base.c"
	cp "$tmp/cv_base.c" "$tmp/cv_mod.c"
	echo 'struct ns base_var;' >>"$tmp/cv_base.c"
	echo 'struct outer { struct ns n; int extra; } mod_var;' >>"$tmp/cv_mod.c"
	gcc -g -gdwarf-4 -O0 -c -o "$tmp/cv_base.o" "$tmp/cv_base.c" &&
		gcc -g -gdwarf-4 -O0 -c -o "$tmp/cv_mod.o" "$tmp/cv_mod.c" || d2b_fail "gcc cv_*.c"
	"$D2B" encode --btf_encode_detached="$tmp/cv_base.btf" "$tmp/cv_base.o" || d2b_fail "cv base"
	for pre in "" --no_prededup; do
		# shellcheck disable=SC2086
		"$D2B" encode $pre --btf_base="$tmp/cv_base.btf" --btf_encode_detached="$tmp/cv$pre.btf" \
			"$tmp/cv_mod.o" || d2b_fail "cv split $pre"
		bpftool -B "$tmp/cv_base.btf" btf dump file "$tmp/cv$pre.btf" |
			sed -n "s/^\[[0-9]*\] \(STRUCT '[a-z]*'\).*/\1/p" | paste -sd' ' >"$tmp/cv$pre.kinds"
	done
	[ "$(cat "$tmp/cv.kinds")" = "STRUCT 'outer'" ] ||
		d2b_fail "split BTF by default: $(cat "$tmp/cv.kinds"), not struct outer alone"
	[ "$(cat "$tmp/cv--no_prededup.kinds")" = "STRUCT 'ns' STRUCT 'outer'" ] ||
		d2b_fail "split BTF --no_prededup: $(cat "$tmp/cv--no_prededup.kinds"), not libbpf's two structs"
	if command -v pahole >/dev/null 2>&1 && [ "$(pahole --version)" = v1.24 ] &&
	   pahole -J --btf_base="$tmp/cv_base.btf" --btf_encode_detached="$tmp/cv.ref" "$tmp/cv_mod.o" >/dev/null 2>&1; then
		"$D2B" btfdiff --base="$tmp/cv_base.btf" "$tmp/cv.ref" "$tmp/cv--no_prededup.btf" >/dev/null ||
			d2b_fail "split BTF --no_prededup differs from pahole 1.24's"
	fi
fi

# a bad base: a one-line error that names it, no output
head -c 100 "$tmp/raw" >"$tmp/trunc"
# a well-formed base whose first PTR points past the last type: the encoder
# crashed on it when libbpf's parse was the only check
python3 - "$tmp/raw" "$tmp/badref" <<'PY' || d2b_fail "cannot make the bad-reference base"
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
hl, to, tl = struct.unpack_from('<III', d, 4)[0], *struct.unpack_from('<II', d, 8)
extra = {1: lambda v: 4, 3: lambda v: 12, 4: lambda v: 12 * v, 5: lambda v: 12 * v,
         6: lambda v: 8 * v, 13: lambda v: 8 * v, 14: lambda v: 4, 15: lambda v: 12 * v,
         17: lambda v: 4, 19: lambda v: 12 * v}
p, end = hl + to, hl + to + tl
while p < end:
    info = struct.unpack_from('<I', d, p + 4)[0]
    kind, vlen = info >> 24 & 0x1f, info & 0xffff
    if kind == 2:
        struct.pack_into('<I', d, p + 8, 0x7fffffff)
        open(sys.argv[2], 'wb').write(d)
        sys.exit(0)
    p += 12 + extra.get(kind, lambda v: 0)(vlen)
sys.exit("no PTR in the base")
PY
# --kabi_prefix: names that begin with it become it, in types, members,
# enumerators and functions (a function renamed is no ELF symbol's any
# more: dropped), as 1.24 encodes them (the names with their kinds and
# counts: the order of FUNCs may be ours, docs/btf.md)
fk=$(d2b_fixtures 'structs' | grep 'gcc.O0.dwarf5$')
fk2=$(d2b_fixtures 'functions' | grep 'gcc.O0.dwarf5$')
[ -n "$fk" ] && [ -n "$fk2" ] || d2b_fail "no structs or functions fixture"
for case in "$fk s" "$fk e" "$fk2 s"; do
	set -- $case
	for w in ref our; do
		cp "$1" "$tmp/kabi.$w" || d2b_fail "cp"
	done
	/usr/bin/pahole -J --kabi_prefix="$2" "$tmp/kabi.ref" >/dev/null 2>&1 ||
		d2b_fail "pahole 1.24 -J --kabi_prefix=$2"
	"$D2B_BUILD/pahole" -J --kabi_prefix "$2" "$tmp/kabi.our" || d2b_fail "-J --kabi_prefix $2"
	for w in ref our; do
		bpftool btf dump file "$tmp/kabi.$w" | grep -o "^\[[0-9]*\] [A-Z_0-9]* '[^']*'\|^	'[^']*'" |
			sed 's/^\[[0-9]*\] //' | sort | uniq -c >"$tmp/kabi.$w.names" ||
			d2b_fail "bpftool $w"
	done
	grep -q "'$2'" "$tmp/kabi.our.names" || d2b_fail "--kabi_prefix=$2 renamed nothing"
	cmp -s "$tmp/kabi.ref.names" "$tmp/kabi.our.names" ||
		d2b_fail "--kabi_prefix=$2: $(diff "$tmp/kabi.ref.names" "$tmp/kabi.our.names" | head -5)"
done

for base in /nonexistent "$tmp/junk" "$f" "$tmp/trunc" "$tmp/badref"; do
	rm -f "$tmp/sb"
	if "$D2B" encode --btf_base="$base" --btf_encode_detached="$tmp/sb" "$f" 2>"$tmp/err"; then
		d2b_fail "bad base $base accepted"
	fi
	[ "$(wc -l <"$tmp/err")" = 1 ] || d2b_fail "base $base: not a one-line error: $(cat "$tmp/err")"
	grep -qF "$base" "$tmp/err" || d2b_fail "base $base: the error does not name it: $(cat "$tmp/err")"
	[ -e "$tmp/sb" ] && d2b_fail "output written with bad base $base"
done
echo "ok"
