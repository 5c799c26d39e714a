// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit test of src/elf/: real objects built at test time with gcc and objcopy
 * (checked against eu-strip, nm and the DWARF strings they must resolve to),
 * hand-made images for aarch64, i386 and big-endian relocation and
 * compression, broken images, and a mutation loop over a read-only image.
 */
#include <errno.h>
#include <gelf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "elf/elf_file.h"
#include "test_sh.h"

#ifndef ELFCOMPRESS_ZSTD
#define ELFCOMPRESS_ZSTD 2
#endif

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

/* ---- helpers ------------------------------------------------------------ */

static char *path_in(const struct t *t, const char *name)
{
	static const size_t n = 512;
	char *p = malloc(n);

	if (!p)
		abort();
	snprintf(p, n, "%s/%s", t->dir, name);
	return p;
}

static uint8_t *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n ? (size_t)n : 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*size = (size_t)n;
	return buf;
}

static bool contains(const char *hay, const char *needle)
{
	return strstr(hay, needle) != NULL;
}

static uint64_t get_le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void put(uint8_t *p, uint64_t v, int n, bool le)
{
	for (int i = 0; i < n; i++)
		p[le ? i : n - 1 - i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get(const uint8_t *p, int n, bool le)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v = v << 8 | p[le ? n - 1 - i : i];
	return v;
}

/* ---- a minimal reader of the first CU DIE ------------------------------- */

static uint64_t uleb(const uint8_t **p, const uint8_t *end)
{
	uint64_t v = 0;
	int shift = 0;

	while (*p < end) {
		uint8_t b = *(*p)++;

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			break;
	}
	return v;
}

struct cu_strings {
	char producer[128];
	char name[128];
};

static void copy_str(char *dst, const struct elf_section *s, uint64_t off)
{
	if (!s || off >= s->size) {
		snprintf(dst, 128, "<bad offset 0x%llx>", (unsigned long long)off);
		return;
	}
	snprintf(dst, 128, "%.*s", (int)(s->size - off), (const char *)s->data + off);
}

/* Producer and name of the first CU, as a DWARF reader would resolve them. */
static bool first_cu_strings(struct elf_file *ef, struct cu_strings *out)
{
	struct d2b_error err = { 0 };
	const struct elf_section *info = elf_file_load_section(ef, ".debug_info", &err);
	const struct elf_section *abbrev = elf_file_load_section(ef, ".debug_abbrev", &err);
	const struct elf_section *str = elf_file_load_section(ef, ".debug_str", &err);
	const struct elf_section *lstr = elf_file_load_section(ef, ".debug_line_str", &err);
	const uint8_t *p, *end, *a, *aend;
	uint64_t abbrev_off, code;
	unsigned version, addr_size;

	memset(out, 0, sizeof(*out));
	if (!info || !abbrev || info->size < 11)
		return false;
	p = info->data + 4;
	end = info->data + info->size;
	version = (unsigned)get_le(p, 2);
	p += 2;
	if (version >= 5) {
		addr_size = p[1];
		abbrev_off = get_le(p + 2, 4);
		p += 6;
	} else {
		abbrev_off = get_le(p, 4);
		addr_size = p[4];
		p += 5;
	}
	code = uleb(&p, end);
	if (abbrev_off >= abbrev->size)
		return false;
	a = abbrev->data + abbrev_off;
	aend = abbrev->data + abbrev->size;
	for (;;) {		/* find the abbreviation */
		uint64_t c = uleb(&a, aend);

		if (c == 0 || a >= aend)
			return false;
		uleb(&a, aend);	/* tag */
		a++;		/* children */
		if (c == code)
			break;
		for (;;) {
			uint64_t at = uleb(&a, aend), form = uleb(&a, aend);

			if (form == 0x21)
				uleb(&a, aend);
			if (!at && !form)
				break;
		}
	}
	for (;;) {
		uint64_t at = uleb(&a, aend), form = uleb(&a, aend);
		char *dst = at == 0x25 ? out->producer : at == 0x03 ? out->name : NULL;
		uint64_t v = 0;

		if (!at && !form)
			break;
		switch (form) {
		case 0x0e:	/* strp */
		case 0x1f:	/* line_strp */
			v = get_le(p, 4);
			p += 4;
			if (dst)
				copy_str(dst, form == 0x0e ? str : lstr, v);
			break;
		case 0x08:	/* string */
			if (dst)
				snprintf(dst, 128, "%s", (const char *)p);
			p += strlen((const char *)p) + 1;
			break;
		case 0x0b: p += 1; break;
		case 0x05: p += 2; break;
		case 0x06: case 0x17: p += 4; break;
		case 0x07: p += 8; break;
		case 0x01: p += addr_size; break;
		case 0x0f: case 0x0d: uleb(&p, end); break;
		case 0x19: break;
		case 0x21: uleb(&a, aend); break;
		default:
			return out->producer[0] && out->name[0];
		}
		if (p > end)
			return false;
	}
	return true;
}

/* ---- real objects ------------------------------------------------------- */

static const char source[] =
	"struct point { int x, y; };\n"
	"__thread int tls_counter;\n"
	"int counter = 3;\n"
	"static const char *greeting = \"hi\";\n"
	"int add(struct point *p) { return p->x + p->y + counter + tls_counter; }\n"
	"int main(void) { struct point p = { 1, 2 }; return add(&p) + (greeting[0] == 'h'); }\n";

static const char *const debug_sections[] = {
	".debug_info", ".debug_abbrev", ".debug_str", ".debug_line",
	".debug_line_str", ".debug_aranges",
};

static struct elf_file *open_ok(struct t *t, const char *path)
{
	struct d2b_error err = { 0 };
	struct elf_file *ef = elf_file_open(path, &err);

	CHECK(t, ef != NULL, "open %s: %s", path, err.msg);
	return ef;
}

/*
 * Relocated .debug_info of OBJ against eu-strip --reloc-debug-sections-only,
 * which resolves the debug-to-debug relocations itself and keeps the others
 * (against .text, data, TLS) in its output; at those we check S + A.
 */
static void check_against_eu_strip(struct t *t, const char *obj, const char *stripped,
				   const char *cu_name)
{
	struct d2b_error err = { 0 };
	struct elf_file *ef = open_ok(t, obj), *es = NULL;
	const struct elf_section *ours, *theirs, *rel;
	const struct elf_symbol *syms;
	uint8_t *covered = NULL;
	size_t checked = 0, residual = 0;
	struct cu_strings cs;
	long nsyms;

	if (test_sh("eu-strip --reloc-debug-sections-only -o %s %s", stripped, obj)) {
		CHECK(t, false, "eu-strip failed on %s", obj);
		goto out;
	}
	es = open_ok(t, stripped);
	if (!ef || !es)
		goto out;
	ours = elf_file_load_section(ef, ".debug_info", &err);
	CHECK(t, ours && ours->size > 0, "%s: load .debug_info: %s", obj, err.msg);
	theirs = elf_file_find_section(es, ".debug_info");
	CHECK(t, theirs != NULL, "%s: no .debug_info", stripped);
	if (!ours || !theirs)
		goto out;
	CHECK(t, ours->size == theirs->file_size, "sizes %zu vs %llu", ours->size,
	      (unsigned long long)theirs->file_size);
	rel = elf_file_find_section(es, elf_file_is_64(es) ? ".rela.debug_info"
							 : ".rel.debug_info");
	nsyms = elf_file_symbols(es, &syms, &err);
	CHECK(t, nsyms > 0, "symbols of %s: %s", stripped, err.msg);
	covered = calloc(ours->size, 1);
	if (rel && nsyms > 0 && covered) {
		size_t image_size;
		const uint8_t *img = elf_file_image(es, &image_size);
		bool is64 = elf_file_is_64(es), rela = rel->type == SHT_RELA;
		size_t ent = is64 ? (rela ? 24 : 16) : (rela ? 12 : 8);

		for (size_t o = 0; o + ent <= rel->file_size; o += ent) {
			const uint8_t *e = img + rel->file_offset + o;
			uint64_t off = get_le(e, is64 ? 8 : 4);
			uint64_t info = get_le(e + (is64 ? 8 : 4), is64 ? 8 : 4);
			uint32_t symi = is64 ? (uint32_t)(info >> 32) : (uint32_t)(info >> 8);
			uint32_t type = is64 ? (uint32_t)info : (uint32_t)(info & 0xff);
			int width = (is64 && (type == R_X86_64_64)) ? 8 : 4;
			uint64_t addend = rela ? get_le(e + (is64 ? 16 : 8), is64 ? 8 : 4)
					       : get_le(theirs->file_offset + img + off, width);
			uint64_t want = syms[symi].value + addend;

			if (width == 4)
				want &= 0xffffffffu;
			CHECK(t, off + width <= ours->size, "residual offset 0x%llx",
			      (unsigned long long)off);
			if (off + width > ours->size)
				continue;
			CHECK(t, get_le(ours->data + off, width) == want,
			      "%s: .debug_info+0x%llx = 0x%llx, want 0x%llx (type %u)", obj,
			      (unsigned long long)off,
			      (unsigned long long)get_le(ours->data + off, width),
			      (unsigned long long)want, type);
			memset(covered + off, 1, (size_t)width);
			residual++;
		}
		for (size_t i = 0; i < ours->size; i++) {
			if (covered[i])
				continue;
			checked++;
			if (ours->data[i] != img[theirs->file_offset + i]) {
				CHECK(t, false, "%s: .debug_info+0x%zx: ours 0x%02x, eu-strip 0x%02x",
				      obj, i, ours->data[i], img[theirs->file_offset + i]);
				break;
			}
		}
	}
	CHECK(t, residual >= 3, "%s: only %zu residual relocations", obj, residual);
	CHECK(t, checked > 100, "%s: only %zu bytes compared", obj, checked);

	CHECK(t, first_cu_strings(ef, &cs), "%s: cannot read the first CU", obj);
	CHECK(t, !strncmp(cs.producer, "GNU C", 5), "%s: producer '%s'", obj, cs.producer);
	if (cu_name)
		CHECK(t, !strcmp(cs.name, cu_name), "%s: CU name '%s'", obj, cs.name);
	else
		CHECK(t, strlen(cs.name) > 2 && !strchr(cs.name, '<'), "%s: CU name '%s'",
		      obj, cs.name);
out:
	free(covered);
	elf_file_close(ef);
	elf_file_close(es);
}

/* nm's value for a defined symbol, or -1. */
static long long nm_value(const char *file, const char *sym)
{
	char cmd[1024], line[512];
	long long v = -1;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "nm %s", file);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long val;
		char kind, name[256];

		if (sscanf(line, "%llx %c %255s", &val, &kind, name) == 3 &&
		    !strcmp(name, sym))
			v = (long long)val;
	}
	pclose(f);
	return v;
}

static void check_symbols(struct t *t, const char *file)
{
	struct d2b_error err = { 0 };
	struct elf_file *ef = open_ok(t, file);
	const struct elf_symbol *syms, *again;
	bool found_main = false, found_counter = false, found_tls = false;
	long n;

	if (!ef)
		return;
	n = elf_file_symbols(ef, &syms, &err);
	CHECK(t, n > 5, "%s: %ld symbols: %s", file, n, err.msg);
	for (long i = 0; i < n; i++) {
		const struct elf_symbol *s = &syms[i];

		if (!strcmp(s->name, "main")) {
			long long want = nm_value(file, "main");

			found_main = true;
			CHECK(t, want >= 0 && s->value == (uint64_t)want,
			      "%s: main = 0x%llx, nm says 0x%llx", file,
			      (unsigned long long)s->value, want);
			CHECK(t, s->type == STT_FUNC && s->bind == STB_GLOBAL && s->size > 0,
			      "main type %u bind %u size %llu", s->type, s->bind,
			      (unsigned long long)s->size);
		} else if (!strcmp(s->name, "counter")) {
			found_counter = true;
			CHECK(t, s->type == STT_OBJECT && s->size == 4, "counter type %u",
			      s->type);
			CHECK(t, s->value == (uint64_t)nm_value(file, "counter"),
			      "counter value 0x%llx", (unsigned long long)s->value);
		} else if (!strcmp(s->name, "tls_counter")) {
			found_tls = s->type == STT_TLS;
		}
	}
	CHECK(t, found_main && found_counter && found_tls, "%s: main %d counter %d tls %d",
	      file, found_main, found_counter, found_tls);
	CHECK(t, elf_file_symbols(ef, &again, &err) == n && again == syms,
	      "symbols not cached");

	/* by name: the same table, a copy; refused: no such section, and a
	 * section that is not a symbol table */
	{
		struct elf_symbol *named = NULL;
		long m = elf_file_symbols_named(ef, ".symtab", &named, &err);

		CHECK(t, m == n && named && named != syms &&
			 !memcmp(named, syms, (size_t)n * sizeof(*syms)),
		      "%s: .symtab by name: %ld of %ld", file, m, n);
		free(named);
		memset(&err, 0, sizeof(err));
		CHECK(t, elf_file_symbols_named(ef, ".nosuch", &named, &err) < 0 &&
			 !named && strstr(err.msg, "no section .nosuch"),
		      "%s: .nosuch: %s", file, err.msg);
		memset(&err, 0, sizeof(err));
		CHECK(t, elf_file_symbols_named(ef, ".text", &named, &err) < 0 &&
			 !named && strstr(err.msg, ".text+0x0: not a symbol table"),
		      "%s: .text: %s", file, err.msg);
	}
	elf_file_close(ef);
}

/* Every debug section of COMPRESSED equals PLAIN's, byte for byte. */
static void check_same_sections(struct t *t, const char *plain, const char *compressed,
				const char *how)
{
	struct d2b_error err = { 0 };
	struct elf_file *a = open_ok(t, plain), *b = open_ok(t, compressed);
	const struct elf_section *info;
	int compared = 0;

	if (!a || !b)
		goto out;
	info = elf_file_find_section(b, ".debug_info");
	if (!strcmp(how, "zlib-gnu"))
		CHECK(t, elf_file_find_section(b, ".zdebug_info") && !info,
		      "%s: no .zdebug_info", compressed);
	else
		CHECK(t, info && (info->flags & SHF_COMPRESSED),
		      "%s: .debug_info not compressed", compressed);
	for (size_t i = 0; i < sizeof(debug_sections) / sizeof(debug_sections[0]); i++) {
		const char *name = debug_sections[i];
		const struct elf_section *x = elf_file_load_section(a, name, &err);
		const struct elf_section *y;

		if (!x) {
			CHECK(t, !err.set, "%s: %s", plain, err.msg);
			continue;
		}
		y = elf_file_load_section(b, name, &err);
		CHECK(t, y != NULL, "%s (%s): %s: %s", compressed, how, name, err.msg);
		if (!y)
			continue;
		CHECK(t, x->size == y->size && !memcmp(x->data, y->data, x->size),
		      "%s (%s): %s differs (%zu vs %zu bytes)", compressed, how, name,
		      x->size, y->size);
		CHECK(t, elf_file_load_section(b, name, &err) == y, "not idempotent");
		compared++;
	}
	CHECK(t, compared >= 5, "%s: only %d sections compared", compressed, compared);
out:
	elf_file_close(a);
	elf_file_close(b);
}

/* Patch a copy of FILE's image and expect loading .debug_info to fail with
 * a message containing WANT. OFF is relative to .debug_info's file offset
 * unless ABSOLUTE. */
static void expect_corrupt(struct t *t, const uint8_t *img, size_t size,
			   uint64_t off, const uint8_t *bytes, size_t n,
			   const char *want, const char *what)
{
	struct d2b_error err = { 0 };
	uint8_t *copy = malloc(size);
	struct elf_file *ef;

	memcpy(copy, img, size);
	memcpy(copy + off, bytes, n);
	ef = elf_file_open_memory("corrupt.o", copy, size, &err);
	if (ef) {
		const struct elf_section *s = elf_file_load_section(ef, ".debug_info", &err);

		CHECK(t, s == NULL, "%s: loaded anyway", what);
		CHECK(t, err.set && contains(err.msg, "corrupt.o: .") &&
			 contains(err.msg, "debug_info") && contains(err.msg, want),
		      "%s: message '%s' lacks '%s'", what, err.msg, want);
	} else {
		CHECK(t, contains(err.msg, want), "%s: open failed: %s", what, err.msg);
	}
	elf_file_close(ef);
	free(copy);
}

static void check_corrupt_compressed(struct t *t, const char *file, const char *how)
{
	struct d2b_error err = { 0 };
	size_t size;
	uint8_t *img = slurp(file, &size);
	struct elf_file *ef;
	const struct elf_section *s;
	uint8_t b8[8];
	uint64_t declared, at, shdr;

	if (!img) {
		CHECK(t, false, "read %s", file);
		return;
	}
	ef = elf_file_open_memory(file, img, size, &err);
	CHECK(t, ef != NULL, "%s", err.msg);
	if (!ef) {
		free(img);
		return;
	}
	s = elf_file_find_section(ef, ".debug_info");
	if (!s)
		s = elf_file_find_section(ef, ".zdebug_info");
	at = s->file_offset;
	shdr = get_le(img + 0x28, 8) + (uint64_t)s->index * 64;
	if (!strcmp(how, "zlib-gnu")) {
		declared = get(img + at + 4, 8, false);
		put(b8, declared + 1, 8, false);
		expect_corrupt(t, img, size, at + 4, b8, 8, "less than the declared", how);
		put(b8, declared - 1, 8, false);
		expect_corrupt(t, img, size, at + 4, b8, 8, "more than the declared", how);
		expect_corrupt(t, img, size, at, (const uint8_t *)"ZLIX", 4, "ZLIB", how);
	} else {
		declared = get_le(img + at + 8, 8);
		put(b8, declared + 1, 8, true);
		expect_corrupt(t, img, size, at + 8, b8, 8, "less than the declared", how);
		put(b8, declared - 1, 8, true);
		expect_corrupt(t, img, size, at + 8, b8, 8, "more than the declared", how);
		put(b8, 1ULL << 40, 8, true);
		expect_corrupt(t, img, size, at + 8, b8, 8, "exceeds the limit", how);
		put(b8, 7, 4, true);
		expect_corrupt(t, img, size, at, b8, 4, "unknown compression type 7", how);
		/* sh_size below the Chdr */
		put(b8, 10, 8, true);
		expect_corrupt(t, img, size, shdr + 32, b8, 8, "too small", how);
		/* sh_size cut in the middle of the stream */
		put(b8, 24 + 20, 8, true);
		expect_corrupt(t, img, size, shdr + 32, b8, 8,
			       strcmp(how, "zstd") ? "truncated zlib stream" : "zstd", how);
	}
	/* garbage in the middle of the stream */
	memset(b8, 0xa5, 8);
	expect_corrupt(t, img, size, at + s->file_size / 2, b8, 8, "", how);
	elf_file_close(ef);
	free(img);
}

/* Relocations are ignored outside ET_REL: patch e_type to ET_EXEC. */
static void check_exec_ignores_relocs(struct t *t, const char *obj)
{
	struct d2b_error err = { 0 };
	size_t size;
	uint8_t *img = slurp(obj, &size);
	struct elf_file *rel = NULL, *ex = NULL;
	const struct elf_section *a, *b;

	if (!img)
		return;
	rel = elf_file_open_memory("rel", img, size, &err);
	a = rel ? elf_file_load_section(rel, ".debug_info", &err) : NULL;
	uint8_t *copy = malloc(size);
	memcpy(copy, img, size);
	put(copy + 16, ET_EXEC, 2, true);
	ex = elf_file_open_memory("exec", copy, size, &err);
	b = ex ? elf_file_load_section(ex, ".debug_info", &err) : NULL;
	CHECK(t, a && b, "%s", err.msg);
	if (a && b) {
		CHECK(t, elf_file_type(ex) == ET_EXEC, "type");
		CHECK(t, b->data == copy + b->file_offset, "ET_EXEC section was copied");
		CHECK(t, a->data != img + a->file_offset, "ET_REL section not copied");
		CHECK(t, a->size == b->size && memcmp(a->data, b->data, a->size) != 0,
		      "relocation changed nothing");
	}
	elf_file_close(rel);
	elf_file_close(ex);
	free(copy);
	free(img);
}

static bool build_fixtures(struct t *t)
{
	char *src = path_in(t, "a.c");
	FILE *f = fopen(src, "w");
	bool ok;

	if (!f)
		return false;
	fputs(source, f);
	fclose(f);
	ok = !test_sh("cd %s && gcc -g -O0 -c a.c -o a.o && gcc -g -O0 a.c -o a.out"
		 " && gcc -g -O0 -Wa,--compress-debug-sections=zlib -c a.c -o gz.o"
		 " && objcopy --compress-debug-sections=zlib-gabi a.o zlib.o"
		 " && objcopy --compress-debug-sections=zstd a.o zstd.o"
		 " && objcopy --compress-debug-sections=zlib-gnu a.o zgnu.o"
		 " && objcopy --compress-debug-sections=zlib-gabi a.out zlib.out"
		 " && objcopy --compress-debug-sections=zstd a.out zstd.out",
		 t->dir);
	if (ok && test_sh("cd %s && gcc -m32 -g -gdwarf-4 -O0 -c a.c -o a32.o 2>/dev/null", t->dir))
		fprintf(stderr, "note: gcc -m32 unavailable, i386 object skipped\n");
	free(src);
	return ok;
}

static void test_real_objects(struct t *t)
{
	char *p;
	struct elf_file *ef;

	if (!build_fixtures(t)) {
		CHECK(t, false, "cannot build fixtures with gcc/objcopy in %s", t->dir);
		return;
	}
#define P(name) (free(p), p = path_in(t, name))
	p = NULL;
	P("a.o");
	ef = open_ok(t, p);
	if (ef) {
		CHECK(t, elf_file_type(ef) == ET_REL && elf_file_machine(ef) == EM_X86_64 &&
			 elf_file_is_64(ef) && elf_file_is_little_endian(ef),
		      "a.o header");
		elf_file_close(ef);
	}
	{
		char *s = path_in(t, "a.stripped.o");

		check_against_eu_strip(t, p, s, "a.c");
		free(s);
	}
	check_symbols(t, p);
	check_exec_ignores_relocs(t, p);
	P("a32.o");
	if (access(p, R_OK) == 0) {
		char *s = path_in(t, "a32.stripped.o");

		ef = open_ok(t, p);
		if (ef) {
			CHECK(t, elf_file_machine(ef) == EM_386 && !elf_file_is_64(ef) &&
				 elf_file_find_section(ef, ".rel.debug_info"),
			      "a32.o header");
			elf_file_close(ef);
		}
		check_against_eu_strip(t, p, s, "a.c");
		check_symbols(t, p);
		free(s);
	}
	P("a.out");
	ef = open_ok(t, p);
	if (ef) {
		CHECK(t, elf_file_type(ef) == ET_DYN || elf_file_type(ef) == ET_EXEC,
		      "a.out type %u", elf_file_type(ef));
		elf_file_close(ef);
	}
	check_symbols(t, p);
	{
		char *a = path_in(t, "a.o"), *ao = path_in(t, "a.out");
		static const char *const objs[][2] = {
			{ "zlib.o", "zlib-gabi" }, { "zstd.o", "zstd" },
			{ "zgnu.o", "zlib-gnu" }, { "gz.o", "as --compress-debug-sections" },
		};

		for (size_t i = 0; i < 4; i++) {
			P(objs[i][0]);
			check_same_sections(t, a, p, objs[i][1]);
			if (i < 3)
				check_corrupt_compressed(t, p, objs[i][1]);
		}
		P("zlib.out");
		check_same_sections(t, ao, p, "zlib-gabi");
		P("zstd.out");
		check_same_sections(t, ao, p, "zstd");
		free(a);
		free(ao);
	}
	free(p);
#undef P
}

/* ---- hand-made images --------------------------------------------------- */

struct spec {
	const char *name;
	uint32_t type;
	uint64_t flags;
	const void *data;
	size_t size;
	uint32_t link, info;
	uint64_t entsize, offset_override, size_override;
};

struct image {
	uint8_t *buf;
	size_t size;
	uint64_t sec_off[16];
};

/* An ELF image with a null section, SPECS, and .shstrtab last. */
static struct image build(bool is64, bool le, uint16_t type, uint16_t machine,
			  const struct spec *specs, size_t n)
{
	size_t ehsz = is64 ? 64 : 52, shsz = is64 ? 64 : 40;
	size_t nsec = n + 2, off, names_size = 1;
	char names[1024] = "";
	uint32_t name_off[16];
	struct image im = { 0 };

	for (size_t i = 0; i < n; i++) {
		name_off[i] = (uint32_t)names_size;
		strcpy(names + names_size, specs[i].name);
		names_size += strlen(specs[i].name) + 1;
	}
	name_off[n] = (uint32_t)names_size;
	strcpy(names + names_size, ".shstrtab");
	names_size += 10;

	off = ehsz;
	im.size = ehsz;
	for (size_t i = 0; i < n; i++)
		im.size = ((im.size + 7) & ~(size_t)7) + specs[i].size;
	im.size = ((((im.size + 7) & ~(size_t)7) + names_size + 7) & ~(size_t)7) +
		  nsec * shsz;
	im.buf = calloc(1, im.size);

	memcpy(im.buf, ELFMAG, SELFMAG);
	im.buf[EI_CLASS] = is64 ? ELFCLASS64 : ELFCLASS32;
	im.buf[EI_DATA] = le ? ELFDATA2LSB : ELFDATA2MSB;
	im.buf[EI_VERSION] = EV_CURRENT;
	put(im.buf + 16, type, 2, le);
	put(im.buf + 18, machine, 2, le);
	put(im.buf + 20, EV_CURRENT, 4, le);
	for (size_t i = 0; i <= n; i++) {
		const void *d = i < n ? specs[i].data : names;
		size_t sz = i < n ? specs[i].size : names_size;

		off = (off + 7) & ~(size_t)7;
		if (d)
			memcpy(im.buf + off, d, sz);
		im.sec_off[i] = off;
		off += sz;
	}
	off = (off + 7) & ~(size_t)7;
	/* e_shoff, e_ehsize, e_shentsize, e_shnum, e_shstrndx */
	if (is64) {
		put(im.buf + 0x28, off, 8, le);
		put(im.buf + 0x34, ehsz, 2, le);
		put(im.buf + 0x3a, shsz, 2, le);
		put(im.buf + 0x3c, nsec, 2, le);
		put(im.buf + 0x3e, nsec - 1, 2, le);
	} else {
		put(im.buf + 0x20, off, 4, le);
		put(im.buf + 0x28, ehsz, 2, le);
		put(im.buf + 0x2e, shsz, 2, le);
		put(im.buf + 0x30, nsec, 2, le);
		put(im.buf + 0x32, nsec - 1, 2, le);
	}
	for (size_t i = 0; i <= n; i++) {
		uint8_t *h = im.buf + off + (i + 1) * shsz;
		const struct spec *s = i < n ? &specs[i] : NULL;
		uint64_t so = s && s->offset_override ? s->offset_override : im.sec_off[i];
		uint64_t ss = s ? (s->size_override ? s->size_override : s->size) : names_size;
		int w = is64 ? 8 : 4;

		put(h + 0, name_off[i], 4, le);
		put(h + 4, s ? s->type : SHT_STRTAB, 4, le);
		put(h + 8, s ? s->flags : 0, w, le);
		/* sh_addr 0 */
		put(h + 8 + 2 * w, so, w, le);
		put(h + 8 + 3 * w, ss, w, le);
		put(h + 8 + 4 * w, s ? s->link : 0, 4, le);
		put(h + 12 + 4 * w, s ? s->info : 0, 4, le);
		put(h + 16 + 4 * w, 1, w, le);
		put(h + 16 + 5 * w, s ? s->entsize : 0, w, le);
	}
	return im;
}

/* Symbols: null, section symbol of section 1, "var" = 0x1234 (in section 1). */
static size_t make_symtab(uint8_t *out, bool is64, bool le)
{
	size_t ent = is64 ? 24 : 16;

	memset(out, 0, 3 * ent);
	if (is64) {
		out[ent + 4] = ELF64_ST_INFO(STB_LOCAL, STT_SECTION);
		put(out + ent + 6, 1, 2, le);
		put(out + 2 * ent, 1, 4, le);	/* "var" */
		out[2 * ent + 4] = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT);
		put(out + 2 * ent + 6, 1, 2, le);
		put(out + 2 * ent + 8, 0x1234, 8, le);
		put(out + 2 * ent + 16, 4, 8, le);
	} else {
		out[ent + 12] = ELF32_ST_INFO(STB_LOCAL, STT_SECTION);
		put(out + ent + 14, 1, 2, le);
		put(out + 2 * ent, 1, 4, le);
		put(out + 2 * ent + 4, 0x1234, 4, le);
		put(out + 2 * ent + 8, 4, 4, le);
		out[2 * ent + 12] = ELF32_ST_INFO(STB_GLOBAL, STT_OBJECT);
		put(out + 2 * ent + 14, 1, 2, le);
	}
	return 3 * ent;
}

struct rel {
	uint64_t offset;
	uint32_t type, sym;
	int64_t addend;
};

static size_t make_rela(uint8_t *out, bool is64, bool le, bool rela,
			const struct rel *r, size_t n)
{
	int w = is64 ? 8 : 4;
	size_t ent = (size_t)w * (rela ? 3 : 2);

	for (size_t i = 0; i < n; i++) {
		uint8_t *e = out + i * ent;
		uint64_t info = is64 ? (uint64_t)r[i].sym << 32 | r[i].type
				     : (uint64_t)(r[i].sym << 8 | (r[i].type & 0xff));

		put(e, r[i].offset, w, le);
		put(e + w, info, w, le);
		if (rela)
			put(e + 2 * w, (uint64_t)r[i].addend, w, le);
	}
	return n * ent;
}

/* An ET_REL image: 1 .debug_info (32 bytes, INIT), 2 .rel[a].debug_info,
 * 3 .symtab, 4 .strtab. */
static struct image reloc_image(bool is64, bool le, uint16_t machine, bool rela,
				const uint8_t *init, const struct rel *r, size_t n,
				uint16_t etype)
{
	uint8_t symtab[96], relbuf[512];
	static const char strtab[] = "\0var";
	size_t symsz = make_symtab(symtab, is64, le);
	size_t relsz = make_rela(relbuf, is64, le, rela, r, n);
	struct spec specs[] = {
		{ ".debug_info", SHT_PROGBITS, 0, init, 32, 0, 0, 0, 0, 0 },
		{ rela ? ".rela.debug_info" : ".rel.debug_info", rela ? SHT_RELA : SHT_REL,
		  SHF_INFO_LINK, relbuf, relsz, 3, 1,
		  (uint64_t)(is64 ? 8 : 4) * (rela ? 3 : 2), 0, 0 },
		{ ".symtab", SHT_SYMTAB, 0, symtab, symsz, 4, 2, is64 ? 24 : 16, 0, 0 },
		{ ".strtab", SHT_STRTAB, 0, strtab, sizeof(strtab), 0, 0, 0, 0, 0 },
	};

	return build(is64, le, etype, machine, specs, 4);
}

static const struct elf_section *load_mem(struct image *im, const char *name,
					  struct elf_file **ef, struct d2b_error *err)
{
	*ef = elf_file_open_memory("mem.o", im->buf, im->size, err);
	return *ef ? elf_file_load_section(*ef, name, err) : NULL;
}

static void test_crafted_relocs(struct t *t)
{
	uint8_t zero[32] = { 0 };
	struct d2b_error err = { 0 };
	struct elf_file *ef;
	const struct elf_section *s;
	const struct elf_symbol *syms;

	for (int le = 1; le >= 0; le--) {
		const struct rel r[] = {
			{ 0, R_AARCH64_ABS32, 1, 5 },
			{ 4, R_AARCH64_ABS64, 2, 0x10 },
			{ 100, R_AARCH64_NONE, 0, 0 },
			{ 12, R_AARCH64_PREL32, 2, 0 },
			{ 16, R_AARCH64_ABS64, 2, -0x34 },
		};
		struct image im = reloc_image(true, le, EM_AARCH64, true, zero, r, 5, ET_REL);

		memset(&err, 0, sizeof(err));
		s = load_mem(&im, ".debug_info", &ef, &err);
		CHECK(t, s != NULL, "aarch64 le=%d: %s", le, err.msg);
		if (s) {
			CHECK(t, elf_file_is_little_endian(ef) == le && elf_file_is_64(ef) &&
				 elf_file_machine(ef) == EM_AARCH64, "aarch64 header");
			CHECK(t, get(s->data, 4, le) == 5, "ABS32 0x%llx",
			      (unsigned long long)get(s->data, 4, le));
			CHECK(t, get(s->data + 4, 8, le) == 0x1244, "ABS64");
			CHECK(t, get(s->data + 12, 4, le) == 0x1234 - 12, "PREL32");
			CHECK(t, get(s->data + 16, 8, le) == 0x1200, "ABS64 negative addend");
			CHECK(t, get(s->data + 24, 8, le) == 0, "untouched bytes");
			CHECK(t, elf_file_symbols(ef, &syms, &err) == 3 &&
				 !strcmp(syms[2].name, "var") && syms[2].value == 0x1234 &&
				 syms[1].type == STT_SECTION && syms[2].bind == STB_GLOBAL,
			      "crafted symbols le=%d", le);
		}
		elf_file_close(ef);
		free(im.buf);
	}

	/* i386, SHT_REL: the addend is in place. */
	{
		uint8_t init[32] = { 0 };
		const struct rel r[] = { { 8, R_386_32, 2, 0 }, { 0, R_386_32, 1, 0 } };
		struct image im;

		put(init + 8, 7, 4, true);
		put(init + 0, 0x40, 4, true);
		im = reloc_image(false, true, EM_386, false, init, r, 2, ET_REL);
		memset(&err, 0, sizeof(err));
		s = load_mem(&im, ".debug_info", &ef, &err);
		CHECK(t, s && get_le(s->data + 8, 4) == 0x1234 + 7 &&
			 get_le(s->data, 4) == 0x40, "i386 REL: %s", err.msg);
		elf_file_close(ef);
		free(im.buf);
	}

	/* x86_64 64/32/32S; and ET_EXEC leaves the same bytes alone. */
	for (int exec = 0; exec < 2; exec++) {
		const struct rel r[] = {
			{ 0, R_X86_64_64, 2, 1 },
			{ 8, R_X86_64_32, 2, 2 },
			{ 12, R_X86_64_32S, 2, -0x1235 },
			{ 16, R_X86_64_NONE, 0, 0 },
		};
		struct image im = reloc_image(true, true, EM_X86_64, true, zero, r, 4,
					      exec ? ET_EXEC : ET_REL);

		memset(&err, 0, sizeof(err));
		s = load_mem(&im, ".debug_info", &ef, &err);
		CHECK(t, s != NULL, "x86_64: %s", err.msg);
		if (s && !exec)
			CHECK(t, get_le(s->data, 8) == 0x1235 && get_le(s->data + 8, 4) == 0x1236 &&
				 get_le(s->data + 12, 4) == 0xffffffff,
			      "x86_64 values");
		if (s && exec)
			CHECK(t, !memcmp(s->data, zero, 32), "ET_EXEC relocated");
		elf_file_close(ef);
		free(im.buf);
	}

	/* errors: unknown type, offset past the end, symbol out of range,
	 * a machine we do not know */
	{
		static const struct {
			uint16_t machine;
			struct rel r;
			const char *want;
		} bad[] = {
			{ EM_X86_64, { 0, 1000, 1, 0 }, "unknown relocation type 1000" },
			{ EM_X86_64, { 0, R_X86_64_PLT32, 1, 0 }, "unknown relocation type 4" },
			{ EM_AARCH64, { 29, R_AARCH64_ABS32, 1, 0 }, "past end of .debug_info" },
			{ EM_AARCH64, { 0xffffffffffffffffULL, R_AARCH64_ABS64, 1, 0 },
			  "past end of .debug_info" },
			{ EM_X86_64, { 0, R_X86_64_64, 3, 0 }, "symbol index 3 out of range" },
			{ EM_PPC64, { 0, 1, 1, 0 }, "for machine 21" },
		};

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			const struct rel r[] = { { 4, 0, 0, 0 }, bad[i].r };
			struct image im = reloc_image(true, true, bad[i].machine, true, zero,
						      r, 2, ET_REL);
			char want_at[64];

			memset(&err, 0, sizeof(err));
			s = load_mem(&im, ".debug_info", &ef, &err);
			snprintf(want_at, sizeof(want_at), "mem.o: .rela.debug_info+0x%x: ",
				 24);
			CHECK(t, !s && contains(err.msg, bad[i].want) &&
				 contains(err.msg, want_at),
			      "bad reloc %zu: '%s'", i, err.msg);
			/* the failure does not stick: same error again */
			if (ef) {
				struct d2b_error err2 = { 0 };

				CHECK(t, !elf_file_load_section(ef, ".debug_info", &err2) &&
					 !strcmp(err.msg, err2.msg), "not repeatable");
			}
			elf_file_close(ef);
			free(im.buf);
		}
	}
}

/*
 * A file (not memory) whose relocations are read in 120 KiB pieces
 * (elf_reloc.c): 12,000 entries of 24 bytes, two whole pieces and a
 * partial one, entry i writing word i (the symbol's value plus i), so each
 * word shows its piece applied; then the same with a bad symbol in the
 * third piece, whose error names its offset in the section.
 */
static void test_relocs_in_pieces(struct t *t)
{
	enum { N = 12000, BAD = 10500 };
	uint8_t symtab[96], *zero = calloc(N, 4);
	static const char strtab[] = "\0var";
	char path[] = "/tmp/d2b-test-elf-pieces-XXXXXX";
	size_t symsz = make_symtab(symtab, true, true);
	struct rel *r = calloc(N, sizeof(*r));
	uint8_t *relbuf = malloc((size_t)N * 24);

	CHECK(t, r && relbuf && zero, "oom");
	if (!r || !relbuf || !zero)
		goto out;
	for (int bad = 0; bad <= 1; bad++) {
		struct d2b_error err = { 0 };
		const struct elf_section *s;
		struct elf_file *ef;
		struct image im;
		size_t relsz;
		int fd;

		for (size_t i = 0; i < N; i++)
			r[i] = (struct rel){ i * 4, R_X86_64_32, 2, (int64_t)i };
		if (bad)
			r[BAD].sym = 3;
		relsz = make_rela(relbuf, true, true, true, r, N);
		{
			struct spec specs[] = {
				{ ".debug_info", SHT_PROGBITS, 0, zero, (size_t)N * 4, 0, 0, 0, 0, 0 },
				{ ".rela.debug_info", SHT_RELA, SHF_INFO_LINK, relbuf, relsz,
				  3, 1, 24, 0, 0 },
				{ ".symtab", SHT_SYMTAB, 0, symtab, symsz, 4, 2, 24, 0, 0 },
				{ ".strtab", SHT_STRTAB, 0, strtab, sizeof(strtab), 0, 0, 0, 0, 0 },
			};

			im = build(true, true, ET_REL, EM_X86_64, specs, 4);
		}
		fd = mkstemp(path);
		CHECK(t, fd >= 0 && write(fd, im.buf, im.size) == (ssize_t)im.size,
		      "cannot write %s", path);
		if (fd >= 0)
			close(fd);
		free(im.buf);
		ef = elf_file_open(path, &err);
		CHECK(t, ef != NULL, "open %s: %s", path, err.msg);
		s = ef ? elf_file_load_section(ef, ".debug_info", &err) : NULL;
		if (!bad) {
			CHECK(t, s != NULL, "pieces: %s", err.msg);
			size_t wrong = 0, first = 0;

			for (size_t k = 0; s && k < N; k++)
				if (get_le(s->data + 4 * k, 4) != 0x1234 + k && !wrong++)
					first = k;
			CHECK(t, s && !wrong, "pieces: %zu words not relocated, the first word %zu",
			      wrong, first);
		} else {
			char want_at[64];

			snprintf(want_at, sizeof(want_at), ".rela.debug_info+0x%x: ", BAD * 24);
			CHECK(t, !s && contains(err.msg, "symbol index 3 out of range") &&
				 contains(err.msg, want_at) && contains(err.msg, path),
			      "a bad entry in the third piece: '%s'", err.msg);
		}
		elf_file_close(ef);
		unlink(path);
		strcpy(path, "/tmp/d2b-test-elf-pieces-XXXXXX");
	}
out:
	free(r);
	free(relbuf);
	free(zero);
}

/* An unknown relocation type as the first relocation (the howto cache
 * must not take it for an already looked-up type). */
static void test_reloc_type_max_first(struct t *t)
{
	uint8_t zero[32] = { 0 };
	struct d2b_error err = { 0 };
	struct elf_file *ef;
	const struct elf_section *s;
	const struct rel r[] = { { 0, 0xffffffffu, 1, 0 } };
	struct image im = reloc_image(true, true, EM_X86_64, true, zero, r, 1, ET_REL);

	s = load_mem(&im, ".debug_info", &ef, &err);
	CHECK(t, !s && contains(err.msg, "unknown relocation type 4294967295"),
	      "type 0xffffffff first: loaded=%d '%s'", s != NULL, err.msg);
	elf_file_close(ef);
	free(im.buf);
}

/* A compressed section in a 32-bit big-endian image (Elf32_Chdr). */
static void test_crafted_compression(struct t *t)
{
	uint8_t plain[3000], packed[4096];
	struct d2b_error err = { 0 };
	struct elf_file *ef;
	const struct elf_section *s;

	for (size_t i = 0; i < sizeof(plain); i++)
		plain[i] = (uint8_t)(i * 7 / 13);
	for (int is64 = 0; is64 < 2; is64++) {
		for (int zstd = 0; zstd < 2; zstd++) {
			size_t hdr = is64 ? 24 : 12, n;
			uLongf zn = sizeof(packed) - hdr;

			memset(packed, 0, hdr);
			if (zstd) {
				n = ZSTD_compress(packed + hdr, sizeof(packed) - hdr, plain,
						  sizeof(plain), 3);
				CHECK(t, !ZSTD_isError(n), "zstd");
			} else {
				CHECK(t, compress2(packed + hdr, &zn, plain, sizeof(plain), 6) == Z_OK,
				      "zlib");
				n = zn;
			}
			put(packed, zstd ? ELFCOMPRESS_ZSTD : ELFCOMPRESS_ZLIB, 4, false);
			put(packed + (is64 ? 8 : 4), sizeof(plain), is64 ? 8 : 4, false);
			{
				struct spec sp[] = { { ".debug_str", SHT_PROGBITS, SHF_COMPRESSED,
						       packed, hdr + n, 0, 0, 0, 0, 0 } };
				struct image im = build(is64, false, ET_DYN, EM_S390, sp, 1);

				memset(&err, 0, sizeof(err));
				s = load_mem(&im, ".debug_str", &ef, &err);
				CHECK(t, s && s->size == sizeof(plain) &&
					 !memcmp(s->data, plain, sizeof(plain)) &&
					 s->file_size == hdr + n,
				      "BE %d-bit %s: %s", is64 ? 64 : 32, zstd ? "zstd" : "zlib",
				      err.msg);
				CHECK(t, ef && !elf_file_is_little_endian(ef) &&
					 elf_file_machine(ef) == EM_S390, "BE header");
				elf_file_close(ef);
				free(im.buf);
			}
		}
	}
	/* an empty section compressed is fine; a zero-size declared with data is not */
	{
		uint8_t z[64] = { 0 };
		uLongf zn = sizeof(z) - 24;
		struct spec sp[] = { { ".debug_str", SHT_PROGBITS, SHF_COMPRESSED, z, 0, 0, 0,
				       0, 0, 0 } };
		struct image im;

		compress2(z + 24, &zn, plain, 0, 6);
		put(z, ELFCOMPRESS_ZLIB, 4, true);
		sp[0].size = 24 + zn;
		im = build(true, true, ET_DYN, EM_X86_64, sp, 1);
		memset(&err, 0, sizeof(err));
		s = load_mem(&im, ".debug_str", &ef, &err);
		CHECK(t, s && s->size == 0, "empty compressed: %s", err.msg);
		elf_file_close(ef);
		free(im.buf);
	}
}

static void expect_open_fail(struct t *t, const void *img, size_t size, const char *want);

/* Extended numbering: e_shnum 0 and e_shstrndx SHN_XINDEX (the values live in
 * section 0), and symbols whose st_shndx is SHN_XINDEX (.symtab_shndx). */
static void test_extended_indexes(struct t *t)
{
	uint8_t symtab[96], xtab[12] = { 0 };
	static const char strtab[] = "\0var";
	struct d2b_error err = { 0 };
	const struct elf_symbol *syms;
	struct elf_file *ef;

	for (int big = 0; big < 2; big++) {
		size_t symsz = make_symtab(symtab, true, true);
		struct spec sp[] = {
			{ ".debug_info", SHT_PROGBITS, 0, "abcd", 4, 0, 0, 0, 0, 0 },
			{ ".symtab", SHT_SYMTAB, 0, symtab, symsz, 3, 2, 24, 0, 0 },
			{ ".strtab", SHT_STRTAB, 0, strtab, sizeof(strtab), 0, 0, 0, 0, 0 },
			{ ".symtab_shndx", SHT_SYMTAB_SHNDX, 0, xtab, 12, 2, 0, 4, 0, 0 },
		};
		struct image im;
		uint64_t shoff;
		long n;

		put(symtab + 2 * 24 + 6, SHN_XINDEX, 2, true);
		put(xtab + 8, big ? 70000 : 1, 4, true);
		im = build(true, true, ET_REL, EM_X86_64, sp, 4);
		shoff = get_le(im.buf + 0x28, 8);
		put(im.buf + 0x3c, 0, 2, true);			/* e_shnum */
		put(im.buf + 0x3e, SHN_XINDEX, 2, true);		/* e_shstrndx */
		put(im.buf + shoff + 32, 6, 8, true);			/* sh_size of 0 */
		put(im.buf + shoff + 40, 5, 4, true);			/* sh_link of 0 */
		memset(&err, 0, sizeof(err));
		ef = elf_file_open_memory("xindex.o", im.buf, im.size, &err);
		CHECK(t, ef && elf_file_section_count(ef) == 6 &&
			 !strcmp(elf_file_section_at(ef, 4)->name, ".symtab_shndx") &&
			 elf_file_find_section(ef, ".debug_info") &&
			 elf_file_find_section(ef, ".debug_info")->index == 1,
		      "extended numbering: %s", err.msg);
		if (ef) {
			n = elf_file_symbols(ef, &syms, &err);
			CHECK(t, n == 3 && syms[2].shndx == (big ? 70000u : 1u) &&
				 syms[1].shndx == 1 && !strcmp(syms[2].name, "var"),
			      "xindex symbols: %ld %s", n, err.msg);
		}
		elf_file_close(ef);
		/* the shndx table too short for the symbol */
		put(im.buf + shoff + 4 * 64 + 32, 8, 8, true);
		memset(&err, 0, sizeof(err));
		ef = elf_file_open_memory("xindex.o", im.buf, im.size, &err);
		CHECK(t, ef && elf_file_symbols(ef, &syms, &err) < 0 &&
			 contains(err.msg, "xindex.o: .symtab_shndx+0x8: "),
		      "short shndx table: %s", err.msg);
		elf_file_close(ef);
		/* section 0 claims more sections than fit */
		put(im.buf + shoff + 32, 1000, 8, true);
		expect_open_fail(t, im.buf, im.size, "1000 entries) past end of file");
		free(im.buf);
	}
}

static void expect_open_fail(struct t *t, const void *img, size_t size, const char *want)
{
	struct d2b_error err = { 0 };
	struct elf_file *ef = elf_file_open_memory("bad.elf", img, size, &err);

	CHECK(t, !ef && contains(err.msg, "bad.elf: ") && contains(err.msg, want),
	      "expected '%s', got '%s'", want, err.msg);
	elf_file_close(ef);
}

static void test_broken_images(struct t *t)
{
	uint8_t data[16] = "0123456789abcde";
	struct spec sp[] = { { ".debug_str", SHT_PROGBITS, 0, data, 16, 0, 0, 0, 0, 0 } };
	struct image im = build(true, true, ET_REL, EM_X86_64, sp, 1);
	struct d2b_error err = { 0 };
	struct elf_file *ef;
	const struct elf_section *s;
	uint8_t *copy = malloc(im.size);
	uint64_t shoff = get_le(im.buf + 0x28, 8);
	uint8_t *sh1;

	/* the good one first */
	ef = elf_file_open_memory("good.elf", im.buf, im.size, &err);
	CHECK(t, ef && elf_file_section_count(ef) == 3, "good: %s", err.msg);
	if (ef) {
		s = elf_file_load_section(ef, ".debug_str", &err);
		CHECK(t, s && s->size == 16 && s->data == im.buf + im.sec_off[0] &&
			 !strcmp(s->name, ".debug_str") && s->index == 1,
		      "plain section not in place");
		CHECK(t, elf_file_section_at(ef, 2) &&
			 !strcmp(elf_file_section_at(ef, 2)->name, ".shstrtab") &&
			 !elf_file_section_at(ef, 3), "section_at");
		memset(&err, 0, sizeof(err));
		CHECK(t, !elf_file_load_section(ef, ".debug_info", &err) && !err.set,
		      "missing section sets an error");
		CHECK(t, elf_file_symbols(ef, &(const struct elf_symbol *){ NULL }, &err) == 0,
		      "no symtab: %s", err.msg);
	}
	elf_file_close(ef);

	expect_open_fail(t, im.buf, 0, "empty file");
	expect_open_fail(t, "hello world, not elf", 20, "not an ELF file");
	expect_open_fail(t, im.buf, 3, "not an ELF file");
	expect_open_fail(t, im.buf, 12, "truncated ELF header");
	expect_open_fail(t, im.buf, 40, "truncated ELF header");
	expect_open_fail(t, im.buf, im.size - 1, "past end of file");

#define MUTATE(off, val, width, want)                                          \
	do {                                                                   \
		memcpy(copy, im.buf, im.size);                                 \
		put(copy + (off), (val), (width), true);                       \
		expect_open_fail(t, copy, im.size, want);                      \
	} while (0)
	sh1 = (uint8_t *)(uintptr_t)(shoff + 64);	/* offset of section 1's header */
	MUTATE(EI_CLASS, 7, 1, "unknown ELF class 7");
	MUTATE(EI_DATA, 9, 1, "unknown ELF data encoding 9");
	MUTATE(0x28, im.size, 8, "section header table");
	MUTATE(0x28, 0xfffffffffffffff0ULL, 8, "section header table");
	MUTATE(0x3a, 60, 2, "bad section header size 60");
	MUTATE(0x3e, 9, 2, "");	/* shstrndx out of range */
	MUTATE((uintptr_t)sh1 + 24, im.size, 8, "past end of file");	/* sh_offset */
	MUTATE((uintptr_t)sh1 + 32, im.size, 8, "past end of file");	/* sh_size */
	MUTATE((uintptr_t)sh1 + 24, 0xffffffffffffff00ULL, 8, "past end of file");
	memcpy(copy, im.buf, im.size);	/* offset + size overflows */
	put(copy + (uintptr_t)sh1 + 24, 0x100, 8, true);
	put(copy + (uintptr_t)sh1 + 32, 0xffffffffffffff80ULL, 8, true);
	expect_open_fail(t, copy, im.size, "past end of file");
	MUTATE((uintptr_t)sh1, 5000, 4, "name offset");
#undef MUTATE
	/* NOBITS may point anywhere */
	memcpy(copy, im.buf, im.size);
	put(copy + shoff + 64 + 4, SHT_NOBITS, 4, true);
	put(copy + shoff + 64 + 24, 0xffffffffffffff00ULL, 8, true);
	memset(&err, 0, sizeof(err));
	ef = elf_file_open_memory("nobits.elf", copy, im.size, &err);
	s = ef ? elf_file_load_section(ef, ".debug_str", &err) : NULL;
	CHECK(t, s && s->data == NULL && s->size == 0, "NOBITS: %s", err.msg);
	elf_file_close(ef);

	/* compressed section shorter than its header */
	{
		uint8_t z[8] = { 1 };
		struct spec zs[] = { { ".debug_info", SHT_PROGBITS, SHF_COMPRESSED, z, 8, 0,
				       0, 0, 0, 0 } };
		struct image zi = build(true, true, ET_EXEC, EM_X86_64, zs, 1);

		memset(&err, 0, sizeof(err));
		CHECK(t, !load_mem(&zi, ".debug_info", &ef, &err) &&
			 contains(err.msg, "mem.o: .debug_info+0x0: ") &&
			 contains(err.msg, "too small"), "short chdr: %s", err.msg);
		elf_file_close(ef);
		free(zi.buf);
	}
	free(copy);
	free(im.buf);

	/* files */
	memset(&err, 0, sizeof(err));
	CHECK(t, !elf_file_open("/nonexistent/x.o", &err) &&
		 contains(err.msg, "/nonexistent/x.o: No such file"), "%s", err.msg);
	memset(&err, 0, sizeof(err));
	CHECK(t, !elf_file_open(t->dir, &err) && contains(err.msg, "not a regular file"),
	      "%s", err.msg);
	{
		char *empty = path_in(t, "empty");
		FILE *f = fopen(empty, "w");

		if (f)
			fclose(f);
		memset(&err, 0, sizeof(err));
		CHECK(t, !elf_file_open(empty, &err) && contains(err.msg, "empty file"),
		      "%s", err.msg);
		free(empty);
	}
}

/* ---- mutation loop over read-only images ------------------------------- */

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void exercise(struct t *t, const uint8_t *img, size_t size)
{
	struct d2b_error err = { 0 };
	struct elf_file *ef = elf_file_open_memory("fuzz", img, size, &err);
	const struct elf_symbol *syms;

	if (!ef) {
		CHECK(t, err.set && err.msg[0], "open failed without message");
		return;
	}
	for (size_t i = 0; i < elf_file_section_count(ef); i++) {
		const struct elf_section *s = elf_file_section_at(ef, i);
		const struct elf_section *l;
		volatile uint8_t sum = 0;

		memset(&err, 0, sizeof(err));
		if (!s->name[0])
			continue;
		l = elf_file_load_section(ef, s->name, &err);
		CHECK(t, l || err.set, "load %s failed without message", s->name);
		for (size_t k = 0; l && l->data && k < l->size; k += 61)
			sum += l->data[k];
		(void)sum;	/* read: clang warns of a sum only set */
	}
	memset(&err, 0, sizeof(err));
	CHECK(t, elf_file_symbols(ef, &syms, &err) >= 0 || err.set, "symbols");
	for (size_t i = 0; i < elf_file_section_count(ef); i++) {
		const struct elf_section *s = elf_file_section_at(ef, i);
		struct elf_symbol *named;

		memset(&err, 0, sizeof(err));
		if (s->name[0] && elf_file_symbols_named(ef, s->name, &named, &err) < 0)
			CHECK(t, err.set && !named, "%s: failed without message", s->name);
		else if (s->name[0])
			free(named);
	}
	elf_file_close(ef);
}

static void mutate_image(struct t *t, const uint8_t *orig, size_t size, int rounds)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), map_size;
	uint64_t seed = 0x9e3779b97f4a7c15ULL, shoff;
	uint8_t *map;

	if (size < 64)
		return;
	shoff = orig[EI_CLASS] == ELFCLASS64 ? get(orig + 0x28, 8, orig[EI_DATA] == ELFDATA2LSB)
					     : get(orig + 0x20, 4, orig[EI_DATA] == ELFDATA2LSB);
	if (shoff >= size)
		shoff = 0;
	map_size = (size + page - 1) / page * page;
	map = mmap(NULL, map_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return;
	for (int r = 0; r < rounds; r++) {
		int n = 1 + (int)(xorshift(&seed) % 4);
		size_t len = size;

		mprotect(map, map_size, PROT_READ | PROT_WRITE);
		memcpy(map, orig, size);
		for (int k = 0; k < n; k++) {
			/* bias towards the headers: they hold the offsets */
			uint64_t x = xorshift(&seed);
			size_t at = (x & 1) ? (size_t)(x >> 8) % size
					    : (size_t)(shoff + (x >> 8) % (size - shoff));
			if ((x >> 4 & 7) == 0)
				at = (size_t)(x >> 8) % 64;
			map[at] = (uint8_t)(xorshift(&seed));
		}
		if (r % 50 == 0)
			len = (size_t)(xorshift(&seed) % size);
		mprotect(map, map_size, PROT_READ);	/* writes would crash */
		exercise(t, map, len);
	}
	munmap(map, map_size);
}

static void test_mutations(struct t *t, const char *file, int rounds)
{
	size_t size;
	uint8_t *orig = slurp(file, &size);

	CHECK(t, orig != NULL, "read %s", file);
	if (orig)
		mutate_image(t, orig, size, rounds);
	free(orig);
}

/* Hand-made big-endian and 32-bit images through the same loop. */
static void test_crafted_mutations(struct t *t, int rounds)
{
	uint8_t init[32] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	const struct rel r[] = {
		{ 0, 258, 1, 5 }, { 4, 257, 2, 0x10 }, { 12, 1, 2, 0 }, { 16, 2, 1, 0 },
	};

	for (int v = 0; v < 3; v++) {
		struct image im = v == 0 ? reloc_image(true, false, EM_AARCH64, true, init, r, 4, ET_REL)
				: v == 1 ? reloc_image(false, true, EM_386, false, init, r, 4, ET_REL)
					 : reloc_image(false, false, EM_386, true, init, r, 4, ET_REL);

		mutate_image(t, im.buf, im.size, rounds);
		free(im.buf);
	}
}

int main(void)
{
	struct t t = { 0 };
	const char *tmp = getenv("TMPDIR");
	int rounds = 1500;

	snprintf(t.dir, sizeof(t.dir), "%s/d2b-test-elf-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(t.dir)) {
		perror("mkdtemp");
		return 1;
	}
	/* D2B_ELF_FUZZ_ROUNDS: more mutation rounds for a sanitizer run. */
	if (getenv("D2B_ELF_FUZZ_ROUNDS"))
		rounds = atoi(getenv("D2B_ELF_FUZZ_ROUNDS"));
	test_crafted_relocs(&t);
	test_reloc_type_max_first(&t);
	test_relocs_in_pieces(&t);
	test_crafted_compression(&t);
	test_broken_images(&t);
	test_extended_indexes(&t);
	test_real_objects(&t);
	{
		static const char *const files[] = { "a.o", "zlib.o", "zstd.o", "zgnu.o",
						     "a32.o" };

		for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			char *p = path_in(&t, files[i]);

			if (access(p, R_OK) == 0)
				test_mutations(&t, p, rounds);
			free(p);
		}
	}
	test_crafted_mutations(&t, rounds);
	/* A kernel module from the corpus (bench/fetch-corpus.sh), if fetched. */
	{
		const char *corpus = getenv("D2B_CORPUS_DIR");
		const char *home = getenv("HOME");
		char ko[512];

		if (corpus && *corpus)
			snprintf(ko, sizeof(ko), "%s/modules/tcp_bbr.ko", corpus);
		else
			snprintf(ko, sizeof(ko), "%s/.cache/dwarf2btf/modules/tcp_bbr.ko",
				 home ? home : "/nonexistent");
		if (access(ko, R_OK) == 0) {
			char *s = path_in(&t, "tcp_bbr.stripped.ko");

			check_against_eu_strip(&t, ko, s, NULL);
			free(s);
		} else {
			printf("note: %s not found, kernel module check skipped\n", ko);
		}
	}
	test_sh("rm -rf '%s'", t.dir);
	printf("%d checks, %d failures\n", t.checks, t.fails);
	return t.fails ? 1 : 0;
}
