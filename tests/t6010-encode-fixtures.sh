#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# BTF encoder on every C fixture: bpftool accepts what we write (raw dump and
# format c), and our named types (kind, name, size; members' names, offsets
# and bit-field sizes; enumerators) are those of Debian's pahole 1.24 -J on
# the same file (where 1.24 can encode it at all: it fails on _Atomic and
# complex floats, which we drop and encode as INT).
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd bpftool

ORACLE=/usr/bin/pahole
tmp=$(d2b_tmpdir)
fx=$(d2b_fixtures) || d2b_fail "fixtures"
fails=0
fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

# canon DUMP: named types and their members, ids left out, sorted.
canon() {
	awk '
	/^\[/ {
		cur = ""
		if ($2 ~ /^(STRUCT|UNION|ENUM|ENUM64|TYPEDEF|INT|FLOAT|FWD|DATASEC|VAR)$/ && $3 != "'"'"'(anon)'"'"'") {
			cur = $2 " " $3
			line = cur
			for (i = 4; i <= NF; i++)
				if ($i ~ /^(size|vlen|nr_bits|encoding|fwd_kind|linkage)=/)
					line = line " " $i
			print line
		}
		next
	}
	cur != "" {
		line = cur " :"
		for (i = 1; i <= NF; i++)
			if ($i !~ /^type_id=/ && $i !~ /^\(VAR/)
				line = line " " $i
		print line
	}' "$1" | sort -u
}

n=0
for f in $fx; do
	case $f in *.o) ;; *.gcc.O2.dwarf5|*.clang.O0.dwarf4) ;; *) continue ;; esac
	case $(basename "$f") in *cxx*|*type_units*) continue ;; esac
	b=$tmp/$(basename "$f")
	"$D2B" encode --btf_gen_floats --btf_encode_detached="$b.ours" "$f" 2>"$b.err" ||
		{ fail "encode $f: $(cat "$b.err")"; continue; }
	bpftool btf dump file "$b.ours" >"$b.ours.dump" 2>&1 || { fail "bpftool rejects our BTF of $f"; continue; }
	bpftool btf dump file "$b.ours" format c >/dev/null 2>&1 || fail "bpftool format c rejects our BTF of $f"
	n=$((n + 1))
	[ -x "$ORACLE" ] || continue
	"$ORACLE" -J --btf_gen_floats --btf_encode_detached="$b.theirs" "$f" >/dev/null 2>&1 || continue
	[ -s "$b.theirs" ] || continue
	bpftool btf dump file "$b.theirs" >"$b.theirs.dump" 2>&1 || continue
	canon "$b.ours.dump" >"$b.ours.canon"
	canon "$b.theirs.dump" >"$b.theirs.canon"
	if ! diff -u "$b.theirs.canon" "$b.ours.canon" >"$b.diff"; then
		fail "named types differ from pahole 1.24 on $f:"
		head -n 20 "$b.diff" >&2
	fi
done
[ "$n" -gt 10 ] || d2b_fail "only $n fixtures encoded"
[ "$fails" = 0 ] || d2b_fail "$fails failures"
echo "ok ($n files)"
