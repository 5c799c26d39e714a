// SPDX-License-Identifier: GPL-2.0-only
/* pfunct -i / -T: a function's body, and -t's counts (see pfunct_body.h). */
#include "print/pfunct_body.h"

#include <stdlib.h>
#include <string.h>

#include "print/c_type.h"
#include "print/pfunct_fn.h"

/* pahole's tabs[]: 16 of them, the most an indent prints */
#define BODY_MAX_INDENT 16
/* Blocks nested deeper than this are not printed (a hostile file's). */
#define BODY_MAX_DEPTH 512

struct body_ctx {
	struct strbuf *sb;
	const struct cu_model *cu;
	const struct function *fn;
	const char *fn_name;
	uint64_t fn_addr;
	const struct pfunct_body_options *o;
};

static unsigned clamp_indent(unsigned indent)
{
	return indent > BODY_MAX_INDENT ? BODY_MAX_INDENT : indent;
}

/* printf("%-*.*s// %5u\n", 70 - C, 70 - C, " ", LINE): the width's
 * magnitude in spaces (none at 70), then the line number. */
static void line_comment(struct strbuf *sb, long c, uint32_t line)
{
	long w = 70 - c;

	if (w < 0)
		w = -w;
	strbuf_fill(sb, ' ', (size_t)w);
	/* decl_line is 16 bits in 1.24's tags */
	strbuf_addf(sb, "// %5u\n", (unsigned)(uint16_t)line);
}

static const char *scope_word(const struct body_item *it, const struct pfunct_body_options *o)
{
	if (!o->addr_info || it->declaration)
		return "unknown";
	switch (it->loc) {
	case BODY_LOC_NONE:
		return "optimized";
	case BODY_LOC_ADDR:
		return "global";
	case BODY_LOC_REG:
		return "register";
	case BODY_LOC_FBREG:
		return "local";
	}
	return "unknown";
}

static void block_into(struct body_ctx *x, const struct body_item *b, unsigned indent,
		       unsigned depth);

static void inline_into(struct body_ctx *x, const struct body_item *it, unsigned indent)
{
	struct strbuf *sb = x->sb;
	const struct function *alias = it->origin ? cu_model_function_at_offset(x->cu, it->origin)
						  : NULL;
	const char *name;
	struct param *fixed;
	struct c_ftype ft;
	size_t namelen;

	if (!alias) {
		/* tag__id_not_found_fprintf, then the line's comment */
		strbuf_addf(sb, "<ERROR(function__tag_fprintf): %#llx not found!>",
			    (unsigned long long)it->origin);
		line_comment(sb, (long)indent * 8, it->line);
		return;
	}
	strbuf_fill(sb, '\t', indent);
	name = pfunct_fn_name(x->cu, alias);
	namelen = name ? strlen(name) : 0;
	strbuf_puts(sb, name ? name : "(null)");
	ft = pfunct_fn_ftype(x->cu, alias, &fixed);
	c_type_params(sb, &ft, (int)(indent + (namelen + 7) / 8),
		      x->o->no_parm_names ? C_FT_NO_PARM_NAMES : 0);
	free(fixed);
	strbuf_addf(sb, "; /* size=%llu, low_pc=%#llx */",
		    (unsigned long long)(x->o->addr_info ? it->size : 0),
		    (unsigned long long)(x->o->addr_info ? it->addr : 0));
	line_comment(sb, 69, it->line);
}

static void item_into(struct body_ctx *x, const struct body_item *it, unsigned indent,
		      unsigned depth)
{
	struct strbuf *sb = x->sb;
	uint32_t line = x->o->line_info ? it->line : 0;
	size_t start;

	indent = clamp_indent(indent);
	switch (it->kind) {
	case BODY_INLINE:
		inline_into(x, it, indent);
		return;
	case BODY_BLOCK:
		block_into(x, it, indent, depth + 1);
		strbuf_putc(sb, '\n');
		return;
	case BODY_LABEL:
		strbuf_fill(sb, '\t', indent);
		strbuf_putc(sb, '\n');
		start = sb->len;
		strbuf_puts(sb, it->name ? it->name : "(null)");
		strbuf_putc(sb, ':');
		line_comment(sb, (long)(sb->len - start), line);
		return;
	case BODY_VARIABLE:
		strbuf_fill(sb, '\t', indent);
		start = sb->len;
		if (it->type)
			c_type_name_n(sb, it->type, 512);
		else
			strbuf_puts(sb, "(null)");
		strbuf_putc(sb, ' ');
		strbuf_puts(sb, it->name ? it->name : "(null)");
		strbuf_addf(sb, "; /* scope: %s */", scope_word(it, x->o));
		line_comment(sb, (long)indent * 8 + (long)(sb->len - start), line);
		return;
	case BODY_PARAM:
		strbuf_fill(sb, '\t', indent);
		start = sb->len;
		strbuf_addf(sb, "formal_parameter <%llx>", (unsigned long long)it->die_offset);
		line_comment(sb, (long)indent * 8 + (long)(sb->len - start), line);
		return;
	}
}

/* lexblock__fprintf */
static void block_into(struct body_ctx *x, const struct body_item *b, unsigned indent,
		       unsigned depth)
{
	struct strbuf *sb = x->sb;
	uint64_t addr = x->o->addr_info ? b->addr : 0;

	indent = clamp_indent(indent);
	strbuf_fill(sb, '\t', indent);
	strbuf_putc(sb, '{');
	if (addr) {
		uint64_t off = addr - x->fn_addr;

		if (!off)
			strbuf_addf(sb, " /* low_pc=%#llx */", (unsigned long long)addr);
		else
			strbuf_addf(sb, " /* %s+%#llx */", x->fn_name ? x->fn_name : "(null)",
				    (unsigned long long)off);
	}
	strbuf_putc(sb, '\n');
	if (depth < BODY_MAX_DEPTH)
		for (uint32_t i = 0; i < b->nr_items; i++)
			item_into(x, &b->items[i], indent + 1, depth);
	strbuf_fill(sb, '\t', indent);
	strbuf_putc(sb, '}');
	if (x->fn_addr != addr)
		strbuf_addf(sb, " /* lexblock size=%d */",
			    (int)(x->o->addr_info ? b->size : 0));
}

void pfunct_format_body(struct strbuf *sb, const struct cu_model *cu,
			const struct function *fn, const struct pfunct_body_options *o)
{
	/* a function without children: its block holds nothing */
	const struct body_item empty = {
		.kind = BODY_BLOCK,
		.addr = fn->low_pc,
	};
	const struct body_item *top = fn->body ? fn->body : &empty;
	struct body_ctx x = {
		.sb = sb,
		.cu = cu,
		.fn = fn,
		.fn_name = pfunct_fn_name(cu, fn),
		.fn_addr = o->addr_info && fn->has_addr ? fn->low_pc : 0,
		.o = o,
	};
	uint64_t size = o->addr_info && fn->has_addr && fn->high_pc > fn->low_pc
				? fn->high_pc - fn->low_pc : 0;

	block_into(&x, top, 0, 0);
	strbuf_addf(sb, "/* size: %d", (int)size);
	if (top->nr_variables)
		strbuf_addf(sb, ", variables: %u", top->nr_variables);
	if (top->nr_labels)
		strbuf_addf(sb, ", goto labels: %u", top->nr_labels);
	if (top->nr_inline_expansions)
		strbuf_addf(sb, ", inline expansions: %u (%d bytes)", top->nr_inline_expansions,
			    (int)(o->addr_info ? top->size_inline_expansions : 0));
	strbuf_add(sb, " */\n", 4);
}

/* lexblock__account_inline_expansions */
static void account_block(const struct cu_model *cu, const struct body_item *b,
			  uint32_t *nr, uint64_t *size, unsigned depth)
{
	if (!b->nr_inline_expansions || depth > BODY_MAX_DEPTH)
		return;
	for (uint32_t i = 0; i < b->nr_items; i++) {
		const struct body_item *it = &b->items[i];
		const struct function *f;

		if (it->kind == BODY_BLOCK) {
			account_block(cu, it, nr, size, depth + 1);
			continue;
		}
		if (it->kind != BODY_INLINE || !it->origin)
			continue;
		f = cu_model_function_at_offset(cu, it->origin);
		if (!f)
			continue;
		nr[f - cu->functions]++;
		size[f - cu->functions] += it->size;
	}
}

void pfunct_account_inlines(const struct cu_model *cu, uint32_t *nr, uint64_t *size)
{
	for (uint32_t i = 0; i < cu->nr_functions; i++)
		if (cu->functions[i].body)
			account_block(cu, cu->functions[i].body, nr, size, 0);
}
