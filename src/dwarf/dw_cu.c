// SPDX-License-Identifier: GPL-2.0-only
/* dw_cu: a unit opened for decoding: abbreviation table and root-DIE bases. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf/dw_form.h"
#include "dwarf/dw_read.h"
#include "util/bigbuf.h"

int dw_error(const struct dw_cu *cu, const uint8_t *at, struct d2b_error *err,
	     const char *fmt, ...)
{
	char what[D2B_ERROR_MAX];
	va_list ap;

	if (!err || err->set)
		return -1;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return d2b_error_at(err, cu->file->path, cu->sec->name,
			    at ? dw_cu_offset_of(cu, at) : cu->unit->offset, "%s", what);
}

static int abbrev_error(const struct dw_cu *cu, const uint8_t *at,
			struct d2b_error *err, const char *what)
{
	const struct dw_section *s = &cu->file->sec[DW_SEC_ABBREV];

	return d2b_error_at(err, cu->file->path, s->name, (uint64_t)(at - s->data),
			    "%s (abbreviations of the unit at %s+0x%llx)", what,
			    cu->sec->name, (unsigned long long)cu->unit->offset);
}

static int cmp_abbrev_code(const void *a, const void *b)
{
	const struct dw_abbrev *x = a, *y = b;

	return x->code < y->code ? -1 : x->code > y->code;
}

/* OLD's N entries of SIZE bytes in an array of twice *CAP entries from
 * arena A (*CAP doubled), or NULL when out of memory. What OLD held stays
 * in the arena until the unit's end. */
static void *arena_double(struct arena *a, const void *old, size_t n, size_t *cap, size_t size)
{
	void *more = arena_alloc(a, 2 * *cap * size);

	if (more) {
		memcpy(more, old, n * size);
		*cap *= 2;
	}
	return more;
}

/* Attribute specifications of one abbreviation gathered before it is
 * copied into the arena: a unit's abbreviations have up to ~20. */
#define SPECS_INLINE 64

/*
 * One pass over the table, validating as it goes: each abbreviation's
 * attribute specifications are gathered on the stack, then copied into the
 * arena at their final size; the abbreviations' array grows by doubling
 * (in the arena: what it leaves behind goes with the unit). Two passes (count,
 * then fill) read every byte twice: 2-3% of the encoder's CPU, with the
 * census and the main pass each opening every unit.
 */
static int parse_abbrevs(struct dw_cu *cu, struct d2b_error *err)
{
	const struct dw_section *s = &cu->file->sec[DW_SEC_ABBREV];
	const uint8_t *start = s->data + cu->unit->abbrev_offset, *end = s->data + s->size;
	const uint8_t *p = start;
	size_t nr_abbrevs = 0, cap_abbrevs = 64, max_code = 0;
	struct dw_abbrev_attr local[SPECS_INLINE], *specs = local;
	size_t cap_specs = SPECS_INLINE;
	struct dw_abbrev *abbrevs;

	/* dw_form_fixed_size() of the standard forms for this unit, looked
	 * up once (for its readers too: dw_cu_form_size(), once for each of
	 * the ~10^6 attribute specifications of a kernel): called per
	 * attribute it was a switch (mispredicted) */
	for (unsigned f = 0; f < DW_CU_FORM_SIZES; f++) {
		int sz = dw_form_fixed_size(f, cu->unit);

		cu->form_size[f] = (int8_t)(sz > 127 ? -1 : sz);
	}

	abbrevs = arena_alloc(cu->arena, cap_abbrevs * sizeof(*abbrevs));
	if (!abbrevs)
		return d2b_error_oom(err);
	for (;;) {
		const uint8_t *at = p;
		uint64_t code, tag, name, form;
		uint8_t children;
		struct dw_abbrev *a;
		size_t n = 0;
		int32_t fixed = 0;

		if (!rd_uleb(&p, end, &code))
			return abbrev_error(cu, at, err, "abbreviation table runs past the end of the section");
		if (!code)
			break;
		if (!rd_uleb(&p, end, &tag) || !rd_u8(&p, end, &children))
			return abbrev_error(cu, at, err, "truncated abbreviation");
		if (tag == 0 || tag > 0xffff)
			return abbrev_error(cu, at, err, "invalid tag in abbreviation");
		if (children > 1)
			return abbrev_error(cu, at, err, "invalid children flag in abbreviation");
		for (;;) {
			const uint8_t *ap = p;
			int64_t ic = 0;
			int sz;

			if (!rd_uleb(&p, end, &name) || !rd_uleb(&p, end, &form))
				return abbrev_error(cu, ap, err, "truncated attribute specification");
			if (!name && !form)
				break;
			if (!name || name > 0xffff || form > 0xffff)
				return abbrev_error(cu, ap, err, "invalid attribute specification");
			if (form == DW_FORM_implicit_const && !rd_sleb(&p, end, &ic))
				return abbrev_error(cu, ap, err, "truncated implicit constant");
			sz = dw_cu_form_size(cu, (unsigned)form);
			if (sz == -2) {
				char buf[64];
				snprintf(buf, sizeof(buf), "unknown form 0x%llx", (unsigned long long)form);
				return abbrev_error(cu, ap, err, buf);
			}
			if (n == 0xffff)
				return abbrev_error(cu, p, err, "too many attributes in abbreviation");
			if (n == cap_specs &&
			    !(specs = arena_double(cu->arena, specs, n, &cap_specs, sizeof(*specs))))
				return d2b_error_oom(err);
			specs[n].name = (uint16_t)name;
			specs[n].form = (uint16_t)form;
			specs[n].implicit_const = ic;
			n++;
			if (sz < 0 || fixed < 0)
				fixed = -1;
			else
				fixed += sz;
		}
		if (nr_abbrevs == cap_abbrevs &&
		    !(abbrevs = arena_double(cu->arena, abbrevs, nr_abbrevs, &cap_abbrevs,
					     sizeof(*abbrevs))))
			return d2b_error_oom(err);
		a = &abbrevs[nr_abbrevs++];
		a->code = code;
		a->tag = (uint16_t)tag;
		a->has_children = children;
		a->nr_attrs = (uint16_t)n;
		a->fixed_size = fixed;
		a->attrs = arena_alloc(cu->arena, (n ? n : 1) * sizeof(*a->attrs));
		if (!a->attrs)
			return d2b_error_oom(err);
		memcpy(a->attrs, specs, n * sizeof(*a->attrs));
		if (code > max_code)
			max_code = code < SIZE_MAX / 2 ? code : SIZE_MAX / 2;
	}

	cu->abbrevs.nr_abbrevs = nr_abbrevs;
	/* Dense index when codes are compact (the usual 1..N), else sorted. */
	if (max_code <= 2 * nr_abbrevs + 16) {
		cu->abbrevs.dense = arena_zalloc(cu->arena, (max_code + 1) * sizeof(*cu->abbrevs.dense));
		if (!cu->abbrevs.dense)
			return d2b_error_oom(err);
		cu->abbrevs.nr_dense = max_code;
		for (size_t i = 0; i < nr_abbrevs; i++) {
			abbrevs[i].index = (uint32_t)i;
			if (cu->abbrevs.dense[abbrevs[i].code - 1])
				return abbrev_error(cu, start, err, "duplicate abbreviation code");
			cu->abbrevs.dense[abbrevs[i].code - 1] = &abbrevs[i];
		}
	} else {
		qsort(abbrevs, nr_abbrevs, sizeof(*abbrevs), cmp_abbrev_code);
		for (size_t i = 0; i < nr_abbrevs; i++)
			abbrevs[i].index = (uint32_t)i;
		for (size_t i = 1; i < nr_abbrevs; i++)
			if (abbrevs[i].code == abbrevs[i - 1].code)
				return abbrev_error(cu, start, err, "duplicate abbreviation code");
		cu->abbrevs.sparse = abbrevs;
		cu->abbrevs.nr_sparse = nr_abbrevs;
	}
	return 0;
}

const struct dw_abbrev *dw_cu_abbrev(const struct dw_cu *cu, uint64_t code)
{
	size_t lo = 0, hi = cu->abbrevs.nr_sparse;

	if (code - 1 < cu->abbrevs.nr_dense)
		return cu->abbrevs.dense[code - 1];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t c = cu->abbrevs.sparse[mid].code;

		if (c == code)
			return &cu->abbrevs.sparse[mid];
		if (c < code)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

uint8_t *dw_cu_abbrev_flags(const struct dw_cu *cu, bool (*pred)(unsigned tag), struct arena *a)
{
	const struct dw_abbrev_table *t = &cu->abbrevs;
	uint8_t *flags = arena_alloc(a, t->nr_abbrevs ? t->nr_abbrevs : 1);

	if (!flags)
		return NULL;
	memset(flags, 0, t->nr_abbrevs ? t->nr_abbrevs : 1);
	for (size_t i = 0; i < t->nr_dense; i++)
		if (t->dense[i] && t->dense[i]->index < t->nr_abbrevs)
			flags[t->dense[i]->index] = pred(t->dense[i]->tag);
	for (size_t i = 0; i < t->nr_sparse; i++)
		if (t->sparse[i].index < t->nr_abbrevs)
			flags[t->sparse[i].index] = pred(t->sparse[i].tag);
	return flags;
}

/* Read the base attributes of the root DIE, which other forms depend on
 * (strx needs str_offsets_base, and it may come after DW_AT_name). */
static int read_bases(struct dw_cu *cu, struct d2b_error *err)
{
	const struct dw_unit *u = cu->unit;
	const uint8_t *p = dw_cu_at(cu, u->first_die), *end = dw_cu_at(cu, u->end);
	const struct dw_abbrev *ab;
	uint64_t code;

	/* Defaults: just past the first table's header, as producers that omit
	 * the attribute expect. */
	if (u->version >= 5) {
		unsigned hdr = u->offset_size == 8 ? 16 : 8;
		cu->str_offsets_base = hdr;
		cu->addr_base = hdr;
		cu->loclists_base = u->offset_size == 8 ? 20 : 12;
		cu->rnglists_base = u->offset_size == 8 ? 20 : 12;
	}
	if (!rd_uleb(&p, end, &code))
		return dw_error(cu, p, err, "truncated root DIE");
	if (!code)
		return 0;
	ab = dw_cu_abbrev(cu, code);
	if (!ab)
		return dw_error(cu, dw_cu_at(cu, u->first_die), err,
				"abbreviation code %llu does not exist", (unsigned long long)code);
	for (unsigned i = 0; i < ab->nr_attrs; i++) {
		const struct dw_abbrev_attr *aa = &ab->attrs[i];
		uint64_t *dst = NULL;
		bool *has = NULL;

		switch (aa->name) {
		case DW_AT_str_offsets_base:
			dst = &cu->str_offsets_base, has = &cu->has_str_offsets_base;
			break;
		case DW_AT_addr_base:
		case DW_AT_GNU_addr_base:
			dst = &cu->addr_base, has = &cu->has_addr_base;
			break;
		case DW_AT_loclists_base:
			dst = &cu->loclists_base, has = &cu->has_loclists_base;
			break;
		case DW_AT_rnglists_base:
		case DW_AT_GNU_ranges_base:
			dst = &cu->rnglists_base, has = &cu->has_rnglists_base;
			break;
		}
		if (dst && (aa->form == DW_FORM_sec_offset || aa->form == DW_FORM_data4 ||
			    aa->form == DW_FORM_data8)) {
			if (!rd_uN(&p, end, (unsigned)dw_form_fixed_size(aa->form, u), dst))
				return dw_error(cu, p, err, "truncated root DIE");
			*has = true;
			continue;
		}
		if (aa->name == DW_AT_low_pc && aa->form == DW_FORM_addr) {
			if (!rd_uN(&p, end, u->addr_size, &cu->low_pc))
				return dw_error(cu, p, err, "truncated root DIE");
			continue;
		}
		if (aa->name == DW_AT_low_pc && aa->form != DW_FORM_addr) {
			/* addrx: resolve after the bases are known (below). */
		}
		if (dw_form_skip(cu, aa->form, &p, end, err))
			return -1;
	}
	/* A low_pc given as addrx needs addr_base: decode it now. */
	{
		struct dw_die root = {
			.offset = u->first_die,
			.abbrev = ab,
			.attrs = dw_cu_at(cu, u->first_die),
		};
		struct dw_attr a;
		const uint8_t *q = root.attrs;

		rd_skip_leb(&q, end);
		root.attrs = q;
		for (unsigned i = 0; i < ab->nr_attrs; i++) {
			if (ab->attrs[i].name == DW_AT_low_pc && ab->attrs[i].form != DW_FORM_addr) {
				if (dw_die_attr(cu, &root, DW_AT_low_pc, &a, err) < 0)
					return -1;
				if (a.cls == DW_CLS_ADDR)
					cu->low_pc = a.u;
			}
		}
	}
	return 0;
}

int dw_cu_open_copy(struct dw_cu *cu, const struct dw_file *df, size_t unit,
		    struct dw_unit_buf *buf, struct arena *arena, struct d2b_error *err)
{
	const struct dw_unit *u;
	size_t n;

	memset(cu, 0, sizeof(*cu));
	if (unit >= df->nr_units)
		return d2b_error_set(err, "%s: unit %zu does not exist", df->path, unit);
	cu->file = df;
	cu->unit = u = &df->units[unit];
	cu->sec = &df->sec[u->section];
	cu->arena = arena;
	cu->bytes = cu->sec->data + u->offset;
	cu->bytes_off = u->offset;
	n = u->end - u->offset;
	if (buf && df->elf && elf_file_is_mapped(df->elf, cu->bytes, n)) {
		if (n > buf->cap) {
			/* 4 MiB first: two huge pages hold most units */
			size_t cap = buf->cap ? buf->cap : 4u << 20;
			uint8_t *p;

			while (cap < n)
				cap = cap > SIZE_MAX / 2 ? n : cap * 2;
			p = bigbuf_resize(buf->data, buf->cap, cap);
			if (!p)
				return d2b_error_oom(err);
			buf->data = p;
			buf->cap = cap;
		}
		if (elf_file_read(df->elf, cu->bytes, buf->data, n))
			return d2b_error_at(err, df->path, cu->sec->name, u->offset,
					    "cannot read unit %zu (%zu bytes): %s", unit, n,
					    strerror(errno));
		cu->bytes = buf->data;
	}
	if (parse_abbrevs(cu, err))
		return -1;
	return read_bases(cu, err);
}

int dw_cu_open(struct dw_cu *cu, const struct dw_file *df, size_t unit,
	       struct arena *arena, struct d2b_error *err)
{
	return dw_cu_open_copy(cu, df, unit, NULL, arena, err);
}

void dw_unit_buf_free(struct dw_unit_buf *buf)
{
	bigbuf_free(buf->data, buf->cap);
	buf->data = NULL;
	buf->cap = 0;
}
