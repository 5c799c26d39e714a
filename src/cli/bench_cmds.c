// SPDX-License-Identifier: GPL-2.0-only
/*
 * Native measurement commands used by bench/:
 *   dwarf2btf walk [--mapped] FILE
 *                               the floor: every DIE of every unit decoded
 *                               (abbreviation lookup) with attributes skipped
 *                               by form, one thread, each unit read as the
 *                               encoder reads it (copied into one reused
 *                               buffer when it is in the file's mapping);
 *                               --mapped: through the mapping, as the floor
 *                               was measured before the tenth session
 *   dwarf2btf load [-j[N]] [--stats] FILE
 *                               every unit decoded into the type model on the
 *                               worker pool and dropped in order (no output)
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int walk_main(int argc, char **argv)
{
	struct d2b_error err = { 0 };
	struct cli_dwarf_input in;
	struct dw_unit_buf buf = { 0 };
	unsigned long long dies = 0;
	struct arena arena;
	int ret = 0;

	bool mapped = argc == 3 && !strcmp(argv[1], "--mapped");

	if (argc != 2 + mapped || argv[1 + mapped][0] == '-') {
		fprintf(stderr, "usage: dwarf2btf walk [--mapped] FILE\n");
		return 2;
	}
	if (cli_dwarf_open(&in, argv[1 + mapped], &err))
		return cli_fail("walk", &err);
	arena_init(&arena);
	for (size_t i = 0; i < in.dwarf.nr_units && !ret; i++) {
		struct dw_cursor cur;
		struct dw_die die;
		struct dw_cu cu;
		int r;

		if (dw_cu_open_copy(&cu, &in.dwarf, i, mapped ? NULL : &buf, &arena, &err)) {
			ret = cli_fail("walk", &err);
			break;
		}
		dw_cursor_init(&cur, &cu);
		while ((r = dw_cursor_next(&cur, &die, &err)) > 0)
			dies++;
		if (r < 0)
			ret = cli_fail("walk", &err);
		arena_reset(&arena);
	}
	arena_deinit(&arena);
	dw_unit_buf_free(&buf);
	if (!ret)
		printf("%zu units, %llu DIEs\n", in.dwarf.nr_units, dies);
	cli_dwarf_close(&in);
	return ret;
}

struct load_counts {
	unsigned long long cus, types, functions, variables;
};

static int count_cu(void *ctx, struct cu_model *cu, struct d2b_error *err)
{
	struct load_counts *c = ctx;

	c->cus++;
	c->types += cu->nr_types;
	c->functions += cu->nr_functions;
	c->variables += cu->nr_variables;
	return 0;
}

int load_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "jobs", optional_argument, NULL, 'j' },
		{ "stats", no_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	struct cu_stream_options opts = { .threads = 1 };
	struct d2b_error err = { 0 };
	struct load_counts counts = { 0 };
	struct pool_stats ps = { 0 };
	struct cli_dwarf_input in;
	bool stats = false;
	double t0, t1, t2;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "j::", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			opts.threads = cli_parse_jobs(optarg);
			if (!opts.threads) {
				fprintf(stderr, "load: invalid -j value '%s'\n", optarg);
				return 2;
			}
			break;
		case 's':
			stats = true;
			break;
		default:
			return 2;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: dwarf2btf load [-j[N]] [--stats] FILE\n");
		return 2;
	}
	t0 = now();
	if (cli_dwarf_open(&in, argv[optind], &err))
		return cli_fail("load", &err);
	t1 = now();
	if (cu_stream_run(&in.dwarf, &opts, count_cu, &counts, &ps, &err)) {
		cli_dwarf_close(&in);
		return cli_fail("load", &err);
	}
	t2 = now();
	printf("%llu units, %llu types, %llu functions, %llu variables\n", counts.cus,
	       counts.types, counts.functions, counts.variables);
	if (stats)
		fprintf(stderr, "open+index: %.3f s, decode: %.3f s, threads: %u, max alive: %zu\n",
			t1 - t0, t2 - t1, ps.threads_started, ps.max_alive);
	cli_dwarf_close(&in);
	return 0;
}
