// SPDX-License-Identifier: GPL-2.0-only
/*
 * load/load_body.c: the bodies of a unit's functions for pfunct -i / -T
 * (load_options.function_bodies; model.h, struct body_item).
 *
 * Read after the walk, from the unit's DIEs still in hand, one function at
 * a time with the reader's plain decoder: pfunct alone asks for this, so
 * the walk that every tool runs stays as it is. The rules are pahole
 * 1.24's loader's (die__process_function, die__process_inline_expansion):
 *
 *   - a function's or lexical block's children: variables, labels, lexical
 *     blocks and inline expansions, in DIE order; a formal parameter inside
 *     a lexical block is kept as such; anything else (types, call sites,
 *     nested functions) is not part of the body;
 *   - an inline expansion's children go to the block around it: its
 *     lexical blocks, labels and nested expansions, before the expansion
 *     itself (it joins the block once its subtree is read); its variables
 *     and parameters are dropped;
 *   - each block counts the variables, labels and expansions it receives,
 *     and the expansions' sizes.
 */
#include "load/loader.h"

#include "dwarf/dw_const.h"

/* Origins followed for a variable's or label's name, type and line. */
#define BODY_MAX_HOPS 8
/* Attributes decoded per DIE (more are decoded and dropped). */
#define BODY_MAX_ATTRS 48

DEFINE_VEC(body_vec, struct body_item)

enum frame_kind {
	FRAME_FUNCTION,		/* the function's own block */
	FRAME_BLOCK,		/* a lexical block */
	FRAME_INLINE,		/* an inline expansion */
};

struct body_frame {
	uint32_t depth;
	uint8_t kind;
	/* the frame whose block receives what this frame's DIE holds:
	 * itself for blocks, the block around it for an expansion */
	uint32_t target;
	/* the frame whose block receives this frame's item once closed */
	uint32_t father;
	struct body_item item;
	struct body_vec items;	/* blocks: what they hold so far */
};

DEFINE_VEC(frame_vec, struct body_frame)

/* What the body needs of one DIE's attributes. */
struct body_attrs {
	const char *name;
	uint64_t type_off, origin, low_pc, high_pc, decl_line, call_line;
	bool has_type, has_origin, has_low_pc, has_high_pc, high_pc_is_offset;
	bool has_decl_line, declaration;
	struct dw_attr location, ranges;
	bool has_location, has_ranges;
};

static void read_body_attrs(const struct dw_attr *a, int n, struct body_attrs *out)
{
	memset(out, 0, sizeof(*out));
	for (int i = 0; i < n; i++, a++) {
		int64_t v;

		switch (a->name) {
		case DW_AT_name:
			if (a->cls == DW_CLS_STRING)
				out->name = a->str;
			break;
		case DW_AT_type:
			if (a->cls == DW_CLS_REF) {
				out->type_off = a->u;
				out->has_type = true;
			}
			break;
		case DW_AT_abstract_origin:
			if (a->cls == DW_CLS_REF) {
				out->origin = a->u;
				out->has_origin = true;
			}
			break;
		case DW_AT_low_pc:
			if (a->cls == DW_CLS_ADDR) {
				out->low_pc = a->u;
				out->has_low_pc = true;
			}
			break;
		case DW_AT_high_pc:
			if (a->cls == DW_CLS_ADDR || a->cls == DW_CLS_UNSIGNED) {
				out->high_pc = a->u;
				out->has_high_pc = true;
				out->high_pc_is_offset = a->cls != DW_CLS_ADDR;
			}
			break;
		case DW_AT_decl_line:
			if (dw_attr_int(a, &v)) {
				out->decl_line = (uint64_t)v;
				out->has_decl_line = true;
			}
			break;
		case DW_AT_call_line:
			if (dw_attr_int(a, &v))
				out->call_line = (uint64_t)v;
			break;
		case DW_AT_declaration:
			out->declaration = a->u != 0;
			break;
		case DW_AT_location:
			out->location = *a;
			out->has_location = true;
			break;
		case DW_AT_ranges:
			out->ranges = *a;
			out->has_ranges = true;
			break;
		}
	}
}

/* The attributes of the DIE at OFF, when it lies in the unit. */
static bool attrs_at(struct loader *l, uint64_t off, struct body_attrs *out)
{
	struct dw_attr attrs[BODY_MAX_ATTRS];
	struct dw_cursor c;
	struct dw_die die;
	struct d2b_error ignored = { 0 };
	int n;

	if (dw_cursor_init_at(&c, &l->dcu, off, &ignored) ||
	    dw_cursor_next(&c, &die, &ignored) != 1 ||
	    (n = dw_cursor_attrs(&c, attrs, BODY_MAX_ATTRS, &ignored)) < 0) {
		d2b_error_clear(&ignored);
		return false;
	}
	read_body_attrs(attrs, n < BODY_MAX_ATTRS ? n : BODY_MAX_ATTRS, out);
	return true;
}

/* Name, type and line of a variable or label: its own, else its origin's
 * (libdw's dwarf_decl_line and pahole's names follow the origin too). */
static void fill_from_origins(struct loader *l, const struct body_attrs *a,
			      struct body_item *it)
{
	struct body_attrs o = *a;
	bool has_type = a->has_type, has_line = a->has_decl_line;
	uint64_t type_off = a->type_off;

	it->name = a->name;
	it->line = (uint32_t)a->decl_line;
	for (int hop = 0; hop < BODY_MAX_HOPS && o.has_origin &&
			  (!it->name || !has_type || !has_line); hop++) {
		if (!attrs_at(l, o.origin, &o))
			break;
		if (!it->name)
			it->name = o.name;
		if (!has_type && o.has_type) {
			type_off = o.type_off;
			has_type = true;
		}
		if (!has_line && o.has_decl_line) {
			it->line = (uint32_t)o.decl_line;
			has_line = true;
		}
	}
	it->type = has_type ? cu_model_type_at_offset(l->cu, type_off | l->off_tag) : NULL;
}

static uint8_t variable_loc(const struct body_attrs *a)
{
	const uint8_t *p;

	if (!a->has_location)
		return BODY_LOC_NONE;
	if (a->location.cls != DW_CLS_BLOCK)	/* a location list */
		return BODY_LOC_NONE;
	if (!a->location.block.len)
		return BODY_LOC_OTHER;
	p = a->location.block.data;
	if (p[0] == DW_OP_addr || p[0] == DW_OP_addrx)
		return BODY_LOC_ADDR;
	if ((p[0] >= DW_OP_reg0 + 1 && p[0] <= DW_OP_reg31) ||
	    (p[0] >= DW_OP_breg0 && p[0] <= DW_OP_breg31))
		return BODY_LOC_REG;
	if (p[0] == DW_OP_fbreg)
		return BODY_LOC_FBREG;
	return BODY_LOC_OTHER;
}

/* high_pc - low_pc, when the DIE has both; else 0 */
static uint64_t pc_size(const struct body_attrs *a)
{
	if (!a->has_low_pc || !a->has_high_pc)
		return 0;
	return a->high_pc_is_offset ? a->high_pc : a->high_pc - a->low_pc;
}

static void block_addr(const struct body_attrs *a, struct body_item *it)
{
	it->addr = a->has_low_pc ? a->low_pc : 0;
	it->size = pc_size(a);
}

/* An expansion's address and size: libdw's dwarf_ranges() summed, as 1.24
 * does (one range for low_pc/high_pc, else DW_AT_ranges' list); its
 * address is DW_AT_low_pc, else the first range's start. */
static int inline_addr(struct loader *l, const struct body_attrs *a, struct body_item *it)
{
	it->addr = a->has_low_pc ? a->low_pc : 0;
	if (a->has_low_pc && a->has_high_pc) {
		it->size = pc_size(a);
	} else if (a->has_ranges) {
		struct dw_ranges_sum sum;

		if (dw_ranges_sum(&l->dcu, &a->ranges, &sum, l->err))
			return -1;
		it->size = sum.total;
		if (!it->addr)
			it->addr = sum.first;
	}
	return 0;
}

/* IT joins the block of frame T, which counts it as pahole's lexblock__add_*
 * do. */
static int add_item(struct loader *l, struct body_frame *t, const struct body_item *it)
{
	if (it->kind == BODY_VARIABLE) {
		t->item.nr_variables++;
	} else if (it->kind == BODY_LABEL) {
		t->item.nr_labels++;
	} else if (it->kind == BODY_INLINE) {
		t->item.nr_inline_expansions++;
		t->item.size_inline_expansions += it->size;
	}
	return body_vec_push(&t->items, *it) ? oom(l) : 0;
}

/* Close the innermost frame: hand its item to the block that takes it (the
 * function's own block stays in frames->data[0]). */
static int close_frame(struct loader *l, struct frame_vec *frames)
{
	struct body_frame *f = &frames->data[frames->len - 1];
	struct body_frame *t;
	struct body_item it = f->item;

	if (f->kind != FRAME_INLINE) {
		size_t n = f->items.len;

		it.nr_items = (uint32_t)n;
		it.items = NULL;
		if (n) {
			it.items = arena_alloc(&l->cu->arena, n * sizeof(*it.items));
			if (!it.items)
				return oom(l);
			memcpy(it.items, f->items.data, n * sizeof(*it.items));
		}
	}
	body_vec_free(&f->items);
	frames->len--;
	if (f->kind == FRAME_FUNCTION) {
		frames->data[frames->len] = (struct body_frame){ .item = it };
		return 0;
	}
	t = &frames->data[f->father];
	return add_item(l, t, &it);
}

/* A frame for a DIE with children; FATHER receives its item when closed. */
static int push_frame(struct loader *l, struct frame_vec *frames, uint8_t kind,
		      uint32_t depth, uint32_t father, const struct body_item *it)
{
	struct body_frame *f = frame_vec_push_zero(frames);

	if (!f)
		return oom(l);
	f->kind = kind;
	f->depth = depth;
	f->father = father;
	f->target = kind == FRAME_INLINE ? father : (uint32_t)(frames->len - 1);
	f->item = *it;
	return 0;
}

/* One DIE of the body, child of the innermost frame. */
static int body_die(struct loader *l, struct dw_cursor *c, const struct dw_die *die,
		    struct frame_vec *frames)
{
	struct dw_attr attrs[BODY_MAX_ATTRS];
	struct body_frame *parent = &frames->data[frames->len - 1];
	uint32_t target = parent->target;
	bool in_inline = parent->kind == FRAME_INLINE;
	struct body_item it = { .die_offset = die->offset | l->off_tag };
	struct body_attrs a;
	uint16_t tag = dw_die_tag(die);
	int n;

	switch (tag) {
	case DW_TAG_variable:
	case DW_TAG_label:
	case DW_TAG_lexical_block:
	case DW_TAG_inlined_subroutine:
		break;
	case DW_TAG_formal_parameter:
		if (parent->kind == FRAME_BLOCK)
			break;
		/* the function's are its prototype's, an expansion's are
		 * dropped */
		return dw_cursor_skip_children(c, l->err);
	default:
		return dw_cursor_skip_children(c, l->err);
	}
	n = dw_cursor_attrs(c, attrs, BODY_MAX_ATTRS, l->err);
	if (n < 0)
		return -1;
	read_body_attrs(attrs, n < BODY_MAX_ATTRS ? n : BODY_MAX_ATTRS, &a);
	switch (tag) {
	case DW_TAG_variable:
		if (dw_die_has_children(die) && dw_cursor_skip_children(c, l->err))
			return -1;
		if (in_inline)
			return 0;
		it.kind = BODY_VARIABLE;
		it.loc = variable_loc(&a);
		it.declaration = a.declaration;
		fill_from_origins(l, &a, &it);
		return add_item(l, &frames->data[target], &it);
	case DW_TAG_formal_parameter:
		if (dw_die_has_children(die) && dw_cursor_skip_children(c, l->err))
			return -1;
		it.kind = BODY_PARAM;
		fill_from_origins(l, &a, &it);
		return add_item(l, &frames->data[target], &it);
	case DW_TAG_label:
		if (dw_die_has_children(die) && dw_cursor_skip_children(c, l->err))
			return -1;
		it.kind = BODY_LABEL;
		fill_from_origins(l, &a, &it);
		return add_item(l, &frames->data[target], &it);
	case DW_TAG_lexical_block:
		it.kind = BODY_BLOCK;
		block_addr(&a, &it);
		if (!dw_die_has_children(die))
			return add_item(l, &frames->data[target], &it);
		return push_frame(l, frames, FRAME_BLOCK, die->depth, target, &it);
	case DW_TAG_inlined_subroutine:
		it.kind = BODY_INLINE;
		it.line = (uint32_t)a.call_line;
		it.origin = a.has_origin ? a.origin | l->off_tag : 0;
		if (inline_addr(l, &a, &it))
			return -1;
		if (!dw_die_has_children(die))
			return add_item(l, &frames->data[target], &it);
		return push_frame(l, frames, FRAME_INLINE, die->depth, target, &it);
	}
	return 0;
}

/* FN's body, when its DIE has children. */
static int read_body(struct loader *l, struct function *fn, struct frame_vec *frames)
{
	struct body_item top = { .kind = BODY_BLOCK, .die_offset = fn->die_offset };
	struct dw_cursor c;
	struct dw_die die;
	struct body_item *body;
	int rc;

	if (dw_cursor_init_at(&c, &l->dcu, fn->die_offset, l->err) ||
	    dw_cursor_next(&c, &die, l->err) != 1)
		return -1;
	if (!dw_die_has_children(&die))
		return 0;
	/* pahole's function lexblock: DW_AT_low_pc and the size to high_pc */
	top.addr = fn->low_pc;	/* (0 without DW_AT_low_pc) */
	top.size = fn->has_addr && fn->high_pc > fn->low_pc ? fn->high_pc - fn->low_pc : 0;
	frames->len = 0;
	if (push_frame(l, frames, FRAME_FUNCTION, 0, 0, &top))
		return -1;
	while ((rc = dw_cursor_next(&c, &die, l->err)) == 1 && die.depth > 0) {
		while (frames->data[frames->len - 1].depth >= die.depth)
			if (close_frame(l, frames))
				return -1;
		if (body_die(l, &c, &die, frames))
			return -1;
	}
	if (rc < 0)
		return -1;
	while (frames->len > 1)
		if (close_frame(l, frames))
			return -1;
	if (close_frame(l, frames))
		return -1;
	body = arena_alloc(&l->cu->arena, sizeof(*body));
	if (!body)
		return oom(l);
	*body = frames->data[0].item;
	fn->body = body;
	return 0;
}

int loader_read_bodies(struct loader *l)
{
	struct frame_vec frames = { 0 };
	int rc = 0;

	for (uint32_t i = 0; i < l->cu->nr_functions && !rc; i++) {
		struct function *fn = &l->cu->functions[i];

		if (fn->die_offset & OFF_OTHER_SECTION)
			continue;
		rc = read_body(l, fn, &frames);
	}
	for (size_t i = 0; i < frames.len; i++)
		body_vec_free(&frames.data[i].items);
	frame_vec_free(&frames);
	return rc;
}
