// SPDX-License-Identifier: GPL-2.0-only
/* Placeholder until the pfunct front end lands. */
#include <stdio.h>

#include "cli/cli.h"

int pfunct_main(int argc, char **argv)
{
	fprintf(stderr, "pfunct: not implemented yet\n");
	return 1;
}
