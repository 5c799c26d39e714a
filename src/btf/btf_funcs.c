// SPDX-License-Identifier: GPL-2.0-only
/*
 * Function selection for BTF: the ELF function table, the per-CU checks on
 * parameter locations, and the serial choice of which FUNCs to emit.
 * See btf_funcs.h for the flow; the rules follow upstream pahole 1.29-1.31
 * (btf_encoder.c, dwarf_loader.c), re-derived here on our model.
 */
#include "btf/btf_funcs.h"

#include <elf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "btf/btf_strtab.h"
#include "dwarf/dw_const.h"
#include "dwarf/dwarf.h"
#include "util/name_sort.h"

#define BTF_IDS_SECTION ".BTF_ids"
#define BTF_ID_FUNC_PFX "__BTF_ID__func__"
#define BTF_ID_SET8_PFX "__BTF_ID__set8__"
#define BTF_SET8_KFUNCS (1u << 0)
#define KF_FASTCALL (1u << 12)

/* ---- the ELF function table ---- */

static int elf_func_cmp(const void *a, const void *b)
{
	const struct btf_elf_func *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	/* Ties by address keep the table independent of symtab order. */
	if (c)
		return c;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int elf_func_idx_cmp(const void *a, const void *b, void *ctx)
{
	const struct btf_elf_func *f = ctx;

	return elf_func_cmp(&f[*(const uint32_t *)a], &f[*(const uint32_t *)b]);
}

static const char *elf_func_name(void *ctx, uint32_t idx)
{
	const struct btf_elf_func *f = ctx;

	return f[idx].name;
}

/* F[0..N) in elf_func_cmp()'s order (name_sort: qsort()'s strcmp() calls
 * on 60 k names took most of 17 ms of the encoder's serial start). */
static int sort_funcs(struct btf_elf_func *f, size_t n)
{
	uint32_t *order = name_sort_order(n, elf_func_name, elf_func_idx_cmp, f);
	struct btf_elf_func *sorted = malloc((n ? n : 1) * sizeof(*sorted));

	if (!order || !sorted) {
		free(order);
		free(sorted);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		sorted[i] = f[order[i]];
	memcpy(f, sorted, n * sizeof(*f));
	free(order);
	free(sorted);
	return 0;
}

/* ".cold" and ".part" pieces are not functions of their own. */
static bool has_non_fn_suffix(const char *name)
{
	const char *dot = strchr(name, '.');

	return dot && (strstr(dot, ".cold") || strstr(dot, ".part"));
}

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* "__BTF_ID__func__vfs_close__1" -> "vfs_close" (length in *len), or NULL. */
static const char *btf_id_func_name(const char *sym, size_t *len)
{
	const char *name, *end;

	if (!starts_with(sym, BTF_ID_FUNC_PFX))
		return NULL;
	name = sym + strlen(BTF_ID_FUNC_PFX);
	end = strrchr(name, '_');
	if (!end || end == name || end[-1] != '_' || end - 1 == name)
		return NULL;
	*len = (size_t)(end - 1 - name);
	return name;
}

static uint32_t read_u32(const uint8_t *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

static int collect_kfuncs(struct btf_elf_funcs *t, struct elf_file *ef,
			  const struct elf_symbol *syms, long nr, struct d2b_error *err)
{
	const struct elf_section *sec = elf_file_find_section(ef, BTF_IDS_SECTION);
	bool swap = elf_file_is_little_endian(ef) != (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__);
	struct { uint64_t start, end; } *ranges = NULL;
	size_t nr_ranges = 0;

	if (!sec || sec->type == SHT_NOBITS)
		return 0;
	sec = elf_file_load_section(ef, BTF_IDS_SECTION, err);
	if (!sec)
		return err && err->set ? -1 : 0;
	for (long i = 0; i < nr; i++) {
		const struct elf_symbol *s = &syms[i];
		uint64_t off = s->value - sec->addr;

		if (s->shndx != sec->index || !starts_with(s->name, BTF_ID_SET8_PFX))
			continue;
		if (s->value < sec->addr || off + 8 > sec->size)
			continue;
		if (!(read_u32(sec->data + off + 4, swap) & BTF_SET8_KFUNCS))
			continue;
		void *r = realloc(ranges, (nr_ranges + 1) * sizeof(*ranges));
		if (!r) {
			free(ranges);
			return d2b_error_oom(err);
		}
		ranges = r;
		ranges[nr_ranges].start = s->value;
		ranges[nr_ranges].end = s->value + s->size;
		nr_ranges++;
	}
	for (long i = 0; i < nr && nr_ranges; i++) {
		const struct elf_symbol *s = &syms[i];
		size_t len;
		const char *name;
		char buf[256];
		long idx;

		if (s->shndx != sec->index)
			continue;
		name = btf_id_func_name(s->name, &len);
		if (!name || len >= sizeof(buf))
			continue;
		for (size_t r = 0; r < nr_ranges; r++) {
			uint64_t off = s->value - sec->addr;

			if (s->value < ranges[r].start || s->value >= ranges[r].end)
				continue;
			if (s->value < sec->addr || off + 8 > sec->size) {
				free(ranges);
				return d2b_error_at(err, elf_file_path(ef), BTF_IDS_SECTION, off,
						    "kfunc '%.*s' outside the section", (int)len, name);
			}
			memcpy(buf, name, len);
			buf[len] = '\0';
			idx = btf_elf_funcs_find(t, buf);
			if (idx >= 0) {
				t->funcs[idx].kfunc = true;
				t->funcs[idx].kfunc_flags = read_u32(sec->data + off + 4, swap);
			}
			break;
		}
	}
	free(ranges);
	return 0;
}

int btf_elf_funcs_index(struct btf_elf_funcs *t)
{
	size_t cap = 16;

	free(t->index);
	while (cap < t->nr * 2)
		cap *= 2;
	t->index = calloc(cap, sizeof(*t->index));
	if (!t->index)
		return -1;
	t->mask = cap - 1;
	for (size_t i = 0; i < t->nr; i++) {
		size_t len, j;
		uint64_t h = btf_str_hash(t->funcs[i].name, &len);

		j = h & t->mask;
		while (t->index[j])
			j = (j + 1) & t->mask;
		t->index[j] = (h >> 32 << 32) | ((uint64_t)i + 1);
	}
	return 0;
}

/* Whether symbol S names a function the table keeps. */
static bool kept_function(const struct elf_symbol *s)
{
	return s->type == STT_FUNC && s->name[0] && !has_non_fn_suffix(s->name);
}

int btf_elf_funcs_init(struct btf_elf_funcs *t, struct elf_file *ef,
		       bool kfuncs, struct d2b_error *err)
{
	const struct elf_symbol *syms;
	long nr = elf_file_symbols(ef, &syms, err);
	size_t n = 0, out = 0, bytes = 0, used = 0, count = 0;

	memset(t, 0, sizeof(*t));
	if (nr < 0)
		return -1;
	/* the names up to their first '.', into one buffer: one allocation,
	 * and the sort reads them from a few pages, not from 60 k blocks; the
	 * table for the functions alone (the vmlinux: 60 k of 119 k symbols) */
	for (long i = 0; i < nr; i++) {
		if (kept_function(&syms[i])) {
			bytes += strcspn(syms[i].name, ".") + 1;
			count++;
		}
	}
	t->funcs = calloc(count ? count : 1, sizeof(*t->funcs));
	t->names = malloc(bytes ? bytes : 1);
	if (!t->funcs || !t->names) {
		btf_elf_funcs_deinit(t);
		return d2b_error_oom(err);
	}
	for (long i = 0; i < nr; i++) {
		const struct elf_symbol *s = &syms[i];
		struct btf_elf_func *f;
		size_t len;

		if (!kept_function(s))
			continue;
		len = strcspn(s->name, ".");
		f = &t->funcs[n];
		f->name = t->names + used;
		memcpy(f->name, s->name, len);
		f->name[len] = 0;
		used += len + 1;
		f->addr = s->value;
		f->nr_syms = 1;
		n++;
	}
	if (sort_funcs(t->funcs, n)) {
		btf_elf_funcs_deinit(t);
		return d2b_error_oom(err);
	}
	/* Fold equal names; distinct addresses make the name ambiguous. */
	for (size_t i = 0; i < n; i++) {
		if (out && !strcmp(t->funcs[out - 1].name, t->funcs[i].name)) {
			struct btf_elf_func *a = &t->funcs[out - 1];

			if (a->addr != t->funcs[i].addr)
				a->ambiguous_addr = true;
			a->nr_syms++;
			continue;
		}
		t->funcs[out++] = t->funcs[i];
	}
	t->nr = out;
	if (btf_elf_funcs_index(t)) {
		btf_elf_funcs_deinit(t);
		return d2b_error_oom(err);
	}
	if (kfuncs && collect_kfuncs(t, ef, syms, nr, err)) {
		btf_elf_funcs_deinit(t);
		return -1;
	}
	return 0;
}

void btf_elf_funcs_deinit(struct btf_elf_funcs *t)
{
	free(t->funcs);
	free(t->names);
	free(t->index);
	t->funcs = NULL;
	t->names = NULL;
	t->index = NULL;
	t->nr = 0;
}

long btf_elf_funcs_find(const struct btf_elf_funcs *t, const char *name)
{
	size_t len;
	uint64_t h;

	if (!t->index) {
		size_t lo = 0, hi = t->nr;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			int c = strcmp(name, t->funcs[mid].name);

			if (!c)
				return (long)mid;
			if (c < 0)
				hi = mid;
			else
				lo = mid + 1;
		}
		return -1;
	}
	h = btf_str_hash(name, &len);
	for (size_t j = h & t->mask; t->index[j]; j = (j + 1) & t->mask) {
		uint64_t slot = t->index[j];
		const char *n;

		if (slot >> 32 != h >> 32)
			continue;
		n = t->funcs[(uint32_t)slot - 1].name;
		if (!strncmp(n, name, len) && !n[len])
			return (long)(uint32_t)slot - 1;
	}
	return -1;
}
/* ---- calling conventions and per-function checks ---- */

void btf_cc_for_machine(uint16_t machine, struct btf_cc *cc)
{
	static const uint16_t x86_64[] = { 5, 4, 1, 2, 8, 9 };
	static const uint16_t aarch64[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	static const uint16_t s390[] = { 2, 3, 4, 5, 6 };
	static const uint16_t arm[] = { 0, 1, 2, 3 };
	static const uint16_t ppc[] = { 3, 4, 5, 6, 7, 8, 9, 10 };
	static const uint16_t riscv[] = { 10, 11, 12, 13, 14, 15, 16, 17 };
	static const uint16_t loongarch[] = { 4, 5, 6, 7, 8, 9, 10, 11 };
	const uint16_t *regs = NULL;
	size_t n = 0;

	switch (machine) {
	case EM_X86_64: regs = x86_64; n = 6; break;
	case EM_AARCH64: regs = aarch64; n = 8; break;
	case EM_S390: regs = s390; n = 5; break;
	case EM_ARM: regs = arm; n = 4; break;
	case EM_PPC:
	case EM_PPC64: regs = ppc; n = 8; break;
	case EM_RISCV: regs = riscv; n = 8; break;
#ifdef EM_LOONGARCH
	case EM_LOONGARCH: regs = loongarch; n = 8; break;
#endif
	default: break;
	}
	(void)loongarch;
	memset(cc, 0, sizeof(*cc));
	cc->nr_regs = (uint8_t)n;
	for (size_t i = 0; i < n; i++)
		cc->regs[i] = regs[i];
}

const char *btf_param_name(const struct param *p)
{
	if (p->name)
		return p->name;
	return p->origin ? p->origin->name : NULL;
}

struct type *btf_param_type(const struct param *p)
{
	if (p->type || !p->origin)
		return p->type;
	return p->origin->type;
}

static bool composite_packed(const struct type *t, int depth);

/* The alignment a type gets without attributes. */
static uint64_t natural_align(const struct type *t, int depth)
{
	t = type_strip_cv(t);
	if (!t || depth > 32)
		return 1;
	if (t->alignment)
		return t->alignment;
	switch (t->kind) {
	case TK_ARRAY:
		return natural_align(t->type, depth + 1);
	case TK_STRUCT:
	case TK_UNION:
	case TK_CLASS: {
		uint64_t a = 1;

		if (composite_packed(t, depth + 1))
			return 1;
		for (uint32_t i = 0; i < t->composite.nr_members; i++) {
			const struct member *m = &t->composite.members[i];
			uint64_t ma;

			if (m->is_static)
				continue;
			ma = natural_align(m->type, depth + 1);
			if (ma > a)
				a = ma;
		}
		return a;
	}
	default:
		return t->size ? (t->size > 16 ? 16 : t->size) : 1;
	}
}

/* As pahole infers __packed__: a member off its natural alignment, or a
 * size that is not a multiple of the largest member alignment. */
static bool composite_packed(const struct type *t, int depth)
{
	uint64_t max_align = 1;

	if (depth > 32 || t->declaration)
		return false;
	for (uint32_t i = 0; i < t->composite.nr_members; i++) {
		const struct member *m = &t->composite.members[i];
		uint64_t a;

		if (m->is_static || m->bit_size)
			continue;
		a = natural_align(m->type, depth + 1);
		if (a > max_align)
			max_align = a;
		if ((m->bit_offset % 8) == 0 && (m->bit_offset / 8) % a)
			return true;
	}
	return t->composite.nr_members && t->size % max_align;
}

unsigned btf_func_check(const struct cu_model *cu, const struct function *fn,
			const struct btf_cc *cc)
{
	const struct function *abstract = NULL;
	unsigned flags = 0;

	for (uint32_t i = 0; i < fn->nr_params && i < cc->nr_regs; i++) {
		const struct param *p = &fn->params[i];

		if (!p->has_location)
			continue;
		if (p->loc_kind == DW_LOC_REG) {
			if (p->loc_reg != cc->regs[i])
				flags |= BTF_FN_UNEXPECTED_REG;
		} else {
			/* constant, stack slot, computed: the value is not
			 * where the caller put it */
			flags |= BTF_FN_OPTIMIZED;
		}
	}
	/* Packed structs passed by value beyond the register parameters. */
	if (cc->nr_regs && fn->nr_params >= cc->nr_regs) {
		for (uint32_t i = cc->nr_regs; i < fn->nr_params; i++) {
			const struct type *t = btf_param_type(&fn->params[i]);

			if (!t || (t->kind != TK_STRUCT && t->kind != TK_CLASS) || !t->name)
				continue;
			if (composite_packed(t, 0)) {
				flags |= BTF_FN_UNCERTAIN_LOC;
				break;
			}
		}
	}
	if (fn->origin_offset)
		abstract = cu_model_function_at_offset(cu, fn->origin_offset);
	if (abstract && abstract->nr_params) {
		for (uint32_t i = 0; i < fn->nr_params; i++) {
			const struct param *o = fn->params[i].origin;

			if (o && o >= abstract->params && o < abstract->params + abstract->nr_params &&
			    (uint32_t)(o - abstract->params) != i) {
				flags |= BTF_FN_REORDERED;
				break;
			}
		}
	}
	return flags;
}

/* ---- candidate sets ---- */

void btf_func_set_deinit(struct btf_func_set *s)
{
	free(s->cands);
	free(s->params);
	free(s->annots);
	memset(s, 0, sizeof(*s));
}

static int grow(void **p, size_t *cap, size_t want, size_t elem)
{
	size_t n = *cap ? *cap : 16;
	void *q;

	if (want <= *cap)
		return 0;
	while (n < want)
		n *= 2;
	q = realloc(*p, n * elem);
	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

struct btf_func_cand *btf_func_set_add(struct btf_func_set *s, uint32_t nr_params,
				       uint32_t nr_annots)
{
	struct btf_func_cand *c;

	if (grow((void **)&s->cands, &s->cap_cands, s->nr_cands + 1, sizeof(*s->cands)) ||
	    grow((void **)&s->params, &s->cap_params, s->nr_params + nr_params, sizeof(*s->params)) ||
	    grow((void **)&s->annots, &s->cap_annots, s->nr_annots + nr_annots, sizeof(*s->annots)))
		return NULL;
	c = &s->cands[s->nr_cands++];
	memset(c, 0, sizeof(*c));
	c->first_param = (uint32_t)s->nr_params;
	c->nr_params = nr_params;
	if (nr_params)	/* params may still be NULL: memset(NULL, 0, 0) is UB */
		memset(&s->params[s->nr_params], 0, nr_params * sizeof(*s->params));
	s->nr_params += nr_params;
	c->first_annot = (uint32_t)s->nr_annots;
	c->nr_annots = nr_annots;
	if (nr_annots)
		memset(&s->annots[s->nr_annots], 0, nr_annots * sizeof(*s->annots));
	s->nr_annots += nr_annots;
	return c;
}

/* ---- selection ---- */

static void log_line(btf_log_fn log, void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void log_line(btf_log_fn log, void *ctx, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (!log)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	log(ctx, line);
}

static int fwd_kind(const struct btf_type *t)
{
	if (btf_is_fwd(t))
		return btf_kflag(t) ? BTF_KIND_UNION : BTF_KIND_STRUCT;
	return btf_kind(t);
}

static bool names_match(const struct btf_funcs_sink *k, const struct btf_type *a,
			const struct btf_type *b)
{
	const char *x, *y;

	if (a->name_off == b->name_off)
		return true;
	x = k->str(k->ctx, a->name_off);
	y = k->str(k->ctx, b->name_off);
	return x && y && !strcmp(x, y);
}

/* Same type for prototype purposes: const ignored, named kinds by name. */
static bool types_match(const struct btf_funcs_sink *k, uint32_t a, uint32_t b, int depth)
{
	while (depth++ < 64) {
		const struct btf_type *ta, *tb;
		int ka, kb;

		if (a == b)
			return true;
		if (!a || !b)
			return false;
		ta = k->type_by_id(k->ctx, a);
		tb = k->type_by_id(k->ctx, b);
		if (!ta || !tb)
			return false;
		ka = fwd_kind(ta);
		kb = fwd_kind(tb);
		if (ka != kb) {
			if (ka == BTF_KIND_CONST) {
				a = ta->type;
				continue;
			}
			if (kb == BTF_KIND_CONST) {
				b = tb->type;
				continue;
			}
			return false;
		}
		switch (ka) {
		case BTF_KIND_INT:
			return ta->size == tb->size &&
			       *(const uint32_t *)(ta + 1) == *(const uint32_t *)(tb + 1) &&
			       names_match(k, ta, tb);
		case BTF_KIND_FLOAT:
			return ta->size == tb->size && names_match(k, ta, tb);
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
			return names_match(k, ta, tb);
		case BTF_KIND_PTR:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			a = ta->type;
			b = tb->type;
			continue;
		case BTF_KIND_ARRAY:
			if (btf_array(ta)->nelems != btf_array(tb)->nelems)
				return false;
			a = btf_array(ta)->type;
			b = btf_array(tb)->type;
			continue;
		case BTF_KIND_FUNC_PROTO: {
			const struct btf_param *pa = btf_params(ta), *pb = btf_params(tb);
			uint16_t n = btf_vlen(ta);

			if (n != btf_vlen(tb) || !types_match(k, ta->type, tb->type, depth))
				return false;
			for (uint16_t i = 0; i < n; i++)
				if (!types_match(k, pa[i].type, pb[i].type, depth))
					return false;
			return true;
		}
		default:
			return false;
		}
	}
	return false;
}

static bool protos_match(const struct btf_funcs_sink *k, const struct btf_func_set *s,
			 const struct btf_func_cand *a, const struct btf_func_cand *b,
			 const char *name, btf_log_fn log, void *ctx)
{
	if (a->nr_params != b->nr_params) {
		log_line(log, ctx, "%s : skipping BTF encoding of function due to param count mismatch; "
		     "%u params != %u params", name, a->nr_params, b->nr_params);
		return false;
	}
	if (!types_match(k, a->ret, b->ret, 0)) {
		log_line(log, ctx, "%s : skipping BTF encoding of function due to return type mismatch", name);
		return false;
	}
	for (uint32_t i = 0; i < a->nr_params; i++) {
		const struct btf_func_param *pa = &s->params[a->first_param + i];
		const struct btf_func_param *pb = &s->params[b->first_param + i];

		if (!types_match(k, pa->type, pb->type, 0)) {
			const char *na = k->str(k->ctx, pa->name_off);
			const char *nb = k->str(k->ctx, pb->name_off);

			log_line(log, ctx, "%s : skipping BTF encoding of function due to param type "
			     "mismatch for param#%u %s %s %s", name, i + 1, na ? na : "",
			     na && nb ? "!=" : "", nb ? nb : "");
			return false;
		}
	}
	return true;
}

/* A copy of string OFF (adding strings may move them): in BUF when it
 * fits, else malloc'd into *HEAP (freed by the caller). NULL: no memory. */
static const char *str_copy(const struct btf_funcs_sink *k, uint32_t off, char *buf,
			    size_t size, char **heap)
{
	const char *s = off ? k->str(k->ctx, off) : "";
	size_t n;

	*heap = NULL;
	if (!s)
		s = "";
	n = strlen(s);
	if (n < size) {
		memcpy(buf, s, n + 1);
		return buf;
	}
	*heap = strdup(s);
	return *heap;
}

static int add_func(const struct btf_funcs_sink *k, const struct btf_func_set *s,
		    const struct btf_func_cand *c, const struct btf_elf_func *ef,
		    const struct btf_features *f, struct d2b_error *err)
{
	int proto = k->add_func_proto(k->ctx, (int)c->ret), fn;
	char buf[256], *heap;

	if (proto < 0)
		return d2b_error_set(err, "%s: cannot add FUNC_PROTO (libbpf error %d)", ef->name, proto);
	for (uint32_t i = 0; i < c->nr_params; i++) {
		const struct btf_func_param *p = &s->params[c->first_param + i];
		const char *name;
		int r;

		if (k->add_func_param_at) {
			r = k->add_func_param_at(k->ctx, p->name_off, (int)p->type);
		} else {
			if (!(name = str_copy(k, p->name_off, buf, sizeof(buf), &heap)))
				return d2b_error_oom(err);
			r = k->add_func_param(k->ctx, name, (int)p->type);
			free(heap);
		}
		if (r < 0)
			return d2b_error_set(err, "%s: cannot add parameter %u (libbpf error %d)",
					     ef->name, i, r);
	}
	fn = k->add_func(k->ctx, ef->name, BTF_FUNC_STATIC, proto);
	if (fn < 0)
		return d2b_error_set(err, "%s: cannot add FUNC (libbpf error %d)", ef->name, fn);
	if (ef->kfunc && f->decl_tag_kfuncs && f->decl_tag) {
		if (k->add_decl_tag(k->ctx, "bpf_kfunc", fn, -1) < 0 ||
		    ((ef->kfunc_flags & KF_FASTCALL) &&
		     k->add_decl_tag(k->ctx, "bpf_fastcall", fn, -1) < 0))
			return d2b_error_set(err, "%s: cannot add the kfunc decl tag", ef->name);
	}
	for (uint32_t i = 0; i < c->nr_annots; i++) {
		const struct btf_func_annot *a = &s->annots[c->first_annot + i];
		const char *value = str_copy(k, a->value_off, buf, sizeof(buf), &heap);
		int r;

		if (!value)
			return d2b_error_oom(err);
		r = k->add_decl_tag(k->ctx, value, fn, a->component);
		free(heap);
		if (r < 0)
			return d2b_error_set(err, "%s: cannot add decl tag (libbpf error %d)", ef->name, r);
	}
	return 0;
}

/* ---- the libbpf sink ---- */

static const struct btf_type *lib_type_by_id(void *ctx, uint32_t id)
{
	return btf__type_by_id(ctx, id);
}

static const char *lib_str(void *ctx, uint32_t off)
{
	return btf__str_by_offset(ctx, off);
}

static int lib_add_func_proto(void *ctx, int ret)
{
	return btf__add_func_proto(ctx, ret);
}

static int lib_add_func_param(void *ctx, const char *name, int type)
{
	return btf__add_func_param(ctx, name, type);
}

static int lib_add_func(void *ctx, const char *name, int linkage, int proto)
{
	return btf__add_func(ctx, name, linkage, proto);
}

static int lib_add_decl_tag(void *ctx, const char *value, int ref, int component)
{
	return btf__add_decl_tag(ctx, value, ref, component);
}

void btf_funcs_libbpf_sink(struct btf_funcs_sink *sink, struct btf *btf)
{
	*sink = (struct btf_funcs_sink){
		.ctx = btf, .type_by_id = lib_type_by_id, .str = lib_str,
		.add_func_proto = lib_add_func_proto, .add_func_param = lib_add_func_param,
		.add_func = lib_add_func, .add_decl_tag = lib_add_decl_tag,
	};
}

int btf_funcs_emit(const struct btf_funcs_sink *sink, struct btf_func_set *set,
		   const struct btf_elf_funcs *elf, const struct btf_features *f,
		   btf_log_fn log, void *log_ctx, struct btf_funcs_result *res,
		   struct d2b_error *err)
{
	struct btf_func_cand **order;
	size_t i, j, *start;
	int rc = 0;

	memset(res, 0, sizeof(*res));
	if (!set->nr_cands)
		return 0;
	/* grouped by symbol, each group in CU order: a counting sort (stable)
	 * on the ELF index; qsort's merge sort took a fifth of this phase */
	order = malloc(set->nr_cands * sizeof(*order));
	start = calloc(elf->nr + 1, sizeof(*start));
	if (!order || !start) {
		free(order);
		free(start);
		return d2b_error_oom(err);
	}
	for (i = 0; i < set->nr_cands; i++) {
		if (set->cands[i].elf_idx >= elf->nr) {
			free(order);
			free(start);
			return d2b_error_set(err, "function candidate names ELF symbol %u of %zu",
					     set->cands[i].elf_idx, elf->nr);
		}
		start[set->cands[i].elf_idx + 1]++;
	}
	for (i = 0; i < elf->nr; i++)
		start[i + 1] += start[i];
	for (i = 0; i < set->nr_cands; i++)
		order[start[set->cands[i].elf_idx]++] = &set->cands[i];
	free(start);

	for (i = 0; i < set->nr_cands; i = j) {
		struct btf_func_cand *first = order[i];
		const struct btf_elf_func *ef = &elf->funcs[first->elf_idx];
		unsigned flags = first->flags;
		const char *reason = NULL;

		for (j = i + 1; j < set->nr_cands && order[j]->elf_idx == first->elf_idx; j++) {
			unsigned both = flags | order[j]->flags;

			if (!(both & (BTF_FN_UNEXPECTED_REG | BTF_FN_INCONSISTENT | BTF_FN_REORDERED)) &&
			    !protos_match(sink, set, first, order[j], ef->name, log, log_ctx))
				both |= BTF_FN_INCONSISTENT;
			flags = both;
		}
		/* The last reason that applies wins, as upstream reports it. */
		if (flags & BTF_FN_UNEXPECTED_REG)
			reason = "unexpected register usage for parameter";
		if (f->consistent_func && (flags & BTF_FN_INCONSISTENT))
			reason = "inconsistent prototype";
		if (flags & BTF_FN_UNCERTAIN_LOC)
			reason = "uncertain parameter location";
		if (flags & BTF_FN_REORDERED)
			reason = "reordered parameters";
		if (ef->ambiguous_addr)
			reason = "ambiguous address";
		if (reason) {
			log_line(log, log_ctx, "%s : skipping BTF encoding of function due to %s",
			     ef->name, reason);
			res->skipped++;
			continue;
		}
		if (add_func(sink, set, first, ef, f, err)) {
			rc = -1;
			break;
		}
		res->encoded++;
	}
	free(order);
	return rc;
}
