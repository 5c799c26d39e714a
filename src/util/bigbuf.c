// SPDX-License-Identifier: GPL-2.0-only
/* Growing arrays of many MiB on transparent huge pages (see bigbuf.h). */
#define _GNU_SOURCE	/* mremap */
#include "util/bigbuf.h"

#include <errno.h>
#include <stdbool.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE ((size_t)2 << 20)

/* The mapping's length for a buffer of N bytes (N >= BIGBUF_MIN), or 0
 * when none can be that long. */
static size_t map_len(size_t n)
{
	return n > SIZE_MAX - 2 * HUGE ? 0 : (n + HUGE - 1) & ~(HUGE - 1);
}

/* LEN bytes (a multiple of HUGE, not 0) of fresh anonymous memory at a
 * HUGE boundary, PROT as mmap's, or NULL: a mapping HUGE longer, its head
 * and tail cut off. */
static void *map_at_boundary(size_t len, int prot, int flags)
{
	uintptr_t r, a;
	void *res;

	if (!len || len > SIZE_MAX - HUGE)
		return NULL;
	res = mmap(NULL, len + HUGE, prot, MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);
	if (res == MAP_FAILED)
		return NULL;
	r = (uintptr_t)res;
	a = (r + HUGE - 1) & ~(HUGE - 1);
	if (a > r)
		munmap(res, a - r);
	munmap((void *)(a + len), r + HUGE - a);
	return (void *)a;
}

/* LEN bytes (a multiple of HUGE) of zeroed memory at a HUGE boundary,
 * marked for huge pages, or for 4 KiB ones where SMALL. */
static void *map_aligned(size_t len, bool small)
{
	void *p = map_at_boundary(len, PROT_READ | PROT_WRITE, 0);

#if defined(MADV_HUGEPAGE) && defined(MADV_NOHUGEPAGE)
	/* a hint: fine if refused (NOHUGEPAGE: also where the kernel's
	 * THP mode is "always") */
	if (p)
		madvise(p, len, small ? MADV_NOHUGEPAGE : MADV_HUGEPAGE);
#else
	(void)small;
#endif
	return p;
}

/* Big buffer P (OL bytes of mapping) moved to a new mapping of NL bytes at a
 * HUGE boundary, its pages moved, not copied (a copy would hold both for a
 * while: the peak RSS). NULL when it cannot be; P is then untouched. */
static void *move_aligned(void *p, size_t ol, size_t nl)
{
	/* a place for it: reserved, then taken over by the move (the
	 * mapping keeps its marks) */
	void *res = map_at_boundary(nl, PROT_NONE, MAP_NORESERVE), *q;

	if (!res)
		return NULL;
	q = mremap(p, ol, nl, MREMAP_MAYMOVE | MREMAP_FIXED, res);
	if (q == MAP_FAILED) {
		munmap(res, nl);
		return NULL;
	}
	return q;
}

void *bigbuf_zalloc(size_t n)
{
	if (n < BIGBUF_MIN)
		return calloc(n ? n : 1, 1);
	return map_aligned(map_len(n), false);
}

int bigbuf_populate(void *p, size_t cap, size_t from, size_t to)
{
	size_t len = cap < BIGBUF_MIN ? 0 : map_len(cap);

	if (from >= len)
		return 0;
	from = (from + HUGE - 1) & ~(HUGE - 1);
	to = (to < len ? to : len) & ~(HUGE - 1);
	if (!p || from >= to)
		return 0;
#if defined(__linux__) && !defined(MADV_POPULATE_WRITE)
#define MADV_POPULATE_WRITE 23	/* Linux 5.14; headers may be older than the kernel */
#endif
#ifdef MADV_POPULATE_WRITE
	return madvise((char *)p + from, to - from, MADV_POPULATE_WRITE) ? -1 : 0;
#else
	errno = ENOSYS;
	return -1;
#endif
}

void bigbuf_free(void *p, size_t n)
{
	if (!p)
		return;
	if (n < BIGBUF_MIN)
		free(p);
	else
		munmap(p, map_len(n));
}

static void *resize(void *p, size_t old, size_t new, bool small)
{
	void *q;

	if (!p)
		old = 0;
	if (new < BIGBUF_MIN && old < BIGBUF_MIN)
		return realloc(p, new ? new : 1);
	if (p && old >= BIGBUF_MIN && new >= BIGBUF_MIN) {
		size_t ol = map_len(old), nl = map_len(new);

		if (!nl)
			return NULL;
		if (nl == ol)
			return p;
		/* in place: the same boundary, the same marks */
		q = mremap(p, ol, nl, 0);
		if (q != MAP_FAILED)
			return q;
		q = move_aligned(p, ol, nl);
		if (q)
			return q;
	}
	q = new < BIGBUF_MIN ? malloc(new ? new : 1) : map_aligned(map_len(new), small);
	if (!q)
		return NULL;
	if (p)
		memcpy(q, p, old < new ? old : new);
	bigbuf_free(p, old);
	return q;
}

void *bigbuf_resize(void *p, size_t old, size_t new)
{
	return resize(p, old, new, false);
}

void *bigbuf_resize_small_pages(void *p, size_t old, size_t new)
{
	return resize(p, old, new, true);
}
