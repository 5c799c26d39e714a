// SPDX-License-Identifier: GPL-2.0-only
/*
 * One CU's model into a BTF fragment, in a worker (btf_encode_cu()): its
 * types with their keys (a placeholder for each the merge already holds),
 * its functions' candidates and its variables. See btf_encode.h.
 */
#include "btf/btf_encode.h"

#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bpf/btf.h>

#include "btf/btf_hash.h"
#include "btf/btf_model_keys.h"
#include "btf/btf_model_view.h"
#include "dwarf/dw_const.h"

#define KSYM_NAME_LEN 128

static void vlog(const struct btf_encode_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void vlog(const struct btf_encode_ctx *ctx, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (!ctx->verbose || !ctx->log)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	ctx->log(ctx->log_ctx, line);
}

/* The first position in IDX (sorted by value) whose symbol's value >= ADDR. */
static size_t obj_lower_bound_value(const struct btf_encode_ctx *ctx, uint64_t addr)
{
	size_t lo = 0, hi = ctx->nr_obj;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ctx->syms[ctx->obj_by_value[mid]].value < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The first position in obj_by_name whose symbol's name is >= NAME. */
static size_t obj_lower_bound_name(const struct btf_encode_ctx *ctx, const char *name)
{
	size_t lo = 0, hi = ctx->nr_obj;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(ctx->syms[ctx->obj_by_name[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* ---- per-CU encoding ---- */

/*
 * A function candidate's parameter name or annotation value. btf__add_btf
 * interned a fragment's type strings before its candidates' strings, so the
 * fragment does too: these wait until every type (variables included) is in.
 */
struct pending_str {
	const char *s;
	uint32_t index;		/* into funcs.params or funcs.annots */
	bool annot;
};

struct cu_enc {
	const struct btf_encode_ctx *ctx;
	const struct btf_features *f;
	const struct cu_model *cu;
	struct btf_fragment *frag;
	struct btf_raw *raw;
	uint32_t *ids;		/* model index -> local id; 0: not a type of its own */
	uint32_t *extra;	/* model index -> first extra id (tags, inner arrays) */
	uint32_t index_id;	/* "int" for array indexes */
	bool add_index;		/* index_id is ours to add at the end */
	uint32_t next;		/* next local id */
	struct pending_str *pending;	/* candidates' strings, interned last */
	size_t nr_pending, cap_pending;
	/* model indexes of the typedefs and composites with decl tags (on
	 * them or their members), noted by the main pass so that the tag
	 * pass visits only them, not every member again */
	uint32_t *tagged;
	size_t nr_tagged, cap_tagged;
	bool member_tags;	/* add_composite() met a member with tags */
	/* The model's keys (btf_model_keys.h) by local id, for the ids
	 * encode_types() gives first (nr_keyed); NULL without prededup */
	const struct btf_encode_seen *seen;
	struct btf_key *keys;
	uint32_t nr_keyed;
	uint32_t *skip;		/* by local id: the final id when merged already
				 * (the record is a placeholder), else 0 */
	uint64_t nr_skipped;
	/* the DECL_TAGs' keys, from their owners', for ids from first_tag */
	struct btf_key *tag_keys;
	uint32_t first_tag, nr_tag_keys, cap_tag_keys;
	struct d2b_error *err;
};

/* The local id standing for T (0: void). */
static inline __attribute__((always_inline)) uint32_t ref(const struct cu_enc *e, const struct type *t)
{
	return model_ref(e->cu, e->ids, t);
}

static int lib_err(struct cu_enc *e, const struct type *t, const char *what, int rc)
{
	if (rc == -E2BIG)
		return d2b_error_set(e->err, "%s: CU '%s': DIE 0x%llx: %s '%s' does not fit in BTF "
				     "(more than 65535 members, values or parameters, or a value "
				     "out of range)",
				     elf_file_path(e->ctx->elf), e->cu->name ? e->cu->name : "?",
				     t ? (unsigned long long)t->die_offset : 0ull, what,
				     t && t->name ? t->name : "(anon)");
	return d2b_error_set(e->err, "%s: CU '%s': DIE 0x%llx: cannot add %s '%s' to BTF (libbpf error %d)",
			     elf_file_path(e->ctx->elf), e->cu->name ? e->cu->name : "?",
			     t ? (unsigned long long)t->die_offset : 0ull, what,
			     t && t->name ? t->name : "(anon)", rc);
}

static int expect_id(struct cu_enc *e, const struct type *t, const char *what,
		     int id, uint32_t want)
{
	if (id < 0)
		return lib_err(e, t, what, id);
	if ((uint32_t)id != want)
		return d2b_error_set(e->err, "%s: CU '%s': BTF id drift at DIE 0x%llx (%u != %u)",
				     elf_file_path(e->ctx->elf), e->cu->name ? e->cu->name : "?",
				     t ? (unsigned long long)t->die_offset : 0ull, (unsigned)id, want);
	return 0;
}

#define NAME_PREFETCH 4		/* types ahead whose names are hinted */
#define NAME_PREFETCH_MAX 16	/* member names hinted per type */

/* Hints the names of the first few of N entries of STRIDE bytes from
 * FIRST, each with its name pointer at NAME_OFF. */
static void prefetch_name_array(const void *first, size_t stride, size_t name_off, uint32_t n)
{
	for (uint32_t i = 0; i < n && i < NAME_PREFETCH_MAX; i++) {
		const char *name;

		memcpy(&name, (const char *)first + i * stride + name_off, sizeof(name));
		if (name)
			__builtin_prefetch(name);
	}
}

static void prefetch_names(const struct type *t)
{
	if (t->name)
		__builtin_prefetch(t->name);
	if (t->kind == TK_STRUCT || t->kind == TK_UNION || t->kind == TK_CLASS)
		prefetch_name_array(t->composite.members, sizeof(struct member),
				    offsetof(struct member, name), t->composite.nr_members);
	else if (t->kind == TK_ENUM)
		prefetch_name_array(t->enumeration.values, sizeof(struct enumerator),
				    offsetof(struct enumerator, name), t->enumeration.nr_values);
}

static int add_base(struct cu_enc *e, const struct type *t)
{
	const char *name = t->name ? t->name : "";
	uint64_t bits = t->base.bit_size ? t->base.bit_size : t->size * 8;
	uint64_t bytes = (bits + 7) / 8;
	int enc = 0;

	switch (t->base.encoding) {
	case DW_ATE_float:
		if (e->f->gen_float && bytes)
			return btf_raw_add_float(e->raw, name, (size_t)bytes);
		break;
	case DW_ATE_signed:
	case DW_ATE_signed_char:
		enc = BTF_INT_SIGNED;
		break;
	case DW_ATE_boolean:
		enc = BTF_INT_BOOL;
		break;
	default:
		break;
	}
	/* DWARF 5 may carry DW_ATE_unsigned_24 and the like: BTF wants a
	 * power-of-two size up to 16 bytes. */
	if (!bytes || (bytes & (bytes - 1)) || bytes > 16) {
		name = "__SANITIZED_FAKE_INT__";
		bytes = 4;
	}
	if (!*name)
		name = "__ANON_INT__";
	return btf_raw_add_int(e->raw, name, (size_t)bytes, enc);
}

static uint32_t array_count(const struct array_dim *d)
{
	if (d->flexible)
		return 0;
	return d->count > UINT32_MAX ? UINT32_MAX : (uint32_t)d->count;
}

static int add_enum(struct cu_enc *e, const struct type *t)
{
	const char *name = t->name ? t->name : "";
	uint64_t size = t->size ? t->size : 4;
	bool e64 = size > 4 && e->f->enum64;
	int id;

	if (t->declaration && !t->enumeration.nr_values && *name)
		return btf_raw_add_fwd(e->raw, name, BTF_FWD_ENUM);
	if (e64)
		id = btf_raw_add_enum64(e->raw, name, (uint32_t)size, t->enumeration.is_signed);
	else
		id = btf_raw_add_enum(e->raw, name, (uint32_t)(size > 8 ? 8 : size));
	if (id < 0)
		return id;
	for (uint32_t i = 0; i < t->enumeration.nr_values; i++) {
		const struct enumerator *v = &t->enumeration.values[i];
		const char *vn = v->name ? v->name : "";
		int rc;

		if (i + NAME_PREFETCH_MAX < t->enumeration.nr_values &&
		    v[NAME_PREFETCH_MAX].name)
			__builtin_prefetch(v[NAME_PREFETCH_MAX].name);
		if (e64)
			rc = btf_raw_add_enum64_value(e->raw, vn, (uint64_t)v->value);
		else if (!e->f->enum64 || !t->enumeration.is_signed)
			rc = btf_raw_add_enum_value(e->raw, vn, (int64_t)(uint32_t)v->value);
		else
			rc = btf_raw_add_enum_value(e->raw, vn, (int64_t)(int32_t)v->value);
		if (rc < 0)
			return rc;
	}
	return id;
}

static int add_composite(struct cu_enc *e, const struct type *t)
{
	const char *name = t->name ? t->name : "";
	bool is_union = t->kind == TK_UNION;
	int id;

	if (t->declaration && *name)
		return btf_raw_add_fwd(e->raw, name, is_union ? BTF_FWD_UNION : BTF_FWD_STRUCT);
	id = is_union ? btf_raw_add_union(e->raw, name, (uint32_t)t->size)
		      : btf_raw_add_struct(e->raw, name, (uint32_t)t->size);
	if (id < 0)
		return id;
	for (uint32_t i = 0; i < t->composite.nr_members; i++) {
		const struct member *m = &t->composite.members[i];
		int rc;

		if (i + NAME_PREFETCH_MAX < t->composite.nr_members &&
		    m[NAME_PREFETCH_MAX].name)
			__builtin_prefetch(m[NAME_PREFETCH_MAX].name);
		if (m->is_static)
			continue;
		e->member_tags |= m->tags != NULL;
		rc = btf_raw_add_field(e->raw, m->name ? m->name : "", ref(e, m->type),
				       (uint32_t)m->bit_offset, m->bit_size);
		if (rc < 0)
			return rc;
	}
	return id;
}

static int add_proto(struct cu_enc *e, const struct type *t)
{
	int id = btf_raw_add_func_proto(e->raw, ref(e, t->type));

	if (id < 0)
		return id;
	for (uint32_t i = 0; i < t->proto.nr_params; i++) {
		const struct param *p = &t->proto.params[i];
		int rc = btf_raw_add_func_param(e->raw, p->name ? p->name : "", ref(e, p->type));

		if (rc < 0)
			return rc;
	}
	if (t->proto.varargs) {
		int rc = btf_raw_add_func_param(e->raw, "", 0);

		if (rc < 0)
			return rc;
	}
	return id;
}

/* The id a pointer points at: its last type tag, else the pointee. */
static uint32_t pointer_target(const struct cu_enc *e, const struct type *t)
{
	uint32_t n = nr_type_tags(e->f, t);

	return n ? e->extra[t->id] + n - 1 : ref(e, t->type);
}

static int add_main(struct cu_enc *e, const struct type *t)
{
	switch (t->kind) {
	case TK_BASE:
		return add_base(e, t);
	case TK_POINTER:
	case TK_REFERENCE:
	case TK_RVALUE_REFERENCE:
	case TK_PTR_TO_MEMBER:
		return btf_raw_add_ptr(e->raw, pointer_target(e, t));
	case TK_CONST:
		return btf_raw_add_const(e->raw, ref(e, t->type));
	case TK_VOLATILE:
		return btf_raw_add_volatile(e->raw, ref(e, t->type));
	case TK_RESTRICT:
		return btf_raw_add_restrict(e->raw, ref(e, t->type));
	case TK_TYPEDEF:
		return btf_raw_add_typedef(e->raw, t->name ? t->name : "__ANON_TYPEDEF__",
					   ref(e, t->type));
	case TK_STRUCT:
	case TK_UNION:
	case TK_CLASS:
		return add_composite(e, t);
	case TK_ENUM:
		return add_enum(e, t);
	case TK_ARRAY: {
		/* Multi-dimensional arrays become one flat array of all the
		 * elements, as pahole encodes them (int a[3][4] -> int[12]). */
		uint32_t count = t->array.nr_dims ? 1 : 0;

		for (uint32_t k = 0; k < t->array.nr_dims; k++)
			count *= array_count(&t->array.dims[k]);
		return btf_raw_add_array(e->raw, e->index_id, ref(e, t->type), count);
	}
	case TK_FUNC_PROTO:
		return add_proto(e, t);
	default:
		return -EINVAL;
	}
}

/* The final id that local id ID stands for when the merge has it, else 0. */
static inline uint32_t skipped(const struct cu_enc *e, uint32_t id)
{
	return e->skip ? e->skip[id] : 0;
}

static int add_extras(struct cu_enc *e, const struct type *t)
{
	uint32_t first = e->extra[t->id];

	if (is_pointer_kind(t->kind)) {
		uint32_t k = 0, n = nr_type_tags(e->f, t);

		for (const struct annotation *a = t->tags; a && k < n; a = a->next) {
			uint32_t target = k ? first + k - 1 : ref(e, t->type);
			int id;

			if (!is_type_tag(a))
				continue;
			id = skipped(e, first + k) ? btf_raw_add_placeholder(e->raw, skipped(e, first + k))
						   : btf_raw_add_type_tag(e->raw, a->value, target);
			if (expect_id(e, t, "TYPE_TAG", id, first + k))
				return -1;
			k++;
		}
	}
	return 0;
}

/* DECL_TAG TAG_ID (value VALUE on OWNER's member COMPONENT) has a key
 * made from its owner's. 0, or -1 when out of memory. */
static int note_tag_key(struct cu_enc *e, uint32_t tag_id, uint32_t owner, const char *value,
			int component)
{
	struct btf_key k = { 0, 0 };

	if (!e->nr_tag_keys)
		e->first_tag = tag_id;
	if (tag_id != e->first_tag + e->nr_tag_keys)
		return d2b_error_set(e->err, "%s: CU '%s': DECL_TAG ids are not consecutive",
				     elf_file_path(e->ctx->elf), e->cu->name ? e->cu->name : "?");
	if (e->nr_tag_keys == e->cap_tag_keys) {
		uint32_t cap = e->cap_tag_keys ? 2 * e->cap_tag_keys : 16;
		struct btf_key *p = realloc(e->tag_keys, cap * sizeof(*p));

		if (!p)
			return d2b_error_oom(e->err);
		e->tag_keys = p;
		e->cap_tag_keys = cap;
	}
	if (owner <= e->nr_keyed)
		k = btf_model_decl_tag_key(&e->seen->keys_in, &e->keys[owner], value, component);
	e->tag_keys[e->nr_tag_keys++] = k;
	return 0;
}

static int add_decl_tags(struct cu_enc *e, struct annotation *tags, uint32_t id,
			 int component)
{
	for (const struct annotation *a = tags; a; a = a->next) {
		int rc;

		if (!is_decl_tag(a))
			continue;
		rc = btf_raw_add_decl_tag(e->raw, a->value, id, component);
		if (rc >= 0 && e->keys && id <= e->nr_keyed &&
		    note_tag_key(e, (uint32_t)rc, id, a->value, component))
			return -1;
		if (rc < 0)
			return d2b_error_set(e->err, "%s: CU '%s': cannot add decl tag '%s' (libbpf error %d)",
					     elf_file_path(e->ctx->elf), e->cu->name ? e->cu->name : "?",
					     a->value, rc);
	}
	return 0;
}

static int note_tagged(struct cu_enc *e, uint32_t i)
{
	if (e->nr_tagged == e->cap_tagged) {
		size_t cap = e->cap_tagged ? 2 * e->cap_tagged : 64;
		uint32_t *p = realloc(e->tagged, cap * sizeof(*p));

		if (!p)
			return d2b_error_oom(e->err);
		e->tagged = p;
		e->cap_tagged = cap;
	}
	e->tagged[e->nr_tagged++] = i;
	return 0;
}

#define SEEN_PREFETCH 8	/* keys ahead whose table slots are hinted */

/* The model's keys of the ids given so far (1 .. next - 1), and which of
 * them the merge has already: those become placeholders. */
static int model_keys(struct cu_enc *e)
{
	struct btf_model_keys_in in = e->seen->keys_in;
	const struct btf_merge *m = e->seen->merge;
	const struct btf_merge_key_view *table;

	in.cu = e->cu;
	in.f = e->f;
	in.ids = e->ids;
	in.extra = e->extra;
	in.nr_ids = e->next - 1;
	in.index_id = e->index_id;
	in.index_added = e->add_index;
	e->nr_keyed = in.nr_ids;
	e->keys = calloc((size_t)in.nr_ids + 2, sizeof(*e->keys));
	if (!e->keys || btf_model_keys(&in, e->keys))
		return d2b_error_oom(e->err);
	if (!m)
		return 0;
	e->skip = calloc((size_t)in.nr_ids + 1, sizeof(*e->skip));
	if (!e->skip)
		return d2b_error_oom(e->err);
	table = btf_merge_key_table(m);	/* once: see there */
	for (uint32_t v = 1; v <= in.nr_ids; v++) {
		const struct btf_key *k = &e->keys[v];

		/* the probes miss the cache: hint ahead */
		if (v + SEEN_PREFETCH <= in.nr_ids)
			btf_merge_view_prefetch(table, &e->keys[v + SEEN_PREFETCH]);
		if ((k->lo || k->hi) && (e->skip[v] = btf_merge_view_find(table, k)))
			e->nr_skipped++;
	}
	return 0;
}

/* The fragment's keys by local id: the model's (e->keys, extended and
 * handed over), the DECL_TAGs', none for the rest (VARs). 0 or -1. */
static int fragment_keys(struct cu_enc *e)
{
	uint32_t n = e->raw->nr_types;
	struct btf_key *k;

	if (!e->keys)
		return 0;
	k = realloc(e->keys, ((size_t)n + 2) * sizeof(*k));
	if (!k)
		return d2b_error_oom(e->err);
	e->keys = NULL;
	memset(k + e->nr_keyed + 1, 0, ((size_t)n + 1 - e->nr_keyed) * sizeof(*k));
	for (uint32_t i = 0; i < e->nr_tag_keys && e->first_tag + i <= n; i++)
		k[e->first_tag + i] = e->tag_keys[i];
	e->raw->keys = k;
	return 0;
}

static int encode_types(struct cu_enc *e)
{
	const struct cu_model *cu = e->cu;
	bool need_index = false;

	/* One pass: ids for every encodable type, in model order; which
	 * pointers carry type tags (their extra ids come after all of those);
	 * and what the fragment will hold, so its buffers are sized once and
	 * not copied as they double from small (realloc's copies were 4% of
	 * the encoder's instructions). */
	size_t words = 0, fixes = 0, strs = 0, nr_tagged_ptrs = 0;

	e->next = 1;
	for (uint32_t i = 0; i < cu->nr_types; i++) {
		const struct type *t = cu->types[i];
		size_t n = 0;

		if (encodable(t))
			e->ids[i] = e->next++;
		switch (t->kind) {
		case TK_STRUCT:
		case TK_UNION:
		case TK_CLASS:
			n = t->composite.nr_members;
			words += 3 * n;
			break;
		case TK_ENUM:
			n = t->enumeration.nr_values;
			words += 3 * n;
			break;
		case TK_FUNC_PROTO:
			n = t->proto.nr_params;
			words += 2 * n;
			break;
		case TK_ARRAY:
			words += 3;
			need_index = true;
			break;
		case TK_BASE:
			if (!e->index_id && t->name && !strcmp(t->name, "int"))
				e->index_id = e->ids[i];
			break;
		default:
			if (is_pointer_kind(t->kind) && nr_type_tags(e->f, t))
				nr_tagged_ptrs++;
			break;
		}
		words += 4;
		fixes += 2 + 2 * n;
		strs += 1 + n;
	}
	for (uint32_t i = 0; i < cu->nr_functions; i++) {
		size_t n = cu->functions[i].nr_params;

		words += 6 + 2 * n;
		fixes += 3 + 2 * n;
		strs += 1 + n;
	}
	/* names average ~10 bytes and a NUL */
	if (btf_raw_reserve(e->raw, (size_t)cu->nr_types + cu->nr_functions, words, fixes, strs,
			    12 * strs))
		return d2b_error_oom(e->err);
	/* their extra ids, in model order (type tags come from clang only) */
	for (uint32_t i = 0; nr_tagged_ptrs && i < cu->nr_types; i++) {
		const struct type *t = cu->types[i];
		uint32_t n = is_pointer_kind(t->kind) ? nr_type_tags(e->f, t) : 0;

		if (n) {
			e->extra[i] = e->next;
			e->next += n;
		}
	}
	if (need_index && !e->index_id) {
		e->index_id = e->next++;
		e->add_index = true;
	}
	if (e->seen && model_keys(e))
		return -1;

	for (uint32_t i = 0; i < cu->nr_types; i++) {
		const struct type *t = cu->types[i];

		/* names are read here first, from all over .debug_str: a
		 * cache miss each, unless asked for ahead */
		if (i + NAME_PREFETCH < cu->nr_types && e->ids[i + NAME_PREFETCH] &&
		    !skipped(e, e->ids[i + NAME_PREFETCH]))
			prefetch_names(cu->types[i + NAME_PREFETCH]);
		if (!e->ids[i])
			continue;
		if (skipped(e, e->ids[i])) {
			if (expect_id(e, t, "placeholder",
				      btf_raw_add_placeholder(e->raw, skipped(e, e->ids[i])), e->ids[i]))
				return -1;
			continue;
		}
		e->member_tags = false;
		if (expect_id(e, t, "type", add_main(e, t), e->ids[i]))
			return -1;
		if (e->f->decl_tag && (t->tags || e->member_tags) &&
		    (t->kind == TK_TYPEDEF || t->kind == TK_STRUCT || t->kind == TK_UNION ||
		     t->kind == TK_CLASS) && note_tagged(e, i))
			return -1;
	}
	for (uint32_t i = 0; i < cu->nr_types; i++)
		if (e->extra[i] && add_extras(e, cu->types[i]))
			return -1;
	if (e->add_index &&
	    expect_id(e, NULL, "INT",
		      skipped(e, e->index_id) ? btf_raw_add_placeholder(e->raw, skipped(e, e->index_id))
					      : btf_raw_add_int(e->raw, "int", 4, BTF_INT_SIGNED),
		      e->index_id))
		return -1;

	if (!e->f->decl_tag)
		return 0;
	for (size_t k = 0; k < e->nr_tagged; k++) {
		uint32_t i = e->tagged[k], idx = 0;
		const struct type *t = cu->types[i];

		if (t->kind == TK_TYPEDEF && add_decl_tags(e, t->tags, e->ids[i], -1))
			return -1;
		if (t->kind != TK_STRUCT && t->kind != TK_UNION && t->kind != TK_CLASS)
			continue;
		if (add_decl_tags(e, t->tags, e->ids[i], -1))
			return -1;
		if (t->declaration)
			continue;
		for (uint32_t m = 0; m < t->composite.nr_members; m++) {
			const struct member *mb = &t->composite.members[m];

			if (mb->is_static)
				continue;
			if (add_decl_tags(e, mb->tags, e->ids[i], (int)idx))
				return -1;
			idx++;
		}
	}
	return 0;
}

static uint32_t count_decl_tags(const struct annotation *a)
{
	uint32_t n = 0;

	for (; a; a = a->next)
		n += is_decl_tag(a);
	return n;
}

/* Intern S for candidate string INDEX (a parameter's name, or an
 * annotation's value when ANNOT) once the types are in: see pending_str. */
static int frag_str(struct cu_enc *e, const char *s, bool annot, size_t index)
{
	if (!s || !*s)
		return 0;	/* offset 0, as set by btf_func_set_add */
	if (e->nr_pending == e->cap_pending) {
		size_t cap = e->cap_pending ? e->cap_pending * 2 : 64;
		struct pending_str *p = realloc(e->pending, cap * sizeof(*p));

		if (!p)
			return d2b_error_oom(e->err);
		e->pending = p;
		e->cap_pending = cap;
	}
	e->pending[e->nr_pending++] = (struct pending_str){
		.s = s, .index = (uint32_t)index, .annot = annot,
	};
	return 0;
}

static int intern_pending(struct cu_enc *e)
{
	struct btf_func_set *fs = &e->frag->funcs;

	for (size_t i = 0; i < e->nr_pending; i++) {
		const struct pending_str *p = &e->pending[i];
		uint32_t *off = p->annot ? &fs->annots[p->index].value_off
					 : &fs->params[p->index].name_off;

		if (btf_raw_str(e->raw, p->s, off))
			return d2b_error_oom(e->err);
	}
	return 0;
}

static int fill_annots(struct cu_enc *e, uint32_t first, const struct annotation *tags,
		       int component, uint32_t *k)
{
	for (; tags; tags = tags->next) {
		if (!is_decl_tag(tags))
			continue;
		e->frag->funcs.annots[first + *k].component = component;
		if (frag_str(e, tags->value, true, first + *k))
			return -1;
		(*k)++;
	}
	return 0;
}

static int save_function(struct cu_enc *e, const struct function *fn, long elf_idx)
{
	struct btf_func_set *s = &e->frag->funcs;
	uint32_t nr_params = fn->nr_params + (fn->varargs ? 1 : 0), nr_annots = 0, k = 0;
	struct btf_func_cand *c;

	if (e->f->decl_tag) {
		nr_annots = count_decl_tags(fn->tags);
		for (uint32_t i = 0; i < fn->nr_params; i++) {
			const struct param *p = &fn->params[i];

			nr_annots += count_decl_tags(p->tags ? p->tags : (p->origin ? p->origin->tags : NULL));
		}
	}
	c = btf_func_set_add(s, nr_params, nr_annots);
	if (!c)
		return d2b_error_oom(e->err);
	c->elf_idx = (uint32_t)elf_idx;
	c->ret = ref(e, fn->ret);
	c->flags = (uint8_t)btf_func_check(e->cu, fn, &e->ctx->cc);
	for (uint32_t i = 0; i < fn->nr_params; i++) {
		const struct param *p = &fn->params[i];
		struct btf_func_param *bp = &s->params[c->first_param + i];

		bp->type = ref(e, btf_param_type(p));
		if (frag_str(e, btf_param_name(p), false, c->first_param + i))
			return -1;
	}
	if (!nr_annots)
		return 0;
	if (fill_annots(e, c->first_annot, fn->tags, -1, &k))
		return -1;
	for (uint32_t i = 0; i < fn->nr_params; i++) {
		const struct param *p = &fn->params[i];

		if (fill_annots(e, c->first_annot, p->tags ? p->tags :
				(p->origin ? p->origin->tags : NULL), (int)i, &k))
			return -1;
	}
	return 0;
}

static int collect_functions(struct cu_enc *e)
{
	const struct cu_model *cu = e->cu;

	if (!e->ctx->funcs.nr)
		return 0;	/* upstream: no ELF functions, no FUNCs */
	for (uint32_t i = 0; i < cu->nr_functions; i++) {
		const struct function *fn = &cu->functions[i];
		bool named = true;
		long idx;

		if (fn->declaration || fn->is_inlined_instance || !fn->name ||
		    (fn->scope != TS_UNIT && fn->scope != TS_NAMESPACE))
			continue;
		for (uint32_t k = 0; k < fn->nr_params && named; k++)
			named = btf_param_name(&fn->params[k]) != NULL;
		if (!named)
			continue;
		idx = btf_elf_funcs_find(&e->ctx->funcs, fn->name);
		if (idx < 0)
			continue;
		if (save_function(e, fn, idx))
			return -1;
	}
	return 0;
}

/* ---- variables ---- */

static bool name_char_ok(char c, bool first)
{
	if (c == '_' || c == '.')
		return true;
	return first ? isalpha((unsigned char)c) : isalnum((unsigned char)c);
}

static bool btf_name_valid(const char *p)
{
	const char *limit = p + KSYM_NAME_LEN;

	if (!name_char_ok(*p, true))
		return false;
	for (p++; *p && p < limit; p++)
		if (!name_char_ok(*p, false))
			return false;
	return !*p;
}

/* Names with common prefixes and no useful value, as upstream filters. */
static bool filtered_name(const char *name)
{
	static const char *const skip[] = {
		"__UNIQUE_ID", "__tpstrtab_", "__exitcall_", "__gendwarfksyms_ptr_",
		"__func_stack_frame_non_standard_",
	};

	if (*name != '_')
		return false;
	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (!strncmp(name, skip[i], strlen(skip[i])))
			return true;
	return false;
}

static uint64_t type_size(const struct type *t, unsigned addr_size, int depth)
{
	if (!t || depth > 64)
		return 0;
	switch (t->kind) {
	case TK_TYPEDEF:
	case TK_CONST:
	case TK_VOLATILE:
	case TK_RESTRICT:
	case TK_ATOMIC:
		return type_size(t->type, addr_size, depth + 1);
	case TK_POINTER:
	case TK_REFERENCE:
	case TK_RVALUE_REFERENCE:
		return t->size ? t->size : addr_size;
	case TK_ARRAY: {
		uint64_t n = type_size(t->type, addr_size, depth + 1);

		for (uint32_t i = 0; i < t->array.nr_dims; i++)
			n *= t->array.dims[i].flexible ? 0 : t->array.dims[i].count;
		return n;
	}
	case TK_FUNC_PROTO:
	case TK_UNSPECIFIED:
	case TK_UNRESOLVED:
		return 0;
	default:
		return t->size;
	}
}

/* The section holding a variable. In a relocatable file (.o, .ko) every
 * section starts at 0, so the address alone does not say: the variable's
 * symbol does (pahole 1.24 found per-CPU variables by symbol too). */
static size_t section_of(const struct btf_encode_ctx *ctx, const char *name, uint64_t addr)
{
	if (elf_file_type(ctx->elf) == ET_REL) {
		/* the first object symbol in table order with this value and
		 * name in a real section */
		for (size_t i = name ? obj_lower_bound_value(ctx, addr) : ctx->nr_obj;
		     i < ctx->nr_obj; i++) {
			const struct elf_symbol *s = &ctx->syms[ctx->obj_by_value[i]];

			if (s->value != addr)
				break;
			if (s->shndx > 0 && s->shndx < ctx->nr_sections && !strcmp(s->name, name))
				return s->shndx;
		}
		return 0;
	}
	for (size_t i = 1; i < ctx->nr_sections; i++) {
		const struct btf_enc_section *s = &ctx->sections[i];

		if (s->type != SHT_PROGBITS && s->type != SHT_NOBITS)
			continue;
		if (s->addr <= addr && addr - s->addr < s->size)
			return i;
	}
	return 0;
}

static bool symbol_in_section(const struct btf_encode_ctx *ctx, const char *name, size_t shndx)
{
	for (size_t i = obj_lower_bound_name(ctx, name); i < ctx->nr_obj; i++) {
		const struct elf_symbol *s = &ctx->syms[ctx->obj_by_name[i]];

		if (strcmp(s->name, name))
			break;
		if (s->shndx == shndx)
			return true;
	}
	return false;
}

static int encode_variables(struct cu_enc *e)
{
	const struct btf_encode_ctx *ctx = e->ctx;
	const struct cu_model *cu = e->cu;
	size_t cap = 0;

	for (uint32_t i = 0; i < cu->nr_variables; i++) {
		const struct variable *v = &cu->variables[i];
		uint64_t addr, size;
		size_t shndx;
		uint32_t type;
		int id;

		if (v->declaration || v->is_static_local || !v->has_addr)
			continue;
		shndx = section_of(ctx, v->name, v->addr);
		if (!shndx || !ctx->sections[shndx].include)
			continue;
		addr = v->addr - ctx->sections[shndx].addr;
		if (!v->name || filtered_name(v->name))
			continue;
		if (addr == 0 && !symbol_in_section(ctx, v->name, shndx))
			continue;
		if (!btf_name_valid(v->name)) {
			if (e->f->encode_force) {
				vlog(ctx, "PAHOLE: Warning: Found invalid variable name when encoding btf, "
				     "ignored (sym: '%s').", v->name);
				continue;
			}
			return d2b_error_set(e->err, "%s: CU '%s': invalid variable name '%s' "
					     "(use --btf_features=encode_force to skip it)",
					     elf_file_path(ctx->elf), cu->name ? cu->name : "?", v->name);
		}
		type = ref(e, v->type);
		if (!type) {
			if (e->f->encode_force)
				continue;
			return d2b_error_set(e->err, "%s: found variable '%s' in CU '%s' that has void type",
					     elf_file_path(ctx->elf), v->name, cu->name ? cu->name : "?");
		}
		size = type_size(v->type, cu->addr_size, 0);
		if (size == 0 || size > UINT32_MAX) {
			vlog(ctx, "Ignoring %s-sized variable '%s'...", size == 0 ? "zero" : "over", v->name);
			continue;
		}
		if (addr > UINT32_MAX) {
			vlog(ctx, "Ignoring variable '%s' - its offset %llu doesn't fit in a u32",
			     v->name, (unsigned long long)addr);
			continue;
		}
		id = btf_raw_add_var(e->raw, v->name, v->external ? BTF_VAR_GLOBAL_ALLOCATED : BTF_VAR_STATIC,
				  type);
		if (id < 0)
			return d2b_error_set(e->err, "%s: cannot add variable '%s' (libbpf error %d)",
					     elf_file_path(ctx->elf), v->name, id);
		if (e->f->decl_tag && add_decl_tags(e, v->tags, (uint32_t)id, -1))
			return -1;
		if (e->frag->nr_vars == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			void *p = realloc(e->frag->vars, ncap * sizeof(*e->frag->vars));

			if (!p)
				return d2b_error_oom(e->err);
			e->frag->vars = p;
			cap = ncap;
		}
		e->frag->vars[e->frag->nr_vars++] = (struct btf_var_sec){
			.var_id = (uint32_t)id, .shndx = (uint32_t)shndx,
			.offset = (uint32_t)addr, .size = (uint32_t)size,
		};
	}
	return 0;
}

void btf_fragment_destroy(struct btf_fragment *frag)
{
	if (!frag)
		return;
	btf_raw_deinit(&frag->raw);
	free(frag->record_keys);
	btf_func_set_deinit(&frag->funcs);
	free(frag->vars);
	free(frag);
}

/* The encoder's scratch (not the fragment). */
static void cu_enc_free(struct cu_enc *e)
{
	free(e->keys);
	free(e->skip);
	free(e->tag_keys);
	free(e->pending);
	free(e->tagged);
	free(e->ids);
	free(e->extra);
}

struct btf_fragment *btf_encode_cu(const struct btf_encode_ctx *ctx,
				   const struct cu_model *cu, const struct btf_encode_seen *seen,
				   struct d2b_error *err)
{
	struct btf_fragment *frag = calloc(1, sizeof(*frag));
	struct cu_enc e = {
		.ctx = ctx, .f = ctx->features, .cu = cu, .frag = frag, .seen = seen, .err = err,
	};
	size_t n = cu->nr_types ? cu->nr_types : 1;

	if (!frag) {
		d2b_error_oom(err);
		return NULL;
	}
	e.raw = &frag->raw;
	e.ids = calloc(n, sizeof(*e.ids));
	e.extra = calloc(n, sizeof(*e.extra));
	if (btf_raw_init(&frag->raw) || !e.ids || !e.extra) {
		d2b_error_oom(err);
		goto fail;
	}
	frag->raw.strs.seed = ctx->str_seed;
	if (encode_types(&e) || collect_functions(&e))
		goto fail;
	if ((ctx->features->var || ctx->features->global_var) && encode_variables(&e))
		goto fail;
	if (intern_pending(&e) || fragment_keys(&e))
		goto fail;
	frag->nr_skipped = e.nr_skipped;
	cu_enc_free(&e);
	return frag;
fail:
	cu_enc_free(&e);
	btf_fragment_destroy(frag);
	return NULL;
}
