/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * btf/btf_raw_internal.h: what the fragment builder (btf_raw.c) and the
 * merge (btf_merge.c) share: a record's info word, and growing arrays of
 * words.
 */
#ifndef D2B_BTF_BTF_RAW_INTERNAL_H
#define D2B_BTF_BTF_RAW_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <linux/btf.h>

#define MAX_TYPE_ID 0x7fffffff	/* libbpf's BTF_MAX_NR_TYPES */
#define HDR_WORDS (sizeof(struct btf_header) / 4)

/* libbpf composes and reads info exactly so (vlen is not masked when
 * composed, so a 65536th member carries into bit 16, as in libbpf). */
static inline uint32_t info_of(uint32_t kind, uint32_t vlen, uint32_t kflag)
{
	return (kflag << 31) | (kind << 24) | vlen;
}

static inline uint32_t kind_of(uint32_t info)
{
	return (info >> 24) & 0x1f;
}

static inline uint32_t vlen_of(uint32_t info)
{
	return info & 0xffff;
}

static inline uint32_t kflag_of(uint32_t info)
{
	return info >> 31;
}

/* Room for WANT entries in *P (capacity *CAP), doubling from 1024: 0, or
 * -1 when out of memory (btf_raw.c). */
int btf_raw_grow_u32_slow(uint32_t **p, size_t *cap, size_t want);

/* Room for WANT entries in *P (capacity *CAP): the check inline, the growth
 * out of line (the builder checks on every word it writes). */
static inline __attribute__((always_inline)) int grow_u32(uint32_t **p, size_t *cap, size_t want)
{
	return want <= *cap ? 0 : btf_raw_grow_u32_slow(p, cap, want);
}

/* Exactly N entries in *P (its capacity grown to N by the caller). */
static inline int realloc_u32(uint32_t **p, size_t n)
{
	uint32_t *np = realloc(*p, n * sizeof(*np));

	if (!np)
		return -1;
	*p = np;
	return 0;
}

#endif
