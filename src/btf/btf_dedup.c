// SPDX-License-Identifier: GPL-2.0-only
/*
 * BTF deduplication by libbpf 1.1's rules, on our records (see btf_dedup.h).
 *
 * The phases, their order and every comparison are libbpf's (btf.c:
 * btf_dedup_prim_types, _struct_types, _resolve_fwds, _ref_types,
 * _compact_types, _remap_types), since the output must be its bytes. What
 * differs is how: records in one array indexed by id, a candidate table of
 * our own (open addressing, entries in arrays, no allocation per type), and
 * the graph walks with explicit stacks, so a long chain of types cannot
 * exhaust the thread's stack.
 */
#include "btf/btf_dedup.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bpf/btf.h>
#include <linux/btf.h>

#include "btf/btf_base.h"
#include "btf/btf_wire.h"
#include "util/bigbuf.h"

#define MAX_ID 0x7fffffffu	/* libbpf's BTF_MAX_NR_TYPES */
#define UNPROCESSED 0xffffffffu
#define IN_PROGRESS 0xfffffffeu

static inline unsigned kind_of(const uint32_t *t)
{
	return (t[1] >> 24) & 0x1f;
}

static inline uint32_t vlen_of(const uint32_t *t)
{
	return t[1] & 0xffff;
}

static inline unsigned fwd_kind_of(const uint32_t *t)
{
	return t[1] >> 31 ? BTF_KIND_UNION : BTF_KIND_STRUCT;
}

static inline bool is_any_enum(const uint32_t *t)
{
	return kind_of(t) == BTF_KIND_ENUM || kind_of(t) == BTF_KIND_ENUM64;
}

static inline bool is_composite(const uint32_t *t)
{
	return kind_of(t) == BTF_KIND_STRUCT || kind_of(t) == BTF_KIND_UNION;
}

/* ---- signatures: hashes over exactly the fields libbpf hashes ---- */

static inline uint64_t mix(uint64_t h, uint64_t v)
{
	h = (h ^ v) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 29);
}

static inline uint64_t finish(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h;
}

static uint64_t hash_common(const uint32_t *t)
{
	return mix(mix(mix(1, t[0]), t[1]), t[2]);
}

static uint64_t hash_int_tag(const uint32_t *t)
{
	return finish(mix(hash_common(t), t[3]));
}

/* the name only: an enum forward declaration (vlen 0, any size) must meet
 * its enum or enum64, of any size (as libbpf 1.1 hashes it) */
static uint64_t hash_enum(const uint32_t *t)
{
	return finish(mix(2, t[0]));
}

/* not the member types: they may not be resolved yet */
static uint64_t hash_struct(const uint32_t *t)
{
	uint64_t h = hash_common(t);
	const uint32_t *m = t + 3;

	for (uint32_t i = 0, n = vlen_of(t); i < n; i++, m += 3)
		h = mix(mix(h, m[0]), m[2]);
	return finish(h);
}

static uint64_t hash_array(const uint32_t *t)
{
	return finish(mix(mix(mix(hash_common(t), t[3]), t[4]), t[5]));
}

static uint64_t hash_fnproto(const uint32_t *t)
{
	uint64_t h = hash_common(t);
	const uint32_t *p = t + 3;

	for (uint32_t i = 0, n = vlen_of(t); i < n; i++, p += 2)
		h = mix(mix(h, p[0]), p[1]);
	return finish(h);
}

/* ---- comparisons (libbpf's btf_equal_* / btf_compat_*) ---- */

static inline bool equal_common(const uint32_t *a, const uint32_t *b)
{
	return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

static bool equal_int_tag(const uint32_t *a, const uint32_t *b)
{
	return equal_common(a, b) && a[3] == b[3];
}

static bool equal_enum(const uint32_t *a, const uint32_t *b)
{
	size_t per = kind_of(a) == BTF_KIND_ENUM ? 2 : 3;

	return equal_common(a, b) && !memcmp(a + 3, b + 3, per * vlen_of(a) * 4);
}

static bool is_enum_fwd(const uint32_t *t)
{
	return is_any_enum(t) && vlen_of(t) == 0;
}

static bool compat_enum(const uint32_t *a, const uint32_t *b)
{
	if (!is_enum_fwd(a) && !is_enum_fwd(b))
		return equal_enum(a, b);
	/* a forward declaration: neither its size nor its kind need match */
	return a[0] == b[0] && is_any_enum(a) && is_any_enum(b);
}

static bool shallow_equal_struct(const uint32_t *a, const uint32_t *b)
{
	if (!equal_common(a, b))
		return false;
	for (uint32_t i = 0, n = vlen_of(a); i < n; i++)
		if (a[3 + 3 * i] != b[3 + 3 * i] || a[5 + 3 * i] != b[5 + 3 * i])
			return false;
	return true;
}

static bool equal_array(const uint32_t *a, const uint32_t *b)
{
	return equal_common(a, b) && a[3] == b[3] && a[4] == b[4] && a[5] == b[5];
}

static bool compat_array(const uint32_t *a, const uint32_t *b)
{
	return equal_common(a, b) && a[5] == b[5];
}

static bool equal_fnproto(const uint32_t *a, const uint32_t *b)
{
	return equal_common(a, b) && !memcmp(a + 3, b + 3, 8 * (size_t)vlen_of(a));
}

/* not the return type; parameter names only */
static bool compat_fnproto(const uint32_t *a, const uint32_t *b)
{
	if (a[0] != b[0] || a[1] != b[1])
		return false;
	for (uint32_t i = 0, n = vlen_of(a); i < n; i++)
		if (a[3 + 2 * i] != b[3 + 2 * i])
			return false;
	return true;
}

/* ---- the candidate table ---- */

/*
 * Canonical types by signature hash, each hash's entries in a list. libbpf
 * keeps its candidates in a hashmap whose insertions prepend to a bucket's
 * list and whose growth re-inserts every entry in bucket order, which
 * reverses the order of the entries of one key. Its candidate loops take
 * the first match, so that order is observable; it is replayed here: the
 * map's size and capacity are counted as libbpf's (it grows before an
 * insertion when empty or when size + 1 exceeds 3/4 of the capacity, to
 * twice, at least 4), and each growth flips `reversed`. A logical prepend
 * is a push at the physical head, or at the tail while reversed; a walk
 * runs from the head, or from the tail while reversed.
 */
struct cand_slot {
	uint32_t hash_lo, hash_hi;	/* 12 bytes a slot, not 16 */
	uint32_t head;		/* the list's physical head; 0: a free slot */
};

/*
 * A list's entries are linked forward by next (0 after the tail) and
 * backward by prev, and the head's prev is the tail (where a walk while
 * reversed starts), so a slot holds no tail.
 */
static inline uint64_t slot_hash(const struct cand_slot *s)
{
	return (uint64_t)s->hash_hi << 32 | s->hash_lo;
}

struct cand_table {
	struct cand_slot *slot;
	size_t nslots, used;	/* any number of slots (ct_home) */
	/* by entry, from 1: three slices of one bigbuf.h buffer of 3 * cap
	 * entries (id at 0, next at cap, prev at 2 * cap) */
	uint32_t *id, *next, *prev;
	uint32_t nr, cap;
	size_t lb_size, lb_cap;	/* libbpf's map */
	unsigned lb_bits;
	bool reversed;
};

/* The slots and the entries' arrays are bigbuf.h buffers (the vmlinux's
 * tables are tens of MiB, probed at random). */
static int ct_alloc_slots(struct cand_table *ct, size_t n)
{
	ct->slot = bigbuf_calloc(n, sizeof(*ct->slot));
	ct->nslots = n;
	return ct->slot ? 0 : -1;
}

static void ct_free(struct cand_table *ct)
{
	if (ct->slot)
		bigbuf_free(ct->slot, ct->nslots * sizeof(*ct->slot));
	bigbuf_free(ct->id, (size_t)ct->cap * 3 * sizeof(*ct->id));
	memset(ct, 0, sizeof(*ct));
}

/* Where the probe for hash H starts: its top 32 bits scaled to the
 * number of slots, which need not be a power of two: the table is sized
 * for a load of 3/4, not up to the next power. (A module's table holds
 * the vmlinux base's 95 k candidates: 2^17 or 2^18 slots of 16 bytes were
 * 2 or 4 MiB of fresh memory, every page touched by the random probes;
 * now 1.5-1.6 MB, which malloc may find already in the heap.) */
static inline size_t ct_home(const struct cand_table *ct, uint64_t h)
{
	return (size_t)(((h >> 32) * (uint64_t)ct->nslots) >> 32);
}

/* The slot of hash H, or the free slot where it would go. */
static inline size_t ct_slot(const struct cand_table *ct, uint64_t h)
{
	size_t i = ct_home(ct, h);

	while (ct->slot[i].head && slot_hash(&ct->slot[i]) != h)
		i = i + 1 == ct->nslots ? 0 : i + 1;
	return i;
}

static int ct_grow_slots(struct cand_table *ct)
{
	struct cand_table old = *ct;

	if (old.nslots > ((size_t)1 << 31) || ct_alloc_slots(ct, old.nslots * 2)) {
		ct->slot = old.slot;
		ct->nslots = old.nslots;
		return -1;
	}
	for (size_t i = 0; i < old.nslots; i++)
		if (old.slot[i].head)
			ct->slot[ct_slot(ct, slot_hash(&old.slot[i]))] = old.slot[i];
	bigbuf_free(old.slot, old.nslots * sizeof(*old.slot));
	return 0;
}

/* The entries at CAP (more than ct->cap): the one buffer resized, the
 * slices moved to their new places, the last first. */
static int ct_entries_to(struct cand_table *ct, uint32_t cap)
{
	uint32_t old = ct->cap;
	uint32_t *e = bigbuf_resize(ct->id, (size_t)old * 3 * sizeof(*e), (size_t)cap * 3 * sizeof(*e));

	if (!e)
		return -1;
	memmove(e + 2 * (size_t)cap, e + 2 * (size_t)old, (size_t)old * sizeof(*e));
	memmove(e + cap, e + old, (size_t)old * sizeof(*e));
	ct->id = e;
	ct->next = e + cap;
	ct->prev = e + 2 * (size_t)cap;
	ct->cap = cap;
	return 0;
}

static int ct_grow_entries(struct cand_table *ct)
{
	return ct_entries_to(ct, ct->cap ? ct->cap * 2 : 4096);
}

/* Room for about HINT candidates without growing. */
static int ct_init(struct cand_table *ct, size_t hint)
{
	/* a load of at most 3/4 for HINT entries (ct_add grows past it) */
	size_t slots = hint < ((size_t)1 << 30) ? hint / 3 * 4 + 4 : (size_t)1 << 30;

	memset(ct, 0, sizeof(*ct));
	if (slots < 4096)
		slots = 4096;
	if (ct_alloc_slots(ct, slots))
		return -1;
	/* the entries at their size at once (doubling moved them each time) */
	if (hint > 4096) {
		uint32_t cap = 4096;

		while (cap < hint && cap < (1u << 30))
			cap *= 2;
		return ct_entries_to(ct, cap);
	}
	return 0;
}

/* An insertion into libbpf's map, counted: hashmap_needs_to_grow() and
 * hashmap_grow(). Alone, for a candidate left out of the lists (one that
 * nothing can equal): what libbpf's map holds decides when it grows, and
 * so the order of what is in the lists. */
static inline void ct_count(struct cand_table *ct)
{
	if (ct->lb_cap == 0 || (ct->lb_size + 1) * 4 / 3 > ct->lb_cap) {
		ct->lb_bits = ct->lb_bits + 1 < 2 ? 2 : ct->lb_bits + 1;
		ct->lb_cap = (size_t)1 << ct->lb_bits;
		ct->reversed = !ct->reversed;
	}
	ct->lb_size++;
}

static int ct_add(struct cand_table *ct, uint64_t h, uint32_t type_id)
{
	uint32_t e, head;
	size_t s;

	ct_count(ct);

	if (ct->nr + 2 > ct->cap && ct_grow_entries(ct))
		return -1;
	if ((ct->used + 1) * 4 > ct->nslots * 3 && ct_grow_slots(ct))
		return -1;
	e = ++ct->nr;
	ct->id[e] = type_id;
	s = ct_slot(ct, h);
	head = ct->slot[s].head;
	if (!head) {
		ct->slot[s] = (struct cand_slot){ .hash_lo = (uint32_t)h,
						  .hash_hi = (uint32_t)(h >> 32), .head = e };
		ct->next[e] = 0;
		ct->prev[e] = e;	/* its own tail */
		ct->used++;
	} else if (!ct->reversed) {
		/* a new head: it takes over the link to the tail */
		ct->next[e] = head;
		ct->prev[e] = ct->prev[head];
		ct->prev[head] = e;
		ct->slot[s].head = e;
	} else {
		/* a new tail */
		uint32_t tail = ct->prev[head];

		ct->next[tail] = e;
		ct->next[e] = 0;
		ct->prev[e] = tail;
		ct->prev[head] = e;
	}
	return 0;
}

/* The physical head of hash H's list, or 0. */
static inline uint32_t ct_head(const struct cand_table *ct, uint64_t h)
{
	return ct->slot[ct_slot(ct, h)].head;
}

/* The first entry of the list at HEAD in libbpf's order, or 0. */
static inline uint32_t ct_first(const struct cand_table *ct, uint32_t head)
{
	return head && ct->reversed ? ct->prev[head] : head;
}

/* The entry after E in libbpf's order, or 0: backward, the head is the last. */
static inline uint32_t ct_next(const struct cand_table *ct, uint32_t e, uint32_t head)
{
	if (!ct->reversed)
		return ct->next[e];
	return e == head ? 0 : ct->prev[e];
}

/* (E's list head is E##_head, declared by the loop: a body must not
 * declare that name) */
#define for_each_cand(ct, e, h)                                                  \
	for (uint32_t e##_head = ct_head(ct, h), e = ct_first(ct, e##_head); e; \
	     e = ct_next(ct, e, e##_head))

/* ---- the state ---- */

/* A pair being compared: its referenced pairs are cand[i * stride] and
 * canon[i * stride], i < n (libbpf's order). */
struct equiv_frame {
	const uint32_t *cand, *canon;
	int stride;
	uint32_t n;
};

struct ref_frame {
	uint32_t id, i;
};

/* What the phases keep of a type, together: a comparison of two types
 * reads each one's node (one cache line) and then their records. */
struct node {
	uint32_t off;		/* its record's word */
	uint32_t map;		/* canonical id, or UNPROCESSED / IN_PROGRESS */
	uint32_t hypot;		/* hypothetical map; compaction's new id later */
	uint32_t kind;
};

struct dedup {
	uint32_t *words;
	uint32_t n;		/* ids 0..n-1 */
	uint32_t start;		/* the first id of ours (below: the base's) */
	/* the base's records (ids 1 .. start - 1): at base_words + their
	 * node's off when they lie in one piece (a base that is not split
	 * itself), else at base_rec[id - 1] */
	const uint32_t *base_words;
	const uint32_t *const *base_rec;	/* the view's: not ours */
	uint32_t void_rec[3];
	uint32_t base_anon;	/* the base's types without a name */
	struct node *nd;	/* by id; 0: void */
	uint32_t *hypot_list;
	size_t hypot_cnt;
	bool hypot_adjust_canon;	/* the graphs differ by a base FWD */
	struct cand_table ct;
	struct equiv_frame *estack;
	size_t cap_estack;
	struct ref_frame *rstack;
	size_t cap_rstack;
	uint64_t graph_checks, graph_steps;
	size_t prev_end;	/* the word after the last record with a node */
	size_t cap_nd, cap_hl;	/* nodes, hypot_list entries allocated */
	/* Run unit by unit (btf_dedup_incr_add): then whatever could make the
	 * result differ from libbpf's all-at-once order sets AMBIGUOUS (why),
	 * and the caller starts over, all at once. */
	bool incremental;
	const char *ambiguous;
	uint32_t chunk_from;	/* unit by unit: the first id of this call's types */
};

static inline uint32_t *rec(struct dedup *d, uint32_t id)
{
	if (id >= d->start)
		return d->words + d->nd[id].off;
	/* the base's records are only read (never rewritten) */
	if (!id)
		return d->void_rec;
	return (uint32_t *)(d->base_rec ? d->base_rec[id - 1] : d->base_words + d->nd[id].off);
}

static inline bool is_mapped(const struct dedup *d, uint32_t id)
{
	return d->nd[id].map <= MAX_ID;
}

static inline uint32_t resolve(const struct dedup *d, uint32_t id)
{
	while (is_mapped(d, id) && d->nd[id].map != id)
		id = d->nd[id].map;
	return id;
}

/* A FWD resolved to a struct/union: that; else ID. */
static inline uint32_t resolve_fwd(const struct dedup *d, uint32_t id)
{
	uint32_t r;

	if (d->nd[id].kind != BTF_KIND_FWD)
		return id;
	r = resolve(d, id);
	return d->nd[r].kind != BTF_KIND_FWD ? r : id;
}

static int grow(void **p, size_t *cap, size_t elem, size_t want)
{
	size_t ncap = *cap ? *cap : 256;
	void *np;

	if (want <= *cap)
		return 0;
	while (ncap < want)
		ncap *= 2;
	np = realloc(*p, ncap * elem);
	if (!np)
		return -1;
	*p = np;
	*cap = ncap;
	return 0;
}

typedef bool (*equal_fn)(const uint32_t *a, const uint32_t *b);

/* The first candidate of hash H that EQUAL says is T's equal, or 0. */
static uint32_t find_equal(struct dedup *d, const uint32_t *t, uint64_t h, equal_fn equal)
{
	for_each_cand(&d->ct, e, h)
		if (equal(t, rec(d, d->ct.id[e])))
			return d->ct.id[e];
	return 0;
}

/* ---- primitive types ---- */

/*
 * Whether the loop below gives another answer in another order of the
 * candidates (hash H) of enum T: a declaration takes the first enum of its
 * name, and an enum takes over the canonical declarations before its
 * equal. Unit by unit, that order is not libbpf's (see several_equivalent()).
 * When a declaration is taken over matters too (dedup_prim()).
 */
static bool enum_order_matters(struct dedup *d, const uint32_t *t, uint64_t h)
{
	unsigned equal = 0, compat = 0;

	for_each_cand(&d->ct, e, h) {
		const uint32_t *c = rec(d, d->ct.id[e]);

		if (equal_enum(t, c))
			equal++;
		else if (compat_enum(t, c))
			compat++;
	}
	return is_enum_fwd(t) ? equal + compat > 1 : equal > 1 || (equal && compat);
}

static int dedup_prim(struct dedup *d, uint32_t id)
{
	const uint32_t *t = rec(d, id);
	uint32_t new_id = id;
	uint64_t h;

	switch (kind_of(t)) {
	case BTF_KIND_INT:
		h = hash_int_tag(t);
		new_id = find_equal(d, t, h, equal_int_tag);
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		h = hash_enum(t);
		if (d->incremental && enum_order_matters(d, t, h)) {
			d->ambiguous = "an enum declaration with two candidates";
			return 0;
		}
		for_each_cand(&d->ct, e, h) {
			uint32_t c = d->ct.id[e];
			const uint32_t *ct = rec(d, c);

			if (equal_enum(t, ct)) {
				new_id = c;
				break;
			}
			if (compat_enum(t, ct)) {
				if (is_enum_fwd(t)) {	/* the declaration to the enum */
					new_id = c;
					break;
				}
				/* Unit by unit, an earlier unit's struct phase saw the
				 * declaration as the enum that took it over before: all
				 * at once it sees only the last one (a walk short-cuts
				 * types that resolve alike). The first takeover is
				 * harmless: nothing earlier resolves to a later enum. */
				if (d->incremental && d->nd[c].map != c &&
				    d->nd[c].map < d->chunk_from) {
					d->ambiguous = "an enum declaration taken over again";
					return 0;
				}
				d->nd[c].map = id;	/* a canonical declaration to this enum */
			}
		}
		break;
	case BTF_KIND_FWD:
	case BTF_KIND_FLOAT:
		h = finish(hash_common(t));
		new_id = find_equal(d, t, h, equal_common);
		break;
	default:
		return 0;
	}
	if (!new_id)
		new_id = id;
	d->nd[id].map = new_id;
	return new_id == id ? ct_add(&d->ct, h, id) : 0;
}

/* ---- structs and unions: type graph equivalence ---- */

static void hypot_clear(struct dedup *d)
{
	for (size_t i = 0; i < d->hypot_cnt; i++)
		d->nd[d->hypot_list[i]].hypot = UNPROCESSED;
	d->hypot_cnt = 0;
	d->hypot_adjust_canon = false;
}

static bool identical_arrays(struct dedup *d, uint32_t a, uint32_t b)
{
	const uint32_t *ta = rec(d, a), *tb = rec(d, b);

	return kind_of(ta) == BTF_KIND_ARRAY && kind_of(tb) == BTF_KIND_ARRAY &&
	       equal_array(ta, tb);
}

/*
 * libbpf 1.1 (since f3c51fe02c55, October 2022): the same member types, or
 * members that are in turn identical arrays or identical structs/unions,
 * not merely equivalent ones. libbpf recurses without a bound (twin structs
 * that embed themselves, only in made-up bytes, overflow its stack; twins
 * of twins of ... take exponential time); ours stops, answering "not
 * identical", past IDENT_DEPTH levels or IDENT_BUDGET structs compared for
 * one question: far beyond what compilers emit.
 */
#define IDENT_DEPTH 4096
#define IDENT_BUDGET (1u << 20)

static bool identical_structs_at(struct dedup *d, uint32_t a, uint32_t b, unsigned depth,
				 uint32_t *budget)
{
	const uint32_t *ta = rec(d, a), *tb = rec(d, b);

	if (depth > IDENT_DEPTH || !*budget || !is_composite(ta) || kind_of(ta) != kind_of(tb) ||
	    !shallow_equal_struct(ta, tb))
		return false;
	--*budget;
	for (uint32_t i = 0, n = vlen_of(ta); i < n; i++) {
		uint32_t ma = ta[4 + 3 * i], mb = tb[4 + 3 * i];

		if (ma != mb && !identical_arrays(d, ma, mb) &&
		    !identical_structs_at(d, ma, mb, depth + 1, budget))
			return false;
	}
	return true;
}

static bool identical_structs(struct dedup *d, uint32_t a, uint32_t b)
{
	uint32_t budget = IDENT_BUDGET;

	return identical_structs_at(d, a, b, 0, &budget);
}

/*
 * One step of libbpf's btf_dedup_is_equiv(CAND, CANON): 1 or 0 when decided
 * here, 2 when the answer is that of the pairs of referenced types (F is
 * then set up to walk them), or a negative errno.
 */
static inline __attribute__((always_inline)) int equiv_enter(struct dedup *d, uint32_t cand_id, uint32_t canon_id,
			      struct equiv_frame *f)
{
	const uint32_t *ct, *kt;
	unsigned ck, kk;
	uint32_t h;

	if (resolve(d, cand_id) == resolve(d, canon_id))
		return 1;
	canon_id = resolve_fwd(d, canon_id);
	h = d->nd[canon_id].hypot;
	if (h <= MAX_ID) {
		if (h == cand_id)
			return 1;
		/* compilers emit identical arrays, even structs, twice */
		return identical_arrays(d, h, cand_id) || identical_structs(d, h, cand_id);
	}
	d->hypot_list[d->hypot_cnt++] = canon_id;	/* at most once each: room for n */
	d->nd[canon_id].hypot = cand_id;

	ck = d->nd[cand_id].kind;
	kk = d->nd[canon_id].kind;
	ct = rec(d, cand_id);
	kt = rec(d, canon_id);
	if (ct[0] != kt[0])
		return 0;
	if ((ck == BTF_KIND_FWD || kk == BTF_KIND_FWD) && ck != kk) {
		if (ck == BTF_KIND_FWD)
			return fwd_kind_of(ct) == kk;
		/* a base FWD would need resolving: not equivalent, but the
		 * merge still points it at the struct */
		if (fwd_kind_of(kt) == ck && canon_id < d->start)
			d->hypot_adjust_canon = true;
		return fwd_kind_of(kt) == ck;
	}
	if (ck != kk)
		return 0;
	switch (ck) {
	case BTF_KIND_INT:
		return equal_int_tag(ct, kt);
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		return compat_enum(ct, kt);
	case BTF_KIND_FWD:
	case BTF_KIND_FLOAT:
		return equal_common(ct, kt);
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_FUNC:
	case BTF_KIND_TYPE_TAG:
		if (ct[1] != kt[1])
			return 0;
		*f = (struct equiv_frame){ .cand = ct + 2, .canon = kt + 2, .stride = 0, .n = 1 };
		return 2;
	case BTF_KIND_ARRAY:	/* the index type, then the element type */
		if (!compat_array(ct, kt))
			return 0;
		*f = (struct equiv_frame){ .cand = ct + 4, .canon = kt + 4, .stride = -1, .n = 2 };
		return 2;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		if (!shallow_equal_struct(ct, kt))
			return 0;
		*f = (struct equiv_frame){ .cand = ct + 4, .canon = kt + 4, .stride = 3,
					   .n = vlen_of(ct) };
		return f->n ? 2 : 1;
	case BTF_KIND_FUNC_PROTO:	/* the return type, then the parameters' */
		if (!compat_fnproto(ct, kt))
			return 0;
		*f = (struct equiv_frame){ .cand = ct + 2, .canon = kt + 2, .stride = 2,
					   .n = 1 + vlen_of(ct) };
		return 2;
	default:
		return -EINVAL;
	}
}

/* libbpf's btf_dedup_is_equiv(): a depth-first walk of both graphs side by
 * side, stopping at the first pair found different. 1, 0 or -errno. A pair
 * of one id is equivalent at once (its ids resolve alike), so it is not
 * entered. */
static int is_equiv(struct dedup *d, uint32_t cand_id, uint32_t canon_id)
{
	size_t top = 0;
	int r;

	if (grow((void **)&d->estack, &d->cap_estack, sizeof(*d->estack), 1))
		return -ENOMEM;
	d->graph_checks++;
	d->graph_steps++;
	r = equiv_enter(d, cand_id, canon_id, &d->estack[0]);
	if (r != 2)
		return r;
	top = 1;
	while (top) {
		struct equiv_frame *f = &d->estack[top - 1];
		uint32_t c, k;

		if (!f->n) {
			top--;
			continue;
		}
		c = *f->cand;
		k = *f->canon;
		f->cand += f->stride;
		f->canon += f->stride;
		f->n--;
		if (c == k)
			continue;
		if (top == d->cap_estack &&
		    grow((void **)&d->estack, &d->cap_estack, sizeof(*d->estack), top + 1))
			return -ENOMEM;
		d->graph_steps++;
		r = equiv_enter(d, c, k, &d->estack[top]);
		if (r == 2)
			top++;
		else if (r <= 0)
			return r;
	}
	return 1;
}

/* libbpf's btf_dedup_merge_hypot_map(): FWDs to the structs they met, and
 * the structs of the candidate's graph to canonical ones where known. */
static void merge_hypot(struct dedup *d)
{
	for (size_t i = 0; i < d->hypot_cnt; i++) {
		uint32_t canon = d->hypot_list[i];
		uint32_t t_id = resolve(d, d->nd[canon].hypot);
		uint32_t c_id = resolve(d, canon);
		unsigned tk = d->nd[t_id].kind, ck = d->nd[c_id].kind;

		if (tk != BTF_KIND_FWD && ck == BTF_KIND_FWD)
			d->nd[c_id].map = t_id;
		if (d->hypot_adjust_canon)
			continue;
		if (tk == BTF_KIND_FWD && ck != BTF_KIND_FWD)
			d->nd[t_id].map = c_id;
		if ((tk == BTF_KIND_STRUCT || tk == BTF_KIND_UNION) && ck != BTF_KIND_FWD &&
		    is_mapped(d, c_id) && !is_mapped(d, t_id))
			d->nd[t_id].map = c_id;
	}
}

#define NOT_CHECKED UINT32_MAX

/* libbpf's check of candidate C for struct ID (record T): 1 equivalent, 0
 * not, or a negative errno; the hypothetical map as the walk left it. */
static int cand_equiv(struct dedup *d, uint32_t id, const uint32_t *t, uint32_t c)
{
	/* a FWD of the same hash would make a loop FWD <-> STRUCT */
	if (!shallow_equal_struct(t, rec(d, c)))
		return 0;
	hypot_clear(d);
	return is_equiv(d, id, c);
}

/*
 * Whether struct ID (record T, hash H) has two canonical candidates whose
 * graphs are equivalent to its own: 1 or 0, or a negative errno. Then
 * which one libbpf takes depends on the order of the candidate table,
 * which the growth of its map sets, and so on how many primitives came
 * before: unit by unit, the first units' structs come before the later
 * units' primitives. With one equivalent candidate, or none, any order
 * gives the same answer (a failed check leaves nothing behind). Checks
 * only when two candidates look alike (on the Debian vmlinux: 723 of the
 * 14 k structs checked; none had two equivalent ones). *ONLY: the one
 * equivalent candidate, 0 for none, NOT_CHECKED when fewer than two look
 * alike (dedup_struct() checks that one again, for its hypothetical map).
 */
static int several_equivalent(struct dedup *d, uint32_t id, const uint32_t *t, uint64_t h,
			      uint32_t *only)
{
	unsigned alike = 0, equivalent = 0;

	*only = NOT_CHECKED;
	for_each_cand(&d->ct, e, h)
		if (shallow_equal_struct(t, rec(d, d->ct.id[e])) && ++alike > 1)
			break;
	if (alike < 2)
		return 0;
	*only = 0;
	for_each_cand(&d->ct, e, h) {
		uint32_t c = d->ct.id[e];
		int eq = cand_equiv(d, id, t, c);

		if (eq < 0)
			return eq;
		if (eq && !d->hypot_adjust_canon) {
			if (++equivalent > 1)
				break;
			*only = c;
		}
	}
	hypot_clear(d);
	return equivalent > 1;
}

static int dedup_struct(struct dedup *d, uint32_t id)
{
	const uint32_t *t;
	uint32_t new_id = id, only = NOT_CHECKED;
	uint64_t h;

	if (is_mapped(d, id))	/* done, or mapped by an earlier graph */
		return 0;
	t = rec(d, id);
	if (!is_composite(t))
		return 0;
	h = hash_struct(t);
	if (d->incremental) {
		int n = several_equivalent(d, id, t, h, &only);

		if (n < 0)
			return n;
		if (n) {
			d->ambiguous = "a struct with two equivalent candidates";
			return 0;
		}
	}
	for_each_cand(&d->ct, e, h) {
		uint32_t c = d->ct.id[e];
		int eq;

		/* several_equivalent() checked them all: the one, if any */
		if (only != NOT_CHECKED && c != only)
			continue;
		eq = cand_equiv(d, id, t, c);
		if (eq < 0)
			return eq;
		if (!eq)
			continue;
		merge_hypot(d);
		if (d->hypot_adjust_canon)
			continue;
		new_id = c;
		break;
	}
	d->nd[id].map = new_id;
	return new_id == id ? ct_add(&d->ct, h, id) : 0;
}

/* ---- names: which base types can be candidates; FWDs ---- */

/*
 * The names our types have (name offsets: the merge gives a string the
 * base has the base's offset), as a set: every kind of candidate that has
 * a name equals only a type of the same name (libbpf's btf_equal_common(),
 * btf_shallow_equal_struct(), btf_compat_enum()... compare name_off
 * first), so a named base type whose name none of ours has is never
 * anybody's match.
 */
struct name_set {
	uint32_t *slot;		/* name offsets; 0: free */
	size_t mask;
};

static int name_set_init(struct name_set *ns, struct dedup *d)
{
	size_t cap = 64;

	while (cap < (size_t)(d->n - d->start) * 2)
		cap *= 2;
	ns->slot = calloc(cap, sizeof(*ns->slot));
	if (!ns->slot)
		return -ENOMEM;
	ns->mask = cap - 1;
	for (uint32_t id = d->start; id < d->n; id++) {
		uint32_t name = rec(d, id)[0];
		size_t i = finish(name) & ns->mask;

		if (!name)
			continue;
		while (ns->slot[i] && ns->slot[i] != name)
			i = (i + 1) & ns->mask;
		ns->slot[i] = name;
	}
	return 0;
}

static inline bool name_set_has(const struct name_set *ns, uint32_t name)
{
	size_t i = finish(name) & ns->mask;

	while (ns->slot[i] && ns->slot[i] != name)
		i = (i + 1) & ns->mask;
	return ns->slot[i] == name;
}

struct name_slot {
	uint32_t name;	/* name offset + 1; 0: free */
	uint32_t id;	/* the one struct or union; 0: several; UNPROCESSED: none */
};

/*
 * libbpf's btf_dedup_resolve_fwds(): each FWD of ours that is still its
 * own canonical type becomes the canonical struct or union of its name,
 * when exactly one has that name, and of its kind. libbpf maps every
 * canonical struct's and union's name; only the names our FWDs have are
 * looked at here: a table of those first (a module without FWDs needs
 * none), then one pass over the structs and unions, the base's included.
 */
static int resolve_fwds(struct dedup *d)
{
	size_t nfwd = 0, cap = 64, mask;
	struct name_slot *s;

	for (uint32_t id = d->start; id < d->n; id++)
		nfwd += d->nd[id].kind == BTF_KIND_FWD && d->nd[id].map == id;
	if (!nfwd)
		return 0;
	while (cap < nfwd * 2)
		cap *= 2;
	s = calloc(cap, sizeof(*s));
	if (!s)
		return -ENOMEM;
	mask = cap - 1;
	for (uint32_t id = d->start; id < d->n; id++) {
		uint32_t name;
		size_t i;

		if (d->nd[id].kind != BTF_KIND_FWD || d->nd[id].map != id)
			continue;
		name = rec(d, id)[0] + 1;
		i = finish(name) & mask;
		while (s[i].name && s[i].name != name)
			i = (i + 1) & mask;
		s[i] = (struct name_slot){ .name = name, .id = UNPROCESSED };
	}
	for (uint32_t id = 1; id < d->n; id++) {
		uint32_t name;
		size_t i;

		if ((d->nd[id].kind != BTF_KIND_STRUCT && d->nd[id].kind != BTF_KIND_UNION) ||
		    d->nd[id].map != id)
			continue;
		name = rec(d, id)[0] + 1;
		i = finish(name) & mask;
		while (s[i].name && s[i].name != name)
			i = (i + 1) & mask;
		if (s[i].name)
			s[i].id = s[i].id == UNPROCESSED ? id : 0;
	}
	for (uint32_t id = d->start; id < d->n; id++) {
		const uint32_t *t;
		size_t i;

		if (d->nd[id].kind != BTF_KIND_FWD || d->nd[id].map != id)
			continue;
		t = rec(d, id);
		i = finish(t[0] + 1) & mask;
		while (s[i].name != t[0] + 1)
			i = (i + 1) & mask;
		if (s[i].id == UNPROCESSED || !s[i].id || d->nd[s[i].id].kind != fwd_kind_of(t))
			continue;
		d->nd[id].map = s[i].id;
	}
	free(s);
	return 0;
}

/* ---- reference types, bottom up ---- */

/* Where the I-th referenced id of T is, in libbpf's order, or NULL past
 * the last; *bad when T is not a reference type. */
static uint32_t *ref_child(uint32_t *t, uint32_t i, bool *bad)
{
	switch (kind_of(t)) {
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_FUNC:
	case BTF_KIND_TYPE_TAG:
	case BTF_KIND_DECL_TAG:
		return i == 0 ? &t[2] : NULL;
	case BTF_KIND_ARRAY:	/* the element type, then the index type */
		return i < 2 ? &t[3 + i] : NULL;
	case BTF_KIND_FUNC_PROTO:
		if (i == 0)
			return &t[2];
		return i <= vlen_of(t) ? &t[4 + 2 * (i - 1)] : NULL;
	default:
		*bad = true;
		return NULL;
	}
}

/* T's references are canonical: find its equal or make it canonical. */
static int ref_finish(struct dedup *d, uint32_t id)
{
	const uint32_t *t = rec(d, id);
	uint32_t new_id;
	equal_fn equal;
	uint64_t h;

	switch (kind_of(t)) {
	case BTF_KIND_DECL_TAG:
		h = hash_int_tag(t);
		equal = equal_int_tag;
		break;
	case BTF_KIND_ARRAY:
		h = hash_array(t);
		equal = equal_array;
		break;
	case BTF_KIND_FUNC_PROTO:
		h = hash_fnproto(t);
		equal = equal_fnproto;
		break;
	default:
		h = finish(hash_common(t));
		equal = equal_common;
		break;
	}
	new_id = find_equal(d, t, h, equal);
	if (!new_id)
		new_id = id;
	d->nd[id].map = new_id;
	if (new_id == id && ct_add(&d->ct, h, id))
		return -ENOMEM;
	return (int)new_id;
}

/* libbpf's btf_dedup_ref_type(ID), its recursion as a stack: the
 * canonical id, or -ELOOP (a reference loop without a struct), -EINVAL. */
static int dedup_ref(struct dedup *d, uint32_t id)
{
	size_t top;

	if (d->nd[id].map == IN_PROGRESS)
		return -ELOOP;
	if (is_mapped(d, id))
		return (int)resolve(d, id);
	if (grow((void **)&d->rstack, &d->cap_rstack, sizeof(*d->rstack), 1))
		return -ENOMEM;
	d->nd[id].map = IN_PROGRESS;
	d->rstack[0] = (struct ref_frame){ .id = id };
	top = 1;
	for (;;) {
		struct ref_frame *f = &d->rstack[top - 1];
		bool bad = false;
		uint32_t *slot = ref_child(rec(d, f->id), f->i, &bad);
		int r;

		if (bad)
			return -EINVAL;
		if (slot) {
			uint32_t c = *slot;

			if (d->nd[c].map == IN_PROGRESS)
				return -ELOOP;
			if (is_mapped(d, c)) {
				*slot = resolve(d, c);
				f->i++;
				continue;
			}
			if (grow((void **)&d->rstack, &d->cap_rstack, sizeof(*d->rstack), top + 1))
				return -ENOMEM;
			d->nd[c].map = IN_PROGRESS;
			d->rstack[top++] = (struct ref_frame){ .id = c };
			continue;
		}
		r = ref_finish(d, f->id);
		if (r < 0)
			return r;
		if (--top == 0)
			return r;
		f = &d->rstack[top - 1];
		*ref_child(rec(d, f->id), f->i, &bad) = (uint32_t)r;
		f->i++;
	}
}

/* ---- compaction and remapping ---- */

/* Where the I-th type id of record T is (every kind), or NULL past the
 * last. A FWD's third word too, as libbpf 1.1's btf_type_visit_type_ids()
 * has it (0 in any FWD a compiler gives: it only matters for bytes made up
 * by hand, which must come out as libbpf remaps them). */
static inline __attribute__((always_inline)) uint32_t *type_id_field(uint32_t *t, uint32_t i)
{
	switch (kind_of(t)) {
	case BTF_KIND_FWD:
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_FUNC:
	case BTF_KIND_TYPE_TAG:
	case BTF_KIND_DECL_TAG:
	case BTF_KIND_VAR:
		return i == 0 ? &t[2] : NULL;
	case BTF_KIND_ARRAY:
		return i < 2 ? &t[3 + i] : NULL;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return i < vlen_of(t) ? &t[4 + 3 * i] : NULL;
	case BTF_KIND_FUNC_PROTO:
		if (i == 0)
			return &t[2];
		return i <= vlen_of(t) ? &t[4 + 2 * (i - 1)] : NULL;
	case BTF_KIND_DATASEC:
		return i < vlen_of(t) ? &t[3 + 3 * i] : NULL;
	default:
		return NULL;
	}
}

static int compact_and_remap(struct dedup *d, struct btf_dedup_types *out)
{
	uint32_t next = d->start;
	size_t p = out->first;

	d->nd[0].hypot = 0;
	for (uint32_t id = 1; id < d->start; id++)	/* the base's keep theirs */
		d->nd[id].hypot = id;
	for (uint32_t id = d->start; id < d->n; id++) {
		uint32_t *t, len;

		d->nd[id].hypot = UNPROCESSED;
		if (d->nd[id].map != id)
			continue;
		t = rec(d, id);
		len = btf_record_words(t);
		memmove(d->words + p, t, (size_t)len * 4);
		d->nd[id].hypot = next++;
		p += len;
	}
	out->nr_types = next - d->start;
	out->len = p - out->first;
	for (size_t w = out->first; w < p;) {
		uint32_t *t = d->words + w, *f;

		for (uint32_t i = 0; (f = type_id_field(t, i)); i++) {
			uint32_t nid = d->nd[resolve(d, *f)].hypot;

			if (nid > MAX_ID)
				return -EINVAL;
			*f = nid;
		}
		w += btf_record_words(t);
	}
	return 0;
}

/* ---- the whole ---- */

/* The largest type id record T refers to (0: none). */
static uint32_t max_ref(const uint32_t *t)
{
	uint32_t m = 0, n = vlen_of(t);

	switch (kind_of(t)) {
	case BTF_KIND_FWD:	/* see type_id_field() */
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_FUNC:
	case BTF_KIND_TYPE_TAG:
	case BTF_KIND_DECL_TAG:
	case BTF_KIND_VAR:
		return t[2];
	case BTF_KIND_ARRAY:
		return t[3] > t[4] ? t[3] : t[4];
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		for (uint32_t i = 0; i < n; i++)
			m = t[4 + 3 * i] > m ? t[4 + 3 * i] : m;
		return m;
	case BTF_KIND_FUNC_PROTO:
		m = t[2];
		for (uint32_t i = 0; i < n; i++)
			m = t[4 + 2 * i] > m ? t[4 + 2 * i] : m;
		return m;
	case BTF_KIND_DATASEC:
		for (uint32_t i = 0; i < n; i++)
			m = t[3 + 3 * i] > m ? t[3 + 3 * i] : m;
		return m;
	default:
		return 0;
	}
}

/* Bigbuf P of *HAVE entries of SIZE bytes with room for CAP: P itself if
 * it has, else the grown buffer (*HAVE = CAP), or NULL (P untouched). */
static void *grow_entries(void *p, size_t *have, size_t cap, size_t size)
{
	if (*have >= cap)
		return p;
	p = bigbuf_resize(p, *have * size, cap * size);
	if (p)
		*have = cap;
	return p;
}

/* Room for the nodes of ids below N (and the hypothetical list): exactly
 * N at once, or doubling when they come unit by unit. */
static int nodes_room(struct dedup *d, uint32_t n)
{
	size_t cap = d->cap_nd < d->cap_hl ? d->cap_nd : d->cap_hl;
	struct node *nd;
	uint32_t *hl;

	if (n <= cap)
		return 0;
	if (!d->incremental)
		cap = n;
	while (cap < n)
		cap = cap ? 2 * cap : (size_t)1 << 16;
	/* bigbuf.h buffers, each with its own capacity (one may grow and not
	 * the other: out of memory, then the dedup fails) */
	nd = grow_entries(d->nd, &d->cap_nd, cap, sizeof(*nd));
	if (!nd)
		return -1;
	d->nd = nd;
	hl = grow_entries(d->hypot_list, &d->cap_hl, cap, sizeof(*hl));
	if (!hl)
		return -1;
	d->hypot_list = hl;
	return 0;
}

/* The nodes of ids FROM .. d->n - 1 (their record's word, their kind,
 * nothing mapped yet but VAR and DATASEC, which are never deduplicated),
 * every record checked: a known kind, within the records, type ids within
 * the types. */
static int nodes_add(struct dedup *d, const struct btf_dedup_types *t, uint32_t from,
		     struct d2b_error *err)
{
	size_t w = d->prev_end, end = t->first + t->len, prev_end = d->prev_end;

	for (uint32_t id = from; id < d->n; id++) {
		uint32_t *r, len, ref;
		unsigned k;

		/* records in id order, apart (compaction moves them down) */
		if (t->off)
			w = t->off[id - d->start];
		r = t->words + w;
		if (w < prev_end || w + 3 > end || w > UINT32_MAX || !(len = btf_record_words(r)) ||
		    w + len > end)
			return d2b_error_set(err, "BTF dedup: type [%u] is malformed (kind %u)", id,
					     w + 3 > end ? 0 : kind_of(r));
		if ((ref = max_ref(r)) >= d->n)
			return d2b_error_set(err, "BTF dedup: type [%u] refers to type %u, past the last (%u)",
					     id, ref, d->n - 1);
		k = kind_of(r);
		d->nd[id] = (struct node){
			.off = (uint32_t)w, .kind = k, .hypot = UNPROCESSED,
			.map = k == BTF_KIND_VAR || k == BTF_KIND_DATASEC ? id : UNPROCESSED,
		};
		w += len;
		prev_end = w;
	}
	d->prev_end = prev_end;
	return 0;
}

/* The nodes of void and the base's types (canonical as they are), and
 * room for T's. */
static int nodes_init(struct dedup *d, const struct btf_dedup_types *t, struct d2b_error *err)
{
	d->prev_end = t->first;
	if (nodes_room(d, d->n))
		return d2b_error_oom(err);
	d->nd[0] = (struct node){ .map = 0, .hypot = UNPROCESSED, .kind = BTF_KIND_UNKN };
	if (d->start > 1) {
		const struct btf_base_view *v = t->base;

		/* by word from the first record (no array of 8 bytes a base
		 * type: 0.8 MB for a vmlinux base) when they are one piece,
		 * else the view's pointers */
		d->base_words = (const uint32_t *)(const void *)v->types;
		d->base_rec = v->rec;
		/* the view's kinds: no pass over the base's 4 MB of records */
		for (uint32_t id = 1; id < d->start; id++)
			d->nd[id] = (struct node){ .off = v->rec ? 0 : v->off[id - 1] / 4, .map = id,
						   .hypot = UNPROCESSED, .kind = v->kinds[id - 1] };
		d->base_anon = v->nr_anon;
	}
	return 0;
}

/* Is a base type of kind K a candidate of libbpf's btf_dedup_prep()? 1
 * yes, 0 for the kinds it leaves out (VAR, DATASEC), -EINVAL for one it
 * does not know. */
static inline int base_cand_kind(unsigned k)
{
	switch (k) {
	case BTF_KIND_VAR:
	case BTF_KIND_DATASEC:
		return 0;
	case BTF_KIND_INT:
	case BTF_KIND_DECL_TAG:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_ARRAY:
	case BTF_KIND_FUNC_PROTO:
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 1;
	default:
		return -EINVAL;
	}
}

/* The hash libbpf's btf_dedup_prep() gives base type T (of a kind
 * base_cand_kind() takes). */
static uint64_t base_hash(const uint32_t *t)
{
	switch (kind_of(t)) {
	case BTF_KIND_INT:
	case BTF_KIND_DECL_TAG:
		return hash_int_tag(t);
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		return hash_enum(t);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return hash_struct(t);
	case BTF_KIND_ARRAY:
		return hash_array(t);
	case BTF_KIND_FUNC_PROTO:
		return hash_fnproto(t);
	default:
		return finish(hash_common(t));
	}
}

#define BASE_BATCH 32	/* base hashes computed, their slots hinted, then added */

/* Marks in REACH the base ids (below START) that record T refers to. */
static void mark_base_refs(uint32_t *t, uint32_t start, uint64_t *reach)
{
	uint32_t *f;

	for (uint32_t i = 0; (f = type_id_field(t, i)); i++)
		if (*f && *f < start)
			reach[*f / 64] |= 1ull << (*f % 64);
}

/*
 * Whether base type R (id ID) can be what a type of ours maps to, given
 * REACH: the earlier base ids that can, and those our records refer to
 * (not from the encoder, whose records refer to their own kind only, but
 * a caller may). A named one when NAMES has its
 * name (every comparison of a named kind compares names, and our strings
 * take the base's offsets). An anonymous one when every type it refers to
 * can be, or is void: a reference type equals ours only where the ids it
 * refers to are what ours resolve to, and ours resolve to base ids only
 * through such types; a struct, union or function prototype is equivalent
 * to ours only where its members' or parameters' types are. A reference
 * to a later id (a few thousand in a vmlinux base) is taken as one that
 * can: the set may be too big, never too small.
 */
static bool base_reachable(uint32_t *r, uint32_t id, const uint64_t *reach,
			   const struct name_set *names)
{
	uint32_t *f;

	if (r[0])
		return name_set_has(names, r[0]);
	/* a FWD's type field is compared as it is, a DECL_TAG is named */
	if (kind_of(r) == BTF_KIND_FWD || kind_of(r) == BTF_KIND_DECL_TAG)
		return true;
	for (uint32_t i = 0; (f = type_id_field(r, i)); i++)
		if (*f && *f < id && !(reach[*f / 64] >> (*f % 64) & 1))
			return false;
	return true;
}

/*
 * libbpf's btf_dedup_prep(): the base's types are the first candidates, in
 * id order. Only those that some type of ours can equal enter the lists
 * (base_reachable(): those with a name of NAMES, and the anonymous ones
 * that refer to such); the others are counted as libbpf's map holds them
 * (ct_count(): the lists' order). A vmlinux base has 95 k candidates, of
 * which 53 k are named (42 k FUNCs), and a small module names a few
 * hundred of them; about half of the 42 k anonymous ones (pointers,
 * prototypes) refer to a name it does not have (tcp_bbr.ko takes 22.5 k of
 * the 95 k). Skipped, they cost neither hashing nor an add nor the table's
 * fresh memory in every module's run.
 *
 * In batches: a batch's hashes first and their slots hinted to the cache,
 * then the adds (a vmlinux base's 99 k adds each missed the cache in the
 * table's 2 MiB of slots: 9% of a small module's run).
 */
static int add_base_cands(struct dedup *d, const struct name_set *names)
{
	uint64_t h[BASE_BATCH];
	uint32_t ids[BASE_BATCH];	/* 0: counted only */
	uint64_t *reach = calloc(d->start / 64 + 1, sizeof(*reach));

	if (!reach)
		return -ENOMEM;
	for (uint32_t id = d->start; id < d->n; id++)
		mark_base_refs(rec(d, id), d->start, reach);
	for (uint32_t id = 1; id < d->start;) {
		unsigned n = 0;

		for (; id < d->start && n < BASE_BATCH; id++) {
			uint32_t *r = rec(d, id);	/* (only read) */
			int rc = base_cand_kind(kind_of(r));

			if (rc < 0) {
				free(reach);
				return rc;
			}
			if (!rc)
				continue;
			if (!base_reachable(r, id, reach, names)) {
				ids[n++] = 0;
				continue;
			}
			reach[id / 64] |= 1ull << (id % 64);
			h[n] = base_hash(r);
			__builtin_prefetch(&d->ct.slot[ct_home(&d->ct, h[n])], 1);
			ids[n++] = id;
		}
		for (unsigned i = 0; i < n; i++) {
			if (!ids[i])
				ct_count(&d->ct);
			else if (ct_add(&d->ct, h[i], ids[i])) {
				free(reach);
				return -ENOMEM;
			}
		}
	}
	free(reach);
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Seconds since *T0, which becomes now. */
static double lap(double *t0)
{
	double t = now_s(), d = t - *t0;

	*t0 = t;
	return d;
}

/* The primitive, then the struct phase over ids FROM .. TO - 1: 0, or a
 * negative errno. Unit by unit, stops where d->ambiguous was set. */
static int prims_and_structs(struct dedup *d, uint32_t from, uint32_t to,
			     struct btf_dedup_stats *st, double *t0)
{
	int rc;

	for (uint32_t id = from; id < to && !d->ambiguous; id++) {
		unsigned k = d->nd[id].kind;

		if ((k == BTF_KIND_INT || k == BTF_KIND_ENUM || k == BTF_KIND_ENUM64 ||
		     k == BTF_KIND_FWD || k == BTF_KIND_FLOAT) && (rc = dedup_prim(d, id)))
			return rc;
	}
	st->prim_s += lap(t0);
	for (uint32_t id = from; id < to && !d->ambiguous; id++)
		if ((d->nd[id].kind == BTF_KIND_STRUCT || d->nd[id].kind == BTF_KIND_UNION) &&
		    (rc = dedup_struct(d, id)))
			return rc;
	st->struct_s += lap(t0);
	return 0;
}

static void dedup_free(struct dedup *d)
{
	ct_free(&d->ct);
	bigbuf_free(d->nd, d->cap_nd * sizeof(*d->nd));
	bigbuf_free(d->hypot_list, d->cap_hl * sizeof(*d->hypot_list));
	free(d->estack);
	free(d->rstack);
	memset(d, 0, sizeof(*d));
}

struct btf_dedup_incr {
	struct dedup d;		/* d.incremental: started (and not given up) */
	const char *abandoned;	/* why btf_dedup() does it all again, or NULL */
	uint32_t done;		/* ids below: nodes, primitives and structs done */
	struct btf_dedup_stats st;
};

struct btf_dedup_incr *btf_dedup_incr_new(void)
{
	return calloc(1, sizeof(struct btf_dedup_incr));
}

void btf_dedup_incr_free(struct btf_dedup_incr *di)
{
	if (!di)
		return;
	dedup_free(&di->d);
	free(di);
}

static void incr_abandon(struct btf_dedup_incr *di, const char *why)
{
	dedup_free(&di->d);
	di->abandoned = why;
}

void btf_dedup_incr_add(struct btf_dedup_incr *di, const struct btf_dedup_types *t)
{
	struct dedup *d = &di->d;
	struct d2b_error err = { 0 };
	double t0 = now_s();
	uint32_t n;
	int rc;

	if (di->abandoned)
		return;
	if (t->base) {
		incr_abandon(di, "split BTF");
		return;
	}
	if (!d->incremental) {
		d->start = 1;
		d->n = 1;
		d->incremental = true;
		if (nodes_init(d, t, &err) || ct_init(&d->ct, 4096)) {
			incr_abandon(di, "no memory");
			return;
		}
		di->done = 1;
	}
	if (t->nr_types >= MAX_ID - 1 || t->nr_types + 1 < di->done) {
		incr_abandon(di, "too many types");
		return;
	}
	n = 1 + t->nr_types;
	d->words = t->words;
	if (n == di->done)
		return;
	if (nodes_room(d, n)) {
		incr_abandon(di, "no memory");
		return;
	}
	d->n = n;
	if (nodes_add(d, t, di->done, &err)) {
		incr_abandon(di, "a malformed record");	/* btf_dedup() says which */
		return;
	}
	di->st.nodes_s += lap(&t0);
	d->chunk_from = di->done;
	rc = prims_and_structs(d, di->done, n, &di->st, &t0);
	if (rc || d->ambiguous) {
		incr_abandon(di, rc == -ENOMEM ? "no memory" : rc ? "a malformed graph" : d->ambiguous);
		return;
	}
	di->done = n;
}

int btf_dedup(struct btf_dedup_types *t, struct d2b_error *err)
{
	uint32_t start = t->base ? t->base->nr_types + 1 : 1;
	struct btf_dedup_incr *di = t->incr;
	struct dedup d = { 0 };
	struct name_set names = { 0 };
	struct btf_dedup_stats st = { 0 };
	double t0 = now_s();
	int rc = -ENOMEM;

	if (start < 1 || t->nr_types >= MAX_ID - start)
		return d2b_error_set(err, "BTF dedup: %u types, more than BTF allows", t->nr_types);
	/* a record is 3 words at least: no node array for more types than that */
	if (t->nr_types > t->len / 3)
		return d2b_error_set(err, "BTF dedup: %u types in %zu words of records",
				     t->nr_types, t->len);

	if (di && di->d.incremental && start == 1 && di->done <= start + t->nr_types &&
	    (btf_dedup_incr_add(di, t), !di->abandoned)) {
		/* the units' primitives and structs are done: from there */
		d = di->d;
		memset(&di->d, 0, sizeof(di->d));
		st = di->st;
		st.incremental = true;
		d.incremental = false;
		d.words = t->words;
		t0 = now_s();
	} else {
		d.words = t->words;
		d.start = start;
		d.n = start + t->nr_types;
		if (nodes_init(&d, t, err) || nodes_add(&d, t, start, err))
			goto out;
		/* the base's anonymous types and those we name, and about one
		 * in eight of ours (the vmlinux keeps 95 k of 846 k) */
		if (start > 1 && name_set_init(&names, &d))
			goto fail;
		if (ct_init(&d.ct, d.base_anon + t->nr_types / 8))
			goto fail;
		if (start > 1 && (rc = add_base_cands(&d, &names)))
			goto fail;
		st.nodes_s = lap(&t0);
		if ((rc = prims_and_structs(&d, start, d.n, &st, &t0)))
			goto fail;
	}
	if ((rc = resolve_fwds(&d)))
		goto fail;
	st.fwd_s = lap(&t0);
	for (uint32_t id = start; id < d.n; id++) {
		int r;

		if (is_mapped(&d, id))	/* not a reference type, or done */
			continue;
		r = dedup_ref(&d, id);
		if (r < 0) {
			rc = r;
			goto fail;
		}
	}
	st.ref_s = lap(&t0);
	ct_free(&d.ct);
	if ((rc = compact_and_remap(&d, t)))
		goto fail;
	st.compact_s = lap(&t0);
	st.graph_checks += d.graph_checks;
	st.graph_steps += d.graph_steps;
	if (di)
		st.incr_abandoned = di->abandoned;
	if (t->stats)
		*t->stats = st;
	rc = 0;
fail:
	if (rc == -ELOOP)
		d2b_error_set(err, "BTF dedup: the types refer to each other in a loop");
	else if (rc == -EINVAL)
		d2b_error_set(err, "BTF dedup: a type refers to a kind it cannot refer to");
	else if (rc)
		d2b_error_oom(err);
out:
	free(names.slot);
	dedup_free(&d);
	return rc ? -1 : 0;
}
