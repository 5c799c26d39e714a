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
 * S is the symbol's st_value (section addresses are 0 in ET_REL), A the
 * explicit addend (RELA) or the bytes already at the location (REL), and the
 * low WIDTH bytes of the value are stored in the file's byte order. Only the
 * types debug sections use are known; anything else is an error, never a
 * silently wrong value.
 */
#include "elf/elf_internal.h"

#include <stdlib.h>

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

static int apply_one_section(struct elf_file *ef, const struct elf_section *rs,
			     const struct elf_section *target, uint8_t *buf,
			     size_t size, struct d2b_error *err)
{
	bool rela = rs->type == SHT_RELA;
	size_t entsize = ef->is64 ? (rela ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel))
				  : (rela ? sizeof(Elf32_Rela) : sizeof(Elf32_Rel));
	const struct elf_symbol *syms = NULL;
	struct elf_symbol *tmp_syms = NULL;
	size_t nsyms = 0, rsize;
	const uint8_t *rdata;
	uint8_t *rowned;
	int rc = -1;
	/* nearly every relocation of a debug section has one type: look
	 * its howto up once per change */
	uint32_t last_type = 0;
	bool have_howto = false;
	struct reloc_howto h = { 0 };

	if (elf_section_bytes(ef, rs->index, &rdata, &rsize, &rowned, err))
		return -1;
	if (rsize % entsize) {
		d2b_error_at(err, ef->path, rs->name, 0,
			     "size 0x%zx is not a multiple of the entry size %zu",
			     rsize, entsize);
		goto out_data;
	}
	if (reloc_symbols(ef, rs, &syms, &nsyms, &tmp_syms, err))
		goto out_data;

	for (size_t off = 0; off < rsize; off += entsize) {
		const uint8_t *e = rdata + off;
		uint64_t where, info, addend = 0, value;
		uint32_t type, symi;

		if (ef->is64) {
			where = elf_rd64(e, ef->le);
			info = elf_rd64(e + 8, ef->le);
			if (rela)
				addend = elf_rd64(e + 16, ef->le);
			type = (uint32_t)ELF64_R_TYPE(info);
			symi = (uint32_t)ELF64_R_SYM(info);
		} else {
			where = elf_rd32(e, ef->le);
			info = elf_rd32(e + 4, ef->le);
			if (rela)	/* sign-extend the 32-bit addend */
				addend = (uint64_t)(int64_t)(int32_t)elf_rd32(e + 8, ef->le);
			type = ELF32_R_TYPE((uint32_t)info);
			symi = ELF32_R_SYM((uint32_t)info);
		}
		if (!have_howto || type != last_type) {
			h = (struct reloc_howto){ 0 };
			if (!howto(ef->machine, type, &h)) {
				d2b_error_at(err, ef->path, rs->name, off,
					     "unknown relocation type %u for machine %u",
					     type, ef->machine);
				goto out_syms;
			}
			last_type = type;
			have_howto = true;
		}
		if (h.width == 0)
			continue;
		if (where > size || size - where < h.width) {
			d2b_error_at(err, ef->path, rs->name, off,
				     "relocation offset 0x%llx past end of %s (0x%zx bytes)",
				     (unsigned long long)where, target->name, size);
			goto out_syms;
		}
		if (symi >= nsyms) {
			d2b_error_at(err, ef->path, rs->name, off,
				     "symbol index %u out of range (%zu symbols)",
				     symi, nsyms);
			goto out_syms;
		}
		if (!rela)
			addend = h.width == 8 ? elf_rd64(buf + where, ef->le)
					      : elf_rd32(buf + where, ef->le);
		value = syms[symi].value + addend;
		if (h.pcrel)
			value -= target->addr + where;
		if (h.width == 8)
			elf_wr64(buf + where, value, ef->le);
		else
			elf_wr32(buf + where, (uint32_t)value, ef->le);
	}
	rc = 0;
out_syms:
	free(tmp_syms);
out_data:
	/* read once: its pages of the file need not stay in our RSS (a
	 * module's .rela.debug_info is larger than its .debug_info) */
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
