#!/usr/bin/env bash
# Kernel scale, BTF: our pfunct -F btf on the .BTF the Debian vmlinux ships
# equals pfunct 1.24's (listing, -P, -l -P), whose outputs are cached beside
# the corpus; a module's split BTF loads on its vmlinux base (--btf_base)
# and lists its own functions first (pfunct prints newest first).
. "$D2B_SRC/tests/lib.sh"
corpus=$(d2b_corpus) || d2b_skip "no kernel corpus (D2B_CORPUS=1 fetches it)"
d2b_need_cmd pfunct
tmp=$(d2b_tmpdir)
ours=$D2B_BUILD/pfunct
ver=$(pfunct --version)
refdir=$corpus/ref
mkdir -p "$refdir"
v=$corpus/vmlinux

ref() { # OPTS...: path of pfunct 1.24's cached -F btf output on vmlinux
	local tag
	tag=$(printf '%s' "$*" | tr -c 'A-Za-z0-9_-' '_')
	d2b_cached_ref "$refdir/vmlinux.pfunct-$ver-btf.$tag.txt" 600 pfunct -F btf "$@" "$v" ||
		d2b_fail "pfunct 1.24 -F btf $*"
}

fails=0
for opts in "" "-P" "-l -P"; do
	# shellcheck disable=SC2086
	want=$(ref $opts)
	# shellcheck disable=SC2086
	if ! "$ours" -F btf $opts "$v" > "$tmp/got" 2> "$tmp/err"; then
		echo "FAIL: pfunct -F btf $opts: $(head -1 "$tmp/err")" >&2
		fails=$((fails + 1))
	elif ! cmp -s "$tmp/got" "$want"; then
		echo "FAIL: pfunct -F btf $opts vmlinux differs from 1.24:" >&2
		diff "$tmp/got" "$want" | head -10 >&2
		fails=$((fails + 1))
	fi
done
n=$(wc -l < "$(ref)")
[ "$n" -gt 40000 ] || d2b_fail "only $n functions in the vmlinux BTF listing"

# A module: split BTF on vmlinux.
m=$corpus/modules/tcp_bbr.ko
if [ -f "$m" ]; then
	"$ours" -F btf --btf_base="$v" "$m" > "$tmp/mod" 2> "$tmp/err" ||
		d2b_fail "split BTF: $(cat "$tmp/err")"
	head -1 "$tmp/mod" | grep -q '^bbr_' || d2b_fail "module functions first: $(head -1 "$tmp/mod")"
	[ "$(wc -l < "$tmp/mod")" -gt "$n" ] || d2b_fail "split listing lacks the base"
	# and without its base: one line, exit 1
	if "$ours" -F btf "$m" > /dev/null 2> "$tmp/err"; then
		d2b_fail "split BTF without base accepted"
	fi
	[ "$(wc -l < "$tmp/err")" = 1 ] || d2b_fail "not one line: $(cat "$tmp/err")"
fi
[ $fails = 0 ] || d2b_fail "$fails differences"
echo ok
