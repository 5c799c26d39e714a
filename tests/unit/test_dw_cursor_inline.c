// SPDX-License-Identifier: GPL-2.0-only
/*
 * dwarf/ unit test: dw_cursor_next_inline() (the loader's walk) returns the
 * same DIEs as dw_cursor_next(): offset, depth and abbreviation of each, in
 * the same order, with subtrees skipped at the same places, and the
 * abbreviation code it reports is the DIE's. Fixtures compiled with gcc and
 * clang (DWARF 4 and 5, type units), and a kernel module when the corpus
 * is present (units with two-byte abbreviation codes).
 *
 * Also dw_cu_open_copy(): a unit read from a copy in a dw_unit_buf (one
 * buffer reused for every unit, as a worker does) gives the same DIEs with
 * the same attribute values (strings by content, blocks by bytes) as the
 * unit read through the file's mapping; the copy is taken when the section
 * is in the mapping (linked files) and not when we relocated it in memory
 * (a .o file), and what the DIEs point to lies in the buffer.
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
	size_t copied_units, in_place_units, copied_attrs;
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

static bool same_attr(const struct dw_attr *a, const struct dw_attr *b)
{
	if (a->name != b->name || a->form != b->form || a->cls != b->cls)
		return false;
	switch (a->cls) {
	case DW_CLS_STRING:
		return a->str && b->str && !strcmp(a->str, b->str);
	case DW_CLS_BLOCK:
		return a->block.len == b->block.len &&
		       (!a->block.len || !memcmp(a->block.data, b->block.data, a->block.len));
	default:
		return a->u == b->u;
	}
}

static bool in_buf(const struct dw_unit_buf *buf, const void *p)
{
	return (const uint8_t *)p >= buf->data && (const uint8_t *)p < buf->data + buf->cap;
}

/* Unit U read through the mapping (M) and from BUF (C), DIE by DIE. */
static void compare_copy(const char *what, const struct dw_file *df, size_t u,
			 struct dw_unit_buf *buf, struct counts *n)
{
	struct d2b_error err = { 0 };
	struct arena arena;
	struct dw_cu m, c;
	struct dw_cursor cm, cc;
	struct dw_die dm, dc;
	struct dw_attr am[64], ac[64];
	bool copied;

	arena_init(&arena);
	if (dw_cu_open(&m, df, u, &arena, &err) || dw_cu_open_copy(&c, df, u, buf, &arena, &err)) {
		CHECK(0, "%s: unit %zu: %s", what, u, err.msg);
		arena_deinit(&arena);
		return;
	}
	copied = c.bytes == buf->data;
	CHECK(copied == elf_file_is_mapped(df->elf, m.bytes, df->units[u].end - df->units[u].offset),
	      "%s: unit %zu: copied %d, but mapped %d", what, u, copied, !copied);
	CHECK(!copied || !memcmp(c.bytes, m.bytes, df->units[u].end - df->units[u].offset),
	      "%s: unit %zu: the copy differs", what, u);
	n->copied_units += copied;
	n->in_place_units += !copied;
	dw_cursor_init(&cm, &m);
	dw_cursor_init(&cc, &c);
	for (;;) {
		int rm = dw_cursor_next(&cm, &dm, &err);
		int rc = dw_cursor_next(&cc, &dc, &err);
		int nm, nc;

		CHECK(rm == rc, "%s: unit %zu: %d != %d (%s)", what, u, rm, rc, err.msg);
		if (rm <= 0 || rm != rc)
			break;
		CHECK(dm.offset == dc.offset && dm.depth == dc.depth &&
		      dm.abbrev->code == dc.abbrev->code && (!copied || in_buf(buf, dc.attrs)),
		      "%s: unit %zu: DIE 0x%llx != 0x%llx in the copy", what, u,
		      (unsigned long long)dm.offset, (unsigned long long)dc.offset);
		nm = dw_die_attrs(&m, &dm, am, 64, &err);
		nc = dw_die_attrs(&c, &dc, ac, 64, &err);
		CHECK(nm == nc && nm >= 0, "%s: DIE 0x%llx: %d attributes, %d in the copy (%s)", what,
		      (unsigned long long)dm.offset, nm, nc, err.msg);
		for (int i = 0; i < nm && nm == nc && i < 64; i++) {
			CHECK(same_attr(&am[i], &ac[i]),
			      "%s: DIE 0x%llx: attribute 0x%x differs in the copy", what,
			      (unsigned long long)dm.offset, am[i].name);
			if (copied && ac[i].form == DW_FORM_string)
				CHECK(in_buf(buf, ac[i].str), "%s: DIE 0x%llx: a string outside the copy",
				      what, (unsigned long long)dc.offset);
			n->copied_attrs += copied;
		}
	}
	arena_deinit(&arena);
}

static void compare_file(const char *what, const char *path, struct counts *n)
{
	struct d2b_error err = { 0 };
	struct elf_file *ef = elf_file_open(path, &err);
	struct dw_unit_buf buf = { 0 };
	struct dw_file df;

	CHECK(ef, "%s: open: %s", what, err.msg);
	if (!ef)
		return;
	CHECK(dw_file_init(&df, ef, &err) == 0, "%s: dw_file_init: %s", what, err.msg);
	if (!err.set) {
		for (size_t u = 0; u < df.nr_units; u++) {
			compare_unit(what, &df, u, n);
			compare_copy(what, &df, u, &buf, n);
		}
		dw_file_deinit(&df);
	}
	dw_unit_buf_free(&buf);
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
	/* an object file (relocated in memory) and a shared object (linked:
	 * its sections in the mapping) of each */
	for (size_t f = 0; f < sizeof(fixtures) / sizeof(fixtures[0]); f++)
		for (int c = 0; c < 2; c++)
			for (int d = 0; d < 2; d++)
				for (int so = 0; so < 2; so++) {
					char what[160];

					snprintf(bin, sizeof(bin), "%s/fx.%s", dir, so ? "so" : "o");
					snprintf(cmd, sizeof(cmd),
						 "%s -O2 -g %s %s -o %s %s/tests/fixtures/%s 2>/dev/null",
						 compilers[c], dwarfs[d], so ? "-shared -fPIC" : "-c", bin,
						 src, fixtures[f]);
					if (system(cmd)) {
						fprintf(stderr, "skip: %s\n", cmd);
						continue;
					}
					snprintf(what, sizeof(what), "%s %s %s%s", fixtures[f], compilers[c],
						 dwarfs[d], so ? " -shared" : "");
					compare_file(what, bin, &n);
					unlink(bin);
					built++;
				}
	rmdir(dir);
	CHECK(built > 0, "no fixture could be compiled");
	CHECK(n.dies > 100 && n.fast > n.dies / 2, "%zu DIEs, %zu by the inline path", n.dies, n.fast);
	CHECK(n.skipped > 10 && n.kept > 10, "skip_children_if: %zu subtrees skipped, %zu kept",
	      n.skipped, n.kept);
	CHECK(n.copied_units >= 6 && n.in_place_units >= 6 && n.copied_attrs > 1000,
	      "unit copies: %zu units copied, %zu read in place, %zu attributes compared",
	      n.copied_units, n.in_place_units, n.copied_attrs);
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
