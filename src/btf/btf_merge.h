/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * btf/btf_merge.h: the consumer's side of btf_raw.h: fragments merged in
 * CU order into the final types and strings (the pipeline: btf_raw.h).
 */
#ifndef D2B_BTF_BTF_MERGE_H
#define D2B_BTF_BTF_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "btf/btf_base.h"
#include "btf/btf_keys.h"
#include "btf/btf_raw.h"
#include "btf/btf_strtab.h"
#include "util/error.h"

struct btf;

/*
 * The merged types are gathered in blocks: the first up to
 * BTF_MERGE_FIRST_BLOCK bytes, the others up to BTF_MERGE_BLOCK (a fragment
 * never straddles two; ids in a block count from 1). A complete block goes
 * into libbpf's btf at once, while the workers go on: the first as a whole
 * (cheap: one parse), the others through btf__add_btf() (dearer: it looks
 * every string reference up), our strings so far before each. So the
 * libbpf btf is built as the fragments come, and the peak memory is the
 * types plus a block, not twice the types.
 */
#define BTF_MERGE_FIRST_BLOCK (64u << 20)
#define BTF_MERGE_BLOCK (16u << 20)

struct btf_merge_follower;

struct btf_merge_block {
	uint32_t *words;	/* header room, then the types */
	size_t len, cap;	/* in words */
	/* NULL, or the follower whose lock a move of words takes */
	struct btf_merge_follower *follower;
	uint32_t first_id;	/* final id of its first type */
	uint32_t nr_types;
};

struct btf_merge_key_slot {	/* 16 bytes: 96 bits of the key suffice */
	uint64_t lo;
	uint32_t hi;		/* the low half of key.hi */
	uint32_t id;		/* final id; 0: empty */
};

/* The key table as workers see it (btf_merge_find_key): a table that grew
 * stays alive, readable, until btf_merge_deinit(). */
struct btf_merge_key_view {
	struct btf_merge_key_slot *slots;
	size_t cap;		/* any number of slots, at most 2^32 */
	struct btf_merge_key_view *older;	/* the tables before, to free */
};

/* Where key LO's probes start in a table of CAP slots: its top 32 bits
 * scaled to CAP (a multiply, not a mask: the table needs no power of two,
 * so it is sized for its load, not rounded up to twice that). */
static inline size_t btf_merge_key_home(uint64_t lo, size_t cap)
{
	return (size_t)(((lo >> 32) * (uint64_t)cap) >> 32);
}

struct btf_merge {
	/* not split when NULL; else its base's records and strings, and
	 * libbpf's parse of that base, if any (NULL: btf_merge_init_view(),
	 * which the paths through libbpf refuse) */
	const struct btf_base_view *bview;
	struct btf_base_view own_bview;	/* btf_merge_init()'s of BASE */
	struct btf *base;	/* not owned */
	uint32_t start_id;	/* id of the first type added (1, or base's count) */
	uint32_t nr_types;
	size_t prefix_len;	/* strings before ours: "\0" or base's */
	/* A base's strings, offsets 0 .. prefix_len: not copied into strs
	 * (biased: its offsets start after them), but libbpf's section, or
	 * base_str_buf when that is not one piece in our byte order or once
	 * libbpf may free it (flush(): a split btf to add strings to) */
	const char *base_str;
	char *base_str_buf;
	/* their index (btf_str_index, btf_strtab.h), built at the first string
	 * looked up as it comes (not where the lookups wait for the end:
	 * base_strs_resolved, btf_raw.c) */
	struct btf_str_index base_strs;
	bool base_strs_resolved;	/* the base's strings found among ours */
	struct btf_merge_block cur;	/* the block being filled */
	size_t nr_blocks;	/* blocks started */
	size_t first_block_words, block_words;	/* the sizes above (tests shrink them) */
	struct btf *btf;	/* the blocks so far (NULL until the first is full) */
	size_t strs_done;	/* strs up to this offset is in btf */
	struct btf_strtab strs;
	uint32_t *map;		/* local ref -> final string offset (last add) */
	size_t cap_map;
	uint32_t *tmap;		/* local id -> final id (last add) */
	size_t cap_tmap;
	bool slow;		/* every block the slow way, as newer libbpf needs (tests) */
	/* The block's type ids are final ones (our dedup reads it, split on
	 * a base too); else counted from its first type (libbpf parses it
	 * alone: btf__add_btf renumbers). The same without a base. */
	bool global_ids;
	/* Pre-dedup: a type whose key (btf_keys.h) an earlier type had is
	 * not added; its local id maps to that type. Everything then stays in
	 * one block (a reference may point anywhere before). */
	bool prededup;
	struct btf_merge_key_slot *kslots;
	size_t kcap, knr;
	bool keys_dropped;	/* btf_merge_drop_keys() */
	struct btf_merge_key_view *kview;	/* kslots, published to workers */
	uint64_t nr_dropped;	/* types not added so */
	/* with prededup: each type's word in cur, in id order (the direct
	 * adds' type_by_id) */
	uint32_t *tidx;
	size_t nr_tidx, cap_tidx;
	size_t last_direct;	/* word of the last type added directly, or 0 */
	/* NULL, or our dedup's first phases, run on each fragment's types
	 * as they are added (btf_merge_dedup_early()): in the follower's
	 * turns (cur.follower, btf_merge_follow()) */
	struct btf_dedup_incr *dedup_incr;
	uint32_t follow_batch;	/* types a turn waits for (tests lower it) */
	uint32_t follow_turns;	/* turns taken (under the follower's lock) */
	/* NULL, or the strings interned so far as the workers see them
	 * (btf_merge_publish_strs()) */
	struct btf_merge_str_view *sview;
};

/* Start an empty merge (split on BASE when not NULL). Returns 0 or -1.
 * The merge reads BASE's strings where libbpf keeps them: until
 * btf_merge_deinit() nothing else may change BASE or look strings up in
 * it (btf__find_str(), or btf__add_str() on a split BTF over it: libbpf
 * then frees the base's raw data). */
int btf_merge_init(struct btf_merge *m, struct btf *base, struct d2b_error *err);
/* The same split on BASE, a view (btf_base.h) without libbpf's parse: it
 * must outlive the merge. Only our own dedup's path takes it
 * (btf_merge_finish_dedup_bytes(); no flush into libbpf). */
int btf_merge_init_view(struct btf_merge *m, const struct btf_base_view *base,
			struct d2b_error *err);
void btf_merge_deinit(struct btf_merge *m);

/*
 * A hint, before the first btf_merge_add(): about NR_TYPES types will be
 * kept, so the key table is made big enough for them at once, at a load of
 * 0.7 (growing it rehashes every key, and the table it outgrew stays alive
 * for the workers: more memory touched than a table the right size). A
 * hint only: past a load of 0.85 the table grows by half. Returns 0, or -1
 * when out of memory.
 */
int btf_merge_expect_types(struct btf_merge *m, size_t nr_types);

/*
 * With prededup and final ids, no base, before the first btf_merge_add():
 * btf_merge_finish_dedup() will be our dedup, and its primitive and struct
 * phases run on the fragments' types as they are merged (see
 * btf_dedup_incr_add()) in the follower's turns: btf_merge_follow(),
 * called by any thread while the others encode the later units and merge
 * them. The follower reads only records merged before (a move of the
 * block takes its lock); btf_merge_finish_dedup() and btf_merge_deinit()
 * run what is left of it on the calling thread. Returns 0, or -1 when out
 * of memory (then the dedup runs after the merge, all at once).
 */
int btf_merge_dedup_early(struct btf_merge *m);

/*
 * The follower's turn: the dedup's first phases on the types merged since
 * the last turn, on the calling thread, beside btf_merge_add() on another
 * one, once enough wait (32 k types: a turn per unit ran cold). Returns at
 * once when fewer wait, when another thread has the turn (it looks for new
 * types once more before it gives the turn back) or there is no follower.
 */
void btf_merge_follow(struct btf_merge *m);

/*
 * Append R's types (and, when the current block is full, hand it to the
 * libbpf btf first). Afterwards, until the next call, m->tmap[i] is the
 * final id of R's local id i (i >= 1). R's strings are interned as its
 * added types use them, in that order (as btf__add_btf does); others by
 * btf_merge_str(). Returns 0 or -1.
 */
int btf_merge_add(struct btf_merge *m, const struct btf_raw *r, struct d2b_error *err);

/*
 * The final id of the type with key K that an earlier btf_merge_add()
 * merged (with prededup), or 0. Any thread may ask while the consumer adds: a slot is
 * published after its key is written, a table after it is filled, and a
 * table that grew stays readable until btf_merge_deinit(). So a worker
 * encoding unit k, while the consumer merges units before k, learns of
 * types that the merge will find when it comes to k (btf_model_keys.h).
 */
uint32_t btf_merge_find_key(const struct btf_merge *m, const struct btf_key *k);

/*
 * The key table as it is now (NULL: none yet), for a worker's many
 * lookups: btf_merge_view_find() on it is btf_merge_find_key() without
 * reading M again for each key. M's fields around kview are written by
 * the merge for every type (knr, nr_dropped): read for each of a unit's
 * thousands of keys, that cache line went back and forth between the
 * cores. A table that grows meanwhile stays readable, it only learns no
 * more keys: a few repeats are then encoded, which the merge drops.
 */
static inline const struct btf_merge_key_view *btf_merge_key_table(const struct btf_merge *m)
{
	return __atomic_load_n(&m->kview, __ATOMIC_ACQUIRE);
}

uint32_t btf_merge_view_find(const struct btf_merge_key_view *v, const struct btf_key *k);

/* Frees the tables the key table outgrew, which workers may still read:
 * call once no worker can (after the pool). */
void btf_merge_release_old_tables(struct btf_merge *m);

/* Frees the key table and those it outgrew, once no worker reads them and
 * no fragment with keys comes any more (after the pool: the dedup then
 * reuses the memory, 19 MiB for a vmlinux). btf_merge_add() of a fragment
 * with keys fails afterwards. */
void btf_merge_drop_keys(struct btf_merge *m);

/*
 * Strings beside the turn. With no base, before the first btf_merge_add():
 * the merge publishes each string it interns (about NR_STRS of them; once
 * the table is full it publishes no more) so that workers can resolve a
 * fragment's strings against those while other fragments are merged:
 * btf_merge_resolve_strs(), then btf_merge_add() takes their offsets
 * instead of probing its own table (the offsets are those it would find:
 * a string is interned once, and its offset never changes). 0, or -1 when
 * out of memory (then nothing is published; the merge is as without).
 */
int btf_merge_publish_strs(struct btf_merge *m, size_t nr_strs);

/*
 * Any thread, while btf_merge_add() runs on another: R's final_strs for
 * the strings M has published so far. Returns the number found, or -1
 * when out of memory (R unchanged).
 */
long btf_merge_resolve_strs(const struct btf_merge *m, struct btf_raw *r);

/* No worker resolves strings any more: the table goes (btf_merge_deinit()
 * also frees it). */
void btf_merge_drop_strs(struct btf_merge *m);

/* Hints that btf_merge_view_find(V, K) comes soon. */
static inline void btf_merge_view_prefetch(const struct btf_merge_key_view *v,
					   const struct btf_key *k)
{
	if (v)
		__builtin_prefetch(&v->slots[btf_merge_key_home(k->lo, v->cap)]);
}

/* The final offset of R's local string ref REF (R: the fragment of the
 * last btf_merge_add), interned now if no added type used it. Returns the
 * offset (0 for ref 0), or -1 with err set. */
long btf_merge_str(struct btf_merge *m, const struct btf_raw *r, uint32_t ref,
		   struct d2b_error *err);

/*
 * Types added after the last fragment, straight into the merge (the
 * functions: btf_funcs.h's sink), when everything is still one block and
 * not split on a base (prededup; btf_merge_direct_ok). They mirror libbpf's btf__add_func_proto,
 * _func_param, _func and _decl_tag (same records, same strings in the same
 * order, same negative errno), without its per-call string lookups.
 * type_by_id reads the base's types and the merged ones; str() any final
 * string offset (valid until the next string is added).
 */
bool btf_merge_direct_ok(const struct btf_merge *m);
const struct btf_type *btf_merge_type_by_id(const struct btf_merge *m, uint32_t id);
const char *btf_merge_str_at(const struct btf_merge *m, uint32_t off);
int btf_merge_add_func_proto(struct btf_merge *m, int ret_type_id);
int btf_merge_add_func_param(struct btf_merge *m, const char *name, int type_id);
/* The same with the name as an offset of the merge's strings (0: none):
 * -EINVAL for one past them */
int btf_merge_add_func_param_at(struct btf_merge *m, uint32_t name_off, int type_id);
int btf_merge_add_func(struct btf_merge *m, const char *name, int linkage, int proto_type_id);
int btf_merge_add_decl_tag(struct btf_merge *m, const char *value, int ref_type_id,
			   int component_idx);

/* The DATASEC records, directly too (as btf__add_datasec and
 * btf__add_datasec_var_info), and the count of types merged so far. */
int btf_merge_add_datasec(struct btf_merge *m, const char *name, uint32_t byte_sz);
int btf_merge_add_datasec_var_info(struct btf_merge *m, int var_type_id, uint32_t offset,
				   uint32_t byte_sz);
uint32_t btf_merge_nr_types(const struct btf_merge *m);

/* With everything one block (btf_merge_direct_ok): deduplicate the types
 * ourselves (btf_dedup.h) and return the result as a libbpf btf, split on
 * the base when there is one (the caller frees it); M is emptied either
 * way. NULL with err set. */
struct btf_dedup_stats;
struct btf *btf_merge_finish_dedup(struct btf_merge *m, struct btf_dedup_stats *stats,
				   struct d2b_error *err);
/* The same without libbpf: the result's raw bytes (header, records, its own
 * strings: what libbpf's btf__raw_data() of the btf above gives, in this
 * machine's byte order) malloc'd in *BYTES, *SIZE of them, and the count of
 * its own types in *NR_TYPES. 0, or -1 with err set. */
int btf_merge_finish_dedup_bytes(struct btf_merge *m, struct btf_dedup_stats *stats,
				 void **bytes, size_t *size, uint32_t *nr_types,
				 struct d2b_error *err);

/* The libbpf btf holding everything merged (the caller frees it); M is
 * emptied either way. Returns NULL with err set. */
struct btf *btf_merge_finish(struct btf_merge *m, struct d2b_error *err);

#endif
