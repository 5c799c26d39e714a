// SPDX-License-Identifier: GPL-2.0-only
/* Placeholder until the encode command lands. */
#include <stdio.h>

#include "cli/cli.h"

int encode_main(int argc, char **argv)
{
	fprintf(stderr, "dwarf2btf encode: not implemented yet\n");
	return 1;
}
