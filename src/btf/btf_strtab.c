// SPDX-License-Identifier: GPL-2.0-only
/*
 * The interning string table (see btf_strtab.h).
 */
#include "btf/btf_strtab.h"

#include <stdlib.h>
#include <string.h>

#define MIN_SLOTS 64u
#define STR_INDEX_BATCH 16	/* strings hashed ahead of their inserts */

static int grow_data(struct btf_strtab *t, size_t add)
{
	size_t cap;
	char *d;

	if (t->len + add <= t->cap)
		return 0;
	/* in bytes of data: the offsets below the bias are not there */
	cap = t->cap > t->bias ? t->cap - t->bias : 4096;
	while (cap < t->len + add - t->bias)
		cap *= 2;
	d = realloc(t->data, cap);
	if (!d)
		return -1;
	t->data = d;
	t->cap = t->bias + cap;
	return 0;
}

int btf_strtab_init(struct btf_strtab *t, const char *prefix, size_t prefix_len)
{
	memset(t, 0, sizeof(*t));
	t->slots = calloc(MIN_SLOTS, sizeof(*t->slots));
	if (!t->slots || grow_data(t, prefix_len + 1)) {
		btf_strtab_deinit(t);
		return -1;
	}
	t->mask = MIN_SLOTS - 1;
	if (prefix_len)
		memcpy(t->data, prefix, prefix_len);
	t->len = prefix_len;
	return 0;
}

int btf_strtab_init_biased(struct btf_strtab *t, size_t bias)
{
	memset(t, 0, sizeof(*t));
	t->bias = t->len = t->cap = bias;
	t->slots = calloc(MIN_SLOTS, sizeof(*t->slots));
	if (bias > UINT32_MAX || !t->slots || grow_data(t, 1)) {
		btf_strtab_deinit(t);
		return -1;
	}
	t->mask = MIN_SLOTS - 1;
	return 0;
}

void btf_strtab_deinit(struct btf_strtab *t)
{
	free(t->data);
	free(t->ents);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

long btf_strtab_find(const struct btf_strtab *t, const char *s, size_t len, uint64_t hash64,
		     uint32_t *off)
{
	uint32_t hash = (uint32_t)hash64;

	for (size_t i = hash & t->mask;; i = (i + 1) & t->mask) {
		const struct btf_strtab_slot *sl = &t->slots[i];

		if (!sl->ent)
			return -1;
		if (sl->hash == hash && sl->len == len && !memcmp(btf_strtab_str(t, sl->off), s, len)) {
			if (off)
				*off = sl->off;
			return (long)sl->ent - 1;
		}
	}
}

/* The index on N slots (a power of two, at least the entries'). */
static int rehash_to(struct btf_strtab *t, size_t n)
{
	struct btf_strtab_slot *s = calloc(n, sizeof(*s));

	if (!s)
		return -1;
	for (size_t i = 0; i <= t->mask; i++) {
		const struct btf_strtab_slot *o = &t->slots[i];
		size_t k;

		if (!o->ent)
			continue;
		for (k = o->hash & (n - 1); s[k].ent; k = (k + 1) & (n - 1))
			;
		s[k] = *o;
	}
	free(t->slots);
	t->slots = s;
	t->mask = n - 1;
	return 0;
}

static int rehash(struct btf_strtab *t)
{
	return rehash_to(t, (t->mask + 1) * 2);
}

static int grow_ents_to(struct btf_strtab *t, size_t want)
{
	size_t cap;
	struct btf_strtab_ent *e;

	if (want <= t->cap_ents)
		return 0;
	cap = t->cap_ents ? t->cap_ents : 256;
	while (cap < want)
		cap *= 2;
	e = realloc(t->ents, cap * sizeof(*e));
	if (!e)
		return -1;
	t->ents = e;
	t->cap_ents = cap;
	return 0;
}

int btf_strtab_reserve(struct btf_strtab *t, size_t nr, size_t bytes)
{
	if (nr > SIZE_MAX / sizeof(struct btf_strtab_ent) - t->nr || bytes > SIZE_MAX / 2 - t->len)
		return -1;
	return grow_data(t, bytes) || grow_ents_to(t, t->nr + nr) ? -1 : 0;
}

/* Room for one more entry. */
static int grow_ents(struct btf_strtab *t)
{
	return grow_ents_to(t, t->nr + 1);
}

/* Room for one more entry, in the entries and in the index. */
static int room_for_one(struct btf_strtab *t)
{
	if ((t->nr + 1) * 4 > (t->mask + 1) * 3 && rehash(t))
		return -1;
	return grow_ents(t);
}

/* The new entry OFF, LEN, HASH in free slot I; its index. */
static long put(struct btf_strtab *t, size_t i, uint32_t off, size_t len, uint64_t hash)
{
	t->ents[t->nr] = (struct btf_strtab_ent){ .off = off, .len = (uint32_t)len, .hash = hash };
	t->slots[i] = (struct btf_strtab_slot){
		.hash = (uint32_t)hash, .ent = (uint32_t)t->nr + 1, .off = off, .len = (uint32_t)len,
	};
	return (long)t->nr++;
}

/* Index entry OFF (known absent) under HASH. */
static long insert(struct btf_strtab *t, uint32_t off, size_t len, uint64_t hash)
{
	size_t i;

	if (room_for_one(t))
		return -1;
	for (i = hash & t->mask; t->slots[i].ent; i = (i + 1) & t->mask)
		;
	return put(t, i, off, len, hash);
}

long btf_strtab_add(struct btf_strtab *t, const char *s, size_t len, uint64_t hash, int *added)
{
	long e = btf_strtab_find(t, s, len, hash, NULL);
	size_t off;

	if (added)
		*added = e < 0;
	if (e >= 0)
		return e;
	if (t->len + len + 1 > UINT32_MAX || grow_data(t, len + 1))
		return -1;
	off = t->len;
	memcpy(btf_strtab_str(t, off), s, len);
	btf_strtab_str(t, off)[len] = '\0';
	e = insert(t, (uint32_t)off, len, hash);
	if (e >= 0)
		t->len += len + 1;
	return e;
}

long btf_strtab_add_at(struct btf_strtab *t, uint32_t off, size_t len, uint64_t hash)
{
	return insert(t, off, len, hash);
}

long btf_strtab_append_slow(struct btf_strtab *t, const char *s, size_t len, uint64_t hash)
{
	if (t->len + len + 1 > UINT32_MAX || grow_data(t, len + 1) || grow_ents(t))
		return -1;
	return btf_strtab_append(t, s, len, hash);	/* now with room */
}

size_t btf_str_count_nuls(const char *p, size_t n)
{
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7full, pairs = 0x00ff00ff00ff00ffull;
	size_t nr = 0, i = 0;

	while (n - i >= 8) {
		/* a byte lane counts to 255: at most 255 words a round */
		size_t stop = n - i >= 8 * 255 ? i + 8 * 255 : n;
		uint64_t acc = 0;

		for (; stop - i >= 8; i += 8) {
			uint64_t w, t;

			memcpy(&w, p + i, 8);
			t = (w & low7) + low7;	/* bit 7 of a lane: its low 7 bits are not all 0 */
			t = ~(t | w | low7);	/* 0x80 in exactly the lanes that are 0 */
			acc += t >> 7;
		}
		acc = (acc & pairs) + ((acc >> 8) & pairs);	/* 16-bit lanes, <= 510 */
		nr += (size_t)((acc * 0x0001000100010001ull) >> 48);
	}
	for (; i < n; i++)
		nr += !p[i];
	return nr;
}

int btf_str_index_build(struct btf_str_index *x, const char *data, size_t len, uint64_t seed)
{
	size_t nr, n = 64;

	memset(x, 0, sizeof(*x));
	if (len > UINT32_MAX || (len && data[len - 1]))
		return -1;	/* (not a section whose strings all end in it) */
	/* the strings after "" at 0: each ends at a NUL (a word at a time:
	 * memchr from string to string cost a call a string) */
	nr = len ? btf_str_count_nuls(data + 1, len - 1) : 0;
	while (nr * 4 > n * 3)
		n *= 2;
	x->slots = calloc(n, sizeof(*x->slots));
	if (!x->slots)
		return -1;
	x->mask = n - 1;
	x->size = len;
	/* in batches: the strings hashed and their slots hinted first, then
	 * put in order (the slots miss the cache, the hashes do not) */
	for (size_t off = 1; off < len;) {
		uint64_t hs[STR_INDEX_BATCH];
		uint32_t offs[STR_INDEX_BATCH], lens[STR_INDEX_BATCH];
		unsigned nb = 0;

		for (; nb < STR_INDEX_BATCH && off < len; nb++) {
			size_t l;

			hs[nb] = btf_str_hash_seeded(data + off, &l, seed);
			offs[nb] = (uint32_t)off;
			lens[nb] = (uint32_t)l;
			__builtin_prefetch(&x->slots[hs[nb] & x->mask], 1);
			off += l + 1;
		}
		for (unsigned b = 0; b < nb; b++) {
			uint64_t h = hs[b];
			uint32_t at = offs[b], l = lens[b];
			size_t i;

			for (i = h & x->mask; x->slots[i]; i = (i + 1) & x->mask) {
				uint64_t v = x->slots[i];
				uint32_t o = (uint32_t)v;

				/* an earlier string: it ends before AT */
				if ((uint32_t)(v >> 32) == (uint32_t)(h >> 32) && l < at - o &&
				    !memcmp(data + o, data + at, l) && !data[o + l])
					break;	/* a duplicate: the first keeps its offset */
			}
			if (!x->slots[i])
				x->slots[i] = (h >> 32) << 32 | at;
		}
	}
	return 0;
}

void btf_str_index_free(struct btf_str_index *x)
{
	free(x->slots);
	memset(x, 0, sizeof(*x));
}
