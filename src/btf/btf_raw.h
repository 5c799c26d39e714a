/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * btf/btf_raw.h: BTF built as raw wire-format records in the workers and
 * appended in CU order by one consumer, instead of libbpf's btf__add_btf.
 *
 *   worker:   struct btf_raw (one CU)
 *               words: [btf_type + trailing data][...]...   ids 1..nr_types
 *                      string fields hold LOCAL REFS (entry index + 1 in
 *                      strs, 0 = ""), type fields hold local ids
 *               fix:   where those fields are, (word << 1) | is_string
 *               strs:  the CU's strings, each use its own entry (the
 *                      merge interns them), in use order, with hashes
 *   consumer: struct btf_merge
 *               strs:  [prefix | new strings...]   THE final string section
 *                      (prefix "\0"; split, the base BTF's strings are the
 *                      offsets below ours, read where libbpf keeps them:
 *                      strs is biased and holds only the new strings)
 *               blocks of types: [fragment 0][fragment 1]...
 *             btf_merge_add(): with prededup, each type whose key
 *               (btf_keys.h) an earlier one had is dropped, tmap[local id]
 *               = that one's id (a placeholder, which a worker wrote for a
 *               type it found merged, carries that id: no probe); the others are copied and get the next
 *               ids; their words fixed up: strings interned as first used
 *               (map[ref], hash from the worker), type ids through tmap
 *             a complete block of types goes into the libbpf btf, with
 *               exactly our strings so far (btf__add_str, in order)
 *               before it (see btf_merge_block); btf_merge_finish()
 *               flushes the last. With prededup there is one block: a
 *               type may refer to any earlier one
 *
 * Without prededup the result is byte for byte what appending every CU's
 * libbpf btf with btf__add_btf gives; with it, the same once deduplicated.
 * btf__add_btf interns a fragment's strings in the order its types
 * reference them (name, then members, enumerators, parameters), so
 * the builder interns in that order too (btf_raw_str() after the types, for
 * strings the caller interns itself), and a string already present in a
 * split BTF's base keeps its base offset. The builder's functions mirror
 * libbpf's btf__add_* (same records, same validation, same negative errno).
 */
#ifndef D2B_BTF_BTF_RAW_H
#define D2B_BTF_BTF_RAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "btf/btf_base.h"
#include "btf/btf_keys.h"
#include "btf/btf_strtab.h"
#include "util/error.h"

struct btf;

struct btf_raw {
	uint32_t *words;	/* the records, host byte order */
	size_t len, cap;	/* in words */
	size_t last;		/* word index of the last record */
	uint32_t nr_types;
	uint32_t *fix;		/* (word index << 1) | 1 for a string ref */
	size_t nr_fix, cap_fix;
	struct btf_strtab strs;	/* no prefix; local ref = entry index + 1 */
	struct btf_key *keys;	/* NULL, or by local id: see btf_keys.h */
	/* by local id below cap_final: the final id a placeholder stands
	 * for (btf_raw_add_placeholder), 0 for any other record */
	uint32_t *final_ids;
	size_t cap_final;
	/* By local id 1..nr_types: the word where each type's record starts
	 * and its first fix-up, as the builder wrote them; btf_raw_index()
	 * adds the ends (entry nr_types + 1) and sets indexed. The merge then
	 * skips a dropped type at once instead of walking its record. */
	uint32_t *type_off, *type_fix;
	size_t cap_types;
	uint32_t head_fix;	/* nr_fix when the record being written began */
	bool indexed;
	/* with placeholders, once indexed: the other local ids, in order
	 * (the merge then walks those, and takes the placeholders' final ids
	 * in one copy: three quarters of the kernel's fragments' types are
	 * placeholders) */
	uint32_t *kept_ids;
	uint32_t nr_kept_ids;
	/* NULL, or by local ref - 1: the final offset of each string that
	 * the merge had already (btf_merge_resolve_strs), BTF_RAW_STR_UNKNOWN
	 * for the others */
	uint32_t *final_strs;
	size_t nr_final_strs;	/* strs.nr when resolved: else not used */
};

#define BTF_RAW_STR_UNKNOWN UINT32_MAX

int btf_raw_init(struct btf_raw *r);	/* 0, or -1 when out of memory */
/* Room for TYPES types of WORDS record words, FIXES fix-ups, STRS string
 * uses of STR_BYTES bytes in all (an estimate: the buffers still grow past
 * it), so a fragment is not copied as it doubles from small. 0 or -1 (no
 * memory). */
int btf_raw_reserve(struct btf_raw *r, size_t types, size_t words, size_t fixes,
		    size_t strs, size_t str_bytes);
void btf_raw_deinit(struct btf_raw *r);

/* A placeholder for type FINAL_ID that the merge already has (its key in
 * R's keys, btf_merge_find_key() found it): a record of its own kind, which
 * the merge maps to that type and never copies. Returns its id, or a
 * negative errno. */
int btf_raw_add_placeholder(struct btf_raw *r, uint32_t final_id);
#define BTF_RAW_KIND_PLACEHOLDER 31u	/* no BTF kind: never leaves a fragment */

/* The builder is done with R: complete its type index (indexed). */
int btf_raw_index(struct btf_raw *r);

/* The local ref of S (0 for NULL or ""). Returns 0 or -ENOMEM. */
int btf_raw_str(struct btf_raw *r, const char *s, uint32_t *ref);

/* As libbpf's btf__add_*: the new type's local id, or a negative errno. */
int btf_raw_add_int(struct btf_raw *r, const char *name, size_t byte_sz, int encoding);
int btf_raw_add_float(struct btf_raw *r, const char *name, size_t byte_sz);
int btf_raw_add_ptr(struct btf_raw *r, int ref_type_id);
int btf_raw_add_const(struct btf_raw *r, int ref_type_id);
int btf_raw_add_volatile(struct btf_raw *r, int ref_type_id);
int btf_raw_add_restrict(struct btf_raw *r, int ref_type_id);
int btf_raw_add_typedef(struct btf_raw *r, const char *name, int ref_type_id);
int btf_raw_add_type_tag(struct btf_raw *r, const char *value, int ref_type_id);
int btf_raw_add_fwd(struct btf_raw *r, const char *name, int fwd_kind);	/* enum btf_fwd_kind */
int btf_raw_add_struct(struct btf_raw *r, const char *name, uint32_t byte_sz);
int btf_raw_add_union(struct btf_raw *r, const char *name, uint32_t byte_sz);
int btf_raw_add_field(struct btf_raw *r, const char *name, int type_id,
		      uint32_t bit_offset, uint32_t bit_size);		/* 0 or -errno */
int btf_raw_add_enum(struct btf_raw *r, const char *name, uint32_t byte_sz);
int btf_raw_add_enum_value(struct btf_raw *r, const char *name, int64_t value);
int btf_raw_add_enum64(struct btf_raw *r, const char *name, uint32_t byte_sz, bool is_signed);
int btf_raw_add_enum64_value(struct btf_raw *r, const char *name, uint64_t value);
int btf_raw_add_array(struct btf_raw *r, int index_type_id, int elem_type_id, uint32_t nr_elems);
int btf_raw_add_func_proto(struct btf_raw *r, int ret_type_id);
int btf_raw_add_func_param(struct btf_raw *r, const char *name, int type_id);
int btf_raw_add_var(struct btf_raw *r, const char *name, int linkage, int type_id);
int btf_raw_add_decl_tag(struct btf_raw *r, const char *value, int ref_type_id,
			 int component_idx);

#endif
