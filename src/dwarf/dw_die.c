// SPDX-License-Identifier: GPL-2.0-only
/* The DIE cursor and attribute decoding. */
#include <string.h>

#include "dwarf/dw_form.h"
#include "dwarf/dw_read.h"

void dw_cursor_init(struct dw_cursor *c, const struct dw_cu *cu)
{
	memset(c, 0, sizeof(*c));
	c->cu = cu;
	c->pos = dw_cu_at(cu, cu->unit->first_die);
	c->end = dw_cu_at(cu, cu->unit->end);
}

int dw_cursor_init_at(struct dw_cursor *c, const struct dw_cu *cu,
		      uint64_t off, struct d2b_error *err)
{
	dw_cursor_init(c, cu);
	if (off < cu->unit->first_die || off >= cu->unit->end)
		return dw_error(cu, NULL, err, "DIE offset 0x%llx is outside the unit",
				(unsigned long long)off);
	c->pos = dw_cu_at(cu, off);
	return 0;
}

/* Move past the attributes of DIE starting at P. */
static int skip_attrs(const struct dw_cu *cu, const struct dw_abbrev *ab,
		      const uint8_t **p, const uint8_t *end, struct d2b_error *err)
{
	if (ab->fixed_size >= 0) {
		if ((uint64_t)(end - *p) < (uint64_t)ab->fixed_size)
			return dw_error(cu, *p, err, "DIE attributes run past the end of the unit");
		*p += ab->fixed_size;
		return 0;
	}
	for (unsigned i = 0; i < ab->nr_attrs; i++)
		if (dw_form_skip(cu, ab->attrs[i].form, p, end, err))
			return -1;
	return 0;
}

/* Finish with the previous DIE: skip its attributes; enter its children. */
static int leave_last(struct dw_cursor *c, struct d2b_error *err)
{
	if (!c->started)
		return 0;
	if (!c->last_attrs_skipped) {
		if (skip_attrs(c->cu, c->last.abbrev, &c->pos, c->end, err))
			return -1;
		c->last_attrs_skipped = true;
	}
	if (c->last.abbrev->has_children && !c->last_children_skipped) {
		c->depth++;
		if (c->depth > DW_MAX_DEPTH)
			return dw_error(c->cu, c->pos, err,
					"DIEs nested more than %d deep", DW_MAX_DEPTH);
	}
	c->last_children_skipped = true;	/* do not enter twice */
	return 0;
}

/* dw_cursor_next's errors, out of line: the loop keeps its registers. */
static int __attribute__((noinline, cold))
next_error(struct dw_cursor *c, const uint8_t *at, uint64_t code, struct d2b_error *err)
{
	if (!code)
		return dw_error(c->cu, at, err, "truncated abbreviation code");
	return dw_error(c->cu, at, err, "abbreviation code %llu does not exist",
			(unsigned long long)code);
}

int dw_cursor_next(struct dw_cursor *c, struct dw_die *die, struct d2b_error *err)
{
	const struct dw_cu *cu = c->cu;
	const uint8_t *p, *end = c->end;
	uint32_t depth;

	if (leave_last(c, err))
		return -1;
	/* position and depth in registers, stored back once */
	p = c->pos;
	depth = c->depth;
	for (;;) {
		const uint8_t *at = p;
		uint64_t code;
		const struct dw_abbrev *ab;

		if (p >= end) {
			c->pos = p;
			c->depth = depth;
			return 0;
		}
		/* ULEB128: one byte, or two (a unit with over 127
		 * abbreviations), or the general reader */
		code = *p++;
		if (code & 0x80) {
			if (p < end && !(*p & 0x80)) {
				code = (code & 0x7f) | (uint64_t)*p++ << 7;
			} else {
				p = at;
				if (!rd_uleb(&p, end, &code)) {
					c->pos = at;
					c->depth = depth;
					return next_error(c, at, 0, err);
				}
			}
		}
		if (!code) {
			/* the end of a list of children; at depth 0, padding
			 * after the root DIE's tree */
			if (depth)
				depth--;
			continue;
		}
		/* dw_cu_abbrev's dense case inline */
		ab = code - 1 < cu->abbrevs.nr_dense ? cu->abbrevs.dense[code - 1] :
						       dw_cu_abbrev(cu, code);
		c->pos = p;
		c->depth = depth;
		if (!ab)
			return next_error(c, at, code, err);
		/* built in registers and stored twice: filling c->last field
		 * by field and then copying it out read it back before the
		 * stores landed (a store-forwarding stall, ~a third of this
		 * function's time) */
		struct dw_die d = {
			.offset = dw_cu_offset_of(cu, at),
			.abbrev = ab,
			.attrs = p,
			.depth = depth,
		};
		c->last = d;
		c->last_attrs_skipped = false;
		c->last_children_skipped = false;
		c->last_sibling = 0;
		c->started = true;
		*die = d;
		return 1;
	}
}

/*
 * Past the children at *P (a subtree's, one level down, to their closing
 * null entry): 0 with *P after them; -1 when they do not decode (ERR set
 * when not NULL); 1 when ALLOWED (by abbreviation index; NULL: all) refuses
 * one. *AT: where the entry that failed or was refused starts.
 */
static int skip_subtree(const struct dw_cu *cu, const uint8_t **p, const uint8_t *end,
			const uint8_t *allowed, const uint8_t **at, struct d2b_error *err)
{
	const uint8_t *pos = *p;
	unsigned nest = 1;

	while (nest) {
		const struct dw_abbrev *ab;
		uint64_t code;

		*at = pos;
		if (pos >= end)
			return dw_error(cu, *at, err, "DIE children run past the end of the unit");
		/* a one-byte code of the dense table, else the general way */
		if (*pos && *pos < 0x80 && *pos <= cu->abbrevs.nr_dense &&
		    (ab = cu->abbrevs.dense[*pos - 1])) {
			pos++;
		} else {
			if (!rd_uleb(&pos, end, &code))
				return dw_error(cu, *at, err, "truncated abbreviation code");
			if (!code) {
				nest--;
				continue;
			}
			ab = dw_cu_abbrev(cu, code);
			if (!ab)
				return dw_error(cu, *at, err, "abbreviation code %llu does not exist",
						(unsigned long long)code);
		}
		if (allowed && !allowed[ab->index])
			return 1;
		if (skip_attrs(cu, ab, &pos, end, err))
			return -1;
		if (ab->has_children && ++nest > DW_MAX_DEPTH)
			return dw_error(cu, *at, err, "DIEs nested more than %d deep", DW_MAX_DEPTH);
	}
	*p = pos;
	return 0;
}

int dw_cursor_skip_children(struct dw_cursor *c, struct d2b_error *err)
{
	const struct dw_cu *cu = c->cu;
	const uint8_t *at;

	if (!c->started || !c->last.abbrev->has_children || c->last_children_skipped)
		return 0;
	if (!c->last_attrs_skipped) {
		if (skip_attrs(cu, c->last.abbrev, &c->pos, c->end, err))
			return -1;
		c->last_attrs_skipped = true;
	}
	c->last_children_skipped = true;
	if (c->last_sibling > c->last.offset && c->last_sibling <= cu->unit->end &&
	    dw_cu_at(cu, c->last_sibling) >= c->pos) {
		c->pos = dw_cu_at(cu, c->last_sibling);
		return 0;
	}
	return skip_subtree(cu, &c->pos, c->end, NULL, &at, err) ? -1 : 0;
}

int dw_cursor_skip_children_if(struct dw_cursor *c, const uint8_t *allowed, uint64_t *stop)
{
	const uint8_t *pos = c->pos, *at = pos;

	*stop = 0;
	if (!c->started || !c->last.abbrev->has_children || c->last_children_skipped ||
	    !c->last_attrs_skipped)
		return 0;
	/* no message: the decoder's walk reports what does not decode */
	if (skip_subtree(c->cu, &pos, c->end, allowed, &at, NULL)) {
		*stop = dw_cu_offset_of(c->cu, at);
		return 0;
	}
	c->pos = pos;
	c->last_children_skipped = true;
	return 1;
}

static int decode_attrs(const struct dw_cu *cu, const struct dw_abbrev *ab,
			const uint8_t **p, const uint8_t *end,
			struct dw_attr *out, size_t max, uint64_t *sibling,
			struct d2b_error *err)
{
	for (unsigned i = 0; i < ab->nr_attrs; i++) {
		const struct dw_abbrev_attr *aa = &ab->attrs[i];
		struct dw_attr tmp, *a = i < max ? &out[i] : &tmp;

		a->name = aa->name;
		if (dw_form_read(cu, aa->form, aa->implicit_const, p, end, a, err))
			return -1;
		if (aa->name == DW_AT_sibling && a->cls == DW_CLS_REF && sibling)
			*sibling = a->u;
	}
	return ab->nr_attrs;
}

int dw_die_attrs(const struct dw_cu *cu, const struct dw_die *die,
		 struct dw_attr *out, size_t max, struct d2b_error *err)
{
	const uint8_t *p = die->attrs;

	return decode_attrs(cu, die->abbrev, &p, dw_cu_at(cu, cu->unit->end),
			    out, max, NULL, err);
}

int dw_cursor_attrs(struct dw_cursor *c, struct dw_attr *out, size_t max,
		    struct d2b_error *err)
{
	const uint8_t *p = c->last.attrs;
	int n;

	n = decode_attrs(c->cu, c->last.abbrev, &p, c->end, out, max,
			 &c->last_sibling, err);
	if (n < 0)
		return -1;
	c->pos = p;
	c->last_attrs_skipped = true;
	return n;
}

int dw_die_attr(const struct dw_cu *cu, const struct dw_die *die,
		uint16_t name, struct dw_attr *out, struct d2b_error *err)
{
	const struct dw_abbrev *ab = die->abbrev;
	const uint8_t *p = die->attrs, *end = dw_cu_at(cu, cu->unit->end);

	for (unsigned i = 0; i < ab->nr_attrs; i++) {
		const struct dw_abbrev_attr *aa = &ab->attrs[i];

		if (aa->name == name) {
			out->name = name;
			return dw_form_read(cu, aa->form, aa->implicit_const, &p, end,
					    out, err) ? -1 : 1;
		}
		if (dw_form_skip(cu, aa->form, &p, end, err))
			return -1;
	}
	return 0;
}

bool dw_attr_int(const struct dw_attr *a, int64_t *val)
{
	switch (a->cls) {
	case DW_CLS_UNSIGNED:
	case DW_CLS_FLAG:
		*val = (int64_t)a->u;
		return true;
	case DW_CLS_SIGNED:
		*val = a->s;
		return true;
	}
	return false;
}
