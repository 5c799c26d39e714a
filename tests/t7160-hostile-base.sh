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
