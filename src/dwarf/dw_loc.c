// SPDX-License-Identifier: GPL-2.0-only
/* Location expressions and lists: where a parameter lives at function entry. */
#include <string.h>

#include "dwarf/dw_form.h"
#include "dwarf/dw_read.h"

static void summarise_expr(const uint8_t *p, uint64_t len, struct dw_loc_summary *out)
{
	const uint8_t *end = p + len;
	uint8_t op;
	uint64_t reg;

	out->kind = DW_LOC_OTHER;
	out->reg = 0;
	if (!len) {
		out->kind = DW_LOC_NONE;
		return;
	}
	op = *p++;
	if (op >= DW_OP_reg0 && op <= DW_OP_reg31) {
		out->kind = DW_LOC_REG;
		out->reg = op - DW_OP_reg0;
	} else if (op == DW_OP_regx) {
		if (!rd_uleb(&p, end, &reg) || reg > 0xffff)
			return;
		out->kind = DW_LOC_REG;
		out->reg = (uint16_t)reg;
	} else if (op == DW_OP_fbreg || (op >= DW_OP_breg0 && op <= DW_OP_breg31) ||
		   op == DW_OP_bregx || op == DW_OP_addr || op == DW_OP_addrx ||
		   op == DW_OP_call_frame_cfa) {
		out->kind = DW_LOC_STACK;
	}
}

static int loc_error(const struct dw_cu *cu, int sec, uint64_t off,
		     struct d2b_error *err, const char *what)
{
	return d2b_error_at(err, cu->file->path, cu->file->sec[sec].name, off, "%s", what);
}

/* DWARF 2-4 .debug_loc list at OFF. */
static int summarise_loc(const struct dw_cu *cu, uint64_t off, uint64_t pc,
			 struct dw_loc_summary *out, struct d2b_error *err)
{
	const struct dw_section *s = &cu->file->sec[DW_SEC_LOC];
	unsigned as = cu->unit->addr_size;
	uint64_t max = as == 8 ? UINT64_MAX : (as == 4 ? 0xffffffffu : 0xffffu);
	uint64_t base = cu->low_pc;
	const uint8_t *p, *end;
	bool first = true;

	out->kind = DW_LOC_NONE;
	if (!s->data || off >= s->size)
		return loc_error(cu, DW_SEC_LOC, off, err, "location list offset outside .debug_loc");
	p = s->data + off;
	end = s->data + s->size;
	for (;;) {
		uint64_t b, e;
		uint16_t len;

		if (!rd_uN(&p, end, as, &b) || !rd_uN(&p, end, as, &e))
			return loc_error(cu, DW_SEC_LOC, (uint64_t)(p - s->data), err, "truncated location list");
		if (!b && !e)
			return 0;
		if (b == max) {
			base = e;
			continue;
		}
		if (!rd_u16(&p, end, &len) || len > end - p)
			return loc_error(cu, DW_SEC_LOC, (uint64_t)(p - s->data), err, "truncated location list entry");
		if (first || (pc >= base + b && pc < base + e)) {
			summarise_expr(p, len, out);
			if (!first || (pc >= base + b && pc < base + e))
				return 0;
			first = false;
		}
		p += len;
	}
}

int dw_cu_read_addrx(const struct dw_cu *cu, uint64_t idx, uint64_t *addr)
{
	const struct dw_section *s = &cu->file->sec[DW_SEC_ADDR];
	unsigned as = cu->unit->addr_size;
	const uint8_t *p;

	if (!s->data || !as || cu->addr_base > s->size || idx >= (s->size - cu->addr_base) / as)
		return -1;
	p = s->data + cu->addr_base + idx * as;
	return rd_uN(&p, s->data + s->size, as, addr) ? 0 : -1;
}

/* DWARF 5 .debug_loclists list at OFF. */
static int summarise_loclists(const struct dw_cu *cu, uint64_t off, uint64_t pc,
			      struct dw_loc_summary *out, struct d2b_error *err)
{
	const struct dw_section *s = &cu->file->sec[DW_SEC_LOCLISTS];
	unsigned as = cu->unit->addr_size;
	uint64_t base = cu->low_pc;
	const uint8_t *p, *end;
	bool have_first = false;

	out->kind = DW_LOC_NONE;
	if (!s->data || off >= s->size)
		return loc_error(cu, DW_SEC_LOCLISTS, off, err, "location list offset outside .debug_loclists");
	p = s->data + off;
	end = s->data + s->size;
	for (;;) {
		const uint8_t *at = p;
		uint8_t kind;
		uint64_t a = 0, b = 0, len, lo = 0, hi = 0;
		bool has_range = true;

		if (!rd_u8(&p, end, &kind))
			goto truncated;
		switch (kind) {
		case DW_LLE_end_of_list:
			return 0;
		case DW_LLE_base_addressx:
			if (!rd_uleb(&p, end, &a))
				goto truncated;
			if (dw_cu_read_addrx(cu, a, &base))
				return loc_error(cu, DW_SEC_LOCLISTS, (uint64_t)(at - s->data), err,
						 "address index outside .debug_addr");
			continue;
		case DW_LLE_base_address:
			if (!rd_uN(&p, end, as, &base))
				goto truncated;
			continue;
		case DW_LLE_startx_endx:
		case DW_LLE_startx_length:
			if (!rd_uleb(&p, end, &a) || !rd_uleb(&p, end, &b))
				goto truncated;
			if (dw_cu_read_addrx(cu, a, &lo))
				return loc_error(cu, DW_SEC_LOCLISTS, (uint64_t)(at - s->data), err,
						 "address index outside .debug_addr");
			if (kind == DW_LLE_startx_endx) {
				if (dw_cu_read_addrx(cu, b, &hi))
					return loc_error(cu, DW_SEC_LOCLISTS, (uint64_t)(at - s->data), err,
							 "address index outside .debug_addr");
			} else {
				hi = lo + b;
			}
			break;
		case DW_LLE_offset_pair:
			if (!rd_uleb(&p, end, &a) || !rd_uleb(&p, end, &b))
				goto truncated;
			lo = base + a;
			hi = base + b;
			break;
		case DW_LLE_default_location:
			has_range = false;
			break;
		case DW_LLE_start_end:
			if (!rd_uN(&p, end, as, &lo) || !rd_uN(&p, end, as, &hi))
				goto truncated;
			break;
		case DW_LLE_start_length:
			if (!rd_uN(&p, end, as, &lo) || !rd_uleb(&p, end, &b))
				goto truncated;
			hi = lo + b;
			break;
		default:
			return loc_error(cu, DW_SEC_LOCLISTS, (uint64_t)(at - s->data), err,
					 "unknown location list entry kind");
		}
		if (!rd_uleb(&p, end, &len) || len > (uint64_t)(end - p))
			goto truncated;
		if (has_range && pc >= lo && pc < hi) {
			summarise_expr(p, len, out);
			return 0;
		}
		if (!have_first) {
			summarise_expr(p, len, out);
			have_first = true;
		}
		p += len;
		continue;
truncated:
		return loc_error(cu, DW_SEC_LOCLISTS, (uint64_t)(at - s->data), err,
				 "truncated location list entry");
	}
}

int dw_location_summary(const struct dw_cu *cu, const struct dw_attr *loc,
			uint64_t entry_pc, struct dw_loc_summary *out,
			struct d2b_error *err)
{
	out->kind = DW_LOC_NONE;
	out->reg = 0;
	switch (loc->cls) {
	case DW_CLS_BLOCK:
		summarise_expr(loc->block.data, loc->block.len, out);
		return 0;
	case DW_CLS_LOCLIST:
		return summarise_loclists(cu, loc->u, entry_pc, out, err);
	case DW_CLS_UNSIGNED:
		/* sec_offset (or data4/data8 in DWARF 2-3): a list offset. */
		if (cu->unit->version >= 5)
			return summarise_loclists(cu, loc->u, entry_pc, out, err);
		return summarise_loc(cu, loc->u, entry_pc, out, err);
	}
	out->kind = DW_LOC_OTHER;
	return 0;
}
