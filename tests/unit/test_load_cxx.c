// SPDX-License-Identifier: GPL-2.0-only
/*
 * load/ unit test for C++: compile a small C++ file with g++ and clang++ at
 * DWARF 4/5, with and without type units (-fdebug-types-section), load
 * every unit, and check what the model records for classes: bases
 * (DW_TAG_inheritance), methods in DIE order with their virtuality and
 * vtable slot, static members, accessibility, and members whose types live
 * in type units (DW_FORM_ref_sig8), which must resolve to the real type.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fixture_load.h"
#include "dwarf/dw_const.h"
#include "dwarf/dwarf.h"
#include "elf/elf_file.h"
#include "load/load.h"

static const char source[] =
	"struct Pt { int x, y; };\n"
	"class Base {\n"
	"public:\n"
	"	virtual ~Base() {}\n"
	"	virtual int get() const { return x_; }\n"
	"	virtual int pure() const = 0;\n"
	"	static int count;\n"
	"	static const int limit = 42;\n"
	"protected:\n"
	"	int x_ = 0;\n"
	"};\n"
	"int Base::count;\n"
	"struct Other { long o; };\n"
	"class Derived : public Base, protected Other {\n"
	"public:\n"
	"	int get() const override { return 1; }\n"
	"	int pure() const override { return 2; }\n"
	"	Pt where;\n"
	"	Pt *wp;\n"
	"};\n"
	"struct Holder { Pt a; Derived d; Pt *p; };\n"
	"Holder g_holder;\n"
	"int main() { Derived d; Base *b = &d; return b->get() + b->pure() + Base::count + g_holder.a.x; }\n";

static const struct type *find_type(const struct cu_model *cu, const char *name)
{
	for (uint32_t i = 0; i < cu->nr_types; i++) {
		const struct type *t = cu->types[i];

		if ((t->kind == TK_STRUCT || t->kind == TK_CLASS) && t->name &&
		    !strcmp(t->name, name) && !t->declaration && t->composite.nr_members)
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

static const struct function *find_method(const struct cu_model *cu, const struct type *t,
					  const char *name)
{
	for (uint32_t k = 0; t && t->composite.cxx && k < t->composite.cxx->nr_methods; k++) {
		uint32_t idx = t->composite.cxx->methods[k];

		if (idx < cu->nr_functions && cu->functions[idx].name &&
		    !strcmp(cu->functions[idx].name, name))
			return &cu->functions[idx];
	}
	return NULL;
}

/* The unit that defines the classes (not a type unit): checks on it. */
static void check_classes(const char *what, const struct cu_model *cu, bool clang)
{
	const struct type *base = find_type(cu, "Base"), *der = find_type(cu, "Derived");
	const struct type *holder = find_type(cu, "Holder");
	const struct function *f;
	const struct member *m;

	/* Base: methods in DIE order, virtuality, vtable slots */
	CHECK(base && base->composite.cxx && base->composite.cxx->nr_bases == 0,
	      "%s: Base has no bases, some methods", what);
	f = find_method(cu, base, "get");
	CHECK(f && f->virtuality == DW_VIRTUALITY_virtual && f->has_vtable_entry &&
	      f->vtable_entry == 2 && f->accessibility == DW_ACCESS_public,
	      "%s: Base::get virtual, vtable slot 2 (got %u)", what, f ? f->vtable_entry : 99);
	/* gcc marks a pure virtual method DW_VIRTUALITY_virtual */
	f = find_method(cu, base, "pure");
	CHECK(f && f->virtuality == (clang ? DW_VIRTUALITY_pure_virtual : DW_VIRTUALITY_virtual) &&
	      f->has_vtable_entry && f->vtable_entry == 3,
	      "%s: Base::pure is (pure) virtual in slot 3", what);
	m = find_member(base, "count");
	CHECK(m && m->is_static && m->const_value == 0, "%s: Base::count static", what);
	m = find_member(base, "limit");
	CHECK(m && m->is_static && m->const_value == 42, "%s: Base::limit static, value 42 (got %llu)",
	      what, m ? (unsigned long long)m->const_value : 0ULL);
	m = find_member(base, "x_");
	CHECK(m && !m->is_static && m->accessibility == DW_ACCESS_protected && m->bit_offset == 64,
	      "%s: Base::x_ protected at byte 8", what);

	/* Derived: two bases, in order, with their offsets and accessibility */
	CHECK(der && der->size == 40 && der->composite.cxx && der->composite.cxx->nr_bases == 2,
	      "%s: Derived has two bases", what);
	if (der && der->composite.cxx && der->composite.cxx->nr_bases == 2) {
		const struct member *b0 = &der->composite.cxx->bases[0];
		const struct member *b1 = &der->composite.cxx->bases[1];

		CHECK(b0->is_inheritance && b0->type && b0->type->name &&
		      !strcmp(b0->type->name, "Base") && b0->bit_offset == 0 &&
		      b0->accessibility == DW_ACCESS_public, "%s: first base is public Base at 0", what);
		CHECK(b1->is_inheritance && b1->type && b1->type->name &&
		      !strcmp(b1->type->name, "Other") && b1->bit_offset == 16 * 8 &&
		      b1->accessibility == DW_ACCESS_protected,
		      "%s: second base is protected Other at 16 (got %llu)", what,
		      (unsigned long long)b1->bit_offset / 8);
		CHECK(b0->die_offset < b1->die_offset, "%s: bases in DIE order", what);
	}
	/* bases are not data members: code walking members[] never sees them */
	CHECK(der && der->composite.nr_members == 2 && find_member(der, "where"),
	      "%s: Derived has 2 data members", what);
	m = find_member(der, "where");
	CHECK(m && m->type && m->type->kind == TK_STRUCT && m->type->size == 8 &&
	      m->type->name && !strcmp(m->type->name, "Pt") && m->bit_offset == 24 * 8,
	      "%s: Derived::where is a Pt at 24 (kind %d)", what, m && m->type ? m->type->kind : -1);

	/* Holder: its members' types may live in type units */
	m = find_member(holder, "a");
	CHECK(m && m->type && m->type->kind == TK_STRUCT && m->type->size == 8 &&
	      m->type->composite.nr_members == 2, "%s: Holder::a is the full Pt (kind %d)", what,
	      m && m->type ? m->type->kind : -1);
	m = find_member(holder, "d");
	CHECK(m && m->type && m->type->size == 40 && m->bit_offset == 64,
	      "%s: Holder::d is a Derived at 8", what);
	m = find_member(holder, "p");
	CHECK(m && m->type && m->type->kind == TK_POINTER && m->type->type &&
	      m->type->type->kind == TK_STRUCT && m->type->type->size == 8,
	      "%s: Holder::p points to the full Pt", what);
}

int main(void)
{
	static const char *const compilers[] = { "g++", "clang++" };
	static const char *const dwarfs[] = { "-gdwarf-4", "-gdwarf-5" };
	static const char *const tus[] = { "", "-fdebug-types-section" };
	char dir[] = "/tmp/d2b-test-load-cxx.XXXXXX";
	char src[128], bin[200], cmd[600];
	FILE *f;
	int built = 0;

	if (!mkdtemp(dir))
		return 1;
	snprintf(src, sizeof(src), "%s/load_fixture.cc", dir);
	f = fopen(src, "w");
	if (!f || fputs(source, f) < 0 || fclose(f))
		return 1;
	for (int c = 0; c < 2; c++)
		for (int d = 0; d < 2; d++)
			for (int t = 0; t < 2; t++) {
				char what[128];

				snprintf(bin, sizeof(bin), "%s/fx-%s%s%d", dir, compilers[c], dwarfs[d], t);
				snprintf(cmd, sizeof(cmd), "%s -O0 %s %s -g -o %s %s 2>/dev/null",
					 compilers[c], dwarfs[d], tus[t], bin, src);
				snprintf(what, sizeof(what), "%s %s %s", compilers[c], dwarfs[d], tus[t]);
				built += fixture_load_check(cmd, bin, what, "load_fixture.cc",
							    check_classes, c == 1);
			}
	unlink(src);
	rmdir(dir);
	CHECK(built >= 4, "only %d of 8 builds worked", built);
	if (failures)
		fprintf(stderr, "%d failures\n", failures);
	else
		printf("test_load_cxx: all checks passed on %d builds\n", built);
	return failures ? 1 : 0;
}
