/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to src/elf/: the layout of struct elf_file and the helpers the three
 * files of this layer share. Nothing outside src/elf/ includes this.
 *
 *   elf_file.c      open (mmap or memory), section table, symbols, dispatch
 *   elf_compress.c  SHF_COMPRESSED (zlib, zstd) and legacy ".zdebug_*"
 *   elf_reloc.c     ET_REL relocations applied to a private copy
 *
 * Every offset and size read from the file is checked against the image size
 * before it is used; the image itself is never written (it may be a PROT_READ
 * mapping or a caller's const buffer).
 */
#ifndef D2B_ELF_ELF_INTERNAL_H
#define D2B_ELF_ELF_INTERNAL_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "elf/elf_file.h"
#include "util/error.h"

#ifndef ELFCOMPRESS_ZSTD
#define ELFCOMPRESS_ZSTD 2
#endif

/* What struct elf_section does not carry but loading needs. */
struct elf_section_priv {
	uint32_t link;		/* sh_link */
	uint32_t info;		/* sh_info */
	uint64_t entsize;	/* sh_entsize */
	uint64_t addralign;	/* sh_addralign */
	uint8_t *owned;		/* private buffer behind data, or NULL */
	bool loaded;
};

struct elf_file {
	char *path;
	const uint8_t *image;
	size_t size;
	void *map;		/* our mmap of the file, or NULL for memory */
	int fd;			/* the file, for elf_file_read; -1 for memory */
	Elf *elf;
	uint16_t machine, type;
	bool is64, le;

	size_t nsecs;
	struct elf_section *secs;	/* nsecs entries, by header index */
	struct elf_section_priv *priv;	/* nsecs entries */

	bool rel_laid_out;	/* elf_file_layout_rel() gave sections addresses */
	bool syms_loaded;
	size_t symtab_index;	/* section index of the table loaded, or 0 */
	struct elf_symbol *syms;
	size_t nsyms;
};

/* Byte access in the file's byte order; p must have the bytes. Inline:
 * relocating a module's .debug_info reads and writes ~10^5 of them. */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ELF_HOST_LE true
#else
#define ELF_HOST_LE false
#endif

static inline uint16_t elf_rd16(const uint8_t *p, bool le)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return le == ELF_HOST_LE ? v : __builtin_bswap16(v);
}

static inline uint32_t elf_rd32(const uint8_t *p, bool le)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le == ELF_HOST_LE ? v : __builtin_bswap32(v);
}

static inline uint64_t elf_rd64(const uint8_t *p, bool le)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le == ELF_HOST_LE ? v : __builtin_bswap64(v);
}

static inline void elf_wr32(uint8_t *p, uint32_t v, bool le)
{
	if (le != ELF_HOST_LE)
		v = __builtin_bswap32(v);
	memcpy(p, &v, sizeof(v));
}

static inline void elf_wr64(uint8_t *p, uint64_t v, bool le)
{
	if (le != ELF_HOST_LE)
		v = __builtin_bswap64(v);
	memcpy(p, &v, sizeof(v));
}

/* The most bytes one section may decompress to: max(1 GiB, 64 x file size). */
uint64_t elf_decompress_cap(const struct elf_file *ef);

/*
 * Decompress SRC (the stored bytes of section SEC) into a new malloc'd buffer
 * of exactly the declared size: *out (owned by the caller), *out_size.
 * elf_decompress_chdr: an SHF_COMPRESSED section (Elf32/64_Chdr first).
 * elf_decompress_zdebug: a ".zdebug_*" section ("ZLIB", 8-byte BE size).
 * Both return 0, or -1 with err set (naming path, section and offset).
 */
int elf_decompress_chdr(const struct elf_file *ef, const struct elf_section *sec,
			const uint8_t *src, size_t src_size, uint8_t **out,
			size_t *out_size, struct d2b_error *err);
int elf_decompress_zdebug(const struct elf_file *ef, const struct elf_section *sec,
			  const uint8_t *src, size_t src_size, uint8_t **out,
			  size_t *out_size, struct d2b_error *err);

/*
 * A section's stored bytes, decompressed if needed, without relocation:
 * *data points into the image (*owned = NULL) or into *owned (the caller
 * frees it). SHT_NOBITS gives size 0. Returns 0 or -1 with err set.
 */
int elf_section_bytes(const struct elf_file *ef, size_t index,
		      const uint8_t **data, size_t *size, uint8_t **owned,
		      struct d2b_error *err);

/* Whether any SHT_REL/SHT_RELA section applies to section INDEX. */
bool elf_has_relocs_for(const struct elf_file *ef, size_t index);

/*
 * Read the symbol table in section SYMTAB_INDEX (SHT_SYMTAB or SHT_DYNSYM)
 * into a new malloc'd array (*syms, owned by the caller; *count entries).
 * Names point into the image. Returns 0 or -1 with err set.
 */
int elf_read_symtab(const struct elf_file *ef, size_t symtab_index,
		    struct elf_symbol **syms, size_t *count,
		    struct d2b_error *err);

/*
 * Apply every SHT_REL/SHT_RELA section whose sh_info is TARGET to BUF, the
 * private copy (SIZE bytes) of that section's contents. Returns 0 or -1 with
 * err set ("PATH: .rela.debug_info+0xOFF: ...").
 */
int elf_apply_relocs(struct elf_file *ef, size_t target, uint8_t *buf,
		     size_t size, struct d2b_error *err);

#endif
