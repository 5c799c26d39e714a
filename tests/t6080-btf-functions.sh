#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Upstream pahole's btf_functions idea (tests/btf_functions.sh in dwarves):
# every FUNC our encoder wrote must be a function the DWARF really defines,
# with that definition's prototype, and no function the encoder reported as
# skipped (--verbose) may appear as a FUNC. Run on every fixture build (the
# planted cases of t6020 included) and on the corpus vmlinux.
#
# For each FILE, encoded with --btf_features=default --lang_exclude=rust as
# upstream's test does:
#   1. `pfunct -F btf -P --no_parm_names` of our BTF, decl tag values (from
#      bpftool's DECL_TAG list: bpf_kfunc, bpf_fastcall, clang btf_decl_tag
#      strings) removed where they precede a prototype or a parameter; it
#      must print one line per FUNC of bpftool's dump.
#   2. Each line must be found among `pfunct -F dwarf -P --no_parm_names`
#      of FILE, upstream's way: exactly, or as "inline LINE", or, with every
#      "const " dropped and blanks squeezed, equal (upstream's const-
#      insensitive match: one DWARF instance may have const parameters and
#      another not).
#   3. pfunct 1.24 (the oracle our pfunct copies) prints an external
#      function once, from its first DIE, which may be a declaration in a
#      caller's unit (e.g. __cookie_v6_check's "u32" in include/net/tcp.h
#      against "__u32" in its definition), so a line not found in step 2 is
#      looked up among ALL definitions of that name: `llvm-dwarfdump
#      --name=NAME --show-children`, every DW_TAG_subprogram without
#      DW_AT_declaration (an out-of-line or abstract inline definition),
#      prototype rebuilt from its DW_AT_type and its direct
#      DW_TAG_formal_parameter / DW_TAG_unspecified_parameters children.
#      Both sides are compared as tokens with "const", "struct", "union",
#      "enum" and "inline" dropped (llvm-dwarfdump writes "const tcphdr *"
#      where pahole writes "const struct tcphdr  *"); an asm unit's
#      unspecified return type reads as void. Still not found: failure.
#   4. No name in the encoder's "NAME : skipping BTF encoding of function"
#      lines is a FUNC of bpftool's dump.
# The matcher is itself checked on a doctored list (a wrong prototype and a
# skipped name planted), so the test cannot pass by matching everything.
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd bpftool llvm-dwarfdump
PFUNCT="$D2B_BUILD/pfunct"
[ -x "$PFUNCT" ] || d2b_fail "no $PFUNCT"
tmp=$(d2b_tmpdir)
fails=0
fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

# Token form of a prototype line (stdin, one a line) for step 3.
cat >"$tmp/norm.awk" <<'EOF'
{
	s = $0
	sub(/;$/, "", s)
	gsub(/[*(),]/, " & ", s)
	n = split(s, t, /[ \t]+/)
	out = ""
	for (i = 1; i <= n; i++) {
		if (t[i] == "" || t[i] == "const" || t[i] == "struct" || t[i] == "union" ||
		    t[i] == "enum" || t[i] == "inline")
			continue
		out = out (out == "" ? "" : " ") t[i]
	}
	print out
}
EOF
# Prototypes of every definition in llvm-dwarfdump --name --show-children
# output (step 3), one a line, in pahole's spelling before normalising.
cat >"$tmp/defs.awk" <<'EOF'
function flush(  i, s) {
	if (sub_open && !decl && name != "") {
		s = ret " " name "("
		for (i = 1; i <= nargs; i++)
			s = s (i > 1 ? ", " : "") args[i]
		if (nargs == 0)
			s = s "void"
		print s ");"
	}
	sub_open = 0
}
function quoted(line,  a, b) {
	a = index(line, "\"")
	b = line
	sub(/"\)$/, "", b)
	return a ? substr(b, a + 1) : ""
}
/^0x[0-9a-f]+: +DW_TAG_/ {
	depth = index($0, "DW_TAG_") - index($0, ":")
	where = 0
	if (depth == 2) {
		flush()
		if ($2 == "DW_TAG_subprogram") {
			sub_open = 1; decl = 0; name = ""; ret = "void"; nargs = 0
			where = 1
		}
	} else if (depth == 4 && sub_open) {
		if ($2 == "DW_TAG_formal_parameter") {
			args[++nargs] = "void"
			where = 2
		} else if ($2 == "DW_TAG_unspecified_parameters") {
			args[++nargs] = "..."
		}
	}
	next
}
where == 1 && $1 == "DW_AT_name" { name = quoted($0); next }
where == 1 && $1 == "DW_AT_declaration" { decl = 1; next }
where == 1 && $1 == "DW_AT_type" { t = quoted($0); ret = t == "" ? "void" : t; next }
where == 2 && $1 == "DW_AT_type" { args[nargs] = quoted($0); next }
END { flush() }
EOF
# Step 2: FILE 1 the DWARF lines, FILE 2 the BTF lines. Prints the lines not
# found, then "counts EXACT INLINE CONST".
cat >"$tmp/match.awk" <<'EOF'
function loose(s) { gsub(/const /, "", s); gsub(/[ \t]+/, " ", s); return s }
FNR == NR { dw[$0] = 1; dl[loose($0)] = 1; next }
{
	if ($0 in dw) exact++
	else if (("inline " $0) in dw) inl++
	else if (loose($0) in dl || ("inline " loose($0)) in dl) nc++
	else print
}
END { printf "counts %d %d %d\n", exact, inl, nc }
EOF

# check_funcs FILE DIR: steps 1-4 on the prepared DIR/{btf.funcs,
# dwarf.funcs,funcs,skipped}; prints "exact inline const bydef skipped".
check_funcs() {
	local file=$1 d=$2 names
	awk -f "$tmp/match.awk" "$d/dwarf.funcs" "$d/btf.funcs" >"$d/m1" || return 1
	grep -v '^counts ' "$d/m1" >"$d/unmatched" || true
	: >"$d/bad"
	local bydef=0
	if [ -s "$d/unmatched" ]; then
		# the name: the token before the first "("
		sed 's/(.*//; s/.*[ *]//' "$d/unmatched" | sort -u >"$d/unames"
		names=()
		while read -r n; do names+=("--name=$n"); done <"$d/unames"
		llvm-dwarfdump "${names[@]}" --show-children "$file" 2>/dev/null |
			awk -f "$tmp/defs.awk" | awk -f "$tmp/norm.awk" | sort -u >"$d/defs" ||
			{ echo "llvm-dwarfdump failed on $file" >"$d/bad"; return 1; }
		while IFS= read -r line; do
			if printf '%s\n' "$line" | awk -f "$tmp/norm.awk" | grep -qxF -f - "$d/defs"; then
				bydef=$((bydef + 1))
			else
				echo "BTF '$line' is no DWARF definition's prototype" >>"$d/bad"
			fi
		done <"$d/unmatched"
	fi
	sed -n 's/^\([^ ]*\) : skipping BTF encoding of function due to .*/\1/p' "$d/skipped" |
		LC_ALL=C sort -u >"$d/skipped.names"
	LC_ALL=C sort -u "$d/funcs" | LC_ALL=C comm -12 - "$d/skipped.names" |
		sed "s/.*/skipped function '&' is a FUNC/" >>"$d/bad"
	read -r _ ex inl nc < <(grep '^counts ' "$d/m1")
	echo "$ex $inl $nc $bydef $(wc -l <"$d/skipped.names")"
	[ ! -s "$d/bad" ]
}

# prepare FILE DIR [ENCODER OPTIONS...]: encode FILE and list what
# check_funcs reads. Returns 1 (failure counted) when anything fails.
prepare() {
	local file=$1 d=$2
	shift 2
	mkdir -p "$d"
	"$D2B_BUILD/pahole" "$@" --btf_features=default --lang_exclude=rust --verbose \
		--btf_encode_detached="$d/out.btf" "$file" >"$d/skipped" 2>&1 ||
		{ fail "encoding $file: $(grep -v 'skipping BTF' "$d/skipped" | head -1)"; return 1; }
	bpftool btf dump file "$d/out.btf" >"$d/dump" 2>&1 || { fail "bpftool rejects the BTF of $file"; return 1; }
	sed -n "s/^\[[0-9]*\] FUNC '\([^']*\)' .*/\1/p" "$d/dump" | sort >"$d/funcs"
	# decl tag values, as sed patterns that drop them before a type
	local alt
	alt=$(sed -n "s/^\[[0-9]*\] DECL_TAG '\([^']*\)' .*/\1/p" "$d/dump" | sort -u |
		sed 's/[]\/$*.^[]/\\&/g' | paste -sd '|' | sed 's/|/\\|/g')
	if [ -n "$alt" ]; then
		printf ':a\ns/\\(^\\|(\\|, \\)\\(%s\\)  */\\1/\nta\n' "$alt" >"$d/tags.sed"
	else
		: >"$d/tags.sed"
	fi
	"$PFUNCT" -F btf -P --no_parm_names "$d/out.btf" >"$d/btf.raw" 2>&1 ||
		{ fail "pfunct -F btf on the BTF of $file"; return 1; }
	sed -f "$d/tags.sed" "$d/btf.raw" | sort -u >"$d/btf.funcs"
	local nf np
	nf=$(wc -l <"$d/funcs")
	np=$(wc -l <"$d/btf.raw")
	[ "$nf" = "$np" ] || { fail "$file: $nf FUNCs in bpftool's dump, $np prototypes from pfunct -F btf"; return 1; }
	"$PFUNCT" -F dwarf -P --no_parm_names "$@" "$file" 2>/dev/null | sort -u >"$d/dwarf.funcs"
	[ -s "$d/dwarf.funcs" ] || [ "$nf" = 0 ] || { fail "$file: pfunct -F dwarf printed nothing"; return 1; }
	return 0
}

fx=$(d2b_fixtures) || d2b_fail "fixtures"
files=0 tot_ex=0 tot_in=0 tot_nc=0 tot_def=0 tot_skip=0 tot_funcs=0
for f in $fx; do
	d=$tmp/$(basename "$f")
	prepare "$f" "$d" || continue
	files=$((files + 1))
	if counts=$(check_funcs "$f" "$d"); then
		read -r ex inl nc def sk <<<"$counts"
		tot_ex=$((tot_ex + ex)) tot_in=$((tot_in + inl)) tot_nc=$((tot_nc + nc))
		tot_def=$((tot_def + def)) tot_skip=$((tot_skip + sk))
		tot_funcs=$((tot_funcs + $(wc -l <"$d/funcs")))
	else
		fail "$f:"
		head -5 "$d/bad" >&2
	fi
done
[ "$files" -gt 150 ] || fail "only $files fixture builds encoded"
# The planted skips of t6020 really are checked here.
grep -qx 'dup_addr : skipping BTF encoding of function due to ambiguous address' \
	"$tmp/btf_funcs.gcc.O2.dwarf5/skipped" || fail "btf_funcs.gcc.O2.dwarf5: dup_addr not reported skipped"
echo "fixtures: $files builds, $tot_funcs FUNCs: $tot_ex exact, $tot_in inline, $tot_nc const-insensitive, $tot_def by another definition; $tot_skip skipped functions absent"

# The matcher must reject what it should: a wrong prototype and a skipped
# name planted in a copy of one fixture's lists.
d=$tmp/btf_funcs.gcc.O2.dwarf5
[ -s "$d/btf.funcs" ] || d2b_fail "no btf_funcs.gcc.O2.dwarf5 lists"
cp -r "$d" "$tmp/doctored"
echo 'long int plain_func(struct shared *, int);' >>"$tmp/doctored/btf.funcs"
echo 'dup_addr' >>"$tmp/doctored/funcs"
if check_funcs "$D2B_BUILD/fixtures/btf_funcs.gcc.O2.dwarf5" "$tmp/doctored" >/dev/null; then
	fail "the matcher accepted a planted wrong prototype and a planted skipped FUNC"
else
	grep -q "plain_func" "$tmp/doctored/bad" || fail "the matcher missed the planted wrong prototype"
	grep -q "dup_addr" "$tmp/doctored/bad" || fail "the matcher missed the planted skipped FUNC"
fi

if corpus=$(d2b_corpus); then
	d=$tmp/vmlinux
	if ! prepare "$corpus/vmlinux" "$d" -j2; then
		:
	elif counts=$(check_funcs "$corpus/vmlinux" "$d"); then
		read -r ex inl nc def sk <<<"$counts"
		echo "vmlinux: $(wc -l <"$d/funcs") FUNCs: $ex exact, $inl inline, $nc const-insensitive, $def by another definition; $sk skipped functions absent"
		[ "$ex" -gt 30000 ] || fail "vmlinux: only $ex exact matches"
	else
		fail "vmlinux: $(wc -l <"$d/bad") functions"
		head -20 "$d/bad" >&2
	fi
else
	echo "note: no corpus, vmlinux not checked"
fi
[ "$fails" = 0 ] || d2b_fail "$fails failures"
echo ok
