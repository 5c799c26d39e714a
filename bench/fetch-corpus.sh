#!/usr/bin/env bash
# Fetch the kernel-scale corpus: a Debian cloud kernel's vmlinux (DWARF 5, with the
# .BTF Debian's build shipped) and a few modules, from the Debian package
# linux-image-<ver>-cloud-amd64-dbg. Only what we need is extracted, into a cache
# outside the repository. Prints the cache directory on stdout.
#
#   D2B_CORPUS_DIR   cache directory (default: $XDG_CACHE_HOME/dwarf2btf or ~/.cache/dwarf2btf)
#   D2B_KERNEL_PKG   package name (default: newest linux-image-6.1.*-cloud-amd64-dbg)
set -euo pipefail

cache=${D2B_CORPUS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/dwarf2btf}
mkdir -p "$cache"
if [ -s "$cache/vmlinux" ] && [ -f "$cache/.complete" ]; then
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

# Stream the data member and keep only vmlinux and three modules.
mods="net/ipv4/tcp_bbr.ko fs/nfs/nfs.ko drivers/net/virtio_net.ko"
pats="./usr/lib/debug/boot/vmlinux-$ver"
for m in $mods; do pats="$pats ./usr/lib/debug/lib/modules/$ver/kernel/$m"; done
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work" --wildcards $pats 2>/dev/null || true
mv "$work/usr/lib/debug/boot/vmlinux-$ver" "$cache/vmlinux"
mkdir -p "$cache/modules"
for m in $mods; do
	f="$work/usr/lib/debug/lib/modules/$ver/kernel/$m"
	[ -f "$f" ] && mv "$f" "$cache/modules/$(basename "$m")"
done
echo "$pkg" > "$cache/package"
touch "$cache/.complete"
echo "$cache"
