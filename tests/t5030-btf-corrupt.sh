#!/usr/bin/env bash
# Corrupt BTF: truncated, bad magic, bad version, bad header length (short,
# or not a multiple of 4), a type
# id past the end, a typedef loop, a name past the strings, and split BTF on
# a base that does not match. pfunct -F btf must print one line and exit 1,
# btfdiff one line and exit 2; never a crash, never a hang.
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd pahole python3
tmp=$(d2b_tmpdir)
fx=$(d2b_fixtures 'functions') || d2b_fail "fixtures"
f=$(echo "$fx" | grep -m1 '/functions\.gcc\.O0\.dwarf5$')
pahole -J --btf_encode_detached="$tmp/good.btf" "$f" || d2b_fail "pahole -J"

# mutate KIND OUT: write a corrupted copy of good.btf
mutate() {
	python3 - "$tmp/good.btf" "$2" "$1" <<'PY'
import struct, sys
src, out, how = sys.argv[1:4]
d = bytearray(open(src, 'rb').read())
hdr_len, type_off, type_len, str_off, str_len = struct.unpack_from('<5I', d, 4)
def records():
    pos, end, tid = hdr_len + type_off, hdr_len + type_off + type_len, 1
    while pos < end:
        info = struct.unpack_from('<I', d, pos + 4)[0]
        kind, vlen = (info >> 24) & 0x1f, info & 0xffff
        extra = {1: 4, 3: 12, 4: 12 * vlen, 5: 12 * vlen, 6: 8 * vlen, 13: 8 * vlen,
                 14: 4, 15: 12 * vlen, 17: 4, 19: 12 * vlen}.get(kind, 0)
        yield tid, pos, kind
        pos += 12 + extra
        tid += 1
recs = list(records())
if how == 'truncated':
    d = d[:len(d) * 2 // 3]
elif how == 'magic':
    d[0:2] = b'\x00\x00'
elif how == 'version':
    d[2] = 7
elif how == 'hdrlen':
    struct.pack_into('<I', d, 4, 4)
elif how == 'oddhdr':
    # one zero byte more in the header: every record off its alignment
    d = d[:hdr_len] + b'\0' + d[hdr_len:]
    struct.pack_into('<I', d, 4, hdr_len + 1)
elif how == 'typeid':
    tid, pos, kind = next(r for r in recs if r[2] == 2)       # a PTR
    struct.pack_into('<I', d, pos + 8, len(recs) + 100)
elif how == 'loop':
    tid, pos, kind = next(r for r in recs if r[2] == 2)       # PTR -> itself
    struct.pack_into('<I', d, pos + 8, tid)
elif how == 'name':
    struct.pack_into('<I', d, recs[0][1], str_len + 1000)
open(out, 'wb').write(d)
PY
}

fails=0
check() { # WHAT FILE WANT [BASE]: pfunct and btfdiff refuse FILE with WANT
	local what=$1 file=$2 want=$3 base=${4:-} rc
	local -a bopt=() dopt=()
	[ -n "$base" ] && bopt=(--btf_base="$base") && dopt=(--base="$base")
	"$D2B_BUILD/pfunct" -F btf "${bopt[@]}" "$file" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ $rc != 1 ] || [ "$(wc -l < "$tmp/err")" != 1 ] || ! grep -q -- "$want" "$tmp/err" || [ -s "$tmp/out" ]; then
		echo "FAIL: pfunct $what: rc $rc, stderr: $(cat "$tmp/err")" >&2
		fails=$((fails + 1))
	fi
	"$D2B" btfdiff "${dopt[@]}" "$file" "$file" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ $rc != 2 ] || [ "$(wc -l < "$tmp/err")" != 1 ] || ! grep -q -- "$want" "$tmp/err"; then
		echo "FAIL: btfdiff $what: rc $rc, stderr: $(cat "$tmp/err")" >&2
		fails=$((fails + 1))
	fi
}

mutate truncated "$tmp/truncated.btf"
check truncated "$tmp/truncated.btf" "truncated.btf: .BTF+0x14: string section .* runs past the end"
: > "$tmp/empty.btf"
printf '\x9f\xeb\x01\x00' > "$tmp/short.btf"
check "header only" "$tmp/short.btf" "truncated BTF header: 4 bytes"
mutate magic "$tmp/magic.btf"
# no BTF magic: not BTF at all for -F btf; btfdiff says why
"$D2B_BUILD/pfunct" -F btf "$tmp/magic.btf" 2> "$tmp/err" && d2b_fail "bad magic accepted"
grep -qx "pfunct: file '$tmp/magic.btf' has no btf type information." "$tmp/err" ||
	d2b_fail "bad magic (pfunct): $(cat "$tmp/err")"
"$D2B" btfdiff "$tmp/magic.btf" "$tmp/good.btf" 2> "$tmp/err"
[ $? = 2 ] && grep -q "magic.btf: .BTF+0x0: bad BTF magic 0x0000" "$tmp/err" ||
	d2b_fail "bad magic (btfdiff): $(cat "$tmp/err")"
mutate version "$tmp/version.btf"
check version "$tmp/version.btf" "version.btf: .BTF+0x2: unsupported BTF version 7"
mutate hdrlen "$tmp/hdrlen.btf"
check "header length" "$tmp/hdrlen.btf" "bad BTF header length 4"
mutate oddhdr "$tmp/oddhdr.btf"
check "odd header length" "$tmp/oddhdr.btf" "oddhdr.btf: .BTF+0x4: BTF header length 25 is not a multiple of 4"
mutate typeid "$tmp/typeid.btf"
check "type id" "$tmp/typeid.btf" "typeid.btf: .BTF+0x[0-9a-f]*: type \[[0-9]*\]: referenced type id [0-9]* past the last type"
mutate loop "$tmp/loop.btf"
check "pointer loop" "$tmp/loop.btf" "PTR is part of a reference cycle"
mutate name "$tmp/name.btf"
check "name offset" "$tmp/name.btf" "past the string section"

# Split BTF on a base that does not match: a module's BTF on the fixture
corpus=$(d2b_corpus) && [ -f "$corpus/modules/tcp_bbr.ko" ] &&
	check "wrong base" "$corpus/modules/tcp_bbr.ko" "wrong base BTF?" "$tmp/good.btf"
# A raw split BTF of our own making, on the wrong base
"$D2B_BUILD/pfunct" -F btf --btf_base="$tmp/good.btf" "$tmp/good.btf" > /dev/null 2> "$tmp/err"
[ $? = 1 ] && [ "$(wc -l < "$tmp/err")" = 1 ] || d2b_fail "BTF on itself as base: $(cat "$tmp/err")"
# The default source when no file is named, missing: a clear error
PAHOLE_VMLINUX_BTF_FILENAME=$tmp/none.btf "$D2B" btfdiff "$tmp/good.btf" "$tmp/none.btf" 2> "$tmp/err"
[ $? = 2 ] && grep -q "none.btf: No such file" "$tmp/err" || d2b_fail "missing: $(cat "$tmp/err")"

[ $fails = 0 ] || d2b_fail "$fails checks failed"
echo ok
