/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * print/layout.h: the layout facts pahole derives from a struct's members.
 *
 * For every data member: its storage unit (byte_offset, byte_size), the bit
 * offset inside that unit, and the byte and bit holes that follow it; for
 * the struct: the leading hole, the tail padding and the inferred
 * __packed__ property. The rules are pahole 1.24's (dwarf_loader.c
 * class_member__cache_byte_size, dwarves.c class__find_holes and
 * class__infer_packed_attributes).
 *
 * A layout_cache belongs to one cu_model and is filled lazily, type by type.
 * Like pahole, the packed inference has side effects on other types (a
 * struct embedded at an unnatural offset is marked packed when its container
 * is examined), so results depend on the order in which types are asked
 * for: ask in the order pahole prints.
 */
#ifndef D2B_PRINT_LAYOUT_H
#define D2B_PRINT_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "load/model.h"

struct layout_member {
	uint64_t bit_offset;	/* from the start of the struct */
	uint32_t byte_offset;	/* of the storage unit */
	uint32_t byte_size;	/* of the storage unit (bit-fields) or member */
	uint32_t bit_size;	/* byte_size * 8 */
	uint32_t bitfield_offset;	/* bits inside the unit */
	uint32_t bitfield_size;	/* 0: not a bit-field */
	int hole;		/* bytes after this member */
	int bit_hole;		/* bits after this member */
};

struct layout_class {
	bool members_done, holes_done, packed_inferred, is_packed;
	uint32_t natural_alignment;	/* 0: not computed */
	/* composite.nr_members entries, then one per C++ base
	 * (layout_nr_slots; a base's slot is layout_base_slot) */
	struct layout_member *m;
	int pre_hole, pre_bit_hole;
	int padding, bit_padding;
	int nr_holes, nr_bit_holes;
};

#define LAYOUT_CHUNK 64

struct layout_cache {
	const struct cu_model *cu;
	unsigned addr_size;
	/* indexed by type id, in chunks of LAYOUT_CHUNK allocated when a
	 * type of theirs is first asked for: -C prints a few types of a unit
	 * of thousands, and zeroing a record for each was a fifth of its
	 * printing (and its page faults) */
	struct layout_class **chunks;
	uint32_t nr;
	bool oom;
};

/* The entries pahole's type__for_each_member walks: data members (static
 * ones included) and C++ inheritance entries, in DIE order. Start with
 * `struct layout_iter it = { 0 };`; each call gives the next entry and its
 * slot in layout_class.m. */
struct layout_iter {
	uint32_t i, j;
};

static inline uint32_t layout_nr_bases(const struct type *t)
{
	return t->composite.cxx ? t->composite.cxx->nr_bases : 0;
}

static inline uint32_t layout_nr_slots(const struct type *t)
{
	return t->composite.nr_members + layout_nr_bases(t);
}

static inline bool layout_next(const struct type *t, struct layout_iter *it,
			       const struct member **m, uint32_t *slot)
{
	uint32_t nm = t->composite.nr_members, nb = layout_nr_bases(t);

	if (it->i < nm && (it->j >= nb || t->composite.members[it->i].die_offset <
					  t->composite.cxx->bases[it->j].die_offset)) {
		*m = &t->composite.members[it->i];
		*slot = it->i++;
		return true;
	}
	if (it->j < nb) {
		*m = &t->composite.cxx->bases[it->j];
		*slot = nm + it->j++;
		return true;
	}
	return false;
}

void layout_cache_init(struct layout_cache *lc, const struct cu_model *cu);

/* Whether pahole prints the "Force padding" lines for this unit: its
 * loader's has_alignment_info, true for DWARF, false for BTF. */
bool layout_has_alignment_info(struct layout_cache *lc);
void layout_cache_deinit(struct layout_cache *lc);

/* The class record of a struct/union/class type, with per-member facts
 * computed; NULL when out of memory or T is not from this unit. */
struct layout_class *layout_members(struct layout_cache *lc, const struct type *t);

/* Drop what the cache knows of T, whose members changed (pahole -R's
 * copy): the next ask computes it again. */
void layout_forget(struct layout_cache *lc, const struct type *t);

/* As layout_members, plus holes and padding (structs and classes only;
 * for unions this is layout_members). */
struct layout_class *layout_holes(struct layout_cache *lc, const struct type *t);

/* class__infer_packed_attributes: true when T must be __packed__. */
bool layout_infer_packed(struct layout_cache *lc, const struct type *t);

/* type__check_structs_at_unnatural_alignments: the structs among T's
 * members at an offset their natural alignment does not divide are
 * packed (their inference is settled so). */
void layout_check_unnatural(struct layout_cache *lc, const struct type *t);

/* union__infer_packed_attributes: marks member structs whose natural
 * alignment does not divide the union size as packed. */
void layout_union_infer_packed(struct layout_cache *lc, const struct type *t);

/* tag__natural_alignment. */
uint32_t layout_natural_alignment(struct layout_cache *lc, const struct type *t);

#endif
