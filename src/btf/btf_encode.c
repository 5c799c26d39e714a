// SPDX-License-Identifier: GPL-2.0-only
/*
 * The BTF encoder: one CU's model into a fragment (in a worker), fragments
 * merged in CU order, then functions, DATASECs and dedup. See btf_encode.h.
 */
#define _GNU_SOURCE		/* qsort_r */
#include "btf/btf_encode.h"

#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "btf/btf_hash.h"
#include "btf/btf_model_keys.h"
#include "btf/btf_model_view.h"
#include "dwarf/dw_const.h"
#include "load/load.h"
#include "pipeline/pool.h"
#include "util/name_sort.h"
#include "util/strbuf.h"

#define PERCPU_SECTION ".data..percpu"
#define KSYM_NAME_LEN 128

static double now_s(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

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

/* ---- context ---- */

/* A seed no input can predict (getrandom; failing that, the clock and
 * the addresses of this run). */
static uint64_t random_seed(void)
{
	uint64_t seed = 0;
	struct timespec ts;

	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) == (ssize_t)sizeof(seed))
		return seed;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	seed = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^ (uint64_t)ts.tv_sec;
	return seed ^ (uint64_t)(uintptr_t)&seed ^ (uint64_t)getpid() << 32;
}

/* The name order of indexes into the symbol table; ties by index, so a
 * search finds the first match in table order, as a scan would. */
static int obj_name_cmp(const void *a, const void *b, void *arg)
{
	const struct elf_symbol *syms = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = strcmp(syms[x].name, syms[y].name);

	if (c)
		return c;
	return x < y ? -1 : x > y;
}

static const char *sym_name(void *ctx, uint32_t idx)
{
	const struct elf_symbol *syms = ctx;

	return syms[idx].name;
}

static void idx_of_ents(uint32_t *to, const struct name_sort_ent *e, size_t n)
{
	for (size_t i = 0; i < n; i++)
		to[i] = e[i].idx;
}

static int index_objects(struct btf_encode_ctx *ctx)
{
	struct name_sort_ent *e;
	size_t n = 0;

	for (long i = 0; i < ctx->nr_syms; i++)
		n += ctx->syms[i].type == STT_OBJECT;
	ctx->obj_by_value = malloc((n ? n : 1) * sizeof(*ctx->obj_by_value));
	ctx->obj_by_name = malloc((n ? n : 1) * sizeof(*ctx->obj_by_name));
	if (!ctx->obj_by_value || !ctx->obj_by_name)
		return -1;
	n = 0;
	for (long i = 0; i < ctx->nr_syms && i <= UINT32_MAX; i++)
		if (ctx->syms[i].type == STT_OBJECT)
			ctx->obj_by_value[n] = ctx->obj_by_name[n] = (uint32_t)i, n++;
	ctx->nr_obj = n;
	/* radix sorts (qsort() here took 9 ms of the serial start): by
	 * value, stably from table order (so ties by index); by name, ties
	 * by index */
	e = malloc((n ? n : 1) * sizeof(*e));
	if (!e)
		return -1;
	for (size_t i = 0; i < n; i++) {
		e[i].key = ctx->syms[ctx->obj_by_value[i]].value;
		e[i].idx = ctx->obj_by_value[i];
	}
	if (sort_by_u64(e, n)) {
		free(e);
		return -1;
	}
	idx_of_ents(ctx->obj_by_value, e, n);
	if (name_sort(e, n, sym_name, obj_name_cmp, (void *)ctx->syms)) {
		free(e);
		return -1;
	}
	idx_of_ents(ctx->obj_by_name, e, n);
	free(e);
	return 0;
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

/*
 * What the ELF symbols give the context (ARG): the symbols, the functions'
 * table, the objects' indexes. It writes no other field of the context and
 * reads only the file's symbol table and sections (libelf), which nothing
 * else reads meanwhile: it may run beside the census (encode_file()).
 * 0, or -1 with err set (the caller deinits the context).
 */
static int ctx_read_symbols(void *arg, struct d2b_error *err)
{
	struct btf_encode_ctx *ctx = arg;
	const struct btf_features *f = ctx->features;

	ctx->nr_syms = elf_file_symbols(ctx->elf, &ctx->syms, err);
	if (ctx->nr_syms < 0) {
		/* no symbol table: no functions, no variable checks */
		if (err)
			d2b_error_clear(err);
		ctx->nr_syms = 0;
		ctx->syms = NULL;
	} else if (btf_elf_funcs_init(&ctx->funcs, ctx->elf, f->decl_tag_kfuncs && f->decl_tag,
				      err)) {
		return -1;
	}
	if (index_objects(ctx))
		return d2b_error_oom(err);
	return 0;
}

/* The context but for what ctx_read_symbols() adds. */
static int ctx_init_early(struct btf_encode_ctx *ctx, struct elf_file *ef,
			  const struct btf_encode_options *opts, struct d2b_error *err)
{
	const struct btf_features *f = &opts->features;
	size_t n = elf_file_section_count(ef);

	memset(ctx, 0, sizeof(*ctx));
	ctx->features = f;
	ctx->elf = ef;
	ctx->verbose = opts->verbose;
	ctx->log = opts->log;
	ctx->log_ctx = opts->log_ctx;
	btf_cc_for_machine(elf_file_machine(ef), &ctx->cc);
	ctx->str_seed = random_seed();
	ctx->sections = calloc(n ? n : 1, sizeof(*ctx->sections));
	if (!ctx->sections)
		return d2b_error_oom(err);
	ctx->nr_sections = n;
	for (size_t i = 0; i < n; i++) {
		const struct elf_section *s = elf_file_section_at(ef, i);
		struct btf_enc_section *e = &ctx->sections[i];

		if (!s)
			continue;
		e->name = s->name;
		e->addr = s->addr;
		e->size = s->file_size;
		e->type = s->type;
		if (f->global_var)
			e->include = true;
		if (f->var && !strcmp(s->name, PERCPU_SECTION))
			e->include = true;
	}
	return 0;
}

void btf_encode_ctx_deinit(struct btf_encode_ctx *ctx)
{
	btf_elf_funcs_deinit(&ctx->funcs);
	free(ctx->obj_by_value);
	free(ctx->obj_by_name);
	ctx->obj_by_value = ctx->obj_by_name = NULL;
	free(ctx->sections);
	ctx->sections = NULL;
	ctx->nr_sections = 0;
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
#define KEPT_BYTES_EXACT 193	/* .debug_info bytes a type the merge keeps */
#define KEPT_BYTES_CUT 1000	/* the same with cut keys (vmlinux: 1,380) */
#define STRS_BESIDE_THREADS 4	/* from this -j on, strings beside the turn */

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
	free(e.keys);
	free(e.skip);
	free(e.tag_keys);
	free(e.pending);
	free(e.tagged);
	free(e.ids);
	free(e.extra);
	return frag;
fail:
	free(e.keys);
	free(e.skip);
	free(e.tag_keys);
	free(e.pending);
	free(e.tagged);
	free(e.ids);
	free(e.extra);
	btf_fragment_destroy(frag);
	return NULL;
}

/* ---- the whole file ---- */

/* ---- check_model_keys: the model's keys against the records' ----
 *
 * Every model key seen maps to the record key its first type had; a later
 * type with that model key and another record key means the model's keys
 * joined two types the records tell apart: an error. The record keys seen
 * are counted, for what the records' keys would have dropped. */

struct key_pair {
	struct btf_key model, record;
};

struct key_check {
	struct key_pair *pairs;		/* by model key; model {0,0}: empty */
	size_t mask, nr;
	struct btf_key *records;	/* a set */
	size_t rmask, rnr;
	size_t record_repeats;
};

static void key_check_free(struct key_check *c)
{
	if (!c)
		return;
	free(c->pairs);
	free(c->records);
	free(c);
}

static bool key_eq(const struct btf_key *a, const struct btf_key *b)
{
	return a->lo == b->lo && a->hi == b->hi;
}

/* Doubles a table of N entries of SIZE bytes (key at offset 0) when half
 * full. 0 or -1. */
static int check_grow(void **tab, size_t *mask, size_t nr, size_t size)
{
	size_t cap = *tab ? (*mask + 1) * 2 : 1024;
	char *nt, *old = *tab;

	if (*tab && nr * 2 < *mask + 1)
		return 0;
	nt = calloc(cap, size);
	if (!nt)
		return -1;
	for (size_t i = 0; old && i <= *mask; i++) {
		const struct btf_key *k = (const void *)(old + i * size);
		size_t j = k->lo & (cap - 1);

		if (key_none(k))
			continue;
		while (!key_none((const void *)(nt + j * size)))
			j = (j + 1) & (cap - 1);
		memcpy(nt + j * size, k, size);
	}
	free(old);
	*tab = nt;
	*mask = cap - 1;
	return 0;
}

static int key_check_add(struct key_check *c, const struct btf_key *model,
			 const struct btf_key *record, bool *coarser)
{
	size_t j;

	*coarser = false;
	if (key_none(record))
		return 0;
	if (check_grow((void **)&c->records, &c->rmask, c->rnr, sizeof(*c->records)))
		return -1;
	for (j = record->lo & c->rmask; !key_none(&c->records[j]); j = (j + 1) & c->rmask)
		if (key_eq(&c->records[j], record))
			break;
	if (key_none(&c->records[j])) {
		c->records[j] = *record;
		c->rnr++;
	} else {
		c->record_repeats++;
	}
	if (key_none(model))
		return 0;
	if (check_grow((void **)&c->pairs, &c->mask, c->nr, sizeof(*c->pairs)))
		return -1;
	for (j = model->lo & c->mask; !key_none(&c->pairs[j].model); j = (j + 1) & c->mask)
		if (key_eq(&c->pairs[j].model, model)) {
			*coarser = !key_eq(&c->pairs[j].record, record);
			return 0;
		}
	c->pairs[j].model = *model;
	c->pairs[j].record = *record;
	c->nr++;
	return 0;
}

struct file_enc {
	const struct btf_encode_ctx *ctx;
	const struct dw_file *df;
	const struct btf_encode_options *opts;
	struct load_options load;
	const size_t *units;
	struct btf_merge merge;		/* the fragments, in CU order */
	struct btf *btf;		/* then the global libbpf btf */
	struct btf_func_set funcs;
	struct btf_var_sec *vars;
	size_t nr_vars, cap_vars;
	struct btf_encode_stats *stats;
	struct btf_encode_seen seen;	/* for the workers: the merge so far */
	struct key_check *check;	/* check_model_keys */
	/* the consumed units' DWARF, read: its pages need not stay in our RSS */
	struct dw_release release;
	/* each pool thread's copy of the unit it loads (the model, which may
	 * point into it, is gone when produce() returns) */
	struct dw_unit_buf *unit_bufs;
};

static long peak_rss_kb(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) ? -1 : ru.ru_maxrss;
}

static int produce(void *arg, size_t item, unsigned thread, void **result,
		   struct d2b_error *err)
{
	struct file_enc *fe = arg;
	size_t unit = fe->units[item];
	double t0 = now_s(CLOCK_THREAD_CPUTIME_ID);
	struct btf_fragment *frag;
	struct cu_model *cu = load_cu(fe->df, unit, &fe->load, &fe->unit_bufs[thread], err);

	if (!cu)
		return d2b_error_at(err, fe->df->path, ".debug_info", fe->df->units[unit].offset,
				    "cannot load unit %zu", unit);
	if (btf_features_lang_excluded(&fe->opts->features, cu->language)) {
		frag = calloc(1, sizeof(*frag));
		if (frag)
			frag->excluded = true;
		else
			d2b_error_oom(err);
	} else {
		frag = btf_encode_cu(fe->ctx, cu, fe->merge.prededup ? &fe->seen : NULL, err);
	}
	if (frag)
		frag->loc_hi = cu->loc_hi;
	cu_model_destroy(cu);
	if (!frag)
		return -1;
	if (!frag->excluded && !fe->opts->no_prededup &&
	    (btf_raw_index(&frag->raw) ||
	     (fe->check && btf_keys_compute(&frag->raw, &frag->record_keys)))) {
		btf_fragment_destroy(frag);
		return d2b_error_oom(err);
	}
	/* its strings that earlier units' merges interned: their offsets
	 * now, beside the merge's turns, not in them */
	if (!frag->excluded && fe->merge.sview) {
		long found = btf_merge_resolve_strs(&fe->merge, &frag->raw);

		if (found < 0) {
			btf_fragment_destroy(frag);
			return d2b_error_oom(err);
		}
		frag->strs_resolved = (size_t)found;
	}
	frag->cpu_s = now_s(CLOCK_THREAD_CPUTIME_ID) - t0;
	*result = frag;
	return 0;
}

/* FROM's candidates, just merged (RAW their fragment): local ids and
 * string refs become final through M. */
static int merge_funcs(struct btf_func_set *to, const struct btf_func_set *from,
		       struct btf_merge *m, const struct btf_raw *raw, struct d2b_error *err)
{
	for (size_t i = 0; i < from->nr_cands; i++) {
		const struct btf_func_cand *fc = &from->cands[i];
		struct btf_func_cand *c = btf_func_set_add(to, fc->nr_params, fc->nr_annots);

		if (!c)
			return d2b_error_oom(err);
		c->elf_idx = fc->elf_idx;
		c->flags = fc->flags;
		c->ret = fc->ret ? m->tmap[fc->ret] : 0;
		for (uint32_t k = 0; k < fc->nr_params; k++) {
			const struct btf_func_param *fp = &from->params[fc->first_param + k];
			struct btf_func_param *p = &to->params[c->first_param + k];
			long off = btf_merge_str(m, raw, fp->name_off, err);

			if (off < 0)
				return -1;
			p->type = fp->type ? m->tmap[fp->type] : 0;
			p->name_off = (uint32_t)off;
		}
		for (uint32_t k = 0; k < fc->nr_annots; k++) {
			const struct btf_func_annot *fa = &from->annots[fc->first_annot + k];
			struct btf_func_annot *a = &to->annots[c->first_annot + k];
			long off = btf_merge_str(m, raw, fa->value_off, err);

			if (off < 0)
				return -1;
			a->component = fa->component;
			a->value_off = (uint32_t)off;
		}
	}
	return 0;
}

static int consume(void *arg, size_t item, void *result, struct d2b_error *err)
{
	struct file_enc *fe = arg;
	struct btf_fragment *frag = result;
	double t0 = now_s(CLOCK_MONOTONIC);
	int rc = 0;

	dw_release_consumed(&fe->release, &fe->df->units[fe->units[item]], frag->loc_hi);
	fe->stats->worker_s += frag->cpu_s;
	fe->stats->cus++;
	if (frag->excluded) {
		fe->stats->cus_excluded++;
		goto out;
	}
	if (fe->check && frag->raw.keys && frag->record_keys) {
		for (uint32_t id = 1; id <= frag->raw.nr_types; id++) {
			bool coarser;

			if (key_check_add(fe->check, &frag->raw.keys[id], &frag->record_keys[id],
					  &coarser)) {
				rc = d2b_error_oom(err);
				goto out;
			}
			if (coarser) {
				fe->stats->check_failed = true;
				rc = d2b_error_set(err, "%s: unit %zu: type %u has the model key of "
						   "an earlier type but another record key",
						   fe->df->path, fe->units[item], id);
				goto out;
			}
		}
	}
	fe->stats->types_skipped += frag->nr_skipped;
	fe->stats->strs += frag->raw.strs.nr;
	fe->stats->strs_resolved += frag->strs_resolved;
	if (btf_merge_add(&fe->merge, &frag->raw, err)) {
		rc = d2b_error_set(err, "%s: cannot merge the BTF of unit %zu",
				   fe->df->path, fe->units[item]);
		goto out;
	}
	if (merge_funcs(&fe->funcs, &frag->funcs, &fe->merge, &frag->raw, err)) {
		rc = -1;
		goto out;
	}
	if (frag->nr_vars) {
		size_t want = fe->nr_vars + frag->nr_vars;

		if (want > fe->cap_vars) {
			size_t ncap = fe->cap_vars ? fe->cap_vars : 64;
			void *p;

			while (ncap < want)
				ncap *= 2;
			p = realloc(fe->vars, ncap * sizeof(*fe->vars));
			if (!p) {
				rc = d2b_error_oom(err);
				goto out;
			}
			fe->vars = p;
			fe->cap_vars = ncap;
		}
		for (size_t i = 0; i < frag->nr_vars; i++) {
			fe->vars[fe->nr_vars] = frag->vars[i];
			fe->vars[fe->nr_vars].var_id = fe->merge.tmap[frag->vars[i].var_id];
			fe->nr_vars++;
		}
	}
out:
	btf_fragment_destroy(frag);
	fe->stats->merge_s += now_s(CLOCK_MONOTONIC) - t0;
	return rc;
}

static void unit_bufs_free(struct file_enc *fe, unsigned threads)
{
	for (unsigned i = 0; fe->unit_bufs && i < threads; i++)
		dw_unit_buf_free(&fe->unit_bufs[i]);
	free(fe->unit_bufs);
	fe->unit_bufs = NULL;
}

static void discard(void *arg, void *result)
{
	btf_fragment_destroy(result);
}

/* After a thread's merging: the dedup's first phases on what it merged,
 * while the next unit is merged on another thread. */
static int follow(void *arg, struct d2b_error *err)
{
	struct file_enc *fe = arg;

	(void)err;
	btf_merge_follow(&fe->merge);
	return 0;
}

static int var_sec_cmp(const void *x, const void *y)
{
	const struct btf_var_sec *a = x, *b = y;

	if (a->shndx != b->shndx)
		return a->shndx < b->shndx ? -1 : 1;
	if (a->offset != b->offset)
		return a->offset < b->offset ? -1 : 1;
	/* stable: merge order */
	return a < b ? -1 : a > b;
}

/* The DATASECs of the variables: into the merge (DIRECT) or fe->btf. */
static int add_datasecs(struct file_enc *fe, bool direct, struct d2b_error *err)
{
	size_t i = 0, j;

	if (fe->nr_vars)	/* vars may be NULL: qsort(NULL, 0) is UB */
		qsort(fe->vars, fe->nr_vars, sizeof(*fe->vars), var_sec_cmp);
	for (; i < fe->nr_vars; i = j) {
		const struct btf_var_sec *last;
		int id;

		for (j = i; j < fe->nr_vars && fe->vars[j].shndx == fe->vars[i].shndx; j++)
			;
		last = &fe->vars[j - 1];
		id = direct ? btf_merge_add_datasec(&fe->merge,
						    fe->ctx->sections[fe->vars[i].shndx].name,
						    last->offset + last->size)
			    : btf__add_datasec(fe->btf, fe->ctx->sections[fe->vars[i].shndx].name,
					       last->offset + last->size);
		if (id < 0)
			return d2b_error_set(err, "cannot add DATASEC %s (libbpf error %d)",
					     fe->ctx->sections[fe->vars[i].shndx].name, id);
		for (size_t k = i; k < j; k++) {
			const struct btf_var_sec *v = &fe->vars[k];
			int rc = direct ? btf_merge_add_datasec_var_info(&fe->merge, v->var_id,
									 v->offset, v->size)
					: btf__add_datasec_var_info(fe->btf, v->var_id, v->offset,
								    v->size);

			if (rc < 0)
				return d2b_error_set(err, "cannot add variable to DATASEC %s (libbpf error %d)",
						     fe->ctx->sections[v->shndx].name, rc);
		}
	}
	return 0;
}

static bool unit_wanted(const struct dw_unit *u)
{
	return u->section == DW_SEC_INFO && u->unit_type != DW_UT_type &&
	       u->unit_type != DW_UT_split_type;
}

/* ---- the functions, into the merge or into libbpf ---- */

static const struct btf_type *merge_type_by_id(void *ctx, uint32_t id)
{
	return btf_merge_type_by_id(ctx, id);
}

static const char *merge_str(void *ctx, uint32_t off)
{
	return btf_merge_str_at(ctx, off);
}

static int merge_add_func_proto(void *ctx, int ret)
{
	return btf_merge_add_func_proto(ctx, ret);
}

static int merge_add_func_param(void *ctx, const char *name, int type)
{
	return btf_merge_add_func_param(ctx, name, type);
}

static int merge_add_func_param_at(void *ctx, uint32_t name_off, int type)
{
	return btf_merge_add_func_param_at(ctx, name_off, type);
}

static int merge_add_func(void *ctx, const char *name, int linkage, int proto)
{
	return btf_merge_add_func(ctx, name, linkage, proto);
}

static int merge_add_decl_tag(void *ctx, const char *value, int ref, int component)
{
	return btf_merge_add_decl_tag(ctx, value, ref, component);
}

/* Choose and add the functions: into the merge (DIRECT) or fe->btf. */
static int emit_functions(struct file_enc *fe, const struct btf_encode_ctx *ctx, bool direct,
			  struct btf_funcs_result *fr, struct btf_encode_stats *stats,
			  struct d2b_error *err)
{
	const struct btf_encode_options *opts = fe->opts;
	struct btf_funcs_sink sink;
	double t0 = now_s(CLOCK_MONOTONIC);

	if (direct)
		sink = (struct btf_funcs_sink){
			.ctx = &fe->merge, .type_by_id = merge_type_by_id, .str = merge_str,
			.add_func_proto = merge_add_func_proto,
			.add_func_param = merge_add_func_param,
			.add_func_param_at = merge_add_func_param_at,
			.add_func = merge_add_func, .add_decl_tag = merge_add_decl_tag,
		};
	else
		btf_funcs_libbpf_sink(&sink, fe->btf);
	if (btf_funcs_emit(&sink, &fe->funcs, &ctx->funcs, &opts->features,
			   opts->verbose ? opts->log : NULL, opts->log_ctx, fr, err))
		return -1;
	stats->funcs_encoded = fr->encoded;
	stats->funcs_skipped = fr->skipped;
	stats->funcs_s = now_s(CLOCK_MONOTONIC) - t0;
	return 0;
}

unsigned btf_encode_threads_for(const struct btf_encode_options *opts, uint64_t info_bytes)
{
	unsigned threads = opts->threads ? opts->threads : 1;
	uint64_t fit;

	if (!opts->thread_bytes)
		return threads;
	fit = (info_bytes + opts->thread_bytes / 2) / opts->thread_bytes;
	if (fit < threads)
		threads = fit ? (unsigned)fit : 1;
	return threads;
}

unsigned btf_encode_threads(const struct dw_file *df, const struct btf_encode_options *opts)
{
	uint64_t info_bytes = 0;

	for (size_t i = 0; i < df->nr_units; i++)
		if (unit_wanted(&df->units[i]))
			info_bytes += df->units[i].end - df->units[i].offset;
	return btf_encode_threads_for(opts, info_bytes);
}

bool btf_encode_bytes_ok(const struct elf_file *ef, const struct btf_encode_options *opts)
{
	/* the bytes are this machine's order; no libbpf call on the way */
	return !opts->no_prededup && !opts->libbpf_dedup &&
	       elf_file_is_little_endian(ef) == (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__);
}

/* btf_encode_file() (OUT not NULL: the result as libbpf's) or
 * btf_encode_file_bytes() (BYTES not NULL: without libbpf, on VIEW). */
static int encode_file(struct elf_file *ef, const struct dw_file *df,
		       const struct btf_encode_options *opts, struct btf *base,
		       const struct btf_base_view *view, struct btf **out,
		       struct btf_encoded_bytes *bytes, struct btf_encode_stats *stats,
		       struct d2b_error *err)
{
	static const struct pool_ops ops = {
		.produce = produce, .consume = consume, .discard = discard,
		.follow = follow,
	};
	struct btf_encode_stats local_stats;
	struct btf_encode_ctx ctx;
	struct file_enc fe = { .df = df, .opts = opts };
	struct pool_stats ps = { 0 };
	struct btf_funcs_result fr;
	struct d2b_error dedup_err = { 0 };
	size_t *units = NULL, nr = 0;
	uint64_t info_bytes = 0;
	struct btf_cut_names *cut = NULL;
	struct pool_beside symbols = { 0 };
	double t0;
	unsigned threads = 0;
	bool direct;
	int rc, redo = 0;

	if (!stats)
		stats = &local_stats;
	memset(stats, 0, sizeof(*stats));
	fe.stats = stats;
	if (btf_features_check(&opts->features, base || view, err))
		return -1;
	if (bytes && !btf_encode_bytes_ok(ef, opts))
		return d2b_error_set(err, "%s: this encoding goes through libbpf: its base must be parsed by libbpf",
				     elf_file_path(ef));
	if (ctx_init_early(&ctx, ef, opts, err)) {
		btf_encode_ctx_deinit(&ctx);
		return -1;
	}
	fe.ctx = &ctx;
	dw_release_init(&fe.release, df);
	fe.load.skip_line_files = true;
	fe.load.skip_plain_blocks = true;
	units = malloc((df->nr_units ? df->nr_units : 1) * sizeof(*units));
	if (!units) {
		d2b_error_oom(err);
		goto fail;
	}
	for (size_t i = 0; i < df->nr_units; i++) {
		if (unit_wanted(&df->units[i])) {
			units[nr++] = i;
			info_bytes += df->units[i].end - df->units[i].offset;
		}
	}
	fe.units = units;
	threads = btf_encode_threads_for(opts, info_bytes);
	/* the ELF symbols (functions, objects), which the workers need, on a
	 * thread of their own until the pool starts: beside the census, on
	 * a core the start-up left idle. Serial, they took 13-39 ms of the
	 * vmlinux's start (2.9 MB of symbols, ~10 MB of fresh memory) */
	pool_beside_start(&symbols, threads > 1, ctx_read_symbols, &ctx);
	if (!symbols.running && pool_beside_join(&symbols, err))
		goto fail;	/* it ran inline: no census for a file it refused */
	if (view ? btf_merge_init_view(&fe.merge, view, err) : btf_merge_init(&fe.merge, base, err))
		goto fail;
	fe.merge.strs.seed = ctx.str_seed;	/* as the fragments' */
	fe.merge.prededup = !opts->no_prededup;
	/* our dedup reads final ids (libbpf's renumbers a block) */
	fe.merge.global_ids = fe.merge.prededup && !opts->libbpf_dedup;
	/* the workers skip what the merge has (btf_model_keys.h). Names by
	 * their place in .debug_str when the linker merged its strings (a
	 * linked file: one place a string); a relocatable file's (a module,
	 * ld -r: nfs.ko has 137 k strings, 13 k distinct) by content */
	if (elf_file_type(ef) != ET_REL && df->sec[DW_SEC_STR].data) {
		fe.seen.keys_in.str_lo = (const char *)df->sec[DW_SEC_STR].data;
		fe.seen.keys_in.str_hi = fe.seen.keys_in.str_lo + df->sec[DW_SEC_STR].size;
	}
	fe.seen.keys_in.seed = ctx.str_seed;
	fe.seen.merge = opts->check_model_keys ? NULL : &fe.merge;
	if (opts->check_model_keys && fe.merge.prededup) {
		fe.check = calloc(1, sizeof(*fe.check));
		if (!fe.check) {
			d2b_error_oom(err);
			goto fail;
		}
	}
	/* each thread's buffer for the unit it reads: the census's, then the
	 * workers' (its pages already there) */
	fe.unit_bufs = calloc(threads, sizeof(*fe.unit_bufs));
	if (!fe.unit_bufs) {
		d2b_error_oom(err);
		goto fail;
	}
	/* the cut keys (btf_cut_names.h): on our dedup's path only, which
	 * checks the result */
	if (btf_encode_may_cut(opts, base || view || bytes)) {
		if (opts->cut_names == BTF_CUT_ALL)
			cut = btf_cut_names_everywhere();
		else if (btf_cut_names_census(df, &fe.seen.keys_in, threads, fe.unit_bufs, &cut,
					      &stats->census, err))
			goto fail;
		if (opts->cut_names == BTF_CUT_ALL && !cut) {
			d2b_error_oom(err);
			goto fail;
		}
		fe.seen.keys_in.cut = cut;
		stats->cut = cut != NULL;
		/* a read of the DWARF: decoding's CPU */
		stats->worker_s += stats->census.cpu_s;
		/* the line tables were read for the census alone (their
		 * file names): their pages need not stay in our RSS (the
		 * vmlinux's 16 MB of them) */
		dw_release_below(&fe.release, DW_SEC_LINE, df->sec[DW_SEC_LINE].size);
	}
	/* the key table, sized once for the types the merge will keep: about
	 * one per 193 bytes of a vmlinux's .debug_info with exact keys (845 k
	 * of 163 MB), one per 1,380 with cut keys (118 k), for which one per
	 * 1,000 leaves room (a module keeps more a byte, but its table is
	 * small anyway, and it grows if need be). A table sized for exact
	 * keys was 19 MiB of fresh pages to clear, which the cut keys fill to
	 * a seventh; probed at random by every worker */
	if (fe.merge.prededup &&
	    btf_merge_expect_types(&fe.merge, info_bytes / (cut ? KEPT_BYTES_CUT : KEPT_BYTES_EXACT))) {
		d2b_error_oom(err);
		goto fail;
	}
	/* with threads, our dedup's first phases unit by unit in the
	 * follower's turns (follow()), beside the encoding and the merging of
	 * the later units (they were 0.15 of the 0.2 s that the dedup after
	 * the pool took); not with libbpf's, which runs after the merge, all
	 * of it */
	if (threads > 1 && !opts->libbpf_dedup)
		(void)btf_merge_dedup_early(&fe.merge);
	/* with enough threads for the ordered turns to bound the run, the
	 * workers resolve their fragments' strings against those merged so
	 * far (the merge's interning was a third of its turns' instructions);
	 * ~1 string for 1,700 bytes of the kernel's .debug_info. Not below
	 * STRS_BESIDE_THREADS: with two or three every core is busy anyway,
	 * and the lookups cost the workers more than they save the turns
	 * (-j2 on two cores: worker CPU +5%, wall +3%, turns -39%). Best
	 * effort: without it the merge interns them all. */
	if (threads >= STRS_BESIDE_THREADS && !opts->no_prededup)
		(void)btf_merge_publish_strs(&fe.merge, info_bytes / 1700);

	if (pool_beside_join(&symbols, err))
		goto fail;
	t0 = now_s(CLOCK_MONOTONIC);
	/* a window of 4 fragments a worker (the pool's default is 2 items a
	 * thread): a long unit then stalls the others less while the merge
	 * waits for it in order (vmlinux -j2: pool 0.81 -> 0.77 s; 8, 16 or
	 * 32 slots alike; fragments are small, the units' models are freed
	 * by the workers: peak RSS +1 MiB) */
	rc = pool_run(nr, threads, opts->window ? opts->window : 4 * (size_t)threads,
		      &ops, &fe, &ps, err);
	unit_bufs_free(&fe, threads);
	/* no worker reads the key table now and every fragment is merged:
	 * it goes, and the dedup reuses its memory */
	btf_merge_drop_keys(&fe.merge);
	btf_merge_drop_strs(&fe.merge);
	stats->parallel_s = now_s(CLOCK_MONOTONIC) - t0;
	stats->rss_parallel_kb = peak_rss_kb();
	stats->threads_started = ps.threads_started;
	stats->max_alive = ps.max_alive;
	if (rc)
		goto fail;
	/* The DWARF has been read: its pages need not count in the peak RSS
	 * of merge and dedup (symbols are re-read from the file if touched). */
	elf_file_release_pages(ef);

	/* With everything still one block, the functions go straight into
	 * the merge (no libbpf call per record); else into the libbpf btf. */
	direct = btf_merge_direct_ok(&fe.merge);
	if (direct && emit_functions(&fe, &ctx, true, &fr, stats, err))
		goto fail;
	stats->types_dropped = fe.merge.nr_dropped;
	if (fe.check)
		stats->check_record_repeats = fe.check->record_repeats;
	key_check_free(fe.check);
	fe.check = NULL;
	stats->vars = fe.nr_vars;

	if (direct && !opts->libbpf_dedup) {
		/* the DATASECs too, then our own dedup: libbpf only parses
		 * the result */
		t0 = now_s(CLOCK_MONOTONIC);
		if (add_datasecs(&fe, true, err))
			goto fail;
		stats->datasec_s = now_s(CLOCK_MONOTONIC) - t0;
		stats->types_before_dedup = btf_merge_nr_types(&fe.merge) +
					    (fe.merge.bview ? fe.merge.bview->nr_types : 0);
		stats->own_dedup = true;
		stats->rss_merged_kb = peak_rss_kb();
		t0 = now_s(CLOCK_MONOTONIC);
		if (bytes) {
			uint32_t own = 0;

			rc = btf_merge_finish_dedup_bytes(&fe.merge, &stats->dedup, &bytes->data,
							  &bytes->size, &own, &dedup_err);
			if (!rc)
				bytes->nr_types = own + (view ? view->nr_types : 0);
		} else {
			fe.btf = btf_merge_finish_dedup(&fe.merge, &stats->dedup, &dedup_err);
			rc = fe.btf ? 0 : -1;
		}
		if (rc) {
			d2b_error_set(err, "%s: %s", elf_file_path(ef), dedup_err.msg);
			goto fail;
		}
		if (cut) {
			const char *twice = NULL;
			uint32_t size = 0;
			const void *raw = btf__raw_data(fe.btf, &size);

			rc = raw ? btf_cut_names_check(cut, raw, size, &twice) : -1;
			if (rc < 0) {
				d2b_error_set(err, "%s: cannot check the BTF the cut keys gave",
					      elf_file_path(ef));
				goto fail;
			}
			if (rc) {
				/* a name defined twice that the keys may have
				 * cut: the encoding again, exact */
				snprintf(stats->cut_redo_name, sizeof(stats->cut_redo_name), "%s",
					 twice);
				redo = 1;
				goto fail;
			}
		}
	} else if (bytes) {
		d2b_error_set(err, "%s: the encoding went through libbpf: its base must be parsed by libbpf",
			      elf_file_path(ef));
		goto fail;
	} else {
		/* the merged fragments become one libbpf btf */
		t0 = now_s(CLOCK_MONOTONIC);
		fe.btf = btf_merge_finish(&fe.merge, err);
		if (!fe.btf)
			goto fail;
		stats->build_s = now_s(CLOCK_MONOTONIC) - t0;
		stats->merge_s += stats->build_s;
		stats->rss_merged_kb = peak_rss_kb();

		if (!direct && emit_functions(&fe, &ctx, false, &fr, stats, err))
			goto fail;

		t0 = now_s(CLOCK_MONOTONIC);
		if (add_datasecs(&fe, false, err))
			goto fail;
		stats->datasec_s = now_s(CLOCK_MONOTONIC) - t0;

		stats->types_before_dedup = btf__type_cnt(fe.btf) - 1;

		t0 = now_s(CLOCK_MONOTONIC);
		if (btf__type_cnt(fe.btf) > 1) {
			rc = btf__dedup(fe.btf, NULL);
			if (rc) {
				d2b_error_set(err, "%s: btf__dedup failed: %s", elf_file_path(ef),
					      rc == -ELOOP ? "the types refer to each other in a loop"
							   : strerror(-rc));
				goto fail;
			}
		}
	}
	stats->dedup_s = now_s(CLOCK_MONOTONIC) - t0;
	stats->rss_dedup_kb = peak_rss_kb();
	if (bytes) {
		/* (in this machine's byte order, the ELF's: checked above) */
		stats->types = bytes->nr_types;
	} else {
		stats->types = btf__type_cnt(fe.btf) - 1;
		if (!elf_file_is_little_endian(ef))
			btf__set_endianness(fe.btf, BTF_BIG_ENDIAN);
		else
			btf__set_endianness(fe.btf, BTF_LITTLE_ENDIAN);
		*out = fe.btf;
	}

	btf_func_set_deinit(&fe.funcs);
	free(fe.vars);
	free(units);
	btf_cut_names_free(cut);
	btf_encode_ctx_deinit(&ctx);
	return 0;
fail:
	(void)pool_beside_join(&symbols, NULL);	/* it writes ctx */
	unit_bufs_free(&fe, threads);
	key_check_free(fe.check);
	btf__free(fe.btf);
	btf_merge_deinit(&fe.merge);
	btf_func_set_deinit(&fe.funcs);
	free(fe.vars);
	free(units);
	btf_cut_names_free(cut);
	btf_encode_ctx_deinit(&ctx);
	return redo ? 1 : -1;
}

bool btf_encode_may_cut(const struct btf_encode_options *opts, bool has_base)
{
	return !opts->no_prededup && !opts->libbpf_dedup && !opts->check_model_keys &&
	       !has_base && opts->cut_names != BTF_CUT_NONE;
}

/* The verbose lines of an encoding that may be done again: kept until it
 * stands, each with its NUL. */
static void capture_line(void *ctx, const char *line)
{
	strbuf_add(ctx, line, strlen(line) + 1);
}

struct btf *btf_encode_file(struct elf_file *ef, const struct dw_file *df,
			    const struct btf_encode_options *opts, struct btf *base,
			    struct btf_encode_stats *stats, struct d2b_error *err)
{
	struct btf_encode_options o = *opts;
	struct btf_encode_stats local_stats, first;
	struct strbuf lines = STRBUF_INIT;
	struct btf *btf = NULL;
	int rc;

	if (!stats)
		stats = &local_stats;
	/* with cut keys, the check may send the encoding round again: its
	 * verbose lines wait until the round that stands */
	if (btf_encode_may_cut(opts, base != NULL) && o.verbose && o.log) {
		o.log = capture_line;
		o.log_ctx = &lines;
	}
	rc = encode_file(ef, df, &o, base, NULL, &btf, NULL, stats, err);
	if (rc == 1) {
		first = *stats;
		o = *opts;
		o.cut_names = BTF_CUT_NONE;
		strbuf_free(&lines);
		rc = encode_file(ef, df, &o, base, NULL, &btf, NULL, stats, err);
		stats->census = first.census;
		stats->cut_redone = true;
		memcpy(stats->cut_redo_name, first.cut_redo_name, sizeof(stats->cut_redo_name));
	} else if (!rc && lines.len && !lines.oom) {
		for (size_t at = 0; at < lines.len; at += strlen(lines.buf + at) + 1)
			opts->log(opts->log_ctx, lines.buf + at);
	}
	strbuf_free(&lines);
	return rc ? NULL : btf;
}

int btf_encode_file_bytes(struct elf_file *ef, const struct dw_file *df,
			  const struct btf_encode_options *opts, const struct btf_base_view *base,
			  struct btf_encoded_bytes *out, struct btf_encode_stats *stats,
			  struct d2b_error *err)
{
	memset(out, 0, sizeof(*out));
	if (!base)
		return d2b_error_set(err, "%s: no base to encode on", elf_file_path(ef));
	return encode_file(ef, df, opts, NULL, base, NULL, out, stats, err);
}
