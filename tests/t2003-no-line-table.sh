#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# pahole, pfunct without -l and the encoder never read .debug_line (they open
# with DW_FILE_NO_LINE: a module's line table is neither copied nor
# relocated). Observable by breaking it: in a relocatable object (gcc and
# clang, DWARF 4 and 5, -O0 and -O2) the first entry of .rela.debug_line is
# made to point past the section. Then:
#   - `pahole`, `pahole -C pair` and `pfunct -P` print byte for byte what
#     they print for the intact object, with exit 0 and nothing on stderr;
#     so does pahole 1.24 (it reads line tables lazily), when installed;
#   - `dwarf2btf encode` writes the same BTF as for the intact object;
#   - `pfunct -l`, which prints file names from the line table, exits 1 with
#     one stderr line naming .rela.debug_line (so the breakage is real).
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd gcc clang python3
tmp=$(d2b_tmpdir)
PAHOLE="$D2B_BUILD/pahole"
PFUNCT="$D2B_BUILD/pfunct"
ORACLE=$(command -v pahole)
[ -n "$ORACLE" ] && [ "$("$ORACLE" --version 2>/dev/null)" = v1.24 ] || ORACLE=

cat >"$tmp/pair.c" <<'EOF'
struct pair { int x; long y; };
struct holder { struct pair p; char tag; };
int use(struct pair *p) { return p->x; }
long hold(struct holder *h) { return h->p.y + h->tag; }
EOF

# break_line OBJ OUT: OUT is OBJ with .rela.debug_line's first r_offset
# past the end of .debug_line; fails when there is no such section.
break_line() {
	python3 - "$1" "$2" <<'EOF'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
shoff = struct.unpack_from("<Q", b, 0x28)[0]
shnum, shstrndx = struct.unpack_from("<HH", b, 0x3c)
stroff = struct.unpack_from("<Q", b, shoff + shstrndx * 64 + 0x18)[0]
for i in range(shnum):
    h = shoff + i * 64
    n = struct.unpack_from("<I", b, h)[0]
    name = b[stroff + n:b.index(0, stroff + n)].decode()
    if name == ".rela.debug_line" and struct.unpack_from("<Q", b, h + 0x20)[0]:
        struct.pack_into("<Q", b, struct.unpack_from("<Q", b, h + 0x18)[0], 0x7fff0000)
        open(sys.argv[2], "wb").write(b)
        sys.exit(0)
sys.exit("no .rela.debug_line")
EOF
}

for cc in gcc clang; do
	for v in 4 5; do
		for o in 0 2; do
			b=$tmp/pair.$cc.dwarf$v.O$o
			"$cc" -g -gdwarf-"$v" -O"$o" -c -o "$b.o" "$tmp/pair.c" ||
				{ fail "$cc -gdwarf-$v -O$o"; continue; }
			break_line "$b.o" "$b.bad.o" || { fail "$b.o: cannot break"; continue; }
			for cmd in "$PAHOLE" "$PAHOLE -C pair" "$PFUNCT -P"; do
				checked=$((checked + 1))
				$cmd "$b.o" >"$b.good.out" 2>&1 || fail "$cmd $b.o: exit $?"
				$cmd "$b.bad.o" >"$b.bad.out" 2>"$b.bad.err"
				rc=$?
				[ $rc = 0 ] && [ ! -s "$b.bad.err" ] ||
					fail "$cmd on the broken line table: exit $rc, $(head -c 200 "$b.bad.err")"
				grep -q . "$b.good.out" || fail "$cmd $b.o: no output"
				cmp -s "$b.good.out" "$b.bad.out" ||
					fail "$cmd: the broken line table changes the output"
				[ "$cmd" = "$PAHOLE" ] && cp "$b.good.out" "$b.good.out.pahole"
			done
			if [ -n "$ORACLE" ]; then
				checked=$((checked + 1))
				"$ORACLE" "$b.bad.o" >"$b.oracle.out" 2>&1
				cmp -s "$b.good.out.pahole" "$b.oracle.out" ||
					fail "$b.bad.o: pahole 1.24 prints something else"
			fi
			checked=$((checked + 1))
			"$D2B" encode --btf_encode_detached="$b.good.btf" "$b.o" &&
				"$D2B" encode --btf_encode_detached="$b.bad.btf" "$b.bad.o" &&
				cmp -s "$b.good.btf" "$b.bad.btf" ||
				fail "encode: the broken line table fails or changes the BTF"
			checked=$((checked + 1))
			"$PFUNCT" -l "$b.bad.o" >/dev/null 2>"$b.l.err"
			rc=$?
			[ $rc = 1 ] && [ "$(wc -l <"$b.l.err")" = 1 ] &&
				grep -q "pair.*\.rela\.debug_line+0x0: relocation offset" "$b.l.err" ||
				fail "pfunct -l on the broken line table: exit $rc, $(cat "$b.l.err")"
		done
	done
done
d2b_finish
