#!/usr/bin/env bash
# Fetch the kernel-scale corpus: a Debian cloud kernel's vmlinux (DWARF 5, with the
# .BTF Debian's build shipped), three modules (modules/), and every module of the
# package (all-modules/, ~1,100 files, 1.2 GB: tests/t6091 and bench.sh
# all-modules), from the Debian package linux-image-<ver>-cloud-amd64-dbg. Only
# what we need is extracted, into a cache outside the repository. Prints the
# cache directory on stdout.
#
#   D2B_CORPUS_DIR   cache directory (default: $XDG_CACHE_HOME/dwarf2btf or ~/.cache/dwarf2btf)
#   D2B_KERNEL_PKG   package name (default: newest linux-image-6.1.*-cloud-amd64-dbg)
#   D2B_ALL_MODULES=0  do not extract all-modules/
set -euo pipefail

cache=${D2B_CORPUS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/dwarf2btf}
mkdir -p "$cache"
want_all=${D2B_ALL_MODULES:-1}
# (.no-all-modules: the package could not be had again for an older cache;
# not retried on every call: remove it to try again)
have_all() {
	[ "$want_all" = 0 ] || [ -f "$cache/.complete-all-modules" ] ||
		[ -f "$cache/.no-all-modules" ]
}
if [ -s "$cache/vmlinux" ] && [ -f "$cache/.complete" ] && have_all; then
	echo "$cache"
	exit 0
fi

# keep_all_modules KDIR: the extracted modules below KDIR become
# all-modules/ (by their path under the package's kernel/: fs/nfs/nfs.ko),
# complete only if there are some (an extraction cut short fails later, by
# tar's status)
keep_all_modules() {
	local kdir=$1
	[ -n "$(find "$kdir" -name '*.ko' -print -quit 2>/dev/null)" ] ||
		{ echo "fetch-corpus: no modules extracted" >&2; return 1; }
	rm -rf "$cache/all-modules"
	mv "$kdir" "$cache/all-modules"
	touch "$cache/.complete-all-modules"
}

# extract_all_modules DEB VER WORK: every module of the package
extract_all_modules() {
	local deb=$1 ver=$2 work=$3
	dpkg-deb --fsys-tarfile "$deb" |
		tar -x -C "$work" --wildcards "./usr/lib/debug/lib/modules/$ver/kernel/*.ko" &&
		keep_all_modules "$work/usr/lib/debug/lib/modules/$ver/kernel"
}

if [ -s "$cache/vmlinux" ] && [ -f "$cache/.complete" ]; then
	# a cache from before all-modules/: the same package's modules
	pkg=$(cat "$cache/package")
	work=$(mktemp -d "$cache/.fetch.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	if (cd "$work" && apt-get download "$pkg" >&2); then
		ver=${pkg#linux-image-}; ver=${ver%-dbg}
		extract_all_modules "$(ls "$work"/*.deb)" "$ver" "$work"
	else
		echo "fetch-corpus: cannot download $pkg again: no all-modules/ (not retried: remove $cache/.no-all-modules)" >&2
		touch "$cache/.no-all-modules"
	fi
	echo "$cache"
	exit 0
fi

pkg=${D2B_KERNEL_PKG:-}
if [ -z "$pkg" ]; then
	pkg=$(apt-cache search --names-only '^linux-image-6\.1\.[0-9.-]+-cloud-amd64-dbg$' |
		awk '{print $1}' | sort -V | tail -n 1)
	if [ -z "$pkg" ]; then
		apt-get update -qq >&2
		pkg=$(apt-cache search --names-only '^linux-image-6\.1\.[0-9.-]+-cloud-amd64-dbg$' |
			awk '{print $1}' | sort -V | tail -n 1)
	fi
fi
[ -n "$pkg" ] || { echo "fetch-corpus: no linux-image-6.1.*-cloud-amd64-dbg package found" >&2; exit 1; }

work=$(mktemp -d "$cache/.fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download "$pkg" >&2)
deb=$(ls "$work"/*.deb)
ver=${pkg#linux-image-}; ver=${ver%-dbg}

# Stream the data member once and keep vmlinux, three modules and (unless
# D2B_ALL_MODULES=0) every module.
mods="net/ipv4/tcp_bbr.ko fs/nfs/nfs.ko drivers/net/virtio_net.ko"
kdir=./usr/lib/debug/lib/modules/$ver/kernel
pats=("./usr/lib/debug/boot/vmlinux-$ver")
if [ "$want_all" = 0 ]; then
	for m in $mods; do pats+=("$kdir/$m"); done
else
	pats+=("$kdir/*.ko")
fi
# (with the three modules named: one this kernel lacks is tar's error, and
# what is missing is checked below; with every module, any error is one)
if [ "$want_all" = 0 ]; then
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work" --wildcards "${pats[@]}" 2>/dev/null || true
else
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work" --wildcards "${pats[@]}"
fi
mv "$work/usr/lib/debug/boot/vmlinux-$ver" "$cache/vmlinux"
mkdir -p "$cache/modules"
for m in $mods; do
	f="$work/$kdir/$m"
	[ -f "$f" ] && cp "$f" "$cache/modules/$(basename "$m")"
done
if [ "$want_all" != 0 ]; then
	keep_all_modules "$work/$kdir"
fi
echo "$pkg" > "$cache/package"
touch "$cache/.complete"
echo "$cache"
