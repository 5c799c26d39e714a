// SPDX-License-Identifier: GPL-2.0-only
/*
 * Structural keys of a fragment's types (see btf_keys.h).
 *
 * The type graph: node i is local type i, its edges the type-id words of
 * its record in word order (the kind says which words those are). Tarjan's
 * algorithm yields the strongly connected components children first, so
 * every edge that leaves a component points at types whose keys are done.
 */
#include "btf/btf_keys.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <linux/btf.h>

#include "btf/btf_hash.h"
#include "btf/btf_raw.h"
#include "btf/btf_wire.h"

static int key_cmp(const struct btf_key *x, const struct btf_key *y)
{
	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	if (x->hi != y->hi)
		return x->hi < y->hi ? -1 : 1;
	return 0;
}

static bool never_keyed(const uint32_t *w)
{
	uint32_t kind = (w[1] >> 24) & 0x1f;

	/* definitions, not types: each is its own, never a duplicate */
	return kind == BTF_KIND_VAR || kind == BTF_KIND_FUNC || kind == BTF_KIND_DATASEC;
}

#define ST_DONE 0x80000000u	/* in keys_work.st: the type's component is done */

struct keys_work {
	const struct btf_raw *r;
	uint32_t n;			/* types */
	uint32_t *ebeg;			/* first edge of id, CSR (n + 2) */
	uint32_t *edges;		/* child ids */
	struct btf_key *own;		/* each record alone, strings by content */
	struct btf_key *keys;		/* the result */
	bool *bad;			/* never keyed, or an edge out of range */
	/* Tarjan */
	/* st: 0 not visited; Tarjan's index while on the stack; ST_DONE | the
	 * component's number once done (one array for the checks made on
	 * every edge, "visited?" and "done?") */
	uint32_t *st, *low;
	uint32_t *stack, nr_stack;
	uint32_t *call, *call_edge;	/* the explicit recursion */
	uint32_t next_index, nr_comps;
	/* per component */
	uint32_t *order;		/* BFS order from the root */
	uint32_t *pos;			/* position in order, by id */
	struct weak_member *weak;	/* the component's members */
	uint32_t *slots;		/* smallest_unique()'s table */
	size_t cap_slots;
};

/* A record's walk: its edges appended, its own hash built. */
struct rec_walk {
	struct keys_work *k;
	uint32_t id;
	size_t nr_edges;
	bool ok;
};

/* The content hash of local string ref REF (the fragment's own: 64 bits,
 * equal for equal strings; 0 for ""). */
static inline uint64_t str_of(struct rec_walk *rw, uint32_t ref)
{
	const struct btf_raw *r = rw->k->r;

	if (!ref)
		return 0;
	if (ref > r->strs.nr) {
		rw->ok = false;
		return 0;
	}
	return r->strs.ents[ref - 1].hash;
}

/* Type id word V: an edge when not void; 1 for the own hash when it is one
 * (the edge's target enters the key through the edge list, in order). */
static inline uint64_t edge_of(struct rec_walk *rw, uint32_t v)
{
	if (!v)
		return 0;
	if (v > rw->k->n)
		rw->k->bad[rw->id] = true;
	else
		rw->k->edges[rw->nr_edges++] = v;
	return 1;
}

/*
 * Edges and each record's own hash. The kind says which words are strings,
 * type ids and plain values (as the builder writes them: btf_raw.c); every
 * word goes into the hash, strings by content, type ids as "an edge here"
 * (bit 0 of a packed value). False when a record does not walk (an unknown
 * kind, a string ref out of range, records past the end).
 */
static bool walk_records(struct keys_work *k)
{
	const struct btf_raw *r = k->r;
	struct rec_walk rw = { .k = k, .ok = true };
	size_t w = 0;

	for (uint32_t id = 1; id <= k->n; id++) {
		const uint32_t *p = r->words + w;
		uint32_t len, kind, vlen;
		struct h128 h;

		if (w + 3 > r->len)
			return false;
		len = btf_record_words(p);
		if (!len || w + len > r->len)
			return false;
		kind = (p[1] >> 24) & 0x1f;
		vlen = p[1] & 0xffff;
		rw.id = id;
		k->ebeg[id] = (uint32_t)rw.nr_edges;
		k->bad[id] = never_keyed(p);
		h_init(&h, p[1]);
		h_add(&h, str_of(&rw, p[0]));
		switch (kind) {
		case BTF_KIND_PTR:
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_FUNC:
		case BTF_KIND_TYPE_TAG:
			h_add(&h, edge_of(&rw, p[2]));
			break;
		case BTF_KIND_VAR:
		case BTF_KIND_DECL_TAG:
			h_add(&h, edge_of(&rw, p[2]) | (uint64_t)p[3] << 32);
			break;
		case BTF_KIND_INT:
			h_add(&h, p[2] | (uint64_t)p[3] << 32);
			break;
		case BTF_KIND_ARRAY: {
			uint64_t e = edge_of(&rw, p[3]);

			e |= edge_of(&rw, p[4]) << 1;
			h_add2(&h, p[2] | e << 32, p[5]);
			break;
		}
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			h_add(&h, p[2]);
			for (uint32_t i = 0; i < vlen; i++) {
				const uint32_t *m = p + 3 + 3 * i;

				h_add2(&h, str_of(&rw, m[0]), edge_of(&rw, m[1]) | (uint64_t)m[2] << 32);
			}
			break;
		case BTF_KIND_ENUM:
			h_add(&h, p[2]);
			for (uint32_t i = 0; i < vlen; i++) {
				h_add2(&h, str_of(&rw, p[3 + 2 * i]), p[4 + 2 * i]);
			}
			break;
		case BTF_KIND_ENUM64:
			h_add(&h, p[2]);
			for (uint32_t i = 0; i < vlen; i++) {
				const uint32_t *v = p + 3 + 3 * i;

				h_add2(&h, str_of(&rw, v[0]), v[1] | (uint64_t)v[2] << 32);
			}
			break;
		case BTF_KIND_FUNC_PROTO:
			h_add(&h, edge_of(&rw, p[2]));
			for (uint32_t i = 0; i < vlen; i++) {
				h_add2(&h, str_of(&rw, p[3 + 2 * i]), edge_of(&rw, p[4 + 2 * i]));
			}
			break;
		case BTF_KIND_DATASEC:
			h_add(&h, p[2]);
			for (uint32_t i = 0; i < vlen; i++) {
				const uint32_t *v = p + 3 + 3 * i;

				h_add2(&h, edge_of(&rw, v[0]) | (uint64_t)v[1] << 32, v[2]);
			}
			break;
		default:	/* FWD, FLOAT: the size (FWD: 0) */
			h_add(&h, p[2]);
			break;
		}
		k->own[id] = h_raw(&h);
		w += len;
	}
	k->ebeg[k->n + 1] = (uint32_t)rw.nr_edges;
	return rw.ok && w == r->len;
}

struct weak_member {
	struct btf_key key;	/* the member's neighbourhood */
	uint32_t id;
	uint32_t dup;		/* another member has the same key */
};

/* The key of a component of one type without a self edge. */
static inline __attribute__((always_inline)) void key_single(struct keys_work *k, uint32_t v)
{
	struct h128 h;

	if (k->bad[v])
		return;
	h_init(&h, 1);
	h_add_key(&h, &k->own[v]);
	for (uint32_t e = k->ebeg[v]; e < k->ebeg[v + 1]; e++) {
		const struct btf_key *c = &k->keys[k->edges[e]];

		if (key_none(c))
			return;
		h_add_key(&h, c);
	}
	k->keys[v] = h_key(&h);
}

/* The keys of component CID, whose members are MEMB[0..NR). */
/*
 * The smallest key among WM[0..NR) that no other entry has, in linear time:
 * the entries into an open-addressing table of K->slots (indices into WM,
 * at least twice as many slots as entries), an entry meeting an equal one
 * marks both, then one pass for the smallest unmarked. (A sort did it
 * before: the kernel's big component, thousands of types whose smallest
 * own hash is a PTR's that many share, sorted in each of ~800 units, was
 * 5% of a -j1 run.) False when every key is shared, or out of memory
 * (then the component goes without a key: kept as is, never wrong).
 */
static bool smallest_unique(struct keys_work *k, struct weak_member *wm, uint32_t nr,
			    uint32_t *id)
{
	size_t cap = 16, mask;
	const struct btf_key *best = NULL;

	while (cap < 2 * (size_t)nr)
		cap *= 2;
	if (cap > k->cap_slots) {
		uint32_t *p = realloc(k->slots, cap * sizeof(*p));

		if (!p)
			return false;
		k->slots = p;
		k->cap_slots = cap;
	}
	mask = cap - 1;
	memset(k->slots, 0xff, cap * sizeof(*k->slots));
	for (uint32_t i = 0; i < nr; i++) {
		size_t s = (size_t)fmix64(wm[i].key.lo ^ wm[i].key.hi) & mask;

		wm[i].dup = 0;
		for (;; s = (s + 1) & mask) {
			uint32_t j = k->slots[s];

			if (j == UINT32_MAX) {
				k->slots[s] = i;
				break;
			}
			if (!key_cmp(&wm[j].key, &wm[i].key)) {
				wm[j].dup = wm[i].dup = 1;
				break;
			}
		}
	}
	for (uint32_t i = 0; i < nr; i++) {
		if (wm[i].dup || (best && key_cmp(&wm[i].key, best) >= 0))
			continue;
		best = &wm[i].key;
		*id = wm[i].id;
	}
	return best != NULL;
}

/*
 * The root of component CID (members MEMB[0..NR)), chosen by content
 * alone: the member whose own record hashes smallest, if no other member's
 * does the same (a struct's name makes it so, mostly: cheap, no sort);
 * else the smallest own hash no other member has; else the same over each
 * member's neighbourhood (its record, its neighbours' records inside the
 * component, the keys of those outside). False when the component has no
 * key: a member never keyed, or no root (an edge out to a type without a
 * key, the other reason, key_component() finds on its walk).
 */
static bool pick_root(struct keys_work *k, const uint32_t *memb, uint32_t nr, uint32_t cid,
		      uint32_t *root)
{
	struct weak_member *wm = k->weak;
	const struct btf_key *min = NULL;
	uint32_t nr_min = 0;

	for (uint32_t i = 0; i < nr; i++) {
		uint32_t v = memb[i];
		int c;

		if (k->bad[v])
			return false;
		/* (an edge out to a type without a key: key_component()
		 * finds it, in the walk that reads those keys anyway) */
		c = min ? key_cmp(&k->own[v], min) : -1;
		if (c < 0) {
			min = &k->own[v];
			*root = v;
			nr_min = 1;
		} else if (!c) {
			nr_min++;
		}
	}
	if (nr_min == 1)
		return true;
	for (uint32_t i = 0; i < nr; i++) {
		wm[i].key = k->own[memb[i]];
		wm[i].id = memb[i];
	}
	if (smallest_unique(k, wm, nr, root))
		return true;
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t v = memb[i];
		struct h128 h;

		h_init(&h, 2);
		h_add_key(&h, &k->own[v]);
		for (uint32_t e = k->ebeg[v]; e < k->ebeg[v + 1]; e++) {
			uint32_t c = k->edges[e];

			if (k->st[c] == (ST_DONE | cid)) {
				h_add(&h, 1);
				h_add_key(&h, &k->own[c]);
			} else {
				h_add_key(&h, &k->keys[c]);
			}
		}
		wm[i].key = h_raw(&h);
		wm[i].id = v;
	}
	return smallest_unique(k, wm, nr, root);
}

/* The keys of component CID, whose members are MEMB[0..NR). */
static void key_component(struct keys_work *k, const uint32_t *memb, uint32_t nr,
			  uint32_t cid)
{
	uint32_t root = 0, head = 0, tail = 0;
	struct h128 s;

	if (!pick_root(k, memb, nr, cid, &root))
		return;

	/* breadth first from the root, edges in record order */
	k->order[tail++] = root;
	k->pos[root] = 0;
	h_init(&s, 3);
	while (head < tail) {
		uint32_t v = k->order[head++];

		h_add_key(&s, &k->own[v]);
		for (uint32_t e = k->ebeg[v]; e < k->ebeg[v + 1]; e++) {
			uint32_t c = k->edges[e];

			if (k->st[c] != (ST_DONE | cid)) {
				if (key_none(&k->keys[c]))
					goto none;	/* it reaches a type kept as is */
				h_add_key(&s, &k->keys[c]);
				continue;
			}
			if (k->pos[c] == UINT32_MAX) {
				k->pos[c] = tail;
				k->order[tail++] = c;
			}
			/* "a member here, at this place of the order": one word
			 * (a key outside is two words of a mixed hash) */
			h_add(&s, (uint64_t)k->pos[c] << 32 | 1);
		}
	}
	for (uint32_t i = 0; i < tail; i++) {
		struct h128 h = s;

		h_add(&h, i);
		k->keys[k->order[i]] = h_key(&h);
		k->pos[k->order[i]] = UINT32_MAX;
	}
	return;
none:
	for (uint32_t i = 0; i < tail; i++)
		k->pos[k->order[i]] = UINT32_MAX;
}

/* Whether every edge of V leads to a finished component: then V is a
 * component of its own (a cycle through V would pass one of them). */
static inline bool children_done(const struct keys_work *k, uint32_t v)
{
	for (uint32_t e = k->ebeg[v]; e < k->ebeg[v + 1]; e++)
		if (!(k->st[k->edges[e]] & ST_DONE))
			return false;
	return true;
}

/* V (not visited) as a finished component of its own, keyed. */
static inline void finish_single(struct keys_work *k, uint32_t v)
{
	k->st[v] = ST_DONE | ++k->nr_comps;
	key_single(k, v);
}

/* Tarjan's algorithm without recursion; each component keyed as it
 * completes. A type whose edges all lead to finished components (most of
 * them: a fragment's types mostly refer to earlier ones) is finished at
 * once, without the stacks. */
static void components(struct keys_work *k)
{
	for (uint32_t start = 1; start <= k->n; start++) {
		uint32_t depth = 0;

		if (k->st[start])
			continue;
		if (children_done(k, start)) {
			finish_single(k, start);
			continue;
		}
		k->call[depth] = start;
		k->call_edge[depth] = k->ebeg[start];
		k->st[start] = k->low[start] = ++k->next_index;
		k->stack[k->nr_stack++] = start;
		depth = 1;
		while (depth) {
			uint32_t v = k->call[depth - 1];
			uint32_t *e = &k->call_edge[depth - 1];

			if (*e < k->ebeg[v + 1]) {
				uint32_t c = k->edges[(*e)++];

				if (!k->st[c] && children_done(k, c)) {
					finish_single(k, c);
				} else if (!k->st[c]) {
					k->st[c] = k->low[c] = ++k->next_index;
					k->stack[k->nr_stack++] = c;
					k->call[depth] = c;
					k->call_edge[depth] = k->ebeg[c];
					depth++;
				} else if (k->st[c] < k->low[v]) {
					/* on the stack (a done one's ST_DONE bit is
					 * above every index) */
					k->low[v] = k->st[c];
				}
				continue;
			}
			/* V is done */
			if (k->low[v] == k->st[v]) {
				uint32_t cid = ++k->nr_comps, first = k->nr_stack;
				bool self = false;

				do
					k->st[k->stack[--first]] = ST_DONE | cid;
				while (k->stack[first] != v);
				if (k->nr_stack - first == 1) {
					for (uint32_t x = k->ebeg[v]; x < k->ebeg[v + 1]; x++)
						self |= k->edges[x] == v;
				}
				if (k->nr_stack - first == 1 && !self)
					key_single(k, v);
				else
					key_component(k, k->stack + first, k->nr_stack - first, cid);
				k->nr_stack = first;
			}
			depth--;
			if (depth) {
				uint32_t p = k->call[depth - 1];

				if (k->low[v] < k->low[p])
					k->low[p] = k->low[v];
			}
		}
	}
}

/* Tarjan's and the components' scratch for K's N nodes, then the keys.
 * 0, or -1 when out of memory. */
static int keys_run(struct keys_work *k)
{
	size_t n2 = (size_t)k->n + 2;
	int rc = -1;

	k->st = calloc(n2, sizeof(*k->st));
	k->low = malloc(n2 * sizeof(*k->low));
	k->stack = malloc(n2 * sizeof(*k->stack));
	k->call = malloc(n2 * sizeof(*k->call));
	k->call_edge = malloc(n2 * sizeof(*k->call_edge));
	k->order = malloc(n2 * sizeof(*k->order));
	k->pos = malloc(n2 * sizeof(*k->pos));
	k->weak = malloc(n2 * sizeof(*k->weak));
	if (k->st && k->low && k->stack && k->call && k->call_edge && k->order &&
	    k->pos && k->weak) {
		memset(k->pos, 0xff, n2 * sizeof(*k->pos));
		components(k);
		rc = 0;
	}
	free(k->st);
	free(k->low);
	free(k->stack);
	free(k->call);
	free(k->call_edge);
	free(k->order);
	free(k->pos);
	free(k->weak);
	free(k->slots);
	return rc;
}

int btf_keys_of_graph(const struct btf_keys_graph *g, struct btf_key *keys)
{
	struct keys_work k = {
		.n = g->n, .ebeg = g->ebeg, .edges = g->edges, .own = g->own, .bad = g->bad,
		.keys = keys,
	};

	return keys_run(&k);
}

int btf_keys_compute(const struct btf_raw *r, struct btf_key **keys)
{
	struct keys_work k = { .r = r, .n = r->nr_types };
	size_t n2 = (size_t)k.n + 2;
	int rc = -1;

	*keys = NULL;
	k.ebeg = malloc(n2 * sizeof(*k.ebeg));
	k.edges = malloc((r->len + 1) * sizeof(*k.edges));	/* an edge is a word */
	k.own = malloc(n2 * sizeof(*k.own));
	k.keys = calloc(n2, sizeof(*k.keys));
	k.bad = calloc(n2, sizeof(*k.bad));
	if (!k.ebeg || !k.edges || !k.own || !k.keys || !k.bad)
		goto out;
	if (walk_records(&k)) {
		if (keys_run(&k))
			goto out;
	}
	*keys = k.keys;
	k.keys = NULL;
	rc = 0;
out:
	free(k.ebeg);
	free(k.edges);
	free(k.own);
	free(k.keys);
	free(k.bad);
	return rc;
}
