// SPDX-License-Identifier: GPL-2.0-only
/*
 * The BTF encoder: one CU's model into a fragment (in a worker:
 * btf_encode_cu.c), fragments merged in CU order, then functions, DATASECs
 * and dedup. See btf_encode.h. This file holds the context (the ELF
 * symbols) and the whole file's run.
 */
#define _GNU_SOURCE		/* qsort_r */
#include "btf/btf_encode.h"

#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "btf/btf_hash.h"
#include "btf/btf_model_keys.h"
#include "btf/btf_model_view.h"
#include "dwarf/dw_const.h"
#include "load/load.h"
#include "pipeline/pool.h"
#include "util/name_sort.h"
#include "util/strbuf.h"

#define PERCPU_SECTION ".data..percpu"
#define KEPT_BYTES_EXACT 193	/* .debug_info bytes a type the merge keeps */
#define KEPT_BYTES_CUT 1000	/* the same with cut keys (vmlinux: 1,380) */
#define STRS_BESIDE_THREADS 4	/* from this -j on, strings beside the turn */

static double now_s(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- context ---- */

/* A seed no input can predict (getrandom; failing that, the clock and
 * the addresses of this run). */
static uint64_t random_seed(void)
{
	uint64_t seed = 0;
	struct timespec ts;

	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) == (ssize_t)sizeof(seed))
		return seed;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	seed = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^ (uint64_t)ts.tv_sec;
	return seed ^ (uint64_t)(uintptr_t)&seed ^ (uint64_t)getpid() << 32;
}

/* The name order of indexes into the symbol table; ties by index, so a
 * search finds the first match in table order, as a scan would. */
static int obj_name_cmp(const void *a, const void *b, void *arg)
{
	const struct elf_symbol *syms = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = strcmp(syms[x].name, syms[y].name);

	if (c)
		return c;
	return x < y ? -1 : x > y;
}

static const char *sym_name(void *ctx, uint32_t idx)
{
	const struct elf_symbol *syms = ctx;

	return syms[idx].name;
}

static void idx_of_ents(uint32_t *to, const struct name_sort_ent *e, size_t n)
{
	for (size_t i = 0; i < n; i++)
		to[i] = e[i].idx;
}

static int index_objects(struct btf_encode_ctx *ctx)
{
	struct name_sort_ent *e;
	size_t n = 0;

	for (long i = 0; i < ctx->nr_syms; i++)
		n += ctx->syms[i].type == STT_OBJECT;
	ctx->obj_by_value = malloc((n ? n : 1) * sizeof(*ctx->obj_by_value));
	ctx->obj_by_name = malloc((n ? n : 1) * sizeof(*ctx->obj_by_name));
	if (!ctx->obj_by_value || !ctx->obj_by_name)
		return -1;
	n = 0;
	for (long i = 0; i < ctx->nr_syms && i <= UINT32_MAX; i++)
		if (ctx->syms[i].type == STT_OBJECT)
			ctx->obj_by_value[n] = ctx->obj_by_name[n] = (uint32_t)i, n++;
	ctx->nr_obj = n;
	/* radix sorts (qsort() here took 9 ms of the serial start): by
	 * value, stably from table order (so ties by index); by name, ties
	 * by index */
	e = malloc((n ? n : 1) * sizeof(*e));
	if (!e)
		return -1;
	for (size_t i = 0; i < n; i++) {
		e[i].key = ctx->syms[ctx->obj_by_value[i]].value;
		e[i].idx = ctx->obj_by_value[i];
	}
	if (sort_by_u64(e, n)) {
		free(e);
		return -1;
	}
	idx_of_ents(ctx->obj_by_value, e, n);
	if (name_sort(e, n, sym_name, obj_name_cmp, (void *)ctx->syms)) {
		free(e);
		return -1;
	}
	idx_of_ents(ctx->obj_by_name, e, n);
	free(e);
	return 0;
}

/*
 * What the ELF symbols give the context (ARG): the symbols, the functions'
 * table, the objects' indexes. It writes no other field of the context and
 * reads only the file's symbol table and sections (libelf), which nothing
 * else reads meanwhile: it may run beside the census (encode_file()).
 * 0, or -1 with err set (the caller deinits the context).
 */
static int ctx_read_symbols(void *arg, struct d2b_error *err)
{
	struct btf_encode_ctx *ctx = arg;
	const struct btf_features *f = ctx->features;

	ctx->nr_syms = elf_file_symbols(ctx->elf, &ctx->syms, err);
	if (ctx->nr_syms < 0) {
		/* no symbol table: no functions, no variable checks */
		if (err)
			d2b_error_clear(err);
		ctx->nr_syms = 0;
		ctx->syms = NULL;
	} else if (btf_elf_funcs_init(&ctx->funcs, ctx->elf, f->decl_tag_kfuncs && f->decl_tag,
				      err)) {
		return -1;
	}
	if (index_objects(ctx))
		return d2b_error_oom(err);
	return 0;
}

/* The context but for what ctx_read_symbols() adds. */
static int ctx_init_early(struct btf_encode_ctx *ctx, struct elf_file *ef,
			  const struct btf_encode_options *opts, struct d2b_error *err)
{
	const struct btf_features *f = &opts->features;
	size_t n = elf_file_section_count(ef);

	memset(ctx, 0, sizeof(*ctx));
	ctx->features = f;
	ctx->elf = ef;
	ctx->verbose = opts->verbose;
	ctx->log = opts->log;
	ctx->log_ctx = opts->log_ctx;
	btf_cc_for_machine(elf_file_machine(ef), &ctx->cc);
	ctx->str_seed = random_seed();
	ctx->sections = calloc(n ? n : 1, sizeof(*ctx->sections));
	if (!ctx->sections)
		return d2b_error_oom(err);
	ctx->nr_sections = n;
	for (size_t i = 0; i < n; i++) {
		const struct elf_section *s = elf_file_section_at(ef, i);
		struct btf_enc_section *e = &ctx->sections[i];

		if (!s)
			continue;
		e->name = s->name;
		e->addr = s->addr;
		e->size = s->file_size;
		e->type = s->type;
		if (f->global_var)
			e->include = true;
		if (f->var && !strcmp(s->name, PERCPU_SECTION))
			e->include = true;
	}
	return 0;
}

void btf_encode_ctx_deinit(struct btf_encode_ctx *ctx)
{
	btf_elf_funcs_deinit(&ctx->funcs);
	free(ctx->obj_by_value);
	free(ctx->obj_by_name);
	ctx->obj_by_value = ctx->obj_by_name = NULL;
	free(ctx->sections);
	ctx->sections = NULL;
	ctx->nr_sections = 0;
}

/* ---- the whole file ---- */

/* ---- check_model_keys: the model's keys against the records' ----
 *
 * Every model key seen maps to the record key its first type had; a later
 * type with that model key and another record key means the model's keys
 * joined two types the records tell apart: an error. The record keys seen
 * are counted, for what the records' keys would have dropped. */

struct key_pair {
	struct btf_key model, record;
};

struct key_check {
	struct key_pair *pairs;		/* by model key; model {0,0}: empty */
	size_t mask, nr;
	struct btf_key *records;	/* a set */
	size_t rmask, rnr;
	size_t record_repeats;
};

static void key_check_free(struct key_check *c)
{
	if (!c)
		return;
	free(c->pairs);
	free(c->records);
	free(c);
}

static bool key_eq(const struct btf_key *a, const struct btf_key *b)
{
	return a->lo == b->lo && a->hi == b->hi;
}

/* Doubles a table of N entries of SIZE bytes (key at offset 0) when half
 * full. 0 or -1. */
static int check_grow(void **tab, size_t *mask, size_t nr, size_t size)
{
	size_t cap = *tab ? (*mask + 1) * 2 : 1024;
	char *nt, *old = *tab;

	if (*tab && nr * 2 < *mask + 1)
		return 0;
	nt = calloc(cap, size);
	if (!nt)
		return -1;
	for (size_t i = 0; old && i <= *mask; i++) {
		const struct btf_key *k = (const void *)(old + i * size);
		size_t j = k->lo & (cap - 1);

		if (key_none(k))
			continue;
		while (!key_none((const void *)(nt + j * size)))
			j = (j + 1) & (cap - 1);
		memcpy(nt + j * size, k, size);
	}
	free(old);
	*tab = nt;
	*mask = cap - 1;
	return 0;
}

static int key_check_add(struct key_check *c, const struct btf_key *model,
			 const struct btf_key *record, bool *coarser)
{
	size_t j;

	*coarser = false;
	if (key_none(record))
		return 0;
	if (check_grow((void **)&c->records, &c->rmask, c->rnr, sizeof(*c->records)))
		return -1;
	for (j = record->lo & c->rmask; !key_none(&c->records[j]); j = (j + 1) & c->rmask)
		if (key_eq(&c->records[j], record))
			break;
	if (key_none(&c->records[j])) {
		c->records[j] = *record;
		c->rnr++;
	} else {
		c->record_repeats++;
	}
	if (key_none(model))
		return 0;
	if (check_grow((void **)&c->pairs, &c->mask, c->nr, sizeof(*c->pairs)))
		return -1;
	for (j = model->lo & c->mask; !key_none(&c->pairs[j].model); j = (j + 1) & c->mask)
		if (key_eq(&c->pairs[j].model, model)) {
			*coarser = !key_eq(&c->pairs[j].record, record);
			return 0;
		}
	c->pairs[j].model = *model;
	c->pairs[j].record = *record;
	c->nr++;
	return 0;
}

struct file_enc {
	const struct btf_encode_ctx *ctx;
	const struct dw_file *df;
	const struct btf_encode_options *opts;
	struct load_options load;
	const size_t *units;
	struct btf_merge merge;		/* the fragments, in CU order */
	struct btf *btf;		/* then the global libbpf btf */
	struct btf_func_set funcs;
	struct btf_var_sec *vars;
	size_t nr_vars, cap_vars;
	struct btf_encode_stats *stats;
	struct btf_encode_seen seen;	/* for the workers: the merge so far */
	struct key_check *check;	/* check_model_keys */
	/* the consumed units' DWARF, read: its pages need not stay in our RSS */
	struct dw_release release;
	/* each pool thread's copy of the unit it loads (the model, which may
	 * point into it, is gone when produce() returns) */
	struct dw_unit_buf *unit_bufs;
};

static long peak_rss_kb(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) ? -1 : ru.ru_maxrss;
}

static int produce(void *arg, size_t item, unsigned thread, void **result,
		   struct d2b_error *err)
{
	struct file_enc *fe = arg;
	size_t unit = fe->units[item];
	double t0 = now_s(CLOCK_THREAD_CPUTIME_ID);
	struct btf_fragment *frag;
	struct cu_model *cu = load_cu(fe->df, unit, &fe->load, &fe->unit_bufs[thread], NULL, err);

	if (!cu)
		return d2b_error_at(err, fe->df->path, ".debug_info", fe->df->units[unit].offset,
				    "cannot load unit %zu", unit);
	if (btf_features_lang_excluded(&fe->opts->features, cu->language)) {
		frag = calloc(1, sizeof(*frag));
		if (frag)
			frag->excluded = true;
		else
			d2b_error_oom(err);
	} else {
		frag = btf_encode_cu(fe->ctx, cu, fe->merge.prededup ? &fe->seen : NULL, err);
	}
	if (frag)
		frag->loc_hi = cu->loc_hi;
	cu_model_destroy(cu);
	if (!frag)
		return -1;
	if (!frag->excluded && !fe->opts->no_prededup &&
	    (btf_raw_index(&frag->raw) ||
	     (fe->check && btf_keys_compute(&frag->raw, &frag->record_keys)))) {
		btf_fragment_destroy(frag);
		return d2b_error_oom(err);
	}
	/* its strings that earlier units' merges interned: their offsets
	 * now, beside the merge's turns, not in them */
	if (!frag->excluded && fe->merge.sview) {
		long found = btf_merge_resolve_strs(&fe->merge, &frag->raw);

		if (found < 0) {
			btf_fragment_destroy(frag);
			return d2b_error_oom(err);
		}
		frag->strs_resolved = (size_t)found;
	}
	frag->cpu_s = now_s(CLOCK_THREAD_CPUTIME_ID) - t0;
	*result = frag;
	return 0;
}

/* FROM's candidates, just merged (RAW their fragment): local ids and
 * string refs become final through M. */
static int merge_funcs(struct btf_func_set *to, const struct btf_func_set *from,
		       struct btf_merge *m, const struct btf_raw *raw, struct d2b_error *err)
{
	for (size_t i = 0; i < from->nr_cands; i++) {
		const struct btf_func_cand *fc = &from->cands[i];
		struct btf_func_cand *c = btf_func_set_add(to, fc->nr_params, fc->nr_annots);

		if (!c)
			return d2b_error_oom(err);
		c->elf_idx = fc->elf_idx;
		c->flags = fc->flags;
		c->ret = fc->ret ? m->tmap[fc->ret] : 0;
		for (uint32_t k = 0; k < fc->nr_params; k++) {
			const struct btf_func_param *fp = &from->params[fc->first_param + k];
			struct btf_func_param *p = &to->params[c->first_param + k];
			long off = btf_merge_str(m, raw, fp->name_off, err);

			if (off < 0)
				return -1;
			p->type = fp->type ? m->tmap[fp->type] : 0;
			p->name_off = (uint32_t)off;
		}
		for (uint32_t k = 0; k < fc->nr_annots; k++) {
			const struct btf_func_annot *fa = &from->annots[fc->first_annot + k];
			struct btf_func_annot *a = &to->annots[c->first_annot + k];
			long off = btf_merge_str(m, raw, fa->value_off, err);

			if (off < 0)
				return -1;
			a->component = fa->component;
			a->value_off = (uint32_t)off;
		}
	}
	return 0;
}

static int consume(void *arg, size_t item, void *result, struct d2b_error *err)
{
	struct file_enc *fe = arg;
	struct btf_fragment *frag = result;
	double t0 = now_s(CLOCK_MONOTONIC);
	int rc = 0;

	dw_release_consumed(&fe->release, &fe->df->units[fe->units[item]], frag->loc_hi);
	fe->stats->worker_s += frag->cpu_s;
	fe->stats->cus++;
	if (frag->excluded) {
		fe->stats->cus_excluded++;
		goto out;
	}
	if (fe->check && frag->raw.keys && frag->record_keys) {
		for (uint32_t id = 1; id <= frag->raw.nr_types; id++) {
			bool coarser;

			if (key_check_add(fe->check, &frag->raw.keys[id], &frag->record_keys[id],
					  &coarser)) {
				rc = d2b_error_oom(err);
				goto out;
			}
			if (coarser) {
				fe->stats->check_failed = true;
				rc = d2b_error_set(err, "%s: unit %zu: type %u has the model key of "
						   "an earlier type but another record key",
						   fe->df->path, fe->units[item], id);
				goto out;
			}
		}
	}
	fe->stats->types_skipped += frag->nr_skipped;
	fe->stats->strs += frag->raw.strs.nr;
	fe->stats->strs_resolved += frag->strs_resolved;
	if (btf_merge_add(&fe->merge, &frag->raw, err)) {
		rc = d2b_error_set(err, "%s: cannot merge the BTF of unit %zu",
				   fe->df->path, fe->units[item]);
		goto out;
	}
	if (merge_funcs(&fe->funcs, &frag->funcs, &fe->merge, &frag->raw, err)) {
		rc = -1;
		goto out;
	}
	if (frag->nr_vars) {
		size_t want = fe->nr_vars + frag->nr_vars;

		if (want > fe->cap_vars) {
			size_t ncap = fe->cap_vars ? fe->cap_vars : 64;
			void *p;

			while (ncap < want)
				ncap *= 2;
			p = realloc(fe->vars, ncap * sizeof(*fe->vars));
			if (!p) {
				rc = d2b_error_oom(err);
				goto out;
			}
			fe->vars = p;
			fe->cap_vars = ncap;
		}
		for (size_t i = 0; i < frag->nr_vars; i++) {
			fe->vars[fe->nr_vars] = frag->vars[i];
			fe->vars[fe->nr_vars].var_id = fe->merge.tmap[frag->vars[i].var_id];
			fe->nr_vars++;
		}
	}
out:
	btf_fragment_destroy(frag);
	fe->stats->merge_s += now_s(CLOCK_MONOTONIC) - t0;
	return rc;
}

static void unit_bufs_free(struct file_enc *fe, unsigned threads)
{
	for (unsigned i = 0; fe->unit_bufs && i < threads; i++)
		dw_unit_buf_free(&fe->unit_bufs[i]);
	free(fe->unit_bufs);
	fe->unit_bufs = NULL;
}

static void discard(void *arg, void *result)
{
	btf_fragment_destroy(result);
}

/* After a thread's merging: the dedup's first phases on what it merged,
 * while the next unit is merged on another thread. */
static int follow(void *arg, struct d2b_error *err)
{
	struct file_enc *fe = arg;

	(void)err;
	btf_merge_follow(&fe->merge);
	return 0;
}

static int var_sec_cmp(const void *x, const void *y)
{
	const struct btf_var_sec *a = x, *b = y;

	if (a->shndx != b->shndx)
		return a->shndx < b->shndx ? -1 : 1;
	if (a->offset != b->offset)
		return a->offset < b->offset ? -1 : 1;
	/* stable: merge order */
	return a < b ? -1 : a > b;
}

/* The DATASECs of the variables: into the merge (DIRECT) or fe->btf. */
static int add_datasecs(struct file_enc *fe, bool direct, struct d2b_error *err)
{
	size_t i = 0, j;

	if (fe->nr_vars)	/* vars may be NULL: qsort(NULL, 0) is UB */
		qsort(fe->vars, fe->nr_vars, sizeof(*fe->vars), var_sec_cmp);
	for (; i < fe->nr_vars; i = j) {
		const struct btf_var_sec *last;
		int id;

		for (j = i; j < fe->nr_vars && fe->vars[j].shndx == fe->vars[i].shndx; j++)
			;
		last = &fe->vars[j - 1];
		id = direct ? btf_merge_add_datasec(&fe->merge,
						    fe->ctx->sections[fe->vars[i].shndx].name,
						    last->offset + last->size)
			    : btf__add_datasec(fe->btf, fe->ctx->sections[fe->vars[i].shndx].name,
					       last->offset + last->size);
		if (id < 0)
			return d2b_error_set(err, "cannot add DATASEC %s (libbpf error %d)",
					     fe->ctx->sections[fe->vars[i].shndx].name, id);
		for (size_t k = i; k < j; k++) {
			const struct btf_var_sec *v = &fe->vars[k];
			int rc = direct ? btf_merge_add_datasec_var_info(&fe->merge, v->var_id,
									 v->offset, v->size)
					: btf__add_datasec_var_info(fe->btf, v->var_id, v->offset,
								    v->size);

			if (rc < 0)
				return d2b_error_set(err, "cannot add variable to DATASEC %s (libbpf error %d)",
						     fe->ctx->sections[v->shndx].name, rc);
		}
	}
	return 0;
}

static bool unit_wanted(const struct dw_unit *u)
{
	return u->section == DW_SEC_INFO && u->unit_type != DW_UT_type &&
	       u->unit_type != DW_UT_split_type;
}

/* ---- the functions, into the merge or into libbpf ---- */

static const struct btf_type *merge_type_by_id(void *ctx, uint32_t id)
{
	return btf_merge_type_by_id(ctx, id);
}

static const char *merge_str(void *ctx, uint32_t off)
{
	return btf_merge_str_at(ctx, off);
}

static int merge_add_func_proto(void *ctx, int ret)
{
	return btf_merge_add_func_proto(ctx, ret);
}

static int merge_add_func_param(void *ctx, const char *name, int type)
{
	return btf_merge_add_func_param(ctx, name, type);
}

static int merge_add_func_param_at(void *ctx, uint32_t name_off, int type)
{
	return btf_merge_add_func_param_at(ctx, name_off, type);
}

static int merge_add_func(void *ctx, const char *name, int linkage, int proto)
{
	return btf_merge_add_func(ctx, name, linkage, proto);
}

static int merge_add_decl_tag(void *ctx, const char *value, int ref, int component)
{
	return btf_merge_add_decl_tag(ctx, value, ref, component);
}

/* Choose and add the functions: into the merge (DIRECT) or fe->btf. */
static int emit_functions(struct file_enc *fe, const struct btf_encode_ctx *ctx, bool direct,
			  struct btf_funcs_result *fr, struct btf_encode_stats *stats,
			  struct d2b_error *err)
{
	const struct btf_encode_options *opts = fe->opts;
	struct btf_funcs_sink sink;
	double t0 = now_s(CLOCK_MONOTONIC);

	if (direct)
		sink = (struct btf_funcs_sink){
			.ctx = &fe->merge, .type_by_id = merge_type_by_id, .str = merge_str,
			.add_func_proto = merge_add_func_proto,
			.add_func_param = merge_add_func_param,
			.add_func_param_at = merge_add_func_param_at,
			.add_func = merge_add_func, .add_decl_tag = merge_add_decl_tag,
		};
	else
		btf_funcs_libbpf_sink(&sink, fe->btf);
	if (btf_funcs_emit(&sink, &fe->funcs, &ctx->funcs, &opts->features,
			   opts->verbose ? opts->log : NULL, opts->log_ctx, fr, err))
		return -1;
	stats->funcs_encoded = fr->encoded;
	stats->funcs_skipped = fr->skipped;
	stats->funcs_s = now_s(CLOCK_MONOTONIC) - t0;
	return 0;
}

unsigned btf_encode_threads_for(const struct btf_encode_options *opts, uint64_t info_bytes)
{
	unsigned threads = opts->threads ? opts->threads : 1;
	uint64_t fit;

	if (!opts->thread_bytes)
		return threads;
	fit = (info_bytes + opts->thread_bytes / 2) / opts->thread_bytes;
	if (fit < threads)
		threads = fit ? (unsigned)fit : 1;
	return threads;
}

unsigned btf_encode_threads(const struct dw_file *df, const struct btf_encode_options *opts)
{
	uint64_t info_bytes = 0;

	for (size_t i = 0; i < df->nr_units; i++)
		if (unit_wanted(&df->units[i]))
			info_bytes += df->units[i].end - df->units[i].offset;
	return btf_encode_threads_for(opts, info_bytes);
}

bool btf_encode_bytes_ok(const struct elf_file *ef, const struct btf_encode_options *opts)
{
	/* the bytes are this machine's order; no libbpf call on the way */
	return !opts->no_prededup && !opts->libbpf_dedup &&
	       elf_file_is_little_endian(ef) == (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__);
}

/* btf_encode_file() (OUT not NULL: the result as libbpf's) or
 * btf_encode_file_bytes() (BYTES not NULL: without libbpf, on VIEW). */
static int encode_file(struct elf_file *ef, const struct dw_file *df,
		       const struct btf_encode_options *opts, struct btf *base,
		       const struct btf_base_view *view, struct btf **out,
		       struct btf_encoded_bytes *bytes, struct btf_encode_stats *stats,
		       struct d2b_error *err)
{
	static const struct pool_ops ops = {
		.produce = produce, .consume = consume, .discard = discard,
		.follow = follow,
	};
	struct btf_encode_stats local_stats;
	struct btf_encode_ctx ctx;
	struct file_enc fe = { .df = df, .opts = opts };
	struct pool_stats ps = { 0 };
	struct btf_funcs_result fr;
	struct d2b_error dedup_err = { 0 };
	size_t *units = NULL, nr = 0;
	uint64_t info_bytes = 0;
	struct btf_cut_names *cut = NULL;
	struct pool_beside symbols = { 0 };
	double t0;
	unsigned threads = 0;
	bool direct;
	int rc, redo = 0;

	if (!stats)
		stats = &local_stats;
	memset(stats, 0, sizeof(*stats));
	fe.stats = stats;
	if (btf_features_check(&opts->features, base || view, err))
		return -1;
	if (bytes && !btf_encode_bytes_ok(ef, opts))
		return d2b_error_set(err, "%s: this encoding goes through libbpf: its base must be parsed by libbpf",
				     elf_file_path(ef));
	if (ctx_init_early(&ctx, ef, opts, err)) {
		btf_encode_ctx_deinit(&ctx);
		return -1;
	}
	fe.ctx = &ctx;
	dw_release_init(&fe.release, df);
	fe.load.skip_line_files = true;
	fe.load.skip_plain_blocks = true;
	fe.load.kabi_prefix = opts->kabi_prefix;
	fe.load.fixup_silly_bitfields = opts->fixup_silly_bitfields;
	units = malloc((df->nr_units ? df->nr_units : 1) * sizeof(*units));
	if (!units) {
		d2b_error_oom(err);
		goto fail;
	}
	for (size_t i = 0; i < df->nr_units; i++) {
		if (unit_wanted(&df->units[i])) {
			units[nr++] = i;
			info_bytes += df->units[i].end - df->units[i].offset;
		}
	}
	fe.units = units;
	threads = btf_encode_threads_for(opts, info_bytes);
	/* the ELF symbols (functions, objects), which the workers need, on a
	 * thread of their own until the pool starts: beside the census, on
	 * a core the start-up left idle. Serial, they took 13-39 ms of the
	 * vmlinux's start (2.9 MB of symbols, ~10 MB of fresh memory) */
	pool_beside_start(&symbols, threads > 1, ctx_read_symbols, &ctx);
	if (!symbols.running && pool_beside_join(&symbols, err))
		goto fail;	/* it ran inline: no census for a file it refused */
	if (view ? btf_merge_init_view(&fe.merge, view, err) : btf_merge_init(&fe.merge, base, err))
		goto fail;
	fe.merge.strs.seed = ctx.str_seed;	/* as the fragments' */
	fe.merge.prededup = !opts->no_prededup;
	/* our dedup reads final ids (libbpf's renumbers a block) */
	fe.merge.global_ids = fe.merge.prededup && !opts->libbpf_dedup;
	/* the workers skip what the merge has (btf_model_keys.h). Names by
	 * their place in .debug_str when the linker merged its strings (a
	 * linked file: one place a string); a relocatable file's (a module,
	 * ld -r: nfs.ko has 137 k strings, 13 k distinct) by content */
	if (elf_file_type(ef) != ET_REL && df->sec[DW_SEC_STR].data) {
		fe.seen.keys_in.str_lo = (const char *)df->sec[DW_SEC_STR].data;
		fe.seen.keys_in.str_hi = fe.seen.keys_in.str_lo + df->sec[DW_SEC_STR].size;
	}
	fe.seen.keys_in.seed = ctx.str_seed;
	fe.seen.merge = opts->check_model_keys ? NULL : &fe.merge;
	if (opts->check_model_keys && fe.merge.prededup) {
		fe.check = calloc(1, sizeof(*fe.check));
		if (!fe.check) {
			d2b_error_oom(err);
			goto fail;
		}
	}
	/* each thread's buffer for the unit it reads: the census's, then the
	 * workers' (its pages already there) */
	fe.unit_bufs = calloc(threads, sizeof(*fe.unit_bufs));
	if (!fe.unit_bufs) {
		d2b_error_oom(err);
		goto fail;
	}
	/* the cut keys (btf_cut_names.h): on our dedup's path only, which
	 * checks the result */
	if (btf_encode_may_cut(opts, base || view || bytes)) {
		if (opts->cut_names == BTF_CUT_ALL)
			cut = btf_cut_names_everywhere();
		else if (btf_cut_names_census(df, &fe.seen.keys_in, threads, fe.unit_bufs, &cut,
					      &stats->census, err))
			goto fail;
		if (opts->cut_names == BTF_CUT_ALL && !cut) {
			d2b_error_oom(err);
			goto fail;
		}
		fe.seen.keys_in.cut = cut;
		stats->cut = cut != NULL;
		/* a read of the DWARF: decoding's CPU */
		stats->worker_s += stats->census.cpu_s;
		/* the line tables were read for the census alone (their
		 * file names): their pages need not stay in our RSS (the
		 * vmlinux's 16 MB of them) */
		dw_release_below(&fe.release, DW_SEC_LINE, df->sec[DW_SEC_LINE].size);
	}
	/* the key table, sized once for the types the merge will keep: about
	 * one per 193 bytes of a vmlinux's .debug_info with exact keys (845 k
	 * of 163 MB), one per 1,380 with cut keys (118 k), for which one per
	 * 1,000 leaves room (a module keeps more a byte, but its table is
	 * small anyway, and it grows if need be). A table sized for exact
	 * keys was 19 MiB of fresh pages to clear, which the cut keys fill to
	 * a seventh; probed at random by every worker */
	if (fe.merge.prededup &&
	    btf_merge_expect_types(&fe.merge, info_bytes / (cut ? KEPT_BYTES_CUT : KEPT_BYTES_EXACT))) {
		d2b_error_oom(err);
		goto fail;
	}
	/* with threads, our dedup's first phases unit by unit in the
	 * follower's turns (follow()), beside the encoding and the merging of
	 * the later units (they were 0.15 of the 0.2 s that the dedup after
	 * the pool took); not with libbpf's, which runs after the merge, all
	 * of it */
	if (threads > 1 && !opts->libbpf_dedup)
		(void)btf_merge_dedup_early(&fe.merge);
	/* with enough threads for the ordered turns to bound the run, the
	 * workers resolve their fragments' strings against those merged so
	 * far (the merge's interning was a third of its turns' instructions);
	 * ~1 string for 1,700 bytes of the kernel's .debug_info. Not below
	 * STRS_BESIDE_THREADS: with two or three every core is busy anyway,
	 * and the lookups cost the workers more than they save the turns
	 * (-j2 on two cores: worker CPU +5%, wall +3%, turns -39%). Best
	 * effort: without it the merge interns them all. */
	if (threads >= STRS_BESIDE_THREADS && !opts->no_prededup)
		(void)btf_merge_publish_strs(&fe.merge, info_bytes / 1700);

	if (pool_beside_join(&symbols, err))
		goto fail;
	t0 = now_s(CLOCK_MONOTONIC);
	/* a window of 4 fragments a worker (the pool's default is 2 items a
	 * thread): a long unit then stalls the others less while the merge
	 * waits for it in order (vmlinux -j2: pool 0.81 -> 0.77 s; 8, 16 or
	 * 32 slots alike; fragments are small, the units' models are freed
	 * by the workers: peak RSS +1 MiB) */
	rc = pool_run(nr, threads, opts->window ? opts->window : 4 * (size_t)threads,
		      &ops, &fe, &ps, err);
	unit_bufs_free(&fe, threads);
	/* no worker reads the key table now and every fragment is merged:
	 * it goes, and the dedup reuses its memory */
	btf_merge_drop_keys(&fe.merge);
	btf_merge_drop_strs(&fe.merge);
	stats->parallel_s = now_s(CLOCK_MONOTONIC) - t0;
	stats->rss_parallel_kb = peak_rss_kb();
	stats->threads_started = ps.threads_started;
	stats->max_alive = ps.max_alive;
	if (rc)
		goto fail;
	/* The DWARF has been read: its pages need not count in the peak RSS
	 * of merge and dedup (symbols are re-read from the file if touched). */
	elf_file_release_pages(ef);

	/* With everything still one block, the functions go straight into
	 * the merge (no libbpf call per record); else into the libbpf btf. */
	direct = btf_merge_direct_ok(&fe.merge);
	if (direct && emit_functions(&fe, &ctx, true, &fr, stats, err))
		goto fail;
	stats->types_dropped = fe.merge.nr_dropped;
	if (fe.check)
		stats->check_record_repeats = fe.check->record_repeats;
	key_check_free(fe.check);
	fe.check = NULL;
	stats->vars = fe.nr_vars;

	if (direct && !opts->libbpf_dedup) {
		/* the DATASECs too, then our own dedup: libbpf only parses
		 * the result */
		t0 = now_s(CLOCK_MONOTONIC);
		if (add_datasecs(&fe, true, err))
			goto fail;
		stats->datasec_s = now_s(CLOCK_MONOTONIC) - t0;
		stats->types_before_dedup = btf_merge_nr_types(&fe.merge) +
					    (fe.merge.bview ? fe.merge.bview->nr_types : 0);
		stats->own_dedup = true;
		stats->rss_merged_kb = peak_rss_kb();
		t0 = now_s(CLOCK_MONOTONIC);
		if (bytes) {
			uint32_t own = 0;

			rc = btf_merge_finish_dedup_bytes(&fe.merge, &stats->dedup, &bytes->data,
							  &bytes->size, &own, &dedup_err);
			if (!rc)
				bytes->nr_types = own + (view ? view->nr_types : 0);
		} else {
			fe.btf = btf_merge_finish_dedup(&fe.merge, &stats->dedup, &dedup_err);
			rc = fe.btf ? 0 : -1;
		}
		if (rc) {
			d2b_error_set(err, "%s: %s", elf_file_path(ef), dedup_err.msg);
			goto fail;
		}
		if (cut) {
			const char *twice = NULL;
			uint32_t size = 0;
			const void *raw = btf__raw_data(fe.btf, &size);

			rc = raw ? btf_cut_names_check(cut, raw, size, &twice) : -1;
			if (rc < 0) {
				d2b_error_set(err, "%s: cannot check the BTF the cut keys gave",
					      elf_file_path(ef));
				goto fail;
			}
			if (rc) {
				/* a name defined twice that the keys may have
				 * cut: the encoding again, exact */
				snprintf(stats->cut_redo_name, sizeof(stats->cut_redo_name), "%s",
					 twice);
				redo = 1;
				goto fail;
			}
		}
	} else if (bytes) {
		d2b_error_set(err, "%s: the encoding went through libbpf: its base must be parsed by libbpf",
			      elf_file_path(ef));
		goto fail;
	} else {
		/* the merged fragments become one libbpf btf */
		t0 = now_s(CLOCK_MONOTONIC);
		fe.btf = btf_merge_finish(&fe.merge, err);
		if (!fe.btf)
			goto fail;
		stats->build_s = now_s(CLOCK_MONOTONIC) - t0;
		stats->merge_s += stats->build_s;
		stats->rss_merged_kb = peak_rss_kb();

		if (!direct && emit_functions(&fe, &ctx, false, &fr, stats, err))
			goto fail;

		t0 = now_s(CLOCK_MONOTONIC);
		if (add_datasecs(&fe, false, err))
			goto fail;
		stats->datasec_s = now_s(CLOCK_MONOTONIC) - t0;

		stats->types_before_dedup = btf__type_cnt(fe.btf) - 1;

		t0 = now_s(CLOCK_MONOTONIC);
		if (btf__type_cnt(fe.btf) > 1) {
			rc = btf__dedup(fe.btf, NULL);
			if (rc) {
				d2b_error_set(err, "%s: btf__dedup failed: %s", elf_file_path(ef),
					      rc == -ELOOP ? "the types refer to each other in a loop"
							   : strerror(-rc));
				goto fail;
			}
		}
	}
	stats->dedup_s = now_s(CLOCK_MONOTONIC) - t0;
	stats->rss_dedup_kb = peak_rss_kb();
	if (bytes) {
		/* (in this machine's byte order, the ELF's: checked above) */
		stats->types = bytes->nr_types;
	} else {
		stats->types = btf__type_cnt(fe.btf) - 1;
		if (!elf_file_is_little_endian(ef))
			btf__set_endianness(fe.btf, BTF_BIG_ENDIAN);
		else
			btf__set_endianness(fe.btf, BTF_LITTLE_ENDIAN);
		*out = fe.btf;
	}

	btf_func_set_deinit(&fe.funcs);
	free(fe.vars);
	free(units);
	btf_cut_names_free(cut);
	btf_encode_ctx_deinit(&ctx);
	return 0;
fail:
	(void)pool_beside_join(&symbols, NULL);	/* it writes ctx */
	unit_bufs_free(&fe, threads);
	key_check_free(fe.check);
	btf__free(fe.btf);
	btf_merge_deinit(&fe.merge);
	btf_func_set_deinit(&fe.funcs);
	free(fe.vars);
	free(units);
	btf_cut_names_free(cut);
	btf_encode_ctx_deinit(&ctx);
	return redo ? 1 : -1;
}

bool btf_encode_may_cut(const struct btf_encode_options *opts, bool has_base)
{
	return !opts->no_prededup && !opts->libbpf_dedup && !opts->check_model_keys &&
	       !has_base && opts->cut_names != BTF_CUT_NONE && !opts->kabi_prefix;
}

/* The verbose lines of an encoding that may be done again: kept until it
 * stands, each with its NUL. */
static void capture_line(void *ctx, const char *line)
{
	strbuf_add(ctx, line, strlen(line) + 1);
}

struct btf *btf_encode_file(struct elf_file *ef, const struct dw_file *df,
			    const struct btf_encode_options *opts, struct btf *base,
			    struct btf_encode_stats *stats, struct d2b_error *err)
{
	struct btf_encode_options o = *opts;
	struct btf_encode_stats local_stats, first;
	struct strbuf lines = STRBUF_INIT;
	struct btf *btf = NULL;
	int rc;

	if (!stats)
		stats = &local_stats;
	/* with cut keys, the check may send the encoding round again: its
	 * verbose lines wait until the round that stands */
	if (btf_encode_may_cut(opts, base != NULL) && o.verbose && o.log) {
		o.log = capture_line;
		o.log_ctx = &lines;
	}
	rc = encode_file(ef, df, &o, base, NULL, &btf, NULL, stats, err);
	if (rc == 1) {
		first = *stats;
		o = *opts;
		o.cut_names = BTF_CUT_NONE;
		strbuf_free(&lines);
		rc = encode_file(ef, df, &o, base, NULL, &btf, NULL, stats, err);
		stats->census = first.census;
		stats->cut_redone = true;
		memcpy(stats->cut_redo_name, first.cut_redo_name, sizeof(stats->cut_redo_name));
	} else if (!rc && lines.len && !lines.oom) {
		for (size_t at = 0; at < lines.len; at += strlen(lines.buf + at) + 1)
			opts->log(opts->log_ctx, lines.buf + at);
	}
	strbuf_free(&lines);
	return rc ? NULL : btf;
}

int btf_encode_file_bytes(struct elf_file *ef, const struct dw_file *df,
			  const struct btf_encode_options *opts, const struct btf_base_view *base,
			  struct btf_encoded_bytes *out, struct btf_encode_stats *stats,
			  struct d2b_error *err)
{
	memset(out, 0, sizeof(*out));
	if (!base)
		return d2b_error_set(err, "%s: no base to encode on", elf_file_path(ef));
	return encode_file(ef, df, opts, NULL, base, NULL, out, stats, err);
}
