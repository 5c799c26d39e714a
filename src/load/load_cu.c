// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CU decoder: one pre-order walk over a unit's DIEs builds its cu_model.
 *
 * Every object is allocated in the model's arena at a stable address.
 * Children (members, parameters, enumerators, dimensions) are collected on
 * per-kind scratch stacks while their parent's scope is open and copied
 * into arena arrays when it closes. Type references are recorded as
 * (slot, DIE offset) fix-ups and resolved after the walk, because DWARF
 * references point forwards as often as backwards.
 *
 * This file holds the walk and a handler for each kind of DIE; the
 * attributes' decoding, the resolution after the walk and pahole -C's
 * partial loads are in the files loader.h lists.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "load/loader.h"

static void loader_free_scratch(struct loader *l)
{
	fixup_vec_free(&l->fixups);
	type_vec_free(&l->types);
	u64_vec_free(&l->type_offs);
	func_vec_free(&l->funcs);
	var_vec_free(&l->vars);
	member_vec_free(&l->members);
	u64_vec_free(&l->member_type_offs);
	param_vec_free(&l->params);
	u64_vec_free(&l->param_type_offs);
	u64_vec_free(&l->param_origin_offs);
	enumerator_vec_free(&l->enumerators);
	dim_vec_free(&l->dims);
	type_vec_free(&l->nested);
	type_vec_free(&l->enums);
	member_vec_free(&l->bases);
	u64_vec_free(&l->base_type_offs);
	u32_vec_free(&l->methods);
	using_vec_free(&l->usings);
	u32_vec_free(&l->tu_units);
	sig_vec_free(&l->sig_types);
	free(l->tu_seen);
	param_ptr_vec_free(&l->all_params);
	u64_vec_free(&l->all_param_origin);
	free(l->plans);
}

/*
 * The unit-sized scratch vectors, sized from the unit's length up front
 * instead of doubling from 8 (their reallocs copied about 2% of the
 * loader's work). A kernel unit has about one DIE per 12 bytes, a fix-up
 * for 3 DIEs in 4, a type for 1 in 4 and a function parameter for 1 in 8.
 * Best effort: a reservation that fails leaves the vector to grow as
 * before, and none is larger than 1 Mi entries.
 */
static void reserve_scratch(struct loader *l)
{
	uint64_t dies = (l->dcu.unit->end - l->dcu.unit->first_die) / 12;
	size_t cap = 1u << 20;

	if (dies > cap)
		dies = cap;
	(void)fixup_vec_reserve(&l->fixups, (size_t)dies * 3 / 4);
	(void)type_vec_reserve(&l->types, (size_t)dies / 4);
	(void)u64_vec_reserve(&l->type_offs, (size_t)dies / 4);
	(void)param_ptr_vec_reserve(&l->all_params, (size_t)dies / 8);
	(void)u64_vec_reserve(&l->all_param_origin, (size_t)dies / 8);
	(void)func_vec_reserve(&l->funcs, (size_t)dies / 32);
}

static struct scope *push_scope(struct loader *l, const struct dw_die *die, uint8_t kind)
{
	struct scope *s = &l->scopes[++l->top];

	memset(s, 0, sizeof(*s));
	s->depth = die->depth;
	s->kind = kind;
	l->top_depth = die->depth;
	if (l->top > 0 && (l->scopes[l->top - 1].kind == SCOPE_FUNCTION ||
			   l->scopes[l->top - 1].kind == SCOPE_BLOCK))
		s->func = l->scopes[l->top - 1].func;
	return s;
}

static struct scope *parent_scope(struct loader *l)
{
	return l->top >= 0 ? &l->scopes[l->top] : NULL;
}

/* Where a type or function defined in a scope of this kind sits. */
static const uint8_t type_scope_of[] = {
	[SCOPE_UNIT] = TS_UNIT,
	[SCOPE_COMPOSITE] = TS_COMPOSITE,
	[SCOPE_ENUM] = TS_OTHER,
	[SCOPE_ARRAY] = TS_OTHER,
	[SCOPE_PROTO] = TS_OTHER,
	[SCOPE_FUNCTION] = TS_FUNCTION,
	[SCOPE_BLOCK] = TS_FUNCTION,
	[SCOPE_NAMESPACE] = TS_NAMESPACE,
	[SCOPE_POINTER] = TS_OTHER,
	[SCOPE_OTHER] = TS_OTHER,
};

/* A type of DIE in the model, with the fields its DIE gives all kinds. */
static inline __attribute__((always_inline)) struct type *
make_type(struct loader *l, const struct dw_die *die, const struct die_info *di, uint8_t kind)
{
	struct type *t = arena_zalloc_small(&l->cu->arena, sizeof(*t));
	uint8_t scope = l->top >= 0 ? type_scope_of[l->scopes[l->top].kind] : TS_OTHER;

	if (!t)
		return NULL;
	t->kind = kind;
	t->scope = scope;
	t->declaration = di->declaration;
	t->cu_lang = l->cu->language;
	t->id = (uint32_t)l->types.len;
	t->name = di->name;
	t->size = di->byte_size;
	t->die_offset = die->offset | l->off_tag;
	t->decl_file = (uint32_t)di->decl_file;
	t->decl_line = (uint32_t)di->decl_line;
	t->alignment = (uint32_t)di->alignment;
	if (scope == TS_COMPOSITE && type_vec_push(&l->nested, t))
		return NULL;
	if (type_vec_push(&l->types, t) || u64_vec_push(&l->type_offs, t->die_offset))
		return NULL;
	return t;
}

/* new_type() of a partial load: the type it has for DIE when it decodes
 * that type's children (lazy_upgrade()), else a new one, recorded. Out of
 * line: the full walk does not carry it. */
static struct type * __attribute__((noinline, cold))
lazy_new_type(struct loader *l, const struct dw_die *die, const struct die_info *di,
	      uint8_t kind)
{
	struct type *t = loader_lazy_reused(l, die);

	if (t)
		return t;
	t = make_type(l, die, di, kind);
	if (!t || loader_lazy_register(l, t, die, di))
		return NULL;
	return t;
}

static struct type *new_type(struct loader *l, const struct dw_die *die,
			     const struct die_info *di, uint8_t kind)
{
	struct type *t;

	if (__builtin_expect(l->lazy != NULL, 0))
		return lazy_new_type(l, die, di, kind);
	t = make_type(l, die, di, kind);
	if (!t)
		return NULL;
	if (di->has_type && add_fixup(l, &t->type, di->type_off, LV_NAME))
		return NULL;
	if (di->has_signature &&
	    sig_vec_push(&l->sig_types, (struct sig_type){ t, di->signature_off }))
		return NULL;
	return t;
}

static struct annotation *new_annotation(struct loader *l, const struct die_info *di)
{
	struct annotation *a = arena_zalloc_small(&l->cu->arena, sizeof(*a));

	if (!a)
		return NULL;
	a->name = di->name;
	a->value = di->const_value_is_string ? di->const_value_str : "";
	return a;
}

/* Append to the end of a list so annotations keep DIE order. */
static void append_annotation(struct annotation **list, struct annotation *a)
{
	while (*list)
		list = &(*list)->next;
	*list = a;
}

static inline __attribute__((always_inline)) int
handle_member(struct loader *l, struct scope *s, const struct dw_die *die,
	      const struct die_info *di)
{
	struct member *m;
	uint64_t bit_offset;
	bool is_static_var = dw_die_tag(die) == DW_TAG_variable;
	bool is_static = is_static_var || (di->declaration && di->external);

	if (di->member_location_bad)
		return die_error(l, die, "DW_AT_data_member_location expression is not a constant offset");
	if (di->has_data_bit_offset) {
		bit_offset = di->data_bit_offset;
	} else {
		bit_offset = di->member_location * 8;
		if (di->has_old_bit_offset && di->has_bit_size) {
			/* DWARF 2/3 bit_offset counts from the most significant bit
			 * of the storage unit (little-endian conversion). */
			uint64_t storage = di->has_byte_size ? di->byte_size : 0;
			if (!storage)
				storage = (di->bit_size + di->old_bit_offset + 7) / 8;
			bit_offset += storage * 8 - di->old_bit_offset - di->bit_size;
		}
	}
	if (is_static)	/* the union's other half */
		bit_offset = di->has_const_value && !di->const_value_is_string ?
			     (uint64_t)di->const_value : 0;
	if (member_vec_reserve(&l->members, l->members.len + 1) ||
	    u64_vec_push(&l->member_type_offs, di->has_type ? di->type_off : UINT64_MAX))
		return oom(l);
	m = &l->members.data[l->members.len++];
	zero_bytes(m, sizeof(*m));
	m->name = di->name;
	m->bit_offset = bit_offset;
	m->bit_size = di->has_bit_size ? (uint32_t)di->bit_size : 0;
	m->byte_size = di->has_byte_size ? (uint32_t)di->byte_size : 0;
	m->alignment = (uint32_t)di->alignment;
	m->die_offset = die->offset | l->off_tag;
	m->decl_file = (uint32_t)di->decl_file;
	m->decl_line = (uint32_t)di->decl_line;
	m->is_static = is_static;
	m->is_static_var = is_static_var;
	m->is_extern_decl = di->external && di->declaration;
	m->offset_is_expr = di->member_location_is_expr;
	m->accessibility = di->accessibility;
	(void)s;
	return 0;
}

/* A DW_TAG_inheritance entry of a C++ class. A virtual base's location is
 * an expression of the object (not a constant offset): its offset is 0. */
static int handle_base(struct loader *l, const struct dw_die *die,
		       const struct die_info *di)
{
	struct member *m = member_vec_push_zero(&l->bases);

	if (!m || u64_vec_push(&l->base_type_offs, di->has_type ? di->type_off : UINT64_MAX))
		return oom(l);
	m->die_offset = die->offset | l->off_tag;
	m->decl_file = di->decl_file;
	m->decl_line = di->decl_line;
	m->is_inheritance = true;
	m->accessibility = di->accessibility;
	m->virtuality = di->virtuality;
	m->offset_is_expr = di->member_location_is_expr;
	if (!di->member_location_bad)
		m->bit_offset = di->member_location * 8;
	return 0;
}

/* Move the N scratch entries at SRC into a new arena array: *DST is NULL
 * when N is 0. Returns -1 when out of memory. */
/* Copy N elements of SIZE bytes, from element FIRST of the scratch array
 * BASE, into the arena. BASE may be NULL when N is 0 (a vector never grown):
 * the element address is formed only when there is something to copy, as
 * NULL + 0 is undefined behaviour. */
static int take_scratch(struct arena *a, const void *base, size_t first, size_t n,
			size_t size, void **dst)
{
	*dst = NULL;
	if (!n)
		return 0;
	*dst = arena_alloc(a, n * size);
	if (!*dst)
		return -1;
	memcpy(*dst, (const char *)base + first * size, n * size);
	return 0;
}

/* A C++ composite's bases and methods (struct composite_cxx). */
static int close_cxx(struct loader *l, struct scope *s)
{
	struct arena *a = &l->cu->arena;
	struct composite_cxx *x = arena_zalloc(a, sizeof(*x));
	size_t n = l->bases.len - s->first_base;
	void *arr;

	if (!x)
		return oom(l);
	if (take_scratch(a, l->bases.data, s->first_base, n, sizeof(struct member), &arr))
		return oom(l);
	x->bases = arr;
	x->nr_bases = (uint32_t)n;
	for (size_t i = 0; i < n; i++) {
		uint64_t off = l->base_type_offs.data[s->first_base + i];

		if (off != UINT64_MAX && add_fixup(l, &x->bases[i].type, off, LV_VALUE))
			return -1;
	}
	l->bases.len = s->first_base;
	l->base_type_offs.len = s->first_base;
	n = l->methods.len - s->first_method;
	if (take_scratch(a, l->methods.data, s->first_method, n, sizeof(uint32_t), &arr))
		return oom(l);
	x->methods = arr;
	x->nr_methods = (uint32_t)n;
	l->methods.len = s->first_method;
	n = l->usings.len - s->first_using;
	if (take_scratch(a, l->usings.data, s->first_using, n, sizeof(struct cxx_using), &arr))
		return oom(l);
	x->usings = arr;
	x->nr_usings = (uint32_t)n;
	l->usings.len = s->first_using;
	s->type->composite.cxx = x;
	return 0;
}

static int close_scope(struct loader *l)
{
	struct scope *s = &l->scopes[l->top--];
	struct arena *a = &l->cu->arena;
	void *arr;
	size_t n;

	l->top_depth = l->top >= 0 ? (int64_t)l->scopes[l->top].depth : -1;

	switch (s->kind) {
	case SCOPE_COMPOSITE: {
		struct member *members;

		n = l->members.len - s->first;
		if (take_scratch(a, l->members.data, s->first, n, sizeof(*members), &arr))
			return oom(l);
		members = arr;
		for (size_t i = 0; i < n; i++) {
			uint64_t off = l->member_type_offs.data[s->first + i];
			if (off != UINT64_MAX && add_fixup(l, &members[i].type, off, LV_VALUE))
				return -1;
		}
		s->type->composite.members = members;
		s->type->composite.nr_members = (uint32_t)n;
		l->members.len = s->first;
		l->member_type_offs.len = s->first;
		n = l->nested.len - s->first_nested;
		if (take_scratch(a, l->nested.data, s->first_nested, n, sizeof(struct type *), &arr))
			return oom(l);
		s->type->composite.nested = arr;
		s->type->composite.nr_nested = (uint32_t)n;
		l->nested.len = s->first_nested;
		if (l->bases.len > s->first_base || l->methods.len > s->first_method ||
		    l->usings.len > s->first_using)
			return close_cxx(l, s);
		break;
	}
	case SCOPE_ENUM:
		n = l->enumerators.len - s->first;
		if (take_scratch(a, l->enumerators.data, s->first, n, sizeof(struct enumerator), &arr))
			return oom(l);
		s->type->enumeration.values = arr;
		s->type->enumeration.nr_values = (uint32_t)n;
		l->enumerators.len = s->first;
		break;
	case SCOPE_ARRAY:
		n = l->dims.len - s->first;
		if (take_scratch(a, l->dims.data, s->first, n, sizeof(struct array_dim), &arr))
			return oom(l);
		s->type->array.dims = arr;
		s->type->array.nr_dims = (uint32_t)n;
		l->dims.len = s->first;
		break;
	case SCOPE_PROTO:
	case SCOPE_FUNCTION: {
		struct param *params;

		n = l->params.len - s->first;
		if (take_scratch(a, l->params.data, s->first, n, sizeof(*params), &arr))
			return oom(l);
		params = arr;
		for (size_t i = 0; i < n; i++) {
			uint64_t off = l->param_type_offs.data[s->first + i];

			if (off != UINT64_MAX && add_fixup(l, &params[i].type, off, LV_NAME))
				return -1;
			/* Function parameters may name an abstract origin:
			 * resolved once the whole unit is read. */
			if (s->kind == SCOPE_FUNCTION &&
			    (param_ptr_vec_push(&l->all_params, &params[i]) ||
			     u64_vec_push(&l->all_param_origin, l->param_origin_offs.data[s->first + i])))
				return oom(l);
		}
		if (s->kind == SCOPE_PROTO) {
			s->type->proto.params = params;
			s->type->proto.nr_params = (uint32_t)n;
			s->type->proto.varargs = s->has_varargs;
		} else {
			s->func->params = params;
			s->func->nr_params = (uint32_t)n;
			s->func->varargs = s->has_varargs;
		}
		l->params.len = s->first;
		l->param_type_offs.len = s->first;
		l->param_origin_offs.len = s->first;
		break;
	}
	}
	return 0;
}

static int handle_param(struct loader *l, struct scope *s, const struct dw_die *die,
			const struct die_info *di)
{
	struct dw_loc_summary sum = { 0 };
	bool has_location = di->has_location || di->has_const_value;
	bool optimized_out = false;
	struct param *p;

	if (s->kind == SCOPE_FUNCTION) {
		struct function *f = s->func;

		optimized_out = !has_location && !f->declaration && !f->is_abstract;
		if (di->has_location && !l->opts->skip_locations) {
			if (dw_location_summary(&l->dcu, &di->location, f->low_pc, &sum, l->err))
				return -1;
			/* a list's offset (else an expression's): how far the
			 * unit's lists go (model.h, loc_hi) */
			if ((di->location.cls == DW_CLS_UNSIGNED ||
			     (di->location.cls == DW_CLS_LOCLIST && l->dcu.unit->version >= 5)) &&
			    di->location.u >= l->cu->loc_hi)
				l->cu->loc_hi = di->location.u + 1;
		}
	}
	if (param_vec_reserve(&l->params, l->params.len + 1) ||
	    u64_vec_push(&l->param_type_offs, di->has_type ? di->type_off : UINT64_MAX) ||
	    u64_vec_push(&l->param_origin_offs, di->has_origin ? di->origin_off : UINT64_MAX))
		return oom(l);
	p = &l->params.data[l->params.len++];
	zero_bytes(p, sizeof(*p));
	p->name = di->name;
	p->die_offset = die->offset | l->off_tag;
	p->loc_kind = sum.kind;
	p->loc_reg = sum.reg;
	p->has_location = has_location;
	p->optimized_out = optimized_out;
	return 0;
}

static int handle_function(struct loader *l, const struct dw_die *die,
			   const struct die_info *di, bool inlined)
{
	struct function *f = arena_zalloc_small(&l->cu->arena, sizeof(*f));
	struct scope *parent = parent_scope(l);

	if (!f)
		return oom(l);
	f->name = di->name;
	f->own_name = di->name != NULL;
	f->linkage_name = di->linkage_name;
	f->external = di->external;
	f->own_external = di->external;
	f->own_inline_attr = di->inline_attr;
	f->scope = TS_OTHER;
	if (parent) {
		switch (parent->kind) {
		case SCOPE_UNIT:
			f->scope = TS_UNIT;
			break;
		case SCOPE_COMPOSITE:
			f->scope = TS_COMPOSITE;
			break;
		case SCOPE_FUNCTION:
		case SCOPE_BLOCK:
			f->scope = TS_FUNCTION;
			break;
		case SCOPE_NAMESPACE:
			f->scope = TS_NAMESPACE;
			break;
		}
	}
	if (parent && parent->func)
		f->fn_depth = parent->func->fn_depth < UINT8_MAX ? parent->func->fn_depth + 1
								 : UINT8_MAX;
	f->declaration = di->declaration;
	f->accessibility = di->accessibility;
	f->virtuality = di->virtuality;
	f->has_vtable_entry = di->has_vtable_elem;
	f->vtable_entry = di->has_vtable_elem ? (uint32_t)di->vtable_elem : 0;
	f->prototyped = di->prototyped;
	f->inline_attr = di->inline_attr;
	f->is_abstract = di->inline_attr != 0;
	f->is_inlined_instance = inlined;
	f->calling_convention = di->calling_convention ? di->calling_convention : DW_CC_normal;
	f->has_addr = di->has_low_pc;
	f->low_pc = di->has_low_pc ? di->low_pc : 0;
	if (di->has_high_pc)
		f->high_pc = di->high_pc_is_offset ? f->low_pc + di->high_pc : di->high_pc;
	f->die_offset = die->offset | l->off_tag;
	f->origin_offset = di->has_origin ? di->origin_off : 0;
	f->specification_offset = di->has_spec ? di->spec_off : 0;
	f->decl_file = (uint32_t)di->decl_file;
	f->decl_line = (uint32_t)di->decl_line;
	if (di->has_type && add_fixup(l, &f->ret, di->type_off, LV_NAME))
		return -1;
	if (parent && parent->func) {
		if (inlined)
			parent->func->nr_inline_expansions++;
	}
	/* A method: its index in cu_model.functions, for its class */
	if (!inlined && parent && parent->kind == SCOPE_COMPOSITE &&
	    u32_vec_push(&l->methods, (uint32_t)l->funcs.len))
		return oom(l);
	if (!inlined && func_vec_push(&l->funcs, f))
		return oom(l);
	if (dw_die_has_children(die)) {
		struct scope *s = push_scope(l, die, inlined ? SCOPE_BLOCK : SCOPE_FUNCTION);
		s->func = inlined && parent && parent->func ? parent->func : f;
		s->label_func = inlined ? (parent ? parent->label_func : NULL) : f;
		if (inlined && !(parent && parent->func))
			s->func = f;
		s->first = l->params.len;
		if (inlined)
			s->kind = SCOPE_BLOCK;
	}
	return 0;
}

static int handle_variable(struct loader *l, const struct dw_die *die,
			   const struct die_info *di, struct scope *parent)
{
	struct variable *v;
	bool in_func = parent && parent->func;

	if (in_func && parent->kind == SCOPE_FUNCTION)
		parent->func->nr_variables++;
	/* Locals without a static address are not variables of the unit. */
	if (in_func && !(di->has_location && di->location.cls == DW_CLS_BLOCK &&
			 di->location.block.len && (di->location.block.data[0] == DW_OP_addr ||
						    di->location.block.data[0] == DW_OP_addrx)))
		return 0;
	v = arena_zalloc_small(&l->cu->arena, sizeof(*v));
	if (!v)
		return oom(l);
	v->name = di->name;
	v->linkage_name = di->linkage_name;
	v->external = di->external;
	v->declaration = di->declaration;
	v->die_offset = die->offset;
	v->specification_offset = di->has_spec ? di->spec_off : 0;
	v->decl_file = (uint32_t)di->decl_file;
	v->decl_line = (uint32_t)di->decl_line;
	v->is_static_local = in_func;
	if (di->has_location && di->location.cls == DW_CLS_BLOCK) {
		const uint8_t *p = di->location.block.data;
		uint64_t len = di->location.block.len;
		unsigned as = l->dcu.unit->addr_size;

		if (len == 1u + as && p[0] == DW_OP_addr) {
			uint64_t addr = 0;
			memcpy(&addr, p + 1, as);
			v->has_addr = true;
			v->addr = addr;
		} else if (len >= 2 && p[0] == DW_OP_addrx) {
			/* Resolve through .debug_addr. */
			const struct dw_section *s = &l->df->sec[DW_SEC_ADDR];
			uint64_t idx = 0, r = 0;
			unsigned shift = 0;
			for (uint64_t i = 1; i < len; i++) {
				r |= (uint64_t)(p[i] & 0x7f) << shift;
				shift += 7;
				if (!(p[i] & 0x80)) {
					idx = r;
					break;
				}
			}
			if (s->data && l->dcu.addr_base <= s->size &&
			    idx < (s->size - l->dcu.addr_base) / as) {
				uint64_t addr = 0;
				memcpy(&addr, s->data + l->dcu.addr_base + idx * as, as);
				v->has_addr = true;
				v->addr = addr;
			}
		}
	}
	if (di->has_type && add_fixup(l, &v->type, di->type_off, LV_NAME))
		return -1;
	if (var_vec_push(&l->vars, v))
		return oom(l);
	if (dw_die_has_children(die)) {
		struct scope *s = push_scope(l, die, SCOPE_OTHER);
		(void)s;
	}
	return 0;
}

/* What the subtree of a block may hold for skip_plain_block() to skip it. */
static bool plain_block_tag(unsigned tag)
{
	switch (tag) {
	case DW_TAG_formal_parameter:
	case DW_TAG_variable:
	case DW_TAG_label:
	case DW_TAG_lexical_block:
	case DW_TAG_inlined_subroutine:
	case DW_TAG_call_site:
	case DW_TAG_call_site_parameter:
	case DW_TAG_GNU_call_site:
	case DW_TAG_GNU_call_site_parameter:
		return true;
	default:
		return false;
	}
}

/*
 * load_options.skip_plain_blocks: the subtree of DIE (a lexical block, an
 * inlined instance, a call site: the DIE just read) skipped unread when it
 * holds nothing but parameters, variables, labels, blocks, inlined
 * instances and call sites (1), else 0. A scan that meets anything else
 * (a type defined in a block, a local declaration of a function) leaves
 * the walk to decode the subtree, and no DIE before the one it met is
 * scanned again: a scan never covers a DIE twice in vain.
 */
static int skip_plain_block(struct loader *l, const struct dw_die *die)
{
	uint64_t stop;

	if (!l->opts->skip_plain_blocks || l->importing || !dw_die_has_children(die) ||
	    !l->cur.started || l->cur.last.offset != die->offset || die->offset < l->plain_from)
		return 0;
	if (!l->plain_ok && !(l->plain_ok = dw_cu_abbrev_flags(&l->dcu, plain_block_tag,
							       &l->cu->arena)))
		return 0;	/* out of memory: decoded as without the option */
	if (dw_cursor_skip_children_if(&l->cur, l->plain_ok, &stop))
		return 1;
	l->plain_from = stop;
	return 0;
}

/* The model's side of DIE, whose attributes walk() decoded into DI. */
static int handle_die(struct loader *l, const struct dw_die *die, const struct die_info *di)
{
	struct scope *parent = parent_scope(l), *s;
	uint16_t tag = dw_die_tag(die);
	struct type *t;
	uint8_t kind;

	switch (tag) {
	case DW_TAG_compile_unit:
	case DW_TAG_partial_unit:
	case DW_TAG_type_unit:
	case DW_TAG_skeleton_unit:
		if (die->depth != 0)
			return die_error(l, die, "unit DIE nested inside another DIE");
		if (l->importing) {
			/* an imported type unit: its types are not ours */
			if (dw_die_has_children(die))
				push_scope(l, die, SCOPE_OTHER);
			return 0;
		}
		l->cu->name = di->name;
		l->cu->comp_dir = di->comp_dir;
		l->cu->producer = di->producer;
		l->cu->language = (uint16_t)di->language;
		if (di->has_stmt_list && !l->opts->skip_line_files) {
			struct dw_line_files files;

			if (dw_cu_line_files(&l->dcu, di->stmt_list, di->name, di->comp_dir,
					     &files, l->err))
				return -1;
			l->cu->files = files.names;
			l->cu->nr_files = (uint32_t)files.nr;
		}
		if (dw_die_has_children(die))
			push_scope(l, die, SCOPE_UNIT);
		return 0;

	case DW_TAG_base_type:
		t = new_type(l, die, di, TK_BASE);
		if (!t)
			return oom(l);
		t->base.encoding = (uint16_t)di->encoding;
		t->base.bit_size = di->has_bit_size ? (uint16_t)di->bit_size : 0;
		goto maybe_children;

	case DW_TAG_pointer_type:
		kind = TK_POINTER;
		goto pointer_like;
	case DW_TAG_reference_type:
		kind = TK_REFERENCE;
		goto pointer_like;
	case DW_TAG_rvalue_reference_type:
		kind = TK_RVALUE_REFERENCE;
		goto pointer_like;
	case DW_TAG_const_type:
		kind = TK_CONST;
		goto pointer_like;
	case DW_TAG_volatile_type:
		kind = TK_VOLATILE;
		goto pointer_like;
	case DW_TAG_restrict_type:
		kind = TK_RESTRICT;
		goto pointer_like;
	case DW_TAG_atomic_type:
		kind = TK_ATOMIC;
		goto pointer_like;
	case DW_TAG_typedef:
		kind = TK_TYPEDEF;
		goto pointer_like;
	case DW_TAG_unspecified_type:
		kind = TK_UNSPECIFIED;
		goto pointer_like;
	case DW_TAG_ptr_to_member_type:
		kind = TK_PTR_TO_MEMBER;
pointer_like:
		t = new_type(l, die, di, kind);
		if (!t)
			return oom(l);
		/* (a pointer to member without DW_AT_byte_size keeps 0: its
		 * size is the ABI's, by what it points at, c_type_size()) */
		if ((kind == TK_POINTER || kind == TK_REFERENCE || kind == TK_RVALUE_REFERENCE) &&
		    !di->has_byte_size)
			t->size = l->dcu.unit->addr_size;
		if (kind == TK_PTR_TO_MEMBER) {
			struct dw_attr a;
			int r = dw_die_attr(&l->dcu, die, DW_AT_containing_type, &a, l->err);
			if (r < 0)
				return -1;
			if (r && a.cls == DW_CLS_REF &&
			    add_fixup(l, &t->ptr_to_member.containing, a.u | l->off_tag, LV_NAME))
				return -1;
		}
		if (dw_die_has_children(die)) {
			s = push_scope(l, die, SCOPE_POINTER);
			s->type = t;
		}
		return 0;

	case DW_TAG_structure_type:
		kind = TK_STRUCT;
		goto composite;
	case DW_TAG_union_type:
		kind = TK_UNION;
		goto composite;
	case DW_TAG_class_type:
		kind = TK_CLASS;
composite:
		t = new_type(l, die, di, kind);
		if (!t)
			return oom(l);
		if (dw_die_has_children(die)) {
			s = push_scope(l, die, SCOPE_COMPOSITE);
			s->type = t;
			s->first = l->members.len;
			s->first_nested = l->nested.len;
			s->first_base = l->bases.len;
			s->first_method = l->methods.len;
			s->first_using = l->usings.len;
		}
		return 0;

	case DW_TAG_member:
		if (parent && parent->kind == SCOPE_COMPOSITE) {
			if (handle_member(l, parent, die, di))
				return -1;
		}
		goto maybe_children;

	case DW_TAG_inheritance:
		if (parent && parent->kind == SCOPE_COMPOSITE) {
			if (handle_base(l, die, di))
				return -1;
		}
		goto maybe_children;

	case DW_TAG_imported_declaration:
		/* a using-declaration in a class (C++; rare: read apart) */
		if (parent && parent->kind == SCOPE_COMPOSITE) {
			struct dw_attr a;
			int r = dw_die_attr(&l->dcu, die, DW_AT_import, &a, l->err);

			if (r < 0)
				return -1;
			if (using_vec_push(&l->usings, (struct cxx_using){
				    .die_offset = die->offset | l->off_tag,
				    .target = r && a.cls == DW_CLS_REF ? a.u | l->off_tag : 0,
				    .decl_file = (uint32_t)di->decl_file,
				    .decl_line = (uint32_t)di->decl_line }))
				return oom(l);
		}
		goto maybe_children;

	case DW_TAG_enumeration_type:
		t = new_type(l, die, di, TK_ENUM);
		if (!t || type_vec_push(&l->enums, t))
			return oom(l);
		if (dw_die_has_children(die)) {
			s = push_scope(l, die, SCOPE_ENUM);
			s->type = t;
			s->first = l->enumerators.len;
		}
		return 0;

	case DW_TAG_enumerator:
		if (parent && parent->kind == SCOPE_ENUM) {
			struct enumerator *e = enumerator_vec_push_zero(&l->enumerators);
			if (!e)
				return oom(l);
			e->name = di->name;
			e->value = di->const_value;
		}
		goto maybe_children;

	case DW_TAG_array_type:
		t = new_type(l, die, di, TK_ARRAY);
		if (!t)
			return oom(l);
		t->array.is_vector = di->gnu_vector;
		if (dw_die_has_children(die)) {
			s = push_scope(l, die, SCOPE_ARRAY);
			s->type = t;
			s->first = l->dims.len;
		}
		return 0;

	case DW_TAG_subrange_type:
		if (parent && parent->kind == SCOPE_ARRAY) {
			struct array_dim *d = dim_vec_push_zero(&l->dims);
			if (!d)
				return oom(l);
			if (di->has_count) {
				d->count = di->count;
			} else if (di->has_upper_bound) {
				d->count = di->upper_bound_minus_one ? 0 : di->upper_bound + 1;
			} else {
				d->flexible = true;
			}
		}
		goto maybe_children;

	case DW_TAG_subroutine_type:
		t = new_type(l, die, di, TK_FUNC_PROTO);
		if (!t)
			return oom(l);
		t->proto.prototyped = di->prototyped;
		if (dw_die_has_children(die)) {
			s = push_scope(l, die, SCOPE_PROTO);
			s->type = t;
			s->first = l->params.len;
		}
		return 0;

	case DW_TAG_label:
		if (parent && parent->label_func)
			parent->label_func->nr_labels++;
		goto maybe_children;

	case DW_TAG_formal_parameter:
		if (parent && (parent->kind == SCOPE_PROTO ||
			       (parent->kind == SCOPE_FUNCTION))) {
			if (handle_param(l, parent, die, di))
				return -1;
		}
		goto maybe_children;

	case DW_TAG_unspecified_parameters:
		if (parent && (parent->kind == SCOPE_PROTO || parent->kind == SCOPE_FUNCTION))
			parent->has_varargs = true;
		goto maybe_children;

	case DW_TAG_subprogram:
		/* importing: only methods, for their classes */
		if (l->importing && !(parent && parent->kind == SCOPE_COMPOSITE))
			return 0;	/* its subtree is skipped */
		/* not wanted: a C unit's functions (C++ classes need the
		 * definitions of their methods), subtree and all */
		if (l->opts->skip_functions && lang_is_c(l->cu->language) &&
		    parent && parent->kind == SCOPE_UNIT)
			return 0;
		return handle_function(l, die, di, false);

	case DW_TAG_inlined_subroutine:
		if (parent && parent->func)
			parent->func->nr_inline_expansions++;
		if (skip_plain_block(l, die))
			return 0;
		if (dw_die_has_children(die)) {
			s = push_scope(l, die, SCOPE_BLOCK);
			if (!s->func && parent)
				s->func = parent->func;
			/* pahole adds an inlined instance's labels to the
			 * block holding it */
			s->label_func = parent ? parent->label_func : NULL;
		}
		return 0;

	case DW_TAG_lexical_block:
		if (parent && parent->func)
			parent->func->nr_lexblocks++;
		if (skip_plain_block(l, die))
			return 0;
		if (dw_die_has_children(die)) {
			s = push_scope(l, die, SCOPE_BLOCK);
			if (!s->func && parent)
				s->func = parent->func;
		}
		return 0;

	case DW_TAG_call_site:
	case DW_TAG_GNU_call_site:
		if (skip_plain_block(l, die))
			return 0;
		goto maybe_children;

	case DW_TAG_variable:
		if (parent && parent->kind == SCOPE_COMPOSITE) {
			/* DWARF 5 static data member. */
			if (handle_member(l, parent, die, di))
				return -1;
			goto maybe_children;
		}
		if (l->importing)
			return 0;
		return handle_variable(l, die, di, parent);

	case DW_TAG_LLVM_annotation: {
		struct annotation *a = new_annotation(l, di), **list = NULL;

		if (!a)
			return oom(l);
		if (parent) {
			switch (parent->kind) {
			case SCOPE_POINTER:
			case SCOPE_COMPOSITE:
			case SCOPE_ENUM:
			case SCOPE_PROTO:
				list = parent->type ? &parent->type->tags : NULL;
				break;
			case SCOPE_FUNCTION:
				list = &parent->func->tags;
				break;
			}
		}
		/* An annotation inside a member, parameter or variable: those
		 * have no scope of their own; handled in attach_child_tags(). */
		if (list)
			append_annotation(list, a);
		goto maybe_children;
	}

	case DW_TAG_namespace:
		if (dw_die_has_children(die))
			push_scope(l, die, SCOPE_NAMESPACE);
		return 0;
	}

maybe_children:
	if (dw_die_has_children(die)) {
		/* Annotations of members, parameters and variables. */
		if (tag == DW_TAG_member || tag == DW_TAG_formal_parameter ||
		    (tag == DW_TAG_variable && parent && parent->kind == SCOPE_COMPOSITE)) {
			struct dw_die child;
			uint32_t depth = die->depth;
			struct annotation **list = NULL;

			if (tag == DW_TAG_formal_parameter && l->params.len)
				list = &l->params.data[l->params.len - 1].tags;
			else if (tag != DW_TAG_formal_parameter && l->members.len &&
				 parent && parent->kind == SCOPE_COMPOSITE)
				list = &l->members.data[l->members.len - 1].tags;
			for (;;) {
				struct dw_cursor save = l->cur;
				int r = dw_cursor_next(&l->cur, &child, l->err);
				if (r < 0)
					return -1;
				if (r == 0 || child.depth <= depth) {
					l->cur = save;
					break;
				}
				if (dw_die_tag(&child) == DW_TAG_LLVM_annotation && list &&
				    child.depth == depth + 1) {
					struct die_info cdi;
					struct annotation *a;
					if (loader_read_die_generic(l, &child, &cdi))
						return -1;
					a = new_annotation(l, &cdi);
					if (!a)
						return oom(l);
					/* list may move if the scratch stack grows: it
					 * does not grow while we read children here. */
					append_annotation(list, a);
				}
				if (dw_cursor_skip_children(&l->cur, l->err))
					return -1;
			}
			return 0;
		}
		if (tag == DW_TAG_variable && parent && parent->func) {
			/* handled by handle_variable's scope */
		}
		push_scope(l, die, SCOPE_OTHER);
	}
	return 0;
}

/*
 * The pre-order walk over the DIEs of l->dcu from the cursor to its end
 * (the unit's, or a partial load's window). The attributes of each DIE
 * are decoded here, by its plan's ops as threaded code (each op ends in its
 * own indirect jump to the next, which the branch predictor learns per op:
 * "a ref4 type is followed by a data1 location"), in this loop rather than
 * in a function called per DIE, whose entry and exit cost as much as the
 * ops of a member.
 */
int loader_walk_dies(struct loader *l)
{
	static const void *const dispatch[OP_NR] = {
		[OP_END] = &&op_end,
		[OP_CHECK] = &&op_check,
		[OP_SKIP] = &&op_skip,
		[OP_SKIP_VAR] = &&op_skip_var,
		[OP_GENERIC] = &&op_generic,
		[OP_STRP4] = &&op_strp4,
		[OP_STRING] = &&op_string,
		[OP_REF4] = &&op_ref4,
		[OP_SIB_REF4] = &&op_sib_ref4,
		[OP_U8_1] = &&op_u8_1,
		[OP_U32_1] = &&op_u32_1,
		[OP_U32_2] = &&op_u32_2,
		[OP_U32_4] = &&op_u32_4,
		[OP_U64F_1] = &&op_u64f_1,
		[OP_U64F_2] = &&op_u64f_2,
		[OP_U64F_4] = &&op_u64f_4,
		[OP_U64F_8] = &&op_u64f_8,
		[OP_U64F_SDATA] = &&op_u64f_sdata,
		[OP_BOOL_1] = &&op_bool_1,
		[OP_LOC_SEC4] = &&op_loc_sec4,
		[OP_LOC_EXPR] = &&op_loc_expr,
	};
	struct die_info di;
	char *base = (char *)&di;
	struct dw_die die;
	unsigned code;
	int r;

	while ((r = dw_cursor_next_inline(&l->cur, &die, &code, l->err)) > 0) {
		const struct abbrev_plan *plan;
		const struct attr_op *op;
		const uint8_t *p = die.attrs, *end = l->cur.end;
		uint64_t sibling = 0, v;
		int64_t s;

		while (l->top_depth >= (int64_t)die.depth)
			if (close_scope(l))
				return -1;

		/* the DIE's attributes into di */
		plan = l->by_code[code];	/* [0]: never set */
		if (__builtin_expect(!plan, 0)) {
			plan = l->plans[die.abbrev->index];
			if (!plan && !(plan = loader_build_plan(l, die.abbrev)))
				return oom(l);
			if (code)
				l->by_code[code] = plan;
		}
		die_info_init(&di, plan->tmpl);
		op = plan->ops;
#define NEXT() goto *dispatch[(++op)->code]
#define U64F(val) do {						\
		*(uint64_t *)(base + op->dst) = (val);		\
		*(bool *)(base + op->flag) = true;		\
	} while (0)
		goto *dispatch[op->code];

op_check:
		if ((size_t)(end - p) < op->form)
			goto slow;
		NEXT();
op_skip:
		p += op->form;
		NEXT();
op_skip_var: {
		const uint8_t *q = p;	/* p itself stays in a register */

		if (dw_form_skip(&l->dcu, op->form, &q, end, l->err))
			return -1;
		p = q;
		NEXT();
	}
op_generic: {
		const uint8_t *q = p;
		uint64_t sib = sibling;

		if (loader_generic_op(l, &die, &di, op, &q, end, &sib))
			return -1;
		p = q;
		sibling = sib;
		NEXT();
	}
op_strp4:
		v = ld32(p);
		if (v >= l->str_size)
			goto slow;
		*(const char **)(base + op->dst) = l->str + v;
		p += 4;
		NEXT();
op_string: {
		const uint8_t *nul = memchr(p, 0, (size_t)(end - p));

		if (!nul)
			goto slow;
		*(const char **)(base + op->dst) = (const char *)p;
		p = nul + 1;
		NEXT();
	}
op_ref4:
		v = ld32(p);
		if (v >= l->unit_len)
			goto slow;
		U64F((l->unit_off + v) | l->off_tag);
		p += 4;
		NEXT();
op_sib_ref4:
		v = ld32(p);
		if (v >= l->unit_len)
			goto slow;
		if (!l->off_tag)
			sibling = l->unit_off + v;
		p += 4;
		NEXT();
op_u8_1:
		*(uint8_t *)(base + op->dst) = *p++;
		NEXT();
op_u32_1:
		*(uint32_t *)(base + op->dst) = *p++;
		NEXT();
op_u32_2:
		*(uint32_t *)(base + op->dst) = ld16(p);
		p += 2;
		NEXT();
op_u32_4:
		*(uint32_t *)(base + op->dst) = ld32(p);
		p += 4;
		NEXT();
op_u64f_1:
		U64F(*p);
		p++;
		NEXT();
op_u64f_2:
		U64F(ld16(p));
		p += 2;
		NEXT();
op_u64f_4:
		U64F(ld32(p));
		p += 4;
		NEXT();
op_u64f_8:
		U64F(ld64(p));
		p += 8;
		NEXT();
op_u64f_sdata: {
		const uint8_t *q = p;

		if (!rd_sleb(&q, end, &s))
			goto slow;
		U64F((uint64_t)s);
		p = q;
		NEXT();
	}
op_bool_1:
		*(bool *)(base + op->dst) = *p++ != 0;
		NEXT();
op_loc_sec4:
		di.has_location = true;
		di.location.name = DW_AT_location;
		di.location.form = DW_FORM_sec_offset;
		di.location.cls = DW_CLS_UNSIGNED;
		di.location.u = ld32(p);
		p += 4;
		NEXT();
op_loc_expr: {
		const uint8_t *q = p;

		if (!rd_uleb(&q, end, &v) || v > (uint64_t)(end - q))
			goto slow;
		di.has_location = true;
		di.location.name = DW_AT_location;
		di.location.form = DW_FORM_exprloc;
		di.location.cls = DW_CLS_BLOCK;
		di.location.block.data = q;
		di.location.block.len = v;
		p = q + v;
		NEXT();
	}
#undef NEXT
#undef U64F
slow:
		/* something unusual: the rest the general way */
		if (loader_read_die_slow(l, &die, &di, op, p, sibling))
			return -1;
		goto decoded;
op_end:
		dw_cursor_attrs_done(&l->cur, p, sibling);
decoded:
		/* The DIE of nearly half of them, without a call and the
		 * switch's indirect jump: a member without children
		 * (annotations) of the struct being read. */
		if (dw_die_tag(&die) == DW_TAG_member && l->top >= 0 &&
		    l->scopes[l->top].kind == SCOPE_COMPOSITE && !dw_die_has_children(&die)) {
			if (handle_member(l, &l->scopes[l->top], &die, &di))
				return -1;
			continue;
		}
		if (handle_die(l, &die, &di))
			return -1;
		/* A DIE with children that opened no scope: skip the subtree. */
		if (dw_die_has_children(&die) &&
		    (l->top < 0 || l->scopes[l->top].depth != die.depth) &&
		    dw_cursor_skip_children(&l->cur, l->err))
			return -1;
	}
	if (r < 0)
		return -1;
	while (l->top >= 0)
		if (close_scope(l))
			return -1;
	return 0;
}

/* For the plans' ops: the facts of the unit l->dcu they read. */
void loader_walk_setup(struct loader *l)
{
	const struct dw_section *str = &l->df->sec[DW_SEC_STR];

	l->str_ok = str->data && str->size && str->data[str->size - 1] == 0;
	l->str = l->str_ok ? (const char *)str->data : NULL;
	l->str_size = l->str_ok ? str->size : 0;
	l->unit_off = l->dcu.unit->offset;
	l->unit_len = l->dcu.unit->end - l->dcu.unit->offset;
}

/* Every DIE of the unit l->dcu, in one walk. */
static int walk(struct loader *l)
{
	memset(l->by_code, 0, sizeof(l->by_code));
	l->plain_from = 0;
	l->plain_ok = NULL;
	l->top = -1;
	l->top_depth = -1;
	loader_walk_setup(l);
	dw_cursor_init(&l->cur, &l->dcu);
	return loader_walk_dies(l);
}

/* Decode the type units named by ref_sig8 (and those they name in turn)
 * into this unit's model: see struct loader. */
static int import_type_units(struct loader *l)
{
	struct dw_cu main_dcu = l->dcu;
	const struct abbrev_plan **main_plans = l->plans;
	int r = 0;

	l->importing = true;
	for (size_t i = 0; i < l->tu_units.len && !r; i++) {
		uint32_t unit = l->tu_units.data[i];

		l->plans = NULL;
		r = dw_cu_open(&l->dcu, l->df, unit, &l->cu->arena, l->err);
		if (!r) {
			l->off_tag = l->dcu.unit->section == l->main_section ?
				     0 : OFF_OTHER_SECTION;
			l->plans = calloc(l->dcu.abbrevs.nr_abbrevs + 1, sizeof(*l->plans));
			r = l->plans ? walk(l) : oom(l);
		}
		free(l->plans);
	}
	l->importing = false;
	l->off_tag = 0;
	l->dcu = main_dcu;
	l->plans = main_plans;
	return r;
}

static int build(struct loader *l)
{
	if (walk(l))
		return -1;
	if (l->tu_units.len && import_type_units(l))
		return -1;
	if (loader_finish_arrays(l) || loader_resolve_fixups(l) || loader_finish_model(l))
		return -1;
	return l->opts->function_bodies ? loader_read_bodies(l) : 0;
}

/* LAZY: try a partial load first; *FALLBACK is set when it was not
 * possible or failed (the caller then does the full walk). */
static struct cu_model *load_unit(const struct dw_file *df, size_t unit,
				  const struct load_options *opts, struct dw_unit_buf *buf,
				  struct elf_page_copies *strs, bool lazy, bool *fallback,
				  struct d2b_error *err)
{
	static const struct load_options defaults;
	struct loader *l = malloc(sizeof(*l));
	struct cu_model *cu = calloc(1, sizeof(*cu));
	int r = -1;

	if (!l || !cu) {
		free(l);
		free(cu);
		d2b_error_oom(err);
		return NULL;
	}
	memset(l, 0, offsetof(struct loader, scopes));
	arena_init(&cu->arena);
	l->df = df;
	l->cu = cu;
	l->opts = opts ? opts : &defaults;
	l->err = err;
	l->strs = strs;
	if (dw_cu_open_copy(&l->dcu, df, unit, buf, &cu->arena, err) == 0) {
		cu->index = (uint32_t)unit;
		cu->offset = l->dcu.unit->offset;
		cu->addr_size = l->dcu.unit->addr_size;
		cu->dwarf_version = l->dcu.unit->version;
		l->main_section = l->dcu.unit->section;
		l->plans = calloc(l->dcu.abbrevs.nr_abbrevs + 1, sizeof(*l->plans));
		if (!l->plans) {
			r = d2b_error_oom(err);
		} else if (lazy) {
			r = loader_lazy_load(l);
			if (r) {
				*fallback = true;
				r = -1;
			}
		} else {
			reserve_scratch(l);
			r = build(l);
		}
	}
	loader_free_scratch(l);
	free(l);
	if (r) {
		cu_model_destroy(cu);
		return NULL;
	}
	return cu;
}

static struct cu_model *load_cu_names(const struct dw_file *df, size_t unit,
				       const struct load_options *opts, struct dw_unit_buf *buf,
				       struct elf_page_copies *strs, struct d2b_error *err);

struct cu_model *load_cu(const struct dw_file *df, size_t unit,
			 const struct load_options *opts, struct dw_unit_buf *buf,
			 struct elf_page_copies *strs, struct d2b_error *err)
{
	struct cu_model *cu = load_cu_names(df, unit, opts, buf, strs, err);

	if (cu && opts && opts->kabi_prefix)
		cu_model_apply_kabi_prefix(cu, opts->kabi_prefix);
	if (cu && opts && opts->fixup_silly_bitfields)
		cu_model_fixup_silly_bitfields(cu);
	return cu;
}

static struct cu_model *load_cu_names(const struct dw_file *df, size_t unit,
				       const struct load_options *opts, struct dw_unit_buf *buf,
				       struct elf_page_copies *strs, struct d2b_error *err)
{
	if (opts && opts->nr_only_types) {
		struct load_options full = *opts;
		bool fallback = false;
		struct cu_model *cu = load_unit(df, unit, opts, buf, strs, true, &fallback, err);

		if (cu || !fallback)
			return cu;
		/* the full walk decides, and reports its own errors */
		d2b_error_clear(err);
		full.only_types = NULL;
		full.nr_only_types = 0;
		return load_unit(df, unit, &full, buf, NULL, false, NULL, err);
	}
	return load_unit(df, unit, opts, buf, NULL, false, NULL, err);
}
