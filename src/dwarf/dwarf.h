/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dwarf/: our read-only DWARF 2-5 reader.
 *
 *   struct dw_file    the debug sections of one ELF and the index of its units
 *                     (built once by dw_file_init, immutable afterwards: any
 *                     number of threads may open units of it concurrently;
 *                     a lazy index grows only while no unit is open)
 *   struct dw_cu      one unit opened for decoding by one thread: its
 *                     abbreviation table and the bases from its root DIE,
 *                     allocated in the caller's arena
 *   struct dw_cursor  walks the DIEs of a dw_cu in pre-order
 *   struct dw_attr    one decoded attribute value
 *
 * Values are normalised so callers never see forms they must resolve:
 *   - references (ref1..8, ref_udata, ref_addr) become absolute offsets in the
 *     unit's section (DW_CLS_REF); ref_sig8 keeps the signature (DW_CLS_REF_SIG)
 *     and dw_file_type_unit_die() resolves it;
 *   - strings (string, strp, line_strp, strx*, GNU_str_index) become pointers
 *     into the mapped sections, checked to be NUL-terminated inside them;
 *   - addresses (addr, addrx*, GNU_addr_index) become the address;
 *   - loclistx / rnglistx become section offsets (DW_CLS_LOCLIST/RNGLIST with
 *     .u the offset into .debug_loclists / .debug_rnglists);
 *   - everything else keeps its raw value (data1..8, udata: .u; sdata,
 *     implicit_const: .s; block, exprloc, data16: .block).
 * Every read is bounds-checked; errors name file, section and offset.
 */
#ifndef D2B_DWARF_DWARF_H
#define D2B_DWARF_DWARF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dwarf/dw_const.h"
#include "elf/elf_file.h"
#include "util/arena.h"
#include "util/error.h"

struct dw_attr;

/* Deepest DIE nesting we accept (real compilers stay far below). */
#define DW_MAX_DEPTH 1024

struct dw_section {
	const char *name;
	const uint8_t *data;	/* NULL when absent */
	size_t size;
};

enum dw_section_id {
	DW_SEC_INFO,
	DW_SEC_TYPES,
	DW_SEC_ABBREV,
	DW_SEC_STR,
	DW_SEC_LINE_STR,
	DW_SEC_STR_OFFSETS,
	DW_SEC_ADDR,
	DW_SEC_LINE,
	DW_SEC_LOC,
	DW_SEC_LOCLISTS,
	DW_SEC_RANGES,
	DW_SEC_RNGLISTS,
	DW_SEC_NR
};

/* One unit header, as found in .debug_info or .debug_types. */
struct dw_unit {
	uint64_t offset;	/* of the header, in its section */
	uint64_t end;		/* one past the unit */
	uint64_t first_die;	/* offset of the root DIE */
	uint64_t abbrev_offset;
	uint64_t signature;	/* type units */
	uint64_t type_offset;	/* type units: absolute offset of the type DIE */
	uint32_t index;		/* position in dw_file.units */
	uint8_t version;	/* 2..5 */
	uint8_t unit_type;	/* DW_UT_*; pre-v5 units get DW_UT_compile/type */
	uint8_t addr_size;	/* 4 or 8 */
	uint8_t offset_size;	/* 4 (32-bit DWARF) or 8 (64-bit DWARF) */
	uint8_t section;	/* DW_SEC_INFO or DW_SEC_TYPES */
};

struct dw_sig_entry {
	uint64_t signature;
	uint32_t unit;
};

struct dw_file {
	const char *path;
	struct dw_section sec[DW_SEC_NR];
	/* Units of .debug_info in section order, then those of .debug_types.
	 * A lazy file (DW_FILE_LAZY_UNITS) holds only a prefix of them until
	 * units_complete: see dw_file_index_units(). */
	struct dw_unit *units;
	size_t nr_units;
	size_t nr_info_units;	/* the first nr_info_units are in .debug_info */
	/* Type units sorted by signature, for ref_sig8 (built once the index
	 * is complete: none before). */
	struct dw_sig_entry *sigs;
	size_t nr_sigs;
	uint16_t machine;	/* EM_* of the ELF */
	bool units_complete;	/* every unit is indexed (always, unless lazy) */
	bool line_unloaded;	/* opened with DW_FILE_NO_LINE */
	size_t units_cap;	/* allocated entries of units */
	uint64_t next_unit_off;	/* lazy: .debug_info offset of the next header */
	const struct elf_file *elf;	/* the file, which outlives this */
};

/* Load the debug sections of EF and index their units. Fails when the file
 * has no .debug_info, or when a unit header is malformed; also fails with a
 * clear message on DWARF we cannot read (.gnu_debugaltlink supplementary
 * files, split DWARF skeletons without their .dwo). */
int dw_file_init(struct dw_file *df, struct elf_file *ef, struct d2b_error *err);

enum dw_file_flags {
	/*
	 * Read no unit header at open: the index grows on demand by
	 * dw_file_index_units(), so a reader that stops early (pahole -C)
	 * reads only the headers of the units it decodes. Ignored when the
	 * file has .debug_types (type units are looked up by signature from
	 * the start). Until units_complete: dw_file_type_unit() finds nothing
	 * (decoding a unit that uses DW_FORM_ref_sig8 fails; index
	 * everything and decode it again) and dw_file_unit_at() knows only
	 * the indexed prefix.
	 */
	DW_FILE_LAZY_UNITS = 1,
	/*
	 * .debug_line is not loaded (sec[DW_SEC_LINE] stays empty): for
	 * readers that never read the line table (load_options'
	 * skip_line_files). A relocatable file's (a module's: 1.4 MB for
	 * btrfs.ko, with 0.3 MB of relocations) would otherwise be read,
	 * copied and relocated for nothing.
	 */
	DW_FILE_NO_LINE = 2,
	/*
	 * A relocatable file's (.o, .ko) addresses as pahole 1.24 reads
	 * them: its allocated sections laid out from 0x10000 as libdwfl lays
	 * them out (elf_file_layout_rel()), not each at 0. For pfunct, which
	 * prints them.
	 */
	DW_FILE_DWFL_LAYOUT = 4,
};

/* Where libdwfl places a relocatable file's first section. */
#define DW_DWFL_REL_BASE 0x10000

/* dw_file_init with DW_FILE_* FLAGS. */
int dw_file_init_flags(struct dw_file *df, struct elf_file *ef, unsigned flags,
		       struct d2b_error *err);

/*
 * Lazy files: index units in section order until at least WANT are indexed
 * (SIZE_MAX: all of them) or none is left, which sets units_complete and
 * builds the signature index. Units already indexed keep their index but
 * df->units may move: call it only while no unit of DF is open (no
 * dw_cu, no pointer into df->units held; cu_stream calls it between its
 * rounds). A no-op on complete files. Returns 0, or -1 with err set (a bad
 * header: the file stays usable up to the units indexed before it).
 */
int dw_file_index_units(struct dw_file *df, size_t want, struct d2b_error *err);

void dw_file_deinit(struct dw_file *df);

/*
 * Units decoded one after another (a pool's consumer, in unit order): their
 * mapped pages need not stay in the RSS (elf_file_release_range: they are
 * read again if touched), let go a few MiB at a time. Each release of a
 * multi-threaded process's pages costs a system call and a TLB shootdown
 * on every CPU it runs on, which per unit (2,172 in a vmlinux) is more than
 * the few MiB of RSS a batch keeps. The pending range grows while units
 * come in order, and is released when it reaches DW_RELEASE_BATCH or a
 * unit does not follow it, and by dw_release_flush().
 */
#define DW_RELEASE_BATCH (4u << 20)

struct dw_release {
	const struct dw_file *df;
	int section;		/* of the pending range; -1 when none */
	uint64_t lo, hi;	/* the pending range, section offsets */
	uint64_t below[DW_SEC_NR];	/* dw_release_below(): released so far */
};

void dw_release_init(struct dw_release *r, const struct dw_file *df);
void dw_release_unit(struct dw_release *r, const struct dw_unit *u);
void dw_release_flush(struct dw_release *r);

/*
 * The sections units read beside their own bytes, each in the units'
 * order: their abbreviation tables and their location lists (a linker
 * lays each unit's contribution out in the order of the units). Once the
 * units up to one are consumed, the pages of SECTION below OFF (what that
 * unit read) are let go, DW_RELEASE_BATCH at a time: a vmlinux's location
 * lists (23 MB) and abbreviations (5 MB) no longer stay in the RSS to the
 * end. A later unit that reads there after all reads the page again.
 */
void dw_release_below(struct dw_release *r, int section, uint64_t off);

/* Unit U consumed, its location lists read up to LOC_HI (cu_model.loc_hi):
 * its own bytes (dw_release_unit), the abbreviation tables before its own
 * and the location lists to LOC_HI (dw_release_below). */
void dw_release_consumed(struct dw_release *r, const struct dw_unit *u, uint64_t loc_hi);

/* Unit containing section offset OFF of section SEC, or NULL. */
const struct dw_unit *dw_file_unit_at(const struct dw_file *df, int sec,
				      uint64_t off);
/* Type unit with this signature, or NULL. */
const struct dw_unit *dw_file_type_unit(const struct dw_file *df, uint64_t sig);

/* One abbreviation. */
struct dw_abbrev_attr {
	uint16_t name;
	uint16_t form;
	int64_t implicit_const;
};

struct dw_abbrev {
	uint64_t code;
	uint32_t index;		/* 0..nr_abbrevs-1 within its table: lets a
				 * consumer keep per-abbreviation data */
	uint16_t tag;
	bool has_children;
	uint16_t nr_attrs;
	/* When every attribute has a fixed size for this unit, the size of all of
	 * them together (fast skipping); else -1. */
	int32_t fixed_size;
	struct dw_abbrev_attr *attrs;
};

struct dw_abbrev_table {
	/* Codes 1..nr_dense are at dense[code-1] (NULL if unused); others are
	 * in the sorted array sparse[]. */
	struct dw_abbrev **dense;
	size_t nr_dense;
	struct dw_abbrev *sparse;
	size_t nr_sparse;
	size_t nr_abbrevs;
};

#define DW_CU_FORM_SIZES 0x30	/* the standard forms (to DW_FORM_addrx4) */

/* A unit opened for decoding. Lives in the arena passed to dw_cu_open. */
struct dw_cu {
	const struct dw_file *file;
	const struct dw_unit *unit;
	const struct dw_section *sec;	/* .debug_info or .debug_types */
	struct dw_abbrev_table abbrevs;
	uint64_t str_offsets_base;	/* DW_AT_str_offsets_base (or header size) */
	uint64_t addr_base;
	uint64_t loclists_base;
	uint64_t rnglists_base;
	uint64_t low_pc;		/* base address for location lists */
	bool has_str_offsets_base;
	bool has_addr_base;
	bool has_loclists_base;
	bool has_rnglists_base;
	/* dw_form_fixed_size() of forms below DW_CU_FORM_SIZES in this unit,
	 * looked up once at open (a switch per attribute specification was
	 * dear): dw_cu_form_size() */
	int8_t form_size[DW_CU_FORM_SIZES];
	struct arena *arena;
	/* The unit's bytes from its header on (section offset bytes_off,
	 * i.e. unit->offset): in the file's mapping, or a copy in a
	 * dw_unit_buf. Reach them by section offset with dw_cu_at(). */
	const uint8_t *bytes;
	uint64_t bytes_off;
};

/* Decode the abbreviation table of unit UNIT and the bases of its root DIE. */
int dw_cu_open(struct dw_cu *cu, const struct dw_file *df, size_t unit,
	       struct arena *arena, struct d2b_error *err);

/*
 * A buffer that one thread reuses for one unit's bytes after another. On
 * a hypervisor with shadow or nested paging each page of the file's
 * mapping costs a fault (fault-around maps 16 pages) and a TLB miss
 * walked in two dimensions: reading .debug_info's 164 MB of a vmlinux
 * through the mapping took 70 ms of faults, copying it unit by unit into
 * the same few huge pages with pread 18 ms.
 */
struct dw_unit_buf {
	uint8_t *data;
	size_t cap;
};

void dw_unit_buf_free(struct dw_unit_buf *buf);

/*
 * dw_cu_open(), with the unit's bytes copied into BUF (grown as needed)
 * when they are in the file's mapping (a section we decompressed is read
 * in place). The bytes, and whatever points into them (DW_FORM_string
 * names, DIE attributes), are valid until BUF is reused or freed.
 */
int dw_cu_open_copy(struct dw_cu *cu, const struct dw_file *df, size_t unit,
		    struct dw_unit_buf *buf, struct arena *arena, struct d2b_error *err);

/* The unit's byte at section offset OFF (unit->offset <= OFF <= unit->end). */
static inline const uint8_t *dw_cu_at(const struct dw_cu *cu, uint64_t off)
{
	return cu->bytes + (off - cu->bytes_off);
}

/* Section offset of P, a pointer into the unit's bytes. */
static inline uint64_t dw_cu_offset_of(const struct dw_cu *cu, const uint8_t *p)
{
	return cu->bytes_off + (uint64_t)(p - cu->bytes);
}

const struct dw_abbrev *dw_cu_abbrev(const struct dw_cu *cu, uint64_t code);
/* PRED of each abbreviation's tag, by dw_abbrev.index (nr_abbrevs bytes,
 * in arena A), or NULL when out of memory. */
uint8_t *dw_cu_abbrev_flags(const struct dw_cu *cu, bool (*pred)(unsigned tag), struct arena *a);

/* A DIE: where it is and its abbreviation (NULL abbrev: never returned). */
struct dw_die {
	uint64_t offset;		/* section offset */
	const struct dw_abbrev *abbrev;
	const uint8_t *attrs;		/* first attribute byte */
	uint32_t depth;			/* 0 for the root */
};

static inline uint16_t dw_die_tag(const struct dw_die *die)
{
	return die->abbrev->tag;
}

static inline bool dw_die_has_children(const struct dw_die *die)
{
	return die->abbrev->has_children;
}

/*
 * Pre-order DIE walk. dw_cursor_next() returns 1 with the next DIE (its
 * depth in die->depth), 0 at the end of the unit, -1 on error. Skipping a
 * subtree: dw_cursor_skip_children() right after receiving its DIE (uses
 * DW_AT_sibling when present, else walks).
 */
struct dw_cursor {
	const struct dw_cu *cu;
	const uint8_t *pos;		/* next unread byte */
	const uint8_t *end;
	uint32_t depth;			/* depth of the next DIE */
	struct dw_die last;		/* the DIE just returned */
	bool last_attrs_skipped;	/* pos is past last's attributes */
	bool last_children_skipped;	/* last's subtree was skipped */
	bool started;			/* a DIE has been returned */
	uint64_t last_sibling;		/* DW_AT_sibling of last, 0 if none */
};

void dw_cursor_init(struct dw_cursor *c, const struct dw_cu *cu);
/* Start at the DIE at section offset OFF (must be in the unit), depth 0. */
int dw_cursor_init_at(struct dw_cursor *c, const struct dw_cu *cu,
		      uint64_t off, struct d2b_error *err);
int dw_cursor_next(struct dw_cursor *c, struct dw_die *die,
		   struct d2b_error *err);
int dw_cursor_skip_children(struct dw_cursor *c, struct d2b_error *err);
/*
 * dw_cursor_skip_children() after the DIE's attributes were consumed, if
 * every DIE of the subtree has an abbreviation ALLOWED accepts (by
 * dw_abbrev.index: dw_cu_abbrev_flags() makes the table): then 1. Else 0, the
 * cursor as it was, and *STOP the section offset of the first DIE refused
 * (or of what does not decode: the caller's own walk reports that). Reads
 * abbreviation codes and skips attributes by form, no more: the cost of
 * the floor walk, to spare a decoder subtrees it would only discard.
 */
int dw_cursor_skip_children_if(struct dw_cursor *c, const uint8_t *allowed, uint64_t *stop);
/* Decode the attributes of the DIE just returned (as dw_die_attrs) and move
 * past them, so the walk does not parse them twice. Records DW_AT_sibling. */
int dw_cursor_attrs(struct dw_cursor *c, struct dw_attr *out, size_t max,
		    struct d2b_error *err);

/* Attribute value classes (see the top of this file). */
enum dw_attr_class {
	DW_CLS_NONE,
	DW_CLS_UNSIGNED,	/* data1..8, udata, sec_offset: .u */
	DW_CLS_SIGNED,		/* sdata, implicit_const: .s */
	DW_CLS_FLAG,		/* flag, flag_present: .u */
	DW_CLS_ADDR,		/* addr, addrx*: .u */
	DW_CLS_REF,		/* absolute section offset: .u */
	DW_CLS_REF_SIG,		/* ref_sig8: .u is the signature */
	DW_CLS_STRING,		/* .str */
	DW_CLS_BLOCK,		/* block*, exprloc, data16: .block */
	DW_CLS_LOCLIST,		/* loclistx resolved: .u offset in .debug_loclists */
	DW_CLS_RNGLIST,		/* rnglistx resolved: .u offset in .debug_rnglists */
};

struct dw_attr {
	uint16_t name;
	uint16_t form;
	uint8_t cls;
	union {
		uint64_t u;
		int64_t s;
		const char *str;
		struct {
			const uint8_t *data;
			uint64_t len;
		} block;
	};
};

/*
 * Decode every attribute of DIE into OUT (at most MAX; extra ones are
 * decoded and dropped). Returns the number of attributes of the DIE, or -1.
 */
int dw_die_attrs(const struct dw_cu *cu, const struct dw_die *die,
		 struct dw_attr *out, size_t max, struct d2b_error *err);

/* Decoding attributes one by one (a loader that wants only some of them):
 * the current DIE's abbreviation gives the forms; start at die->attrs, call
 * dw_form_read or dw_form_skip for each, then dw_cursor_attrs_done with the
 * position after the last one. */
int dw_form_read(const struct dw_cu *cu, unsigned form, int64_t implicit_const,
		 const uint8_t **p, const uint8_t *end, struct dw_attr *out,
		 struct d2b_error *err);
int dw_form_skip(const struct dw_cu *cu, unsigned form, const uint8_t **p,
		 const uint8_t *end, struct d2b_error *err);
/* dw_form_read with the forms that make up most of a kernel's attributes
 * (data1/2/4, ref4, strp into a NUL-terminated .debug_str, implicit_const,
 * flag_present) decoded inline. */
static inline int dw_form_read_fast(const struct dw_cu *cu, unsigned form,
				    int64_t implicit_const, const uint8_t **p,
				    const uint8_t *end, struct dw_attr *out,
				    struct d2b_error *err)
{
	const uint8_t *q = *p;

	switch (form) {
	case DW_FORM_data1:
		if (q >= end)
			break;
		out->form = (uint16_t)form;
		out->cls = DW_CLS_UNSIGNED;
		out->u = *q;
		*p = q + 1;
		return 0;
	case DW_FORM_data2:
		if (end - q < 2)
			break;
		out->form = (uint16_t)form;
		out->cls = DW_CLS_UNSIGNED;
		out->u = (uint64_t)q[0] | (uint64_t)q[1] << 8;
		*p = q + 2;
		return 0;
	case DW_FORM_ref4: {
		uint32_t v;

		if (end - q < 4)
			break;
		v = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
		if (v >= cu->unit->end - cu->unit->offset)
			break;		/* the slow path reports it */
		out->form = (uint16_t)form;
		out->cls = DW_CLS_REF;
		out->u = cu->unit->offset + v;
		*p = q + 4;
		return 0;
	}
	case DW_FORM_strp: {
		const struct dw_section *s = &cu->file->sec[DW_SEC_STR];
		uint32_t v;

		if (cu->unit->offset_size != 4 || end - q < 4 || !s->size ||
		    s->data[s->size - 1] != 0)
			break;
		v = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
		if (v >= s->size)
			break;
		out->form = (uint16_t)form;
		out->cls = DW_CLS_STRING;
		out->str = (const char *)s->data + v;
		*p = q + 4;
		return 0;
	}
	case DW_FORM_implicit_const:
		out->form = (uint16_t)form;
		out->cls = DW_CLS_SIGNED;
		out->s = implicit_const;
		return 0;
	case DW_FORM_flag_present:
		out->form = (uint16_t)form;
		out->cls = DW_CLS_FLAG;
		out->u = 1;
		return 0;
	}
	return dw_form_read(cu, form, implicit_const, p, end, out, err);
}

/* Size of FORM's value in unit U: >= 0 fixed, -1 variable, -2 a form we do
 * not know, -3 a supplementary-file form we refuse. */
int dw_form_fixed_size(unsigned form, const struct dw_unit *u);

/* dw_form_fixed_size() in CU's unit, from its table for the common forms. */
static inline int dw_cu_form_size(const struct dw_cu *cu, unsigned form)
{
	return form < DW_CU_FORM_SIZES ? cu->form_size[form] : dw_form_fixed_size(form, cu->unit);
}
/* The caller decoded the last DIE's attributes itself, up to AFTER; SIBLING
 * is its DW_AT_sibling (section offset), 0 if none or unknown, for
 * dw_cursor_skip_children(). Inline: a loader calls it for every DIE. */
static inline void dw_cursor_attrs_done(struct dw_cursor *c, const uint8_t *after,
					uint64_t sibling)
{
	c->pos = after;
	c->last_attrs_skipped = true;
	c->last_sibling = sibling;
}

/*
 * dw_cursor_next() for a walk that reads every DIE's attributes itself
 * (dw_cursor_attrs_done): the common case inline, in the caller's
 * registers (the previous DIE's attributes consumed, a one-byte
 * abbreviation code of the dense table, end-of-children codes before it);
 * anything else, and every error, through dw_cursor_next() from the state
 * reached so far, which is the state it would have reached itself. *CODE:
 * the DIE's abbreviation code when it took the common case (1..127, so a
 * caller can keep per-code data in a small array, one load from the code
 * byte), else 0.
 */
static inline int dw_cursor_next_inline(struct dw_cursor *c, struct dw_die *die,
					unsigned *code, struct d2b_error *err)
{
	const struct dw_cu *cu = c->cu;
	const uint8_t *p = c->pos, *end = c->end;
	const struct dw_abbrev *ab;
	uint32_t depth = c->depth;

	*code = 0;
	if (__builtin_expect(!c->started || !c->last_attrs_skipped, 0))
		return dw_cursor_next(c, die, err);
	if (c->last.abbrev->has_children && !c->last_children_skipped) {
		if (depth + 1 > DW_MAX_DEPTH)
			return dw_cursor_next(c, die, err);	/* names the error */
		depth++;
	}
	c->last_children_skipped = true;
	while (p < end && !*p) {	/* the end of a list of children */
		p++;
		if (depth)
			depth--;
	}
	if (__builtin_expect(p >= end || (*p & 0x80) || *p > cu->abbrevs.nr_dense ||
			     !(ab = cu->abbrevs.dense[*p - 1]), 0)) {
		c->pos = p;
		c->depth = depth;
		return dw_cursor_next(c, die, err);
	}
	struct dw_die d = {
		.offset = dw_cu_offset_of(cu, p),
		.abbrev = ab,
		.attrs = p + 1,
		.depth = depth,
	};
	*code = *p;
	c->pos = p + 1;
	c->depth = depth;
	c->last = d;
	c->last_attrs_skipped = false;
	c->last_children_skipped = false;
	c->last_sibling = 0;
	*die = d;
	return 1;
}

/* Decode one attribute of DIE by name. Returns 1 found, 0 absent, -1 error. */
int dw_die_attr(const struct dw_cu *cu, const struct dw_die *die,
		uint16_t name, struct dw_attr *out, struct d2b_error *err);

/* Convenience: integer value of a constant-class attribute (data*, udata,
 * sdata, implicit_const, flag): true on success. */
bool dw_attr_int(const struct dw_attr *a, int64_t *val);

/* Names for messages and dumps ("DW_TAG_structure_type", or "0x4109"). */
const char *dw_tag_name(unsigned tag, char buf[16]);
const char *dw_at_name(unsigned at, char buf[16]);
const char *dw_form_name(unsigned form, char buf[16]);

/* The DW_LANG_* value of a language named as pahole names them ("c89",
 * "c", "c++", "c11", "rust", ...: the first LEN bytes of NAME, any case),
 * or -1 when unknown. Also takes "c_plus_plus", "objc_plus_plus",
 * "c_plus_plus_03/11/14" and "mips_assembler". */
int dw_lang_by_name(const char *name, size_t len);

/* ---- line tables (dw_line.c) ---- */

/* The file names of a unit's line table, indexed as DW_AT_decl_file values
 * index them (v5: 0-based; v2-4: 1-based, entry 0 is the CU's name). Each
 * name is "dir/file" as pahole prints it. */
struct dw_line_files {
	const char **names;
	size_t nr;
};

int dw_cu_line_files(const struct dw_cu *cu, uint64_t stmt_list,
		     const char *comp_name, const char *comp_dir,
		     struct dw_line_files *out, struct d2b_error *err);
/* The same names as they stand in the table, without their directories
 * (nothing joined, nothing allocated but the array): for a reader that
 * looks only at the names themselves. */
int dw_cu_line_file_names(const struct dw_cu *cu, uint64_t stmt_list, const char *comp_name,
			  struct dw_line_files *out, struct d2b_error *err);

/* ---- locations (dw_loc.c) ---- */

/* Where a parameter lives at its function's entry. */
enum dw_loc_kind {
	DW_LOC_NONE,		/* no location: optimized out */
	DW_LOC_REG,		/* in register .reg */
	DW_LOC_STACK,		/* in memory (fbreg, breg, addr...) */
	DW_LOC_OTHER,		/* computed, implicit, entry_value, pieces */
};

struct dw_loc_summary {
	uint8_t kind;
	uint16_t reg;		/* DWARF register number for DW_LOC_REG */
};

/*
 * Summarise a DW_AT_location: an exprloc, or a location list (loclistx,
 * sec_offset into .debug_loc/.debug_loclists). For lists, the entry that
 * covers the function's entry pc (LOW_PC) is used; if none covers it, the
 * first entry.
 */
int dw_location_summary(const struct dw_cu *cu, const struct dw_attr *loc,
			uint64_t entry_pc, struct dw_loc_summary *out,
			struct d2b_error *err);

/* ---- address ranges (dw_ranges.c) ---- */

/* Called for each [LO, HI) of a range list, in the list's order: 0 goes
 * on, > 0 stops (dw_ranges_each returns 0), < 0 fails (it returns -1). */
typedef int dw_range_fn(void *arg, uint64_t lo, uint64_t hi);

/* The ranges of a DW_AT_ranges value (sec_offset into .debug_ranges or
 * .debug_rnglists, or a rnglistx the reader resolved), made absolute
 * with the unit's base address and the list's base address entries. */
int dw_ranges_each(const struct dw_cu *cu, const struct dw_attr *ranges, dw_range_fn *fn,
		   void *arg, struct d2b_error *err);

struct dw_ranges_sum {
	uint64_t first;		/* LO of the first range, 0 if none */
	uint64_t total;		/* sum of HI - LO */
	uint32_t count;
};

int dw_ranges_sum(const struct dw_cu *cu, const struct dw_attr *ranges,
		  struct dw_ranges_sum *out, struct d2b_error *err);

/* Read helpers shared by the reader's files (bounds-checked by callers). */
int dw_error(const struct dw_cu *cu, const uint8_t *at, struct d2b_error *err,
	     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
