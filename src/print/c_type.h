/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * print/c_type.h: C spellings of model types, as pahole and pfunct print them.
 * Shared by the pahole layout printer and the pfunct printer.
 *
 * The spellings reproduce pahole 1.24 byte for byte, quirks included:
 *   - a qualifier's name carries a trailing blank ("const char "), so a
 *     pointer to it reads "const char  *" (two blanks);
 *   - a pointer to a const pointer reads "char * const *";
 *   - an array's name is its element type's name (no dimensions);
 *   - a function type reads "int ()(int, char *)" and "(void)" when it has
 *     no parameters (prototyped or not);
 *   - pahole formats names into fixed buffers (128 or 1024 bytes), so a
 *     very long name is cut at the same place pahole cuts it.
 */
#ifndef D2B_PRINT_C_TYPE_H
#define D2B_PRINT_C_TYPE_H

#include <stdbool.h>
#include <stdint.h>

#include "load/model.h"
#include "util/strbuf.h"

/* The C spelling of T as pahole writes a type name (its tag__name()):
 * "struct foo *", "const char  *", "int", "int ()(int, char *)", "void" for
 * NULL. */
void c_type_name(struct strbuf *sb, const struct type *t);

/* A declaration of NAME with type T as pfunct prints parameters:
 * "int x", "struct foo * p", "const char  * s", "void (*cb)(int)".
 * NAME may be NULL (abstract declarator). */
void c_type_decl(struct strbuf *sb, const struct type *t, const char *name);

/* ---- Lower-level pieces, for the pahole and pfunct printers ---- */

/* A function signature: a TK_FUNC_PROTO type or a struct function. */
struct c_ftype {
	const struct type *ret;		/* NULL: void */
	const struct param *params;
	uint32_t nr_params;
	bool varargs;
};

static inline struct c_ftype c_ftype_of_proto(const struct type *proto)
{
	struct c_ftype f = { proto->type, proto->proto.params,
			     proto->proto.nr_params, proto->proto.varargs };
	return f;
}

static inline struct c_ftype c_ftype_of_function(const struct function *fn)
{
	struct c_ftype f = { fn->ret, fn->params, fn->nr_params, fn->varargs };
	return f;
}

enum c_ftype_flags {
	C_FT_INLINE = 1 << 0,		/* "inline " before the return type */
	C_FT_POINTER = 1 << 1,		/* "(*name)" */
	C_FT_PROTOTYPE = 1 << 2,	/* parenthesise the name: "(name)" */
	C_FT_NO_PARM_NAMES = 1 << 3,	/* pfunct --no_parm_names */
	C_FT_CLASSES_AS_STRUCTS = 1 << 4,	/* pahole --classes_as_structs:
						 * "struct", never "class" */
};

/* pahole's ftype__fprintf: "[inline ]<ret, left-justified in TYPE_SPACING>
 * <(><*>NAME<)>(PARAMS)". NAME may be NULL. */
void c_type_ftype(struct strbuf *sb, const struct c_ftype *f, const char *name,
		  unsigned flags, int type_spacing);

/* pahole's ftype__fprintf_parms: "(int a, char * b)", "(void)", "(int, ...)".
 * INDENT > 0 puts each parameter after the first on its own line, indented
 * by INDENT tabs. Only C_FT_NO_PARM_NAMES and C_FT_CLASSES_AS_STRUCTS are read from FLAGS. */
void c_type_params(struct strbuf *sb, const struct c_ftype *f, int indent,
		   unsigned flags);

/* c_type_name() cut as if formatted into a buffer of BUFSIZE bytes
 * (at most BUFSIZE - 1 characters), as pahole's callers do. */
void c_type_name_n(struct strbuf *sb, const struct type *t, size_t bufsize);

/* c_type_name_n() spelled as FLAGS say (only C_FT_CLASSES_AS_STRUCTS is
 * read). */
void c_type_name_f(struct strbuf *sb, const struct type *t, size_t bufsize, unsigned flags);

/* A struct, union, class, enum or typedef: what pahole's -C looks a name
 * up among (cu__find_type_by_name) */
bool c_type_is_named_kind(const struct type *t);

/* cu__find_type_by_name: the first such type of CU named NAME, in type
 * order; declarations too when DECLS. NULL: none. */
const struct type *c_type_find_by_name(const struct cu_model *cu, const char *name, bool decls);

/* Follow typedefs and qualifiers (const, volatile, restrict, atomic). */
const struct type *c_type_strip(const struct type *t);

/* pahole's type->nr_members of a struct, union or class: its data members
 * and C++ bases, not its static members. */
uint32_t c_type_nr_members(const struct type *t);

/* Size in bytes as pahole's tag__size computes it: pointers take
 * ADDR_SIZE, arrays multiply, typedefs and qualifiers follow, an empty
 * struct of size 1 counts 0 (the empty-base trick), void is 0. */
uint64_t c_type_size(const struct type *t, unsigned addr_size);

#endif
