#!/usr/bin/env bash
# Benchmark BTF encoding (-J) of the kernel corpus: dwarf2btf against pahole 1.24.
#
#   bench/encode.sh [-n RUNS] [-b BUILD_DIR] [-j "1 2"]
#
#   REF_PAHOLE  pahole to compare with (default /usr/bin/pahole)
#   REF_D2B     an older dwarf2btf to compare with too (optional), e.g. a
#               build of the previous commit
#
# Each run encodes vmlinux with `pahole -J --btf_gen_floats -jN
# --btf_encode_detached=OUT` and `dwarf2btf encode --btf_gen_floats --stats
# -jN --btf_encode_detached=OUT`, alternated, under /usr/bin/time. Prints a
# table of medians (wall, CPU = user + sys, peak RSS; ratios to pahole, of
# the medians and "paired": the median of each run's ratio) and
# the medians of our --stats phases. Checks that our outputs are identical
# across runs and -j (and to REF_D2B's, when given).
set -euo pipefail
cd "$(dirname "$0")/.."

runs=6
build=build
jobs="1 2"
while getopts "n:b:j:" o; do
	case $o in
	n) runs=$OPTARG ;;
	b) build=$OPTARG ;;
	j) jobs=$OPTARG ;;
	*) exit 2 ;;
	esac
done
# with REF_D2B, ours and REF_D2B take turns right after pahole (below): an
# odd count gave one of them that place once more, and the run there pays
# for the memory pahole just gave back (on the project's VM 0.1-0.2 s of
# system time), enough to move a median
if [ -n "${REF_D2B:-}" ] && ((runs % 2)); then
	echo "bench: with REF_D2B, -n must be even (each build right after pahole as often)" >&2
	exit 2
fi

corpus=$(bench/fetch-corpus.sh)
vmlinux=$corpus/vmlinux
d2b=$build/dwarf2btf
[ -x "$d2b" ] || { echo "bench: build first ($d2b missing)" >&2; exit 1; }
ref_pahole=${REF_PAHOLE:-/usr/bin/pahole}
ref_d2b=${REF_D2B:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# measure NAME CMD...: one run, appends "wall cpu rss_kb" to $tmp/NAME, keeps
# stderr in $tmp/NAME.err.N
measure() {
	local name=$1 n
	shift
	n=0
	[ -f "$tmp/$name" ] && n=$(wc -l < "$tmp/$name")
	/usr/bin/time -f "%e %U %S %M" -o "$tmp/t" "$@" > /dev/null 2> "$tmp/$name.err.$n" ||
		{ echo "bench: '$*' failed:" >&2; cat "$tmp/$name.err.$n" >&2; exit 1; }
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$tmp/t" >> "$tmp/$name"
}

median() { # FILE COLUMN
	sort -n -k"$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'
}

# paired A B: the median over the runs of A's wall time over B's in the same
# run (line by line: measured minutes apart, so the machine's drift over
# the benchmark cancels out of each ratio)
paired() {
	paste -d' ' "$1" "$2" | awk '{ print $1 / $4 }' > "$tmp/paired"
	median "$tmp/paired" 1
}

same() { # FILE FILE
	cmp -s "$1" "$2" || { echo "bench: $1 and $2 differ" >&2; exit 1; }
}

for ((i = 0; i < runs; i++)); do
	# the floor: decode every DIE once, skip every attribute, one core
	measure floor "$d2b" walk "$vmlinux"
	# and as it was measured until the tenth session: through the mapping
	measure floor_mapped "$d2b" walk --mapped "$vmlinux"
	for j in $jobs; do
		measure "pahole$j" "$ref_pahole" -J --btf_gen_floats -j"$j" \
			--btf_encode_detached="$tmp/pahole$j.btf" "$vmlinux"
		# REF_D2B first in every other run: the run right after pahole
		# pays for the memory pahole just gave back (on the project's VM
		# its page faults cost more), and that must not fall on one side
		if [ -n "$ref_d2b" ] && ((i % 2)); then
			measure "ref$j" "$ref_d2b" encode --stats --btf_gen_floats -j"$j" \
				--btf_encode_detached="$tmp/ref$j.btf" "$vmlinux"
		fi
		measure "ours$j" "$d2b" encode --stats --btf_gen_floats -j"$j" \
			--btf_encode_detached="$tmp/ours$j.$i.btf" "$vmlinux"
		same "$tmp/ours${jobs%% *}.0.btf" "$tmp/ours$j.$i.btf"
		if [ -n "$ref_d2b" ] && ! ((i % 2)); then
			measure "ref$j" "$ref_d2b" encode --stats --btf_gen_floats -j"$j" \
				--btf_encode_detached="$tmp/ref$j.btf" "$vmlinux"
		fi
		[ -z "$ref_d2b" ] || same "$tmp/ours$j.$i.btf" "$tmp/ref$j.btf"
	done
done

# phase FILE-PREFIX AWK-PROGRAM: median over the runs' --stats of one number
phase() {
	local f
	for f in "$1".err.*; do awk "$2" "$f"; done > "$tmp/phase"
	median "$tmp/phase" 1
}

echo "# $(date -u +%Y-%m-%d) $(nproc) CPUs, $(free -g | awk '/Mem:/ { print $2 }') GiB," \
	"load $(cut -d' ' -f1-3 /proc/loadavg); corpus $(cat "$corpus/package"); medians of $runs runs"
echo
echo "| command | wall s | CPU s | peak RSS MiB | wall / pahole | paired | RSS / pahole |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for j in $jobs; do
	pw=$(median "$tmp/pahole$j" 1); pr=$(median "$tmp/pahole$j" 3)
	printf '| pahole 1.24 -J -j%s | %.2f | %.2f | %d | | | |\n' "$j" "$pw" \
		"$(median "$tmp/pahole$j" 2)" $((pr / 1024))
	for who in ref ours; do
		[ -s "$tmp/$who$j" ] || continue
		w=$(median "$tmp/$who$j" 1); r=$(median "$tmp/$who$j" 3)
		printf '| %s -j%s | %.2f | %.2f | %d | %.3f | %.3f | %.3f |\n' \
			"$([ $who = ours ] && echo "dwarf2btf encode" || echo "REF_D2B encode")" "$j" \
			"$w" "$(median "$tmp/$who$j" 2)" $((r / 1024)) \
			"$(echo "$w $pw" | awk '{ print $1 / $2 }')" \
			"$(paired "$tmp/$who$j" "$tmp/pahole$j")" \
			"$(echo "$r $pr" | awk '{ print $1 / $2 }')"
	done
done
fc=$(median "$tmp/floor" 2)
printf '| floor: dwarf2btf walk -j1 | %.2f | %.2f | %d | | | |\n' "$(median "$tmp/floor" 1)" "$fc" \
	$(($(median "$tmp/floor" 3) / 1024))
printf '| floor through the mapping: walk --mapped | %.2f | %.2f | %d | | | |\n' \
	"$(median "$tmp/floor_mapped" 1)" "$(median "$tmp/floor_mapped" 2)" \
	$(($(median "$tmp/floor_mapped" 3) / 1024))
echo
echo "| phase (--stats, seconds) | $(for j in $jobs; do for who in ref ours; do
	[ -s "$tmp/$who$j" ] && printf '%s -j%s | ' "$who" "$j"; done; done)"
echo "| --- | $(for j in $jobs; do for who in ref ours; do
	[ -s "$tmp/$who$j" ] && printf -- '--- | '; done; done)"
# num REGEX: the first number after REGEX on a --stats line
num() { printf 'match($0, /%s [0-9.]+/) { s = substr($0, RSTART, RLENGTH); sub(/.* /, "", s); print s }' "$1"; }
for p in "decode+encode wall" "decode+encode worker CPU" merge "merge after the pool" \
	"types dropped in merge" \
	functions dedup "types into dedup" write "peak RSS KiB after decode+encode" \
	"peak RSS KiB after merge" "peak RSS KiB after dedup"; do
	case $p in
	"decode+encode wall") prog=$(num 'decode\+encode') ;;
	"decode+encode worker CPU") prog='match($0, /wall, [0-9.]+s worker CPU/) { s = substr($0, RSTART + 6, RLENGTH); sub(/s.*/, "", s); print s }' ;;
	merge) prog=$(num 'stats: merge') ;;
	"merge after the pool") prog=$(num 'after the pool') ;;
	"types dropped in merge") prog='match($0, /\([0-9]+ repeated/) { print substr($0, RSTART + 1, RLENGTH - 10) }' ;;
	functions) prog=$(num ', functions') ;;
	dedup) prog=$(num 'stats: dedup') ;;
	"types into dedup") prog='match($0, /[0-9]+ -> [0-9]+ types/) { s = substr($0, RSTART, RLENGTH); sub(/ .*/, "", s); print s }' ;;
	write) prog=$(num ', write') ;;
	"peak RSS KiB after decode+encode") prog=$(num 'peak RSS') ;;
	"peak RSS KiB after merge") prog='match($0, /, [0-9]+ after merge/) { s = substr($0, RSTART + 2, RLENGTH); sub(/ .*/, "", s); print s }' ;;
	"peak RSS KiB after dedup") prog='match($0, /, [0-9]+ after dedup/) { s = substr($0, RSTART + 2, RLENGTH); sub(/ .*/, "", s); print s }' ;;
	esac
	printf '| %s | ' "$p"
	for j in $jobs; do
		for who in ref ours; do
			[ -s "$tmp/$who$j" ] || continue
			printf '%s | ' "$(phase "$tmp/$who$j" "$prog")"
		done
	done
	echo
done
echo
for j in $jobs; do
	w=$(phase "$tmp/ours$j" 'match($0, /wall, [0-9.]+s worker CPU/) { s = substr($0, RSTART + 6, RLENGTH); sub(/s.*/, "", s); print s }')
	# and paired: each run's worker CPU over the floor measured just before it
	for ((i = 0; i < runs; i++)); do
		awk 'match($0, /wall, [0-9.]+s worker CPU/) { s = substr($0, RSTART + 6, RLENGTH); sub(/s.*/, "", s); print s }' \
			"$tmp/ours$j.err.$i"
	done > "$tmp/workers"
	printf 'decode + encode worker CPU / floor CPU at -j%s: %.2f (paired: %.2f)\n' "$j" \
		"$(echo "$w $fc" | awk '{ print $1 / $2 }')" \
		"$(paste -d' ' "$tmp/workers" "$tmp/floor" | awk '{ print $1 / $3 }' > "$tmp/paired" &&
		   median "$tmp/paired" 1)"
done
