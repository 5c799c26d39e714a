// SPDX-License-Identifier: GPL-2.0-only
/*
 * Our check of a BTF's raw bytes, before libbpf or anything of ours reads
 * them: the header, the records' sizes, the strings, every referenced id in
 * range and of a kind the reference may name. What passes keeps every
 * reader in bounds (btf_load.h).
 */
#include <stdlib.h>
#include <string.h>

#include <linux/btf.h>

#include "btf/btf_load_internal.h"
#include "btf/btf_wire.h"

/* What we know of the types below the ones being checked (split BTF). */
struct raw_check {
	const char *path;
	const uint8_t *data;
	size_t size;
	bool swap;
	uint32_t hdr_len, type_off, type_len, str_off, str_len;
	const struct btf *base;		/* NULL unless split */
	uint32_t start_id;		/* first own id */
	uint32_t base_str_len;
	uint32_t nr;			/* own types */
	uint32_t id_end;		/* start_id + nr: the first id past the last */
	uint32_t str_end;		/* base_str_len + str_len: past the last string */
	uint32_t *offs;			/* nr: record offset in data */
	uint8_t *kinds;			/* nr: each own type's kind */
	uint32_t nr_anon;		/* own types without a name */
	/* nr bits: own type I (from start_id) is a type a reference may name
	 * (is_type_kind()): 12 KB for a vmlinux's 95 k types, where the
	 * members' and parameters' half a million lookups in kinds (95 KB)
	 * missed the first-level cache */
	uint64_t *typebits;
	struct d2b_error *err;
};

/* A word of the header, in the BTF's byte order. */
static uint32_t hdr32(const struct raw_check *c, size_t off)
{
	uint32_t v;

	memcpy(&v, c->data + off, 4);
	return c->swap ? __builtin_bswap32(v) : v;
}

/* A word of the type section, past check_header(): in this machine's byte
 * order (a BTF of the other order is checked in a copy turned round:
 * native_types()). */
static inline uint32_t rd32(const struct raw_check *c, size_t off)
{
	uint32_t v;

	memcpy(&v, c->data + off, 4);
	return v;
}

const char *btf_kind_name(unsigned kind)
{
	static const char *const names[] = {
		"UNKNOWN", "INT", "PTR", "ARRAY", "STRUCT", "UNION", "ENUM",
		"FWD", "TYPEDEF", "VOLATILE", "CONST", "RESTRICT", "FUNC",
		"FUNC_PROTO", "VAR", "DATASEC", "FLOAT", "DECL_TAG", "TYPE_TAG",
		"ENUM64",
	};

	return kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "?";
}

static int check_header(struct raw_check *c)
{
	uint16_t magic;
	uint32_t meta;

	if (c->size < BTF_HDR_MIN)
		return d2b_error_at(c->err, c->path, BTF_SECTION, 0,
				    "truncated BTF header: %zu bytes, need %u",
				    c->size, BTF_HDR_MIN);
	magic = (uint16_t)(c->data[0] | c->data[1] << 8);
	if (magic == 0x9feb)
		c->swap = true;
	else if (magic != 0xeb9f)
		return d2b_error_at(c->err, c->path, BTF_SECTION, 0,
				    "bad BTF magic 0x%04x (want 0xeb9f)", magic);
	if (c->data[2] != 1)
		return d2b_error_at(c->err, c->path, BTF_SECTION, 2,
				    "unsupported BTF version %u (want 1)",
				    c->data[2]);
	c->hdr_len = hdr32(c, 4);
	c->type_off = hdr32(c, 8);
	c->type_len = hdr32(c, 12);
	c->str_off = hdr32(c, 16);
	c->str_len = hdr32(c, 20);
	if (c->hdr_len < BTF_HDR_MIN || c->hdr_len > c->size)
		return d2b_error_at(c->err, c->path, BTF_SECTION, 4,
				    "bad BTF header length %u (file has %zu bytes)",
				    c->hdr_len, c->size);
	/* libbpf finds the types at the header's end: an odd length puts
	 * every record off its 4-byte alignment (the fuzzer's find: UBSan
	 * in the printers' walk of libbpf's records) */
	if (c->hdr_len % 4)
		return d2b_error_at(c->err, c->path, BTF_SECTION, 4,
				    "BTF header length %u is not a multiple of 4",
				    c->hdr_len);
	meta = c->hdr_len;
	if (c->type_off % 4)
		return d2b_error_at(c->err, c->path, BTF_SECTION, 8,
				    "type section offset %u is not 4-byte aligned",
				    c->type_off);
	if ((uint64_t)meta + c->type_off + c->type_len > c->size)
		return d2b_error_at(c->err, c->path, BTF_SECTION, 12,
				    "type section (%u bytes at %u) runs past the end (%zu bytes): truncated?",
				    c->type_len, meta + c->type_off, c->size);
	if ((uint64_t)meta + c->str_off + c->str_len > c->size)
		return d2b_error_at(c->err, c->path, BTF_SECTION, 20,
				    "string section (%u bytes at %u) runs past the end (%zu bytes): truncated?",
				    c->str_len, meta + c->str_off, c->size);
	if ((uint64_t)c->type_off + c->type_len > c->str_off &&
	    (uint64_t)c->str_off + c->str_len > c->type_off)
		return d2b_error_at(c->err, c->path, BTF_SECTION, 8,
				    "type and string sections overlap");
	/* libbpf (btf_parse_hdr()) refuses the strings first: so do we, or
	 * a base read without libbpf's parse would pass where every other
	 * open fails */
	if ((uint64_t)c->type_off + c->type_len > c->str_off)
		return d2b_error_at(c->err, c->path, BTF_SECTION, 16,
				    "string section (at %u) before the end of the type section (%u + %u): libbpf wants the types first",
				    c->str_off, c->type_off, c->type_len);
	if (c->type_len % 4)
		return d2b_error_at(c->err, c->path, BTF_SECTION, 12,
				    "type section length %u is not a multiple of 4",
				    c->type_len);
	return 0;
}

/*
 * A BTF of the other byte order (the magic reads 0x9feb): the rest of the
 * check reads a copy whose type section is turned round, every field of
 * it being a 32-bit word, so that the reads of a BTF of this machine's
 * order (nearly all) test nothing. *COPY: the copy, for the caller to
 * free.
 */
static int native_types(struct raw_check *c, uint8_t **copy)
{
	size_t at = (size_t)c->hdr_len + c->type_off;
	uint8_t *d;

	*copy = NULL;
	if (!c->swap)
		return 0;
	d = malloc(c->size);
	if (!d)
		return d2b_error_oom(c->err);
	memcpy(d, c->data, c->size);
	for (size_t i = 0; i < c->type_len; i += 4) {
		uint32_t v;

		memcpy(&v, d + at + i, 4);
		v = __builtin_bswap32(v);
		memcpy(d + at + i, &v, 4);
	}
	c->data = d;
	*copy = d;
	return 0;
}

static int check_strings(struct raw_check *c)
{
	const uint8_t *s = c->data + c->hdr_len + c->str_off;
	size_t at = c->hdr_len + c->str_off;

	if (!c->base) {
		if (!c->str_len || s[0])
			return d2b_error_at(c->err, c->path, BTF_SECTION, at,
					    "string section must start with an empty string (split BTF without its base?)");
	}
	/* libbpf and the kernel start a split BTF's own strings right after
	 * the base's: an empty string first means a whole BTF, not a split
	 * one (e.g. a vmlinux given as a module with --btf_base). */
	if (c->base && c->str_len && !s[0])
		return d2b_error_at(c->err, c->path, BTF_SECTION, at,
				    "string section starts with an empty string: not split BTF (wrong base BTF?)");
	if (c->str_len && s[c->str_len - 1])
		return d2b_error_at(c->err, c->path, BTF_SECTION,
				    at + c->str_len - 1,
				    "string section is not NUL-terminated");
	if ((uint64_t)c->base_str_len + c->str_len > 0x7fffffffu)
		return d2b_error_at(c->err, c->path, BTF_SECTION, 20,
				    "string section too large");
	return 0;
}

/* The kinds that are no type (a reference may not name them), by bit. */
#define NOT_TYPE_KINDS (1u << BTF_KIND_UNKN | 1u << BTF_KIND_FUNC | 1u << BTF_KIND_VAR | \
			1u << BTF_KIND_DATASEC | 1u << BTF_KIND_DECL_TAG)

static inline bool is_type_kind(unsigned kind)
{
	return !(NOT_TYPE_KINDS >> (kind & 31) & 1);
}

/* Walk the records: sizes, kinds; fill offs[]. */
static int check_records(struct raw_check *c)
{
	size_t pos = c->hdr_len + c->type_off;
	size_t end = pos + c->type_len;
	/* at most one record in 12 bytes: room for all at once (pages are
	 * touched as they fill; growing by copies cost more) */
	uint32_t cap = c->type_len / BTF_REC + 1;

	c->offs = malloc((size_t)cap * sizeof(*c->offs));
	c->kinds = malloc(cap);
	c->typebits = calloc((size_t)cap / 64 + 1, sizeof(*c->typebits));
	if (!c->offs || !c->kinds || !c->typebits)
		return d2b_error_oom(c->err);

	while (pos < end) {
		uint32_t info, vlen;
		unsigned kind;
		long extra;

		if (end - pos < BTF_REC)
			return d2b_error_at(c->err, c->path, BTF_SECTION, pos,
					    "type [%u]: truncated record (%zu bytes left)",
					    c->start_id + c->nr, end - pos);
		info = rd32(c, pos + 4);
		kind = (info >> 24) & 0x1f;
		vlen = info & 0xffff;
		extra = btf_wire_extra_size(kind, vlen);
		if (extra < 0 || kind == BTF_KIND_UNKN)
			return d2b_error_at(c->err, c->path, BTF_SECTION, pos,
					    "type [%u]: unknown kind %u",
					    c->start_id + c->nr, kind);
		if ((size_t)extra > end - pos - BTF_REC)
			return d2b_error_at(c->err, c->path, BTF_SECTION, pos,
					    "type [%u] %s: %ld bytes of data run past the type section",
					    c->start_id + c->nr, btf_kind_name(kind), extra);
		if (c->nr == cap || (uint64_t)c->start_id + c->nr >= 0x7fffffffu)
			return d2b_error_at(c->err, c->path, BTF_SECTION, pos,
					    "too many types");
		c->kinds[c->nr] = (uint8_t)kind;
		c->nr_anon += !rd32(c, pos);
		c->typebits[c->nr / 64] |= (uint64_t)is_type_kind(kind) << (c->nr % 64);
		c->offs[c->nr++] = (uint32_t)pos;
		pos += BTF_REC + (size_t)extra;
	}
	return 0;
}

/* Kind, vlen, kind flag and type/size field of any id (own or base). */
struct tinfo {
	unsigned kind;
	uint32_t vlen;
	bool kflag;
	uint32_t type;		/* the size/type field */
	uint32_t name_off;
	size_t rec;		/* own: record offset; base: 0 */
};

/* type_info() of own type ID: every field set, the info word read once */
static inline void own_info(const struct raw_check *c, uint32_t id, struct tinfo *ti)
{
	uint32_t info;

	ti->rec = c->offs[id - c->start_id];
	ti->name_off = rd32(c, ti->rec);
	info = rd32(c, ti->rec + 4);
	ti->kind = (info >> 24) & 0x1f;
	ti->vlen = info & 0xffff;
	ti->kflag = info >> 31;
	ti->type = rd32(c, ti->rec + 8);
}

static void type_info(const struct raw_check *c, uint32_t id, struct tinfo *ti)
{
	memset(ti, 0, sizeof(*ti));
	if (id < c->start_id) {
		const struct btf_type *t = btf__type_by_id(c->base, id);

		if (!t)
			return;
		ti->kind = btf_kind(t);
		ti->vlen = btf_vlen(t);
		ti->kflag = btf_kflag(t);
		ti->type = t->type;
		ti->name_off = t->name_off;
		return;
	}
	own_info(c, id, ti);
}

/* The kind of any id below start_id + nr (own or base). */
static inline unsigned kind_of(const struct raw_check *c, uint32_t id)
{
	if (id < c->start_id) {
		const struct btf_type *t = btf__type_by_id(c->base, id);

		return t ? btf_kind(t) : BTF_KIND_UNKN;
	}
	return c->kinds[id - c->start_id];
}

/* Fast tests of what check_name() and check_ref() accept, for the loops
 * over members and parameters (a vmlinux base has ~0.5 M of them): true
 * when the field is fine without a closer look; false sends it to the full
 * check, which then names the fault (or finds none: a base's string, a
 * base's type). */
static inline bool name_fine(const struct raw_check *c, uint32_t off)
{
	return !off || (off < c->str_end && off >= c->base_str_len);
}

static inline bool ref_fine(const struct raw_check *c, uint32_t ref, bool void_ok)
{
	if (!ref)
		return void_ok;
	uint32_t i = ref - c->start_id;	/* (a base's id wraps: past nr) */

	return i < c->nr && (c->typebits[i / 64] >> (i % 64) & 1);
}

static int check_name(const struct raw_check *c, uint32_t id, size_t at,
		      uint32_t off)
{
	uint32_t total = c->base_str_len + c->str_len;

	if (off >= total && off)
		return d2b_error_at(c->err, c->path, BTF_SECTION, at,
				    "type [%u]: name offset %u past the string section (%u bytes)%s",
				    id, off, total,
				    c->base ? ": wrong base BTF?" : "");
	if (c->base && off && off < c->base_str_len) {
		/* A split BTF names base strings by their offset: one that
		 * lands inside a base string means another base. */
		const char *prev = btf__str_by_offset(c->base, off - 1);

		if (prev && *prev)
			return d2b_error_at(c->err, c->path, BTF_SECTION, at,
					    "type [%u]: name offset %u is not the start of a base string: wrong base BTF?",
					    id, off);
	}
	return 0;
}

/* A reference from type ID (field at AT) to REF. WANT_TYPE: REF must be a
 * type (or void when VOID_OK). */
static int check_ref(const struct raw_check *c, uint32_t id, size_t at,
		     uint32_t ref, bool void_ok, const char *what)
{
	uint32_t total = c->start_id + c->nr;
	unsigned kind;

	if (ref >= total)
		return d2b_error_at(c->err, c->path, BTF_SECTION, at,
				    "type [%u]: %s type id %u past the last type (%u)%s",
				    id, what, ref, total - 1,
				    c->base ? ": wrong base BTF?" : "");
	if (!ref) {
		if (void_ok)
			return 0;
		return d2b_error_at(c->err, c->path, BTF_SECTION, at,
				    "type [%u]: %s is void", id, what);
	}
	kind = kind_of(c, ref);
	if (!is_type_kind(kind))
		return d2b_error_at(c->err, c->path, BTF_SECTION, at,
				    "type [%u]: %s type [%u] is a %s, not a type",
				    id, what, ref, btf_kind_name(kind));
	return 0;
}

static int check_ref_kind(const struct raw_check *c, uint32_t id, size_t at,
			  uint32_t ref, const char *what, unsigned want1,
			  unsigned want2)
{
	uint32_t total = c->start_id + c->nr;
	unsigned kind;

	if (!ref || ref >= total)
		return d2b_error_at(c->err, c->path, BTF_SECTION, at,
				    "type [%u]: %s type id %u %s", id, what, ref,
				    ref ? "past the last type" : "is void");
	kind = kind_of(c, ref);
	if (kind != want1 && kind != want2)
		return d2b_error_at(c->err, c->path, BTF_SECTION, at,
				    "type [%u]: %s type [%u] is a %s, want %s",
				    id, what, ref, btf_kind_name(kind),
				    btf_kind_name(want1));
	return 0;
}

static int check_one(const struct raw_check *c, uint32_t id)
{
	struct tinfo ti;
	size_t p;

	own_info(c, id, &ti);
	p = ti.rec + BTF_REC;
	if (!name_fine(c, ti.name_off) && check_name(c, id, ti.rec, ti.name_off))
		return -1;
	switch (ti.kind) {
	case BTF_KIND_INT: {
		uint32_t v = rd32(c, p);
		uint32_t bits = v & 0xff, off = (v >> 16) & 0xff;

		if (ti.type == 0 || ti.type > 16 || (ti.type & (ti.type - 1)))
			return d2b_error_at(c->err, c->path, BTF_SECTION, ti.rec,
					    "type [%u] INT: bad size %u", id, ti.type);
		if (!bits || bits + off > ti.type * 8)
			return d2b_error_at(c->err, c->path, BTF_SECTION, p,
					    "type [%u] INT: %u bits at %u do not fit in %u bytes",
					    id, bits, off, ti.type);
		break;
	}
	case BTF_KIND_FLOAT:
		if (ti.type != 2 && ti.type != 4 && ti.type != 8 &&
		    ti.type != 12 && ti.type != 16)
			return d2b_error_at(c->err, c->path, BTF_SECTION, ti.rec,
					    "type [%u] FLOAT: bad size %u", id, ti.type);
		break;
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		if (!ref_fine(c, ti.type, true) &&
		    check_ref(c, id, ti.rec + 8, ti.type, true, "referenced"))
			return -1;
		break;
	case BTF_KIND_ARRAY:
		if (check_ref(c, id, p, rd32(c, p), true, "element") ||
		    check_ref(c, id, p + 4, rd32(c, p + 4), false, "index"))
			return -1;
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		for (uint32_t i = 0; i < ti.vlen; i++, p += 12) {
			uint32_t name = rd32(c, p), t = rd32(c, p + 4);

			if (name_fine(c, name) && ref_fine(c, t, true))
				continue;
			if (check_name(c, id, p, name) ||
			    check_ref(c, id, p + 4, t, true, "member"))
				return -1;
		}
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		if (ti.type != 1 && ti.type != 2 && ti.type != 4 && ti.type != 8)
			return d2b_error_at(c->err, c->path, BTF_SECTION, ti.rec,
					    "type [%u] %s: bad size %u", id,
					    btf_kind_name(ti.kind), ti.type);
		for (uint32_t i = 0, step = ti.kind == BTF_KIND_ENUM ? 8 : 12; i < ti.vlen;
		     i++, p += step) {
			uint32_t name = rd32(c, p);

			if (!name_fine(c, name) && check_name(c, id, p, name))
				return -1;
		}
		break;
	case BTF_KIND_FWD:
		break;
	case BTF_KIND_FUNC:
		if (ti.vlen > BTF_FUNC_EXTERN)
			return d2b_error_at(c->err, c->path, BTF_SECTION, ti.rec,
					    "type [%u] FUNC: bad linkage %u", id, ti.vlen);
		if (!(ti.type >= c->start_id && ti.type < c->id_end &&
		      c->kinds[ti.type - c->start_id] == BTF_KIND_FUNC_PROTO) &&
		    check_ref_kind(c, id, ti.rec + 8, ti.type, "prototype",
				   BTF_KIND_FUNC_PROTO, BTF_KIND_FUNC_PROTO))
			return -1;
		break;
	case BTF_KIND_FUNC_PROTO:
		if (!ref_fine(c, ti.type, true) &&
		    check_ref(c, id, ti.rec + 8, ti.type, true, "return"))
			return -1;
		for (uint32_t i = 0; i < ti.vlen; i++, p += 8) {
			uint32_t name = rd32(c, p), t = rd32(c, p + 4);

			if (t && name_fine(c, name) && ref_fine(c, t, false))
				continue;
			if (check_name(c, id, p, name))
				return -1;
			if (!t && i + 1 != ti.vlen)
				return d2b_error_at(c->err, c->path, BTF_SECTION, p,
						    "type [%u] FUNC_PROTO: parameter %u is void (only the last, \"...\", may be)",
						    id, i);
			if (t && check_ref(c, id, p + 4, t, false, "parameter"))
				return -1;
		}
		break;
	case BTF_KIND_VAR:
		if (rd32(c, p) > BTF_VAR_GLOBAL_EXTERN)
			return d2b_error_at(c->err, c->path, BTF_SECTION, p,
					    "type [%u] VAR: bad linkage %u", id,
					    rd32(c, p));
		if (check_ref(c, id, ti.rec + 8, ti.type, true, "variable"))
			return -1;
		break;
	case BTF_KIND_DATASEC:
		for (uint32_t i = 0; i < ti.vlen; i++, p += 12) {
			if (check_ref_kind(c, id, p, rd32(c, p), "section entry",
					   BTF_KIND_VAR, BTF_KIND_FUNC))
				return -1;
		}
		break;
	case BTF_KIND_DECL_TAG: {
		int32_t comp = (int32_t)rd32(c, p);
		struct tinfo tt;

		if (!ti.type || ti.type >= c->start_id + c->nr)
			return d2b_error_at(c->err, c->path, BTF_SECTION, ti.rec + 8,
					    "type [%u] DECL_TAG: target id %u past the last type",
					    id, ti.type);
		type_info(c, ti.type, &tt);
		switch (tt.kind) {
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			if (comp >= (int32_t)tt.vlen || comp < -1)
				goto bad_comp;
			break;
		case BTF_KIND_FUNC: {
			struct tinfo pt;

			if (check_ref_kind(c, ti.type, tt.rec + 8, tt.type,
					   "prototype", BTF_KIND_FUNC_PROTO,
					   BTF_KIND_FUNC_PROTO))
				return -1;
			type_info(c, tt.type, &pt);
			if (comp >= (int32_t)pt.vlen || comp < -1)
				goto bad_comp;
			break;
		}
		case BTF_KIND_VAR:
		case BTF_KIND_TYPEDEF:
			if (comp != -1)
				goto bad_comp;
			break;
		default:
			return d2b_error_at(c->err, c->path, BTF_SECTION, ti.rec + 8,
					    "type [%u] DECL_TAG: target [%u] is a %s",
					    id, ti.type, btf_kind_name(tt.kind));
		}
		if (!ti.name_off)
			return d2b_error_at(c->err, c->path, BTF_SECTION, ti.rec,
					    "type [%u] DECL_TAG: no value", id);
		break;
bad_comp:
		return d2b_error_at(c->err, c->path, BTF_SECTION, p,
				    "type [%u] DECL_TAG: component index %d out of range for [%u] %s",
				    id, comp, ti.type, btf_kind_name(tt.kind));
	}
	}
	return 0;
}

/* The whole check of DATA (SIZE bytes) as BTF, split on BASE if not NULL
 * (BASE_STR_LEN: the size of all its strings). Sets *STR_TOTAL to the size
 * of all strings, the base's included. */
int btf_check_bytes(const char *path, const uint8_t *data, size_t size,
		     const struct btf *base, uint32_t base_str_len,
		     uint32_t *str_total, uint32_t *types_at, struct raw_kept *kept,
		     struct d2b_error *err)
{
	struct raw_check c = {
		.path = path, .data = data, .size = size, .base = base,
		.start_id = base ? btf__type_cnt(base) : 1,
		.base_str_len = base ? base_str_len : 0, .err = err,
	};
	uint8_t *copy = NULL;
	int rc;

	rc = check_header(&c);
	if (!rc)
		rc = native_types(&c, &copy);
	if (!rc)
		rc = check_strings(&c);
	if (!rc)
		rc = check_records(&c);
	c.id_end = c.start_id + c.nr;
	c.str_end = c.base_str_len + c.str_len;
	for (uint32_t i = 0; !rc && i < c.nr; i++)
		rc = check_one(&c, c.start_id + i);
	if (!rc && kept) {
		kept->swapped = c.swap;
		kept->offs = c.offs;
		kept->kinds = c.kinds;
		kept->nr = c.nr;
		kept->nr_anon = c.nr_anon;
		kept->str_at = c.hdr_len + c.str_off;
		kept->str_len = c.str_len;
		c.offs = NULL;
		c.kinds = NULL;
	}
	free(c.offs);
	free(c.kinds);
	free(c.typebits);
	free(copy);
	*str_total = c.base_str_len + c.str_len;
	*types_at = c.hdr_len + c.type_off;
	return rc;
}
