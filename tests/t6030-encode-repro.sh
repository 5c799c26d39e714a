#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# BTF encoder: output bytes identical for -j1 .. -j8 and across runs, and
# with the merge's pre-dedup off; -jN really starts N worker threads (--stats)
# with --thread_bytes=0, and by default none for these small files (one
# thread for each 2 MiB of .debug_info at most); --window=N keeps the bytes
# and at most N fragments alive;
# the units' repeats of earlier types are never encoded (placeholders, from
# the model's keys), and the model's keys never join two types the records'
# keys tell apart (--check_model_keys), type tags, decl tags and the arrays'
# index type included (btf_tags_multi, clang).
. "$D2B_SRC/tests/lib.sh"

tmp=$(d2b_tmpdir)
fx=$(d2b_fixtures 'btf_funcs') || d2b_fail "fixtures"
fx2=$(d2b_fixtures 'multi_cu') || d2b_fail "fixtures"
fx3=$(d2b_fixtures 'btf_tags_multi') || d2b_fail "fixtures"
for f in $fx $fx2 $fx3; do
	case $f in *.o) continue ;; esac
	"$D2B" encode -j1 --btf_features=default --btf_encode_detached="$tmp/ref" "$f" ||
		d2b_fail "encode -j1 $f"
	[ -s "$tmp/ref" ] || d2b_fail "empty BTF for $f"
	"$D2B" encode -j2 --thread_bytes=0 --no_prededup --btf_features=default --btf_encode_detached="$tmp/all" "$f" ||
		d2b_fail "encode --no_prededup $f"
	cmp -s "$tmp/ref" "$tmp/all" || d2b_fail "$f: the pre-dedup changed the BTF"
	"$D2B" encode -j2 --thread_bytes=0 --check_model_keys --btf_features=default --btf_encode_detached="$tmp/chk" \
		"$f" || d2b_fail "encode --check_model_keys $f"
	cmp -s "$tmp/ref" "$tmp/chk" || d2b_fail "$f: --check_model_keys changed the BTF"
	# by default a file this small runs on the calling thread at any -j
	"$D2B" encode -j4 --stats --btf_features=default --btf_encode_detached="$tmp/jd" "$f" \
		2>"$tmp/stats" || d2b_fail "encode -j4 $f"
	cmp -s "$tmp/ref" "$tmp/jd" || d2b_fail "$f: -j4 (one thread) differs from -j1"
	grep -q '^stats: threads 4 (started 0)' "$tmp/stats" ||
		d2b_fail "$f: -j4 on a small file started threads: $(head -1 "$tmp/stats")"
	for j in 1 2 3 4 8; do
		tb=--thread_bytes=0
		[ "$j" = 3 ] && tb=--thread_bytes=1	# a thread a byte: as many as asked
		"$D2B" encode -j$j $tb --stats --btf_features=default --btf_encode_detached="$tmp/j$j" "$f" \
			2>"$tmp/stats" || d2b_fail "encode -j$j $f"
		cmp -s "$tmp/ref" "$tmp/j$j" || d2b_fail "$f: -j$j differs from -j1"
		# pool_run starts no thread for -j1; N otherwise (fewer only if
		# there are fewer units than threads)
		started=$(sed -n 's/^stats: threads [0-9]* (started \([0-9]*\)).*/\1/p' "$tmp/stats")
		units=$(sed -n 's/.*units \([0-9]*\) .*/\1/p' "$tmp/stats")
		want=$j
		[ "$j" = 1 ] && want=0
		[ "$units" -lt "$want" ] && want=$units
		[ "$started" = "$want" ] || d2b_fail "$f: -j$j started '$started' threads, want $want"
		# -j1 merges each unit before the next is encoded: every
		# repeat of an earlier unit's type is a placeholder
		if [ "$j" = 1 ]; then
			skipped=$(sed -n 's/.*, \([0-9]*\) of them never encoded.*/\1/p' "$tmp/stats")
			[ "${skipped:-0}" -gt 0 ] || d2b_fail "$f: no repeat was left unencoded"
		fi
	done
	# --window (a benchmark knob): the same bytes with one unit in flight
	# and with more than there are units; at most N fragments alive
	for w in 1 2 64; do
		"$D2B" encode -j3 --thread_bytes=0 --window=$w --stats --btf_features=default \
			--btf_encode_detached="$tmp/w$w" "$f" 2>"$tmp/stats" || d2b_fail "encode --window=$w $f"
		cmp -s "$tmp/ref" "$tmp/w$w" || d2b_fail "$f: --window=$w differs from -j1"
		alive=$(sed -n 's/.*fragments alive max \([0-9]*\).*/\1/p' "$tmp/stats")
		[ "${alive:-99}" -le "$w" ] || d2b_fail "$f: --window=$w: $alive fragments alive"
	done
done
echo "ok"
