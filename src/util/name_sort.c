// SPDX-License-Identifier: GPL-2.0-only
/*
 * sort_by_u64(): a least-significant-byte-first radix sort (stable: each
 * pass keeps the order of the ones before; a pass whose byte is the same in
 * every entry is skipped). name_sort(): that over the names' bytes
 * [8d, 8d + 8) as keys, then the same at d + 1 over each run of entries
 * whose keys are equal and whose names go on (no NUL in those 8 bytes); a
 * run whose names ended is a run of equal names, and a run of a few
 * entries is sorted by the caller's comparison at once.
 */
#define _GNU_SOURCE
#include "util/name_sort.h"

#include <stdlib.h>
#include <string.h>

#define SMALL_RUN 12	/* runs up to this long: the caller's comparison */
#define MAX_OFF 512	/* names sharing more: the caller's comparison (no deep
			 * recursion on crafted names) */

struct sort_ctx {
	const char *(*name_of)(void *ctx, uint32_t idx);
	int (*cmp)(const void *a, const void *b, void *ctx);
	void *ctx;
	struct name_sort_ent *tmp;
};

static int ent_cmp(const void *a, const void *b, void *arg)
{
	const struct name_sort_ent *x = a, *y = b;
	const struct sort_ctx *sc = arg;

	return sc->cmp(&x->idx, &y->idx, sc->ctx);
}

/* Bytes [OFF, OFF + 8) of NAME (which has at least OFF bytes before its
 * NUL), big-endian, zeros after the NUL. */
static uint64_t chunk_at(const char *name, size_t off)
{
	uint64_t k = 0;

	name += off;
	for (int i = 0; i < 8 && name[i]; i++)
		k |= (uint64_t)(unsigned char)name[i] << (56 - 8 * i);
	return k;
}

static void radix(struct name_sort_ent *e, struct name_sort_ent *tmp, size_t n)
{
	struct name_sort_ent *src = e, *dst = tmp;
	size_t count[256];

	for (unsigned shift = 0; shift < 64; shift += 8) {
		size_t sum = 0;

		memset(count, 0, sizeof(count));
		for (size_t i = 0; i < n; i++)
			count[(src[i].key >> shift) & 0xff]++;
		if (count[(src[0].key >> shift) & 0xff] == n)
			continue;	/* one byte value: the order stays */
		for (unsigned b = 0; b < 256; b++) {
			size_t c = count[b];

			count[b] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[count[(src[i].key >> shift) & 0xff]++] = src[i];
		dst = src;
		src = src == e ? tmp : e;
	}
	if (src != e)
		memcpy(e, src, n * sizeof(*e));
}

int sort_by_u64(struct name_sort_ent *e, size_t n)
{
	struct name_sort_ent *tmp;

	if (n < 2)
		return 0;
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		return -1;
	radix(e, tmp, n);
	free(tmp);
	return 0;
}

/* E[0..N): names equal in their first OFF bytes, none ended before. */
static void sort_run(struct sort_ctx *sc, struct name_sort_ent *e, size_t n, size_t off)
{
	if (n <= SMALL_RUN || off >= MAX_OFF) {
		qsort_r(e, n, sizeof(*e), ent_cmp, sc);
		return;
	}
	for (size_t i = 0; i < n; i++)
		e[i].key = chunk_at(sc->name_of(sc->ctx, e[i].idx), off);
	radix(e, sc->tmp, n);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && e[j].key == e[i].key; j++)
			;
		if (j - i < 2)
			continue;
		if (e[i].key & 0xff)	/* all 8 bytes are name: they go on */
			sort_run(sc, e + i, j - i, off + 8);
		else			/* equal names */
			qsort_r(e + i, j - i, sizeof(*e), ent_cmp, sc);
	}
}

int name_sort(struct name_sort_ent *e, size_t n, const char *(*name_of)(void *ctx, uint32_t idx),
	      int (*cmp)(const void *a, const void *b, void *ctx), void *ctx)
{
	struct sort_ctx sc = { name_of, cmp, ctx, NULL };

	if (n < 2)
		return 0;
	sc.tmp = malloc(n * sizeof(*sc.tmp));
	if (!sc.tmp)
		return -1;
	sort_run(&sc, e, n, 0);
	free(sc.tmp);
	return 0;
}

uint32_t *name_sort_order(size_t n, const char *(*name_of)(void *ctx, uint32_t idx),
			  int (*cmp)(const void *a, const void *b, void *ctx), void *ctx)
{
	struct name_sort_ent *e = malloc((n ? n : 1) * sizeof(*e));
	uint32_t *order = malloc((n ? n : 1) * sizeof(*order));

	if (!e || !order || n > UINT32_MAX)
		goto fail;
	for (size_t i = 0; i < n; i++)
		e[i].idx = (uint32_t)i;
	if (name_sort(e, n, name_of, cmp, ctx))
		goto fail;
	for (size_t i = 0; i < n; i++)
		order[i] = e[i].idx;
	free(e);
	return order;
fail:
	free(e);
	free(order);
	return NULL;
}
