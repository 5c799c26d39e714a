// SPDX-License-Identifier: GPL-2.0-only
/*
 * After the walk over a unit: every recorded reference resolved to its
 * type (or a TK_UNRESOLVED placeholder), concrete functions and
 * parameters completed from their abstract origins and specifications,
 * the model's arrays made and the enums' signedness found.
 */
#include "load/loader.h"

struct type *loader_unresolved_type(struct loader *l, uint64_t off)
{
	struct type *t = arena_zalloc_small(&l->cu->arena, sizeof(*t));

	if (!t)
		return NULL;
	t->kind = TK_UNRESOLVED;
	t->die_offset = off;
	t->unresolved.target_offset = off;
	t->cu_lang = l->cu->language;
	return t;
}

int loader_resolve_fixups(struct loader *l)
{
	struct cu_model *cu = l->cu;
	size_t cap = 16, mask;
	struct type_slot *slots;

	while (cap < (size_t)cu->nr_types * 2)
		cap *= 2;
	mask = cap - 1;
	slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return oom(l);
	for (uint32_t i = 0; i < cu->nr_types; i++) {
		uint64_t off = l->type_offs.data[i];	/* not a load of the type */
		size_t h = offset_hash(off, mask);

		while (slots[h].t)
			h = (h + 1) & mask;
		slots[h] = (struct type_slot){ off, cu->types[i] };
	}
	for (size_t i = 0; i < l->fixups.len; i++) {
		struct fixup *f = &l->fixups.data[i];
		struct type *t = find_type_slot(slots, mask, f->off);

		if (!t) {
			t = loader_unresolved_type(l, f->off);
			if (!t) {
				free(slots);
				return oom(l);
			}
		}
		*fixup_slot(f) = t;
	}
	/* A declaration with DW_AT_signature becomes a copy of the type
	 * unit's definition (keeping its own identity and place). */
	for (size_t i = 0; i < l->sig_types.len; i++) {
		struct type *d = l->sig_types.data[i].t;
		struct type *t = find_type_slot(slots, mask, l->sig_types.data[i].off);

		if (t && t != d && !t->declaration) {
			struct type keep = *d;

			*d = *t;
			d->id = keep.id;
			d->die_offset = keep.die_offset;
			d->scope = keep.scope;
		}
	}
	free(slots);
	return 0;
}

static int cmp_u64_ptr(const void *a, const void *b)
{
	const struct param *const *x = a, *const *y = b;

	return (*x)->die_offset < (*y)->die_offset ? -1 : (*x)->die_offset > (*y)->die_offset;
}

static const struct param *find_param(struct param **sorted, size_t n, uint64_t off)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (sorted[mid]->die_offset == off)
			return sorted[mid];
		if (sorted[mid]->die_offset < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Concrete instances take names and types from their abstract origins
 * (and declarations they specify); parameters likewise. */
static int resolve_origins(struct loader *l)
{
	struct cu_model *cu = l->cu;
	size_t np = l->all_params.len;
	struct param **sorted = l->all_params.data;

	if (np) {
		size_t i = 1;

		/* Parameters' origins: index by DIE offset. The parameters
		 * were listed as their functions closed, so in DIE order
		 * unless type units were imported: sort only when they are
		 * not (the sort was 5% of a module's loading). */
		while (i < np && sorted[i - 1]->die_offset < sorted[i]->die_offset)
			i++;
		if (i < np) {
			sorted = malloc(np * sizeof(*sorted));
			if (!sorted)
				return oom(l);
			memcpy(sorted, l->all_params.data, np * sizeof(*sorted));
			qsort(sorted, np, sizeof(*sorted), cmp_u64_ptr);
		}
		for (size_t i = 0; i < np; i++) {
			struct param *p = l->all_params.data[i];
			uint64_t off = l->all_param_origin.data[i];
			const struct param *o;

			if (off == UINT64_MAX)
				continue;
			o = find_param(sorted, np, off);
			if (!o)
				continue;
			p->origin = o;
			if (!p->name)
				p->name = o->name;
			if (!p->type)
				p->type = o->type;
		}
		if (sorted != l->all_params.data)
			free(sorted);
	}
	for (uint32_t i = 0; i < cu->nr_functions; i++) {
		struct function *f = &cu->functions[i];
		uint64_t next = f->origin_offset ? f->origin_offset : f->specification_offset;

		/* Follow origin -> specification chains (bounded). */
		for (int hops = 0; next && hops < 8; hops++) {
			const struct function *o = cu_model_function_at_offset(cu, next);
			if (!o)
				break;
			if (!f->name)
				f->name = o->name;
			if (!f->linkage_name)
				f->linkage_name = o->linkage_name;
			if (!f->ret)
				f->ret = o->ret;
			/* each on its own, as libdw's dwarf_attr_integrate:
			 * clang gives a method's definition its own
			 * DW_AT_decl_line and its declaration's file */
			if (!f->decl_file)
				f->decl_file = o->decl_file;
			if (!f->decl_line)
				f->decl_line = o->decl_line;
			f->external |= o->external;
			f->prototyped |= o->prototyped;
			if (!f->inline_attr)
				f->inline_attr = o->inline_attr;
			if (!f->tags)
				f->tags = o->tags;
			if (!f->nr_params && o->nr_params && !f->has_addr) {
				f->params = o->params;
				f->nr_params = o->nr_params;
				f->varargs = o->varargs;
			}
			next = o->origin_offset ? o->origin_offset : o->specification_offset;
		}
	}
	for (uint32_t i = 0; i < cu->nr_variables; i++) {
		struct variable *v = &cu->variables[i];

		if (!v->specification_offset)
			continue;
		for (uint32_t j = 0; j < cu->nr_variables; j++) {
			const struct variable *o = &cu->variables[j];
			if (o->die_offset != v->specification_offset)
				continue;
			if (!v->name)
				v->name = o->name;
			if (!v->type)
				v->type = o->type;
			v->external |= o->external;
			if (!v->decl_file)
				v->decl_file = o->decl_file;
			if (!v->decl_line)
				v->decl_line = o->decl_line;
			break;
		}
	}
	return 0;
}

/* Enum signedness: from the underlying type, else from negative values. */
/* An enum's signedness, once its underlying type is resolved (again for
 * an enum already done: the same answer). */
static void finish_enum(struct type *t)
{
	const struct type *u;

	if (t->kind != TK_ENUM)
		return;
	/* bounded there: hostile DWARF can make the chain a cycle (typedef
	 * A to const A), which the graph check refuses later */
	u = type_strip_cv(t->type);
	if (u && u->kind == TK_BASE) {
		t->enumeration.is_signed = u->base.encoding == DW_ATE_signed ||
					   u->base.encoding == DW_ATE_signed_char;
	} else {
		for (uint32_t k = 0; k < t->enumeration.nr_values; k++)
			if (t->enumeration.values[k].value < 0)
				t->enumeration.is_signed = true;
	}
}

/* The enums: those made as such, and the declarations that became a copy
 * of one (DW_AT_signature, loader_resolve_fixups()), without a pass over
 * every type (a cache miss each). */
static void finish_enums(struct loader *l)
{
	for (size_t i = 0; i < l->enums.len; i++)
		finish_enum(l->enums.data[i]);
	for (size_t i = 0; i < l->sig_types.len; i++)
		finish_enum(l->sig_types.data[i].t);
}

/* The model's final arrays, in the arena, from the scratch vectors. */
int loader_finish_arrays(struct loader *l)
{
	struct cu_model *cu = l->cu;

	cu->nr_types = (uint32_t)l->types.len;
	cu->types = arena_alloc(&cu->arena, (l->types.len + 1) * sizeof(*cu->types));
	cu->nr_functions = (uint32_t)l->funcs.len;
	cu->functions = arena_alloc(&cu->arena, (l->funcs.len + 1) * sizeof(*cu->functions));
	cu->nr_variables = (uint32_t)l->vars.len;
	cu->variables = arena_alloc(&cu->arena, (l->vars.len + 1) * sizeof(*cu->variables));
	if (!cu->types || !cu->functions || !cu->variables)
		return oom(l);
	if (l->types.len)	/* data is NULL when no type was seen */
		memcpy(cu->types, l->types.data, l->types.len * sizeof(*cu->types));
	return 0;
}

/* The functions and variables into the model; origins; enums. */
int loader_finish_model(struct loader *l)
{
	struct cu_model *cu = l->cu;

	for (size_t i = 0; i < l->funcs.len; i++)
		cu->functions[i] = *l->funcs.data[i];
	for (size_t i = 0; i < l->vars.len; i++)
		cu->variables[i] = *l->vars.data[i];
	if (resolve_origins(l))
		return -1;
	finish_enums(l);
	return 0;
}
