// SPDX-License-Identifier: GPL-2.0-only
/*
 * Partial loads (load_options.only_types: pahole -C).
 *
 * pahole -C NAME prints one type of one unit: decoding the whole unit (the
 * model of thousands of types) was most of its run. A partial load makes
 * the model of only what printing the named types reads:
 *
 *   1. the skim (lazy_skim()): a pass over the unit's bytes that decodes
 *      no attribute but the name and DW_AT_declaration of the DIEs that
 *      have them and matter (most DIEs are one table lookup and a skip of
 *      their fixed size). It lists the DIEs the full walk makes a type of
 *      (struct lazy_die: where each one's children start and its subtree
 *      ends) and finds the first definition of each name in DIE order
 *      (what pahole_select's find_by_name() finds in a full model). It
 *      goes only as far as it must: to the last name, then to each type
 *      step 2 decodes (lazy_find()), and to the unit's end only when no
 *      name is there. (Until the twenty-eighth session it also looked for
 *      DW_AT_alignment anywhere in the unit, once to its end: that is not
 *      pahole's "Force padding" test, layout_has_alignment_info());
 *   2. each name found is decoded with loader_walk_dies() over its DIE's
 *      subtree only (a window of the unit), and every type reference it records
 *      is then decoded the same way, on demand, as deep as its use needs
 *      (enum lazy_level): a pointer's target for its name only, a struct
 *      or enum so reached without its children (members, enumerators) unless
 *      it is anonymous (the printer expands those); a typedef reached for
 *      its name without its target; a member's type (a value) with its
 *      members, recursively (sizes, alignment, packed inference). A type
 *      reached again for more is completed in place (struct lazy_type);
 *   3. the model's types are sorted into DIE order, as the full walk has
 *      them, so find_by_name() in it finds what it finds in the full one.
 *
 * A type whose DIE sits inside another type's subtree (clang's anonymous
 * member types) is decoded only as part of its outermost such ancestor,
 * with all of it, so that every type is made once and its container's
 * nested list is the full walk's. Whatever the skim does not list resolves
 * to a TK_UNRESOLVED type, as the full walk's loader_resolve_fixups() does.
 *
 * What it does not handle it leaves to the full walk (loader_lazy_load()
 * returns 1): a unit other than a C compile unit of .debug_info (C++ classes need
 * their methods, type units their imports), references into other units
 * (DW_FORM_ref_addr, ref_sig8), DW_FORM_indirect, and any error (so the
 * full walk reports it as it always did).
 */
#include "elf/elf_page_copies.h"
#include "load/loader.h"
#include "util/name_sort.h"

/* A DIE the full walk makes a type of, as the skim found it. */
struct lazy_die {
	uint64_t off;
	uint64_t kids;		/* where its children start (its subtree ends if none) */
	uint64_t end;		/* where its subtree ends */
	uint64_t top;		/* its outermost ancestor listed here, 0 if none */
	struct type *made;	/* its type, once made */
	uint8_t flags;		/* LD_* */
};

enum {
	LD_COMPOSITE = 1 << 0,	/* struct, union, class */
	LD_ENUM = 1 << 1,
	LD_NAMED = 1 << 2,	/* has a DW_AT_name (composites and enums only) */
	LD_OPEN = 1 << 3,	/* the skim is inside its subtree: end is its depth */
};

/* What a partial load knows of each type it made, by type index. */
struct lazy_type {
	uint64_t tref;		/* its DW_AT_type target, UINT64_MAX if none */
	uint8_t level;		/* enum lazy_level it was decoded for */
	bool kids;		/* its children are decoded */
};

DEFINE_VEC(lazy_die_vec, struct lazy_die)
DEFINE_VEC(lazy_type_vec, struct lazy_type)

/* What the skim does with a DIE of an abbreviation (struct skim_ab) */
enum {
	SK_TYPE = 1 << 0,	/* the full walk makes a type of it */
	SK_NAMED_KIND = 1 << 1,	/* struct, union, class, enum, typedef */
	SK_MEMBER = 1 << 3,	/* DW_TAG_member or DW_TAG_variable */
	SK_NO_KIDS = 1 << 4,	/* children not walked for types (member, parameter) */
	SK_COMPOSITE = 1 << 5,
	SK_ENUM = 1 << 6,
	SK_VARIABLE = 1 << 7,
};
/* skim_ab.fast: nothing to do but skip the DIE's fixed-size attributes */

/* An abbreviation as the skim reads it. */
struct skim_ab {
	uint8_t c;		/* SK_* */
	uint8_t name_form;	/* DW_FORM_strp or DW_FORM_string when name_at >= 0 */
	int16_t name_at;	/* DW_AT_name's offset in the DIE, -1 none, -2 unknown */
	int16_t decl_at;	/* DW_AT_declaration (a flag byte) likewise, -3 set */
	int32_t fixed;		/* the attributes' size if fixed, else -1 */
	bool fast;		/* no type, no children, fixed size */
	bool foreign;		/* a form a partial load does not take (see above) */
	const struct dw_abbrev *ab;
};

struct lazy {
	struct lazy_die_vec dies;	/* in DIE order */
	struct lazy_type_vec info;	/* by type index in l->types */
	size_t fix_next;		/* the first of l->fixups not decoded yet */
	struct type_slot *map;		/* the types made, by DIE offset */
	size_t map_mask, map_nr;
	struct skim_ab *sk;		/* by abbreviation index */
	const struct skim_ab **sk_code;	/* by one-byte code (1..nr_dense), or NULL */
	/* the skim: where it stopped (pos, depth, the listed DIEs still
	 * open), where it is to stop next (see lazy_skim()), the names */
	const uint8_t *pos;
	uint32_t depth, stop_depth;
	uint64_t stop_off;
	size_t nr_open, nr_missing, nr_names;
	bool done;
	const char *const *names;
	size_t name_need;		/* the longest name's bytes, its NUL too */
	uint64_t *found;
	const uint32_t *sorted;	/* over 4 names: their indexes, by name */
	uint32_t *own_sorted;	/* sorted, when this load made it */
	/* the walk in progress: its root DIE, what it is decoded for, and
	 * the type whose children it decodes (NULL: a new one) */
	uint64_t root_off;
	struct lazy_die *root;
	uint8_t root_level;
	bool root_kids;
	struct type *reuse;
	/* the skim's state by DIE depth: not cleared (each is written
	 * before it is read) */
	uint16_t tag_at[DW_MAX_DEPTH + 2];
	uint64_t top_at[DW_MAX_DEPTH + 2];
	uint32_t open[DW_MAX_DEPTH + 2];	/* listed DIEs whose subtree is open */
};

/* Whether NAME is in .debug_str and read through l->strs: not a name in
 * the unit's own bytes (DW_FORM_string, which gcc gives short names), which
 * the skim has read already. */
static bool in_str(const struct loader *l, const char *name)
{
	return l->strs && l->str && name >= l->str && name < l->str + l->str_size;
}

/* A reference to decode at LEVEL (none: the slot stays NULL). */
static int lazy_fixup(struct loader *l, struct type **slot, uint64_t off, uint8_t level)
{
	if (level == LV_NONE) {
		*slot = NULL;
		return 0;
	}
	return add_fixup(l, slot, off, level);
}

/* The level T's own reference (t->type) is needed at, when T is needed at
 * LEVEL (KIDS: its children are decoded). */
static uint8_t link_level(uint8_t kind, uint8_t level, bool kids)
{
	switch (kind) {
	case TK_TYPEDEF:
		/* a name is the typedef's own; a value is its target's */
		return level >= LV_VALUE ? LV_VALUE : LV_NONE;
	case TK_CONST:
	case TK_VOLATILE:
	case TK_RESTRICT:
	case TK_ATOMIC:
	case TK_ARRAY:
		return level > LV_VALUE ? LV_VALUE : level;
	case TK_ENUM:
		/* the underlying type: whether its values are signed */
		return kids ? LV_VALUE : LV_NONE;
	default:
		/* pointers, functions: the names of their targets */
		return LV_NAME;
	}
}

/* Whether a DIE of E's kind needed at LEVEL needs its children. */
static bool lazy_kids_needed(const struct lazy_die *e, uint8_t level)
{
	if (!(e->flags & (LD_COMPOSITE | LD_ENUM)) || !(e->flags & LD_NAMED))
		return true;	/* anonymous ones are printed whole */
	return level >= ((e->flags & LD_ENUM) ? LV_FULL : LV_VALUE);
}

static int lazy_skim(struct loader *l);

/* The listed DIE at OFF with its subtree's end, the skim going on as far
 * as that needs; NULL if none, or when the skim failed (*FAILED set). */
static struct lazy_die *lazy_find(struct loader *l, uint64_t off, bool *failed)
{
	struct lazy *z = l->lazy;
	size_t lo = 0, hi;

	if (!z->done && off >= dw_cu_offset_of(&l->dcu, z->pos)) {
		z->stop_off = off;	/* past the DIE at OFF */
		z->stop_depth = UINT32_MAX;
		if (lazy_skim(l)) {
			*failed = true;
			return NULL;
		}
	}
	hi = z->dies.len;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (z->dies.data[mid].off < off) {
			lo = mid + 1;
		} else if (z->dies.data[mid].off > off) {
			hi = mid;
		} else {
			if (z->dies.data[mid].flags & LD_OPEN) {
				/* on to the end of its subtree */
				z->stop_off = 0;
				z->stop_depth = (uint32_t)z->dies.data[mid].end;
				if (lazy_skim(l)) {
					*failed = true;
					return NULL;
				}
			}
			return &z->dies.data[mid];
		}
	}
	return NULL;
}

static struct type *lazy_map_get(const struct lazy *z, uint64_t off)
{
	return find_type_slot(z->map, z->map_mask, off);
}

struct type *loader_lazy_reused(struct loader *l, const struct dw_die *die)
{
	struct lazy *z = l->lazy;
	struct type *t = z->reuse;

	if (!t || t->die_offset != die->offset)
		return NULL;
	z->reuse = NULL;
	return t;
}

/* new_type()'s end in a partial load: T is made; record it and queue its
 * reference at the level it is needed. */
int loader_lazy_register(struct loader *l, struct type *t, const struct dw_die *die,
			 const struct die_info *di)
{
	struct lazy *z = l->lazy;
	bool root = die->offset == z->root_off, failed = false;
	struct lazy_die *e = root ? z->root : lazy_find(l, die->offset, &failed);
	struct lazy_type *info = lazy_type_vec_push_zero(&z->info);
	size_t h;

	if (!info)
		return oom(l);
	if (!e || e->made)	/* not what the skim listed: cannot be */
		return d2b_error_set(l->err, "partial load: unlisted type DIE 0x%llx",
				     (unsigned long long)die->offset);
	e->made = t;
	info->tref = di->has_type ? di->type_off : UINT64_MAX;
	info->level = root ? z->root_level : LV_FULL;
	info->kids = root ? z->root_kids : true;
	if (++z->map_nr * 2 > z->map_mask + 1) {	/* grow: twice the slots */
		size_t cap = 2 * (z->map_mask + 1);
		struct type_slot *m = calloc(cap, sizeof(*m));

		if (!m)
			return oom(l);
		for (size_t i = 0; i <= z->map_mask; i++) {
			if (!z->map[i].t)
				continue;
			h = offset_hash(z->map[i].off, cap - 1);
			while (m[h].t)
				h = (h + 1) & (cap - 1);
			m[h] = z->map[i];
		}
		free(z->map);
		z->map = m;
		z->map_mask = cap - 1;
	}
	/* one type per DIE (see above): no need to look first */
	h = offset_hash(t->die_offset, z->map_mask);
	while (z->map[h].t)
		h = (h + 1) & z->map_mask;
	z->map[h] = (struct type_slot){ t->die_offset, t };
	if (!di->has_type)
		return 0;
	return lazy_fixup(l, &t->type, di->type_off, link_level(t->kind, info->level, info->kids));
}

/* loader_walk_dies() over the DIEs from OFF to END, as the children of a
 * unit. */
static int lazy_walk(struct loader *l, uint64_t off, uint64_t end)
{
	if (dw_cursor_init_at(&l->cur, &l->dcu, off, l->err))
		return -1;
	l->cur.end = dw_cu_at(&l->dcu, end);
	l->cur.depth = 1;
	memset(&l->scopes[0], 0, sizeof(l->scopes[0]));
	l->scopes[0].kind = SCOPE_UNIT;
	l->top = 0;
	l->top_depth = 0;
	return loader_walk_dies(l);
}

/* T (listed as E) is needed at LEVEL now: decode what that adds. */
static int lazy_upgrade(struct loader *l, struct type *t, const struct lazy_die *e,
			uint8_t level)
{
	struct lazy *z = l->lazy;
	struct lazy_type *info = &z->info.data[t->id];
	uint8_t old = info->level, old_link = link_level(t->kind, old, info->kids);
	uint64_t tref = info->tref;
	bool kids = info->kids;

	if (level <= old)
		return 0;
	info->level = level;
	if (!kids && lazy_kids_needed(e, level)) {
		/* its children, into the type it is (new_type: lazy_reused) */
		info->kids = kids = true;
		z->reuse = t;
		z->root_off = UINT64_MAX;
		if (lazy_walk(l, e->off, e->end))
			return -1;
		z->reuse = NULL;
	}
	if (tref == UINT64_MAX || link_level(t->kind, level, kids) <= old_link)
		return 0;
	return lazy_fixup(l, &t->type, tref, link_level(t->kind, level, kids));
}

/* *OUT: the type at DIE offset OFF, decoded for LEVEL. */
static int lazy_request(struct loader *l, uint64_t off, uint8_t level, struct type **out)
{
	struct lazy *z = l->lazy;
	struct type *t = lazy_map_get(z, off);
	const struct lazy_die *e;
	bool failed = false;

	/* most references are to a type made already, for no more */
	if (t && z->info.data[t->id].level >= level) {
		*out = t;
		return 0;
	}
	e = lazy_find(l, off, &failed);
	if (failed)
		return -1;
	if (!e) {	/* no type there: as loader_resolve_fixups() */
		*out = loader_unresolved_type(l, off);
		return *out ? 0 : oom(l);
	}
	if (!t && e->top) {
		/* inside another type: made with all of its outermost one */
		if (lazy_request(l, e->top, LV_FULL, &t))
			return -1;
		t = lazy_map_get(z, off);
		e = lazy_find(l, off, &failed);	/* the list may have moved */
		if (failed || !e)
			return -1;
	} else if (!t) {
		bool kids = lazy_kids_needed(e, level);

		z->root_off = off;
		z->root = (struct lazy_die *)e;
		z->root_level = level;
		z->root_kids = kids;
		if (lazy_walk(l, off, kids ? e->end : e->kids))
			return -1;
		z->root_off = UINT64_MAX;
		z->root = NULL;
		*out = lazy_map_get(z, off);
		if (!*out)
			return d2b_error_set(l->err, "partial load: no type made at 0x%llx",
					     (unsigned long long)off);
		return 0;
	}
	if (!t)
		return d2b_error_set(l->err, "partial load: no type made at 0x%llx",
				     (unsigned long long)off);
	*out = t;
	return lazy_upgrade(l, t, e, level);
}

/* Decode the queued references until none is left. */
static int lazy_resolve(struct loader *l)
{
	struct lazy *z = l->lazy;

	while (z->fix_next < l->fixups.len) {
		struct fixup f = l->fixups.data[z->fix_next++];
		struct type *t;

		if (lazy_request(l, f.off, fixup_level(&f), &t))
			return -1;
		*fixup_slot(&f) = t;
	}
	return 0;
}

static bool is_type_tag(uint16_t tag)
{
	switch (tag) {
	case DW_TAG_base_type:
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_restrict_type:
	case DW_TAG_atomic_type:
	case DW_TAG_typedef:
	case DW_TAG_unspecified_type:
	case DW_TAG_ptr_to_member_type:
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_class_type:
	case DW_TAG_enumeration_type:
	case DW_TAG_array_type:
	case DW_TAG_subroutine_type:
		return true;
	}
	return false;
}

static bool is_composite_tag(uint16_t tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_class_type;
}

static struct skim_ab skim_plan(const struct loader *l, const struct dw_abbrev *ab)
{
	struct skim_ab k = { .name_at = -1, .decl_at = -1, .fixed = ab->fixed_size };
	uint16_t tag = ab->tag;
	int at = 0;		/* offset of the next attribute; -1: not fixed */

	if (is_type_tag(tag))
		k.c |= SK_TYPE;
	if (is_composite_tag(tag))
		k.c |= SK_COMPOSITE | SK_NAMED_KIND;
	if (tag == DW_TAG_enumeration_type)
		k.c |= SK_ENUM | SK_NAMED_KIND;
	if (tag == DW_TAG_typedef)
		k.c |= SK_NAMED_KIND;
	if (tag == DW_TAG_member || tag == DW_TAG_variable)
		k.c |= SK_MEMBER;
	if (tag == DW_TAG_variable)
		k.c |= SK_VARIABLE;
	if (tag == DW_TAG_member || tag == DW_TAG_formal_parameter)
		k.c |= SK_NO_KIDS;
	for (unsigned i = 0; i < ab->nr_attrs; i++) {
		const struct dw_abbrev_attr *aa = &ab->attrs[i];
		unsigned f = aa->form;
		int fs = dw_cu_form_size(&l->dcu, f);

		/* references out of the unit, forms given in the DIE */
		if (f == DW_FORM_ref_addr || f == DW_FORM_ref_sig8 || f == DW_FORM_indirect ||
		    f == DW_FORM_GNU_ref_alt || f == DW_FORM_ref_sup4 || f == DW_FORM_ref_sup8 ||
		    aa->name == DW_AT_signature)
			k.foreign = true;
		if (aa->name == DW_AT_name) {
			/* read in place: a strp or an inline string at a fixed
			 * offset, once in the abbreviation */
			bool fast = at >= 0 && at < INT16_MAX && k.name_at == -1 &&
				    ((aa->form == DW_FORM_strp && l->dcu.unit->offset_size == 4 &&
				      l->str_ok) || aa->form == DW_FORM_string);

			k.name_at = fast ? (int16_t)at : -2;
			k.name_form = (uint8_t)aa->form;
		}
		if (aa->name == DW_AT_declaration) {
			if (k.decl_at != -1)
				k.decl_at = -2;
			else if (aa->form == DW_FORM_flag_present ||
				 (aa->form == DW_FORM_implicit_const && aa->implicit_const))
				k.decl_at = -3;
			else if (aa->form == DW_FORM_implicit_const)
				k.decl_at = -1;
			else
				k.decl_at = aa->form == DW_FORM_flag && at >= 0 &&
					    at < INT16_MAX ? (int16_t)at : -2;
		}
		if (at >= 0)
			at = fs >= 0 ? at + fs : -1;
	}
	k.ab = ab;
	k.fast = !(k.c & SK_TYPE) && !ab->has_children && k.fixed >= 0;
	return k;
}

/* Move *P past the attributes of a DIE of AB (K): false when they run past
 * END or do not parse (the full walk then reports it). */
static inline bool skim_attrs(struct loader *l, const struct dw_abbrev *ab,
			      const struct skim_ab *k, const uint8_t **p, const uint8_t *end)
{
	if (k->fixed >= 0) {
		if ((size_t)(end - *p) < (size_t)k->fixed)
			return false;
		*p += k->fixed;
		return true;
	}
	for (unsigned i = 0; i < ab->nr_attrs; i++) {
		unsigned form = ab->attrs[i].form;
		int fs = form < DW_CU_FORM_SIZES ? l->dcu.form_size[form] : -1;

		if (fs >= 0) {
			if ((size_t)(end - *p) < (size_t)fs)
				return false;
			*p += fs;
		} else if (dw_form_skip(&l->dcu, form, p, end, l->err)) {
			return false;
		}
	}
	return true;
}

/* The abbreviation at *P (its code read), or NULL: a code the skim does
 * not take (the full walk then decides). */
static inline const struct dw_abbrev *skim_code(const struct loader *l, const uint8_t **p,
						const uint8_t *end)
{
	const struct dw_abbrev_table *t = &l->dcu.abbrevs;
	uint64_t code;

	if (!(**p & 0x80) && **p <= t->nr_dense)
		return t->dense[*(*p)++ - 1];
	if (!rd_uleb(p, end, &code))
		return NULL;
	return dw_cu_abbrev(&l->dcu, code);
}

/* Skip the children of a DIE whose attributes end at *P. */
static bool skim_children(struct loader *l, const uint8_t **p, const uint8_t *end)
{
	const struct lazy *z = l->lazy;
	unsigned nest = 1;

	while (nest) {
		const struct dw_abbrev *ab;

		if (*p >= end)
			return false;
		if (!**p) {
			(*p)++;
			nest--;
			continue;
		}
		ab = skim_code(l, p, end);
		if (!ab || !skim_attrs(l, ab, &z->sk[ab->index], p, end))
			return false;
		if (ab->has_children && ++nest > DW_MAX_DEPTH)
			return false;
	}
	return true;
}

/* A DIE's attributes the general way (loader_read_die_generic()), for the few
 * the skim reads that are not in place: *P moves past them. */
static bool skim_read(struct loader *l, const struct dw_abbrev *ab, const uint8_t *start,
		      uint32_t depth, const uint8_t **p, const uint8_t *end,
		      struct die_info *di)
{
	struct dw_die die = {
		.offset = dw_cu_offset_of(&l->dcu, start),
		.abbrev = ab,
		.attrs = *p,
		.depth = depth,
	};

	l->cur.end = end;
	if (loader_read_die_generic(l, &die, di))
		return false;
	*p = l->cur.pos;
	return true;
}

/* With many -C names, each named DIE is looked up among them by binary
 * search (z->sorted), not compared with each one. */
static bool lazy_name_range(const struct lazy *z, const char *name, size_t *first,
			    size_t *last)
{
	size_t lo = 0, hi = z->nr_names;

	while (lo < hi) {	/* the first not below NAME */
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(z->names[z->sorted[mid]], name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	while (hi < z->nr_names && !strcmp(z->names[z->sorted[hi]], name))
		hi++;
	*last = hi;
	return hi > lo;
}

static const char *lazy_name_of(void *ctx, uint32_t idx)
{
	const char *const *names = ctx;

	return names[idx];
}

/* The names' order, ties by index (lazy_name_range() lists equal names in
 * list order). */
static int lazy_name_cmp(const void *a, const void *b, void *ctx)
{
	const char *const *names = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = strcmp(names[x], names[y]);

	if (c)
		return c;
	return x < y ? -1 : x > y;
}

uint32_t *load_sort_type_names(const char *const *names, size_t n)
{
	return name_sort_order(n, lazy_name_of, lazy_name_cmp, (void *)names);
}

/*
 * Step 1 (see above): the unit DIE into the model (by loader_walk_dies()
 * over that DIE alone: the unit's scope opens and closes), and the skim set up.
 * Returns 0, or 1 where the full walk must decide (not C, malformed).
 */
static int lazy_skim_start(struct loader *l)
{
	struct lazy *z = l->lazy;
	const uint8_t *p;
	struct dw_die die;

	dw_cursor_init(&l->cur, &l->dcu);
	if (dw_cursor_next(&l->cur, &die, l->err) <= 0 || die.depth ||
	    !(dw_die_tag(&die) == DW_TAG_compile_unit || dw_die_tag(&die) == DW_TAG_partial_unit))
		return 1;
	p = die.attrs;
	if (!skim_attrs(l, die.abbrev, &z->sk[die.abbrev->index], &p, l->cur.end))
		return 1;
	dw_cursor_init(&l->cur, &l->dcu);
	l->cur.end = p;
	l->top = -1;
	l->top_depth = -1;
	if (loader_walk_dies(l) || !lang_is_c(l->cu->language))
		return 1;
	z->pos = p;
	z->depth = dw_die_has_children(&die) ? 1 : 0;
	z->tag_at[0] = dw_die_tag(&die);
	z->top_at[0] = 0;
	return 0;
}

/*
 * The skim, resumed where it stopped, over the unit's bytes: list the type
 * DIEs (each with where its subtree ends, once the skim is past it), find
 * the names (z->found[i]: the offset of the first definition of
 * z->names[i], 0 if none). It stops before the DIE past z->stop_off when
 * the depth is at most z->stop_depth (the end of the unit at the latest,
 * then z->done): the partial load skims only as far as its names and the
 * types it decodes. Returns 0, or 1
 * where the full walk must decide (anything unusual or malformed).
 */
static int lazy_skim(struct loader *l)
{
	struct lazy *z = l->lazy;
	const struct dw_cu *dcu = &l->dcu;
	const uint8_t *p = z->pos, *end = dw_cu_at(dcu, dcu->unit->end);
	const struct skim_ab *const *sk_code = z->sk_code;
	/* codes 1..nr_code take the fast path (not 0: b - 1 wraps) */
	const unsigned nr_code = (unsigned)(l->dcu.abbrevs.nr_dense < 127 ?
					    l->dcu.abbrevs.nr_dense : 127);
	const char *const *names = z->names;
	uint64_t *found = z->found;
	size_t nr_open = z->nr_open, nr_missing = z->nr_missing, nr_names = z->nr_names;
	uint32_t depth = z->depth;
	struct die_info di;
	int r = 1;

	while (p < end) {
		const uint8_t *start = p;
		const struct dw_abbrev *ab;
		const struct skim_ab *k;
		unsigned b = *p;
		uint16_t ptag;
		uint64_t top;

		if (dw_cu_offset_of(dcu, p) > z->stop_off && depth <= z->stop_depth)
			break;
		/* the common DIE in a few loads: a one-byte code to its plan,
		 * a member (say) skipped by its fixed size */
		if (__builtin_expect(b - 1 < nr_code, 1)) {
			k = sk_code[b];
			p++;
			if (!k || !depth)
				goto out;
			if (k->fast) {
				if ((size_t)(end - p) < (size_t)k->fixed)
					goto out;
				p += k->fixed;
				continue;
			}
			ab = k->ab;
			goto slow;
		}
		if (!b) {	/* a list of children ends */
			p++;
			if (!depth)
				continue;	/* padding after the unit DIE */
			depth--;
			/* the listed DIEs it ends: their end held their depth */
			while (nr_open && z->dies.data[z->open[nr_open - 1]].end >= depth) {
				struct lazy_die *o = &z->dies.data[z->open[--nr_open]];

				o->end = dw_cu_offset_of(dcu, p);
				o->flags &= (uint8_t)~LD_OPEN;
			}
			continue;
		}
		ab = skim_code(l, &p, end);
		if (!ab || !depth)	/* a second root DIE: the full walk's */
			goto out;
		k = &z->sk[ab->index];
		if (k->fast) {
			if ((size_t)(end - p) < (size_t)k->fixed)
				goto out;
			p += k->fixed;
			continue;
		}
slow:
		ptag = z->tag_at[depth - 1];
		top = z->top_at[depth - 1];
		z->tag_at[depth] = ab->tag;
		z->top_at[depth] = top;
		if (k->c & SK_TYPE) {
			struct lazy_die *e;
			bool named = false;

			if (z->dies.len == z->dies.cap &&
			    lazy_die_vec_reserve(&z->dies, 2 * z->dies.len + 64))
				goto out;
			e = &z->dies.data[z->dies.len++];
			e->off = dw_cu_offset_of(dcu, start);
			e->top = top;
			e->made = NULL;
			e->flags = (k->c & SK_COMPOSITE ? LD_COMPOSITE : 0) |
				   (k->c & SK_ENUM ? LD_ENUM : 0);
			z->top_at[depth] = top ? top : e->off;
			if ((k->c & SK_NAMED_KIND) && k->name_at != -2 && k->decl_at != -2) {
				/* in place: the name and DW_AT_declaration */
				const char *name = NULL;
				bool decl = k->decl_at == -3;

				if (k->name_at >= 0) {
					const uint8_t *q = p + k->name_at;

					if (k->name_form == DW_FORM_strp) {
						uint64_t off;

						if (end - q < 4 || (off = ld32(q)) >= l->str_size)
							goto out;
						name = l->str + off;
					} else {
						if (q >= end || !memchr(q, 0, (size_t)(end - q)))
							goto out;
						name = (const char *)q;
					}
				}
				if (k->decl_at >= 0) {
					if (end - p <= k->decl_at)
						goto out;
					decl = p[k->decl_at] != 0;
				}
				if (!skim_attrs(l, ab, k, &p, end))
					goto out;
				di.name = name;
				di.declaration = decl;
				di.alignment = 0;
			} else if (k->c & SK_NAMED_KIND) {
				if (!skim_read(l, ab, start, depth, &p, end, &di))
					goto out;
			} else {
				di.name = NULL;
				di.alignment = 0;
				if (!skim_attrs(l, ab, k, &p, end))
					goto out;
			}
			named = di.name != NULL;
			if (named)
				e->flags |= LD_NAMED;
			if ((k->c & SK_NAMED_KIND) && named && !di.declaration && nr_missing) {
				/* compared through a copy of its page: most of
				 * these names are never read again */
				const char *name = in_str(l, di.name) ?
						   elf_page_copies_at(l->strs, di.name, z->name_need) :
						   di.name;
				size_t i = 0, n = nr_names;

				/* many names: the run of them equal to this one */
				if (z->sorted && !lazy_name_range(z, name, &i, &n))
					n = i;
				for (; i < n; i++) {
					size_t j = z->sorted ? z->sorted[i] : i;

					if (!found[j] && !strcmp(name, names[j])) {
						found[j] = e->off;
						if (!--nr_missing && z->stop_off == UINT64_MAX)
							z->stop_off = 0;	/* all found */
					}
				}
			}
			e->kids = dw_cu_offset_of(dcu, p);
			if (ab->has_children) {
				e->end = depth;	/* its depth, until it closes */
				e->flags |= LD_OPEN;
				z->open[nr_open++] = (uint32_t)(z->dies.len - 1);
			} else {
				e->end = e->kids;
			}
		} else if (!skim_attrs(l, ab, k, &p, end)) {
			goto out;
		}
		if (!ab->has_children)
			continue;
		/* the children the full walk does not read for types */
		if ((k->c & SK_NO_KIDS) || ((k->c & SK_VARIABLE) && is_composite_tag(ptag))) {
			if (!skim_children(l, &p, end))
				goto out;
			continue;
		}
		if (++depth > DW_MAX_DEPTH)
			goto out;
	}
	if (p >= end) {
		while (nr_open) {
			struct lazy_die *o = &z->dies.data[z->open[--nr_open]];

			o->end = l->dcu.unit->end;
			o->flags &= (uint8_t)~LD_OPEN;
		}
		z->done = true;
	}
	r = 0;
out:
	z->pos = p;
	z->depth = depth;
	z->nr_open = nr_open;
	z->nr_missing = nr_missing;
	return r;
}

/* Whether a partial load can read the unit (see above). */
static bool lazy_eligible(const struct loader *l)
{
	const struct dw_unit *u = l->dcu.unit;

	return u->section == DW_SEC_INFO && u->unit_type == DW_UT_compile &&
	       !l->opts->skip_functions && u->end - u->offset < UINT32_MAX;
}

/* *NAME read through l->strs into the model's arena: 0, or -1 out of
 * memory. A name the copies do not hold stays where it is. */
static int localize(struct loader *l, const char **name)
{
	const char *c;

	if (!in_str(l, *name))
		return 0;
	c = elf_page_copies_str(l->strs, *name);
	if (c != *name) {
		c = arena_strdup(&l->cu->arena, c);
		if (!c)
			return oom(l);
		*name = c;
	}
	return 0;
}

/*
 * The names printing reads, copied out of copies of their pages
 * (elf/elf_page_copies.h: a pread a page, where the mapping costs a page
 * fault): each type's own (a member's type is printed by its name, and
 * pahole's find_by_name() compares them), and the members' and values' of
 * the types printed whole (the named ones asked for) or inline (anonymous
 * ones). A struct decoded for its layout alone keeps its members' names in
 * the mapping: they are not printed, so their pages are never touched.
 * What this misses is read through the mapping, as without it.
 */
static int localize_names(struct loader *l)
{
	for (size_t i = 0; l->strs && i < l->types.len; i++) {
		struct type *t = l->types.data[i];
		const struct lazy_type *in = &l->lazy->info.data[t->id];

		if (localize(l, &t->name))
			return -1;
		if (!in->kids || (in->level != LV_FULL && t->name))
			continue;
		if (t->kind == TK_STRUCT || t->kind == TK_UNION || t->kind == TK_CLASS) {
			for (uint32_t j = 0; j < t->composite.nr_members; j++)
				if (localize(l, &t->composite.members[j].name))
					return -1;
		} else if (t->kind == TK_ENUM) {
			for (uint32_t j = 0; j < t->enumeration.nr_values; j++)
				if (localize(l, &t->enumeration.values[j].name))
					return -1;
		}
	}
	return 0;
}

/* A partial load of l->dcu: 0 done, 1 not possible here (the caller does
 * the full walk), -1 error. */
int loader_lazy_load(struct loader *l)
{
	const struct load_options *o = l->opts;
	struct lazy *z;
	uint64_t *found;
	size_t cap = 16;
	int r = 1;

	if (!lazy_eligible(l))
		return 1;
	/* not cleared: 15 KB of depth-indexed state, written before read */
	z = malloc(sizeof(*z));
	found = calloc(o->nr_only_types, sizeof(*found));
	if (!z || !found) {
		free(z);
		free(found);
		return oom(l);
	}
	memset(z, 0, offsetof(struct lazy, tag_at));
	l->lazy = z;
	z->root_off = UINT64_MAX;
	loader_walk_setup(l);
	z->sk = malloc((l->dcu.abbrevs.nr_abbrevs + 1) * sizeof(*z->sk));
	z->sk_code = calloc(128, sizeof(*z->sk_code));
	if (!z->sk || !z->sk_code) {
		oom(l);
		goto out;
	}
	for (size_t i = 0; i < l->dcu.abbrevs.nr_dense + l->dcu.abbrevs.nr_sparse; i++) {
		const struct dw_abbrev_table *t = &l->dcu.abbrevs;
		const struct dw_abbrev *ab = i < t->nr_dense ? t->dense[i] :
					     &t->sparse[i - t->nr_dense];

		if (ab && ab->index < t->nr_abbrevs) {
			z->sk[ab->index] = skim_plan(l, ab);
			if (z->sk[ab->index].foreign) {
				r = 1;
				goto out;
			}
			if (ab->code >= 1 && ab->code <= 127 && ab->code <= t->nr_dense)
				z->sk_code[ab->code] = &z->sk[ab->index];
		}
	}
	/* about one type DIE in 40 bytes (a kernel unit): no regrowth */
	if (lazy_die_vec_reserve(&z->dies, (size_t)((l->dcu.unit->end - l->dcu.unit->offset) / 32) + 16)) {
		r = oom(l);
		goto out;
	}
	z->names = o->only_types;
	z->nr_names = z->nr_missing = o->nr_only_types;
	for (size_t i = 0; i < z->nr_names; i++) {
		size_t need = strlen(z->names[i]) + 1;

		if (need > z->name_need)
			z->name_need = need;
	}
	z->found = found;
	if (z->nr_names > 4) {
		z->sorted = o->only_types_order;
		if (!z->sorted) {
			z->sorted = z->own_sorted = load_sort_type_names(z->names, z->nr_names);
			if (!z->sorted) {
				r = oom(l);
				goto out;
			}
		}
	}
	z->stop_off = UINT64_MAX;	/* until every name is found */
	z->stop_depth = UINT32_MAX;
	r = lazy_skim_start(l);
	if (!r)
		r = lazy_skim(l);
	if (r)
		goto out;
	r = -1;
	/* the types made: a few hundred of the unit's, or none (it grows) */
	for (size_t i = 0; i < o->nr_only_types; i++)
		if (found[i])
			cap = 1024;
	z->map_mask = cap - 1;
	z->map = calloc(cap, sizeof(*z->map));
	if (!z->map) {
		oom(l);
		goto out;
	}
	for (size_t i = 0; i < o->nr_only_types; i++) {
		struct type *t;

		if (found[i] && (lazy_request(l, found[i], LV_FULL, &t) || lazy_resolve(l)))
			goto out;
	}
	if (localize_names(l))
		goto out;
	/* DIE order, as the full walk made them: the listed DIEs' order */
	if (l->types.len) {
		size_t n = 0;

		for (size_t i = 0; i < z->dies.len; i++)
			if (z->dies.data[i].made) {
				l->types.data[n] = z->dies.data[i].made;
				l->types.data[n]->id = (uint32_t)n;
				n++;
			}
		if (n != l->types.len) {
			d2b_error_set(l->err, "partial load: %zu types made, %zu listed",
				      l->types.len, n);
			goto out;
		}
	}
	if (loader_finish_arrays(l) || loader_finish_model(l))
		goto out;
	l->cu->partial = true;
	r = 0;
out:
	l->lazy = NULL;
	lazy_die_vec_free(&z->dies);
	lazy_type_vec_free(&z->info);
	free(z->map);
	free(z->sk);
	free(z->sk_code);
	free(z->own_sorted);
	free(z);
	free(found);
	return r;
}
