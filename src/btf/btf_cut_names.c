// SPDX-License-Identifier: GPL-2.0-only
/*
 * The census of struct and union definitions that decides where the model's
 * keys may cut (btf_cut_names.h), and the check of the result.
 */
#include "btf/btf_cut_names.h"

#include <linux/btf.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "btf/btf_hash.h"
#include "btf/btf_model_keys.h"
#include "btf/btf_strtab.h"
#include "btf/btf_wire.h"
#include "dwarf/dw_const.h"
#include "pipeline/pool.h"
#include "util/arena.h"

/* One (name, kind) and what its definitions agree on. */
struct def {
	uint64_t id;		/* btf_model_keys_name_id(); 0: an empty slot */
	uint64_t content;	/* btf_str_hash() of the name */
	uint64_t size;
	uint32_t line;
	bool is_union;
	bool whole;		/* kept whole: not all in headers alike */
};

struct def_table {
	struct def *slot;
	size_t mask, nr;
};

struct btf_cut_names {
	struct def_table defs;
	/* the (name, kind)s a cut is allowed at, as cut_set_key()s (0: an
	 * empty slot): what every unit asks for each struct it refers to,
	 * in 8 bytes a slot (the census's table has 40) */
	uint64_t *cut_set;
	size_t cut_mask;
};

static inline uint64_t cut_set_key(uint64_t id, bool is_union)
{
	return (fmix64(id) & ~1ull) | is_union | 2;	/* never 0 */
}

/* The census's state of one thread, in cache lines of its own. */
struct census_thread {
	_Alignas(128) struct def_table defs;
	struct dw_unit_buf buf;
	struct arena arena;
	size_t definitions;
	double cpu_s;
};

struct census {
	const struct dw_file *df;
	const struct btf_model_keys_in *in;
	struct census_thread *threads;
	struct dw_unit_buf *bufs;	/* a thread's: the caller's, or threads[].buf */
};

static double now_s(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline size_t def_home(const struct def_table *t, uint64_t id, bool is_union)
{
	return (size_t)fmix64(id + is_union) & t->mask;
}

/* The slot of (ID, IS_UNION) in T: its entry, or the empty slot for it. */
static struct def *def_slot(const struct def_table *t, uint64_t id, bool is_union)
{
	size_t i = def_home(t, id, is_union);

	while (t->slot[i].id && (t->slot[i].id != id || t->slot[i].is_union != is_union))
		i = (i + 1) & t->mask;
	return &t->slot[i];
}

static int def_grow(struct def_table *t)
{
	struct def_table n = { .mask = t->slot ? 2 * t->mask + 1 : 1023 };

	if (t->slot && 2 * (t->nr + 1) <= t->mask + 1)
		return 0;
	n.slot = calloc(n.mask + 1, sizeof(*n.slot));
	if (!n.slot)
		return -1;
	for (size_t i = 0; t->slot && i <= t->mask; i++)
		if (t->slot[i].id)
			*def_slot(&n, t->slot[i].id, t->slot[i].is_union) = t->slot[i];
	n.nr = t->nr;
	free(t->slot);
	*t = n;
	return 0;
}

/* D, one definition (or another table's entry for several), into T: its
 * entry, or NULL when out of memory. */
static struct def *def_add(struct def_table *t, const struct def *d)
{
	struct def *e;

	if (def_grow(t))
		return NULL;
	e = def_slot(t, d->id, d->is_union);
	if (!e->id) {
		*e = *d;
		t->nr++;
		return e;
	}
	e->whole |= d->whole || e->size != d->size || e->line != d->line;
	return e;
}

/* A header's name: what a definition shared by units comes from. */
static bool is_header(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	return n > 2 && name[n - 2] == '.' && name[n - 1] == 'h';
}

/* The root DIE's line table: which of its files (by DW_AT_decl_file) are
 * headers, in *HDR (NR entries; NULL when the unit has no table). */
static int unit_headers(const struct dw_cu *cu, const struct dw_attr *attrs, int n,
			struct arena *a, bool **hdr, size_t *nr, struct d2b_error *err)
{
	const char *name = NULL;
	struct dw_line_files files;
	uint64_t stmt_list = 0;
	bool has_list = false;

	*hdr = NULL;
	*nr = 0;
	for (int i = 0; i < n; i++) {
		if (attrs[i].name == DW_AT_stmt_list && attrs[i].cls == DW_CLS_UNSIGNED) {
			stmt_list = attrs[i].u;
			has_list = true;
		} else if (attrs[i].name == DW_AT_name && attrs[i].cls == DW_CLS_STRING) {
			name = attrs[i].str;
		}
	}
	if (!has_list)
		return 0;
	if (dw_cu_line_file_names(cu, stmt_list, name, &files, err))
		return -1;
	*hdr = arena_alloc(a, files.nr ? files.nr : 1);
	if (!*hdr)
		return d2b_error_oom(err);
	for (size_t i = 0; i < files.nr; i++)
		(*hdr)[i] = is_header(files.names[i]);
	*nr = files.nr;
	return 0;
}

/* What a definition's DIE says of it. */
struct def_die {
	const char *name;
	uint64_t size, sibling;
	int64_t file, line;
	bool declaration;
};

/* The attributes of DIE (the cursor's last): into D when D is not NULL,
 * else only skipped; with SIB, its DW_AT_sibling into *SIBLING (0: none,
 * or not looked for). Returns the byte after them, or NULL with ERR set. */
static const uint8_t *die_attrs(const struct dw_cu *cu, const struct dw_die *die,
				const uint8_t *end, struct def_die *d, bool sib,
				uint64_t *sibling, struct d2b_error *err)
{
	const struct dw_abbrev *ab = die->abbrev;
	const uint8_t *p = die->attrs;

	*sibling = 0;
	if (!d && ab->fixed_size >= 0) {
		/* no attribute worth reading but the sibling (a ref4 is what
		 * it always is; the walk finds the end the slow way without
		 * it) */
		if (ab->fixed_size > end - p) {
			dw_error(cu, p, err, "DIE attributes run past the end of the unit");
			return NULL;
		}
		for (unsigned i = 0, at = 0; sib && i < ab->nr_attrs; i++) {
			const struct dw_abbrev_attr *a = &ab->attrs[i];

			if (a->name == DW_AT_sibling && a->form == DW_FORM_ref4) {
				uint32_t v = (uint32_t)p[at] | (uint32_t)p[at + 1] << 8 |
					     (uint32_t)p[at + 2] << 16 | (uint32_t)p[at + 3] << 24;

				if (v < cu->unit->end - cu->unit->offset)
					*sibling = cu->unit->offset + v;
				break;
			}
			at += (unsigned)dw_cu_form_size(cu, a->form);
		}
		return p + ab->fixed_size;
	}
	for (unsigned i = 0; i < ab->nr_attrs; i++) {
		const struct dw_abbrev_attr *a = &ab->attrs[i];
		struct dw_attr v;
		int64_t n;
		int sz;

		switch (a->name) {
		case DW_AT_sibling:
			if (sib)
				break;
			goto skip;
		case DW_AT_name:
		case DW_AT_byte_size:
		case DW_AT_decl_file:
		case DW_AT_decl_line:
		case DW_AT_declaration:
		case DW_AT_signature:
			if (d)
				break;
			/* fallthrough */
		default:
		skip:
			sz = dw_cu_form_size(cu, a->form);
			if (sz >= 0) {
				if (sz > end - p) {
					dw_error(cu, p, err, "DIE attributes run past the end of the unit");
					return NULL;
				}
				p += sz;
			} else if (dw_form_skip(cu, a->form, &p, end, err)) {
				return NULL;
			}
			continue;
		}
		if (dw_form_read_fast(cu, a->form, a->implicit_const, &p, end, &v, err))
			return NULL;
		switch (a->name) {
		case DW_AT_sibling:
			if (v.cls == DW_CLS_REF)
				*sibling = v.u;
			break;
		case DW_AT_name:
			d->name = v.cls == DW_CLS_STRING ? v.str : NULL;
			break;
		case DW_AT_byte_size:
			d->size = dw_attr_int(&v, &n) ? (uint64_t)n : UINT64_MAX;
			break;
		case DW_AT_decl_file:
			d->file = dw_attr_int(&v, &n) ? n : -1;
			break;
		case DW_AT_decl_line:
			d->line = dw_attr_int(&v, &n) ? n : -1;
			break;
		case DW_AT_declaration:
		case DW_AT_signature:	/* a declaration, its type in a type unit */
			d->declaration = true;
			break;
		}
	}
	return p;
}

/* Definition D into T. */
static int add_definition(struct census *c, struct census_thread *t, const struct def_die *dd,
			  bool is_union, const bool *hdr, size_t nr_files, struct d2b_error *err)
{
	struct def d = { .is_union = is_union, .size = dd->size,
			 .line = dd->line >= 0 && dd->line < UINT32_MAX ? (uint32_t)dd->line : UINT32_MAX };
	struct def *e;

	d.id = btf_model_keys_name_id(c->in, dd->name);
	if (!d.id)	/* (an odd place is never 0; a hash might be) */
		d.id = 2;
	d.whole = !(dd->file >= 0 && (uint64_t)dd->file < nr_files && hdr[dd->file]);
	t->definitions++;
	e = def_add(&t->defs, &d);
	if (!e)
		return d2b_error_oom(err);
	/* the name's content, for the check: once per (name, kind) */
	if (!e->content) {
		size_t len;

		e->content = btf_str_hash(dd->name, &len) | 1;
	}
	return 0;
}

/* Subtrees the census does not walk: no definition of a named type in C
 * but in a function. (What it does not meet it never cuts; a name it
 * meets in a header and that is defined again in a function or in a C++
 * class, it may: the check catches that.) */
static bool skip_children_of(unsigned tag)
{
	switch (tag) {
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_class_type:
	case DW_TAG_enumeration_type:
	case DW_TAG_subroutine_type:
	case DW_TAG_array_type:
		return true;
	case DW_TAG_subprogram:
		/* a struct defined in a function (2.5 M DIEs of the vmlinux
		 * are in functions, a quarter of the census's walk): not
		 * met, so never cut, unless a header defines its name too */
		return true;
	default:
		return false;
	}
}

#define MAX_ATTRS 24	/* a unit's root DIE has a dozen */

/* Unit UNIT's definitions into T's table. */
static int census_unit_walk(struct census *c, struct census_thread *t, size_t unit,
			    struct d2b_error *err)
{
	struct dw_cursor cur;
	struct dw_die die;
	struct dw_cu cu;
	bool *hdr = NULL;
	size_t nr_files = 0;
	unsigned code;
	int r;

	arena_reset(&t->arena);
	if (dw_cu_open_copy(&cu, c->df, unit, c->bufs ? &c->bufs[t - c->threads] : &t->buf,
			    &t->arena, err))
		return -1;
	dw_cursor_init(&cur, &cu);
	while ((r = dw_cursor_next_inline(&cur, &die, &code, err)) > 0) {
		unsigned tag = dw_die_tag(&die);
		bool def = tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
			   tag == DW_TAG_class_type;
		struct def_die dd = { .file = -1, .line = -1 };
		const uint8_t *after;
		uint64_t sibling;

		if (!die.depth) {
			struct dw_attr attrs[MAX_ATTRS];
			int n = dw_cursor_attrs(&cur, attrs, MAX_ATTRS, err);

			if (n < 0 || unit_headers(&cu, attrs, n, &t->arena, &hdr, &nr_files, err))
				return -1;
			continue;
		}
		after = die_attrs(&cu, &die, cur.end, def ? &dd : NULL,
				  dw_die_has_children(&die) && skip_children_of(tag), &sibling, err);
		if (!after)
			return -1;
		dw_cursor_attrs_done(&cur, after, sibling);
		if (def && dd.name && !dd.declaration &&
		    add_definition(c, t, &dd, tag == DW_TAG_union_type, hdr, nr_files, err))
			return -1;
		if (dw_die_has_children(&die) && skip_children_of(tag) &&
		    dw_cursor_skip_children(&cur, err))
			return -1;
	}
	return r < 0 ? -1 : 0;
}

static int census_unit(void *ctx, size_t unit, unsigned thread, void **result,
		       struct d2b_error *err)
{
	struct census *c = ctx;
	struct census_thread *t = &c->threads[thread];
	double t0 = now_s(CLOCK_THREAD_CPUTIME_ID);
	int rc;

	*result = NULL;
	rc = census_unit_walk(c, t, unit, err);
	t->cpu_s += now_s(CLOCK_THREAD_CPUTIME_ID) - t0;
	return rc;
}

static int census_consume(void *ctx, size_t item, void *result, struct d2b_error *err)
{
	(void)ctx;
	(void)item;
	(void)result;
	(void)err;
	return 0;
}

int btf_cut_names_census(const struct dw_file *df, const struct btf_model_keys_in *in,
			 unsigned threads, struct dw_unit_buf *bufs, struct btf_cut_names **out,
			 struct btf_cut_names_stats *stats, struct d2b_error *err)
{
	static const struct pool_ops ops = { .produce = census_unit, .consume = census_consume };
	struct census c = { .df = df, .in = in, .bufs = bufs };
	struct btf_cut_names *names = NULL;
	struct btf_cut_names_stats st = { 0 };
	struct d2b_error scan_err = { 0 };
	double t0 = now_s(CLOCK_MONOTONIC);
	int rc = -1;

	*out = NULL;
	if (df->line_unloaded || !df->sec[DW_SEC_LINE].data)
		return 0;	/* no headers to tell: no cuts */
	if (!threads)
		threads = 1;
	c.threads = aligned_alloc(_Alignof(struct census_thread), threads * sizeof(*c.threads));
	if (c.threads)
		memset(c.threads, 0, threads * sizeof(*c.threads));
	names = calloc(1, sizeof(*names));
	if (!c.threads || !names) {
		d2b_error_oom(err);
		goto out;
	}
	for (unsigned i = 0; i < threads; i++)
		arena_init(&c.threads[i].arena);
	if (pool_run(df->nr_units, threads, 0, &ops, &c, NULL, &scan_err)) {
		/* DWARF the census cannot read: no cuts. The encoding reads
		 * the same units and says what is wrong with them, as it
		 * did without a census (its line tables it does not read) */
		st.gave_up = true;
		rc = 0;
		goto out;
	}
	/* the threads' tables into one: what each name's definitions agree on
	 * does not depend on which thread read which unit */
	for (unsigned i = 0; i < threads; i++) {
		const struct def_table *t = &c.threads[i].defs;

		st.definitions += c.threads[i].definitions;
		st.cpu_s += c.threads[i].cpu_s;
		for (size_t j = 0; t->slot && j <= t->mask; j++)
			if (t->slot[j].id && !def_add(&names->defs, &t->slot[j])) {
				d2b_error_oom(err);
				goto out;
			}
	}
	for (size_t j = 0; names->defs.slot && j <= names->defs.mask; j++) {
		st.names += names->defs.slot[j].id != 0;
		st.kept_whole += names->defs.slot[j].id && names->defs.slot[j].whole;
	}
	names->cut_mask = 15;
	while (names->cut_mask + 1 < 2 * (st.names - st.kept_whole))
		names->cut_mask = 2 * names->cut_mask + 1;
	names->cut_set = calloc(names->cut_mask + 1, sizeof(*names->cut_set));
	if (!names->cut_set) {
		d2b_error_oom(err);
		goto out;
	}
	for (size_t j = 0; names->defs.slot && j <= names->defs.mask; j++) {
		const struct def *d = &names->defs.slot[j];
		uint64_t k;
		size_t i;

		if (!d->id || d->whole)
			continue;
		k = cut_set_key(d->id, d->is_union);
		for (i = k >> 2 & names->cut_mask; names->cut_set[i] && names->cut_set[i] != k;
		     i = (i + 1) & names->cut_mask)
			;
		names->cut_set[i] = k;
	}
	*out = names;
	names = NULL;
	rc = 0;
out:
	for (unsigned i = 0; c.threads && i < threads; i++) {
		free(c.threads[i].defs.slot);
		dw_unit_buf_free(&c.threads[i].buf);
		arena_deinit(&c.threads[i].arena);
	}
	free(c.threads);
	btf_cut_names_free(names);
	st.seconds = now_s(CLOCK_MONOTONIC) - t0;
	if (stats)
		*stats = st;
	return rc;
}

struct btf_cut_names *btf_cut_names_everywhere(void)
{
	return calloc(1, sizeof(struct btf_cut_names));
}

void btf_cut_names_free(struct btf_cut_names *c)
{
	if (!c)
		return;
	free(c->defs.slot);
	free(c->cut_set);
	free(c);
}

bool btf_cut_names_may_cut(const struct btf_cut_names *c, uint64_t id, bool is_union)
{
	uint64_t k;

	if (!c->cut_set)	/* btf_cut_names_everywhere() */
		return true;
	k = cut_set_key(id ? id : 2, is_union);
	for (size_t i = k >> 2 & c->cut_mask; c->cut_set[i]; i = (i + 1) & c->cut_mask)
		if (c->cut_set[i] == k)
			return true;
	return false;
}

/* Whether no (name, kind) of content CONTENT can have been cut: the census
 * allowed a cut at none (a name it did not meet is never cut; without a
 * census, btf_cut_names_everywhere(), every name may have been). */
static bool never_cut(const struct btf_cut_names *c, uint64_t content, bool is_union)
{
	if (!c->defs.slot)
		return false;
	/* the census's few thousand names, looked at for each name the
	 * output defines twice (a dozen in a kernel): no index */
	for (size_t j = 0; j <= c->defs.mask; j++) {
		const struct def *d = &c->defs.slot[j];

		if (d->id && d->content == content && d->is_union == is_union && !d->whole)
			return false;
	}
	return true;
}

/* A defined struct or union of the output: its name's offset and kind. */
struct out_def {
	uint32_t name;
	uint8_t is_union;
	uint8_t twice;
};

int btf_cut_names_check(const struct btf_cut_names *c, const void *btf, size_t size,
			const char **name)
{
	const struct btf_header *h = btf;
	const uint8_t *types, *strs;
	struct out_def *seen = NULL;
	size_t mask = 1023, nr = 0, off = 0;
	int rc = -1;

	*name = NULL;
	if (size < sizeof(*h) || h->magic != BTF_MAGIC || h->hdr_len < sizeof(*h) ||
	    h->hdr_len > size || h->type_off > size - h->hdr_len ||
	    h->type_len > size - h->hdr_len - h->type_off || h->str_off > size - h->hdr_len ||
	    h->str_len > size - h->hdr_len - h->str_off || h->type_len % 4)
		return -1;
	types = (const uint8_t *)btf + h->hdr_len + h->type_off;
	strs = (const uint8_t *)btf + h->hdr_len + h->str_off;
	/* room for every record (12 bytes at least) at half load */
	while ((mask + 1) / 2 < h->type_len / 12)
		mask = 2 * mask + 1;
	seen = calloc(mask + 1, sizeof(*seen));
	if (!seen)
		return -1;
	while (off < h->type_len) {
		const uint32_t *w = (const uint32_t *)(const void *)(types + off);
		uint32_t words = h->type_len - off >= 12 ? btf_record_words(w) : 0;
		unsigned kind = (w[1] >> 24) & 0x1f;
		size_t i;

		if (!words || words * 4ull > h->type_len - off)
			goto out;
		off += words * 4ull;
		if ((kind != BTF_KIND_STRUCT && kind != BTF_KIND_UNION) || !w[0])
			continue;
		if (w[0] >= h->str_len || ++nr > (mask + 1) / 2)
			goto out;
		for (i = fmix64(w[0]) & mask; seen[i].name; i = (i + 1) & mask)
			if (seen[i].name == w[0] && seen[i].is_union == (kind == BTF_KIND_UNION))
				break;
		if (seen[i].name) {
			seen[i].twice = 1;
			continue;
		}
		seen[i] = (struct out_def){ w[0], kind == BTF_KIND_UNION, 0 };
	}
	rc = 0;
	for (size_t i = 0; i <= mask && !rc; i++) {
		const char *s = (const char *)strs + seen[i].name;
		size_t len;

		if (!seen[i].twice)
			continue;
		if (!memchr(s, 0, h->str_len - seen[i].name)) {
			rc = -1;
			break;
		}
		if (!never_cut(c, btf_str_hash(s, &len) | 1, seen[i].is_union)) {
			*name = s;
			rc = 1;
		}
	}
out:
	free(seen);
	return rc;
}
