#!/usr/bin/env bash
# Every input checked in under fuzz/regressions/HARNESS/ (each once crashed
# the harness: see fuzz/README.md) runs through its harness and must not
# crash, trip a sanitizer or hang.
#
# In a fuzz build (D2B_BUILD/fuzz/HARNESS exists) the libFuzzer binaries run
# them. In any other build the harness is compiled with fuzz/replay_main.c
# (a plain main()) by the build's own compiler and sanitizer flags, against
# the build's libd2b.a, so the ASan+UBSan suite replays them too.
. "$D2B_SRC/tests/lib.sh"
tmp=$(d2b_tmpdir)
cache="$D2B_BUILD/CMakeCache.txt"
[ -f "$cache" ] || d2b_skip "no CMakeCache.txt in $D2B_BUILD"
[ -f "$D2B_BUILD/libd2b.a" ] || d2b_skip "no libd2b.a in $D2B_BUILD"
cachevar() { sed -n "s/^$1:[A-Z]*=//p" "$cache" | head -n 1; }
cc=$(cachevar CMAKE_C_COMPILER)
san=$(cachevar D2B_SANITIZE)
[ -n "$cc" ] && command -v "$cc" >/dev/null || d2b_skip "compiler '$cc' missing"
d2b_need_cmd pkg-config

# The fixed input of fuzz_cli, built as fuzz/CMakeLists.txt builds it.
export D2B_FUZZ_CLI_INPUT="$tmp/cli-input.o"
cc -g -O0 -gdwarf-5 -fno-eliminate-unused-debug-types -c \
	"$D2B_SRC/tests/fixtures/structs.c" -o "$D2B_FUZZ_CLI_INPUT" ||
	d2b_fail "cannot build the fuzz_cli input"

flags=(-std=gnu11 -g -O1 -I"$D2B_SRC/src")
case $san in
address) flags+=(-fsanitize=address,undefined -fno-sanitize-recover=undefined) ;;
thread) flags+=(-fsanitize=thread) ;;
esac
# shellcheck disable=SC2207
libs=($(pkg-config --libs libelf zlib libzstd libbpf) -pthread)

harness_bin() {	# HARNESS: print the binary that replays its inputs
	local h=$1 extra=()
	if [ -x "$D2B_BUILD/fuzz/$h" ]; then
		echo "$D2B_BUILD/fuzz/$h"
		return
	fi
	if [ "$h" = fuzz_cli ]; then
		# every front end source but main.c
		for f in "$D2B_SRC"/src/cli/*.c; do
			[ "$(basename "$f")" = main.c ] || extra+=("$f")
		done
		extra+=(-DD2B_VERSION="\"test\"" -DD2B_FUZZ_CLI_INPUT="\"$D2B_FUZZ_CLI_INPUT\"")
	fi
	if [ "$h" = fuzz_encode_base ]; then
		# its fixed module, built as fuzz/CMakeLists.txt builds it
		cc -g -O2 -gdwarf-5 -w -fno-eliminate-unused-debug-types \
			"$D2B_SRC"/tests/fixtures/btf_funcs/*.c -o "$tmp/btf-funcs-O2" >&2 ||
			return 1
		extra+=(-DD2B_FUZZ_BASE_MODULE="\"$tmp/btf-funcs-O2\"")
	fi
	"$cc" "${flags[@]}" "$D2B_SRC/fuzz/$h.c" "$D2B_SRC/fuzz/replay_main.c" \
		"${extra[@]}" "$D2B_BUILD/libd2b.a" "${libs[@]}" -o "$tmp/$h" >&2 ||
		return 1
	echo "$tmp/$h"
}

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
total=0
for dir in "$D2B_SRC"/fuzz/regressions/*/; do
	h=$(basename "$dir")
	shopt -s nullglob
	inputs=("$dir"*)
	shopt -u nullglob
	[ ${#inputs[@]} -gt 0 ] || continue
	bin=$(harness_bin "$h") || d2b_fail "cannot build the $h replay"
	rc=0
	if [[ $bin == "$D2B_BUILD/fuzz/"* ]]; then
		timeout 120 "$bin" -error_exitcode=1 -timeout_exitcode=1 -timeout=20 \
			-close_fd_mask=2 "${inputs[@]}" > "$tmp/$h.log" 2>&1 || rc=$?
	else
		(cd "$tmp" && timeout 120 "$bin" "${inputs[@]}") \
			> "$tmp/$h.log" 2>&1 || rc=$?
	fi
	if [ $rc != 0 ]; then
		grep -E 'replay:|Running|ERROR|runtime error|SUMMARY' "$tmp/$h.log" | tail -8 >&2
		d2b_fail "$h: an input of fuzz/regressions/$h crashed (exit $rc)"
	fi
	total=$((total + ${#inputs[@]}))
done
[ $total -gt 0 ] || d2b_fail "no regression inputs found under fuzz/regressions"
echo "fuzz regressions: $total inputs ok"
