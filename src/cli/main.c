// SPDX-License-Identifier: GPL-2.0-only
/* dwarf2btf: dispatch on the name we were called by. */
#include <malloc.h>
#include <stdio.h>
#include <string.h>

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

int main(int argc, char **argv)
{
	const char *self = strrchr(argv[0], '/');
	const struct command *cmd;

	/* Each unit's model lives in an arena of blocks up to 1 MiB, freed
	 * when the unit is done: with glibc's defaults (blocks from 128 KiB
	 * mapped and unmapped each time, the heap trimmed back) every unit
	 * paid page faults for fresh zeroed pages, 0.15-0.2 s of system time
	 * on the Debian vmlinux. Reuse them; the big buffers (over 4 MiB:
	 * merged types, tables) stay mapped, so the peak does not grow. */
	mallopt(M_MMAP_THRESHOLD, 4 << 20);
	mallopt(M_TRIM_THRESHOLD, 32 << 20);
	self = self ? self + 1 : argv[0];
	cmd = find_command(self);
	if (cmd && (!strcmp(self, "pahole") || !strcmp(self, "pfunct")))
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
