// SPDX-License-Identifier: GPL-2.0-only
/* dwarf2btf: dispatch on the name we were called by. */
#include <malloc.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

struct command {
	const char *name;
	int (*main)(int argc, char **argv);
	const char *help;
};

static const struct command commands[] = {
	{ "pahole", pahole_main, "show data structure layouts (pahole-compatible)" },
	{ "pfunct", pfunct_main, "show functions (pfunct-compatible)" },
	{ "dump-dies", dump_dies_main, "print every DIE of a file in a canonical form" },
	{ "demo", demo_main, "build a sample ELF and show what we read from it" },
	{ "encode", encode_main, "encode a file's DWARF as BTF (raw file or into the ELF)" },
	{ "btfdiff", btfdiff_main, "compare two BTFs by content, not by type ids" },
	{ "walk", walk_main, "the floor: decode every DIE, skip attributes (bench)" },
	{ "load", load_main, "decode every unit into the type model (bench)" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: dwarf2btf <command> [options] [FILE...]\n"
		   "       (or call the binary as 'pahole' or 'pfunct')\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
}

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/*
 * The same where glibc's malloc is on huge pages (GLIBC_TUNABLES=
 * glibc.malloc.hugetlb=1: the encoder, cli_reexec_on_huge_pages()). glibc
 * then ends each extension of the heap at a 2 MiB boundary and marks it
 * MADV_HUGEPAGE, but the heap starts at the break the kernel placed at
 * random: from there to the first 2 MiB boundary past the heap's first
 * extension the kernel gives 4 KiB pages (a 2 MiB page must lie wholly in
 * marked memory), anywhere from nothing to 2 MiB of what is allocated
 * first. A module's encoding reads the base's .BTF (4 MB) first: 110 to
 * 620 page faults a run (tcp_bbr.ko), by where the break fell. A block from
 * the top chunk up to that boundary, allocated first and never written,
 * makes every later allocation start on huge pages: 107-125 faults;
 * tcp_bbr.ko 30.6 -> 20.8 ms, virtio_net.ko 29.1 -> 21.4 ms (medians of 31,
 * alternated), nfs.ko unchanged (66 ms), every module of the Debian kernel
 * one after the other 32.8 -> 27.6 s (2026-12-05). It costs address space
 * only. Returns the block, for the caller to free at exit; NULL if nothing
 * was done.
 */
static void *heap_past_small_pages(void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))	/* mallinfo2 */
	const uintptr_t huge = (uintptr_t)2 << 20, room = 64;
	struct mallinfo2 mi = mallinfo2();	/* sets malloc up if nothing did yet */
	void *end = sbrk(0);
	uintptr_t top, edge;

	if (end == (void *)-1 || (uintptr_t)end < mi.keepcost)
		return NULL;
	/* the top chunk ends at the break (the main arena grows by brk) */
	top = (uintptr_t)end - mi.keepcost;
	edge = ((uintptr_t)end + room + huge - 1) & ~(huge - 1);
	if (edge - top <= 2 * room)
		return NULL;
	/* (a free chunk big enough would serve it instead: none is, this
	 * early; then this only costs the address space) */
	return malloc(edge - top - room);
#else
	return NULL;
#endif
}

static int dispatch(int argc, char **argv)
{
	const char *self = strrchr(argv[0], '/');
	const struct command *cmd;

	self = self ? self + 1 : argv[0];
	cmd = find_command(self);
	/* "encode", "btfdiff": how those run themselves again
	 * (cli_reexec_on_huge_pages: argv[0] is the command's name) */
	if (cmd && (!strcmp(self, "pahole") || !strcmp(self, "pfunct") || !strcmp(self, "encode") ||
		    !strcmp(self, "btfdiff")))
		return cmd->main(argc, argv);

	if (argc < 2)
		return demo_main(1, (char *[]){ "demo", NULL });
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("dwarf2btf " D2B_VERSION "\n");
		return 0;
	}
	cmd = find_command(argv[1]);
	if (!cmd) {
		fprintf(stderr, "dwarf2btf: unknown command '%s'\n", argv[1]);
		usage(stderr);
		return 2;
	}
	return cmd->main(argc - 1, argv + 1);
}

/* A run that only answers --version or --help touches a few heap pages:
 * a huge page would cost it more than it saves. */
static bool reads_files(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--version") || !strcmp(argv[i], "--help") ||
		    !strcmp(argv[i], "-h"))
			return false;
	return argc > 1;
}

/* Whether ARGV runs the encoder (`dwarf2btf encode`, `pahole -J`...),
 * which puts its heap on huge pages itself (encode_main(): a bigger span
 * for one thread, or a second run with glibc's tunable for threads, where
 * this process's heap would be thrown away, and with it the 2 MiB page
 * cli_heap_on_huge_pages() faults in: 0.1-0.2 ms of a module's ~20 ms). */
static bool encodes(int argc, char **argv)
{
	const char *self = strrchr(argv[0], '/');

	self = self ? self + 1 : argv[0];
	if (!strcmp(self, "pahole"))
		return pahole_wants_btf_encoding(argc, argv);
	if (argc < 2)
		return false;
	if (!strcmp(argv[1], "pahole"))
		return pahole_wants_btf_encoding(argc - 1, argv + 1);
	return !strcmp(argv[1], "encode");
}

int main(int argc, char **argv)
{
	void *filler = NULL;
	int rc;

	/* Each unit's model lives in an arena of blocks up to 1 MiB, freed
	 * when the unit is done: with glibc's defaults (blocks from 128 KiB
	 * mapped and unmapped each time, the heap trimmed back) every unit
	 * paid page faults for fresh zeroed pages, 0.15-0.2 s of system time
	 * on the Debian vmlinux. Reuse them; the big buffers (over 4 MiB:
	 * merged types, tables) stay mapped, so the peak does not grow. */
	mallopt(M_MMAP_THRESHOLD, 4 << 20);
	mallopt(M_TRIM_THRESHOLD, 32 << 20);
	/* (not when glibc puts its heap there itself: cli_reexec_on_huge_pages) */
	if (reads_files(argc, argv) && !encodes(argc, argv) && !cli_malloc_on_huge_pages())
		(void)cli_heap_on_huge_pages((size_t)4 << 20, &filler);
	else if (cli_malloc_on_huge_pages() && !getenv("D2B_NO_HUGEPAGE")) {
		/* A reader of a whole BTF (cli_inputs_want_huge_pages()) makes
		 * its model in blocks of up to ~5 MB that live to the end:
		 * mapped apart, where mmap puts them, each began with up to 2
		 * MiB of 4 KiB pages (pahole -F btf -C task_struct vmlinux:
		 * 420 or 930 faults, by where they fell); from the heap, 128. */
		if (!encodes(argc, argv))
			mallopt(M_MMAP_THRESHOLD, 64 << 20);
		filler = heap_past_small_pages();
	}
	rc = dispatch(argc, argv);
	free(filler);
	return rc;
}
