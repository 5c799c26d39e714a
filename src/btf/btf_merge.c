// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ordered merge of raw BTF fragments (see btf_raw.h and btf_merge.h):
 * the blocks and the dedup's follower, the strings beside the turn, the
 * pre-dedup key table, the copy of what a fragment keeps, the direct adds
 * of the functions, and the end.
 */
#include "btf/btf_merge.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "btf/btf_base.h"
#include "btf/btf_dedup.h"
#include "btf/btf_load.h"
#include "btf/btf_raw_internal.h"
#include "btf/btf_wire.h"
#include "util/bigbuf.h"

/*
 * The dedup's first phases on the merged records while the merge goes on
 * (btf_merge_dedup_early()): the follower. Not a thread of its own: the
 * pool's threads take turns at it (btf_merge_follow()) after they merged.
 * It reads the records of the types published to it; the merge writes only
 * past them, but a move of the block (realloc) takes BLOCK_LOCK, which the
 * follower's turn holds while it reads.
 */
struct btf_merge_follower {
	struct btf_merge *m;
	pthread_mutex_t block_lock;	/* m->cur.words does not move */
	pthread_mutex_t lock;		/* the fields below */
	uint32_t nr_types;		/* published: types whose records are done */
	size_t len;			/* and the words they fill */
	uint32_t done;			/* types given to the dedup */
	bool busy;			/* a thread has the follower's turn */
	/* m->cur.words faulted in ahead of the merge (populate_ahead()):
	 * a move of the words takes this lock too, after block_lock */
	pthread_mutex_t populate_lock;
	size_t populated;		/* bytes of words faulted in from 0 */
	bool no_populate;		/* the kernel cannot (atomic: read unlocked) */
};

/* Room for N more words in block B. */
static int block_room(struct btf_merge_block *b, size_t n)
{
	size_t cap;
	uint32_t *w;

	if (b->len + n <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 1u << 14;
	while (cap < b->len + n)
		cap *= 2;
	if (b->follower) {
		pthread_mutex_lock(&b->follower->block_lock);
		pthread_mutex_lock(&b->follower->populate_lock);
	}
	w = bigbuf_resize_small_pages(b->words, b->cap * sizeof(*w), cap * sizeof(*w));
	if (w) {
		if (b->follower && w != b->words)
			b->follower->populated = 0;	/* (moved pages stay faulted in) */
		b->words = w;
		b->cap = cap;
	}
	if (b->follower) {
		pthread_mutex_unlock(&b->follower->populate_lock);
		pthread_mutex_unlock(&b->follower->block_lock);
	}
	return w ? 0 : -1;
}

/* A follower's turn, if nobody has it and at least MIN_BATCH types wait:
 * everything published, and what comes meanwhile. */
static void follow(struct btf_merge *m, uint32_t min_batch)
{
	struct btf_merge_follower *f = m->cur.follower;

	if (!f)
		return;
	pthread_mutex_lock(&f->lock);
	if (f->busy || f->nr_types - f->done < min_batch) {
		/* the holder looks again before it gives the turn back */
		pthread_mutex_unlock(&f->lock);
		return;
	}
	f->busy = true;
	m->follow_turns++;
	while (f->done != f->nr_types) {
		struct btf_dedup_types t = { .first = HDR_WORDS };

		t.nr_types = f->done = f->nr_types;
		t.len = f->len - HDR_WORDS;
		pthread_mutex_unlock(&f->lock);

		pthread_mutex_lock(&f->block_lock);
		t.words = f->m->cur.words;
		btf_dedup_incr_add(f->m->dedup_incr, &t);
		pthread_mutex_unlock(&f->block_lock);

		pthread_mutex_lock(&f->lock);
	}
	f->busy = false;
	pthread_mutex_unlock(&f->lock);
}

/*
 * A turn takes the types merged since the last once there are this many:
 * unit by unit (~400 types each) the follower's walks ran cold, the
 * workers having filled the core's caches in between, and cooled theirs:
 * the same 244 k graph checks and 5.3 M steps took 0.117 s against 0.087
 * s all at once (-j1). In turns of at least 32 k types: 0.078 s, and -j2
 * 0.67 -> 0.64 s (medians of 6 alternated, eleventh session; 16 k to 64 k
 * alike, 8 k less good). The last ones go at the join, on one thread:
 * ~3 ms at most.
 */
#define FOLLOW_BATCH 32768u

/*
 * How far ahead of the merge the block's words are faulted in, and how
 * much a call does. Fresh memory is the serial merge's largest cost on a
 * VM: the merge copies each kept record into the block, and the first
 * write to each page of it faults and zeroes the page (on the project's
 * VM of the eleventh session ~1-2 ms a 2 MiB page, half of a -j1 merge's
 * 0.16 s; the block is on 4 KiB pages since the twenty-fourth session,
 * bigbuf_resize_small_pages(), faulted here 2 MiB a call all the same). The
 * threads fault the pages in beforehand between their units, beside the
 * merge's turn; MADV_POPULATE_WRITE leaves the bytes as they are, so the
 * merge may be writing below meanwhile.
 */
#define POPULATE_AHEAD ((size_t)4 << 20)
#define POPULATE_STEP ((size_t)2 << 20)

/* Fault in the next POPULATE_STEP bytes of the block within POPULATE_AHEAD
 * of what the merge has written, unless another thread is at it or the
 * block is moving. */
static void populate_ahead(struct btf_merge_follower *f)
{
	struct btf_merge_block *b = &f->m->cur;
	const size_t step = POPULATE_STEP;
	size_t front, from, to, cap;

	if (__atomic_load_n(&f->no_populate, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&f->lock);
	front = f->len * sizeof(*b->words);
	pthread_mutex_unlock(&f->lock);
	if (pthread_mutex_trylock(&f->populate_lock))
		return;
	cap = b->cap * sizeof(*b->words);
	/* whole steps: the one the merge writes in is faulted in already */
	from = (f->populated > front ? f->populated : front) + step - 1;
	from -= from % step;
	to = front + POPULATE_AHEAD < cap ? front + POPULATE_AHEAD : cap;
	to -= to % step;
	if (to > from + step)
		to = from + step;
	if (cap >= BIGBUF_MIN && from < to) {
		if (!bigbuf_populate(b->words, cap, from, to))
			f->populated = to;
		else if (errno == EINVAL || errno == ENOSYS)	/* before Linux 5.14 */
			__atomic_store_n(&f->no_populate, true, __ATOMIC_RELAXED);
		/* (else: out of memory for now, say; the merge faults them) */
	}
	pthread_mutex_unlock(&f->populate_lock);
}

void btf_merge_follow(struct btf_merge *m)
{
	if (m->cur.follower)
		populate_ahead(m->cur.follower);
	follow(m, m->follow_batch);
}

/* The types merged so far to the follower (its next turn takes them). */
static void follower_publish(struct btf_merge_follower *f, const struct btf_merge_block *b)
{
	pthread_mutex_lock(&f->lock);
	f->nr_types = b->nr_types;
	f->len = b->len;
	pthread_mutex_unlock(&f->lock);
}

/* The follower done with all it was given (the rest on this thread: no
 * other thread merges or follows any more), and gone. */
static void follower_join(struct btf_merge *m)
{
	struct btf_merge_follower *f = m->cur.follower;

	if (!f)
		return;
	follow(m, 0);
	m->cur.follower = NULL;
	pthread_mutex_destroy(&f->populate_lock);
	pthread_mutex_destroy(&f->lock);
	pthread_mutex_destroy(&f->block_lock);
	free(f);
}

static void block_free(struct btf_merge_block *b)
{
	bigbuf_free(b->words, b->cap * sizeof(*b->words));
	b->words = NULL;
	b->len = b->cap = 0;
}

/* Start block B (header words reserved) for types from id FIRST_ID. */
static int block_start(struct btf_merge *m, struct btf_merge_block *b, uint32_t first_id)
{
	memset(b, 0, sizeof(*b));
	if (block_room(b, HDR_WORDS))
		return -1;
	b->len = HDR_WORDS;
	b->first_id = first_id;
	m->nr_blocks++;
	return 0;
}

/* The merge on VIEW (NULL: not split), libbpf's BASE beside it or NULL. */
static int merge_init(struct btf_merge *m, struct btf *base, const struct btf_base_view *view,
		      struct d2b_error *err)
{
	size_t plen = view ? view->str_len : 1;
	int rc;

	m->base = base;
	m->bview = view;
	m->start_id = view ? view->nr_types + 1 : 1;
	m->first_block_words = BTF_MERGE_FIRST_BLOCK / 4;
	m->block_words = BTF_MERGE_BLOCK / 4;
	/* a base's strings stay where they are (a module's run copied the
	 * vmlinux's 1.7 MB here): our offsets start after them */
	m->base_str = view ? view->strs : NULL;
	rc = view ? btf_strtab_init_biased(&m->strs, plen) : btf_strtab_init(&m->strs, "", plen);
	m->prefix_len = plen;
	m->strs_done = plen;
	if (rc || block_start(m, &m->cur, m->start_id)) {
		btf_merge_deinit(m);
		return d2b_error_oom(err);
	}
	return 0;
}

int btf_merge_init(struct btf_merge *m, struct btf *base, struct d2b_error *err)
{
	memset(m, 0, sizeof(*m));
	if (!base)
		return merge_init(m, NULL, NULL, err);
	if (btf_base_view_from_btf(&m->own_bview, base))
		return d2b_error_oom(err);
	return merge_init(m, base, &m->own_bview, err);
}

int btf_merge_init_view(struct btf_merge *m, const struct btf_base_view *base,
			struct d2b_error *err)
{
	memset(m, 0, sizeof(*m));
	return merge_init(m, NULL, base, err);
}

void btf_merge_deinit(struct btf_merge *m)
{
	follower_join(m);
	block_free(&m->cur);
	btf__free(m->btf);
	free(m->map);
	free(m->tmap);
	btf_merge_drop_keys(m);
	btf_merge_drop_strs(m);
	bigbuf_free(m->tidx, m->cap_tidx * sizeof(*m->tidx));
	btf_dedup_incr_free(m->dedup_incr);
	btf_strtab_deinit(&m->strs);
	free(m->base_str_buf);
	btf_str_index_free(&m->base_strs);
	btf_base_view_free(&m->own_bview);
	memset(m, 0, sizeof(*m));
}

/* ---- strings beside the turn (btf_merge_publish_strs) ---- */

/*
 * The published strings: an insert-only open-addressing table of fixed
 * size, written by the merge and read by workers at the same time, and the
 * strings' bytes, copied once into a buffer that never moves (reserved at
 * its full size: pages are touched only as it fills). A slot is written
 * whole, then made visible by its `at` (release); a reader that sees `at`
 * (acquire) sees the rest and the bytes. A slot is never written again,
 * nor the bytes, so a string the reader finds, compared byte for byte, has
 * that offset for good. The table stops taking strings at a load of 0.7,
 * or when the bytes are full: the merge interns the rest as before.
 */
struct str_view_slot {
	uint32_t hash;		/* the low half of the string's hash */
	uint32_t len;
	uint32_t off;		/* its final offset */
	uint32_t at;		/* where its bytes are, + 1; 0: empty */
};

struct btf_merge_str_view {
	struct str_view_slot *slots;
	size_t cap, nr, limit;	/* slots: any number (btf_merge_key_home()) */
	char *bytes;		/* reserved at once: it never moves */
	size_t bytes_len, bytes_cap;
};

#define SVIEW_SLOTS_MAX ((size_t)1 << 26)
#define SVIEW_PREFETCH 16	/* strings ahead whose slots are hinted */

int btf_merge_publish_strs(struct btf_merge *m, size_t nr_strs)
{
	struct btf_merge_str_view *v;
	size_t cap;

	if (m->bview || m->sview)
		return 0;
	if (nr_strs > SVIEW_SLOTS_MAX / 2)
		nr_strs = SVIEW_SLOTS_MAX / 2;
	cap = nr_strs / 7 * 10 + 1024;	/* a load of 0.7 */
	v = calloc(1, sizeof(*v));
	if (!v)
		return -1;
	v->cap = cap;
	v->limit = cap / 10 * 7;
	/* ~26 bytes a string in the kernel's: room for 40, and at most 4 GiB
	 * (`at` is 32 bits) */
	v->bytes_cap = cap * 40 < UINT32_MAX ? cap * 40 : UINT32_MAX - 1;
	v->slots = bigbuf_calloc(cap, sizeof(*v->slots));
	v->bytes = bigbuf_zalloc(v->bytes_cap);
	if (!v->slots || !v->bytes) {
		bigbuf_free(v->slots, cap * sizeof(*v->slots));
		bigbuf_free(v->bytes, v->bytes_cap);
		free(v);
		return -1;
	}
	m->sview = v;
	return 0;
}

void btf_merge_drop_strs(struct btf_merge *m)
{
	struct btf_merge_str_view *v = m->sview;

	if (!v)
		return;
	bigbuf_free(v->slots, v->cap * sizeof(*v->slots));
	bigbuf_free(v->bytes, v->bytes_cap);
	free(v);
	m->sview = NULL;
}

/* The merge has interned S (LEN bytes, hash HASH) at OFF: published,
 * unless the table or its bytes are full. */
static void sview_put(struct btf_merge_str_view *v, const char *s, uint32_t len, uint64_t hash,
		      uint32_t off)
{
	struct str_view_slot *e;
	size_t j;

	if (v->nr >= v->limit || len >= v->bytes_cap - v->bytes_len)
		return;
	memcpy(v->bytes + v->bytes_len, s, len);
	/* (only this thread writes `at`: a plain read here) */
	for (j = btf_merge_key_home(hash, v->cap); v->slots[j].at; j = j + 1 == v->cap ? 0 : j + 1)
		;
	e = &v->slots[j];
	e->hash = (uint32_t)hash;
	e->len = len;
	e->off = off;
	__atomic_store_n(&e->at, (uint32_t)v->bytes_len + 1, __ATOMIC_RELEASE);
	v->bytes_len += len;
	v->nr++;
}

/* S's final offset if published, else BTF_RAW_STR_UNKNOWN. */
static uint32_t sview_find(const struct btf_merge_str_view *v, const char *s, uint32_t len,
			   uint64_t hash)
{
	for (size_t j = btf_merge_key_home(hash, v->cap);; j = j + 1 == v->cap ? 0 : j + 1) {
		const struct str_view_slot *e = &v->slots[j];
		uint32_t at = __atomic_load_n(&e->at, __ATOMIC_ACQUIRE);

		if (!at)
			return BTF_RAW_STR_UNKNOWN;
		if (e->hash == (uint32_t)hash && e->len == len && !memcmp(v->bytes + at - 1, s, len))
			return e->off;
	}
}

long btf_merge_resolve_strs(const struct btf_merge *m, struct btf_raw *r)
{
	const struct btf_merge_str_view *v = m->sview;
	uint32_t *f;
	long found = 0;

	if (!v || !r->strs.nr)
		return 0;
	f = malloc(r->strs.nr * sizeof(*f));
	if (!f)
		return -1;
	for (size_t i = 0; i < r->strs.nr; i++) {
		const struct btf_strtab_ent *e = &r->strs.ents[i];

		/* the probes miss the cache: hint ahead, the slot, then (once
		 * it is likely in) the bytes it points to */
		if (i + SVIEW_PREFETCH < r->strs.nr)
			__builtin_prefetch(&v->slots[btf_merge_key_home(e[SVIEW_PREFETCH].hash, v->cap)]);
		if (i + SVIEW_PREFETCH / 2 < r->strs.nr) {
			const struct str_view_slot *h =
				&v->slots[btf_merge_key_home(e[SVIEW_PREFETCH / 2].hash, v->cap)];
			uint32_t at = __atomic_load_n(&h->at, __ATOMIC_RELAXED);

			if (at)
				__builtin_prefetch(v->bytes + at - 1);
		}
		f[i] = sview_find(v, btf_strtab_str(&r->strs, e->off), e->len, e->hash);
		found += f[i] != BTF_RAW_STR_UNKNOWN;
	}
	free(r->final_strs);
	r->final_strs = f;
	r->nr_final_strs = r->strs.nr;
	return found;
}

/* Whether R's final_strs holds its strings as a worker resolved them. */
static inline bool strs_resolved(const struct btf_raw *r)
{
	return r->final_strs && r->nr_final_strs == r->strs.nr;
}

/*
 * Where our own dedup takes the merge whole (prededup, final ids: a split
 * BTF as `pahole -J --btf_base` makes it) nothing reads a string's offset
 * before it: the base's strings are then looked up once, at the end
 * (resolve_base_strs()), instead of as each string comes. Until then every
 * string is interned as ours. Looking them up as they came needed an
 * index of every base string (btf_str_index: 96 k of a vmlinux's hashed
 * and put in a table of 1 MiB, a tenth of a module's run); at the end the
 * base's strings are hashed and looked up in ours (a table of a few
 * thousand), which costs the hashing only.
 */
static inline bool base_strs_deferred(const struct btf_merge *m)
{
	return m->bview && m->prededup && m->global_ids && !m->base_strs_resolved;
}

/* String word *W of a record: its final offset, TO[its offset - bias]
 * (an entry's). 0, or -1 when it is none of ours. */
static inline int restring(const struct btf_strtab *t, const uint32_t *to, uint32_t *w)
{
	if (*w < t->bias)
		return 0;	/* "" (or a base string: never so far) */
	if (*w >= t->len || to[*w - t->bias] == UINT32_MAX)
		return -1;
	*w = to[*w - t->bias];
	return 0;
}

/*
 * The base's strings found among ours (base_strs_deferred()): each takes
 * the base's offset (the first of duplicates, as the index kept it), ours
 * keep their order without them (where btf__add_str() puts them: the
 * offsets intern() gave as they came), and every string word of the
 * block's records follows. 0, or -1 with ERR set.
 */
static int resolve_base_strs(struct btf_merge *m, struct d2b_error *err)
{
	struct btf_merge_block *b = &m->cur;
	struct btf_strtab ns;
	uint32_t *base_off, *to = NULL;	/* by entry; by our offset - bias */
	uint64_t *filter;
	unsigned bits = 10;
	size_t found = 0;

	if (!base_strs_deferred(m))
		return 0;
	m->base_strs_resolved = true;
	if (!m->strs.nr)
		return 0;
	/* a bit a hash for a first test (16 bits an entry or more: most of
	 * the base's strings are not ours, and the bits stay in the cache) */
	while (bits < 26 && ((size_t)1 << bits) < 16 * m->strs.nr)
		bits++;
	filter = calloc(((size_t)1 << bits) / 64, sizeof(*filter));
	base_off = malloc(m->strs.nr * sizeof(*base_off));
	if (!filter || !base_off) {
		free(filter);
		free(base_off);
		return d2b_error_oom(err);
	}
	memset(base_off, 0xff, m->strs.nr * sizeof(*base_off));
	for (size_t i = 0; i < m->strs.nr; i++) {
		uint64_t f = m->strs.ents[i].hash >> (64 - bits);

		filter[f / 64] |= 1ull << (f % 64);
	}
	for (size_t off = 1; off < m->prefix_len;) {
		const char *bs = m->base_str + off;
		size_t l;
		uint64_t h = btf_str_hash_seeded(bs, &l, m->strs.seed), f = h >> (64 - bits);

		if (filter[f / 64] >> (f % 64) & 1) {
			long e = btf_strtab_find(&m->strs, bs, l, h, NULL);

			if (e >= 0 && base_off[e] == UINT32_MAX) {
				base_off[e] = (uint32_t)off;
				found++;
			}
		}
		off += l + 1;
	}
	free(filter);
	if (!found) {
		free(base_off);
		return 0;
	}
	to = malloc((m->strs.len - m->strs.bias) * sizeof(*to));
	if (!to || btf_strtab_init_biased(&ns, m->prefix_len)) {
		free(to);
		free(base_off);
		return d2b_error_oom(err);
	}
	memset(to, 0xff, (m->strs.len - m->strs.bias) * sizeof(*to));
	ns.seed = m->strs.seed;
	for (size_t i = 0; i < m->strs.nr; i++) {
		const struct btf_strtab_ent *e = &m->strs.ents[i];
		long g;

		if (base_off[i] != UINT32_MAX) {
			to[e->off - m->strs.bias] = base_off[i];
			continue;
		}
		g = btf_strtab_add(&ns, btf_strtab_str(&m->strs, e->off), e->len, e->hash, NULL);
		if (g < 0) {
			btf_strtab_deinit(&ns);
			free(to);
			free(base_off);
			return d2b_error_oom(err);
		}
		to[e->off - m->strs.bias] = ns.ents[g].off;
	}
	free(base_off);
	for (size_t w = HDR_WORDS; w < b->len;) {
		uint32_t *r = b->words + w, len = btf_record_words(r), vlen = r[1] & 0xffff, step = 0;
		int bad;

		if (!len || w + len > b->len)
			goto bad_record;
		bad = restring(&m->strs, to, &r[0]);
		switch ((r[1] >> 24) & 0x1f) {
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_ENUM64:
			step = 3;
			break;
		case BTF_KIND_ENUM:
		case BTF_KIND_FUNC_PROTO:
			step = 2;
			break;
		}
		for (uint32_t i = 0; step && i < vlen; i++)
			bad |= restring(&m->strs, to, &r[3 + step * i]);
		if (bad)
			goto bad_record;
		w += len;
	}
	btf_strtab_deinit(&m->strs);
	m->strs = ns;
	free(to);
	return 0;
bad_record:
	btf_strtab_deinit(&ns);
	free(to);
	return d2b_error_set(err, "BTF merge: a merged record with a string of no entry");
}

/* The final offset of string S (entry E of a fragment). A base's string
 * keeps the base's offset (the first of duplicates, as libbpf's index of a
 * base keeps), as btf__add_str gives: the base's section is indexed on
 * its own (btf_str_index: 8 bytes a string, without the index libbpf
 * would build for btf__find_str, 15-20 ms on a vmlinux base), at the first
 * string, when the table's hash seed is set. */
static long intern(struct btf_merge *m, const char *s, const struct btf_strtab_ent *e,
		   struct d2b_error *err)
{
	uint32_t off;
	long g;

	if (m->bview && !base_strs_deferred(m)) {
		if (!m->base_strs.slots &&
		    btf_str_index_build(&m->base_strs, m->base_str, m->prefix_len, m->strs.seed))
			return d2b_error_oom(err);
		g = btf_str_index_find(&m->base_strs, m->base_str, s, e->len, e->hash);
		if (g >= 0)
			return g;
	}
	g = btf_strtab_find(&m->strs, s, e->len, e->hash, &off);
	if (g >= 0)
		return off;
	g = btf_strtab_add(&m->strs, s, e->len, e->hash, NULL);
	if (g < 0)
		return d2b_error_oom(err);
	if (m->sview)
		sview_put(m->sview, s, e->len, e->hash, m->strs.ents[g].off);
	return m->strs.ents[g].off;
}

static int flush(struct btf_merge *m, struct d2b_error *err);

#define MAP_UNSET UINT32_MAX	/* in m->map: not interned yet */
_Static_assert(MAP_UNSET == BTF_RAW_STR_UNKNOWN, "a fragment's final_strs is copied into map");
#define KSLOTS_MIN ((size_t)1 << 12)	/* the key table's first size (a small module's all) */
#define KSLOTS_MAX ((size_t)1 << 24)	/* btf_merge_expect_types() sizes for at most half */
#define KSLOTS_LIMIT ((uint64_t)1 << 32)	/* btf_merge_key_home()'s range */
#define KEY_PREFETCH 8		/* how far ahead the key probes are hinted */
#define STR_PREFETCH 16		/* and the string probes, in fix-ups */

long btf_merge_str(struct btf_merge *m, const struct btf_raw *r, uint32_t ref,
		   struct d2b_error *err)
{
	long off;

	if (ref > r->strs.nr)
		return d2b_error_set(err, "BTF fragment string ref %u out of range", ref);
	if (m->map[ref] != MAP_UNSET)
		return m->map[ref];
	off = intern(m, btf_strtab_str(&r->strs, r->strs.ents[ref - 1].off), &r->strs.ents[ref - 1], err);
	if (off >= 0)
		m->map[ref] = (uint32_t)off;
	return off;
}

/* ---- the pre-dedup key table ---- */

/* The key table is probed at random (19 MiB for the Debian vmlinux): on 4
 * KiB pages most probes also miss the TLB, so a big table is on huge pages
 * (bigbuf.h). Zeroed, as calloc. */
static struct btf_merge_key_slot *kslots_alloc(size_t n)
{
	return bigbuf_calloc(n, sizeof(struct btf_merge_key_slot));
}

static void kslots_free(struct btf_merge_key_slot *s, size_t n)
{
	bigbuf_free(s, n * sizeof(*s));
}

/* CAP slots, or more where the mapping has room for them anyway (bigbuf
 * maps whole huge pages); 0 when more than btf_merge_key_home() reaches. */
static size_t kslots_round(size_t cap)
{
	const size_t slot = sizeof(struct btf_merge_key_slot), huge = BIGBUF_MIN;

	if ((uint64_t)cap > KSLOTS_LIMIT || cap > (SIZE_MAX - huge) / slot)
		return 0;
	if (cap * slot >= BIGBUF_MIN)
		cap = (cap * slot + huge - 1) / huge * huge / slot;
	return (uint64_t)cap > KSLOTS_LIMIT ? 0 : cap;
}

/* NS (CAP slots, filled) is the table from now on, for the consumer and the
 * workers (btf_merge_find_key); the one before stays readable until
 * btf_merge_deinit(). 0, or -1 when out of memory (NS freed). */
static int kslots_publish(struct btf_merge *m, struct btf_merge_key_slot *ns, size_t cap)
{
	struct btf_merge_key_view *v = malloc(sizeof(*v));

	if (!v) {
		kslots_free(ns, cap);
		return -1;
	}
	v->slots = ns;
	v->cap = cap;
	v->older = m->kview;
	m->kslots = ns;
	m->kcap = cap;
	__atomic_store_n(&m->kview, v, __ATOMIC_RELEASE);
	return 0;
}

void btf_merge_release_old_tables(struct btf_merge *m)
{
	struct btf_merge_key_view *v = m->kview, *o;

	if (!v)
		return;
	for (o = v->older, v->older = NULL; o; o = v) {
		v = o->older;
		kslots_free(o->slots, o->cap);
		free(o);
	}
}

void btf_merge_drop_keys(struct btf_merge *m)
{
	btf_merge_release_old_tables(m);
	if (m->kview) {
		kslots_free(m->kview->slots, m->kview->cap);
		free(m->kview);
	}
	m->kview = NULL;
	m->kslots = NULL;
	m->kcap = 0;
	m->keys_dropped = true;
}

uint32_t btf_merge_find_key(const struct btf_merge *m, const struct btf_key *k)
{
	return btf_merge_view_find(btf_merge_key_table(m), k);
}

uint32_t btf_merge_view_find(const struct btf_merge_key_view *v, const struct btf_key *k)
{
	size_t j;

	if (!v)
		return 0;
	for (j = btf_merge_key_home(k->lo, v->cap);; j = j + 1 == v->cap ? 0 : j + 1) {
		const struct btf_merge_key_slot *s = &v->slots[j];
		uint32_t id = __atomic_load_n(&s->id, __ATOMIC_ACQUIRE);

		if (!id)
			return 0;
		if (s->lo == k->lo && s->hi == (uint32_t)k->hi)
			return id;
	}
}

/* The key table rehashed into one half as big again (KSLOTS_MIN at first),
 * or big enough for N more keys at a load of 0.7 if that is bigger: one
 * step (each table it outgrows stays alive for the workers). */
static int kslots_grow(struct btf_merge *m, size_t n)
{
	size_t cap = m->kslots ? m->kcap + m->kcap / 2 : KSLOTS_MIN;
	struct btf_merge_key_slot *ns;

	if (m->knr + n > SIZE_MAX / 10)
		return -1;
	if ((m->knr + n) / 7 * 10 > cap)
		cap = (m->knr + n) / 7 * 10;
	cap = kslots_round(cap);
	if (!cap)
		return -1;
	ns = kslots_alloc(cap);
	if (!ns)
		return -1;
	for (size_t i = 0; m->kslots && i < m->kcap; i++) {
		size_t j;

		if (!m->kslots[i].id)
			continue;
		j = btf_merge_key_home(m->kslots[i].lo, cap);
		while (ns[j].id)
			j = j + 1 == cap ? 0 : j + 1;
		ns[j] = m->kslots[i];
	}
	return kslots_publish(m, ns, cap);
}

/* Whether the key table must grow before N more keys go in: past a load
 * of 0.85 (linear probing's misses, a quarter of the workers' probes, get
 * long: ~23 slots on average at 0.85, ~50 at 0.9). */
static bool kslots_full(const struct btf_merge *m, size_t n)
{
	return !m->kslots || (uint64_t)(m->knr + n) * 20 > (uint64_t)m->kcap * 17;
}

int btf_merge_expect_types(struct btf_merge *m, size_t nr_types)
{
	size_t cap;
	struct btf_merge_key_slot *ns;

	if (m->kslots)
		return 0;	/* in use already */
	if (nr_types > KSLOTS_MAX / 2)
		nr_types = KSLOTS_MAX / 2;
	cap = kslots_round(nr_types / 7 * 10);	/* a load of 0.7 */
	if (cap <= KSLOTS_MIN)
		return 0;
	ns = kslots_alloc(cap);
	if (!ns)
		return -1;
	return kslots_publish(m, ns, cap);
}

/* The final id of the type with key K if one was added; else 0, and K is
 * recorded for ID (one probe either way; the table has room). */
static uint32_t kslots_find_or_put(struct btf_merge *m, const struct btf_key *k, uint32_t id)
{
	size_t j = btf_merge_key_home(k->lo, m->kcap);

	while (m->kslots[j].id) {
		if (m->kslots[j].lo == k->lo && m->kslots[j].hi == (uint32_t)k->hi)
			return m->kslots[j].id;
		j = j + 1 == m->kcap ? 0 : j + 1;
	}
	m->kslots[j].lo = k->lo;
	m->kslots[j].hi = (uint32_t)k->hi;
	/* last: a worker that sees the id sees the key */
	__atomic_store_n(&m->kslots[j].id, id, __ATOMIC_RELEASE);
	m->knr++;
	return 0;
}


/* Fix the string and type words of record DST (copied from R's local id
 * ID at word W), whose fix-ups are F .. FEND. */
static inline __attribute__((always_inline)) int fix_record(struct btf_merge *m, const struct btf_raw *r, uint32_t id,
			     uint32_t *dst, size_t w, size_t len, size_t f, size_t fend,
			     const struct btf_merge_block *b, struct d2b_error *err)
{
	/* with the strings resolved by a worker (final_strs) nearly all are
	 * in map already: no hints then */
	const bool hint = !strs_resolved(r);

	for (; f < fend; f++) {
		uint32_t fx = r->fix[f], at = (fx >> 1) - (uint32_t)w;

		if ((fx >> 1) < w || at >= len)
			return d2b_error_set(err, "BTF fragment fix-up %zu is outside type %u", f, id);
		/* the intern probes miss the cache: hint ahead (the hashes
		 * are known, the worker computed them) */
		if (hint && f + STR_PREFETCH < r->nr_fix && (r->fix[f + STR_PREFETCH] & 1) &&
		    (r->fix[f + STR_PREFETCH] >> 1) < r->len) {
			uint32_t ref = r->words[r->fix[f + STR_PREFETCH] >> 1];

			if (ref && ref <= r->strs.nr && m->map[ref] == MAP_UNSET) {
				btf_str_index_prefetch(&m->base_strs, r->strs.ents[ref - 1].hash);
				btf_strtab_prefetch_slot(&m->strs, r->strs.ents[ref - 1].hash);
			}
		}
		if (fx & 1) {
			uint32_t ref = dst[at];
			long off;

			/* (map[0] is 0: the empty string) */
			if (ref <= r->strs.nr && m->map[ref] != MAP_UNSET) {
				dst[at] = m->map[ref];
				continue;
			}
			off = btf_merge_str(m, r, ref, err);
			if (off < 0)
				return -1;
			dst[at] = (uint32_t)off;
		} else {
			if (!dst[at] || dst[at] > r->nr_types)
				return d2b_error_set(err, "BTF fragment record %u refers to type %u of %u",
						     id, dst[at], r->nr_types);
			dst[at] = m->tmap[dst[at]] - (m->global_ids ? 0 : b->first_id - 1);
		}
	}
	return 0;
}

/* With prededup (one block), remember where each type of it starts, for
 * the direct adds' type_by_id. 0 or -1 (no memory). */
static int tidx_push(struct btf_merge *m, size_t word)
{
	if (!m->prededup)
		return 0;
	if (m->nr_tidx == m->cap_tidx) {
		size_t cap = m->cap_tidx ? 2 * m->cap_tidx : 1024;
		uint32_t *t = bigbuf_resize(m->tidx, m->cap_tidx * sizeof(*t), cap * sizeof(*t));

		if (!t)
			return -1;
		m->tidx = t;
		m->cap_tidx = cap;
	}
	m->tidx[m->nr_tidx++] = (uint32_t)word;
	return 0;
}

/* copy_kept() with R's index: a dropped type costs one comparison. */
static int copy_kept_indexed(struct btf_merge *m, const struct btf_raw *r,
			     struct btf_merge_block *b, struct d2b_error *err)
{
	size_t end = 0;	/* of the last record copied: records do not overlap */
	uint32_t n = r->kept_ids ? r->nr_kept_ids : r->nr_types;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t id = r->kept_ids ? r->kept_ids[i] : i + 1;
		size_t w = r->type_off[id], len = r->type_off[id + 1] - w;
		uint32_t *dst = b->words + b->len;

		if (m->tmap[id] != b->first_id + b->nr_types)
			continue;
		if (w < end || r->type_off[id + 1] < w || r->type_off[id + 1] > r->len ||
		    r->type_fix[id + 1] < r->type_fix[id] || r->type_fix[id + 1] > r->nr_fix)
			return d2b_error_set(err, "BTF fragment index of type %u is out of range", id);
		if (len < 3)
			return d2b_error_set(err, "BTF fragment record %u is shorter than a type", id);
		if (((r->words[w + 1] >> 24) & 0x1f) == BTF_RAW_KIND_PLACEHOLDER)
			return d2b_error_set(err, "BTF fragment type %u is a placeholder without its type",
					     id);
		if (tidx_push(m, b->len))
			return d2b_error_oom(err);
		memcpy(dst, r->words + w, len * sizeof(*dst));
		if (fix_record(m, r, id, dst, w, len, r->type_fix[id], r->type_fix[id + 1], b, err))
			return -1;
		end = w + len;
		b->len += len;
		b->nr_types++;
		m->nr_types++;
	}
	return 0;
}

/* Copy R's records that were kept (tmap[id] == the next id of block B) to
 * B, fixing string and type words. The records and fix-ups must walk in
 * word order (btf_raw_index makes sure when it gave the index). */
static int copy_kept(struct btf_merge *m, const struct btf_raw *r,
		     struct btf_merge_block *b, struct d2b_error *err)
{
	size_t w = 0, f = 0;

	if (r->indexed)
		return copy_kept_indexed(m, r, b, err);

	for (uint32_t id = 1; id <= r->nr_types; id++) {
		uint32_t len = w + 3 <= r->len ? btf_record_words(r->words + w) : 0;
		uint32_t *dst = b->words + b->len;
		size_t fend = f;

		if (!len || w + len > r->len || (f < r->nr_fix && (r->fix[f] >> 1) < w))
			return d2b_error_set(err, "BTF fragment record %u does not walk", id);
		while (fend < r->nr_fix && (r->fix[fend] >> 1) < w + len)
			fend++;
		if (m->tmap[id] == b->first_id + b->nr_types) {	/* kept */
			if (tidx_push(m, b->len))
				return d2b_error_oom(err);
			memcpy(dst, r->words + w, len * sizeof(*dst));
			if (fix_record(m, r, id, dst, w, len, f, fend, b, err))
				return -1;
			b->len += len;
			b->nr_types++;
			m->nr_types++;
		}
		f = fend;
		w += len;
	}
	if (w != r->len || f != r->nr_fix)
		return d2b_error_set(err, "BTF fragment has %zu words and %zu fix-ups past its records",
				     r->len - w, r->nr_fix - f);
	return 0;
}

/* The final id R's type ID stands for when it is a placeholder, else 0. */
static inline uint32_t placeholder(const struct btf_raw *r, uint32_t id)
{
	return id < r->cap_final ? r->final_ids[id] : 0;
}

/* Local id ID (key K, or NULL: none) of the fragment being added: the
 * final id of an earlier type with its key (then dropped), else *NEXT,
 * the next new one. */
static inline void map_by_key(struct btf_merge *m, uint32_t id, const struct btf_key *k,
			      uint32_t *next)
{
	uint32_t found;

	if (!k || (!k->lo && !k->hi)) {
		m->tmap[id] = (*next)++;
		return;
	}
	found = kslots_find_or_put(m, k, *next);
	if (found) {
		m->tmap[id] = found;
		m->nr_dropped++;
		return;
	}
	m->tmap[id] = (*next)++;
}

/* The kept records of R, ids mapped, into the block; then the follower
 * may take them. */
static int copy_and_publish(struct btf_merge *m, const struct btf_raw *r, struct d2b_error *err)
{
	if (copy_kept(m, r, &m->cur, err))
		return -1;
	if (m->cur.follower)
		follower_publish(m->cur.follower, &m->cur);
	return 0;
}

/*
 * btf_merge_add()'s ids with R's list of the types that are not
 * placeholders: the placeholders' final ids in one pass (each must be a
 * type merged before: NEXT is the first new one), then a key probe for
 * each of the others, then their records copied.
 */
static int add_kept(struct btf_merge *m, const struct btf_raw *r, uint32_t next,
		    struct d2b_error *err)
{
	const uint32_t n = r->nr_types, nf = r->cap_final < (size_t)n + 1 ? (uint32_t)r->cap_final
									     : n + 1;
	const uint32_t first_new = next, span = first_new - m->start_id;
	uint32_t bad = 0, nr_placeholders = 0;

	/* (no branch: the compiler makes it a vector loop) */
	for (uint32_t id = 1; id < nf; id++) {
		uint32_t f = r->final_ids[id];

		m->tmap[id] = f;
		nr_placeholders += f != 0;
		bad |= (uint32_t)(f != 0) & (uint32_t)(f - m->start_id >= span);
	}
	if (bad)
		return d2b_error_set(err, "BTF fragment has a placeholder for a type not merged");
	if (nf <= n)
		memset(m->tmap + nf, 0, (size_t)(n + 1 - nf) * sizeof(*m->tmap));
	/* the list: every other type once (each listed id is checked below
	 * to be one and to come once: with the count, that is all of them) */
	if ((uint64_t)nr_placeholders + r->nr_kept_ids != n)
		return d2b_error_set(err, "BTF fragment lists %u of its %u types that are not "
				     "placeholders", r->nr_kept_ids, n - nr_placeholders);
	for (uint32_t i = 0; i < r->nr_kept_ids; i++) {
		uint32_t id = r->kept_ids[i], ahead;
		const struct btf_key *k = &r->keys[id];

		if (i + KEY_PREFETCH < r->nr_kept_ids &&
		    (ahead = r->kept_ids[i + KEY_PREFETCH]) && ahead <= n)
			__builtin_prefetch(&m->kslots[btf_merge_key_home(r->keys[ahead].lo, m->kcap)]);
		if (!id || id > n || m->tmap[id])
			return d2b_error_set(err, "BTF fragment's list of types is broken at %u", id);
		map_by_key(m, id, k, &next);
	}
	m->nr_dropped += nr_placeholders;
	return copy_and_publish(m, r, err);
}

int btf_merge_add(struct btf_merge *m, const struct btf_raw *r, struct d2b_error *err)
{
	struct btf_merge_block *b = &m->cur;
	size_t limit = m->nr_blocks == 1 ? m->first_block_words : m->block_words;
	bool dedup = m->prededup && r->keys;
	uint32_t next, first_new;

	if (grow_u32(&m->map, &m->cap_map, r->strs.nr + 1) ||
	    grow_u32(&m->tmap, &m->cap_tmap, (size_t)r->nr_types + 1))
		return d2b_error_oom(err);
	m->map[0] = 0;
	/* the strings a worker resolved (its offsets are those intern()
	 * would give), the rest unset (MAP_UNSET == BTF_RAW_STR_UNKNOWN) */
	if (strs_resolved(r)) {
		memcpy(m->map + 1, r->final_strs, r->strs.nr * sizeof(*m->map));
	} else {
		memset(m->map + 1, 0xff, r->strs.nr * sizeof(*m->map));
	}
	m->tmap[0] = 0;

	if ((uint64_t)m->nr_types + r->nr_types > MAX_TYPE_ID - m->start_id)
		return d2b_error_set(err, "too many BTF types (over %u)", MAX_TYPE_ID);
	if (!m->prededup && b->nr_types && b->len - HDR_WORDS + r->len > limit) {
		/* the block is complete: into libbpf with it, a new one */
		if (flush(m, err))
			return -1;
		if (block_start(m, b, m->start_id + m->nr_types))
			return d2b_error_oom(err);
	}
	if (block_room(b, r->len))
		return d2b_error_oom(err);

	/* each type's final id: an earlier one with its key, or the next */
	next = b->first_id + b->nr_types;
	first_new = next;	/* a placeholder stands for an earlier fragment's */
	if (dedup && m->keys_dropped)
		return d2b_error_set(err, "BTF merge: a fragment with keys after the key table was dropped");
	while (dedup && kslots_full(m, r->nr_types))
		if (kslots_grow(m, r->nr_types))
			return d2b_error_oom(err);
	if (dedup && r->indexed && r->kept_ids)
		return add_kept(m, r, next, err);
	for (uint32_t id = 1; id <= r->nr_types; id++) {
		const struct btf_key *k = dedup ? &r->keys[id] : NULL;
		uint32_t found;

		/* the probes miss the cache more often than not: hint ahead
		 * (not for placeholders, which need none) */
		if (dedup && id + KEY_PREFETCH <= r->nr_types && !placeholder(r, id + KEY_PREFETCH))
			__builtin_prefetch(&m->kslots[btf_merge_key_home(r->keys[id + KEY_PREFETCH].lo, m->kcap)]);
		if ((found = placeholder(r, id))) {
			/* the worker found it in the table: no probe */
			if (!dedup || found < m->start_id || found >= first_new)
				return d2b_error_set(err, "BTF fragment type %u stands for type %u, "
						     "not merged", id, found);
			m->tmap[id] = found;
			m->nr_dropped++;
			continue;
		}
		map_by_key(m, id, k, &next);
	}
	return copy_and_publish(m, r, err);
}

int btf_merge_dedup_early(struct btf_merge *m)
{
	struct btf_merge_follower *f;

	if (!m->prededup || !m->global_ids || m->bview || m->dedup_incr || m->nr_types)
		return 0;
	f = calloc(1, sizeof(*f));
	m->dedup_incr = btf_dedup_incr_new();
	if (!f || !m->dedup_incr)
		goto fail;
	f->m = m;
	m->follow_batch = FOLLOW_BATCH;
	if (pthread_mutex_init(&f->block_lock, NULL))
		goto fail;
	if (pthread_mutex_init(&f->lock, NULL)) {
		pthread_mutex_destroy(&f->block_lock);
		goto fail;
	}
	if (pthread_mutex_init(&f->populate_lock, NULL)) {
		pthread_mutex_destroy(&f->lock);
		pthread_mutex_destroy(&f->block_lock);
		goto fail;
	}
	m->cur.follower = f;
	return 0;
fail:
	free(f);
	btf_dedup_incr_free(m->dedup_incr);
	m->dedup_incr = NULL;
	return -1;
}

/* libbpf 1.3 started checking every name offset in btf__new() (and warns
 * on stderr when one is bad): the fast way is for the versions before. */
static bool fast_ok(void)
{
	return libbpf_major_version() == 0 ||
	       (libbpf_major_version() == 1 && libbpf_minor_version() <= 2);
}

/*
 * The first block, the fast way: its types with an empty string section
 * (libbpf 1.1 and 1.2 do not check name offsets when parsing), then
 * add_strings(); the first btf__add_str() makes the btf modifiable while it
 * holds at most "\0", so libbpf takes its strings as already deduplicated,
 * as for a btf built from scratch, and btf__dedup() leaves them alone.
 * NULL if libbpf refuses (a version that checks names): the slow way then.
 * Not for split BTF: libbpf 1.1 does not export btf__new_split().
 */
static struct btf *block_fast(struct btf_merge_block *b)
{
	size_t type_len = (b->len - HDR_WORDS) * 4, total = sizeof(struct btf_header) + type_len + 1;
	struct btf_header hdr = {
		.magic = BTF_MAGIC, .version = BTF_VERSION,
		.hdr_len = sizeof(struct btf_header),
		.type_len = (uint32_t)type_len, .str_off = (uint32_t)type_len, .str_len = 1,
	};

	if (total > UINT32_MAX || block_room(b, 1))
		return NULL;
	memcpy(b->words, &hdr, sizeof(hdr));
	((char *)b->words)[sizeof(hdr) + type_len] = '\0';
	return btf__new(b->words, (uint32_t)total);
}

/*
 * A block, the slow way: a non-split btf of the block's types and all our
 * strings, appended with btf__add_btf() to BTF, which already holds our
 * strings in order (so each string maps to the offset it has) and the
 * blocks before (so the block's ids, counted from 1, land where we said).
 */
static int block_slow(struct btf_merge *m, struct btf_merge_block *b, struct btf *btf,
		      struct d2b_error *err)
{
	size_t type_len = (b->len - HDR_WORDS) * 4, str_len = m->strs.len;
	size_t total = sizeof(struct btf_header) + type_len + str_len;
	struct btf_header hdr = {
		.magic = BTF_MAGIC, .version = BTF_VERSION,
		.hdr_len = sizeof(struct btf_header),
		.type_len = (uint32_t)type_len, .str_off = (uint32_t)type_len,
		.str_len = (uint32_t)str_len,
	};
	struct btf *src;
	int first;

	if (total > UINT32_MAX || block_room(b, (str_len + 3) / 4))
		return d2b_error_oom(err);
	memcpy(b->words, &hdr, sizeof(hdr));
	if (m->bview) {
		/* the base's strings too, so that ours land at their offsets */
		memcpy(b->words + b->len, m->base_str, m->prefix_len);
		memcpy((char *)(b->words + b->len) + m->prefix_len,
		       btf_strtab_str(&m->strs, m->prefix_len), str_len - m->prefix_len);
	} else {
		memcpy(b->words + b->len, m->strs.data, str_len);
	}
	src = btf__new(b->words, (uint32_t)total);
	if (!src)
		return d2b_error_set(err, "cannot parse merged BTF types (libbpf error %d)", -errno);
	block_free(b);
	first = btf__add_btf(btf, src);
	btf__free(src);
	if (first < 0)
		return d2b_error_set(err, "cannot add merged BTF types (libbpf error %d)", first);
	if ((uint32_t)first != b->first_id)
		return d2b_error_set(err, "BTF id drift in the merge (%d != %u)", first, b->first_id);
	return 0;
}

/* Our strings not yet in m->btf into it, in order, each where we put it. */
static int add_new_strings(struct btf_merge *m, struct d2b_error *err)
{
	for (size_t off = m->strs_done; off < m->strs.len;) {
		const char *s = btf_strtab_str(&m->strs, off);	/* past the base's */
		int r = btf__add_str(m->btf, s);

		if (r < 0 || (size_t)r != off)
			return d2b_error_set(err, "BTF string table drift at offset %zu (libbpf gave %d)",
					     off, r);
		off += strlen(s) + 1;
	}
	m->strs_done = m->strs.len;
	return 0;
}

/* The current block (complete) into m->btf, created if need be; our
 * strings so far too, before its types. */
static int flush(struct btf_merge *m, struct d2b_error *err)
{
	struct btf_merge_block *b = &m->cur;

	/* (a merge with prededup is one block until the end: never here) */
	if (resolve_base_strs(m, err))
		return -1;

	if (!m->btf && m->nr_blocks == 1 && b->nr_types && !m->slow && !m->bview && fast_ok()) {
		m->btf = block_fast(b);
		if (m->btf) {
			block_free(b);
			return add_new_strings(m, err);
		}
	}
	if (m->bview && !m->base)
		return d2b_error_set(err, "BTF merge: the base was not parsed by libbpf");
	if (!m->btf && m->base && !m->base_str_buf) {
		/* libbpf is about to add strings to a split btf on the base:
		 * btf__add_str() makes the base modifiable, which frees the
		 * section base_str points into; from here, our own copy */
		m->base_str_buf = malloc(m->prefix_len);
		if (!m->base_str_buf)
			return d2b_error_oom(err);
		memcpy(m->base_str_buf, m->base_str, m->prefix_len);
		m->base_str = m->base_str_buf;
	}
	if (!m->btf) {
		m->btf = m->base ? btf__new_empty_split(m->base) : btf__new_empty();
		if (!m->btf)
			return d2b_error_oom(err);
	}
	if (add_new_strings(m, err))
		return -1;
	if (b->nr_types && block_slow(m, b, m->btf, err))
		return -1;
	block_free(b);
	return 0;
}

/* ---- direct adds (the functions) ---- */

bool btf_merge_direct_ok(const struct btf_merge *m)
{
	/* split only with final ids in the block (btf__add_btf would
	 * renumber them): the functions are written with final ids */
	return m->prededup && (!m->bview || m->global_ids) && !m->btf && m->nr_blocks == 1;
}

const struct btf_type *btf_merge_type_by_id(const struct btf_merge *m, uint32_t id)
{
	const struct btf_merge_block *b = &m->cur;

	/* libbpf's base where there is one: once a flush() has added strings
	 * to a split btf on it, libbpf has moved what a view of it points to */
	if (id < m->start_id && m->base)
		return btf__type_by_id(m->base, id);
	if (id < m->start_id)
		return m->bview && id ? (const struct btf_type *)btf_base_record(m->bview, id) : NULL;
	/* every type of the one block went through tidx_push() */
	if (!btf_merge_direct_ok(m) || m->nr_tidx != b->nr_types || id - b->first_id >= b->nr_types)
		return NULL;
	return (const struct btf_type *)(b->words + m->tidx[id - b->first_id]);
}

const char *btf_merge_str_at(const struct btf_merge *m, uint32_t off)
{
	if (off < m->prefix_len && m->bview)
		return m->base_str + off;
	return off < m->strs.len ? btf_strtab_str(&m->strs, off) : NULL;
}

/* The final offset of C string S, interned now if new (as btf__add_str). */
static long intern_cstr(struct btf_merge *m, const char *s)
{
	struct btf_strtab_ent e;
	struct d2b_error err;
	size_t len;

	e.hash = btf_str_hash_seeded(s, &len, m->strs.seed);
	e.len = (uint32_t)len;
	e.off = 0;
	return intern(m, s, &e, &err);
}

/* libbpf's validate_type_id(): any id in range (an int is at most
 * MAX_TYPE_ID), existing or not */
static bool type_id_ok(int id)
{
	return id >= 0;
}

/* A new record of N words: its words (room made), or NULL. */
static uint32_t *direct_room(struct btf_merge *m, size_t n)
{
	struct btf_merge_block *b = &m->cur;

	if (!btf_merge_direct_ok(m) || m->nr_types >= MAX_TYPE_ID - m->start_id ||
	    block_room(b, n))
		return NULL;
	return b->words + b->len;
}

static int direct_commit(struct btf_merge *m, size_t n)
{
	struct btf_merge_block *b = &m->cur;

	if (tidx_push(m, b->len))
		return -ENOMEM;
	m->last_direct = b->len;
	b->len += n;
	b->nr_types++;
	return (int)(m->start_id + m->nr_types++);
}

/* NAME's final offset (0 for NULL or ""), or a negative errno. */
static long direct_name(struct btf_merge *m, const char *name)
{
	long off;

	if (!name || !name[0])
		return 0;
	off = intern_cstr(m, name);
	return off < 0 ? -ENOMEM : off;
}

/* A new record: NAME (NULL: none), INFO, then the N words of TAIL. Its
 * id, or a negative errno. */
static int direct_record(struct btf_merge *m, const char *name, uint32_t info,
			 const uint32_t *tail, size_t n)
{
	uint32_t *w;
	long off = name ? direct_name(m, name) : 0;

	if (off < 0)
		return (int)off;
	if (!(w = direct_room(m, 2 + n)))
		return -ENOMEM;
	w[0] = (uint32_t)off;
	w[1] = info;
	memcpy(w + 2, tail, n * sizeof(*w));
	return direct_commit(m, 2 + n);
}

int btf_merge_add_func_proto(struct btf_merge *m, int ret_type_id)
{
	uint32_t tail[] = { (uint32_t)ret_type_id };

	if (!type_id_ok(ret_type_id))
		return -EINVAL;
	return direct_record(m, NULL, info_of(BTF_KIND_FUNC_PROTO, 0, 0), tail, 1);
}

/* A parameter of name offset OFF (final) to the last FUNC_PROTO added. */
static int add_param(struct btf_merge *m, long off, int type_id)
{
	struct btf_merge_block *b = &m->cur;
	uint32_t *info;

	if (!m->last_direct || kind_of(b->words[m->last_direct + 1]) != BTF_KIND_FUNC_PROTO ||
	    !type_id_ok(type_id))
		return -EINVAL;
	if (vlen_of(b->words[m->last_direct + 1]) == 0xffff)
		return -E2BIG;
	if (off < 0)
		return (int)off;
	if (block_room(b, 2))
		return -ENOMEM;
	b->words[b->len] = (uint32_t)off;
	b->words[b->len + 1] = (uint32_t)type_id;
	b->len += 2;
	info = &b->words[m->last_direct + 1];
	*info = info_of(BTF_KIND_FUNC_PROTO, vlen_of(*info) + 1, 0);
	return 0;
}

int btf_merge_add_func_param(struct btf_merge *m, const char *name, int type_id)
{
	return add_param(m, direct_name(m, name), type_id);
}

int btf_merge_add_func_param_at(struct btf_merge *m, uint32_t name_off, int type_id)
{
	if (name_off && !btf_merge_str_at(m, name_off))
		return -EINVAL;
	return add_param(m, name_off, type_id);
}

int btf_merge_add_func(struct btf_merge *m, const char *name, int linkage, int proto_type_id)
{
	uint32_t tail[] = { (uint32_t)proto_type_id };

	if (!name || !name[0])
		return -EINVAL;
	if (linkage != BTF_FUNC_STATIC && linkage != BTF_FUNC_GLOBAL && linkage != BTF_FUNC_EXTERN)
		return -EINVAL;
	if (!type_id_ok(proto_type_id))
		return -EINVAL;
	return direct_record(m, name, info_of(BTF_KIND_FUNC, (uint32_t)linkage, 0), tail, 1);
}

int btf_merge_add_decl_tag(struct btf_merge *m, const char *value, int ref_type_id,
			   int component_idx)
{
	uint32_t tail[] = { (uint32_t)ref_type_id, (uint32_t)component_idx };

	if (!value || !value[0] || component_idx < -1 || !type_id_ok(ref_type_id))
		return -EINVAL;
	return direct_record(m, value, info_of(BTF_KIND_DECL_TAG, 0, 0), tail, 2);
}

int btf_merge_add_datasec(struct btf_merge *m, const char *name, uint32_t byte_sz)
{
	uint32_t tail[] = { byte_sz };

	if (!name || !name[0])
		return -EINVAL;
	return direct_record(m, name, info_of(BTF_KIND_DATASEC, 0, 0), tail, 1);
}

int btf_merge_add_datasec_var_info(struct btf_merge *m, int var_type_id, uint32_t offset,
				   uint32_t byte_sz)
{
	struct btf_merge_block *b = &m->cur;
	uint32_t *info;

	if (!m->last_direct || kind_of(b->words[m->last_direct + 1]) != BTF_KIND_DATASEC ||
	    !type_id_ok(var_type_id))
		return -EINVAL;
	if (vlen_of(b->words[m->last_direct + 1]) == 0xffff)
		return -E2BIG;
	if (block_room(b, 3))
		return -ENOMEM;
	b->words[b->len] = (uint32_t)var_type_id;
	b->words[b->len + 1] = offset;
	b->words[b->len + 2] = byte_sz;
	b->len += 3;
	info = &b->words[m->last_direct + 1];
	*info = info_of(BTF_KIND_DATASEC, vlen_of(*info) + 1, 0);
	return 0;
}

uint32_t btf_merge_nr_types(const struct btf_merge *m)
{
	return m->nr_types;
}

/*
 * Our own deduplication (btf_dedup.h) on the one block, then the block
 * with our strings behind it: raw BTF, *TOTAL bytes at m->cur.words.
 */
static int finish_dedup(struct btf_merge *m, struct btf_dedup_stats *stats, size_t *total,
			struct d2b_error *err)
{
	struct btf_merge_block *b = &m->cur;
	struct btf_dedup_types t = {
		.words = b->words, .first = HDR_WORDS, .len = b->len - HDR_WORDS,
		.nr_types = b->nr_types, .base = m->bview,
		.off = m->nr_tidx == b->nr_types ? m->tidx : NULL,
		.stats = stats, .incr = m->dedup_incr,
	};
	struct btf_header hdr = {
		.magic = BTF_MAGIC, .version = BTF_VERSION,
		.hdr_len = sizeof(struct btf_header),
	};
	const char *strs;
	size_t str_len;

	follower_join(m);
	if (!btf_merge_direct_ok(m) || (m->bview && !m->global_ids))
		return d2b_error_set(err, "BTF dedup: the merged types are not one block");
	if (resolve_base_strs(m, err))
		return -1;
	/* split BTF holds its own strings only: after the base's */
	strs = btf_strtab_str(&m->strs, m->bview ? m->prefix_len : 0);
	str_len = m->strs.len - (m->bview ? m->prefix_len : 0);
	if (btf_dedup(&t, err))
		return -1;
	b->len = HDR_WORDS + t.len;
	b->nr_types = t.nr_types;
	hdr.type_len = (uint32_t)(t.len * 4);
	hdr.str_off = hdr.type_len;
	hdr.str_len = (uint32_t)str_len;
	*total = sizeof(hdr) + t.len * 4 + str_len;
	if (*total > UINT32_MAX)
		return d2b_error_set(err, "BTF dedup: %zu bytes of BTF, more than BTF allows", *total);
	if (block_room(b, (str_len + 3) / 4))
		return d2b_error_oom(err);
	memcpy(b->words, &hdr, sizeof(hdr));
	memcpy(b->words + b->len, strs, str_len);
	return 0;
}

/* libbpf never sees the types before deduplication: it parses the result
 * (one parse), split on libbpf's base. */
struct btf *btf_merge_finish_dedup(struct btf_merge *m, struct btf_dedup_stats *stats,
				   struct d2b_error *err)
{
	struct btf *btf = NULL;
	size_t total;

	if (m->bview && !m->base) {
		d2b_error_set(err, "BTF merge: the base was not parsed by libbpf");
	} else if (!finish_dedup(m, stats, &total, err)) {
		btf = m->base ? btf_parse_split_bytes(m->cur.words, total, m->base)
			      : btf__new(m->cur.words, (uint32_t)total);
		if (!btf)
			d2b_error_set(err, "cannot parse the deduplicated BTF (libbpf error %d)",
				      -errno);
	}
	btf_merge_deinit(m);
	return btf;
}

int btf_merge_finish_dedup_bytes(struct btf_merge *m, struct btf_dedup_stats *stats,
				 void **bytes, size_t *size, uint32_t *nr_types,
				 struct d2b_error *err)
{
	size_t total;
	int rc = finish_dedup(m, stats, &total, err);

	*bytes = NULL;
	if (!rc) {
		*bytes = malloc(total);
		if (!*bytes) {
			rc = d2b_error_oom(err);
		} else {
			memcpy(*bytes, m->cur.words, total);
			*size = total;
			*nr_types = m->cur.nr_types;
		}
	}
	btf_merge_deinit(m);
	return rc;
}

struct btf *btf_merge_finish(struct btf_merge *m, struct d2b_error *err)
{
	struct btf *btf = NULL;

	follower_join(m);	/* (none without our dedup: flush() frees blocks) */
	if (!flush(m, err)) {
		btf = m->btf;
		m->btf = NULL;
	}
	btf_merge_deinit(m);
	return btf;
}
