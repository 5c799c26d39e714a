/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * elf/elf_page_copies.h: strings of a file's mapping read through copies of
 * their pages, made by pread.
 *
 * A page of the file first touched through the mapping costs a page fault,
 * and its unmapping at exit, ~4.5 us on the project's VM; a pread of the
 * same page into memory the process already has costs ~0.5 us
 * (docs/performance.md, thirty-fifth session). `pahole -C` reads a few
 * hundred names scattered over a vmlinux's 3.5 MB `.debug_str`: the names
 * its skim compares and the ones it prints, ~36 pages. Through these
 * copies they cost a read each instead.
 *
 * Each copy holds its page and the SPILL bytes after it, so a string that
 * starts in the page and ends before the copy does is read whole from it;
 * any other string (longer, or not in the mapping: a decompressed or
 * relocated section is already memory) is given back as it is, read
 * through the mapping as before. After the first 256 reads, a read takes
 * the 16 pages around the page: a name looked for in every unit of a
 * vmlinux reads all of .debug_str, where 4 KiB reads cost more than the
 * mapping's faults (each maps 64 KiB). Not thread-safe: one owner, one
 * thread.
 */
#ifndef D2B_ELF_ELF_PAGE_COPIES_H
#define D2B_ELF_ELF_PAGE_COPIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/vec.h"

struct elf_file;

DEFINE_VEC(elf_read_vec, char *)

#define ELF_PAGE_COPY_SIZE 4096u	/* a page */
#define ELF_PAGE_COPY_DIR 512u		/* pages a directory covers */

struct elf_page_copy {
	char *copy;		/* NULL: not read, or its read failed */
	uint32_t len;		/* bytes in copy */
	bool tried;		/* read once: a failure is not tried again */
};

/* By file page, in directories of DIR_PAGES pages made at need (a
 * vmlinux's 590 MB take 282 pointers; its .debug_str two directories). */
struct elf_page_copies {
	const struct elf_file *ef;
	const char *base;	/* the file's mapping; NULL: no mapping */
	size_t size;
	struct elf_page_copy **dir;
	size_t nr_dir;
	struct elf_read_vec reads;	/* the buffers read into, to free */
};

/* An empty set of copies of EF's pages (EF NULL, or a file given as memory:
 * every string is given back as it is). */
void elf_page_copies_init(struct elf_page_copies *pc, const struct elf_file *ef);
void elf_page_copies_free(struct elf_page_copies *pc);

/* elf_page_copies_at() for a page not read yet, or not in the set */
const char *elf_page_copies_at_slow(struct elf_page_copies *pc, const char *s, size_t need);

/*
 * S as a pointer into a copy of its page that holds at least NEED bytes
 * from S (a comparison with a string of NEED - 1 bytes reads no further),
 * or S itself when S is not in the mapping, when its copy cannot hold
 * them, or when memory or the read fails. Either way the same bytes; a
 * copy lives until elf_page_copies_free(). Inline: pahole -C's skim asks
 * for every name it compares (two million for a name no unit has).
 */
static inline const char *elf_page_copies_at(struct elf_page_copies *pc, const char *s,
					     size_t need)
{
	uintptr_t off = (uintptr_t)s - (uintptr_t)pc->base;
	const struct elf_page_copy *dir, *e;

	if (pc->base && pc->dir && off < pc->size &&
	    (dir = pc->dir[off / (ELF_PAGE_COPY_SIZE * ELF_PAGE_COPY_DIR)])) {
		e = &dir[off / ELF_PAGE_COPY_SIZE % ELF_PAGE_COPY_DIR];
		if (e->copy)
			return need <= e->len - off % ELF_PAGE_COPY_SIZE ?
			       e->copy + off % ELF_PAGE_COPY_SIZE : s;
	}
	return elf_page_copies_at_slow(pc, s, need);
}

/* The same for the whole NUL-terminated string at S. */
const char *elf_page_copies_str(struct elf_page_copies *pc, const char *s);

#endif
