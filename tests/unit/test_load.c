// SPDX-License-Identifier: GPL-2.0-only
/*
 * load/ unit test: compile a small C file with gcc and clang at -O0/-O2 and
 * DWARF 4/5, load every CU, and check the model against what the source
 * says (sizes, bit offsets, enum values, array dimensions, parameters).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fixture_load.h"
#include "dwarf/dwarf.h"
#include "elf/elf_file.h"
#include "load/load.h"

static const char source[] =
	"struct inner { int a; };\n"
	"struct bits { unsigned a:3; unsigned b:5; int c:20; unsigned long long d:40; char e; };\n"
	"struct outer { char c; struct inner in; long l; struct outer *next; int arr[3][4]; char flex[]; };\n"
	"union u { int i; double d; };\n"
	"enum color { RED = -2, GREEN = 7, BIG = 0x7fffffff };\n"
	"enum wide { W = 0x1234567890LL };\n"
	"typedef const volatile struct inner cv_inner;\n"
	"struct zl { int n; int z[0]; };\n"
	"struct withanon { int a; union { int b; char c; }; struct { short s; } named; };\n"
	"struct withanon gwa;\n"
	"struct bits gb; struct outer go; union u gu; enum color gc; enum wide gw; cv_inner gcv; struct zl gz;\n"
	"int (*fptr)(int, char *);\n"
	"__attribute__((noinline)) int add3(int x, long y, const char *z) { return x + (int)y + z[0]; }\n"
	"int vsum(int n, ...) { return n; }\n"
	"int main(void) { struct local { int q; } lv = { 0 }; return add3(1, 2, \"\") + vsum(1) - 2 + gb.a + go.c + lv.q; }\n";

static const struct type *find_type(const struct cu_model *cu, int kind, const char *name)
{
	for (uint32_t i = 0; i < cu->nr_types; i++) {
		const struct type *t = cu->types[i];
		if (t->kind == kind && t->name && !strcmp(t->name, name) && !t->declaration)
			return t;
	}
	return NULL;
}

static const struct member *find_member(const struct type *t, const char *name)
{
	for (uint32_t i = 0; t && i < t->composite.nr_members; i++)
		if (t->composite.members[i].name && !strcmp(t->composite.members[i].name, name))
			return &t->composite.members[i];
	return NULL;
}

static const struct function *find_func(const struct cu_model *cu, const char *name)
{
	for (uint32_t i = 0; i < cu->nr_functions; i++) {
		const struct function *f = &cu->functions[i];
		if (f->name && !strcmp(f->name, name) && f->has_addr)
			return f;
	}
	return NULL;
}

static void check_model(const char *what, const struct cu_model *cu, bool nests)
{
	const struct type *t, *e;
	const struct member *m;
	const struct function *f;

	t = find_type(cu, TK_STRUCT, "bits");
	CHECK(t && t->size == 16, "%s: struct bits size %llu", what, t ? (unsigned long long)t->size : 0ULL);
	m = find_member(t, "a");
	CHECK(m && m->bit_offset == 0 && m->bit_size == 3, "%s: bits.a", what);
	m = find_member(t, "b");
	CHECK(m && m->bit_offset == 3 && m->bit_size == 5, "%s: bits.b off %llu", what,
	      m ? (unsigned long long)m->bit_offset : 0ULL);
	m = find_member(t, "c");
	CHECK(m && m->bit_offset == 8 && m->bit_size == 20, "%s: bits.c off %llu", what,
	      m ? (unsigned long long)m->bit_offset : 0ULL);
	m = find_member(t, "d");
	CHECK(m && m->bit_offset == 64 && m->bit_size == 40, "%s: bits.d off %llu", what,
	      m ? (unsigned long long)m->bit_offset : 0ULL);
	m = find_member(t, "e");
	CHECK(m && m->bit_offset == 13 * 8 && m->bit_size == 0, "%s: bits.e off %llu", what,
	      m ? (unsigned long long)m->bit_offset : 0ULL);

	t = find_type(cu, TK_STRUCT, "outer");
	CHECK(t && t->size == 72 && t->composite.nr_members == 6, "%s: struct outer size %llu", what,
	      t ? (unsigned long long)t->size : 0ULL);
	m = find_member(t, "in");
	CHECK(m && m->bit_offset == 32 && m->type && m->type->kind == TK_STRUCT &&
	      m->type->name && !strcmp(m->type->name, "inner"), "%s: outer.in", what);
	m = find_member(t, "next");
	CHECK(m && m->type && m->type->kind == TK_POINTER && m->type->type == t,
	      "%s: outer.next points to outer", what);
	m = find_member(t, "arr");
	CHECK(m && m->type && m->type->kind == TK_ARRAY && m->type->array.nr_dims == 2 &&
	      m->type->array.dims[0].count == 3 && m->type->array.dims[1].count == 4,
	      "%s: outer.arr[3][4]", what);
	m = find_member(t, "flex");
	CHECK(m && m->type && m->type->kind == TK_ARRAY && m->type->array.nr_dims == 1 &&
	      m->type->array.dims[0].flexible, "%s: outer.flex[]", what);
	t = find_type(cu, TK_STRUCT, "zl");
	m = find_member(t, "z");
	CHECK(m && m->type && m->type->kind == TK_ARRAY && m->type->array.nr_dims == 1 &&
	      m->type->array.dims[0].count == 0, "%s: zl.z[0]", what);

	/* clang nests the anonymous member types in the struct's DIE; gcc puts
	 * them at unit level. */
	t = find_type(cu, TK_STRUCT, "withanon");
	CHECK(t && t->scope == TS_UNIT && t->composite.nr_members == 3 &&
	      t->composite.members[1].type && t->composite.members[1].type->kind == TK_UNION &&
	      !t->composite.members[1].type->name, "%s: struct withanon", what);
	if (t && nests) {
		CHECK(t->composite.nr_nested == 2 && t->composite.nested[0]->kind == TK_UNION &&
		      t->composite.nested[0]->scope == TS_COMPOSITE &&
		      t->composite.nested[1]->kind == TK_STRUCT &&
		      t->composite.members[1].type == t->composite.nested[0],
		      "%s: struct withanon nested types (%u)", what, t->composite.nr_nested);
	} else if (t) {
		CHECK(t->composite.nr_nested == 0 && t->composite.members[1].type->scope == TS_UNIT,
		      "%s: struct withanon unit-level anonymous types", what);
	}
	t = find_type(cu, TK_STRUCT, "local");
	CHECK(t && t->scope == TS_FUNCTION, "%s: struct local scope %d", what, t ? t->scope : -1);

	t = find_type(cu, TK_UNION, "u");
	CHECK(t && t->size == 8 && t->composite.nr_members == 2, "%s: union u", what);

	e = find_type(cu, TK_ENUM, "color");
	CHECK(e && e->size == 4 && e->enumeration.nr_values == 3 &&
	      e->enumeration.values[0].value == -2 && e->enumeration.values[1].value == 7 &&
	      e->enumeration.values[2].value == 0x7fffffff && e->enumeration.is_signed,
	      "%s: enum color", what);
	e = find_type(cu, TK_ENUM, "wide");
	CHECK(e && e->size == 8 && e->enumeration.nr_values == 1 &&
	      e->enumeration.values[0].value == 0x1234567890LL, "%s: enum wide", what);

	t = find_type(cu, TK_TYPEDEF, "cv_inner");
	CHECK(t && t->type && (t->type->kind == TK_CONST || t->type->kind == TK_VOLATILE) &&
	      t->type->type && (t->type->type->kind == TK_CONST || t->type->type->kind == TK_VOLATILE) &&
	      t->type->type->type && t->type->type->type->kind == TK_STRUCT, "%s: cv_inner", what);

	f = find_func(cu, "add3");
	CHECK(f && f->nr_params == 3 && f->external && f->ret && f->ret->kind == TK_BASE &&
	      !strcmp(f->ret->name, "int"), "%s: add3", what);
	if (f && f->nr_params == 3) {
		CHECK(f->params[0].name && !strcmp(f->params[0].name, "x") && f->params[0].type &&
		      !strcmp(f->params[0].type->name, "int"), "%s: add3 x", what);
		CHECK(f->params[1].name && !strcmp(f->params[1].name, "y"), "%s: add3 y", what);
		CHECK(f->params[2].type && f->params[2].type->kind == TK_POINTER &&
		      f->params[2].type->type && f->params[2].type->type->kind == TK_CONST,
		      "%s: add3 z type", what);
		CHECK(f->high_pc > f->low_pc, "%s: add3 pc range", what);
	}
	f = find_func(cu, "vsum");
	CHECK(f && f->varargs && f->nr_params == 1, "%s: vsum varargs", what);

	{
		bool found = false;
		for (uint32_t i = 0; i < cu->nr_variables; i++) {
			const struct variable *v = &cu->variables[i];
			if (v->name && !strcmp(v->name, "go")) {
				found = true;
				CHECK(v->has_addr && v->addr != 0 && v->type && v->type->kind == TK_STRUCT,
				      "%s: variable go", what);
			}
		}
		CHECK(found, "%s: variable go missing", what);
	}
	t = find_type(cu, TK_STRUCT, "bits");
	CHECK(t && strstr(cu_model_file_name(cu, t->decl_file), "/load_fixture.c") &&
	      t->decl_line == 2, "%s: struct bits declared at '%s':%u", what,
	      t ? cu_model_file_name(cu, t->decl_file) : "", t ? t->decl_line : 0);
}

int main(void)
{
	static const char *const compilers[] = { "gcc", "clang" };
	static const char *const opts[] = { "-O0", "-O2" };
	static const char *const dwarfs[] = { "-gdwarf-4", "-gdwarf-5" };
	char dir[] = "/tmp/d2b-test-load.XXXXXX";
	char src[128], bin[160], cmd[512];
	FILE *f;
	int built = 0;

	if (!mkdtemp(dir))
		return 1;
	snprintf(src, sizeof(src), "%s/load_fixture.c", dir);
	f = fopen(src, "w");
	if (!f || fputs(source, f) < 0 || fclose(f))
		return 1;
	for (int c = 0; c < 2; c++)
		for (int o = 0; o < 2; o++)
			for (int d = 0; d < 2; d++) {
				char what[96];

				snprintf(bin, sizeof(bin), "%s/fx-%s%s%s", dir, compilers[c], opts[o], dwarfs[d]);
				snprintf(cmd, sizeof(cmd), "%s %s %s -g -o %s %s 2>/dev/null",
					 compilers[c], opts[o], dwarfs[d], bin, src);
				snprintf(what, sizeof(what), "%s %s %s", compilers[c], opts[o], dwarfs[d]);
				built += fixture_load_check(cmd, bin, what, "load_fixture.c", check_model,
							    c == 1);
			}
	unlink(src);
	rmdir(dir);
	CHECK(built >= 4, "only %d of 8 builds worked", built);
	if (failures)
		fprintf(stderr, "%d failures\n", failures);
	else
		printf("test_load: all checks passed on %d builds\n", built);
	return failures ? 1 : 0;
}
