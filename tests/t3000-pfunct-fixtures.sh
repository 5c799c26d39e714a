#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# pfunct: our output against Debian's pfunct 1.24 (/usr/bin/pfunct) on every
# fixture, byte for byte: the listing, -P, -l -P, --no_parm_names, -s, -V,
# -E, -H, -G, -p, -N, -S, -g; -c CLASS (and -V, -l) for every struct pahole
# lists; -a ADDR for every function symbol; --symtab;
# -f NAME for every listed name (C++ too, with the
# documented C++ differences excused line by line); -j1 = -j4; the front end's
# --help, --usage, --version and its errors. Every exception is one of the
# IDs of docs/compat-pfunct.md, and the test fails if the doc lacks it.
. "$D2B_SRC/tests/lib.sh"

ORACLE=/usr/bin/pfunct
PF=${D2B_PFUNCT:-$D2B_BUILD/pfunct}
DOC="$D2B_SRC/docs/compat-pfunct.md"
[ -x "$ORACLE" ] || d2b_skip "needs $ORACLE (Debian's dwarves 1.24)"
"$ORACLE" --version 2>/dev/null | grep -qx 'v1.24' || d2b_skip "$ORACLE is not 1.24"
[ -x "$PF" ] || d2b_fail "no $PF"

# known ID: the exception must be documented.
known() {
	grep -q "^| $1 |" "$DOC" || d2b_fail "exception $1 is not in docs/compat-pfunct.md"
}

fails=0
fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

tmp=$(d2b_tmpdir)
fx=$(d2b_fixtures) || d2b_fail "fixtures"

# oracle ARGS...: pfunct 1.24's stdout; a missing decl_line prints stack
# garbage there, we print 0 (PF-NULL-LINE): every "(null):N" line is
# compared as "(null):0", ours too (null_lines).
null_lines() {
	sed 's|(null):[0-9]* \*/$|(null):0 */|'
}
oracle() {
	"$ORACLE" "$@" 2>/dev/null | null_lines
}

# full NAME: whether this build of a fixture gets every mode (the others
# get the listing and -P, to keep the test short).
full() {
	case $1 in
	*.gcc.O2.dwarf5|*.gcc.O0.dwarf4|*.clang.O2.dwarf5|*.clang.O0.dwarf4|*.o) return 0 ;;
	esac
	return 1
}

# same ARGS...: compare ours with the oracle's. With cxx=1, only the
# differences tests/tools/pfunct_cxx_excuse.pl excuses (PF-RVALUE,
# PF-CXX-RET) may remain.
cxx=0
same() {
	local want="$tmp/want" got="$tmp/got"
	oracle "$@" >"$want"
	if ! "$PF" "$@" >"$got.raw" 2>"$tmp/err"; then
		fail "pfunct $* exited non-zero: $(head -1 "$tmp/err")"
		return
	fi
	null_lines <"$got.raw" >"$got"
	cmp -s "$want" "$got" && return
	if [ $cxx = 1 ]; then
		perl "$D2B_SRC/tests/tools/pfunct_cxx_excuse.pl" "$want" "$got" \
			>"$tmp/excuse" && return
		fail "pfunct $* (beyond PF-RVALUE and PF-CXX-RET)"
		head -6 "$tmp/excuse" >&2
		return
	fi
	fail "pfunct $*"
	diff -u "$want" "$got" | head -20 >&2
}

# addr_same ADDR FILE: pfunct -a ADDR, stdout and exit status.
addrs=0
addr_same() {
	local wrc=0 grc=0
	"$ORACLE" -a "$1" "$2" >"$tmp/want" 2>/dev/null || wrc=$?
	"$PF" -a "$1" "$2" >"$tmp/got" 2>"$tmp/err" || grc=$?
	addrs=$((addrs + 1))
	if [ $wrc != $grc ]; then
		fail "pfunct -a $1 $2: exit $grc, 1.24 $wrc: $(head -1 "$tmp/err")"
	elif ! cmp -s "$tmp/want" "$tmp/got" && { [ $cxx = 0 ] ||
		! perl "$D2B_SRC/tests/tools/pfunct_cxx_excuse.pl" "$tmp/want" "$tmp/got" >/dev/null; }; then
		fail "pfunct -a $1 $2"
		diff -u "$tmp/want" "$tmp/got" | head -6 >&2
	fi
}

known PF-NULL-LINE
known PF-RVALUE
known PF-CXX-RET
known PF-CXX-SPEC
known PF-CXX-EMIT
compared=0
compared_cxx=0
classes=0
for f in $fx; do
	name=$(basename "$f")
	cxx=0
	case $name in
	cxx_*type_units*|type_units*) known PF-TYPE-UNITS; continue ;;
	cxx_*|*_cxx.*) cxx=1; compared_cxx=$((compared_cxx + 1)) ;;
	esac
	if full "$name"; then
		modes=("" "-P" "--no_parm_names -P" "-s" "-V" "-E" "-H" "-G" "-p" "-N" "-l -P" "-S" "-g"
		       "-i" "-T -V" "-I" "-t" "-b" "--compile")
	else
		modes=("" "-P")
	fi
	case $name in
	cxx_stl.*)
		# Prototypes: the STL's type names are cut at 128 characters,
		# "&&" and all (PF-RVALUE cannot be undone), and g++'s
		# constructors without parameter DIEs take their declaration's
		# (PF-CXX-SPEC, -p too). The rest of the modes, in full.
		modes=("" "-s" "-E" "-H" "-G" "-N" "-S" "-g")
		;;
	esac
	case $name in
	btf_tags.clang.*)
		# pfunct 1.24 prints a btf_type_tag's value as the pointee.
		known PF-BTF-TYPE-TAG
		modes=("" "-s")
		;;
	esac
	for m in "${modes[@]}"; do
		# C++ types as -b prints them: PF-CXX-EMIT
		case $cxx/$m in 1/-b|1/--compile) continue ;; esac
		# shellcheck disable=SC2086
		same $m "$f"
	done
	compared=$((compared + 1))

	# -a ADDR: six function symbols' addresses and the bytes after them, on
	# two builds of each fixture and its objects; stdout and exit status
	# (1.24's stderr has its loader's warnings). An object's addresses are
	# as libdwfl lays its sections out, .text first at 0x10000.
	case $name in
	*.gcc.O2.dwarf5|*.clang.O0.dwarf4|*.o)
		base=0
		case $name in *.o) base=$((0x10000)) ;; esac
		case $name in
		cxx_stl.*) ;;
		*)
			for a in $("$PF" --symtab "$f" | awk '{print $3}' | sort -u | head -6); do
				for x in $((a + base)) $((a + base + 1)); do
					addr_same "$x" "$f"
				done
			done
			;;
		esac
		;;
	esac

	# -c CLASS for every struct pahole lists, and one that is not there;
	# the ELF symbol tables.
	if full "$name"; then
		same --symtab "$f"
		case $name in *.o) ;; *) same --symtab=.dynsym "$f" ;; esac
		while IFS= read -r s; do
			same -c "$s" "$f"
			same -c "$s" -V "$f"
			same -c "$s" -V -l --no_parm_names "$f"
			classes=$((classes + 1))
		done < <(pahole --sizes "$f" 2>/dev/null | cut -f1 | sort -u; echo no_such_struct)
	fi

	# -f NAME for every listed name, on two builds of each fixture.
	case $name in
	*.gcc.O2.dwarf5|*.clang.O0.dwarf4) ;;
	*) continue ;;
	esac
	case $name in btf_tags.clang.*) continue ;; esac
	# (a name per line: C++ names hold spaces, "operator delete")
	while IFS= read -r fn; do
		same -f "$fn" "$f"
	done < <(oracle "$f" | sort -u; echo no_such_function)
	same --function=main --no_parm_names "$f"
done
mf=$(printf '%s\n' $fx | grep '/pfunct_multi\.gcc\.O2\.dwarf5$')
[ $compared -ge 20 ] || fail "only $compared fixtures compared"
[ $compared_cxx -ge 40 ] || fail "only $compared_cxx C++ fixture builds compared"
[ $classes -ge 300 ] || fail "only $classes -c CLASS runs"
[ $addrs -ge 300 ] || fail "only $addrs -a ADDR runs"
echo "t3000: $compared builds, $classes -c runs, $addrs -a runs"
# -a: nothing there is pfunct's line on stderr and exit 1; what does not
# parse as a number is 0, and pfunct ignores it (the listing)
rc=0
"$PF" -a 0x1 "$mf" >"$tmp/o" 2>"$tmp/e" || rc=$?
[ $rc = 1 ] && [ ! -s "$tmp/o" ] && [ "$(cat "$tmp/e")" = "pfunct: No function found at 0x1!" ] ||
	fail "-a 0x1: exit $rc: $(cat "$tmp/e")"
cmp -s <("$PF" -a garbage "$mf") <("$PF" "$mf") || fail "-a garbage is not the listing"
# -c takes the struct's unit's functions with a pointer to it, -f wins
[ "$("$PF" -c foo "$mf" | tr '\n' ' ')" = "callme ext_fn callme stat_fn " ] ||
	fail "-c foo: $("$PF" -c foo "$mf" | tr '\n' ' ')"
[ -z "$("$PF" -c foo -f callme "$mf")" ] || fail "-c foo -f callme printed something"

# -j: the output does not depend on the thread count.
for f in $(printf '%s\n' $fx | grep -e '^.*/pfunct_multi\.' -e '^.*/multi_cu\.'); do
	for m in "" "-P" "-V" "-s"; do
		# shellcheck disable=SC2086
		"$PF" $m -j1 "$f" >"$tmp/j1" || fail "-j1 $m $f"
		# shellcheck disable=SC2086
		# (--thread_bytes=0: threads even for a file this small;
		# --jobs below runs with the default, one thread here)
		"$PF" $m -j4 --thread_bytes=0 "$f" >"$tmp/j4" || fail "-j4 $m $f"
		# shellcheck disable=SC2086
		"$PF" $m --jobs "$f" >"$tmp/jall" || fail "--jobs $m $f"
		cmp -s "$tmp/j1" "$tmp/j4" || fail "-j1 and -j4 differ: $m $f"
		cmp -s "$tmp/j1" "$tmp/jall" || fail "-j1 and --jobs differ: $m $f"
		[ -s "$tmp/j1" ] || fail "empty output: $m $f"
	done
done

# --thread_bytes (ours: threads for this much DWARF each) takes a byte count
for bad in x -1 12k ''; do
	rc=0
	"$PF" -j2 --thread_bytes="$bad" /proc/self/exe >"$tmp/o" 2>"$tmp/e" || rc=$?
	[ "$rc" != 0 ] && [ "$(wc -l <"$tmp/e")" = 1 ] &&
		grep -q "^pfunct: invalid --thread_bytes value '$bad'" "$tmp/e" ||
		fail "--thread_bytes='$bad': exit $rc: $(cat "$tmp/e")"
done

# --symtab: a table that is not there, or a section that is no symbol
# table, is one line and exit 1 (1.24: exit 1 silently, or garbage for a
# section of another type: PF-SYMTAB).
known PF-SYMTAB
for sec in .nosuch .text; do
	rc=0
	"$PF" --symtab=$sec "$mf" >"$tmp/o" 2>"$tmp/e" || rc=$?
	[ $rc = 1 ] && [ ! -s "$tmp/o" ] && [ "$(wc -l <"$tmp/e")" = 1 ] &&
		grep -q "^pfunct: $mf: " "$tmp/e" ||
		fail "--symtab=$sec: exit $rc: $(cat "$tmp/e")"
done
# two files: one listing after the other
"$PF" --symtab "$mf" "$mf" >"$tmp/two" || fail "--symtab FILE FILE"
[ "$(wc -l <"$tmp/two")" = $(($("$PF" --symtab "$mf" | wc -l) * 2)) ] ||
	fail "--symtab FILE FILE: $(wc -l <"$tmp/two") lines"
grep -qE '^[0-9 ]+: main +0x[0-9a-f]+ +[0-9]+$' "$tmp/two" || fail "--symtab: no main"

# 'dwarf2btf pfunct' is the same command.
one=$(printf '%s\n' $fx | grep '/pfunct_multi\.gcc\.O2\.dwarf5$')
[ -n "$one" ] || fail "no pfunct_multi fixture"
"$D2B" pfunct -P "$one" >"$tmp/a" && "$PF" -P "$one" >"$tmp/b" &&
	cmp -s "$tmp/a" "$tmp/b" || fail "dwarf2btf pfunct differs from pfunct"
# It lists what we know is there.
grep -qx 'int stat_fn(int n, struct foo \* b);' "$tmp/b" || fail "no clone of stat_fn"
[ "$(grep -c '^int helper(' "$tmp/b")" = 2 ] || fail "static helper not listed twice"

# Front end texts.
# --version is ours, as pahole's (docs/compat.md, "pahole --version").
[ "$("$PF" --version 2>&1)" = "v1.27" ] || fail "pfunct --version: $("$PF" --version 2>&1)"
for opt in --help --usage -?; do
	"$ORACLE" "$opt" >"$tmp/want" 2>&1
	"$PF" "$opt" >"$tmp/got" 2>&1
	cmp -s "$tmp/want" "$tmp/got" || { fail "pfunct $opt"; diff -u "$tmp/want" "$tmp/got" | head >&2; }
done
# Bad options: argp's message and status 64.
for args in "-A $one" "--no-such-option $one" "-f"; do
	# shellcheck disable=SC2086
	"$ORACLE" $args >/dev/null 2>"$tmp/want.raw"; want_rc=$?
	sed "s|^$ORACLE:|pfunct:|" "$tmp/want.raw" >"$tmp/want"
	# shellcheck disable=SC2086
	"$PF" $args >/dev/null 2>"$tmp/got"; got_rc=$?
	[ $want_rc = $got_rc ] || fail "pfunct $args: exit $got_rc, want $want_rc"
	cmp -s "$tmp/want" "$tmp/got" || { fail "pfunct $args: stderr"; diff -u "$tmp/want" "$tmp/got" >&2; }
done
# No file at all.
"$PF" >/dev/null 2>"$tmp/got"; rc=$?
[ $rc = 1 ] || fail "no FILE: exit $rc"
grep -qx "Try \`pfunct --help' or \`pfunct --usage' for more information." "$tmp/got" || fail "no FILE: message"
# A file that is not there, or has no DWARF: one line, exit 1
# (pfunct 1.24 differs: PF-BAD-FILE).
known PF-BAD-FILE
for bad in "$tmp/does-not-exist" "$DOC"; do
	"$PF" "$bad" >"$tmp/out" 2>"$tmp/err"; rc=$?
	[ $rc = 1 ] || fail "pfunct $bad: exit $rc"
	[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q '^pfunct: ' "$tmp/err" ||
		fail "pfunct $bad: stderr: $(cat "$tmp/err")"
	[ -s "$tmp/out" ] && fail "pfunct $bad: wrote to stdout"
done
# -F without dwarf.
"$PF" -F btf "$one" >/dev/null 2>"$tmp/err" && fail "-F btf accepted"
grep -q "has no btf type information" "$tmp/err" || fail "-F btf: $(cat "$tmp/err")"
"$PF" -F btf,dwarf -P "$one" >"$tmp/got" || fail "-F btf,dwarf"
cmp -s "$tmp/got" "$tmp/b" || fail "-F btf,dwarf output"

[ $fails = 0 ] || d2b_fail "$fails check(s) failed"
exit 0
