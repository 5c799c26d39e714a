/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tests/unit/fixture_load.h: build a fixture with a shell command, load
 * every unit of the result, and hand the unit whose name contains NEEDLE
 * to a checker (CHECK() failures name WHAT). For the loader's unit tests.
 */
#ifndef D2B_TESTS_UNIT_FIXTURE_LOAD_H
#define D2B_TESTS_UNIT_FIXTURE_LOAD_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "dwarf/dwarf.h"
#include "elf/elf_file.h"
#include "load/load.h"

typedef void (*fixture_check_fn)(const char *what, const struct cu_model *cu, bool clang);

/* Returns 1 when CMD built BIN (which is then checked and removed), 0 when
 * the compiler failed (a skip, reported on stderr). */
static int fixture_load_check(const char *cmd, const char *bin, const char *what,
			      const char *needle, fixture_check_fn check, bool clang)
{
	struct d2b_error err = { 0 };
	struct elf_file *ef;
	struct dw_file df;
	bool seen = false;

	if (system(cmd)) {
		fprintf(stderr, "skip: %s failed\n", cmd);
		return 0;
	}
	ef = elf_file_open(bin, &err);
	CHECK(ef, "%s: open: %s", what, err.msg);
	if (!ef)
		return 1;
	CHECK(dw_file_init(&df, ef, &err) == 0, "%s: dw_file_init: %s", what, err.msg);
	if (!err.set) {
		for (size_t u = 0; u < df.nr_units; u++) {
			struct cu_model *cu = load_cu(&df, u, NULL, NULL, NULL, &err);

			CHECK(cu, "%s: load_cu: %s", what, err.msg);
			if (cu && cu->name && strstr(cu->name, needle)) {
				seen = true;
				check(what, cu, clang);
			}
			cu_model_destroy(cu);
		}
		CHECK(seen, "%s: fixture CU not found", what);
		dw_file_deinit(&df);
	}
	elf_file_close(ef);
	unlink(bin);
	return 1;
}

#endif
