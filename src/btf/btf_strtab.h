/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * btf/btf_strtab.h: an interning string table whose buffer is a BTF string
 * section.
 *
 *   data:  [ prefix (not indexed) | s0 \0 | s1 \0 | s2 \0 | ... ]
 *   ents:  [ {off, len, hash}(s0), (s1), ... ]     insertion order
 *   slots: open addressing, linear probing: { hash, entry index + 1 }
 *
 * A string's entry index is its rank in first-insertion order; its offset
 * is where its bytes start in data. Hashes are computed by the caller with
 * btf_str_hash() (so a worker can hash and a single consumer only probe)
 * and kept in the slots, so probing compares strings only on a full 32-bit
 * hash match. btf_strtab_add_at() records a string that lives elsewhere
 * (in the prefix: a base BTF's string) without appending it.
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
	uint32_t off;		/* in data */
	uint32_t len;		/* without the NUL */
	uint64_t hash;		/* btf_str_hash(): the keys (btf_keys.h) use all 64 bits */
};

struct btf_strtab {
	char *data;
	size_t len, cap;
	struct btf_strtab_ent *ents;	/* by entry index */
	size_t nr, cap_ents;
	struct btf_strtab_slot *slots;
	size_t mask;		/* number of slots - 1 (a power of two - 1) */
};

/* The hash of S (not NUL), its length in *LEN. Distinct strings of the
 * same length never share it (each step is a bijection of the state); the
 * slots use its low 32 bits. Inline: the encoder hashes every name it
 * writes. */
static inline uint64_t btf_str_hash(const char *s, size_t *len)
{
	const uint64_t k = 0x9e3779b97f4a7c15ull;
	size_t n = strlen(s), i = 0;
	uint64_t h = n * k, v;

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
	h ^= h >> 32;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 29;
	*len = n;
	return h;
}

/* An empty table whose data starts with PREFIX (PREFIX_LEN bytes, may be
 * 0). Returns 0, or -1 when out of memory. */
int btf_strtab_init(struct btf_strtab *t, const char *prefix, size_t prefix_len);
void btf_strtab_deinit(struct btf_strtab *t);
/* Room for NR more entries and BYTES more bytes of data. 0, or -1. */
int btf_strtab_reserve(struct btf_strtab *t, size_t nr, size_t bytes);

/* Entry index of S (LEN bytes, HASH = btf_str_hash(S)), or -1; its offset
 * in *OFF when found (OFF may be NULL). */
long btf_strtab_find(const struct btf_strtab *t, const char *s, size_t len, uint64_t hash,
		     uint32_t *off);

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
		__builtin_prefetch(t->data + s->off);
}

/* Entry index of S, appended to data and indexed if new (*ADDED = 1, else
 * 0; ADDED may be NULL). Returns -1 when out of memory. */
long btf_strtab_add(struct btf_strtab *t, const char *s, size_t len, uint64_t hash, int *added);

/* Index S (LEN bytes, HASH) as a new entry at offset OFF without appending
 * its bytes (the caller knows it is not in the table and that data + OFF
 * holds it). Returns the entry index, or -1 when out of memory. */
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
	memcpy(t->data + off, s, len);
	t->data[off + len] = '\0';
	t->len += len + 1;
	t->ents[t->nr] = (struct btf_strtab_ent){ .off = (uint32_t)off, .len = (uint32_t)len,
						  .hash = hash };
	return (long)t->nr++;
}

#endif
