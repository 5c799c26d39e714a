#!/usr/bin/env bash
# pfunct -F btf: our listing of BTF equals pfunct 1.24's -F btf, on BTF that
# pahole 1.24 encodes from the C fixtures, both as a raw file
# (--btf_encode_detached) and as an ELF .BTF section (pahole -J on a copy).
# -p is the one deliberate difference (PF-BTF-NR-PARMS: 1.24 prints 0 for
# every BTF function; we print the prototype's count, as from DWARF).
# Also: -F lists ("btf,dwarf" = the first format the file has), and
# btf_decl_tag values printed the way pahole 1.31 prints them (-P).
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd pahole pfunct
tmp=$(d2b_tmpdir)
ours=$D2B_BUILD/pfunct
fx=$(d2b_fixtures) || d2b_fail "fixtures"

fails=0
checked=0
compare() { # FILE OPTS...: ours vs pfunct 1.24, -F btf
	local file=$1
	shift
	pfunct -F btf "$@" "$file" > "$tmp/want" 2>/dev/null
	local wrc=$?
	"$ours" -F btf "$@" "$file" > "$tmp/got" 2> "$tmp/err"
	local grc=$?
	if [ $wrc != $grc ] || ! cmp -s "$tmp/got" "$tmp/want"; then
		echo "FAIL: pfunct -F btf $* $file (rc $grc, 1.24 rc $wrc):" >&2
		head -3 "$tmp/err" >&2
		diff "$tmp/got" "$tmp/want" | head -10 >&2
		fails=$((fails + 1))
	fi
	checked=$((checked + 1))
}

for f in $fx; do
	case $f in
	*.o) continue ;;
	esac
	case $(basename "$f") in	# not the build path: it may say "cxx"
	*cxx*) continue ;;	# pahole 1.24 -J fails on C++ (DW_TAG_reference_type)
	*type_units*) continue ;;	# PF-TYPE-UNITS
	*btf_tags*) continue ;;	# 1.24 cannot read DECL_TAG/TYPE_TAG: below
	*.dwarf4) continue ;;	# the same BTF as DWARF 5's: keep the test short
	esac
	b=$tmp/$(basename "$f")
	pahole -J --btf_encode_detached="$b.btf" "$f" >/dev/null 2>&1 || continue
	cp "$f" "$b.elf" && pahole -J "$b.elf" >/dev/null 2>&1 || continue
	all_opts=("-P" "-V")
	case $f in
	*.gcc.O0.*) all_opts=("" "-P" "-P -l" "-V" "-E" "-N" "-s" "--no_parm_names -P") ;;
	esac
	for opts in "${all_opts[@]}"; do
		# shellcheck disable=SC2086
		compare "$b.btf" $opts
	done
	compare "$b.elf" -P
	# -f: the first function listed
	fn=$(pfunct -F btf "$b.btf" 2>/dev/null | tail -1)
	[ -n "$fn" ] && compare "$b.btf" -f "$fn"
	# -p: same names; the counts are the prototypes' (PF-BTF-NR-PARMS)
	pfunct -F btf -p "$b.btf" 2>/dev/null | cut -d: -f1 > "$tmp/want"
	"$ours" -F btf -p "$b.btf" | cut -d: -f1 > "$tmp/got"
	cmp -s "$tmp/got" "$tmp/want" || { echo "FAIL: -p names $b" >&2; fails=$((fails + 1)); }
	# -F lists: the first format the file has
	"$ours" -F dwarf -P "$f" > "$tmp/dwarf"
	"$ours" -F btf,dwarf -P "$f" > "$tmp/got"
	cmp -s "$tmp/got" "$tmp/dwarf" || { echo "FAIL: -F btf,dwarf on DWARF-only $f" >&2; fails=$((fails + 1)); }
	"$ours" -F dwarf,btf -P "$b.btf" > "$tmp/got"
	"$ours" -F btf -P "$b.btf" > "$tmp/want"
	cmp -s "$tmp/got" "$tmp/want" || { echo "FAIL: -F dwarf,btf on raw BTF $b" >&2; fails=$((fails + 1)); }
done
[ $checked -gt 40 ] || d2b_fail "only $checked comparisons ran"

# The counts themselves, on the functions fixture: sum_ints(int count, ...)
f=$(echo "$fx" | grep -m1 '/functions\.gcc\.O0\.dwarf5$')
pahole -J --btf_encode_detached="$tmp/fn.btf" "$f" >/dev/null 2>&1 || d2b_fail "pahole -J $f"
got=$("$ours" -F btf -p "$tmp/fn.btf" | grep '^sum_ints:')
[ "$got" = "sum_ints: 1" ] || d2b_fail "-p: got '$got', want 'sum_ints: 1'"

# No such format / no such section: pfunct's message, exit 1
if "$ours" -F btf "$f" > "$tmp/got" 2> "$tmp/err"; then
	d2b_fail "-F btf on a file without .BTF succeeded"
fi
grep -qx "pfunct: file '$f' has no btf type information." "$tmp/err" ||
	d2b_fail "-F btf without .BTF: $(cat "$tmp/err")"
if "$ours" -F foo "$f" 2> "$tmp/err"; then d2b_fail "-F foo succeeded"; fi
grep -qx "pfunct: file '$f' has no foo type information." "$tmp/err" ||
	d2b_fail "-F foo: $(cat "$tmp/err")"

# Decl tags (clang), as pahole 1.31 prints them: values before the
# prototype, a parameter's before the parameter. Type tags print the
# pointer's real type (compat P2 / PF-BTF-TYPE-TAG).
d2b_need_cmd clang
f=$(echo "$fx" | grep -m1 'btf_tags\.clang\.O0\.dwarf5$')
pahole -J --btf_encode_detached="$tmp/tags.btf" "$f" >/dev/null 2>&1 ||
	d2b_fail "pahole -J $f"
"$ours" -F btf -P "$tmp/tags.btf" > "$tmp/got" || d2b_fail "pfunct -P tags"
cat > "$tmp/want" <<'EOT'
int main(void);
a_func_tag int tagged_func(a_param_tag int x, char * buf);
EOT
diff -u "$tmp/want" "$tmp/got" >&2 || d2b_fail "decl tags"
"$ours" -F btf -P --no_parm_names "$tmp/tags.btf" | grep -qxF 'a_func_tag int tagged_func(a_param_tag int, char *);' ||
	d2b_fail "decl tags without parameter names"
# DWARF input prints no tags (1.24 and 1.31 alike)
"$ours" -P "$f" | grep -q 'a_func_tag' && d2b_fail "decl tag printed from DWARF"

# Floats (BTF_KIND_FLOAT, --btf_gen_floats): the type's name, as from the
# DWARF; pfunct 1.24 prints "single double" (PF-BTF-FLOAT).
cat > "$tmp/floats.c" <<'EOT'
double fl_scale(double x, float k, long double *acc) { *acc += x; return x * k; }
float fl_half(float f) { return f / 2; }
EOT
gcc -g -O2 -c -o "$tmp/floats.o" "$tmp/floats.c" || d2b_fail "gcc floats.c"
pahole -J --btf_gen_floats --btf_encode_detached="$tmp/floats.btf" "$tmp/floats.o" >/dev/null 2>&1 ||
	d2b_fail "pahole -J --btf_gen_floats floats.o"
"$ours" -F btf -P "$tmp/floats.btf" > "$tmp/got" || d2b_fail "pfunct -F btf -P floats"
cat > "$tmp/want" <<'EOT'
double fl_scale(double x, float k, long double * acc);
float fl_half(float f);
EOT
diff -u "$tmp/want" "$tmp/got" >&2 || d2b_fail "floats from BTF"
"$ours" -F dwarf -P "$tmp/floats.o" | diff -u - "$tmp/got" >&2 || d2b_fail "floats: BTF and DWARF differ"
pfunct -F btf -P "$tmp/floats.btf" 2>/dev/null | grep -q 'single double' ||
	echo "note: pfunct 1.24 no longer prints 'single double' (PF-BTF-FLOAT: update docs/compat-pfunct.md)"

[ $fails = 0 ] || d2b_fail "$fails of $checked comparisons differ"
echo "ok: $checked comparisons"
