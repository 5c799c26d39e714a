#!/usr/bin/env bash
# Benchmark dwarf2btf against the installed pahole on the kernel corpus.
#
#   bench/bench.sh [-n RUNS] [-b BUILD_DIR] [WORKLOAD...]
#
# Workloads (default: all):
#   floor        dwarf2btf walk (decode every DIE, skip attributes; one core)
#   load         decode every CU into the model, no output: ours -j1, -j2
#   pahole       `pahole vmlinux > /dev/null`: ours -j1, -j2 vs pahole 1.24
#   pahole-C     `pahole -C task_struct vmlinux`: ours vs pahole 1.24 (100
#                runs a measurement: each takes a few ms)
#   pahole-sysfs `pahole task_struct`: the running kernel's BTF
#                (/sys/kernel/btf/vmlinux), as a BPF developer looks at it:
#                ours vs pahole 1.24 (20 runs a measurement; skipped, with a
#                note, where that file cannot be read)
#   pfunct       `pfunct -F dwarf vmlinux`: ours -j1, -j2 (pfunct 1.24 takes
#                ~10 minutes: not rerun; docs/performance.md has its time)
#   pfunct-btf   `pfunct -F btf vmlinux` (its .BTF): ours vs pfunct 1.24
#   modules      split BTF of each corpus module on the vmlinux's .BTF, as the
#                kernel build runs it for every module (`pahole -J
#                --btf_gen_floats -j --lang_exclude=rust --btf_base vmlinux`,
#                detached): ours vs pahole 1.24 (10 runs a measurement)
#   all-modules  the same for every module of the package (~1,100; the
#                corpus's all-modules/): the kernel build's module step. A
#                run is one pass over them all, each module by ours and by
#                pahole 1.24 in turn; wall and CPU are the sums, peak RSS
#                the largest
# Each command runs RUNS times (default 3), ours and pahole alternated, under
# /usr/bin/time; the table shows medians of wall time, CPU time (user+sys) and
# peak RSS, and the ratio ours/pahole where both ran.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=3
build=build
while getopts "n:b:" o; do
	case $o in
	n) runs=$OPTARG ;;
	b) build=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
workloads=${*:-floor load pahole pahole-C pahole-sysfs pfunct pfunct-btf modules}

corpus=$(bench/fetch-corpus.sh)
vmlinux=$corpus/vmlinux
d2b=$build/dwarf2btf
[ -x "$d2b" ] || { echo "bench: build first ($d2b missing)" >&2; exit 1; }
ref_pahole=${REF_PAHOLE:-/usr/bin/pahole}
ref_pfunct=${REF_PFUNCT:-/usr/bin/pfunct}
modules="tcp_bbr virtio_net nfs"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# measure NAME CMD...: one run, appends "wall cpu rss_kb" to $tmp/NAME
measure() {
	local name=$1
	shift
	/usr/bin/time -f "%e %U %S %M" -o "$tmp/t" "$@" > /dev/null 2> "$tmp/err" ||
		{ echo "bench: '$*' failed:" >&2; cat "$tmp/err" >&2; exit 1; }
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$tmp/t" >> "$tmp/$name"
}

# measure_rep NAME REPS CMD...: REPS runs, each started by posix_spawn (a
# vfork: a run of a few ms is below /usr/bin/time's resolution, and a shell
# loop's fork of itself, ~1 ms a run on this VM, would be timed with each),
# appends the mean wall and CPU time of one run and the peak RSS of one
# more run under /usr/bin/time (a vfork child's peak RSS counts its parent's
# pages before the exec)
measure_rep() {
	local name=$1 reps=$2 t
	shift 2
	t=$(python3 - "$reps" "$@" 2> "$tmp/err" <<-'PY'
		import os, sys, time
		reps, argv = int(sys.argv[1]), sys.argv[2:]
		null = os.open(os.devnull, os.O_WRONLY)
		fa = [(os.POSIX_SPAWN_DUP2, null, 1)]
		cpu, t0 = 0.0, time.perf_counter()
		for _ in range(reps):
		    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=fa)
		    _, status, ru = os.wait4(pid, 0)
		    if os.waitstatus_to_exitcode(status):
		        sys.exit("exit status %d" % os.waitstatus_to_exitcode(status))
		    cpu += ru.ru_utime + ru.ru_stime
		print("%.6f %.6f" % ((time.perf_counter() - t0) / reps, cpu / reps))
	PY
	) && /usr/bin/time -f "%M" -o "$tmp/t" "$@" > /dev/null 2>> "$tmp/err" ||
		{ echo "bench: '$*' failed:" >&2; cat "$tmp/err" >&2; exit 1; }
	echo "$t $(cat "$tmp/t")" >> "$tmp/$name"
}

median() { # FILE COLUMN
	sort -n -k"$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'
}

# the printf format of seconds S: two decimals, or milliseconds' four
fmt() {
	awk -v s="$1" 'BEGIN { print (s < 0.1 ? "%.5f" : "%.2f") }'
}

rows=()
row() { # LABEL NAME [REF_NAME]
	local w c r
	w=$(median "$tmp/$2" 1); c=$(median "$tmp/$2" 2); r=$(median "$tmp/$2" 3)
	if [ -n "${3:-}" ]; then
		local rw rr
		rw=$(median "$tmp/$3" 1); rr=$(median "$tmp/$3" 3)
		rows+=("$(printf "| %s | $(fmt "$w") | $(fmt "$c") | %d | %.3f | %.3f |" "$1" "$w" "$c" $((r / 1024)) \
			"$(echo "$w $rw" | awk '{ print $1 / $2 }')" "$(echo "$r $rr" | awk '{ print $1 / $2 }')")")
	else
		rows+=("$(printf "| %s | $(fmt "$w") | $(fmt "$c") | %d | | |" "$1" "$w" "$c" $((r / 1024)))")
	fi
}

for ((i = 0; i < runs; i++)); do
	for w in $workloads; do
		case $w in
		floor)
			measure floor "$d2b" walk "$vmlinux" ;;
		load)
			measure load1 "$d2b" load -j1 "$vmlinux"
			measure load2 "$d2b" load -j2 "$vmlinux" ;;
		pahole)
			measure ref_pahole1 "$ref_pahole" -F dwarf -j1 "$vmlinux"
			measure pahole1 "$d2b" pahole -j1 "$vmlinux"
			measure ref_pahole2 "$ref_pahole" -F dwarf -j2 "$vmlinux"
			measure pahole2 "$d2b" pahole -j2 "$vmlinux" ;;
		pahole-C)
			measure_rep ref_pahole_c 100 "$ref_pahole" -F dwarf -C task_struct "$vmlinux"
			measure_rep pahole_c 100 "$d2b" pahole -C task_struct "$vmlinux" ;;
		pahole-sysfs)
			[ -r /sys/kernel/btf/vmlinux ] || continue
			measure_rep ref_pahole_sysfs 20 "$ref_pahole" task_struct
			measure_rep pahole_sysfs 20 "$d2b" pahole task_struct ;;
		pfunct)
			measure pfunct1 "$d2b" pfunct -F dwarf -j1 "$vmlinux"
			measure pfunct2 "$d2b" pfunct -F dwarf -j2 "$vmlinux" ;;
		pfunct-btf)
			measure ref_pfunct_btf "$ref_pfunct" -F btf "$vmlinux"
			measure pfunct_btf "$d2b" pfunct -F btf "$vmlinux" ;;
		all-modules)
			[ -f "$corpus/.complete-all-modules" ] ||
				{ echo "bench: no $corpus/all-modules (bench/fetch-corpus.sh)" >&2; exit 1; }
			python3 - "$corpus" "$ref_pahole" "$d2b" "$tmp" 2> "$tmp/err" <<-'PY' ||
				import os, sys, time
				corpus, ref, ours, tmp = sys.argv[1:]
				kos = sorted(os.path.join(d, f) for d, _, fs in os.walk(corpus + "/all-modules")
				             for f in fs if f.endswith(".ko"))
				flags = ["-J", "--btf_gen_floats", "-j", "--lang_exclude=rust",
				         "--btf_base=" + corpus + "/vmlinux"]
				null = os.open(os.devnull, os.O_WRONLY)
				fa = [(os.POSIX_SPAWN_DUP2, null, 1)]
				tot = {"ref": [0.0, 0.0, 0], "ours": [0.0, 0.0, 0]}
				def run(who, argv):
				    # spawned directly and timed here: /usr/bin/time in
				    # between cost ~8 ms a run (exec and reap), a third of
				    # a small module's. ru_maxrss then also counts this
				    # process's pages (~10 MiB) before the exec: a lower
				    # bound for each run, but the largest module's peak
				    # (what the table shows) is well above it.
				    t0 = time.perf_counter()
				    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=fa)
				    _, status, ru = os.wait4(pid, 0)
				    wall = time.perf_counter() - t0
				    if os.waitstatus_to_exitcode(status):
				        sys.exit("'%s' failed" % " ".join(argv))
				    s = tot[who]
				    s[0] += wall
				    s[1] += ru.ru_utime + ru.ru_stime
				    s[2] = max(s[2], ru.ru_maxrss)
				for i, ko in enumerate(kos):
				    out = "--btf_encode_detached=" + tmp + "/m.btf"
				    pair = [("ref", [ref] + flags + [out, ko]),
				            ("ours", [ours, "pahole"] + flags + [out, ko])]
				    for who, argv in (pair if i % 2 else pair[::-1]):
				        run(who, argv)
				for who, name in (("ref", "ref_allmod"), ("ours", "allmod")):
				    with open(tmp + "/" + name, "a") as f:
				        f.write("%.3f %.3f %d\n" % tuple(tot[who]))
				with open(tmp + "/allmod_n", "w") as f:
				    f.write("%d\n" % len(kos))
			PY
				{ echo "bench: all-modules failed:" >&2; cat "$tmp/err" >&2; exit 1; } ;;
		modules)
			for m in $modules; do
				flags=(-J --btf_gen_floats -j --lang_exclude=rust --btf_base="$vmlinux")
				measure_rep "ref_mod_$m" 10 "$ref_pahole" "${flags[@]}" \
					--btf_encode_detached="$tmp/ref_$m.btf" "$corpus/modules/$m.ko"
				measure_rep "mod_$m" 10 "$d2b" pahole "${flags[@]}" \
					--btf_encode_detached="$tmp/$m.btf" "$corpus/modules/$m.ko"
			done ;;
		*)
			echo "bench: unknown workload $w" >&2; exit 2 ;;
		esac
	done
done

for w in $workloads; do
	case $w in
	floor) row "floor: walk every DIE (-j1)" floor ;;
	load)
		row "load every CU, ours -j1" load1
		row "load every CU, ours -j2" load2 ;;
	pahole)
		row "pahole 1.24 vmlinux -j1" ref_pahole1
		row "ours pahole vmlinux -j1" pahole1 ref_pahole1
		row "pahole 1.24 vmlinux -j2" ref_pahole2
		row "ours pahole vmlinux -j2" pahole2 ref_pahole2 ;;
	pahole-C)
		row "pahole 1.24 -C task_struct" ref_pahole_c
		row "ours pahole -C task_struct" pahole_c ref_pahole_c ;;
	pahole-sysfs)
		if [ -s "$tmp/pahole_sysfs" ]; then
			row "pahole 1.24 task_struct (running kernel's BTF)" ref_pahole_sysfs
			row "ours pahole task_struct (running kernel's BTF)" pahole_sysfs ref_pahole_sysfs
		else
			echo "bench: /sys/kernel/btf/vmlinux cannot be read: no pahole-sysfs rows" >&2
		fi ;;
	pfunct)
		row "ours pfunct -F dwarf vmlinux -j1" pfunct1
		row "ours pfunct -F dwarf vmlinux -j2" pfunct2 ;;
	pfunct-btf)
		row "pfunct 1.24 -F btf vmlinux" ref_pfunct_btf
		row "ours pfunct -F btf vmlinux" pfunct_btf ref_pfunct_btf ;;
	all-modules)
		row "pahole 1.24 -J --btf_base vmlinux, all $(cat "$tmp/allmod_n") modules" ref_allmod
		row "ours pahole -J --btf_base vmlinux, all $(cat "$tmp/allmod_n") modules" allmod ref_allmod ;;
	modules)
		for m in $modules; do
			row "pahole 1.24 -J --btf_base vmlinux $m.ko" "ref_mod_$m"
			row "ours pahole -J --btf_base vmlinux $m.ko" "mod_$m" "ref_mod_$m"
		done ;;
	esac
done

echo "# $(date -u +%Y-%m-%d) $(nproc) CPUs, $(free -g | awk '/Mem:/ { print $2 }') GiB; corpus $(cat "$corpus/package"); medians of $runs runs"
echo
echo "| command | wall s | CPU s | peak RSS MiB | wall ours/pahole | RSS ours/pahole |"
echo "| --- | --- | --- | --- | --- | --- |"
printf '%s\n' "${rows[@]}"
