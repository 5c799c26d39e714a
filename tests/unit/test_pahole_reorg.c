// SPDX-License-Identifier: GPL-2.0-only
/* pahole -R (print/pahole_reorg) on a hand-built struct: the moves, their
 * order, the new offsets and what was saved, as pahole 1.24 prints them
 * for the same C (checked with /usr/bin/pahole -R -V); and a C++ class
 * with a base, which -R does not take yet. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "print/pahole_reorg.h"

/* struct s { char a; long b; char c; int d; short e; }; */
static void test_moves(void)
{
	struct type t_char = { .kind = TK_BASE, .id = 0, .name = "char", .size = 1 };
	struct type t_long = { .kind = TK_BASE, .id = 1, .name = "long int", .size = 8 };
	struct type t_int = { .kind = TK_BASE, .id = 2, .name = "int", .size = 4 };
	struct type t_short = { .kind = TK_BASE, .id = 3, .name = "short int", .size = 2 };
	struct member mem[] = {
		{ .name = "a", .type = &t_char, .bit_offset = 0 },
		{ .name = "b", .type = &t_long, .bit_offset = 8 * 8 },
		{ .name = "c", .type = &t_char, .bit_offset = 16 * 8 },
		{ .name = "d", .type = &t_int, .bit_offset = 20 * 8 },
		{ .name = "e", .type = &t_short, .bit_offset = 24 * 8 },
	};
	struct type t_s = { .kind = TK_STRUCT, .id = 4, .name = "s", .size = 32,
			    .composite = { .members = mem, .nr_members = 5 } };
	struct type *types[] = { &t_char, &t_long, &t_int, &t_short, &t_s };
	struct cu_model cu = { .addr_size = 8, .types = types, .nr_types = 5 };
	struct pahole_print_opts o = { 0 };
	struct d2b_error err = { 0 };
	struct strbuf sb = STRBUF_INIT;
	static const char want_layout[] =
		"struct s {\n"
		"\tchar                       a;                    /*     0     1 */\n"
		"\tchar                       c;                    /*     1     1 */\n"
		"\tshort int                  e;                    /*     2     2 */\n"
		"\tint                        d;                    /*     4     4 */\n"
		"\tlong int                   b;                    /*     8     8 */\n"
		"\n"
		"\t/* size: 16, cachelines: 1, members: 5 */\n"
		"\t/* last cacheline: 16 bytes */\n"
		"};   /* saved 16 bytes! */\n";
	char want_verbose[1024];

	CHECK(pahole_reorg_supported(&t_s), "a plain struct not supported");
	CHECK(pahole_reorg_print(&sb, &cu, &t_s, false, &o, &err) == 0, "reorg: %s", err.msg);
	CHECK(!strcmp(strbuf_str(&sb), want_layout), "-R:\n%s--- want\n%s", strbuf_str(&sb),
	      want_layout);
	/* the model is not touched */
	CHECK(t_s.size == 32 && mem[1].bit_offset == 64 && !strcmp(t_s.composite.members[1].name, "b"),
	      "the struct changed: size %llu", (unsigned long long)t_s.size);
	strbuf_reset(&sb);
	snprintf(want_verbose, sizeof(want_verbose), "%s%s",
		 "/* Moving 'c' from after 'b' to after 'a' */\n"
		 "/* Moving 'e' from after 'd' to after 'c' */\n"
		 "/* Moving 'd' from after 'b' to after 'e' */\n"
		 "\n", want_layout);
	CHECK(pahole_reorg_print(&sb, &cu, &t_s, true, &o, &err) == 0, "reorg -V: %s", err.msg);
	CHECK(!strcmp(strbuf_str(&sb), want_verbose), "-R -V:\n%s--- want\n%s", strbuf_str(&sb),
	      want_verbose);
	strbuf_free(&sb);
}

/* class D : B { int x; }: not taken (bases stay where they are in 1.24's
 * member list, which our model keeps apart) */
static void test_unsupported(void)
{
	struct type t_int = { .kind = TK_BASE, .id = 0, .name = "int", .size = 4 };
	struct member base = { .type = &t_int, .is_inheritance = true };
	struct composite_cxx cxx = { .bases = &base, .nr_bases = 1 };
	struct member mem[] = { { .name = "x", .type = &t_int, .bit_offset = 32 } };
	struct type t_d = { .kind = TK_CLASS, .id = 1, .name = "D", .size = 8,
			    .composite = { .members = mem, .nr_members = 1, .cxx = &cxx } };
	struct type t_u = { .kind = TK_UNION, .id = 2, .name = "U", .size = 4,
			    .composite = { .members = mem, .nr_members = 1 } };

	CHECK(!pahole_reorg_supported(&t_d), "a class with a base taken");
	CHECK(!pahole_reorg_supported(&t_u), "a union taken");
}

/* struct empty {}: nothing to move (found by UBSan: no member array) */
static void test_empty(void)
{
	struct type t_e = { .kind = TK_STRUCT, .id = 0, .name = "empty", .size = 0 };
	struct type *types[] = { &t_e };
	struct cu_model cu = { .addr_size = 8, .types = types, .nr_types = 1 };
	struct pahole_print_opts o = { 0 };
	struct d2b_error err = { 0 };
	struct strbuf sb = STRBUF_INIT;

	CHECK(pahole_reorg_print(&sb, &cu, &t_e, true, &o, &err) == 0, "reorg: %s", err.msg);
	CHECK(!strcmp(strbuf_str(&sb), "struct empty {\n\n\t/* size: 0, cachelines: 0, members: 0 */\n};\n"),
	      "-R -V of an empty struct:\n%s", strbuf_str(&sb));
	strbuf_free(&sb);
}

int main(void)
{
	test_moves();
	test_empty();
	test_unsupported();
	return check_done();
}
