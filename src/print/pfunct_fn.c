// SPDX-License-Identifier: GPL-2.0-only
/* A function as pfunct 1.24 sees it (see pfunct_fn.h). */
#include "print/pfunct_fn.h"

#include <stdlib.h>

/* How many DW_AT_abstract_origin / DW_AT_specification hops we follow. */
#define PFUNCT_MAX_HOPS 8

static const struct function *fn_origin(const struct cu_model *cu,
					const struct function *fn)
{
	uint64_t off = fn->origin_offset ? fn->origin_offset
					 : fn->specification_offset;

	if (!off || off == fn->die_offset)
		return NULL;
	return cu_model_function_at_offset(cu, off);
}

/*
 * The name pfunct 1.24 gives FN: its own DW_AT_name, else its origin's
 * (DW_AT_abstract_origin, else DW_AT_specification) as 1.24's loader has
 * it when it reaches FN. That loader names the unit's functions one by one
 * in DIE order, each from its origin's name so far: an origin later in the
 * unit has none yet unless it has one of its own. So clang's concrete
 * instance of a destructor, listed before its abstract instance (which is
 * named by its declaration), has no name, and is not listed.
 */
const char *pfunct_fn_name(const struct cu_model *cu, const struct function *fn)
{
	for (int i = 0; fn && i < PFUNCT_MAX_HOPS; i++) {
		const struct function *o;

		if (fn->own_name)
			return fn->name;
		o = fn_origin(cu, fn);
		if (o && !o->own_name && o->die_offset > fn->die_offset)
			return NULL;
		fn = o;
	}
	return NULL;
}

const struct type *pfunct_fn_ret(const struct cu_model *cu,
				 const struct function *fn)
{
	for (int i = 0; fn && i < PFUNCT_MAX_HOPS; i++) {
		if (fn->ret)
			return fn->ret;
		fn = fn_origin(cu, fn);
	}
	return NULL;
}

/* decl_file / decl_line, taken from the origin when the DIE has none (as
 * libdw's dwarf_decl_file/line do). Returns the function holding them. */
const struct function *pfunct_fn_decl(const struct cu_model *cu,
				      const struct function *fn)
{
	const struct function *pos = fn;

	for (int i = 0; pos && i < PFUNCT_MAX_HOPS; i++) {
		if (pos->decl_line)
			return pos;
		pos = fn_origin(cu, pos);
	}
	return fn;
}


struct c_ftype pfunct_fn_ftype(const struct cu_model *cu, const struct function *fn,
			       struct param **fixed)
{
	struct c_ftype ft = c_ftype_of_function(fn);
	struct param *f = NULL;

	ft.ret = pfunct_fn_ret(cu, fn);
	/* A concrete instance's parameters may carry only their origin. */
	for (uint32_t i = 0; i < fn->nr_params; i++) {
		const struct param *p = &fn->params[i];

		if (p->origin && (!p->name || !p->type)) {
			f = malloc(fn->nr_params * sizeof(*f));
			break;
		}
	}
	*fixed = f;
	if (!f)
		return ft;
	for (uint32_t i = 0; i < fn->nr_params; i++) {
		const struct param *o = fn->params[i].origin;

		f[i] = fn->params[i];
		for (int h = 0; o && h < PFUNCT_MAX_HOPS; h++) {
			if (!f[i].name)
				f[i].name = o->name;
			if (!f[i].type)
				f[i].type = o->type;
			o = o->origin;
		}
	}
	ft.params = f;
	return ft;
}
