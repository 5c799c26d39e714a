// SPDX-License-Identifier: GPL-2.0-only
/* One input, opened per -F FORMAT_LIST, delivered as cu_models in order. */
#include "cli/cli_input.h"

#include <string.h>
#include <sys/stat.h>

/* The formats tried without -F, in pahole 1.24's order (its table of
 * debugging formats): a file without DWARF is read as BTF, an ELF file's
 * .BTF or a raw BTF file. */
#define DEFAULT_FORMATS "dwarf,btf"

/* Does PATH hold DWARF? (an ELF file with a .debug_info section) */
static bool has_dwarf(const char *path)
{
	struct d2b_error err = { 0 };
	struct elf_file *ef = elf_file_open(path, &err);
	bool r;

	if (!ef)
		return false;
	r = elf_file_find_section(ef, ".debug_info") ||
	    elf_file_find_section(ef, ".zdebug_info");
	elf_file_close(ef);
	return r;
}

/* The format NAME (LEN bytes) if PATH has it, else CLI_FORMAT_NONE. */
static enum cli_format has_format(const char *path, const char *name, size_t len)
{
	if (len == 5 && !strncmp(name, "dwarf", 5))
		return path && has_dwarf(path) ? CLI_FORMAT_DWARF : CLI_FORMAT_NONE;
	if (len == 3 && !strncmp(name, "btf", 3)) {
		enum btf_probe p;

		/* No file: the running kernel's, whose absence is an error. */
		if (!path)
			return CLI_FORMAT_BTF;
		p = btf_probe_file(path);
		return p == BTF_PROBE_RAW || p == BTF_PROBE_ELF ? CLI_FORMAT_BTF : CLI_FORMAT_NONE;
	}
	return CLI_FORMAT_NONE;
}

/* BTF_BASE, else the base pahole takes for a module's BTF in sysfs. */
static const char *base_for(const char *path, const char *btf_base)
{
	return btf_base ? btf_base : btf_sysfs_module_base(path);
}

static int try_format(struct cli_input *in, const char *path, const char *name,
		      size_t len, const char *btf_base, unsigned dwarf_flags,
		      struct d2b_error *err)
{
	switch (has_format(path, name, len)) {
	case CLI_FORMAT_DWARF:
		if (cli_dwarf_open_flags(&in->dwarf, path, dwarf_flags, err))
			return -1;
		in->format = CLI_FORMAT_DWARF;
		return 0;
	case CLI_FORMAT_BTF:
		in->btf = btf_handle_open(path, base_for(path, btf_base), err);
		if (!in->btf)
			return -1;
		in->format = CLI_FORMAT_BTF;
		return 0;
	case CLI_FORMAT_NONE:
		break;
	}
	return 1;
}

/* The next name of the format list at *P: *NAME, *LEN bytes; *P moves
 * past it and its comma. False at the list's end. */
static bool next_format(const char **p, const char **name, size_t *len)
{
	if (!**p)
		return false;
	*name = *p;
	*len = strcspn(*p, ",");
	*p += *len;
	if (**p == ',')
		(*p)++;
	return true;
}

enum cli_format cli_input_probe(const char *path, const char *formats)
{
	size_t n;

	if (!formats)
		formats = DEFAULT_FORMATS;
	if (!path)
		return CLI_FORMAT_BTF;
	for (const char *p = formats, *name; next_format(&p, &name, &n);) {
		enum cli_format f = has_format(path, name, n);

		if (f != CLI_FORMAT_NONE)
			return f;
	}
	return CLI_FORMAT_NONE;
}

int cli_input_open(struct cli_input *in, const char *path, const char *formats,
		   const char *btf_base, unsigned dwarf_flags,
		   struct d2b_error *err)
{
	const char *asked = formats, *p, *name;
	size_t n;

	memset(in, 0, sizeof(*in));
	if (!formats)
		formats = DEFAULT_FORMATS;
	if (!path)	/* the running kernel: BTF only */
		return try_format(in, NULL, "btf", 3, btf_base, 0, err) ? -1 : 0;
	for (p = formats; next_format(&p, &name, &n);) {
		int r = try_format(in, path, name, n, btf_base, dwarf_flags, err);

		if (r <= 0)
			return r;
	}
	/* Nothing matched. Unless raw BTF was asked for by name, a file that
	 * is not even ELF gets the reason: missing, empty, not ELF. */
	if (!asked || !strstr(formats, "btf")) {
		struct elf_file *ef = elf_file_open(path, err);

		if (!ef)
			return -1;
		elf_file_close(ef);
	}
	/* (1.24 says "supported" when no -F named the formats) */
	return d2b_error_set(err, "file '%s' has no %s type information.", path,
			     asked ? formats : "supported");
}

int cli_input_run(struct cli_input *in, const struct cu_stream_options *opts,
		  cu_consumer_fn consume, void *ctx, struct d2b_error *err)
{
	struct cu_model *cu;
	int rc;

	switch (in->format) {
	case CLI_FORMAT_DWARF:
		return cu_stream_run(&in->dwarf.dwarf, opts, consume, ctx, NULL, err);
	case CLI_FORMAT_BTF: {
		/* pahole -C: the named types and what they reach */
		const struct btf_model_only only = {
			.names = opts->load.only_types,
			.nr_names = opts->load.nr_only_types,
			.order = opts->load.only_types_order,
		};

		cu = btf_handle_load_model(in->btf, only.nr_names ? &only : NULL, err);
		if (!cu)
			return -1;
		rc = consume(ctx, cu, err);
		cu_model_destroy(cu);
		return rc;
	}
	case CLI_FORMAT_NONE:
		break;
	}
	return d2b_error_set(err, "no input open");
}

void cli_input_close(struct cli_input *in)
{
	if (in->format == CLI_FORMAT_DWARF)
		cli_dwarf_close(&in->dwarf);
	btf_handle_close(in->btf);
	in->btf = NULL;
	in->format = CLI_FORMAT_NONE;
}

/* Whether the list FORMATS names NAME. */
static bool names_format(const char *formats, const char *name)
{
	size_t len = strlen(name), n;

	for (const char *p = formats, *f; next_format(&p, &f, &n);)
		if (n == len && !strncmp(f, name, n))
			return true;
	return false;
}

/* Whether PATH is a file of at least BYTES (stat's size). */
static bool at_least(const char *path, off_t bytes)
{
	struct stat st;

	return path && !stat(path, &st) && st.st_size >= bytes;
}

bool cli_inputs_want_huge_pages(char *const *paths, size_t n, const char *formats,
				const char *btf_base)
{
	const off_t big = (off_t)1 << 20;

	if (!n)	/* the running kernel's BTF */
		return at_least(btf_default_vmlinux_path(), big) || at_least(btf_base, big);
	/* No file is read as BTF: no probe (it opens and maps each file, 0.2
	 * ms of a 3.5 ms `pahole -C task_struct vmlinux` on the project's VM).
	 * Without -F neither: a file is BTF then only when it has no DWARF,
	 * and a BTF that big is read from the kernel or named with -F */
	if (!formats || !names_format(formats, "btf"))
		return false;
	for (size_t i = 0; i < n; i++) {
		if (cli_input_probe(paths[i], formats) != CLI_FORMAT_BTF)
			continue;
		if (at_least(paths[i], big) || at_least(base_for(paths[i], btf_base), big))
			return true;
	}
	return false;
}
