// SPDX-License-Identifier: GPL-2.0-only
/*
 * load/ unit test: load_options.function_bodies (load_body.c). For every
 * function of tests/pfunct_bodies/blocks.c (gcc and clang, -O0 and -O2,
 * DWARF 4 and 5) the body's counts agree with the walk's own counters,
 * which another pass computes: the function block's variables and labels
 * (pahole's lexblock), and over the whole tree its lexical blocks and
 * inline expansions (an expansion's are lifted, not lost). Every
 * expansion names a function of the unit; at -O2 each holds code
 * (a size from high_pc or its DW_AT_ranges), and nested_blocks' labels
 * out and fail are its own. Without the option no function has a body.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "dwarf/dwarf.h"
#include "elf/elf_file.h"
#include "load/load.h"

struct tally {
	uint32_t blocks, inlines, sized, unnamed;
};

static void walk(const struct cu_model *cu, const struct body_item *b, struct tally *t)
{
	for (uint32_t i = 0; i < b->nr_items; i++) {
		const struct body_item *it = &b->items[i];

		if (it->kind == BODY_BLOCK) {
			t->blocks++;
			walk(cu, it, t);
		} else if (it->kind == BODY_INLINE) {
			const struct function *f = cu_model_function_at_offset(cu, it->origin);

			t->inlines++;
			t->sized += it->size > 0;
			t->unnamed += !f;
		}
	}
}

static bool has_label(const struct body_item *b, const char *name)
{
	for (uint32_t i = 0; i < b->nr_items; i++)
		if (b->items[i].kind == BODY_LABEL && b->items[i].name &&
		    !strcmp(b->items[i].name, name))
			return true;
	return false;
}

static void check_unit(const char *what, const struct cu_model *cu, bool o2)
{
	bool seen = false;

	for (uint32_t i = 0; i < cu->nr_functions; i++) {
		const struct function *fn = &cu->functions[i];
		const char *name = fn->name ? fn->name : "?";
		struct tally t = { 0 };

		if (!fn->body)
			continue;
		CHECK(fn->body->kind == BODY_BLOCK, "%s: %s: body kind %d", what, name,
		      fn->body->kind);
		CHECK(fn->body->nr_variables == fn->nr_variables &&
		      fn->body->nr_labels == fn->nr_labels,
		      "%s: %s: %u variables, %u labels; the walk counted %u, %u", what, name,
		      fn->body->nr_variables, fn->body->nr_labels, fn->nr_variables, fn->nr_labels);
		walk(cu, fn->body, &t);
		CHECK(t.blocks == fn->nr_lexblocks && t.inlines == fn->nr_inline_expansions,
		      "%s: %s: %u blocks, %u expansions; the walk counted %u, %u", what, name,
		      t.blocks, t.inlines, fn->nr_lexblocks, fn->nr_inline_expansions);
		CHECK(!t.unnamed, "%s: %s: %u expansions of no function", what, name, t.unnamed);
		if (o2 && fn->has_addr)
			CHECK(t.sized == t.inlines, "%s: %s: %u of %u expansions without code",
			      what, name, t.inlines - t.sized, t.inlines);
		if (fn->name && !strcmp(fn->name, "nested_blocks") && !fn->is_abstract &&
		    fn->has_addr) {
			seen = true;
			CHECK(has_label(fn->body, "out") && has_label(fn->body, "fail"),
			      "%s: nested_blocks: labels out and fail missing", what);
		}
	}
	CHECK(seen, "%s: no nested_blocks with a body", what);
}

static int check_file(const char *bin, const char *what, bool o2)
{
	struct load_options bodies = { .function_bodies = true };
	struct d2b_error err = { 0 };
	struct elf_file *ef = elf_file_open(bin, &err);
	struct dw_file df;

	CHECK(ef, "%s: open: %s", what, err.msg);
	if (!ef)
		return 0;
	CHECK(dw_file_init(&df, ef, &err) == 0, "%s: dw_file_init: %s", what, err.msg);
	if (!err.set) {
		for (size_t u = 0; u < df.nr_units; u++) {
			struct cu_model *a = load_cu(&df, u, &bodies, NULL, NULL, &err);
			struct cu_model *b = a ? load_cu(&df, u, NULL, NULL, NULL, &err) : NULL;

			CHECK(a && b, "%s: load_cu: %s", what, err.msg);
			if (a && a->name && strstr(a->name, "blocks.c"))
				check_unit(what, a, o2);
			for (uint32_t i = 0; b && i < b->nr_functions; i++)
				CHECK(!b->functions[i].body, "%s: a body without the option", what);
			cu_model_destroy(a);
			cu_model_destroy(b);
		}
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
	char dir[] = "/tmp/d2b-test-bodies.XXXXXX";
	char bin[160], cmd[1024], what[96];
	int built = 0;

	if (!src || !mkdtemp(dir))
		return 1;
	for (int c = 0; c < 2; c++)
		for (int o = 0; o < 2; o++)
			for (int d = 0; d < 2; d++) {
				snprintf(bin, sizeof(bin), "%s/fx", dir);
				snprintf(cmd, sizeof(cmd),
					 "%s %s %s -g -w -o %s %s/tests/pfunct_bodies/blocks.c 2>/dev/null",
					 compilers[c], opts[o], dwarfs[d], bin, src);
				snprintf(what, sizeof(what), "%s %s %s", compilers[c], opts[o], dwarfs[d]);
				if (system(cmd)) {
					fprintf(stderr, "skip: %s\n", cmd);
					continue;
				}
				built += check_file(bin, what, o == 1);
				unlink(bin);
			}
	rmdir(dir);
	CHECK(built >= 4, "only %d of 8 builds worked", built);
	return check_done();
}
