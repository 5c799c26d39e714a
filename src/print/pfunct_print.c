// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfunct's listing: selection, cross-unit dedup and text (see pfunct_print.h
 * for the rules).
 *
 *   entries[]   every kept function, in the order pfunct keeps them; printed
 *               back to front. Each holds the offsets in `strs` of its name,
 *               its unit's name and, when a prototype is needed, its rendered
 *               text, plus the numbers the formatters need.
 *   slots       open-addressing table: name -> index of the most recently
 *               kept entry of that name (pfunct's list search from the head).
 *               Each slot keeps the name's hash: a probe compares hashes
 *               before names, and growing never touches the names.
 *   tnames      the current unit's type spellings (prototypes only): type
 *               -> its c_type_name_n(, 128) text, rendered once per unit
 *               instead of once per use. Slots carry the unit's generation,
 *               so a new unit starts with an empty cache without clearing.
 */
#include "print/pfunct_print.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf/dw_const.h"
#include "print/c_type.h"
#include "print/fn_table.h"
#include "print/layout.h"
#include "print/pahole_emit.h"
#include "print/pfunct_body.h"
#include "print/pfunct_fn.h"
#include "util/vec.h"

struct pfunct_entry {
	size_t name_off;	/* into strs */
	size_t cu_name_off;	/* into strs */
	uint64_t size;
	size_t text_off;	/* into strs; SIZE_MAX when not rendered */
	uint32_t nr_parms;
	uint32_t nr_variables;	/* -S */
	uint32_t nr_labels;	/* -g */
	uint32_t nr_files;	/* definitions seen (the -V count) */
	bool external;
	size_t body_off;	/* into strs (-i, -T); SIZE_MAX when not rendered */
	/* -I: its block's inline expansions and their bytes */
	uint32_t nr_inline_expansions;
	uint64_t size_inline_expansions;
	/* -t: the expansions of it in its unit, and in its merged
	 * duplicates' */
	uint32_t nr_expansions;
	uint64_t size_expansions;
};

DEFINE_VEC(pfunct_entry_vec, struct pfunct_entry)

struct pfunct_slot {
	uint32_t hash;
	uint32_t entry;		/* entry index + 1; 0: empty */
};

struct tname_slot {
	const struct type *type;
	uint32_t gen;		/* the unit it was filled in; stale otherwise */
	uint32_t len;
	size_t off;		/* into tnames.strs */
};

/* Type spellings of the current unit (see the top of the file). */
struct tname_cache {
	struct tname_slot *slots;
	size_t nr_slots;	/* a power of two, or 0 */
	size_t used;		/* slots of the current generation */
	uint32_t gen;		/* 0: never used */
	struct strbuf strs;
};

struct pfunct_printer {
	struct pfunct_options opts;
	struct pfunct_entry_vec entries;
	struct pfunct_slot *slots;
	size_t nr_slots;	/* a power of two */
	struct tname_cache tnames;
	/* NUL-separated copies of names, unit names and prototypes: nothing
	 * points into a cu_model or the file once add_cu() returns. */
	struct strbuf strs;
	size_t cu_name_off;	/* the current unit's name in strs */
	bool done;
	/* -a: whether a function holds the address, and what it prints */
	bool addr_found;
	struct strbuf addr_text;
	/* -b, --compile: what was printed (across units and files), and the
	 * listing's text (printed last: after -V's reports) */
	struct pahole_emit *emit;
	struct strbuf emit_text;
};

/* The DIE's own DW_AT_inline: pahole reads it from the DIE only (the model's
 * inline_attr also carries the abstract origin's). */
static uint8_t fn_inline_attr(const struct function *fn)
{
	return fn->own_inline_attr;
}

/* The DIE's own DW_AT_external, likewise: a concrete instance listed before
 * its abstract instance (clang does that) is not external for pfunct. */
static bool fn_external(const struct function *fn)
{
	return fn->own_external;
}

static bool fn_declared_inline(const struct function *fn)
{
	return fn_inline_attr(fn) == DW_INL_declared_inlined ||
	       fn_inline_attr(fn) == DW_INL_declared_not_inlined;
}

/* pfunct's listing holds the unit's own DW_TAG_subprogram children (1.24
 * walks the unit's top-level tags, as upstream does): not functions in C++
 * namespaces or classes (g++ puts a method's or a namespace function's
 * out-of-line definition among the unit's children, DW_AT_specification
 * naming its declaration, so that one is listed; clang keeps a namespace
 * function's definition inside the namespace, so that one is not), and not
 * functions declared inside function bodies, such as the kernel's
 * BUILD_BUG_ON __compiletime_assert_N. */
static bool fn_is_listed(const struct function *fn)
{
	return !fn->is_inlined_instance && fn->scope == TS_UNIT;
}

uint64_t pfunct_function_size(const struct function *fn)
{
	if (!fn->has_addr || fn->high_pc < fn->low_pc)
		return 0;
	return fn->high_pc - fn->low_pc;
}

/* ---- Text ---- */

/* V in decimal (BASE 10) or lower-case hex (BASE 16), as printf's %llu /
 * %llx: the listing prints a number or two per line, and printf's cost
 * per call dwarfs the digits. */
static void put_num(struct strbuf *sb, unsigned long long v, unsigned base)
{
	char buf[24];
	size_t i = sizeof(buf);

	do {
		buf[--i] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	strbuf_add(sb, buf + i, sizeof(buf) - i);
}

/* pahole 1.31's pfunct -F btf prints btf_decl_tag values before what they
 * tag: "a b void foo(void);", "void qux(param_a int arg);". 1.24 read no
 * tags at all; DWARF input prints none (as 1.31 does). */
static bool put_decl_tags(struct strbuf *sb, const struct annotation *a)
{
	bool any = false;

	for (; a; a = a->next) {
		if (!a->value || strcmp(a->name, "btf_decl_tag"))
			continue;
		strbuf_puts(sb, a->value);
		strbuf_putc(sb, ' ');
		any = true;
	}
	return any;
}

static bool params_have_decl_tags(const struct function *fn)
{
	for (uint32_t i = 0; i < fn->nr_params; i++)
		for (const struct annotation *a = fn->params[i].tags; a; a = a->next)
			if (!strcmp(a->name, "btf_decl_tag"))
				return true;
	return false;
}

/* c_type_ftype()'s text for a top-level prototype, with each parameter's
 * decl tags before it. */
static void ftype_with_param_tags(struct strbuf *sb, const struct c_ftype *ft,
				  const struct function *fn, const char *name,
				  unsigned flags)
{
	if (flags & C_FT_INLINE)
		strbuf_puts(sb, "inline ");
	c_type_name_n(sb, ft->ret, 128);
	strbuf_addf(sb, " %s(", name ? name : "");
	for (uint32_t i = 0; i < ft->nr_params; i++) {
		const struct param *p = &ft->params[i];

		if (i)
			strbuf_puts(sb, ", ");
		put_decl_tags(sb, fn->params[i].tags);
		c_type_decl(sb, p->type,
			    (flags & C_FT_NO_PARM_NAMES) ? NULL : p->name);
	}
	if (!ft->nr_params)
		strbuf_puts(sb, "void)");
	else if (ft->varargs)
		strbuf_puts(sb, ", ...)");
	else
		strbuf_putc(sb, ')');
}

/* ---- Type spellings, cached per unit ---- */

/* How long a chain of pointers, qualifiers and arrays may be for the fast
 * path: far below c_type's loop limit (64), so its text cannot depend on
 * the depth it starts at. */
#define PFUNCT_FAST_DEPTH 32

/* True when T's spelling is a plain name_into() of it (what c_type_ftype
 * and c_type_decl print for a return or parameter type): no function
 * prototype anywhere along the chain (those recurse into parameter lists
 * and, for parameters, change the declarator), and a short chain. */
static bool type_is_plain(const struct type *t)
{
	for (int i = 0; i < PFUNCT_FAST_DEPTH; i++) {
		if (!t)
			return true;
		switch (t->kind) {
		case TK_POINTER:
		case TK_REFERENCE:
		case TK_RVALUE_REFERENCE:
		case TK_PTR_TO_MEMBER:
		case TK_CONST:
		case TK_VOLATILE:
		case TK_RESTRICT:
		case TK_ATOMIC:
		case TK_ARRAY:
			t = t->type;
			continue;
		case TK_FUNC_PROTO:
			return false;
		default:
			return true;
		}
	}
	return false;
}

static size_t ptr_hash(const void *p)
{
	uint64_t h = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 29);
}

static int tnames_grow(struct tname_cache *tc)
{
	size_t n = tc->nr_slots ? tc->nr_slots * 2 : 1024;
	struct tname_slot *old = tc->slots, *ns = calloc(n, sizeof(*ns));

	if (!ns)
		return -1;
	for (size_t i = 0; i < tc->nr_slots; i++) {
		size_t j;

		if (old[i].gen != tc->gen)
			continue;
		for (j = ptr_hash(old[i].type) & (n - 1); ns[j].gen;
		     j = (j + 1) & (n - 1))
			;
		ns[j] = old[i];
	}
	free(old);
	tc->slots = ns;
	tc->nr_slots = n;
	return 0;
}

/* Start a unit: every cached spelling becomes stale. */
static void tnames_new_unit(struct tname_cache *tc)
{
	tc->used = 0;
	strbuf_reset(&tc->strs);
	if (++tc->gen == 0) {	/* wrapped: really clear */
		if (tc->slots)
			memset(tc->slots, 0, tc->nr_slots * sizeof(*tc->slots));
		tc->gen = 1;
	}
}

/* Append T's spelling (cut to 127 characters, as pahole's 128-byte
 * buffers cut it), from the cache when TC is not NULL. */
static void put_type_name(struct strbuf *sb, struct tname_cache *tc,
			  const struct type *t)
{
	struct tname_slot *s;
	size_t i, mask, off;

	if (!t) {
		strbuf_add(sb, "void", 4);
		return;
	}
	if (!tc || (tc->used * 2 >= tc->nr_slots && tnames_grow(tc))) {
		c_type_name_n(sb, t, 128);
		return;
	}
	mask = tc->nr_slots - 1;
	for (i = ptr_hash(t) & mask;; i = (i + 1) & mask) {
		s = &tc->slots[i];
		if (s->gen != tc->gen)
			break;
		if (s->type == t) {
			strbuf_add(sb, tc->strs.buf + s->off, s->len);
			return;
		}
	}
	off = tc->strs.len;
	c_type_name_n(&tc->strs, t, 128);
	if (tc->strs.oom) {	/* no room to cache: spell it in place */
		c_type_name_n(sb, t, 128);
		return;
	}
	s->type = t;
	s->gen = tc->gen;
	s->off = off;
	s->len = (uint32_t)(tc->strs.len - off);
	tc->used++;
	strbuf_add(sb, tc->strs.buf + off, s->len);
}

/* c_type_ftype(sb, ft, name, flags, 0) when the return and every parameter
 * type is plain (type_is_plain): "[inline ]RET NAME(T1 p1, T2 p2)". Returns
 * false, having appended nothing, otherwise. */
static bool ftype_fast(struct strbuf *sb, struct tname_cache *tc,
		       const struct c_ftype *ft, const char *name,
		       unsigned flags)
{
	if (!type_is_plain(ft->ret))
		return false;
	for (uint32_t i = 0; i < ft->nr_params; i++)
		if (!type_is_plain(ft->params[i].type))
			return false;
	if (flags & C_FT_INLINE)
		strbuf_add(sb, "inline ", 7);
	put_type_name(sb, tc, ft->ret);
	strbuf_putc(sb, ' ');
	if (name)
		strbuf_puts(sb, name);
	strbuf_putc(sb, '(');
	for (uint32_t i = 0; i < ft->nr_params; i++) {
		const struct param *p = &ft->params[i];

		if (i)
			strbuf_add(sb, ", ", 2);
		put_type_name(sb, tc, p->type);
		if (p->name && !(flags & C_FT_NO_PARM_NAMES)) {
			strbuf_putc(sb, ' ');
			strbuf_puts(sb, p->name);
		}
	}
	if (!ft->nr_params)
		strbuf_add(sb, "void)", 5);
	else if (ft->varargs)
		strbuf_add(sb, ", ...)", 6);
	else
		strbuf_putc(sb, ')');
	return true;
}

/* pfunct_format_prototype(), spelling types through TC when not NULL. */
static void format_prototype(struct strbuf *sb, struct tname_cache *tc,
			     const struct cu_model *cu,
			     const struct function *fn, bool decl_info,
			     bool no_parm_names, bool compile)
{
	struct c_ftype ft;
	struct param *fixed = NULL;
	const char *name = pfunct_fn_name(cu, fn);
	unsigned flags = 0;

	if (decl_info) {
		const struct function *d = pfunct_fn_decl(cu, fn);
		const char *file = NULL;
		unsigned line = d->decl_line;

		/* libdw (0.188), and so pfunct 1.24, has no name for file index 0
		 * (DWARF 5's primary file, which clang uses): it prints
		 * "(null):LINE". */
		if (d->decl_file)
			file = cu_model_file_name(cu, d->decl_file);
		strbuf_add(sb, "/* Used at: ", 12);
		strbuf_puts(sb, cu->name ? cu->name : "");
		strbuf_add(sb, " */\n/* <", 8);
		/* pahole has no DIE offset for BTF: it prints 0 */
		put_num(sb, cu->from_btf ? 0ULL : (unsigned long long)fn->die_offset,
			16);
		strbuf_add(sb, "> ", 2);
		/* pahole prints a missing file as printf prints NULL, and a
		 * missing line as whatever its stack held (we print 0) */
		strbuf_puts(sb, file && *file ? file : "(null)");
		strbuf_putc(sb, ':');
		put_num(sb, line, 10);
		strbuf_add(sb, " */\n", 4);
	}

	ft = pfunct_fn_ftype(cu, fn, &fixed);

	if (fn_declared_inline(fn) && !compile)
		flags |= C_FT_INLINE;
	if (no_parm_names)
		flags |= C_FT_NO_PARM_NAMES;
	if (cu->from_btf)
		put_decl_tags(sb, fn->tags);
	/* pahole's function__fprintf(): a method's declaration in its class
	 * (-c, -f) says virtual, and "= 0" when pure */
	if (fn->virtuality == DW_VIRTUALITY_virtual ||
	    fn->virtuality == DW_VIRTUALITY_pure_virtual)
		strbuf_add(sb, "virtual ", 8);
	if (cu->from_btf && params_have_decl_tags(fn))
		ftype_with_param_tags(sb, &ft, fn, name, flags);
	else if (!ftype_fast(sb, tc, &ft, name, flags))
		c_type_ftype(sb, &ft, name, flags, 0);
	if (fn->virtuality == DW_VIRTUALITY_pure_virtual)
		strbuf_add(sb, " = 0", 4);
	if (!compile)
		strbuf_putc(sb, ';');
	free(fixed);
}

void pfunct_format_prototype(struct strbuf *sb, const struct cu_model *cu,
			     const struct function *fn, bool decl_info,
			     bool no_parm_names)
{
	format_prototype(sb, NULL, cu, fn, decl_info, no_parm_names, false);
}

/* ---- Kept strings ---- */

static const char *str_at(const struct pfunct_printer *p, size_t off)
{
	return p->strs.buf + off;
}

static const char *entry_name(const struct pfunct_printer *p,
			      const struct pfunct_entry *e)
{
	return str_at(p, e->name_off);
}

/* Copy S into strs; returns its offset. */
static size_t str_keep(struct pfunct_printer *p, const char *s)
{
	size_t off = p->strs.len;

	strbuf_add(&p->strs, s, strlen(s) + 1);	/* with its NUL */
	return off;
}

/* ---- The name table ---- */

static uint32_t name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return (uint32_t)(h ^ (h >> 32));
}

/* The slot holding NAME (hash HASH), or the empty slot where it goes. */
static size_t slot_find(const struct pfunct_printer *p, const char *name,
			uint32_t hash)
{
	size_t mask = p->nr_slots - 1;
	size_t i = hash & mask;

	for (;; i = (i + 1) & mask) {
		const struct pfunct_slot *s = &p->slots[i];

		if (!s->entry ||
		    (s->hash == hash &&
		     !strcmp(entry_name(p, &p->entries.data[s->entry - 1]), name)))
			return i;
	}
}

static int slots_grow(struct pfunct_printer *p)
{
	size_t n = p->nr_slots ? p->nr_slots * 2 : 1024;
	size_t mask = n - 1;
	struct pfunct_slot *old = p->slots, *ns = calloc(n, sizeof(*ns));

	if (!ns)
		return -1;
	/* Names are unique in the table: no comparisons needed. */
	for (size_t i = 0; i < p->nr_slots; i++) {
		size_t j;

		if (!old[i].entry)
			continue;
		for (j = old[i].hash & mask; ns[j].entry; j = (j + 1) & mask)
			;
		ns[j] = old[i];
	}
	free(old);
	p->slots = ns;
	p->nr_slots = n;
	return 0;
}

/* ---- The printer ---- */

struct pfunct_printer *pfunct_printer_create(const struct pfunct_options *opts,
					     struct d2b_error *err)
{
	struct pfunct_printer *p = calloc(1, sizeof(*p));

	if (!p || slots_grow(p)) {
		free(p);
		d2b_error_oom(err);
		return NULL;
	}
	p->opts = *opts;
	if (opts->expand_types && !(p->emit = pahole_emit_create_pfunct())) {
		pfunct_printer_destroy(p);
		d2b_error_oom(err);
		return NULL;
	}
	return p;
}

void pfunct_printer_destroy(struct pfunct_printer *p)
{
	if (!p)
		return;
	pfunct_entry_vec_free(&p->entries);
	free(p->slots);
	free(p->tnames.slots);
	strbuf_free(&p->tnames.strs);
	strbuf_free(&p->strs);
	strbuf_free(&p->addr_text);
	pahole_emit_destroy(p->emit);
	strbuf_free(&p->emit_text);
	free(p);
}

bool pfunct_printer_done(const struct pfunct_printer *p)
{
	return p->done;
}

void pfunct_printer_next_file(struct pfunct_printer *p)
{
	if (p->opts.function)
		p->done = false;
}

bool pfunct_printer_wants_bodies(const struct pfunct_options *o)
{
	/* -T prints a body only with -V (the listing), and with the
	 * functions -f, -a and -b show */
	return o->inline_expansions || o->total_inline_stats ||
	       o->formatter == PFUNCT_FMT_INLINE_STATS ||
	       (o->variables && (o->verbose || o->function || o->addr || o->expand_types));
}

static struct pfunct_body_options body_options(const struct pfunct_options *o)
{
	struct pfunct_body_options b = {
		.addr_info = o->addr_info,
		.line_info = o->line_info,
		.no_parm_names = o->no_parm_names,
	};
	return b;
}

/* Whether the listing keeps each function's prototype (not for -a, which
 * builds the listing only for -V's duplicate reports). */
static bool needs_text(const struct pfunct_options *o)
{
	return o->formatter == PFUNCT_FMT_DEFAULT && (o->prototypes || o->verbose) &&
	       !o->addr && !o->total_inline_stats;
}

/* ... and its body after it (-i, -T -V) */
static bool needs_body(const struct pfunct_options *o)
{
	return needs_text(o) && !o->prototypes && (o->variables || o->inline_expansions);
}

/* -V: pfunct's fn_stats__chkdupdef report for a second definition. */
static void dup_report(const struct pfunct_printer *p, struct strbuf *out,
		       const struct pfunct_entry *first,
		       const struct cu_model *cu, uint64_t size,
		       uint32_t nr_parms)
{
	bool hdr = false;

	if (first->size != size) {
		strbuf_addf(out, "function: %s\nfirst: %s\ncurrent: %s\n",
			    entry_name(p, first), str_at(p, first->cu_name_off),
			    cu->name ? cu->name : "");
		hdr = true;
		strbuf_addf(out, "size: %llu != %llu\n",
			    (unsigned long long)first->size,
			    (unsigned long long)size);
	}
	if (first->nr_parms != nr_parms) {
		if (!hdr)
			strbuf_addf(out, "function: %s\nfirst: %s\ncurrent: %s\n",
				    entry_name(p, first),
				    str_at(p, first->cu_name_off),
				    cu->name ? cu->name : "");
		hdr = true;
		strbuf_addf(out, "nr_parms: %u != %u\n", first->nr_parms, nr_parms);
	}
	if (hdr)
		strbuf_putc(out, '\n');
}

static int add_listing(struct pfunct_printer *p, const struct cu_model *cu,
		       struct strbuf *out, struct d2b_error *err)
{
	const struct pfunct_options *o = &p->opts;

	p->cu_name_off = str_keep(p, cu->name ? cu->name : "");
	/* Room for every function of the unit at once (one BTF unit holds
	 * them all): no growth inside the loop below. */
	while ((p->entries.len + cu->nr_functions) * 2 > p->nr_slots)
		if (slots_grow(p))
			return d2b_error_oom(err);
	uint32_t *nr_exp = NULL;
	uint64_t *size_exp = NULL;
	int rc = 0;

	if (needs_text(o))
		tnames_new_unit(&p->tnames);
	if (o->total_inline_stats && cu->nr_functions) {
		nr_exp = calloc(cu->nr_functions, sizeof(*nr_exp));
		size_exp = calloc(cu->nr_functions, sizeof(*size_exp));
		if (!nr_exp || !size_exp) {
			free(nr_exp);
			free(size_exp);
			return d2b_error_oom(err);
		}
		pfunct_account_inlines(cu, nr_exp, size_exp);
	}
	for (uint32_t i = 0; i < cu->nr_functions && !rc; i++) {
		const struct function *fn = &cu->functions[i];
		const char *name = pfunct_fn_name(cu, fn);
		struct pfunct_entry *e;
		uint32_t hash;
		size_t slot;

		if (!fn_is_listed(fn) || !name)
			continue;
		if (o->externals_only && !fn_external(fn))
			continue;
		if (o->cc_uninlined &&
		    fn_inline_attr(fn) != DW_INL_declared_not_inlined)
			continue;
		if (o->cc_inlined && fn_inline_attr(fn) != DW_INL_inlined)
			continue;

		hash = name_hash(name);
		slot = slot_find(p, name, hash);
		if (p->slots[slot].entry) {
			struct pfunct_entry *first =
				&p->entries.data[p->slots[slot].entry - 1];

			if (first->external) {
				if (o->verbose)
					dup_report(p, out, first, cu,
						   pfunct_function_size(fn),
						   fn->nr_params);
				first->nr_files++;
				if (nr_exp) {
					first->nr_expansions += nr_exp[i];
					first->size_expansions += size_exp[i];
				}
				continue;
			}
		}

		if (p->entries.len >= UINT32_MAX - 1) {
			rc = d2b_error_set(err, "pfunct: too many functions");
			break;
		}
		e = pfunct_entry_vec_push_zero(&p->entries);
		if (!e) {
			rc = d2b_error_oom(err);
			break;
		}
		e->name_off = str_keep(p, name);
		e->cu_name_off = p->cu_name_off;
		e->size = pfunct_function_size(fn);
		e->nr_parms = fn->nr_params;
		e->nr_variables = fn->nr_variables;
		e->nr_labels = fn->nr_labels;
		e->nr_files = 1;
		e->external = fn_external(fn);
		e->text_off = SIZE_MAX;
		e->body_off = SIZE_MAX;
		if (fn->body) {
			e->nr_inline_expansions = fn->body->nr_inline_expansions;
			e->size_inline_expansions = fn->body->size_inline_expansions;
		}
		if (nr_exp) {
			e->nr_expansions = nr_exp[i];
			e->size_expansions = size_exp[i];
		}
		if (needs_text(o)) {
			e->text_off = p->strs.len;
			format_prototype(&p->strs, &p->tnames, cu, fn,
					 o->decl_info, o->no_parm_names, false);
			strbuf_putc(&p->strs, '\0');
		}
		if (needs_body(o)) {
			struct pfunct_body_options bo = body_options(o);

			e->body_off = p->strs.len;
			pfunct_format_body(&p->strs, cu, fn, &bo);
			strbuf_putc(&p->strs, '\0');
		}
		if (p->strs.oom) {
			rc = d2b_error_oom(err);
			break;
		}
		p->slots[slot].hash = hash;
		p->slots[slot].entry = (uint32_t)p->entries.len;
		if (p->entries.len * 2 > p->nr_slots && slots_grow(p)) {
			rc = d2b_error_oom(err);
			break;
		}
	}
	free(nr_exp);
	free(size_exp);
	return rc;
}

/* --compile's body: what 1.24 returns by the function's own return type
 * (one that names another type: not void, a base type, a struct, union or
 * enum) */
static void compile_body(struct strbuf *out, const struct type *t)
{
	strbuf_add(out, "\n{", 2);
	if (t && t->type) {
		switch (t->kind) {
		case TK_BASE:
		case TK_STRUCT:
		case TK_UNION:
		case TK_CLASS:
		case TK_ENUM:
		case TK_UNRESOLVED:
			break;
		case TK_POINTER:
			strbuf_puts(out, "\n\treturn (void *)0;");
			break;
		case TK_TYPEDEF:
			strbuf_addf(out, "\n\treturn *(%s *)1;", t->name ? t->name : "(null)");
			break;
		default:
			strbuf_puts(out, "\n\treturn 0;");
			break;
		}
	}
	strbuf_add(out, "\n}\n", 3);
}

/* pfunct 1.24's function__show(): nothing when FN is external or a
 * concrete instance (a check meant for --compile); else with -b the types
 * its prototype needs, the prototype (--compile: a body), and with -i or
 * -T the body. */
static int function_show(struct pfunct_printer *p, const struct cu_model *cu,
			 const struct function *fn, struct strbuf *out)
{
	const struct pfunct_options *o = &p->opts;

	if (fn->origin_offset || fn_external(fn))
		return 0;
	if (p->emit && pahole_emit_function(p->emit, fn->ret, fn->params, fn->nr_params, out))
		return -1;
	format_prototype(out, NULL, cu, fn, o->decl_info, o->no_parm_names, o->compile);
	if (o->compile)
		compile_body(out, fn->ret);
	strbuf_putc(out, '\n');
	if (o->variables || o->inline_expansions) {
		struct pfunct_body_options bo = body_options(o);

		pfunct_format_body(out, cu, fn, &bo);
	}
	return 0;
}

/* -a: the first function of the unit whose code holds the address. */
static int add_addr_search(struct pfunct_printer *p, const struct cu_model *cu)
{
	uint64_t addr = p->opts.addr;

	for (uint32_t i = 0; i < cu->nr_functions && !p->addr_found; i++) {
		const struct function *fn = &cu->functions[i];

		if (!fn_table_holds(fn) || !fn->has_addr ||
		    addr < fn->low_pc || addr >= fn->high_pc)
			continue;
		p->addr_found = true;
		return function_show(p, cu, fn, &p->addr_text);
	}
	return 0;
}

/* -b, --compile without -f, -c, -a: every function of the unit */
static int add_emit_listing(struct pfunct_printer *p, const struct cu_model *cu,
			    struct d2b_error *err)
{
	uint32_t *order;
	int rc = 0;

	if (fn_table_order(cu, &order))
		return d2b_error_oom(err);
	for (uint32_t i = 0; i < cu->nr_functions && !rc; i++) {
		const struct function *fn = &cu->functions[order[i]];

		/* nameless ones too: clang's empty DIE for a removed
		 * function's static variable prints "void (void);" */
		if (fn_table_holds(fn))
			rc = function_show(p, cu, fn, &p->emit_text);
	}
	free(order);
	return rc ? d2b_error_oom(err) : 0;
}

static int add_function_search(struct pfunct_printer *p,
			       const struct cu_model *cu, struct strbuf *out,
			       struct d2b_error *err)
{
	uint32_t *order;

	if (fn_table_order(cu, &order))
		return d2b_error_oom(err);
	for (uint32_t i = 0; i < cu->nr_functions; i++) {
		const struct function *fn = &cu->functions[order[i]];
		const char *name;

		if (!fn_table_holds(fn))
			continue;
		name = pfunct_fn_name(cu, fn);
		if (!name || strcmp(name, p->opts.function))
			continue;
		p->done = true;
		if (function_show(p, cu, fn, out)) {
			free(order);
			return d2b_error_oom(err);
		}
		break;
	}
	free(order);
	return 0;
}

/* -c: the unit's first definition of struct (or class) NAME, as pfunct
 * 1.24's cu__find_struct_by_name() finds it (not unions, not
 * declarations). */
static const struct type *find_struct(const struct cu_model *cu,
				      const char *name)
{
	for (uint32_t i = 0; i < cu->nr_types; i++) {
		const struct type *t = cu->types[i];

		if ((t->kind == TK_STRUCT || t->kind == TK_CLASS) &&
		    !t->declaration && t->name && !strcmp(t->name, name))
			return t;
	}
	return NULL;
}

/* pfunct 1.24's ftype__has_parm_of_type(): a parameter whose type is a
 * pointer straight to TARGET (not through a typedef or a qualifier). */
static bool has_pointer_param_to(const struct function *fn,
				 const struct type *target)
{
	for (uint32_t i = 0; i < fn->nr_params; i++) {
		const struct type *t = fn->params[i].type;

		if (t && t->kind == TK_POINTER && t->type == target)
			return true;
	}
	return false;
}

static int add_class_search(struct pfunct_printer *p, const struct cu_model *cu,
			    struct strbuf *out, struct d2b_error *err)
{
	const struct type *target = find_struct(cu, p->opts.class_name);
	uint32_t *order;

	if (!target)
		return 0;
	if (fn_table_order(cu, &order))
		return d2b_error_oom(err);
	for (uint32_t i = 0; i < cu->nr_functions; i++) {
		const struct function *fn = &cu->functions[order[i]];
		const char *name;

		if (!fn_table_holds(fn) || fn_inline_attr(fn) ||
		    !has_pointer_param_to(fn, target))
			continue;
		/* nameless (clang's concrete instance before its abstract
		 * one): 1.24 types its parameters from an origin it has not
		 * read yet, as void, so never lists it */
		name = pfunct_fn_name(cu, fn);
		if (!name)
			continue;
		if (p->opts.verbose)
			pfunct_format_prototype(out, cu, fn, p->opts.decl_info,
						p->opts.no_parm_names);
		else
			strbuf_puts(out, name);
		strbuf_putc(out, '\n');
	}
	free(order);
	return 0;
}

static int add_cu(struct pfunct_printer *p, struct cu_model *cu, struct strbuf *out,
		  struct d2b_error *err)
{
	const struct pfunct_options *o = &p->opts;
	int rc;

	if (o->function)
		return add_function_search(p, cu, out, err);
	if (o->class_name)
		return add_class_search(p, cu, out, err);
	rc = add_listing(p, cu, out, err);
	if (!rc && o->addr && !p->addr_found && add_addr_search(p, cu))
		rc = d2b_error_oom(err);
	if (!rc && p->emit && !o->addr && !o->total_inline_stats)
		rc = add_emit_listing(p, cu, err);
	return rc;
}

int pfunct_printer_add_cu(struct pfunct_printer *p, struct cu_model *cu,
			  struct strbuf *out, struct d2b_error *err)
{
	struct layout_cache lc;
	int rc;

	if (p->done)
		return 0;
	if (p->emit) {
		layout_cache_init(&lc, cu);
		if (pahole_emit_unit(p->emit, cu, &lc)) {
			layout_cache_deinit(&lc);
			return d2b_error_oom(err);
		}
	}
	rc = add_cu(p, cu, out, err);
	if (p->emit)
		layout_cache_deinit(&lc);
	if (!rc && (out->oom || p->emit_text.oom || p->addr_text.oom))
		return d2b_error_oom(err);
	return rc;
}

/* "NAME: " */
static void put_name_colon(struct strbuf *out, const struct pfunct_printer *p,
			   const struct pfunct_entry *e)
{
	strbuf_puts(out, entry_name(p, e));
	strbuf_add(out, ": ", 2);
}

int pfunct_printer_finish(struct pfunct_printer *p, struct strbuf *out,
			  struct d2b_error *err)
{
	const struct pfunct_options *o = &p->opts;

	/* 1.24 deletes the units -f and -c see: -a finds nothing then */
	if (o->addr && (o->function || o->class_name))
		return d2b_error_set(err, "No function found at %#llx!",
				     (unsigned long long)o->addr);
	if (o->addr) {
		if (!p->addr_found)
			return d2b_error_set(err, "No function found at %#llx!",
					     (unsigned long long)o->addr);
		if (p->addr_text.len)
			strbuf_add(out, p->addr_text.buf, p->addr_text.len);
		return out->oom || p->addr_text.oom ? d2b_error_oom(err) : 0;
	}
	if (o->total_inline_stats) {
		/* print_total_inline_stats(): the entries that expand more
		 * than once, name cut at 31 */
		strbuf_addf(out, "%-32.32s  %5.5s / %5.5s = %5.5s  %s\n", "name", "totsz",
			    "exp#", "avgsz", "src#");
		for (size_t i = p->entries.len; i-- > 0;) {
			const struct pfunct_entry *e = &p->entries.data[i];

			if (e->nr_expansions <= 1)
				continue;
			strbuf_addf(out, "%-31.31s %6u %7u  %6u %6u\n", entry_name(p, e),
				    (unsigned)e->size_expansions, e->nr_expansions,
				    (unsigned)(e->size_expansions / e->nr_expansions),
				    e->nr_files);
		}
		return out->oom ? d2b_error_oom(err) : 0;
	}
	if (o->function || o->class_name)
		return 0;
	if (p->emit) {
		if (p->emit_text.len)
			strbuf_add(out, p->emit_text.buf, p->emit_text.len);
		return out->oom ? d2b_error_oom(err) : 0;
	}
	for (size_t i = p->entries.len; i-- > 0;) {
		const struct pfunct_entry *e = &p->entries.data[i];

		switch (o->formatter) {
		case PFUNCT_FMT_SIZES:
			if (!e->size)
				break;
			put_name_colon(out, p, e);
			put_num(out, e->size, 10);
			strbuf_putc(out, '\n');
			break;
		case PFUNCT_FMT_NR_PARMS:
			put_name_colon(out, p, e);
			put_num(out, e->nr_parms, 10);
			strbuf_putc(out, '\n');
			break;
		case PFUNCT_FMT_NR_VARIABLES:
		case PFUNCT_FMT_LABELS: {
			uint32_t n = o->formatter == PFUNCT_FMT_LABELS
					     ? e->nr_labels : e->nr_variables;

			if (!n)
				break;
			put_name_colon(out, p, e);
			put_num(out, n, 10);
			strbuf_putc(out, '\n');
			break;
		}
		case PFUNCT_FMT_INLINE_STATS:
			if (!e->nr_inline_expansions)
				break;
			put_name_colon(out, p, e);
			strbuf_addf(out, "%u %d\n", e->nr_inline_expansions,
				    (int)e->size_inline_expansions);
			break;
		case PFUNCT_FMT_NAME_LEN:
			put_name_colon(out, p, e);
			put_num(out, strlen(entry_name(p, e)), 10);
			strbuf_putc(out, '\n');
			break;
		case PFUNCT_FMT_DEFAULT:
			if (!needs_text(o)) {
				strbuf_puts(out, entry_name(p, e));
				strbuf_putc(out, '\n');
				break;
			}
			strbuf_puts(out, str_at(p, e->text_off));
			strbuf_putc(out, '\n');
			if (o->prototypes)
				break;
			if (e->body_off != SIZE_MAX)
				strbuf_puts(out, str_at(p, e->body_off));
			strbuf_add(out, "/* definitions: ", 16);
			put_num(out, e->nr_files, 10);
			strbuf_add(out, " */\n\n", 5);
			break;
		}
	}
	if (out->oom)
		return d2b_error_oom(err);
	return 0;
}
