// SPDX-License-Identifier: GPL-2.0-only
/* pahole --compile's emitter (print/pahole_emit) on hand-built units: the
 * order of what a struct needs, the blank lines 1.24's return values put
 * between them, a struct declared again after its definition, the
 * renaming of a union named as a struct printed before, and, on DWARF
 * only, a declaration that is never taken for a definition. The struct
 * bodies are pahole_print_type()'s (test_pahole_print checks those). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "print/pahole_emit.h"
#include "print/pahole_print.h"

/* pahole_print_type's text of T, ";\n" */
static void body(struct strbuf *sb, struct layout_cache *lc, const struct type *t,
		 const char *prefix, const char *suffix)
{
	static const struct pahole_print_opts defaults;

	pahole_print_type(sb, lc, t, prefix, suffix, &defaults);
	strbuf_putc(sb, '\n');
}

/*
 * struct inner { int a; };  struct fwd;  enum color { RED, GREEN };
 * typedef unsigned int u32;
 * struct outer { struct inner in; struct fwd *fp; enum color c; u32 f;
 *                struct inner *ip; };
 * union inner { int x; };   (a second unit's, named as the struct)
 */
static void test_order(void)
{
	struct type t_int = { .kind = TK_BASE, .id = 0, .name = "int", .size = 4 };
	struct type t_uint = { .kind = TK_BASE, .id = 1, .name = "unsigned int", .size = 4 };
	struct member m_inner[] = { { .name = "a", .type = &t_int } };
	struct type t_inner = { .kind = TK_STRUCT, .id = 2, .name = "inner", .size = 4,
				.composite = { .members = m_inner, .nr_members = 1 } };
	struct type t_fwd = { .kind = TK_STRUCT, .id = 3, .name = "fwd", .declaration = true };
	struct type t_pfwd = { .kind = TK_POINTER, .id = 4, .size = 8, .type = &t_fwd };
	struct enumerator vals[] = { { "RED", 0 }, { "GREEN", 1 } };
	struct type t_color = { .kind = TK_ENUM, .id = 5, .name = "color", .size = 4,
				.enumeration = { .values = vals, .nr_values = 2 } };
	struct type t_u32 = { .kind = TK_TYPEDEF, .id = 6, .name = "u32", .type = &t_uint };
	struct type t_pinner = { .kind = TK_POINTER, .id = 7, .size = 8, .type = &t_inner };
	struct member m_outer[] = {
		{ .name = "in", .type = &t_inner, .bit_offset = 0 },
		{ .name = "fp", .type = &t_pfwd, .bit_offset = 64 },
		{ .name = "c", .type = &t_color, .bit_offset = 128 },
		{ .name = "f", .type = &t_u32, .bit_offset = 160 },
		{ .name = "ip", .type = &t_pinner, .bit_offset = 192 },
	};
	struct type t_outer = { .kind = TK_STRUCT, .id = 8, .name = "outer", .size = 32,
				.composite = { .members = m_outer, .nr_members = 5 } };
	struct type *types[] = { &t_int, &t_uint, &t_inner, &t_fwd, &t_pfwd, &t_color,
				 &t_u32, &t_pinner, &t_outer };
	struct cu_model cu = { .addr_size = 8, .types = types, .nr_types = 9, .from_btf = true };
	struct member m_u[] = { { .name = "x", .type = &t_int } };
	struct type t_uint2 = { .kind = TK_BASE, .id = 0, .name = "int", .size = 4 };
	struct type t_union = { .kind = TK_UNION, .id = 1, .name = "inner", .size = 4,
				.composite = { .members = m_u, .nr_members = 1 } };
	struct type *types2[] = { &t_uint2, &t_union };
	struct cu_model cu2 = { .addr_size = 8, .types = types2, .nr_types = 2, .from_btf = true };
	struct pahole_emit *pe = pahole_emit_create();
	struct strbuf got = STRBUF_INIT, want = STRBUF_INIT;
	struct layout_cache lc, lc2;

	CHECK(pe, "create");
	layout_cache_init(&lc, &cu);
	CHECK(pahole_emit_unit(pe, &cu, &lc) == 0, "unit");
	CHECK(pahole_emit_struct(pe, &t_inner, &got) == 0, "inner");
	CHECK(pahole_emit_struct(pe, &t_outer, &got) == 0, "outer");
	/* inner: nothing needed, its body, the walk's newline */
	body(&want, &lc, &t_inner, NULL, NULL);
	strbuf_putc(&want, '\n');
	/* outer: in (printed before: a blank line all the same), fp, c, f,
	 * ip (declared although defined: 1.24 looks among declarations only) */
	strbuf_puts(&want, "\nstruct fwd;\n\n");
	body(&want, &lc, &t_color, NULL, NULL);
	strbuf_puts(&want, "\ntypedef unsigned int u32;\n\nstruct inner;\n\n");
	body(&want, &lc, &t_outer, NULL, NULL);
	strbuf_putc(&want, '\n');
	CHECK(!strcmp(strbuf_str(&got), strbuf_str(&want)), "emitted:\n%s--- want\n%s",
	      strbuf_str(&got), strbuf_str(&want));
	/* outer again: printed before, only the walk's newline */
	strbuf_reset(&got);
	CHECK(pahole_emit_struct(pe, &t_outer, &got) == 0 && !strcmp(strbuf_str(&got), "\n"),
	      "outer again: '%s'", strbuf_str(&got));

	/* a union named as a struct printed before: renamed inner__1 */
	strbuf_reset(&got);
	strbuf_reset(&want);
	layout_cache_init(&lc2, &cu2);
	CHECK(pahole_emit_unit(pe, &cu2, &lc2) == 0, "unit 2");
	CHECK(pahole_emit_struct(pe, &t_union, &got) == 0, "union");
	CHECK(t_union.name && !strcmp(t_union.name, "inner__1"), "renamed to %s",
	      t_union.name ? t_union.name : "(null)");
	body(&want, &lc2, &t_union, NULL, NULL);
	strbuf_putc(&want, '\n');
	CHECK(!strcmp(strbuf_str(&got), strbuf_str(&want)) && strstr(strbuf_str(&got), "union inner__1 {"),
	      "union:\n%s--- want\n%s", strbuf_str(&got), strbuf_str(&want));
	layout_cache_deinit(&lc2);
	layout_cache_deinit(&lc);
	pahole_emit_destroy(pe);
	strbuf_free(&got);
	strbuf_free(&want);
}

/* typedef struct opaque opaque_t; struct user { opaque_t *o; };
 * DWARF: "struct opaque;" and the typedef, the struct never defined, so a
 * later unit's definition is printed; BTF (1.24): an empty struct */
static void test_declaration(void)
{
	for (int btf = 0; btf <= 1; btf++) {
		struct type t_op = { .kind = TK_STRUCT, .id = 0, .name = "opaque", .declaration = true };
		struct type t_td = { .kind = TK_TYPEDEF, .id = 1, .name = "opaque_t", .type = &t_op };
		struct type t_p = { .kind = TK_POINTER, .id = 2, .size = 8, .type = &t_td };
		struct member m_user[] = { { .name = "o", .type = &t_p } };
		struct type t_user = { .kind = TK_STRUCT, .id = 3, .name = "user", .size = 8,
				       .composite = { .members = m_user, .nr_members = 1 } };
		struct type *types[] = { &t_op, &t_td, &t_p, &t_user };
		struct cu_model cu = { .addr_size = 8, .types = types, .nr_types = 4,
				       .from_btf = btf };
		struct type t_int = { .kind = TK_BASE, .id = 0, .name = "int", .size = 4 };
		struct member m_op[] = { { .name = "v", .type = &t_int } };
		struct type t_def = { .kind = TK_STRUCT, .id = 1, .name = "opaque", .size = 4,
				      .composite = { .members = m_op, .nr_members = 1 } };
		struct type *types2[] = { &t_int, &t_def };
		struct cu_model cu2 = { .addr_size = 8, .types = types2, .nr_types = 2,
					.from_btf = btf };
		struct pahole_emit *pe = pahole_emit_create();
		struct strbuf got = STRBUF_INIT, want = STRBUF_INIT;
		struct layout_cache lc, lc2;

		layout_cache_init(&lc, &cu);
		layout_cache_init(&lc2, &cu2);
		CHECK(pe && pahole_emit_unit(pe, &cu, &lc) == 0, "unit");
		CHECK(pahole_emit_struct(pe, &t_user, &got) == 0, "user");
		CHECK(pahole_emit_unit(pe, &cu2, &lc2) == 0, "unit 2");
		CHECK(pahole_emit_struct(pe, &t_def, &got) == 0, "opaque");
		if (btf) {
			body(&want, &lc, &t_op, NULL, NULL);
			strbuf_puts(&want, "typedef struct opaque opaque_t;\n\n");
		} else {
			strbuf_puts(&want, "struct opaque;\ntypedef struct opaque opaque_t;\n\n");
		}
		body(&want, &lc, &t_user, NULL, NULL);
		strbuf_putc(&want, '\n');
		if (btf) {
			strbuf_putc(&want, '\n');	/* defined (empty) before */
		} else {
			body(&want, &lc2, &t_def, NULL, NULL);
			strbuf_putc(&want, '\n');
		}
		CHECK(!strcmp(strbuf_str(&got), strbuf_str(&want)), "%s:\n%s--- want\n%s",
		      btf ? "BTF" : "DWARF", strbuf_str(&got), strbuf_str(&want));
		layout_cache_deinit(&lc2);
		layout_cache_deinit(&lc);
		pahole_emit_destroy(pe);
		strbuf_free(&got);
		strbuf_free(&want);
	}
}

int main(void)
{
	test_order();
	test_declaration();
	return check_done();
}
