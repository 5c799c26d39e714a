#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Two pahole options where 1.24 is broken, so that ours is checked against
# what the option means rather than against 1.24 (gcc and clang, DWARF 4
# and 5, -O0 and -O2):
#   --fixup_silly_bitfields: a bit-field as wide as its type and starting on
#     a byte (int c:32, long d:64, unsigned char g:8, short h:16) prints as a
#     plain member; the others (a:1, b:3, e:1, i:2, j:1) stay bit-fields; the
#     size stays 24 and --compile's text compiles to a struct of that size
#     (clang's enums nested in a struct, an anonymous one too, declared
#     once: --compile prints the data members only); with -J the BTF holds
#     them as plain members and prints as the DWARF does.
#     (1.24's inverted test turns e:1, a 1-bit field of a long, into a whole
#     long and prints a 65529-byte hole.) Without the option the output is
#     1.24's, where it is installed.
#   -S/--show_reorg_steps with -R -C: each move, then the struct as it left
#     it (32, 32 and 24 bytes for struct r), then "Final reorganized struct"
#     and exactly what -R -C prints. (1.24 crashes there.) Without -R, -S
#     changes nothing.
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd gcc clang
tmp=$(d2b_tmpdir)
PAHOLE="$D2B_BUILD/pahole"
ORACLE=$(command -v pahole)
[ -n "$ORACLE" ] && [ "$("$ORACLE" --version 2>/dev/null)" = v1.24 ] || ORACLE=

cat >"$tmp/bf.c" <<'EOF'
struct bf {
	unsigned int a:1; unsigned int b:3; int c:32; long d:64; unsigned long e:1;
	char f; unsigned char g:8; short h:16; enum e { X, Y } i:2; _Bool j:1;
};
struct bf gbf;
struct r { char a; long b; char c; int d; short e; char f; };
struct r gr;
struct an { enum { P, Q } k; int l:32; };
struct an gan;
EOF

for cc in gcc clang; do
	for v in 4 5; do
		for o in 0 2; do
			b=$tmp/bf.$cc.$v.$o
			name="$cc -gdwarf-$v -O$o"
			"$cc" -g -gdwarf-"$v" -O"$o" -c -o "$b.o" "$tmp/bf.c" ||
				{ fail "$name: cannot compile"; continue; }

			checked=$((checked + 1))
			"$PAHOLE" --fixup_silly_bitfields -C bf "$b.o" >"$b.fix" 2>&1 ||
				fail "$name: --fixup_silly_bitfields: exit $?"
			for m in c d g h; do
				grep -qE "^	[a-z ]+ +$m; +/\* +[0-9]+ +[0-9]+ \*/" "$b.fix" ||
					fail "$name: $m is not a plain member: $(grep " $m" "$b.fix")"
			done
			for m in a b e i j; do
				grep -qE "[ }]$m:[0-9]+;" "$b.fix" ||
					fail "$name: $m is no longer a bit-field"
			done
			grep -q "/\* size: 24, cachelines: 1, members: 10 \*/" "$b.fix" ||
				fail "$name: the size changed: $(grep 'size:' "$b.fix")"
			grep -q "BRAIN FART\|65529" "$b.fix" && fail "$name: a broken layout"

			checked=$((checked + 1))
			{
				"$PAHOLE" --compile --fixup_silly_bitfields "$b.o"
				echo "_Static_assert(sizeof(struct bf) == 24, \"size\");"
			} >"$b.h"
			gcc -fsyntax-only -x c "$b.h" 2>"$b.cc.err" ||
				fail "$name: --compile --fixup_silly_bitfields: $(head -3 "$b.cc.err")"

			# -C --compile: the same data members only (one enum)
			checked=$((checked + 1))
			{
				# (-C: no ';' after the type, as 1.24)
				"$PAHOLE" --compile -C an "$b.o"
				echo ";"
			} >"$b.an.h"
			gcc -fsyntax-only -x c "$b.an.h" 2>"$b.an.err" ||
				fail "$name: --compile -C an: $(head -3 "$b.an.err")"

			# -J --fixup_silly_bitfields: the BTF has them as plain members
			checked=$((checked + 1))
			cp "$b.o" "$b.j.o"
			if "$PAHOLE" -J --fixup_silly_bitfields "$b.j.o" 2>"$b.j.err"; then
				"$PAHOLE" -F btf -C bf "$b.j.o" >"$b.j.out" 2>&1
				cmp -s "$b.j.out" "$b.fix" ||
					fail "$name: -J --fixup_silly_bitfields: the BTF prints otherwise"
			else
				fail "$name: -J --fixup_silly_bitfields: $(head -c 200 "$b.j.err")"
			fi

			if [ -n "$ORACLE" ]; then
				checked=$((checked + 1))
				"$PAHOLE" -C bf "$b.o" >"$b.plain" 2>&1
				"$ORACLE" -C bf "$b.o" >"$b.ref" 2>&1
				cmp -s "$b.plain" "$b.ref" || fail "$name: without the option, not 1.24's"
			fi

			checked=$((checked + 1))
			"$PAHOLE" -R -S -C r "$b.o" >"$b.steps" 2>&1 || fail "$name: -R -S: exit $?"
			"$PAHOLE" -R -C r "$b.o" >"$b.reorg" 2>&1
			[ "$(grep -c "^/\* Moving '" "$b.steps")" = 3 ] ||
				fail "$name: -R -S: $(grep -c "^/\* Moving" "$b.steps") moves, expected 3"
			[ "$(grep -c "^struct r {" "$b.steps")" = 4 ] ||
				fail "$name: -R -S: $(grep -c "^struct r {" "$b.steps") structs, expected 4"
			[ "$(grep -o "/\* size: [0-9]*" "$b.steps" | tr -dc '0-9\n' | paste -sd,)" = 32,32,24,24 ] ||
				fail "$name: -R -S sizes: $(grep "/\* size:" "$b.steps" | paste -sd' ')"
			sed -n '/^\/\* Final reorganized struct: \*\/$/,$p' "$b.steps" | tail -n +2 |
				cmp -s - "$b.reorg" || fail "$name: -R -S does not end with what -R prints"

			checked=$((checked + 1))
			"$PAHOLE" -S "$b.o" >"$b.s" 2>&1
			"$PAHOLE" "$b.o" >"$b.nos" 2>&1
			cmp -s "$b.s" "$b.nos" || fail "$name: -S without -R changes the listing"
		done
	done
done
d2b_finish
