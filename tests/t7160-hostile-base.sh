#!/usr/bin/env bash
# Hostile base BTF through the encoder (--btf_base, as the kernel build gives
# it for every module): a good base, encoded from a fixture at -O0, mutated by
# tests/tools/hostile_btf.py (type ids past the last type or pointing at
# themselves, name offsets past the strings, unknown kinds, vlen out of
# range, truncations, random byte flips at fixed seeds), then the same
# source at -O2 encoded on each mutant. Each run ends within 20 s with exit 0
# (and a split BTF bpftool reads on that base) or exit 1 with one stderr
# line, and leaves no output file on error. libbpf 1.1's parse, which the
# encoder trusted until the twelfth session, let a PTR past the last type
# crash it.
#
# A base with reference cycles (a pointer to itself, two typedefs naming
# each other) or a chain deeper than the readers take is encoded on, as
# pahole does: the encoder does not search the base for them (its walks of
# base types go in step with the module's own). Each gives the bytes that
# libbpf's dedup gives, bpftool reads them, and pfunct, which prints along
# references, still refuses the base.
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd python3
tmp=$(d2b_tmpdir)
# the base and the module share their types (one source, -O0 and -O2): the
# dedup compares the module's with the base's, through the mutated fields
fx=$(d2b_fixtures 'btf_funcs') || d2b_fail "fixtures"
base_src=$(echo "$fx" | grep '/btf_funcs.gcc.O0.dwarf5$')
mod=$(echo "$fx" | grep '/btf_funcs.gcc.O2.dwarf5$')
[ -n "$base_src" ] && [ -n "$mod" ] || d2b_fail "fixtures missing: '$base_src' '$mod'"

"$D2B" encode --btf_features=default --btf_encode_detached="$tmp/base" "$base_src" ||
	d2b_fail "cannot encode the base"
"$D2B" encode --btf_base="$tmp/base" --btf_features=default \
	--btf_encode_detached="$tmp/good.split" "$mod" || d2b_fail "the good base is refused"
# graph BASE OUT HOW: BASE with a pointer loop, a typedef loop or a chain of
# 1,100 consts appended (its strings moved past them)
graph() {
	python3 - "$@" <<'PY'
import struct, sys
src, out, how = sys.argv[1:4]
d = bytearray(open(src, 'rb').read())
hdr_len, type_off, type_len, str_off, str_len = struct.unpack_from('<5I', d, 4)
pos, end, recs = hdr_len + type_off, hdr_len + type_off + type_len, []
while pos < end:
    info = struct.unpack_from('<I', d, pos + 4)[0]
    kind, vlen = (info >> 24) & 0x1f, info & 0xffff
    recs.append((len(recs) + 1, pos, kind))
    pos += 12 + {1: 4, 3: 12, 4: 12 * vlen, 5: 12 * vlen, 6: 8 * vlen, 13: 8 * vlen,
                 14: 4, 15: 12 * vlen, 17: 4, 19: 12 * vlen}.get(kind, 0)
assert type_off == 0 and str_off == type_len
if how == 'ptrloop':
    tid, pos, _ = next(r for r in recs if r[2] == 2)
    struct.pack_into('<I', d, pos + 8, tid)
elif how == 'tdloop':
    a, b = [r for r in recs if r[2] == 8][:2]
    struct.pack_into('<I', d, a[1] + 8, b[0])
    struct.pack_into('<I', d, b[1] + 8, a[0])
else:
    n, first = 1100, len(recs) + 1
    chain = b''.join(struct.pack('<3I', 0, 10 << 24, first + i - 1 if i else 1)
                     for i in range(n))
    at = hdr_len + type_len
    d[at:at] = chain
    struct.pack_into('<2I', d, 12, type_len + 12 * n, str_off + 12 * n)
open(out, 'wb').write(d)
PY
}
for how in ptrloop tdloop deep; do
	graph "$tmp/base" "$tmp/$how" "$how" || d2b_fail "cannot make the $how base"
	timeout 20 "$D2B" encode --btf_base="$tmp/$how" --btf_features=default \
		--btf_encode_detached="$tmp/$how.ours" "$mod" ||
		d2b_fail "$how: the encoder refused a base it needs no check of"
	timeout 20 "$D2B" encode --btf_base="$tmp/$how" --btf_features=default --libbpf_dedup \
		--btf_encode_detached="$tmp/$how.libbpf" "$mod" || d2b_fail "$how: --libbpf_dedup"
	cmp "$tmp/$how.ours" "$tmp/$how.libbpf" || d2b_fail "$how: not libbpf's bytes"
	# the module's types that met the looped ones now have their own
	# (the chain is not the module's: nothing changes there)
	[ $how = deep ] || ! cmp -s "$tmp/$how.ours" "$tmp/good.split" ||
		d2b_fail "$how: the base's change changed nothing"
	if command -v bpftool > /dev/null; then
		bpftool -B "$tmp/$how" btf dump file "$tmp/$how.ours" > /dev/null ||
			d2b_fail "$how: bpftool rejects the split BTF"
	fi
	rc=0
	"$D2B_BUILD/pfunct" -F btf --btf_base="$tmp/$how" "$tmp/$how.ours" > /dev/null 2> "$tmp/err" || rc=$?
	[ "$rc" = 1 ] && [ "$(wc -l < "$tmp/err")" = 1 ] &&
		grep -Eq "$how: .BTF\+0x[0-9a-f]+: type \[[0-9]+\] [A-Z]+( is part of a reference cycle|: reference chain deeper than 1024)" "$tmp/err" ||
		d2b_fail "$how: pfunct took the base: exit $rc, $(cat "$tmp/err")"
done

python3 "$D2B_SRC/tests/tools/hostile_btf.py" "$tmp/base" "$tmp/m" > "$tmp/list" ||
	d2b_fail "hostile_btf.py"
n=$(wc -l < "$tmp/list")
[ "$n" -ge 200 ] || d2b_fail "only $n mutants"

fails=0 ok=0 refused=0
while read -r m; do
	rc=0
	rm -f "$tmp/out"
	timeout 20 "$D2B" encode --btf_base="$m" --btf_features=default \
		--btf_encode_detached="$tmp/out" "$mod" > /dev/null 2> "$tmp/err" || rc=$?
	lines=$(wc -l < "$tmp/err")
	if [ "$rc" = 0 ]; then
		ok=$((ok + 1))
		if command -v bpftool > /dev/null &&
		   ! bpftool -B "$m" btf dump file "$tmp/out" > /dev/null 2>&1; then
			echo "FAIL: $(basename "$m"): bpftool rejects the split BTF on it" >&2
			fails=$((fails + 1))
		fi
	elif [ "$rc" = 1 ] && [ "$lines" = 1 ]; then
		refused=$((refused + 1))
		if [ -e "$tmp/out" ]; then
			echo "FAIL: $(basename "$m"): output written after an error" >&2
			fails=$((fails + 1))
		fi
	else
		echo "FAIL: $(basename "$m"): exit $rc, $lines stderr lines: $(head -3 "$tmp/err")" >&2
		fails=$((fails + 1))
	fi
done < "$tmp/list"
[ $fails = 0 ] || d2b_fail "$fails of $n hostile bases"
# most mutants are refused, some survive as valid BTF: both paths ran
[ "$refused" -ge 100 ] && [ "$ok" -ge 1 ] || d2b_fail "refused $refused, accepted $ok of $n"
echo "hostile bases: $n ($refused refused, $ok accepted)"
