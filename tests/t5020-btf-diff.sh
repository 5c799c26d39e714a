#!/usr/bin/env bash
# dwarf2btf btfdiff: equal on the same file, on an ELF .BTF vs the raw copy
# of that section, and on BTF of the same source in another type order;
# different (exit 1, one line per difference) on a fixture compiled twice
# with changes; exit 2 on usage errors and unreadable input. With the
# corpus: vmlinux's .BTF vs its raw dump, within seconds; a module with
# --base.
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd pahole objcopy gcc
tmp=$(d2b_tmpdir)
d2b=$D2B

expect_rc() { # RC CMD...: run CMD, check its exit status
	local want=$1
	shift
	"$@" > "$tmp/out" 2> "$tmp/err"
	local rc=$?
	[ $rc = "$want" ] || d2b_fail "$* exited $rc, want $want: $(head -3 "$tmp/out" "$tmp/err")"
}

cat > "$tmp/a.c" <<'EOF2'
struct inner { int x; };
struct foo { int a; long b; struct { int c; short d; } anon; unsigned flag:3; struct inner *in; };
enum color { RED, GREEN = 2 };
typedef struct foo foo_t;
foo_t g_foo; enum color g_color;
int func(struct foo *f, int n) { return f->a + n; }
int main(void) { return func(&g_foo, g_color); }
EOF2
sed -e 's/short d;/int d;/' -e 's/GREEN = 2/GREEN = 3/' -e 's/flag:3/flag:4/' \
    -e 's/int n)/long n)/' "$tmp/a.c" > "$tmp/b.c"
# Same content, types declared in another order.
{ echo 'enum color { RED, GREEN = 2 };'; grep -v '^enum color' "$tmp/a.c"; } > "$tmp/c.c"
for x in a b c; do
	gcc -g -c "$tmp/$x.c" -o "$tmp/$x.o" || d2b_fail "gcc $x"
	pahole -J --btf_encode_detached="$tmp/$x.btf" "$tmp/$x.o" || d2b_fail "pahole -J $x"
done
cp "$tmp/a.o" "$tmp/a.elf"
pahole -J "$tmp/a.elf" || d2b_fail "pahole -J a.elf"

expect_rc 0 "$d2b" btfdiff "$tmp/a.btf" "$tmp/a.btf"
grep -qx 'btfdiff: equal ([0-9]* entries)' "$tmp/out" || d2b_fail "summary: $(cat "$tmp/out")"
expect_rc 0 "$d2b" btfdiff "$tmp/a.elf" "$tmp/a.btf"
expect_rc 0 "$d2b" btfdiff "$tmp/a.btf" "$tmp/c.btf"
expect_rc 1 "$d2b" btfdiff "$tmp/a.btf" "$tmp/b.btf"
cat > "$tmp/want" <<'EOF2'
enum color: value GREEN: 2 vs 3
function func: prototype int (struct foo * f, int n) vs int (struct foo * f, long int n)
int short int: only in A
struct foo: member anon: type struct { size 8; c:int@0; d:short int@32; } vs struct { size 8; c:int@0; d:int@32; }
struct foo: member flag: bit-field size 3 vs 4
btfdiff: 5 differences (10 entries in A, 9 in B)
EOF2
diff -u "$tmp/want" "$tmp/out" >&2 || d2b_fail "differences"
expect_rc 1 "$d2b" btfdiff -q "$tmp/b.btf" "$tmp/a.btf"
[ "$(wc -l < "$tmp/out")" = 1 ] || d2b_fail "-q printed more than the summary"

# Usage and input errors: exit 2, one line on stderr for bad input
expect_rc 2 "$d2b" btfdiff "$tmp/a.btf"
expect_rc 2 "$d2b" btfdiff --nope "$tmp/a.btf" "$tmp/b.btf"
expect_rc 2 "$d2b" btfdiff "$tmp/a.btf" "$tmp/missing.btf"
[ "$(wc -l < "$tmp/err")" = 1 ] && grep -q 'missing.btf' "$tmp/err" || d2b_fail "missing file: $(cat "$tmp/err")"
expect_rc 2 "$d2b" btfdiff "$tmp/a.o" "$tmp/a.btf"	# an ELF without .BTF
grep -q "a.o: no .BTF section" "$tmp/err" || d2b_fail "no .BTF: $(cat "$tmp/err")"
expect_rc 0 "$d2b" btfdiff --help

corpus=$(d2b_corpus) || { echo "ok (no corpus)"; exit 0; }
v=$corpus/vmlinux
objcopy -O binary --only-section=.BTF "$v" "$tmp/vmlinux.btf" || d2b_fail "objcopy .BTF"
start=$(date +%s%N)
expect_rc 0 "$d2b" btfdiff "$v" "$tmp/vmlinux.btf"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "vmlinux .BTF vs raw: ${ms} ms"
[ $ms -lt 10000 ] || d2b_fail "btfdiff on vmlinux took ${ms} ms"
m=$corpus/modules/tcp_bbr.ko
if [ -f "$m" ]; then
	expect_rc 0 "$d2b" btfdiff --base="$v" "$m" "$m"
	expect_rc 2 "$d2b" btfdiff "$m" "$m"	# split BTF without its base
fi
echo ok
