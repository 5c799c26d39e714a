// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of print/pfunct_print.c on hand-built cu_models that mirror a
 * two-unit program pfunct 1.24 was run on (gcc 12 -O2):
 *
 *   a.c: printf (declaration), main, const_ret, takes_array, ext_fn
 *        (abstract, external), inl (declared inline), helper (static,
 *        abstract), ext_fn (concrete out-of-line instance, no name of its own)
 *   b.c: kr (unprototyped), noparms, other, helper (another static one),
 *        stat_fn (abstract) and its concrete instance with parameters in the
 *        other order and carrying only their origin
 *
 * The expected texts are pfunct 1.24's output on that program.
 */
#include "check.h"
#include "print/pfunct_print.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf/dw_const.h"
#include "print/c_type.h"

#define CHECK_STR(got, want)                                                   \
	CHECK(!strcmp((got), (want)), "\n--- got ---\n%s\n--- want ---\n%s",  \
	      (got), (want))

/* ---- Building models ---- */

static struct type *new_type(struct cu_model *cu, uint8_t kind,
			     const char *name, struct type *target)
{
	struct type *t = arena_zalloc(&cu->arena, sizeof(*t));

	t->kind = kind;
	t->name = name;
	t->type = target;
	t->cu_lang = DW_LANG_C11;
	return t;
}

static struct cu_model *new_cu(const char *name, uint32_t nr_functions)
{
	struct cu_model *cu = calloc(1, sizeof(*cu));
	arena_init(&cu->arena);
	cu->files = arena_zalloc(&cu->arena, 3 * sizeof(*cu->files));
	cu->files[1] = "/src/a.c";
	cu->files[2] = "/src/b.c";
	cu->name = name;
	cu->language = DW_LANG_C11;
	cu->addr_size = 8;
	cu->functions = arena_zalloc(&cu->arena,
				     nr_functions * sizeof(*cu->functions));
	cu->nr_files = 3;
	return cu;
}

static struct function *add_fn(struct cu_model *cu, uint64_t off,
			       const char *name, struct type *ret)
{
	struct function *f = &cu->functions[cu->nr_functions++];

	f->name = name;
	f->own_name = name != NULL;
	f->ret = ret;
	f->die_offset = off;
	f->prototyped = true;
	return f;
}

static void set_params(struct cu_model *cu, struct function *f, uint32_t n,
		       const char *const *names, struct type *const *types)
{
	f->params = arena_zalloc(&cu->arena, n * sizeof(*f->params));
	f->nr_params = n;
	for (uint32_t i = 0; i < n; i++) {
		f->params[i].name = names[i];
		f->params[i].type = types[i];
	}
}

static void set_addr(struct function *f, uint64_t lo, uint64_t size)
{
	f->has_addr = true;
	f->low_pc = lo;
	f->high_pc = lo + size;
}

struct models {
	struct cu_model *a, *b;
};

static struct models build(void)
{
	struct models m;
	struct cu_model *a = new_cu("a.c", 16), *b = new_cu("b.c", 16);
	struct function *f;

	/* a.c types */
	struct type *a_int = new_type(a, TK_BASE, "int", NULL);
	struct type *a_char = new_type(a, TK_BASE, "char", NULL);
	struct type *a_cchar = new_type(a, TK_CONST, NULL, a_char);
	struct type *a_pcchar = new_type(a, TK_POINTER, NULL, a_cchar);
	struct type *a_pchar = new_type(a, TK_POINTER, NULL, a_char);
	struct type *a_ppchar = new_type(a, TK_POINTER, NULL, a_pchar);
	struct type *a_foo = new_type(a, TK_STRUCT, "foo", NULL);
	struct type *a_pfoo = new_type(a, TK_POINTER, NULL, a_foo);
	struct type *a_pint = new_type(a, TK_POINTER, NULL, a_int);
	struct type *a_ull = new_type(a, TK_BASE, "long long unsigned int", NULL);
	struct type *a_bool = new_type(a, TK_BASE, "_Bool", NULL);
	struct type *a_proto = new_type(a, TK_FUNC_PROTO, NULL, a_int);
	struct type *a_cb = new_type(a, TK_TYPEDEF, "cb_t", NULL);
	struct type *a_vproto = new_type(a, TK_FUNC_PROTO, NULL, NULL);
	struct type *a_pvproto = new_type(a, TK_POINTER, NULL, a_vproto);
	struct type *a_void_p = new_type(a, TK_POINTER, NULL, NULL);

	a_proto->proto.nr_params = 2;
	a_proto->proto.params = arena_zalloc(&a->arena, 2 * sizeof(struct param));
	a_proto->proto.params[0].type = a_int;
	a_proto->proto.params[1].type = a_void_p;
	a_cb->type = new_type(a, TK_POINTER, NULL, a_proto);
	a_vproto->proto.nr_params = 2;
	a_vproto->proto.params = arena_zalloc(&a->arena, 2 * sizeof(struct param));
	a_vproto->proto.params[0].type = a_int;
	a_vproto->proto.params[1].type = a_char;

	f = add_fn(a, 0xc8, "printf", a_int);
	f->external = f->declaration = true;
	f->varargs = true;
	set_params(a, f, 1, (const char *[]){ NULL },
		   (struct type *[]){ a_pcchar });

	f = add_fn(a, 0xe5, "main", a_int);
	f->external = true;
	f->decl_file = 1;
	f->decl_line = 10;
	set_addr(f, 0x1050, 34);
	set_params(a, f, 2, (const char *[]){ "argc", "argv" },
		   (struct type *[]){ a_int, a_ppchar });

	f = add_fn(a, 0x1ee, "const_ret", a_pcchar);
	f->external = true;
	set_addr(f, 0x11a0, 32);
	set_params(a, f, 2, (const char *[]){ "u", "b" },
		   (struct type *[]){ a_ull, a_bool });

	f = add_fn(a, 0x22b, "takes_array", NULL);
	f->external = true;
	set_addr(f, 0x1180, 29);
	set_params(a, f, 3, (const char *[]){ "arr", "cb", "fp" },
		   (struct type *[]){ a_pint, a_cb, a_pvproto });

	f = add_fn(a, 0x2c8, "ext_fn", a_int);
	f->external = true;
	f->is_abstract = true;
	f->inline_attr = DW_INL_inlined;
	f->varargs = true;
	set_params(a, f, 2, (const char *[]){ "f", "s" },
		   (struct type *[]){ a_pfoo, a_pcchar });

	f = add_fn(a, 0x2f2, "inl", a_int);
	f->is_abstract = true;
	f->inline_attr = DW_INL_declared_inlined;
	set_params(a, f, 1, (const char *[]){ "x" }, (struct type *[]){ a_int });

	f = add_fn(a, 0x30d, "helper", a_int);
	f->is_abstract = true;
	f->inline_attr = DW_INL_inlined;
	set_params(a, f, 2, (const char *[]){ "f", "x" },
		   (struct type *[]){ a_pfoo, a_int });

	/* The concrete ext_fn: only an origin (the fallbacks are tested). */
	f = add_fn(a, 0x331, NULL, NULL);
	f->origin_offset = 0x2c8;
	f->varargs = true;
	set_addr(f, 0x1170, 9);
	set_params(a, f, 2, (const char *[]){ NULL, NULL },
		   (struct type *[]){ NULL, NULL });
	f->params[0].origin = &a->functions[4].params[0];
	f->params[1].origin = &a->functions[4].params[1];

	/* b.c */
	struct type *b_int = new_type(b, TK_BASE, "int", NULL);
	struct type *b_bar = new_type(b, TK_STRUCT, "bar", NULL);
	struct type *b_pbar = new_type(b, TK_POINTER, NULL, b_bar);

	f = add_fn(b, 0x3e0, "kr", NULL);
	f->external = true;
	f->prototyped = false;
	set_addr(f, 0x11e0, 1);

	f = add_fn(b, 0x3f9, "noparms", NULL);
	f->external = true;
	set_addr(f, 0x11d0, 1);

	f = add_fn(b, 0x413, "other", b_int);
	f->external = true;
	set_addr(f, 0x11c0, 5);
	set_params(b, f, 1, (const char *[]){ "y" }, (struct type *[]){ b_int });

	f = add_fn(b, 0x478, "helper", b_int);
	f->is_abstract = true;
	f->inline_attr = DW_INL_inlined;
	set_params(b, f, 1, (const char *[]){ "x" }, (struct type *[]){ b_int });

	f = add_fn(b, 0x4fb, "stat_fn", b_int);
	f->is_abstract = true;
	f->inline_attr = DW_INL_inlined;
	f->decl_file = 2;
	f->decl_line = 2;
	set_params(b, f, 2, (const char *[]){ "b", "n" },
		   (struct type *[]){ b_pbar, b_int });

	f = add_fn(b, 0x51d, NULL, NULL);
	f->origin_offset = 0x4fb;
	set_addr(f, 0x1150, 4);
	set_params(b, f, 2, (const char *[]){ NULL, NULL },
		   (struct type *[]){ NULL, NULL });
	f->params[0].origin = &b->functions[4].params[1];
	f->params[1].origin = &b->functions[4].params[0];

	/* As the loader leaves them: these DIEs' own attributes are the ones
	 * set above (concrete instances carry none of their own). */
	for (struct cu_model *cu = a; cu; cu = cu == a ? b : NULL)
		for (uint32_t i = 0; i < cu->nr_functions; i++) {
			cu->functions[i].own_external = cu->functions[i].external;
			cu->functions[i].own_inline_attr = cu->functions[i].inline_attr;
		}
	m.a = a;
	m.b = b;
	return m;
}

/* ---- Running the printer ---- */

static char *run(const struct models *m, const struct pfunct_options *o)
{
	struct d2b_error err = { 0 };
	struct strbuf out = STRBUF_INIT;
	struct pfunct_printer *p = pfunct_printer_create(o, &err);
	char *s;

	CHECK(p != NULL, "create: %s", err.msg);
	if (!p)
		return strdup("");
	CHECK(!pfunct_printer_add_cu(p, m->a, &out, &err), "%s", err.msg);
	if (m->b && !pfunct_printer_done(p))
		CHECK(!pfunct_printer_add_cu(p, m->b, &out, &err), "%s", err.msg);
	CHECK(!pfunct_printer_finish(p, &out, &err), "%s", err.msg);
	pfunct_printer_destroy(p);
	s = strdup(strbuf_str(&out));
	strbuf_free(&out);
	return s;
}

/* CALL returns a malloc'ed text, which must equal WANT */
#define CHECK_RUN(call, want)                                                  \
	do {                                                                   \
		char *got_ = (call);                                           \
		CHECK_STR(got_, want);                                         \
		free(got_);                                                    \
	} while (0)
#define EXPECT(opts, want) CHECK_RUN(run(&m, &(opts)), want)

/* ---- The fast prototype path against c_type_ftype ---- */

/* pfunct_format_prototype() spells plain types itself (and the printer
 * caches them per unit): it must equal c_type_ftype() on every shape. */
static void check_fast_path(void)
{
	struct cu_model *cu = new_cu("fast.c", 8);
	struct type *t_int = new_type(cu, TK_BASE, "int", NULL);
	struct type *t_char = new_type(cu, TK_BASE, "char", NULL);
	struct type *t_cchar = new_type(cu, TK_CONST, NULL, t_char);
	struct type *t_pchar = new_type(cu, TK_POINTER, NULL, t_char);
	struct type *t_cpchar = new_type(cu, TK_CONST, NULL, t_pchar);
	struct type *t_pcpchar = new_type(cu, TK_POINTER, NULL, t_cpchar);
	struct type *t_vol = new_type(cu, TK_VOLATILE, NULL, t_int);
	struct type *t_restrict = new_type(cu, TK_RESTRICT, NULL, t_pchar);
	struct type *t_arr = new_type(cu, TK_ARRAY, NULL, t_cchar);
	struct type *t_union = new_type(cu, TK_UNION, "u", NULL);
	struct type *t_enum = new_type(cu, TK_ENUM, "e", NULL);
	struct type *t_anon = new_type(cu, TK_STRUCT, NULL, NULL);
	struct type *t_long, *t_deep, *t_proto, *t_pproto;
	char longname[300];
	struct strbuf want = STRBUF_INIT, got = STRBUF_INIT;
	struct function *f;

	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	/* cut at 127 characters, inside the pointer's own text too */
	t_long = new_type(cu, TK_POINTER, NULL,
			  new_type(cu, TK_TYPEDEF, longname, NULL));
	/* deeper than the fast path takes: c_type's own path */
	t_deep = t_int;
	for (int i = 0; i < 40; i++)
		t_deep = new_type(cu, TK_POINTER, NULL, t_deep);
	t_proto = new_type(cu, TK_FUNC_PROTO, NULL, t_int);
	t_proto->proto.nr_params = 1;
	t_proto->proto.params = arena_zalloc(&cu->arena, sizeof(struct param));
	t_proto->proto.params[0].type = t_pchar;
	t_proto->proto.params[0].name = "inner";
	t_pproto = new_type(cu, TK_POINTER, NULL, t_proto);

	f = add_fn(cu, 0x10, "many", t_pcpchar);
	set_params(cu, f, 8,
		   (const char *[]){ "a", "b", NULL, "d", "e", "f", "g", "h" },
		   (struct type *[]){ t_vol, t_restrict, t_arr, t_union, t_enum,
				      t_anon, NULL, t_long });
	f = add_fn(cu, 0x20, "deep", t_deep);
	set_params(cu, f, 1, (const char *[]){ "p" }, (struct type *[]){ t_deep });
	f = add_fn(cu, 0x30, "cb", t_long);
	set_params(cu, f, 2, (const char *[]){ "fn", "raw" },
		   (struct type *[]){ t_pproto, t_proto });
	f = add_fn(cu, 0x40, "va", NULL);
	f->varargs = true;
	f->own_inline_attr = DW_INL_declared_inlined;
	set_params(cu, f, 1, (const char *[]){ "n" }, (struct type *[]){ t_int });
	f = add_fn(cu, 0x50, "none", t_arr);
	f->varargs = true;

	for (uint32_t i = 0; i < cu->nr_functions; i++) {
		for (int np = 0; np < 2; np++) {
			struct c_ftype ft = c_ftype_of_function(&cu->functions[i]);
			unsigned flags = np ? C_FT_NO_PARM_NAMES : 0;

			if (cu->functions[i].own_inline_attr)
				flags |= C_FT_INLINE;
			strbuf_reset(&want);
			strbuf_reset(&got);
			c_type_ftype(&want, &ft, cu->functions[i].name, flags, 0);
			strbuf_putc(&want, ';');
			pfunct_format_prototype(&got, cu, &cu->functions[i], false,
						np);
			CHECK_STR(strbuf_str(&got), strbuf_str(&want));
		}
	}
	/* The cut is real: "<127 characters> *" does not fit. */
	strbuf_reset(&got);
	pfunct_format_prototype(&got, cu, &cu->functions[2], false, false);
	CHECK(!strncmp(strbuf_str(&got), longname, 127) &&
	      strbuf_str(&got)[127] == ' ' && strbuf_str(&got)[128] == 'c',
	      "%s", strbuf_str(&got));

	/* Through the printer (with its cache), the same texts. */
	{
		struct pfunct_options o = { .prototypes = true };
		struct d2b_error err = { 0 };
		struct pfunct_printer *p = pfunct_printer_create(&o, &err);
		struct strbuf out = STRBUF_INIT, exp = STRBUF_INIT;

		for (uint32_t i = 0; i < cu->nr_functions; i++)
			cu->functions[i].own_external = true;
		CHECK(!pfunct_printer_add_cu(p, cu, &out, &err), "%s", err.msg);
		/* A second unit whose type at the same address reads
		 * differently: the first unit's spelling must not be reused
		 * (nor are the functions kept twice: they are external). */
		t_union->name = "v";
		cu->functions[0].name = "many2";
		CHECK(!pfunct_printer_add_cu(p, cu, &out, &err), "%s", err.msg);
		CHECK(!pfunct_printer_finish(p, &out, &err), "%s", err.msg);
		pfunct_format_prototype(&exp, cu, &cu->functions[0], false, false);
		strbuf_putc(&exp, '\n');
		for (uint32_t i = cu->nr_functions; i-- > 0;) {
			if (i == 0)
				t_union->name = "u";
			if (i == 0)
				cu->functions[0].name = "many";
			pfunct_format_prototype(&exp, cu, &cu->functions[i],
						false, false);
			strbuf_putc(&exp, '\n');
		}
		CHECK_STR(strbuf_str(&out), strbuf_str(&exp));
		CHECK(strstr(strbuf_str(&out), "many2(volatile int  a, char * restrict  b, const char , union v d") != NULL,
		      "%s", strbuf_str(&out));
		pfunct_printer_destroy(p);
		strbuf_free(&out);
		strbuf_free(&exp);
	}
	strbuf_free(&want);
	strbuf_free(&got);
	cu_model_destroy(cu);
}

/* Many names (the name table grows several times): each external name is
 * kept once, each static one every time, and the listing is newest first. */
static void check_many_names(void)
{
	enum { N = 5000 };
	struct cu_model *cu = new_cu("many.c", 2 * N);
	struct pfunct_options o = { .formatter = PFUNCT_FMT_NR_PARMS };
	struct d2b_error err = { 0 };
	struct pfunct_printer *p = pfunct_printer_create(&o, &err);
	struct strbuf out = STRBUF_INIT;
	char (*names)[16] = calloc(N, sizeof(*names));
	size_t lines = 0;

	for (int i = 0; i < N; i++) {
		struct function *f;

		snprintf(names[i], sizeof(names[i]), "fn_%d", i);
		f = add_fn(cu, (uint64_t)i, names[i], NULL);
		f->own_external = i % 2 == 0;
	}
	for (int i = 0; i < N; i++) {	/* the same names again */
		struct function *f = add_fn(cu, (uint64_t)(N + i), names[i], NULL);

		f->nr_params = 7;	/* tells the second copies apart */
		f->own_external = true;
	}
	CHECK(!pfunct_printer_add_cu(p, cu, &out, &err), "%s", err.msg);
	CHECK(!pfunct_printer_finish(p, &out, &err), "%s", err.msg);
	for (const char *c = strbuf_str(&out); *c; c++)
		lines += *c == '\n';
	/* N first copies; the second copy of a static (odd) name is kept too */
	CHECK(lines == N + N / 2, "%zu lines", lines);
	CHECK(!strncmp(strbuf_str(&out), "fn_4999: 7\nfn_4997: 7\n", 22),
	      "%.40s", strbuf_str(&out));
	CHECK(strstr(strbuf_str(&out), "fn_4998: 0\nfn_4997: 0\n") != NULL,
	      "even names kept once");
	CHECK(strstr(strbuf_str(&out), "fn_4998: 7") == NULL,
	      "external name kept twice");
	pfunct_printer_destroy(p);
	strbuf_free(&out);
	free(names);
	cu_model_destroy(cu);
}

/* ---- -c CLASS, -S, -g and the names of nameless instances ---- */

/* One unit, run alone through a printer with O. */
static char *run_one(struct cu_model *cu, const struct pfunct_options *o)
{
	struct models one = { .a = cu, .b = NULL };

	return run(&one, o);
}

#define EXPECT_ONE(cu, opts, want) CHECK_RUN(run_one((cu), &(opts)), want)

static void check_class_and_counts(void)
{
	struct cu_model *cu = new_cu("c.cc", 16);
	struct type *t_int = new_type(cu, TK_BASE, "int", NULL);
	struct type *t_union = new_type(cu, TK_UNION, "s", NULL);
	struct type *t_decl = new_type(cu, TK_STRUCT, "s", NULL);
	struct type *t_def = new_type(cu, TK_STRUCT, "s", NULL);
	struct type *p_union = new_type(cu, TK_POINTER, NULL, t_union);
	struct type *p_decl = new_type(cu, TK_POINTER, NULL, t_decl);
	struct type *p_def = new_type(cu, TK_POINTER, NULL, t_def);
	struct type *c_def = new_type(cu, TK_CONST, NULL, t_def);
	struct type *p_cdef = new_type(cu, TK_POINTER, NULL, c_def);
	struct type *td = new_type(cu, TK_TYPEDEF, "sp_t", p_def);
	struct type *types[] = { t_int, t_union, t_decl, t_def, p_union, p_decl,
				 p_def, c_def, p_cdef, td };
	struct pfunct_options o = { 0 };
	struct function *f;

	t_decl->declaration = true;
	cu->types = types;
	cu->nr_types = sizeof(types) / sizeof(types[0]);

	/* in DIE order */
	f = add_fn(cu, 0x10, "by_ptr", t_int);	/* listed by -c s */
	f->nr_variables = 2;
	f->nr_labels = 1;
	set_params(cu, f, 2, (const char *[]){ "n", "p" },
		   (struct type *[]){ t_int, p_def });
	f = add_fn(cu, 0x20, "by_union", t_int);
	set_params(cu, f, 1, (const char *[]){ "u" }, (struct type *[]){ p_union });
	f = add_fn(cu, 0x30, "by_decl", t_int);
	set_params(cu, f, 1, (const char *[]){ "d" }, (struct type *[]){ p_decl });
	f = add_fn(cu, 0x40, "by_const", t_int);	/* const s *: no */
	set_params(cu, f, 1, (const char *[]){ "c" }, (struct type *[]){ p_cdef });
	f = add_fn(cu, 0x50, "by_typedef", t_int);	/* sp_t: no */
	set_params(cu, f, 1, (const char *[]){ "t" }, (struct type *[]){ td });
	f = add_fn(cu, 0x60, "abstract", t_int);	/* DW_AT_inline: no */
	f->own_inline_attr = f->inline_attr = DW_INL_inlined;
	set_params(cu, f, 1, (const char *[]){ "p" }, (struct type *[]){ p_def });
	f = add_fn(cu, 0x70, "method", t_int);	/* a pure virtual method */
	f->scope = TS_COMPOSITE;
	f->external = f->own_external = true;
	f->virtuality = DW_VIRTUALITY_pure_virtual;
	set_params(cu, f, 1, (const char *[]){ NULL }, (struct type *[]){ p_def });
	/* in the body of the function before it (a GNU C nested function,
	 * or a local declaration): searched, and before that function, as
	 * 1.24's table has it */
	f = add_fn(cu, 0x80, "nested", t_int);
	f->scope = TS_FUNCTION;
	f->fn_depth = 1;
	set_params(cu, f, 1, (const char *[]){ "p" }, (struct type *[]){ p_def });
	/* clang's order: a concrete instance (0x90) before its abstract
	 * instance (0xa0), which is named by its declaration (0x08 would be
	 * in a class; here the unit's 0x05). 1.24 names 0x90 from 0xa0's
	 * name as it stands then: none; 0xb0 comes after 0xa0: named. */
	f = add_fn(cu, 0x90, NULL, NULL);
	f->origin_offset = 0xa0;
	f = add_fn(cu, 0xa0, NULL, NULL);
	f->specification_offset = 0x05;
	f->own_inline_attr = f->inline_attr = DW_INL_inlined;
	f->name = "dtor";	/* as the loader resolves it */
	f = add_fn(cu, 0xb0, NULL, NULL);
	f->origin_offset = 0xa0;
	f->name = "dtor";
	cu->functions[8].name = "dtor";
	/* the declaration, first in the unit (cu_model_function_at_offset
	 * wants the array in offset order: move it to the front) */
	memmove(&cu->functions[1], &cu->functions[0],
		cu->nr_functions * sizeof(*cu->functions));
	cu->nr_functions++;
	memset(&cu->functions[0], 0, sizeof(cu->functions[0]));
	cu->functions[0].name = "dtor";
	cu->functions[0].own_name = true;
	cu->functions[0].die_offset = 0x05;
	cu->functions[0].declaration = true;
	cu->functions[0].scope = TS_COMPOSITE;

	o.class_name = "s";
	EXPECT_ONE(cu, o, "by_ptr\nnested\nmethod\n");
	o.verbose = true;
	EXPECT_ONE(cu, o, "int by_ptr(int n, struct s * p);\n"
			  "int nested(struct s * p);\n"
			  "virtual int method(struct s *) = 0;\n");
	o.class_name = "nosuch";
	EXPECT_ONE(cu, o, "");
	/* -f wins over -c (by_ptr is not external: printed) */
	o.class_name = "s";
	o.function = "by_ptr";
	EXPECT_ONE(cu, o, "int by_ptr(int n, struct s * p);\n");

	/* the listing: the nameless concrete instance is not there */
	o = (struct pfunct_options){ 0 };
	EXPECT_ONE(cu, o, "dtor\ndtor\nabstract\nby_typedef\nby_const\n"
			  "by_decl\nby_union\nby_ptr\n");
	o.formatter = PFUNCT_FMT_NR_VARIABLES;
	EXPECT_ONE(cu, o, "by_ptr: 2\n");
	o.formatter = PFUNCT_FMT_LABELS;
	EXPECT_ONE(cu, o, "by_ptr: 1\n");

	/* -a: the function whose code holds the address, printed as -f
	 * prints it (nothing for an external one); none: an error */
	set_addr(&cu->functions[1], 0x1000, 0x10);	/* by_ptr */
	set_addr(&cu->functions[2], 0x1010, 0x10);	/* by_union */
	cu->functions[2].external = cu->functions[2].own_external = true;
	o = (struct pfunct_options){ .addr = 0x100f };
	EXPECT_ONE(cu, o, "int by_ptr(int n, struct s * p);\n");
	o.addr = 0x1010;
	EXPECT_ONE(cu, o, "");
	{
		struct d2b_error err = { 0 };
		struct strbuf out = STRBUF_INIT;
		struct pfunct_printer *p;

		o.addr = 0x2000;
		p = pfunct_printer_create(&o, &err);
		CHECK(p && !pfunct_printer_add_cu(p, cu, &out, &err), "%s", err.msg);
		CHECK(p && pfunct_printer_finish(p, &out, &err) &&
		      !strcmp(err.msg, "No function found at 0x2000!") && !out.len,
		      "-a 0x2000: %s", err.msg);
		pfunct_printer_destroy(p);
		strbuf_free(&out);
	}
	cu->types = NULL;	/* on the stack */
	cu_model_destroy(cu);
}

int main(void)
{
	struct models m = build();
	struct pfunct_options o = { 0 };

	/* Default: names, newest first; helper twice (static), ext_fn once. */
	EXPECT(o, "stat_fn\nstat_fn\nhelper\nother\nnoparms\nkr\nhelper\ninl\n"
		  "ext_fn\ntakes_array\nconst_ret\nmain\nprintf\n");

	o.prototypes = true;
	EXPECT(o, "int stat_fn(int n, struct bar * b);\n"
		  "int stat_fn(struct bar * b, int n);\n"
		  "int helper(int x);\n"
		  "int other(int y);\n"
		  "void noparms(void);\n"
		  "void kr(void);\n"
		  "int helper(struct foo * f, int x);\n"
		  "inline int inl(int x);\n"
		  "int ext_fn(struct foo * f, const char  * s, ...);\n"
		  "void takes_array(int * arr, cb_t cb, void (*fp)(int, char));\n"
		  "const char  * const_ret(long long unsigned int u, _Bool b);\n"
		  "int main(int argc, char * * argv);\n"
		  "int printf(const char  *, ...);\n");

	o.no_parm_names = true;
	EXPECT(o, "int stat_fn(int, struct bar *);\n"
		  "int stat_fn(struct bar *, int);\n"
		  "int helper(int);\n"
		  "int other(int);\n"
		  "void noparms(void);\n"
		  "void kr(void);\n"
		  "int helper(struct foo *, int);\n"
		  "inline int inl(int);\n"
		  "int ext_fn(struct foo *, const char  *, ...);\n"
		  "void takes_array(int *, cb_t, void (*)(int, char));\n"
		  "const char  * const_ret(long long unsigned int, _Bool);\n"
		  "int main(int, char * *);\n"
		  "int printf(const char  *, ...);\n");
	o.no_parm_names = false;

	/* -l: the concrete stat_fn takes its decl_file/line from its origin;
	 * a function without a file prints "(null)" as pahole does. */
	{
		struct strbuf sb = STRBUF_INIT;

		pfunct_format_prototype(&sb, m.b, &m.b->functions[5], true, false);
		CHECK_STR(strbuf_str(&sb), "/* Used at: b.c */\n"
					   "/* <51d> /src/b.c:2 */\n"
					   "int stat_fn(int n, struct bar * b);");
		strbuf_reset(&sb);
		pfunct_format_prototype(&sb, m.a, &m.a->functions[1], true, false);
		CHECK_STR(strbuf_str(&sb), "/* Used at: a.c */\n"
					   "/* <e5> /src/a.c:10 */\n"
					   "int main(int argc, char * * argv);");
		strbuf_reset(&sb);
		pfunct_format_prototype(&sb, m.a, &m.a->functions[0], true, true);
		CHECK_STR(strbuf_str(&sb), "/* Used at: a.c */\n"
					   "/* <c8> (null):0 */\n"
					   "int printf(const char  *, ...);");
		strbuf_free(&sb);
	}

	/* -V: the duplicate report comes first, then each prototype with its
	 * definitions count. */
	o.prototypes = false;
	o.verbose = true;
	{
		char *got = run(&m, &o);
		const char *head = "function: ext_fn\nfirst: a.c\ncurrent: a.c\n"
				   "size: 0 != 9\n\nint stat_fn(int n, struct bar * b);\n"
				   "/* definitions: 1 */\n\n";

		CHECK(!strncmp(got, head, strlen(head)), "got:\n%s", got);
		CHECK(strstr(got, "int ext_fn(struct foo * f, const char  * s, ...);\n"
				  "/* definitions: 2 */\n\n") != NULL, "got:\n%s", got);
		free(got);
	}
	o.verbose = false;

	/* -s: only functions with a size, sizes of the kept instance. */
	o.formatter = PFUNCT_FMT_SIZES;
	EXPECT(o, "stat_fn: 4\nother: 5\nnoparms: 1\nkr: 1\ntakes_array: 29\n"
		  "const_ret: 32\nmain: 34\n");
	o.formatter = PFUNCT_FMT_NR_PARMS;
	EXPECT(o, "stat_fn: 2\nstat_fn: 2\nhelper: 1\nother: 1\nnoparms: 0\n"
		  "kr: 0\nhelper: 2\ninl: 1\next_fn: 2\ntakes_array: 3\n"
		  "const_ret: 2\nmain: 2\nprintf: 1\n");
	o.formatter = PFUNCT_FMT_NAME_LEN;
	{
		char *got = run(&m, &o);

		CHECK(!strncmp(got, "stat_fn: 7\nstat_fn: 7\nhelper: 6\n", 32),
		      "got:\n%s", got);
		free(got);
	}
	o.formatter = PFUNCT_FMT_DEFAULT;

	/* -E: externals only. */
	o.externals_only = true;
	EXPECT(o, "other\nnoparms\nkr\next_fn\ntakes_array\nconst_ret\nmain\n"
		  "printf\n");
	o.externals_only = false;
	/* -H: inlined by the compiler, not declared inline. */
	o.cc_inlined = true;
	EXPECT(o, "stat_fn\nhelper\nhelper\next_fn\n");
	o.cc_inlined = false;

	/* -f: the first unit holding the name decides; static functions are
	 * printed, external ones and concrete instances are not (1.24). */
	o.function = "helper";
	EXPECT(o, "int helper(struct foo * f, int x);\n");
	o.function = "main";
	EXPECT(o, "");
	o.function = "stat_fn";
	EXPECT(o, "int stat_fn(struct bar * b, int n);\n");
	o.function = "nosuch";
	EXPECT(o, "");
	o.decl_info = true;
	o.function = "inl";
	EXPECT(o, "/* Used at: a.c */\n/* <2f2> (null):0 */\ninline int inl(int x);\n");

	/* done() after the unit that holds the function, not before. */
	{
		struct d2b_error err = { 0 };
		struct strbuf out = STRBUF_INIT;
		struct pfunct_options fo = { .function = "other" };
		struct pfunct_printer *p = pfunct_printer_create(&fo, &err);

		CHECK(!pfunct_printer_add_cu(p, m.a, &out, &err), "%s", err.msg);
		CHECK(!pfunct_printer_done(p), "done after a.c");
		CHECK(!pfunct_printer_add_cu(p, m.b, &out, &err), "%s", err.msg);
		CHECK(pfunct_printer_done(p), "not done after b.c");
		CHECK(out.len == 0, "external 'other' printed: %s", strbuf_str(&out));
		pfunct_printer_destroy(p);
		strbuf_free(&out);
	}

	CHECK(pfunct_function_size(&m.a->functions[1]) == 34, "main size");
	CHECK(pfunct_function_size(&m.a->functions[4]) == 0, "abstract size");

	cu_model_destroy(m.a);
	cu_model_destroy(m.b);
	check_fast_path();
	check_many_names();
	check_class_and_counts();
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
