// SPDX-License-Identifier: GPL-2.0-only
/* pahole -R: a struct reorganized to kill holes; see the header. */
#include "print/pahole_reorg.h"

#include <stdlib.h>
#include <string.h>

#include "print/layout.h"

/*
 * The struct being reorganized: a copy of T whose members (their order and
 * offsets) and size change, printed and measured through a copy of the
 * unit's type table that holds it in T's place (the layout cache finds a
 * type by its id).
 */
struct reorg {
	const struct cu_model *cu;
	struct type clone;
	struct member *m;		/* clone.composite.members */
	uint32_t n;
	struct cu_model unit;		/* *cu with `types` below */
	struct type **types;
	struct layout_cache lc;
	struct layout_class *c;		/* the clone's facts, after recalc() */
	unsigned addr;			/* the unit's address size */
	int verbose;			/* 1: each move; 2 (-S): and the
					 * struct after it */
	const struct pahole_print_opts *print;	/* verbose 2 */
	struct strbuf *out;
};

bool pahole_reorg_supported(const struct type *t)
{
	if ((t->kind != TK_STRUCT && t->kind != TK_CLASS) ||
	    (t->composite.cxx && t->composite.cxx->nr_bases))
		return false;
	for (uint32_t i = 0; i < t->composite.nr_members; i++)
		if (t->composite.members[i].is_static)
			return false;
	return true;
}

/* class__recalc_holes: the clone's layout from scratch */
static int recalc(struct reorg *r)
{
	layout_forget(&r->lc, &r->clone);
	r->c = r->lc.oom ? NULL : layout_holes(&r->lc, &r->clone);
	return r->c ? 0 : -1;
}

static uint32_t off(const struct reorg *r, uint32_t i)
{
	return r->c->m[i].byte_offset;
}

static uint32_t bsz(const struct reorg *r, uint32_t i)
{
	return r->c->m[i].byte_size;
}

static int hole(const struct reorg *r, uint32_t i)
{
	return r->c->m[i].hole;
}

static const char *name_of(const struct reorg *r, uint32_t i)
{
	return r->m[i].name ? r->m[i].name : "(null)";
}

/* class__find_next_hole_of_size: after FROM, the first member followed by
 * a hole that fits in SIZE bytes (a bit-field's first member for any of
 * its run); -1 if none */
static int64_t next_hole_of_size(const struct reorg *r, uint32_t from, uint32_t size)
{
	int64_t head = -1;

	for (uint32_t j = from + 1; j < r->n; j++) {
		if (r->c->m[j].bitfield_size) {
			if (head < 0)
				head = j;
		} else {
			head = -1;
		}
		if (hole(r, j) && bsz(r, j) && bsz(r, j) <= size)
			return head >= 0 ? head : j;
	}
	return -1;
}

/* class__find_last_member_of_size: from the end back to TO (not
 * included), the first member that fits in SIZE bytes, a bit-field only
 * by its first member; -1 if none */
static int64_t last_member_of_size(const struct reorg *r, uint32_t to, uint32_t size)
{
	for (uint32_t j = r->n; j-- > to + 1;) {
		if (r->c->m[j].bitfield_size && off(r, j) && r->c->m[j - 1].bitfield_size)
			continue;
		if (bsz(r, j) && bsz(r, j) <= size)
			return j;
	}
	return -1;
}

/* A member's offset moved by DELTA bytes (its bits with it) */
static void shift(struct member *m, int64_t delta)
{
	m->bit_offset = (uint64_t)((int64_t)m->bit_offset + delta * 8);
}

/* class__move_member: FROM moved after DEST. Returns 1 moved, 0 refused
 * (a bit-field), -1 OOM. */
static int move_member(struct reorg *r, uint32_t dest, uint32_t from, bool from_padding)
{
	const uint32_t from_size = bsz(r, from), dest_size = bsz(r, dest);
	const bool from_was_last = from == r->n - 1;
	const uint32_t from_prev = from - 1;
	const uint16_t orig_tail_from_hole = (uint16_t)hole(r, from);
	const uint16_t orig_from_offset = (uint16_t)off(r, from);
	const uint32_t align = from_size > r->addr ? r->addr : from_size;
	const uint16_t offset = (uint16_t)(align ? (uint32_t)hole(r, dest) % align : 0);
	const uint16_t new_from_offset = (uint16_t)(off(r, dest) + dest_size + offset);
	const int padding = r->c->padding;
	struct member moved;

	if (r->m[from].bit_size)
		return 0;	/* 1.24 refuses bit-fields */
	if (r->verbose)
		strbuf_addf(r->out, "/* Moving '%s' from after '%s' to after '%s' */\n",
			    name_of(r, from), name_of(r, from_prev), name_of(r, dest));
	/* (the printed names first: the move renumbers) */
	moved = r->m[from];
	memmove(&r->m[dest + 2], &r->m[dest + 1], (from - dest - 1) * sizeof(*r->m));
	r->m[dest + 1] = moved;
	shift(&r->m[dest + 1], (int64_t)new_from_offset - (int64_t)(moved.bit_offset / 8));
	if (from_padding) {
		if (orig_from_offset % r->addr == 0)
			r->clone.size = (uint32_t)r->clone.size - from_size - (uint32_t)padding;
		else if (r->verbose)
			strbuf_addf(r->out, "/* adding %u bytes from %s to the padding */\n",
				    from_size, moved.name ? moved.name : "(null)");
	} else if (from_was_last) {
		r->clone.size = (uint32_t)r->clone.size - from_size - (uint32_t)padding;
	} else if ((uint32_t)orig_tail_from_hole + from_size >= r->addr) {
		/* class__subtract_offsets_from(from_prev): those that followed
		 * FROM, a word back (now past its new place) */
		r->clone.size = (uint32_t)r->clone.size - r->addr;
		for (uint32_t j = from + 1; j < r->n; j++)
			shift(&r->m[j], -(int64_t)r->addr);
	}
	if (recalc(r))
		return -1;
	/* -S: the struct as the move left it (1.24's class__move_member
	 * prints it at verbose 2, and crashes there) */
	if (r->verbose > 1) {
		pahole_print_type(r->out, &r->lc, &r->clone, NULL, NULL, r->print);
		strbuf_putc(r->out, '\n');
	}
	return 1;
}

/* FROM (-1: none) moved after DEST, unless it comes right after it: 1.24
 * leaves that one where it is, its place may be an explicit alignment.
 * Returns 1 moved, 0 not, -1 OOM. */
static int move_unless_next(struct reorg *r, uint32_t dest, int64_t from)
{
	if (from < 0 || (uint32_t)from - 1 == dest)
		return 0;
	return move_member(r, dest, (uint32_t)from, false);
}

/* At most this many moves: each of 1.24's fills a hole, so a real struct
 * needs fewer than its members squared; hostile DWARF (members that
 * overlap, offsets past 64 KiB, which 1.24 cuts to 16 bits) could make
 * them go round, and 1.24 with them (it loops forever on some C++ classes,
 * which we do not take). */
#define REORG_MAX_MOVES(n) (4 * ((uint64_t)(n) + 1) * ((uint64_t)(n) + 1))

/* class__reorganize without its bit-field algorithms. Returns -1 on OOM. */
static int reorganize(struct reorg *r)
{
	uint64_t moves = 0;
	int moved;

	if (recalc(r))
		return -1;
restart:
	if (!r->n || moves++ > REORG_MAX_MOVES(r->n))
		return 0;
	{
		const uint32_t last = r->n - 1;
		uint32_t alignment = 0;

		for (uint32_t i = 0; i < r->n; i++) {
			uint32_t aligned = bsz(r, i) + (uint32_t)hole(r, i);

			if (aligned <= r->addr && aligned > alignment)
				alignment = aligned;
		}
		if (alignment) {
			uint32_t modulo;
			uint16_t new_padding;

			if (alignment > 1)
				alignment = (alignment + 1) / 2 * 2;
			modulo = (off(r, last) + bsz(r, last)) % alignment;
			new_padding = (uint16_t)(modulo ? r->addr - modulo : 0);
			/* (1.24 sets the padding without searching the holes
			 * again: with bit-fields at the end it is not what
			 * they would say, and it is printed so) */
			if (new_padding != (uint16_t)r->c->padding) {
				r->c->padding = new_padding;
				r->clone.size = off(r, last) + bsz(r, last) + new_padding;
			}
		}
		for (uint32_t i = 0; i < r->n; i++) {
			if (!hole(r, i))
				continue;
			moved = move_unless_next(r, i, next_hole_of_size(r, i, (uint32_t)hole(r, i)));
			if (moved)
				goto moved;
			if (r->c->padding > 0 && i != last && bsz(r, last) &&
			    bsz(r, last) <= (uint32_t)hole(r, i)) {
				moved = move_member(r, i, last, true);
				if (moved)
					goto moved;
			}
		}
		if (!r->c->nr_holes)
			return 0;
		for (uint32_t i = 0; i < r->n; i++) {
			if (!hole(r, i))
				continue;
			moved = move_unless_next(r, i, last_member_of_size(r, i, (uint32_t)hole(r, i)));
			if (moved)
				goto moved;
		}
	}
	return 0;
moved:
	if (moved < 0)
		return -1;
	goto restart;
}

/* Set R up for T of CU: the clone in T's place. Returns -1 on OOM (then
 * reorg_deinit() still). */
static int reorg_init(struct reorg *r, const struct cu_model *cu, const struct type *t)
{
	r->m = malloc((r->n ? r->n : 1) * sizeof(*r->m));
	r->types = malloc((cu->nr_types ? cu->nr_types : 1) * sizeof(*r->types));
	if (!r->m || !r->types)
		return -1;
	if (r->n)	/* (a struct without members has no array) */
		memcpy(r->m, t->composite.members, r->n * sizeof(*r->m));
	if (cu->nr_types)
		memcpy(r->types, cu->types, cu->nr_types * sizeof(*r->types));
	r->clone.composite.members = r->m;
	/* 1.24's class__clone copies the data members only */
	r->clone.composite.nr_nested = 0;
	r->clone.composite.nested = NULL;
	r->clone.composite.cxx = NULL;
	r->types[t->id] = &r->clone;
	r->unit = *cu;
	r->unit.types = r->types;
	layout_cache_init(&r->lc, &r->unit);
	return r->lc.oom ? -1 : 0;
}

static void reorg_deinit(struct reorg *r)
{
	layout_cache_deinit(&r->lc);
	free(r->m);
	free(r->types);
}

int pahole_reorg_size(const struct cu_model *cu, const struct type *t, uint64_t *size)
{
	struct reorg r = { .cu = cu, .clone = *t, .n = t->composite.nr_members,
			   .addr = cu->addr_size ? cu->addr_size : 8 };
	int ret = reorg_init(&r, cu, t) || reorganize(&r) ? -1 : 0;

	*size = r.clone.size;
	reorg_deinit(&r);
	return ret;
}

int pahole_reorg_print(struct strbuf *out, const struct cu_model *cu, const struct type *t,
		       int verbose, const struct pahole_print_opts *o, struct d2b_error *err)
{
	struct reorg r = { .cu = cu, .clone = *t, .n = t->composite.nr_members,
			   .addr = cu->addr_size ? cu->addr_size : 8, .verbose = verbose,
			   .print = o, .out = out };
	unsigned cls = o->cacheline_size ? o->cacheline_size : 64;
	int ret = -1;

	if (reorg_init(&r, cu, t) || reorganize(&r))
		goto out;
	{
		/* do_reorg: the savings in 1.24's types (int, size_t) */
		int savings = (int)((uint32_t)t->size - (uint32_t)r.clone.size);

		if (savings && verbose) {
			strbuf_putc(out, '\n');
			if (verbose > 1)
				strbuf_puts(out, "/* Final reorganized struct: */\n");
		}
		pahole_print_type(out, &r.lc, &r.clone, NULL, NULL, o);
		if (savings) {
			size_t lines = ((size_t)t->size + cls - 1) / cls -
				       ((size_t)(uint32_t)r.clone.size + cls - 1) / cls;

			strbuf_addf(out, "   /* saved %d byte%s", savings, savings != 1 ? "s" : "");
			if (lines)
				strbuf_addf(out, " and %zu cacheline%s", lines, lines != 1 ? "s" : "");
			strbuf_puts(out, "! */\n");
		} else {
			strbuf_putc(out, '\n');
		}
	}
	ret = r.lc.oom || out->oom ? -1 : 0;
out:
	reorg_deinit(&r);
	return ret ? d2b_error_oom(err) : 0;
}
