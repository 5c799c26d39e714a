// SPDX-License-Identifier: GPL-2.0-only
/* Placeholder until the btfdiff command lands. */
#include <stdio.h>

#include "cli/cli.h"

int btfdiff_main(int argc, char **argv)
{
	fprintf(stderr, "dwarf2btf btfdiff: not implemented yet\n");
	return 1;
}
