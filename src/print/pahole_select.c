// SPDX-License-Identifier: GPL-2.0-only
/* Type selection and cross-unit de-duplication for pahole; see the header. */
#include "print/pahole_select.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "print/c_type.h"
#include "print/fn_table.h"
#include "print/layout.h"
#include "print/pahole_emit.h"
#include "print/pahole_reorg.h"
#include "util/vec.h"

/* A set of byte strings (keys of printed structs), open addressing; each
 * with its hash, so that a probe past another key compares one word. */
struct keyset {
	char **slot;
	size_t *len;
	uint64_t *hash;
	uint32_t *val;		/* what the caller keeps with each key */
	size_t cap, nr;
};

/* A unit's struct_ptr_key()s, built on the thread that decoded it
 * (pahole_select_prepare()): the unit's turn then only looks them up. One
 * for each listing candidate, in cu->types order. */
struct prepared_key {
	uint32_t type;		/* index in cu->types */
	uint32_t len;		/* 0: no pointer key (struct_key() decides) */
	uint64_t hash;
	const char *key;	/* in the unit's arena */
};

struct prepared_keys {
	uint32_t nr;
	struct prepared_key *keys;
};

/* A struct --sort prints: what 1.24's two orders compare, and its text */
struct sorted_member {
	char *name;		/* NULL: unnamed */
	char *type_name;	/* tag__name() of its type */
	uint64_t bit_offset;
	uint32_t bit_size;
};

struct sorted {
	char *name;
	uint64_t size;
	uint32_t nr_members;	/* type__for_each_member's: bases, statics */
	uint32_t seq;		/* kept in this order */
	/* the same as one kept before by 1.24's second order (which drops
	 * it) but not by its first (which keeps it: 1.24's compare out of
	 * step, compare_out_of_step()) */
	bool resort_dup;
	struct sorted_member *m;
	char *text;
};

/* -T and -m: an identity kept and the units (or parameters) counted */
struct definition {
	char *name;
	uint32_t nr_units;
};

DEFINE_VEC(definition_vec, struct definition)
DEFINE_VEC(sorted_vec, struct sorted)

struct pahole_select {
	struct pahole_select_opts o;
	struct pahole_emit *emit;	/* --compile without -C */
	struct keyset printed;		/* struct_key() of each struct printed */
	struct keyset seen_ptrs;	/* struct_ptr_key() of each struct known printed */
	char **names;		/* -C names still looked for, in order */
	size_t nr_names;
	size_t *name_index;	/* each name's place in class_names */
	bool stopped;		/* a name's arguments failed (check_name) */
	char *names_buf;
	/* -T: each identity kept, in the order first seen (printed's value is
	 * its index), with the number of units that define it */
	struct definition_vec defs;
	/* --sort: the structs kept, each with its text, printed in order at
	 * the end; need_resort as 1.24's (two of the same identity seen) */
	struct sorted_vec sorted;
	struct keyset sort_keys;	/* sort_key() of each kept */
	bool need_resort;
	bool first_done;		/* --first_obj_only: a unit was done */
};

static uint64_t hash_bytes(const char *s, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
	size_t i = 0;

	/* eight bytes at a time (keys are long: one entry per member) */
	for (; i + 8 <= n; i += 8) {
		uint64_t w;

		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	for (; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	h ^= h >> 29;
	return h * 0xc4ceb9fe1a85ec53ull;
}

static int keyset_grow(struct keyset *ks)
{
	size_t cap = ks->cap ? ks->cap * 2 : 256;
	char **slot = calloc(cap, sizeof(*slot));
	size_t *len = calloc(cap, sizeof(*len));
	uint64_t *hash = calloc(cap, sizeof(*hash));
	uint32_t *val = calloc(cap, sizeof(*val));

	if (!slot || !len || !hash || !val) {
		free(slot);
		free(len);
		free(hash);
		free(val);
		return -1;
	}
	for (size_t i = 0; i < ks->cap; i++) {
		size_t j;

		if (!ks->slot[i])
			continue;
		j = ks->hash[i] & (cap - 1);
		while (slot[j])
			j = (j + 1) & (cap - 1);
		slot[j] = ks->slot[i];
		len[j] = ks->len[i];
		hash[j] = ks->hash[i];
		val[j] = ks->val[i];
	}
	free(ks->slot);
	free(ks->len);
	free(ks->hash);
	free(ks->val);
	ks->slot = slot;
	ks->len = len;
	ks->hash = hash;
	ks->val = val;
	ks->cap = cap;
	return 0;
}

#define SET_PREFETCH 4	/* structs ahead whose set slots are hinted */

static inline void keyset_prefetch(const struct keyset *ks, uint64_t h)
{
	if (ks->cap) {
		__builtin_prefetch(&ks->hash[h & (ks->cap - 1)]);
		__builtin_prefetch(&ks->slot[h & (ks->cap - 1)]);
	}
}

/* The slot of KEY (N bytes, hash_bytes() H) in KS (cap > 0), or the empty
 * one where it would go */
static size_t keyset_slot(const struct keyset *ks, const char *key, size_t n, uint64_t h)
{
	size_t j;

	for (j = h & (ks->cap - 1); ks->slot[j]; j = (j + 1) & (ks->cap - 1))
		if (ks->hash[j] == h && ks->len[j] == n && !memcmp(ks->slot[j], key, n))
			break;
	return j;
}

/* KEY (N bytes, hash_bytes() H) is in KS */
static bool keyset_has(const struct keyset *ks, const char *key, size_t n, uint64_t h)
{
	return ks->cap && ks->slot[keyset_slot(ks, key, n, h)];
}

/* Adds KEY (N bytes, hash_bytes() H) with value *VAL; returns 1 if it was
 * there already (*VAL then its value), 0 if added, -1 on OOM. VAL may be
 * NULL (value 0). */
static int keyset_add(struct keyset *ks, const char *key, size_t n, uint64_t h,
		      uint32_t *val)
{
	size_t j;
	char *copy;

	if ((ks->nr + 1) * 2 > ks->cap && keyset_grow(ks))
		return -1;
	j = keyset_slot(ks, key, n, h);
	if (ks->slot[j]) {
		if (val)
			*val = ks->val[j];
		return 1;
	}
	copy = malloc(n ? n : 1);
	if (!copy)
		return -1;
	memcpy(copy, key, n);
	ks->slot[j] = copy;
	ks->len[j] = n;
	ks->hash[j] = h;
	ks->val[j] = val ? *val : 0;
	ks->nr++;
	return 0;
}

static void keyset_free(struct keyset *ks)
{
	for (size_t i = 0; i < ks->cap; i++)
		free(ks->slot[i]);
	free(ks->slot);
	free(ks->len);
	free(ks->hash);
	free(ks->val);
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
		ps->name_index = calloc(n, sizeof(*ps->name_index));
		if (!ps->names || !ps->name_index)
			goto oom;
		for (s = strtok(ps->names_buf, ","); s; s = strtok(NULL, ",")) {
			ps->name_index[ps->nr_names] = ps->nr_names;
			ps->names[ps->nr_names++] = s;
		}
		ps->o.class_names = NULL;
	}
	if (o->compile && !ps->names && !(ps->emit = pahole_emit_create()))
		goto oom;
	return ps;
oom:
	pahole_select_destroy(ps);
	d2b_error_oom(err);
	return NULL;
}

void pahole_select_next_file(struct pahole_select *ps, const char *names_lo,
			     const char *names_hi)
{
	/* the keys hold addresses in the file that is closed now, which the
	 * next one's mapping may reuse for other names */
	keyset_free(&ps->seen_ptrs);
	ps->o.names_lo = names_lo;
	ps->o.names_hi = names_hi;
	/* 1.24's --first_obj_only stops loading the file, not the run */
	ps->first_done = false;
}

void pahole_select_destroy(struct pahole_select *ps)
{
	if (!ps)
		return;
	keyset_free(&ps->printed);
	keyset_free(&ps->seen_ptrs);
	for (size_t i = 0; i < ps->defs.len; i++)
		free(ps->defs.data[i].name);
	definition_vec_free(&ps->defs);
	for (size_t i = 0; i < ps->sorted.len; i++) {
		struct sorted *e = &ps->sorted.data[i];

		for (uint32_t j = 0; e->m && j < e->nr_members; j++) {
			free(e->m[j].name);
			free(e->m[j].type_name);
		}
		free(e->m);
		free(e->name);
		free(e->text);
	}
	sorted_vec_free(&ps->sorted);
	keyset_free(&ps->sort_keys);
	free(ps->names);
	free(ps->name_index);
	free(ps->names_buf);
	pahole_emit_destroy(ps->emit);
	free(ps);
}

bool pahole_select_done(const struct pahole_select *ps)
{
	return (ps->names && ps->nr_names == 0) || ps->first_done || ps->stopped;
}

const char *pahole_select_missing(const struct pahole_select *ps)
{
	return ps->names && ps->nr_names ? ps->names[0] : NULL;
}

size_t pahole_select_missing_index(const struct pahole_select *ps)
{
	return ps->names && ps->nr_names ? ps->name_index[0] : 0;
}

static bool is_composite(const struct type *t)
{
	return t->kind == TK_STRUCT || t->kind == TK_CLASS || t->kind == TK_UNION;
}

/* pahole lists only the types whose DIE is a child of the unit (its
 * tag->top_level): not those nested in a struct, a function, a lexical
 * block or a C++ namespace, unless --show_private_classes; and a nameless
 * one only with -a */
static bool is_listed(const struct pahole_select_opts *o, const struct type *t)
{
	return is_composite(t) && (t->name || o->filter.anon) &&
	       (t->scope == TS_UNIT || o->filter.private_classes) && !t->declaration;
}

#define NESTED_MAX_DEPTH 64

static void nested_first(const struct cu_model *cu, const struct type *t, unsigned depth,
			 uint8_t *seen, uint32_t *order, uint32_t *nr)
{
	if (t->id >= cu->nr_types || cu->types[t->id] != t || seen[t->id])
		return;
	seen[t->id] = 1;
	if (is_composite(t) && depth < NESTED_MAX_DEPTH)
		for (uint32_t i = 0; i < t->composite.nr_nested; i++)
			nested_first(cu, t->composite.nested[i], depth + 1, seen, order, nr);
	order[(*nr)++] = t->id;
}

/* The unit's types in 1.24's table order, which --show_private_classes
 * lists: DIE order, but the types nested in a struct before it (1.24's
 * loader adds a struct once it has read its children). NULL on OOM. */
static uint32_t *nested_first_order(const struct cu_model *cu, uint32_t *nr)
{
	uint32_t *order = malloc((cu->nr_types ? cu->nr_types : 1) * sizeof(*order));
	uint8_t *seen = calloc(cu->nr_types ? cu->nr_types : 1, 1);

	*nr = 0;
	if (!order || !seen) {
		free(order);
		free(seen);
		return NULL;
	}
	for (uint32_t i = 0; i < cu->nr_types; i++)
		if (cu->types[i]->scope != TS_COMPOSITE)
			nested_first(cu, cu->types[i], 0, seen, order, nr);
	/* (one no struct holds: where it stands) */
	for (uint32_t i = 0; i < cu->nr_types; i++)
		if (!seen[i])
			nested_first(cu, cu->types[i], 0, seen, order, nr);
	free(seen);
	return order;
}

/* Whether a filter beyond the default listing's is asked (-X aside) */
static bool filter_active(const struct pahole_filter *f)
{
	return f->structs_only || f->unions_only || f->packed_only || f->packable ||
	       f->flexible_array_only || f->exclude || f->include || f->decl_exclude ||
	       f->nr_holes || f->nr_bit_holes || f->hole_size_ge;
}

static void key_add_u64(struct strbuf *key, uint64_t v)
{
	strbuf_add(key, (const char *)&v, sizeof(v));
}

/* pahole's type__compare identity: name, size, member count, and each
 * member's name, bit offset and bit-field size. Binary, not text: this runs
 * for every struct of every unit (the kernel: ~1.3 M times), and formatting
 * it with printf was 40% of `pahole vmlinux`. Unambiguous because each name
 * ends at its NUL and every number has a fixed width. */
/* The data members the keys walk (no static ones) */
static uint32_t nr_keyed_members(const struct type *t)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < t->composite.nr_members; i++)
		n += !t->composite.members[i].is_static;
	return n;
}

/* Each keyed member's name, bit offset, bit-field size and, with TN (a
 * scratch buffer), its type's name */
static void key_add_members(struct strbuf *key, const struct type *t, struct strbuf *tn)
{
	for (uint32_t i = 0; i < t->composite.nr_members; i++) {
		const struct member *m = &t->composite.members[i];

		if (m->is_static)
			continue;
		if (m->name)
			strbuf_add(key, m->name, strlen(m->name) + 1);
		else
			strbuf_add(key, "\x01", 2);
		key_add_u64(key, m->bit_offset);
		key_add_u64(key, m->bit_size);
		if (tn) {
			strbuf_reset(tn);
			c_type_name_n(tn, m->type, 1024);
			strbuf_add(key, strbuf_str(tn), tn->len + 1);
		}
	}
}

static void struct_key(struct strbuf *key, const struct type *t)
{
	strbuf_reset(key);
	strbuf_add(key, t->name, strlen(t->name) + 1);
	key_add_u64(key, t->size);
	key_add_u64(key, nr_keyed_members(t));
	key_add_members(key, t, NULL);
}

/* A name as one word: its address when it lies in the run's string
 * section (o->names_lo..hi: not read at all), else up to 7 bytes inline,
 * tagged with a top byte of 0xff (which no user-space pointer has), else
 * its address. */
static uint64_t name_word(const struct pahole_select_opts *o, const char *s, bool *usable)
{
	uint64_t w = 0;
	size_t n;

	if (!s)
		return 0;
	if (s >= o->names_lo && s < o->names_hi)
		return (uintptr_t)s;
	n = strnlen(s, 8);
	if (n < 8) {
		memcpy(&w, s, n);
		return w | 0xffull << 56;
	}
	w = (uintptr_t)s;
	if (w >> 56 == 0xff)
		*usable = false;
	return w;
}

/* The same identity with long names as pointers into the file, not their
 * bytes: equal pointer keys mean equal struct_key()s, so a struct seen
 * before is recognised without reading its names. In a linked file whose
 * .debug_str the linker merged (a vmlinux) nearly every repeat of a struct
 * in a later unit has the same pointers (short names are often inline in
 * .debug_info: those are compared by content). Different pointers prove
 * nothing: struct_key() decides then. Sound because names point into the
 * mapped file (or the BTF string section), which outlives every unit: an
 * address is never reused for another string. Returns false when the key
 * cannot be built that way. */
static size_t ptr_key_room(const struct type *t)
{
	return (2 + 3 * (size_t)t->composite.nr_members) * sizeof(uint64_t);
}

/* T's pointer key into P (ptr_key_room(T) bytes): its length, or 0 when
 * the key cannot be built that way. */
static size_t ptr_key_fill(const struct pahole_select_opts *o, char *p, const struct type *t)
{
	char *start = p;
	bool usable = true;
	uint64_t w[3];

	/* 8 bytes a word, written in place: this runs for every struct */
	w[0] = name_word(o, t->name, &usable);
	w[1] = t->size;
	memcpy(p, w, 2 * sizeof(uint64_t));
	p += 2 * sizeof(uint64_t);
	for (uint32_t i = 0; i < t->composite.nr_members; i++) {
		const struct member *m = &t->composite.members[i];

		if (m->is_static)
			continue;
		w[0] = name_word(o, m->name, &usable);
		w[1] = m->bit_offset;
		w[2] = m->bit_size;
		memcpy(p, w, sizeof(w));
		p += sizeof(w);
	}
	return usable ? (size_t)(p - start) : 0;
}

static bool struct_ptr_key(const struct pahole_select_opts *o, struct strbuf *key,
			   const struct type *t)
{
	size_t n;
	char *p;

	strbuf_reset(key);
	p = strbuf_room(key, ptr_key_room(t));
	if (!p)
		return true;	/* key->oom: the caller reports it */
	n = ptr_key_fill(o, p, t);
	strbuf_advance(key, n);
	return n != 0;
}

int pahole_select_prepare(const void *ctx, struct cu_model *cu, struct d2b_error *err)
{
	const struct pahole_select *ps = ctx;	/* ps->o only: other threads */
	struct prepared_keys *pk;
	uint32_t nr = 0;

	/* -C: no listing; -a, -T and --show_private_classes: each struct is
	 * looked at in full */
	if (ps->names || ps->o.filter.anon || ps->o.filter.private_classes ||
	    ps->o.stats != PAHOLE_STATS_NONE || ps->o.sort)
		return 0;
	for (uint32_t i = 0; i < cu->nr_types; i++)
		nr += is_listed(&ps->o, cu->types[i]);
	pk = arena_zalloc(&cu->arena, sizeof(*pk));
	if (!pk || (nr && !(pk->keys = arena_alloc(&cu->arena, nr * sizeof(*pk->keys)))))
		return d2b_error_oom(err);
	for (uint32_t i = 0; i < cu->nr_types; i++) {
		const struct type *t = cu->types[i];
		struct prepared_key *k;
		char *p;

		if (!is_listed(&ps->o, t))
			continue;
		p = arena_alloc(&cu->arena, ptr_key_room(t));
		if (!p)
			return d2b_error_oom(err);
		k = &pk->keys[pk->nr++];
		k->type = i;
		k->key = p;
		k->len = (uint32_t)ptr_key_fill(&ps->o, p, t);
		k->hash = k->len ? hash_bytes(p, k->len) : 0;
	}
	cu->prepared = pk;
	return 0;
}

/* 1: a struct with T's identity was printed already (*DEF then the index
 * of its definition, with -T); 0: T is new and is now recorded as printed
 * (with the index *DEF); -1: out of memory. */
static int already_printed(struct pahole_select *ps, const struct type *t,
			   const struct prepared_key *pk, struct strbuf *key,
			   uint32_t *def)
{
	const char *k = NULL;
	size_t n = 0;
	uint64_t h = 0;

	if (ps->o.stats != PAHOLE_STATS_NONE) {
		/* the pointer keys know a struct was seen, not which */
	} else if (pk) {
		k = pk->key;
		n = pk->len;
		h = pk->hash;
	} else if (struct_ptr_key(&ps->o, key, t)) {
		if (key->oom)
			return -1;
		k = key->buf;
		n = key->len;
		h = hash_bytes(k, n);
	}
	if (n) {
		if (keyset_has(&ps->seen_ptrs, k, n, h))
			return 1;
		if (keyset_add(&ps->seen_ptrs, k, n, h, NULL) < 0)
			return -1;
	}
	struct_key(key, t);
	if (key->oom)
		return -1;
	return keyset_add(&ps->printed, key->buf, key->len, hash_bytes(key->buf, key->len), def);
}

/*
 * Whether pahole 1.24 fails to find T among the structs printed before
 * even when one has T's identity: its compare (pahole.c
 * type__compare_members) walks the printed struct's member entries
 * (DW_TAG_member, DW_TAG_inheritance) beside all of T's child entries in
 * DIE order, the others included (type__first_member() and
 * class_member__next() skip none: a nested type, a method, a static
 * member given as DW_TAG_variable), and a child that is not a member,
 * met before T's last member, is read as one and differs. clang puts an
 * anonymous member's type after that member, so a struct with such a
 * member that is not its last one is printed again in every unit; gcc
 * puts those types at the unit's level.
 */
static bool compare_out_of_step(const struct cu_model *cu, const struct type *t)
{
	const struct composite_cxx *x = t->composite.cxx;
	uint64_t last = 0;

	for (uint32_t i = 0; i < t->composite.nr_members; i++)
		if (!t->composite.members[i].is_static_var &&
		    t->composite.members[i].die_offset > last)
			last = t->composite.members[i].die_offset;
	for (uint32_t i = 0; x && i < x->nr_bases; i++)
		if (x->bases[i].die_offset > last)
			last = x->bases[i].die_offset;
	for (uint32_t i = 0; i < t->composite.nr_nested; i++)
		if (t->composite.nested[i]->die_offset < last)
			return true;
	for (uint32_t i = 0; i < t->composite.nr_members; i++)
		if (t->composite.members[i].is_static_var &&
		    t->composite.members[i].die_offset < last)
			return true;
	for (uint32_t i = 0; x && i < x->nr_methods; i++)
		if (x->methods[i] < cu->nr_functions &&
		    cu->functions[x->methods[i]].die_offset < last)
			return true;
	for (uint32_t i = 0; x && i < x->nr_usings; i++)
		if (x->usings[i].die_offset < last)
			return true;
	return false;
}

/* -T: a new identity named NAME, defined in one unit so far */
static int add_definition(struct pahole_select *ps, const char *name)
{
	struct definition d = { .name = strdup(name), .nr_units = 1 };

	if (!d.name || definition_vec_push(&ps->defs, d)) {
		free(d.name);
		return -1;
	}
	return 0;
}

/* What pahole's formatter prints for T, a struct the listing keeps */
static void print_kept(const struct pahole_select_opts *o, struct layout_cache *lc,
		       const struct type *t, struct strbuf *out)
{
	/* glibc prints a NULL string as "(null)" (-a with -s or -n) */
	const char *name = t->name ? t->name : "(null)";
	char sep = o->separator;
	const struct type *td = NULL;

	/* -P without -V: "name\tsize\tnew size\tsaved" (print_packable_info;
	 * a struct without a name by its typedef's, or by "file(line)") */
	if (o->filter.packable && !o->verbose) {
		uint64_t new_size = t->size;
		const char *pname = t->name;

		pahole_filter_packable(lc, t, &new_size);
		if (!pname) {
			td = pahole_first_typedef_of(lc->cu, t);
			pname = td ? td->name : NULL;
		}
		if (pname)
			strbuf_addf(out, "%s%c", pname, sep);
		else
			strbuf_addf(out, "%s(%u)%c",
				    t->decl_file ? cu_model_file_name(lc->cu, t->decl_file) : "(null)",
				    t->decl_line, sep);
		strbuf_addf(out, "%zd%c%zd%c%zd\n", (ssize_t)(uint32_t)t->size, sep,
			    (ssize_t)(uint32_t)new_size, sep,
			    (ssize_t)((uint32_t)t->size - (uint32_t)new_size));
		return;
	}
	switch (o->mode) {
	case PAHOLE_LAYOUT:
		/* a nameless struct as "typedef struct {...} name;", by the
		 * first typedef of it; one that none names only with -A */
		if (!t->name) {
			td = pahole_first_typedef_of(lc->cu, t);
			if (!td && !o->filter.nested_anon)
				break;
		}
		pahole_print_type(out, lc, t, td ? "typedef" : NULL,
				  td ? (td->name ? td->name : "(null)") : NULL, &o->print);
		strbuf_putc(out, '\n');
		break;
	case PAHOLE_SIZES:
		pahole_print_size_line(out, lc, t, sep);
		break;
	case PAHOLE_NR_MEMBERS:
		strbuf_addf(out, "%s%c%u\n", name, sep, c_type_nr_members(t));
		break;
	case PAHOLE_NAME_LEN:
		strbuf_addf(out, "%s%c%zu\n", name, sep, t->name ? strlen(t->name) : 0);
		break;
	case PAHOLE_NAMES:
		strbuf_addf(out, "%s\n", name);
		break;
	case PAHOLE_NOTHING:
		break;
	}
}

/* --sort's identity, that of 1.24's second sort (pahole.c
 * type__compare_members_types): the name, the member count, and each
 * member's name, bit offset, bit-field size and type name */
static void sort_key(struct strbuf *key, struct strbuf *tn, const struct type *t)
{
	strbuf_reset(key);
	strbuf_add(key, t->name, strlen(t->name) + 1);
	key_add_u64(key, nr_keyed_members(t));
	key_add_members(key, t, tn);
}

static char *dup_or_null(const char *s, bool *oom)
{
	char *d = s ? strdup(s) : NULL;

	if (s && !d)
		*oom = true;
	return d;
}

/* --sort: keep T (its facts and its text) for the end. Returns -1 on OOM. */
static int sorted_add(struct pahole_select *ps, struct layout_cache *lc, const struct type *t,
		      bool resort_dup, struct strbuf *tn)
{
	struct sorted *e;
	bool oom = false;
	uint32_t k = 0;

	e = sorted_vec_push_zero(&ps->sorted);	/* (freed whole by pahole_select_destroy) */
	if (!e)
		return -1;
	e->seq = (uint32_t)(ps->sorted.len - 1);
	e->resort_dup = resort_dup;
	e->size = t->size;
	e->nr_members = nr_keyed_members(t);
	e->name = dup_or_null(t->name, &oom);
	e->m = calloc(e->nr_members ? e->nr_members : 1, sizeof(*e->m));
	if (!e->m)
		oom = true;
	for (uint32_t i = 0; e->m && i < t->composite.nr_members; i++) {
		const struct member *m = &t->composite.members[i];

		if (m->is_static)
			continue;
		e->m[k].name = dup_or_null(m->name, &oom);
		e->m[k].bit_offset = m->bit_offset;
		e->m[k].bit_size = m->bit_size;
		strbuf_reset(tn);
		c_type_name_n(tn, m->type, 1024);
		e->m[k++].type_name = dup_or_null(strbuf_str(tn), &oom);
	}
	strbuf_reset(tn);
	pahole_print_type(tn, lc, t, NULL, NULL, &ps->o.print);
	strbuf_putc(tn, '\n');
	e->text = dup_or_null(strbuf_str(tn), &oom);
	return oom || tn->oom ? -1 : 0;
}

static int sign64(int64_t d)
{
	return d < 0 ? -1 : d > 0;
}

/* Two members as 1.24's compares take them: names (where both have one),
 * bit offsets (as ints), bit-field sizes and, with TYPES, type names */
static int sorted_member_cmp(const struct sorted_member *ma, const struct sorted_member *mb,
			     bool types)
{
	int r = ma->name && mb->name ? strcmp(ma->name, mb->name) : 0;

	if (!r)
		r = sign64((int64_t)(int32_t)ma->bit_offset - (int64_t)(int32_t)mb->bit_offset);
	if (!r)
		r = sign64((int64_t)ma->bit_size - (int64_t)mb->bit_size);
	if (!r && types)
		r = strcmp(ma->type_name, mb->type_name);
	return r;
}

/* 1.24's first order (type__compare): name, size, member count, then each
 * member's name (where both have one), bit offset and bit-field size */
static int sorted_cmp_identity(const void *x, const void *y)
{
	const struct sorted *a = x, *b = y;
	int r = strcmp(a->name, b->name);

	if (!r)
		r = sign64((int64_t)(int32_t)a->size - (int64_t)(int32_t)b->size);
	if (!r)
		r = sign64((int64_t)a->nr_members - (int64_t)b->nr_members);
	for (uint32_t i = 0; !r && i < a->nr_members && i < b->nr_members; i++)
		r = sorted_member_cmp(&a->m[i], &b->m[i], false);
	return r ? r : sign64((int64_t)a->seq - (int64_t)b->seq);
}

/* 1.24's second order, once two structs of the same identity were seen
 * (type__compare_members_types): name, then each member's name (where
 * both have one), bit offset, bit-field size and type name; past the
 * shorter member list (where 1.24 reads beyond it), the shorter first */
static int sorted_cmp_types(const void *x, const void *y)
{
	const struct sorted *a = x, *b = y;
	int r = strcmp(a->name, b->name);

	for (uint32_t i = 0; !r && i < a->nr_members && i < b->nr_members; i++)
		r = sorted_member_cmp(&a->m[i], &b->m[i], true);
	if (!r)
		r = sign64((int64_t)a->nr_members - (int64_t)b->nr_members);
	return r ? r : sign64((int64_t)a->seq - (int64_t)b->seq);
}

/* A struct kept for --sort, before its text is made */
struct keep {
	const struct type *t;
	bool resort_dup;
};

/* A unit's structs for --sort, by name (stable): rendered in that order,
 * as 1.24 prints them at the end (a struct's text can depend on what was
 * printed of its unit before: the packed inference) */
static int by_name(const void *x, const void *y)
{
	const struct type *a = ((const struct keep *)x)->t;
	const struct type *b = ((const struct keep *)y)->t;
	int r = strcmp(a->name, b->name);

	return r ? r : sign64((int64_t)a->id - (int64_t)b->id);
}

/* --sort's part of a unit's turn: T kept for the end unless 1.24 drops
 * it; appended to KEEP. Returns -1 on OOM. */
static int sort_keep(struct pahole_select *ps, const struct cu_model *cu, const struct type *t,
		     struct strbuf *key, struct strbuf *tn, struct keep *keep, uint32_t *nr_keep)
{
	uint32_t def = (uint32_t)ps->defs.len;
	bool first_same = false;
	int r;

	if (!t->name)
		return 0;	/* 1.24 prints it nowhere then */
	r = already_printed(ps, t, NULL, key, &def);
	if (r < 0)
		return -1;
	/* 1.24's first sort takes only memberless ones for the same, and
	 * none its compare falls out of step over */
	if (r == 1 && !compare_out_of_step(cu, t)) {
		if (!nr_keyed_members(t))
			return 0;
		ps->need_resort = true;
		first_same = true;
	}
	sort_key(key, tn, t);
	if (key->oom || tn->oom)
		return -1;
	r = keyset_add(&ps->sort_keys, key->buf, key->len, hash_bytes(key->buf, key->len), NULL);
	if (r < 0)
		return -1;
	if (r == 1 && first_same)
		return 0;
	keep[*nr_keep].t = t;
	keep[(*nr_keep)++].resort_dup = r == 1;
	return 0;
}

static int select_all(struct pahole_select *ps, struct cu_model *cu,
		      struct layout_cache *lc, struct strbuf *out,
		      struct d2b_error *err)
{
	const struct prepared_keys *prep = cu->prepared;
	struct strbuf key = STRBUF_INIT;
	/* prepared: the listed structs only, not every type of the unit */
	uint32_t n = prep ? prep->nr : cu->nr_types;
	bool filtering = filter_active(&ps->o.filter);
	bool sorting = ps->o.sort && ps->o.mode == PAHOLE_LAYOUT && !ps->emit;
	uint32_t *order = NULL, nr_keep = 0;
	struct keep *keep = NULL;
	struct strbuf tn = STRBUF_INIT;
	int ret = 0;

	if (ps->o.filter.private_classes && !(order = nested_first_order(cu, &n)))
		return d2b_error_oom(err);
	if (sorting && !(keep = malloc((cu->nr_types ? cu->nr_types : 1) * sizeof(*keep)))) {
		free(order);
		return d2b_error_oom(err);
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct prepared_key *pk = prep ? &prep->keys[i] : NULL;
		const struct type *t = cu->types[pk ? pk->type : order ? order[i] : i];
		uint32_t def = (uint32_t)ps->defs.len;
		int r;

		if (!pk && !is_listed(&ps->o, t))
			continue;
		/* the set's probes miss the cache: hint a few structs ahead */
		if (pk && i + SET_PREFETCH < n)
			keyset_prefetch(&ps->seen_ptrs, prep->keys[i + SET_PREFETCH].hash);
		/* as 1.24: the filters first, then "printed before?" */
		if (filtering && !pahole_filter_keeps(&ps->o.filter, lc, t)) {
			if (lc->oom)
				break;
			continue;
		}
		if (sorting) {
			if (sort_keep(ps, cu, t, &key, &tn, keep, &nr_keep)) {
				ret = d2b_error_oom(err);
				break;
			}
			continue;
		}
		/* a nameless struct is never taken for one printed before */
		if (t->name) {
			r = already_printed(ps, t, pk, &key, &def);
			if (r < 0) {
				ret = d2b_error_oom(err);
				break;
			}
			/* (with --sort, 1.24's compare takes only memberless
			 * structs for the same) */
			if (r == 1 && !compare_out_of_step(cu, t) &&
			    !(ps->o.sort && nr_keyed_members(t))) {
				if (ps->o.stats != PAHOLE_STATS_NONE)
					ps->defs.data[def].nr_units++;
				continue;
			}
			/* out of step, 1.24 adds another entry for it */
			if (ps->o.stats != PAHOLE_STATS_NONE && add_definition(ps, t->name)) {
				ret = d2b_error_oom(err);
				break;
			}
		}
		if (!ps->emit) {
			print_kept(&ps->o, lc, t, out);
		} else if (pahole_emit_struct(ps->emit, t, out)) {
			ret = d2b_error_oom(err);
			break;
		}
	}
	if (!ret && nr_keep) {
		qsort(keep, nr_keep, sizeof(*keep), by_name);
		for (uint32_t i = 0; i < nr_keep && !ret; i++)
			if (sorted_add(ps, lc, keep[i].t, keep[i].resort_dup, &tn))
				ret = d2b_error_oom(err);
	}
	free(keep);
	free(order);
	strbuf_free(&tn);
	strbuf_free(&key);
	return ret;
}

/* The first type of CU named NAME (cu__find_type_by_name): a definition,
 * or a declaration too with -f (1.24 looks for pointers to either) */
static const struct type *find_by_name(const struct pahole_select *ps,
				       const struct cu_model *cu, const char *name)
{
	return c_type_find_by_name(cu, name, ps->o.names_mode == PAHOLE_NAMES_POINTERS);
}

/* The structs -i and -f look at: named, defined, at the unit's level and
 * kept by the filters (1.24's class__filter) */
static bool searched(const struct pahole_select *ps, struct layout_cache *lc,
		     const struct type *t)
{
	return is_composite(t) && t->name && t->scope == TS_UNIT && !t->declaration &&
	       pahole_filter_keeps(&ps->o.filter, lc, t);
}

#define CONTAINERS_MAX_DEPTH 63	/* 1.24 indents from 127 blanks */

/* type__print_containers: T if it has members of type TARGET (the type
 * itself, no typedef followed; bases count), at indent IDENT, once by
 * identity at the top; with -d the same for its members' structs and
 * unions. Returns -1 on OOM. */
static int print_container(struct pahole_select *ps, struct layout_cache *lc,
			   const struct type *t, const struct type *target, int ident,
			   struct strbuf *key, struct strbuf *out)
{
	struct layout_iter it = { 0 };
	const struct member *m;
	uint32_t slot, n = 0, def = (uint32_t)ps->defs.len;
	int r;

	while (layout_next(t, &it, &m, &slot))
		n += m->type == target;
	if (!n)
		return 0;
	if (ident == 0) {
		r = already_printed(ps, t, NULL, key, &def);
		if (r < 0)
			return -1;
		if (r && !compare_out_of_step(lc->cu, t))
			return 0;
	}
	strbuf_addf(out, "%*s%s", 2 * ident, "", t->name ? t->name : "(null)");
	if (ps->o.verbose)
		strbuf_addf(out, ": %u", n);
	strbuf_putc(out, '\n');
	if (!ps->o.recursive || ident >= CONTAINERS_MAX_DEPTH)
		return 0;
	memset(&it, 0, sizeof(it));
	while (layout_next(t, &it, &m, &slot))
		if (m->type && is_composite(m->type) &&
		    print_container(ps, lc, m->type, target, ident + 1, key, out))
			return -1;
	return 0;
}

/* print_structs_with_pointer_to: "struct: member" for each member of the
 * unit's structs that points straight to TARGET, a struct once by
 * identity. Returns -1 on OOM. */
static int print_pointers(struct pahole_select *ps, struct layout_cache *lc,
			  const struct type *target, struct strbuf *key, struct strbuf *out)
{
	const struct cu_model *cu = lc->cu;

	for (uint32_t i = 0; i < cu->nr_types; i++) {
		const struct type *t = cu->types[i];
		struct layout_iter it = { 0 };
		const struct member *m;
		uint32_t slot;
		bool looked = false;

		if (!searched(ps, lc, t))
			continue;
		while (layout_next(t, &it, &m, &slot)) {
			uint32_t def = (uint32_t)ps->defs.len;
			int r;

			if (!m->type || m->type->kind != TK_POINTER || m->type->type != target)
				continue;
			if (!looked) {
				r = already_printed(ps, t, NULL, key, &def);
				if (r < 0)
					return -1;
				if (r && !compare_out_of_step(cu, t))
					break;
				looked = true;
			}
			strbuf_addf(out, "%s: %s\n", t->name, m->name ? m->name : "(null)");
		}
	}
	return 0;
}

/*
 * The type of the next -C name CU prints, from ps->names[*AT] on: without
 * --skip_missing only the first name left counts (one this unit lacks ends
 * its turn, as 1.24's stealer returns there); with it, the first name left
 * that the unit has (*AT says which). NULL: none.
 */
static const struct type *next_name(struct pahole_select *ps, const struct cu_model *cu,
				    size_t *at)
{
	for (; *at < ps->nr_names; ++*at) {
		const struct type *t = find_by_name(ps, cu, ps->names[*at]);

		if (t || !ps->o.skip_missing)
			return t;
	}
	return NULL;
}

/* T: the type named ps->names[AT] in CU, found already (next_name()).
 * Returns -1 with err set. */
static int select_names(struct pahole_select *ps, struct cu_model *cu,
			const struct type *t, size_t at, struct layout_cache *lc,
			struct strbuf *out, struct d2b_error *err)
{
	struct strbuf key = STRBUF_INIT;
	int ret = 0;

	for (; t && !ret; t = next_name(ps, cu, &at)) {
		if (ps->o.check_name &&
		    !ps->o.check_name(ps->o.check_ctx, ps->name_index[at], cu, t)) {
			ps->stopped = true;	/* 1.24: dump_and_stop */
			break;
		}
		memmove(ps->names + at, ps->names + at + 1,
			(ps->nr_names - at - 1) * sizeof(*ps->names));
		memmove(ps->name_index + at, ps->name_index + at + 1,
			(ps->nr_names - at - 1) * sizeof(*ps->name_index));
		ps->nr_names--;
		switch (ps->o.names_mode) {
		case PAHOLE_NAMES_LAYOUT:
			/* with -C, pahole prints the layout whatever the formatter
			 * (--compile: without the last ';') */
			pahole_print_type(out, lc, t, NULL, NULL, &ps->o.print);
			if (ps->o.compile && out->len && out->buf[out->len - 1] == ';')
				out->buf[--out->len] = '\0';
			strbuf_putc(out, '\n');
			break;
		case PAHOLE_NAMES_DEFINED_IN:
			/* 1.24 looks for no other name in this unit */
			strbuf_addf(out, "%s\n", cu->name ? cu->name : "(null)");
			t = NULL;
			break;
		case PAHOLE_NAMES_CONTAINERS:
			for (uint32_t i = 0; i < cu->nr_types && !ret; i++)
				if (searched(ps, lc, cu->types[i]))
					ret = print_container(ps, lc, cu->types[i], t, 0, &key, out);
			break;
		case PAHOLE_NAMES_POINTERS:
			ret = print_pointers(ps, lc, t, &key, out);
			break;
		case PAHOLE_NAMES_REORGANIZE:
			/* 1.24: structs only, others print nothing */
			if (t->kind != TK_STRUCT && t->kind != TK_CLASS)
				break;
			if (!pahole_reorg_supported(t)) {
				strbuf_free(&key);
				return d2b_error_set(err, "-R: '%s' has C++ bases or static "
						     "members, which -R does not move yet", t->name);
			}
			if (pahole_reorg_print(out, cu, t, ps->o.reorg_steps ? 2 : ps->o.verbose,
					       &ps->o.print, err)) {
				strbuf_free(&key);
				return -1;
			}
			break;
		}
		if (!t)
			break;
	}
	strbuf_free(&key);
	return ret ? d2b_error_oom(err) : 0;
}

/* -m (cu__account_nr_methods): each parameter of the unit's functions
 * (1.24's table, in its order) that points straight to a named struct the
 * listing would keep counts one method of that struct, by identity, the
 * first seen first */
static int account_methods(struct pahole_select *ps, struct cu_model *cu,
			   struct layout_cache *lc, struct d2b_error *err)
{
	struct strbuf key = STRBUF_INIT;
	uint32_t *order;
	int ret = 0;

	if (fn_table_order(cu, &order))
		return d2b_error_oom(err);
	for (uint32_t i = 0; i < cu->nr_functions && !ret; i++) {
		const struct function *fn = &cu->functions[order[i]];

		if (!fn_table_holds(fn))
			continue;
		for (uint32_t j = 0; j < fn->nr_params && !ret; j++) {
			const struct type *p = fn->params[j].type, *st;
			uint32_t def = (uint32_t)ps->defs.len;
			int r;

			if (!p || p->kind != TK_POINTER)
				continue;
			st = p->type;
			if (!st || (st->kind != TK_STRUCT && st->kind != TK_CLASS) || !st->name ||
			    (st->scope != TS_UNIT && !ps->o.filter.private_classes) ||
			    !pahole_filter_keeps(&ps->o.filter, lc, st))
				continue;
			r = already_printed(ps, st, NULL, &key, &def);
			if (r == 1 && !compare_out_of_step(cu, st))
				ps->defs.data[def].nr_units++;
			else if (r < 0 || add_definition(ps, st->name))
				ret = d2b_error_oom(err);
		}
	}
	free(order);
	strbuf_free(&key);
	return ret;
}

int pahole_select_cu(struct pahole_select *ps, struct cu_model *cu,
		     struct strbuf *out, struct d2b_error *err)
{
	const struct type *first = NULL;
	struct layout_cache lc;
	size_t at = 0;
	int ret = 0;

	if (pahole_select_done(ps) || pahole_filter_skips_unit(&ps->o.filter, cu))
		return 0;
	/* -C: most units have none of the names (a name found nowhere means
	 * every unit): they need no layout cache */
	if (ps->names && !(first = next_name(ps, cu, &at)))
		return 0;
	layout_cache_init(&lc, cu);
	if (lc.oom) {
		layout_cache_deinit(&lc);
		return d2b_error_oom(err);
	}
	if (ps->o.stats == PAHOLE_STATS_NR_METHODS)
		ret = account_methods(ps, cu, &lc, err);
	else if (ps->names)
		ret = select_names(ps, cu, first, at, &lc, out, err);
	else if (ps->emit && pahole_emit_unit(ps->emit, cu, &lc))
		ret = d2b_error_oom(err);
	else
		ret = select_all(ps, cu, &lc, out, err);
	if (!ret && (lc.oom || out->oom))
		ret = d2b_error_oom(err);
	layout_cache_deinit(&lc);
	/* (1.24: a unit that lacks the first -C name does not count) */
	ps->first_done = ps->o.first_obj_only;
	return ret;
}

int pahole_select_finish(struct pahole_select *ps, struct strbuf *out,
			 struct d2b_error *err)
{
	char sep = ps->o.separator;

	if (ps->sorted.len) {
		qsort(ps->sorted.data, ps->sorted.len, sizeof(*ps->sorted.data),
		      ps->need_resort ? sorted_cmp_types : sorted_cmp_identity);
		for (size_t i = 0; i < ps->sorted.len; i++)
			if (!(ps->need_resort && ps->sorted.data[i].resort_dup))
				strbuf_puts(out, ps->sorted.data[i].text);
	}
	if (ps->o.stats != PAHOLE_STATS_NONE)
		for (size_t i = 0; i < ps->defs.len; i++)
			strbuf_addf(out, "%s%c%u\n", ps->defs.data[i].name, sep,
				    ps->defs.data[i].nr_units);
	return out->oom ? d2b_error_oom(err) : 0;
}
