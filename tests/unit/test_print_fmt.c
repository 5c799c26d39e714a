// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hand-written conversions of print/fmt.h against glibc's snprintf of
 * the spelling each one replaces (negative widths, zero, the widest
 * numbers), strbuf_addf's one-pass growth across the buffer's capacity,
 * and the layout cache's chunks (types far apart by id, asked in any
 * order, each with its own record).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print/fmt.h"
#include "print/layout.h"

static int failures;

static void expect(const char *what, const char *got, const char *want)
{
	if (strcmp(got, want)) {
		fprintf(stderr, "FAIL %s: got \"%s\", want \"%s\"\n", what, got, want);
		failures++;
	}
}

static void test_left(void)
{
	static const int widths[] = { -40, -7, -1, 0, 1, 3, 5, 26, 40 };
	static const char *const strs[] = { "", "a", "int", "struct list_head" };

	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++)
		for (size_t j = 0; j < sizeof(strs) / sizeof(strs[0]); j++) {
			struct strbuf sb = STRBUF_INIT;
			char want[128], what[64];

			strbuf_puts(&sb, "x");
			fmt_left(&sb, widths[i], strs[j]);
			snprintf(want, sizeof(want), "x%-*s", widths[i], strs[j]);
			snprintf(what, sizeof(what), "%%-*s w=%d s=\"%s\"", widths[i], strs[j]);
			expect(what, strbuf_str(&sb), want);
			strbuf_free(&sb);
		}
}

static void test_blanks(void)
{
	static const int widths[] = { -9, -1, 0, 1, 2, 17 };

	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
		struct strbuf sb = STRBUF_INIT;
		char want[64], what[32];

		fmt_blanks(&sb, widths[i]);
		snprintf(want, sizeof(want), "%*s", widths[i], " ");
		snprintf(what, sizeof(what), "%%*s w=%d", widths[i]);
		expect(what, strbuf_str(&sb), want);
		strbuf_free(&sb);
	}
}

static void test_u(void)
{
	static const int widths[] = { -6, -1, 0, 2, 5, 12 };
	static const uint64_t vals[] = { 0, 7, 10, 99, 12345, 123456, 4294967295u,
					 UINT64_MAX };

	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++)
		for (size_t j = 0; j < sizeof(vals) / sizeof(vals[0]); j++) {
			struct strbuf sb = STRBUF_INIT;
			char want[64], what[64];

			fmt_u(&sb, widths[i], vals[j]);
			snprintf(want, sizeof(want), "%*llu", widths[i],
				 (unsigned long long)vals[j]);
			snprintf(what, sizeof(what), "%%*u w=%d v=%llu", widths[i],
				 (unsigned long long)vals[j]);
			expect(what, strbuf_str(&sb), want);
			strbuf_free(&sb);
		}
}

static void test_cut(void)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_puts(&sb, "keep:");
	strbuf_puts(&sb, "abcdefgh");
	fmt_cut_from(&sb, 5, 4);	/* char[4]: 3 characters */
	expect("cut to 3", strbuf_str(&sb), "keep:abc");
	if (sb.len != 8) {
		fprintf(stderr, "FAIL cut: len %zu, want 8\n", sb.len);
		failures++;
	}
	fmt_cut_from(&sb, 5, 100);	/* shorter than the buffer: untouched */
	expect("no cut", strbuf_str(&sb), "keep:abc");
	fmt_cut_from(&sb, 5, 0);	/* char[0]: nothing */
	expect("cut to 0", strbuf_str(&sb), "keep:");
	fmt_cut_from(&sb, 0, (size_t)-1);
	expect("no bound", strbuf_str(&sb), "keep:");
	strbuf_free(&sb);
}

/* strbuf_addf formats once into the room left and again only when the
 * text did not fit: every length around the capacity must come out whole. */
static void test_addf_growth(void)
{
	char want[600], piece[300];

	for (size_t pre = 0; pre < 140; pre += 7)
		for (size_t n = 0; n < 260; n += 13) {
			struct strbuf sb = STRBUF_INIT;

			memset(piece, 'p', n);
			piece[n] = '\0';
			for (size_t i = 0; i < pre; i++)
				strbuf_putc(&sb, 'a');
			strbuf_addf(&sb, "<%s|%d>", piece, (int)n);
			snprintf(want, sizeof(want), "%.*s<%s|%d>", (int)pre,
				 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
				 piece, (int)n);
			if (strcmp(strbuf_str(&sb), want) || sb.len != strlen(want)) {
				fprintf(stderr, "FAIL addf pre=%zu n=%zu: len %zu\n", pre, n, sb.len);
				failures++;
			}
			strbuf_free(&sb);
		}
}

/* Types whose ids land in different chunks of the layout cache, asked for
 * last chunk first: each gets its own facts. */
static void test_layout_chunks(void)
{
	enum { NR = 3 * LAYOUT_CHUNK + 5 };
	struct type **types = calloc(NR, sizeof(*types));
	struct type *all = calloc(NR, sizeof(*all));
	struct type t_int = { .kind = TK_BASE, .name = "int", .size = 4 };
	struct type t_char = { .kind = TK_BASE, .name = "char", .size = 1 };
	struct member m1[] = {
		{ .name = "c", .type = &t_char, .bit_offset = 0 },
		{ .name = "i", .type = &t_int, .bit_offset = 32 },
	};
	struct member m2[] = {
		{ .name = "i", .type = &t_int, .bit_offset = 0 },
		{ .name = "c", .type = &t_char, .bit_offset = 32 },
	};
	struct cu_model cu = { 0 };
	struct layout_cache lc;
	const uint32_t a = 2, b = NR - 1;	/* chunks 0 and 3 */
	struct layout_class *ca, *cb;

	if (!types || !all) {
		fprintf(stderr, "FAIL: out of memory\n");
		failures++;
		goto out;
	}
	for (uint32_t i = 0; i < NR; i++) {
		all[i] = (struct type){ .kind = TK_BASE, .id = i, .name = "int", .size = 4 };
		types[i] = &all[i];
	}
	all[a] = (struct type){ .kind = TK_STRUCT, .id = a, .name = "s1", .size = 8,
				.composite = { .members = m1, .nr_members = 2 } };
	all[b] = (struct type){ .kind = TK_STRUCT, .id = b, .name = "s2", .size = 8,
				.composite = { .members = m2, .nr_members = 2 } };
	cu.types = types;
	cu.nr_types = NR;
	cu.addr_size = 8;
	layout_cache_init(&lc, &cu);
	cb = layout_holes(&lc, &all[b]);
	ca = layout_holes(&lc, &all[a]);
	if (!ca || !cb || lc.oom) {
		fprintf(stderr, "FAIL layout chunks: no record\n");
		failures++;
	} else {
		/* s1 { char c; 3 bytes hole; int i; }, s2 { int i; char c; 3 padding } */
		if (ca->m[0].hole != 3 || ca->padding != 0 || cb->m[0].hole != 0 ||
		    cb->padding != 3) {
			fprintf(stderr, "FAIL layout chunks: s1 hole %d padding %d, s2 hole %d padding %d\n",
				ca->m[0].hole, ca->padding, cb->m[0].hole, cb->padding);
			failures++;
		}
		if (layout_holes(&lc, &all[a]) != ca) {
			fprintf(stderr, "FAIL layout chunks: a second ask gave another record\n");
			failures++;
		}
	}
	if (layout_holes(&lc, &all[5]) != NULL) {	/* not a struct */
		fprintf(stderr, "FAIL layout chunks: a base type has a record\n");
		failures++;
	}
	/* pahole's DWARF loader has alignment information whether or not a
	 * DW_AT_alignment is there (the "Force padding" lines); BTF has none */
	if (!layout_has_alignment_info(&lc)) {
		fprintf(stderr, "FAIL layout chunks: no alignment info from DWARF\n");
		failures++;
	}
	layout_cache_deinit(&lc);
	cu.from_btf = true;
	layout_cache_init(&lc, &cu);
	if (layout_has_alignment_info(&lc)) {
		fprintf(stderr, "FAIL layout chunks: alignment info from BTF\n");
		failures++;
	}
	layout_cache_deinit(&lc);
out:
	free(types);
	free(all);
}

int main(void)
{
	test_left();
	test_blanks();
	test_u();
	test_cut();
	test_addf_growth();
	test_layout_chunks();
	if (failures)
		fprintf(stderr, "%d failure(s)\n", failures);
	return failures ? 1 : 0;
}
