// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit test of src/elf/elf_page_copies.c: strings of a file's mapping read
 * through pread copies of their pages. An executable built at test time
 * gets a 2 MiB section of strings (objcopy), placed where the copies'
 * edges are: at a page's start, across a page's end within the copy's
 * spill, across it beyond the spill, at the file's last bytes. Each string
 * must come back with its bytes, from a copy where one can hold it and as
 * the mapping's own pointer where none can; the reads must switch to
 * blocks of pages after the first 256.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "elf/elf_file.h"
#include "elf/elf_page_copies.h"
#include "test_sh.h"

enum { PAGE = 4096, PAGES = 512, SPILL = 256 };

/* The section's size: its pages and one more, for where in a page it
 * starts */
#define BLOB_SIZE ((size_t)(PAGES + 1) * PAGE + 2000)

/* The section's bytes, from its first byte on a file page (SH bytes in):
 * "p<N>" at byte 200 of each page N; a 100-byte string from byte 4090 of
 * each page (its end in the next page, inside the spill); a 500-byte one
 * from byte 4000 of page 7 (its end past the spill), "p8b" after it */
static char *make_blob(size_t sh)
{
	char *b = calloc(1, BLOB_SIZE), *pg = b + sh;

	if (!b)
		abort();
	for (int p = 0; p < PAGES; p++) {
		snprintf(pg + (size_t)p * PAGE + 200, 16, "p%d", p);
		if (p + 1 < PAGES)
			memset(pg + (size_t)p * PAGE + 4090, 'a' + p % 26, 100);
	}
	memset(pg + 7 * PAGE + 4000, 'L', 500);
	pg[7 * PAGE + 4500] = 0;
	snprintf(pg + 8 * PAGE + 410, 16, "p8b");
	return b;
}

/* The checks, in the temporary directory DIR: 1 when the test's own
 * set-up fails, else 0 (the checks count their failures) */
static int run(const char *dir)
{
	char path[300], exe[300];
	struct d2b_error err = { 0 };
	struct elf_page_copies pc;
	const struct elf_section *sec;
	struct elf_file *ef;
	size_t size = BLOB_SIZE, shift;
	char *blob;
	const char *base;
	FILE *f;

	/* a section of zeros first, to learn where it lies in the file */
	blob = calloc(1, size);
	snprintf(path, sizeof(path), "%s/blob", dir);
	f = fopen(path, "wb");
	if (!blob || !f || fwrite(blob, 1, size, f) != size || fclose(f)) {
		perror(path);
		return 1;
	}
	free(blob);
	if (test_sh("printf 'int main(void){return 0;}' | cc -x c - -o %s/exe && "
	       "objcopy --add-section .teststr=%s/blob --set-section-flags .teststr=readonly "
	       "%s/exe %s/exe2", dir, dir, dir, dir)) {
		fprintf(stderr, "cannot build the test executable\n");
		return 1;
	}
	snprintf(exe, sizeof(exe), "%s/exe2", dir);
	ef = elf_file_open(exe, &err);
	sec = ef ? elf_file_find_section(ef, ".teststr") : NULL;
	CHECK(sec && sec->file_size == size, "the section: %s", err.msg);
	if (!sec || sec->file_size != size) {
		elf_file_close(ef);
		return 0;
	}
	/* then its bytes, placed by the file's pages */
	shift = (PAGE - sec->file_offset % PAGE) % PAGE;
	blob = make_blob(shift);
	f = fopen(exe, "r+b");
	if (!f || fseek(f, (long)sec->file_offset, SEEK_SET) ||
	    fwrite(blob, 1, size, f) != size || fclose(f)) {
		perror(exe);
		elf_file_close(ef);
		free(blob);
		return 1;
	}
	elf_file_close(ef);
	ef = elf_file_open(exe, &err);
	CHECK(ef, "open: %s", err.msg);
	if (!ef) {
		free(blob);
		return 0;
	}
	sec = elf_file_load_section(ef, ".teststr", &err);
	CHECK(sec && sec->size == size, "the section");
	if (!sec || sec->size != size) {
		elf_file_close(ef);
		free(blob);
		return 0;
	}
	base = (const char *)sec->data + shift;	/* on a file page */
	CHECK(elf_file_is_mapped(ef, base, size - shift), "the section is in the mapping");
	CHECK(!memcmp(sec->data, blob, size), "the section's bytes");

	elf_page_copies_init(&pc, ef);
	{
		/* a short string: from a copy, the same bytes */
		const char *s = base + 3 * PAGE + 200;
		const char *c = elf_page_copies_str(&pc, s);

		CHECK(c != s && !strcmp(c, "p3"), "short string: %p %p '%s'", (void *)c,
		      (void *)s, c);
		CHECK(pc.reads.len == 1, "one read: %zu", pc.reads.len);
		/* the same page again: no read */
		c = elf_page_copies_str(&pc, base + 3 * PAGE + 4090);
		CHECK(pc.reads.len == 1, "the page's copy kept: %zu", pc.reads.len);
		/* its end in the spill: whole from the copy */
		CHECK(c != base + 3 * PAGE + 4090 && strlen(c) == 100 &&
		      !memcmp(c, base + 3 * PAGE + 4090, 101), "across the page's end: %p %p %zu", (void *)c, (void *)(base + 3 * PAGE + 4090), strlen(c));
	}
	{
		/* past the spill: the mapping's own pointer for the whole
		 * string, a copy for its first bytes */
		const char *s = base + 7 * PAGE + 4000;

		CHECK(elf_page_copies_str(&pc, s) == s, "a string past the spill");
		CHECK(elf_page_copies_at(&pc, s, 400) == s, "400 bytes: past the spill");
		CHECK(elf_page_copies_at(&pc, s, 352) != s, "352 bytes: to the spill's end");
		CHECK(elf_page_copies_at(&pc, s, 10) != s &&
		      !memcmp(elf_page_copies_at(&pc, s, 10), s, 10), "its first 10 bytes");
		CHECK(elf_page_copies_str(&pc, base + 8 * PAGE + 410) != base + 8 * PAGE + 410 &&
		      !strcmp(elf_page_copies_str(&pc, base + 8 * PAGE + 410), "p8b"),
		      "the string after it");
	}
	{
		/* not in the mapping: as it is */
		char local[] = "local";

		CHECK(elf_page_copies_str(&pc, local) == local, "a string on the stack");
		CHECK(elf_page_copies_at(&pc, local, 3) == local, "bytes on the stack");
	}
	{
		/* every page: its string; 256 single reads, then blocks */
		size_t before, pages_read = 0;
		int bad = 0;

		for (int p = 0; p < PAGES; p++) {
			const char *s = base + (size_t)p * PAGE + 200;
			const char *c = elf_page_copies_str(&pc, s);
			char want[16];

			if (p == 8)
				continue;	/* under the long string */
			snprintf(want, sizeof(want), "p%d", p);
			bad += c == s || strcmp(c, want);
			if (pc.reads.len == 256 && !pages_read)
				pages_read = (size_t)p + 1;
		}
		CHECK(!bad, "%d pages' strings not from copies or wrong", bad);
		CHECK(pages_read > 0, "256 reads reached");
		before = pc.reads.len;
		/* the file's pages of the section, 4 KiB reads to 256, then 16
		 * pages a read (the section starts anywhere in a page) */
		CHECK(before <= 256 + (PAGES - pages_read) / 16 + 3, "%zu reads for %d pages",
		      before, PAGES);
		CHECK(before >= 256 + (PAGES - pages_read) / 16 - 1, "%zu reads for %d pages",
		      before, PAGES);
		/* the last bytes of the file: the copy ends where it does */
	}
	{
		size_t fsize;
		const uint8_t *img = elf_file_image(ef, &fsize);
		const char *last = (const char *)img + fsize - 1;
		const char *c = elf_page_copies_at(&pc, last, 1);

		CHECK(c != last && *c == *last, "the file's last byte");
		CHECK(elf_page_copies_at(&pc, last, 2) == last, "past the file's end");
	}
	elf_page_copies_free(&pc);
	{
		/* a file given as memory: nothing copied */
		struct elf_file *mem;
		size_t fsize;
		const uint8_t *img = elf_file_image(ef, &fsize);
		uint8_t *copy = malloc(fsize);

		if (!copy)
			abort();
		memcpy(copy, img, fsize);
		mem = elf_file_open_memory("memory", copy, fsize, &err);
		CHECK(mem, "open memory: %s", err.msg);
		if (mem) {
			const char *s = (const char *)copy + sec->file_offset + shift + 200;

			elf_page_copies_init(&pc, mem);
			CHECK(elf_page_copies_str(&pc, s) == s && !strcmp(s, "p0"), "memory");
			elf_page_copies_free(&pc);
			elf_file_close(mem);
		}
		free(copy);
	}
	/* no file at all */
	elf_page_copies_init(&pc, NULL);
	{
		const char *x = "x";

		CHECK(elf_page_copies_str(&pc, x) == x && elf_page_copies_at(&pc, x, 2) == x,
		      "no file");
	}
	elf_page_copies_free(&pc);
	elf_file_close(ef);
	free(blob);
	return 0;
}

int main(void)
{
	char dir[] = "/tmp/d2b-page-copies.XXXXXX";
	int rc;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	rc = run(dir);
	test_sh("rm -rf %s", dir);
	return rc ? rc : check_done();
}
