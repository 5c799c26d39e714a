#!/usr/bin/env bash
# Against the world: our BTF of the Debian cloud vmlinux, encoded with the
# flags Debian's 6.1 build gave pahole 1.24 (--btf_gen_floats -j
# --lang_exclude=rust), against the .BTF Debian shipped in that same file.
# Every type must be equal (btfdiff compares by content, not ids). The only
# differences allowed are the ones docs/compat.md explains (section "BTF
# against Debian's shipped .BTF"): which functions get a FUNC (1.24's rules
# against upstream 1.29-1.31's, which we follow), and the per-CPU variable
# at offset 0 that 1.24 leaves out.
. "$D2B_SRC/tests/lib.sh"
corpus=$(d2b_corpus) || d2b_skip "no kernel corpus (D2B_CORPUS=1 fetches it)"
d2b_need_cmd objcopy
tmp=$(d2b_tmpdir)
vmlinux=$corpus/vmlinux

objcopy --dump-section .BTF="$tmp/shipped.btf" "$vmlinux" "$tmp/discard" ||
	d2b_fail "cannot extract the shipped .BTF"
"$D2B_BUILD/pahole" -j2 --btf_gen_floats --lang_exclude=rust \
	--btf_encode_detached="$tmp/ours.btf" "$vmlinux" || d2b_fail "encoding the vmlinux failed"
rc=0
"$D2B" btfdiff "$tmp/shipped.btf" "$tmp/ours.btf" > "$tmp/diff" || rc=$?
[ "$rc" = 0 ] || [ "$rc" = 1 ] || d2b_fail "btfdiff failed (exit $rc)"

# Everything that is not a function must be equal, but for the one variable.
grep -v -e '^function ' -e '^btfdiff: ' \
	-e '^variable fixed_percpu_data: only in B$' \
	-e '^section .data..percpu: variable fixed_percpu_data only in B$' "$tmp/diff" > "$tmp/other" || true
if [ -s "$tmp/other" ]; then
	head -20 "$tmp/other" >&2
	d2b_fail "$(wc -l < "$tmp/other") type/variable differences from Debian's .BTF"
fi
# Functions: only presence differs (1.24 also encoded several same-name
# statics: "2 definitions vs 1 (1 only in A, 0 only in B)"), never the
# prototype of a function both encode (that would show as "... 1 only in B").
if grep '^function ' "$tmp/diff" |
	grep -v -e ': only in A$' -e ': only in B$' -e ': only in A ([0-9]* definitions)$' \
		-e ' definitions vs [0-9]* ([0-9]* only in A, 0 only in B)$' > "$tmp/protos"; then
	head -10 "$tmp/protos" >&2
	d2b_fail "$(wc -l < "$tmp/protos") functions encoded by both with different prototypes"
fi
a=$(grep -c -e ': only in A$' -e ': only in A (' -e 'only in A, 0 only in B)$' "$tmp/diff" || true)
b=$(grep -c '^function .*: only in B$' "$tmp/diff" || true)
total=$(sed -n 's/^btfdiff: .*(\([0-9]*\) entries in A.*/\1/p' "$tmp/diff")
# The selection rules differ on ~1.5% of 1.24's functions (docs/compat.md);
# a much larger difference means the encoder regressed.
[ "$a" -lt 1000 ] && [ "$b" -lt 1000 ] ||
	d2b_fail "function sets differ too much: $a only in Debian's, $b only in ours"
echo "vmlinux vs Debian's .BTF: all types equal; functions: $a only in 1.24's, $b only in ours (of $total entries)"
