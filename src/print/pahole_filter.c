// SPDX-License-Identifier: GPL-2.0-only
/* Which structs pahole's listing keeps; see the header. */
#include "print/pahole_filter.h"

#include <string.h>

#include "print/pahole_reorg.h"

static bool is_struct(const struct type *t)
{
	return t->kind == TK_STRUCT || t->kind == TK_CLASS;
}

static bool has_prefix(const char *s, const char *prefix)
{
	return !strncmp(prefix, s, strlen(prefix));
}

const struct type *pahole_first_typedef_of(const struct cu_model *cu, const struct type *t)
{
	for (uint32_t i = 0; i < cu->nr_types; i++)
		if (cu->types[i]->kind == TK_TYPEDEF && cu->types[i]->type == t)
			return cu->types[i];
	return NULL;
}

/* 1.24's class__has_hole_ge: a data member (not a base) followed by a hole
 * of at least SIZE bytes (the hole before the first member is none's) */
static bool has_hole_ge(const struct type *t, const struct layout_class *c, uint16_t size)
{
	if (!c->nr_holes)
		return false;
	for (uint32_t i = 0; i < t->composite.nr_members; i++)
		if (!t->composite.members[i].is_static && c->m[i].hole >= size)
			return true;
	return false;
}

/* class__has_flexible_array: the last member's own type (no typedef
 * followed) is an array of one dimension without elements */
static bool has_flexible_array(const struct type *t)
{
	const struct type *a;

	if (!t->composite.nr_members)
		return false;
	a = t->composite.members[t->composite.nr_members - 1].type;
	if (!a || a->kind != TK_ARRAY || a->array.nr_dims != 1)
		return false;
	return a->array.dims[0].flexible || a->array.dims[0].count == 0;
}

bool pahole_filter_keeps(const struct pahole_filter *f, struct layout_cache *lc,
			 const struct type *t)
{
	const char *name = t->name;
	struct layout_class *c;

	if (f->unions_only && t->kind != TK_UNION)
		return false;
	if (f->structs_only && !is_struct(t))
		return false;
	if (f->packed_only && !layout_infer_packed(lc, t))
		return false;
	if (t->declaration || (!name && !f->anon))
		return false;
	if ((f->exclude || f->include) && !name) {
		const struct type *td = pahole_first_typedef_of(lc->cu, t);

		name = td ? td->name : NULL;
	}
	if (f->exclude && name && has_prefix(name, f->exclude))
		return false;
	if (f->include && name && !has_prefix(name, f->include))
		return false;
	if (f->decl_exclude) {
		/* decl_file 0: none (libdw's dwarf_decl_file says so too) */
		const char *file = t->decl_file ? cu_model_file_name(lc->cu, t->decl_file) : "";

		if (!*file || has_prefix(file, f->decl_exclude))
			return false;
	}
	if (f->unions_only)
		return true;
	if (!is_struct(t))
		return !(f->structs_only || f->packable || f->nr_holes || f->nr_bit_holes ||
			 f->hole_size_ge);
	c = layout_holes(lc, t);
	if (!c)
		return false;	/* out of memory: lc->oom says so */
	if (c->nr_holes < f->nr_holes || c->nr_bit_holes < f->nr_bit_holes ||
	    (f->hole_size_ge && !has_hole_ge(t, c, f->hole_size_ge)))
		return false;
	if (f->packable && !pahole_filter_packable(lc, t, NULL))
		return false;
	if (f->flexible_array_only && !has_flexible_array(t))
		return false;
	return true;
}

bool pahole_filter_packable(struct layout_cache *lc, const struct type *t, uint64_t *new_size)
{
	struct layout_class *c = layout_holes(lc, t);
	uint64_t size = t->size;

	if (!c || (!c->nr_holes && !c->nr_bit_holes) || !pahole_reorg_supported(t))
		return false;
	if (pahole_reorg_size(lc->cu, t, &size)) {
		lc->oom = true;
		return false;
	}
	if (new_size)
		*new_size = size;
	return (uint32_t)t->size > (uint32_t)size;
}

bool pahole_filter_skips_unit(const struct pahole_filter *f, const struct cu_model *cu)
{
	if (f->nr_langs) {
		bool listed = false;

		for (uint32_t i = 0; i < f->nr_langs && !listed; i++)
			listed = f->langs[i] == cu->language;
		if (listed == f->lang_exclude)
			return true;
	}
	return f->cu_exclude && (!cu->name || has_prefix(cu->name, f->cu_exclude));
}
