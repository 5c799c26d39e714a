/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli/: the command-line front ends. One binary, dispatched on its name:
 *   pahole ...            (argv[0] basename "pahole")
 *   pfunct ...            (argv[0] basename "pfunct")
 *   dwarf2btf pahole ...  / dwarf2btf pfunct ... / dwarf2btf <native command>
 */
#ifndef D2B_CLI_CLI_H
#define D2B_CLI_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "dwarf/dwarf.h"
#include "elf/elf_file.h"
#include "pipeline/cu_stream.h"

/* Front ends: each returns the process exit status. argv[0] is the name the
 * command was called by ("pahole", "pfunct", "dump-dies"...). The encoder
 * (encode_main, pahole_main's -J) first puts its heap on huge pages: in
 * this process for one thread (cli_heap_for_big_model), by running the
 * program again for threads (cli_reexec_on_huge_pages); neither where
 * D2B_NO_HUGEPAGE is set: a caller that runs front ends in its own process
 * (fuzz/fuzz_cli.c) sets it. */
int pahole_main(int argc, char **argv);
/* Whether pahole's ARGV asks it to encode (-J, --btf_encode_detached...):
 * then pahole_main() is encode_main(). */
bool pahole_wants_btf_encoding(int argc, char **argv);
int pfunct_main(int argc, char **argv);
int dump_dies_main(int argc, char **argv);
int demo_main(int argc, char **argv);
int walk_main(int argc, char **argv);
int encode_main(int argc, char **argv);
int btfdiff_main(int argc, char **argv);
int load_main(int argc, char **argv);

/* An ELF file opened for its DWARF. */
struct cli_dwarf_input {
	struct elf_file *elf;
	struct dw_file dwarf;
};

/* Open PATH and index its DWARF. On failure err says why. */
int cli_dwarf_open(struct cli_dwarf_input *in, const char *path,
		   struct d2b_error *err);
/* The same with dw_file_init_flags' DW_FILE_* FLAGS. */
int cli_dwarf_open_flags(struct cli_dwarf_input *in, const char *path, unsigned flags,
			 struct d2b_error *err);
void cli_dwarf_close(struct cli_dwarf_input *in);

/* Parse the value of -j / --jobs: NULL or "" means every CPU. Returns the
 * thread count, or 0 on a malformed value. */
unsigned cli_parse_jobs(const char *arg);
/* Parse the value of --thread_bytes (a byte count, 0 included) into *OUT.
 * Returns 0, or -1 on a malformed value. */
int cli_parse_thread_bytes(const char *arg, size_t *out);

/*
 * For a command that builds hundreds of MiB (the BTF encoder): run it again
 * with glibc's malloc on transparent huge pages, which glibc only takes
 * from the environment at exec (GLIBC_TUNABLES=glibc.malloc.hugetlb=1).
 * ARGV is the command's own (argv[0] its name, NULL-terminated): the
 * program (the file /proc/self/exe names) is executed with it, and
 * dispatches on that name. Returns only when it did not: the tunable is
 * set already (by us or by the user, any value), D2B_NO_HUGEPAGE is set,
 * this is the second run already, the process is in secure mode, the
 * kernel has no transparent huge pages, /proc/self/exe is not the file
 * this code runs from (replaced, valgrind, ld.so run by hand), or the exec
 * failed (the environment is then as it was).
 */
void cli_reexec_on_huge_pages(char **argv);

/* The heap's next SPAN bytes on transparent huge pages (see
 * cli_common.c): true if marked; *FILLER: a block to free at exit, or
 * NULL. main() does it for 4 MiB in every run that reads files and does
 * not encode. */
bool cli_heap_on_huge_pages(size_t span, void **filler);

/*
 * For a run of one thread that builds a big model: a reader of a whole BTF
 * of a MiB or more (cli_inputs_want_huge_pages(); the file's bytes,
 * libbpf's copy, the model: 11-45 MB for a vmlinux, SPAN 64 MiB), or the
 * encoder where it starts no thread (a module's run; SPAN 128 MiB). Its
 * blocks come from a heap span of SPAN bytes on huge pages, in this
 * process, and malloc maps no block apart below 64 MiB. Where the heap
 * cannot be so placed (no glibc with mallinfo2, or it failed) or should
 * not be (a limit on the address space or the data) the run goes on again
 * on huge pages (cli_reexec_on_huge_pages()). Returns whether
 * the span was placed; *FILLER: a block to free at exit, or NULL.
 */
bool cli_heap_for_big_model(char **argv, size_t span, void **filler);

/* Whether glibc's malloc was told at start to use huge pages; and the
 * same in words, for --stats: "on huge pages (glibc.malloc.hugetlb=1)",
 * or "on 4 KiB pages". */
bool cli_malloc_on_huge_pages(void);
const char *cli_malloc_pages(void);

/* Print "PROG: MSG" on stderr and return 1 (the exit status). */
int cli_fail(const char *prog, const struct d2b_error *err);

#endif
