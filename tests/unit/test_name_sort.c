// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of util/name_sort.c: name_sort()'s order equals qsort() with
 * strcmp() (ties by index) for names that share long prefixes (past the
 * depth where it stops radix sorting too), are shorter than 8 bytes, empty,
 * or hold bytes above 0x7f (strcmp compares them unsigned); sort_by_u64()
 * is a stable sort.
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

static const char *name_of(void *ctx, uint32_t idx)
{
	char *const *names = ctx;

	return names[idx];
}

static void check_against_qsort(char **names, size_t n, const char *what)
{
	struct name_sort_ent *e = malloc(n * sizeof(*e));
	uint32_t *ref = malloc(n * sizeof(*ref));
	size_t bad = 0;

	CHECK(e && ref, "alloc");
	if (!e || !ref)
		goto out;
	/* entries in reverse, so that ties by index are not free */
	for (size_t i = 0; i < n; i++) {
		e[i].idx = (uint32_t)(n - 1 - i);
		ref[i] = (uint32_t)(n - 1 - i);
	}
	qsort_r(ref, n, sizeof(*ref), by_name_then_index, names);
	CHECK(name_sort(e, n, name_of, by_name_then_index, names) == 0, "%s: sort", what);
	for (size_t i = 0; i < n; i++)
		bad += e[i].idx != ref[i];
	CHECK(!bad, "%s: %zu of %zu entries out of place", what, bad, n);
out:
	free(e);
	free(ref);
}

/* sort_by_u64: ascending keys (all 64 bits matter), equal keys in their
 * input order */
static void test_u64(void)
{
	enum { N = 5000 };
	struct name_sort_ent *e = malloc(N * sizeof(*e));
	unsigned seed = 777;
	size_t bad = 0;

	CHECK(e != NULL, "alloc");
	if (!e)
		return;
	for (uint32_t i = 0; i < N; i++) {
		seed = seed * 1103515245u + 12345u;
		/* few distinct keys, spread over the high and low bytes */
		e[i].key = (uint64_t)(seed >> 16 & 7) << 61 | (seed >> 20 & 3);
		e[i].idx = i;
	}
	CHECK(sort_by_u64(e, N) == 0, "sort");
	for (size_t i = 1; i < N; i++)
		bad += e[i - 1].key > e[i].key ||
		       (e[i - 1].key == e[i].key && e[i - 1].idx > e[i].idx);
	CHECK(!bad, "sort_by_u64: %zu pairs out of order", bad);
	free(e);
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
	check_against_qsort(names, 1, "one name");
	/* long shared prefixes: 0-40 bytes of 'a' before the random tail,
	 * and some past the depth limit (600 bytes) */
	for (size_t i = nf; i < n; i++) {
		size_t len = strlen(names[i]), pre = i % 97 == 0 ? 600 : (i * 7) % 41;
		char *p = malloc(pre + len + 1);

		CHECK(p != NULL, "alloc");
		if (!p)
			break;
		memset(p, 'a', pre);
		memcpy(p + pre, names[i], len + 1);
		free(names[i]);
		names[i] = p;
	}
	check_against_qsort(names, n, "long shared prefixes");
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	test_u64();
	return check_done();
}
