#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# btf_write_elf_section() on the corpus vmlinux, whose .BTF is SHF_ALLOC
# (inside the read-only data segment), through the test tool btfwrite:
#   - the same bytes as its own .BTF: a byte-identical file;
#   - 4 bytes more: a clean error naming SHF_ALLOC, the file untouched, no
#     temporary file;
#   - a much smaller BTF (pahole -J --btf_encode_detached of a small program):
#     written in place, the file size, `readelf -lW` and every section header
#     unchanged (sh_size of .BTF too: the string section is grown with NULs),
#     bpftool reads back exactly the small BTF's types.
# Skipped (77) without the corpus (bench/fetch-corpus.sh, or D2B_CORPUS=1).
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd readelf cmp dd
corpus=$(d2b_corpus) || d2b_skip "no kernel corpus (run bench/fetch-corpus.sh)"
vmlinux=$corpus/vmlinux
[ -s "$vmlinux" ] || d2b_skip "no $vmlinux"
BW=$D2B_TOOLS/btfwrite
[ -x "$BW" ] || d2b_fail "no $BW"
tmp=$(d2b_tmpdir)
cd "$tmp" || d2b_fail "cd $tmp"
need=$(( $(stat -c %s "$vmlinux") * 2 / 1024 + 65536 ))
avail=$(df -Pk . | awk 'NR == 2 { print $4 }')
[ "$avail" -gt "$need" ] || d2b_skip "needs $need KiB free in $tmp"
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# .BTF's offset and size, and its flags
row=$(readelf -SW "$vmlinux" | sed -n 's/^ *\[ *[0-9]*\] \.BTF  *//p')
set -- $row
off=$((16#$3)) size=$((16#$4)) flags=$6
[ "$flags" = A ] || d2b_skip "the corpus .BTF is not SHF_ALLOC ($row)"
dd if="$vmlinux" of=own.btf bs=1M iflag=skip_bytes,count_bytes skip=$off count=$size 2>/dev/null ||
	d2b_fail "cannot extract .BTF"
[ "$(stat -c %s own.btf)" = "$size" ] || d2b_fail "extracted $(stat -c %s own.btf) of $size bytes"
cp --reflink=auto "$vmlinux" v || d2b_fail "cannot copy vmlinux"

# the same bytes: byte-identical
"$BW" elf v own.btf || fail "same bytes: btfwrite failed"
cmp -s "$vmlinux" v || fail "same bytes: the file changed"

# larger: clean error, untouched
{ cat own.btf; printf '\0\0\0\0'; } > larger.btf
msg=$("$BW" elf v larger.btf 2>&1)
rc=$?
[ $rc = 1 ] || fail "larger: exit $rc"
case $msg in
"btfwrite: v: .BTF is in a loaded segment (SHF_ALLOC) and holds $size bytes; the new BTF has $((size + 4)):"*) ;;
*) fail "larger: message '$msg'" ;;
esac
cmp -s "$vmlinux" v || fail "larger: the file changed"
[ "$(ls -A | sort | tr '\n' ' ')" = "larger.btf own.btf v " ] ||
	fail "larger: files left: $(ls -A)"

# smaller: in place, sizes and layout kept, bpftool reads the small BTF
if command -v pahole >/dev/null && command -v bpftool >/dev/null && command -v gcc >/dev/null; then
	printf 'struct pt { int x, y; };\nint main(void) { struct pt p = { 1, 2 }; return p.x - 1; }\n' > s.c
	gcc -g s.c -o s && pahole -J --btf_encode_detached=small.btf s || d2b_fail "small BTF"
	"$BW" elf v small.btf || fail "smaller: btfwrite failed"
	[ "$(stat -c %s v)" = "$(stat -c %s "$vmlinux")" ] || fail "smaller: file size changed"
	diff <(readelf -lSW "$vmlinux") <(readelf -lSW v) >&2 || fail "smaller: readelf -lSW differs"
	bpftool btf dump file small.btf > small.dump || fail "bpftool small.btf"
	bpftool btf dump file v > v.dump || fail "bpftool cannot read the new vmlinux .BTF"
	cmp -s small.dump v.dump || fail "smaller: bpftool dump differs"
	# outside .BTF nothing changed
	cmp -s -n $off "$vmlinux" v || fail "smaller: bytes before .BTF changed"
	cmp -s -i $((off + size)):$((off + size)) "$vmlinux" v || fail "smaller: bytes after .BTF changed"
	# and back: byte-identical again
	"$BW" elf v own.btf || fail "back: btfwrite failed"
	cmp -s "$vmlinux" v || fail "back: not byte-identical"
else
	echo "note: pahole, bpftool or gcc missing: smaller case skipped"
fi

[ $fails = 0 ] || d2b_fail "$fails checks failed"
echo "ok"
