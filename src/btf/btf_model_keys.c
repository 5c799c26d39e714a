// SPDX-License-Identifier: GPL-2.0-only
/*
 * Structural keys from the model (see btf_model_keys.h): each local id's
 * own hash and edges, as the encoder would write its record, then the
 * components' keys by btf_keys_of_graph().
 */
#include "btf/btf_model_keys.h"

#include <stdlib.h>

#include "btf/btf_cut_names.h"
#include "btf/btf_hash.h"
#include "btf/btf_model_view.h"
#include "btf/btf_strtab.h"
#include "dwarf/dw_const.h"

/* What the own hashes start from: one value a kind of node, so that nodes
 * of different kinds differ whatever they hold, under the run's seed. The
 * seed makes every state unknown to whoever wrote the DWARF: names by
 * place, sizes and values are all known words, and from a known state two
 * enums whose values collide are solved for in a second (a review did it);
 * the records' keys have the seed through their string hashes. */
enum {
	NODE_TYPE = 0x6d6b0000,		/* + the model kind */
	NODE_TYPE_TAG = 0x6d6b1000,
	NODE_INDEX_INT = 0x6d6b2000,
	NODE_DECL_TAG = 0x6d6b3000,
};

/* An own hash's start: the run's seed, then the node's kind as a word of
 * its own. Not the kind folded into the start value: a start that differs
 * by one in a lane is undone by a first word that differs by one (a type
 * named by the string at .debug_str offset 0, word 1, against a nameless
 * one of the next kind, word 0: the fuzzer found that pair). */
static inline void start(struct h128 *h, uint64_t seed, uint64_t node)
{
	h_init(h, seed);
	h_add(h, node);
}

struct mk {
	const struct btf_model_keys_in *in;
	struct btf_keys_graph g;
	size_t nr_edges, cap_edges;
	bool oom;
	/* with in->cut: by model index, what an edge to that struct or
	 * union is (CUT_UNKNOWN: not asked yet, CUT_NOT: an edge, else the
	 * word that stands for it) */
	uint64_t *cut_word;
};

enum { CUT_UNKNOWN = 0, CUT_NOT = 1 };

/* name_of() for a name not in .debug_str: its content's hash (even). Out
 * of line: the common case below stays small enough to inline (9 M calls
 * on the kernel). */
static __attribute__((noinline)) uint64_t name_by_content(const struct btf_model_keys_in *in,
							  const char *s)
{
	size_t len;

	return btf_str_hash_seeded(s, &len, in->seed) & ~1ull;
}

/* A name as it takes part in a hash: 0 for none; where it lies when in
 * .debug_str (odd); else its content's hash (even). */
static inline __attribute__((always_inline)) uint64_t name_of(const struct btf_model_keys_in *in,
								 const char *s)
{
	if (!s)
		return 0;
	if (s >= in->str_lo && s < in->str_hi)
		return (uint64_t)(s - in->str_lo) << 1 | 1;
	return name_by_content(in, s);
}

uint64_t btf_model_keys_name_id(const struct btf_model_keys_in *in, const char *s)
{
	return name_of(in, s);
}

/* Local id V (0: void) as a word of the own hash: an edge when not void. */
static inline uint64_t edge(struct mk *m, uint32_t v)
{
	if (!v)
		return 0;
	if (m->nr_edges == m->cap_edges) {
		size_t cap = m->cap_edges ? 2 * m->cap_edges : 1024;
		uint32_t *p = realloc(m->g.edges, cap * sizeof(*p));

		if (!p) {
			m->oom = true;
			return 1;
		}
		m->g.edges = p;
		m->cap_edges = cap;
	}
	m->g.edges[m->nr_edges++] = v;
	return 1;
}

static inline void hash_decl_tags(const struct btf_model_keys_in *in, struct h128 *h,
				  const struct annotation *a, uint64_t where)
{
	for (; a; a = a->next)
		if (is_decl_tag(a))
			h_add2(h, where, name_of(in, a->value));
}

/* The word that stands for the struct or union T (model index I) when an
 * edge to it is cut, or CUT_NOT. Once per type and unit. */
static __attribute__((noinline)) uint64_t cut_word_of(struct mk *m, const struct type *t)
{
	const struct btf_model_keys_in *in = m->in;
	bool is_union = t->kind == TK_UNION;
	uint64_t id, w = CUT_NOT;

	if (t->name && (t->kind == TK_STRUCT || t->kind == TK_CLASS || is_union)) {
		id = name_of(in, t->name);
		if (btf_cut_names_may_cut(in->cut, id, is_union)) {
			/* the name and the kind a FWD of it would have,
			 * as a word no edge word (0, 1) and no other cut
			 * word of another name is */
			w = fmix64(id ^ 0x6d6b4000) * 2 + is_union;
			if (w <= CUT_NOT)
				w += 2;
		}
	}
	m->cut_word[t->id] = w;
	return w;
}

/*
 * An edge to model type T as it takes part in an own hash: 0 for void, 1
 * for a node (its edge recorded), 2 for a struct or union cut to its name
 * (btf_model_keys.h): then *CUT is the word that stands for it, which the
 * caller adds to the hash after the word that holds the 2.
 */
static inline uint64_t edge_to(struct mk *m, const struct type *t, uint64_t *cut)
{
	const struct btf_model_keys_in *in = m->in;
	const struct type *u = model_target(in->cu, t);
	uint64_t w;

	if (!u)
		return 0;
	if (m->cut_word && (u->kind == TK_STRUCT || u->kind == TK_UNION || u->kind == TK_CLASS)) {
		w = m->cut_word[u->id];
		if (w == CUT_UNKNOWN)
			w = cut_word_of(m, u);
		if (w != CUT_NOT) {
			*cut = w;
			return 2;
		}
	}
	return edge(m, in->ids[u->id]);
}

/* h_add() of the edge to T, and its cut word when it is cut. */
static inline void add_edge_to(struct mk *m, struct h128 *h, const struct type *t)
{
	uint64_t cut = 0, e = edge_to(m, t, &cut);

	h_add(h, e);
	if (e == 2)
		h_add(h, cut);
}

/* The own hash and edges of model type T (local id ids[T->id]), in the
 * order of its record's words (btf_encode.c, add_main()). */
static struct btf_key own_type(struct mk *m, const struct type *t)
{
	const struct btf_model_keys_in *in = m->in;
	struct h128 h;

	/* a declaration (a FWD) apart from any definition, of any size */
	start(&h, in->seed, NODE_TYPE + t->kind + ((uint64_t)t->declaration << 8));
	h_add2(&h, name_of(in, t->name), t->size);
	switch (t->kind) {
	case TK_BASE:
		h_add(&h, (uint64_t)t->base.encoding << 32 | t->base.bit_size);
		break;
	case TK_POINTER:
	case TK_REFERENCE:
	case TK_RVALUE_REFERENCE:
	case TK_PTR_TO_MEMBER: {
		uint32_t n = nr_type_tags(in->f, t);

		/* the pointer points at its last TYPE_TAG, the tags at each
		 * other (their own nodes), the first at the pointee */
		if (n)
			h_add(&h, edge(m, in->extra[t->id] + n - 1));
		else
			add_edge_to(m, &h, t->type);
		break;
	}
	case TK_CONST:
	case TK_VOLATILE:
	case TK_RESTRICT:
	case TK_TYPEDEF:
		add_edge_to(m, &h, t->type);
		if (t->kind == TK_TYPEDEF && in->f->decl_tag)
			hash_decl_tags(in, &h, t->tags, UINT64_MAX);
		break;
	case TK_STRUCT:
	case TK_UNION:
	case TK_CLASS: {
		uint64_t idx = 0;

		h_add(&h, t->composite.nr_members);
		for (uint32_t i = 0; i < t->composite.nr_members; i++) {
			const struct member *mb = &t->composite.members[i];

			uint64_t cut = 0, e;

			if (mb->is_static)	/* not encoded */
				continue;
			/* what the record holds: the offset as 32 bits; the
			 * bit size up to 255, and 256 for any the builder
			 * refuses (the first such type fails the run) */
			e = edge_to(m, mb->type, &cut);
			h_add2(&h, name_of(in, mb->name),
			       e | (uint64_t)(mb->bit_size > 255 ? 256 : mb->bit_size) << 2 |
			       (uint64_t)(uint32_t)mb->bit_offset << 32);
			if (e == 2)
				h_add(&h, cut);
			if (in->f->decl_tag)
				hash_decl_tags(in, &h, mb->tags, idx);
			idx++;
		}
		if (in->f->decl_tag)
			hash_decl_tags(in, &h, t->tags, UINT64_MAX);
		break;
	}
	case TK_ENUM:
		h_add2(&h, t->enumeration.nr_values, t->enumeration.is_signed);
		for (uint32_t i = 0; i < t->enumeration.nr_values; i++) {
			const struct enumerator *v = &t->enumeration.values[i];

			h_add2(&h, name_of(in, v->name), (uint64_t)v->value);
		}
		break;
	case TK_ARRAY:
		h_add(&h, edge(m, in->index_id));
		h_add(&h, t->array.nr_dims);
		add_edge_to(m, &h, t->type);
		for (uint32_t i = 0; i < t->array.nr_dims; i++)
			h_add2(&h, t->array.dims[i].count, t->array.dims[i].flexible);
		break;
	case TK_FUNC_PROTO:
		h_add(&h, (uint64_t)t->proto.nr_params << 2 | t->proto.varargs << 1);
		add_edge_to(m, &h, t->type);
		for (uint32_t i = 0; i < t->proto.nr_params; i++) {
			const struct param *p = &t->proto.params[i];

			h_add(&h, name_of(in, p->name));
			add_edge_to(m, &h, p->type);
		}
		break;
	default:
		break;
	}
	return h_raw(&h);
}

/* Node V's edges start here. */
static inline void begin(struct mk *m, uint32_t v)
{
	m->g.ebeg[v] = (uint32_t)m->nr_edges;
}

int btf_model_keys(const struct btf_model_keys_in *in, struct btf_key *keys)
{
	const struct cu_model *cu = in->cu;
	size_t n2 = (size_t)in->nr_ids + 2;
	struct mk m = { .in = in, .g = { .n = in->nr_ids } };
	uint32_t done = 0;	/* nodes begun, in id order */
	int rc = -1;

	m.g.ebeg = malloc(n2 * sizeof(*m.g.ebeg));
	m.g.own = malloc(n2 * sizeof(*m.g.own));
	m.g.bad = calloc(n2, sizeof(*m.g.bad));
	/* ~2.6 edges a type in the kernel's units: room for 3, so that the
	 * list is not copied as it doubles from small (35 M instructions) */
	m.cap_edges = 3 * n2;
	m.g.edges = malloc(m.cap_edges * sizeof(*m.g.edges));
	if (in->cut)
		m.cut_word = calloc(cu->nr_types ? cu->nr_types : 1, sizeof(*m.cut_word));
	if (!m.g.ebeg || !m.g.own || !m.g.bad || !m.g.edges || (in->cut && !m.cut_word))
		goto out;

	/* the types, in model order: their ids are 1, 2, ... */
	for (uint32_t i = 0; i < cu->nr_types; i++) {
		uint32_t v = in->ids[i];

		if (!v)
			continue;
		if (v != done + 1)
			goto none;	/* not the encoder's numbering */
		begin(&m, v);
		m.g.own[v] = own_type(&m, cu->types[i]);
		done = v;
	}
	/* the TYPE_TAG chains, in model order */
	for (uint32_t i = 0; in->extra && i < cu->nr_types; i++) {
		const struct type *t = cu->types[i];
		uint32_t first = in->extra[i], k = 0, n;

		if (!first)
			continue;
		n = is_pointer_kind(t->kind) ? nr_type_tags(in->f, t) : 0;
		if (first != done + 1)
			goto none;
		for (const struct annotation *a = t->tags; a && k < n; a = a->next) {
			struct h128 h;

			if (!is_type_tag(a))
				continue;
			begin(&m, first + k);
			start(&h, in->seed, NODE_TYPE_TAG);
			h_add(&h, name_of(in, a->value));
			if (k)
				h_add(&h, edge(&m, first + k - 1));
			else
				add_edge_to(&m, &h, t->type);
			m.g.own[first + k] = h_raw(&h);
			k++;
		}
		done = first + n - 1;
	}
	if (in->index_added) {
		struct h128 h;

		if (in->index_id != done + 1)
			goto none;
		begin(&m, in->index_id);
		start(&h, in->seed, NODE_INDEX_INT);
		m.g.own[in->index_id] = h_raw(&h);
		done = in->index_id;
	}
	if (done != in->nr_ids)
		goto none;
	m.g.ebeg[in->nr_ids + 1] = (uint32_t)m.nr_edges;
	if (m.oom)
		goto out;
	rc = btf_keys_of_graph(&m.g, keys);
	goto out;
none:
	rc = 0;	/* no keys: every type is encoded and kept */
out:
	free(m.cut_word);
	free(m.g.ebeg);
	free(m.g.own);
	free(m.g.bad);
	free(m.g.edges);
	return rc;
}

struct btf_key btf_model_decl_tag_key(const struct btf_model_keys_in *in,
				      const struct btf_key *owner, const char *value,
				      int component)
{
	struct h128 h;

	if (key_none(owner))
		return *owner;
	start(&h, in->seed, NODE_DECL_TAG);
	h_add_key(&h, owner);
	h_add2(&h, name_of(in, value), (uint64_t)(int64_t)component);
	return h_key(&h);
}
