// SPDX-License-Identifier: GPL-2.0-only
/*
 * C spellings of model types, reproducing pahole 1.24's tag__name(),
 * ftype__fprintf() and ftype__fprintf_parms() (see c_type.h for the quirks).
 *
 * pahole formats into fixed-size stack buffers; each helper here takes the
 * size of the buffer pahole would have used and cuts its result to fit, so
 * that very long spellings are cut where pahole cuts them.
 */
#include "print/c_type.h"

#include <string.h>

#include "dwarf/dw_const.h"
#include "print/fmt.h"

/* Deeper than this, a chain of pointers/qualifiers is taken as a loop. */
#define C_TYPE_MAX_DEPTH 64

static void name_into(struct strbuf *sb, const struct type *t, size_t bufsize,
		      unsigned flags, int depth);

/* Append S cut to BUFSIZE - 1 characters (snprintf into char[BUFSIZE]). */
static void put_cut(struct strbuf *sb, const char *s, size_t bufsize)
{
	size_t n = strlen(s);

	if (bufsize == 0)
		return;
	if (n > bufsize - 1)
		n = bufsize - 1;
	strbuf_add(sb, s, n);
}

static const char *kind_prefix(const struct type *t, unsigned flags)
{
	bool as_structs = flags & C_FT_CLASSES_AS_STRUCTS;

	switch (t->kind) {
	case TK_ENUM:
		return "enum ";
	case TK_STRUCT:
		/* pahole calls every C++ struct a class */
		return t->cu_lang == DW_LANG_C_plus_plus && !as_structs ? "class " : "struct ";
	case TK_CLASS:
		return as_structs ? "struct " : "class ";
	case TK_UNION:
		return "union ";
	default:
		return "";
	}
}

/* tag__ptr_name: "<pointee> [const ]<suffix>" */
static void ptr_name(struct strbuf *out, const struct type *t,
		     const char *suffix, size_t bufsize, unsigned flags, int depth)
{
	const struct type *target = t->type;
	size_t start = out->len;

	if (!target) {
		strbuf_puts(out, "void ");
		strbuf_puts(out, suffix);
	} else {
		const char *const_pointer = "";

		if (target->kind == TK_CONST && target->type &&
		    target->type->kind == TK_POINTER) {
			const_pointer = "const ";
			target = target->type;
		}
		name_into(out, target, 1024, flags, depth + 1);
		strbuf_putc(out, ' ');
		strbuf_puts(out, const_pointer);
		strbuf_puts(out, suffix);
	}
	fmt_cut_from(out, start, bufsize);
}

static void ftype_into(struct strbuf *sb, const struct c_ftype *f,
		       const char *name, unsigned flags, int type_spacing,
		       int depth);

/*
 * Each case appends straight to SB and cuts what it appended to BUFSIZE - 1
 * bytes at the end (pahole's snprintf into a buffer of that size); an
 * inner call cuts its own part first, as pahole's inner buffers do.
 */
static void name_into(struct strbuf *sb, const struct type *t, size_t bufsize,
		      unsigned flags, int depth)
{
	size_t start = sb->len;

	if (!t) {
		put_cut(sb, "void", bufsize);
		return;
	}
	if (depth > C_TYPE_MAX_DEPTH) {
		put_cut(sb, "<ERROR: type loop detected>", bufsize);
		return;
	}

	switch (t->kind) {
	case TK_BASE:
		put_cut(sb, t->name ? t->name : "nameless base type!", bufsize);
		break;
	case TK_POINTER:
		ptr_name(sb, t, "*", bufsize, flags, depth);
		break;
	case TK_REFERENCE:
		ptr_name(sb, t, "&", bufsize, flags, depth);
		break;
	case TK_RVALUE_REFERENCE:
		/* pahole (1.24 and upstream) has no case for it and prints
		 * nothing: a wrong fact, not copied (P4, docs/compat.md) */
		ptr_name(sb, t, "&&", bufsize, flags, depth);
		break;
	case TK_PTR_TO_MEMBER: {
		const struct type *c = t->ptr_to_member.containing;
		struct strbuf suffix = STRBUF_INIT;

		strbuf_puts(&suffix, c && c->name ? c->name : "");
		strbuf_puts(&suffix, "::*");
		ptr_name(sb, t, strbuf_str(&suffix), bufsize, flags, depth);
		strbuf_free(&suffix);
		break;
	}
	case TK_CONST:
	case TK_VOLATILE:
	case TK_RESTRICT:
	case TK_ATOMIC: {
		const char *prefix = "", *suffix = "";

		switch (t->kind) {
		case TK_CONST:
			prefix = "const ";
			break;
		case TK_VOLATILE:
			prefix = "volatile ";
			break;
		case TK_ATOMIC:
			prefix = "_Atomic ";
			break;
		default:
			suffix = " restrict";
			break;
		}
		strbuf_puts(sb, prefix);
		name_into(sb, t->type, 128, flags, depth + 1);
		strbuf_puts(sb, suffix);
		strbuf_putc(sb, ' ');
		fmt_cut_from(sb, start, bufsize);
		break;
	}
	case TK_ARRAY:
		name_into(sb, t->type, bufsize, flags, depth + 1);
		break;
	case TK_FUNC_PROTO: {
		struct c_ftype f = c_ftype_of_proto(t);

		ftype_into(sb, &f, NULL, C_FT_PROTOTYPE | (flags & C_FT_CLASSES_AS_STRUCTS), 0,
			   depth + 1);
		fmt_cut_from(sb, start, bufsize);
		break;
	}
	case TK_UNSPECIFIED:
		/* Assembler CUs give functions an unnamed unspecified return
		 * type; pahole 1.24 spells it "void " (so pfunct prints
		 * "void  asmfn(void);"). */
		put_cut(sb, t->name ? t->name : "void ", bufsize);
		break;
	case TK_UNRESOLVED:
		strbuf_addf(sb, "<ERROR: %#llx not found!>",
			    (unsigned long long)t->unresolved.target_offset);
		fmt_cut_from(sb, start, bufsize);
		break;
	default:	/* typedef, struct, union, class, enum */
		strbuf_puts(sb, kind_prefix(t, flags));
		strbuf_puts(sb, t->name ? t->name : "");
		fmt_cut_from(sb, start, bufsize);
		break;
	}
}

void c_type_name_n(struct strbuf *sb, const struct type *t, size_t bufsize)
{
	name_into(sb, t, bufsize, 0, 0);
}

void c_type_name_f(struct strbuf *sb, const struct type *t, size_t bufsize, unsigned flags)
{
	name_into(sb, t, bufsize, flags & C_FT_CLASSES_AS_STRUCTS, 0);
}

void c_type_name(struct strbuf *sb, const struct type *t)
{
	/* No cut: callers that mimic a pahole buffer use c_type_name_n(). */
	name_into(sb, t, (size_t)-1, 0, 0);
}

/* One parameter, as ftype__fprintf_parms prints it. */
static void param_into(struct strbuf *sb, const struct type *type,
		       const char *name, unsigned flags, int depth)
{
	if (type && type->kind == TK_POINTER && type->type &&
	    type->type->kind == TK_FUNC_PROTO) {
		struct c_ftype f = c_ftype_of_proto(type->type);

		ftype_into(sb, &f, name, C_FT_POINTER | C_FT_PROTOTYPE |
			   (flags & (C_FT_NO_PARM_NAMES | C_FT_CLASSES_AS_STRUCTS)), 0, depth + 1);
		return;
	}
	if (type && type->kind == TK_FUNC_PROTO) {
		/* pahole passes inlined=true, is_prototype=false here */
		struct c_ftype f = c_ftype_of_proto(type);

		ftype_into(sb, &f, name, C_FT_INLINE |
			   (flags & (C_FT_NO_PARM_NAMES | C_FT_CLASSES_AS_STRUCTS)), 0, depth + 1);
		return;
	}
	name_into(sb, type, 128, flags, depth + 1);
	if (name) {
		strbuf_putc(sb, ' ');
		strbuf_puts(sb, name);
	}
}

static void params_into(struct strbuf *sb, const struct c_ftype *f, int indent,
			unsigned flags, int depth)
{
	strbuf_putc(sb, '(');
	for (uint32_t i = 0; i < f->nr_params; i++) {
		const struct param *p = &f->params[i];
		const char *name = (flags & C_FT_NO_PARM_NAMES) ? NULL : p->name;

		if (i > 0) {
			if (indent == 0) {
				strbuf_puts(sb, ", ");
			} else {
				strbuf_puts(sb, ",\n");
				strbuf_fill(sb, '\t', indent > 16 ? 16 : indent);
			}
		}
		param_into(sb, p->type, name, flags, depth);
	}
	if (f->nr_params == 0)
		strbuf_puts(sb, "void)");
	else if (f->varargs)
		strbuf_puts(sb, ", ...)");
	else
		strbuf_putc(sb, ')');
}

static void ftype_into(struct strbuf *sb, const struct c_ftype *f,
		       const char *name, unsigned flags, int type_spacing,
		       int depth)
{
	struct strbuf ret = STRBUF_INIT;
	bool proto = flags & C_FT_PROTOTYPE;

	if (depth > C_TYPE_MAX_DEPTH) {
		strbuf_puts(sb, "<ERROR: type loop detected>");
		return;
	}
	name_into(&ret, f->ret, 128, flags, depth + 1);
	/* "%s%-*s %s%s%s%s" */
	if (flags & C_FT_INLINE)
		strbuf_puts(sb, "inline ");
	fmt_left(sb, type_spacing, strbuf_str(&ret));
	strbuf_puts(sb, proto ? " (" : " ");
	if (flags & C_FT_POINTER)
		strbuf_putc(sb, '*');
	strbuf_puts(sb, name ? name : "");
	if (proto)
		strbuf_putc(sb, ')');
	strbuf_free(&ret);
	params_into(sb, f, 0, flags, depth);
}

void c_type_ftype(struct strbuf *sb, const struct c_ftype *f, const char *name,
		  unsigned flags, int type_spacing)
{
	ftype_into(sb, f, name, flags, type_spacing, 0);
}

void c_type_params(struct strbuf *sb, const struct c_ftype *f, int indent,
		   unsigned flags)
{
	params_into(sb, f, indent, flags, 0);
}

void c_type_decl(struct strbuf *sb, const struct type *t, const char *name)
{
	param_into(sb, t, name, 0, 0);
}

bool c_type_is_named_kind(const struct type *t)
{
	switch (t->kind) {
	case TK_STRUCT:
	case TK_UNION:
	case TK_CLASS:
	case TK_ENUM:
	case TK_TYPEDEF:
		return true;
	default:
		return false;
	}
}

const struct type *c_type_find_by_name(const struct cu_model *cu, const char *name, bool decls)
{
	for (uint32_t i = 0; i < cu->nr_types; i++) {
		const struct type *t = cu->types[i];

		if (c_type_is_named_kind(t) && t->name && (decls || !t->declaration) &&
		    !strcmp(t->name, name))
			return t;
	}
	return NULL;
}

const struct type *c_type_strip(const struct type *t)
{
	return type_strip_cv(t);
}

uint32_t c_type_nr_members(const struct type *t)
{
	uint32_t n = t->composite.cxx ? t->composite.cxx->nr_bases : 0;

	for (uint32_t i = 0; i < t->composite.nr_members; i++)
		n += !t->composite.members[i].is_static;
	return n;
}

uint64_t c_type_size(const struct type *t, unsigned addr_size)
{
	uint64_t mult = 1;

	for (int i = 0; t && i < C_TYPE_MAX_DEPTH; i++) {
		switch (t->kind) {
		case TK_POINTER:
		case TK_REFERENCE:
		case TK_RVALUE_REFERENCE:
			return mult * (addr_size ? addr_size : t->size);
		case TK_BASE:
		case TK_ENUM:
			return mult * t->size;
		case TK_FUNC_PROTO:
			return mult * (t->size ? t->size : addr_size);
		case TK_PTR_TO_MEMBER: {
			/* Without DW_AT_byte_size (gcc and clang give none),
			 * the Itanium C++ ABI's: a pointer to a member function
			 * is two words (the function and the adjustment of
			 * this), one to a data member one (a ptrdiff_t). pahole
			 * 1.24 prints 4 for both (docs/compat.md P9). */
			const struct type *target = c_type_strip(t->type);

			if (t->size)
				return mult * t->size;
			return mult * addr_size * (target && target->kind == TK_FUNC_PROTO ? 2 : 1);
		}
		case TK_UNSPECIFIED:
			/* C++'s std::nullptr_t (DWARF 5, 5.2: "decltype(nullptr)"),
			 * which the compilers give no size: a pointer's; pahole
			 * 1.24 prints what its memory held (P9) */
			if (!t->size && t->name && !strcmp(t->name, "decltype(nullptr)"))
				return mult * addr_size;
			return mult * t->size;
		case TK_STRUCT:
		case TK_UNION:
		case TK_CLASS:
			/* a size-1 class without members: the empty-base trick */
			if (t->size == 1 && !c_type_nr_members(t))
				return 0;
			return mult * t->size;
		case TK_ARRAY: {
			uint64_t n = 1;

			for (uint32_t d = 0; d < t->array.nr_dims; d++)
				n *= t->array.dims[d].count;
			mult *= n;
			t = t->type;
			continue;
		}
		case TK_TYPEDEF:
		case TK_CONST:
		case TK_VOLATILE:
		case TK_RESTRICT:
		case TK_ATOMIC:
			t = t->type;
			continue;
		default:
			return mult * t->size;
		}
	}
	return 0;
}
