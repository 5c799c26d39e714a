// SPDX-License-Identifier: GPL-2.0-only
#include "util/arena.h"

#include <stdlib.h>

struct arena_block {
	struct arena_block *next;
	size_t size;
	/* data follows, 16-aligned */
} __attribute__((aligned(16)));

#define ARENA_FIRST_BLOCK (16 * 1024)
#define ARENA_MAX_BLOCK (1024 * 1024)

void arena_init(struct arena *a)
{
	a->head = NULL;
	a->cur = a->end = NULL;
	a->next_size = ARENA_FIRST_BLOCK;
	a->total = 0;
}

void arena_deinit(struct arena *a)
{
	struct arena_block *b = a->head;

	while (b) {
		struct arena_block *next = b->next;
		free(b);
		b = next;
	}
	arena_init(a);
}

void arena_reset(struct arena *a)
{
	struct arena_block *b = a->head, *keep = NULL;

	while (b) {
		struct arena_block *next = b->next;
		if (!keep || b->size > keep->size) {
			if (keep)
				free(keep);
			keep = b;
		} else {
			free(b);
		}
		b = next;
	}
	a->head = keep;
	a->total = 0;
	if (keep) {
		keep->next = NULL;
		a->cur = (char *)(keep + 1);
		a->end = a->cur + keep->size;
		a->total = keep->size;
	} else {
		a->cur = a->end = NULL;
	}
}

void *arena_alloc_slow(struct arena *a, size_t size)
{
	size_t bsize = a->next_size;
	struct arena_block *b;

	if (size > bsize)
		bsize = size;
	b = malloc(sizeof(*b) + bsize);
	if (!b)
		return NULL;
	b->size = bsize;
	b->next = a->head;
	a->head = b;
	a->total += bsize;
	a->cur = (char *)(b + 1) + size;
	a->end = (char *)(b + 1) + bsize;
	if (a->next_size < ARENA_MAX_BLOCK)
		a->next_size *= 2;
	return b + 1;
}

char *arena_strdup(struct arena *a, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = arena_alloc(a, n);

	if (p)
		memcpy(p, s, n);
	return p;
}
