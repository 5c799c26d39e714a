#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# BTF encoder: the cut keys (btf_cut_names.h). A unit that only declares a
# struct and one that defines it give copies of the types that reach it
# which the cut keys join (fewer types reach the dedup) and the bytes are
# those of the exact keys and of libbpf's dedup of every copy; a struct two
# .c files define differently is kept whole; where the census's prediction
# is wrong (a header's struct that reaches such a struct, or whose name a
# function defines again; one header line that two units' macros make two
# structs; every name cut) the check of the result finds a name defined
# twice and the encoder encodes again with exact keys: the same bytes, and
# --verbose's lines once.
. "$D2B_SRC/tests/lib.sh"

tmp=$(d2b_tmpdir)
fx=$(d2b_fixtures 'cut_names') || d2b_fail "fixtures"
deep=$(d2b_fixtures 'cut_names_deep') || d2b_fail "fixtures"
mac=$(d2b_fixtures 'cut_names_macro') || d2b_fail "fixtures"

# types into the dedup, from --stats
into_dedup() {
	sed -n 's/^stats: dedup .*(ours, \([0-9]*\) -> .*/\1/p' "$1"
}

# encode F with OPTS into $tmp/$2 (stats in $tmp/$2.stats)
enc() {
	local f=$1 out=$2
	shift 2
	"$D2B" encode --btf_features=default --stats "$@" --btf_encode_detached="$tmp/$out" "$f" \
		2>"$tmp/$out.stats" >"$tmp/$out.out" || { cat "$tmp/$out.stats" >&2; d2b_fail "encode $* $f"; }
}

n=0
for f in $fx; do
	case $f in *.o) continue ;; esac
	n=$((n + 1))
	enc "$f" cut
	enc "$f" exact --cut_names=none
	enc "$f" all --no_prededup
	cmp -s "$tmp/cut" "$tmp/exact" || d2b_fail "$f: the cut keys changed the BTF"
	cmp -s "$tmp/cut" "$tmp/all" || d2b_fail "$f: the cut keys differ from libbpf's dedup of every copy"
	grep -q "^stats: cut keys: census .*, 1 kept whole)$" "$tmp/cut.stats" ||
		d2b_fail "$f: the census did not keep struct dup whole: $(grep 'cut keys' "$tmp/cut.stats")"
	grep -q "^stats: cut keys" "$tmp/exact.stats" && d2b_fail "$f: --cut_names=none cut"
	c=$(into_dedup "$tmp/cut.stats")
	e=$(into_dedup "$tmp/exact.stats")
	[ -n "$c" ] && [ -n "$e" ] && [ "$c" -lt "$e" ] ||
		d2b_fail "$f: the cut keys joined nothing ($c types into the dedup, exact keys $e)"
	# the census on two threads, and the units on two: the same
	enc "$f" j2 -j2 --thread_bytes=0
	cmp -s "$tmp/cut" "$tmp/j2" || d2b_fail "$f: -j2 differs"
	# every name cut: struct dup's two definitions show, the check
	# sends the encoding round again, exact
	enc "$f" every --cut_names=all
	grep -q "encoded again with exact keys: 'dup' is defined twice" "$tmp/every.stats" ||
		d2b_fail "$f: --cut_names=all was not encoded again: $(grep 'cut keys' "$tmp/every.stats")"
	cmp -s "$tmp/cut" "$tmp/every" || d2b_fail "$f: encoded again, the BTF differs"
done
[ "$n" -ge 8 ] || d2b_fail "only $n cut_names fixtures"

for f in $deep $mac; do
	case $f in *.o) continue ;; esac
	case $f in *cut_names_deep*) twice='\(shared\|other\)' ;; *) twice=mac ;; esac
	enc "$f" cut --verbose
	enc "$f" exact --verbose --cut_names=none
	grep -q "encoded again with exact keys: '$twice' is defined twice" "$tmp/cut.stats" ||
		d2b_fail "$f: not encoded again for '$twice': $(grep 'cut keys' "$tmp/cut.stats")"
	cmp -s "$tmp/cut" "$tmp/exact" || d2b_fail "$f: encoded again, the BTF differs"
	enc "$f" all --no_prededup
	cmp -s "$tmp/cut" "$tmp/all" || d2b_fail "$f: differs from libbpf's dedup of every copy"
	cmp -s "$tmp/cut.out" "$tmp/exact.out" || d2b_fail "$f: --verbose printed other lines"
	[ -z "$(sort "$tmp/cut.out" | uniq -d)" ] || d2b_fail "$f: --verbose lines twice: $(cat "$tmp/cut.out")"
	grep -q "^helper : skipping BTF encoding" "$tmp/cut.out" && helper_lines=yes
done
# two static helpers of one name and other parameters (cut_names_macro):
# --verbose's lines of them come out of the second round only
[ -n "${helper_lines:-}" ] || d2b_fail "no --verbose line for the two helpers"

# a mode --cut_names does not know
"$D2B" encode --cut_names=some --btf_encode_detached="$tmp/x" "${fx%% *}" 2>"$tmp/err" &&
	d2b_fail "--cut_names=some accepted"
grep -q "cut_names takes census, all or none" "$tmp/err" || d2b_fail "message: $(cat "$tmp/err")"
echo "ok"
