/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A bump allocator. Everything decoded for one compile unit lives in one arena
 * and is freed at once when the unit has been consumed.
 *
 *   arena ─► block ─► block ─► ...   (newest first; each block is one malloc)
 *
 * Allocation is a pointer bump; blocks grow geometrically up to 1 MiB. Not
 * thread-safe: an arena belongs to one thread at a time.
 */
#ifndef D2B_UTIL_ARENA_H
#define D2B_UTIL_ARENA_H

#include <stddef.h>
#include <string.h>

struct arena_block;

struct arena {
	struct arena_block *head;
	char *cur, *end;
	size_t next_size;
	size_t total;		/* bytes obtained from malloc, for --stats */
};

void arena_init(struct arena *a);
void arena_deinit(struct arena *a);
/* Free everything but keep the largest block for reuse. */
void arena_reset(struct arena *a);

/* Uninitialised memory, aligned to 16; NULL when out of memory. */
void *arena_alloc_slow(struct arena *a, size_t size);

static inline void *arena_alloc(struct arena *a, size_t size)
{
	size = (size + 15) & ~(size_t)15;
	if ((size_t)(a->end - a->cur) >= size) {
		void *p = a->cur;
		a->cur += size;
		return p;
	}
	return arena_alloc_slow(a, size);
}

static inline void *arena_zalloc(struct arena *a, size_t size)
{
	void *p = arena_alloc(a, size);
	if (p)
		memset(p, 0, size);
	return p;
}

char *arena_strdup(struct arena *a, const char *s);

#endif
