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
	pahole_print_size_line(&sb, &lc, &t_s);
	expect("-s line", strbuf_str(&sb), "s\t32\t2\n");
	layout_cache_deinit(&lc);
	strbuf_free(&sb);
	return failures ? 1 : 0;
}
