// SPDX-License-Identifier: GPL-2.0-only
/* Struct layout analysis as pahole 1.24 does it; see layout.h. */
#include "print/layout.h"

#include <stdlib.h>
#include <string.h>

#include "dwarf/dw_const.h"
#include "print/c_type.h"

static bool is_struct(const struct type *t)
{
	return t && (t->kind == TK_STRUCT || t->kind == TK_CLASS);
}

static bool is_composite(const struct type *t)
{
	return t && (t->kind == TK_STRUCT || t->kind == TK_CLASS ||
		     t->kind == TK_UNION);
}

void layout_cache_init(struct layout_cache *lc, const struct cu_model *cu)
{
	size_t nr_chunks;

	lc->cu = cu;
	lc->addr_size = cu->addr_size ? cu->addr_size : 8;
	lc->nr = cu->nr_types;
	nr_chunks = ((size_t)lc->nr + LAYOUT_CHUNK - 1) / LAYOUT_CHUNK;
	lc->chunks = calloc(nr_chunks ? nr_chunks : 1, sizeof(*lc->chunks));
	lc->oom = lc->chunks == NULL;
}

bool layout_has_alignment_info(struct layout_cache *lc)
{
	/* pahole 1.24 takes it from the loader, not from the unit: its
	 * DWARF loader declares alignment information (dwarf__ops'
	 * has_alignment_info), its BTF loader none, whether or not any
	 * DW_AT_alignment is there (a struct of an __int128 and a char pads
	 * by force in a unit without one) */
	return !lc->cu->from_btf;
}

void layout_cache_deinit(struct layout_cache *lc)
{
	size_t nr_chunks = ((size_t)lc->nr + LAYOUT_CHUNK - 1) / LAYOUT_CHUNK;

	if (lc->chunks)
		for (size_t c = 0; c < nr_chunks; c++) {
			if (!lc->chunks[c])
				continue;
			for (uint32_t i = 0; i < LAYOUT_CHUNK; i++)
				free(lc->chunks[c][i].m);
			free(lc->chunks[c]);
		}
	free(lc->chunks);
	lc->chunks = NULL;
	lc->nr = 0;
}

static struct layout_class *class_of(struct layout_cache *lc, const struct type *t)
{
	struct layout_class **chunk;

	if (!lc->chunks || !is_composite(t) || t->id >= lc->nr ||
	    lc->cu->types[t->id] != t)
		return NULL;
	chunk = &lc->chunks[t->id / LAYOUT_CHUNK];
	if (!*chunk) {
		*chunk = calloc(LAYOUT_CHUNK, sizeof(**chunk));
		if (!*chunk) {
			lc->oom = true;
			return NULL;
		}
	}
	return &(*chunk)[t->id % LAYOUT_CHUNK];
}

/* class_member__cache_byte_size: storage unit and bit offset of a member. */
static void member_facts(struct layout_cache *lc, const struct member *m,
			 struct layout_member *lm)
{
	lm->bit_offset = m->bit_offset;
	lm->bitfield_size = m->bit_size;
	if (m->bit_size == 0) {
		lm->byte_size = m->byte_size ? m->byte_size :
				(uint32_t)c_type_size(m->type, lc->addr_size);
		lm->bit_size = lm->byte_size * 8;
		lm->byte_offset = (uint32_t)(m->bit_offset / 8);
		lm->bitfield_offset = 0;
		return;
	}
	lm->byte_size = m->byte_size;
	if (lm->byte_size == 0)
		lm->byte_size = (uint32_t)c_type_size(c_type_strip(m->type),
						       lc->addr_size);
	lm->bit_size = lm->byte_size * 8;
	lm->byte_offset = (uint32_t)(m->bit_offset / 8);
	if (lm->byte_size == 0) {
		lm->bitfield_offset = 0;
		return;
	}
	/* DW_AT_data_bit_offset form: split, then move to the unit that
	 * holds the field at its type's natural alignment */
	uint64_t bfo = m->bit_offset - (uint64_t)lm->byte_offset * 8;

	bfo += (uint64_t)(lm->byte_offset % lm->byte_size) * 8;
	lm->byte_offset = (uint32_t)(m->bit_offset / lm->bit_size * lm->bit_size / 8);
	if (bfo >= lm->bit_size) {
		bfo -= lm->bit_size;
		lm->byte_offset += lm->byte_size;
	}
	lm->bitfield_offset = (uint32_t)bfo;
}

void layout_forget(struct layout_cache *lc, const struct type *t)
{
	struct layout_class *c = class_of(lc, t);

	if (c) {
		free(c->m);
		memset(c, 0, sizeof(*c));
	}
}

struct layout_class *layout_members(struct layout_cache *lc, const struct type *t)
{
	struct layout_class *c = class_of(lc, t);
	uint32_t n;

	if (!c)
		return NULL;
	if (c->members_done)
		return c;
	n = layout_nr_slots(t);
	c->m = calloc(n ? n : 1, sizeof(*c->m));
	if (!c->m) {
		lc->oom = true;
		return NULL;
	}
	for (uint32_t i = 0; i < t->composite.nr_members; i++)
		if (!t->composite.members[i].is_static)
			member_facts(lc, &t->composite.members[i], &c->m[i]);
	for (uint32_t j = 0; j < layout_nr_bases(t); j++)
		member_facts(lc, &t->composite.cxx->bases[j],
			     &c->m[t->composite.nr_members + j]);
	c->members_done = true;
	return c;
}

/* pahole skips virtual bases in its layout walks ("XXX for now") */
static bool skipped_base(const struct member *m)
{
	return m->is_inheritance && m->virtuality == DW_VIRTUALITY_virtual;
}

/* class__find_holes */
static void find_holes(const struct type *t, struct layout_class *c)
{
	/* pahole keeps sizes in 32 bits and offsets in bits below 2^35: so do
	 * we, which keeps the signed arithmetic below from overflowing on
	 * hostile sizes and offsets. */
	int64_t size_bits = (int64_t)(uint32_t)t->size * 8;
	int64_t cur_bitfield_end = size_bits, cur_bitfield_size = 0;
	int64_t last_seen_bit = 0;
	bool in_bitfield = false;
	struct layout_member *last = NULL;

	struct layout_iter it = { 0 };
	const struct member *m;
	uint32_t slot;

	c->nr_holes = c->nr_bit_holes = 0;
	while (layout_next(t, &it, &m, &slot)) {
		struct layout_member *pos = &c->m[slot];
		int64_t bit_start, bit_end, bit_holes = 0, byte_holes = 0;

		if (m->is_static || skipped_base(m))
			continue;
		pos->hole = pos->bit_hole = 0;
		bit_start = (int64_t)(pos->bit_offset & ((1ULL << 35) - 1));
		bit_end = bit_start + (pos->bitfield_size ? pos->bitfield_size :
				       (int64_t)pos->byte_size * 8);
		if (in_bitfield) {
			int64_t bitfield_end = bit_start < cur_bitfield_end ?
					       bit_start : cur_bitfield_end;
			bit_holes = bitfield_end - last_seen_bit;
			last_seen_bit = bitfield_end;
		}
		if (pos->bitfield_size) {
			int64_t aligned_start = (int64_t)pos->byte_offset * 8;

			if (last_seen_bit < aligned_start && aligned_start <= bit_start) {
				byte_holes = pos->byte_offset - last_seen_bit / 8;
				last_seen_bit = aligned_start;
			}
			bit_holes += bit_start - last_seen_bit;
		} else {
			byte_holes = bit_start / 8 - last_seen_bit / 8;
		}
		last_seen_bit = bit_end;

		if (pos->bitfield_size) {
			in_bitfield = true;
			if (bit_end > cur_bitfield_end ||
			    (int64_t)pos->bit_size > cur_bitfield_size) {
				cur_bitfield_size = pos->bit_size;
				cur_bitfield_end = (int64_t)pos->byte_offset * 8 +
						   cur_bitfield_size;
				if (bit_end > cur_bitfield_end)
					cur_bitfield_end += cur_bitfield_size;
			}
		} else {
			in_bitfield = false;
			cur_bitfield_size = 0;
			cur_bitfield_end = bit_end;
		}

		/* pahole keeps byte holes in 16-bit unsigned fields, bit
		 * holes and the holes' counts in 8-bit ones: a member that
		 * starts before the previous one ended (BTF from clang can say
		 * so; clang's DWARF of a packed struct whose bit-field is
		 * followed by a member inside its storage unit too) leaves a
		 * hole of 65536 minus the overlap, or 256 minus it in bits */
		if (last) {
			last->hole = (int)(uint16_t)byte_holes;
			last->bit_hole = (int)(uint8_t)bit_holes;
		} else {
			c->pre_hole = (int)(uint16_t)byte_holes;
			c->pre_bit_hole = (int)(uint8_t)bit_holes;
		}
		if (bit_holes)
			c->nr_bit_holes = (uint8_t)(c->nr_bit_holes + 1);
		if (byte_holes)
			c->nr_holes = (uint8_t)(c->nr_holes + 1);
		last = pos;
	}
	if (in_bitfield) {
		int64_t bitfield_end = size_bits < cur_bitfield_end ?
				       size_bits : cur_bitfield_end;
		c->bit_padding = (int)(uint8_t)(bitfield_end - last_seen_bit);
		last_seen_bit = bitfield_end;
	} else {
		c->bit_padding = 0;
	}
	/* 16-bit unsigned, as 1.24's class->padding: a member past the
	 * struct's end (hostile DWARF) leaves 65536 minus the excess, and
	 * the "Force padding" lines stay fewer than 65536 */
	c->padding = (int)(uint16_t)((int64_t)(uint32_t)t->size - last_seen_bit / 8);
}

struct layout_class *layout_holes(struct layout_cache *lc, const struct type *t)
{
	struct layout_class *c = layout_members(lc, t);

	if (!c || !is_struct(t) || c->holes_done)
		return c;
	find_holes(t, c);
	c->holes_done = true;
	return c;
}

/* tag__strip_typedefs_and_modifiers of a member: its type, stripped. */
static const struct type *strip_member(const struct member *m)
{
	return c_type_strip(m->type);
}

/* Broken DWARF can make a struct contain itself by value (directly or
 * through other structs and arrays). While a struct's alignment is being
 * computed its cache slot holds ALIGN_BUSY, and a member that leads back to
 * it counts as 1; MAX_ALIGN_DEPTH bounds the recursion when no cache slot
 * is available. */
#define ALIGN_BUSY UINT32_MAX
#define MAX_ALIGN_DEPTH 256

static uint32_t natural_alignment(struct layout_cache *lc, const struct type *t,
				  unsigned depth);

static uint32_t type_natural_alignment(struct layout_cache *lc, const struct type *t,
				       unsigned depth)
{
	struct layout_class *c = class_of(lc, t);
	uint32_t a = 0;

	if (c && c->natural_alignment == ALIGN_BUSY)
		return 1;
	if (c && c->natural_alignment)
		return c->natural_alignment;
	if (depth >= MAX_ALIGN_DEPTH)
		return 1;
	if (c)
		c->natural_alignment = ALIGN_BUSY;
	struct layout_iter it = { 0 };
	const struct member *m;
	uint32_t slot;

	while (layout_next(t, &it, &m, &slot)) {
		uint32_t ma;

		if (m->is_static || skipped_base(m))
			continue;
		ma = natural_alignment(lc, strip_member(m), depth + 1);
		if (a < ma)
			a = ma;
	}
	if (c)
		c->natural_alignment = a;
	return a;
}

uint32_t layout_natural_alignment(struct layout_cache *lc, const struct type *t)
{
	return natural_alignment(lc, t, 0);
}

static uint32_t natural_alignment(struct layout_cache *lc, const struct type *t,
				  unsigned depth)
{
	uint64_t a = 1;

	for (int hops = 0; t && hops < 64; hops++) {
		switch (t->kind) {
		case TK_POINTER:
		case TK_REFERENCE:
		case TK_RVALUE_REFERENCE:
			a = lc->addr_size;
			break;
		case TK_BASE:
		case TK_ENUM:
			a = t->size;
			break;
		case TK_STRUCT:
		case TK_CLASS:
		case TK_UNION:
			a = type_natural_alignment(lc, t, depth);
			break;
		case TK_ARRAY:
			t = c_type_strip(t->type);
			continue;
		default:
			a = 1;
			break;
		}
		break;
	}
	return a ? (uint32_t)a : 1;
}

static void mark_packed(struct layout_cache *lc, const struct type *t)
{
	struct layout_class *c = class_of(lc, t);

	if (c) {
		c->is_packed = true;
		c->packed_inferred = true;
	}
}

/* type__check_structs_at_unnatural_alignments */
static void check_unnatural(struct layout_cache *lc, const struct type *t,
			    const struct layout_class *c)
{
	struct layout_iter it = { 0 };
	const struct member *m;
	uint32_t i;

	while (layout_next(t, &it, &m, &i)) {
		const struct type *mt = strip_member(m);

		if (!is_struct(mt))
			continue;
		if (c->m[i].byte_offset % layout_natural_alignment(lc, mt) != 0)
			mark_packed(lc, mt);
	}
}

void layout_check_unnatural(struct layout_cache *lc, const struct type *t)
{
	const struct layout_class *c = is_composite(t) ? layout_members(lc, t) : NULL;

	if (c)
		check_unnatural(lc, t, c);
}

bool layout_infer_packed(struct layout_cache *lc, const struct type *t)
{
	struct layout_class *c;
	uint32_t max_align = 1;

	if (!is_struct(t))
		return false;
	c = layout_holes(lc, t);
	if (!c)
		return false;
	if (c->packed_inferred)
		return c->is_packed;

	if (c->padding != 0 || c->nr_holes != 0) {
		check_unnatural(lc, t, c);
		c->is_packed = false;
		goto out;
	}
	struct layout_iter it = { 0 };
	const struct member *m;
	uint32_t i;

	while (layout_next(t, &it, &m, &i)) {
		uint32_t a;

		if (m->is_static || skipped_base(m))
			continue;
		a = layout_natural_alignment(lc, strip_member(m));
		if (a == 1)
			continue;
		if (max_align < a)
			max_align = a;
		if (c->m[i].byte_offset % a == 0)
			continue;
		c->is_packed = true;
		goto out;
	}
	if ((max_align != 1 && t->alignment == 1) ||
	    t->size % max_align != 0)
		c->is_packed = true;
out:
	c->packed_inferred = true;
	return c->is_packed;
}

void layout_union_infer_packed(struct layout_cache *lc, const struct type *t)
{
	struct layout_class *c = class_of(lc, t);

	if (!c || c->packed_inferred)
		return;
	for (uint32_t i = 0; i < t->composite.nr_members; i++) {
		const struct type *mt = strip_member(&t->composite.members[i]);

		if (!is_struct(mt))
			continue;
		if (t->size % layout_natural_alignment(lc, mt) != 0)
			mark_packed(lc, mt);
	}
	c->packed_inferred = true;
}
