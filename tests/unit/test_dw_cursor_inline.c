// SPDX-License-Identifier: GPL-2.0-only
/*
 * dwarf/ unit test: dw_cursor_next_inline() (the loader's walk) returns the
 * same DIEs as dw_cursor_next(): offset, depth and abbreviation of each, in
 * the same order, with subtrees skipped at the same places, and the
 * abbreviation code it reports is the DIE's. Fixtures compiled with gcc and
 * clang (DWARF 4 and 5, type units), and a kernel module when the corpus
 * is present (units with two-byte abbreviation codes).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "dwarf/dwarf.h"
#include "elf/elf_file.h"
#include "util/arena.h"

struct counts {
	size_t dies, fast, wide_codes;
	size_t skipped, kept;	/* by dw_cursor_skip_children_if() */
};

/* Skip DIE's attributes by form, as the loader's ops do. */
static int skip_attrs(const struct dw_cu *cu, const struct dw_die *die, const uint8_t *end,
		      const uint8_t **after, struct d2b_error *err)
{
	const uint8_t *p = die->attrs;

	for (unsigned i = 0; i < die->abbrev->nr_attrs; i++)
		if (dw_form_skip(cu, die->abbrev->attrs[i].form, &p, end, err))
			return -1;
	*after = p;
	return 0;
}

/* What dw_cursor_skip_children_if() lets by in check_skip_if(): any
 * subtree without a member (function bodies, enums), none with one. */
static bool not_member(unsigned tag)
{
	return tag != DW_TAG_member;
}

/*
 * dw_cursor_skip_children_if() at B (DIE just read, attributes consumed)
 * against a walk of the subtree: 1 and B past it exactly where
 * dw_cursor_skip_children() goes when no DIE of it is a member; else 0, B
 * as it was and STOP the first member's offset.
 */
static void check_skip_if(const char *what, const struct dw_cursor *b, const struct dw_die *die,
			  const uint8_t *allowed, struct counts *n)
{
	struct d2b_error err = { 0 };
	struct dw_cursor c = *b, walk = *b, skip = *b;
	uint64_t stop = 1, first_member = 0;
	struct dw_die child;
	int r = dw_cursor_skip_children_if(&c, allowed, &stop);

	for (;;) {
		struct dw_cursor save = walk;
		int rw = dw_cursor_next(&walk, &child, &err);

		if (rw <= 0 || child.depth <= die->depth) {
			walk = save;
			break;
		}
		if (!first_member && dw_die_tag(&child) == DW_TAG_member)
			first_member = child.offset;
	}
	CHECK(dw_cursor_skip_children(&skip, &err) == 0, "%s: %s", what, err.msg);
	if (first_member) {
		CHECK(r == 0 && stop == first_member && c.pos == b->pos && !c.last_children_skipped,
		      "%s: DIE 0x%llx: skip_children_if %d stop 0x%llx, first member 0x%llx", what,
		      (unsigned long long)die->offset, r, (unsigned long long)stop,
		      (unsigned long long)first_member);
		n->kept++;
	} else {
		CHECK(r == 1 && c.pos == skip.pos && c.last_children_skipped,
		      "%s: DIE 0x%llx: skip_children_if %d, no member below", what,
		      (unsigned long long)die->offset, r);
		n->skipped++;
	}
}

static void compare_unit(const char *what, const struct dw_file *df, size_t u, struct counts *n)
{
	struct d2b_error err = { 0 };
	struct arena arena;
	struct dw_cu cu;
	struct dw_cursor a, b;
	struct dw_die da, db;
	const uint8_t *allowed;
	size_t nr = 0;
	int ra, rb;

	arena_init(&arena);
	if (dw_cu_open(&cu, df, u, &arena, &err)) {
		CHECK(0, "%s: unit %zu: %s", what, u, err.msg);
		arena_deinit(&arena);
		return;
	}
	allowed = dw_cu_abbrev_flags(&cu, not_member, &arena);
	CHECK(allowed, "%s: unit %zu: no memory", what, u);
	dw_cursor_init(&a, &cu);
	dw_cursor_init(&b, &cu);
	for (;;) {
		unsigned code = 99;
		const uint8_t *after;

		ra = dw_cursor_next(&a, &da, &err);
		rb = dw_cursor_next_inline(&b, &db, &code, &err);
		CHECK(ra == rb, "%s: unit %zu, DIE %zu: %d != %d (%s)", what, u, nr, ra, rb, err.msg);
		if (ra <= 0 || ra != rb)
			break;
		CHECK(da.offset == db.offset && da.depth == db.depth && da.abbrev == db.abbrev &&
		      da.attrs == db.attrs,
		      "%s: unit %zu: DIE 0x%llx depth %u != 0x%llx depth %u", what, u,
		      (unsigned long long)da.offset, da.depth, (unsigned long long)db.offset,
		      db.depth);
		CHECK(code == 0 || (code < 128 && code == da.abbrev->code),
		      "%s: DIE 0x%llx: code %u, abbreviation %llu", what,
		      (unsigned long long)da.offset, code, (unsigned long long)da.abbrev->code);
		n->fast += code != 0;
		n->wide_codes += da.abbrev->code > 127;
		if (skip_attrs(&cu, &db, b.end, &after, &err)) {
			CHECK(0, "%s: %s", what, err.msg);
			break;
		}
		dw_cursor_attrs_done(&b, after, 0);
		if (db.abbrev->has_children && allowed)
			check_skip_if(what, &b, &db, allowed, n);
		/* skip every third subtree (not the root's), on both */
		if (da.abbrev->has_children && nr % 3 == 1) {
			CHECK(dw_cursor_skip_children(&a, &err) == 0, "%s: %s", what, err.msg);
			CHECK(dw_cursor_skip_children(&b, &err) == 0, "%s: %s", what, err.msg);
		}
		nr++;
	}
	n->dies += nr;
	arena_deinit(&arena);
}

static void compare_file(const char *what, const char *path, struct counts *n)
{
	struct d2b_error err = { 0 };
	struct elf_file *ef = elf_file_open(path, &err);
	struct dw_file df;

	CHECK(ef, "%s: open: %s", what, err.msg);
	if (!ef)
		return;
	CHECK(dw_file_init(&df, ef, &err) == 0, "%s: dw_file_init: %s", what, err.msg);
	if (!err.set) {
		for (size_t u = 0; u < df.nr_units; u++)
			compare_unit(what, &df, u, n);
		dw_file_deinit(&df);
	}
	elf_file_close(ef);
}

int main(void)
{
	static const char *const fixtures[] = { "structs.c", "type_units.c", "functions.c" };
	static const char *const compilers[] = { "gcc", "clang" };
	static const char *const dwarfs[] = { "-gdwarf-4 -fdebug-types-section", "-gdwarf-5" };
	const char *src = getenv("D2B_SRC");
	const char *home = getenv("HOME");
	char dir[] = "/tmp/d2b-test-cursor.XXXXXX";
	char bin[160], cmd[1024], ko[512];
	struct counts n = { 0 };
	int built = 0;

	if (!src || !mkdtemp(dir))
		return 1;
	for (size_t f = 0; f < sizeof(fixtures) / sizeof(fixtures[0]); f++)
		for (int c = 0; c < 2; c++)
			for (int d = 0; d < 2; d++) {
				char what[160];

				snprintf(bin, sizeof(bin), "%s/fx.o", dir);
				snprintf(cmd, sizeof(cmd), "%s -O2 -g %s -c -o %s %s/tests/fixtures/%s 2>/dev/null",
					 compilers[c], dwarfs[d], bin, src, fixtures[f]);
				if (system(cmd)) {
					fprintf(stderr, "skip: %s\n", cmd);
					continue;
				}
				snprintf(what, sizeof(what), "%s %s %s", fixtures[f], compilers[c], dwarfs[d]);
				compare_file(what, bin, &n);
				unlink(bin);
				built++;
			}
	rmdir(dir);
	CHECK(built > 0, "no fixture could be compiled");
	CHECK(n.dies > 100 && n.fast > n.dies / 2, "%zu DIEs, %zu by the inline path", n.dies, n.fast);
	CHECK(n.skipped > 10 && n.kept > 10, "skip_children_if: %zu subtrees skipped, %zu kept",
	      n.skipped, n.kept);
	if (home) {
		snprintf(ko, sizeof(ko), "%s/.cache/dwarf2btf/modules/nfs.ko", home);
		if (access(ko, R_OK) == 0) {
			struct counts k = { 0 };

			compare_file("nfs.ko", ko, &k);
			CHECK(k.dies > 100000 && k.fast > k.dies / 2, "nfs.ko: %zu DIEs, %zu inline",
			      k.dies, k.fast);
			fprintf(stderr, "nfs.ko: %zu DIEs, %zu inline, %zu with two-byte codes\n",
				k.dies, k.fast, k.wide_codes);
		}
	}
	return check_done();
}
