/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * btf/btf_encode.h: DWARF model -> BTF, encoded in the workers, merged in
 * CU order.
 *
 *   worker i:   load_cu ─► btf_encode_cu: each type's structural key from
 *               the model (btf_model_keys.h); a type whose key the merge
 *               holds already becomes a placeholder, the others records ─►
 *               fragment (raw BTF records with local ids 1..n and local
 *               strings, see btf_raw.h; their keys; the CU's function
 *               candidates and per-CU variable section entries); the
 *               cu_model is freed at once
 *   main:       fragments merged strictly in CU order (btf_merge_add: a
 *               type whose key an earlier type had is dropped and its id
 *               mapped there, 2.56 M of the Debian vmlinux's 3.41 M; the
 *               others appended, their strings interned in one table;
 *               candidates' ids and strings remapped through the same maps)
 *               ─► function selection (btf_funcs.h) ─► DATASECs
 *               ─► our dedup (btf_dedup.h: libbpf's rules and bytes;
 *               libbpf's btf__dedup for split BTF) ─► the caller writes
 *               btf__raw_data()
 *
 * The bytes are those that appending each CU's own libbpf btf with
 * btf__add_btf and deduplicating gives (the encoder's first design), only
 * faster: the dropped types are exact repeats, which libbpf's dedup would
 * have mapped to the first copy (tests compare with --no_prededup).
 *
 * Within a fragment every encodable model type gets one id, in model order
 * (types[i] before types[j] when i < j); types BTF has no kind for are
 * folded: _Atomic T is T, unspecified and unresolved types are void. The
 * extra types some model types need (the TYPE_TAG chain under a tagged
 * pointer, the inner levels of a multi-dimensional array, an "int" index type
 * when the CU has none) come after all of them, in model order. So the bytes
 * depend only on the input and the options, never on the thread count.
 */
#ifndef D2B_BTF_BTF_ENCODE_H
#define D2B_BTF_BTF_ENCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "btf/btf_cut_names.h"
#include "btf/btf_dedup.h"
#include "btf/btf_features.h"
#include "btf/btf_funcs.h"
#include "btf/btf_model_keys.h"
#include "btf/btf_merge.h"
#include "dwarf/dwarf.h"
#include "elf/elf_file.h"
#include "load/model.h"
#include "util/error.h"

struct btf;

struct btf_encode_options {
	struct btf_features features;
	unsigned threads;	/* 0/1: everything on the calling thread */
	/* At most one thread for each this many bytes of the units'
	 * .debug_info (rounded to the nearest), at least one: a thread
	 * costs its start and fresh memory for its allocations, more than
	 * it saves on a small file (BTF_ENCODE_THREAD_BYTES). 0: as many
	 * threads as asked. */
	size_t thread_bytes;
	/* At most this many units decoded and encoded but not merged yet; 0:
	 * 4 a thread. A unit cannot skip the types of the units in flight
	 * before it (the merge has not seen them), so a wider window encodes
	 * more repeats: for benchmarks (docs/performance.md, sixteen cores). */
	size_t window;
	bool verbose;		/* log skipped functions and variables */
	btf_log_fn log;		/* where verbose lines go (NULL: nowhere) */
	void *log_ctx;
	/* Keep every unit's copy of a type until libbpf's dedup, as pahole
	 * does, instead of dropping exact repeats in the merge (btf_keys.h).
	 * Same output, slower: for tests and benchmarks. */
	bool no_prededup;
	/* Deduplicate with libbpf's btf__dedup, as before our own
	 * (btf_dedup.h), which gives the same bytes: for tests and
	 * benchmarks. (--no_prededup goes through libbpf too.) */
	bool libbpf_dedup;
	/* Encode every type (no placeholders) and check that the model's
	 * keys are never coarser than the records' (btf_model_keys.h): two
	 * types with one model key must have one record key. For tests. */
	bool check_model_keys;
	/* Where the model's keys cut edges to named structs and unions
	 * (btf_cut_names.h): where the census allows (the default), at every
	 * name (tests of the check and the encoding again that follows a
	 * wrong prediction), or nowhere (the exact keys). Cuts are made only
	 * on our own dedup's path, without a base and without
	 * check_model_keys; elsewhere the keys are exact. */
	enum btf_cut_mode {
		BTF_CUT_CENSUS,
		BTF_CUT_ALL,
		BTF_CUT_NONE,
	} cut_names;
	/* pahole --kabi_prefix (load_options.kabi_prefix): names that begin
	 * with it become it; the keys are then exact (the census reads the
	 * DIEs' own names) */
	const char *kabi_prefix;
	/* pahole -J --fixup_silly_bitfields (load_options'): a bit-field as
	 * wide as its type is encoded as a plain member */
	bool fixup_silly_bitfields;
};

/* Whether an encoding with OPTS (HAS_BASE: split on a base) may cut its
 * keys (btf_cut_names.h): our dedup's path, pre-dedup on, no base, no
 * check_model_keys, cut_names not BTF_CUT_NONE. With BTF_CUT_CENSUS the
 * census then reads the line tables (not DW_FILE_NO_LINE). */
bool btf_encode_may_cut(const struct btf_encode_options *opts, bool has_base);

/* The command line's thread_bytes: two threads from 3 MiB of .debug_info
 * on, so all but 16 of the Debian cloud kernel's 1,121 modules are encoded
 * on one thread. Measured on the project's 2-core VM (docs/performance.md,
 * fourteenth session): -j2 against -j1 cost 3-7 ms a module up to 2.2 MB
 * (runs of 15-45 ms) and saved ~3 ms at 3.6 MB (nfs.ko), 2-4 ms at 4.8
 * MB, 14 ms at 8 MB. */
#define BTF_ENCODE_THREAD_BYTES (2048u * 1024)

struct btf_encode_stats {
	double parallel_s;	/* wall: decode + encode in workers (+ merge) */
	double worker_s;	/* thread CPU time of decode + encode, summed
				 * (the cut keys' census included) */
	double merge_s;		/* wall: fragments merged (btf_merge_add, which
				 * also hands full blocks to libbpf) + build_s */
	double build_s;		/* wall: the last block into libbpf (btf_merge_finish) */
	double funcs_s;		/* function selection */
	double datasec_s;
	double dedup_s;
	unsigned threads_started;
	size_t max_alive;	/* most fragments alive at once */
	size_t cus, cus_excluded;
	size_t types_before_dedup, types;
	bool own_dedup;		/* ours (btf_dedup.h), not libbpf's: */
	struct btf_dedup_stats dedup;	/* its phases */
	size_t types_dropped;	/* exact repeats dropped in the merge */
	size_t types_skipped;	/* ... of which never encoded (placeholders) */
	size_t strs, strs_resolved;	/* fragments' strings; those the workers resolved */
	size_t check_record_repeats;	/* check_model_keys: repeats by record keys */
	bool check_failed;	/* check_model_keys: a model key met two record keys */
	/* peak RSS so far (KiB) after the parallel phase, the merge into
	 * libbpf, and dedup: which phase sets the peak */
	long rss_parallel_kb, rss_merged_kb, rss_dedup_kb;
	size_t funcs_encoded, funcs_skipped, vars;
	/* The cut keys (btf_cut_names.h): whether the keys were cut, the
	 * census, and whether the check sent the encoding round again with
	 * exact keys (then one name it found defined twice; the other
	 * fields are those of the second round) */
	bool cut;
	struct btf_cut_names_stats census;
	bool cut_redone;
	char cut_redo_name[64];
};

struct btf_enc_section {
	const char *name;
	uint64_t addr, size;
	uint32_t type;
	bool include;		/* variables in it are encoded */
};

/* What every worker reads: built once, immutable while the workers run. */
struct btf_encode_ctx {
	const struct btf_features *features;
	struct elf_file *elf;
	struct btf_elf_funcs funcs;
	struct btf_cc cc;
	struct btf_enc_section *sections;
	size_t nr_sections;
	const struct elf_symbol *syms;
	long nr_syms;
	/* The STT_OBJECT symbols, as indexes into syms: by (value, index) and
	 * by (name, index), so a variable's symbol is a binary search, not a
	 * scan of the table (a module has ~10^4 symbols and ~10^3 variables) */
	uint32_t *obj_by_value, *obj_by_name;
	size_t nr_obj;
	/* Seed of the fragments' and the merge's string hashes, random per
	 * run: the pre-dedup's keys take those hashes, and an unseeded hash
	 * lets crafted DWARF make two different types share a key. Nothing
	 * in the output depends on it. */
	uint64_t str_seed;
	bool verbose;
	btf_log_fn log;
	void *log_ctx;
};

void btf_encode_ctx_deinit(struct btf_encode_ctx *ctx);

/* A variable's place in its section, for the DATASEC. */
struct btf_var_sec {
	uint32_t var_id;
	uint32_t shndx;
	uint32_t offset, size;
};

struct btf_fragment {
	struct btf_raw raw;		/* local ids from 1, local strings */
	struct btf_func_set funcs;	/* local ids, local string refs */
	struct btf_var_sec *vars;
	size_t nr_vars;
	double cpu_s;			/* time spent producing it */
	size_t strs_resolved;		/* its strings the worker resolved */
	uint64_t loc_hi;		/* its model's (model.h) */
	uint64_t nr_skipped;		/* placeholders (btf_model_keys.h) */
	bool excluded;			/* CU left out (--lang_exclude) */
	struct btf_key *record_keys;	/* check_model_keys: btf_keys_compute()'s */
};

/* What a unit's encoding learns from the others (btf_model_keys.h). */
struct btf_encode_seen {
	/* the merge so far: a type whose key it has becomes a placeholder
	 * (NULL: none does) */
	const struct btf_merge *merge;
	/* str_lo, str_hi, seed; the rest is the encoder's */
	struct btf_model_keys_in keys_in;
};

/* Encode one CU. Thread-safe for distinct CUs. With SEEN, the fragment has
 * the model's keys (raw.keys) and, with SEEN->merge, placeholders for the
 * types merged already. Returns NULL with err set. */
struct btf_fragment *btf_encode_cu(const struct btf_encode_ctx *ctx,
				   const struct cu_model *cu, const struct btf_encode_seen *seen,
				   struct d2b_error *err);
void btf_fragment_destroy(struct btf_fragment *frag);	/* accepts NULL */

/*
 * Encode every compile unit of DF (opened from EF): the deduplicated BTF,
 * split on BASE when BASE is not NULL. The caller frees it with btf__free().
 * stats may be NULL. Returns NULL with err set.
 */
struct btf *btf_encode_file(struct elf_file *ef, const struct dw_file *df,
			    const struct btf_encode_options *opts, struct btf *base,
			    struct btf_encode_stats *stats, struct d2b_error *err);

/*
 * The same split on BASE, a base's view (btf_base.h) that libbpf did not
 * parse, as `pahole -J --btf_base` runs: the result's raw bytes (what
 * btf__raw_data() of btf_encode_file()'s would be) in OUT, malloc'd
 * (OUT->data: the caller frees it). Only for our own dedup with prededup,
 * and an ELF in this machine's byte order: else an error (those go through
 * libbpf, which then needs its parse of the base). 0, or -1 with err set.
 */
struct btf_encoded_bytes {
	void *data;
	size_t size;
	uint32_t nr_types;	/* the base's included, as btf__type_cnt() - 1 */
};
struct btf_base_view;
int btf_encode_file_bytes(struct elf_file *ef, const struct dw_file *df,
			  const struct btf_encode_options *opts, const struct btf_base_view *base,
			  struct btf_encoded_bytes *out, struct btf_encode_stats *stats,
			  struct d2b_error *err);
/* Whether btf_encode_file_bytes() can encode with OPTS a file of EF's byte
 * order (else btf_encode_file() on libbpf's parse of the base). */
bool btf_encode_bytes_ok(const struct elf_file *ef, const struct btf_encode_options *opts);

/* The threads btf_encode_file() runs for DF with OPTS (-j, thread_bytes,
 * the size of the units it encodes), the calling thread included; and the
 * same for INFO_BYTES of units (at most one thread for each thread_bytes,
 * rounded to the nearest: a second from 1.5 thread_bytes). */
unsigned btf_encode_threads(const struct dw_file *df, const struct btf_encode_options *opts);
unsigned btf_encode_threads_for(const struct btf_encode_options *opts, uint64_t info_bytes);

#endif
