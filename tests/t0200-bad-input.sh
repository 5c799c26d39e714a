#!/usr/bin/env bash
# Bad input: every front end gives a one-line error naming the file (and for
# DWARF damage the section and offset) and exits 1; none crashes or hangs.
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd python3 objcopy cc
tmp=$(d2b_tmpdir)
mk="$D2B_SRC/tests/tools/mkdwarf.py"

printf 'hello, not an ELF file\n' > "$tmp/not-elf"
: > "$tmp/empty"
cc -c -x c /dev/null -o "$tmp/no-dwarf.o"
for c in good truncated bad-abbrev unknown-form bad-ref deep bad-version loop-abbrev; do
	python3 "$mk" "$c" "$tmp/$c.o" || d2b_fail "mkdwarf $c"
done

# The well-formed crafted file loads: it is the control for the broken ones.
out=$("$D2B" load "$tmp/good.o") || d2b_fail "good.o does not load"
[ "$out" = "1 units, 2 types, 0 functions, 0 variables" ] || d2b_fail "good.o: $out"

# case  expected-pattern (grep -E) in the one error line
cases=(
	"not-elf|not-elf: .*(ELF|elf)"
	"empty|empty: .*"
	"no-dwarf.o|no-dwarf.o(: no DWARF debug info|' has no supported type information)"
	"truncated.o|truncated.o: \.debug_info\+0x0: unit length 0x[0-9a-f]+ runs past the end"
	"bad-abbrev.o|bad-abbrev.o: \.debug_info\+0x18: abbreviation code 9 does not exist"
	"unknown-form.o|unknown-form.o: \.debug_abbrev\+0x3: unknown form 0x7f"
	"bad-ref.o|bad-ref.o: \.debug_info\+0x22: reference 0x10000 is outside its unit"
	"deep.o|deep.o: \.debug_info\+0x[0-9a-f]+: DIEs nested more than [0-9]+ deep"
	"bad-version.o|bad-version.o: \.debug_info\+0x0: unsupported DWARF version 9"
	"loop-abbrev.o|loop-abbrev.o: \.debug_abbrev\+0x[0-9a-f]+: abbreviation table runs past"
)
fails=0
for entry in "${cases[@]}"; do
	file=${entry%%|*}
	pat=${entry#*|}
	for cmd in "dump-dies" "load -j1" "load -j2" "pahole" "pfunct"; do
		rc=0
		timeout 20 "$D2B" $cmd "$tmp/$file" > "$tmp/out" 2> "$tmp/err" || rc=$?
		lines=$(wc -l < "$tmp/err")
		if [ "$rc" != 1 ] || [ "$lines" != 1 ] || ! grep -qE "$pat" "$tmp/err"; then
			echo "FAIL: $cmd $file: exit $rc, $lines stderr lines:" >&2
			head -3 "$tmp/err" >&2
			fails=$((fails + 1))
		fi
	done
done
[ "$fails" = 0 ] || d2b_fail "$fails bad-input checks failed"
echo "bad input: ${#cases[@]} cases x 5 commands ok"
