#!/usr/bin/env bash
# Prepare .devbench/ (git-ignored) for a scaling run on the 16-core device
# machine, where nothing can be fetched or installed (docs/performance.md,
# "Scaling on more cores"):
#   dwarf2btf        a fully static build (-DD2B_STATIC=ON), so it needs no
#                    library there
#   pahole, lib/     Debian's pahole 1.24 and the shared objects it loads
#   vmlinux.min.xz   the corpus vmlinux with its debug sections only, less
#                    what -J does not read (.rela.debug_*, .debug_line,
#                    .debug_frame, .debug_aranges): 253 MB, 58 MB as xz, so
#                    that it fits the 64 MiB a device call may carry. Our BTF
#                    of it is byte-identical to that of the whole vmlinux.
# Then, in one device call (carry [".devbench"], timeout ~480 s; the
# seventeenth session's run, without --windows, took 267 s of a 297 s lease):
#   cd .devbench && python3 -c "import lzma, shutil; shutil.copyfileobj(lzma.open('vmlinux.min.xz'), open('vmlinux.min', 'wb'))" &&
#   { grep -m1 'model name' /proc/cpuinfo; nproc; uname -r; } | tee $OUT/machine.txt;
#   PYTHONUNBUFFERED=1 python3 ../bench/device/scaling.py --runs 5 --jobs "1 2 3 4 6 8 12 16" --pahole ./pahole --libs ./lib --print --windows "0 16 32" --out $OUT/scaling.md ./dwarf2btf vmlinux.min 2>&1 | tee $OUT/log
set -euo pipefail
cd "$(dirname "$0")/../.."

out=.devbench
corpus=$(bench/fetch-corpus.sh)
mkdir -p "$out/lib"

cmake -S . -B build-static -DCMAKE_BUILD_TYPE=RelWithDebInfo -DD2B_STATIC=ON >/dev/null
cmake --build build-static -j"$(nproc)" --target dwarf2btf >/dev/null
strip -o "$out/dwarf2btf" build-static/dwarf2btf

pahole=$(command -v pahole)
cp -L "$pahole" "$out/pahole"
ldd "$pahole" | awk '$3 ~ /^\// { print $3 }' | grep -Ev '/(libc|libm|libpthread|libdl|ld-linux[^/]*)\.so' |
	while read -r lib; do cp -L "$lib" "$out/lib/"; done

if [ ! -s "$out/vmlinux.min.xz" ]; then
	objcopy --only-keep-debug --remove-section='.rela.debug_*' --remove-section=.debug_line \
		--remove-section=.debug_frame --remove-section=.debug_aranges \
		"$corpus/vmlinux" "$out/vmlinux.min"
	xz -T"$(nproc)" -6 -f "$out/vmlinux.min"
fi
du -sh "$out"
echo "pack: ready; the device command is in the header of $0"
