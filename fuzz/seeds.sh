#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# fuzz/seeds.sh HARNESS DIR: write the seed corpus of HARNESS into DIR.
#   fuzz_dwarf  small objects and executables built from tests/fixtures
#               (-O0 -g, DWARF 4 and 5, gcc and clang, type units,
#               compressed sections) and the crafted files of
#               tests/tools/mkdwarf.py and tests/tools/hostile.py
#   fuzz_cli    argument lists (see fuzz_cli.c for the format)
#   fuzz_encode the seeds of fuzz_dwarf
#   fuzz_btf    an options byte, then raw BTF: /usr/bin/pahole's (-J
#               --btf_encode_detached) of those fixtures, and a closed
#               slice of the corpus vmlinux's .BTF when it is cached
#               (tests/lib.sh d2b_corpus; fuzz/btf_slice.py)
#   fuzz_dedup  raw BTF: the same as fuzz_btf's, without the options byte
#               (the harness deduplicates two copies of it)
#   fuzz_encode_base
#               raw BTF of tests/fixtures/btf_funcs/ (gcc and clang, -O0
#               and -O2, DWARF 4 and 5: the harness's module is that source
#               at -O2, so its types start out in the base), plus
#               fuzz_dedup's seeds of the other fixtures
set -u
harness=$1 dir=$2
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mkdir -p "$dir"

seed_dwarf() {
	local fx="$src/tests/fixtures" f n cc v
	for f in structs bitfields enums functions arrays qualifiers pahole_nested \
		 pfunct_types btf_tags base_types; do
		[ -f "$fx/$f.c" ] || continue
		for cc in gcc clang; do
			command -v $cc >/dev/null || continue
			for v in 4 5; do
				n="$dir/$f.$cc.dwarf$v.o"
				$cc -w -g -gdwarf-$v -O0 -c "$fx/$f.c" -o "$n" 2>/dev/null || rm -f "$n"
			done
		done
	done
	# A linked executable, one with type units, one optimised (location lists).
	gcc -w -g -O0 "$fx/structs.c" -o "$dir/structs.exe" 2>/dev/null
	gcc -w -g -gdwarf-4 -fdebug-types-section -O0 -c "$fx/type_units.c" \
		-o "$dir/type_units.o" 2>/dev/null
	gcc -w -g -O2 -c "$fx/functions.c" -o "$dir/functions.O2.o" 2>/dev/null
	if command -v g++ >/dev/null && [ -f "$fx/cxx_basic.cc" ]; then
		g++ -w -g -O0 -c "$fx/cxx_basic.cc" -o "$dir/cxx_basic.o" 2>/dev/null
	fi
	# Compressed debug sections (zlib, zstd when objcopy knows it).
	objcopy --compress-debug-sections=zlib "$dir/structs.gcc.dwarf5.o" \
		"$dir/structs.zlib.o" 2>/dev/null
	objcopy --compress-debug-sections=zstd "$dir/structs.gcc.dwarf5.o" \
		"$dir/structs.zstd.o" 2>/dev/null || true
	for n in good truncated bad-abbrev unknown-form bad-ref bad-version loop-abbrev; do
		python3 "$src/tests/tools/mkdwarf.py" $n "$dir/mk-$n.o" 2>/dev/null
	done
	if [ -f "$src/tests/tools/hostile.py" ]; then
		python3 "$src/tests/tools/hostile.py" seeds "$dir" 2>/dev/null
	fi
	# Drop what is too big to mutate usefully.
	find "$dir" -type f -size +64k -delete
}

seed_cli() {
	local i=0 a
	# byte 0: 0 pahole, 1 pfunct; arguments separated by NUL
	while IFS= read -r a; do
		printf "$a" > "$dir/args-$i"
		i=$((i + 1))
	done <<'ARGS'
\000-C\000pair
\000-E\000-C\000list,node
\000-s
\000--hex\000-r\000--suppress_packed
\000-j2\000@\000@
\000-F\000dwarf,btf\000-c\00032
\000--suppress_aligned_attribute\000-E
\000--jobs=1\000-Cs
\000--version
\000-?
\000--bogus
\000-a\000-A\000-y\000s\000-x\000st
\000-H\0001\000-B\0001\000-z\0002\000-V
\000-T\000-s\000-t,
\000-n\000--structs\000--packed
\000-N\000--unions\000--with_flexible_array
\000-I\000-D\000/usr\000-X\000x
\000-I\000-C\000pair
\000-R\000--sort
\000-R\000-V\000-C\000pair
\000-P\000-V
\000-i\000pair\000-d\000-V
\000-f\000node\000--structs
\000-u\000-C\000pair,node
\000-l\000--classes_as_structs\000-E
\000--skip_missing\000-C\000nosuch,pair,x,node
\000--lang=c11,,c\000--lang_exclude=c++
\000--lang=C89,c99,c11\000-s
\000--compile
\000--compile\000-C\000pair,nosuch\000--skip_missing
\000-F\000btf\000--compile\000-E
\000--hashbits=31\000-n
\000--prettify=/x\000-C\000pair
\000--prettify=/x\000-C\000pair(sizeof=a,type=b,type_enum=e,filter=a==1),node\000--header_type=pair\000--range=x
\000--prettify=-\000--header_type=pair\000--hex\000-V
\000--prettify=/x\000-C\000pair(sizeof\000--count=2\000--skip=1\000--seek_bytes=0x10\000--size_bytes=$header.a
\000-C\000pair(sizeof,type),node\000-V
\001-P
\001-V\000-l
\001-s
\001-p\000-E
\001-N\000-G
\001-f\000main\000-P
\001--no_parm_names\000-P\000-H
\001-j\000@
\001--usage
\001--help
\001-F\000ctf
\001-a
\001--compile
\001-c\000foo\000-V\000-l
\001-a\0000x1130\000-V
\001--symtab\000@\000@
\001--symtab=.dynsym
\001-S\000-E
\001-g
\001-i
\001-T\000-V\000-l
\001-I
\001-t\000-E
\001-i\000-f\000main\000-T
\001-b
\001--compile
\001--compile=main\000-V
ARGS
}

# seed_btf [raw]: fuzz_btf's seeds, or with "raw" the bare BTF (fuzz_dedup)
seed_btf() {
	local tmp f b n base vml opts="000 001 006 302"
	[ "${1:-}" = raw ] && opts=raw
	tmp=$(mktemp -d) || return 1
	(dir=$tmp; seed_dwarf)
	for f in "$tmp"/*.o; do
		base=$(basename "$f" .o)
		pahole --btf_encode_detached="$tmp/$base.btf" "$f" >/dev/null 2>&1 ||
			continue
		[ -s "$tmp/$base.btf" ] || continue
		# options bytes: layout, -s, -E --hex, -C names + pfunct -f main
		for b in $opts; do
			if [ $b = raw ]; then
				cp "$tmp/$base.btf" "$dir/$base.btf"
			else
				{ printf "\\$b"; cat "$tmp/$base.btf"; } > "$dir/$base.$b.btf"
			fi
		done
	done
	vml=${D2B_CORPUS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/dwarf2btf}/vmlinux
	if [ -s "$vml" ] &&
	   objcopy -O binary --only-section=.BTF "$vml" "$tmp/vmlinux.btf" 2>/dev/null; then
		for n in 60 200 600; do
			python3 "$src/fuzz/btf_slice.py" "$tmp/vmlinux.btf" $n "$tmp/s.btf" 2>/dev/null ||
				continue
			if [ "$opts" = raw ]; then
				cp "$tmp/s.btf" "$dir/vmlinux-slice-$n.btf"
			else
				{ printf '\000'; cat "$tmp/s.btf"; } > "$dir/vmlinux-slice-$n.btf"
			fi
		done
	fi
	rm -rf "$tmp"
	find "$dir" -type f -size +64k -delete
}

seed_base() {
	local fx="$src/tests/fixtures" tmp cc o v n
	tmp=$(mktemp -d) || return 1
	for cc in gcc clang; do
		command -v $cc >/dev/null || continue
		for o in O0 O2; do
			for v in 4 5; do
				n="btf_funcs.$cc.$o.dwarf$v"
				$cc -w -g -gdwarf-$v -$o -fno-eliminate-unused-debug-types \
					"$fx"/btf_funcs/*.c -o "$tmp/$n" 2>/dev/null &&
					pahole --btf_encode_detached="$dir/$n.btf" "$tmp/$n" \
						>/dev/null 2>&1
				[ -s "$dir/$n.btf" ] || rm -f "$dir/$n.btf"
			done
		done
	done
	rm -rf "$tmp"
	seed_btf raw
}

case $harness in
fuzz_dwarf | fuzz_encode) seed_dwarf ;;
fuzz_btf) seed_btf ;;
fuzz_dedup) seed_btf raw ;;
fuzz_encode_base) seed_base ;;
fuzz_cli) seed_cli ;;
*) echo "seeds.sh: unknown harness $harness" >&2; exit 2 ;;
esac
