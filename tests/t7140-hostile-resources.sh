#!/usr/bin/env bash
# Resources are bounded (docs/errors.md, "Resource bounds"): with the
# address space limited (ulimit -v) to 64 MiB + 2 x the file's size, every
# input, hostile or not, ends normally (exit 0, or 1 with one stderr line;
# never a signal) within 5 s. Skipped in sanitizer builds (ASan reserves
# terabytes of address space).
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd python3 cc
if grep -Eq '^D2B_SANITIZE:[A-Z]*=.*(address|thread)' "$D2B_BUILD/CMakeCache.txt" 2>/dev/null; then
	d2b_skip "sanitizer build: ulimit -v does not apply"
fi
tmp=$(d2b_tmpdir)
hostile="$D2B_SRC/tests/tools/hostile.py"
cc -g -O0 -c "$D2B_SRC/tests/fixtures/structs.c" -o "$tmp/structs.o" || d2b_fail "cc"
files=("$tmp/structs.o")
for c in dag-bomb deep-structs zstd-lie zlib-lie zlib-bomb-header unit-4g huge-values \
	 typedef-loop anon-self-struct; do
	python3 "$hostile" make "$c" "$tmp/$c" || d2b_fail "hostile.py make $c"
	files+=("$tmp/$c")
done
fails=0
for f in "${files[@]}"; do
	size=$(stat -c %s "$f")
	limit=$((65536 + 2 * size / 1024))	# KiB
	for cmd in "pahole -E" "pahole -s" "pfunct -P" "load -j1"; do
		start=$(date +%s%N)
		rc=0
		( ulimit -v $limit; exec timeout 20 "$D2B" $cmd "$f" ) > "$tmp/out" 2> "$tmp/err" || rc=$?
		ms=$(( ($(date +%s%N) - start) / 1000000 ))
		lines=$(wc -l < "$tmp/err")
		if { [ $rc != 0 ] && { [ $rc != 1 ] || [ "$lines" != 1 ]; }; } || [ $ms -gt 5000 ]; then
			echo "FAIL: $cmd $(basename "$f") under ulimit -v ${limit}K: exit $rc, $lines stderr lines, ${ms} ms" >&2
			head -2 "$tmp/err" >&2
			fails=$((fails + 1))
		fi
	done
done
[ $fails = 0 ] || d2b_fail "$fails runs exceeded the resource bounds"
echo "resources: ${#files[@]} files x 4 commands within 64 MiB + 2 x size, 5 s"
