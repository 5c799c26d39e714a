#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# pahole --version and the kernel build: the kernel turns `pahole --version`
# into a number (scripts/pahole-version.sh: "v1.27" -> 127) and picks its
# BTF flags by it. Here the version we print goes through the same two
# steps, and every command line the kernel would then run is run on a
# fixture (and, with the corpus, on a module with --btf_base vmlinux): each
# must succeed and write BTF that bpftool accepts.
#
# The flag tables below follow the kernel's scripts (docs/compat.md,
# "pahole --version"):
#   6.1-6.7  scripts/pahole-flags.sh: >= 1.21 --btf_gen_floats, >= 1.22 -j,
#            >= 1.25 --skip_encoding_btf_inconsistent_proto
#            --btf_gen_optimized; --lang_exclude=rust
#            (CONFIG_PAHOLE_HAS_LANG_EXCLUDE, >= 1.24)
#   6.8+     scripts/Makefile.btf: >= 1.26 -j$(JOBS) --btf_features=
#            encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,
#            consistent_func,decl_tag_kfuncs; >= 1.28 out-of-tree modules add
#            --btf_features=distilled_base; >= 1.30 --btf_features=attributes
#   vmlinux: pahole -J FLAGS vmlinux (newer: also --btf_encode_detached=F);
#   modules: pahole -J FLAGS [MODULE_FLAGS] --btf_base vmlinux M.ko
# So a version bump that makes the kernel pass a flag we lack fails here.
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd bpftool objcopy
P="$D2B_BUILD/pahole"
tmp=$(d2b_tmpdir)
fails=0
fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

ver=$("$P" --version) || d2b_fail "pahole --version failed"
[ "$ver" = v1.27 ] || fail "pahole --version: '$ver', want v1.27 (docs/compat.md)"
[ "$("$D2B_BUILD/pfunct" --version)" = "$ver" ] || fail "pfunct --version differs from pahole's"
# scripts/pahole-version.sh
pver=$(printf '%s\n' "$ver" | sed -E 's/v([0-9]+)\.([0-9]+)/\1\2/')
case $pver in [0-9][0-9][0-9]) ;; *) d2b_fail "pahole-version.sh would read '$pver'" ;; esac
[ "$pver" -ge 124 ] || fail "version $pver: the kernel would not pass --lang_exclude"

flags_61() {	# scripts/pahole-flags.sh of 6.1-6.7
	local f=""
	[ "$pver" -ge 121 ] && f="$f --btf_gen_floats"
	[ "$pver" -ge 122 ] && f="$f -j"
	[ "$pver" -ge 125 ] && f="$f --skip_encoding_btf_inconsistent_proto --btf_gen_optimized"
	echo "$f --lang_exclude=rust"
}
flags_68() {	# scripts/Makefile.btf of 6.8 on; $1: the JOBS value
	local f=""
	if [ "$pver" -le 125 ]; then
		flags_61
		return
	fi
	f="-j$1 --btf_features=encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,consistent_func,decl_tag_kfuncs"
	[ "$pver" -ge 130 ] && f="$f --btf_features=attributes"
	echo "$f --lang_exclude=rust"
}
module_flags_68() {	# MODULE_PAHOLE_FLAGS for an out-of-tree module
	[ "$pver" -ge 128 ] && echo "--btf_features=distilled_base"
}
# The kernel passes --btf_features=attributes from 1.30 on: a feature we
# do not have (and that non-strict mode would silently ignore).
"$P" --supported_btf_features | tr ',' '\n' | grep -qx attributes ||
	[ "$pver" -lt 130 ] || fail "version $pver: the kernel passes --btf_features=attributes, which we lack"

# run NAME FILE ARGS...: pahole ARGS on a copy of FILE; the copy must then
# hold a .BTF (or the --btf_encode_detached file exist) that bpftool
# accepts, with vmlinux's .BTF as base for a --btf_base module.
run() {
	local name=$1 file=$2
	local -a base=()
	shift 2
	cp "$file" "$tmp/$name" || d2b_fail "cp $file"
	if ! (cd "$tmp" && LLVM_OBJCOPY=objcopy "$P" "$@" "$name") >"$tmp/$name.log" 2>&1; then
		fail "$name: pahole $* failed: $(head -1 "$tmp/$name.log")"
		return 1
	fi
	local a out=
	for a in "$@"; do
		case $a in --btf_encode_detached=*) out=$tmp/${a#*=} ;; esac
	done
	if [ -n "$out" ]; then
		# upstream's rule: with a detached file the ELF is left alone
		cmp -s "$file" "$tmp/$name" || fail "$name: the ELF changed with --btf_encode_detached"
		cp "$out" "$tmp/$name.btf" 2>/dev/null
	else
		rm -f "$tmp/$name.btf"
		objcopy --dump-section .BTF="$tmp/$name.btf" "$tmp/$name" "$tmp/discard" 2>/dev/null
	fi
	[ -s "$tmp/$name.btf" ] || { fail "$name: no BTF written by pahole $*"; return 1; }
	[ -f "$tmp/vmlinux.btf" ] && case " $* " in *" --btf_base "*) base=(-B "$tmp/vmlinux.btf") ;; esac
	bpftool "${base[@]}" btf dump file "$tmp/$name.btf" >"$tmp/$name.dump" 2>&1 ||
		{ fail "$name: bpftool rejects the BTF of pahole $*"; return 1; }
	echo "ok: pahole $* $name"
}

fx=$(d2b_fixtures 'btf_kfunc') || d2b_fail "fixtures"
kf=$(printf '%s\n' $fx | grep '/btf_kfunc\.gcc\.O2\.dwarf5$')
[ -n "$kf" ] || d2b_fail "no btf_kfunc fixture"

# shellcheck disable=SC2046
run v61 "$kf" -J $(flags_61)
# shellcheck disable=SC2046
run v68 "$kf" -J $(flags_68 "")
# shellcheck disable=SC2046
run v68j2 "$kf" -J $(flags_68 2) --btf_encode_detached=v68j2.detached
# with >= 1.26 the kernel asks for decl_tag_kfuncs: the kfunc must be tagged
if [ "$pver" -ge 126 ]; then
	grep -q "DECL_TAG 'bpf_kfunc'" "$tmp/v68.dump" || fail "decl_tag_kfuncs: no bpf_kfunc tag"
fi

if corpus=$(d2b_corpus); then
	objcopy --dump-section .BTF="$tmp/vmlinux.btf" "$corpus/vmlinux" "$tmp/discard" ||
		d2b_fail "cannot extract vmlinux's .BTF"
	ko=$corpus/modules/tcp_bbr.ko
	# shellcheck disable=SC2046
	run m61.ko "$ko" -J $(flags_61) --btf_base "$corpus/vmlinux"
	# shellcheck disable=SC2046
	run m68.ko "$ko" -J $(flags_68 2) --btf_base "$corpus/vmlinux"
	# shellcheck disable=SC2046
	run ext.ko "$ko" -J $(flags_68 2) $(module_flags_68) --btf_base "$corpus/vmlinux"
else
	echo "note: no corpus, modules not checked"
fi

# Why not 1.28: distilled_base needs libbpf's btf__distill_base (1.5); ours
# must refuse it with one clear line, never write a wrong BTF.
cp "$kf" "$tmp/dist"
if "$P" -J --btf_features=distilled_base "$tmp/dist" >"$tmp/dist.log" 2>&1; then
	echo "note: this libbpf supports distilled_base; pahole could say v1.28"
else
	if [ "$(wc -l <"$tmp/dist.log")" != 1 ] || ! grep -q 'distilled_base' "$tmp/dist.log"; then
		cat "$tmp/dist.log" >&2
		fail "distilled_base: not one clear line"
	fi
	cmp -s "$kf" "$tmp/dist" || fail "distilled_base: the input was changed"
fi
[ "$fails" = 0 ] || d2b_fail "$fails failures"
echo "ok: pahole $ver ($pver)"
