// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfunct's listing: selection, cross-unit dedup and text (see pfunct_print.h
 * for the rules).
 *
 *   entries[]   every kept function, in the order pfunct keeps them; printed
 *               back to front. Each holds the offsets in `strs` of its name,
 *               its unit's name and, when a prototype is needed, its rendered
 *               text, plus the numbers the formatters need.
 *   by_name     open-addressing table: name -> index of the most recently
 *               kept entry of that name (pfunct's list search from the head).
 */
#include "print/pfunct_print.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf/dw_const.h"
#include "print/c_type.h"
#include "util/vec.h"

/* How many DW_AT_abstract_origin / DW_AT_specification hops we follow. */
#define PFUNCT_MAX_HOPS 8

struct pfunct_entry {
	size_t name_off;	/* into strs */
	size_t cu_name_off;	/* into strs */
	uint64_t size;
	size_t text_off;	/* into strs; SIZE_MAX when not rendered */
	uint32_t nr_parms;
	uint32_t nr_files;	/* definitions seen (the -V count) */
	bool external;
};

DEFINE_VEC(pfunct_entry_vec, struct pfunct_entry)

struct pfunct_printer {
	struct pfunct_options opts;
	struct pfunct_entry_vec entries;
	uint32_t *slots;	/* entry index + 1; 0: empty */
	size_t nr_slots;	/* a power of two */
	/* NUL-separated copies of names, unit names and prototypes: nothing
	 * points into a cu_model or the file once add_cu() returns. */
	struct strbuf strs;
	size_t cu_name_off;	/* the current unit's name in strs */
	bool done;
};

/* ---- Following DW_AT_abstract_origin / DW_AT_specification ---- */

static const struct function *fn_origin(const struct cu_model *cu,
					const struct function *fn)
{
	uint64_t off = fn->origin_offset ? fn->origin_offset
					 : fn->specification_offset;

	if (!off || off == fn->die_offset)
		return NULL;
	return cu_model_function_at_offset(cu, off);
}

static const char *fn_name(const struct cu_model *cu, const struct function *fn)
{
	for (int i = 0; fn && i < PFUNCT_MAX_HOPS; i++) {
		if (fn->name)
			return fn->name;
		fn = fn_origin(cu, fn);
	}
	return NULL;
}

static const struct type *fn_ret(const struct cu_model *cu,
				 const struct function *fn)
{
	for (int i = 0; fn && i < PFUNCT_MAX_HOPS; i++) {
		if (fn->ret)
			return fn->ret;
		fn = fn_origin(cu, fn);
	}
	return NULL;
}

/* decl_file / decl_line, taken from the origin when the DIE has none (as
 * libdw's dwarf_decl_file/line do). Returns the function holding them. */
static const struct function *fn_decl(const struct cu_model *cu,
				      const struct function *fn)
{
	const struct function *pos = fn;

	for (int i = 0; pos && i < PFUNCT_MAX_HOPS; i++) {
		if (pos->decl_line)
			return pos;
		pos = fn_origin(cu, pos);
	}
	return fn;
}

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

/* pfunct lists only DW_TAG_subprogram children of the unit (and of C++
 * namespaces): not functions declared inside function bodies, such as the
 * kernel's BUILD_BUG_ON __compiletime_assert_N. */
static bool fn_is_subprogram(const struct function *fn)
{
	return !fn->is_inlined_instance &&
	       (fn->scope == TS_UNIT || fn->scope == TS_NAMESPACE);
}

uint64_t pfunct_function_size(const struct function *fn)
{
	if (!fn->has_addr || fn->high_pc < fn->low_pc)
		return 0;
	return fn->high_pc - fn->low_pc;
}

/* ---- Text ---- */

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

void pfunct_format_prototype(struct strbuf *sb, const struct cu_model *cu,
			     const struct function *fn, bool decl_info,
			     bool no_parm_names)
{
	struct c_ftype ft = c_ftype_of_function(fn);
	struct param *fixed = NULL;
	unsigned flags = 0;

	if (decl_info) {
		const struct function *d = fn_decl(cu, fn);
		const char *file = NULL;
		unsigned line = d->decl_line;

		/* libdw (0.188), and so pfunct 1.24, has no name for file index 0
		 * (DWARF 5's primary file, which clang uses): it prints
		 * "(null):0", line included. */
		if (d->decl_file)
			file = cu_model_file_name(cu, d->decl_file);
		else
			line = 0;
		strbuf_addf(sb, "/* Used at: %s */\n", cu->name ? cu->name : "");
		/* pahole prints a missing file as printf prints NULL, and a
		 * missing line as whatever its stack held (we print 0) */
		/* pahole has no DIE offset for BTF: it prints 0 */
		strbuf_addf(sb, "/* <%llx> %s:%u */\n",
			    cu->from_btf ? 0ULL : (unsigned long long)fn->die_offset,
			    file && *file ? file : "(null)", line);
	}

	ft.ret = fn_ret(cu, fn);
	/* A concrete instance's parameters may carry only their origin. */
	for (uint32_t i = 0; i < fn->nr_params; i++) {
		const struct param *p = &fn->params[i];

		if (p->origin && (!p->name || !p->type)) {
			fixed = malloc(fn->nr_params * sizeof(*fixed));
			break;
		}
	}
	if (fixed) {
		for (uint32_t i = 0; i < fn->nr_params; i++) {
			const struct param *o = fn->params[i].origin;

			fixed[i] = fn->params[i];
			for (int h = 0; o && h < PFUNCT_MAX_HOPS; h++) {
				if (!fixed[i].name)
					fixed[i].name = o->name;
				if (!fixed[i].type)
					fixed[i].type = o->type;
				o = o->origin;
			}
		}
		ft.params = fixed;
	}

	if (fn_declared_inline(fn))
		flags |= C_FT_INLINE;
	if (no_parm_names)
		flags |= C_FT_NO_PARM_NAMES;
	if (cu->from_btf)
		put_decl_tags(sb, fn->tags);
	if (cu->from_btf && params_have_decl_tags(fn))
		ftype_with_param_tags(sb, &ft, fn, fn_name(cu, fn), flags);
	else
		c_type_ftype(sb, &ft, fn_name(cu, fn), flags, 0);
	strbuf_putc(sb, ';');
	free(fixed);
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

	strbuf_puts(&p->strs, s);
	strbuf_putc(&p->strs, '\0');
	return off;
}

/* ---- The name table ---- */

static uint64_t name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

static size_t slot_find(const struct pfunct_printer *p, const char *name)
{
	size_t mask = p->nr_slots - 1;
	size_t i = name_hash(name) & mask;

	for (;; i = (i + 1) & mask) {
		uint32_t e = p->slots[i];

		if (!e || !strcmp(entry_name(p, &p->entries.data[e - 1]), name))
			return i;
	}
}

static int slots_grow(struct pfunct_printer *p)
{
	size_t n = p->nr_slots ? p->nr_slots * 2 : 1024;
	uint32_t *old = p->slots;
	size_t old_n = p->nr_slots;

	p->slots = calloc(n, sizeof(*p->slots));
	if (!p->slots) {
		p->slots = old;
		return -1;
	}
	p->nr_slots = n;
	for (size_t i = 0; i < old_n; i++) {
		uint32_t e = old[i];

		if (e)
			p->slots[slot_find(p, entry_name(p, &p->entries.data[e - 1]))] = e;
	}
	free(old);
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
	return p;
}

void pfunct_printer_destroy(struct pfunct_printer *p)
{
	if (!p)
		return;
	pfunct_entry_vec_free(&p->entries);
	free(p->slots);
	strbuf_free(&p->strs);
	free(p);
}

bool pfunct_printer_done(const struct pfunct_printer *p)
{
	return p->done;
}

static bool needs_text(const struct pfunct_options *o)
{
	return o->formatter == PFUNCT_FMT_DEFAULT && (o->prototypes || o->verbose);
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
	for (uint32_t i = 0; i < cu->nr_functions; i++) {
		const struct function *fn = &cu->functions[i];
		const char *name = fn_name(cu, fn);
		struct pfunct_entry *e;
		size_t slot;

		if (!fn_is_subprogram(fn) || !name)
			continue;
		if (o->externals_only && !fn_external(fn))
			continue;
		if (o->cc_uninlined &&
		    fn_inline_attr(fn) != DW_INL_declared_not_inlined)
			continue;
		if (o->cc_inlined && fn_inline_attr(fn) != DW_INL_inlined)
			continue;

		slot = slot_find(p, name);
		if (p->slots[slot]) {
			struct pfunct_entry *first =
				&p->entries.data[p->slots[slot] - 1];

			if (first->external) {
				if (o->verbose)
					dup_report(p, out, first, cu,
						   pfunct_function_size(fn),
						   fn->nr_params);
				first->nr_files++;
				continue;
			}
		}

		if (p->entries.len >= UINT32_MAX - 1)
			return d2b_error_set(err, "pfunct: too many functions");
		e = pfunct_entry_vec_push_zero(&p->entries);
		if (!e)
			return d2b_error_oom(err);
		e->name_off = str_keep(p, name);
		e->cu_name_off = p->cu_name_off;
		e->size = pfunct_function_size(fn);
		e->nr_parms = fn->nr_params;
		e->nr_files = 1;
		e->external = fn_external(fn);
		e->text_off = SIZE_MAX;
		if (needs_text(o)) {
			e->text_off = p->strs.len;
			pfunct_format_prototype(&p->strs, cu, fn, o->decl_info,
						o->no_parm_names);
			strbuf_putc(&p->strs, '\0');
		}
		if (p->strs.oom)
			return d2b_error_oom(err);
		p->slots[slot] = (uint32_t)p->entries.len;
		if (p->entries.len * 2 > p->nr_slots && slots_grow(p))
			return d2b_error_oom(err);
	}
	return 0;
}

static int add_function_search(struct pfunct_printer *p,
			       const struct cu_model *cu, struct strbuf *out)
{
	for (uint32_t i = 0; i < cu->nr_functions; i++) {
		const struct function *fn = &cu->functions[i];
		const char *name;

		if (!fn_is_subprogram(fn))
			continue;
		name = fn_name(cu, fn);
		if (!name || strcmp(name, p->opts.function))
			continue;
		/* pfunct 1.24's function__show() skips these silently. */
		if (!fn->origin_offset && !fn_external(fn)) {
			pfunct_format_prototype(out, cu, fn, p->opts.decl_info,
						p->opts.no_parm_names);
			strbuf_putc(out, '\n');
		}
		p->done = true;
		break;
	}
	return 0;
}

int pfunct_printer_add_cu(struct pfunct_printer *p, const struct cu_model *cu,
			  struct strbuf *out, struct d2b_error *err)
{
	int rc;

	if (p->done)
		return 0;
	if (p->opts.function)
		rc = add_function_search(p, cu, out);
	else
		rc = add_listing(p, cu, out, err);
	if (!rc && out->oom)
		return d2b_error_oom(err);
	return rc;
}

int pfunct_printer_finish(struct pfunct_printer *p, struct strbuf *out,
			  struct d2b_error *err)
{
	const struct pfunct_options *o = &p->opts;

	if (o->function)
		return 0;
	for (size_t i = p->entries.len; i-- > 0;) {
		const struct pfunct_entry *e = &p->entries.data[i];

		switch (o->formatter) {
		case PFUNCT_FMT_SIZES:
			if (e->size)
				strbuf_addf(out, "%s: %llu\n", entry_name(p, e),
					    (unsigned long long)e->size);
			break;
		case PFUNCT_FMT_NR_PARMS:
			strbuf_addf(out, "%s: %u\n", entry_name(p, e), e->nr_parms);
			break;
		case PFUNCT_FMT_NAME_LEN:
			strbuf_addf(out, "%s: %zu\n", entry_name(p, e),
				    strlen(entry_name(p, e)));
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
			strbuf_addf(out, "/* definitions: %u */\n\n", e->nr_files);
			break;
		}
	}
	if (out->oom)
		return d2b_error_oom(err);
	return 0;
}
