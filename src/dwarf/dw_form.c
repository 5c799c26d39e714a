// SPDX-License-Identifier: GPL-2.0-only
/* Attribute forms: sizes, skipping, and decoding into normalised values. */
#include <string.h>

#include "dwarf/dw_form.h"
#include "dwarf/dw_read.h"

int dw_form_fixed_size(unsigned form, const struct dw_unit *u)
{
	switch (form) {
	case DW_FORM_flag_present:
	case DW_FORM_implicit_const:
		return 0;
	case DW_FORM_data1:
	case DW_FORM_ref1:
	case DW_FORM_flag:
	case DW_FORM_strx1:
	case DW_FORM_addrx1:
		return 1;
	case DW_FORM_data2:
	case DW_FORM_ref2:
	case DW_FORM_strx2:
	case DW_FORM_addrx2:
		return 2;
	case DW_FORM_strx3:
	case DW_FORM_addrx3:
		return 3;
	case DW_FORM_data4:
	case DW_FORM_ref4:
	case DW_FORM_strx4:
	case DW_FORM_addrx4:
		return 4;
	case DW_FORM_data8:
	case DW_FORM_ref8:
	case DW_FORM_ref_sig8:
		return 8;
	case DW_FORM_data16:
		return 16;
	case DW_FORM_addr:
		return u->addr_size;
	case DW_FORM_strp:
	case DW_FORM_line_strp:
	case DW_FORM_sec_offset:
		return u->offset_size;
	case DW_FORM_ref_addr:
		return u->version == 2 ? u->addr_size : u->offset_size;
	case DW_FORM_udata:
	case DW_FORM_sdata:
	case DW_FORM_ref_udata:
	case DW_FORM_strx:
	case DW_FORM_addrx:
	case DW_FORM_loclistx:
	case DW_FORM_rnglistx:
	case DW_FORM_string:
	case DW_FORM_block:
	case DW_FORM_block1:
	case DW_FORM_block2:
	case DW_FORM_block4:
	case DW_FORM_exprloc:
	case DW_FORM_indirect:
	case DW_FORM_GNU_addr_index:
	case DW_FORM_GNU_str_index:
		return -1;
	case DW_FORM_ref_sup4:
	case DW_FORM_ref_sup8:
	case DW_FORM_strp_sup:
	case DW_FORM_GNU_ref_alt:
	case DW_FORM_GNU_strp_alt:
		return -3;
	}
	return -2;
}

static int form_error(const struct dw_cu *cu, const uint8_t *at, unsigned form,
		      struct d2b_error *err, const char *what)
{
	char buf[16];

	return dw_error(cu, at, err, "%s: %s", dw_form_name(form, buf), what);
}

static const char *section_string(const struct dw_section *s, uint64_t off)
{
	if (!s->data || off >= s->size)
		return NULL;
	if (s->data[s->size - 1] == 0)
		return (const char *)s->data + off;
	return sec_str(s->data, s->size, off);
}

/* Entry IDX of an offsets/address table at BASE in section SEC. */
static int table_entry(const struct dw_cu *cu, int sec, uint64_t base,
		       uint64_t idx, unsigned size, uint64_t *val)
{
	const struct dw_section *s = &cu->file->sec[sec];
	uint64_t off;
	const uint8_t *p;

	if (!s->data || idx > (UINT64_MAX - base) / size)
		return -1;
	off = base + idx * size;
	if (off > s->size || s->size - off < size)
		return -1;
	p = s->data + off;
	return rd_uN(&p, s->data + s->size, size, val) ? 0 : -1;
}

/* The index of a strx*, addrx* or GNU_*_index form. */
static bool read_index(unsigned form, const uint8_t **p, const uint8_t *end, uint64_t *idx)
{
	uint32_t v24;

	switch (form) {
	case DW_FORM_strx1:
	case DW_FORM_addrx1:
		return rd_uN(p, end, 1, idx);
	case DW_FORM_strx2:
	case DW_FORM_addrx2:
		return rd_uN(p, end, 2, idx);
	case DW_FORM_strx3:
	case DW_FORM_addrx3:
		if (!rd_u24(p, end, &v24))
			return false;
		*idx = v24;
		return true;
	case DW_FORM_strx4:
	case DW_FORM_addrx4:
		return rd_uN(p, end, 4, idx);
	}
	return rd_uleb(p, end, idx);
}

int dw_form_read(const struct dw_cu *cu, unsigned form, int64_t implicit_const,
		 const uint8_t **pp, const uint8_t *end, struct dw_attr *out,
		 struct d2b_error *err)
{
	const struct dw_unit *u = cu->unit;
	const struct dw_file *df = cu->file;
	const uint8_t *p = *pp, *start = *pp;
	uint64_t v = 0, idx;
	unsigned size;

	out->form = (uint16_t)form;
	switch (form) {
	case DW_FORM_addr:
		if (!rd_uN(&p, end, u->addr_size, &v))
			goto truncated;
		out->cls = DW_CLS_ADDR;
		out->u = v;
		break;
	case DW_FORM_data1:
	case DW_FORM_data2:
	case DW_FORM_data4:
	case DW_FORM_data8:
		size = (unsigned)dw_form_fixed_size(form, u);
		if (!rd_uN(&p, end, size, &v))
			goto truncated;
		out->cls = DW_CLS_UNSIGNED;
		out->u = v;
		break;
	case DW_FORM_udata:
		if (!rd_uleb(&p, end, &v))
			goto truncated;
		out->cls = DW_CLS_UNSIGNED;
		out->u = v;
		break;
	case DW_FORM_sdata:
		if (!rd_sleb(&p, end, &out->s))
			goto truncated;
		out->cls = DW_CLS_SIGNED;
		break;
	case DW_FORM_implicit_const:
		out->cls = DW_CLS_SIGNED;
		out->s = implicit_const;
		break;
	case DW_FORM_flag:
		if (!rd_uN(&p, end, 1, &v))
			goto truncated;
		out->cls = DW_CLS_FLAG;
		out->u = v != 0;
		break;
	case DW_FORM_flag_present:
		out->cls = DW_CLS_FLAG;
		out->u = 1;
		break;
	case DW_FORM_string:
		if (!rd_str(&p, end, &out->str))
			return form_error(cu, start, form, err, "string runs past the end of its unit");
		out->cls = DW_CLS_STRING;
		break;
	case DW_FORM_strp:
	case DW_FORM_line_strp: {
		const struct dw_section *s =
			&df->sec[form == DW_FORM_strp ? DW_SEC_STR : DW_SEC_LINE_STR];
		if (!rd_uN(&p, end, u->offset_size, &v))
			goto truncated;
		out->str = section_string(s, v);
		if (!out->str)
			return dw_error(cu, start, err, "string offset 0x%llx is outside %s",
					(unsigned long long)v, s->name);
		out->cls = DW_CLS_STRING;
		break;
	}
	case DW_FORM_strx:
	case DW_FORM_GNU_str_index:
	case DW_FORM_strx1:
	case DW_FORM_strx2:
	case DW_FORM_strx3:
	case DW_FORM_strx4: {
		if (!read_index(form, &p, end, &idx))
			goto truncated;
		if (table_entry(cu, DW_SEC_STR_OFFSETS, cu->str_offsets_base, idx,
				u->offset_size, &v))
			return dw_error(cu, start, err,
					"string index %llu is outside .debug_str_offsets (base 0x%llx)",
					(unsigned long long)idx,
					(unsigned long long)cu->str_offsets_base);
		out->str = section_string(&df->sec[DW_SEC_STR], v);
		if (!out->str)
			return dw_error(cu, start, err, "string offset 0x%llx is outside .debug_str",
					(unsigned long long)v);
		out->cls = DW_CLS_STRING;
		break;
	}
	case DW_FORM_ref1:
	case DW_FORM_ref2:
	case DW_FORM_ref4:
	case DW_FORM_ref8:
	case DW_FORM_ref_udata:
		if (form == DW_FORM_ref_udata) {
			if (!rd_uleb(&p, end, &v))
				goto truncated;
		} else if (!rd_uN(&p, end, (unsigned)dw_form_fixed_size(form, u), &v)) {
			goto truncated;
		}
		if (v >= u->end - u->offset)
			return dw_error(cu, start, err, "reference 0x%llx is outside its unit",
					(unsigned long long)v);
		out->cls = DW_CLS_REF;
		out->u = u->offset + v;
		break;
	case DW_FORM_ref_addr:
		if (!rd_uN(&p, end, u->version == 2 ? u->addr_size : u->offset_size, &v))
			goto truncated;
		if (v >= df->sec[DW_SEC_INFO].size)
			return dw_error(cu, start, err, "reference 0x%llx is outside .debug_info",
					(unsigned long long)v);
		out->cls = DW_CLS_REF;
		out->u = v;
		break;
	case DW_FORM_ref_sig8:
		if (!rd_u64(&p, end, &v))
			goto truncated;
		out->cls = DW_CLS_REF_SIG;
		out->u = v;
		break;
	case DW_FORM_sec_offset:
		if (!rd_uN(&p, end, u->offset_size, &v))
			goto truncated;
		out->cls = DW_CLS_UNSIGNED;
		out->u = v;
		break;
	case DW_FORM_block1:
	case DW_FORM_block2:
	case DW_FORM_block4:
	case DW_FORM_block:
	case DW_FORM_exprloc:
		if (form == DW_FORM_block || form == DW_FORM_exprloc) {
			if (!rd_uleb(&p, end, &v))
				goto truncated;
		} else if (!rd_uN(&p, end, form == DW_FORM_block1 ? 1 : form == DW_FORM_block2 ? 2 : 4, &v)) {
			goto truncated;
		}
		if (v > (uint64_t)(end - p))
			return form_error(cu, start, form, err, "block runs past the end of its unit");
		out->cls = DW_CLS_BLOCK;
		out->block.data = p;
		out->block.len = v;
		p += v;
		break;
	case DW_FORM_data16:
		if (end - p < 16)
			goto truncated;
		out->cls = DW_CLS_BLOCK;
		out->block.data = p;
		out->block.len = 16;
		p += 16;
		break;
	case DW_FORM_addrx:
	case DW_FORM_GNU_addr_index:
	case DW_FORM_addrx1:
	case DW_FORM_addrx2:
	case DW_FORM_addrx3:
	case DW_FORM_addrx4: {
		if (!read_index(form, &p, end, &idx))
			goto truncated;
		if (table_entry(cu, DW_SEC_ADDR, cu->addr_base, idx, u->addr_size, &v))
			return dw_error(cu, start, err,
					"address index %llu is outside .debug_addr (base 0x%llx)",
					(unsigned long long)idx, (unsigned long long)cu->addr_base);
		out->cls = DW_CLS_ADDR;
		out->u = v;
		break;
	}
	case DW_FORM_loclistx:
	case DW_FORM_rnglistx: {
		int sec = form == DW_FORM_loclistx ? DW_SEC_LOCLISTS : DW_SEC_RNGLISTS;
		uint64_t base = form == DW_FORM_loclistx ? cu->loclists_base : cu->rnglists_base;

		if (!rd_uleb(&p, end, &idx))
			goto truncated;
		if (table_entry(cu, sec, base, idx, u->offset_size, &v) ||
		    v > UINT64_MAX - base)
			return dw_error(cu, start, err, "list index %llu is outside %s",
					(unsigned long long)idx, df->sec[sec].name);
		out->cls = form == DW_FORM_loclistx ? DW_CLS_LOCLIST : DW_CLS_RNGLIST;
		out->u = base + v;
		break;
	}
	case DW_FORM_indirect: {
		uint64_t real;

		if (!rd_uleb(&p, end, &real))
			goto truncated;
		if (real == DW_FORM_indirect || real == DW_FORM_implicit_const)
			return dw_error(cu, start, err, "DW_FORM_indirect names form 0x%llx",
					(unsigned long long)real);
		if (real > 0xffff)
			return dw_error(cu, start, err, "unknown form 0x%llx",
					(unsigned long long)real);
		if (dw_form_read(cu, (unsigned)real, 0, &p, end, out, err))
			return -1;
		break;
	}
	case DW_FORM_ref_sup4:
	case DW_FORM_ref_sup8:
	case DW_FORM_strp_sup:
	case DW_FORM_GNU_ref_alt:
	case DW_FORM_GNU_strp_alt:
		return form_error(cu, start, form, err,
				  "refers to a supplementary object file (.gnu_debugaltlink, dwz), which is not supported");
	default:
		return dw_error(cu, start, err, "unknown form 0x%x", form);
	}
	*pp = p;
	return 0;
truncated:
	return form_error(cu, start, form, err, "value runs past the end of its unit");
}

int dw_form_skip(const struct dw_cu *cu, unsigned form, const uint8_t **pp,
		 const uint8_t *end, struct d2b_error *err)
{
	const uint8_t *p = *pp;
	uint64_t v;
	int size = dw_form_fixed_size(form, cu->unit);

	if (size >= 0) {
		if ((uint64_t)(end - p) < (uint64_t)size)
			return form_error(cu, p, form, err, "value runs past the end of its unit");
		*pp = p + size;
		return 0;
	}
	switch (form) {
	case DW_FORM_udata:
	case DW_FORM_sdata:
	case DW_FORM_ref_udata:
	case DW_FORM_strx:
	case DW_FORM_addrx:
	case DW_FORM_loclistx:
	case DW_FORM_rnglistx:
	case DW_FORM_GNU_addr_index:
	case DW_FORM_GNU_str_index:
		if (!rd_skip_leb(&p, end))
			break;
		*pp = p;
		return 0;
	case DW_FORM_string: {
		const uint8_t *nul = memchr(p, 0, (size_t)(end - p));
		if (!nul)
			break;
		*pp = nul + 1;
		return 0;
	}
	case DW_FORM_block:
	case DW_FORM_exprloc:
	case DW_FORM_block1:
	case DW_FORM_block2:
	case DW_FORM_block4:
		if (form == DW_FORM_block || form == DW_FORM_exprloc) {
			if (!rd_uleb(&p, end, &v))
				break;
		} else if (!rd_uN(&p, end, form == DW_FORM_block1 ? 1 : form == DW_FORM_block2 ? 2 : 4, &v)) {
			break;
		}
		if (v > (uint64_t)(end - p))
			break;
		*pp = p + v;
		return 0;
	default: {
		/* indirect and anything unusual: decode fully. */
		struct dw_attr a;
		return dw_form_read(cu, form, 0, pp, end, &a, err);
	}
	}
	return form_error(cu, *pp, form, err, "value runs past the end of its unit");
}
