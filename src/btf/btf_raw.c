// SPDX-License-Identifier: GPL-2.0-only
/*
 * Raw BTF fragments: the builder a worker encodes its unit with (see
 * btf_raw.h); their merge is btf_merge.c.
 */
#include "btf/btf_raw.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "btf/btf_raw_internal.h"

__attribute__((cold)) int btf_raw_grow_u32_slow(uint32_t **p, size_t *cap, size_t want)
{
	size_t ncap = *cap ? *cap : 1024;
	uint32_t *np;

	while (ncap < want)
		ncap *= 2;
	np = realloc(*p, ncap * sizeof(*np));
	if (!np)
		return -1;
	*p = np;
	*cap = ncap;
	return 0;
}

int btf_raw_init(struct btf_raw *r)
{
	memset(r, 0, sizeof(*r));
	return btf_strtab_init(&r->strs, NULL, 0);
}

static int grow_types(struct btf_raw *r, size_t cap)
{
	if (cap <= r->cap_types)
		return 0;
	if (realloc_u32(&r->type_off, cap) || realloc_u32(&r->type_fix, cap))
		return -1;
	r->cap_types = cap;
	return 0;
}

int btf_raw_reserve(struct btf_raw *r, size_t types, size_t words, size_t fixes,
		    size_t strs, size_t str_bytes)
{
	if (types > SIZE_MAX / 8 || words > SIZE_MAX / 8 || fixes > SIZE_MAX / 8 ||
	    strs > SIZE_MAX / 32)
		return -1;
	if (grow_types(r, types + 2))
		return -1;
	if (words > r->cap) {
		if (realloc_u32(&r->words, words))
			return -1;
		r->cap = words;
	}
	if (fixes > r->cap_fix) {
		if (realloc_u32(&r->fix, fixes))
			return -1;
		r->cap_fix = fixes;
	}
	return btf_strtab_reserve(&r->strs, strs, str_bytes);
}

void btf_raw_deinit(struct btf_raw *r)
{
	free(r->words);
	free(r->fix);
	free(r->keys);
	free(r->final_ids);
	free(r->type_off);
	free(r->type_fix);
	free(r->final_strs);
	free(r->kept_ids);
	btf_strtab_deinit(&r->strs);
	memset(r, 0, sizeof(*r));
}

int btf_raw_index(struct btf_raw *r)
{
	/* commit() recorded every type's start; the ends now */
	if (!r->type_off || r->cap_types < (size_t)r->nr_types + 2)
		return 0;
	r->type_off[r->nr_types + 1] = (uint32_t)r->len;
	r->type_fix[r->nr_types + 1] = (uint32_t)r->nr_fix;
	r->indexed = true;
	if (r->final_ids) {
		uint32_t n = 0;

		free(r->kept_ids);
		r->kept_ids = malloc(((size_t)r->nr_types + 1) * sizeof(*r->kept_ids));
		if (!r->kept_ids)
			return -1;
		for (uint32_t id = 1; id <= r->nr_types; id++)
			if (id >= r->cap_final || !r->final_ids[id])
				r->kept_ids[n++] = id;
		r->nr_kept_ids = n;
	}
	return 0;
}

int btf_raw_str(struct btf_raw *r, const char *s, uint32_t *ref)
{
	long e;

	*ref = 0;
	if (!s || !*s)
		return 0;
	e = btf_strtab_append_cstr(&r->strs, s);
	if (e < 0)
		return -ENOMEM;
	*ref = (uint32_t)e + 1;
	return 0;
}

/* Room for N more words at r->words + r->len, or NULL. */
static inline __attribute__((always_inline)) uint32_t *room(struct btf_raw *r, size_t n)
{
	return grow_u32(&r->words, &r->cap, r->len + n) ? NULL : r->words + r->len;
}


static inline __attribute__((always_inline)) int add_fix(struct btf_raw *r, size_t word, bool is_str)
{
	if (word > UINT32_MAX >> 1)
		return -E2BIG;
	if (grow_u32(&r->fix, &r->cap_fix, r->nr_fix + 1))
		return -ENOMEM;
	r->fix[r->nr_fix++] = (uint32_t)(word << 1) | is_str;
	return 0;
}

/* Word I of the record being written (at r->len) holds string S. */
static inline __attribute__((always_inline)) int put_str(struct btf_raw *r, size_t i, const char *s)
{
	uint32_t ref;

	if (btf_raw_str(r, s, &ref))
		return -ENOMEM;
	r->words[r->len + i] = ref;
	return ref ? add_fix(r, r->len + i, true) : 0;
}

/* Word I of the record being written holds type id ID. */
static inline __attribute__((always_inline)) int put_id(struct btf_raw *r, size_t i, uint32_t id)
{
	r->words[r->len + i] = id;
	return id ? add_fix(r, r->len + i, false) : 0;
}

/* A new type of N words is complete: its id. */
static int commit(struct btf_raw *r, size_t n)
{
	if (r->len + n > UINT32_MAX / 2 || r->nr_types >= MAX_TYPE_ID)
		return -E2BIG;
	if ((size_t)r->nr_types + 2 >= r->cap_types &&
	    grow_types(r, r->cap_types ? r->cap_types * 2 : 1024))
		return -ENOMEM;
	r->type_off[r->nr_types + 1] = (uint32_t)r->len;
	r->type_fix[r->nr_types + 1] = r->head_fix;
	r->indexed = false;
	r->last = r->len;
	r->len += n;
	return (int)++r->nr_types;
}

/* A member record of N words was appended to the last type: count it
 * (callers checked last_full()). */
static inline __attribute__((always_inline)) void grow_last(struct btf_raw *r, size_t n, bool kflag)
{
	uint32_t *info = &r->words[r->last + 1];

	*info = info_of(kind_of(*info), vlen_of(*info) + 1, kflag || kflag_of(*info));
	r->len += n;
	r->indexed = false;	/* the last type's end moved: btf_raw_index() again */
}

/* The last type has 65535 entries, all a record's vlen holds: one more
 * would carry into the kind (libbpf 1.1 lets it: pahole 1.24 then writes an
 * enum of 65537 values as one of 1). -E2BIG instead. */
static inline __attribute__((always_inline)) bool last_full(const struct btf_raw *r)
{
	return vlen_of(r->words[r->last + 1]) == 0xffff;
}

static inline __attribute__((always_inline)) bool last_is(const struct btf_raw *r, uint32_t kind)
{
	return r->nr_types && kind_of(r->words[r->last + 1]) == kind;
}

/* name_off, info, size_or_type (+ EXTRA words left to the caller) */
static inline __attribute__((always_inline)) int head(struct btf_raw *r, size_t extra, uint32_t kind, uint32_t kflag,
		const char *name, bool type_field, uint32_t val)
{
	if (!room(r, 3 + extra))
		return -ENOMEM;
	r->head_fix = (uint32_t)r->nr_fix;
	if (put_str(r, 0, name))
		return -ENOMEM;
	r->words[r->len + 1] = info_of(kind, 0, kflag);
	if (type_field)
		return put_id(r, 2, val);
	r->words[r->len + 2] = val;
	return 0;
}

int btf_raw_add_int(struct btf_raw *r, const char *name, size_t byte_sz, int encoding)
{
	if (!name || !name[0])
		return -EINVAL;
	if (!byte_sz || (byte_sz & (byte_sz - 1)) || byte_sz > 16)
		return -EINVAL;
	if (encoding & ~(BTF_INT_SIGNED | BTF_INT_CHAR | BTF_INT_BOOL))
		return -EINVAL;
	if (head(r, 1, BTF_KIND_INT, 0, name, false, (uint32_t)byte_sz))
		return -ENOMEM;
	r->words[r->len + 3] = ((uint32_t)encoding << 24) | (uint32_t)(byte_sz * 8);
	return commit(r, 4);
}

int btf_raw_add_placeholder(struct btf_raw *r, uint32_t final_id)
{
	int id;

	if (!final_id)
		return -EINVAL;
	if (head(r, 0, BTF_RAW_KIND_PLACEHOLDER, 0, NULL, false, final_id))
		return -ENOMEM;
	id = commit(r, 3);
	if (id < 0)
		return id;
	if ((size_t)id >= r->cap_final) {
		size_t cap = r->cap_final ? 2 * r->cap_final : 1024;
		uint32_t *p;

		while (cap <= (size_t)id)
			cap *= 2;
		p = realloc(r->final_ids, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		memset(p + r->cap_final, 0, (cap - r->cap_final) * sizeof(*p));
		r->final_ids = p;
		r->cap_final = cap;
	}
	r->final_ids[id] = final_id;
	return id;
}

int btf_raw_add_float(struct btf_raw *r, const char *name, size_t byte_sz)
{
	if (!name || !name[0])
		return -EINVAL;
	if (byte_sz != 2 && byte_sz != 4 && byte_sz != 8 && byte_sz != 12 && byte_sz != 16)
		return -EINVAL;
	if (head(r, 0, BTF_KIND_FLOAT, 0, name, false, (uint32_t)byte_sz))
		return -ENOMEM;
	return commit(r, 3);
}

static int add_ref_kind(struct btf_raw *r, uint32_t kind, uint32_t kflag, const char *name, int ref)
{
	if (ref < 0)
		return -EINVAL;
	if (head(r, 0, kind, kflag, name, true, (uint32_t)ref))
		return -ENOMEM;
	return commit(r, 3);
}

int btf_raw_add_ptr(struct btf_raw *r, int ref_type_id)
{
	return add_ref_kind(r, BTF_KIND_PTR, 0, NULL, ref_type_id);
}

int btf_raw_add_const(struct btf_raw *r, int ref_type_id)
{
	return add_ref_kind(r, BTF_KIND_CONST, 0, NULL, ref_type_id);
}

int btf_raw_add_volatile(struct btf_raw *r, int ref_type_id)
{
	return add_ref_kind(r, BTF_KIND_VOLATILE, 0, NULL, ref_type_id);
}

int btf_raw_add_restrict(struct btf_raw *r, int ref_type_id)
{
	return add_ref_kind(r, BTF_KIND_RESTRICT, 0, NULL, ref_type_id);
}

int btf_raw_add_typedef(struct btf_raw *r, const char *name, int ref_type_id)
{
	if (!name || !name[0])
		return -EINVAL;
	return add_ref_kind(r, BTF_KIND_TYPEDEF, 0, name, ref_type_id);
}

int btf_raw_add_type_tag(struct btf_raw *r, const char *value, int ref_type_id)
{
	if (!value || !value[0])
		return -EINVAL;
	return add_ref_kind(r, BTF_KIND_TYPE_TAG, 0, value, ref_type_id);
}

static int add_enum_common(struct btf_raw *r, const char *name, uint32_t byte_sz,
			   bool is_signed, uint32_t kind)
{
	if (!byte_sz || (byte_sz & (byte_sz - 1)) || byte_sz > 8)
		return -EINVAL;
	if (head(r, 0, kind, is_signed, name, false, byte_sz))
		return -ENOMEM;
	return commit(r, 3);
}

int btf_raw_add_fwd(struct btf_raw *r, const char *name, int fwd_kind)
{
	if (!name || !name[0])
		return -EINVAL;
	switch (fwd_kind) {
	case BTF_FWD_STRUCT:
	case BTF_FWD_UNION:
		return add_ref_kind(r, BTF_KIND_FWD, fwd_kind == BTF_FWD_UNION, name, 0);
	case BTF_FWD_ENUM:
		/* libbpf: an enum forward is a 4-byte enum without values */
		return add_enum_common(r, name, 4, false, BTF_KIND_ENUM);
	default:
		return -EINVAL;
	}
}

static int add_composite(struct btf_raw *r, uint32_t kind, const char *name, uint32_t byte_sz)
{
	if (head(r, 0, kind, 0, name, false, byte_sz))
		return -ENOMEM;
	return commit(r, 3);
}

int btf_raw_add_struct(struct btf_raw *r, const char *name, uint32_t byte_sz)
{
	return add_composite(r, BTF_KIND_STRUCT, name, byte_sz);
}

int btf_raw_add_union(struct btf_raw *r, const char *name, uint32_t byte_sz)
{
	return add_composite(r, BTF_KIND_UNION, name, byte_sz);
}

int btf_raw_add_field(struct btf_raw *r, const char *name, int type_id,
		      uint32_t bit_offset, uint32_t bit_size)
{
	bool is_bitfield, is_union = last_is(r, BTF_KIND_UNION);

	if (!is_union && !last_is(r, BTF_KIND_STRUCT))
		return -EINVAL;
	if (type_id < 0)
		return -EINVAL;
	if (last_full(r))
		return -E2BIG;
	is_bitfield = bit_size || (bit_offset % 8 != 0);
	if (is_bitfield && (bit_size == 0 || bit_size > 255 || bit_offset > 0xffffff))
		return -EINVAL;
	if (is_union && bit_offset)
		return -EINVAL;
	if (!room(r, 3) || put_str(r, 0, name) || put_id(r, 1, (uint32_t)type_id))
		return -ENOMEM;
	r->words[r->len + 2] = bit_offset | (bit_size << 24);
	grow_last(r, 3, is_bitfield);
	return 0;
}

int btf_raw_add_enum(struct btf_raw *r, const char *name, uint32_t byte_sz)
{
	return add_enum_common(r, name, byte_sz, false, BTF_KIND_ENUM);
}

int btf_raw_add_enum_value(struct btf_raw *r, const char *name, int64_t value)
{
	if (!last_is(r, BTF_KIND_ENUM))
		return -EINVAL;
	if (!name || !name[0])
		return -EINVAL;
	if (value < INT32_MIN || value > UINT32_MAX || last_full(r))
		return -E2BIG;
	if (!room(r, 2) || put_str(r, 0, name))
		return -ENOMEM;
	r->words[r->len + 1] = (uint32_t)value;
	/* a negative value makes the enum signed */
	grow_last(r, 2, value < 0);
	return 0;
}

int btf_raw_add_enum64(struct btf_raw *r, const char *name, uint32_t byte_sz, bool is_signed)
{
	return add_enum_common(r, name, byte_sz, is_signed, BTF_KIND_ENUM64);
}

int btf_raw_add_enum64_value(struct btf_raw *r, const char *name, uint64_t value)
{
	if (!last_is(r, BTF_KIND_ENUM64))
		return -EINVAL;
	if (!name || !name[0])
		return -EINVAL;
	if (last_full(r))
		return -E2BIG;
	if (!room(r, 3) || put_str(r, 0, name))
		return -ENOMEM;
	r->words[r->len + 1] = (uint32_t)value;
	r->words[r->len + 2] = (uint32_t)(value >> 32);
	grow_last(r, 3, false);
	return 0;
}

int btf_raw_add_array(struct btf_raw *r, int index_type_id, int elem_type_id, uint32_t nr_elems)
{
	if (index_type_id < 0 || elem_type_id < 0)
		return -EINVAL;
	if (head(r, 3, BTF_KIND_ARRAY, 0, NULL, false, 0) ||
	    put_id(r, 3, (uint32_t)elem_type_id) || put_id(r, 4, (uint32_t)index_type_id))
		return -ENOMEM;
	r->words[r->len + 5] = nr_elems;
	return commit(r, 6);
}

int btf_raw_add_func_proto(struct btf_raw *r, int ret_type_id)
{
	if (ret_type_id < 0)
		return -EINVAL;
	if (head(r, 0, BTF_KIND_FUNC_PROTO, 0, NULL, true, (uint32_t)ret_type_id))
		return -ENOMEM;
	return commit(r, 3);
}

int btf_raw_add_func_param(struct btf_raw *r, const char *name, int type_id)
{
	if (type_id < 0)
		return -EINVAL;
	if (!last_is(r, BTF_KIND_FUNC_PROTO))
		return -EINVAL;
	if (last_full(r))
		return -E2BIG;
	if (!room(r, 2) || put_str(r, 0, name) || put_id(r, 1, (uint32_t)type_id))
		return -ENOMEM;
	grow_last(r, 2, false);
	return 0;
}

int btf_raw_add_var(struct btf_raw *r, const char *name, int linkage, int type_id)
{
	if (!name || !name[0])
		return -EINVAL;
	if (linkage != BTF_VAR_STATIC && linkage != BTF_VAR_GLOBAL_ALLOCATED &&
	    linkage != BTF_VAR_GLOBAL_EXTERN)
		return -EINVAL;
	if (type_id < 0)
		return -EINVAL;
	if (head(r, 1, BTF_KIND_VAR, 0, name, true, (uint32_t)type_id))
		return -ENOMEM;
	r->words[r->len + 3] = (uint32_t)linkage;
	return commit(r, 4);
}

int btf_raw_add_decl_tag(struct btf_raw *r, const char *value, int ref_type_id,
			 int component_idx)
{
	if (!value || !value[0] || component_idx < -1)
		return -EINVAL;
	if (ref_type_id < 0)
		return -EINVAL;
	if (head(r, 1, BTF_KIND_DECL_TAG, 0, value, true, (uint32_t)ref_type_id))
		return -ENOMEM;
	r->words[r->len + 3] = (uint32_t)component_idx;
	return commit(r, 4);
}
