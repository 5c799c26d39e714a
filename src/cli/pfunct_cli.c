// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfunct front end: the options of Debian's pfunct 1.24 (its spellings,
 * --help and error texts) over our DWARF reader. The listing rules live in
 * print/pfunct_print.c; docs/compat-pfunct.md lists where we differ.
 *
 * Added: -j[N] / --jobs[=N], threads decoding units (output is identical
 * whatever N is); --btf_base=FILE, the base of a split BTF (pahole's
 * option). -F FORMAT_LIST takes "dwarf", "btf" or both, in the order to
 * try (cli/cli_input.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_input.h"
#include "print/pfunct_print.h"
#include "print/pfunct_symtab.h"

#define PFUNCT_EXIT_USAGE 64	/* argp's exit status for a bad option */

static const char pfunct_help[] =
	"Usage: pfunct [OPTION...] FILE\n"
	"\n"
	"  -a, --addr=ADDR            show just the function that where ADDR is\n"
	"  -b, --expand_types         Expand types needed by the prototype\n"
	"      --compile[=FUNCTION]   Generate compilable source code with types\n"
	"                             expanded (Default all functions)\n"
	"  -c, --class=CLASS          functions that have CLASS pointer parameters\n"
	"  -E, --externals            show just external functions\n"
	"  -f, --function=FUNCTION    show just FUNCTION\n"
	"  -F, --format_path=FORMAT_LIST   List of debugging formats to try\n"
	"  -g, --goto_labels          show number of goto labels\n"
	"  -G, --cc_uninlined         declared inline, uninlined by compiler\n"
	"  -H, --cc_inlined           not declared inline, inlined by compiler\n"
	"  -i, --inline_expansions    show inline expansions\n"
	"  -I, --inline_expansions_stats   show inline expansions stats\n"
	"  -l, --decl_info            show source code info\n"
	"      --no_parm_names        Don't show parameter names\n"
	"  -N, --function_name_len    show size of functions names\n"
	"  -p, --nr_parms             show number of parameters\n"
	"  -P, --prototypes           show function prototypes\n"
	"      --symtab[=NAME]        show symbol table NAME (Default .symtab)\n"
	"  -s, --sizes                show size of functions\n"
	"  -S, --nr_variables         show number of variables\n"
	"  -t, --total_inline_stats   show Multi-CU total inline expansions stats\n"
	"  -T, --variables            show variables\n"
	"  -V, --verbose              be verbose\n"
	"  -?, --help                 Give this help list\n"
	"      --usage                Give a short usage message\n"
	"      --version              Print program version\n"
	"\n"
	"Mandatory or optional arguments to long options are also mandatory or optional\n"
	"for any corresponding short options.\n";

static const char pfunct_usage[] =
	"Usage: pfunct [-bEgGHiIlNpPsStTV?] [-a ADDR] [-c CLASS] [-f FUNCTION]\n"
	"            [-F FORMAT_LIST] [--addr=ADDR] [--expand_types]\n"
	"            [--compile[=FUNCTION]] [--class=CLASS] [--externals]\n"
	"            [--function=FUNCTION] [--format_path=FORMAT_LIST] [--goto_labels]\n"
	"            [--cc_uninlined] [--cc_inlined] [--inline_expansions]\n"
	"            [--inline_expansions_stats] [--decl_info] [--no_parm_names]\n"
	"            [--function_name_len] [--nr_parms] [--prototypes]\n"
	"            [--symtab[=NAME]] [--sizes] [--nr_variables] [--total_inline_stats]\n"
	"            [--variables] [--verbose] [--help] [--usage] [--version] FILE\n";

static const char pfunct_see[] =
	"Try `pfunct --help' or `pfunct --usage' for more information.\n";

enum {
	OPT_SYMTAB = 300,
	OPT_NO_PARM_NAMES,
	OPT_COMPILE,
	OPT_USAGE,
	OPT_VERSION,
	OPT_BTF_BASE,
	OPT_THREAD_BYTES,
};

static const struct option pfunct_long_options[] = {
	{ "addr", required_argument, NULL, 'a' },
	{ "btf_base", required_argument, NULL, OPT_BTF_BASE },
	{ "expand_types", no_argument, NULL, 'b' },
	{ "compile", optional_argument, NULL, OPT_COMPILE },
	{ "class", required_argument, NULL, 'c' },
	{ "externals", no_argument, NULL, 'E' },
	{ "function", required_argument, NULL, 'f' },
	{ "format_path", required_argument, NULL, 'F' },
	{ "goto_labels", no_argument, NULL, 'g' },
	{ "cc_uninlined", no_argument, NULL, 'G' },
	{ "cc_inlined", no_argument, NULL, 'H' },
	{ "inline_expansions", no_argument, NULL, 'i' },
	{ "inline_expansions_stats", no_argument, NULL, 'I' },
	{ "jobs", optional_argument, NULL, 'j' },
	{ "decl_info", no_argument, NULL, 'l' },
	{ "no_parm_names", no_argument, NULL, OPT_NO_PARM_NAMES },
	{ "function_name_len", no_argument, NULL, 'N' },
	{ "nr_parms", no_argument, NULL, 'p' },
	{ "prototypes", no_argument, NULL, 'P' },
	{ "symtab", optional_argument, NULL, OPT_SYMTAB },
	{ "sizes", no_argument, NULL, 's' },
	{ "nr_variables", no_argument, NULL, 'S' },
	{ "total_inline_stats", no_argument, NULL, 't' },
	{ "variables", no_argument, NULL, 'T' },
	{ "verbose", no_argument, NULL, 'V' },
	{ "thread_bytes", required_argument, NULL, OPT_THREAD_BYTES },
	{ "help", no_argument, NULL, '?' },
	{ "usage", no_argument, NULL, OPT_USAGE },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

struct pfunct_run {
	struct pfunct_printer *printer;
	struct strbuf out;
	bool stopped;		/* -f found its unit: the stream was cut short */
	bool write_failed;
};

static void flush_out(struct pfunct_run *run)
{
	if (run->out.len &&
	    fwrite(run->out.buf, 1, run->out.len, stdout) != run->out.len)
		run->write_failed = true;
	strbuf_reset(&run->out);
}

static int consume_cu(void *ctx, struct cu_model *cu, struct d2b_error *err)
{
	struct pfunct_run *run = ctx;

	if (pfunct_printer_add_cu(run->printer, cu, &run->out, err))
		return -1;
	flush_out(run);
	if (pfunct_printer_done(run->printer)) {
		/* Stop the stream: the error is ours and is dropped. */
		run->stopped = true;
		return d2b_error_set(err, "pfunct: search done");
	}
	return 0;
}

static int bad_option(const char *fmt, const char *what)
{
	fputs("pfunct: ", stderr);
	fprintf(stderr, fmt, what);
	fputc('\n', stderr);
	fputs(pfunct_see, stderr);
	return PFUNCT_EXIT_USAGE;
}

static int run_file(const char *path, const char *formats,
		    const char *btf_base, struct pfunct_run *run,
		    unsigned threads, size_t thread_bytes, bool decl_info,
		    bool bodies)
{
	struct cli_input in;
	struct d2b_error err = { 0 };
	/* pfunct prints no parameter locations, and file names only with -l:
	 * the loader need not summarise the one nor read the line tables. */
	struct cu_stream_options so = {
		.threads = threads,
		.thread_bytes = thread_bytes,
		.skip_type_units = true,
		.load.skip_locations = true,
		.load.skip_line_files = !decl_info,
		.load.function_bodies = bodies,
		.load.external_is_presence = true,
	};
	int rc;

	/* DW_FILE_DWFL_LAYOUT: a .o's or .ko's addresses as 1.24 prints them */
	if (cli_input_open(&in, path, formats, btf_base,
			   (decl_info ? 0 : DW_FILE_NO_LINE) | DW_FILE_DWFL_LAYOUT, &err))
		return cli_fail("pfunct", &err);
	rc = cli_input_run(&in, &so, consume_cu, run, &err);
	if (rc && run->stopped)
		rc = 0;
	cli_input_close(&in);
	if (rc)
		return cli_fail("pfunct", &err);
	return 0;
}

/* --symtab[=SECTION] FILE...: each file's listing in turn; the first file
 * that fails ends the run (as pfunct 1.24), with our one-line error. */
static int symtab_main(char **paths, size_t n, const char *section)
{
	struct strbuf out = STRBUF_INIT;
	struct d2b_error err = { 0 };
	bool write_failed = false;
	int rc = 0;

	for (size_t i = 0; i < n && !rc && !write_failed; i++) {
		struct elf_file *ef = elf_file_open(paths[i], &err);

		if (!ef || pfunct_symtab_print(ef, section, &out, &err))
			rc = cli_fail("pfunct", &err);
		elf_file_close(ef);
		if (out.len && fwrite(out.buf, 1, out.len, stdout) != out.len)
			write_failed = true;
		strbuf_reset(&out);
	}
	strbuf_free(&out);
	if (fflush(stdout))
		write_failed = true;
	if (write_failed) {
		fprintf(stderr, "pfunct: error writing the output\n");
		rc = 1;
	}
	return rc;
}

int pfunct_main(int argc, char **argv)
{
	struct pfunct_options opts = { .formatter = PFUNCT_FMT_DEFAULT };
	struct pfunct_run run = { .out = STRBUF_INIT };
	struct d2b_error err = { 0 };
	const char *formats = NULL, *btf_base = NULL, *symtab = NULL;
	unsigned threads = 1;
	size_t thread_bytes = CU_STREAM_THREAD_BYTES;
	void *big = NULL;
	int c, rc = 0;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":a:bc:Ef:F:gGHiIj::lNpPsStTV?",
				pfunct_long_options, NULL)) != -1) {
		switch (c) {
		case 'c': opts.class_name = optarg; break;
		case 'E': opts.externals_only = true; break;
		case 'f': opts.function = optarg; break;
		case 'F': formats = optarg; break;
		case 'G': opts.cc_uninlined = true; break;
		case 'H': opts.cc_inlined = true; break;
		case 'l': opts.decl_info = true; break;
		case 'N': opts.formatter = PFUNCT_FMT_NAME_LEN; break;
		case 'p': opts.formatter = PFUNCT_FMT_NR_PARMS; break;
		case 'P': opts.prototypes = true; break;
		case 's': opts.formatter = PFUNCT_FMT_SIZES; break;
		case 'S': opts.formatter = PFUNCT_FMT_NR_VARIABLES; break;
		case 'g': opts.formatter = PFUNCT_FMT_LABELS; break;
		case 'V': opts.verbose = true; break;
		case OPT_NO_PARM_NAMES: opts.no_parm_names = true; break;
		case OPT_BTF_BASE: btf_base = optarg; break;
		case 'j':
			threads = cli_parse_jobs(optarg);
			if (!threads) {
				fprintf(stderr, "pfunct: invalid number of jobs '%s'\n",
					optarg);
				return 1;
			}
			break;
		case OPT_THREAD_BYTES:
			if (cli_parse_thread_bytes(optarg, &thread_bytes)) {
				fprintf(stderr, "pfunct: invalid --thread_bytes value '%s'\n",
					optarg);
				return 1;
			}
			break;
		case '?':
			if (optopt == 0 && argv[optind - 1] &&
			    strncmp(argv[optind - 1], "--help", 6) &&
			    strcmp(argv[optind - 1], "-?")) {
				/* an unknown long option */
				return bad_option("unrecognized option '%s'",
						  argv[optind - 1]);
			}
			if (optopt && optopt != '?') {
				char s[2] = { (char)optopt, 0 };

				return bad_option("invalid option -- '%s'", s);
			}
			fputs(pfunct_help, stdout);
			return 0;
		case ':': {
			char s[2] = { (char)optopt, 0 };

			if (optopt == 0 || optopt >= 256)
				return bad_option("option '%s' requires an argument",
						  argv[optind - 1]);
			return bad_option("option requires an argument -- '%s'", s);
		}
		case OPT_USAGE:
			fputs(pfunct_usage, stdout);
			return 0;
		case OPT_VERSION:
			puts("v1.27");	/* as pahole: docs/compat.md */
			return 0;
		case 'a':
			/* as strtoull(arg, NULL, 0): "0x10", "16", "020";
			 * what does not parse is 0, which pfunct ignores */
			opts.addr = strtoull(optarg, NULL, 0);
			break;
		case 'b': opts.expand_types = true; break;
		case 'i': opts.inline_expansions = opts.verbose = true; break;
		case 'I': opts.formatter = PFUNCT_FMT_INLINE_STATS; break;
		case 't': opts.total_inline_stats = true; break;
		case 'T': opts.variables = true; break;
		case OPT_SYMTAB: symtab = optarg ? optarg : ".symtab"; break;
		case OPT_COMPILE:
			opts.expand_types = opts.compile = true;
			if (optarg)
				opts.function = optarg;
			break;
		default:
			return bad_option("invalid option -- '%s'", "?");
		}
	}

	if (optind == argc) {
		fputs(pfunct_see, stderr);
		return 1;
	}
	/* what 1.24's options make its loader read (pfunct_body.h) */
	opts.addr_info = opts.addr || opts.verbose || opts.total_inline_stats ||
			 opts.formatter == PFUNCT_FMT_SIZES ||
			 opts.formatter == PFUNCT_FMT_INLINE_STATS;
	opts.line_info = opts.verbose || opts.decl_info;
	if (symtab)	/* nothing else: pfunct reads no debug info then */
		return symtab_main(argv + optind, (size_t)(argc - optind), symtab);

	if (cli_inputs_want_huge_pages(argv + optind, (size_t)(argc - optind), formats, btf_base))
		(void)cli_heap_for_big_model(argv, (size_t)64 << 20, &big);
	run.printer = pfunct_printer_create(&opts, &err);
	if (!run.printer) {
		free(big);
		return cli_fail("pfunct", &err);
	}
	for (int i = optind; i < argc && !rc; i++) {
		pfunct_printer_next_file(run.printer);
		rc = run_file(argv[i], formats, btf_base, &run, threads, thread_bytes,
			      opts.decl_info, pfunct_printer_wants_bodies(&opts));
	}
	if (!rc) {
		if (pfunct_printer_finish(run.printer, &run.out, &err))
			rc = cli_fail("pfunct", &err);
		flush_out(&run);
	}
	pfunct_printer_destroy(run.printer);
	strbuf_free(&run.out);
	if (!rc && (run.write_failed || fflush(stdout))) {
		fprintf(stderr, "pfunct: error writing the output\n");
		rc = 1;
	}
	free(big);
	return rc;
}
