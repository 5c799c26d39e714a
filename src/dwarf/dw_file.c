// SPDX-License-Identifier: GPL-2.0-only
/* dw_file: the debug sections of one ELF and the index of its unit headers. */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf/dwarf.h"
#include "dwarf/dw_read.h"

static const char *const section_names[DW_SEC_NR] = {
	[DW_SEC_INFO] = ".debug_info",
	[DW_SEC_TYPES] = ".debug_types",
	[DW_SEC_ABBREV] = ".debug_abbrev",
	[DW_SEC_STR] = ".debug_str",
	[DW_SEC_LINE_STR] = ".debug_line_str",
	[DW_SEC_STR_OFFSETS] = ".debug_str_offsets",
	[DW_SEC_ADDR] = ".debug_addr",
	[DW_SEC_LINE] = ".debug_line",
	[DW_SEC_LOC] = ".debug_loc",
	[DW_SEC_LOCLISTS] = ".debug_loclists",
	[DW_SEC_RANGES] = ".debug_ranges",
	[DW_SEC_RNGLISTS] = ".debug_rnglists",
};

static int unit_error(const struct dw_file *df, int sec, uint64_t off,
		      struct d2b_error *err, const char *what)
{
	return d2b_error_at(err, df->path, section_names[sec], off,
			    "bad unit header: %s", what);
}

/* The longest unit header: 64-bit length (12), version (2), unit type and
 * address size (2), abbreviation offset (8), signature (8), type offset (8). */
#define UNIT_HEADER_MAX 40

/* Parse the unit header at OFF of section SEC into U. */
static int parse_unit_header(const struct dw_file *df, int sec, uint64_t off,
			     struct dw_unit *u, struct d2b_error *err)
{
	const struct dw_section *s = &df->sec[sec];
	/* The header is read into HDR (by pread when the section is mapped:
	 * touching the mapping would fault in ~64 KiB around each of the
	 * vmlinux's 2,172 headers); offsets below are relative to it. */
	uint8_t hdr[UNIT_HEADER_MAX];
	size_t avail = s->size - off, n = avail < sizeof(hdr) ? avail : sizeof(hdr);
	const uint8_t *p = hdr, *end = hdr + n, *unit_end;
	uint32_t len32;
	uint64_t len, abbrev_off;
	uint16_t version;
	uint8_t unit_type, addr_size;

	if (df->elf ? elf_file_read(df->elf, s->data + off, hdr, n) : (memcpy(hdr, s->data + off, n), 0))
		return d2b_error_at(err, df->path, section_names[sec], off,
				    "cannot read the unit header");
	memset(u, 0, sizeof(*u));
	u->offset = off;
	u->section = (uint8_t)sec;
	if (!rd_u32(&p, end, &len32))
		return unit_error(df, sec, off, err, "truncated unit length");
	if (len32 == 0xffffffff) {
		if (!rd_u64(&p, end, &len))
			return unit_error(df, sec, off, err, "truncated 64-bit unit length");
		u->offset_size = 8;
	} else if (len32 >= 0xfffffff0) {
		return unit_error(df, sec, off, err, "reserved unit length value");
	} else {
		len = len32;
		u->offset_size = 4;
	}
	if (len > (uint64_t)(avail - (size_t)(p - hdr)))
		return d2b_error_at(err, df->path, section_names[sec], off,
				    "unit length 0x%llx runs past the end of the section (0x%zx bytes)",
				    (unsigned long long)len, s->size);
	u->end = off + (uint64_t)(p - hdr) + len;
	/* the header's fields must lie within both the unit and HDR */
	unit_end = len < (uint64_t)(end - p) ? p + len : end;
	if (!rd_u16(&p, unit_end, &version))
		return unit_error(df, sec, off, err, "truncated version");
	if (version < 2 || version > 5)
		return d2b_error_at(err, df->path, section_names[sec], off,
				    "unsupported DWARF version %u", version);
	u->version = (uint8_t)version;
	if (version >= 5) {
		if (!rd_u8(&p, unit_end, &unit_type) || !rd_u8(&p, unit_end, &addr_size) ||
		    !rd_uN(&p, unit_end, u->offset_size, &abbrev_off))
			return unit_error(df, sec, off, err, "truncated header");
	} else {
		if (!rd_uN(&p, unit_end, u->offset_size, &abbrev_off) ||
		    !rd_u8(&p, unit_end, &addr_size))
			return unit_error(df, sec, off, err, "truncated header");
		unit_type = sec == DW_SEC_TYPES ? DW_UT_type : DW_UT_compile;
	}
	u->unit_type = unit_type;
	u->abbrev_offset = abbrev_off;
	u->addr_size = addr_size;
	if (addr_size != 4 && addr_size != 8 && addr_size != 2)
		return d2b_error_at(err, df->path, section_names[sec], off,
				    "unsupported address size %u", addr_size);
	if (abbrev_off >= df->sec[DW_SEC_ABBREV].size)
		return d2b_error_at(err, df->path, section_names[sec], off,
				    "abbreviation offset 0x%llx is past the end of .debug_abbrev",
				    (unsigned long long)abbrev_off);
	switch (unit_type) {
	case DW_UT_compile:
	case DW_UT_partial:
		break;
	case DW_UT_skeleton:
	case DW_UT_split_compile: {
		uint64_t dwo_id;
		if (!rd_u64(&p, unit_end, &dwo_id))
			return unit_error(df, sec, off, err, "truncated dwo_id");
		u->signature = dwo_id;
		break;
	}
	case DW_UT_type:
	case DW_UT_split_type: {
		uint64_t type_off;
		if (!rd_u64(&p, unit_end, &u->signature) ||
		    !rd_uN(&p, unit_end, u->offset_size, &type_off))
			return unit_error(df, sec, off, err, "truncated type unit header");
		if (type_off >= len + (u->offset_size == 8 ? 12 : 4))
			return unit_error(df, sec, off, err, "type offset outside the unit");
		u->type_offset = off + type_off;
		break;
	}
	default:
		return d2b_error_at(err, df->path, section_names[sec], off,
				    "unknown unit type 0x%x", unit_type);
	}
	u->first_die = off + (uint64_t)(p - hdr);
	if (u->first_die >= u->end)
		return unit_error(df, sec, off, err, "unit has no DIEs");
	return 0;
}

/* Append the unit whose header is at OFF of section SEC to the index. */
static int index_one(struct dw_file *df, int sec, uint64_t off, struct d2b_error *err)
{
	struct dw_unit u;

	if (parse_unit_header(df, sec, off, &u, err))
		return -1;
	if (df->nr_units == df->units_cap) {
		size_t ncap = df->units_cap ? df->units_cap * 2 : 64;
		struct dw_unit *n = realloc(df->units, ncap * sizeof(*n));

		if (!n)
			return d2b_error_oom(err);
		df->units = n;
		df->units_cap = ncap;
	}
	u.index = (uint32_t)df->nr_units;
	df->units[df->nr_units++] = u;
	return 0;
}

static int index_section(struct dw_file *df, int sec, struct d2b_error *err)
{
	const struct dw_section *s = &df->sec[sec];

	for (uint64_t off = 0; s->data && off < s->size; off = df->units[df->nr_units - 1].end)
		if (index_one(df, sec, off, err))
			return -1;
	return 0;
}

void dw_release_init(struct dw_release *r, const struct dw_file *df)
{
	memset(r, 0, sizeof(*r));
	r->df = df;
	r->section = -1;
}

void dw_release_below(struct dw_release *r, int section, uint64_t off)
{
	const struct dw_section *s;
	uint64_t from;

	if (section < 0 || section >= DW_SEC_NR)
		return;
	s = &r->df->sec[section];
	from = r->below[section];
	if (off <= from || off - from < DW_RELEASE_BATCH)
		return;
	if (r->df->elf && s->data && from < s->size)
		elf_file_release_range(r->df->elf, s->data + from,
				       (off < s->size ? off : s->size) - from);
	r->below[section] = off;
}

void dw_release_consumed(struct dw_release *r, const struct dw_unit *u, uint64_t loc_hi)
{
	dw_release_unit(r, u);
	dw_release_below(r, DW_SEC_ABBREV, u->abbrev_offset);
	dw_release_below(r, u->version >= 5 ? DW_SEC_LOCLISTS : DW_SEC_LOC, loc_hi);
}

void dw_release_flush(struct dw_release *r)
{
	const struct dw_file *df = r->df;

	if (r->section >= 0 && r->section < DW_SEC_NR && df->elf && df->sec[r->section].data &&
	    r->hi > r->lo)
		elf_file_release_range(df->elf, df->sec[r->section].data + r->lo, r->hi - r->lo);
	r->section = -1;
	r->lo = r->hi = 0;
}

void dw_release_unit(struct dw_release *r, const struct dw_unit *u)
{
	if (r->section != (int)u->section || u->offset != r->hi)
		dw_release_flush(r);
	if (r->section < 0) {
		r->section = (int)u->section;
		r->lo = u->offset;
	}
	r->hi = u->end;
	if (r->hi - r->lo >= DW_RELEASE_BATCH)
		dw_release_flush(r);
}

static int cmp_sig(const void *a, const void *b)
{
	const struct dw_sig_entry *x = a, *y = b;

	if (x->signature != y->signature)
		return x->signature < y->signature ? -1 : 1;
	return x->unit < y->unit ? -1 : x->unit > y->unit;
}

static int index_signatures(struct dw_file *df, struct d2b_error *err)
{
	size_t n = 0;

	for (size_t i = 0; i < df->nr_units; i++)
		if (df->units[i].unit_type == DW_UT_type ||
		    df->units[i].unit_type == DW_UT_split_type)
			n++;
	if (!n)
		return 0;
	df->sigs = calloc(n, sizeof(*df->sigs));
	if (!df->sigs)
		return d2b_error_oom(err);
	for (size_t i = 0; i < df->nr_units; i++) {
		const struct dw_unit *u = &df->units[i];
		if (u->unit_type == DW_UT_type || u->unit_type == DW_UT_split_type) {
			df->sigs[df->nr_sigs].signature = u->signature;
			df->sigs[df->nr_sigs].unit = u->index;
			df->nr_sigs++;
		}
	}
	qsort(df->sigs, df->nr_sigs, sizeof(*df->sigs), cmp_sig);
	return 0;
}

int dw_file_init(struct dw_file *df, struct elf_file *ef, struct d2b_error *err)
{
	return dw_file_init_flags(df, ef, 0, err);
}

/* Every unit of .debug_info is indexed: index .debug_types and the
 * signatures, and mark the index complete. */
static int finish_index(struct dw_file *df, struct d2b_error *err)
{
	df->nr_info_units = df->nr_units;
	if (index_section(df, DW_SEC_TYPES, err) || index_signatures(df, err))
		return -1;
	df->units_complete = true;
	return 0;
}

int dw_file_index_units(struct dw_file *df, size_t want, struct d2b_error *err)
{
	const struct dw_section *s = &df->sec[DW_SEC_INFO];

	while (!df->units_complete && df->nr_units < want) {
		if (df->next_unit_off >= s->size)
			return finish_index(df, err);
		if (index_one(df, DW_SEC_INFO, df->next_unit_off, err))
			return -1;
		df->nr_info_units = df->nr_units;
		df->next_unit_off = df->units[df->nr_units - 1].end;
	}
	/* the last unit indexed may have been the last one */
	if (!df->units_complete && df->next_unit_off >= s->size)
		return finish_index(df, err);
	return 0;
}

int dw_file_init_flags(struct dw_file *df, struct elf_file *ef, unsigned flags,
		       struct d2b_error *err)
{
	memset(df, 0, sizeof(*df));
	df->path = elf_file_path(ef);
	df->elf = ef;
	df->machine = elf_file_machine(ef);
	if ((flags & DW_FILE_DWFL_LAYOUT) && elf_file_layout_rel(ef, DW_DWFL_REL_BASE))
		return d2b_error_set(err, "%s: its sections were relocated before their layout",
				     df->path);
	for (int i = 0; i < DW_SEC_NR; i++) {
		const struct elf_section *s;

		df->sec[i].name = section_names[i];
		if (i == DW_SEC_LINE && (flags & DW_FILE_NO_LINE)) {
			df->line_unloaded = true;
			continue;
		}
		s = elf_file_load_section(ef, section_names[i], err);
		if (!s) {
			if (err && err->set)
				goto fail;
			continue;
		}
		if (s->type == SHT_NOBITS)
			continue;
		df->sec[i].data = s->data;
		df->sec[i].size = s->size;
	}
	if (!df->sec[DW_SEC_INFO].data || !df->sec[DW_SEC_INFO].size) {
		d2b_error_set(err, "%s: no DWARF debug info (.debug_info section missing or empty)",
			      df->path);
		goto fail;
	}
	if (!elf_file_is_little_endian(ef)) {
		d2b_error_set(err, "%s: big-endian ELF files are not supported", df->path);
		goto fail;
	}
	if (!df->sec[DW_SEC_ABBREV].data) {
		d2b_error_set(err, "%s: .debug_abbrev section missing", df->path);
		goto fail;
	}
	/* type units in .debug_types are looked up by signature from the
	 * first unit on: such a file is indexed at once */
	if ((flags & DW_FILE_LAZY_UNITS) && !df->sec[DW_SEC_TYPES].data)
		return 0;
	if (index_section(df, DW_SEC_INFO, err) || finish_index(df, err))
		goto fail;
	return 0;
fail:
	dw_file_deinit(df);
	return -1;
}

void dw_file_deinit(struct dw_file *df)
{
	free(df->units);
	free(df->sigs);
	df->units = NULL;
	df->sigs = NULL;
	df->nr_units = df->nr_info_units = df->nr_sigs = df->units_cap = 0;
	df->units_complete = false;
	df->next_unit_off = 0;
}

const struct dw_unit *dw_file_unit_at(const struct dw_file *df, int sec,
				      uint64_t off)
{
	size_t lo, hi;

	if (sec == DW_SEC_INFO) {
		lo = 0;
		hi = df->nr_info_units;
	} else {
		lo = df->nr_info_units;
		hi = df->nr_units;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct dw_unit *u = &df->units[mid];

		if (off < u->offset)
			hi = mid;
		else if (off >= u->end)
			lo = mid + 1;
		else
			return u;
	}
	return NULL;
}

const struct dw_unit *dw_file_type_unit(const struct dw_file *df, uint64_t sig)
{
	size_t lo = 0, hi = df->nr_sigs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (df->sigs[mid].signature < sig)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < df->nr_sigs && df->sigs[lo].signature == sig)
		return &df->units[df->sigs[lo].unit];
	return NULL;
}
