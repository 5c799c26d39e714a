/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * util/bigbuf.h: growing arrays of many MiB (the merged types, the dedup's
 * nodes and tables) on transparent huge pages (the merged types: on 4 KiB
 * pages, bigbuf_resize_small_pages()).
 *
 * On the project's VM of the ninth session a fresh 4 KiB page cost ~9 us
 * (the fault, and the hypervisor backing it again), a 2 MiB huge page ~0.1
 * ms. glibc's malloc
 * on huge pages (GLIBC_TUNABLES=glibc.malloc.hugetlb=1, which the encoder
 * runs with) marks its mapped chunks but leaves them where mmap put them:
 * a chunk of 4 MiB and a page starts anywhere, so at most one whole 2 MiB
 * page fits in it and the rest is faulted 4 KiB at a time, again after
 * each move by realloc. Here a buffer of BIGBUF_MIN bytes or more is a
 * mapping of its own at a 2 MiB boundary, its length a multiple of 2 MiB,
 * marked MADV_HUGEPAGE (a hint: the kernel may refuse, then it is ordinary
 * memory), grown in place or moved page by page to another 2 MiB boundary
 * (mremap: no copy, so the old and the new never both count in the peak
 * RSS); a smaller one is malloc's.
 *
 * The caller keeps the capacity in bytes it last asked for and passes it
 * back: it says which allocator owns the buffer. Not for buffers handed to
 * code that frees them with free().
 */
#ifndef D2B_UTIL_BIGBUF_H
#define D2B_UTIL_BIGBUF_H

#include <stddef.h>

#define BIGBUF_MIN ((size_t)2 << 20)

/* A buffer of NEW bytes holding the first min(OLD, NEW) bytes of P (OLD
 * bytes, or NULL with OLD 0), as realloc: NULL when out of memory, P then
 * untouched. Bytes past OLD are not zeroed. */
void *bigbuf_resize(void *p, size_t old, size_t new);

/*
 * The same for a buffer written once, front to back (the merged types,
 * which the dedup then reads): its mapping is marked for 4 KiB pages
 * (MADV_NOHUGEPAGE), still at a 2 MiB boundary and moved by mremap.
 * On the project's VM of the twenty-fourth session a fresh 2 MiB page cost
 * 0.15-2.5 ms (the most where another process had just given memory back,
 * as pahole does before each of our runs in a benchmark: the hypervisor
 * backs it again), 4 KiB pages 0.35 ms a MiB: the vmlinux -j1 1.46 -> 1.36
 * s in that benchmark (docs/performance.md). A buffer keeps the pages it
 * was made with: resize it with one of the two only.
 */
void *bigbuf_resize_small_pages(void *p, size_t old, size_t new);

/* A zeroed buffer of N bytes (N > 0), or NULL. */
void *bigbuf_zalloc(size_t n);

/* A zeroed buffer of N entries of SIZE bytes, or NULL (also when N * SIZE
 * overflows), as calloc. */
static inline void *bigbuf_calloc(size_t n, size_t size)
{
	return size && n > (size_t)-1 / size ? NULL : bigbuf_zalloc(n * size);
}

/*
 * Fault in bytes FROM .. TO of P, a buffer of CAP bytes, as a write would,
 * without writing: their contents stay what they are, so another thread
 * may be filling the buffer meanwhile (below FROM or anywhere: the kernel
 * serialises the faults). The range is cut to whole huge pages inside the
 * buffer. Only for a buffer of BIGBUF_MIN bytes or more (a mapping of its
 * own); P must not move or be freed meanwhile. Returns 0 (also when the
 * range holds no whole page), or -1 with errno set: EINVAL or ENOSYS when
 * the kernel cannot (before Linux 5.14: no MADV_POPULATE_WRITE), ENOMEM
 * when memory is short.
 */
int bigbuf_populate(void *p, size_t cap, size_t from, size_t to);

/* Free P, a buffer of N bytes (NULL: nothing). */
void bigbuf_free(void *p, size_t n);

#endif
