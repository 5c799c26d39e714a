// SPDX-License-Identifier: GPL-2.0-only
/*
 * elf_file: open an ELF image read-only, validate its section table, hand out
 * sections (plain, decompressed, relocated) and the symbol table.
 *
 * The image is either our own PROT_READ mapping of the file or a caller's
 * buffer; libelf reads it through elf_memory() and never writes it (we only
 * call read accessors). Before libelf touches the section table we check it
 * lies inside the image, and every section's [sh_offset, sh_offset + sh_size)
 * is checked at open, so later code may index the image freely.
 */
#include "elf/elf_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- byte order --------------------------------------------------------- */

void elf_file_release_pages(const struct elf_file *ef)
{
	if (ef->map && ef->size)
		madvise(ef->map, ef->size, MADV_DONTNEED);
}

void elf_file_release_range(const struct elf_file *ef, const void *p, size_t len)
{
	uintptr_t map = (uintptr_t)ef->map, a = (uintptr_t)p, page = (uintptr_t)getpagesize();
	uintptr_t lo, hi;

	if (!ef->map || !ef->size || a < map || len > ef->size || a - map > ef->size - len)
		return;
	lo = (a + page - 1) & ~(page - 1);
	hi = (a + len) & ~(page - 1);
	if (lo < hi)
		madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

uint64_t elf_decompress_cap(const struct elf_file *ef)
{
	const uint64_t floor = 64ULL << 20;	/* 64 MiB: the bound stays a small multiple of the file */
	uint64_t scaled = (uint64_t)ef->size > UINT64_MAX / 64 ? UINT64_MAX
							       : (uint64_t)ef->size * 64;

	return scaled > floor ? scaled : floor;
}

static bool has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* ---- open --------------------------------------------------------------- */

static int libelf_error(struct d2b_error *err, const char *path, const char *what)
{
	return d2b_error_set(err, "%s: %s: %s", path, what, elf_errmsg(-1));
}

/*
 * Check the ELF identification and the section header table's extent from
 * the raw bytes, so the messages are ours and libelf only sees sane tables.
 */
static int check_ident(struct elf_file *ef, struct d2b_error *err)
{
	const uint8_t *p = ef->image;
	size_t ehdr_size;

	if (ef->size == 0)
		return d2b_error_set(err, "%s: empty file", ef->path);
	if (ef->size < SELFMAG || memcmp(p, ELFMAG, SELFMAG) != 0)
		return d2b_error_set(err, "%s: not an ELF file", ef->path);
	if (ef->size < EI_NIDENT)
		return d2b_error_set(err, "%s: truncated ELF header (%zu bytes)",
				     ef->path, ef->size);
	if (p[EI_CLASS] != ELFCLASS32 && p[EI_CLASS] != ELFCLASS64)
		return d2b_error_set(err, "%s: unknown ELF class %u", ef->path,
				     p[EI_CLASS]);
	if (p[EI_DATA] != ELFDATA2LSB && p[EI_DATA] != ELFDATA2MSB)
		return d2b_error_set(err, "%s: unknown ELF data encoding %u",
				     ef->path, p[EI_DATA]);
	ef->is64 = p[EI_CLASS] == ELFCLASS64;
	ef->le = p[EI_DATA] == ELFDATA2LSB;
	ehdr_size = ef->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	if (ef->size < ehdr_size)
		return d2b_error_set(err, "%s: truncated ELF header (%zu of %zu bytes)",
				     ef->path, ef->size, ehdr_size);
	return 0;
}

/*
 * The section header table's place and size, from the raw header, so that
 * libelf only ever sees a table inside the image. With more than SHN_LORESERVE
 * sections e_shnum is 0 and section 0's sh_size holds the count.
 */
static int check_section_table(struct elf_file *ef, size_t *count_out,
			       struct d2b_error *err)
{
	const uint8_t *p = ef->image;
	uint64_t shoff, count;
	uint16_t shentsize, shnum;
	size_t want;

	if (ef->is64) {
		shoff = elf_rd64(p + offsetof(Elf64_Ehdr, e_shoff), ef->le);
		shentsize = elf_rd16(p + offsetof(Elf64_Ehdr, e_shentsize), ef->le);
		shnum = elf_rd16(p + offsetof(Elf64_Ehdr, e_shnum), ef->le);
		want = sizeof(Elf64_Shdr);
	} else {
		shoff = elf_rd32(p + offsetof(Elf32_Ehdr, e_shoff), ef->le);
		shentsize = elf_rd16(p + offsetof(Elf32_Ehdr, e_shentsize), ef->le);
		shnum = elf_rd16(p + offsetof(Elf32_Ehdr, e_shnum), ef->le);
		want = sizeof(Elf32_Shdr);
	}
	*count_out = 0;
	if (shoff == 0)
		return 0;	/* no section header table */
	count = shnum;
	if (shentsize != want)
		return d2b_error_set(err, "%s: bad section header size %u (expected %zu)",
				     ef->path, shentsize, want);
	if (shoff > ef->size || ef->size - shoff < want)
		return d2b_error_set(err,
				     "%s: section header table (offset 0x%llx) past end of file (0x%zx bytes)",
				     ef->path, (unsigned long long)shoff, ef->size);
	if (count == 0) {
		const uint8_t *sh0 = p + shoff;

		count = ef->is64 ? elf_rd64(sh0 + offsetof(Elf64_Shdr, sh_size), ef->le)
				 : elf_rd32(sh0 + offsetof(Elf32_Shdr, sh_size), ef->le);
	}
	if ((ef->size - shoff) / want < count)
		return d2b_error_set(err,
				     "%s: section header table (offset 0x%llx, %llu entries) past end of file (0x%zx bytes)",
				     ef->path, (unsigned long long)shoff,
				     (unsigned long long)count, ef->size);
	*count_out = (size_t)count;
	return 0;
}

static int read_sections(struct elf_file *ef, size_t ours, struct d2b_error *err)
{
	size_t count, strndx;

	if (elf_getshdrnum(ef->elf, &count) != 0)
		return libelf_error(err, ef->path, "cannot read section count");
	if (count != ours)
		return d2b_error_set(err, "%s: inconsistent section count (%zu or %zu)",
				     ef->path, ours, count);
	if (count == 0)
		return 0;
	if (elf_getshdrstrndx(ef->elf, &strndx) != 0)
		return libelf_error(err, ef->path, "cannot read section name table index");
	if (strndx >= count)
		return d2b_error_set(err, "%s: section name table index %zu out of range (%zu sections)",
				     ef->path, strndx, count);

	ef->secs = calloc(count, sizeof(*ef->secs));
	ef->priv = calloc(count, sizeof(*ef->priv));
	if (!ef->secs || !ef->priv)
		return d2b_error_oom(err);
	ef->nsecs = count;

	for (size_t i = 0; i < count; i++) {
		struct elf_section *s = &ef->secs[i];
		Elf_Scn *scn = elf_getscn(ef->elf, i);
		GElf_Shdr shdr;
		const char *name = "";

		if (!scn || !gelf_getshdr(scn, &shdr))
			return d2b_error_set(err, "%s: cannot read section header %zu: %s",
					     ef->path, i, elf_errmsg(-1));
		if (i != 0 && strndx != SHN_UNDEF) {
			name = elf_strptr(ef->elf, strndx, shdr.sh_name);
			if (!name)
				return d2b_error_set(err,
						     "%s: section %zu: name offset 0x%x out of range",
						     ef->path, i, (unsigned)shdr.sh_name);
		}
		s->name = name;
		s->index = (uint32_t)i;
		s->type = shdr.sh_type;
		s->flags = shdr.sh_flags;
		s->addr = shdr.sh_addr;
		s->file_offset = shdr.sh_offset;
		s->file_size = shdr.sh_size;
		ef->priv[i].link = shdr.sh_link;
		ef->priv[i].info = shdr.sh_info;
		ef->priv[i].entsize = shdr.sh_entsize;
		ef->priv[i].addralign = shdr.sh_addralign;

		/* Section 0 may hold the extended counts in sh_size. */
		if (i == 0 || s->type == SHT_NULL || s->type == SHT_NOBITS)
			continue;
		if (s->file_offset > ef->size ||
		    s->file_size > ef->size - s->file_offset)
			return d2b_error_set(err,
					     "%s: section %zu (%s): offset 0x%llx + size 0x%llx past end of file (0x%zx bytes)",
					     ef->path, i, name,
					     (unsigned long long)s->file_offset,
					     (unsigned long long)s->file_size,
					     ef->size);
	}
	return 0;
}

static struct elf_file *open_image(const char *path, const uint8_t *image,
				   size_t size, void *map, int fd,
				   struct d2b_error *err)
{
	struct elf_file *ef = calloc(1, sizeof(*ef));
	GElf_Ehdr ehdr;
	size_t nsh;

	if (!ef) {
		if (map)
			munmap(map, size);
		if (fd >= 0)
			close(fd);
		d2b_error_oom(err);
		return NULL;
	}
	ef->image = image;
	ef->size = size;
	ef->map = map;
	ef->fd = fd;
	ef->path = strdup(path ? path : "<memory>");
	if (!ef->path) {
		d2b_error_oom(err);
		goto fail;
	}
	if (check_ident(ef, err) || check_section_table(ef, &nsh, err))
		goto fail;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		libelf_error(err, ef->path, "libelf initialisation failed");
		goto fail;
	}
	/* elf_memory() takes a non-const pointer but we only read through it. */
	ef->elf = elf_memory((char *)(uintptr_t)image, size);
	if (!ef->elf) {
		libelf_error(err, ef->path, "cannot read ELF");
		goto fail;
	}
	if (elf_kind(ef->elf) != ELF_K_ELF) {
		d2b_error_set(err, "%s: not an ELF file", ef->path);
		goto fail;
	}
	if (!gelf_getehdr(ef->elf, &ehdr)) {
		libelf_error(err, ef->path, "cannot read ELF header");
		goto fail;
	}
	ef->machine = ehdr.e_machine;
	ef->type = ehdr.e_type;
	if (read_sections(ef, nsh, err))
		goto fail;
	return ef;
fail:
	elf_file_close(ef);
	return NULL;
}

struct elf_file *elf_file_open(const char *path, struct d2b_error *err)
{
	struct stat st;
	void *map;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		d2b_error_set(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0) {
		d2b_error_set(err, "%s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		d2b_error_set(err, "%s: not a regular file", path);
		close(fd);
		return NULL;
	}
	if (st.st_size == 0) {
		d2b_error_set(err, "%s: empty file", path);
		close(fd);
		return NULL;
	}
	if ((uint64_t)st.st_size > SIZE_MAX) {
		d2b_error_set(err, "%s: file too large", path);
		close(fd);
		return NULL;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		d2b_error_set(err, "%s: mmap: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	return open_image(path, map, (size_t)st.st_size, map, fd, err);
}

struct elf_file *elf_file_open_memory(const char *path, const void *image,
				      size_t size, struct d2b_error *err)
{
	if (!image && size) {
		d2b_error_set(err, "%s: no image", path ? path : "<memory>");
		return NULL;
	}
	return open_image(path, image, size, NULL, -1, err);
}

void elf_file_close(struct elf_file *ef)
{
	if (!ef)
		return;
	for (size_t i = 0; i < ef->nsecs; i++)
		free(ef->priv[i].owned);
	free(ef->secs);
	free(ef->priv);
	free(ef->syms);
	if (ef->elf)
		elf_end(ef->elf);
	if (ef->map)
		munmap(ef->map, ef->size);
	if (ef->map && ef->fd >= 0)
		close(ef->fd);
	free(ef->path);
	free(ef);
}

bool elf_file_is_mapped(const struct elf_file *ef, const void *p, size_t n)
{
	uintptr_t map = (uintptr_t)ef->map, a = (uintptr_t)p;

	return ef->map && ef->fd >= 0 && a >= map && n <= ef->size && a - map <= ef->size - n;
}

int elf_file_read(const struct elf_file *ef, const void *p, void *buf, size_t n)
{
	uintptr_t map = (uintptr_t)ef->map, a = (uintptr_t)p;
	size_t done = 0;

	if (!elf_file_is_mapped(ef, p, n)) {
		memcpy(buf, p, n);
		return 0;
	}
	while (done < n) {
		ssize_t r = pread(ef->fd, (char *)buf + done, n - done, (off_t)(a - map + done));

		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0)
			errno = EIO;	/* the file shrank since it was opened */
		if (r <= 0)
			return -1;
		done += (size_t)r;
	}
	return 0;
}

/* ---- accessors ---------------------------------------------------------- */

const char *elf_file_path(const struct elf_file *ef)
{
	return ef->path;
}

uint16_t elf_file_machine(const struct elf_file *ef)
{
	return ef->machine;
}

uint16_t elf_file_type(const struct elf_file *ef)
{
	return ef->type;
}

bool elf_file_is_64(const struct elf_file *ef)
{
	return ef->is64;
}

bool elf_file_is_little_endian(const struct elf_file *ef)
{
	return ef->le;
}

const uint8_t *elf_file_image(const struct elf_file *ef, size_t *size)
{
	if (size)
		*size = ef->size;
	return ef->image;
}

size_t elf_file_section_count(const struct elf_file *ef)
{
	return ef->nsecs;
}

const struct elf_section *elf_file_section_at(const struct elf_file *ef,
					      size_t index)
{
	return index < ef->nsecs ? &ef->secs[index] : NULL;
}

const struct elf_section *elf_file_find_section(const struct elf_file *ef,
						const char *name)
{
	for (size_t i = 1; i < ef->nsecs; i++)
		if (strcmp(ef->secs[i].name, name) == 0)
			return &ef->secs[i];
	return NULL;
}

/* ---- section contents --------------------------------------------------- */

int elf_section_bytes(const struct elf_file *ef, size_t index,
		      const uint8_t **data, size_t *size, uint8_t **owned,
		      struct d2b_error *err)
{
	const struct elf_section *s = &ef->secs[index];
	const uint8_t *src;
	size_t src_size;

	*owned = NULL;
	if (s->type == SHT_NOBITS || s->type == SHT_NULL) {
		*data = NULL;
		*size = 0;
		return 0;
	}
	/* Checked against the image at open. */
	src = ef->image + s->file_offset;
	src_size = (size_t)s->file_size;
	if (s->flags & SHF_COMPRESSED) {
		if (elf_decompress_chdr(ef, s, src, src_size, owned, size, err))
			return -1;
		*data = *owned;
		return 0;
	}
	if (has_prefix(s->name, ".zdebug")) {
		if (elf_decompress_zdebug(ef, s, src, src_size, owned, size, err))
			return -1;
		*data = *owned;
		return 0;
	}
	*data = src;
	*size = src_size;
	return 0;
}

bool elf_has_relocs_for(const struct elf_file *ef, size_t index)
{
	for (size_t i = 1; i < ef->nsecs; i++)
		if ((ef->secs[i].type == SHT_RELA || ef->secs[i].type == SHT_REL) &&
		    ef->priv[i].info == index)
			return true;
	return false;
}

static bool is_debug_section(const char *name)
{
	return has_prefix(name, ".debug_") || has_prefix(name, ".zdebug_");
}

const struct elf_section *elf_file_load_section(struct elf_file *ef,
						const char *name,
						struct d2b_error *err)
{
	const struct elf_section *found = elf_file_find_section(ef, name);
	struct elf_section *s;
	struct elf_section_priv *p;
	const uint8_t *data;
	uint8_t *owned;
	size_t size;

	if (!found && has_prefix(name, ".debug_")) {
		char zname[256];

		if (snprintf(zname, sizeof(zname), ".zdebug_%s",
			     name + strlen(".debug_")) < (int)sizeof(zname))
			found = elf_file_find_section(ef, zname);
	}
	if (!found)
		return NULL;
	s = &ef->secs[found->index];
	p = &ef->priv[found->index];
	if (p->loaded)
		return s;

	if (elf_section_bytes(ef, s->index, &data, &size, &owned, err))
		return NULL;
	/* Only ET_REL debug sections are relocated; a vmlinux's .rela.debug_*
	 * (ET_EXEC) are never even looked at. */
	if (ef->type == ET_REL && s->type != SHT_NOBITS &&
	    is_debug_section(s->name) && elf_has_relocs_for(ef, s->index)) {
		if (!owned) {
			owned = malloc(size ? size : 1);
			if (!owned) {
				d2b_error_oom(err);
				return NULL;
			}
			/* read, not copied from the mapping: on the project's
			 * VM a pread of 8 MB into fresh memory took 1-1.5 ms,
			 * a copy from the mapping's untouched pages 3.2-4 ms */
			if (size && elf_file_read(ef, data, owned, size)) {
				d2b_error_at(err, ef->path, s->name, 0, "cannot read it: %s",
					     strerror(errno));
				free(owned);
				return NULL;
			}
			/* (the mapping's pages were not touched: nothing to
			 * let go of; the copy is what counts now) */
			data = owned;
		}
		if (elf_apply_relocs(ef, s->index, owned, size, err)) {
			free(owned);
			return NULL;
		}
	}
	s->data = data;
	s->size = size;
	p->owned = owned;
	p->loaded = true;
	return s;
}

/* ---- symbols ------------------------------------------------------------ */

/* The SHT_SYMTAB_SHNDX section that extends symbol table SYMTAB, or 0. */
static size_t find_shndx_table(const struct elf_file *ef, size_t symtab)
{
	for (size_t i = 1; i < ef->nsecs; i++)
		if (ef->secs[i].type == SHT_SYMTAB_SHNDX &&
		    ef->priv[i].link == symtab)
			return i;
	return 0;
}

int elf_read_symtab(const struct elf_file *ef, size_t symtab_index,
		    struct elf_symbol **syms_out, size_t *count_out,
		    struct d2b_error *err)
{
	const struct elf_section *s = &ef->secs[symtab_index];
	size_t entsize = ef->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
	size_t strtab = ef->priv[symtab_index].link;
	size_t xidx = find_shndx_table(ef, symtab_index);
	struct elf_symbol *syms;
	Elf_Data *data;
	size_t count;

	*syms_out = NULL;
	*count_out = 0;
	if (s->type != SHT_SYMTAB && s->type != SHT_DYNSYM)
		return d2b_error_at(err, ef->path, s->name, 0, "not a symbol table (type %u)",
				    s->type);
	if (s->flags & SHF_COMPRESSED)
		return d2b_error_at(err, ef->path, s->name, 0,
				    "compressed symbol table not supported");
	if (s->file_size % entsize)
		return d2b_error_at(err, ef->path, s->name, 0,
				    "size 0x%llx is not a multiple of %zu",
				    (unsigned long long)s->file_size, entsize);
	if (strtab == 0 || strtab >= ef->nsecs || ef->secs[strtab].type != SHT_STRTAB)
		return d2b_error_at(err, ef->path, s->name, 0,
				    "bad string table link %zu", strtab);
	count = (size_t)(s->file_size / entsize);
	if (count == 0)
		return 0;
	data = elf_getdata(elf_getscn(ef->elf, symtab_index), NULL);
	if (!data)
		return d2b_error_at(err, ef->path, s->name, 0, "cannot read: %s",
				    elf_errmsg(-1));
	syms = calloc(count, sizeof(*syms));
	if (!syms)
		return d2b_error_oom(err);

	for (size_t i = 0; i < count; i++) {
		struct elf_symbol *out = &syms[i];
		GElf_Sym sym;
		const char *name = "";
		uint32_t shndx;

		if (!gelf_getsym(data, (int)i, &sym)) {
			d2b_error_at(err, ef->path, s->name, i * entsize,
				     "cannot read symbol %zu: %s", i, elf_errmsg(-1));
			goto fail;
		}
		if (sym.st_name) {
			name = elf_strptr(ef->elf, strtab, sym.st_name);
			if (!name) {
				d2b_error_at(err, ef->path, s->name, i * entsize,
					     "symbol %zu: name offset 0x%x out of range",
					     i, (unsigned)sym.st_name);
				goto fail;
			}
		}
		shndx = sym.st_shndx;
		if (shndx == SHN_XINDEX && xidx) {
			const struct elf_section *x = &ef->secs[xidx];

			if (x->file_size / 4 <= i) {
				d2b_error_at(err, ef->path, x->name, i * 4,
					     "no extended section index for symbol %zu", i);
				goto fail;
			}
			shndx = elf_rd32(ef->image + x->file_offset + i * 4, ef->le);
		}
		out->name = name;
		out->value = sym.st_value;
		out->size = sym.st_size;
		out->type = GELF_ST_TYPE(sym.st_info);
		out->bind = GELF_ST_BIND(sym.st_info);
		out->shndx = shndx;
	}
	*syms_out = syms;
	*count_out = count;
	return 0;
fail:
	free(syms);
	return -1;
}

long elf_file_symbols(struct elf_file *ef, const struct elf_symbol **syms,
		      struct d2b_error *err)
{
	if (!ef->syms_loaded) {
		size_t table = 0;

		for (size_t i = 1; i < ef->nsecs && !table; i++)
			if (ef->secs[i].type == SHT_SYMTAB)
				table = i;
		for (size_t i = 1; i < ef->nsecs && !table; i++)
			if (ef->secs[i].type == SHT_DYNSYM)
				table = i;
		if (table &&
		    elf_read_symtab(ef, table, &ef->syms, &ef->nsyms, err)) {
			*syms = NULL;
			return -1;
		}
		ef->symtab_index = table;
		ef->syms_loaded = true;
	}
	*syms = ef->syms;
	return (long)ef->nsyms;
}

long elf_file_symbols_named(const struct elf_file *ef, const char *name,
			    struct elf_symbol **syms, struct d2b_error *err)
{
	const struct elf_section *s = elf_file_find_section(ef, name);
	size_t count;

	*syms = NULL;
	if (!s)
		return d2b_error_set(err, "%s: no section %s", ef->path, name);
	if (elf_read_symtab(ef, s->index, syms, &count, err))
		return -1;
	return (long)count;
}

int elf_file_layout_rel(struct elf_file *ef, uint64_t base)
{
	uint64_t next;

	if (ef->type != ET_REL)
		return 0;
	for (size_t i = 1; i < ef->nsecs; i++)
		if (ef->priv[i].loaded && !(ef->secs[i].flags & SHF_ALLOC))
			return -1;	/* relocated already */
restart:
	next = base;
	for (size_t i = 1; i < ef->nsecs; i++) {
		struct elf_section *s = &ef->secs[i];
		uint64_t align = ef->priv[i].addralign ? ef->priv[i].addralign : 1;

		if (!(s->flags & SHF_ALLOC))
			continue;
		if (align & (align - 1))	/* not a power of two: as 1 */
			align = 1;
		if (base & (align - 1)) {
			/* libdwfl starts again from a base this section's
			 * alignment allows */
			base = (base + align - 1) & ~(align - 1);
			goto restart;
		}
		s->addr = (next + align - 1) & ~(align - 1);
		next = s->addr + s->file_size;
	}
	ef->rel_laid_out = true;
	return 0;
}
