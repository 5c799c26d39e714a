/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * btf/btf_strtab.h: an interning string table whose buffer is a BTF string
 * section.
 *
 *   data:  [ prefix (not indexed) | s0 \0 | s1 \0 | s2 \0 | ... ]
 *   ents:  [ {off, len, hash}(s0), (s1), ... ]     insertion order
 *   slots: open addressing, linear probing: { hash, entry index + 1 }
 *
 * or, biased (btf_strtab_init_biased), the prefix stays where its owner
 * keeps it (a base BTF's section): offsets still count it, and data starts
 * with s0, at offset `bias`.
 *
 * A string's entry index is its rank in first-insertion order; its offset
 * is where it starts in the section the table stands for, its bytes at
 * btf_strtab_str(). Hashes are computed by the caller with btf_str_hash()
 * (so a worker can hash and a single consumer only probe) and kept in the
 * slots, so probing compares strings only on a full 32-bit hash match.
 * btf_strtab_add_at() indexes a string already in the table's own bytes
 * (in an unbiased table's prefix, say) without appending it again.
 *
 * Not thread-safe; one owner at a time.
 */
#ifndef D2B_BTF_BTF_STRTAB_H
#define D2B_BTF_BTF_STRTAB_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct btf_strtab_slot {
	uint32_t hash;
	uint32_t ent;		/* entry index + 1; 0: empty */
	uint32_t off, len;	/* the entry's, so a probe reads data once */
};

struct btf_strtab_ent {
	uint32_t off;		/* its offset: the bytes at btf_strtab_str() */
	uint32_t len;		/* without the NUL */
	uint64_t hash;		/* btf_str_hash(): the keys (btf_keys.h) use all 64 bits */
};

struct btf_strtab {
	uint64_t seed;		/* of the hashes append_cstr computes (0 unless set) */
	char *data;		/* the bytes from offset bias: btf_strtab_str() */
	size_t bias;		/* offsets below are not in data (0 unless biased) */
	size_t len, cap;	/* offsets: both count the bias */
	struct btf_strtab_ent *ents;	/* by entry index */
	size_t nr, cap_ents;
	struct btf_strtab_slot *slots;
	size_t mask;		/* number of slots - 1 (a power of two - 1) */
};

#define BTF_STR_HASH_K 0x9e3779b97f4a7c15ull

/* The hash's last steps: the length, then a final mix. */
static inline uint64_t btf_str_hash_finish(uint64_t h, size_t n)
{
	h ^= n * 0xc2b2ae3d27d4eb4full;
	h ^= h >> 32;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 29;
	return h;
}

/* The hash of S (not NUL) under SEED, its length in *LEN: 8 bytes a step
 * (xor, multiply, xor-shift), then the length and a final mix. Two strings
 * that differ in one 8-byte word never share it; strings that differ in
 * more can (one is easily built for another without a seed: the encoder
 * seeds its tables at random per run, so that DWARF cannot be crafted to
 * make the pre-dedup's keys, which take these hashes, collide). The slots
 * use its low 32 bits. Inline: the encoder hashes every name it writes
 * (btf_strtab_append_cstr() computes the same hash while it copies). */
static inline uint64_t btf_str_hash_plain(const char *s, size_t *len, uint64_t seed)
{
	const uint64_t k = BTF_STR_HASH_K;
	size_t n = strlen(s), i = 0;
	uint64_t h = k ^ seed, v;

	for (; i + 8 <= n; i += 8) {
		memcpy(&v, s + i, 8);
		h = (h ^ v) * k;
		h ^= h >> 29;
	}
	if (i < n) {
		v = 0;
		memcpy(&v, s + i, n - i);
		h = (h ^ v) * k;
	}
	*len = n;
	return btf_str_hash_finish(h, n);
}

/*
 * Where a word may be read past a string's NUL (never past its page, so
 * never into memory that is not mapped): the fused loops below and in
 * btf_strtab_append_cstr(). Builds with AddressSanitizer or
 * MemorySanitizer, which would flag those bytes, and big-endian hosts
 * take the plain passes.
 */
#ifndef __has_feature
#define __has_feature(x) 0	/* GCC before 14 */
#endif
#if defined(__SANITIZE_ADDRESS__) || __has_feature(address_sanitizer) || \
	__has_feature(memory_sanitizer) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#define BTF_STRTAB_FUSED 0
#else
#define BTF_STRTAB_FUSED 1
#endif

/* btf_str_hash_plain()'s value, its length found in the same pass, 8
 * bytes at a time: no strlen, and no byte-wise copy of the last word,
 * whose 8-byte reload stalled on the copy (a seventh of the base's string
 * index, built in every module's run). */
static inline uint64_t btf_str_hash_seeded(const char *s, size_t *len, uint64_t seed)
{
#if BTF_STRTAB_FUSED
	const uint64_t k = BTF_STR_HASH_K, ones = 0x0101010101010101ull;
	uint64_t h = k ^ seed, v, z;

	for (size_t i = 0; ((uintptr_t)(s + i) & 4095) <= 4096 - 8; i += 8) {
		size_t n;

		memcpy(&v, s + i, 8);
		z = (v - ones) & ~v & (ones << 7);	/* the lowest set: the first NUL */
		if (!z) {
			h = (h ^ v) * k;
			h ^= h >> 29;
			continue;
		}
		n = (size_t)__builtin_ctzll(z) / 8;	/* bytes before the NUL */
		if (n)
			h = (h ^ (v & (~0ull >> (64 - 8 * n)))) * k;
		*len = i + n;
		return btf_str_hash_finish(h, i + n);
	}
#endif
	return btf_str_hash_plain(s, len, seed);
}

/* Unseeded (tables that only index, never key). */
static inline uint64_t btf_str_hash(const char *s, size_t *len)
{
	return btf_str_hash_seeded(s, len, 0);
}

/* An empty table whose data starts with PREFIX (PREFIX_LEN bytes, may be
 * 0). Returns 0, or -1 when out of memory. */
int btf_strtab_init(struct btf_strtab *t, const char *prefix, size_t prefix_len);
/* An empty table whose offsets start at BIAS, the bytes below being the
 * caller's (not copied, not indexed, never read through T). 0, or -1. */
int btf_strtab_init_biased(struct btf_strtab *t, size_t bias);
void btf_strtab_deinit(struct btf_strtab *t);
/* Room for NR more entries and BYTES more bytes of data. 0, or -1. */
int btf_strtab_reserve(struct btf_strtab *t, size_t nr, size_t bytes);

/* Entry index of S (LEN bytes, HASH = btf_str_hash(S)), or -1; its offset
 * in *OFF when found (OFF may be NULL). */
long btf_strtab_find(const struct btf_strtab *t, const char *s, size_t len, uint64_t hash,
		     uint32_t *off);

/* The bytes at offset OFF (OFF >= t->bias). */
static inline char *btf_strtab_str(const struct btf_strtab *t, size_t off)
{
	return t->data + (off - t->bias);
}

/* Hints that S (hash HASH) will be looked up soon: its first slot, and the
 * string that slot holds (itself loaded by an earlier hint, with luck). */
static inline void btf_strtab_prefetch_slot(const struct btf_strtab *t, uint64_t hash)
{
	__builtin_prefetch(&t->slots[hash & t->mask]);
}

static inline void btf_strtab_prefetch_str(const struct btf_strtab *t, uint64_t hash)
{
	const struct btf_strtab_slot *s = &t->slots[hash & t->mask];

	if (s->ent)
		__builtin_prefetch(btf_strtab_str(t, s->off));
}

/* Entry index of S, appended to data and indexed if new (*ADDED = 1, else
 * 0; ADDED may be NULL). Returns -1 when out of memory. */
long btf_strtab_add(struct btf_strtab *t, const char *s, size_t len, uint64_t hash, int *added);

/* Index S (LEN bytes, HASH) as a new entry at offset OFF without appending
 * its bytes (the caller knows it is not in the table and that offset OFF
 * holds it: at or above the bias). Returns the entry index, or -1 when out of memory. */
long btf_strtab_add_at(struct btf_strtab *t, uint32_t off, size_t len, uint64_t hash);

/* Entry index of a NEW entry for S (LEN bytes, HASH), appended without
 * looking it up: for a table that is never probed (a fragment's, whose
 * strings the merge interns), where de-duplicating costs more than the
 * repeats it saves. Returns -1 when out of memory. */
long btf_strtab_append_slow(struct btf_strtab *t, const char *s, size_t len, uint64_t hash);

static inline long btf_strtab_append(struct btf_strtab *t, const char *s, size_t len,
				     uint64_t hash)
{
	size_t off = t->len;

	if (__builtin_expect(off + len + 1 > t->cap || t->nr >= t->cap_ents ||
			     off + len + 1 > UINT32_MAX, 0))
		return btf_strtab_append_slow(t, s, len, hash);
	memcpy(btf_strtab_str(t, off), s, len);
	btf_strtab_str(t, off)[len] = '\0';
	t->len += len + 1;
	t->ents[t->nr] = (struct btf_strtab_ent){ .off = (uint32_t)off, .len = (uint32_t)len,
						  .hash = hash };
	return (long)t->nr++;
}

/*
 * btf_strtab_append() of C string S with its hash (btf_str_hash_seeded
 * with the table's seed) computed while it is copied: one pass over the bytes, 8 at a time, instead of
 * strlen, hash and copy. S must not be empty. A word read may pass S's
 * NUL, never its page (BTF_STRTAB_FUSED above).
 */

static inline long btf_strtab_append_cstr(struct btf_strtab *t, const char *s)
{
	const uint64_t k = BTF_STR_HASH_K, ones = 0x0101010101010101ull;
	size_t len, i = 0, room = t->cap - t->len;
	char *dst = btf_strtab_str(t, t->len);
	uint64_t h = k ^ t->seed, v;

	if (!BTF_STRTAB_FUSED || t->nr >= t->cap_ents || room < 64 || t->len > UINT32_MAX - 4096)
		goto slow;
	if (room > 4096)
		room = 4096;	/* so that len + 1 <= 4096 keeps the offsets in 32 bits */
	for (;;) {
		uint64_t z;

		if (((uintptr_t)(s + i) & 4095) > 4096 - 8 || i + 8 > room)
			goto slow;
		memcpy(&v, s + i, 8);
		z = (v - ones) & ~v & (ones << 7);	/* the lowest set: the first NUL */
		if (!z) {
			memcpy(dst + i, &v, 8);
			h = (h ^ v) * k;
			h ^= h >> 29;
			i += 8;
			continue;
		}
		len = (size_t)__builtin_ctzll(z) / 8;	/* bytes before the NUL */
		v &= len ? ~0ull >> (64 - 8 * len) : 0;
		memcpy(dst + i, &v, 8);		/* the NUL and zeros after it */
		if (len)
			h = (h ^ v) * k;
		len += i;
		break;
	}
	t->ents[t->nr] = (struct btf_strtab_ent){ .off = (uint32_t)t->len, .len = (uint32_t)len,
						  .hash = btf_str_hash_finish(h, len) };
	t->len += len + 1;
	return (long)t->nr++;
slow:
	h = btf_str_hash_seeded(s, &len, t->seed);
	return btf_strtab_append(t, s, len, h);
}

/*
 * A read-only index of a string section someone else owns (a base BTF's,
 * for a split BTF's strings that must keep the base's offsets): one 8-byte
 * slot a string, { top 32 bits of its hash, offset }, at a load of at most
 * 3/4, the first of duplicates kept. Half the size of a btf_strtab's entry
 * and slot, and never grown: a vmlinux base's 96 k strings take 1 MiB.
 * The section is passed to each call (its owner may move it).
 */
struct btf_str_index {
	uint64_t *slots;	/* the hash's top 32 bits << 32 | offset; 0: empty */
	size_t mask;		/* slots - 1; the hash's low bits pick the first */
	size_t size;		/* bytes of the section it was built from */
};

/* How many of the N bytes at P are 0 (the strings a section holds). */
size_t btf_str_count_nuls(const char *p, size_t n);

/* Every string of DATA (LEN bytes, NUL-terminated, "" at 0) but the one at
 * offset 0, hashed under SEED. 0, or -1 when out of memory, LEN is too
 * large for 32-bit offsets or DATA does not end in a NUL. */
int btf_str_index_build(struct btf_str_index *x, const char *data, size_t len, uint64_t seed);
void btf_str_index_free(struct btf_str_index *x);

/* The offset in DATA (the section it was built from) of S (LEN bytes,
 * HASH = btf_str_hash_seeded() under the build's seed), or -1. */
static inline long btf_str_index_find(const struct btf_str_index *x, const char *data,
				      const char *s, size_t len, uint64_t hash)
{
	uint32_t h = (uint32_t)(hash >> 32);

	if (!x->slots)
		return -1;
	for (size_t i = hash & x->mask;; i = (i + 1) & x->mask) {
		uint64_t v = x->slots[i];
		uint32_t off = (uint32_t)v;

		if (!v)
			return -1;
		/* the string at OFF ends before the section does: compare
		 * no byte past it (a shorter one's NUL mismatches first) */
		if ((uint32_t)(v >> 32) == h && len < x->size - off &&
		    !memcmp(data + off, s, len) && !data[off + len])
			return off;
	}
}

static inline void btf_str_index_prefetch(const struct btf_str_index *x, uint64_t hash)
{
	if (x->slots)
		__builtin_prefetch(&x->slots[hash & x->mask]);
}

#endif
