// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit test of src/btf/btf_write: hand-made ELF images (ELF32 big-endian,
 * ELF64 little-endian, extended section numbering), read back with libelf;
 * every replace rule of btf_write.h; malformed inputs; every injected write
 * fault (D2B_FAULT_WRITE=1, 2, ... until it succeeds) leaves the file
 * byte-identical and no temporary file; RLIMIT_FSIZE gives an error, not a
 * SIGXFSZ death; raw files' modes and symbolic links.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "btf/btf_write.h"

struct t {
	int fails;
	int checks;
	char dir[256];
};

#define CHECK(T, cond, ...)                                                    \
	do {                                                                   \
		(T)->checks++;                                                 \
		if (!(cond)) {                                                 \
			(T)->fails++;                                          \
			fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, \
				#cond);                                        \
			fprintf(stderr, __VA_ARGS__);                          \
			fputc('\n', stderr);                                   \
		}                                                              \
	} while (0)

/* ---- byte helpers ------------------------------------------------------- */

static void put(uint8_t *p, uint64_t v, int n, bool be)
{
	int i;

	for (i = 0; i < n; i++)
		p[be ? n - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get(const uint8_t *p, int n, bool be)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[be ? n - 1 - i : i] << (8 * i);
	return v;
}

struct buf {
	uint8_t *p;
	size_t len;
};

static void buf_at(struct buf *b, size_t off, const void *src, size_t len)
{
	if (off + len > b->len) {
		b->p = realloc(b->p, off + len);
		memset(b->p + b->len, 0, off + len - b->len);
		b->len = off + len;
	}
	if (src)
		memcpy(b->p + off, src, len);
}

/* ---- ELF image builder ---------------------------------------------------- */

struct sec {
	const char *name;
	uint32_t type;
	uint64_t flags;
	uint64_t addr;
	const void *data;
	size_t size;
};

/*
 * ELF image: header, one PT_LOAD program header over the first section,
 * the sections' bytes (8-aligned), .shstrtab, the section header table.
 * EXTRA adds that many empty unnamed SHT_PROGBITS sections (for extended
 * numbering). .shstrtab is the last named section.
 */
static struct buf build_elf(bool is64, bool be, const struct sec *secs, int n,
			    size_t extra)
{
	struct buf b = { 0 };
	size_t ehsize = is64 ? 64 : 52, phsize = is64 ? 56 : 32;
	size_t shsize = is64 ? 64 : 40;
	size_t count = 1 + (size_t)n + 1 + extra, strndx = 1 + (size_t)n;
	char names[4096];
	size_t nlen = 1, off = ehsize + phsize, i, shoff;
	uint32_t *name_off = calloc((size_t)n + 1, sizeof(*name_off));
	uint64_t *offs = calloc((size_t)n + 1, sizeof(*offs));
	uint8_t e[64] = { 0 }, ph[56] = { 0 };

	names[0] = '\0';
	for (i = 0; i <= (size_t)n; i++) {
		const char *nm = i < (size_t)n ? secs[i].name : ".shstrtab";

		name_off[i] = (uint32_t)nlen;
		memcpy(names + nlen, nm, strlen(nm) + 1);
		nlen += strlen(nm) + 1;
	}
	buf_at(&b, 0, NULL, off);
	for (i = 0; i < (size_t)n; i++) {
		off = (off + 7) & ~(size_t)7;
		offs[i] = off;
		if (secs[i].type != SHT_NOBITS) {
			buf_at(&b, off, secs[i].data, secs[i].size);
			off += secs[i].size;
		}
	}
	offs[n] = off;
	buf_at(&b, off, names, nlen);
	off += nlen;
	shoff = (off + 7) & ~(size_t)7;
	buf_at(&b, shoff, NULL, count * shsize);
	/* section 0 */
	if (count >= SHN_LORESERVE)
		put(b.p + shoff + (is64 ? 32 : 20), count, is64 ? 8 : 4, be);
	for (i = 0; i <= (size_t)n; i++) {
		uint8_t *s = b.p + shoff + (i + 1) * shsize;
		bool str = i == (size_t)n;
		uint32_t type = str ? SHT_STRTAB : secs[i].type;
		uint64_t flags = str ? 0 : secs[i].flags;
		uint64_t addr = str ? 0 : secs[i].addr;
		uint64_t size = str ? nlen : secs[i].size;

		put(s, name_off[i], 4, be);
		put(s + 4, type, 4, be);
		if (is64) {
			put(s + 8, flags, 8, be);
			put(s + 16, addr, 8, be);
			put(s + 24, offs[i], 8, be);
			put(s + 32, size, 8, be);
			put(s + 48, 1, 8, be);
		} else {
			put(s + 8, flags, 4, be);
			put(s + 12, addr, 4, be);
			put(s + 16, offs[i], 4, be);
			put(s + 20, size, 4, be);
			put(s + 32, 1, 4, be);
		}
	}
	for (i = 0; i < extra; i++)
		put(b.p + shoff + (strndx + 1 + i) * shsize + 4, SHT_PROGBITS, 4, be);

	memcpy(e, ELFMAG, SELFMAG);
	e[EI_CLASS] = is64 ? ELFCLASS64 : ELFCLASS32;
	e[EI_DATA] = be ? ELFDATA2MSB : ELFDATA2LSB;
	e[EI_VERSION] = EV_CURRENT;
	put(e + 16, ET_EXEC, 2, be);
	put(e + 18, is64 ? EM_X86_64 : EM_PPC, 2, be);
	put(e + 20, EV_CURRENT, 4, be);
	if (is64) {
		put(e + 32, ehsize, 8, be);		/* e_phoff */
		put(e + 40, shoff, 8, be);
		put(e + 52, ehsize, 2, be);
		put(e + 54, phsize, 2, be);
		put(e + 56, 1, 2, be);
		put(e + 58, shsize, 2, be);
		put(e + 60, count >= SHN_LORESERVE ? 0 : count, 2, be);
		put(e + 62, strndx, 2, be);
	} else {
		put(e + 28, ehsize, 4, be);
		put(e + 32, shoff, 4, be);
		put(e + 40, ehsize, 2, be);
		put(e + 42, phsize, 2, be);
		put(e + 44, 1, 2, be);
		put(e + 46, shsize, 2, be);
		put(e + 48, count >= SHN_LORESERVE ? 0 : count, 2, be);
		put(e + 50, strndx, 2, be);
	}
	memcpy(b.p, e, ehsize);
	/* PT_LOAD over the first section */
	put(ph, PT_LOAD, 4, be);
	if (is64) {
		put(ph + 4, PF_R | PF_X, 4, be);
		put(ph + 8, offs[0], 8, be);
		put(ph + 16, secs[0].addr, 8, be);
		put(ph + 24, secs[0].addr, 8, be);
		put(ph + 32, secs[0].size, 8, be);
		put(ph + 40, secs[0].size, 8, be);
		put(ph + 48, 8, 8, be);
	} else {
		put(ph + 4, offs[0], 4, be);
		put(ph + 8, secs[0].addr, 4, be);
		put(ph + 12, secs[0].addr, 4, be);
		put(ph + 16, secs[0].size, 4, be);
		put(ph + 20, secs[0].size, 4, be);
		put(ph + 24, PF_R | PF_X, 4, be);
		put(ph + 28, 8, 4, be);
	}
	memcpy(b.p + ehsize, ph, phsize);
	free(name_off);
	free(offs);
	return b;
}

/* ---- files ---------------------------------------------------------------- */

static void write_file(const char *path, const void *p, size_t len, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);

	if (fd < 0 || write(fd, p, len) != (ssize_t)len) {
		perror(path);
		exit(2);
	}
	close(fd);
	chmod(path, mode);
}

static struct buf read_file(const char *path)
{
	struct buf b = { 0 };
	struct stat st;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st) != 0)
		return b;
	b.len = (size_t)st.st_size;
	b.p = malloc(b.len ? b.len : 1);
	if (read(fd, b.p, b.len) != (ssize_t)b.len)
		b.len = 0;
	close(fd);
	return b;
}

static bool same_file(const char *path, const struct buf *want)
{
	struct buf b = read_file(path);
	bool same = b.len == want->len && (!b.len || !memcmp(b.p, want->p, b.len));

	free(b.p);
	return same;
}

static int dir_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/* ---- reading a result with libelf ------------------------------------------ */

struct view {
	Elf *elf;
	struct buf b;
	size_t shnum, shstrndx;
};

static bool view_open(struct view *v, const char *path)
{
	memset(v, 0, sizeof(*v));
	v->b = read_file(path);
	v->elf = elf_memory((char *)v->b.p, v->b.len);
	return v->elf && elf_getshdrnum(v->elf, &v->shnum) == 0 &&
	       elf_getshdrstrndx(v->elf, &v->shstrndx) == 0;
}

static void view_close(struct view *v)
{
	if (v->elf)
		elf_end(v->elf);
	free(v->b.p);
}

static const char *view_name(struct view *v, size_t i, GElf_Shdr *sh)
{
	Elf_Scn *scn = elf_getscn(v->elf, i);
	const char *nm;

	if (!scn || !gelf_getshdr(scn, sh))
		return NULL;
	nm = elf_strptr(v->elf, v->shstrndx, sh->sh_name);
	return nm ? nm : "";
}

/*
 * NEW is OLD plus .BTF == BTF (or its first BTF_SIZE bytes when PADDED):
 * program headers, and every other section's header fields and bytes, are
 * unchanged (.shstrtab: the same names, possibly moved). Returns the .BTF
 * section's header in *out.
 */
static void check_result(struct t *t, const char *what, const char *old_path,
			 const struct buf *old, const char *new_path,
			 const void *btf, size_t btf_size, GElf_Shdr *out)
{
	struct view o, n;
	GElf_Ehdr oe, ne;
	size_t i, phsz;
	bool found = false;

	write_file(old_path, old->p, old->len, 0644);
	CHECK(t, view_open(&o, old_path), "%s: old image unreadable", what);
	CHECK(t, view_open(&n, new_path), "%s: new file unreadable by libelf: %s", what,
	      elf_errmsg(-1));
	if (!o.elf || !n.elf)
		goto out;
	gelf_getehdr(o.elf, &oe);
	gelf_getehdr(n.elf, &ne);
	CHECK(t, oe.e_phoff == ne.e_phoff && oe.e_phnum == ne.e_phnum &&
		 oe.e_entry == ne.e_entry && oe.e_type == ne.e_type,
	      "%s: ELF header changed", what);
	phsz = oe.e_phnum * (size_t)oe.e_phentsize;
	CHECK(t, n.b.len >= oe.e_phoff + phsz &&
		 !memcmp(o.b.p + oe.e_phoff, n.b.p + oe.e_phoff, phsz),
	      "%s: program headers changed", what);
	CHECK(t, n.shstrndx == o.shstrndx, "%s: shstrndx %zu, was %zu", what,
	      n.shstrndx, o.shstrndx);
	for (i = 1; i < o.shnum; i++) {
		GElf_Shdr a, b;
		const char *an = view_name(&o, i, &a), *bn = view_name(&n, i, &b);

		if (!an || !bn || !strcmp(an, ".BTF"))
			continue;
		CHECK(t, !strcmp(an, bn), "%s: section %zu named %s, was %s", what, i, bn, an);
		if (i == o.shstrndx) {
			CHECK(t, b.sh_size >= a.sh_size &&
				 !memcmp(o.b.p + a.sh_offset, n.b.p + b.sh_offset, a.sh_size),
			      "%s: .shstrtab lost names", what);
			continue;
		}
		CHECK(t, a.sh_offset == b.sh_offset && a.sh_size == b.sh_size &&
			 a.sh_type == b.sh_type && a.sh_flags == b.sh_flags &&
			 a.sh_addr == b.sh_addr && a.sh_link == b.sh_link,
		      "%s: section %zu %s header changed", what, i, an);
		if (a.sh_type != SHT_NOBITS && a.sh_size)
			CHECK(t, !memcmp(o.b.p + a.sh_offset, n.b.p + b.sh_offset, a.sh_size),
			      "%s: section %zu %s bytes changed", what, i, an);
	}
	for (i = 1; i < n.shnum; i++) {
		GElf_Shdr s;
		const char *nm = view_name(&n, i, &s);

		if (!nm || strcmp(nm, ".BTF"))
			continue;
		CHECK(t, !found, "%s: two .BTF", what);
		found = true;
		*out = s;
		CHECK(t, s.sh_offset + btf_size <= n.b.len &&
			 !memcmp(n.b.p + s.sh_offset, btf, btf_size),
		      "%s: .BTF bytes differ", what);
	}
	CHECK(t, found, "%s: no .BTF in the result", what);
out:
	view_close(&o);
	view_close(&n);
	unlink(old_path);
}

/* A small valid-looking BTF: header + 1 INT type + strings "\0int\0". */
static struct buf make_btf(bool be, size_t extra_str)
{
	struct buf b = { 0 };
	uint8_t h[24] = { 0 }, ty[16] = { 0 };
	uint32_t str_len = 5 + (uint32_t)extra_str;

	put(h, 0xeB9F, 2, be);
	h[2] = 1;
	put(h + 4, 24, 4, be);
	put(h + 8, 0, 4, be);
	put(h + 12, 16, 4, be);
	put(h + 16, 16, 4, be);
	put(h + 20, str_len, 4, be);
	put(ty, 1, 4, be);			/* name "int" */
	put(ty + 4, (uint32_t)1 << 24, 4, be);	/* BTF_KIND_INT */
	put(ty + 8, 4, 4, be);
	put(ty + 12, 32 | (1u << 24), 4, be);
	buf_at(&b, 0, h, 24);
	buf_at(&b, 24, ty, 16);
	buf_at(&b, 40, "\0int", 5);
	buf_at(&b, 45, NULL, extra_str);
	for (size_t i = 0; i < extra_str; i++)
		b.p[45 + i] = (uint8_t)('a' + i % 26) * (i % 4 != 3);
	return b;
}

static const uint8_t text[] = { 0x90, 0x90, 0xc3, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66 };
static const uint8_t rodata[] = "some read-only data";

/* ---- tests ------------------------------------------------------------------ */

static void test_add(struct t *t, bool is64, bool be)
{
	char path[300], old[300], what[64];
	struct sec secs[] = {
		{ ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0x1000, text, sizeof(text) },
		{ ".rodata", SHT_PROGBITS, SHF_ALLOC, 0x2000, rodata, sizeof(rodata) },
		{ ".bss", SHT_NOBITS, SHF_ALLOC | SHF_WRITE, 0x3000, NULL, 64 },
	};
	struct buf img = build_elf(is64, be, secs, 3, 0);
	struct buf btf = make_btf(be, 3), btf2 = make_btf(be, 200), once, after;
	struct d2b_error err = { 0 };
	GElf_Shdr s = { 0 };
	int rc;

	snprintf(what, sizeof(what), "add ELF%d %s", is64 ? 64 : 32, be ? "BE" : "LE");
	snprintf(path, sizeof(path), "%s/add%d%d", t->dir, is64, be);
	snprintf(old, sizeof(old), "%s/old", t->dir);
	write_file(path, img.p, img.len, 0751);
	rc = btf_write_elf_section(path, btf.p, btf.len, &err);
	CHECK(t, rc == 0, "%s: %s", what, err.msg);
	check_result(t, what, old, &img, path, btf.p, btf.len, &s);
	CHECK(t, s.sh_type == SHT_PROGBITS && s.sh_flags == 0 && s.sh_addralign == 4 &&
		 s.sh_offset % 4 == 0 && s.sh_offset >= img.len && s.sh_size == btf.len,
	      "%s: .BTF header type %u flags %llu align %llu off %llu size %llu", what,
	      s.sh_type, (unsigned long long)s.sh_flags,
	      (unsigned long long)s.sh_addralign, (unsigned long long)s.sh_offset,
	      (unsigned long long)s.sh_size);
	{
		struct stat st;

		CHECK(t, stat(path, &st) == 0 && (st.st_mode & 07777) == 0751,
		      "%s: mode %o", what, st.st_mode & 07777);
	}
	CHECK(t, dir_entries(t->dir) == 1, "%s: %d files in the directory", what,
	      dir_entries(t->dir));

	/* The same bytes again: the same file. */
	once = read_file(path);
	rc = btf_write_elf_section(path, btf.p, btf.len, &err);
	CHECK(t, rc == 0 && same_file(path, &once), "%s: replacing with the same bytes changed the file: %s",
	      what, err.msg);

	/* Larger: appended, the table stays. */
	rc = btf_write_elf_section(path, btf2.p, btf2.len, &err);
	CHECK(t, rc == 0, "%s: larger: %s", what, err.msg);
	check_result(t, "larger", old, &once, path, btf2.p, btf2.len, &s);
	after = read_file(path);
	CHECK(t, s.sh_offset >= once.len && s.sh_offset % 4 == 0 &&
		 after.len == s.sh_offset + btf2.len,
	      "%s: larger .BTF at %llu, file %zu -> %zu", what,
	      (unsigned long long)s.sh_offset, once.len, after.len);
	CHECK(t, !memcmp(after.p, once.p, 16) &&
		 get(after.p + (is64 ? 40 : 32), is64 ? 8 : 4, be) ==
			 get(once.p + (is64 ? 40 : 32), is64 ? 8 : 4, be),
	      "%s: larger: e_shoff moved", what);
	free(after.p);

	/* Smaller again: in place, the rest zeroed. */
	{
		struct buf before = read_file(path);
		GElf_Shdr big = s;

		rc = btf_write_elf_section(path, btf.p, btf.len, &err);
		CHECK(t, rc == 0, "%s: smaller: %s", what, err.msg);
		check_result(t, "smaller", old, &before, path, btf.p, btf.len, &s);
		after = read_file(path);
		CHECK(t, s.sh_offset == big.sh_offset && s.sh_size == btf.len &&
			 after.len == before.len,
		      "%s: smaller not in place", what);
		for (size_t i = btf.len; i < big.sh_size && after.len == before.len; i++)
			if (after.p[big.sh_offset + i]) {
				CHECK(t, 0, "%s: byte %zu of the old space not zero", what, i);
				break;
			}
		free(after.p);
		free(before.p);
	}
	CHECK(t, dir_entries(t->dir) == 1, "%s: %d files in the directory", what,
	      dir_entries(t->dir));
	unlink(path);
	free(once.p);
	free(img.p);
	free(btf.p);
	free(btf2.p);
}

/* ".BTF" already in .shstrtab as the tail of another name: no new .shstrtab. */
static void test_name_reuse(struct t *t)
{
	char path[300], old[300];
	struct sec secs[] = {
		{ ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0x1000, text, sizeof(text) },
		{ ".rel.BTF", SHT_PROGBITS, 0, 0, rodata, 4 },
	};
	struct buf img = build_elf(true, false, secs, 2, 0);
	struct buf btf = make_btf(false, 0);
	struct d2b_error err = { 0 };
	GElf_Shdr s = { 0 };
	struct view v;

	snprintf(path, sizeof(path), "%s/reuse", t->dir);
	snprintf(old, sizeof(old), "%s/old", t->dir);
	write_file(path, img.p, img.len, 0644);
	CHECK(t, btf_write_elf_section(path, btf.p, btf.len, &err) == 0, "reuse: %s", err.msg);
	check_result(t, "reuse", old, &img, path, btf.p, btf.len, &s);
	if (view_open(&v, path)) {
		GElf_Shdr a;

		view_name(&v, v.shstrndx, &a);
		CHECK(t, a.sh_offset < img.len, "reuse: .shstrtab was copied");
	}
	view_close(&v);
	unlink(path);
	free(img.p);
	free(btf.p);
}

/* 65279 sections + .BTF = SHN_LORESERVE: e_shnum 0, the count in section 0. */
static void test_extended(struct t *t, size_t extra, bool be)
{
	char path[300], old[300];
	struct sec secs[] = {
		{ ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0x1000, text, sizeof(text) },
	};
	struct buf img = build_elf(true, be, secs, 1, extra);
	struct buf btf = make_btf(be, 1), out;
	struct d2b_error err = { 0 };
	GElf_Shdr s = { 0 };
	size_t count = 3 + extra;
	struct view v;

	snprintf(path, sizeof(path), "%s/ext", t->dir);
	snprintf(old, sizeof(old), "%s/old", t->dir);
	write_file(path, img.p, img.len, 0644);
	CHECK(t, btf_write_elf_section(path, btf.p, btf.len, &err) == 0, "ext: %s", err.msg);
	check_result(t, "ext", old, &img, path, btf.p, btf.len, &s);
	out = read_file(path);
	if (out.len > 64) {
		uint64_t shoff = get(out.p + 40, 8, be);

		CHECK(t, get(out.p + 60, 2, be) == 0, "ext: e_shnum %llu",
		      (unsigned long long)get(out.p + 60, 2, be));
		CHECK(t, shoff + 64 <= out.len && get(out.p + shoff + 32, 8, be) == count + 1,
		      "ext: section 0 sh_size %llu, want %zu",
		      (unsigned long long)get(out.p + shoff + 32, 8, be), count + 1);
	}
	if (view_open(&v, path))
		CHECK(t, v.shnum == count + 1, "ext: libelf counts %zu", v.shnum);
	view_close(&v);
	free(out.p);
	unlink(path);
	free(img.p);
	free(btf.p);
}

/* An SHF_ALLOC .BTF (a vmlinux): in place only. */
static void test_alloc(struct t *t)
{
	char path[300], old[300];
	struct buf big = make_btf(false, 300), small = make_btf(false, 7), junk, out;
	struct sec secs[] = {
		{ ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0x1000, text, sizeof(text) },
		{ ".BTF", SHT_PROGBITS, SHF_ALLOC, 0x2000, big.p, big.len },
		{ ".data", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 0x3000, rodata, sizeof(rodata) },
	};
	struct buf img = build_elf(true, false, secs, 3, 0);
	struct buf bigger = make_btf(false, 301);
	struct d2b_error err = { 0 };
	GElf_Shdr s = { 0 };

	snprintf(path, sizeof(path), "%s/alloc", t->dir);
	snprintf(old, sizeof(old), "%s/old", t->dir);
	write_file(path, img.p, img.len, 0755);

	CHECK(t, btf_write_elf_section(path, big.p, big.len, &err) == 0 &&
		 same_file(path, &img), "alloc same: %s", err.msg);

	d2b_error_clear(&err);
	CHECK(t, btf_write_elf_section(path, bigger.p, bigger.len, &err) == -1 &&
		 strstr(err.msg, "SHF_ALLOC") && !strncmp(err.msg, path, strlen(path)),
	      "alloc larger: %s", err.msg);
	CHECK(t, same_file(path, &img), "alloc larger: file changed");

	/* Smaller BTF: string section grown, sh_size kept. */
	d2b_error_clear(&err);
	CHECK(t, btf_write_elf_section(path, small.p, small.len, &err) == 0, "alloc smaller: %s",
	      err.msg);
	check_result(t, "alloc smaller", old, &img, path, small.p, 20, &s);
	out = read_file(path);
	CHECK(t, s.sh_size == big.len && out.len == img.len, "alloc smaller: size %llu",
	      (unsigned long long)s.sh_size);
	if (out.len == img.len) {
		const uint8_t *b = out.p + s.sh_offset;

		CHECK(t, get(b + 20, 4, false) == 5 + 7 + (big.len - small.len),
		      "alloc smaller: str_len %llu", (unsigned long long)get(b + 20, 4, false));
		CHECK(t, !memcmp(b + 24, small.p + 24, small.len - 24) &&
			 b[small.len] == 0 && b[big.len - 1] == 0,
		      "alloc smaller: body");
	}
	free(out.p);

	/* Smaller and not BTF: zero fill, sh_size shrinks. */
	junk = (struct buf){ (uint8_t *)strdup("not BTF at all"), 14 };
	write_file(path, img.p, img.len, 0755);
	CHECK(t, btf_write_elf_section(path, junk.p, junk.len, &err) == 0, "alloc junk: %s",
	      err.msg);
	check_result(t, "alloc junk", old, &img, path, junk.p, junk.len, &s);
	CHECK(t, s.sh_size == junk.len, "alloc junk: sh_size %llu",
	      (unsigned long long)s.sh_size);
	unlink(path);
	free(junk.p);
	free(img.p);
	free(big.p);
	free(small.p);
	free(bigger.p);
}

static void expect_error(struct t *t, const char *what, const struct buf *img,
			 const char *needle)
{
	char path[300];
	struct buf btf = make_btf(false, 0);
	struct d2b_error err = { 0 };
	int rc;

	snprintf(path, sizeof(path), "%s/bad", t->dir);
	write_file(path, img->p, img->len, 0644);
	rc = btf_write_elf_section(path, btf.p, btf.len, &err);
	CHECK(t, rc == -1 && strstr(err.msg, needle) && !strncmp(err.msg, path, strlen(path)) &&
		 !strchr(err.msg, '\n'),
	      "%s: rc %d, message \"%s\", want \"%s\"", what, rc, err.msg, needle);
	CHECK(t, same_file(path, img), "%s: file changed", what);
	CHECK(t, dir_entries(t->dir) == 1, "%s: %d files", what, dir_entries(t->dir));
	unlink(path);
	free(btf.p);
}

static void test_malformed(struct t *t)
{
	struct sec secs[] = {
		{ ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0x1000, text, sizeof(text) },
		{ ".BTF", SHT_PROGBITS, 0, 0, rodata, 8 },
		{ ".BTF", SHT_PROGBITS, 0, 0, rodata, 8 },
	};
	struct buf good = build_elf(true, false, secs, 1, 0), b;
	uint64_t shoff = get(good.p + 40, 8, false);
	char path[300];
	struct d2b_error err = { 0 };

	b = (struct buf){ (uint8_t *)strdup("hello, world"), 12 };
	expect_error(t, "not ELF", &b, "not an ELF file");
	free(b.p);

	b = (struct buf){ malloc(40), 40 };
	memcpy(b.p, good.p, 40);
	expect_error(t, "short header", &b, "truncated ELF header");
	free(b.p);

	b = (struct buf){ malloc(good.len - 10), good.len - 10 };
	memcpy(b.p, good.p, b.len);
	expect_error(t, "truncated table", &b, "runs past the end");
	free(b.p);

	b = (struct buf){ malloc(good.len), good.len };
	memcpy(b.p, good.p, good.len);
	put(b.p + 40, 0, 8, false);
	expect_error(t, "no table", &b, "no section header table");
	put(b.p + 40, good.len + 100, 8, false);
	expect_error(t, "table past EOF", &b, "past the end of the file");
	put(b.p + 40, shoff, 8, false);
	put(b.p + 62, 7, 2, false);
	expect_error(t, "bad shstrndx", &b, "no section name string table");
	put(b.p + 62, 2, 2, false);
	put(b.p + shoff + 2 * 64 + 32, good.len, 8, false);	/* .shstrtab size */
	expect_error(t, "shstrtab outside", &b, "outside the file");
	free(b.p);

	b = build_elf(true, false, secs, 3, 0);
	expect_error(t, "two .BTF", &b, "more than one .BTF");
	free(b.p);

	secs[1].type = SHT_NOBITS;
	b = build_elf(true, false, secs, 2, 0);
	expect_error(t, "NOBITS .BTF", &b, "SHT_NOBITS");
	free(b.p);

	snprintf(path, sizeof(path), "%s/missing", t->dir);
	CHECK(t, btf_write_elf_section(path, "x", 1, &err) == -1 && strstr(err.msg, "cannot stat"),
	      "missing file: %s", err.msg);
	CHECK(t, dir_entries(t->dir) == 0, "missing file: created something");
	d2b_error_clear(&err);
	CHECK(t, btf_write_elf_section(t->dir, "x", 1, &err) == -1, "directory accepted");
	free(good.p);
}

/* Every write step failing in turn, then success. */
static void test_faults(struct t *t, bool raw, bool exists)
{
	char path[300], env[32];
	struct sec secs[] = {
		{ ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0x1000, text, sizeof(text) },
	};
	struct buf img = build_elf(false, true, secs, 1, 0);
	struct buf btf = make_btf(true, 2);
	int n, rc = -1;

	snprintf(path, sizeof(path), "%s/fault", t->dir);
	if (exists)
		write_file(path, img.p, img.len, 0640);
	for (n = 1; n < 50; n++) {
		struct d2b_error err = { 0 };

		snprintf(env, sizeof(env), "%d", n);
		setenv("D2B_FAULT_WRITE", env, 1);
		rc = raw ? btf_write_raw(path, btf.p, btf.len, &err)
			 : btf_write_elf_section(path, btf.p, btf.len, &err);
		if (rc == 0)
			break;
		CHECK(t, strstr(err.msg, "Input/output error") &&
			 !strncmp(err.msg, path, strlen(path)),
		      "fault %d: %s", n, err.msg);
		if (exists)
			CHECK(t, same_file(path, &img), "fault %d (raw %d): file changed", n, raw);
		CHECK(t, dir_entries(t->dir) == (exists ? 1 : 0), "fault %d (raw %d): %d files",
		      n, raw, dir_entries(t->dir));
	}
	unsetenv("D2B_FAULT_WRITE");
	CHECK(t, rc == 0 && n >= (raw ? 4 : 7), "faults: succeeded at step %d", n);
	if (raw)
		CHECK(t, same_file(path, &btf), "faults: raw contents");
	CHECK(t, dir_entries(t->dir) == 1, "faults: %d files", dir_entries(t->dir));
	unlink(path);
	free(img.p);
	free(btf.p);
}

/* RLIMIT_FSIZE below the new size: "File too large", not death by SIGXFSZ. */
static void test_fsize(struct t *t)
{
	char path[300];
	struct sec secs[] = {
		{ ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0x1000, text, sizeof(text) },
	};
	struct buf img = build_elf(true, false, secs, 1, 0);
	struct buf btf = make_btf(false, 5000);
	int status = 0;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/fsize", t->dir);
	write_file(path, img.p, img.len, 0644);
	pid = fork();
	if (pid == 0) {
		struct rlimit rl = { 4096, 4096 };
		struct d2b_error err = { 0 };
		int rc, rc2;

		setrlimit(RLIMIT_FSIZE, &rl);
		rc = btf_write_elf_section(path, btf.p, btf.len, &err);
		if (rc != -1 || !strstr(err.msg, "File too large")) {
			fprintf(stderr, "fsize elf: rc %d: %s\n", rc, err.msg);
			_exit(3);
		}
		d2b_error_clear(&err);
		rc2 = btf_write_raw(path, btf.p, btf.len, &err);
		if (rc2 != -1 || !strstr(err.msg, "File too large")) {
			fprintf(stderr, "fsize raw: rc %d: %s\n", rc2, err.msg);
			_exit(4);
		}
		_exit(0);
	}
	waitpid(pid, &status, 0);
	CHECK(t, WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "fsize: child status 0x%x (signal %d)", status,
	      WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	CHECK(t, same_file(path, &img), "fsize: file changed");
	CHECK(t, dir_entries(t->dir) == 1, "fsize: %d files", dir_entries(t->dir));
	unlink(path);
	free(img.p);
	free(btf.p);
}

static void test_raw(struct t *t)
{
	char path[300], link[300], sub[300];
	struct buf btf = make_btf(false, 10), empty = { 0 };
	struct d2b_error err = { 0 };
	struct stat st;
	mode_t um = umask(022);

	snprintf(path, sizeof(path), "%s/raw.btf", t->dir);
	CHECK(t, btf_write_raw(path, btf.p, btf.len, &err) == 0, "raw: %s", err.msg);
	CHECK(t, same_file(path, &btf), "raw: contents");
	CHECK(t, stat(path, &st) == 0 && (st.st_mode & 07777) == 0644, "raw: new mode %o",
	      st.st_mode & 07777);
	chmod(path, 0600);
	CHECK(t, btf_write_raw(path, NULL, 0, &err) == 0 && same_file(path, &empty),
	      "raw empty: %s", err.msg);
	CHECK(t, stat(path, &st) == 0 && (st.st_mode & 07777) == 0600, "raw: kept mode %o",
	      st.st_mode & 07777);

	snprintf(link, sizeof(link), "%s/link.btf", t->dir);
	CHECK(t, symlink("raw.btf", link) == 0, "symlink");
	CHECK(t, btf_write_raw(link, btf.p, btf.len, &err) == 0, "raw via link: %s", err.msg);
	CHECK(t, lstat(link, &st) == 0 && S_ISLNK(st.st_mode) && same_file(path, &btf),
	      "raw via link: link replaced or target not written");
	unlink(link);
	unlink(path);

	snprintf(sub, sizeof(sub), "%s/sub", t->dir);
	mkdir(sub, 0755);
	CHECK(t, btf_write_raw(sub, btf.p, btf.len, &err) == -1 &&
		 strstr(err.msg, "not a regular file"), "raw over a directory: %s", err.msg);
	d2b_error_clear(&err);
	snprintf(path, sizeof(path), "%s/nodir/raw.btf", t->dir);
	CHECK(t, btf_write_raw(path, btf.p, btf.len, &err) == -1 &&
		 strstr(err.msg, "directory"), "raw into a missing directory: %s", err.msg);
	rmdir(sub);
	CHECK(t, dir_entries(t->dir) == 0, "raw: %d files left", dir_entries(t->dir));
	umask(um);
	free(btf.p);
}

int main(void)
{
	struct t t = { 0 };
	const char *tmp = getenv("TMPDIR");

	elf_version(EV_CURRENT);
	signal(SIGXFSZ, SIG_DFL);
	snprintf(t.dir, sizeof(t.dir), "%s/d2b-btfwrite.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(t.dir)) {
		perror("mkdtemp");
		return 2;
	}
	unsetenv("D2B_FAULT_WRITE");
	unsetenv("D2B_FAULT_WRITE_DELAY_MS");

	test_add(&t, true, false);
	test_add(&t, false, true);
	test_add(&t, true, true);
	test_add(&t, false, false);
	test_name_reuse(&t);
	test_extended(&t, SHN_LORESERVE - 3 - 1, false);	/* becomes extended */
	test_extended(&t, SHN_LORESERVE, true);			/* already extended */
	test_alloc(&t);
	test_malformed(&t);
	test_faults(&t, false, true);
	test_faults(&t, true, true);
	test_faults(&t, true, false);
	test_fsize(&t);
	test_raw(&t);

	rmdir(t.dir);
	printf("%d checks, %d failures\n", t.checks, t.fails);
	return t.fails ? 1 : 0;
}
