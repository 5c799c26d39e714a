/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli/cli_input.h: one input file opened per pahole's -F FORMAT_LIST
 * ("dwarf", "btf", "btf,dwarf"...: the first format the file has wins),
 * delivered as cu_models in order.
 *
 *   struct cli_input in;
 *   if (cli_input_open(&in, path, "btf,dwarf", base, 0, &err)) ...fail...
 *   rc = cli_input_run(&in, &stream_opts, consume, ctx, &err);
 *   cli_input_close(&in);
 *
 * DWARF: every unit, through cu_stream_run() (threads, skip_type_units and
 * load options from the cu_stream_options). BTF: one cu_model holding the
 * whole BTF (btf/btf_load.h; base types first with --btf_base), built and
 * destroyed around the one consume() call. In both cases consume() must
 * copy what it keeps; the input's strings stay valid until
 * cli_input_close().
 *
 * PATH NULL means the running kernel's BTF (btf_default_vmlinux_path():
 * $PAHOLE_VMLINUX_BTF_FILENAME, else /sys/kernel/btf/vmlinux), whatever the
 * list says. FORMATS NULL means "dwarf,btf", pahole 1.24's default: a
 * file without DWARF is read as BTF (its .BTF, or a raw BTF file).
 */
#ifndef D2B_CLI_CLI_INPUT_H
#define D2B_CLI_CLI_INPUT_H

#include "btf/btf_load.h"
#include "cli/cli.h"

enum cli_format {
	CLI_FORMAT_NONE,
	CLI_FORMAT_DWARF,
	CLI_FORMAT_BTF,
};

struct cli_input {
	enum cli_format format;		/* the one that was opened */
	struct cli_dwarf_input dwarf;	/* CLI_FORMAT_DWARF */
	struct btf_handle *btf;		/* CLI_FORMAT_BTF */
};

/*
 * Open PATH in the first format of FORMATS it has. BTF_BASE (may be NULL)
 * is the base of split BTF (NULL: none, but a module's BTF in sysfs is read
 * on the running kernel's, as pahole does: btf_sysfs_module_base()). A
 * file that has a format (an ELF file with .debug_info for "dwarf"; raw
 * BTF, or an ELF file with .BTF, for "btf")
 * but fails to open in it stops the search with that error (corrupt BTF is
 * reported, not skipped). A file with none of the formats (unknown names
 * never match) fails with "file 'PATH' has no LIST type information.", as
 * pahole says it ("supported" for LIST when FORMATS is NULL; a missing
 * file, or one that is neither ELF nor raw BTF, gets its own reason
 * unless FORMATS names btf). DWARF_FLAGS are dw_file_init_flags()'s for a DWARF input
 * (DW_FILE_NO_LINE when the units are loaded with skip_line_files: a
 * module's .debug_line is then neither copied nor relocated). Returns 0,
 * or -1 with err set.
 */
int cli_input_open(struct cli_input *in, const char *path, const char *formats,
		   const char *btf_base, unsigned dwarf_flags,
		   struct d2b_error *err);

/* The format cli_input_open() would open PATH in, without opening it
 * (CLI_FORMAT_NONE: none, or it cannot tell; cli_input_open() then reports
 * why). */
enum cli_format cli_input_probe(const char *path, const char *formats);

/*
 * Whether reading PATHS (N of them; none: the running kernel's BTF) as
 * cli_input_open() would builds the model of a whole BTF of a MiB or more
 * (the file or BTF_BASE that big): its big blocks should then come from
 * huge pages (cli_heap_for_big_model()). A vmlinux's BTF model is ~30 MB
 * of fresh memory, and its bytes and libbpf's copy 11 MB more: `pahole -F
 * btf -C task_struct vmlinux` took 6,500 page faults and 78 ms on 4 KiB
 * pages, 22 ms on huge pages; `pfunct -F btf vmlinux` 92 -> 20 ms (the
 * project's VM, 2026-12-05; since then the partial model and one exec
 * instead of two: 12.6 and 19.6-20.2 ms).
 */
bool cli_inputs_want_huge_pages(char *const *paths, size_t n, const char *formats,
				const char *btf_base);

/* Deliver the units (see above); with opts->load.only_types, partial
 * models of DWARF units and of a BTF alike. Returns 0 or -1 with err set
 * (consume's error included). */
int cli_input_run(struct cli_input *in, const struct cu_stream_options *opts,
		  cu_consumer_fn consume, void *ctx, struct d2b_error *err);

void cli_input_close(struct cli_input *in);	/* idempotent */

#endif
