// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of util/name_sort.c: the order equals qsort() with strcmp()
 * (ties by index) for names that share long prefixes, are shorter than 8
 * bytes, empty, or hold bytes above 0x7f (strcmp compares them unsigned).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util/name_sort.h"

static int by_name_then_index(const void *a, const void *b, void *ctx)
{
	char *const *names = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = strcmp(names[x], names[y]);

	if (c)
		return c;
	return x < y ? -1 : x > y;
}

static void check_against_qsort(char **names, size_t n, const char *what)
{
	struct name_sort_ent *e = malloc(n * sizeof(*e));
	uint32_t *ref = malloc(n * sizeof(*ref));
	size_t bad = 0;

	CHECK(e && ref, "alloc");
	if (!e || !ref)
		goto out;
	for (size_t i = 0; i < n; i++) {
		e[i].prefix = name_sort_prefix(names[i]);
		e[i].idx = (uint32_t)i;
		ref[i] = (uint32_t)i;
	}
	qsort_r(ref, n, sizeof(*ref), by_name_then_index, names);
	CHECK(name_sort(e, n, by_name_then_index, names) == 0, "%s: sort", what);
	for (size_t i = 0; i < n; i++)
		bad += e[i].idx != ref[i];
	CHECK(!bad, "%s: %zu of %zu entries out of place", what, bad, n);
out:
	free(e);
	free(ref);
}

int main(void)
{
	static const char *const fixed[] = {
		"", "a", "ab", "abcdefgh", "abcdefgh", "abcdefghi", "abcdefgg", "abcdefgha",
		"\xff", "\x80zz", "z", "abcdefgh\x80", "abc", "", "__x64_sys_read",
		"__x64_sys_write", "__x64_sys_readv", "b", "\x7f",
	};
	size_t nf = sizeof(fixed) / sizeof(fixed[0]), n = 20000;
	char **names = malloc(n * sizeof(*names));
	unsigned seed = 12345;

	CHECK(names != NULL, "alloc");
	if (!names)
		return check_done();
	for (size_t i = 0; i < nf; i++)
		names[i] = strdup(fixed[i]);
	check_against_qsort(names, nf, "fixed names");
	/* random names over a small alphabet: many equal prefixes and equal
	 * names; lengths 0-20 */
	for (size_t i = nf; i < n; i++) {
		size_t len = (seed = seed * 1103515245u + 12345u) >> 16 & 15;
		char buf[24];

		if (i % 3 == 0)
			len += 5;
		for (size_t k = 0; k < len; k++) {
			unsigned r = (seed = seed * 1103515245u + 12345u) >> 16;

			buf[k] = "ab_\xe9z"[r % 5];
		}
		buf[len] = 0;
		names[i] = strdup(buf);
	}
	check_against_qsort(names, n, "random names");
	/* already sorted, and one entry */
	check_against_qsort(names, 1, "one name");
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return check_done();
}
