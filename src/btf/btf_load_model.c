// SPDX-License-Identifier: GPL-2.0-only
/*
 * BTF to the model (btf_handle_load_model()): every type of a handle, or
 * pahole -C's closure of the named ones, as the printers read a unit's.
 */
#include <stdlib.h>
#include <string.h>

#include "btf/btf_load_internal.h"
#include "dwarf/dw_const.h"

struct builder {
	const struct btf *btf;
	struct cu_model *cu;
	uint32_t nr_ids;
	const struct btf_type **recs;	/* id -> its record (libbpf's) */
	struct type **by_id;		/* NULL: not a model type (or void) */
	uint32_t *fn_of;		/* id -> functions[] index + 1 */
	uint32_t *var_of;		/* id -> variables[] index + 1 */
	/* A partial model (btf_handle_load_model()'s ONLY): the ids built,
	 * NULL for all of them */
	uint8_t *want;
	struct d2b_error *err;
};

static const char *bname(const struct builder *b, uint32_t off)
{
	const char *s = off ? btf__name_by_offset(b->btf, off) : NULL;

	return s && *s ? s : NULL;
}

static bool is_model_type(unsigned kind)
{
	switch (kind) {
	case BTF_KIND_INT:
	case BTF_KIND_FLOAT:
	case BTF_KIND_PTR:
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_FWD:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_ARRAY:
	case BTF_KIND_FUNC_PROTO:
		return true;
	}
	return false;
}

static struct annotation *new_tag(struct builder *b, const char *name,
				  const char *value)
{
	struct annotation *a = arena_zalloc(&b->cu->arena, sizeof(*a));

	if (a) {
		a->name = name;
		a->value = value;
	}
	return a;
}

static int append_tag(struct builder *b, struct annotation **list,
		      const char *name, const char *value)
{
	struct annotation *a = new_tag(b, name, value);

	if (!a)
		return d2b_error_oom(b->err);
	while (*list)
		list = &(*list)->next;
	*list = a;
	return 0;
}

/* The model type of ID, skipping TYPE_TAGs. With TAGS, each skipped tag is
 * put at the head of *TAGS, so the list ends up innermost first (DWARF's
 * order: clang lists "int __user __rcu *"'s tags as user, rcu). Validation
 * guarantees the chain ends. */
static struct type *resolve(struct builder *b, uint32_t id,
			    struct annotation **tags)
{
	while (id) {
		const struct btf_type *t = b->recs[id];

		if (btf_kind(t) != BTF_KIND_TYPE_TAG)
			return b->by_id[id];
		if (tags) {
			struct annotation *a =
				new_tag(b, "btf_type_tag", bname(b, t->name_off));

			if (!a)
				return NULL;
			a->next = *tags;
			*tags = a;
		}
		id = t->type;
	}
	return NULL;
}

static uint16_t int_encoding(const struct btf_type *t, const char *name)
{
	uint8_t enc = btf_int_encoding(t);
	bool is_signed = enc & BTF_INT_SIGNED;

	if (enc & BTF_INT_BOOL)
		return DW_ATE_boolean;
	/* pahole encodes DW_ATE_signed_char as plain SIGNED: a one-byte
	 * integer called "...char" is a character type. */
	if ((enc & BTF_INT_CHAR) ||
	    (t->size == 1 && name && strstr(name, "char")))
		return is_signed ? DW_ATE_signed_char : DW_ATE_unsigned_char;
	return is_signed ? DW_ATE_signed : DW_ATE_unsigned;
}

static int fill_params(struct builder *b, const struct btf_type *t,
		       struct param **out, uint32_t *nr, bool *varargs)
{
	const struct btf_param *bp = btf_params(t);
	uint32_t n = btf_vlen(t);
	struct param *p;

	*varargs = n && bp[n - 1].type == 0;
	if (*varargs)
		n--;
	*nr = n;
	*out = NULL;
	if (!n)
		return 0;
	p = arena_zalloc(&b->cu->arena, n * sizeof(*p));
	if (!p)
		return d2b_error_oom(b->err);
	for (uint32_t i = 0; i < n; i++) {
		p[i].name = bname(b, bp[i].name_off);
		p[i].type = resolve(b, bp[i].type, NULL);
		p[i].die_offset = 0;
		if (bp[i].type && !p[i].type && b->err->set)
			return -1;
	}
	*out = p;
	return 0;
}

static int fill_type(struct builder *b, uint32_t id, struct type *ty)
{
	const struct btf_type *t = b->recs[id];
	unsigned kind = btf_kind(t);
	struct arena *a = &b->cu->arena;

	switch (kind) {
	case BTF_KIND_INT:
		ty->base.encoding = int_encoding(t, ty->name);
		if (btf_int_bits(t) != t->size * 8)
			ty->base.bit_size = btf_int_bits(t);
		break;
	case BTF_KIND_FLOAT:
		ty->base.encoding = DW_ATE_float;
		break;
	case BTF_KIND_PTR:
		ty->type = resolve(b, t->type, &ty->tags);
		break;
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPEDEF:
		ty->type = resolve(b, t->type, NULL);
		break;
	case BTF_KIND_ARRAY: {
		const struct btf_array *arr = btf_array(t);

		ty->type = resolve(b, arr->type, NULL);
		ty->array.dims = arena_zalloc(a, sizeof(*ty->array.dims));
		if (!ty->array.dims)
			return d2b_error_oom(b->err);
		ty->array.nr_dims = 1;
		ty->array.dims[0].count = arr->nelems;
		ty->array.dims[0].flexible = arr->nelems == 0;
		break;
	}
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION: {
		const struct btf_member *m = btf_members(t);
		uint32_t n = btf_vlen(t);

		ty->composite.nr_members = n;
		if (!n)
			break;
		ty->composite.members = arena_zalloc(a, n * sizeof(struct member));
		if (!ty->composite.members)
			return d2b_error_oom(b->err);
		for (uint32_t i = 0; i < n; i++) {
			struct member *mm = &ty->composite.members[i];

			mm->name = bname(b, m[i].name_off);
			mm->type = resolve(b, m[i].type, NULL);
			mm->bit_offset = btf_member_bit_offset(t, i);
			mm->bit_size = btf_member_bitfield_size(t, i);
			mm->die_offset = id;
		}
		break;
	}
	case BTF_KIND_FWD:
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64: {
		uint32_t n = btf_vlen(t);
		bool sgn = btf_kflag(t);

		ty->enumeration.is_signed = sgn;
		ty->enumeration.nr_values = n;
		if (!n)
			break;
		ty->enumeration.values = arena_zalloc(a, n * sizeof(struct enumerator));
		if (!ty->enumeration.values)
			return d2b_error_oom(b->err);
		for (uint32_t i = 0; i < n; i++) {
			struct enumerator *e = &ty->enumeration.values[i];

			if (kind == BTF_KIND_ENUM) {
				const struct btf_enum *be = &btf_enum(t)[i];

				e->name = bname(b, be->name_off);
				e->value = sgn ? (int64_t)be->val
					       : (int64_t)(uint32_t)be->val;
			} else {
				const struct btf_enum64 *be = &btf_enum64(t)[i];

				e->name = bname(b, be->name_off);
				e->value = (int64_t)btf_enum64_value(be);
			}
		}
		break;
	}
	case BTF_KIND_FUNC_PROTO:
		ty->type = resolve(b, t->type, NULL);
		ty->proto.prototyped = true;
		if (fill_params(b, t, &ty->proto.params, &ty->proto.nr_params,
				&ty->proto.varargs))
			return -1;
		break;
	}
	return b->err->set ? -1 : 0;
}

static int fill_function(struct builder *b, uint32_t id, struct function *fn)
{
	const struct btf_type *t = b->recs[id];
	const struct type *proto = b->by_id[t->type];

	fn->name = bname(b, t->name_off);
	fn->own_name = fn->name != NULL;
	fn->die_offset = id;
	fn->scope = TS_UNIT;
	fn->calling_convention = DW_CC_normal;
	fn->prototyped = true;
	fn->external = fn->own_external = btf_vlen(t) != BTF_FUNC_STATIC;
	fn->declaration = btf_vlen(t) == BTF_FUNC_EXTERN;
	fn->ret = proto->type;
	fn->varargs = proto->proto.varargs;
	fn->nr_params = proto->proto.nr_params;
	if (fn->nr_params) {
		size_t sz = fn->nr_params * sizeof(struct param);

		fn->params = arena_alloc(&b->cu->arena, sz);
		if (!fn->params)
			return d2b_error_oom(b->err);
		memcpy(fn->params, proto->proto.params, sz);
	}
	return 0;
}

static void fill_variable(struct builder *b, uint32_t id, struct variable *v)
{
	const struct btf_type *t = b->recs[id];
	uint32_t linkage = btf_var(t)->linkage;

	v->name = bname(b, t->name_off);
	v->type = resolve(b, t->type, NULL);
	v->die_offset = id;
	v->external = linkage != BTF_VAR_STATIC;
	v->declaration = linkage == BTF_VAR_GLOBAL_EXTERN;
}

static int attach_decl_tag(struct builder *b, uint32_t id)
{
	const struct btf_type *t = b->recs[id];
	int comp = btf_decl_tag(t)->component_idx;
	const struct btf_type *target = b->recs[t->type];
	const char *value = bname(b, t->name_off);
	struct annotation **list = NULL;

	switch (btf_kind(target)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_TYPEDEF: {
		struct type *ty = b->by_id[t->type];

		list = comp < 0 ? &ty->tags : &ty->composite.members[comp].tags;
		break;
	}
	case BTF_KIND_FUNC: {
		struct function *fn = &b->cu->functions[b->fn_of[t->type] - 1];

		if (comp >= (int)fn->nr_params)
			return 0;	/* the "..." of a varargs function */
		list = comp < 0 ? &fn->tags : &fn->params[comp].tags;
		break;
	}
	case BTF_KIND_VAR:
		list = &b->cu->variables[b->var_of[t->type] - 1].tags;
		break;
	default:
		return 0;
	}
	return append_tag(b, list, "btf_decl_tag", value);
}

static int build(struct builder *b)
{
	struct cu_model *cu = b->cu;
	uint32_t nt = 0, nf = 0, nv = 0;
	uint64_t ptr_size = btf__pointer_size(b->btf);

	if (!ptr_size)
		ptr_size = 8;
	/* (in a partial model, want[] first: most records need not be read) */
	for (uint32_t id = 1; id < b->nr_ids; id++) {
		unsigned kind;

		if (b->want && !b->want[id])
			continue;
		kind = btf_kind(b->recs[id]);
		nt += is_model_type(kind);
		nf += kind == BTF_KIND_FUNC;
		nv += kind == BTF_KIND_VAR;
	}
	cu->types = arena_zalloc(&cu->arena, (nt ? nt : 1) * sizeof(*cu->types));
	cu->functions = arena_zalloc(&cu->arena, (nf ? nf : 1) * sizeof(*cu->functions));
	cu->variables = arena_zalloc(&cu->arena, (nv ? nv : 1) * sizeof(*cu->variables));
	if (!cu->types || !cu->functions || !cu->variables)
		return d2b_error_oom(b->err);

	/* Pass 1: every model type, so references can be resolved. */
	for (uint32_t id = 1; id < b->nr_ids; id++) {
		const struct btf_type *t = b->recs[id];
		unsigned kind;
		struct type *ty;

		if (b->want && !b->want[id])
			continue;
		kind = btf_kind(t);
		if (!is_model_type(kind))
			continue;
		ty = arena_zalloc(&cu->arena, sizeof(*ty));
		if (!ty)
			return d2b_error_oom(b->err);
		ty->id = cu->nr_types;
		ty->die_offset = id;
		ty->cu_lang = DW_LANG_C;
		ty->scope = TS_UNIT;
		ty->name = bname(b, t->name_off);
		switch (kind) {
		case BTF_KIND_INT:
		case BTF_KIND_FLOAT:
			ty->kind = TK_BASE;
			ty->size = t->size;
			break;
		case BTF_KIND_PTR:
			ty->kind = TK_POINTER;
			ty->size = ptr_size;
			break;
		case BTF_KIND_CONST: ty->kind = TK_CONST; break;
		case BTF_KIND_VOLATILE: ty->kind = TK_VOLATILE; break;
		case BTF_KIND_RESTRICT: ty->kind = TK_RESTRICT; break;
		case BTF_KIND_TYPEDEF: ty->kind = TK_TYPEDEF; break;
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			ty->kind = kind == BTF_KIND_STRUCT ? TK_STRUCT : TK_UNION;
			ty->size = t->size;
			break;
		case BTF_KIND_FWD:
			ty->kind = btf_kflag(t) ? TK_UNION : TK_STRUCT;
			ty->declaration = true;
			break;
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
			ty->kind = TK_ENUM;
			ty->size = t->size;
			break;
		case BTF_KIND_ARRAY: ty->kind = TK_ARRAY; break;
		case BTF_KIND_FUNC_PROTO: ty->kind = TK_FUNC_PROTO; break;
		}
		b->by_id[id] = ty;
		cu->types[cu->nr_types++] = ty;
	}
	/* Pass 2: references, members, values, parameters. */
	for (uint32_t id = 1; id < b->nr_ids; id++)
		if (b->by_id[id] && fill_type(b, id, b->by_id[id]))
			return -1;
	for (uint32_t id = 1; id < b->nr_ids; id++) {
		unsigned kind;

		if (b->want && !b->want[id])
			continue;
		kind = btf_kind(b->recs[id]);
		if (kind == BTF_KIND_FUNC) {
			if (fill_function(b, id, &cu->functions[cu->nr_functions++]))
				return -1;
			b->fn_of[id] = cu->nr_functions;
		} else if (kind == BTF_KIND_VAR) {
			fill_variable(b, id, &cu->variables[cu->nr_variables++]);
			b->var_of[id] = cu->nr_variables;
		}
	}
	if (b->err->set)
		return -1;
	/* Pass 3: DECL_TAGs, in id order. */
	for (uint32_t id = 1; id < b->nr_ids; id++) {
		if ((!b->want || b->want[id]) && btf_kind(b->recs[id]) == BTF_KIND_DECL_TAG &&
		    attach_decl_tag(b, id))
			return -1;
	}
	return 0;
}

/* Whether the type record T is named one of ONLY's names. */
static bool named_one_of(const struct builder *b, const struct btf_type *t,
			 const struct btf_model_only *only)
{
	const char *name = t->name_off ? btf__name_by_offset(b->btf, t->name_off) : NULL;
	size_t lo = 0, hi = only->nr_names;

	if (!name || !*name)
		return false;
	if (!only->order) {
		for (size_t i = 0; i < only->nr_names; i++)
			if (!strcmp(only->names[i], name))
				return true;
		return false;
	}
	while (lo < hi) {	/* sorted by order[] */
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(only->names[only->order[mid]], name);

		if (!c)
			return true;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* Type id REF of a wanted type: wanted too (pushed on STACK once). */
static void want_ref(struct builder *b, uint32_t ref, uint32_t *stack, size_t *nr)
{
	if (ref && ref < b->nr_ids && !b->want[ref]) {
		b->want[ref] = 1;
		stack[(*nr)++] = ref;
	}
}

/*
 * b->want for a partial model: every model type named one of ONLY's names
 * (whatever its kind: the printers pick among them as in the whole model,
 * where they come in the same order), every type those reach by any
 * reference at any depth (pointers too: what printing them may read, for
 * -E and --expand_pointers as well), and the DECL_TAGs on those. From
 * task_struct: 7,057 of the 52,839 model types of the Debian 6.1 vmlinux,
 * 6,218 of 69,445 in a 6.18 kernel's. Each id is pushed once, so the
 * stack needs no more than one slot an id.
 */
static int want_closure(struct builder *b, const struct btf_model_only *only)
{
	uint32_t *stack = malloc((size_t)b->nr_ids * sizeof(*stack));
	size_t nr = 0;

	b->want = calloc(b->nr_ids, 1);
	if (!stack || !b->want) {
		free(stack);
		return d2b_error_oom(b->err);
	}
	for (uint32_t id = 1; id < b->nr_ids; id++)
		if (is_model_type(btf_kind(b->recs[id])) && named_one_of(b, b->recs[id], only)) {
			b->want[id] = 1;
			stack[nr++] = id;
		}
	while (nr) {
		const struct btf_type *t = b->recs[stack[--nr]];
		uint16_t n = btf_vlen(t);

		switch (btf_kind(t)) {
		case BTF_KIND_PTR:
		case BTF_KIND_CONST:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_TYPE_TAG:
			want_ref(b, t->type, stack, &nr);
			break;
		case BTF_KIND_ARRAY:
			want_ref(b, btf_array(t)->type, stack, &nr);
			want_ref(b, btf_array(t)->index_type, stack, &nr);
			break;
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			for (uint16_t i = 0; i < n; i++)
				want_ref(b, btf_members(t)[i].type, stack, &nr);
			break;
		case BTF_KIND_FUNC_PROTO:
			want_ref(b, t->type, stack, &nr);
			for (uint16_t i = 0; i < n; i++)
				want_ref(b, btf_params(t)[i].type, stack, &nr);
			break;
		default:	/* INT, FLOAT, ENUM, ENUM64, FWD: no references */
			break;
		}
	}
	free(stack);
	/* the tags on wanted types (a tag names its target, not the reverse) */
	for (uint32_t id = 1; id < b->nr_ids; id++) {
		const struct btf_type *t = b->recs[id];

		if (btf_kind(t) == BTF_KIND_DECL_TAG && t->type < b->nr_ids && b->want[t->type])
			b->want[id] = 1;
	}
	return 0;
}

struct cu_model *btf_handle_load_model(const struct btf_handle *h,
				       const struct btf_model_only *only,
				       struct d2b_error *err)
{
	struct d2b_error local = { 0 };
	struct builder b = {
		.btf = h->btf,
		.err = err ? err : &local,
	};
	struct cu_model *cu;

	if (btf_handle_need_parsed(h, b.err))
		return NULL;
	b.nr_ids = btf__type_cnt(h->btf);
	cu = calloc(1, sizeof(*cu));
	if (!cu) {
		d2b_error_oom(err);
		return NULL;
	}
	arena_init(&cu->arena);
	b.cu = cu;
	cu->name = arena_strdup(&cu->arena, h->path);
	cu->language = DW_LANG_C;
	cu->addr_size = (uint8_t)(btf__pointer_size(h->btf) ? btf__pointer_size(h->btf) : 8);
	cu->from_btf = true;
	b.recs = malloc(b.nr_ids * sizeof(*b.recs));
	b.by_id = calloc(b.nr_ids, sizeof(*b.by_id));
	b.fn_of = calloc(b.nr_ids, sizeof(*b.fn_of));
	b.var_of = calloc(b.nr_ids, sizeof(*b.var_of));
	if (!cu->name || !b.recs || !b.by_id || !b.fn_of || !b.var_of) {
		d2b_error_oom(b.err);
		goto fail;
	}
	for (uint32_t id = 0; id < b.nr_ids; id++)
		b.recs[id] = btf__type_by_id(b.btf, id);
	if (only && only->nr_names && want_closure(&b, only))
		goto fail;
	/* the printers recurse along references: no cycle, no chain too
	 * deep among the types they get */
	if (btf_check_graph(h, b.recs, b.nr_ids, b.want, b.err))
		goto fail;
	if (build(&b))
		goto fail;
	free(b.want);
	free(b.recs);
	free(b.by_id);
	free(b.fn_of);
	free(b.var_of);
	return cu;
fail:
	free(b.want);
	free(b.recs);
	free(b.by_id);
	free(b.fn_of);
	free(b.var_of);
	cu_model_destroy(cu);
	return NULL;
}
