// SPDX-License-Identifier: GPL-2.0-only
/*
 * btfdiff: two BTFs compared by content (see btf_diff.h).
 *
 *   side A, side B     desc[id]   memoised spelling of every type id
 *                      entries[]  (key, body, id), sorted by key then body
 *   merge              walk both sorted lists; equal keys with different
 *                      bodies get a detailed, per-kind comparison
 */
#include "btf/btf_diff.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <linux/btf.h>

#include "util/arena.h"
#include "util/vec.h"

struct entry {
	const char *key;
	const char *body;
	uint32_t id;
};

DEFINE_VEC(entry_vec, struct entry)

struct side {
	const struct btf *btf;
	uint32_t start, nr_ids;
	const char **desc;		/* nr_ids; NULL until spelt */
	struct arena arena;
	struct entry_vec entries;
	bool oom;
};

struct differ {
	struct side a, b;
	struct strbuf *out;
	long count;
};

static const char *name_of(const struct side *s, uint32_t off)
{
	const char *n = btf__name_by_offset(s->btf, off);

	return n ? n : "";
}

static const char *keep(struct side *s, const struct strbuf *sb)
{
	const char *r;

	if (sb->oom) {
		s->oom = true;
		return "";
	}
	r = arena_strdup(&s->arena, strbuf_str(sb));
	if (!r) {
		s->oom = true;
		return "";
	}
	return r;
}

static const char *desc(struct side *s, uint32_t id);

static const char *linkage_name(unsigned kind, uint32_t l)
{
	if (kind == BTF_KIND_FUNC)
		return l == BTF_FUNC_STATIC ? "static" :
		       l == BTF_FUNC_GLOBAL ? "global" : "extern";
	return l == BTF_VAR_STATIC ? "static" :
	       l == BTF_VAR_GLOBAL_ALLOCATED ? "global" : "extern";
}

/* "name:type@bitoff[:bits]; " for each member. */
static void members_into(struct side *s, struct strbuf *sb,
			 const struct btf_type *t)
{
	const struct btf_member *m = btf_members(t);

	for (uint32_t i = 0; i < btf_vlen(t); i++) {
		uint32_t bits = btf_member_bitfield_size(t, i);

		strbuf_addf(sb, "%s:%s@%u", name_of(s, m[i].name_off),
			    desc(s, m[i].type), btf_member_bit_offset(t, i));
		if (bits)
			strbuf_addf(sb, ":%u", bits);
		strbuf_puts(sb, "; ");
	}
}

static int64_t enum_value(const struct btf_type *t, uint32_t i)
{
	if (btf_kind(t) == BTF_KIND_ENUM64)
		return (int64_t)btf_enum64_value(&btf_enum64(t)[i]);
	return btf_kflag(t) ? (int64_t)btf_enum(t)[i].val
			    : (int64_t)(uint32_t)btf_enum(t)[i].val;
}

static void enum_into(struct side *s, struct strbuf *sb,
		      const struct btf_type *t)
{
	strbuf_addf(sb, "size %u %s%s; ", t->size,
		    btf_kflag(t) ? "signed" : "unsigned",
		    btf_kind(t) == BTF_KIND_ENUM64 ? " 64" : "");
	for (uint32_t i = 0; i < btf_vlen(t); i++) {
		const char *n = btf_kind(t) == BTF_KIND_ENUM64
			? name_of(s, btf_enum64(t)[i].name_off)
			: name_of(s, btf_enum(t)[i].name_off);

		strbuf_addf(sb, "%s=%lld, ", n, (long long)enum_value(t, i));
	}
}

static void proto_into(struct side *s, struct strbuf *sb,
		       const struct btf_type *t)
{
	const struct btf_param *p = btf_params(t);

	strbuf_addf(sb, "%s (", desc(s, t->type));
	for (uint32_t i = 0; i < btf_vlen(t); i++) {
		if (i)
			strbuf_puts(sb, ", ");
		if (!p[i].type) {
			strbuf_puts(sb, "...");
			continue;
		}
		strbuf_puts(sb, desc(s, p[i].type));
		if (p[i].name_off)
			strbuf_addf(sb, " %s", name_of(s, p[i].name_off));
	}
	strbuf_putc(sb, ')');
}

/* How a reference to ID reads: named types by name, the rest by shape. */
static const char *desc(struct side *s, uint32_t id)
{
	struct strbuf sb = STRBUF_INIT;
	const struct btf_type *t;
	const char *name, *r;

	if (!id)
		return "void";
	if (id >= s->nr_ids)
		return "?";
	if (s->desc[id])
		return s->desc[id];
	t = btf__type_by_id(s->btf, id);
	name = name_of(s, t->name_off);
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPEDEF:
		strbuf_puts(&sb, *name ? name : "(anonymous)");
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		strbuf_puts(&sb, btf_kind(t) == BTF_KIND_STRUCT ? "struct " : "union ");
		if (*name) {
			strbuf_puts(&sb, name);
			break;
		}
		strbuf_addf(&sb, "{ size %u; ", t->size);
		members_into(s, &sb, t);
		strbuf_putc(&sb, '}');
		break;
	case BTF_KIND_FWD:	/* spelt like the full type: dedup may differ */
		strbuf_addf(&sb, "%s %s", btf_kflag(t) ? "union" : "struct", name);
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		strbuf_puts(&sb, "enum ");
		if (*name) {
			strbuf_puts(&sb, name);
			break;
		}
		strbuf_puts(&sb, "{ ");
		enum_into(s, &sb, t);
		strbuf_putc(&sb, '}');
		break;
	case BTF_KIND_PTR:
		strbuf_addf(&sb, "%s *", desc(s, t->type));
		break;
	case BTF_KIND_CONST:
		strbuf_addf(&sb, "const %s", desc(s, t->type));
		break;
	case BTF_KIND_VOLATILE:
		strbuf_addf(&sb, "volatile %s", desc(s, t->type));
		break;
	case BTF_KIND_RESTRICT:
		strbuf_addf(&sb, "restrict %s", desc(s, t->type));
		break;
	case BTF_KIND_TYPE_TAG:
		strbuf_addf(&sb, "type_tag(%s) %s", name, desc(s, t->type));
		break;
	case BTF_KIND_ARRAY:
		strbuf_addf(&sb, "%s[%u]", desc(s, btf_array(t)->type),
			    btf_array(t)->nelems);
		break;
	case BTF_KIND_FUNC_PROTO:
		proto_into(s, &sb, t);
		break;
	case BTF_KIND_FUNC:
		strbuf_addf(&sb, "function %s", name);
		break;
	case BTF_KIND_VAR:
		strbuf_addf(&sb, "variable %s", name);
		break;
	default:
		strbuf_addf(&sb, "kind %u %s", btf_kind(t), name);
		break;
	}
	r = keep(s, &sb);
	strbuf_free(&sb);
	s->desc[id] = r;
	return r;
}

/* The entry key of a top-level type, or NULL when it has none. */
static void key_into(struct side *s, struct strbuf *sb, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(s->btf, id);
	const char *name = name_of(s, t->name_off);

	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT: strbuf_addf(sb, "struct %s", name); break;
	case BTF_KIND_UNION: strbuf_addf(sb, "union %s", name); break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64: strbuf_addf(sb, "enum %s", name); break;
	case BTF_KIND_TYPEDEF: strbuf_addf(sb, "typedef %s", name); break;
	case BTF_KIND_FWD:
		strbuf_addf(sb, "fwd %s %s", btf_kflag(t) ? "union" : "struct", name);
		break;
	case BTF_KIND_INT: strbuf_addf(sb, "int %s", name); break;
	case BTF_KIND_FLOAT: strbuf_addf(sb, "float %s", name); break;
	case BTF_KIND_FUNC: strbuf_addf(sb, "function %s", name); break;
	case BTF_KIND_VAR: strbuf_addf(sb, "variable %s", name); break;
	case BTF_KIND_DATASEC: strbuf_addf(sb, "section %s", name); break;
	default: strbuf_addf(sb, "[%u]", id); break;
	}
}

struct secvar {
	const char *name;
	uint32_t offset, size;
};

static int secvar_cmp(const void *x, const void *y)
{
	const struct secvar *a = x, *b = y;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	return a->offset < b->offset ? -1 : a->offset > b->offset;
}

/* DATASEC entries sorted by variable name; caller frees. */
static struct secvar *sec_vars(struct side *s, const struct btf_type *t)
{
	const struct btf_var_secinfo *v = btf_var_secinfos(t);
	uint32_t n = btf_vlen(t);
	struct secvar *r = malloc((n ? n : 1) * sizeof(*r));

	if (!r) {
		s->oom = true;
		return NULL;
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct btf_type *vt = btf__type_by_id(s->btf, v[i].type);

		r[i].name = vt ? name_of(s, vt->name_off) : "?";
		r[i].offset = v[i].offset;
		r[i].size = v[i].size;
	}
	qsort(r, n, sizeof(*r), secvar_cmp);
	return r;
}

static void body_into(struct side *s, struct strbuf *sb, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(s->btf, id);

	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		strbuf_addf(sb, "size %u; ", t->size);
		members_into(s, sb, t);
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		enum_into(s, sb, t);
		break;
	case BTF_KIND_TYPEDEF:
		strbuf_puts(sb, desc(s, t->type));
		break;
	case BTF_KIND_INT:
		strbuf_addf(sb, "size %u, %u bits at %u, encoding %#x", t->size,
			    btf_int_bits(t), btf_int_offset(t), btf_int_encoding(t));
		break;
	case BTF_KIND_FLOAT:
		strbuf_addf(sb, "size %u", t->size);
		break;
	case BTF_KIND_FUNC:
		strbuf_addf(sb, "%s %s", linkage_name(BTF_KIND_FUNC, btf_vlen(t)),
			    desc(s, t->type));
		break;
	case BTF_KIND_VAR:
		strbuf_addf(sb, "%s %s",
			    linkage_name(BTF_KIND_VAR, btf_var(t)->linkage),
			    desc(s, t->type));
		break;
	case BTF_KIND_DATASEC: {
		struct secvar *v = sec_vars(s, t);

		strbuf_addf(sb, "size %u; ", t->size);
		for (uint32_t i = 0; v && i < btf_vlen(t); i++)
			strbuf_addf(sb, "%s@%u+%u; ", v[i].name, v[i].offset,
				    v[i].size);
		free(v);
		break;
	}
	}
}

static int add_entry(struct side *s, const struct strbuf *key,
		     const struct strbuf *body, uint32_t id)
{
	struct entry e = { keep(s, key), keep(s, body), id };

	if (s->oom || entry_vec_push(&s->entries, e)) {
		s->oom = true;
		return -1;
	}
	return 0;
}

static int collect(struct side *s)
{
	struct strbuf key = STRBUF_INIT, body = STRBUF_INIT;
	int rc = 0;

	for (uint32_t id = s->start; id < s->nr_ids && !rc; id++) {
		const struct btf_type *t = btf__type_by_id(s->btf, id);
		unsigned kind = btf_kind(t);

		strbuf_reset(&key);
		strbuf_reset(&body);
		switch (kind) {
		case BTF_KIND_PTR:
		case BTF_KIND_CONST:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_ARRAY:
		case BTF_KIND_FUNC_PROTO:
		case BTF_KIND_TYPE_TAG:
			continue;	/* compared where they are used */
		case BTF_KIND_DECL_TAG: {
			int comp = btf_decl_tag(t)->component_idx;
			const struct btf_type *tt = btf__type_by_id(s->btf, t->type);

			strbuf_addf(&key, "decl_tag %s on ", name_of(s, t->name_off));
			key_into(s, &key, t->type);
			if (comp >= 0 && (btf_kind(tt) == BTF_KIND_STRUCT ||
					  btf_kind(tt) == BTF_KIND_UNION))
				strbuf_addf(&key, " member %s",
					    name_of(s, btf_members(tt)[comp].name_off));
			else if (comp >= 0)
				strbuf_addf(&key, " parameter %d", comp);
			break;
		}
		default:
			if (!t->name_off || !*name_of(s, t->name_off))
				continue;	/* reached from named ones */
			key_into(s, &key, id);
			body_into(s, &body, id);
			break;
		}
		rc = add_entry(s, &key, &body, id);
	}
	if (key.oom || body.oom)
		s->oom = true;
	strbuf_free(&key);
	strbuf_free(&body);
	return s->oom ? -1 : 0;
}

static int entry_cmp(const void *x, const void *y)
{
	const struct entry *a = x, *b = y;
	int c = strcmp(a->key, b->key);

	return c ? c : strcmp(a->body, b->body);
}

/* ---- Reporting ---- */

static void line(struct differ *d, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void line(struct differ *d, const char *key, const char *fmt, ...)
{
	va_list ap;

	strbuf_addf(d->out, "%s: ", key);
	va_start(ap, fmt);
	strbuf_vaddf(d->out, fmt, ap);
	va_end(ap);
	strbuf_putc(d->out, '\n');
	d->count++;
}

struct mem {
	char name[64];
	const char *type;
	uint32_t off, bits;
	bool used;
};

static struct mem *members_of(struct side *s, const struct btf_type *t)
{
	uint32_t n = btf_vlen(t), anon = 0;
	struct mem *m = calloc(n ? n : 1, sizeof(*m));

	if (!m) {
		s->oom = true;
		return NULL;
	}
	for (uint32_t i = 0; i < n; i++) {
		const char *nm = name_of(s, btf_members(t)[i].name_off);

		if (*nm)
			snprintf(m[i].name, sizeof(m[i].name), "%s", nm);
		else
			snprintf(m[i].name, sizeof(m[i].name), "(anonymous #%u)", anon++);
		m[i].type = desc(s, btf_members(t)[i].type);
		m[i].off = btf_member_bit_offset(t, i);
		m[i].bits = btf_member_bitfield_size(t, i);
	}
	return m;
}

static void diff_composite(struct differ *d, const char *key,
			   const struct btf_type *ta, const struct btf_type *tb)
{
	uint32_t na = btf_vlen(ta), nb = btf_vlen(tb);
	struct mem *ma = members_of(&d->a, ta), *mb = members_of(&d->b, tb);
	long before = d->count;

	if (ta->size != tb->size)
		line(d, key, "size %u vs %u", ta->size, tb->size);
	for (uint32_t i = 0; ma && mb && i < na; i++) {
		struct mem *x = &ma[i], *y = NULL;

		for (uint32_t j = 0; j < nb && !y; j++)
			if (!mb[j].used && !strcmp(mb[j].name, x->name))
				y = &mb[j];
		if (!y) {
			line(d, key, "member %s only in A", x->name);
			continue;
		}
		y->used = true;
		if (strcmp(x->type, y->type))
			line(d, key, "member %s: type %s vs %s", x->name, x->type,
			     y->type);
		if (x->off != y->off)
			line(d, key, "member %s: offset %u vs %u bits", x->name,
			     x->off, y->off);
		if (x->bits != y->bits)
			line(d, key, "member %s: bit-field size %u vs %u", x->name,
			     x->bits, y->bits);
	}
	for (uint32_t j = 0; ma && mb && j < nb; j++)
		if (!mb[j].used)
			line(d, key, "member %s only in B", mb[j].name);
	if (d->count == before)
		line(d, key, "member order differs");
	free(ma);
	free(mb);
}

static void diff_enum(struct differ *d, const char *key,
		      const struct btf_type *ta, const struct btf_type *tb)
{
	long before = d->count;
	uint32_t na = btf_vlen(ta), nb = btf_vlen(tb);

	if (ta->size != tb->size)
		line(d, key, "size %u vs %u", ta->size, tb->size);
	if (btf_kflag(ta) != btf_kflag(tb))
		line(d, key, "%s vs %s", btf_kflag(ta) ? "signed" : "unsigned",
		     btf_kflag(tb) ? "signed" : "unsigned");
	for (uint32_t i = 0; i < na; i++) {
		const char *n = btf_kind(ta) == BTF_KIND_ENUM64
			? name_of(&d->a, btf_enum64(ta)[i].name_off)
			: name_of(&d->a, btf_enum(ta)[i].name_off);
		bool found = false;

		for (uint32_t j = 0; j < nb && !found; j++) {
			const char *m = btf_kind(tb) == BTF_KIND_ENUM64
				? name_of(&d->b, btf_enum64(tb)[j].name_off)
				: name_of(&d->b, btf_enum(tb)[j].name_off);

			if (strcmp(n, m))
				continue;
			found = true;
			if (enum_value(ta, i) != enum_value(tb, j))
				line(d, key, "value %s: %lld vs %lld", n,
				     (long long)enum_value(ta, i),
				     (long long)enum_value(tb, j));
		}
		if (!found)
			line(d, key, "value %s only in A", n);
	}
	for (uint32_t j = 0; j < nb; j++) {
		const char *m = btf_kind(tb) == BTF_KIND_ENUM64
			? name_of(&d->b, btf_enum64(tb)[j].name_off)
			: name_of(&d->b, btf_enum(tb)[j].name_off);
		bool found = false;

		for (uint32_t i = 0; i < na && !found; i++) {
			const char *n = btf_kind(ta) == BTF_KIND_ENUM64
				? name_of(&d->a, btf_enum64(ta)[i].name_off)
				: name_of(&d->a, btf_enum(ta)[i].name_off);

			found = !strcmp(n, m);
		}
		if (!found)
			line(d, key, "value %s only in B", m);
	}
	if (d->count == before)
		line(d, key, "value order differs");
}

static void diff_datasec(struct differ *d, const char *key,
			 const struct btf_type *ta, const struct btf_type *tb)
{
	struct secvar *va = sec_vars(&d->a, ta), *vb = sec_vars(&d->b, tb);
	uint32_t na = btf_vlen(ta), nb = btf_vlen(tb), i = 0, j = 0;
	long before = d->count;

	if (ta->size != tb->size)
		line(d, key, "size %u vs %u", ta->size, tb->size);
	while (va && vb && (i < na || j < nb)) {
		int c = i == na ? 1 : j == nb ? -1 : strcmp(va[i].name, vb[j].name);

		if (c < 0) {
			line(d, key, "variable %s only in A", va[i++].name);
		} else if (c > 0) {
			line(d, key, "variable %s only in B", vb[j++].name);
		} else {
			if (va[i].offset != vb[j].offset)
				line(d, key, "variable %s: offset %u vs %u",
				     va[i].name, va[i].offset, vb[j].offset);
			if (va[i].size != vb[j].size)
				line(d, key, "variable %s: size %u vs %u",
				     va[i].name, va[i].size, vb[j].size);
			i++;
			j++;
		}
	}
	if (d->count == before)
		line(d, key, "entries differ");
	free(va);
	free(vb);
}

/* One entry on each side, same key, different bodies. */
static void diff_one(struct differ *d, const struct entry *x,
		     const struct entry *y)
{
	const struct btf_type *ta = btf__type_by_id(d->a.btf, x->id);
	const struct btf_type *tb = btf__type_by_id(d->b.btf, y->id);
	unsigned ka = btf_kind(ta), kb = btf_kind(tb);

	if ((ka == BTF_KIND_STRUCT || ka == BTF_KIND_UNION) && ka == kb) {
		diff_composite(d, x->key, ta, tb);
		return;
	}
	if ((ka == BTF_KIND_ENUM || ka == BTF_KIND_ENUM64) &&
	    (kb == BTF_KIND_ENUM || kb == BTF_KIND_ENUM64)) {
		diff_enum(d, x->key, ta, tb);
		return;
	}
	if (ka == BTF_KIND_DATASEC && kb == BTF_KIND_DATASEC) {
		diff_datasec(d, x->key, ta, tb);
		return;
	}
	if (ka == BTF_KIND_FUNC && kb == BTF_KIND_FUNC) {
		if (btf_vlen(ta) != btf_vlen(tb))
			line(d, x->key, "linkage %s vs %s",
			     linkage_name(ka, btf_vlen(ta)),
			     linkage_name(kb, btf_vlen(tb)));
		if (strcmp(desc(&d->a, ta->type), desc(&d->b, tb->type)))
			line(d, x->key, "prototype %s vs %s", desc(&d->a, ta->type),
			     desc(&d->b, tb->type));
		return;
	}
	if (ka == BTF_KIND_VAR && kb == BTF_KIND_VAR) {
		if (btf_var(ta)->linkage != btf_var(tb)->linkage)
			line(d, x->key, "linkage %s vs %s",
			     linkage_name(ka, btf_var(ta)->linkage),
			     linkage_name(kb, btf_var(tb)->linkage));
		if (strcmp(desc(&d->a, ta->type), desc(&d->b, tb->type)))
			line(d, x->key, "type %s vs %s", desc(&d->a, ta->type),
			     desc(&d->b, tb->type));
		return;
	}
	if (ka == BTF_KIND_TYPEDEF && kb == BTF_KIND_TYPEDEF) {
		line(d, x->key, "type %s vs %s", x->body, y->body);
		return;
	}
	line(d, x->key, "%s vs %s", x->body, y->body);
}

static void diff_group(struct differ *d, const struct entry *a, size_t na,
		       const struct entry *b, size_t nb)
{
	const char *key = na ? a[0].key : b[0].key;
	size_t i = 0, j = 0, only_a = 0, only_b = 0;

	if (!nb) {
		line(d, key, na > 1 ? "only in A (%zu definitions)" : "only in A", na);
		return;
	}
	if (!na) {
		line(d, key, nb > 1 ? "only in B (%zu definitions)" : "only in B", nb);
		return;
	}
	if (na == 1 && nb == 1) {
		if (strcmp(a->body, b->body))
			diff_one(d, a, b);
		return;
	}
	/* Several on a side: compare the sorted bodies as multisets. */
	while (i < na || j < nb) {
		int c = i == na ? 1 : j == nb ? -1 : strcmp(a[i].body, b[j].body);

		if (c < 0)
			only_a++, i++;
		else if (c > 0)
			only_b++, j++;
		else
			i++, j++;
	}
	if (only_a || only_b)
		line(d, key, "%zu definitions vs %zu (%zu only in A, %zu only in B)",
		     na, nb, only_a, only_b);
}

static int side_init(struct side *s, const struct btf *btf, uint32_t start,
		     struct d2b_error *err)
{
	memset(s, 0, sizeof(*s));
	s->btf = btf;
	s->nr_ids = btf__type_cnt(btf);
	s->start = start ? start : 1;
	arena_init(&s->arena);
	s->desc = calloc(s->nr_ids, sizeof(*s->desc));
	if (!s->desc)
		return d2b_error_oom(err);
	return 0;
}

static void side_deinit(struct side *s)
{
	free(s->desc);
	entry_vec_free(&s->entries);
	arena_deinit(&s->arena);
}

long btf_diff(const struct btf *a, uint32_t a_start, const struct btf *b,
	      uint32_t b_start, struct strbuf *out, struct btf_diff_stats *stats,
	      struct d2b_error *err)
{
	struct differ d = { .out = out };
	size_t i = 0, j = 0;
	long rc = -1;

	if (side_init(&d.a, a, a_start, err) || side_init(&d.b, b, b_start, err))
		goto out;
	if (collect(&d.a) || collect(&d.b)) {
		d2b_error_oom(err);
		goto out;
	}
	qsort(d.a.entries.data, d.a.entries.len, sizeof(struct entry), entry_cmp);
	qsort(d.b.entries.data, d.b.entries.len, sizeof(struct entry), entry_cmp);
	while (i < d.a.entries.len || j < d.b.entries.len) {
		const struct entry *ea = d.a.entries.data, *eb = d.b.entries.data;
		const char *key;
		size_t i2 = i, j2 = j;
		int c;

		if (i == d.a.entries.len)
			c = 1;
		else if (j == d.b.entries.len)
			c = -1;
		else
			c = strcmp(ea[i].key, eb[j].key);
		key = c <= 0 ? ea[i].key : eb[j].key;
		while (i2 < d.a.entries.len && !strcmp(ea[i2].key, key))
			i2++;
		while (j2 < d.b.entries.len && !strcmp(eb[j2].key, key))
			j2++;
		diff_group(&d, ea + i, i2 - i, eb + j, j2 - j);
		i = i2;
		j = j2;
	}
	if (d.a.oom || d.b.oom || out->oom) {
		d2b_error_oom(err);
		goto out;
	}
	if (stats) {
		stats->entries_a = d.a.entries.len;
		stats->entries_b = d.b.entries.len;
		stats->differences = (uint64_t)d.count;
	}
	rc = d.count;
out:
	side_deinit(&d.a);
	side_deinit(&d.b);
	return rc;
}
