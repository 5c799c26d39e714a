// SPDX-License-Identifier: GPL-2.0-only
/*
 * dwarf2btf encode [-j[N]] [--verbose] [--stats] [--no_prededup] [--libbpf_dedup]
 *                  [--thread_bytes=N] [feature options]
 *                  [--btf_base=FILE] (--btf_encode_detached=OUT | -J) FILE
 *
 * Encodes FILE's DWARF as BTF: a raw BTF file (--btf_encode_detached) or
 * the .BTF section of FILE itself (-J). Feature options are pahole's
 * (--btf_features=LIST, --btf_gen_floats, --skip_encoding_btf_*, ...), see
 * btf/btf_features.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bpf/btf.h>

#include "btf/btf_base.h"
#include "btf/btf_encode.h"
#include "btf/btf_features.h"
#include "btf/btf_load.h"
#include "btf/btf_write.h"
#include "cli/cli.h"
#include "elf/elf_file.h"

/* Also reached as `pahole -J ...` / `pahole --btf_encode_detached=...`:
 * messages then start with "pahole:". */
static void usage(FILE *f)
{
	fprintf(f,
		"usage: dwarf2btf encode [-j[N]] [--verbose] [--stats] [--no_prededup] [--libbpf_dedup]\n"
		"                        [--check_model_keys] [--cut_names=census|all|none]\n"
		"                        [--thread_bytes=N] [--window=N]\n"
		"                        [feature options] [--btf_base=FILE] (--btf_encode_detached=OUT | -J) FILE\n"
		"feature options: --btf_features=LIST --btf_features_strict=LIST\n"
		"                 --supported_btf_features --btf_gen_floats --btf_gen_optimized\n"
		"                 --btf_gen_all --btf_encode_force --lang_exclude=LANG,...\n"
		"                 --kabi_prefix=PREFIX (names that begin with it become it)\n"
		"                 --fixup_silly_bitfields (int a:32 as a plain member)\n"
		"                 --skip_encoding_btf_{vars,decl_tag,type_tag,enum64,inconsistent_proto}\n"
		"--no_prededup: keep every unit's copy of a type for libbpf's dedup (slower,\n"
		"              same output; for tests and benchmarks)\n"
		"--libbpf_dedup: deduplicate with libbpf's btf__dedup instead of ours (slower,\n"
		"              same output; for tests and benchmarks)\n"
		"--check_model_keys: encode every repeat too and check that the keys taken\n"
		"              from the model never join what the records' keys part (tests)\n"
		"--cut_names=MODE: where the keys may cut at a struct or union name, which\n"
		"              joins a unit's FWD with another's definition: where a census\n"
		"              of the definitions allows (default), at every name, or none\n"
		"              (same output: a wrong cut is found and encoded again; tests)\n"
		"--thread_bytes=N: at most one thread for each N bytes of .debug_info\n"
		"              (default %u; 0: every thread -j asks for)\n"
		"--window=N: at most N units encoded and not merged yet (default 0: 4 a\n"
		"              thread; for benchmarks)\n", BTF_ENCODE_THREAD_BYTES);
}

static void print_line(void *ctx, const char *line)
{
	fprintf(ctx, "%s\n", line);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct encode_args {
	struct btf_encode_options opts;
	const char *detached, *base, *file, *prog;
	bool in_elf, stats;
	bool own_huge_heap;	/* the heap on huge pages in this process */
};

/* ARGV[*I] is option NAME with a byte count (NAME=N, or NAME N as getopt
 * takes it: *I then moves on): 1 with *OUT set; 0 when it is another
 * option; -1 with err set when N is not a count. */
static int count_option(int argc, char **argv, int *i, const char *name, size_t *out,
			struct d2b_error *err)
{
	const char *arg = argv[*i], *v;
	size_t n = strlen(name);

	if (strncmp(arg, name, n) || (arg[n] && arg[n] != '='))
		return 0;
	v = arg[n] ? arg + n + 1 : *i + 1 < argc ? argv[++*i] : "";
	if (cli_parse_thread_bytes(v, out))
		return d2b_error_set(err, "bad %s '%s'", name, v);
	return 1;
}

/* Returns 0 to go on, 1/2 as an exit status (after --help etc.: -1 for 0). */
static int parse_args(int argc, char **argv, struct encode_args *a, struct d2b_error *err)
{
	int rc;

	btf_features_init(&a->opts.features);
	a->opts.threads = 1;
	a->opts.thread_bytes = BTF_ENCODE_THREAD_BYTES;
	a->prog = strcmp(argv[0], "encode") ? "pahole" : "dwarf2btf encode";
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			usage(stdout);
			return -1;
		}
		if (!strncmp(arg, "-j", 2) || !strncmp(arg, "--jobs", 6)) {
			const char *v = arg[1] == 'j' ? arg + 2 : arg + 6;

			if (*v == '=')
				v++;
			a->opts.threads = cli_parse_jobs(v);
			if (!a->opts.threads) {
				d2b_error_set(err, "bad job count '%s'", arg);
				return 2;
			}
			continue;
		}
		if (!strcmp(arg, "-J")) {
			a->in_elf = true;
			continue;
		}
		if (!strcmp(arg, "-V") || !strcmp(arg, "--verbose")) {
			a->opts.verbose = true;
			continue;
		}
		if (!strcmp(arg, "--stats")) {
			a->stats = true;
			continue;
		}
		if (!strcmp(arg, "--no_prededup")) {
			a->opts.no_prededup = true;
			continue;
		}
		if ((rc = count_option(argc, argv, &i, "--thread_bytes", &a->opts.thread_bytes, err)) ||
		    (rc = count_option(argc, argv, &i, "--window", &a->opts.window, err))) {
			if (rc < 0)
				return 2;
			continue;
		}
		if (!strcmp(arg, "--check_model_keys")) {
			a->opts.check_model_keys = true;
			continue;
		}
		if (!strcmp(arg, "--libbpf_dedup")) {
			a->opts.libbpf_dedup = true;
			continue;
		}
		if (!strncmp(arg, "--cut_names=", 12)) {
			static const char *const modes[] = {
				[BTF_CUT_CENSUS] = "census", [BTF_CUT_ALL] = "all",
				[BTF_CUT_NONE] = "none",
			};
			unsigned m = 0;

			while (m < 3 && strcmp(arg + 12, modes[m]))
				m++;
			if (m == 3) {
				d2b_error_set(err, "--cut_names takes census, all or none, not '%s'",
					      arg + 12);
				return 2;
			}
			a->opts.cut_names = (enum btf_cut_mode)m;
			continue;
		}
		if (!strcmp(arg, "--supported_btf_features")) {
			fputs(btf_features_supported_list(), stdout);
			return -1;
		}
		if (!strncmp(arg, "--", 2) && arg[2]) {
			char name[64];
			const char *eq = strchr(arg, '=');
			size_t len = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
			const char *val = eq ? eq + 1 : NULL;

			if (len >= sizeof(name)) {
				d2b_error_set(err, "unknown option '%s'", arg);
				return 2;
			}
			memcpy(name, arg + 2, len);
			name[len] = '\0';
			if (!val && (btf_features_option_has_arg(name) || !strcmp(name, "btf_base") ||
				     !strcmp(name, "btf_encode_detached") ||
				     !strcmp(name, "kabi_prefix")) && i + 1 < argc)
				val = argv[++i];
			if (!strcmp(name, "kabi_prefix")) {
				if (!val || !*val) {
					d2b_error_set(err, "option '--%s' requires an argument", name);
					return 2;
				}
				a->opts.kabi_prefix = val;
				continue;
			}
			if (!strcmp(name, "fixup_silly_bitfields") && !val) {
				a->opts.fixup_silly_bitfields = true;
				continue;
			}
			if (!strcmp(name, "btf_base") || !strcmp(name, "btf_encode_detached")) {
				if (!val || !*val) {
					d2b_error_set(err, "option '--%s' requires an argument", name);
					return 2;
				}
				if (name[4] == 'b')
					a->base = val;
				else
					a->detached = val;
				continue;
			}
			rc = btf_features_option(&a->opts.features, name, val, err);
			if (rc < 0)
				return 2;
			if (rc == 0) {
				d2b_error_set(err, "unknown option '%s'", arg);
				return 2;
			}
			continue;
		}
		if (arg[0] == '-' && arg[1]) {
			d2b_error_set(err, "unknown option '%s'", arg);
			return 2;
		}
		if (a->file) {
			d2b_error_set(err, "only one input file, got '%s' and '%s'", a->file, arg);
			return 2;
		}
		a->file = arg;
	}
	if (!a->file) {
		d2b_error_set(err, "no input file");
		return 2;
	}
	if (!a->detached && !a->in_elf) {
		d2b_error_set(err, "say where the BTF goes: --btf_encode_detached=OUT or -J");
		return 2;
	}
	if (a->opts.check_model_keys && a->opts.no_prededup) {
		d2b_error_set(err, "--check_model_keys checks the pre-dedup's keys: "
			      "not with --no_prededup");
		return 2;
	}
	return 0;
}

/*
 * Whether the run may start threads, told before anything is decoded:
 * with -j, where the file's .debug_info, by its section header, is big
 * enough for two (btf_encode_threads_for()). A compressed section's
 * stored size is less than its own, which encode_run() checks once it has
 * opened the file. A module's run (1,105 of Debian's 1,121 modules) starts
 * none. The file is closed again: kept open for encode_run(), its
 * blocks stayed on the heap's 4 KiB pages below the huge-page span, and
 * tcp_bbr.ko's run took 85-87 page faults instead of 79-80 (the open,
 * map and unmap saved cost less).
 */
static bool may_start_threads(const struct encode_args *a)
{
	const struct elf_section *sec;
	struct elf_file *ef;
	bool big;

	if (a->opts.threads <= 1)
		return false;
	if (!a->opts.thread_bytes)
		return true;
	ef = elf_file_open(a->file, NULL);
	if (!ef)
		return true;	/* (the open's error is reported later) */
	sec = elf_file_find_section(ef, ".debug_info");
	big = !sec || btf_encode_threads_for(&a->opts, sec->file_size) > 1;
	elf_file_close(ef);
	return big;
}

/* Encode as A says; ONE_PROCESS: the heap is on huge pages in this
 * process (encode_main()), which suits one thread only. */
static int encode_run(struct encode_args *a, char **argv, bool one_process)
{
	struct d2b_error err = { 0 };
	struct btf_encode_stats st;
	struct cli_dwarf_input in;
	struct btf_handle *base_h = NULL;
	struct btf *base = NULL, *btf = NULL;
	struct btf_base_view view = { 0 };
	struct btf_encoded_bytes bytes = { 0 };
	const void *raw;
	uint32_t raw_size;
	double t0, write_s = 0, open_s, base_s = 0;
	const char *prog = a->prog;
	bool census;
	int rc = 0;

	a->opts.log = print_line;
	a->opts.log_ctx = stdout;
	if (a->base) {
		/* checked as every BTF we open is (libbpf 1.1's parse checks no
		 * type id), not its graph, which only printers need
		 * (btf_load.h); parsed by libbpf only where the encoding goes
		 * through libbpf (btf_encode_bytes_ok()) */
		t0 = now_s();
		base_h = btf_handle_open_unparsed(a->base, &err);
		base_s = now_s() - t0;
		if (!base_h)
			return cli_fail(prog, &err);
	}
	/* the encoder reads no line table (skip_line_files), unless the
	 * census of its cut keys looks for the headers in it
	 * (btf_cut_names.h: where btf_encode_file() may cut) */
	t0 = now_s();
	census = a->opts.cut_names == BTF_CUT_CENSUS && btf_encode_may_cut(&a->opts, a->base != NULL);
	/* (a line table that cannot be loaded costs the cuts, not the run:
	 * opened again without it, as the encoding alone needs it) */
	if ((!census || cli_dwarf_open_flags(&in, a->file, 0, &err)) &&
	    (d2b_error_clear(&err), cli_dwarf_open_flags(&in, a->file, DW_FILE_NO_LINE, &err))) {
		btf_handle_close(base_h);
		return cli_fail(prog, &err);
	}
	open_s = now_s() - t0;
	if (base_h) {
		t0 = now_s();
		if (btf_encode_bytes_ok(in.elf, &a->opts) ? btf_handle_base_view(base_h, &view, &err)
							   : btf_handle_parse(base_h, &err)) {
			cli_dwarf_close(&in);
			btf_handle_close(base_h);
			return cli_fail(prog, &err);
		}
		base_s += now_s() - t0;
		base = (struct btf *)btf_handle_btf(base_h);
	}
	/* a compressed .debug_info holds more than the stored size that
	 * may_start_threads() read: threads after all, whose arenas only
	 * glibc's tunable puts on huge pages */
	if (one_process && btf_encode_threads(&in.dwarf, &a->opts) > 1)
		cli_reexec_on_huge_pages(argv);
	if (base_h && !base)
		rc = btf_encode_file_bytes(in.elf, &in.dwarf, &a->opts, &view, &bytes, &st, &err);
	else
		btf = btf_encode_file(in.elf, &in.dwarf, &a->opts, base, &st, &err);
	/* close the input before writing: -J replaces the file */
	cli_dwarf_close(&in);
	if (rc || (!btf && !bytes.data)) {
		btf_base_view_free(&view);
		btf_handle_close(base_h);
		return cli_fail(prog, &err);
	}
	if (btf) {
		raw = btf__raw_data(btf, &raw_size);
	} else {
		raw = bytes.data;
		raw_size = (uint32_t)bytes.size;
	}
	t0 = now_s();
	if (!raw)
		rc = d2b_error_set(&err, "cannot serialise the BTF");
	else if (a->detached)
		rc = btf_write_raw(a->detached, raw, raw_size, &err);
	else if (a->in_elf)
		rc = btf_write_elf_section(a->file, raw, raw_size, &err);
	write_s = now_s() - t0;
	fflush(stdout);
	if (a->stats) {
		fprintf(stderr, "stats: input open %.3fs", open_s);
		if (a->base)
			fprintf(stderr, ", base open %.3fs (read, checked%s)", base_s,
				base ? ", parsed by libbpf" : "");
		fprintf(stderr, "\n");
		fprintf(stderr,
			"stats: threads %u (started %u), units %zu (excluded %zu), fragments alive max %zu\n"
			"stats: decode+encode %.3fs wall, %.3fs worker CPU\n"
			"stats: merge %.3fs (%zu repeated types dropped, %zu of them never encoded; %zu of %zu strings resolved by the workers; after the pool %.3fs), functions %.3fs (%zu encoded, %zu skipped), datasec %.3fs (%zu vars)\n"
			"stats: dedup %.3fs (%s, %zu -> %zu types), write %.3fs (%u bytes)\n"
			"stats: peak RSS %ld KiB after decode+encode, %ld after merge, %ld after dedup\n",
			a->opts.threads, st.threads_started, st.cus, st.cus_excluded, st.max_alive,
			st.parallel_s, st.worker_s, st.merge_s, st.types_dropped, st.types_skipped, st.strs_resolved, st.strs, st.build_s, st.funcs_s, st.funcs_encoded,
			st.funcs_skipped, st.datasec_s, st.vars, st.dedup_s, st.own_dedup ? "ours" : "libbpf", st.types_before_dedup,
			st.types, write_s, raw_size, st.rss_parallel_kb, st.rss_merged_kb,
			st.rss_dedup_kb);
		fprintf(stderr, "stats: malloc %s\n", a->own_huge_heap ?
			"on huge pages (the main heap's span, one thread)" : cli_malloc_pages());
		if (a->opts.check_model_keys)
			fprintf(stderr, "stats: check_model_keys: %zu repeats by the records' keys\n",
				st.check_record_repeats);
		if (st.cut || st.cut_redone || st.census.gave_up)
			fprintf(stderr,
				"stats: cut keys: census %.3fs, %.3fs CPU (%zu definitions of %zu struct and union names, %zu kept whole%s)%s%s%s\n",
				st.census.seconds, st.census.cpu_s, st.census.definitions, st.census.names,
				st.census.kept_whole, st.census.gave_up ? "; gave up: no cuts" : "",
				st.cut_redone ? "; encoded again with exact keys: '" : "",
				st.cut_redone ? st.cut_redo_name : "", st.cut_redone ? "' is defined twice" : "");
		if (st.own_dedup)
			fprintf(stderr,
				"stats: dedup phases: nodes %.3fs, primitives %.3fs, structs %.3fs (%s%s%s; %llu graph checks, %llu steps), fwds %.3fs, references %.3fs, compaction %.3fs\n",
				st.dedup.nodes_s, st.dedup.prim_s, st.dedup.struct_s,
				st.dedup.incremental ? "unit by unit, beside the merge" : "all at once",
				st.dedup.incr_abandoned ? ": unit by unit gave up at " : "",
				st.dedup.incr_abandoned ? st.dedup.incr_abandoned : "",
				(unsigned long long)st.dedup.graph_checks,
				(unsigned long long)st.dedup.graph_steps, st.dedup.fwd_s,
				st.dedup.ref_s, st.dedup.compact_s);
	}
	btf__free(btf);
	free(bytes.data);
	btf_base_view_free(&view);
	btf_handle_close(base_h);
	if (rc)
		return cli_fail(prog, &err);
	return 0;
}

int encode_main(int argc, char **argv)
{
	struct encode_args a = { 0 };
	struct d2b_error err = { 0 };
	int rc = parse_args(argc, argv, &a, &err);
	bool one_process;
	void *filler = NULL;

	if (rc == -1)
		return 0;
	if (rc) {
		fprintf(stderr, "%s: %s\n", a.prog, err.msg);
		usage(stderr);
		return rc;
	}
	/*
	 * Threads allocate from arenas of their own, which only glibc's
	 * tunable (read at exec) puts on huge pages: a run with threads
	 * runs again with it. One thread takes the main heap, which this
	 * process can place on huge pages itself: tcp_bbr.ko on the vmlinux
	 * base 18.0-18.3 ms against 19.7-20.6 ms run again (31 runs, two
	 * rounds), all 1,121 modules 21.2/20.6 s against 23.1/22.5 s.
	 * (One arena for all threads in one process instead: the Debian
	 * vmlinux at -j2 0.83-0.86 s against 0.72-0.74 s, the threads
	 * waiting on its lock; mlx5_core.ko 4-8 ms slower.)
	 */
	one_process = !may_start_threads(&a);
	if (one_process)
		a.own_huge_heap = cli_heap_for_big_model(argv, (size_t)128 << 20, &filler);
	else
		cli_reexec_on_huge_pages(argv);
	rc = encode_run(&a, argv, one_process);
	free(filler);
	return rc;
}
