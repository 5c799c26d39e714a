#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# pahole -C reads the unit index lazily (DW_FILE_LAZY_UNITS): it indexes the
# units it decodes and stops with the last -C name found. Checks, without
# strace, through the D2B_PAHOLE_STATS=1 line ("d2b-stats: N unit headers
# indexed (all|lazy, stopped early)"):
#   - a name of the first unit indexes fewer headers than the file has
#     (1 inline), a name of the last unit or a missing one indexes all;
#   - the output (stdout and stderr) for names in the first unit, the last
#     unit, both, a list, and a missing name is byte-identical to the eager
#     path (-F btf,dwarf on a file without BTF opens it through cli_input,
#     which indexes every unit at open) for -j1 and -j3, and to Debian's
#     pahole 1.24 (-F dwarf) where it is the oracle;
#   - with type units (-fdebug-types-section; DWARF 5 in .debug_info, where
#     the first unit's references need the whole index, and DWARF 4
#     .debug_types, indexed at open): identical to the eager path and to
#     the build without type units;
#   - the kernel corpus, when cached: -C task_struct reads 2 headers (the
#     Debian 6.1 vmlinux defines it in its second unit) and equals pahole
#     1.24 -F dwarf, for -j1 and -j2.
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd gcc readelf
OURS="$D2B_BUILD/pahole"
[ -x "$OURS" ] || d2b_fail "no $OURS"
ORACLE=$(command -v pahole)
[ -n "$ORACLE" ] && [ "$("$ORACLE" --version 2>/dev/null)" = v1.24 ] || ORACLE=
tmp=$(d2b_tmpdir)

# stats FILE NAMES [OPTS]: the stats line of a lazy run
stats() {
	local f=$1 n=$2
	shift 2
	D2B_PAHOLE_STATS=1 "$OURS" "$@" -C "$n" "$f" 2>&1 >/dev/null | grep '^d2b-stats:'
}

# same FILE NAMES [ORACLE_TOO]: lazy = eager (-j1, -j3) [= pahole 1.24]
same() {
	local f=$1 n=$2 oracle=${3:-} b
	b=$tmp/$(basename "$f").$(printf "%s" "$n" | tr -c 'A-Za-z0-9_' '_')
	# stdout and stderr apart: pahole's stdout is flushed at exit
	"$OURS" -C "$n" "$f" >"$b.lazy" 2>"$b.lazy.err"
	# (--thread_bytes=0: threads even for a file this small)
	"$OURS" -j3 --thread_bytes=0 -C "$n" "$f" >"$b.lazy3" 2>"$b.lazy3.err"
	"$OURS" -F btf,dwarf -C "$n" "$f" >"$b.eager" 2>"$b.eager.err"
	"$OURS" -j3 --thread_bytes=0 -F btf,dwarf -C "$n" "$f" >"$b.eager3" 2>"$b.eager3.err"
	checked=$((checked + 1))
	for x in "" .err; do
		cmp -s "$b.lazy$x" "$b.eager$x" || { fail "$f -C $n: lazy$x differs from eager"; diff -u "$b.eager$x" "$b.lazy$x" | head -20; }
		cmp -s "$b.lazy$x" "$b.lazy3$x" || fail "$f -C $n: -j3$x differs from -j1"
		cmp -s "$b.eager$x" "$b.eager3$x" || fail "$f -C $n: eager -j3$x differs from -j1"
	done
	if [ -n "$oracle" ] && [ -n "$ORACLE" ]; then
		"$ORACLE" -F dwarf -C "$n" "$f" >"$b.pahole" 2>"$b.pahole.err"
		for x in "" .err; do
			cmp -s "$b.lazy$x" "$b.pahole$x" || { fail "$f -C $n: $x differs from pahole 1.24"; diff -u "$b.pahole$x" "$b.lazy$x" | head -20; }
		done
	fi
	[ -s "$b.lazy" ] || [ -s "$b.lazy.err" ] || fail "$f -C $n: no output at all"
}

src=$D2B_SRC/tests/fixtures/multi_cu
# gcc and clang, DWARF 4 and 5: main.c is the first unit, walk.c the last
ccs=gcc
command -v clang >/dev/null 2>&1 && ccs="gcc clang"
for cc in $ccs; do
	for v in 4 5; do
		f=$tmp/multi.$cc.dwarf$v
		"$cc" -g -gdwarf-$v -O2 -w -o "$f" "$src"/main.c "$src"/walk.c ||
			{ fail "build $f"; continue; }
		total=$(D2B_PAHOLE_STATS=1 "$OURS" -F btf,dwarf -C nonexistent_zz "$f" 2>&1 >/dev/null |
			sed -n 's/^d2b-stats: \([0-9]*\) .*(all)$/\1/p')
		[ -n "$total" ] && [ "$total" -ge 2 ] || { fail "$f: eager stats: '$total'"; continue; }
		s=$(stats "$f" main_only)
		case $s in
		"d2b-stats: 1 unit headers indexed (lazy, stopped early)") ;;
		*) fail "$f -C main_only (first unit): '$s'" ;;
		esac
		s=$(stats "$f" main_only -j2 --thread_bytes=0)
		n=${s#d2b-stats: }; n=${n%% *}
		[[ "$s" == *"(lazy, stopped early)" || "$n" == "$total" ]] && [ "$n" -le 2 ] ||
			fail "$f -j2 -C main_only: '$s' (of $total)"
		for name in walk_stats nonexistent_zz; do
			s=$(stats "$f" "$name")
			[ "$s" = "d2b-stats: $total unit headers indexed (all)" ] ||
				fail "$f -C $name (last unit or missing): '$s', want all $total"
		done
		for name in main_only walk_stats shared_node main_only,walk_stats \
			    walk_stats,main_only shared_node,shared_state nonexistent_zz \
			    main_only,nonexistent_zz; do
			same "$f" "$name" oracle
		done
	done
done

# Type units: lazy = eager = the build without type units. DWARF 5 puts
# them in .debug_info before each compile unit, so the first unit's
# references are not in the index the lazy run has then.
for v in 4 5; do
	f=$tmp/tu.dwarf$v
	gcc -g -gdwarf-$v -O0 -w -fdebug-types-section -o "$f.tu" "$src"/main.c "$src"/walk.c ||
		{ fail "build $f.tu"; continue; }
	gcc -g -gdwarf-$v -O0 -w -o "$f.plain" "$src"/main.c "$src"/walk.c ||
		{ fail "build $f.plain"; continue; }
	readelf --debug-dump=info "$f.tu" 2>/dev/null | grep -q 'signature: 0x' ||
		{ fail "$f.tu has no DW_FORM_ref_sig8 reference"; continue; }
	for name in main_only walk_stats shared_node shared_node,shared_state nonexistent_zz; do
		same "$f.tu" "$name"
		"$OURS" -C "$name" "$f.plain" >"$f.$name.plain" 2>&1
		"$OURS" -C "$name" "$f.tu" >"$f.$name.tu" 2>&1
		cmp -s "$f.$name.plain" "$f.$name.tu" ||
			{ fail "$f.tu -C $name differs from the build without type units"; diff -u "$f.$name.plain" "$f.$name.tu" | head -20; }
	done
done

# The kernel, when its corpus is cached (milliseconds: 2 units decoded)
if corpus=$(d2b_corpus) && [ -s "$corpus/vmlinux" ]; then
	vmlinux=$corpus/vmlinux
	s=$(stats "$vmlinux" task_struct)
	n=${s#d2b-stats: }; n=${n%% *}
	[[ "$s" == *"(lazy, stopped early)" ]] && [ "$n" -le 2 ] ||
		fail "vmlinux -C task_struct: '$s'"
	if [ -n "$ORACLE" ]; then
		for name in task_struct task_struct,list_head; do
			"$OURS" -C "$name" "$vmlinux" >"$tmp/k.$name" 2>&1
			"$OURS" -j2 -C "$name" "$vmlinux" >"$tmp/k2.$name" 2>&1
			"$ORACLE" -F dwarf -C "$name" "$vmlinux" >"$tmp/p.$name" 2>&1
			checked=$((checked + 1))
			cmp -s "$tmp/k.$name" "$tmp/p.$name" || fail "vmlinux -C $name differs from pahole 1.24"
			cmp -s "$tmp/k.$name" "$tmp/k2.$name" || fail "vmlinux -C $name: -j2 differs"
		done
	fi
fi

d2b_finish
