// SPDX-License-Identifier: GPL-2.0-only
/*
 * pahole: show data structure layouts, pahole 1.24 compatible (DWARF input).
 *
 * Units are decoded on the worker pool (-j) and handed here in unit order;
 * each unit's text is built in a strbuf and written at once, so the output
 * is the same for any thread count.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_input.h"
#include "print/pahole_prettify.h"
#include "print/pahole_select.h"

/*
 * What --version prints: the newest pahole release whose kernel-facing
 * options we fully support, so the kernel's scripts/pahole-version.sh and
 * scripts/Makefile.btf pick the flags we handle (docs/compat.md, "pahole
 * --version"). 1.28 would add --btf_features=distilled_base for
 * out-of-tree modules, which needs libbpf >= 1.5. pfunct_cli.c prints the
 * same.
 */
#define PAHOLE_VERSION "v1.27"

enum {
	OPT_HEX = 256,
	OPT_BTF_BASE,
	OPT_VERSION,
	OPT_SUPPRESS_PACKED,
	OPT_SUPPRESS_ALIGNED,
	OPT_HELP,
	OPT_THREAD_BYTES,
	OPT_STRUCTS,
	OPT_UNIONS,
	OPT_PACKED,
	OPT_FLEXIBLE_ARRAY,
	OPT_NUMERIC_VERSION,
	OPT_FLAT_ARRAYS,
	OPT_FIRST_OBJ_ONLY,
	OPT_SORT,
	OPT_PRIVATE_CLASSES,
	OPT_SUPPRESS_FORCE_PADDINGS,
	OPT_CLASSES_AS_STRUCTS,
	OPT_SKIP_MISSING,
	OPT_LANG,
	OPT_COMPILE,
	OPT_HASHBITS,
	OPT_KABI_PREFIX,
	OPT_FIXUP_SILLY_BITFIELDS,
	OPT_COUNT,
	OPT_HEADER_TYPE,
	OPT_PRETTIFY,
	OPT_RANGE,
	OPT_SEEK_BYTES,
	OPT_SIZE_BYTES,
	OPT_SKIP,
	OPT_LANG_EXCLUDE,
	OPT_UNSUPPORTED,	/* 1.24 has it; long_opts' name says which */
};

static const struct option long_opts[] = {
	{ "class_name", required_argument, NULL, 'C' },
	{ "cacheline_size", required_argument, NULL, 'c' },
	{ "expand_types", no_argument, NULL, 'E' },
	{ "format_path", required_argument, NULL, 'F' },
	{ "jobs", optional_argument, NULL, 'j' },
	{ "rel_offset", no_argument, NULL, 'r' },
	{ "sizes", no_argument, NULL, 's' },
	{ "hex", no_argument, NULL, OPT_HEX },
	{ "btf_base", required_argument, NULL, OPT_BTF_BASE },
	{ "suppress_packed", no_argument, NULL, OPT_SUPPRESS_PACKED },
	{ "suppress_aligned_attribute", no_argument, NULL, OPT_SUPPRESS_ALIGNED },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "usage", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "thread_bytes", required_argument, NULL, OPT_THREAD_BYTES },
	{ "anon_include", no_argument, NULL, 'a' },
	{ "nested_anon_include", no_argument, NULL, 'A' },
	{ "bit_holes", required_argument, NULL, 'B' },
	{ "decl_exclude", required_argument, NULL, 'D' },
	{ "holes", required_argument, NULL, 'H' },
	{ "show_decl_info", no_argument, NULL, 'I' },
	{ "nr_members", no_argument, NULL, 'n' },
	{ "class_name_len", no_argument, NULL, 'N' },
	{ "separator", required_argument, NULL, 't' },
	{ "nr_definitions", no_argument, NULL, 'T' },
	{ "verbose", no_argument, NULL, 'V' },
	{ "exclude", required_argument, NULL, 'x' },
	{ "cu_exclude", required_argument, NULL, 'X' },
	{ "prefix_filter", required_argument, NULL, 'y' },
	{ "hole_size_ge", required_argument, NULL, 'z' },
	{ "structs", no_argument, NULL, OPT_STRUCTS },
	{ "unions", no_argument, NULL, OPT_UNIONS },
	{ "packed", no_argument, NULL, OPT_PACKED },
	{ "with_flexible_array", no_argument, NULL, OPT_FLEXIBLE_ARRAY },
	{ "numeric_version", no_argument, NULL, OPT_NUMERIC_VERSION },
	/* the rest of 1.24's; those not ours yet (handled first in
	 * pahole_main) give a clear line instead of "invalid option" */
	{ "recursive", no_argument, NULL, 'd' },
	{ "find_pointers_to", required_argument, NULL, 'f' },
	{ "contains", required_argument, NULL, 'i' },
	{ "show_first_biggest_size_base_type_member", no_argument, NULL, 'l' },
	{ "nr_methods", no_argument, NULL, 'm' },
	{ "show_only_data_members", no_argument, NULL, 'M' },
	{ "expand_pointers", no_argument, NULL, 'p' },
	{ "packable", no_argument, NULL, 'P' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "reorganize", no_argument, NULL, 'R' },
	{ "show_reorg_steps", no_argument, NULL, 'S' },
	{ "defined_in", no_argument, NULL, 'u' },
	{ "word_size", required_argument, NULL, 'w' },
	{ "classes_as_structs", no_argument, NULL, OPT_CLASSES_AS_STRUCTS },
	{ "count", required_argument, NULL, OPT_COUNT },
	{ "first_obj_only", no_argument, NULL, OPT_FIRST_OBJ_ONLY },
	{ "fixup_silly_bitfields", no_argument, NULL, OPT_FIXUP_SILLY_BITFIELDS },
	{ "flat_arrays", no_argument, NULL, OPT_FLAT_ARRAYS },
	{ "header_type", required_argument, NULL, OPT_HEADER_TYPE },
	{ "kabi_prefix", required_argument, NULL, OPT_KABI_PREFIX },
	{ "prettify", required_argument, NULL, OPT_PRETTIFY },
	{ "ptr_table_stats", no_argument, NULL, OPT_UNSUPPORTED },
	{ "range", required_argument, NULL, OPT_RANGE },
	{ "seek_bytes", required_argument, NULL, OPT_SEEK_BYTES },
	{ "show_private_classes", no_argument, NULL, OPT_PRIVATE_CLASSES },
	{ "size_bytes", required_argument, NULL, OPT_SIZE_BYTES },
	{ "skip", required_argument, NULL, OPT_SKIP },
	{ "skip_missing", no_argument, NULL, OPT_SKIP_MISSING },
	{ "lang", required_argument, NULL, OPT_LANG },
	{ "compile", no_argument, NULL, OPT_COMPILE },
	{ "hashbits", required_argument, NULL, OPT_HASHBITS },
	{ "lang_exclude", required_argument, NULL, OPT_LANG_EXCLUDE },
	{ "sort", no_argument, NULL, OPT_SORT },
	{ "suppress_force_paddings", no_argument, NULL, OPT_SUPPRESS_FORCE_PADDINGS },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	fputs("Usage: pahole [OPTION...] FILE\n"
	      "\n"
	      "  -a, --anon_include         include anonymous classes\n"
	      "  -A, --nested_anon_include  include nested (inside other structs) anonymous\n"
	      "                             classes\n"
	      "  -B, --bit_holes=NR_HOLES   Show only structs at least NR_HOLES bit holes\n"
	      "      --classes_as_structs   Use 'struct' when printing classes\n"
	      "      --count=COUNT          Print only COUNT input records\n"
	      "  -c, --cacheline_size=SIZE  set cacheline size to SIZE\n"
	      "      --compile              Emit compilable types\n"
	      "  -C, --class_name=CLASS_NAME   Show just this class\n"
	      "  -d, --recursive            recursive mode, affects several other flags\n"
	      "  -D, --decl_exclude=PREFIX  exclude classes declared in files with PREFIX\n"
	      "  -E, --expand_types         expand class members\n"
	      "  -f, --find_pointers_to=CLASS_NAME\n"
	      "                             Find pointers to CLASS_NAME\n"
	      "  -F, --format_path=FORMAT_LIST   List of debugging formats to try\n"
	      "  -H, --holes=NR_HOLES       show only structs with at least NR_HOLES holes\n"
	      "      --first_obj_only       Only process the first object file in the binary\n"
	      "      --flat_arrays          Flat arrays\n"
	      "      --hashbits=BITS        Number of bits for the hash table key\n"
	      "      --header_type=TYPE     File header type\n"
	      "      --hex                  Print offsets and sizes in hexadecimal\n"
	      "  -i, --contains=CLASS_NAME  Show classes that contains CLASS_NAME\n"
	      "  -I, --show_decl_info       Show the file and line number where the tags were\n"
	      "                             defined\n"
	      "  -j, --jobs[=NR_JOBS]       run N jobs in parallel [default to number of\n"
	      "                             online processors]\n"
	      "      --kabi_prefix=STRING   When the prefix of the string is STRING, treat the\n"
	      "                             string as STRING.\n"
	      "  -l, --show_first_biggest_size_base_type_member\n"
	      "                             show first biggest size base_type member\n"
	      "      --lang=LANGUAGES       Only consider compilation units written in these\n"
	      "                             languages\n"
	      "      --lang_exclude=LANGUAGES   Don't consider compilation units written in\n"
	      "                             these languages\n"
	      "  -m, --nr_methods           show number of methods\n"
	      "  -M, --show_only_data_members   show only the members that use space in the\n"
	      "                             class layout\n"
	      "  -n, --nr_members           show number of members\n"
	      "  -N, --class_name_len       show size of classes\n"
	      "      --numeric_version      Print a numeric version, i.e. 119 instead of v1.19\n"
	      "      --packed               Show just packed structs\n"
	      "  -p, --expand_pointers      expand class pointer members\n"
	      "  -P, --packable             show only structs that has holes that can be\n"
	      "                             packed\n"
	      "      --prettify=PATH        Path to the raw data to pretty print\n"
	      "  -q, --quiet                be quieter\n"
	      "  -r, --rel_offset           show relative offsets of members in inner structs\n"
	      "      --range=STRUCT         Data struct with 'offset' and 'size' fields to\n"
	      "                             determine --seek_bytes and --size_bytes\n"
	      "  -R, --reorganize           reorg struct trying to kill holes\n"
	      "      --seek_bytes=BYTES     Seek COUNT input records\n"
	      "      --show_private_classes Show classes that are defined inside other classes\n"
	      "                             or in functions\n"
	      "  -s, --sizes                show size of classes\n"
	      "      --size_bytes=BYTES     Read only this number of bytes from this point\n"
	      "                             onwards\n"
	      "      --skip=COUNT           Skip COUNT input records\n"
	      "      --skip_missing         skip missing types passed to -C rather than stop\n"
	      "      --sort                 Sort types by name\n"
	      "      --structs              Show just structs\n"
	      "      --suppress_aligned_attribute   Suppress __attribute__((aligned(N))\n"
	      "      --suppress_force_paddings   Suppress int :N paddings at the end\n"
	      "      --suppress_packed      Suppress output of inferred __attribute__((__packed__))\n"
	      "  -t, --separator=SEP        use SEP as the field separator\n"
	      "  -T, --nr_definitions       show how many times struct was defined\n"
	      "  -u, --defined_in           show CUs where CLASS_NAME (-C) is defined\n"
	      "      --unions               Show just unions\n"
	      "  -V, --verbose              be verbose\n"
	      "      --with_flexible_array  show only structs with a flexible array\n"
	      "  -x, --exclude=PREFIX       exclude PREFIXed classes\n"
	      "  -X, --cu_exclude=PREFIX    exclude PREFIXed compilation units\n"
	      "  -y, --prefix_filter=PREFIX include PREFIXed classes\n"
	      "  -z, --hole_size_ge=HOLE_SIZE   show only structs with at least one hole\n"
	      "                             greater or equal to HOLE_SIZE\n"
	      "  -?, --help                 Give this help list\n"
	      "      --version              Print program version\n", f);
}

struct pahole_run {
	struct pahole_select *sel;
	const char *kabi_prefix;	/* --kabi_prefix, NULL if none */
	bool fixup_silly_bitfields;	/* --fixup_silly_bitfields */
	size_t nr_units, nr_partial, nr_types;	/* for D2B_PAHOLE_STATS */
	struct strbuf out;
	bool write_failed;
	bool stopped;		/* every -C name printed */
	bool timed;		/* D2B_PAHOLE_STATS: time the phases */
	uint64_t print_ns;	/* selecting, printing, writing, when timed */
	long print_flt;		/* page faults there */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static long minor_faults(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) ? 0 : ru.ru_minflt;
}

/* A unit's text in one write(2), not through stdio's 4 KiB buffer (which
 * cut -C task_struct's 21 KB into two writes and an fstat). Whatever
 * stdio holds goes first. */
static int write_all(const char *p, size_t n)
{
	if (fflush(stdout))
		return -1;
	while (n) {
		ssize_t w = write(STDOUT_FILENO, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int consume(void *ctx, struct cu_model *cu, struct d2b_error *err)
{
	struct pahole_run *r = ctx;
	uint64_t t0 = r->timed ? now_ns() : 0;
	long f0 = r->timed ? minor_faults() : 0;

	r->nr_units++;
	r->nr_partial += cu->partial;
	r->nr_types += cu->nr_types;
	if (pahole_select_cu(r->sel, cu, &r->out, err))
		return -1;
	if (r->out.len && write_all(r->out.buf, r->out.len)) {
		r->write_failed = true;
		return d2b_error_set(err, "writing the output failed");
	}
	if (r->timed) {
		r->print_ns += now_ns() - t0;
		r->print_flt += minor_faults() - f0;
	}
	strbuf_reset(&r->out);
	if (pahole_select_done(r->sel)) {
		r->stopped = true;
		return d2b_error_set(err, "done");
	}
	return 0;
}

/*
 * -C on a file read as DWARF first: open it with a lazy unit index, so
 * only the headers of the units decoded until every name is found are
 * read (cu_stream grows the index). Opens the ELF once, where
 * cli_input_open() opens it to probe and again to read. Returns 0 opened,
 * 1 when this is not that case (cli_input_open() then decides and reports
 * the errors), -1 with err set.
 */
static int open_dwarf_lazy(struct cli_input *in, const char *path,
			   const char *formats, unsigned flags, struct d2b_error *err)
{
	struct d2b_error probe_err = { 0 };
	struct elf_file *ef;

	if (!path || (formats && (strncmp(formats, "dwarf", 5) ||
				  (formats[5] && formats[5] != ','))))
		return 1;
	ef = elf_file_open(path, &probe_err);
	if (!ef)
		return 1;
	if (!elf_file_find_section(ef, ".debug_info") &&
	    !elf_file_find_section(ef, ".zdebug_info")) {
		elf_file_close(ef);
		return 1;
	}
	memset(in, 0, sizeof(*in));
	if (dw_file_init_flags(&in->dwarf.dwarf, ef, DW_FILE_LAZY_UNITS | flags, err)) {
		elf_file_close(ef);
		return -1;
	}
	in->dwarf.elf = ef;
	in->format = CLI_FORMAT_DWARF;
	return 0;
}

/*
 * The -C names as load_options.only_types wants them (split at commas as
 * pahole_select does), so that the loader decodes of each unit only what
 * printing them needs. Not with D2B_PAHOLE_FULL_WALK set (tests compare
 * both), nor for more than PARTIAL_MAX_NAMES names. Returns the array
 * (free it and *BUF), or NULL: none, too many, or no memory
 * (then the full walk, which prints the same).
 */
#define PARTIAL_MAX_NAMES 256

static const char **partial_names(const char *class_names, char **buf, size_t *nr)
{
	const char **names;
	size_t n = 1;
	char *s, *save = NULL;

	*buf = NULL;
	*nr = 0;
	if (!class_names || getenv("D2B_PAHOLE_FULL_WALK"))
		return NULL;
	for (const char *c = class_names; *c; c++)
		n += *c == ',';
	/* Past a few hundred names most units hold some of them, and decoding
	 * each with what it needs costs more than the walk (vmlinux: 300
	 * names 0.54 s partial, 0.60 s full; 2,000 names 1.10 s, 0.60 s). */
	if (n > PARTIAL_MAX_NAMES)
		return NULL;
	*buf = strdup(class_names);
	names = calloc(n, sizeof(*names));
	if (!*buf || !names) {
		free(*buf);
		free(names);
		*buf = NULL;
		return NULL;
	}
	for (s = strtok_r(*buf, ",", &save); s; s = strtok_r(NULL, ",", &save))
		names[(*nr)++] = s;
	return names;
}

/* pahole_select_opts.check_name: -C NAME(ARGS)'s checks (a prettify) */
static bool check_name_args(void *ctx, size_t index, const struct cu_model *cu,
			    const struct type *t)
{
	return prettify_check_type(ctx, index, cu, t);
}

/* The units of PATH into R's listing, which goes on over the files that
 * follow (R->sel: pahole_select_next_file()). PATH NULL: the running
 * kernel's BTF. FORMATS NULL: DWARF, else BTF (pahole 1.24 reads a named
 * file's DWARF unless -F says otherwise, and its BTF when it has none). */
static int run_file(struct pahole_run *r, const char *path, const char *formats,
		    const char *btf_base, const struct pahole_select_opts *so,
		    unsigned threads, size_t thread_bytes, struct d2b_error *err)
{
	struct cli_input in;
	struct cu_stream_options copts = { 0 };
	const char *names_lo = NULL, *names_hi = NULL;
	uint64_t t_start = r->timed ? now_ns() : 0, t_open = 0, t_run = 0;
	long f_start = r->timed ? minor_faults() : 0, f_open = 0, f_run = 0;
	const char **names;
	char *names_buf;
	uint32_t *order;
	/* -D (not with -C) and -I read the files types are declared in */
	bool needs_files = so->print.show_decl_info ||
			   (!so->class_names && pahole_filter_needs_files(&so->filter));
	int rc;

	/* no line table unless -D or -I asks for the files: the units are
	 * loaded with skip_line_files (below) */
	rc = so->class_names ? open_dwarf_lazy(&in, path, formats,
					       needs_files ? 0 : DW_FILE_NO_LINE, err) : 1;
	if (rc < 0 || (rc > 0 && cli_input_open(&in, path, formats, btf_base,
						 needs_files ? 0 : DW_FILE_NO_LINE, err)))
		return -1;
	if (in.format == CLI_FORMAT_DWARF && in.dwarf.dwarf.sec[DW_SEC_STR].data) {
		const struct dw_section *str = &in.dwarf.dwarf.sec[DW_SEC_STR];

		/* mapped (or decompressed) for as long as the file is open */
		names_lo = (const char *)str->data;
		names_hi = (const char *)str->data + str->size;
	}
	pahole_select_next_file(r->sel, names_lo, names_hi);
	/* every -C name printed from the files before: 1.24 still loads
	 * this one (and fails where it cannot), printing nothing of it */
	if (pahole_select_done(r->sel)) {
		cli_input_close(&in);
		return 0;
	}
	r->stopped = false;
	r->nr_units = r->nr_partial = r->nr_types = 0;
	r->print_ns = 0;
	r->print_flt = 0;
	/* -C task_struct is 21 KB of text: no regrowth on the way */
	if (so->class_names)
		strbuf_room(&r->out, 64 << 10);
	copts.threads = threads;
	copts.thread_bytes = thread_bytes;
	/* -C finds types defined inside functions too, and
	 * --show_private_classes lists them */
	copts.load.skip_functions = !so->class_names && !so->filter.private_classes &&
				    so->stats != PAHOLE_STATS_NR_METHODS;
	copts.load.skip_locations = true;
	copts.load.skip_line_files = !needs_files;
	copts.load.kabi_prefix = r->kabi_prefix;
	copts.load.fixup_silly_bitfields = r->fixup_silly_bitfields;
	/* each unit's lookup keys on the thread that decoded it */
	if (!so->class_names) {
		copts.prepare = pahole_select_prepare;
		copts.prepare_ctx = r->sel;
	}
	/* -i and -f look at every struct of the unit that has the name */
	/* (--kabi_prefix renames what the partial load would look up; -p
	 * prints what pointers reach, which it decodes for their names only) */
	/* (-C NAME(ARGS): the checks look for type_enum's enumerations,
	 * which a partial load may not hold) */
	names = partial_names(so->names_mode == PAHOLE_NAMES_CONTAINERS ||
			      so->names_mode == PAHOLE_NAMES_POINTERS || r->kabi_prefix ||
			      so->print.expand_pointers || so->check_name ?
			      NULL : so->class_names, &names_buf, &copts.load.nr_only_types);
	copts.load.only_types = names;
	/* sorted once here, not by each unit's load (NULL: they sort) */
	order = names ? load_sort_type_names(names, copts.load.nr_only_types) : NULL;
	copts.load.only_types_order = order;
	if (r->timed) {
		t_open = now_ns();
		f_open = minor_faults();
	}
	rc = cli_input_run(&in, &copts, consume, r, err);
	if (r->timed) {
		t_run = now_ns();
		f_run = minor_faults();
	}
	/* For tests: how much of the unit index a run needed (lazy with -C) */
	if (in.format == CLI_FORMAT_DWARF && r->timed) {
		fprintf(stderr, "d2b-stats: %zu unit headers indexed (%s)\n",
			in.dwarf.dwarf.nr_units,
			in.dwarf.dwarf.units_complete ? "all" : "lazy, stopped early");
		/* and how much of them a partial load (-C) decoded */
		fprintf(stderr, "d2b-units: %zu units, %zu partial, %zu types\n",
			r->nr_units, r->nr_partial, r->nr_types);
	}
	/* and how many of a BTF's types its model (partial with -C) holds */
	if (in.format == CLI_FORMAT_BTF && r->timed)
		fprintf(stderr, "d2b-btf-model: %zu types\n", r->nr_types);
	free(order);
	free(names);
	free(names_buf);
	if (rc && r->stopped) {
		d2b_error_clear(err);
		rc = 0;
	}
	cli_input_close(&in);
	/* Where a run's time went (bench/, docs/performance.md): open, decode
	 * (the units' wall time less the printing), print (select, format,
	 * write), close; minor page faults of each */
	if (r->timed)
		fprintf(stderr, "d2b-times: open %.0f us (%ld faults), decode %.0f us (%ld), "
			"print %.0f us (%ld), close %.0f us; %ld faults before\n",
			(double)(t_open - t_start) / 1e3, f_open - f_start,
			(double)(t_run - t_open - r->print_ns) / 1e3,
			f_run - f_open - r->print_flt,
			(double)r->print_ns / 1e3, r->print_flt,
			(double)(now_ns() - t_run) / 1e3, f_start);
	return rc;
}

/* What the listing prints once every file was read (-T), and the first
 * -C name no file had, as 1.24 reports it once at the end. */
static int finish_files(struct pahole_run *r, const struct pahole_select_opts *so,
			struct d2b_error *err)
{
	if (pahole_select_finish(r->sel, &r->out, err))
		return -1;
	if (r->out.len && write_all(r->out.buf, r->out.len))
		return d2b_error_set(err, "writing the output failed");
	if (fflush(stdout))
		return d2b_error_set(err, "writing the output failed");
	if (pahole_select_missing(r->sel))
		fprintf(stderr, "pahole: type '%s' not found%s\n", pahole_select_missing(r->sel),
			so->check_name && prettify_has_args(so->check_ctx,
							    pahole_select_missing_index(r->sel))
				? " or arguments not validated" : "");
	return 0;
}

/* pahole's BTF encoding options: with any of these, pahole encodes instead
 * of printing (-J, --btf_encode_detached) or answers about encoding. */
bool pahole_wants_btf_encoding(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--"))
			break;
		if (!strcmp(a, "-J") || !strncmp(a, "--btf_encode_detached", 21) ||
		    !strcmp(a, "--supported_btf_features"))
			return true;
	}
	return false;
}

/*
 * `pahole task_struct`: without -C, a first argument that is no file we
 * can read names the types (a list, as -C's), read from the running
 * kernel's BTF; the other arguments are then ignored (pahole's "sole
 * argument as class names"). Where pahole does this for any argument it
 * cannot load, a missing path (one with a '/'), or any name when there is
 * no running kernel's BTF to read, stays a missing file: one line and
 * exit 1, not "type ... not found".
 */
static bool names_types(const char *arg)
{
	if (strchr(arg, '/') || !access(arg, R_OK))
		return false;
	if (errno != ENOENT && errno != EACCES && errno != ENOTDIR)
		return false;
	return !access(btf_default_vmlinux_path(), R_OK);
}

/* --prettify: each file's units until one has the types */
struct prettify_run {
	struct prettify *pp;
	const struct pahole_filter *filter;
	bool done;
};

static int prettify_consume(void *ctx, struct cu_model *cu, struct d2b_error *err)
{
	struct prettify_run *r = ctx;

	if (pahole_filter_skips_unit(r->filter, cu))
		return 0;
	if (prettify_unit(r->pp, cu)) {
		r->done = true;
		return d2b_error_set(err, "done");
	}
	return 0;
}

static int prettify_main(int argc, char **argv, int first, const char *path,
			 struct prettify_opts *po, const char *formats, const char *btf_base,
			 unsigned threads, size_t thread_bytes, const struct pahole_filter *filter,
			 bool fixup_silly_bitfields)
{
	struct prettify_run r = { .filter = filter };
	struct d2b_error err = { 0 };
	int rc = 0;

	po->out = stdout;
	po->input = strcmp(path, "-") ? fopen(path, "re") : stdin;
	if (!po->input) {
		fprintf(stderr, "Failed to read input '%s': %s\n", path, strerror(errno));
		return 1;
	}
	r.pp = prettify_create(po);
	if (!r.pp) {
		if (po->input != stdin)
			fclose(po->input);
		return 1;
	}
	for (int i = first; i < argc && !r.done && !rc; i++) {
		struct cli_input in;
		struct cu_stream_options copts = { .threads = threads, .thread_bytes = thread_bytes };

		if (cli_input_open(&in, argv[i], formats, btf_base, DW_FILE_NO_LINE, &err)) {
			rc = cli_fail("pahole", &err);
			break;
		}
		copts.load.skip_functions = true;
		copts.load.skip_locations = true;
		copts.load.skip_line_files = true;
		copts.load.fixup_silly_bitfields = fixup_silly_bitfields;
		if (cli_input_run(&in, &copts, prettify_consume, &r, &err) && !r.done)
			rc = cli_fail("pahole", &err);
		d2b_error_clear(&err);
		cli_input_close(&in);
	}
	if (!rc && !r.done)
		prettify_finish(r.pp);
	if (!rc)
		rc = prettify_status(r.pp);
	if (fflush(stdout) && !rc) {
		fputs("pahole: writing the output failed\n", stderr);
		rc = 1;
	}
	prettify_destroy(r.pp);
	if (po->input != stdin)
		fclose(po->input);
	return rc;
}

/*
 * --lang/--lang_exclude's list, as 1.24 reads it: names split at each
 * comma (an empty one is unknown), any case. An unknown name gets 1.24's
 * line, which quotes the list from that name on. Returns 0 with *OUT
 * (free it) and *NR set, or -1 (the message printed).
 */
static int parse_langs(const char *list, uint16_t **out, uint32_t *nr)
{
	size_t n = 1;
	const char *p = list;

	for (const char *c = list; *c; c++)
		n += *c == ',';
	*nr = 0;
	*out = calloc(n, sizeof(**out));
	if (!*out) {
		fputs("pahole: out of memory\n", stderr);
		return -1;
	}
	for (;;) {
		const char *sep = strchr(p, ',');
		int lang = dw_lang_by_name(p, sep ? (size_t)(sep - p) : strlen(p));

		if (lang < 0) {
			fprintf(stderr, "pahole: unknown language \"%s\"\n", p);
			free(*out);
			*out = NULL;
			return -1;
		}
		(*out)[(*nr)++] = (uint16_t)lang;
		if (!sep)
			return 0;
		p = sep + 1;
	}
}

int pahole_main(int argc, char **argv)
{
	struct pahole_select_opts so = { .mode = PAHOLE_LAYOUT, .separator = '\t' };
	bool verbose = false, defined_in = false, find_containers = false, find_pointers = false;
	bool reorganize = false;
	int long_index = 0;
	struct d2b_error err = { 0 };
	const char *formats = NULL, *btf_base = NULL, *langs_arg = NULL, *prettify_path = NULL;
	struct prettify_opts po = { 0 };
	char *names_buf = NULL;
	struct prettify *name_checks = NULL;	/* -C NAME(ARGS) without --prettify */
	uint16_t *langs = NULL;
	unsigned threads = 1;
	size_t thread_bytes = CU_STREAM_THREAD_BYTES;
	void *big = NULL;
	struct pahole_run run = { .timed = getenv("D2B_PAHOLE_STATS") != NULL };
	int c, rc = 0;

	if (pahole_wants_btf_encoding(argc, argv))
		return encode_main(argc, argv);

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":aAB:C:c:dD:Ef:F:H:i:Ij::lmMnNpPqrRsSt:TuVw:x:X:y:z:",
				long_opts, &long_index)) != -1) {
		switch (c) {
		case 'S':
			so.reorg_steps = true;
			break;
		case 'w':
			for (long_index = 0; long_opts[long_index].val != c; long_index++)
				;
			fprintf(stderr, "pahole: option -%c/--%s is not supported yet\n", c,
				long_opts[long_index].name);
			return 1;
		case OPT_UNSUPPORTED:
			fprintf(stderr, "pahole: option --%s is not supported yet\n",
				long_opts[long_index].name);
			return 1;
		case 'l':
			so.print.first_biggest = true;
			break;
		case 'p':
			so.print.expand_pointers = true;
			break;
		case 'a':
			so.filter.anon = true;
			break;
		case 'd':
			so.recursive = true;
			break;
		case 'R':
			reorganize = true;
			break;
		case 'm':
			so.stats = PAHOLE_STATS_NR_METHODS;
			break;
		case 'P':
			so.filter.packable = true;
			break;
		case 'M':
			so.print.show_only_data_members = true;
			break;
		case 'q':
			so.print.quiet = true;
			break;
		case OPT_PRIVATE_CLASSES:
			/* 1.24: and only the data members */
			so.filter.private_classes = true;
			so.print.show_only_data_members = true;
			break;
		case OPT_FIRST_OBJ_ONLY:
			so.first_obj_only = true;
			break;
		case OPT_SORT:
			so.sort = true;
			break;
		case OPT_HASHBITS: {
			/* the size of 1.24's hash tables: nothing to us but
			 * its check (of the value as 1.24 keeps it, 8 bits) */
			uint8_t bits = (uint8_t)atoi(optarg);

			if (bits >= 32) {
				fprintf(stderr, "Invalid --hashbits value (%d) should be less than 32\n",
					bits);
				return 1;
			}
			break;
		}
		case OPT_KABI_PREFIX:
			run.kabi_prefix = optarg;
			break;
		case OPT_FIXUP_SILLY_BITFIELDS:
			run.fixup_silly_bitfields = true;
			break;
		case OPT_COUNT:
			po.count = (uint32_t)atoi(optarg);
			break;
		case OPT_SKIP:
			po.skip = (uint32_t)atoi(optarg);
			break;
		case OPT_SEEK_BYTES:
			po.seek_bytes = optarg;
			break;
		case OPT_SIZE_BYTES:
			po.size_bytes = optarg;
			break;
		case OPT_HEADER_TYPE:
			po.header_type = optarg;
			break;
		case OPT_RANGE:
			po.range = optarg;
			break;
		case OPT_PRETTIFY:
			prettify_path = optarg;
			break;
		case OPT_COMPILE:
			so.compile = true;
			/* -C's types as the emitter's: data members only (all
			 * BTF has; from DWARF, what compiles) */
			so.print.show_only_data_members = true;
			break;
		case OPT_LANG:
		case OPT_LANG_EXCLUDE:
			/* one list: the last given; "exclude" once set stays
			 * (1.24's languages.exclude) */
			langs_arg = optarg;
			so.filter.lang_exclude |= c == OPT_LANG_EXCLUDE;
			break;
		case OPT_SKIP_MISSING:
			so.skip_missing = true;
			break;
		case OPT_CLASSES_AS_STRUCTS:
			so.print.classes_as_structs = true;
			break;
		case OPT_FLAT_ARRAYS:
			so.print.flat_arrays = true;
			break;
		case OPT_SUPPRESS_FORCE_PADDINGS:
			so.print.suppress_force_paddings = true;
			break;
		case 'f':
			so.class_names = optarg;
			find_pointers = true;
			break;
		case 'i':
			so.class_names = optarg;
			find_containers = true;
			break;
		case 'u':
			defined_in = true;
			break;
		case 'A':
			so.filter.nested_anon = true;
			break;
		case 'B':
			so.filter.nr_bit_holes = (uint16_t)atoi(optarg);
			break;
		case 'D':
			so.filter.decl_exclude = optarg;
			break;
		case 'H':
			so.filter.nr_holes = (uint16_t)atoi(optarg);
			break;
		case 'I':
			so.print.show_decl_info = true;
			break;
		case 'n':
			so.mode = PAHOLE_NR_MEMBERS;
			break;
		case 'N':
			so.mode = PAHOLE_NAME_LEN;
			break;
		case 't':
			so.separator = optarg[0];
			break;
		case 'T':
			so.stats = PAHOLE_STATS_NR_DEFINITIONS;
			so.mode = PAHOLE_NOTHING;
			break;
		case 'V':
			verbose = so.verbose = true;
			break;
		case 'x':
			so.filter.exclude = optarg;
			break;
		case 'X':
			so.filter.cu_exclude = optarg;
			break;
		case 'y':
			so.filter.include = optarg;
			break;
		case 'z':
			so.filter.hole_size_ge = (uint16_t)atoi(optarg);
			/* 1.24: the names only, unless -V came before */
			if (!verbose)
				so.mode = PAHOLE_NAMES;
			break;
		case OPT_STRUCTS:
			so.filter.structs_only = true;
			break;
		case OPT_UNIONS:
			so.filter.unions_only = true;
			break;
		case OPT_PACKED:
			so.filter.structs_only = true;
			so.filter.packed_only = true;
			break;
		case OPT_FLEXIBLE_ARRAY:
			so.filter.flexible_array_only = true;
			break;
		case OPT_NUMERIC_VERSION:
			/* PAHOLE_VERSION's digits: "v1.27" -> 127 */
			for (const char *v = PAHOLE_VERSION; *v; v++)
				if (*v >= '0' && *v <= '9')
					putchar(*v);
			putchar('\n');
			return 0;
		case 'C':
			so.class_names = optarg;
			break;
		case 'c':
			so.print.cacheline_size = (unsigned)atoi(optarg);
			break;
		case 'E':
			so.print.expand_types = true;
			break;
		case 'F':
			formats = optarg;
			break;
		case OPT_BTF_BASE:
			btf_base = optarg;
			break;
		case 'j':
			threads = cli_parse_jobs(optarg);
			if (!threads) {
				d2b_error_set(&err, "invalid --jobs value '%s'", optarg);
				return cli_fail("pahole", &err);
			}
			break;
		case OPT_THREAD_BYTES:
			if (cli_parse_thread_bytes(optarg, &thread_bytes)) {
				d2b_error_set(&err, "invalid --thread_bytes value '%s'", optarg);
				return cli_fail("pahole", &err);
			}
			break;
		case 'r':
			so.print.rel_offset = true;
			break;
		case 's':
			so.mode = PAHOLE_SIZES;
			break;
		case OPT_HEX:
			so.print.hex = true;
			break;
		case OPT_SUPPRESS_PACKED:
			so.print.suppress_packed = true;
			break;
		case OPT_SUPPRESS_ALIGNED:
			so.print.suppress_aligned = true;
			break;
		case OPT_VERSION:
			puts(PAHOLE_VERSION);
			return 0;
		case OPT_HELP:
			usage(stdout);
			return 0;
		default:
			if (c == '?' && optopt == '?') {	/* -? */
				usage(stdout);
				return 0;
			}
			/* glibc's getopt lines, as 1.24's argp prints them
			 * (the program as it was called, then its name) */
			if (c == ':' && !strncmp(argv[optind - 1], "--", 2))
				fprintf(stderr, "%s: option '%s' requires an argument\n", argv[0],
					argv[optind - 1]);
			else if (c == ':')
				fprintf(stderr, "%s: option requires an argument -- '%c'\n", argv[0],
					optopt);
			else if (!optopt)
				fprintf(stderr, "%s: unrecognized option '%s'\n", argv[0],
					argv[optind - 1]);
			else
				fprintf(stderr, "%s: invalid option -- '%c'\n", argv[0], optopt);
			fputs("Try `pahole --help' or `pahole --usage' for more information.\n", stderr);
			return 64;
		}
	}
	if (langs_arg && parse_langs(langs_arg, &langs, &so.filter.nr_langs))
		return 1;
	/* -C's arguments and file:// lists (--prettify's syntax): the listing
	 * takes the names */
	if (!prettify_path && so.class_names &&
	    (strchr(so.class_names, '(') || strstr(so.class_names, "file://"))) {
		struct prettify_opts checks = { .class_names = so.class_names };

		names_buf = prettify_type_names(so.class_names, so.verbose, stdout);
		/* 1.24 checks the arguments as it finds each type (quietly
		 * parsed again: prettify_type_names said what -V says) */
		if (names_buf && strchr(so.class_names, '(') &&
		    !(name_checks = prettify_create(&checks))) {
			free(names_buf);
			names_buf = NULL;
		}
		if (!names_buf) {
			free(langs);
			return 1;
		}
		if (name_checks) {
			so.check_name = check_name_args;
			so.check_ctx = name_checks;
		}
		so.class_names = names_buf;
	}
	/* --prettify with types (-C, or --header_type alone: -C it --count 1) */
	if (prettify_path && (so.class_names || po.header_type)) {
		po.class_names = so.class_names;
		if (!po.class_names) {
			po.class_names = po.header_type;
			po.header_type = NULL;
			po.count = 1;
		}
		po.hex = so.print.hex;
		po.verbose = so.verbose;
		free(langs);
		return prettify_main(argc, argv, optind, prettify_path, &po, formats, btf_base,
				     threads, thread_bytes, &so.filter, run.fixup_silly_bitfields);
	}
	so.filter.langs = langs;
	if (so.class_names && so.stats == PAHOLE_STATS_NR_METHODS) {
		free(langs);
		fputs("pahole: -m/nr_methods doesn't work with --class/-C, it shows all "
		      "classes and the number of its methods\n", stderr);
		return 1;
	}
	/* what a class name found prints: 1.24's order of precedence */
	if (defined_in)
		so.names_mode = PAHOLE_NAMES_DEFINED_IN;
	else if (reorganize)
		so.names_mode = PAHOLE_NAMES_REORGANIZE;
	else if (find_containers)
		so.names_mode = PAHOLE_NAMES_CONTAINERS;
	else if (find_pointers)
		so.names_mode = PAHOLE_NAMES_POINTERS;
	if (!so.class_names && optind < argc && names_types(argv[optind])) {
		so.class_names = argv[optind];
		optind = argc;
	}
	if (cli_inputs_want_huge_pages(argv + optind, (size_t)(argc - optind), formats, btf_base))
		(void)cli_heap_for_big_model(argv, (size_t)64 << 20, &big);
	run.sel = pahole_select_create(&so, &err);
	if (!run.sel)
		rc = cli_fail("pahole", &err);
	/* No file: the running kernel's BTF, as pahole does. */
	if (!rc && optind >= argc &&
	    run_file(&run, NULL, "btf", btf_base, &so, threads, thread_bytes, &err))
		rc = cli_fail("pahole", &err);
	for (int i = optind; i < argc && !rc; i++)
		if (run_file(&run, argv[i], formats, btf_base, &so, threads, thread_bytes,
			     &err))
			rc = cli_fail("pahole", &err);
	if (!rc && finish_files(&run, &so, &err))
		rc = cli_fail("pahole", &err);
	strbuf_free(&run.out);
	pahole_select_destroy(run.sel);
	free(big);
	free(langs);
	free(names_buf);
	prettify_destroy(name_checks);
	return rc;
}
