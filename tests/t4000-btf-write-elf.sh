#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# btf_write_elf_section() and btf_write_raw() on gcc-built files, through the
# test tool btfwrite (tests/tools/btfwrite.c), with BTF bytes from Debian's
# pahole 1.24 (--btf_encode_detached):
#   - adding .BTF to an executable: `readelf -lW` (program headers and the
#     section-to-segment mapping) is identical, every old section's header
#     row and bytes are identical (.shstrtab: moved, old names kept), the
#     new .BTF is PROGBITS, no flags, alignment 4, bpftool reads from it the
#     same BTF as from the detached file and from pahole -J's own result, the
#     executable runs and prints the same, its mode is kept;
#   - writing the same bytes again gives the same file; larger BTF is
#     appended, smaller goes back in place, and both still run;
#   - an ET_REL object (64-bit; 32-bit when gcc -m32 -c works) gets .BTF and
#     the 64-bit one still links into a working program;
#   - a raw file: same bytes, mode 0644 under umask 022.
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd pahole readelf bpftool gcc cmp
BW=$D2B_TOOLS/btfwrite
[ -x "$BW" ] || d2b_fail "no $BW"
tmp=$(d2b_tmpdir)
cd "$tmp" || d2b_fail "cd $tmp"
umask 022
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

cat > small.c <<'EOF'
#include <stdio.h>
struct point { int x, y; };
struct shape { const char *name; struct point at[4]; unsigned flags : 3; };
int main(int argc, char **argv)
{
	struct shape s = { "square", { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 } }, 5 };
	printf("%s %d %d %u argc=%d\n", s.name, s.at[2].x, s.at[3].y, s.flags, argc);
	return 0;
}
EOF
cat > big.c <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <netinet/in.h>
struct node { struct node *next, *prev; long key; double weight; char tag[13]; };
union u { int i; float f; struct node n; };
enum color { RED, GREEN = 5, BLUE };
struct stat st_global;
struct sockaddr_in sin_global;
int main(void)
{
	union u x;
	memset(&x, 0, sizeof(x));
	x.n.key = 42;
	printf("%ld %d %zu\n", x.n.key, BLUE, sizeof(struct node));
	return 0;
}
EOF
gcc -g -O1 small.c -o small || d2b_fail "gcc small.c"
gcc -g -O1 big.c -o big || d2b_fail "gcc big.c"
pahole -J --btf_encode_detached=small.btf small || d2b_fail "pahole -J small"
pahole -J --btf_encode_detached=big.btf big || d2b_fail "pahole -J big"
[ "$(stat -c %s big.btf)" -gt "$(stat -c %s small.btf)" ] || d2b_fail "big.btf is not larger"
./small > small.out || d2b_fail "small does not run"

# sections FILE: "idx name type addr off size es flags lk inf al" rows,
# without .shstrtab and .BTF
sections() {
	readelf -SW "$1" | sed -n 's/^ *\[ *\([0-9][0-9]*\)\] */\1 /p' |
		awk '$1 != 0 && $2 != ".shstrtab" && $2 != ".BTF"'
}

# same_layout OLD NEW WHAT: program headers, mapping, every old section
same_layout() {
	local old=$1 new=$2 what=$3 idx name type off size rest
	if ! diff <(readelf -lW "$old") <(readelf -lW "$new") >&2; then
		fail "$what: readelf -lW differs"
	fi
	if ! diff <(sections "$old") <(sections "$new") >&2; then
		fail "$what: section headers differ"
	fi
	while read -r idx name type _ off size rest; do
		[ "$type" = NOBITS ] && continue
		if ! cmp -s -i $((16#$off)):$((16#$off)) -n $((16#$size)) "$old" "$new"; then
			fail "$what: bytes of section $idx $name differ"
		fi
	done < <(sections "$old")
	# .shstrtab keeps its names (as a prefix of the copy)
	local o n
	o=$(readelf -p .shstrtab "$old" | grep '\]' | sed 's/^ *\[ *[0-9a-f]*\] *//' | sort)
	n=$(readelf -p .shstrtab "$new" | grep '\]' | sed 's/^ *\[ *[0-9a-f]*\] *//' | sort)
	[ -n "$o" ] && [ "$(comm -23 <(echo "$o") <(echo "$n"))" = "" ] ||
		fail "$what: .shstrtab lost names"
}

# no_hidden: no dot file here (our temporary files are ".NAME.d2b-*")
no_hidden() {
	local f
	for f in .[!.]*; do
		[ -e "$f" ] && return 1
	done
	return 0
}

# btf_row FILE: "type addr off size es flags lk inf al" of .BTF
btf_row() {
	readelf -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] \.BTF  *//p'
}

same_btf() {	# FILE RAW WHAT
	bpftool btf dump file "$1" > "$1.dump" 2>&1 || { fail "$3: bpftool cannot read $1"; return; }
	bpftool btf dump file "$2" > "$2.dump" 2>&1 || { fail "$3: bpftool cannot read $2"; return; }
	[ -s "$2.dump" ] || fail "$3: empty dump"
	cmp -s "$1.dump" "$2.dump" || fail "$3: bpftool dump of $1 differs from $2"
}

# --- add to an executable ----------------------------------------------------
cp small e1
"$BW" elf e1 small.btf || fail "add: btfwrite failed"
same_layout small e1 add
row=$(btf_row e1)
set -- $row
[ "$1" = PROGBITS ] && [ "$6" = 0 ] && [ "$7" = 0 ] && [ "$8" = 4 ] ||
	fail "add: .BTF row '$row' (want PROGBITS, no flags, link 0, align 4)"
[ $((16#$4)) = "$(stat -c %s small.btf)" ] || fail "add: .BTF size $4"
[ $((16#$3 % 4)) = 0 ] && [ $((16#$3)) -ge "$(stat -c %s small)" ] ||
	fail "add: .BTF offset $3 (want 4-aligned, after the old end)"
same_btf e1 small.btf add
cmp -s <(./e1) small.out || fail "add: the executable prints something else"
[ "$(stat -c %a e1)" = 755 ] || fail "add: mode $(stat -c %a e1)"
no_hidden || fail "add: temporary files left: $(ls -A)"

# pahole -J's own result carries the same BTF
cp small e2
pahole -J e2 || d2b_fail "pahole -J e2"
bpftool btf dump file e2 > e2.dump || fail "bpftool on pahole -J output"
cmp -s e2.dump e1.dump || fail "pahole -J and btfwrite give different BTF"

# --- again with the same bytes: the same file ----------------------------------
cp e1 e3
"$BW" elf e3 small.btf || fail "again: btfwrite failed"
cmp -s e1 e3 || fail "again: writing the same .BTF changed the file"

# --- larger, then smaller again ----------------------------------------------
cp e1 e4
"$BW" elf e4 big.btf || fail "larger: btfwrite failed"
same_layout e1 e4 larger
same_btf e4 big.btf larger
cmp -s <(./e4) small.out || fail "larger: the executable prints something else"
sz4=$(stat -c %s e4)
[ "$sz4" -gt "$(stat -c %s e1)" ] || fail "larger: the file did not grow"
"$BW" elf e4 small.btf || fail "smaller: btfwrite failed"
[ "$(stat -c %s e4)" = "$sz4" ] || fail "smaller: not written in place"
same_btf e4 small.btf smaller
cmp -s <(./e4) small.out || fail "smaller: the executable prints something else"

# --- objects ---------------------------------------------------------------------
gcc -g -O1 -c small.c -o o64.o || d2b_fail "gcc -c"
cp o64.o o64b.o
"$BW" elf o64b.o small.btf || fail "object: btfwrite failed"
same_layout o64.o o64b.o object
same_btf o64b.o small.btf object
if gcc o64b.o -o linked 2>link.err; then
	cmp -s <(./linked) small.out || fail "object: linked program prints something else"
else
	fail "object with .BTF does not link: $(cat link.err)"
fi
printf 'struct pt { int x, y; };\nint area(struct pt *p) { return p->x * p->y; }\n' > m32.c
if gcc -m32 -g -O1 -c m32.c -o o32.o 2>/dev/null; then
	cp o32.o o32b.o
	"$BW" elf o32b.o small.btf || fail "ELF32 object: btfwrite failed"
	readelf -hW o32b.o | grep -q 'Class: *ELF32' || fail "not ELF32"
	same_layout o32.o o32b.o ELF32
	same_btf o32b.o small.btf ELF32
	[ "$(btf_row o32b.o | awk '{print $1, $NF, NF}')" = "PROGBITS 4 8" ] || fail "ELF32: .BTF row"
else
	echo "note: gcc -m32 -c does not work here; ELF32 covered by unit/test_btf_write"
fi

# --- raw ---------------------------------------------------------------------------
"$BW" raw raw.btf big.btf || fail "raw: btfwrite failed"
cmp -s raw.btf big.btf || fail "raw: bytes differ"
[ "$(stat -c %a raw.btf)" = 644 ] || fail "raw: mode $(stat -c %a raw.btf)"
chmod 600 raw.btf
"$BW" raw raw.btf small.btf || fail "raw over: btfwrite failed"
cmp -s raw.btf small.btf || fail "raw over: bytes differ"
[ "$(stat -c %a raw.btf)" = 600 ] || fail "raw over: mode $(stat -c %a raw.btf)"
no_hidden || fail "temporary files left: $(ls -A)"

[ $fails = 0 ] || d2b_fail "$fails checks failed"
echo "ok"
