#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The short-run paths of pahole -C (issue 4): the heap on a transparent huge
# page (main.c), the hand-formatted member lines (print/fmt.h) and the one
# write(2) of a unit's text. Checks:
#   - every struct, union and typedef of the C fixtures, with -C alone and
#     with --hex, -E, -r: the text is byte-identical with and without the
#     huge-page heap (D2B_NO_HUGEPAGE=1), and to Debian's pahole 1.24 for
#     plain -C and --hex where it is the oracle;
#   - a multi-name -C list and a missing name: the same (stderr too);
#   - with strace: a -C run writes its text in one write(2) to a pipe, asks
#     for MADV_HUGEPAGE where the kernel's THP mode is not "never", and
#     `pahole --version` does neither;
#   - D2B_PAHOLE_STATS=1 prints the phase line (open, decode, print, close);
#   - the kernel corpus, when cached: -C task_struct and -C sk_buff,page
#     equal pahole 1.24, with and without the huge-page heap; task_struct's
#     21 KB go out in one write(2).
. "$D2B_SRC/tests/lib.sh"
OURS="$D2B_BUILD/pahole"
[ -x "$OURS" ] || d2b_fail "no $OURS"
ORACLE=$(command -v pahole)
[ -n "$ORACLE" ] && [ "$("$ORACLE" --version 2>/dev/null)" = v1.24 ] || ORACLE=
tmp=$(d2b_tmpdir)
# A sanitizer build: its allocator is not glibc's (no huge-page heap) and
# LeakSanitizer does not run under ptrace: no strace checks there.
san=$(sed -n 's/^D2B_SANITIZE:[A-Z]*=//p' "$D2B_BUILD/CMakeCache.txt" 2>/dev/null | head -n 1)
can_trace() { command -v strace >/dev/null 2>&1 && [ -z "$san" ]; }

# same FILE OPTS...: ours with and without the huge-page heap, stdout and
# stderr; sets $b to the base name of the outputs, for more comparisons
same() {
	local f=$1
	b=$tmp/run.$checked
	shift
	"$OURS" "$@" "$f" >"$b.out" 2>"$b.err"
	D2B_NO_HUGEPAGE=1 "$OURS" "$@" "$f" >"$b.small.out" 2>"$b.small.err"
	checked=$((checked + 1))
	cmp -s "$b.out" "$b.small.out" || fail "$f $*: huge-page heap output differs"
	cmp -s "$b.err" "$b.small.err" || fail "$f $*: huge-page heap stderr differs"
}

# oracle FILE BASE OPTS...: pahole 1.24 printed what BASE.out holds. Not
# for `qualified` (qualifiers.c): its _Atomic members are P1 in
# docs/compat.md, a 1.24 bug we do not copy.
oracle() {
	local f=$1 b=$2
	shift 2
	[ -n "$ORACLE" ] || return 0
	case ",$*," in *[,\ ]qualified,*) return 0 ;; esac
	"$ORACLE" -F dwarf "$@" "$f" >"$b.pahole" 2>"$b.pahole.err"
	checked=$((checked + 1))
	cmp -s "$b.out" "$b.pahole" || { fail "$f $*: differs from pahole 1.24"; diff -u "$b.pahole" "$b.out" | head -20; }
}

fx=
for x in bitfields structs pahole_nested arrays enums qualifiers; do
	fx="$fx $(d2b_fixtures "$x")" || d2b_fail "fixtures"
done
for f in $fx; do
	# both compilers at -O2 DWARF 5, gcc at -O0 DWARF 4: a few seconds
	case $f in *.O2.dwarf5|*gcc.O0.dwarf4) ;; *) continue ;; esac
	# the structs and unions the listing prints
	names=$("$OURS" -s "$f" 2>/dev/null | cut -f1 | head -40)
	[ -n "$names" ] || fail "$f: no structs listed"
	i=0
	for n in $names; do
		same "$f" -C "$n"
		[ -s "$b.out" ] || fail "$f -C $n: no output"
		oracle "$f" "$b" -C "$n"
		same "$f" --hex -C "$n"
		oracle "$f" "$b" --hex -C "$n"
		i=$((i + 1))
		[ $i -le 6 ] || continue
		same "$f" -E -C "$n"
		same "$f" -r -C "$n"
	done
	list=$(echo $names | tr ' ' ',')
	same "$f" -C "$list"
	oracle "$f" "$b" -C "$list"
	same "$f" -C "no_such_type_zz"
	grep -q "type 'no_such_type_zz' not found" "$b.err" || fail "$f: a missing name is not reported"
done

# the phase line, for bench/ and docs
f=$(echo "$fx" | grep -m1 'structs.gcc.O2.dwarf5$')
if [ -n "$f" ]; then
	n=$("$OURS" -s "$f" | cut -f1 | head -1)
	line=$(D2B_PAHOLE_STATS=1 "$OURS" -C "$n" "$f" 2>&1 >/dev/null | grep '^d2b-times:')
	checked=$((checked + 1))
	[[ $line =~ ^d2b-times:\ open\ [0-9]+\ us\ \([0-9]+\ faults\),\ decode\ [0-9]+\ us\ \([0-9]+\),\ print\ [0-9]+\ us\ \([0-9]+\),\ close\ [0-9]+\ us ]] ||
		fail "D2B_PAHOLE_STATS: no phase line (got '$line')"
fi

# system calls: one write to a pipe, MADV_HUGEPAGE where THP can be had
if can_trace && [ -n "$f" ]; then
	n=$("$OURS" -s "$f" | cut -f1 | head -1)
	strace -f -o "$tmp/trace" -e trace=write,madvise "$OURS" -C "$n" "$f" | cat >/dev/null
	checked=$((checked + 1))
	w=$(grep -c '^[0-9]* *write(1,' "$tmp/trace")
	[ "$w" = 1 ] || fail "-C $n: $w writes to stdout, want 1"
	thp=$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
	if [ -n "$thp" ] && [[ $thp != *"[never]"* ]]; then
		checked=$((checked + 1))
		grep -q 'MADV_HUGEPAGE' "$tmp/trace" || fail "-C $n: the heap was not offered huge pages (THP: $thp)"
	fi
	strace -f -o "$tmp/trace.v" -e trace=madvise "$OURS" --version >/dev/null
	checked=$((checked + 1))
	! grep -q 'MADV_HUGEPAGE' "$tmp/trace.v" || fail "--version asked for huge pages"
fi

if corpus=$(d2b_corpus); then
	v=$corpus/vmlinux
	for n in task_struct sk_buff,page; do
		same "$v" -C "$n"
		oracle "$v" "$b" -C "$n"
	done
	# 21 KB of text: stdio wrote it in two pieces
	if can_trace; then
		strace -o "$tmp/trace.k" -e trace=write "$OURS" -C task_struct "$v" | cat >/dev/null
		checked=$((checked + 1))
		w=$(grep -c '^write(1,' "$tmp/trace.k")
		[ "$w" = 1 ] || fail "-C task_struct: $w writes to stdout, want 1"
	fi
fi
d2b_finish
