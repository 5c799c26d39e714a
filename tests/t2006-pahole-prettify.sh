#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# pahole --prettify against Debian's pahole 1.24, byte for byte (stdout,
# stderr and exit status of each command line below): records of every
# scalar kind, strings and arrays, bit-fields, nested and anonymous
# structs and unions, --hex, --count, --skip, --seek_bytes, --size_bytes,
# stdin and pipes, --header_type with $header.member paths and --range,
# -C's arguments (checked without --prettify too; sizeof, type, type_enum with '+', filters by number and
# by enumerator, with and without the common prefix), -V, and 1.24's error
# lines. The sources are tests/prettify/t*.c, built with gcc (DWARF 5 and
# 4) and clang; the records come from tests/prettify/data.py. Where 1.24
# aborts or crashes (a seek backwards, a --range on a member that is no
# struct) we print one line instead: checked here on ours alone.
ORACLE=$(command -v pahole)
OURS="$D2B_BUILD/pahole"

. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd pahole gcc clang python3
[ -x "$OURS" ] || d2b_fail "no $OURS"
"$ORACLE" --version 2>/dev/null | grep -qx 'v1.24' || d2b_skip "oracle is not pahole v1.24"

tmp=$(d2b_tmpdir)
srcdir=$D2B_SRC/tests/prettify
python3 "$srcdir/data.py" "$tmp" || d2b_fail "data.py"

# run LINE PROGRAM OUT: LINE with "pahole" standing for PROGRAM, in $tmp
# (getopt's lines name the program as called: PROGRAM is "pahole" there)
run() {
	(cd "$tmp" && P=$2 bash -c "${1//pahole /\"\$P\" }" >"$3.out" 2>"$3.err"; echo "exit $?" >>"$3.err")
	sed -i "s|^$2:|pahole:|" "$3.err"
}

checked=0 fails=0
# compare LINE WHAT: 1.24's and ours, stdout, stderr and exit status
compare() {
	run "$1" "$ORACLE" "$tmp/ref"
	run "$1" "$OURS" "$tmp/our"
	checked=$((checked + 1))
	d2b_same_run "$tmp/ref" "$tmp/our" "($2) $1" || fails=$((fails + 1))
}

for build in "gcc -g" "gcc -gdwarf-4" "clang -g"; do
	for n in 1 2 3 4 5 6 7; do
		# shellcheck disable=SC2086 # the compiler and its flags
		$build -c "$srcdir/t$n.c" -o "$tmp/t$n.o" || d2b_fail "$build t$n.c"
	done
	while IFS= read -r line; do
		[ -n "$line" ] && compare "$line" "$build"
	done <<'CASES'
pahole -F dwarf -C rec --prettify d1.bin t1.o
pahole -F dwarf -C rec --hex --prettify d1.bin t1.o --count 1
pahole -F dwarf -C rec --prettify d1_trunc.bin t1.o | grep -c '^{'
pahole -F dwarf -C r2 --prettify d2.bin t2.o | cat -A
pahole -F dwarf -C r2 --prettify d2s.bin t2.o
pahole -F dwarf -C inner_t --prettify d3.bin t3.o
pahole -F dwarf -C inner --prettify d3.bin t3.o
pahole -F dwarf -C un --prettify d3.bin t3.o
pahole -F dwarf -C col --prettify d3.bin t3.o
pahole -F dwarf -C myint --prettify d3.bin t3.o
pahole -F dwarf -C int --prettify d3.bin t3.o
pahole -F dwarf -C empty --prettify d3.bin t3.o
pahole -F dwarf -C s5 --prettify d3.bin t3.o
pahole -F dwarf -C one t3.o --prettify d3.bin --count 2
pahole -F dwarf -C one t3.o --prettify d3.bin --count 0 | wc -l
pahole -F dwarf -C one t3.o --prettify d3.bin --skip 3 --count 2
pahole -F dwarf -C one t3.o --prettify d3.bin --seek_bytes 07
pahole -F dwarf -C one t3.o --prettify d3.bin --seek_bytes 0x6
pahole -F dwarf -C one t3.o --prettify d3.bin --seek_bytes 8
pahole -F dwarf -C one t3.o --prettify d3.bin --seek_bytes 9
pahole -F dwarf -C one t3.o --prettify d3.bin --size_bytes 0
pahole -F dwarf -C one t3.o --prettify d3.bin --seek_bytes 2 --size_bytes 3 --skip 1
pahole -F dwarf -C one t3.o --prettify d3.bin --size_bytes 3 --skip 5
pahole -F dwarf -C one t3.o --prettify - --count 2 < d3.bin
cat d3.bin | pahole -F dwarf -C one t3.o --prettify /dev/stdin --seek_bytes 6
pahole -F dwarf -V -C one t3.o --prettify d3.bin --count 2 --seek_bytes 3
cat d3.bin | pahole -F dwarf -V -C one t3.o --prettify - --count 2 --seek_bytes 3
pahole -F dwarf -C 'inner,one' t3.o --prettify d3.bin --count 2 --skip 1
pahole -F dwarf -C 'one,nosuch' t3.o --prettify d3.bin
pahole -F dwarf -C one t3.o --prettify nonexist.bin
pahole -F dwarf -C one t3.o --prettify empty.bin
pahole -F dwarf t3.o -C 'one(sizeof=c)' --prettify d3.bin
pahole -F dwarf t3.o -C 'one, inner' --prettify d3.bin --count 1
pahole -F dwarf t3.o -C 'un(sizeof=c)' --prettify d3.bin
pahole -F dwarf t3.o -C 'one(sizeof=c)'
pahole -F dwarf t3.o -C 'one(sizeof=nosuch)'
pahole -F dwarf t3.o -C 'inner,one(type=nosuch)'
pahole -F dwarf t3.o -C 'one,one(sizeof=nosuch),inner'
pahole -F dwarf t3.o -C 'un(sizeof=c)'
pahole -F dwarf t3.o -C 'nosuch(sizeof=c),one'
pahole -F dwarf t3.o -C 'one(sizeof=c),nosuch(sizeof=c)'
pahole -F dwarf t4.o -C 'rec(sizeof,type,type_enum=rec_type,filter=nosuch==1)'
pahole -F dwarf t4.o -C 'rec(sizeof,type,type_enum=rec_type,type==BETA)'
pahole -F dwarf t4.o -C 'rec(type_enum=nosuch)'
printf A | pahole -F dwarf -C n20 t6.o --prettify - | sed -n '15,22p;36,42p' | cat -A
pahole -F dwarf -C bits t5.o --prettify d5b.bin
pahole -F dwarf -C bits t5.o --prettify d5b.bin --hex
pahole -F dwarf t5.o -C 'vrec(sizeof)' --prettify d5.bin
pahole -F dwarf t5.o -C vrec --prettify d5.bin --count 2
pahole -F dwarf t5.o -C 'vs2(sizeof)' --prettify d5.bin
pahole -F dwarf t5.o -C 'vstr(sizeof)' --prettify d5s.bin
pahole -F dwarf t5.o -C 'vrec(sizeof,type,type_enum=pfx)' --prettify d5.bin
pahole -F dwarf t5.o -C 'pfxrec(sizeof,type,type_enum=pfx,type==R_X)' --prettify d5.bin --count 1
pahole -F dwarf t5.o -C 'pfxrec(sizeof,type,type_enum=pfx,type==BAR_X)' --prettify d5.bin --count 1
pahole -F dwarf t4.o --header_type file_header --prettify d4.bin
pahole -F dwarf t4.o --hex --header_type=file_header --prettify d4.bin
pahole -F dwarf t4.o --header_type=file_header -C rec --prettify d4.bin --count 2
pahole -F dwarf t4.o --header_type=file_header -C 'rec(sizeof)' --prettify d4.bin --seek_bytes '$header.data.offset' --size_bytes '$header.data.size'
pahole -F dwarf t4.o --header_type=file_header -C 'rec(sizeof,type,type_enum=rec_type)' --prettify d4.bin --range data
pahole -F dwarf t4.o --header_type=file_header --range=data --prettify d4.bin -C 'rec(sizeof,type,type_enum=rec_type+user_type)'
pahole -F dwarf t4.o --header_type=file_header --range=data --prettify d4.bin -C 'rec(sizeof,type,type_enum=user_type+rec_type,filter=type==REC_BETA)'
pahole -F dwarf t4.o --prettify d4recs.bin -C 'rec(sizeof,type,type_enum=rec_type,type==BETA)' --skip 1
pahole -F dwarf t4.o --header_type=file_header --range=data --prettify d4.bin -C 'rec(sizeof,type,type_enum=rec_type,type==0x40)' --hex
pahole -F dwarf t4.o --prettify d4recs.bin -C 'rec(sizeof,type=misc,type_enum=rec_type)' --count 2
pahole -F dwarf t4.o --prettify d4.bin --header_type=file_header -V -C rec --range data --count 1
pahole -F dwarf t4.o --prettify d4.bin --header_type=file_header -V -C rec --seek_bytes '$header.data.offset' --size_bytes '$header.data.size' --count 1
pahole -F dwarf t4.o --prettify d4recs.bin -V -C 'rec(sizeof,type,type_enum=rec_type,range=data)' --count 1
pahole -F dwarf t4.o --header_type=file_header --range=data --prettify d4.bin -C 'section(sizeof)'
pahole -F dwarf t4.o --header_type=file_header --range=data --prettify d4.bin -C 'rec(sizeof=misc)'
cat d4.bin | pahole -F dwarf t4.o --prettify - --header_type=file_header -C rec --range data --count 2
pahole -F dwarf t4.o --prettify - --header_type=file_header -C rec --range data --count 2 < d4.bin
pahole -F dwarf t4.o --prettify d4.bin --header_type=nosuch
pahole -F dwarf t4.o --prettify d4.bin --header_type=nosuch -C rec
pahole -F dwarf t4.o --prettify d4.bin -C rec --range data
pahole -F dwarf t4.o --prettify d4.bin -C 'rec(range=data)'
pahole -F dwarf t4.o --prettify d4.bin --header_type=file_header -C 'rec(range=other)' --count 1
pahole -F dwarf t4.o --prettify d4.bin --header_type=file_header -C rec --range nosuch
pahole -F dwarf t4.o --prettify d4.bin -C rec --seek_bytes '$header.data.offset'
pahole -F dwarf t4.o --prettify d4.bin -C rec --size_bytes '$header.data.size'
pahole -F dwarf t4.o --prettify d4.bin --header_type=file_header -C rec --seek_bytes '$header.nosuch'
pahole -F dwarf t4.o --prettify d4.bin --header_type=file_header -C rec --seek_bytes '$header.neg'
pahole -F dwarf t4.o --prettify d4.bin --header_type=file_header -C rec --seek_bytes '$header.big'
pahole -F dwarf t4.o --prettify d4.bin --header_type=file_header -C rec --seek_bytes '$header.version'
pahole -F dwarf t4.o --prettify d4.bin --header_type=file_header -C rec --seek_bytes '$header.data'
pahole -F dwarf t4.o --prettify d4.bin --header_type=file_header -C rec --size_bytes '$header.nosuch'
pahole -F dwarf t4.o --prettify d4.bin --header_type=rec_type
pahole -F dwarf t4.o --prettify d4.bin --header_type=rec_type -C rec --count 1
pahole -F dwarf t4.o --prettify d4.bin --header_type=file_header --count 3 --skip 1 --seek_bytes 2
pahole -F dwarf t4.o --prettify d4.bin --header_type=file_header -C rec --range data --seek_bytes 100 --size_bytes 1 --count 1
pahole -F dwarf t4.o --prettify d4.bin -C 'rec(sizeof),rec_alpha' --header_type=file_header --range=data
pahole -F dwarf t4.o --prettify d4.bin --header_type=fh_t -C rec --count 1
pahole -F dwarf t4.o --prettify d4h.bin --header_type=file_header -C rec
pahole -F dwarf t4.o --prettify d4recs.bin --count 1 -C 'rec(sizeof'
pahole -F dwarf t4.o --prettify d4recs.bin --count 1 -C 'rec(sizeof,foo=bar)'
pahole -F dwarf t4.o --prettify d4recs.bin --count 1 -C 'rec(foo)'
pahole -F dwarf t4.o --prettify d4recs.bin --count 1 -C 'rec(sizeof=)'
pahole -F dwarf t4.o --prettify d4recs.bin --count 1 -C 'rec( )'
pahole -F dwarf t4.o --prettify d4recs.bin --count 1 -C 'rec(sizeof=nosuch)'
pahole -F dwarf t4.o --prettify d4recs.bin --count 1 -C 'rec(type=nosuch)'
pahole -F dwarf t4.o --prettify d4recs.bin --count 1 -C 'rec(sizeof,type,type_enum=nosuch)'
pahole -F dwarf t4.o --prettify d4recs.bin --count 1 -C 'rec(sizeof,type,type_enum=nosuch+rec_type)'
pahole -F dwarf t4.o --prettify d4recs.bin --count 1 -C 'rec(sizeof,type,type_enum=rec_type+nosuch)'
pahole -F dwarf t4.o --prettify d4recs.bin --count 1 -C 'rec_type(sizeof)'
pahole -F dwarf t4.o --prettify d4recs.bin --count 1 -C 'rec(sizeof,type'
pahole -F dwarf t4.o --prettify d4recs.bin --count 1 -C 'rec(sizeof, type)'
pahole -F dwarf t4.o --prettify d4recs.bin --count 1 -C 'rec(sizeof,filter=misc==NOPE)'
pahole -F dwarf t4.o --prettify d4recs.bin --count 1 -C 'rec(sizeof,filter=nomember==3)'
pahole -F dwarf t4.o --prettify d4recs.bin --count 1 -C 'rec(sizeof,filter=misc=3)'
pahole -F dwarf t4.o --prettify d4recs.bin --count 1 -C 'rec(sizeof,filter=misc==3)'
pahole -F dwarf t4.o --prettify d4recs.bin --count 1 -C 'rec(sizeof,type,type_enum=rec_type,type==EC_BETA)'
pahole -F dwarf t4.o --prettify d4recs.bin -V -C 'rec(sizeof,filter=misc==NOPE)'
pahole -F dwarf t3.o -C one --prettify d3.bin --count
pahole -F dwarf t4.o --prettify d4t.bin --header_type=file_header -C rec --range data
pahole -F dwarf -C t7 t7.o --prettify d7.bin
pahole -F dwarf -C t7 t7.o --prettify d7.bin --hex
CASES
done

# Where 1.24 aborts (exit 134) or crashes (139): one line, exit 0 or 1
while IFS=$'\t' read -r line want; do
	run "$line" "$OURS" "$tmp/our"
	checked=$((checked + 1))
	if ! grep -qF "$want" "$tmp/our.err" || [ -s "$tmp/our.out" ] ||
	   grep -qE '^exit (134|139)$' "$tmp/our.err"; then
		fails=$((fails + 1))
		echo "FAIL: $line: want '$want' on stderr"
		cat "$tmp/our.err"
	fi
done <<'OURS'
pahole -F dwarf -C one t3.o --prettify d3.bin --seek_bytes -1	can't go back in input
pahole -F dwarf t4.o --prettify d4.bin --header_type=file_header -C rec --range magic	couldn't read the 'magic.offset' member
pahole -F dwarf t4.o --prettify d4.bin --header_type=file_header -C rec --seek_bytes 10	can't go back in input
OURS

# A BTF (1.24's -J of t1 and t4) reads the same
for n in 1 4; do
	cp "$tmp/t$n.o" "$tmp/t$n.btf.o" && "$ORACLE" -J "$tmp/t$n.btf.o" >/dev/null 2>&1 ||
		d2b_fail "pahole -J t$n"
done
for line in "pahole -F btf -C rec t1.btf.o --prettify d1.bin --hex" \
	"pahole -F btf t4.btf.o --header_type=file_header --range=data --prettify d4.bin -C 'rec(sizeof,type,type_enum=rec_type+user_type)'"; do
	compare "$line" "1.24's BTF"
done
echo "$checked command lines, $fails failures"
[ "$checked" -gt 300 ] || d2b_fail "too few command lines ($checked)"
[ $fails -eq 0 ]
