/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * elf/: an ELF file opened read-only for DWARF and BTF readers.
 *
 * elf_file_open() maps the file and reads the section table through libelf.
 * Section contents are materialised on demand by elf_file_load_section():
 *
 *   - plain sections point straight into the read-only mapping (no copy);
 *   - SHF_COMPRESSED sections (ELFCOMPRESS_ZLIB, ELFCOMPRESS_ZSTD) and the old
 *     ".zdebug_*" form are decompressed once into a private buffer, bounded by
 *     the size their header declares and by a sanity cap;
 *   - in ET_REL files (.o, .ko), ".debug_*" sections get their ".rela.debug_*"
 *     (or ".rel.debug_*") relocations applied to a private copy, so readers see
 *     final values (x86_64, i386, aarch64 relocation types). In ET_EXEC/ET_DYN
 *     files (a vmlinux keeps 243 MB of .rela.debug_*) relocations are ignored.
 *
 * Thread safety: set-up (open, load_section, symbols) is single-threaded;
 * afterwards the object is immutable and any number of threads may read the
 * returned sections and symbols concurrently.
 */
#ifndef D2B_ELF_ELF_FILE_H
#define D2B_ELF_ELF_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

struct elf_file;

struct elf_section {
	const char *name;	/* e.g. ".debug_info" (never NULL) */
	uint32_t index;		/* section header index */
	uint32_t type;		/* SHT_* */
	uint64_t flags;		/* SHF_* */
	uint64_t addr;		/* sh_addr */
	uint64_t file_offset;	/* sh_offset */
	uint64_t file_size;	/* sh_size as stored (compressed size if compressed) */
	/* Contents after decompression and relocation; NULL until loaded
	 * (and for SHT_NOBITS). */
	const uint8_t *data;
	size_t size;
};

struct elf_symbol {
	const char *name;	/* "" when unnamed */
	uint64_t value;
	uint64_t size;
	uint8_t type;		/* STT_* */
	uint8_t bind;		/* STB_* */
	uint32_t shndx;		/* section index (SHN_* for special ones; extended indexes resolved) */
};

/* Open PATH. On failure returns NULL with "PATH: reason" in err. */
struct elf_file *elf_file_open(const char *path, struct d2b_error *err);
/* Open an in-memory image (copied is not needed: it must outlive the object).
 * PATH names it in messages. Used by fuzzers and tests. */
struct elf_file *elf_file_open_memory(const char *path, const void *image,
				      size_t size, struct d2b_error *err);
void elf_file_close(struct elf_file *ef);	/* accepts NULL */

const char *elf_file_path(const struct elf_file *ef);
uint16_t elf_file_machine(const struct elf_file *ef);	/* EM_* */
uint16_t elf_file_type(const struct elf_file *ef);	/* ET_* */
bool elf_file_is_64(const struct elf_file *ef);
bool elf_file_is_little_endian(const struct elf_file *ef);
/* The whole file image (read-only mapping) and its size. */
const uint8_t *elf_file_image(const struct elf_file *ef, size_t *size);

size_t elf_file_section_count(const struct elf_file *ef);
/*
 * Tell the kernel that the pages of our read-only mapping of the file are
 * not needed now (MADV_DONTNEED). Nothing is lost: they are read again from
 * the file when touched. Called after the decoding pass, so the mapped file
 * does not count in the peak RSS of the serial phases. No-op for memory
 * images.
 */
void elf_file_release_pages(const struct elf_file *ef);

/*
 * The same for the whole pages inside [P, P + LEN) (a decoded unit's bytes:
 * the pages it shares with its neighbours stay). A no-op unless the range
 * lies in the file's mapping (a decompressed or relocated section is a heap
 * copy, whose pages would be lost, not re-read).
 */
void elf_file_release_range(const struct elf_file *ef, const void *p, size_t len);

/* Whether the N bytes at P lie in the file's mapping (not in memory we
 * decompressed or were given): then elf_file_read() reads them from the
 * file. */
bool elf_file_is_mapped(const struct elf_file *ef, const void *p, size_t n);

/*
 * Copy N bytes at P (inside a section's data) to BUF. Bytes in the file's
 * mapping are read with pread, not through the mapping: a few bytes here
 * and there (unit headers) would otherwise fault in ~64 KiB around each.
 * Returns 0, or -1 when the file cannot be read (errno set).
 */
int elf_file_read(const struct elf_file *ef, const void *p, void *buf, size_t n);

/*
 * An ET_REL file's allocated sections placed as libdwfl's offline layout
 * (dwfl_report_offline: pahole 1.24's) places them: from BASE (its first
 * file: 0x10000), in section header order, each at its alignment. Their
 * addr becomes that address, and the relocations of the sections loaded
 * afterwards add it to their symbols' values, so DWARF addresses read as
 * 1.24 prints them. A no-op for other types of file; -1 when a section
 * was relocated already.
 */
int elf_file_layout_rel(struct elf_file *ef, uint64_t base);

/* Section by header index (contents not loaded), or NULL. */
const struct elf_section *elf_file_section_at(const struct elf_file *ef,
					      size_t index);
/* First section with this exact name (contents not loaded), or NULL. */
const struct elf_section *elf_file_find_section(const struct elf_file *ef,
						const char *name);

/*
 * Materialise a section's contents (decompress, relocate) and return it.
 * A section that does not exist returns NULL with err untouched; a section
 * that exists but cannot be read returns NULL with err set
 * ("PATH: .debug_info: compressed size exceeds section"...). Idempotent.
 * A ".debug_X" lookup also finds a legacy ".zdebug_X".
 */
const struct elf_section *elf_file_load_section(struct elf_file *ef,
						const char *name,
						struct d2b_error *err);

/*
 * The symbol table (.symtab, else .dynsym), loaded once. Returns the count,
 * or -1 with err set; *syms points into the object.
 */
long elf_file_symbols(struct elf_file *ef, const struct elf_symbol **syms,
		      struct d2b_error *err);

/*
 * The symbol table in the section called NAME (which must be SHT_SYMTAB or
 * SHT_DYNSYM), read into a new array the caller frees (*syms; names point
 * into the object). Returns the count, or -1 with err set (no such
 * section, not a symbol table, unreadable).
 */
long elf_file_symbols_named(const struct elf_file *ef, const char *name,
			    struct elf_symbol **syms, struct d2b_error *err);

#endif
