// SPDX-License-Identifier: GPL-2.0-only
/* Type selection and cross-unit de-duplication for pahole; see the header. */
#include "print/pahole_select.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "print/layout.h"

/* A set of byte strings (keys of printed structs), open addressing. */
struct keyset {
	char **slot;
	size_t *len;
	size_t cap, nr;
};

struct pahole_select {
	struct pahole_select_opts o;
	struct keyset printed;
	char **names;		/* -C names still looked for, in order */
	size_t nr_names;
	char *names_buf;
};

static uint64_t hash_bytes(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ull;
	}
	return h;
}

static int keyset_grow(struct keyset *ks)
{
	size_t cap = ks->cap ? ks->cap * 2 : 256;
	char **slot = calloc(cap, sizeof(*slot));
	size_t *len = calloc(cap, sizeof(*len));

	if (!slot || !len) {
		free(slot);
		free(len);
		return -1;
	}
	for (size_t i = 0; i < ks->cap; i++) {
		size_t j;

		if (!ks->slot[i])
			continue;
		j = hash_bytes(ks->slot[i], ks->len[i]) & (cap - 1);
		while (slot[j])
			j = (j + 1) & (cap - 1);
		slot[j] = ks->slot[i];
		len[j] = ks->len[i];
	}
	free(ks->slot);
	free(ks->len);
	ks->slot = slot;
	ks->len = len;
	ks->cap = cap;
	return 0;
}

/* Adds KEY; returns 1 if it was there already, 0 if added, -1 on OOM. */
static int keyset_add(struct keyset *ks, const char *key, size_t n)
{
	size_t j;
	char *copy;

	if ((ks->nr + 1) * 2 > ks->cap && keyset_grow(ks))
		return -1;
	j = hash_bytes(key, n) & (ks->cap - 1);
	while (ks->slot[j]) {
		if (ks->len[j] == n && !memcmp(ks->slot[j], key, n))
			return 1;
		j = (j + 1) & (ks->cap - 1);
	}
	copy = malloc(n ? n : 1);
	if (!copy)
		return -1;
	memcpy(copy, key, n);
	ks->slot[j] = copy;
	ks->len[j] = n;
	ks->nr++;
	return 0;
}

static void keyset_free(struct keyset *ks)
{
	for (size_t i = 0; i < ks->cap; i++)
		free(ks->slot[i]);
	free(ks->slot);
	free(ks->len);
	memset(ks, 0, sizeof(*ks));
}

struct pahole_select *pahole_select_create(const struct pahole_select_opts *o,
					   struct d2b_error *err)
{
	struct pahole_select *ps = calloc(1, sizeof(*ps));

	if (!ps) {
		d2b_error_oom(err);
		return NULL;
	}
	ps->o = *o;
	if (o->class_names) {
		size_t n = 1;
		char *s;

		ps->names_buf = strdup(o->class_names);
		if (!ps->names_buf)
			goto oom;
		for (s = ps->names_buf; *s; s++)
			n += *s == ',';
		ps->names = calloc(n, sizeof(*ps->names));
		if (!ps->names)
			goto oom;
		for (s = strtok(ps->names_buf, ","); s; s = strtok(NULL, ","))
			ps->names[ps->nr_names++] = s;
		ps->o.class_names = NULL;
	}
	return ps;
oom:
	pahole_select_destroy(ps);
	d2b_error_oom(err);
	return NULL;
}

void pahole_select_destroy(struct pahole_select *ps)
{
	if (!ps)
		return;
	keyset_free(&ps->printed);
	free(ps->names);
	free(ps->names_buf);
	free(ps);
}

bool pahole_select_done(const struct pahole_select *ps)
{
	return ps->names && ps->nr_names == 0;
}

const char *pahole_select_missing(const struct pahole_select *ps)
{
	return ps->names && ps->nr_names ? ps->names[0] : NULL;
}

static bool is_composite(const struct type *t)
{
	return t->kind == TK_STRUCT || t->kind == TK_CLASS || t->kind == TK_UNION;
}

/* pahole's type__compare identity: name, size, member count, and each
 * member's name, bit offset and bit-field size. */
static void struct_key(struct strbuf *key, const struct type *t)
{
	uint32_t nr = 0;

	for (uint32_t i = 0; i < t->composite.nr_members; i++)
		nr += !t->composite.members[i].is_static;
	strbuf_reset(key);
	strbuf_addf(key, "%s%c%llu%c%u", t->name, 0, (unsigned long long)t->size, 0, nr);
	for (uint32_t i = 0; i < t->composite.nr_members; i++) {
		const struct member *m = &t->composite.members[i];

		if (m->is_static)
			continue;
		strbuf_addf(key, "%c%s%c%llu%c%u", 0, m->name ? m->name : "\x01", 0,
			    (unsigned long long)m->bit_offset, 0, m->bit_size);
	}
}

static int select_all(struct pahole_select *ps, struct cu_model *cu,
		      struct layout_cache *lc, struct strbuf *out,
		      struct d2b_error *err)
{
	struct strbuf key = STRBUF_INIT;
	int ret = 0;

	for (uint32_t i = 0; i < cu->nr_types; i++) {
		const struct type *t = cu->types[i];
		int r;

		/* pahole lists only the types whose DIE is a child of the
		 * unit (its tag->top_level): not those nested in a struct, a
		 * function, a lexical block or a C++ namespace */
		if (!is_composite(t) || !t->name || t->scope != TS_UNIT ||
		    t->declaration)
			continue;
		struct_key(&key, t);
		if (key.oom) {
			ret = d2b_error_oom(err);
			break;
		}
		r = keyset_add(&ps->printed, key.buf, key.len);
		if (r < 0) {
			ret = d2b_error_oom(err);
			break;
		}
		if (r == 1)
			continue;
		if (ps->o.mode == PAHOLE_SIZES) {
			pahole_print_size_line(out, lc, t);
		} else {
			pahole_print_type(out, lc, t, NULL, NULL, &ps->o.print);
			strbuf_putc(out, '\n');
		}
	}
	strbuf_free(&key);
	return ret;
}

static bool is_named_type(const struct type *t)
{
	switch (t->kind) {
	case TK_STRUCT:
	case TK_UNION:
	case TK_CLASS:
	case TK_ENUM:
	case TK_TYPEDEF:
		return true;
	default:
		return false;
	}
}

static const struct type *find_by_name(const struct cu_model *cu, const char *name)
{
	for (uint32_t i = 0; i < cu->nr_types; i++) {
		const struct type *t = cu->types[i];

		if (is_named_type(t) && t->name && !t->declaration &&
		    !strcmp(t->name, name))
			return t;
	}
	return NULL;
}

static void select_names(struct pahole_select *ps, struct cu_model *cu,
			 struct layout_cache *lc, struct strbuf *out)
{
	while (ps->nr_names > 0) {
		const struct type *t = find_by_name(cu, ps->names[0]);

		if (!t)
			return;
		memmove(ps->names, ps->names + 1, (ps->nr_names - 1) * sizeof(*ps->names));
		ps->nr_names--;
		/* with -C, pahole prints the layout whatever the formatter */
		pahole_print_type(out, lc, t, NULL, NULL, &ps->o.print);
		strbuf_putc(out, '\n');
	}
}

int pahole_select_cu(struct pahole_select *ps, struct cu_model *cu,
		     struct strbuf *out, struct d2b_error *err)
{
	struct layout_cache lc;
	int ret = 0;

	if (pahole_select_done(ps))
		return 0;
	layout_cache_init(&lc, cu);
	if (lc.oom) {
		layout_cache_deinit(&lc);
		return d2b_error_oom(err);
	}
	if (ps->names)
		select_names(ps, cu, &lc, out);
	else
		ret = select_all(ps, cu, &lc, out, err);
	if (!ret && (lc.oom || out->oom))
		ret = d2b_error_oom(err);
	layout_cache_deinit(&lc);
	return ret;
}
