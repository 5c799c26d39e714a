// SPDX-License-Identifier: GPL-2.0-only
/* Shared plumbing of the front ends: opening inputs, -j, error exits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

int cli_dwarf_open(struct cli_dwarf_input *in, const char *path,
		   struct d2b_error *err)
{
	memset(in, 0, sizeof(*in));
	in->elf = elf_file_open(path, err);
	if (!in->elf)
		return -1;
	if (dw_file_init(&in->dwarf, in->elf, err)) {
		elf_file_close(in->elf);
		in->elf = NULL;
		return -1;
	}
	return 0;
}

void cli_dwarf_close(struct cli_dwarf_input *in)
{
	if (!in->elf)
		return;
	dw_file_deinit(&in->dwarf);
	elf_file_close(in->elf);
	in->elf = NULL;
}

unsigned cli_parse_jobs(const char *arg)
{
	char *end;
	unsigned long n;

	if (!arg || !*arg)
		return pool_cpu_count();
	n = strtoul(arg, &end, 10);
	if (*end || n == 0 || n > 1024)
		return 0;
	return (unsigned)n;
}

int cli_fail(const char *prog, const struct d2b_error *err)
{
	fprintf(stderr, "%s: %s\n", prog, err && err->set ? err->msg : "unknown error");
	return 1;
}
