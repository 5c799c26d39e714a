// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of util/bigbuf.c: a buffer keeps its bytes through every
 * resize (small to small, small to big, big to bigger in place or moved,
 * big to small, shrinking); a big one starts at a 2 MiB boundary and is
 * marked for huge pages (its mapping in /proc/self/smaps says "hg"), or
 * for 4 KiB ones ("nh") when made by bigbuf_resize_small_pages(), through
 * every resize and move; a
 * zeroed one is zeroed on both sides of BIGBUF_MIN; bigbuf_populate()
 * faults in whole huge pages of the range asked, and only those, keeping
 * the bytes, also while another thread writes them.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "util/bigbuf.h"

#define MIB ((size_t)1 << 20)

static void fill(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 31 + seed + (i >> 12));
}

static size_t first_diff(const unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != (unsigned char)(i * 31 + seed + (i >> 12)))
			return i;
	return n;
}

static long resident(const unsigned char *p, size_t n);

/* Whether the mapping holding P has FLAG (" hg": MADV_HUGEPAGE, " nh":
 * MADV_NOHUGEPAGE) in its VmFlags, or -1 when smaps cannot be read or the
 * kernel has no transparent huge pages at all (then the mark is refused). */
static int vm_flag(const void *p, const char *flag)
{
	FILE *f = fopen("/proc/self/smaps", "re");
	char line[512];
	int in = 0, r = 0;

	if (!f)
		return -1;
	if (access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK)) {
		fclose(f);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, ' ') > line)
			in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
		else if (in && !strncmp(line, "VmFlags:", 8))
			r = strstr(line, flag) != NULL;
	}
	fclose(f);
	return r;
}

/*
 * Resize one buffer through STEPS[0..NR) with RESIZE, each step from the one
 * before: its bytes kept, a big one at a 2 MiB boundary, its mapping
 * marked MARK (" hg" or " nh") and not NOT_MARK. At 5 MiB (a 6 MiB
 * mapping) the space past it is taken, so that the next growth past 6 MiB
 * moves it (mremap to another place: the marks go with it).
 */
static void resize_through(const char *what, void *(*resize)(void *, size_t, size_t),
			   const char *mark, const char *not_mark, const size_t *steps, size_t nr)
{
	unsigned char *p = NULL;
	size_t have = 0, moved = 0;
	void *wall = MAP_FAILED;

	for (size_t s = 0; s < nr; s++) {
		size_t n = steps[s], keep = have < n ? have : n, d;
		unsigned char *q = resize(p, have, n);

		CHECK(q != NULL, "%s: resize %zu -> %zu failed", what, have, n);
		if (!q)
			break;
		d = first_diff(q, keep, (unsigned)s - 1);
		CHECK(s == 0 || d == keep, "%s: resize %zu -> %zu: byte %zu differs", what, have, n,
		      d);
		if (n >= BIGBUF_MIN) {
			CHECK(((uintptr_t)q & (2 * MIB - 1)) == 0, "%s: %zu bytes at %p: not at 2 MiB",
			      what, n, (void *)q);
			CHECK(vm_flag(q, mark) != 0 && vm_flag(q, not_mark) != 1,
			      "%s: %zu bytes at %p: not marked%s", what, n, (void *)q, mark);
		}
		if (wall != MAP_FAILED && q != p)
			moved++;
		fill(q, n, (unsigned)s);
		p = q;
		have = n;
		if (n == 5 * MIB && wall == MAP_FAILED) {
			wall = mmap(p + 6 * MIB, 2 * MIB, PROT_NONE,
				    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
			/* (a kernel before 4.17 takes the address as a hint) */
			if (wall != MAP_FAILED && wall != (void *)(p + 6 * MIB)) {
				munmap(wall, 2 * MIB);
				wall = MAP_FAILED;
			}
		}
	}
	if (wall != MAP_FAILED) {
		CHECK(moved > 0, "%s: the buffer never moved past its neighbour", what);
		munmap(wall, 2 * MIB);
	}
	bigbuf_free(p, have);
}

static void test_sizes(void)
{
	static const size_t steps[] = {
		100, 4096, 3 * MIB / 2, 2 * MIB, 3 * MIB, 5 * MIB, 5 * MIB + 1, 9 * MIB,
		17 * MIB, 4 * MIB, 1 * MIB, 10, 8 * MIB, 0,
	};

	resize_through("huge pages", bigbuf_resize, " hg", " nh", steps,
		       sizeof(steps) / sizeof(steps[0]));
	bigbuf_free(NULL, 5 * MIB);	/* nothing */
}

/* bigbuf_resize_small_pages(): as bigbuf_resize() but marked for 4 KiB
 * pages and never for huge ones; populate faults in the whole 2 MiB steps
 * asked for, and only those. */
static void test_small_pages(void)
{
	static const size_t steps[] = { 100, 3 * MIB, 5 * MIB, 9 * MIB, 4 * MIB, 1 * MIB, 6 * MIB };
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *f;

	resize_through("small pages", bigbuf_resize_small_pages, " nh", " hg", steps,
		       sizeof(steps) / sizeof(steps[0]));
	f = bigbuf_resize_small_pages(NULL, 0, 8 * MIB);
	CHECK(f != NULL && resident(f, 8 * MIB) == 0, "small pages: a fresh 8 MiB, nothing resident");
	if (f && bigbuf_populate(f, 8 * MIB, 1 * MIB, 7 * MIB) == 0) {
		CHECK(resident(f, 2 * MIB) == 0 && resident(f + 6 * MIB, 2 * MIB) == 0,
		      "small pages: populated outside 2 .. 6 MiB");
		CHECK(resident(f + 2 * MIB, 4 * MIB) == (long)(4 * MIB / page),
		      "small pages: 2 .. 6 MiB resident: %ld pages", resident(f + 2 * MIB, 4 * MIB));
	}
	bigbuf_free(f, 8 * MIB);
}

static void test_zalloc(void)
{
	static const size_t sizes[] = { 1, 4096, BIGBUF_MIN - 1, BIGBUF_MIN, 6 * MIB + 123 };

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		size_t n = sizes[s], nz = 0;
		unsigned char *p = bigbuf_zalloc(n);

		CHECK(p != NULL, "zalloc %zu", n);
		if (!p)
			continue;
		for (size_t i = 0; i < n; i++)
			nz += p[i] != 0;
		CHECK(nz == 0, "zalloc %zu: %zu bytes not zero", n, nz);
		p[n - 1] = 1;	/* the last byte is ours */
		bigbuf_free(p, n);
	}
}

/* Two big buffers grown in turn: the second sits where the first would
 * grow, so the first moves (the other path of a resize). */
static void test_neighbours(void)
{
	size_t na = 3 * MIB, nb = 3 * MIB;
	unsigned char *a = bigbuf_resize(NULL, 0, na), *b = bigbuf_resize(NULL, 0, nb);

	CHECK(a && b, "two buffers");
	if (!a || !b)
		return;
	fill(a, na, 7);
	fill(b, nb, 9);
	for (int i = 0; i < 4; i++) {
		unsigned char *x = bigbuf_resize(a, na, na * 2), *y;

		CHECK(x && first_diff(x, na, 7) == na, "a %zu -> %zu", na, na * 2);
		if (!x)
			break;
		a = x;
		na *= 2;
		fill(a, na, 7);
		y = bigbuf_resize(b, nb, nb * 2);
		CHECK(y && first_diff(y, nb, 9) == nb, "b %zu -> %zu", nb, nb * 2);
		if (!y)
			break;
		b = y;
		nb *= 2;
		fill(b, nb, 9);
	}
	bigbuf_free(a, na);
	bigbuf_free(b, nb);
}

/* Sizes no mapping can have: NULL, never a buffer shorter than asked. */
static void test_overflow(void)
{
	void *p = bigbuf_zalloc(SIZE_MAX - 10);

	CHECK(p == NULL, "zalloc SIZE_MAX - 10: %p", p);
	p = bigbuf_resize(NULL, 0, SIZE_MAX - MIB);
	CHECK(p == NULL, "resize to SIZE_MAX - 1 MiB: %p", p);
	p = bigbuf_calloc(SIZE_MAX / 2, 4);
	CHECK(p == NULL, "calloc SIZE_MAX / 2 x 4: %p", p);
	p = bigbuf_resize(NULL, 0, 3 * MIB);
	CHECK(p && bigbuf_resize(p, 3 * MIB, SIZE_MAX - 1) == NULL, "growing 3 MiB to SIZE_MAX - 1");
	bigbuf_free(p, 3 * MIB);
}

/* How many of the pages of P .. P + N are resident (mincore), or -1. */
static long resident(const unsigned char *p, size_t n)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), nr = n / page;
	unsigned char *v = malloc(nr);
	long r = 0;

	if (!v || mincore((void *)p, n, v)) {
		free(v);
		return -1;
	}
	for (size_t i = 0; i < nr; i++)
		r += v[i] & 1;
	free(v);
	return r;
}

struct writer {
	unsigned char *p;
	size_t n;
};

static void *write_all(void *arg)
{
	struct writer *w = arg;

	fill(w->p, w->n, 3);
	return NULL;
}

static void test_populate(void)
{
	size_t n = 8 * MIB, page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *p = bigbuf_zalloc(n), small[64];
	pthread_t t;
	struct writer w;
	int rc;

	CHECK(p != NULL, "8 MiB");
	if (!p)
		return;
	rc = bigbuf_populate(p, n, 1 * MIB, 7 * MIB);
	if (rc) {	/* a kernel before 5.14: nothing to check but the bytes */
		printf("# no MADV_POPULATE_WRITE here: only the bytes checked\n");
	} else {
		/* whole huge pages inside 1 .. 7 MiB: 2 .. 6 MiB */
		CHECK(resident(p, 2 * MIB) == 0, "0 .. 2 MiB not resident: %ld pages",
		      resident(p, 2 * MIB));
		CHECK(resident(p + 2 * MIB, 4 * MIB) == (long)(4 * MIB / page),
		      "2 .. 6 MiB resident: %ld pages", resident(p + 2 * MIB, 4 * MIB));
		CHECK(bigbuf_populate(p, n, n, SIZE_MAX) == 0 &&
		      bigbuf_populate(p, n, SIZE_MAX - 10, SIZE_MAX) == 0 &&
		      resident(p, 2 * MIB) == 0, "a range past the end: nothing");
		CHECK(resident(p + 6 * MIB, 2 * MIB) == 0, "6 .. 8 MiB not resident: %ld",
		      resident(p + 6 * MIB, 2 * MIB));
		CHECK(bigbuf_populate(p, n, 7 * MIB, 8 * MIB + 4096) == 0 &&
		      resident(p + 6 * MIB, 2 * MIB) == 0, "no whole page in 7 .. 8 MiB");
		CHECK(bigbuf_populate(small, sizeof(small), 0, sizeof(small)) == 0,
		      "a small buffer: nothing");
	}
	/* bytes written, then populated over: they stay */
	fill(p, 3 * MIB, 5);
	CHECK(bigbuf_populate(p, n, 0, 4 * MIB) == rc, "again");
	CHECK(first_diff(p, 3 * MIB, 5) == 3 * MIB, "the bytes written stay");
	for (size_t i = 3 * MIB; i < n; i += 4093)
		if (p[i]) {
			CHECK(0, "byte %zu of the populated part is %u", i, p[i]);
			break;
		}
	/* while another thread writes all of it */
	w.p = p;
	w.n = n;
	CHECK(!pthread_create(&t, NULL, write_all, &w), "a writer");
	for (size_t at = 0; at < n; at += 2 * MIB)
		bigbuf_populate(p, n, at, n);
	pthread_join(t, NULL);
	CHECK(first_diff(p, n, 3) == n, "the writer's bytes stay: first difference at %zu",
	      first_diff(p, n, 3));
	bigbuf_free(p, n);
}

int main(void)
{
	test_populate();
	test_sizes();
	test_small_pages();
	test_overflow();
	test_zalloc();
	test_neighbours();
	return check_done();
}
