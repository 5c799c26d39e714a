// SPDX-License-Identifier: GPL-2.0-only
/*
 * load/ unit test: load_options.skip_plain_blocks. A unit loaded with it
 * has the same types (kind, name, size, DIE, members) and functions
 * (name, parameters) as without it, the types defined in blocks and in
 * an inlined function included, while the blocks that hold no type are
 * not read (fewer blocks and inline expansions counted). Fixture:
 * tests/fixtures/blocks.c, gcc and clang, -O0 and -O2, DWARF 4 and 5.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "dwarf/dwarf.h"
#include "elf/elf_file.h"
#include "load/load.h"

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool has_type(const struct cu_model *cu, const char *name)
{
	for (uint32_t i = 0; i < cu->nr_types; i++)
		if (same_str(cu->types[i]->name, name))
			return true;
	return false;
}

/* Blocks and inline expansions the functions of CU counted. */
static uint32_t nr_read(const struct cu_model *cu)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < cu->nr_functions; i++)
		n += cu->functions[i].nr_lexblocks + cu->functions[i].nr_inline_expansions;
	return n;
}

static void compare(const char *what, const struct cu_model *a, const struct cu_model *b)
{
	static const char *const local[] = { "in_inline", "in_block", "in_block_t", "in_block_e" };

	CHECK(a->nr_types == b->nr_types, "%s: %u types, %u when skipping", what, a->nr_types,
	      b->nr_types);
	for (uint32_t i = 0; i < a->nr_types && i < b->nr_types; i++) {
		const struct type *x = a->types[i], *y = b->types[i];

		CHECK(x->kind == y->kind && same_str(x->name, y->name) && x->size == y->size &&
		      x->die_offset == y->die_offset,
		      "%s: type %u: %s %d differs when skipping", what, i, x->name ? x->name : "?",
		      x->kind);
		if (x->kind == TK_STRUCT && y->kind == TK_STRUCT &&
		    x->composite.nr_members == y->composite.nr_members)
			for (uint32_t m = 0; m < x->composite.nr_members; m++)
				CHECK(same_str(x->composite.members[m].name, y->composite.members[m].name) &&
				      x->composite.members[m].bit_offset ==
					      y->composite.members[m].bit_offset,
				      "%s: %s member %u differs", what, x->name ? x->name : "?", m);
	}
	for (size_t i = 0; i < sizeof(local) / sizeof(local[0]); i++)
		CHECK(has_type(a, local[i]) && has_type(b, local[i]), "%s: %s missing", what,
		      local[i]);
	CHECK(a->nr_functions == b->nr_functions, "%s: %u functions, %u when skipping", what,
	      a->nr_functions, b->nr_functions);
	for (uint32_t i = 0; i < a->nr_functions && i < b->nr_functions; i++)
		CHECK(same_str(a->functions[i].name, b->functions[i].name) &&
		      a->functions[i].nr_params == b->functions[i].nr_params &&
		      a->functions[i].die_offset == b->functions[i].die_offset,
		      "%s: function %u differs when skipping", what, i);
	/* plain()'s blocks hold no type: skipped, so not counted */
	CHECK(nr_read(b) < nr_read(a), "%s: %u blocks and inline expansions read, %u when skipping",
	      what, nr_read(a), nr_read(b));
}

static int check_file(const char *bin, const char *what)
{
	struct load_options skip = { .skip_plain_blocks = true };
	struct d2b_error err = { 0 };
	struct elf_file *ef = elf_file_open(bin, &err);
	struct dw_file df;
	bool seen = false;

	CHECK(ef, "%s: open: %s", what, err.msg);
	if (!ef)
		return 0;
	CHECK(dw_file_init(&df, ef, &err) == 0, "%s: dw_file_init: %s", what, err.msg);
	if (!err.set) {
		for (size_t u = 0; u < df.nr_units; u++) {
			struct cu_model *a = load_cu(&df, u, NULL, NULL, NULL, &err);
			struct cu_model *b = a ? load_cu(&df, u, &skip, NULL, NULL, &err) : NULL;

			CHECK(a && b, "%s: load_cu: %s", what, err.msg);
			if (a && b && a->name && strstr(a->name, "blocks.c")) {
				seen = true;
				compare(what, a, b);
			}
			cu_model_destroy(a);
			cu_model_destroy(b);
		}
		CHECK(seen, "%s: fixture unit not found", what);
		dw_file_deinit(&df);
	}
	elf_file_close(ef);
	return 1;
}

int main(void)
{
	static const char *const compilers[] = { "gcc", "clang" };
	static const char *const opts[] = { "-O0", "-O2" };
	static const char *const dwarfs[] = { "-gdwarf-4", "-gdwarf-5" };
	const char *src = getenv("D2B_SRC");
	char dir[] = "/tmp/d2b-test-blocks.XXXXXX";
	char bin[160], cmd[1024], what[96];
	int built = 0;

	if (!src || !mkdtemp(dir))
		return 1;
	for (int c = 0; c < 2; c++)
		for (int o = 0; o < 2; o++)
			for (int d = 0; d < 2; d++) {
				snprintf(bin, sizeof(bin), "%s/fx", dir);
				snprintf(cmd, sizeof(cmd), "%s %s %s -g -o %s %s/tests/fixtures/blocks.c 2>/dev/null",
					 compilers[c], opts[o], dwarfs[d], bin, src);
				snprintf(what, sizeof(what), "%s %s %s", compilers[c], opts[o], dwarfs[d]);
				if (system(cmd)) {
					fprintf(stderr, "skip: %s\n", cmd);
					continue;
				}
				built += check_file(bin, what);
				unlink(bin);
			}
	rmdir(dir);
	CHECK(built >= 4, "only %d of 8 builds worked", built);
	return check_done();
}
