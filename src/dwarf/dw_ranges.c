// SPDX-License-Identifier: GPL-2.0-only
/* Address range lists (DW_AT_ranges): .debug_ranges up to DWARF 4,
 * .debug_rnglists from DWARF 5. */
#include "dwarf/dw_form.h"
#include "dwarf/dw_read.h"

static int range_error(const struct dw_cu *cu, int sec, uint64_t off,
		       struct d2b_error *err, const char *what)
{
	return d2b_error_at(err, cu->file->path, cu->file->sec[sec].name, off, "%s", what);
}

/* DWARF 2-4 .debug_ranges list at OFF: address pairs relative to the
 * base (the unit's low_pc until a base address selection entry). */
static int each_range(const struct dw_cu *cu, uint64_t off, dw_range_fn *fn, void *arg,
		      struct d2b_error *err)
{
	const struct dw_section *s = &cu->file->sec[DW_SEC_RANGES];
	unsigned as = cu->unit->addr_size;
	uint64_t max = as == 8 ? UINT64_MAX : (as == 4 ? 0xffffffffu : 0xffffu);
	uint64_t base = cu->low_pc;
	const uint8_t *p, *end;

	if (!s->data || off >= s->size)
		return range_error(cu, DW_SEC_RANGES, off, err, "range list offset outside .debug_ranges");
	p = s->data + off;
	end = s->data + s->size;
	for (;;) {
		const uint8_t *at = p;
		uint64_t b, e;
		int rc;

		if (!rd_uN(&p, end, as, &b) || !rd_uN(&p, end, as, &e))
			return range_error(cu, DW_SEC_RANGES, (uint64_t)(at - s->data), err,
					   "truncated range list");
		if (!b && !e)
			return 0;
		if (b == max) {
			base = e;
			continue;
		}
		rc = fn(arg, base + b, base + e);
		if (rc)
			return rc > 0 ? 0 : -1;
	}
}

/* DWARF 5 .debug_rnglists list at OFF. */
static int each_rnglist(const struct dw_cu *cu, uint64_t off, dw_range_fn *fn, void *arg,
			struct d2b_error *err)
{
	const struct dw_section *s = &cu->file->sec[DW_SEC_RNGLISTS];
	unsigned as = cu->unit->addr_size;
	uint64_t base = cu->low_pc;
	const uint8_t *p, *end;

	if (!s->data || off >= s->size)
		return range_error(cu, DW_SEC_RNGLISTS, off, err,
				   "range list offset outside .debug_rnglists");
	p = s->data + off;
	end = s->data + s->size;
	for (;;) {
		const uint8_t *at = p;
		uint64_t a = 0, b = 0, lo = 0, hi = 0;
		uint8_t kind;
		int rc;

		if (!rd_u8(&p, end, &kind))
			goto truncated;
		switch (kind) {
		case DW_RLE_end_of_list:
			return 0;
		case DW_RLE_base_addressx:
			if (!rd_uleb(&p, end, &a))
				goto truncated;
			if (dw_cu_read_addrx(cu, a, &base))
				goto bad_index;
			continue;
		case DW_RLE_base_address:
			if (!rd_uN(&p, end, as, &base))
				goto truncated;
			continue;
		case DW_RLE_startx_endx:
		case DW_RLE_startx_length:
			if (!rd_uleb(&p, end, &a) || !rd_uleb(&p, end, &b))
				goto truncated;
			if (dw_cu_read_addrx(cu, a, &lo))
				goto bad_index;
			if (kind == DW_RLE_startx_length)
				hi = lo + b;
			else if (dw_cu_read_addrx(cu, b, &hi))
				goto bad_index;
			break;
		case DW_RLE_offset_pair:
			if (!rd_uleb(&p, end, &a) || !rd_uleb(&p, end, &b))
				goto truncated;
			lo = base + a;
			hi = base + b;
			break;
		case DW_RLE_start_end:
			if (!rd_uN(&p, end, as, &lo) || !rd_uN(&p, end, as, &hi))
				goto truncated;
			break;
		case DW_RLE_start_length:
			if (!rd_uN(&p, end, as, &lo) || !rd_uleb(&p, end, &b))
				goto truncated;
			hi = lo + b;
			break;
		default:
			return range_error(cu, DW_SEC_RNGLISTS, (uint64_t)(at - s->data), err,
					   "unknown range list entry kind");
		}
		rc = fn(arg, lo, hi);
		if (rc)
			return rc > 0 ? 0 : -1;
		continue;
truncated:
		return range_error(cu, DW_SEC_RNGLISTS, (uint64_t)(at - s->data), err,
				   "truncated range list entry");
bad_index:
		return range_error(cu, DW_SEC_RNGLISTS, (uint64_t)(at - s->data), err,
				   "address index outside .debug_addr");
	}
}

int dw_ranges_each(const struct dw_cu *cu, const struct dw_attr *ranges, dw_range_fn *fn,
		   void *arg, struct d2b_error *err)
{
	switch (ranges->cls) {
	case DW_CLS_RNGLIST:
		return each_rnglist(cu, ranges->u, fn, arg, err);
	case DW_CLS_UNSIGNED:
		/* sec_offset (data4/data8 before DWARF 4): a list's offset */
		if (cu->unit->version >= 5)
			return each_rnglist(cu, ranges->u, fn, arg, err);
		return each_range(cu, ranges->u, fn, arg, err);
	}
	return d2b_error_at(err, cu->file->path, cu->file->sec[cu->unit->section].name,
			    cu->unit->offset, "DW_AT_ranges of an unexpected form 0x%x",
			    ranges->form);
}

static int sum_one(void *arg, uint64_t lo, uint64_t hi)
{
	struct dw_ranges_sum *sum = arg;

	if (!sum->count)
		sum->first = lo;
	sum->count++;
	sum->total += hi - lo;
	return 0;
}

int dw_ranges_sum(const struct dw_cu *cu, const struct dw_attr *ranges,
		  struct dw_ranges_sum *out, struct d2b_error *err)
{
	out->first = out->total = 0;
	out->count = 0;
	return dw_ranges_each(cu, ranges, sum_one, out, err);
}
