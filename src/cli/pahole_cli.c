// SPDX-License-Identifier: GPL-2.0-only
/* Placeholder until the pahole front end lands. */
#include <stdio.h>

#include "cli/cli.h"

int pahole_main(int argc, char **argv)
{
	fprintf(stderr, "pahole: not implemented yet\n");
	return 1;
}
