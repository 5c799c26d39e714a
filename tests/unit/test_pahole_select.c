// SPDX-License-Identifier: GPL-2.0-only
/* pahole's listing (pahole_select) on hand-built units: each struct once,
 * by pahole 1.24's identity (name, size, members' names, offsets and
 * bit-field sizes), the same with the keys prepared on a decoding thread
 * (pahole_select_prepare) as without; -C prepares nothing; the filters
 * and formatters (-x, -y, -X, --unions, -n, -T, -t). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "print/pahole_select.h"

/* Long names are known by their address (names_lo..hi): one array, as a
 * linker-merged .debug_str gives one place a string. */
static const char names[] = "shared_node_long\0a\0b\0x\0only_in_b_struct\0";
#define N_SHARED (names + 0)
#define N_A (names + 17)
#define N_B (names + 19)
#define N_X (names + 21)
#define N_ONLY (names + 23)

static struct type t_int = { .kind = TK_BASE, .name = "int", .size = 4 };

struct unit {
	struct member shared_m[1], twin_m[2], only_m[1], nested_m[1];
	struct type shared, twin, only, nested, decl;
	struct type *types[6];
	struct cu_model cu;
};

/* Unit A: shared_node_long, twin {a; b}, a nested struct and a
 * declaration (neither listed). Unit B: shared_node_long (the same),
 * twin {b; a} (same name and size: pahole prints both), only_in_b_struct. */
static void unit_init(struct unit *u, bool b)
{
	memset(u, 0, sizeof(*u));
	u->shared_m[0] = (struct member){ .name = N_X, .type = &t_int };
	u->shared = (struct type){ .kind = TK_STRUCT, .name = N_SHARED, .size = 4, .scope = TS_UNIT,
				   .composite = { .members = u->shared_m, .nr_members = 1 } };
	u->twin_m[0] = (struct member){ .name = b ? N_B : N_A, .type = &t_int };
	u->twin_m[1] = (struct member){ .name = b ? N_A : N_B, .type = &t_int, .bit_offset = 32 };
	u->twin = (struct type){ .kind = TK_STRUCT, .name = "twin", .size = 8, .scope = TS_UNIT,
				 .composite = { .members = u->twin_m, .nr_members = 2 } };
	u->only_m[0] = (struct member){ .name = N_X, .type = &t_int };
	u->only = (struct type){ .kind = TK_STRUCT, .name = N_ONLY, .size = 4, .scope = TS_UNIT,
				 .composite = { .members = u->only_m, .nr_members = 1 } };
	u->nested_m[0] = (struct member){ .name = N_X, .type = &t_int };
	u->nested = (struct type){ .kind = TK_STRUCT, .name = "nested", .size = 4,
				   .scope = TS_COMPOSITE,
				   .composite = { .members = u->nested_m, .nr_members = 1 } };
	u->decl = (struct type){ .kind = TK_STRUCT, .name = "decl_only", .scope = TS_UNIT,
				 .declaration = true };
	u->types[0] = &t_int;
	u->types[1] = &u->shared;
	u->types[2] = &u->nested;
	u->types[3] = &u->twin;
	u->types[4] = b ? &u->only : &u->decl;
	u->types[5] = &t_int;
	for (int i = 0; i < 6; i++)
		if (u->types[i] != &t_int)
			u->types[i]->id = (uint32_t)i;
	u->cu = (struct cu_model){ .addr_size = 8, .types = u->types, .nr_types = 6,
				   .name = b ? "dir_b/b.c" : "dir_a/a.c" };
	arena_init(&u->cu.arena);
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* The listing of units A then B with options O, their keys prepared
 * first or not, and what it prints at the end. */
static char *listing_with(bool prepare, struct pahole_select_opts o)
{
	const char *class_names = o.class_names;
	struct d2b_error err = { 0 };
	struct pahole_select *ps = pahole_select_create(&o, &err);
	struct strbuf out = STRBUF_INIT;
	struct unit u[2];
	char *text;

	CHECK(ps, "pahole_select_create: %s", err.msg);
	if (!ps)
		return strdup("");
	for (int i = 0; i < 2; i++) {
		unit_init(&u[i], i == 1);
		if (prepare) {
			CHECK(pahole_select_prepare(ps, &u[i].cu, &err) == 0, "prepare: %s", err.msg);
			/* -C, -T and -a look at each struct in full */
			CHECK(class_names || o.stats || o.filter.anon ? !u[i].cu.prepared :
			      u[i].cu.prepared != NULL,
			      "prepare with -C '%s': prepared %p", class_names ? class_names : "",
			      u[i].cu.prepared);
		}
		CHECK(pahole_select_cu(ps, &u[i].cu, &out, &err) == 0, "select: %s", err.msg);
	}
	CHECK(pahole_select_finish(ps, &out, &err) == 0, "finish: %s", err.msg);
	text = strdup(strbuf_str(&out));
	for (int i = 0; i < 2; i++)
		arena_deinit(&u[i].cu.arena);
	strbuf_free(&out);
	pahole_select_destroy(ps);
	return text;
}

static char *listing(bool prepare, const char *class_names)
{
	struct pahole_select_opts o = { .mode = PAHOLE_LAYOUT, .separator = '\t',
					.class_names = class_names,
					.names_lo = names, .names_hi = names + sizeof(names) };

	return listing_with(prepare, o);
}

/* The filters and the one-line formatters, each with and without the
 * prepared keys (the same text both ways) */
static void check_options(void)
{
	static const struct {
		struct pahole_select_opts o;
		const char *want;
	} cases[] = {
		{ { .mode = PAHOLE_NR_MEMBERS, .separator = '\t' },
		  "shared_node_long\t1\ntwin\t2\ntwin\t2\nonly_in_b_struct\t1\n" },
		{ { .mode = PAHOLE_NAME_LEN, .separator = ',' },
		  "shared_node_long,16\ntwin,4\ntwin,4\nonly_in_b_struct,16\n" },
		{ { .mode = PAHOLE_SIZES, .separator = '\t', .filter = { .exclude = "tw" } },
		  "shared_node_long\t4\t0\nonly_in_b_struct\t4\t0\n" },
		{ { .mode = PAHOLE_NAMES, .separator = '\t', .filter = { .include = "tw" } },
		  "twin\ntwin\n" },
		{ { .mode = PAHOLE_NAMES, .separator = '\t', .filter = { .unions_only = true } },
		  "" },
		{ { .mode = PAHOLE_NAMES, .separator = '\t', .filter = { .cu_exclude = "dir_a" } },
		  "shared_node_long\ntwin\nonly_in_b_struct\n" },
		/* -T: one line per identity, the units that define it */
		{ { .mode = PAHOLE_NOTHING, .stats = PAHOLE_STATS_NR_DEFINITIONS, .separator = '\t' },
		  "shared_node_long\t2\ntwin\t1\ntwin\t1\nonly_in_b_struct\t1\n" },
		/* -u: the unit of each name, one name a unit */
		{ { .names_mode = PAHOLE_NAMES_DEFINED_IN, .class_names = "twin,only_in_b_struct" },
		  "dir_a/a.c\ndir_b/b.c\n" },
		{ { .names_mode = PAHOLE_NAMES_DEFINED_IN, .class_names = "shared_node_long,twin" },
		  "dir_a/a.c\ndir_b/b.c\n" },
		{ { .mode = PAHOLE_NAMES, .stats = PAHOLE_STATS_NR_DEFINITIONS, .separator = ':' },
		  "shared_node_long\ntwin\ntwin\nonly_in_b_struct\n"
		  "shared_node_long:2\ntwin:1\ntwin:1\nonly_in_b_struct:1\n" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (int prepare = 0; prepare < 2; prepare++) {
			struct pahole_select_opts o = cases[i].o;
			char *text;

			o.names_lo = names;
			o.names_hi = names + sizeof(names);
			text = listing_with(prepare, o);
			CHECK(!strcmp(text, cases[i].want), "case %zu (prepared %d):\n%s--- want\n%s",
			      i, prepare, text, cases[i].want);
			free(text);
		}
}

/* --sort: each identity once (shared_node_long is in both units), by
 * name, then by members (twin {a; b} before twin {b; a}) */
static void check_sort(void)
{
	struct pahole_select_opts o = { .mode = PAHOLE_LAYOUT, .separator = '\t', .sort = true,
					.names_lo = names, .names_hi = names + sizeof(names) };
	char *text = listing_with(false, o);
	const char *only = strstr(text, "struct only_in_b_struct {");
	const char *shared = strstr(text, "struct shared_node_long {");
	const char *twin_a = strstr(text, "struct twin {\n\tint                        a;");
	const char *twin_b = strstr(text, "struct twin {\n\tint                        b;");

	CHECK(count(text, "struct shared_node_long {") == 1 && count(text, "struct twin {") == 2,
	      "--sort keeps:\n%s", text);
	CHECK(only && shared && twin_a && twin_b && only < shared && shared < twin_a &&
	      twin_a < twin_b, "--sort order:\n%s", text);
	free(text);
}

int main(void)
{
	char *plain = listing(false, NULL), *prep = listing(true, NULL);
	char *c_plain = listing(false, "twin,only_in_b_struct");
	char *c_prep = listing(true, "twin,only_in_b_struct");

	CHECK(!strcmp(plain, prep), "prepared keys change the listing:\n--- plain\n%s\n--- prepared\n%s",
	      plain, prep);
	CHECK(count(plain, "struct shared_node_long {") == 1, "shared_node_long listed %zu times",
	      count(plain, "struct shared_node_long {"));
	CHECK(count(plain, "struct twin {") == 2, "twin listed %zu times (its members differ)",
	      count(plain, "struct twin {"));
	CHECK(count(plain, "struct only_in_b_struct {") == 1, "only_in_b_struct listed %zu times",
	      count(plain, "struct only_in_b_struct {"));
	CHECK(!strstr(plain, "nested") && !strstr(plain, "decl_only"),
	      "a nested struct or a declaration listed:\n%s", plain);
	/* in unit order, each unit's in DIE order */
	CHECK(strstr(plain, "struct shared_node_long {") < strstr(plain, "struct twin {") &&
	      strstr(plain, "struct twin {") < strstr(plain, "struct only_in_b_struct {"),
	      "listing order:\n%s", plain);
	CHECK(!strcmp(c_plain, c_prep), "-C with the hook differs");
	CHECK(count(c_plain, "struct twin {") == 1 && count(c_plain, "struct only_in_b_struct {") == 1,
	      "-C twin,only_in_b_struct:\n%s", c_plain);
	free(plain);
	free(prep);
	free(c_plain);
	free(c_prep);
	check_options();
	check_sort();
	return check_done();
}
