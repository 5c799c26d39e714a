// SPDX-License-Identifier: GPL-2.0-only
/*
 * Relocations of ET_REL debug sections (.o, .ko).
 *
 * In a relocatable object the references from .debug_info to .debug_str,
 * .debug_abbrev, .debug_line... are left as zero plus a relocation against
 * the target section's symbol. Readers need final values, so every SHT_RELA
 * and SHT_REL section whose sh_info names the debug section is applied to a
 * private copy of it:
 *
 *   value = S + A           (absolute: *_64, *_32, *_32S, TLS offsets)
 *   value = S + A - P       (PC-relative; P = sh_addr + r_offset)
 *
 * S is the symbol's st_value plus its section's address (0 in ET_REL
 * unless elf_file_layout_rel() laid the sections out), A the
 * explicit addend (RELA) or the bytes already at the location (REL), and the
 * low WIDTH bytes of the value are stored in the file's byte order. Only the
 * types debug sections use are known; anything else is an error, never a
 * silently wrong value.
 */
#include "elf/elf_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct reloc_howto {
	uint8_t width;		/* bytes written; 0 for *_NONE */
	bool pcrel;
};

/* Returns false for a type we do not know on this machine. */
static bool howto(uint16_t machine, uint32_t type, struct reloc_howto *h)
{
	h->width = 0;
	h->pcrel = false;
	if (type == 0)		/* R_*_NONE on every machine */
		return true;
	switch (machine) {
	case EM_X86_64:
		switch (type) {
		case R_X86_64_64:
		case R_X86_64_DTPOFF64:
			h->width = 8;
			return true;
		case R_X86_64_32:
		case R_X86_64_32S:
		case R_X86_64_DTPOFF32:
			h->width = 4;
			return true;
		case R_X86_64_PC32:
			h->width = 4;
			h->pcrel = true;
			return true;
		case R_X86_64_PC64:
			h->width = 8;
			h->pcrel = true;
			return true;
		}
		return false;
	case EM_386:
		switch (type) {
		case R_386_32:
		case R_386_TLS_LDO_32:
			h->width = 4;
			return true;
		case R_386_PC32:
			h->width = 4;
			h->pcrel = true;
			return true;
		}
		return false;
	case EM_AARCH64:
		switch (type) {
		case 256:	/* the ABI's alternative R_AARCH64_NONE */
			return true;
		case R_AARCH64_ABS64:
			h->width = 8;
			return true;
		case R_AARCH64_ABS32:
			h->width = 4;
			return true;
		case R_AARCH64_PREL64:
			h->width = 8;
			h->pcrel = true;
			return true;
		case R_AARCH64_PREL32:
			h->width = 4;
			h->pcrel = true;
			return true;
		}
		return false;
	}
	return false;
}

/* The symbol table a relocation section links to: the cached one when it is
 * that, else a private copy in *tmp (freed by the caller). */
static int reloc_symbols(struct elf_file *ef, const struct elf_section *rs,
			 const struct elf_symbol **syms, size_t *count,
			 struct elf_symbol **tmp, struct d2b_error *err)
{
	size_t link = ef->priv[rs->index].link;
	const struct elf_symbol *cached;
	long n;

	*tmp = NULL;
	if (link == 0 || link >= ef->nsecs ||
	    (ef->secs[link].type != SHT_SYMTAB && ef->secs[link].type != SHT_DYNSYM))
		return d2b_error_at(err, ef->path, rs->name, 0,
				    "bad symbol table link %zu", link);
	n = elf_file_symbols(ef, &cached, err);
	if (n < 0)
		return -1;
	if (ef->symtab_index == link) {
		*syms = cached;
		*count = (size_t)n;
		return 0;
	}
	if (elf_read_symtab(ef, link, tmp, count, err))
		return -1;
	*syms = *tmp;
	return 0;
}

/* What applying one relocation section needs, and where it stands. */
struct reloc_run {
	struct elf_file *ef;
	const struct elf_section *rs, *target;
	uint8_t *buf;			/* the target's private copy */
	size_t size;
	bool rela;
	size_t entsize;
	const struct elf_symbol *syms;
	size_t nsyms;
	/* nearly every relocation of a debug section has one type: its
	 * howto is looked up once per change */
	uint32_t last_type;
	bool have_howto;
	struct reloc_howto h;
};

/* The entries at E (N bytes, a whole number of entries), the first at
 * offset OFF of the relocation section. */
static int apply_entries(struct reloc_run *r, const uint8_t *e, size_t n, size_t off,
			 struct d2b_error *err)
{
	struct elf_file *ef = r->ef;

	for (const uint8_t *end = e + n; e < end; e += r->entsize, off += r->entsize) {
		uint64_t where, info, addend = 0, value;
		uint32_t type, symi;

		if (ef->is64) {
			where = elf_rd64(e, ef->le);
			info = elf_rd64(e + 8, ef->le);
			if (r->rela)
				addend = elf_rd64(e + 16, ef->le);
			type = (uint32_t)ELF64_R_TYPE(info);
			symi = (uint32_t)ELF64_R_SYM(info);
		} else {
			where = elf_rd32(e, ef->le);
			info = elf_rd32(e + 4, ef->le);
			if (r->rela)	/* sign-extend the 32-bit addend */
				addend = (uint64_t)(int64_t)(int32_t)elf_rd32(e + 8, ef->le);
			type = ELF32_R_TYPE((uint32_t)info);
			symi = ELF32_R_SYM((uint32_t)info);
		}
		if (!r->have_howto || type != r->last_type) {
			r->h = (struct reloc_howto){ 0 };
			if (!howto(ef->machine, type, &r->h))
				return d2b_error_at(err, ef->path, r->rs->name, off,
						    "unknown relocation type %u for machine %u",
						    type, ef->machine);
			r->last_type = type;
			r->have_howto = true;
		}
		if (r->h.width == 0)
			continue;
		if (where > r->size || r->size - where < r->h.width)
			return d2b_error_at(err, ef->path, r->rs->name, off,
					    "relocation offset 0x%llx past end of %s (0x%zx bytes)",
					    (unsigned long long)where, r->target->name, r->size);
		if (symi >= r->nsyms)
			return d2b_error_at(err, ef->path, r->rs->name, off,
					    "symbol index %u out of range (%zu symbols)",
					    symi, r->nsyms);
		if (!r->rela)
			addend = r->h.width == 8 ? elf_rd64(r->buf + where, ef->le)
						 : elf_rd32(r->buf + where, ef->le);
		value = r->syms[symi].value + addend;
		/* S: a section's symbols are offsets in it, whose address
		 * is 0 unless elf_file_layout_rel() placed it */
		if (ef->rel_laid_out && r->syms[symi].shndx && r->syms[symi].shndx < ef->nsecs)
			value += ef->secs[r->syms[symi].shndx].addr;
		if (r->h.pcrel)
			value -= r->target->addr + where;
		if (r->h.width == 8)
			elf_wr64(r->buf + where, value, ef->le);
		else
			elf_wr32(r->buf + where, (uint32_t)value, ef->le);
	}
	return 0;
}

/* Read in pieces of this size (a whole number of entries of any size) into
 * one buffer when the section is in the file's mapping: the relocations are
 * read once, front to back, and on the project's VM a pread into a buffer
 * that stays in the cache took 1.3-2 ms for 8 MB where touching the same
 * pages of the mapping took 2.4-4.9 ms (btrfs.ko's .rela.debug_info is
 * 13.5 MB). */
#define RELOC_CHUNK (120u * 1024)	/* 24 * 5120, 16 * 7680, 12 * 10240, 8 * 15360 */
_Static_assert(RELOC_CHUNK % sizeof(Elf64_Rela) == 0 && RELOC_CHUNK % sizeof(Elf64_Rel) == 0 &&
	       RELOC_CHUNK % sizeof(Elf32_Rela) == 0 && RELOC_CHUNK % sizeof(Elf32_Rel) == 0,
	       "a piece holds whole entries of every size");

static int apply_one_section(struct elf_file *ef, const struct elf_section *rs,
			     const struct elf_section *target, uint8_t *buf,
			     size_t size, struct d2b_error *err)
{
	struct reloc_run r = {
		.ef = ef, .rs = rs, .target = target, .buf = buf, .size = size,
		.rela = rs->type == SHT_RELA,
	};
	struct elf_symbol *tmp_syms = NULL;
	const uint8_t *rdata;
	uint8_t *rowned, *chunk = NULL;
	bool pieces = false;
	size_t rsize;
	int rc = -1;

	r.entsize = ef->is64 ? (r.rela ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel))
			     : (r.rela ? sizeof(Elf32_Rela) : sizeof(Elf32_Rel));
	if (elf_section_bytes(ef, rs->index, &rdata, &rsize, &rowned, err))
		return -1;
	if (rsize % r.entsize) {
		d2b_error_at(err, ef->path, rs->name, 0,
			     "size 0x%zx is not a multiple of the entry size %zu",
			     rsize, r.entsize);
		goto out_data;
	}
	if (reloc_symbols(ef, rs, &r.syms, &r.nsyms, &tmp_syms, err))
		goto out_data;
	if (rsize > RELOC_CHUNK && elf_file_is_mapped(ef, rdata, rsize)) {
		pieces = true;
		chunk = malloc(RELOC_CHUNK);
		if (!chunk) {
			d2b_error_oom(err);
			goto out_syms;
		}
		for (size_t off = 0; off < rsize; off += RELOC_CHUNK) {
			size_t n = rsize - off < RELOC_CHUNK ? rsize - off : RELOC_CHUNK;

			if (elf_file_read(ef, rdata + off, chunk, n)) {
				d2b_error_at(err, ef->path, rs->name, off, "cannot read it: %s",
					     strerror(errno));
				goto out_syms;
			}
			if (apply_entries(&r, chunk, n, off, err))
				goto out_syms;
		}
	} else if (apply_entries(&r, rdata, rsize, 0, err)) {
		goto out_syms;
	}
	rc = 0;
out_syms:
	free(chunk);
	free(tmp_syms);
out_data:
	/* read once through the mapping (not in pieces): its pages of the
	 * file need not stay in our RSS */
	if (!pieces)
		elf_file_release_range(ef, rdata, rsize);
	free(rowned);
	return rc;
}

int elf_apply_relocs(struct elf_file *ef, size_t target, uint8_t *buf,
		     size_t size, struct d2b_error *err)
{
	for (size_t i = 1; i < ef->nsecs; i++) {
		const struct elf_section *rs = &ef->secs[i];

		if ((rs->type != SHT_RELA && rs->type != SHT_REL) ||
		    ef->priv[i].info != target)
			continue;
		if (apply_one_section(ef, rs, &ef->secs[target], buf, size, err))
			return -1;
	}
	return 0;
}
