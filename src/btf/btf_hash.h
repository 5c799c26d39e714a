/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * btf/btf_hash.h: the 128-bit hash the structural keys are built with
 * (btf_keys.c over BTF records, btf_model_keys.c over model types).
 *
 * Each word goes into both lanes through a step that is a bijection of the
 * lane for a fixed word (a multiply by an odd constant, an xor-shift), so
 * two sequences that differ in one word keep differing states however they
 * continue alike; the lanes use different constants, and h_key() mixes
 * them at the end. One multiply a lane a word. Word pairs whose places the
 * kind fixes (a member's name and type) go in by h_add2(): the second
 * word's product beside the first's, so a record's chain of dependent
 * multiplies is half as long (the same guarantee: a bijection in each
 * word, the other fixed).
 */
#ifndef D2B_BTF_BTF_HASH_H
#define D2B_BTF_BTF_HASH_H

#include <stdbool.h>
#include <stdint.h>

#include "btf/btf_keys.h"

struct h128 {
	uint64_t a, b;
};

static inline void h_add(struct h128 *h, uint64_t w)
{
	uint64_t a = (h->a ^ w) * 0x9e3779b97f4a7c15ull;
	uint64_t b = (h->b + w) * 0xc2b2ae3d27d4eb4full;

	h->a = a ^ (a >> 29);
	h->b = b ^ (b >> 31);
}

/* Two words in one step, each through a bijection of the lane for the
 * other fixed (W1 enters multiplied by an odd constant, beside the first's
 * product, not after it): half the dependent multiplies of two h_add(). */
static inline void h_add2(struct h128 *h, uint64_t w0, uint64_t w1)
{
	uint64_t a = ((h->a ^ w0) * 0x9e3779b97f4a7c15ull) ^ (w1 * 0xd6e8feb86659fd93ull);
	uint64_t b = ((h->b + w0) * 0xc2b2ae3d27d4eb4full) + (w1 * 0xa0761d6478bd642full);

	h->a = a ^ (a >> 29);
	h->b = b ^ (b >> 31);
}

static inline uint64_t fmix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x ^ (x >> 33);
}

static inline void h_init(struct h128 *h, uint64_t seed)
{
	h->a = 0x243f6a8885a308d3ull ^ seed;
	h->b = 0x13198a2e03707344ull + seed;
}

static inline void h_add_key(struct h128 *h, const struct btf_key *k)
{
	h_add2(h, k->lo, k->hi);
}

static inline struct btf_key h_key(const struct h128 *h)
{
	/* lo indexes the merge's table: fully mixed; hi only compared */
	struct btf_key k = { fmix64(h->a ^ (h->b << 29 | h->b >> 35)), h->a + h->b };

	if (!k.lo && !k.hi)	/* {0,0} means "no key" */
		k.lo = 1;
	return k;
}

/* The state as it is, for hashes that only feed other hashes (a record's
 * own hash, a member's neighbourhood). */
static inline struct btf_key h_raw(const struct h128 *h)
{
	struct btf_key k = { h->a, h->b };

	return k;
}

static inline bool key_none(const struct btf_key *k)
{
	return !k->lo && !k->hi;
}

#endif
