#!/usr/bin/env bash
# Hostile input through the BTF encoder and dedup: every case of
# tests/tools/hostile.py (cycles, bombs, truncations, out-of-range
# references...) through `dwarf2btf encode` at -j1 and -j2 and `pahole -J` on a
# copy. Each ends within 20 s with exit 0 (and a BTF bpftool accepts) or exit
# 1 with one stderr line naming the file; the -J input is untouched on error.
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd python3
tmp=$(d2b_tmpdir)
hostile="$D2B_SRC/tests/tools/hostile.py"
cases=$(python3 "$hostile" list | cut -f1) || d2b_fail "hostile.py list"
fails=0
n=0
for c in $cases; do
	python3 "$hostile" make "$c" "$tmp/$c" 2>/dev/null || continue
	n=$((n + 1))
	for j in 1 2; do
		rc=0
		timeout 20 "$D2B" encode -j$j --thread_bytes=0 --btf_encode_detached="$tmp/$c.btf" "$tmp/$c" \
			> /dev/null 2> "$tmp/err" || rc=$?
		lines=$(wc -l < "$tmp/err")
		if [ "$rc" = 0 ]; then
			if command -v bpftool > /dev/null &&
			   ! bpftool btf dump file "$tmp/$c.btf" > /dev/null 2>&1; then
				echo "FAIL: encode -j$j $c: bpftool rejects the output" >&2
				fails=$((fails + 1))
			fi
		elif [ "$rc" != 1 ] || [ "$lines" != 1 ] || ! grep -q "$c" "$tmp/err"; then
			echo "FAIL: encode -j$j $c: exit $rc, $lines stderr lines: $(head -2 "$tmp/err")" >&2
			fails=$((fails + 1))
		fi
		rm -f "$tmp/$c.btf"
	done
	cp "$tmp/$c" "$tmp/$c.J"
	rc=0
	timeout 20 "$D2B_BUILD/pahole" -J "$tmp/$c.J" > /dev/null 2> "$tmp/err" || rc=$?
	if [ "$rc" != 0 ] && ! cmp -s "$tmp/$c" "$tmp/$c.J"; then
		echo "FAIL: pahole -J $c failed (exit $rc) and changed its input" >&2
		fails=$((fails + 1))
	fi
	if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
		echo "FAIL: pahole -J $c: exit $rc: $(head -2 "$tmp/err")" >&2
		fails=$((fails + 1))
	fi
done
[ "$n" -gt 20 ] || d2b_fail "only $n hostile cases made"
[ "$fails" = 0 ] || d2b_fail "$fails hostile encode checks failed"
echo "hostile encode: $n cases x (encode -j1, -j2, pahole -J) ok"
