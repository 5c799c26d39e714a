#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# pahole over several files reads them as one list of units, as pahole 1.24
# loads them: a -C name printed from one file is not looked for in the next,
# a struct printed from one file is not printed again from the next (same
# name, size and members), -T counts the files that define each struct, a
# name no file has is reported once at the end, and --first_obj_only takes
# the first unit of each file. Three objects (gcc and clang, DWARF 4 and
# 5, -O0 and -O2): a.o and c.o define the same struct foo, b.o another
# struct foo (one more member); bonly.o is b.o with our .BTF and without its
# DWARF, which pahole reads as BTF when no -F is given (1.24 tries DWARF,
# then BTF). Each case's stdout, stderr and exit status
# are checked against values written here and, where pahole 1.24 is
# installed, byte for byte against it.
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd gcc clang objcopy
tmp=$(d2b_tmpdir)
PAHOLE="$D2B_BUILD/pahole"
ORACLE=$(command -v pahole)
[ -n "$ORACLE" ] && [ "$("$ORACLE" --version 2>/dev/null)" = v1.24 ] || ORACLE=

cat >"$tmp/a.c" <<'EOF'
struct foo { int a; long b; };
struct bar { char c; int d; };
struct foo fa;
struct bar ba;
EOF
cat >"$tmp/b.c" <<'EOF'
struct foo { int a; long b; char z; };
struct baz { short s; int t; };
struct foo fb;
struct baz bz;
EOF
cat >"$tmp/c.c" <<'EOF'
struct foo { int a; long b; };
struct qux { char q; long r; };
struct foo fc;
struct qux qc;
EOF

# The cases: pahole's arguments before the files, then the files.
cases=(
	"-C foo|a b"
	"-C foo|a c"
	"-C foo,baz|a b"
	"-C baz,foo|a b"
	"-C bar,baz|a b"
	"-C qux,foo|a c"
	"-C nope|a b"
	"-C foo,nope|a b c"
	"-C nope,foo|a b"
	"-C nope,baz --skip_missing|a b"
	"-C foo -u|a b c"
	"-C baz -u|a b"
	"-C foo --first_obj_only|a b"
	"--first_obj_only|a b"
	"-C foo,qux --first_obj_only|a c"
	"|a b c"
	"|a c"
	"-s|a b c"
	"-T|a b c"
	"-T|a c"
	"--sort|a c"
	"-C foo -i|a b"
	"-C foo -R|a b"
	"-P|a b c"
	"-C foo -x foo|a c"
	"|a bonly c"
	"-C baz|a bonly c"
	"-T|a bonly c"
)

# expect NAME FILE PATTERN COUNT: FILE has COUNT lines that match PATTERN
expect() {
	local n
	n=$(grep -c -- "$3" "$2")
	[ "$n" = "$4" ] || fail "$1: $n lines match '$3', expected $4"
}

for cc in gcc clang; do
	for v in 4 5; do
		for o in 0 2; do
			d=$tmp/$cc.$v.$o
			mkdir -p "$d"
			for f in a b c; do
				(cd "$tmp" && "$cc" -g -gdwarf-"$v" -O"$o" -c -o "$d/$f.o" "$f.c") ||
					{ fail "$cc -gdwarf-$v -O$o $f.c"; continue 2; }
			done
			cp "$d/b.o" "$d/b.btf.o" && "$D2B" encode -J "$d/b.btf.o" &&
				objcopy --strip-debug "$d/b.btf.o" "$d/bonly.o" ||
				{ fail "$cc -gdwarf-$v -O$o: cannot make a BTF-only object"; continue; }
			for c in "${cases[@]}"; do
				args=${c%%|*}
				files=()
				for f in ${c#*|}; do files+=("$d/$f.o"); done
				name="$cc -gdwarf-$v -O$o: pahole $args ${c#*|}"
				# shellcheck disable=SC2086 # the options are words
				"$PAHOLE" $args "${files[@]}" >"$d/out" 2>"$d/err"
				echo $? >"$d/rc"
				checked=$((checked + 1))
				[ "$(cat "$d/rc")" = 0 ] || fail "$name: exit $(cat "$d/rc")"
				case $c in
				"-C foo|a c")
					expect "$name" "$d/out" "^struct foo {" 1
					[ -s "$d/err" ] && fail "$name: stderr $(head -c 200 "$d/err")" ;;
				"-C foo,baz|a b")
					expect "$name" "$d/out" "size: 16, cachelines: 1, members: 2" 1
					expect "$name" "$d/out" "^struct baz {" 1
					expect "$name" "$d/out" "^struct foo {" 1
					[ -s "$d/err" ] && fail "$name: stderr $(head -c 200 "$d/err")" ;;
				"-C nope|a b")
					[ "$(cat "$d/err")" = "pahole: type 'nope' not found" ] ||
						fail "$name: stderr '$(head -c 200 "$d/err")'" ;;
				"-C foo,nope|a b c")
					expect "$name" "$d/out" "^struct foo {" 1
					[ "$(cat "$d/err")" = "pahole: type 'nope' not found" ] ||
						fail "$name: stderr '$(head -c 200 "$d/err")'" ;;
				"|a c")
					expect "$name" "$d/out" "^struct foo {" 1
					expect "$name" "$d/out" "^struct qux {" 1 ;;
				"-T|a b c")
					printf 'foo\t2\nbar\t1\nfoo\t1\nbaz\t1\nqux\t1\n' | cmp -s - "$d/out" ||
						fail "$name: $(tr '\n\t' '; ' <"$d/out")" ;;
				"--first_obj_only|a b")
					expect "$name" "$d/out" "^struct foo {" 2
					expect "$name" "$d/out" "^struct baz {" 1 ;;
				"-C baz|a bonly c")
					expect "$name" "$d/out" "^struct baz {" 1
					[ -s "$d/err" ] && fail "$name: stderr $(head -c 200 "$d/err")" ;;
				"-C foo -u|a b c")
					[ "$(cat "$d/out")" = a.c ] ||
						fail "$name: '$(head -c 200 "$d/out")'" ;;
				esac
				if [ -n "$ORACLE" ]; then
					checked=$((checked + 1))
					# shellcheck disable=SC2086
					(cd "$d" && "$ORACLE" $args "${files[@]}" >"$d/ref.out" 2>"$d/ref.err"
					 echo $? >"$d/ref.rc")
					if ! cmp -s "$d/out" "$d/ref.out" || ! cmp -s "$d/err" "$d/ref.err" ||
					   ! cmp -s "$d/rc" "$d/ref.rc"; then
						fail "$name: not what pahole 1.24 prints"
						diff "$d/ref.out" "$d/out" | head -10
						diff "$d/ref.err" "$d/err" | head -4
					fi
				fi
			done
		done
	done
done
d2b_finish
