// SPDX-License-Identifier: GPL-2.0-only
/* Strings of a file's mapping read through pread copies: see the header. */
#include "elf/elf_page_copies.h"
#include "elf/elf_file.h"

#include <stdlib.h>
#include <string.h>

enum {
	PAGE = ELF_PAGE_COPY_SIZE,
	SPILL = 256,		/* bytes of the next page in each copy */
	DIR_PAGES = ELF_PAGE_COPY_DIR,	/* pages a directory covers (2 MiB) */
	BLOCK = 16,		/* pages a read takes after BLOCK_AFTER reads */
	BLOCK_AFTER = 256,
};
_Static_assert(DIR_PAGES % BLOCK == 0, "a block in one directory");

void elf_page_copies_init(struct elf_page_copies *pc, const struct elf_file *ef)
{
	size_t size = 0;
	const uint8_t *image = ef ? elf_file_image(ef, &size) : NULL;

	memset(pc, 0, sizeof(*pc));
	pc->ef = ef;
	if (image && size && elf_file_is_mapped(ef, image, size)) {
		pc->base = (const char *)image;
		pc->size = size;
	}
}

void elf_page_copies_free(struct elf_page_copies *pc)
{
	for (size_t d = 0; d < pc->nr_dir; d++)
		free(pc->dir[d]);
	free(pc->dir);
	for (size_t i = 0; i < pc->reads.len; i++)
		free(pc->reads.data[i]);
	elf_read_vec_free(&pc->reads);
	memset(pc, 0, sizeof(*pc));
}

/* The copy of the page at OFF (its first time: read), NULL if none */
static const struct elf_page_copy *page_copy(struct elf_page_copies *pc, size_t off)
{
	size_t page = off / PAGE, d = page / DIR_PAGES;
	struct elf_page_copy *e;

	if (!pc->dir) {
		pc->nr_dir = (pc->size + (size_t)PAGE * DIR_PAGES - 1) / ((size_t)PAGE * DIR_PAGES);
		pc->dir = calloc(pc->nr_dir, sizeof(*pc->dir));
		if (!pc->dir) {
			pc->nr_dir = 0;
			pc->base = NULL;	/* through the mapping from now on */
			return NULL;
		}
	}
	if (!pc->dir[d]) {
		pc->dir[d] = calloc(DIR_PAGES, sizeof(**pc->dir));
		if (!pc->dir[d])
			return NULL;
	}
	e = &pc->dir[d][page % DIR_PAGES];
	if (!e->tried) {
		/* the page alone, or its block's pages not read yet */
		size_t n = pc->reads.len >= BLOCK_AFTER ? BLOCK : 1;
		size_t first = page - page % n, start = first * PAGE;
		size_t len = pc->size - start;
		char *buf = NULL;

		if (len > n * PAGE + SPILL)
			len = n * PAGE + SPILL;
		if (!elf_read_vec_reserve(&pc->reads, pc->reads.len + 1))
			buf = malloc(len);
		if (buf && elf_file_read(pc->ef, pc->base + start, buf, len)) {
			free(buf);
			buf = NULL;
		}
		if (!buf) {
			e->tried = true;	/* through the mapping */
			return NULL;
		}
		pc->reads.data[pc->reads.len++] = buf;
		for (size_t i = 0; i < n && (first + i) * PAGE < pc->size; i++) {
			struct elf_page_copy *x = &pc->dir[d][(first + i) % DIR_PAGES];

			if (!x->tried) {
				x->tried = true;
				x->copy = buf + i * PAGE;
				x->len = (uint32_t)(len - i * PAGE);
			}
		}
	}
	return e->copy ? e : NULL;
}

/* S's page's copy and S's place in it (*IN), NULL where S has none */
static const struct elf_page_copy *copy_of(struct elf_page_copies *pc, const char *s,
					   size_t *in)
{
	uintptr_t off = (uintptr_t)s - (uintptr_t)pc->base;

	if (!pc->base || off >= pc->size)
		return NULL;
	*in = off % PAGE;
	return page_copy(pc, off);
}

const char *elf_page_copies_at_slow(struct elf_page_copies *pc, const char *s, size_t need)
{
	size_t in = 0;
	const struct elf_page_copy *e = copy_of(pc, s, &in);

	return e && need <= e->len - in ? e->copy + in : s;
}

const char *elf_page_copies_str(struct elf_page_copies *pc, const char *s)
{
	size_t in = 0;
	const struct elf_page_copy *e = copy_of(pc, s, &in);

	return e && memchr(e->copy + in, 0, e->len - in) ? e->copy + in : s;
}
