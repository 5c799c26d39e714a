// SPDX-License-Identifier: GPL-2.0-only
/*
 * name_sort(): a least-significant-byte-first radix sort of the prefixes
 * (stable, so each pass keeps the order of the ones before it; a pass
 * whose byte is the same in every entry is skipped), then qsort_r() over
 * each run of equal prefixes with the caller's comparison.
 */
#define _GNU_SOURCE
#include "util/name_sort.h"

#include <stdlib.h>
#include <string.h>

/* The caller's comparison over entries (it compares idx values). */
struct run_cmp {
	int (*cmp)(const void *a, const void *b, void *ctx);
	void *ctx;
};

static int ent_cmp(const void *a, const void *b, void *arg)
{
	const struct name_sort_ent *x = a, *y = b;
	const struct run_cmp *rc = arg;

	return rc->cmp(&x->idx, &y->idx, rc->ctx);
}

int name_sort(struct name_sort_ent *e, size_t n,
	      int (*cmp)(const void *a, const void *b, void *ctx), void *ctx)
{
	struct run_cmp rc = { cmp, ctx };
	struct name_sort_ent *tmp, *src = e, *dst;
	size_t count[256];

	if (n < 2)
		return 0;
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		return -1;
	dst = tmp;
	for (unsigned shift = 0; shift < 64; shift += 8) {
		size_t sum = 0;

		memset(count, 0, sizeof(count));
		for (size_t i = 0; i < n; i++)
			count[(src[i].prefix >> shift) & 0xff]++;
		if (count[(src[0].prefix >> shift) & 0xff] == n)
			continue;	/* one byte value: the order stays */
		for (unsigned b = 0; b < 256; b++) {
			size_t c = count[b];

			count[b] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[count[(src[i].prefix >> shift) & 0xff]++] = src[i];
		dst = src;
		src = src == e ? tmp : e;
	}
	if (src != e)
		memcpy(e, src, n * sizeof(*e));
	free(tmp);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && e[j].prefix == e[i].prefix; j++)
			;
		if (j - i > 1)
			qsort_r(e + i, j - i, sizeof(*e), ent_cmp, &rc);
	}
	return 0;
}
