// SPDX-License-Identifier: GPL-2.0-only
/*
 * One type's text as pahole 1.24 prints it (dwarves_fprintf.c: tag__fprintf,
 * __class__fprintf, union__fprintf, class_member__fprintf, type__fprintf,
 * array_type__fprintf, enumeration__fprintf, typedef__fprintf).
 *
 * The column arithmetic depends on how many characters each piece wrote,
 * so every function returns that count, as pahole's fprintf chains do.
 */
#include "print/pahole_print.h"

#include <string.h>

#include "dwarf/dw_const.h"
#include "print/c_type.h"
#include "print/fmt.h"

#define MAX_TABS 16
static const char tabs[] = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";

/* The subset of pahole's conf_fprintf the layout printer reads. */
struct pconf {
	const char *prefix, *suffix;
	int indent, type_spacing, name_spacing;
	uint32_t base_offset;
	uint32_t *cachelinep;
	unsigned cacheline_size;
	bool emit_stats, expand_types, hex, rel_offset;
	bool suppress_offset_comment, suppress_comments;
	bool suppress_packed, suppress_aligned;
	bool show_decl_info;
	bool flat_arrays, suppress_force_paddings, show_only_data_members;
	bool first_biggest;
	bool expand_pointers;	/* -p */
	bool union_member, first_member, last_member;
};

/*
 * Broken DWARF can make a struct or union contain itself by value, or share
 * one inline-printed type many times over (output exponential in the
 * nesting). An inline expansion is refused, and the type printed by name
 * instead, when the type is already being expanded further out, when
 * MAX_EXPAND_DEPTH expansions are open, or when the text of the top-level
 * type passed MAX_TYPE_TEXT bytes (real kernels stay far below: task_struct
 * with -E is 73 KB in Debian 12's vmlinux). A typedef chain is followed at
 * most MAX_TYPEDEF_HOPS hops (a loop of typedefs ends there).
 */
#define MAX_EXPAND_DEPTH 64
#define MAX_TYPE_TEXT (1u << 20)
#define MAX_TYPEDEF_HOPS 64

struct pctx {
	struct strbuf *sb;
	struct layout_cache *lc;
	size_t start;			/* sb->len when the top-level type began */
	unsigned nr_open;
	const struct type *open[MAX_EXPAND_DEPTH];	/* being expanded */
	unsigned array_depth;		/* arrays of arrays being printed */
	unsigned spell;			/* C_FT_CLASSES_AS_STRUCTS or 0 */
	bool expand_pointers;		/* -p */
	/* -p: 1.24's recursivity_level of each type, as the types
	 * type_fprintf() is printing (a count of a type is its number of
	 * places here) */
	unsigned nr_printing;
	const struct type *printing[2 * MAX_EXPAND_DEPTH];
};

/* 1.24's tag->recursivity_level of T: how often it is being printed */
static unsigned printing_level(const struct pctx *p, const struct type *t)
{
	unsigned n = 0;

	for (unsigned i = 0; i < p->nr_printing; i++)
		n += p->printing[i] == t;
	return n;
}

/* ++level; false when full (the caller then neither expands nor pops) */
static bool printing_push(struct pctx *p, const struct type *t)
{
	if (p->nr_printing >= sizeof(p->printing) / sizeof(p->printing[0]))
		return false;
	p->printing[p->nr_printing++] = t;
	return true;
}

static bool can_expand(const struct pctx *p, const struct type *t)
{
	/* Out of memory, the text stops growing: stop expanding too. */
	if (p->nr_open >= MAX_EXPAND_DEPTH || p->sb->oom ||
	    p->sb->len - p->start > MAX_TYPE_TEXT)
		return false;
	/* -p: 1.24's levels decide (a type reached through a pointer is
	 * expanded again inside itself once, printing_level()) */
	if (p->expand_pointers)
		return true;
	for (unsigned i = 0; i < p->nr_open; i++)
		if (p->open[i] == t)
			return false;
	return true;
}

/* Returns whether T was pushed (pop it then). */
static bool open_type(struct pctx *p, const struct type *t)
{
	if (p->nr_open >= MAX_EXPAND_DEPTH)
		return false;
	p->open[p->nr_open++] = t;
	return true;
}

static size_t put_tabs(struct pctx *p, int n)
{
	if (n > MAX_TABS)
		n = MAX_TABS;
	if (n <= 0)
		return 0;
	strbuf_add(p->sb, tabs, (size_t)n);
	return (size_t)n;
}

/* "%.*s" of tabs: PREC of them, at most MAX_TABS; a negative precision
 * is printf's "none", the whole string. */
static void put_tabs_prec(struct pctx *p, int prec)
{
	strbuf_add(p->sb, tabs, prec < 0 || prec > MAX_TABS ? MAX_TABS : (size_t)prec);
}

/* pahole's hole and padding notes, "%s%.*s" then "XXX %s%d %s%s%s" in a
 * comment: LEAD ("\n" or ""), INDENT tabs, PRE, N, UNIT, an "s" unless N
 * is 1, TAIL (which closes the comment). */
static void xxx_comment(struct pctx *p, const char *lead, int indent,
			const char *pre, int n, const char *unit, const char *tail)
{
	strbuf_puts(p->sb, lead);
	put_tabs_prec(p, indent);
	strbuf_add(p->sb, "/* XXX ", 7);
	strbuf_puts(p->sb, pre);
	if (n < 0) {
		strbuf_putc(p->sb, '-');
		fmt_u(p->sb, 0, (uint64_t)-(int64_t)n);
	} else {
		fmt_u(p->sb, 0, (uint64_t)n);
	}
	strbuf_putc(p->sb, ' ');
	strbuf_puts(p->sb, unit);
	if (n != 1)
		strbuf_putc(p->sb, 's');
	strbuf_puts(p->sb, tail);
}

/* " NAME" after a body or a refused type's name, when it has a name. */
static void put_suffix(struct pctx *p, const struct pconf *conf)
{
	if (conf->suffix) {
		strbuf_putc(p->sb, ' ');
		strbuf_puts(p->sb, conf->suffix);
	}
}

static int clamp_indent(int indent)
{
	return indent > MAX_TABS ? MAX_TABS : indent;
}

/* printf("%s", NULL) prints "(null)" with glibc; pahole relies on that. */
static const char *nn(const char *s)
{
	return s ? s : "(null)";
}

static bool is_struct(const struct type *t)
{
	return t && (t->kind == TK_STRUCT || t->kind == TK_CLASS);
}

static bool is_struct_union_enum(const struct type *t)
{
	return t && (t->kind == TK_STRUCT || t->kind == TK_CLASS ||
		     t->kind == TK_UNION || t->kind == TK_ENUM);
}

static size_t type_fprintf(struct pctx *p, const struct type *type,
			   const char *name, const struct pconf *conf);
static size_t expanded_fprintf(struct pctx *p, const struct type *t,
			       const struct pconf *conf);
static size_t composite_fprintf(struct pctx *p, const struct type *t,
				const struct pconf *conf);
static size_t tag_fprintf(struct pctx *p, const struct type *t,
			  const struct pconf *conf);
/*
 * -l: the member type__find_first_biggest_size_base_type_member() names
 * (1.24), found in T's data members: the first whose size (a base type's,
 * an enum's, a pointer's; through typedefs, qualifiers and arrays to their
 * elements; a struct's or union's own first biggest member's) reaches the
 * word size, else the first of the largest power of two below it. One
 * larger than a word is taken at once, as the outer member. A member of a
 * nested struct is reported with its offset in that struct. OUT_T and
 * OUT_SLOT say which member; false when none qualifies (1.24 then
 * dereferences NULL: a struct of empty structs).
 */
#define MAX_BIGGEST_DEPTH 64

static bool find_first_biggest(struct layout_cache *lc, const struct type *t, unsigned depth,
			       const struct type **out_t, uint32_t *out_slot)
{
	const unsigned word = lc->addr_size;
	uint64_t result_size = 0;
	bool found = false;

	if (depth > MAX_BIGGEST_DEPTH)
		return false;
	for (uint32_t i = 0; i < t->composite.nr_members; i++) {
		const struct member *m = &t->composite.members[i];
		const struct type *mt = m->type, *in_t = NULL;
		uint32_t in_slot = 0;
		uint64_t msize = 0;
		unsigned hops = 0;

		if (m->is_static)
			continue;
		while (mt && hops++ < MAX_TYPEDEF_HOPS &&
		       (mt->kind == TK_ARRAY || mt->kind == TK_CONST || mt->kind == TK_TYPEDEF ||
			mt->kind == TK_RVALUE_REFERENCE || mt->kind == TK_VOLATILE))
			mt = mt->type;
		if (!mt)
			continue;
		switch (mt->kind) {
		case TK_BASE:
		case TK_ENUM:
			msize = mt->size;
			break;
		case TK_POINTER:
		case TK_REFERENCE:
			msize = word;
			break;
		case TK_STRUCT:
		case TK_UNION:
		case TK_CLASS: {
			struct layout_class *ic;
			bool any = false;

			for (uint32_t k = 0; k < mt->composite.nr_members && !any; k++)
				any = !mt->composite.members[k].is_static;
			if (!any || !find_first_biggest(lc, mt, depth + 1, &in_t, &in_slot))
				continue;
			ic = layout_members(lc, in_t);
			if (!ic)
				continue;
			msize = ic->m[in_slot].byte_size;
			break;
		}
		default:
			break;
		}
		if (msize > word) {
			*out_t = t;
			*out_slot = i;
			return true;
		}
		for (uint64_t p2 = word; p2 > result_size; p2 /= 2) {
			if (msize < p2)
				continue;
			*out_t = in_t ? in_t : t;
			*out_slot = in_t ? in_slot : i;
			if (p2 == word)
				return true;
			result_size = p2;
			found = true;
		}
	}
	return found;
}

static void first_biggest_fprintf(struct pctx *p, const struct type *t, const struct pconf *conf)
{
	const struct type *bt;
	struct layout_class *bc;
	uint32_t slot;

	if (!find_first_biggest(p->lc, t, 0, &bt, &slot))
		return;
	bc = layout_members(p->lc, bt);
	if (!bc)
		return;
	strbuf_addf(p->sb, "%.*s/* first biggest size base type member: %s %u %u */\n",
		    conf->indent, tabs,
		    bt->composite.members[slot].name ? bt->composite.members[slot].name : "(null)",
		    bc->m[slot].byte_offset, bc->m[slot].byte_size);
}

static size_t class_fprintf_body(struct pctx *p, const struct type *t,
				 const struct pconf *conf);
static size_t union_fprintf_body(struct pctx *p, const struct type *t,
				 const struct pconf *conf);

static size_t enum_fprintf(struct pctx *p, const struct type *t,
			   const struct pconf *conf)
{
	size_t start = p->sb->len;
	int indent = clamp_indent(conf->indent);
	int maxlen = 0;

	for (uint32_t i = 0; i < t->enumeration.nr_values; i++) {
		int len = (int)strlen(nn(t->enumeration.values[i].name));

		if (len > maxlen)
			maxlen = len;
	}
	/* an enum without enumerators (BTF's ENUM of vlen 0, what a
	 * forward-declared enum becomes) is its name alone, as 1.24's
	 * enumeration__fprintf has it */
	if (!t->enumeration.nr_values) {
		strbuf_addf(p->sb, "enum%s%s", t->name ? " " : "", t->name ? t->name : "");
		if (conf->suffix)
			strbuf_addf(p->sb, " %s", conf->suffix);
		return p->sb->len - start;
	}
	strbuf_addf(p->sb, "enum%s%s {\n", t->name ? " " : "", t->name ? t->name : "");
	for (uint32_t i = 0; i < t->enumeration.nr_values; i++) {
		const struct enumerator *e = &t->enumeration.values[i];
		uint64_t v = (uint64_t)e->value;
		bool sgn = t->enumeration.is_signed;

		/* pahole 1.24's BTF loader keeps a BTF_KIND_ENUM value as an
		 * unsigned 32-bit number and an ENUM64 one as unsigned 64-bit,
		 * whatever the kind_flag says (ENUM64 is the only kind wider
		 * than 4 bytes it writes) */
		if (p->lc->cu->from_btf) {
			sgn = false;
			if (t->size <= 4)
				v = (uint32_t)v;
		}
		strbuf_addf(p->sb, "%.*s\t%-*s = ", indent, tabs, maxlen, nn(e->name));
		if (conf->hex)
			strbuf_addf(p->sb, "%#llx", (unsigned long long)v);
		else if (sgn)
			strbuf_addf(p->sb, "%lld", (long long)v);
		else
			strbuf_addf(p->sb, "%llu", (unsigned long long)v);
		strbuf_puts(p->sb, ",\n");
	}
	put_tabs_prec(p, indent);
	strbuf_putc(p->sb, '}');
	if (t->size != 4)
		strbuf_puts(p->sb, " __attribute__((__packed__))");
	if (conf->suffix)
		strbuf_addf(p->sb, " %s", conf->suffix);
	return p->sb->len - start;
}

static size_t array_fprintf(struct pctx *p, const struct type *arr,
			    const char *name, const struct pconf *conf)
{
	const struct type *elem = arr->type;
	size_t printed;

	if (arr->array.nr_dims >= 1 && arr->array.dims[0].count == 0 &&
	    elem && elem->kind == TK_CONST)
		elem = elem->type;
	/* An array whose element type leads back to an array (hostile DWARF
	 * loops): stop nesting; real C nests arrays a few levels at most. */
	if (p->array_depth >= MAX_EXPAND_DEPTH) {
		size_t before = p->sb->len;

		strbuf_addf(p->sb, "<ERROR: array type loop at DIE %#llx> %s",
			    (unsigned long long)arr->die_offset, name ? name : "");
		return p->sb->len - before;
	}
	p->array_depth++;
	printed = type_fprintf(p, elem, name, conf);
	p->array_depth--;
	if (arr->array.is_vector || conf->flat_arrays) {
		/* the elements, their dimensions flattened (none when the
		 * first is 0). A vector: pahole's " __attribute__
		 * ((__vector_size__ (N)))", N those (one if none) times the
		 * size of the element type, typedefs followed; no dimensions.
		 * --flat_arrays: one dimension, as the member rules below. */
		unsigned long long flat = 0;
		uint64_t size = arr->type ? c_type_size(arr->type, p->lc->addr_size) : 0;
		size_t before = p->sb->len;
		bool single = conf->last_member && conf->first_member;

		for (uint32_t i = 0; i < arr->array.nr_dims; i++) {
			uint32_t n = (uint32_t)arr->array.dims[i].count;

			if (n == 0 && i == 0)
				break;
			flat = flat ? flat * n : n;
		}
		if (arr->array.is_vector)
			strbuf_addf(p->sb, " __attribute__ ((__vector_size__ (%llu)))",
				    (flat ? flat : 1) * size);
		else if (flat != 0 || !conf->last_member || single || conf->union_member)
			strbuf_addf(p->sb, "[%llu]", flat);
		else
			strbuf_puts(p->sb, "[]");
		return printed + p->sb->len - before;
	}
	for (uint32_t i = 0; i < arr->array.nr_dims; i++) {
		uint32_t n = (uint32_t)arr->array.dims[i].count;
		bool single = conf->last_member && conf->first_member;
		size_t before = p->sb->len;

		if (n != 0 || !conf->last_member || single || conf->union_member)
			strbuf_addf(p->sb, "[%u]", n);
		else
			strbuf_puts(p->sb, "[]");
		printed += p->sb->len - before;
	}
	return printed;
}

static size_t type_fprintf(struct pctx *p, const struct type *type,
			   const char *name, const struct pconf *conf)
{
	struct strbuf sb_name = STRBUF_INIT, sb_stars = STRBUF_INIT;
	size_t start = p->sb->len;
	bool ptr_name = false, pushed = false, name_too_long = false;
	struct pconf tconf;
	unsigned const_hops = 0;	/* a loop of consts ends (made-up DWARF) */
	bool expand_types = conf->expand_types;
	bool suppress_offset_comment = conf->suppress_offset_comment;
	const char *bare_name = name;

	if (!type)
		goto not_found;

	/* -p: the pointers stripped, a '*' each before the name; only what
	 * was reached through them is expanded, once per level of printing
	 * (1.24's recursivity_level, the type's count on p->printing) */
	if (conf->expand_pointers) {
		unsigned n = 0;

		while (type->kind == TK_POINTER && type->type && n < MAX_TYPEDEF_HOPS) {
			type = type->type;
			n++;
		}
		if (n) {
			if (strlen(nn(name)) + n >= 256) {
				name_too_long = true;
				goto not_found;
			}
			strbuf_fill(&sb_stars, '*', n);
			strbuf_puts(&sb_stars, nn(name));
			name = strbuf_str(&sb_stars);
		}
		expand_types = n > 0;
		suppress_offset_comment = suppress_offset_comment || n > 0;
		if (printing_level(p, type))
			expand_types = false;
		pushed = printing_push(p, type);
		if (!pushed)
			expand_types = false;
	}

	if (expand_types) {
		bool expanded = false;

		int hops = 0;

		while (type && type->kind == TK_TYPEDEF && hops++ < MAX_TYPEDEF_HOPS) {
			strbuf_addf(p->sb, expanded ? " -> %s" : "/* typedef %s",
				    nn(type->name));
			expanded = true;
			type = type->type;
		}
		if (!type || type->kind == TK_TYPEDEF)
			goto not_found;
		if (expanded)
			strbuf_puts(p->sb, " */ ");
	}

	tconf = *conf;
	if (is_struct_union_enum(type)) {
inner_struct:
		tconf.prefix = NULL;
		tconf.suffix = name;
		tconf.emit_stats = false;
		tconf.suppress_offset_comment = suppress_offset_comment;
	}
next_type:
	switch (type->kind) {
	case TK_POINTER:
		if (type->type) {
			const struct type *pt = type->type;

			if (pt->kind == TK_FUNC_PROTO) {
				struct c_ftype f = c_ftype_of_proto(pt);

				c_type_ftype(p->sb, &f, name,
					     C_FT_POINTER | C_FT_PROTOTYPE | p->spell,
					     tconf.type_spacing);
				break;
			}
			if (is_struct_union_enum(pt) && !pt->name) {
				if (ptr_name)
					goto not_found;
				strbuf_addf(&sb_name, "* %s", nn(name));
				name = strbuf_str(&sb_name);
				ptr_name = true;
				tconf.rel_offset = true;
				type = pt;
				tconf.type_spacing -= 8;
				goto inner_struct;
			}
		}
		goto print_default;
	default:
print_default: {
		/* "%-*s %s": the name written in place, then its padding */
		size_t at = p->sb->len, w = fmt_width(tconf.type_spacing);

		c_type_name_f(p->sb, type, 128, p->spell);
		if (p->sb->len - at < w)
			strbuf_fill(p->sb, ' ', w - (p->sb->len - at));
		strbuf_putc(p->sb, ' ');
		strbuf_puts(p->sb, nn(name));
		break;
	}
	case TK_FUNC_PROTO: {
		struct c_ftype f = c_ftype_of_proto(type);

		c_type_ftype(p->sb, &f, name, C_FT_PROTOTYPE | p->spell, tconf.type_spacing);
		break;
	}
	case TK_CONST:
		strbuf_puts(p->sb, "const ");
		tconf.type_spacing -= 6;
		if (type->type && const_hops++ < MAX_TYPEDEF_HOPS) {
			type = type->type;
			goto next_type;
		}
		goto print_default;
	case TK_ARRAY:
		array_fprintf(p, type, name, &tconf);
		break;
	case TK_STRUCT:
	case TK_CLASS:
		if (type->name && !expand_types) {
			/* "%s %-*s %s" */
			strbuf_puts(p->sb, type->kind == TK_CLASS && !p->spell ? "class " : "struct ");
			fmt_left(p->sb, tconf.type_spacing - 7, type->name);
			strbuf_putc(p->sb, ' ');
			strbuf_puts(p->sb, name ? name : "");
		} else if (!can_expand(p, type)) {
			goto print_default;
		} else {
			if (!tconf.suppress_comments)
				layout_holes(p->lc, type);
			tconf.type_spacing -= 8;
			expanded_fprintf(p, type, &tconf);
		}
		break;
	case TK_UNION:
		if (type->name && !expand_types) {
			strbuf_puts(p->sb, "union ");	/* "union %-*s %s" */
			fmt_left(p->sb, tconf.type_spacing - 6, type->name);
			strbuf_putc(p->sb, ' ');
			strbuf_puts(p->sb, name ? name : "");
		} else if (!can_expand(p, type)) {
			goto print_default;
		} else {
			tconf.type_spacing -= 8;
			expanded_fprintf(p, type, &tconf);
		}
		break;
	case TK_ENUM:
		if (type->name) {
			strbuf_puts(p->sb, "enum ");	/* "enum %-*s %s" */
			fmt_left(p->sb, tconf.type_spacing - 5, type->name);
			strbuf_putc(p->sb, ' ');
			strbuf_puts(p->sb, name ? name : "");
		} else {
			enum_fprintf(p, type, &tconf);
		}
		break;
	}
	strbuf_free(&sb_name);
	strbuf_free(&sb_stars);
	if (pushed)
		p->nr_printing--;
	return p->sb->len - start;

not_found:
	/* 1.24 counts only this (printed = fprintf(...)), not the
	 * typedef comment before it: the offset comment is padded as if
	 * that were not there (-p: a name too long for 1.24's buffer with
	 * its '*'s is printed as it came) */
	start = p->sb->len;
	strbuf_addf(p->sb, "%-*s%s> %s", conf->type_spacing, "<ERROR",
		    ptr_name ? ": pointer to pointer to inner struct/union/enum?" : "",
		    nn(name_too_long ? bare_name : name));
	strbuf_free(&sb_name);
	strbuf_free(&sb_stars);
	if (pushed)
		p->nr_printing--;
	return p->sb->len - start;
}

static size_t cacheline_boundary(struct pctx *p, const struct pconf *conf,
				 uint32_t offset)
{
	size_t start = p->sb->len;
	uint32_t cls = conf->cacheline_size;
	uint32_t cacheline = offset / cls;

	if (cacheline > *conf->cachelinep) {
		uint32_t pos = offset % cls, bytes = offset - pos;

		/* "cacheline %u boundary (%u bytes)" [" was %u byte%s ago"] */
		strbuf_puts(p->sb, "/* --- cacheline ");
		fmt_u(p->sb, 0, cacheline);
		strbuf_puts(p->sb, " boundary (");
		fmt_u(p->sb, 0, bytes);
		strbuf_puts(p->sb, " bytes) ");
		if (pos != 0) {
			strbuf_puts(p->sb, "was ");
			fmt_u(p->sb, 0, pos);
			strbuf_puts(p->sb, pos > 1 ? " bytes ago " : " byte ago ");
		}
		strbuf_puts(p->sb, "--- */\n");
		put_tabs(p, conf->indent);
		*conf->cachelinep = cacheline;
	}
	return p->sb->len - start;
}

/*
 * BTF carries no alignment, so pahole 1.24's BTF loader infers it
 * (btf_loader.c class__infer_alignment, run over every struct and union
 * once loaded): walking the data members in order, a member that starts
 * past the end of the previous sized one by DELTA bytes, at an even offset,
 * is taken to be aligned to the power of two above DELTA when that exceeds
 * its type's natural alignment, raised to the cacheline size when the
 * offset is a multiple of it. The struct itself gets the same test with
 * its size as the offset. DELTA is unsigned 32-bit arithmetic, so a member
 * that starts before the previous one ended (union members, bit-fields)
 * wraps to a huge delta: the shift then counts 32, which x86 masks to 0,
 * giving alignment 1, i.e. none. We spell that out rather than rely on it.
 */
struct btf_align {
	bool on;		/* the unit came from BTF */
	uint32_t smallest;	/* end of the last member with a size */
	unsigned cacheline;
};

static uint32_t btf_infer_alignment(uint32_t offset, uint32_t natural,
				    uint32_t smallest, unsigned cacheline)
{
	uint32_t delta = offset - smallest, a = 0;

	if (delta != 0 && offset % 2 == 0) {
		unsigned bits = 32 - (unsigned)__builtin_clz(delta);

		a = bits >= 32 ? 1u : 1u << bits;
	}
	if (a <= natural || a == 1)
		return 0;
	if (a < cacheline && cacheline % a == 0 && offset % cacheline == 0)
		return cacheline;
	return a;
}

/* The alignment to print for member M (LM its layout), advancing BA. */
static uint32_t member_alignment(struct pctx *p, struct btf_align *ba,
				 const struct member *m,
				 const struct layout_member *lm)
{
	const struct type *st;
	uint32_t a;

	if (!ba->on)
		return m->alignment;
	st = c_type_strip(m->type);
	if (!st || lm->byte_size == 0)
		return 0;
	a = btf_infer_alignment(lm->byte_offset,
				layout_natural_alignment(p->lc, st),
				ba->smallest, ba->cacheline);
	ba->smallest = lm->byte_offset + lm->byte_size;
	return a;
}

/* The alignment to print after the closing brace of T, once BA walked
 * all its members. */
static uint32_t type_alignment(struct pctx *p, const struct btf_align *ba,
			       const struct type *t)
{
	if (!ba->on)
		return t->alignment;
	return btf_infer_alignment((uint32_t)t->size,
				   layout_natural_alignment(p->lc, t),
				   ba->smallest, ba->cacheline);
}

/* The comment after a member, as pahole prints it with "%*s" (blanks
 * to SPACING), "%5u" (the offset), ":%2u" for a bit-field (its bit
 * offset) and " %*u" (the size, right-aligned to SIZE_SPACING, 3 less
 * after a bit-field) inside the comment marks; with --hex the numbers
 * are "%#5x", ":%#2x" and "%#*x". */
static void offset_comment(struct strbuf *sb, bool hex, int spacing,
			   uint32_t offset, const struct layout_member *lm,
			   int size_spacing)
{
	if (hex) {
		strbuf_addf(sb, "%*s/* %#5x", spacing, " ", offset);
		if (lm->bitfield_size) {
			strbuf_addf(sb, ":%#2x", lm->bitfield_offset);
			size_spacing -= 3;
		}
		strbuf_addf(sb, " %#*x */", size_spacing, lm->byte_size);
		return;
	}
	/* one reservation for the whole comment: blanks, 3 numbers, marks */
	size_t blanks = fmt_width(spacing) ? fmt_width(spacing) : 1;
	char *start = strbuf_room(sb, blanks + 3 * 20 + fmt_width(size_spacing) + 16), *p;

	if (!start)
		return;
	memset(start, ' ', blanks);
	p = start + blanks;
	memcpy(p, "/* ", 3);
	p = fmt_u_at(p + 3, 5, offset);
	if (lm->bitfield_size) {
		*p++ = ':';
		p = fmt_u_at(p, 2, lm->bitfield_offset);
		size_spacing -= 3;
	}
	*p++ = ' ';
	p = fmt_u_at(p, size_spacing, lm->byte_size);
	memcpy(p, " */", 3);
	strbuf_advance(sb, (size_t)(p + 3 - start));
}

static size_t member_fprintf(struct pctx *p, const struct member *m,
			     const struct layout_member *lm, uint32_t alignment,
			     bool union_member, const struct pconf *conf)
{
	struct pconf sconf = *conf;
	uint32_t offset = lm->byte_offset;
	const struct type *type = m->type;
	size_t start, printed_cl = 0, uncounted = 0;
	int aligned_len = 0;
	const char *name = m->name;

	if (!sconf.rel_offset) {
		offset += sconf.base_offset;
		if (!union_member)
			sconf.base_offset = offset;
	}
	if (!conf->suppress_comments)
		printed_cl = cacheline_boundary(p, conf, offset);

	start = p->sb->len;
	/* C++: a base class is printed commented out, named <ancestor> */
	if (m->is_inheritance) {
		name = "<ancestor>";
		strbuf_puts(p->sb, "/* ");
	}
	if (m->is_static)
		strbuf_puts(p->sb, "static ");
	/* A struct, union or enum is printed without the member name, which
	 * follows its closing brace (after a blank when the type is anonymous). */
	if (is_struct_union_enum(type)) {
		type_fprintf(p, type, NULL, &sconf);
		if (name) {
			if (!type->name)
				strbuf_putc(p->sb, ' ');
			strbuf_puts(p->sb, name);
		}
	} else {
		/* what type_fprintf() counts, as 1.24's spacing below does:
		 * less than it wrote where the type is not found (-E) */
		size_t at = p->sb->len;

		uncounted = type_fprintf(p, type, name, &sconf);
		uncounted = (p->sb->len - at) - uncounted;
	}
	if (m->is_static) {
		if (m->const_value)
			strbuf_addf(p->sb, " = %llu", (unsigned long long)m->const_value);
	} else if (lm->bitfield_size) {
		strbuf_putc(p->sb, ':');
		fmt_u(p->sb, 0, lm->bitfield_size);
	}
	if (!sconf.suppress_aligned && alignment) {
		size_t before = p->sb->len;

		strbuf_addf(p->sb, " __attribute__((__aligned__(%u)))", alignment);
		aligned_len = (int)(p->sb->len - before);
	}
	strbuf_putc(p->sb, ';');

	if (is_struct_union_enum(type) && !type->name) {
		if (!sconf.suppress_offset_comment) {
			int slen = aligned_len + (m->name ? (int)strlen(m->name) : -1);
			int size_spacing = 5;

			if (is_struct(type) && !conf->suppress_packed &&
			    layout_infer_packed(p->lc, type))
				slen += (int)sizeof("__attribute__((__packed__))");
			offset_comment(p->sb, sconf.hex,
				       sconf.type_spacing + sconf.name_spacing - slen - 3,
				       offset, lm, size_spacing);
		}
	} else {
		int spacing;

		if (m->is_inheritance)
			strbuf_puts(p->sb, " */");
		spacing = sconf.type_spacing + sconf.name_spacing -
			  (int)(p->sb->len - start - uncounted);
		if (!sconf.suppress_offset_comment) {
			int size_spacing = 5;

			offset_comment(p->sb, sconf.hex, spacing > 0 ? spacing : 0,
				       offset, lm, size_spacing);
		}
	}
	return p->sb->len - start + printed_cl;
}

static void newline_once(struct pctx *p, int *newline)
{
	if (!(*newline)++)
		strbuf_putc(p->sb, '\n');
}

/* ---- C++: the children of a class in DIE order ---- */

enum child_kind { CH_MEMBER, CH_NESTED, CH_METHOD, CH_USING };

struct child {
	enum child_kind kind;
	const struct member *m;		/* CH_MEMBER: data member or base */
	uint32_t slot;			/* its slot in layout_class.m */
	const struct type *type;	/* CH_NESTED */
	const struct function *fn;	/* CH_METHOD */
	const struct cxx_using *u;	/* CH_USING */
};

/* Merges the data members and bases (layout_next), the nested types, the
 * methods and the using-declarations of a composite by DIE offset: pahole
 * keeps them in one list. */
struct child_iter {
	struct layout_iter li;
	uint32_t nx, mx, ux;
	uint32_t done, total;
};

static uint32_t nr_methods(const struct type *t)
{
	return t->composite.cxx ? t->composite.cxx->nr_methods : 0;
}

static uint32_t nr_usings(const struct type *t)
{
	return t->composite.cxx ? t->composite.cxx->nr_usings : 0;
}

static const struct function *method_at(struct pctx *p, const struct type *t,
					uint32_t k)
{
	uint32_t idx = t->composite.cxx->methods[k];

	return idx < p->lc->cu->nr_functions ? &p->lc->cu->functions[idx] : NULL;
}

static bool next_child(struct pctx *p, const struct type *t,
		       struct child_iter *it, struct child *ch)
{
	struct layout_iter peek = it->li;
	const struct member *m = NULL;
	const struct function *fn = NULL;
	uint32_t slot = 0;
	uint64_t best = UINT64_MAX;
	int which = -1;

	if (layout_next(t, &peek, &m, &slot)) {
		best = m->die_offset;
		which = CH_MEMBER;
	}
	if (it->nx < t->composite.nr_nested &&
	    (which < 0 || t->composite.nested[it->nx]->die_offset < best)) {
		best = t->composite.nested[it->nx]->die_offset;
		which = CH_NESTED;
	}
	while (it->mx < nr_methods(t) && !(fn = method_at(p, t, it->mx)))
		it->mx++;	/* an index out of range: nothing to print */
	if (fn && (which < 0 || fn->die_offset < best)) {
		best = fn->die_offset;
		which = CH_METHOD;
	}
	if (it->ux < nr_usings(t) &&
	    (which < 0 || t->composite.cxx->usings[it->ux].die_offset < best))
		which = CH_USING;
	if (which < 0)
		return false;
	memset(ch, 0, sizeof(*ch));
	ch->kind = (enum child_kind)which;
	if (which == CH_MEMBER) {
		it->li = peek;
		ch->m = m;
		ch->slot = slot;
	} else if (which == CH_NESTED) {
		ch->type = t->composite.nested[it->nx++];
	} else if (which == CH_USING) {
		ch->u = &t->composite.cxx->usings[it->ux++];
	} else {
		ch->fn = fn;
		it->mx++;
	}
	it->done++;
	return true;
}

static const char *const access_names[] = { "public", "protected", "private" };

static const char *access_name(uint8_t a)
{
	return a >= DW_ACCESS_public && a <= DW_ACCESS_private ?
	       access_names[a - DW_ACCESS_public] : NULL;
}

/* tag__accessibility: members, bases and methods carry one; nested types
 * and DW_TAG_variable static members do not. */
static const char *child_access(const struct child *ch)
{
	if (ch->kind == CH_MEMBER)
		return ch->m->is_static_var ? NULL : access_name(ch->m->accessibility);
	if (ch->kind == CH_METHOD)
		return access_name(ch->fn->accessibility);
	return NULL;
}

/* imported_declaration__fprintf: "using ::" and the name of what it
 * imports, a function's or a type's, without the scope it names (1.24's
 * spelling of "using Base::f;") */
static void using_fprintf(struct pctx *p, const struct cxx_using *u)
{
	const struct cu_model *cu = p->lc->cu;
	const struct function *fn = u->target ? cu_model_function_at_offset(cu, u->target) : NULL;
	const struct type *t = !fn && u->target ? cu_model_type_at_offset(cu, u->target) : NULL;

	strbuf_puts(p->sb, "using ::");
	if (fn)
		strbuf_puts(p->sb, nn(fn->name));
	else if (t)
		c_type_name_f(p->sb, t, 128, p->spell);
	else
		strbuf_addf(p->sb, "<ERROR(imported_declaration__fprintf): %#llx not found!>",
			    (unsigned long long)u->target);
}

/* What tag__fprintf prints first with -I: the unit, then the DIE's
 * offset, file and line (a missing file as glibc prints NULL; BTF has no
 * offsets: 0). */
static void decl_info_fprintf(struct pctx *p, const struct pconf *conf,
			      uint64_t die_offset, uint32_t decl_file, uint32_t decl_line)
{
	const struct cu_model *cu = p->lc->cu;
	const char *file;

	if (!conf->show_decl_info)
		return;
	file = decl_file ? cu_model_file_name(cu, decl_file) : "";
	put_tabs(p, conf->indent);
	strbuf_addf(p->sb, "/* Used at: %s */\n", nn(cu->name));
	put_tabs(p, conf->indent);
	strbuf_addf(p->sb, "/* <%llx> %s:%u */\n",
		    cu->from_btf ? 0ULL : (unsigned long long)die_offset,
		    *file ? file : "(null)", decl_line);
}

/* tag__fprintf of a child that is not a data member: a nested type, a
 * method (function__fprintf), a using-declaration or a DW_TAG_variable
 * static member (variable__fprintf). */
static void child_fprintf(struct pctx *p, const struct child *ch,
			  const struct pconf *conf)
{
	if (ch->kind == CH_NESTED) {
		tag_fprintf(p, ch->type, conf);
		return;
	}
	if (ch->kind == CH_USING)
		decl_info_fprintf(p, conf, ch->u->die_offset, ch->u->decl_file, ch->u->decl_line);
	else if (ch->kind == CH_METHOD)
		decl_info_fprintf(p, conf, ch->fn->die_offset, ch->fn->decl_file,
				  ch->fn->decl_line);
	else
		decl_info_fprintf(p, conf, ch->m->die_offset, ch->m->decl_file, ch->m->decl_line);
	put_tabs(p, conf->indent);
	if (ch->kind == CH_USING) {
		using_fprintf(p, ch->u);
	} else if (ch->kind == CH_METHOD) {
		const struct function *fn = ch->fn;
		struct c_ftype f = c_ftype_of_function(fn);
		bool inl = fn->own_inline_attr == DW_INL_declared_inlined ||
			   fn->own_inline_attr == DW_INL_declared_not_inlined;

		if (fn->virtuality == DW_VIRTUALITY_virtual ||
		    fn->virtuality == DW_VIRTUALITY_pure_virtual)
			strbuf_puts(p->sb, "virtual ");
		c_type_ftype(p->sb, &f, fn->name, (inl ? C_FT_INLINE : 0) | p->spell, 0);
		if (fn->virtuality == DW_VIRTUALITY_pure_virtual)
			strbuf_puts(p->sb, " = 0");
	} else if (ch->m->name && ch->m->type) {
		if (ch->m->is_extern_decl)
			strbuf_puts(p->sb, "extern ");
		type_fprintf(p, ch->m->type, ch->m->name, conf);
	}
	strbuf_putc(p->sb, ';');
}

/* class__vtable_fprintf: the methods with a DW_AT_vtable_elem_location, in
 * DIE order. pahole 1.24 prints "(null)" for each linkage name. */
static void vtable_fprintf(struct pctx *p, const struct type *t,
			   const struct pconf *conf)
{
	uint32_t n = 0;

	for (uint32_t k = 0; k < nr_methods(t); k++) {
		const struct function *fn = method_at(p, t, k);

		n += fn && fn->has_vtable_entry;
	}
	if (!n)
		return;
	strbuf_addf(p->sb, "%.*s/* vtable has %u entries: {\n", conf->indent, tabs, n);
	for (uint32_t k = 0; k < nr_methods(t); k++) {
		const struct function *fn = method_at(p, t, k);

		if (fn && fn->has_vtable_entry)
			strbuf_addf(p->sb, "%.*s   [%d] = %s((null)), \n", conf->indent,
				    tabs, (int)fn->vtable_entry, nn(fn->name));
	}
	strbuf_addf(p->sb, "%.*s} */", conf->indent, tabs);
}

static size_t class_fprintf_body(struct pctx *p, const struct type *t,
				 const struct pconf *conf)
{
	size_t start = p->sb->len;
	struct pconf cconf = *conf;
	struct layout_class *c;
	uint32_t cacheline = 0;
	uint32_t sum_bytes = 0, sum_bits = 0, sum_holes = 0, sum_bit_holes = 0;
	uint32_t sum_paddings = 0, sum_forced_holes = 0;
	unsigned nr_paddings = 0, nr_forced = 0, nr_forced_holes = 0;
	uint32_t nr_members, nr_static = 0;
	struct child_iter it = { .total = 0 };
	const char *cur_access = NULL;
	const struct layout_member *last = NULL;
	const struct member *last_m = NULL;
	size_t last_size = 0;
	int newline = 0, indent;
	struct btf_align ba = { p->lc->cu->from_btf, 0, conf->cacheline_size };
	uint32_t t_align;

	strbuf_addf(p->sb, "%s%s%s%s%s", cconf.prefix ? cconf.prefix : "",
		    cconf.prefix ? " " : "", t->kind == TK_CLASS && !p->spell ? "class" : "struct",
		    t->name ? " " : "", t->name ? t->name : "");
	indent = clamp_indent(cconf.indent);
	if (!cconf.cachelinep)
		cconf.cachelinep = &cacheline;
	cconf.indent = indent + 1;

	layout_infer_packed(p->lc, t);
	c = layout_holes(p->lc, t);
	/* C++ bases: " : public Base, virtual protected Other" */
	for (uint32_t j = 0; j < layout_nr_bases(t); j++) {
		const struct member *b = &t->composite.cxx->bases[j];
		const char *acc = access_name(b->accessibility);

		strbuf_puts(p->sb, j ? "," : " :");
		if (b->virtuality == DW_VIRTUALITY_virtual)
			strbuf_puts(p->sb, " virtual");
		if (acc)
			strbuf_addf(p->sb, " %s", acc);
		strbuf_addf(p->sb, " %s", b->type ? nn(b->type->name) : "(null)");
	}
	strbuf_puts(p->sb, " {\n");
	if (!c) {
		put_tabs_prec(p, indent);
		strbuf_putc(p->sb, '}');
		return p->sb->len - start;
	}

	nr_members = c_type_nr_members(t);
	for (uint32_t i = 0; i < t->composite.nr_members; i++)
		nr_static += t->composite.members[i].is_static && !t->composite.members[i].is_static_var;
	it.total = layout_nr_slots(t) + t->composite.nr_nested + nr_methods(t) + nr_usings(t);

	if (c->pre_bit_hole > 0 && !cconf.suppress_comments) {
		newline_once(p, &newline);
		strbuf_addf(p->sb, "%.*s/* XXX %d bit%s hole, try to pack */\n",
			    cconf.indent, tabs, c->pre_bit_hole,
			    c->pre_bit_hole != 1 ? "s" : "");
		sum_bit_holes += c->pre_bit_hole;
	}
	if (c->pre_hole > 0 && !cconf.suppress_comments) {
		newline_once(p, &newline);
		strbuf_addf(p->sb, "%.*s/* XXX %d byte%s hole, try to pack */\n",
			    cconf.indent, tabs, c->pre_hole, c->pre_hole != 1 ? "s" : "");
		sum_holes += c->pre_hole;
	}

	for (;;) {
		struct child ch;
		const struct member *m;
		const struct layout_member *pos;
		const char *acc;
		uint32_t m_align;
		size_t size;

		if (!next_child(p, t, &it, &ch))
			break;
		/* C++ access labels, each time the accessibility changes */
		acc = child_access(&ch);
		if (acc && acc != cur_access) {
			cur_access = acc;
			strbuf_addf(p->sb, "%.*s%s:\n\n", cconf.indent - 1, tabs, acc);
		}
		/* pahole walks the struct's child DIEs in order: the types
		 * defined inside it (clang's anonymous member types, C++
		 * nested types), methods and DW_TAG_variable static members
		 * are printed where their DIE sits, each followed by a blank
		 * line */
		if (ch.kind != CH_MEMBER || ch.m->is_static_var) {
			/* -M: the data members only */
			if (!cconf.show_only_data_members) {
				child_fprintf(p, &ch, &cconf);
				strbuf_puts(p->sb, "\n\n");
			}
			continue;
		}
		m = ch.m;
		pos = &c->m[ch.slot];
		m_align = member_alignment(p, &ba, m, pos);
		if (!cconf.suppress_aligned && m_align) {
			int hole = last ? last->hole : c->pre_hole;

			if (hole != 0) {
				nr_forced_holes++;
				sum_forced_holes += hole;
			}
			nr_forced++;
		}
		if (last && !m->is_inheritance && last_size != 0) {
			if (last->bit_hole != 0 && pos->bitfield_size) {
				uint8_t bitfield_size = (uint8_t)last->bit_hole;

				if (last->byte_offset != pos->byte_offset) {
					strbuf_addf(p->sb, "\n%.*s/* Force alignment to the next boundary: */\n",
						    cconf.indent, tabs);
					bitfield_size = 0;
				}
				put_tabs(p, cconf.indent);
				type_fprintf(p, m->type, "", &cconf);
				strbuf_addf(p->sb, ":%u;\n", bitfield_size);
			}
			if (pos->byte_offset < last->byte_offset ||
			    (pos->byte_offset == last->byte_offset &&
			     last->bitfield_size == 0 && pos->bitfield_size != 0)) {
				if (!cconf.suppress_comments) {
					newline_once(p, &newline);
					strbuf_addf(p->sb, "%.*s/* Bitfield combined with previous fields */\n",
						    cconf.indent, tabs);
				}
			} else {
				long long cc = (long long)pos->byte_offset -
					       (long long)last->byte_offset;

				if (cc > 0 && (size_t)cc < last_size &&
				    !cconf.suppress_comments) {
					newline_once(p, &newline);
					strbuf_addf(p->sb, "%.*s/* Bitfield combined with next fields */\n",
						    cconf.indent, tabs);
				}
			}
		}
		if (newline) {
			strbuf_putc(p->sb, '\n');
			newline = 0;
		}
		/* A member of type void (a type id pahole could not find,
		 * e.g. an _Atomic pahole -J encoded as 0): one error line,
		 * and the member counts for nothing below */
		if (!m->type) {
			put_tabs(p, cconf.indent);
			strbuf_puts(p->sb, "<ERROR(__class__fprintf:1609): 0 not found!>\n");
			continue;
		}

		cconf.last_member = it.done == it.total;
		cconf.first_member = last == NULL;
		size = pos->byte_size;
		put_tabs(p, cconf.indent);
		member_fprintf(p, m, pos, m_align, false, &cconf);

		if (is_struct(m->type) && !cconf.suppress_comments) {
			struct layout_class *tc = layout_holes(p->lc, m->type);
			uint16_t padding;

			layout_infer_packed(p->lc, m->type);
			padding = tc ? (uint16_t)tc->padding : 0;
			if (padding > 0) {
				nr_paddings++;
				sum_paddings += padding;
				newline_once(p, &newline);
				xxx_comment(p, "\n", cconf.indent, "last struct has ",
					    padding, "byte", " of padding */");
			}
		}
		if (pos->bit_hole != 0 && !cconf.suppress_comments) {
			newline_once(p, &newline);
			xxx_comment(p, "\n", cconf.indent, "", pos->bit_hole, "bit",
				    " hole, try to pack */");
			sum_bit_holes += pos->bit_hole;
		}
		if (pos->hole > 0 && !cconf.suppress_comments) {
			newline_once(p, &newline);
			xxx_comment(p, "\n", cconf.indent, "", pos->hole, "byte",
				    " hole, try to pack */");
			sum_holes += pos->hole;
		}
		strbuf_putc(p->sb, '\n');

		/* pahole leaves base classes out of the sums ("for now") */
		if (m->is_inheritance)
			continue;
		if (pos->bitfield_size)
			sum_bits += pos->bitfield_size;
		else
			sum_bytes += pos->byte_size;

		if (!last || last_size == 0 || last->byte_offset != pos->byte_offset)
			last_size = size;
		else if (last->bitfield_size == 0 && pos->bitfield_size != 0)
			last_size = size;
		last = pos;
		last_m = m;
	}

	/* "Force padding": tail padding spelled as bit-fields of the last
	 * member's type, when the unit carries alignment information. */
	if (c->padding != 0 && t->alignment == 0 && !cconf.suppress_force_paddings &&
	    layout_has_alignment_info(p->lc) && last_m) {
		uint64_t sz = c_type_size(last_m->type, p->lc->addr_size);

		if (sz && !(sz & (sz - 1)) && c->padding > (int)p->lc->addr_size) {
			strbuf_addf(p->sb, "\n%.*s/* Force padding: */\n", cconf.indent, tabs);
			for (uint64_t added = 0; added < (uint64_t)c->padding; added += sz) {
				put_tabs(p, cconf.indent);
				type_fprintf(p, last_m->type, "", &cconf);
				strbuf_addf(p->sb, ":%u;\n", (unsigned)(sz * 8));
			}
		}
	}

	if (!cconf.show_only_data_members)
		vtable_fprintf(p, t, &cconf);

	if (cconf.emit_stats) {
		uint32_t cls = cconf.cacheline_size;
		uint64_t tsize = c_type_size(t, p->lc->addr_size);
		long long size_diff;

		strbuf_addf(p->sb, "\n%.*s/* size: %llu, cachelines: %llu, members: %u",
			    cconf.indent, tabs, (unsigned long long)t->size,
			    (unsigned long long)((tsize + cls - 1) / cls), nr_members);
		if (nr_static)
			strbuf_addf(p->sb, ", static members: %u", nr_static);
		strbuf_puts(p->sb, " */\n");
		if (sum_holes > 0 || sum_bit_holes > 0) {
			if (sum_bytes > 0) {
				strbuf_addf(p->sb, "%.*s/* sum members: %u", cconf.indent,
					    tabs, sum_bytes);
				if (sum_holes > 0)
					strbuf_addf(p->sb, ", holes: %d, sum holes: %u",
						    c->nr_holes, sum_holes);
				strbuf_puts(p->sb, " */\n");
			}
			if (sum_bits > 0) {
				strbuf_addf(p->sb, "%.*s/* sum bitfield members: %u bits",
					    cconf.indent, tabs, sum_bits);
				if (sum_bit_holes > 0)
					strbuf_addf(p->sb, ", bit holes: %d, sum bit holes: %u bits",
						    c->nr_bit_holes, sum_bit_holes);
				else
					strbuf_addf(p->sb, " (%u bytes)", sum_bits / 8);
				strbuf_puts(p->sb, " */\n");
			}
		}
		if (c->padding > 0)
			strbuf_addf(p->sb, "%.*s/* padding: %u */\n", cconf.indent, tabs,
				    (unsigned)c->padding);
		if (nr_paddings > 0)
			strbuf_addf(p->sb, "%.*s/* paddings: %u, sum paddings: %u */\n",
				    cconf.indent, tabs, nr_paddings, sum_paddings);
		if (c->bit_padding > 0)
			strbuf_addf(p->sb, "%.*s/* bit_padding: %u bits */\n", cconf.indent,
				    tabs, (unsigned)c->bit_padding);
		if (!cconf.suppress_aligned && nr_forced != 0) {
			strbuf_addf(p->sb, "%.*s/* forced alignments: %u", cconf.indent,
				    tabs, nr_forced);
			if (nr_forced_holes != 0)
				strbuf_addf(p->sb, ", forced holes: %u, sum forced holes: %u",
					    nr_forced_holes, sum_forced_holes);
			strbuf_puts(p->sb, " */\n");
		}
		cacheline = (uint32_t)((cconf.base_offset + t->size) % cls);
		if (cacheline != 0)
			strbuf_addf(p->sb, "%.*s/* last cacheline: %u bytes */\n",
				    cconf.indent, tabs, cacheline);
		if (cconf.first_biggest && nr_members != 0)
			first_biggest_fprintf(p, t, &cconf);
		size_diff = (long long)(uint32_t)t->size * 8 -
			    ((long long)sum_bytes * 8 + sum_bits + (long long)sum_holes * 8 +
			     sum_bit_holes + (long long)c->padding * 8 + c->bit_padding);
		if (size_diff && nr_members != 0)
			strbuf_addf(p->sb, "\n%.*s/* BRAIN FART ALERT! %llu bytes != %u (member bytes) + %u (member bits) + %u (byte holes) + %u (bit holes), diff = %lld bits */\n",
				    cconf.indent, tabs, (unsigned long long)t->size,
				    sum_bytes, sum_bits, sum_holes, sum_bit_holes, size_diff);
	}

	put_tabs_prec(p, indent);
	strbuf_putc(p->sb, '}');
	if (c->is_packed && !cconf.suppress_packed)
		strbuf_puts(p->sb, " __attribute__((__packed__))");
	if (cconf.suffix)
		strbuf_addf(p->sb, " %s", cconf.suffix);
	t_align = type_alignment(p, &ba, t);
	if (!cconf.suppress_aligned && t_align != 0 && !c->is_packed)
		strbuf_addf(p->sb, " __attribute__((__aligned__(%u)))", t_align);
	return p->sb->len - start;
}

static size_t union_fprintf_body(struct pctx *p, const struct type *t,
				 const struct pconf *conf)
{
	size_t start = p->sb->len;
	int indent = clamp_indent(conf->indent);
	struct pconf uconf = *conf;
	struct layout_class *c;
	uint32_t cacheline = 0, initial;
	struct btf_align ba = { p->lc->cu->from_btf, 0, conf->cacheline_size };

	if (conf->prefix)
		strbuf_addf(p->sb, "%s ", conf->prefix);
	strbuf_addf(p->sb, "union%s%s {\n", t->name ? " " : "", t->name ? t->name : "");
	uconf.indent = indent + 1;
	layout_union_infer_packed(p->lc, t);
	c = layout_members(p->lc, t);
	if (!uconf.cachelinep)
		uconf.cachelinep = &cacheline;
	initial = *uconf.cachelinep;
	for (uint32_t i = 0; c && i < t->composite.nr_members; i++) {
		const struct member *m = &t->composite.members[i];

		/* a DW_TAG_variable is no member for union__fprintf */
		if (m->is_static_var)
			continue;
		uconf.union_member = true;
		put_tabs(p, uconf.indent);
		member_fprintf(p, m, &c->m[i], member_alignment(p, &ba, m, &c->m[i]),
			       true, &uconf);
		strbuf_putc(p->sb, '\n');
		*uconf.cachelinep = initial;
	}
	put_tabs_prec(p, indent);	/* "%.*s}%s%s" */
	strbuf_putc(p->sb, '}');
	put_suffix(p, conf);
	return p->sb->len - start;
}

/*
 * A struct or union that can_expand() refuses (a nested type or a typedef
 * leading back to a type being printed, as hostile DWARF can make them;
 * too deep; too much text): its name, as a member of it is printed then,
 * and the name it is printed under.
 */
static size_t refused_fprintf(struct pctx *p, const struct type *t,
			      const struct pconf *conf)
{
	size_t start = p->sb->len;

	c_type_name_f(p->sb, t, 128, p->spell);
	put_suffix(p, conf);
	return p->sb->len - start;
}

/* The body of struct or union T, with T on the open stack: the only way
 * into a body, so the open stack bounds the recursion. The caller has
 * asked can_expand() (type_fprintf() prints a refused member its own
 * way; composite_fprintf() for the rest). */
static size_t expanded_fprintf(struct pctx *p, const struct type *t,
			       const struct pconf *conf)
{
	size_t n;

	if (!open_type(p, t))
		return refused_fprintf(p, t, conf);
	n = t->kind == TK_UNION ? union_fprintf_body(p, t, conf)
				: class_fprintf_body(p, t, conf);
	p->nr_open--;
	return n;
}

/* A struct or union printed whole where no member's line frames it: a
 * top-level type, a nested type, a typedef of an anonymous one. */
static size_t composite_fprintf(struct pctx *p, const struct type *t,
				const struct pconf *conf)
{
	if (!can_expand(p, t))
		return refused_fprintf(p, t, conf);
	return expanded_fprintf(p, t, conf);
}

static size_t typedef_fprintf(struct pctx *p, const struct type *t,
			      const struct pconf *conf)
{
	size_t start = p->sb->len;
	const struct type *tt = t->type;
	const char *name = nn(t->name);
	struct pconf tconf;
	struct strbuf tn = STRBUF_INIT;

	if (!tt) {
		strbuf_addf(p->sb, "typedef void %s", name);
		return p->sb->len - start;
	}
	switch (tt->kind) {
	case TK_ARRAY:
		strbuf_puts(p->sb, "typedef ");
		array_fprintf(p, tt, name, conf);
		return p->sb->len - start;
	case TK_POINTER:
		if (!tt->type || tt->type->kind != TK_FUNC_PROTO)
			break;
		/* fall through */
	case TK_FUNC_PROTO: {
		bool is_ptr = tt->kind == TK_POINTER;
		struct c_ftype f = c_ftype_of_proto(is_ptr ? tt->type : tt);

		strbuf_puts(p->sb, "typedef ");
		c_type_ftype(p->sb, &f, name,
			     C_FT_PROTOTYPE | (is_ptr ? C_FT_POINTER : 0) | p->spell, 0);
		return p->sb->len - start;
	}
	case TK_STRUCT:
	case TK_CLASS:
		if (tt->name) {
			strbuf_addf(p->sb, "typedef struct %s %s", tt->name, name);
			return p->sb->len - start;
		}
		tconf = *conf;
		tconf.suffix = name;
		strbuf_puts(p->sb, "typedef ");
		composite_fprintf(p, tt, &tconf);
		return p->sb->len - start;
	case TK_ENUM:
		if (tt->name) {
			strbuf_addf(p->sb, "typedef enum %s %s", tt->name, name);
			return p->sb->len - start;
		}
		tconf = *conf;
		tconf.suffix = name;
		strbuf_puts(p->sb, "typedef ");
		enum_fprintf(p, tt, &tconf);
		return p->sb->len - start;
	default:
		break;
	}
	c_type_name_f(&tn, tt, 512, p->spell);
	strbuf_addf(p->sb, "typedef %s %s", strbuf_str(&tn), name);
	strbuf_free(&tn);
	return p->sb->len - start;
}

/* The DWARF tag of a type as pahole names it ("const_type"), for the
 * kinds tag__fprintf has no printer for. */
static const char *dwarf_tag_name_of(const struct type *t)
{
	switch (t->kind) {
	case TK_BASE:
		return "base_type";
	case TK_POINTER:
		return "pointer_type";
	case TK_REFERENCE:
		return "reference_type";
	case TK_RVALUE_REFERENCE:
		return "rvalue_reference_type";
	case TK_PTR_TO_MEMBER:
		return "ptr_to_member_type";
	case TK_CONST:
		return "const_type";
	case TK_VOLATILE:
		return "volatile_type";
	case TK_RESTRICT:
		return "restrict_type";
	case TK_ATOMIC:
		return "atomic_type";
	case TK_UNSPECIFIED:
		return "unspecified_type";
	default:
		return "(null)";
	}
}

/* tag__fprintf: the indent, the type, ';'. */
static size_t tag_fprintf(struct pctx *p, const struct type *t,
			  const struct pconf *conf)
{
	size_t start = p->sb->len;

	decl_info_fprintf(p, conf, t->die_offset, t->decl_file, t->decl_line);
	put_tabs(p, conf->indent);
	switch (t->kind) {
	case TK_ENUM:
		enum_fprintf(p, t, conf);
		break;
	case TK_TYPEDEF:
		typedef_fprintf(p, t, conf);
		break;
	case TK_STRUCT:
	case TK_CLASS:
	case TK_UNION:
		composite_fprintf(p, t, conf);
		break;
	case TK_ARRAY:
		array_fprintf(p, t, "array", conf);
		break;
	case TK_FUNC_PROTO: {
		struct c_ftype f = c_ftype_of_proto(t);

		c_type_ftype(p->sb, &f, NULL, C_FT_PROTOTYPE | p->spell, 0);
		break;
	}
	default:
		strbuf_addf(p->sb, "/* tag__fprintf: %s tag not supported! */",
			    dwarf_tag_name_of(t));
		break;
	}
	strbuf_putc(p->sb, ';');
	return p->sb->len - start;
}

void pahole_print_type(struct strbuf *sb, struct layout_cache *lc,
		       const struct type *t, const char *prefix,
		       const char *suffix, const struct pahole_print_opts *o)
{
	struct pctx p = { .sb = sb, .lc = lc, .start = sb->len,
			  .spell = o->classes_as_structs ? C_FT_CLASSES_AS_STRUCTS : 0,
			  .expand_pointers = o->expand_pointers };
	struct pconf conf = {
		.prefix = prefix,
		.suffix = suffix,
		.type_spacing = 26,
		.name_spacing = o->expand_types ? 55 : (t->kind == TK_UNION ? 21 : 23),
		.cacheline_size = o->cacheline_size ? o->cacheline_size : 64,
		.emit_stats = !o->quiet,
		.suppress_comments = o->quiet,
		.suppress_offset_comment = o->quiet,
		.expand_types = o->expand_types,
		.hex = o->hex,
		.rel_offset = o->rel_offset,
		.suppress_packed = o->suppress_packed,
		.suppress_aligned = o->suppress_aligned,
		.show_decl_info = o->show_decl_info,
		.flat_arrays = o->flat_arrays,
		.suppress_force_paddings = o->suppress_force_paddings,
		.show_only_data_members = o->show_only_data_members,
		.first_biggest = o->first_biggest,
		.expand_pointers = o->expand_pointers,
	};

	/* 1.24 with -E: the type itself counts as being printed (-p's
	 * levels) */
	if (o->expand_types)
		printing_push(&p, t);
	tag_fprintf(&p, t, &conf);
}

void pahole_print_size_line(struct strbuf *sb, struct layout_cache *lc,
			    const struct type *t, char sep)
{
	struct layout_class *c = layout_holes(lc, t);
	int holes = (t->kind == TK_UNION || !c) ? 0 : c->nr_holes;

	strbuf_addf(sb, "%s%c%d%c%u\n", nn(t->name), sep, (int)t->size, sep, (unsigned)holes);
}
