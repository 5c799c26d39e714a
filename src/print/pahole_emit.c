// SPDX-License-Identifier: GPL-2.0-only
/*
 * pahole --compile: a struct's needs before it (print/pahole_emit.h).
 *
 * 1.24 keeps two lists, the definitions printed and the forward
 * declarations printed, and flags on each type. The lists here are one
 * table by kind and name (what 1.24's lookups ask: "is a NAME of this
 * kind defined?", "of another kind?", "is a type named NAME forward
 * declared?"); the flags are per unit, by type id. A type counts in the
 * declared list until it is defined (1.24 moves it from one list to the
 * other), so a struct declared, then defined, is declared again when
 * reached through a pointer by another type of its name.
 */
#include "print/pahole_emit.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "print/pahole_print.h"

enum emit_kind { EK_STRUCT, EK_UNION, EK_CLASS, EK_ENUM, EK_TYPEDEF, EK_NAME };

struct emit_entry {
	char *name;		/* NULL: a free slot */
	uint8_t kind;		/* enum emit_kind; EK_NAME counts declarations */
	bool defined;
	uint32_t declared;	/* EK_NAME: types of this name in the declared list */
};

/* Per type of the current unit */
enum {
	EF_DEF_EMITTED = 1 << 0,	/* 1.24's definition_emitted */
	EF_FWD_EMITTED = 1 << 1,	/* fwd_decl_emitted */
	EF_IN_DEFINED = 1 << 2,		/* on the definitions' list */
	EF_IN_DECLARED = 1 << 3,	/* on the declarations' list */
};

/* Recursion bound: typedefs and functions can refer to each other in a
 * loop only in broken input; structs cannot (they are marked before their
 * members are visited). */
#define MAX_EMIT_DEPTH 512

struct pahole_emit {
	struct emit_entry *slots;
	size_t nr_slots, nr_used;
	/* names given by renaming (NAME__1), owned here: they outlive the
	 * unit whose type carries one */
	char **renames;
	size_t nr_renames, alloc_renames;
	/* the current unit */
	struct cu_model *cu;
	struct layout_cache *lc;
	uint8_t *flags;
	const char **declared_as;	/* the name a type was declared under */
	struct strbuf *out;
	unsigned depth;
	bool oom;
	/* pfunct's emitter (pahole_emit_create_pfunct): DWARF declarations
	 * are printed as the (empty) structs 1.24 prints them */
	bool decls_as_types;
};

struct pahole_emit *pahole_emit_create(void)
{
	struct pahole_emit *pe = calloc(1, sizeof(*pe));

	if (!pe)
		return NULL;
	pe->nr_slots = 1024;
	pe->slots = calloc(pe->nr_slots, sizeof(*pe->slots));
	if (!pe->slots) {
		free(pe);
		return NULL;
	}
	return pe;
}

struct pahole_emit *pahole_emit_create_pfunct(void)
{
	struct pahole_emit *pe = pahole_emit_create();

	if (pe)
		pe->decls_as_types = true;
	return pe;
}

void pahole_emit_destroy(struct pahole_emit *pe)
{
	if (!pe)
		return;
	for (size_t i = 0; i < pe->nr_slots; i++)
		free(pe->slots[i].name);
	for (size_t i = 0; i < pe->nr_renames; i++)
		free(pe->renames[i]);
	free(pe->renames);
	free(pe->slots);
	free(pe->flags);
	free(pe->declared_as);
	free(pe);
}

static uint64_t name_hash(uint8_t kind, const char *name)
{
	uint64_t h = 0xcbf29ce484222325ull ^ kind;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 0x100000001b3ull;
	return h;
}

static int grow(struct pahole_emit *pe)
{
	size_t n = pe->nr_slots * 2;
	struct emit_entry *s = calloc(n, sizeof(*s));

	if (!s)
		return -1;
	for (size_t i = 0; i < pe->nr_slots; i++) {
		const struct emit_entry *e = &pe->slots[i];
		size_t j;

		if (!e->name)
			continue;
		for (j = name_hash(e->kind, e->name) & (n - 1); s[j].name; j = (j + 1) & (n - 1))
			;
		s[j] = *e;
	}
	free(pe->slots);
	pe->slots = s;
	pe->nr_slots = n;
	return 0;
}

/* The entry of (KIND, NAME); made when ADD, else NULL when there is none
 * (or out of memory: pe->oom). */
static struct emit_entry *entry(struct pahole_emit *pe, uint8_t kind, const char *name, bool add)
{
	size_t mask, j;

	if (add && 2 * (pe->nr_used + 1) > pe->nr_slots && grow(pe)) {
		pe->oom = true;
		return NULL;
	}
	mask = pe->nr_slots - 1;
	for (j = name_hash(kind, name) & mask; pe->slots[j].name; j = (j + 1) & mask)
		if (pe->slots[j].kind == kind && !strcmp(pe->slots[j].name, name))
			return &pe->slots[j];
	if (!add)
		return NULL;
	pe->slots[j].name = strdup(name);
	if (!pe->slots[j].name) {
		pe->oom = true;
		return NULL;
	}
	pe->slots[j].kind = kind;
	pe->nr_used++;
	return &pe->slots[j];
}

static uint8_t kind_of(const struct type *t)
{
	switch (t->kind) {
	case TK_UNION:
		return EK_UNION;
	case TK_CLASS:
		return EK_CLASS;
	case TK_ENUM:
		return EK_ENUM;
	case TK_TYPEDEF:
		return EK_TYPEDEF;
	default:
		return EK_STRUCT;
	}
}

/* T is a type of the unit (not a placeholder of a reference that left
 * it), so it has flags */
static bool own(const struct pahole_emit *pe, const struct type *t)
{
	return t->id < pe->cu->nr_types && pe->cu->types[t->id] == t;
}

static bool is_composite(const struct type *t)
{
	return t->kind == TK_STRUCT || t->kind == TK_UNION || t->kind == TK_CLASS;
}

/* type_emissions__find_definition: a NAME of T's kind printed */
static bool find_def(struct pahole_emit *pe, uint8_t kind, const char *name)
{
	const struct emit_entry *e = name ? entry(pe, kind, name, false) : NULL;

	return e && e->defined;
}

/* ... and find_shadow_definition: a struct, union or enum of NAME, of
 * another kind than T's */
static bool find_shadow(struct pahole_emit *pe, uint8_t kind, const char *name)
{
	static const uint8_t kinds[] = { EK_STRUCT, EK_UNION, EK_ENUM };

	for (size_t i = 0; i < sizeof(kinds); i++)
		if (kinds[i] != kind && find_def(pe, kinds[i], name))
			return true;
	return false;
}

static void add_def(struct pahole_emit *pe, const struct type *t)
{
	uint8_t *f = &pe->flags[t->id];

	*f |= EF_DEF_EMITTED;
	if (*f & EF_IN_DECLARED) {
		struct emit_entry *d = entry(pe, EK_NAME, pe->declared_as[t->id], false);

		if (d && d->declared)
			d->declared--;
		*f &= (uint8_t)~EF_IN_DECLARED;
	}
	*f |= EF_IN_DEFINED;
	if (t->name) {
		struct emit_entry *e = entry(pe, kind_of(t), t->name, true);

		if (e)
			e->defined = true;
	}
}

static void add_fwd(struct pahole_emit *pe, const struct type *t)
{
	uint8_t *f = &pe->flags[t->id];
	struct emit_entry *d;

	*f |= EF_FWD_EMITTED;
	if (*f & (EF_IN_DEFINED | EF_IN_DECLARED))
		return;
	d = entry(pe, EK_NAME, t->name, true);
	if (!d)
		return;
	d->declared++;
	pe->declared_as[t->id] = d->name;
	*f |= EF_IN_DECLARED;
}

/* 1.24's renaming of a struct or union named as another kind printed
 * before: NAME__1, for good (every later mention of the type) */
static const char *rename_shadowed(struct pahole_emit *pe, const struct type *t)
{
	size_t n = strlen(t->name);
	char *name;

	if (pe->nr_renames == pe->alloc_renames) {
		size_t alloc = pe->alloc_renames ? 2 * pe->alloc_renames : 16;
		char **r = realloc(pe->renames, alloc * sizeof(*r));

		if (!r)
			return NULL;
		pe->renames = r;
		pe->alloc_renames = alloc;
	}
	name = malloc(n + 4);
	if (!name)
		return NULL;
	memcpy(name, t->name, n);
	memcpy(name + n, "__1", 4);
	pe->renames[pe->nr_renames++] = name;
	pe->cu->types[t->id]->name = name;
	return name;
}

/* tag__fprintf with a fresh configuration (only the summaries), and ";\n".
 * That configuration has no has_alignment_info: no "Force padding" lines,
 * on DWARF too. pahole's emitter prints the data members only: what 1.24
 * prints from BTF, which has nothing else, and what compiles from DWARF
 * (clang's anonymous enums nested in a struct would be declared twice,
 * C++ methods would not compile); pfunct's prints what pfunct 1.24 does. */
static void print_type(struct pahole_emit *pe, const struct type *t, const char *prefix,
		       const char *suffix)
{
	static const struct pahole_print_opts pfunct_opts = { .suppress_force_paddings = true };
	static const struct pahole_print_opts pahole_opts = { .suppress_force_paddings = true,
							      .show_only_data_members = true };

	if (!t->name && !prefix && !suffix)
		return;
	pahole_print_type(pe->out, pe->lc, t, prefix, suffix,
			  pe->decls_as_types ? &pfunct_opts : &pahole_opts);
	strbuf_putc(pe->out, '\n');
}

static int emit_tag(struct pahole_emit *pe, const struct type *t);
static int emit_typedef(struct pahole_emit *pe, const struct type *d);
static int emit_fwd(struct pahole_emit *pe, const struct type *t);

/* type__emit_definitions */
static int emit_defs(struct pahole_emit *pe, const struct type *t)
{
	uint8_t kind = kind_of(t);

	if (!own(pe, t) || (pe->flags[t->id] & EF_DEF_EMITTED))
		return 0;
	if (find_def(pe, kind, t->name)) {
		pe->flags[t->id] |= EF_DEF_EMITTED;
		return 0;
	}
	if (t->kind == TK_TYPEDEF)
		return emit_typedef(pe, t);
	/* DWARF (not 1.24's: it takes BTF only): a declaration is no
	 * definition, which a later unit may print */
	if (t->declaration && !pe->cu->from_btf && !pe->decls_as_types) {
		emit_fwd(pe, t);
		return 0;
	}
	if (t->name && find_shadow(pe, kind, t->name)) {
		const char *name = rename_shadowed(pe, t);

		if (!name) {
			pe->oom = true;
			return 0;
		}
		if (find_def(pe, kind, name)) {
			pe->flags[t->id] |= EF_DEF_EMITTED;
			return 0;
		}
	}
	add_def(pe, t);
	layout_check_unnatural(pe->lc, t);
	/* 1.24's member list holds the C++ bases first (DW_TAG_inheritance
	 * comes before the members); a class in a namespace has its bases
	 * left out (as 1.24 prints them: docs/compat-pfunct.md) */
	for (uint32_t i = 0; t->composite.cxx && t->scope != TS_NAMESPACE &&
			     i < t->composite.cxx->nr_bases; i++)
		if (emit_tag(pe, t->composite.cxx->bases[i].type) == 1)
			strbuf_putc(pe->out, '\n');
	for (uint32_t i = 0; i < t->composite.nr_members; i++)
		if (emit_tag(pe, t->composite.members[i].type) == 1)
			strbuf_putc(pe->out, '\n');
	return 1;
}

/* type__emit_fwd_decl */
static int emit_fwd(struct pahole_emit *pe, const struct type *t)
{
	const struct emit_entry *d;

	if (!own(pe, t) || (pe->flags[t->id] & EF_FWD_EMITTED) || !t->name)
		return 0;
	d = entry(pe, EK_NAME, t->name, false);
	if (d && d->declared) {
		pe->flags[t->id] |= EF_FWD_EMITTED;
		return 0;
	}
	strbuf_addf(pe->out, "%s %s;\n",
		    t->kind == TK_UNION ? "union" : t->kind == TK_CLASS ? "class" : "struct",
		    t->name);
	add_fwd(pe, t);
	return 1;
}

/* ftype__emit_definitions */
static int emit_ftype(struct pahole_emit *pe, const struct type *f)
{
	int printed = emit_tag(pe, f->type);

	for (uint32_t i = 0; i < f->proto.nr_params; i++)
		if (emit_tag(pe, f->proto.params[i].type))
			printed = 1;
	if (printed)
		strbuf_putc(pe->out, '\n');
	return printed;
}

/* enumeration__emit_definitions: 1.24 marks an enum without enumerators
 * printed too ("enum fe;" once) */
static int emit_enum(struct pahole_emit *pe, const struct type *e, const char *suffix)
{
	if (!own(pe, e) || (pe->flags[e->id] & EF_DEF_EMITTED) ||
	    (e->declaration && !pe->cu->from_btf && !pe->decls_as_types))
		return 0;
	if (find_def(pe, EK_ENUM, e->name)) {
		pe->flags[e->id] |= EF_DEF_EMITTED;
		return 0;
	}
	print_type(pe, e, NULL, suffix);
	add_def(pe, e);
	return 1;
}

/* typedef__emit_definitions */
static int emit_typedef(struct pahole_emit *pe, const struct type *d)
{
	const struct type *t = d->type;

	if (!own(pe, d) || (pe->flags[d->id] & EF_DEF_EMITTED))
		return 0;
	if (find_def(pe, EK_TYPEDEF, d->name)) {
		pe->flags[d->id] |= EF_DEF_EMITTED;
		return 0;
	}
	if (++pe->depth > MAX_EMIT_DEPTH) {
		pe->depth--;
		return 0;
	}
	switch (t ? t->kind : TK_NR) {
	case TK_ARRAY:
		emit_tag(pe, t);
		break;
	case TK_TYPEDEF:
		emit_typedef(pe, t);
		break;
	case TK_POINTER:
		if (t->type && t->type->kind == TK_TYPEDEF)
			emit_typedef(pe, t->type);
		else if (t->type && t->type->kind == TK_FUNC_PROTO)
			emit_ftype(pe, t->type);
		break;
	case TK_FUNC_PROTO:
		emit_ftype(pe, t);
		break;
	case TK_ENUM:
		if (!t->name) {
			strbuf_puts(pe->out, "typedef ");
			emit_enum(pe, t, d->name);
			goto out;
		}
		emit_enum(pe, t, NULL);
		break;
	case TK_STRUCT:
	case TK_UNION:
	case TK_CLASS:
		if (!t->name) {
			emit_defs(pe, t);
			print_type(pe, t, "typedef", d->name);
			goto out;
		}
		if (emit_defs(pe, t))
			print_type(pe, t, NULL, NULL);
		break;
	default:
		break;
	}
	if (!(pe->flags[d->id] & EF_DEF_EMITTED))
		print_type(pe, d, NULL, NULL);
out:
	add_def(pe, d);
	pe->depth--;
	return 1;
}

/* tag__emit_definitions: what a member's, parameter's or return type
 * needs; 1 when a blank line follows */
static int emit_tag(struct pahole_emit *pe, const struct type *t)
{
	bool pointer = false;
	int ret = 0;

	if (++pe->depth > MAX_EMIT_DEPTH) {
		pe->depth--;
		return 0;
	}
	for (unsigned hops = 0; t && hops < MAX_EMIT_DEPTH; hops++) {
		switch (t->kind) {
		case TK_POINTER:
		case TK_REFERENCE:
			pointer = true;
			t = t->type;
			continue;
		case TK_ARRAY:
		case TK_CONST:
		case TK_VOLATILE:
		case TK_ATOMIC:
			t = t->type;
			continue;
		case TK_TYPEDEF:
			ret = emit_typedef(pe, t);
			break;
		case TK_ENUM:
			ret = t->name ? emit_enum(pe, t, NULL) : 0;
			break;
		case TK_STRUCT:
		case TK_UNION:
		case TK_CLASS:
			if (pointer) {
				if (!t->name)
					emit_defs(pe, t);
				ret = emit_fwd(pe, t);
				break;
			}
			if (emit_defs(pe, t))
				print_type(pe, t, NULL, NULL);
			ret = 1;
			break;
		case TK_FUNC_PROTO:
			ret = emit_ftype(pe, t);
			break;
		default:
			break;
		}
		break;
	}
	pe->depth--;
	return ret;
}

int pahole_emit_unit(struct pahole_emit *pe, struct cu_model *cu, struct layout_cache *lc)
{
	size_t n = cu->nr_types ? cu->nr_types : 1;

	free(pe->flags);
	free(pe->declared_as);
	pe->cu = cu;
	pe->lc = lc;
	pe->flags = calloc(n, sizeof(*pe->flags));
	pe->declared_as = calloc(n, sizeof(*pe->declared_as));
	if (!pe->flags || !pe->declared_as) {
		pe->oom = true;
		return -1;
	}
	return 0;
}

int pahole_emit_struct(struct pahole_emit *pe, const struct type *t, struct strbuf *out)
{
	pe->out = out;
	if (is_composite(t) && emit_defs(pe, t))
		print_type(pe, t, NULL, NULL);
	strbuf_putc(out, '\n');
	return pe->oom ? -1 : 0;
}

/* pfunct's strip: pointers (not references) and qualifiers */
static const struct type *strip_pointers(const struct type *t)
{
	for (unsigned hops = 0; t && hops < MAX_EMIT_DEPTH; hops++) {
		switch (t->kind) {
		case TK_POINTER:
		case TK_CONST:
		case TK_VOLATILE:
		case TK_RESTRICT:
		case TK_ATOMIC:
			t = t->type;
			continue;
		default:
			return t;
		}
	}
	return NULL;
}

/* tag__is_type (struct, union, class, enum, typedef, rvalue reference)
 * of the unit, whose definition is not out yet */
static bool pending_type(const struct pahole_emit *pe, const struct type *t)
{
	switch (t->kind) {
	case TK_STRUCT:
	case TK_UNION:
	case TK_CLASS:
	case TK_ENUM:
	case TK_TYPEDEF:
	case TK_RVALUE_REFERENCE:
		return own(pe, t) && !(pe->flags[t->id] & EF_DEF_EMITTED);
	default:
		return false;
	}
}

/* type__emit_definitions for any kind tag__is_type() takes */
static void emit_type_defs(struct pahole_emit *pe, const struct type *t)
{
	switch (t->kind) {
	case TK_TYPEDEF:
		emit_typedef(pe, t);
		return;
	case TK_STRUCT:
	case TK_UNION:
	case TK_CLASS:
		emit_defs(pe, t);
		return;
	default:
		/* an enum (its enumerators need nothing), an rvalue
		 * reference: marked, found by name or added */
		if (find_def(pe, kind_of(t), t->name)) {
			pe->flags[t->id] |= EF_DEF_EMITTED;
			return;
		}
		add_def(pe, t);
		return;
	}
}

int pahole_emit_function(struct pahole_emit *pe, const struct type *ret,
			 const struct param *params, uint32_t nr_params, struct strbuf *out)
{
	const struct type *t = strip_pointers(ret);

	pe->out = out;
	if (t && pending_type(pe, t)) {
		emit_type_defs(pe, t);
		print_type(pe, t, NULL, NULL);
	}
	for (uint32_t i = 0; i < nr_params; i++) {
		t = strip_pointers(params[i].type);
		if (!t)
			continue;
		if (t->kind == TK_FUNC_PROTO) {
			emit_ftype(pe, t);
		} else if (pending_type(pe, t)) {
			emit_type_defs(pe, t);
			if (t->kind != TK_TYPEDEF)
				print_type(pe, t, NULL, NULL);
			strbuf_putc(out, '\n');
		}
	}
	return pe->oom ? -1 : 0;
}
