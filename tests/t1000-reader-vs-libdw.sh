#!/usr/bin/env bash
# t1000: our DWARF reader against libdw. For every fixture binary and ET_REL
# object (tests/lib.sh d2b_fixtures), `dwarf2btf dump-dies F` must print
# exactly what the libdw oracle `dwdump-libdw F` prints (format: see
# tests/tools/dwdump_libdw.c). Shows the first lines of the diff of the first
# few mismatches.
. "${D2B_SRC:?}/tests/lib.sh" || exit 1

oracle=$D2B_TOOLS/dwdump-libdw
[ -x "$oracle" ] || d2b_skip "dwdump-libdw not built (libdw-dev missing)"
fx=$(d2b_fixtures) || d2b_fail "cannot build the fixtures"
[ -n "$fx" ] || d2b_fail "no fixtures found"
tmp=$(d2b_tmpdir)

n=0
bad=0
for f in $fx; do
	n=$((n + 1))
	"$oracle" "$f" >"$tmp/want" || d2b_fail "dwdump-libdw failed on $f"
	[ -s "$tmp/want" ] || d2b_fail "dwdump-libdw printed nothing for $f"
	if ! "$D2B" dump-dies "$f" >"$tmp/got" 2>"$tmp/err"; then
		bad=$((bad + 1))
		echo "FAIL: dwarf2btf dump-dies $f exited non-zero: $(head -c 300 "$tmp/err")"
		continue
	fi
	if ! cmp -s "$tmp/want" "$tmp/got"; then
		bad=$((bad + 1))
		echo "FAIL: dump-dies differs from libdw on $f"
		if [ $bad -le 5 ]; then
			diff -u --label libdw --label dwarf2btf "$tmp/want" "$tmp/got" | head -40
		fi
	fi
done
[ $bad = 0 ] || d2b_fail "$bad of $n fixture files differ from libdw"
echo "ok: $n fixture files identical to libdw"
