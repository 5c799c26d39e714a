// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE		/* memfd_create */
/*
 * BTF in: open (raw, ELF .BTF, split), validate, convert to the model.
 * See btf_load.h for what is checked and what the model holds.
 *
 *   btf_handle_open(path, base)
 *     ├── read_btf_bytes()     raw file, or the ELF's .BTF section, read
 *     ├── raw_check()          our pass over the bytes (header, records,
 *     │                        strings, references, kinds)
 *     └── btf__new_split()     libbpf's parse (it copies the bytes)
 *   btf_handle_open_unparsed(path)   the same without libbpf's parse: the
 *                              bytes and the records' offsets kept for
 *                              btf_handle_base_view() (the encoder's base)
 *   btf_handle_load_model()    check_graph() over the types it takes (no
 *                              cycle, no chain too deep), then two passes
 *                              over the ids: allocate every model type,
 *                              then fill them in; DECL_TAGs last
 */
#include "btf/btf_load.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <linux/btf.h>

#include "btf/btf_base.h"
#include "btf/btf_wire.h"
#include "dwarf/dw_const.h"
#include "elf/elf_file.h"

#define BTF_SECTION ".BTF"
#define BTF_HDR_MIN 24u
#define BTF_REC 12u		/* struct btf_type */
/* A BTF file bigger than this is not BTF we want (vmlinux's is 4 MiB). */
#define BTF_MAX_FILE (1u << 30)

/* What raw_check() leaves of a BTF it passed, for a handle without
 * libbpf's parse (btf_handle_open_unparsed()). */
struct raw_kept {
	bool swapped;		/* not this machine's byte order: nothing kept */
	uint32_t *offs;		/* nr: each record's offset in the bytes */
	uint8_t *kinds;		/* nr: each record's kind */
	uint32_t nr;
	uint32_t nr_anon;	/* records without a name */
	uint32_t str_at, str_len;	/* the string section in the bytes */
};

struct btf_handle {
	char *path;
	struct btf *btf;
	struct btf_handle *base_owned;	/* opened by us from base_path */
	const struct btf_handle *base;	/* NULL unless split */
	uint32_t start_id;
	uint32_t str_total;		/* bytes of strings, the base's included */
	uint32_t types_at;		/* its type section, in the bytes opened */
	/* btf_handle_open_unparsed() without libbpf's parse yet: the bytes
	 * checked (size bytes, this machine's byte order) and what the check
	 * found (kept.offs: each record's offset in them) */
	uint8_t *bytes;
	size_t size;
	struct raw_kept kept;
};

const char *btf_default_vmlinux_path(void)
{
	const char *env = getenv("PAHOLE_VMLINUX_BTF_FILENAME");

	return env && *env ? env : "/sys/kernel/btf/vmlinux";
}

const char *btf_sysfs_module_base(const char *path)
{
	static const char dir[] = "/sys/kernel/btf/";

	if (!path || strncmp(path, dir, sizeof(dir) - 1) || strstr(path, "/vmlinux") ||
	    !path[sizeof(dir) - 1])
		return NULL;
	return btf_default_vmlinux_path();
}

/* ---- Reading the bytes ---- */

/* Read a whole (possibly non-seekable, e.g. sysfs) file. */
static int read_file(const char *path, uint8_t **out, size_t *size,
		     struct d2b_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 1 << 16, len = 0;
	uint8_t *buf = NULL;

	if (fd < 0)
		return d2b_error_set(err, "%s: %s", path, strerror(errno));
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return d2b_error_oom(err);
	}
	for (;;) {
		ssize_t n;

		if (len == cap) {
			uint8_t *nb;

			if (cap >= BTF_MAX_FILE) {
				free(buf);
				close(fd);
				return d2b_error_set(err, "%s: file too large for BTF",
						     path);
			}
			nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				close(fd);
				return d2b_error_oom(err);
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			d2b_error_set(err, "%s: %s", path, strerror(errno));
			free(buf);
			close(fd);
			return -1;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	*out = buf;
	*size = len;
	return 0;
}

static bool is_btf_magic(const uint8_t *p, size_t n)
{
	return n >= 2 && ((p[0] == 0x9f && p[1] == 0xeb) ||
			  (p[0] == 0xeb && p[1] == 0x9f));
}

static bool is_elf_magic(const uint8_t *p, size_t n)
{
	return n >= 4 && !memcmp(p, "\177ELF", 4);
}

enum btf_probe btf_probe_file(const char *path)
{
	uint8_t head[4];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct d2b_error err = { 0 };
	struct elf_file *ef;
	enum btf_probe r;

	if (fd < 0)
		return BTF_PROBE_NONE;
	n = read(fd, head, sizeof(head));
	close(fd);
	if (n < 0)
		return BTF_PROBE_NONE;
	if (is_btf_magic(head, (size_t)n))
		return BTF_PROBE_RAW;
	if (!is_elf_magic(head, (size_t)n))
		return BTF_PROBE_NONE;
	ef = elf_file_open(path, &err);
	if (!ef)
		return BTF_PROBE_NONE;
	r = elf_file_find_section(ef, BTF_SECTION) ? BTF_PROBE_ELF
						   : BTF_PROBE_ELF_NO_BTF;
	elf_file_close(ef);
	return r;
}

/* ---- Our check of the raw bytes ---- */

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

static const char *kind_name(unsigned kind)
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
					    c->start_id + c->nr, kind_name(kind), extra);
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
				    id, what, ref, kind_name(kind));
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
				    id, what, ref, kind_name(kind),
				    kind_name(want1));
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
					    kind_name(ti.kind), ti.type);
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
					    id, ti.type, kind_name(tt.kind));
		}
		if (!ti.name_off)
			return d2b_error_at(c->err, c->path, BTF_SECTION, ti.rec,
					    "type [%u] DECL_TAG: no value", id);
		break;
bad_comp:
		return d2b_error_at(c->err, c->path, BTF_SECTION, p,
				    "type [%u] DECL_TAG: component index %d out of range for [%u] %s",
				    id, comp, ti.type, kind_name(tt.kind));
	}
	}
	return 0;
}

/* The whole check of DATA (SIZE bytes) as BTF, split on BASE if not NULL
 * (BASE_STR_LEN: the size of all its strings). Sets *STR_TOTAL to the size
 * of all strings, the base's included. */
static int raw_check(const char *path, const uint8_t *data, size_t size,
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

/* ---- Handles ---- */

/* libbpf's parse of H and of its bases, which what reads libbpf's objects
 * needs (a handle btf_handle_open_unparsed() opened has none until
 * btf_handle_parse()). */
static int need_parsed(const struct btf_handle *h, struct d2b_error *err)
{
	for (; h; h = h->base)
		if (!h->btf)
			return d2b_error_set(err, "%s: BTF not parsed by libbpf (btf_handle_parse())",
					     h->path);
	return 0;
}


/*
 * libbpf 1.1 as Debian ships it declares btf__new_split() but does not
 * export it; its split parsers take a file name. So split BTF goes through
 * an anonymous memory file (or, without /proc, a temporary file).
 */
struct btf *btf_parse_split_bytes(const void *data, size_t size, struct btf *base)
{
	char name[64];
	struct btf *btf = NULL;
	int fd = memfd_create("d2b-split-btf", MFD_CLOEXEC);
	bool unlink_it = false;
	int saved;

	if (fd >= 0) {
		snprintf(name, sizeof(name), "/proc/self/fd/%d", fd);
		if (access(name, R_OK)) {
			close(fd);
			fd = -1;
		}
	}
	if (fd < 0) {
		const char *dir = getenv("TMPDIR");

		snprintf(name, sizeof(name), "%.40s/d2b-btf-XXXXXX",
			 dir && *dir ? dir : "/tmp");
		fd = mkstemp(name);
		if (fd < 0)
			return NULL;
		unlink_it = true;
	}
	for (size_t done = 0; done < size;) {
		ssize_t n = write(fd, (const uint8_t *)data + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto out;
		done += (size_t)n;
	}
	btf = btf__parse_raw_split(name, base);
out:
	saved = errno;
	if (unlink_it)
		unlink(name);
	close(fd);
	errno = saved;
	return btf;
}

static struct btf_handle *open_bytes(const char *path, const uint8_t *data,
				     size_t size, const struct btf_handle *base,
				     struct d2b_error *err)
{
	struct btf_handle *h;
	uint32_t str_total, types_at;
	long lerr;

	if (need_parsed(base, err))
		return NULL;
	if (raw_check(path, data, size, base ? base->btf : NULL,
		      base ? base->str_total : 0, &str_total, &types_at, NULL, err))
		return NULL;
	h = calloc(1, sizeof(*h));
	if (!h || !(h->path = strdup(path))) {
		free(h);
		d2b_error_oom(err);
		return NULL;
	}
	h->base = base;
	errno = 0;
	if (base)
		h->btf = btf_parse_split_bytes(data, size, (struct btf *)base->btf);
	else
		h->btf = btf__new(data, (uint32_t)size);
	lerr = errno;
	if (!h->btf) {
		d2b_error_at(err, path, BTF_SECTION, 0, "libbpf cannot parse it: %s",
			     strerror((int)lerr));
		h->btf = NULL;
		btf_handle_close(h);
		return NULL;
	}
	h->start_id = base ? btf__type_cnt(base->btf) : 1;
	h->str_total = str_total;
	h->types_at = types_at;
	return h;
}

struct btf_handle *btf_handle_open_memory(const char *path, const void *data,
					  size_t size,
					  const struct btf_handle *base,
					  struct d2b_error *err)
{
	return open_bytes(path, data, size, base, err);
}

/* PATH's BTF bytes: a raw file, or an ELF file's .BTF section, read whole
 * into *DATA (malloc'd, *SIZE bytes). (Read, not checked and parsed where
 * the file is mapped: on the project's VM touching a vmlinux's 4 MB of
 * .BTF in the mapping cost 3-4 ms more than reading it.) */
static int read_btf_bytes(const char *path, uint8_t **data, size_t *size,
			  struct d2b_error *err)
{
	const struct elf_section *sec;
	struct elf_file *ef;
	uint8_t head[4];
	ssize_t n = -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	*data = NULL;
	if (fd >= 0) {
		n = read(fd, head, sizeof(head));
		close(fd);
	}
	if (n < 0 || !is_elf_magic(head, (size_t)n))
		return read_file(path, data, size, err);
	ef = elf_file_open(path, err);
	if (!ef)
		return -1;
	sec = elf_file_load_section(ef, BTF_SECTION, err);
	if (!sec) {
		if (!err || !err->set)
			d2b_error_set(err, "%s: no " BTF_SECTION " section", path);
		elf_file_close(ef);
		return -1;
	}
	*data = malloc(sec->size ? sec->size : 1);
	if (!*data) {
		elf_file_close(ef);
		return d2b_error_oom(err);
	}
	if (!elf_file_is_mapped(ef, sec->data, sec->size)) {
		/* decompressed or relocated: the elf_file's copy */
		memcpy(*data, sec->data, sec->size);
	} else if (elf_file_read(ef, sec->data, *data, sec->size)) {
		d2b_error_at(err, path, BTF_SECTION, 0, "cannot read it: %s", strerror(errno));
		free(*data);
		*data = NULL;
		elf_file_close(ef);
		return -1;
	}
	*size = sec->size;
	elf_file_close(ef);
	return 0;
}

/* PATH's BTF, opened on BASE. */
static struct btf_handle *open_path(const char *path, const struct btf_handle *base,
				    struct d2b_error *err)
{
	struct btf_handle *h;
	uint8_t *data;
	size_t size;

	if (read_btf_bytes(path, &data, &size, err))
		return NULL;
	h = open_bytes(path, data, size, base, err);
	free(data);
	return h;
}

/* A whole BTF (not split) checked, DATA (SIZE bytes, malloc'd) kept by
 * the handle without libbpf's parse; freed on failure. Where the bytes
 * cannot serve as a view (another byte order, records not 4-byte aligned)
 * libbpf parses them at once, as btf_handle_open() does. */
static struct btf_handle *open_unparsed(const char *path, uint8_t *data, size_t size,
					struct d2b_error *err)
{
	struct btf_handle *h;
	struct raw_kept kept = { 0 };
	uint32_t str_total, types_at;

	if (raw_check(path, data, size, NULL, 0, &str_total, &types_at, &kept, err)) {
		free(data);
		return NULL;
	}
	if (kept.swapped || types_at % 4) {
		free(kept.offs);
		free(kept.kinds);
		h = open_bytes(path, data, size, NULL, err);
		free(data);
		return h;
	}
	h = calloc(1, sizeof(*h));
	if (!h || !(h->path = strdup(path))) {
		free(h);
		free(kept.offs);
		free(kept.kinds);
		free(data);
		d2b_error_oom(err);
		return NULL;
	}
	h->start_id = 1;
	h->str_total = str_total;
	h->types_at = types_at;
	h->bytes = data;
	h->size = size;
	h->kept = kept;
	return h;
}

struct btf_handle *btf_handle_open_unparsed(const char *path, struct d2b_error *err)
{
	uint8_t *data;
	size_t size;

	if (!path)
		path = btf_default_vmlinux_path();
	if (read_btf_bytes(path, &data, &size, err))
		return NULL;
	return open_unparsed(path, data, size, err);
}

struct btf_handle *btf_handle_open_memory_unparsed(const char *path, const void *data,
						   size_t size, struct d2b_error *err)
{
	uint8_t *copy = malloc(size ? size : 1);

	if (!copy) {
		d2b_error_oom(err);
		return NULL;
	}
	memcpy(copy, data, size);
	return open_unparsed(path, copy, size, err);
}

int btf_handle_parse(struct btf_handle *h, struct d2b_error *err)
{
	if (h->btf)
		return 0;
	errno = 0;
	h->btf = btf__new(h->bytes, (uint32_t)h->size);
	if (!h->btf)
		return d2b_error_at(err, h->path, BTF_SECTION, 0, "libbpf cannot parse it: %s",
				    strerror(errno ? errno : EINVAL));
	return 0;
}

int btf_handle_base_view(const struct btf_handle *h, struct btf_base_view *v,
			 struct d2b_error *err)
{
	memset(v, 0, sizeof(*v));
	if (h->base)
		return d2b_error_set(err, "%s: split BTF cannot be a base here", h->path);
	if (h->bytes) {
		v->nr_types = h->kept.nr;
		v->types = h->bytes;	/* (the check's offsets are from the start) */
		v->off = h->kept.offs;
		v->kinds = h->kept.kinds;
		v->nr_anon = h->kept.nr_anon;
		v->strs = (const char *)h->bytes + h->kept.str_at;
		v->str_len = h->kept.str_len;
		return 0;
	}
	if (btf_base_view_from_btf(v, h->btf))
		return d2b_error_oom(err);
	return 0;
}

struct btf_handle *btf_handle_open(const char *path, const char *base_path,
				   struct d2b_error *err)
{
	struct btf_handle *base = NULL, *h;

	if (!path)
		path = btf_default_vmlinux_path();
	if (base_path) {
		base = btf_handle_open(base_path, NULL, err);
		if (!base)
			return NULL;
	}
	h = open_path(path, base, err);
	if (!h) {
		btf_handle_close(base);
		return NULL;
	}
	h->base_owned = base;
	return h;
}

void btf_handle_close(struct btf_handle *h)
{
	if (!h)
		return;
	btf__free(h->btf);
	btf_handle_close(h->base_owned);
	free(h->bytes);
	free(h->kept.offs);
	free(h->kept.kinds);
	free(h->path);
	free(h);
}

const char *btf_handle_path(const struct btf_handle *h)
{
	return h->path;
}

const struct btf *btf_handle_btf(const struct btf_handle *h)
{
	return h->btf;
}

uint32_t btf_handle_start_id(const struct btf_handle *h)
{
	return h->start_id;
}

/* ---- The reference graph: cycles and depth ---- */

/*
 * The printers' reference graph: an edge from a type to each type printing
 * it may expand. A named struct or union has none (it is printed by name).
 * Edges are numbered from 0; an edge may be 0 (void: none). The number of
 * T's edges, and its K-th (K below that number): the type field; an
 * array's element; the members' types; a prototype's return type, then its
 * parameters'.
 */
static uint32_t graph_edges(const struct btf *btf, const struct btf_type *t)
{
	const char *name;

	switch (btf_kind(t)) {
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
	case BTF_KIND_FUNC:
	case BTF_KIND_VAR:
	case BTF_KIND_ARRAY:
		return 1;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		name = t->name_off ? btf__name_by_offset(btf, t->name_off) : NULL;
		return name && *name ? 0 : btf_vlen(t);
	case BTF_KIND_FUNC_PROTO:
		return 1 + btf_vlen(t);
	}
	return 0;
}

static uint32_t graph_edge(const struct btf_type *t, uint32_t k)
{
	switch (btf_kind(t)) {
	case BTF_KIND_ARRAY:
		return btf_array(t)->type;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return btf_members(t)[k].type;
	case BTF_KIND_FUNC_PROTO:
		return k ? btf_params(t)[k - 1].type : t->type;
	}
	return t->type;
}

/* "PATH: .BTF+0xOFF: " of type ID's record: H's own, or its base's. */
static int graph_error(const struct btf_handle *h, const struct btf_type *t, uint32_t id,
		       struct d2b_error *err, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int graph_error(const struct btf_handle *h, const struct btf_type *t, uint32_t id,
		       struct d2b_error *err, const char *fmt, ...)
{
	const uint8_t *first;
	char msg[256];
	va_list ap;

	while (id < h->start_id && h->base)
		h = h->base;
	/* T's offset from its handle's first record, in libbpf's copy (which
	 * keeps the section's layout, in either byte order) */
	first = (const uint8_t *)btf__type_by_id(h->btf, h->start_id);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return d2b_error_at(err, h->path, BTF_SECTION,
			    h->types_at + (size_t)((const uint8_t *)t - first), "%s", msg);
}

/*
 * Depth-first search from the types RECS[id] with WANT[id] (all, when WANT
 * is NULL), base and own alike (a base's types never refer to its split's;
 * a split's chains go on in its base). A grey node met again closes a
 * cycle. A black node keeps the longest chain below it, for the depth
 * limit, checked wherever a chain grows (a chain in id order grows only as
 * the search returns along it).
 *
 * One 16-bit state a type (a vmlinux's 99 k types: 200 KB, where a colour,
 * a depth and a frame a type were 1.7 MB of fresh memory, most of the
 * check's time), and a stack as deep as the search goes. Only what is
 * printed needs it: the model's types (all of them, or pahole -C's
 * closure: 7 k of a vmlinux's 95 k for task_struct) and btfdiff's; the
 * encoder reads its base's types only beside the module's own, in step.
 */
#define ST_WHITE 0
#define ST_GREY 1
#define ST_BLACK 2	/* + the longest chain below: at most BTF_LOAD_MAX_DEPTH */
_Static_assert(ST_BLACK + BTF_LOAD_MAX_DEPTH <= UINT16_MAX, "depth in 16 bits");

static int check_graph(const struct btf_handle *h, const struct btf_type *const *recs,
		       uint32_t nr_ids, const uint8_t *want, struct d2b_error *err)
{
	struct frame {
		uint32_t id, k, n, depth;
	};
	uint16_t *st = calloc(nr_ids ? nr_ids : 1, sizeof(*st));
	struct frame *stack = NULL;
	size_t cap = 0;
	int rc = 0;

	if (!st)
		return d2b_error_oom(err);
	for (uint32_t root = 1; root < nr_ids && !rc; root++) {
		uint32_t next = root, next_n;	/* to push */
		size_t sp = 0;

		if (st[root] != ST_WHITE || (want && !want[root]))
			continue;
		/* a type with no edges is done at once (most of a vmlinux's:
		 * named structs, enums, ints); so below */
		next_n = graph_edges(h->btf, recs[root]);
		if (!next_n) {
			st[root] = ST_BLACK;
			continue;
		}
		do {
			struct frame *f;
			uint32_t to;

			if (next != UINT32_MAX) {
				if (sp == cap) {
					size_t ncap = cap ? 2 * cap : 256;
					struct frame *ns = realloc(stack, ncap * sizeof(*ns));

					if (!ns) {
						rc = d2b_error_oom(err);
						break;
					}
					stack = ns;
					cap = ncap;
				}
				stack[sp++] = (struct frame){ next, 0, next_n, 0 };
				st[next] = ST_GREY;
				next = UINT32_MAX;
			}
			f = &stack[sp - 1];
			if (f->k == f->n) {
				uint32_t d = f->depth + 1;

				st[f->id] = (uint16_t)(ST_BLACK + f->depth);
				if (--sp && d > stack[sp - 1].depth) {
					f = &stack[sp - 1];
					f->depth = d;
					if (d > BTF_LOAD_MAX_DEPTH)
						goto too_deep;
				}
				continue;
			}
			to = graph_edge(recs[f->id], f->k++);
			if (!to)	/* void */
				continue;
			if (st[to] >= ST_BLACK) {
				uint32_t d = st[to] - ST_BLACK + 1u;

				if (d > f->depth) {
					f->depth = d;
					if (d > BTF_LOAD_MAX_DEPTH)
						goto too_deep;
				}
			} else if (st[to] == ST_GREY) {
				rc = graph_error(h, recs[to], to, err,
						 "type [%u] %s is part of a reference cycle (through [%u] %s)",
						 to, kind_name(btf_kind(recs[to])), f->id,
						 kind_name(btf_kind(recs[f->id])));
			} else if ((next_n = graph_edges(h->btf, recs[to]))) {
				next = to;
			} else {
				st[to] = ST_BLACK;	/* as pushed and popped at once */
				if (f->depth < 1)
					f->depth = 1;
			}
			continue;
too_deep:
			rc = graph_error(h, recs[f->id], f->id, err,
					 "type [%u] %s: reference chain deeper than %u", f->id,
					 kind_name(btf_kind(recs[f->id])), BTF_LOAD_MAX_DEPTH);
		} while ((sp || next != UINT32_MAX) && !rc);
	}
	free(st);
	free(stack);
	return rc;
}

int btf_handle_check_graph(const struct btf_handle *h, struct d2b_error *err)
{
	uint32_t n;
	const struct btf_type **recs;
	int rc;

	if (need_parsed(h, err))
		return -1;
	n = btf__type_cnt(h->btf);
	recs = malloc((size_t)n * sizeof(*recs));
	if (!recs)
		return d2b_error_oom(err);
	for (uint32_t id = 0; id < n; id++)
		recs[id] = btf__type_by_id(h->btf, id);
	rc = check_graph(h, recs, n, NULL, err);
	free(recs);
	return rc;
}

/* ---- The model ---- */

struct builder {
	const struct btf *btf;
	struct cu_model *cu;
	uint32_t nr_ids;
	const struct btf_type **recs;	/* id -> its record (libbpf's) */
	struct type **by_id;		/* NULL: not a model type (or void) */
	uint32_t *fn_of;		/* id -> functions[] index + 1 */
	uint32_t *var_of;		/* id -> variables[] index + 1 */
	/* A partial model (btf_handle_load_model()'s ONLY): the ids built,
	 * NULL for all of them */
	uint8_t *want;
	struct d2b_error *err;
};

static const char *bname(const struct builder *b, uint32_t off)
{
	const char *s = off ? btf__name_by_offset(b->btf, off) : NULL;

	return s && *s ? s : NULL;
}

static bool is_model_type(unsigned kind)
{
	switch (kind) {
	case BTF_KIND_INT:
	case BTF_KIND_FLOAT:
	case BTF_KIND_PTR:
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_FWD:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_ARRAY:
	case BTF_KIND_FUNC_PROTO:
		return true;
	}
	return false;
}

static struct annotation *new_tag(struct builder *b, const char *name,
				  const char *value)
{
	struct annotation *a = arena_zalloc(&b->cu->arena, sizeof(*a));

	if (a) {
		a->name = name;
		a->value = value;
	}
	return a;
}

static int append_tag(struct builder *b, struct annotation **list,
		      const char *name, const char *value)
{
	struct annotation *a = new_tag(b, name, value);

	if (!a)
		return d2b_error_oom(b->err);
	while (*list)
		list = &(*list)->next;
	*list = a;
	return 0;
}

/* The model type of ID, skipping TYPE_TAGs. With TAGS, each skipped tag is
 * put at the head of *TAGS, so the list ends up innermost first (DWARF's
 * order: clang lists "int __user __rcu *"'s tags as user, rcu). Validation
 * guarantees the chain ends. */
static struct type *resolve(struct builder *b, uint32_t id,
			    struct annotation **tags)
{
	while (id) {
		const struct btf_type *t = b->recs[id];

		if (btf_kind(t) != BTF_KIND_TYPE_TAG)
			return b->by_id[id];
		if (tags) {
			struct annotation *a =
				new_tag(b, "btf_type_tag", bname(b, t->name_off));

			if (!a)
				return NULL;
			a->next = *tags;
			*tags = a;
		}
		id = t->type;
	}
	return NULL;
}

static uint16_t int_encoding(const struct btf_type *t, const char *name)
{
	uint8_t enc = btf_int_encoding(t);
	bool is_signed = enc & BTF_INT_SIGNED;

	if (enc & BTF_INT_BOOL)
		return DW_ATE_boolean;
	/* pahole encodes DW_ATE_signed_char as plain SIGNED: a one-byte
	 * integer called "...char" is a character type. */
	if ((enc & BTF_INT_CHAR) ||
	    (t->size == 1 && name && strstr(name, "char")))
		return is_signed ? DW_ATE_signed_char : DW_ATE_unsigned_char;
	return is_signed ? DW_ATE_signed : DW_ATE_unsigned;
}

static int fill_params(struct builder *b, const struct btf_type *t,
		       struct param **out, uint32_t *nr, bool *varargs)
{
	const struct btf_param *bp = btf_params(t);
	uint32_t n = btf_vlen(t);
	struct param *p;

	*varargs = n && bp[n - 1].type == 0;
	if (*varargs)
		n--;
	*nr = n;
	*out = NULL;
	if (!n)
		return 0;
	p = arena_zalloc(&b->cu->arena, n * sizeof(*p));
	if (!p)
		return d2b_error_oom(b->err);
	for (uint32_t i = 0; i < n; i++) {
		p[i].name = bname(b, bp[i].name_off);
		p[i].type = resolve(b, bp[i].type, NULL);
		p[i].die_offset = 0;
		if (bp[i].type && !p[i].type && b->err->set)
			return -1;
	}
	*out = p;
	return 0;
}

static int fill_type(struct builder *b, uint32_t id, struct type *ty)
{
	const struct btf_type *t = b->recs[id];
	unsigned kind = btf_kind(t);
	struct arena *a = &b->cu->arena;

	switch (kind) {
	case BTF_KIND_INT:
		ty->base.encoding = int_encoding(t, ty->name);
		if (btf_int_bits(t) != t->size * 8)
			ty->base.bit_size = btf_int_bits(t);
		break;
	case BTF_KIND_FLOAT:
		ty->base.encoding = DW_ATE_float;
		break;
	case BTF_KIND_PTR:
		ty->type = resolve(b, t->type, &ty->tags);
		break;
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPEDEF:
		ty->type = resolve(b, t->type, NULL);
		break;
	case BTF_KIND_ARRAY: {
		const struct btf_array *arr = btf_array(t);

		ty->type = resolve(b, arr->type, NULL);
		ty->array.dims = arena_zalloc(a, sizeof(*ty->array.dims));
		if (!ty->array.dims)
			return d2b_error_oom(b->err);
		ty->array.nr_dims = 1;
		ty->array.dims[0].count = arr->nelems;
		ty->array.dims[0].flexible = arr->nelems == 0;
		break;
	}
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION: {
		const struct btf_member *m = btf_members(t);
		uint32_t n = btf_vlen(t);

		ty->composite.nr_members = n;
		if (!n)
			break;
		ty->composite.members = arena_zalloc(a, n * sizeof(struct member));
		if (!ty->composite.members)
			return d2b_error_oom(b->err);
		for (uint32_t i = 0; i < n; i++) {
			struct member *mm = &ty->composite.members[i];

			mm->name = bname(b, m[i].name_off);
			mm->type = resolve(b, m[i].type, NULL);
			mm->bit_offset = btf_member_bit_offset(t, i);
			mm->bit_size = btf_member_bitfield_size(t, i);
			mm->die_offset = id;
		}
		break;
	}
	case BTF_KIND_FWD:
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64: {
		uint32_t n = btf_vlen(t);
		bool sgn = btf_kflag(t);

		ty->enumeration.is_signed = sgn;
		ty->enumeration.nr_values = n;
		if (!n)
			break;
		ty->enumeration.values = arena_zalloc(a, n * sizeof(struct enumerator));
		if (!ty->enumeration.values)
			return d2b_error_oom(b->err);
		for (uint32_t i = 0; i < n; i++) {
			struct enumerator *e = &ty->enumeration.values[i];

			if (kind == BTF_KIND_ENUM) {
				const struct btf_enum *be = &btf_enum(t)[i];

				e->name = bname(b, be->name_off);
				e->value = sgn ? (int64_t)be->val
					       : (int64_t)(uint32_t)be->val;
			} else {
				const struct btf_enum64 *be = &btf_enum64(t)[i];

				e->name = bname(b, be->name_off);
				e->value = (int64_t)btf_enum64_value(be);
			}
		}
		break;
	}
	case BTF_KIND_FUNC_PROTO:
		ty->type = resolve(b, t->type, NULL);
		ty->proto.prototyped = true;
		if (fill_params(b, t, &ty->proto.params, &ty->proto.nr_params,
				&ty->proto.varargs))
			return -1;
		break;
	}
	return b->err->set ? -1 : 0;
}

static int fill_function(struct builder *b, uint32_t id, struct function *fn)
{
	const struct btf_type *t = b->recs[id];
	const struct type *proto = b->by_id[t->type];

	fn->name = bname(b, t->name_off);
	fn->die_offset = id;
	fn->scope = TS_UNIT;
	fn->calling_convention = DW_CC_normal;
	fn->prototyped = true;
	fn->external = fn->own_external = btf_vlen(t) != BTF_FUNC_STATIC;
	fn->declaration = btf_vlen(t) == BTF_FUNC_EXTERN;
	fn->ret = proto->type;
	fn->varargs = proto->proto.varargs;
	fn->nr_params = proto->proto.nr_params;
	if (fn->nr_params) {
		size_t sz = fn->nr_params * sizeof(struct param);

		fn->params = arena_alloc(&b->cu->arena, sz);
		if (!fn->params)
			return d2b_error_oom(b->err);
		memcpy(fn->params, proto->proto.params, sz);
	}
	return 0;
}

static void fill_variable(struct builder *b, uint32_t id, struct variable *v)
{
	const struct btf_type *t = b->recs[id];
	uint32_t linkage = btf_var(t)->linkage;

	v->name = bname(b, t->name_off);
	v->type = resolve(b, t->type, NULL);
	v->die_offset = id;
	v->external = linkage != BTF_VAR_STATIC;
	v->declaration = linkage == BTF_VAR_GLOBAL_EXTERN;
}

static int attach_decl_tag(struct builder *b, uint32_t id)
{
	const struct btf_type *t = b->recs[id];
	int comp = btf_decl_tag(t)->component_idx;
	const struct btf_type *target = b->recs[t->type];
	const char *value = bname(b, t->name_off);
	struct annotation **list = NULL;

	switch (btf_kind(target)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_TYPEDEF: {
		struct type *ty = b->by_id[t->type];

		list = comp < 0 ? &ty->tags : &ty->composite.members[comp].tags;
		break;
	}
	case BTF_KIND_FUNC: {
		struct function *fn = &b->cu->functions[b->fn_of[t->type] - 1];

		if (comp >= (int)fn->nr_params)
			return 0;	/* the "..." of a varargs function */
		list = comp < 0 ? &fn->tags : &fn->params[comp].tags;
		break;
	}
	case BTF_KIND_VAR:
		list = &b->cu->variables[b->var_of[t->type] - 1].tags;
		break;
	default:
		return 0;
	}
	return append_tag(b, list, "btf_decl_tag", value);
}

static int build(struct builder *b)
{
	struct cu_model *cu = b->cu;
	uint32_t nt = 0, nf = 0, nv = 0;
	uint64_t ptr_size = btf__pointer_size(b->btf);

	if (!ptr_size)
		ptr_size = 8;
	/* (in a partial model, want[] first: most records need not be read) */
	for (uint32_t id = 1; id < b->nr_ids; id++) {
		unsigned kind;

		if (b->want && !b->want[id])
			continue;
		kind = btf_kind(b->recs[id]);
		nt += is_model_type(kind);
		nf += kind == BTF_KIND_FUNC;
		nv += kind == BTF_KIND_VAR;
	}
	cu->types = arena_zalloc(&cu->arena, (nt ? nt : 1) * sizeof(*cu->types));
	cu->functions = arena_zalloc(&cu->arena, (nf ? nf : 1) * sizeof(*cu->functions));
	cu->variables = arena_zalloc(&cu->arena, (nv ? nv : 1) * sizeof(*cu->variables));
	if (!cu->types || !cu->functions || !cu->variables)
		return d2b_error_oom(b->err);

	/* Pass 1: every model type, so references can be resolved. */
	for (uint32_t id = 1; id < b->nr_ids; id++) {
		const struct btf_type *t = b->recs[id];
		unsigned kind;
		struct type *ty;

		if (b->want && !b->want[id])
			continue;
		kind = btf_kind(t);
		if (!is_model_type(kind))
			continue;
		ty = arena_zalloc(&cu->arena, sizeof(*ty));
		if (!ty)
			return d2b_error_oom(b->err);
		ty->id = cu->nr_types;
		ty->die_offset = id;
		ty->cu_lang = DW_LANG_C;
		ty->scope = TS_UNIT;
		ty->name = bname(b, t->name_off);
		switch (kind) {
		case BTF_KIND_INT:
		case BTF_KIND_FLOAT:
			ty->kind = TK_BASE;
			ty->size = t->size;
			break;
		case BTF_KIND_PTR:
			ty->kind = TK_POINTER;
			ty->size = ptr_size;
			break;
		case BTF_KIND_CONST: ty->kind = TK_CONST; break;
		case BTF_KIND_VOLATILE: ty->kind = TK_VOLATILE; break;
		case BTF_KIND_RESTRICT: ty->kind = TK_RESTRICT; break;
		case BTF_KIND_TYPEDEF: ty->kind = TK_TYPEDEF; break;
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			ty->kind = kind == BTF_KIND_STRUCT ? TK_STRUCT : TK_UNION;
			ty->size = t->size;
			break;
		case BTF_KIND_FWD:
			ty->kind = btf_kflag(t) ? TK_UNION : TK_STRUCT;
			ty->declaration = true;
			break;
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
			ty->kind = TK_ENUM;
			ty->size = t->size;
			break;
		case BTF_KIND_ARRAY: ty->kind = TK_ARRAY; break;
		case BTF_KIND_FUNC_PROTO: ty->kind = TK_FUNC_PROTO; break;
		}
		b->by_id[id] = ty;
		cu->types[cu->nr_types++] = ty;
	}
	/* Pass 2: references, members, values, parameters. */
	for (uint32_t id = 1; id < b->nr_ids; id++)
		if (b->by_id[id] && fill_type(b, id, b->by_id[id]))
			return -1;
	for (uint32_t id = 1; id < b->nr_ids; id++) {
		unsigned kind;

		if (b->want && !b->want[id])
			continue;
		kind = btf_kind(b->recs[id]);
		if (kind == BTF_KIND_FUNC) {
			if (fill_function(b, id, &cu->functions[cu->nr_functions++]))
				return -1;
			b->fn_of[id] = cu->nr_functions;
		} else if (kind == BTF_KIND_VAR) {
			fill_variable(b, id, &cu->variables[cu->nr_variables++]);
			b->var_of[id] = cu->nr_variables;
		}
	}
	if (b->err->set)
		return -1;
	/* Pass 3: DECL_TAGs, in id order. */
	for (uint32_t id = 1; id < b->nr_ids; id++) {
		if ((!b->want || b->want[id]) && btf_kind(b->recs[id]) == BTF_KIND_DECL_TAG &&
		    attach_decl_tag(b, id))
			return -1;
	}
	return 0;
}

/* Whether the type record T is named one of ONLY's names. */
static bool named_one_of(const struct builder *b, const struct btf_type *t,
			 const struct btf_model_only *only)
{
	const char *name = t->name_off ? btf__name_by_offset(b->btf, t->name_off) : NULL;
	size_t lo = 0, hi = only->nr_names;

	if (!name || !*name)
		return false;
	if (!only->order) {
		for (size_t i = 0; i < only->nr_names; i++)
			if (!strcmp(only->names[i], name))
				return true;
		return false;
	}
	while (lo < hi) {	/* sorted by order[] */
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(only->names[only->order[mid]], name);

		if (!c)
			return true;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* Type id REF of a wanted type: wanted too (pushed on STACK once). */
static void want_ref(struct builder *b, uint32_t ref, uint32_t *stack, size_t *nr)
{
	if (ref && ref < b->nr_ids && !b->want[ref]) {
		b->want[ref] = 1;
		stack[(*nr)++] = ref;
	}
}

/*
 * b->want for a partial model: every model type named one of ONLY's names
 * (whatever its kind: the printers pick among them as in the whole model,
 * where they come in the same order), every type those reach by any
 * reference at any depth (pointers too: what printing them may read, for
 * -E and --expand_pointers as well), and the DECL_TAGs on those. From
 * task_struct: 7,057 of the 52,839 model types of the Debian 6.1 vmlinux,
 * 6,218 of 69,445 in a 6.18 kernel's. Each id is pushed once, so the
 * stack needs no more than one slot an id.
 */
static int want_closure(struct builder *b, const struct btf_model_only *only)
{
	uint32_t *stack = malloc((size_t)b->nr_ids * sizeof(*stack));
	size_t nr = 0;

	b->want = calloc(b->nr_ids, 1);
	if (!stack || !b->want) {
		free(stack);
		return d2b_error_oom(b->err);
	}
	for (uint32_t id = 1; id < b->nr_ids; id++)
		if (is_model_type(btf_kind(b->recs[id])) && named_one_of(b, b->recs[id], only)) {
			b->want[id] = 1;
			stack[nr++] = id;
		}
	while (nr) {
		const struct btf_type *t = b->recs[stack[--nr]];
		uint16_t n = btf_vlen(t);

		switch (btf_kind(t)) {
		case BTF_KIND_PTR:
		case BTF_KIND_CONST:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_TYPE_TAG:
			want_ref(b, t->type, stack, &nr);
			break;
		case BTF_KIND_ARRAY:
			want_ref(b, btf_array(t)->type, stack, &nr);
			want_ref(b, btf_array(t)->index_type, stack, &nr);
			break;
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			for (uint16_t i = 0; i < n; i++)
				want_ref(b, btf_members(t)[i].type, stack, &nr);
			break;
		case BTF_KIND_FUNC_PROTO:
			want_ref(b, t->type, stack, &nr);
			for (uint16_t i = 0; i < n; i++)
				want_ref(b, btf_params(t)[i].type, stack, &nr);
			break;
		default:	/* INT, FLOAT, ENUM, ENUM64, FWD: no references */
			break;
		}
	}
	free(stack);
	/* the tags on wanted types (a tag names its target, not the reverse) */
	for (uint32_t id = 1; id < b->nr_ids; id++) {
		const struct btf_type *t = b->recs[id];

		if (btf_kind(t) == BTF_KIND_DECL_TAG && t->type < b->nr_ids && b->want[t->type])
			b->want[id] = 1;
	}
	return 0;
}

struct cu_model *btf_handle_load_model(const struct btf_handle *h,
				       const struct btf_model_only *only,
				       struct d2b_error *err)
{
	struct d2b_error local = { 0 };
	struct builder b = {
		.btf = h->btf,
		.err = err ? err : &local,
	};
	struct cu_model *cu;

	if (need_parsed(h, b.err))
		return NULL;
	b.nr_ids = btf__type_cnt(h->btf);
	cu = calloc(1, sizeof(*cu));
	if (!cu) {
		d2b_error_oom(err);
		return NULL;
	}
	arena_init(&cu->arena);
	b.cu = cu;
	cu->name = arena_strdup(&cu->arena, h->path);
	cu->language = DW_LANG_C;
	cu->addr_size = (uint8_t)(btf__pointer_size(h->btf) ? btf__pointer_size(h->btf) : 8);
	cu->from_btf = true;
	b.recs = malloc(b.nr_ids * sizeof(*b.recs));
	b.by_id = calloc(b.nr_ids, sizeof(*b.by_id));
	b.fn_of = calloc(b.nr_ids, sizeof(*b.fn_of));
	b.var_of = calloc(b.nr_ids, sizeof(*b.var_of));
	if (!cu->name || !b.recs || !b.by_id || !b.fn_of || !b.var_of) {
		d2b_error_oom(b.err);
		goto fail;
	}
	for (uint32_t id = 0; id < b.nr_ids; id++)
		b.recs[id] = btf__type_by_id(b.btf, id);
	if (only && only->nr_names && want_closure(&b, only))
		goto fail;
	/* the printers recurse along references: no cycle, no chain too
	 * deep among the types they get */
	if (check_graph(h, b.recs, b.nr_ids, b.want, b.err))
		goto fail;
	if (build(&b))
		goto fail;
	free(b.want);
	free(b.recs);
	free(b.by_id);
	free(b.fn_of);
	free(b.var_of);
	return cu;
fail:
	free(b.want);
	free(b.recs);
	free(b.by_id);
	free(b.fn_of);
	free(b.var_of);
	cu_model_destroy(cu);
	return NULL;
}
