// SPDX-License-Identifier: GPL-2.0-only
/* The pahole layout printer on hand-built models: holes, bit-fields,
 * padding, the summary, type spellings. Expected texts are pahole 1.24's
 * output for the equivalent C (checked with /usr/bin/pahole). */
#include <stdio.h>
#include <string.h>

#include "print/c_type.h"
#include "print/layout.h"
#include "print/pahole_print.h"

static int failures;

static void expect(const char *what, const char *got, const char *want)
{
	if (strcmp(got, want)) {
		fprintf(stderr, "FAIL %s:\n--- want\n%s\n--- got\n%s\n", what, want, got);
		failures++;
	}
}

/* struct c1 { char a[65]; char b; char c[62]; char d[2]; long e; };
 * "was 1 byte ago": singular. */
static void test_cacheline_singular(void)
{
	struct type t_char = { .kind = TK_BASE, .id = 0, .name = "char", .size = 1 };
	struct type t_long = { .kind = TK_BASE, .id = 1, .name = "long", .size = 8 };
	struct array_dim d65 = { .count = 65 }, d62 = { .count = 62 }, d2 = { .count = 2 };
	struct type t_a65 = { .kind = TK_ARRAY, .id = 2, .type = &t_char,
			      .array = { .dims = &d65, .nr_dims = 1 } };
	struct type t_a62 = { .kind = TK_ARRAY, .id = 3, .type = &t_char,
			      .array = { .dims = &d62, .nr_dims = 1 } };
	struct type t_a2 = { .kind = TK_ARRAY, .id = 4, .type = &t_char,
			     .array = { .dims = &d2, .nr_dims = 1 } };
	struct member mem[] = {
		{ .name = "a", .type = &t_a65, .bit_offset = 0 },
		{ .name = "b", .type = &t_char, .bit_offset = 65 * 8 },
		{ .name = "c", .type = &t_a62, .bit_offset = 66 * 8 },
		{ .name = "d", .type = &t_a2, .bit_offset = 128 * 8 },
		{ .name = "e", .type = &t_long, .bit_offset = 136 * 8 },
	};
	struct type t_s = { .kind = TK_STRUCT, .id = 5, .name = "c1", .size = 144,
			    .composite = { .members = mem, .nr_members = 5 } };
	struct type *types[] = { &t_char, &t_long, &t_a65, &t_a62, &t_a2, &t_s };
	struct cu_model cu = { .addr_size = 8, .types = types, .nr_types = 6 };
	struct pahole_print_opts o = { 0 };
	struct layout_cache lc;
	struct strbuf sb = STRBUF_INIT;

	layout_cache_init(&lc, &cu);
	pahole_print_type(&sb, &lc, &t_s, NULL, NULL, &o);
	expect("struct c1", strbuf_str(&sb),
	       "struct c1 {\n"
	       "\tchar                       a[65];                /*     0    65 */\n"
	       "\t/* --- cacheline 1 boundary (64 bytes) was 1 byte ago --- */\n"
	       "\tchar                       b;                    /*    65     1 */\n"
	       "\tchar                       c[62];                /*    66    62 */\n"
	       "\t/* --- cacheline 2 boundary (128 bytes) --- */\n"
	       "\tchar                       d[2];                 /*   128     2 */\n"
	       "\n"
	       "\t/* XXX 6 bytes hole, try to pack */\n"
	       "\n"
	       "\tlong                       e;                    /*   136     8 */\n"
	       "\n"
	       "\t/* size: 144, cachelines: 3, members: 5 */\n"
	       "\t/* sum members: 138, holes: 1, sum holes: 6 */\n"
	       "\t/* last cacheline: 16 bytes */\n"
	       "};");
	layout_cache_deinit(&lc);
	strbuf_free(&sb);
}

/* struct n { int x; struct { short s; } m; int y; }; as clang describes
 * it: the anonymous struct's DIE is a child of n's, after the member m.
 * pahole prints it where its DIE sits, with the stats of a top-level
 * struct, then a blank line (and one more, pending from the hole). */
static void test_nested_type(void)
{
	struct type t_int = { .kind = TK_BASE, .id = 0, .name = "int", .size = 4 };
	struct type t_short = { .kind = TK_BASE, .id = 1, .name = "short", .size = 2 };
	struct member in_mem[] = {
		{ .name = "s", .type = &t_short, .bit_offset = 0, .die_offset = 0x40 },
	};
	struct type t_anon = { .kind = TK_STRUCT, .id = 2, .size = 2,
			       .scope = TS_COMPOSITE, .die_offset = 0x3c,
			       .composite = { .members = in_mem, .nr_members = 1 } };
	struct type *nested[] = { &t_anon };
	struct member mem[] = {
		{ .name = "x", .type = &t_int, .bit_offset = 0, .die_offset = 0x2a },
		{ .name = "m", .type = &t_anon, .bit_offset = 32, .die_offset = 0x33 },
		{ .name = "y", .type = &t_int, .bit_offset = 64, .die_offset = 0x4a },
	};
	struct type t_n = { .kind = TK_STRUCT, .id = 3, .name = "n", .size = 12,
			    .die_offset = 0x25,
			    .composite = { .members = mem, .nr_members = 3,
					   .nested = nested, .nr_nested = 1 } };
	struct type *types[] = { &t_int, &t_short, &t_anon, &t_n };
	struct cu_model cu = { .addr_size = 8, .types = types, .nr_types = 4 };
	struct pahole_print_opts o = { 0 };
	struct layout_cache lc;
	struct strbuf sb = STRBUF_INIT;

	layout_cache_init(&lc, &cu);
	pahole_print_type(&sb, &lc, &t_n, NULL, NULL, &o);
	expect("struct n", strbuf_str(&sb),
	       "struct n {\n"
	       "\tint                        x;                    /*     0     4 */\n"
	       "\tstruct {\n"
	       "\t\tshort              s;                    /*     4     2 */\n"
	       "\t} m;                                             /*     4     2 */\n"
	       "\n"
	       "\t/* XXX 2 bytes hole, try to pack */\n"
	       "\tstruct {\n"
	       "\t\tshort                      s;                    /*     0     2 */\n"
	       "\n"
	       "\t\t/* size: 2, cachelines: 1, members: 1 */\n"
	       "\t\t/* last cacheline: 2 bytes */\n"
	       "\t};\n"
	       "\n"
	       "\n"
	       "\tint                        y;                    /*     8     4 */\n"
	       "\n"
	       "\t/* size: 12, cachelines: 1, members: 3 */\n"
	       "\t/* sum members: 10, holes: 1, sum holes: 2 */\n"
	       "\t/* last cacheline: 12 bytes */\n"
	       "};");
	layout_cache_deinit(&lc);
	strbuf_free(&sb);
}

int main(void)
{
	/* struct s { char c; long l; unsigned int a:3, b:5; const char *p; }; */
	struct type t_char = { .kind = TK_BASE, .id = 0, .name = "char", .size = 1 };
	struct type t_long = { .kind = TK_BASE, .id = 1, .name = "long int", .size = 8 };
	struct type t_uint = { .kind = TK_BASE, .id = 2, .name = "unsigned int", .size = 4 };
	struct type t_cchar = { .kind = TK_CONST, .id = 3, .type = &t_char };
	struct type t_ptr = { .kind = TK_POINTER, .id = 4, .size = 8, .type = &t_cchar };
	struct member mem[] = {
		{ .name = "c", .type = &t_char, .bit_offset = 0 },
		{ .name = "l", .type = &t_long, .bit_offset = 64 },
		{ .name = "a", .type = &t_uint, .bit_offset = 128, .bit_size = 3 },
		{ .name = "b", .type = &t_uint, .bit_offset = 131, .bit_size = 5 },
		{ .name = "p", .type = &t_ptr, .bit_offset = 192 },
	};
	struct type t_s = { .kind = TK_STRUCT, .id = 5, .name = "s", .size = 32,
			    .composite = { .members = mem, .nr_members = 5 } };
	struct type *types[] = { &t_char, &t_long, &t_uint, &t_cchar, &t_ptr, &t_s };
	struct cu_model cu = { .addr_size = 8, .types = types, .nr_types = 6 };
	struct pahole_print_opts o = { 0 };
	struct layout_cache lc;
	struct strbuf sb = STRBUF_INIT;

	c_type_name(&sb, &t_ptr);
	expect("const char pointer", strbuf_str(&sb), "const char  *");
	strbuf_reset(&sb);

	layout_cache_init(&lc, &cu);
	pahole_print_type(&sb, &lc, &t_s, NULL, NULL, &o);
	expect("struct s", strbuf_str(&sb),
	       "struct s {\n"
	       "\tchar                       c;                    /*     0     1 */\n"
	       "\n"
	       "\t/* XXX 7 bytes hole, try to pack */\n"
	       "\n"
	       "\tlong int                   l;                    /*     8     8 */\n"
	       "\tunsigned int               a:3;                  /*    16: 0  4 */\n"
	       "\tunsigned int               b:5;                  /*    16: 3  4 */\n"
	       "\n"
	       "\t/* XXX 24 bits hole, try to pack */\n"
	       "\t/* XXX 4 bytes hole, try to pack */\n"
	       "\n"
	       "\tconst char  *              p;                    /*    24     8 */\n"
	       "\n"
	       "\t/* size: 32, cachelines: 1, members: 5 */\n"
	       "\t/* sum members: 17, holes: 2, sum holes: 11 */\n"
	       "\t/* sum bitfield members: 8 bits, bit holes: 1, sum bit holes: 24 bits */\n"
	       "\t/* last cacheline: 32 bytes */\n"
	       "};");
	strbuf_reset(&sb);
	pahole_print_size_line(&sb, &lc, &t_s, '\t');
	expect("-s line", strbuf_str(&sb), "s\t32\t2\n");
	layout_cache_deinit(&lc);
	strbuf_free(&sb);
	test_cacheline_singular();
	test_nested_type();
	return failures ? 1 : 0;
}
