#!/usr/bin/env bash
# t1001: our DWARF reader against libdw on the kernel corpus (vmlinux and the
# three modules, see bench/fetch-corpus.sh; skipped when no corpus is cached
# and D2B_CORPUS is not 1). `dwarf2btf dump-dies F` must equal
# `dwdump-libdw F` byte for byte. Both run at once into cmp through pipes, so
# the ~3 GB of text is never stored; on a mismatch both are run again to
# show the lines around the first difference.
. "${D2B_SRC:?}/tests/lib.sh" || exit 1

oracle=$D2B_TOOLS/dwdump-libdw
[ -x "$oracle" ] || d2b_skip "dwdump-libdw not built (libdw-dev missing)"
corpus=$(d2b_corpus) || d2b_skip "no kernel corpus (run bench/fetch-corpus.sh or set D2B_CORPUS=1)"
tmp=$(d2b_tmpdir)

files=("$corpus/vmlinux")
for m in "$corpus"/modules/*.ko; do
	[ -f "$m" ] && files+=("$m")
done

mkfifo "$tmp/want.fifo" "$tmp/got.fifo" || d2b_fail "mkfifo in $tmp"

bad=0
for f in "${files[@]}"; do
	"$oracle" "$f" >"$tmp/want.fifo" &
	pid_want=$!
	"$D2B" dump-dies "$f" >"$tmp/got.fifo" 2>"$tmp/err" &
	pid_got=$!
	# cmp stops at the first difference; the writers then die of SIGPIPE.
	out=$(cmp "$tmp/want.fifo" "$tmp/got.fifo" 2>&1)
	same=$?
	wait $pid_want
	rc_want=$?
	wait $pid_got
	rc_got=$?
	if [ $rc_got != 0 ] && [ $rc_got != 141 ]; then
		bad=$((bad + 1))
		echo "FAIL: dwarf2btf dump-dies $f exited $rc_got: $(head -c 300 "$tmp/err")"
		continue
	fi
	if [ $same = 0 ]; then
		[ $rc_want = 0 ] || d2b_fail "dwdump-libdw failed ($rc_want) on $f"
		[ $rc_got = 0 ] || d2b_fail "dwarf2btf dump-dies died ($rc_got) on $f"
		echo "ok: $f"
		continue
	fi
	bad=$((bad + 1))
	echo "FAIL: $f: $out"
	line=$(echo "$out" | sed -n 's/.*line \([0-9]*\).*/\1/p')
	if [ -n "$line" ]; then
		from=$((line > 20 ? line - 20 : 1))
		to=$((line + 10))
		"$oracle" "$f" | sed -n "${from},${to}p;${to}q" >"$tmp/want"
		"$D2B" dump-dies "$f" 2>/dev/null | sed -n "${from},${to}p;${to}q" >"$tmp/got"
		echo "lines $from-$to:"
		diff -u --label libdw --label dwarf2btf "$tmp/want" "$tmp/got" | head -40
	fi
done
[ $bad = 0 ] || d2b_fail "$bad of ${#files[@]} corpus files differ from libdw"
echo "ok: ${#files[@]} corpus files identical to libdw"
