#!/usr/bin/env bash
# The pahole personality encodes BTF as the kernel build calls it:
#   pahole -J ${PAHOLE_FLAGS} FILE            (vmlinux, 6.1's flags)
#   pahole -J ${PAHOLE_FLAGS} --btf_base vmlinux module.ko
#   pahole --btf_encode_detached=OUT FILE     (-J is implied; FILE untouched)
# and writes the same bytes as `dwarf2btf encode`.
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd bpftool
tmp=$(d2b_tmpdir)
pahole=$D2B_BUILD/pahole
fx=$(d2b_fixtures 'btf_funcs') || d2b_fail "fixtures"
flags="--btf_gen_floats -j --lang_exclude=rust --skip_encoding_btf_enum64"
n=0
for f in $fx; do
	case $f in *.o) continue ;; esac
	n=$((n + 1))
	b=$(basename "$f")
	cp "$f" "$tmp/$b"
	cp "$f" "$tmp/$b.orig"
	# shellcheck disable=SC2086
	"$pahole" -J $flags "$tmp/$b" || d2b_fail "pahole -J $b"
	objcopy --dump-section .BTF="$tmp/$b.J.btf" "$tmp/$b" || d2b_fail "$b: no .BTF after -J"
	# shellcheck disable=SC2086
	"$D2B" encode $flags --btf_encode_detached="$tmp/$b.enc.btf" "$f" || d2b_fail "encode $b"
	cmp -s "$tmp/$b.J.btf" "$tmp/$b.enc.btf" || d2b_fail "$b: pahole -J and encode differ"
	bpftool btf dump file "$tmp/$b" > /dev/null || d2b_fail "$b: bpftool rejects the .BTF"
	"$tmp/$b" || d2b_fail "$b: does not run after -J"

	# --btf_encode_detached implies -J and leaves the input alone.
	cp "$tmp/$b.orig" "$tmp/$b.2"
	"$pahole" -J --btf_encode_detached="$tmp/$b.det.btf" "$tmp/$b.2" || d2b_fail "detached $b"
	cmp -s "$tmp/$b.2" "$tmp/$b.orig" || d2b_fail "$b: --btf_encode_detached changed the input"
	bpftool btf dump file "$tmp/$b.det.btf" > /dev/null || d2b_fail "$b: bpftool rejects detached BTF"

	# Split BTF against that base, as modules are encoded.
	cp "$tmp/$b.orig" "$tmp/$b.mod"
	"$pahole" -J --btf_base "$tmp/$b.det.btf" "$tmp/$b.mod" || d2b_fail "--btf_base $b"
	objcopy --dump-section .BTF="$tmp/$b.split.btf" "$tmp/$b.mod"
	bpftool btf dump -B "$tmp/$b.det.btf" file "$tmp/$b.split.btf" > /dev/null ||
		d2b_fail "$b: bpftool rejects the split BTF"
done
[ "$n" -gt 0 ] || d2b_fail "no fixtures"

# Errors: one line, non-zero, no output file.
rc=0
"$pahole" -J "$tmp/missing" 2> "$tmp/err" || rc=$?
[ "$rc" = 1 ] && [ "$(wc -l < "$tmp/err")" = 1 ] && grep -q "^pahole: " "$tmp/err" ||
	d2b_fail "pahole -J on a missing file: exit $rc, $(cat "$tmp/err")"
echo "pahole -J: $n fixture builds encoded in place, detached and split"
