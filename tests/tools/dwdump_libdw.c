// SPDX-License-Identifier: GPL-2.0-only
/*
 * dwdump-libdw: the libdw oracle for our DWARF reader.
 *
 *   dwdump-libdw FILE
 *
 * Prints every DIE of every unit (.debug_info units, then DWARF 4
 * .debug_types units) in pre-order, in the canonical form that
 * `dwarf2btf dump-dies FILE` prints too:
 *
 *   unit 0x<unit header offset> v<version> <compile|type|partial|skeleton|...> <info|types>
 *   <0x<DIE offset>> <depth> DW_TAG_<name>
 *    DW_AT_<name> DW_FORM_<name> <value>
 *
 * Attributes come in abbreviation order. Values:
 *   strings          "..." with \\ \" \n \t and other bytes < 0x20 or >= 0x7f as \xNN
 *   references       <0x<absolute section offset of the target DIE>> (ref_sig8:
 *                    the type DIE inside its type unit)
 *   addresses        0x<hex> (addrx* resolved through .debug_addr)
 *   flags            1 or 0
 *   data1/2/4/8, udata   unsigned decimal of the raw stored value
 *   sdata, implicit_const  signed decimal
 *   sec_offset       @0x<raw offset>
 *   loclistx/rnglistx  @0x<offset of the list in .debug_loclists/.debug_rnglists>
 *   block*, exprloc, data16  [hex bytes separated by spaces]
 *   DW_FORM_indirect is shown as the form it resolves to.
 * Unknown codes print as DW_TAG_0x4109 / DW_AT_0x2138 / DW_FORM_0x1f20.
 *
 * libdw does not apply relocations, so for ET_REL files (.o, .ko) this tool
 * applies the x86-64 RELA relocations of every .debug_* section itself before
 * handing the ELF to libdw, with every section at address 0 (as readelf and
 * llvm-dwarfdump show them): the value is symbol value + addend.
 *
 * This is a test tool: it prints, and exits 1 with one line on stderr on
 * the first libdw or ELF error.
 */
#define _GNU_SOURCE
#include <dwarf.h>
#include <elfutils/known-dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef DW_TAG_LLVM_annotation
#define DW_TAG_LLVM_annotation 0x6000	/* not in libdw 0.188's dwarf.h */
#endif

struct name {
	unsigned code;
	const char *name;
};

#define DWARF_ONE_KNOWN_DW_TAG(n, c) { c, "DW_TAG_" #n },
static const struct name tag_names[] = {
	DWARF_ALL_KNOWN_DW_TAG
	{ DW_TAG_LLVM_annotation, "DW_TAG_LLVM_annotation" },
};
#define DWARF_ONE_KNOWN_DW_AT(n, c) { c, "DW_AT_" #n },
static const struct name at_names[] = { DWARF_ALL_KNOWN_DW_AT };
#define DWARF_ONE_KNOWN_DW_FORM(n, c) { c, "DW_FORM_" #n },
static const struct name form_names[] = { DWARF_ALL_KNOWN_DW_FORM };

/* Direct-indexed name tables for the codes that matter for speed. */
struct names {
	const char *tag[0x100], *at[0x100], *form[0x100];
};

static const char *lookup(const struct name *t, size_t n, unsigned code)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].code == code)
			return t[i].name;
	return NULL;
}

static void names_init(struct names *nm)
{
	memset(nm, 0, sizeof(*nm));
	for (size_t i = 0; i < sizeof(tag_names) / sizeof(tag_names[0]); i++)
		if (tag_names[i].code < 0x100)
			nm->tag[tag_names[i].code] = tag_names[i].name;
	for (size_t i = 0; i < sizeof(at_names) / sizeof(at_names[0]); i++)
		if (at_names[i].code < 0x100)
			nm->at[at_names[i].code] = at_names[i].name;
	for (size_t i = 0; i < sizeof(form_names) / sizeof(form_names[0]); i++)
		if (form_names[i].code < 0x100)
			nm->form[form_names[i].code] = form_names[i].name;
}

struct dumper {
	FILE *out;
	const char *path;
	struct names names;
	int swap;		/* file byte order differs from ours */
	/* For loclistx / rnglistx (libdw 0.188's dwarf_formudata gives only
	 * the index and exposes no list offset). */
	Elf_Data *loclists, *rnglists;
};

static void die_msg(const struct dumper *d, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));

static void die_msg(const struct dumper *d, const char *fmt, ...)
{
	va_list ap;

	fflush(d->out);
	fprintf(stderr, "dwdump-libdw: %s: ", d->path);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* ---- fast output ---- */

static void put_str(FILE *f, const char *s)
{
	fputs_unlocked(s, f);
}

static void put_hex(FILE *f, uint64_t v)
{
	char buf[24], *p = buf + sizeof(buf);

	*--p = 0;
	do {
		*--p = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	fputs_unlocked("0x", f);
	fputs_unlocked(p, f);
}

static void put_udec(FILE *f, uint64_t v)
{
	char buf[24], *p = buf + sizeof(buf);

	*--p = 0;
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	fputs_unlocked(p, f);
}

static void put_sdec(FILE *f, int64_t v)
{
	if (v < 0) {
		putc_unlocked('-', f);
		put_udec(f, (uint64_t)0 - (uint64_t)v);
	} else {
		put_udec(f, (uint64_t)v);
	}
}

static void put_code(FILE *f, const char *known, const char *prefix, unsigned code)
{
	if (known) {
		fputs_unlocked(known, f);
		return;
	}
	fputs_unlocked(prefix, f);
	put_hex(f, code);
}

static void put_quoted(FILE *f, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	putc_unlocked('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		unsigned char c = *p;

		if (c == '\\' || c == '"') {
			putc_unlocked('\\', f);
			putc_unlocked(c, f);
		} else if (c == '\n') {
			fputs_unlocked("\\n", f);
		} else if (c == '\t') {
			fputs_unlocked("\\t", f);
		} else if (c < 0x20 || c >= 0x7f) {
			fputs_unlocked("\\x", f);
			putc_unlocked(hex[c >> 4], f);
			putc_unlocked(hex[c & 15], f);
		} else {
			putc_unlocked(c, f);
		}
	}
	putc_unlocked('"', f);
}

static void put_bytes(FILE *f, const unsigned char *p, uint64_t n)
{
	static const char hex[] = "0123456789abcdef";

	putc_unlocked('[', f);
	for (uint64_t i = 0; i < n; i++) {
		if (i)
			putc_unlocked(' ', f);
		putc_unlocked(hex[p[i] >> 4], f);
		putc_unlocked(hex[p[i] & 15], f);
	}
	putc_unlocked(']', f);
}

/* ---- raw reads ---- */

static uint64_t read_uint(const struct dumper *d, const unsigned char *p, unsigned size)
{
	uint64_t v = 0;
	int little = (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) != d->swap;

	for (unsigned i = 0; i < size; i++) {
		unsigned idx = little ? size - 1 - i : i;
		v = (v << 8) | p[idx];
	}
	return v;
}

static void write_uint(const struct dumper *d, unsigned char *p, unsigned size, uint64_t v)
{
	int little = (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) != d->swap;

	for (unsigned i = 0; i < size; i++) {
		unsigned idx = little ? i : size - 1 - i;
		p[idx] = (unsigned char)(v & 0xff);
		v >>= 8;
	}
}

static const unsigned char *read_uleb(const unsigned char *p, uint64_t *out)
{
	uint64_t v = 0;
	unsigned shift = 0;
	unsigned char b;

	do {
		b = *p++;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	*out = v;
	return p;
}

static const unsigned char *read_sleb(const unsigned char *p, int64_t *out)
{
	uint64_t v = 0;
	unsigned shift = 0;
	unsigned char b;

	do {
		b = *p++;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (shift < 64 && (b & 0x40))
		v |= ~(uint64_t)0 << shift;
	*out = (int64_t)v;
	return p;
}

/* ---- attributes ---- */

struct unit_info {
	uint8_t offset_size;
	Dwarf_Die cudie;
	/* DW_AT_loclists_base / rnglists_base, computed on first use */
	int64_t loclists_base, rnglists_base;	/* -1: not yet */
};

struct attr_ctx {
	struct dumper *d;
	struct unit_info *u;
	Dwarf_Off die_off;
};

/*
 * The base of a unit's loclists/rnglists offset array: the unit's
 * DW_AT_loclists_base / DW_AT_rnglists_base, or, as libdw does when the
 * attribute is absent, the end of the first table header of the section
 * when that header has an offset array.
 */
static uint64_t list_base(struct dumper *d, struct unit_info *u, unsigned at, Elf_Data *sec)
{
	Dwarf_Attribute a;
	const unsigned char *p;
	uint64_t len;

	if (dwarf_attr(&u->cudie, at, &a)) {
		if (a.form != DW_FORM_sec_offset)
			die_msg(d, "unit DIE 0x%" PRIx64 ": list base of form 0x%x",
				(uint64_t)dwarf_dieoffset(&u->cudie), a.form);
		return read_uint(d, a.valp, u->offset_size);
	}
	if (!sec || sec->d_size < 12)
		return 0;
	p = sec->d_buf;
	len = read_uint(d, p, 4);
	if (len == 0xffffffff) {	/* DWARF64 header */
		if (sec->d_size < 28)
			return 0;
		return read_uint(d, p + 24, 4) ? 28 : 0;
	}
	return read_uint(d, p + 8, 4) ? 12 : 0;
}

/* Offset of list INDEX in SEC, through the unit's offset array. */
static uint64_t list_offset(struct attr_ctx *ctx, Dwarf_Attribute *attr, uint64_t index)
{
	struct dumper *d = ctx->d;
	struct unit_info *u = ctx->u;
	int loc = attr->form == DW_FORM_loclistx;
	Elf_Data *sec = loc ? d->loclists : d->rnglists;
	int64_t *base = loc ? &u->loclists_base : &u->rnglists_base;
	uint64_t at;

	if (!sec)
		die_msg(d, "DIE 0x%" PRIx64 ": %s without %s", (uint64_t)ctx->die_off,
			loc ? "DW_FORM_loclistx" : "DW_FORM_rnglistx",
			loc ? ".debug_loclists" : ".debug_rnglists");
	if (*base < 0)
		*base = (int64_t)list_base(d, u, loc ? DW_AT_loclists_base : DW_AT_rnglists_base, sec);
	at = (uint64_t)*base + index * u->offset_size;
	if (at > sec->d_size || sec->d_size - at < u->offset_size)
		die_msg(d, "%s: DIE 0x%" PRIx64 ": list index %" PRIu64 " out of range",
			loc ? ".debug_loclists" : ".debug_rnglists", (uint64_t)ctx->die_off, index);
	return (uint64_t)*base + read_uint(d, (const unsigned char *)sec->d_buf + at, u->offset_size);
}

static void print_value(struct attr_ctx *ctx, Dwarf_Attribute *attr)
{
	struct dumper *d = ctx->d;
	FILE *f = d->out;
	Dwarf_Die target;
	Dwarf_Block block;
	Dwarf_Addr addr;
	Dwarf_Word w;
	Dwarf_Sword sw;
	bool flag;
	const char *s;
	uint64_t u;
	int64_t sv;

	switch (attr->form) {
	case DW_FORM_string:
	case DW_FORM_strp:
	case DW_FORM_line_strp:
	case DW_FORM_strx:
	case DW_FORM_strx1:
	case DW_FORM_strx2:
	case DW_FORM_strx3:
	case DW_FORM_strx4:
	case DW_FORM_GNU_str_index:
	case DW_FORM_strp_sup:
	case DW_FORM_GNU_strp_alt:
		s = dwarf_formstring(attr);
		if (!s)
			goto fail;
		put_quoted(f, s);
		break;
	case DW_FORM_ref1:
	case DW_FORM_ref2:
	case DW_FORM_ref4:
	case DW_FORM_ref8:
	case DW_FORM_ref_udata:
	case DW_FORM_ref_addr:
	case DW_FORM_ref_sig8:
	case DW_FORM_GNU_ref_alt:
	case DW_FORM_ref_sup4:
	case DW_FORM_ref_sup8:
		if (!dwarf_formref_die(attr, &target))
			goto fail;
		putc_unlocked('<', f);
		put_hex(f, dwarf_dieoffset(&target));
		putc_unlocked('>', f);
		break;
	case DW_FORM_addr:
	case DW_FORM_addrx:
	case DW_FORM_addrx1:
	case DW_FORM_addrx2:
	case DW_FORM_addrx3:
	case DW_FORM_addrx4:
	case DW_FORM_GNU_addr_index:
		if (dwarf_formaddr(attr, &addr))
			goto fail;
		put_hex(f, addr);
		break;
	case DW_FORM_flag:
	case DW_FORM_flag_present:
		if (dwarf_formflag(attr, &flag))
			goto fail;
		putc_unlocked(flag ? '1' : '0', f);
		break;
	case DW_FORM_data1:
		put_udec(f, attr->valp[0]);
		break;
	case DW_FORM_data2:
		put_udec(f, read_uint(d, attr->valp, 2));
		break;
	case DW_FORM_data4:
		put_udec(f, read_uint(d, attr->valp, 4));
		break;
	case DW_FORM_data8:
		put_udec(f, read_uint(d, attr->valp, 8));
		break;
	case DW_FORM_udata:
		read_uleb(attr->valp, &u);
		put_udec(f, u);
		break;
	case DW_FORM_sdata:
		read_sleb(attr->valp, &sv);
		put_sdec(f, sv);
		break;
	case DW_FORM_implicit_const:
		if (dwarf_formsdata(attr, &sw))
			goto fail;
		put_sdec(f, sw);
		break;
	case DW_FORM_sec_offset:
		putc_unlocked('@', f);
		put_hex(f, read_uint(d, attr->valp, ctx->u->offset_size));
		break;
	case DW_FORM_loclistx:
	case DW_FORM_rnglistx:
		/* libdw 0.188's dwarf_formudata gives the index only. */
		if (dwarf_formudata(attr, &w))
			goto fail;
		putc_unlocked('@', f);
		put_hex(f, list_offset(ctx, attr, w));
		break;
	case DW_FORM_data16:
		put_bytes(f, attr->valp, 16);
		break;
	case DW_FORM_block:
	case DW_FORM_block1:
	case DW_FORM_block2:
	case DW_FORM_block4:
	case DW_FORM_exprloc:
		if (dwarf_formblock(attr, &block))
			goto fail;
		put_bytes(f, block.data, block.length);
		break;
	default:
		die_msg(d, ".debug_info: DIE 0x%" PRIx64 ": attribute 0x%x has unknown form 0x%x",
			(uint64_t)ctx->die_off, attr->code, attr->form);
	}
	return;
fail:
	die_msg(d, "DIE 0x%" PRIx64 ": attribute 0x%x form 0x%x: %s", (uint64_t)ctx->die_off,
		attr->code, attr->form, dwarf_errmsg(-1));
}

static int attr_cb(Dwarf_Attribute *attrp, void *arg)
{
	struct attr_ctx *ctx = arg;
	struct dumper *d = ctx->d;
	FILE *f = d->out;
	Dwarf_Attribute attr = *attrp;
	unsigned form = attr.form;

	/* DW_FORM_indirect: the real form is a ULEB128 before the value. */
	while (form == DW_FORM_indirect) {
		uint64_t real;

		attr.valp = (unsigned char *)read_uleb(attr.valp, &real);
		form = (unsigned)real;
		attr.form = form;
	}

	putc_unlocked(' ', f);
	put_code(f, attr.code < 0x100 ? d->names.at[attr.code]
				      : lookup(at_names, sizeof(at_names) / sizeof(at_names[0]), attr.code),
		 "DW_AT_", attr.code);
	putc_unlocked(' ', f);
	put_code(f, form < 0x100 ? d->names.form[form]
				 : lookup(form_names, sizeof(form_names) / sizeof(form_names[0]), form),
		 "DW_FORM_", form);
	putc_unlocked(' ', f);
	print_value(ctx, &attr);
	putc_unlocked('\n', f);
	return DWARF_CB_OK;
}

static void dump_die(struct dumper *d, struct unit_info *u, Dwarf_Die *die, unsigned depth)
{
	FILE *f = d->out;
	Dwarf_Die child;
	struct attr_ctx ctx = { .d = d, .u = u };
	int tag, r;

	for (;;) {
		ctx.die_off = dwarf_dieoffset(die);
		tag = dwarf_tag(die);
		if (tag < 0)
			die_msg(d, "DIE 0x%" PRIx64 ": %s", (uint64_t)ctx.die_off, dwarf_errmsg(-1));
		fputs_unlocked("<", f);
		put_hex(f, ctx.die_off);
		fputs_unlocked("> ", f);
		put_udec(f, depth);
		putc_unlocked(' ', f);
		put_code(f, tag < 0x100 ? d->names.tag[tag]
					: lookup(tag_names, sizeof(tag_names) / sizeof(tag_names[0]), (unsigned)tag),
			 "DW_TAG_", (unsigned)tag);
		putc_unlocked('\n', f);
		if (dwarf_getattrs(die, attr_cb, &ctx, 0) != 1)
			die_msg(d, "DIE 0x%" PRIx64 ": attributes: %s", (uint64_t)ctx.die_off,
				dwarf_errmsg(-1));
		r = dwarf_child(die, &child);
		if (r < 0)
			die_msg(d, "DIE 0x%" PRIx64 ": children: %s", (uint64_t)ctx.die_off,
				dwarf_errmsg(-1));
		if (r == 0)
			dump_die(d, u, &child, depth + 1);
		r = dwarf_siblingof(die, die);
		if (r < 0)
			die_msg(d, "DIE 0x%" PRIx64 ": sibling: %s", (uint64_t)ctx.die_off,
				dwarf_errmsg(-1));
		if (r > 0)
			return;
	}
}

static const char *unit_type_name(uint8_t t, char buf[16])
{
	switch (t) {
	case DW_UT_compile: return "compile";
	case DW_UT_type: return "type";
	case DW_UT_partial: return "partial";
	case DW_UT_skeleton: return "skeleton";
	case DW_UT_split_compile: return "split_compile";
	case DW_UT_split_type: return "split_type";
	}
	snprintf(buf, 16, "0x%x", t);
	return buf;
}

static void dump_units(struct dumper *d, Dwarf *dw, int types)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	Dwarf_Half version;
	uint8_t offset_size, unit_type;
	uint64_t sig;
	Dwarf_Off type_off;
	Dwarf_Die cudie;
	char buf[16];
	int r;

	for (;;) {
		r = dwarf_next_unit(dw, off, &next, &hsize, &version, NULL, NULL, &offset_size,
				    types ? &sig : NULL, types ? &type_off : NULL);
		if (r > 0)
			return;
		if (r < 0)
			die_msg(d, "%s: unit at 0x%" PRIx64 ": %s", types ? ".debug_types" : ".debug_info",
				(uint64_t)off, dwarf_errmsg(-1));
		if (!(types ? dwarf_offdie_types(dw, off + hsize, &cudie) : dwarf_offdie(dw, off + hsize, &cudie)))
			die_msg(d, "unit at 0x%" PRIx64 ": no unit DIE: %s", (uint64_t)off, dwarf_errmsg(-1));
		if (dwarf_cu_info(cudie.cu, NULL, &unit_type, NULL, NULL, NULL, NULL, NULL))
			die_msg(d, "unit at 0x%" PRIx64 ": %s", (uint64_t)off, dwarf_errmsg(-1));
		fputs_unlocked("unit ", d->out);
		put_hex(d->out, off);
		fputs_unlocked(" v", d->out);
		put_udec(d->out, version);
		putc_unlocked(' ', d->out);
		put_str(d->out, unit_type_name(unit_type, buf));
		put_str(d->out, types ? " types\n" : " info\n");
		struct unit_info u = { .offset_size = offset_size, .cudie = cudie,
				       .loclists_base = -1, .rnglists_base = -1 };
		dump_die(d, &u, &cudie, 0);
		off = next;
	}
}

/* ---- ET_REL relocations ---- */

static void relocate_section(struct dumper *d, Elf *elf, Elf_Scn *rscn, const GElf_Shdr *rsh)
{
	Elf_Scn *tscn = elf_getscn(elf, rsh->sh_info);
	Elf_Scn *symscn = elf_getscn(elf, rsh->sh_link);
	GElf_Shdr tsh;
	Elf_Data *rdata, *tdata, *symdata;
	size_t shstrndx;
	const char *tname;

	if (!tscn || !symscn || !gelf_getshdr(tscn, &tsh) || elf_getshdrstrndx(elf, &shstrndx))
		die_msg(d, "relocation section %zu: %s", elf_ndxscn(rscn), elf_errmsg(-1));
	tname = elf_strptr(elf, shstrndx, tsh.sh_name);
	if (!tname || strncmp(tname, ".debug_", 7))
		return;
	if (rsh->sh_type != SHT_RELA)
		die_msg(d, "%s: SHT_REL relocations are not supported", tname);
	rdata = elf_getdata(rscn, NULL);
	tdata = elf_getdata(tscn, NULL);
	symdata = elf_getdata(symscn, NULL);
	if (!rdata || !tdata || !symdata)
		die_msg(d, "%s: relocation data: %s", tname, elf_errmsg(-1));

	size_t n = rsh->sh_entsize ? rsh->sh_size / rsh->sh_entsize : 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Rela rela;
		GElf_Sym sym;
		unsigned size;

		if (!gelf_getrela(rdata, (int)i, &rela) ||
		    !gelf_getsym(symdata, (int)GELF_R_SYM(rela.r_info), &sym))
			die_msg(d, "%s: relocation %zu: %s", tname, i, elf_errmsg(-1));
		switch (GELF_R_TYPE(rela.r_info)) {
		case R_X86_64_NONE:
			continue;
		case R_X86_64_64:
		case R_X86_64_DTPOFF64:
			size = 8;
			break;
		case R_X86_64_32:
		case R_X86_64_32S:
		case R_X86_64_DTPOFF32:
			size = 4;
			break;
		default:
			die_msg(d, "%s: relocation %zu: unsupported type %u", tname, i,
				(unsigned)GELF_R_TYPE(rela.r_info));
		}
		if (rela.r_offset > tdata->d_size || tdata->d_size - rela.r_offset < size)
			die_msg(d, "%s: relocation %zu: offset 0x%" PRIx64 " out of range", tname, i,
				(uint64_t)rela.r_offset);
		/* Sections sit at address 0: a section symbol is 0, others are
		 * their offset within their section. */
		uint64_t v = (GELF_ST_TYPE(sym.st_info) == STT_SECTION ? 0 : sym.st_value) +
			     (uint64_t)rela.r_addend;
		write_uint(d, (unsigned char *)tdata->d_buf + rela.r_offset, size, v);
	}
}

/*
 * Decompress every SHF_COMPRESSED .debug_* section in place (libdw then
 * sees them as plain sections) and find .debug_loclists / .debug_rnglists.
 */
static void prepare_sections(struct dumper *d, Elf *elf)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		die_msg(d, "section names: %s", elf_errmsg(-1));
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
			die_msg(d, "section %zu: %s", elf_ndxscn(scn), elf_errmsg(-1));
		if (strncmp(name, ".debug_", 7))
			continue;
		if ((sh.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
			die_msg(d, "%s: cannot decompress: %s", name, elf_errmsg(-1));
		if (!strcmp(name, ".debug_loclists"))
			d->loclists = elf_getdata(scn, NULL);
		else if (!strcmp(name, ".debug_rnglists"))
			d->rnglists = elf_getdata(scn, NULL);
	}
}

static void relocate(struct dumper *d, Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;

	if (!gelf_getehdr(elf, &eh))
		die_msg(d, "ELF header: %s", elf_errmsg(-1));
	if (eh.e_type != ET_REL)
		return;
	if (eh.e_machine != EM_X86_64)
		die_msg(d, "ET_REL relocations are only supported for x86-64");
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			die_msg(d, "section %zu: %s", elf_ndxscn(scn), elf_errmsg(-1));
		if (sh.sh_type == SHT_RELA || sh.sh_type == SHT_REL)
			relocate_section(d, elf, scn, &sh);
	}
}

int main(int argc, char **argv)
{
	struct dumper d = { .out = stdout };
	char *obuf;
	Elf *elf;
	Dwarf *dw;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: dwdump-libdw FILE\n");
		return 2;
	}
	d.path = argv[1];
	names_init(&d.names);
	obuf = malloc(1 << 22);
	if (obuf)
		setvbuf(stdout, obuf, _IOFBF, 1 << 22);

	elf_version(EV_CURRENT);
	fd = open(d.path, O_RDONLY);
	if (fd < 0)
		die_msg(&d, "%s", strerror(errno));
	elf = elf_begin(fd, ELF_C_READ_MMAP_PRIVATE, NULL);
	if (!elf)
		die_msg(&d, "%s", elf_errmsg(-1));
	{
		const char *ident = elf_getident(elf, NULL);
		if (!ident)
			die_msg(&d, "not an ELF file");
		d.swap = (ident[EI_DATA] == ELFDATA2LSB) != (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__);
	}
	prepare_sections(&d, elf);
	relocate(&d, elf);
	dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	if (!dw)
		die_msg(&d, "%s", dwarf_errmsg(-1));
	dump_units(&d, dw, 0);
	dump_units(&d, dw, 1);
	if (fflush(stdout) || ferror(stdout))
		die_msg(&d, "writing output: %s", strerror(errno));
	dwarf_end(dw);
	elf_end(elf);
	close(fd);
	free(obuf);	/* stdout was flushed above and is not written again */
	return 0;
}
