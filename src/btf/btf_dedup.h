/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * btf/btf_dedup.h: BTF deduplication by libbpf 1.1's rules (btf__dedup()),
 * run on our merged records instead of a libbpf btf.
 *
 *   merged block (records, host order, ids 1..n; every string at one offset)
 *     ─► primitive types (INT, ENUM/ENUM64, FWD, FLOAT): first equal canonical
 *     ─► structs/unions: first candidate (same name, size, member names and
 *        offsets) whose type graph is equivalent, FWD == STRUCT/UNION of the
 *        same name; the hypothetical map merged as libbpf merges it
 *     ─► unambiguous FWDs to the one canonical struct/union of their name
 *     ─► reference types bottom up (PTR, TYPEDEF, ARRAY, FUNC_PROTO, ...)
 *     ─► compaction in id order, then every type id remapped
 *
 * The result is byte for byte libbpf's: where several canonical candidates
 * match (structs, enum forward declarations), libbpf takes the first in its
 * hash map bucket, an order that its map's growth reverses; the candidate
 * table replays that order (see struct cand_table in btf_dedup.c). Strings
 * are left as they are: the caller's table is already deduplicated, as
 * libbpf's is when a btf is built with btf__add_str() from empty.
 *
 * Split BTF: the base's types are canonical from the start (and first in
 * the candidate table, as libbpf's btf_dedup_prep() puts them); a base FWD
 * may be pointed at a split struct, but a split struct is never mapped
 * where that would need a base type changed (libbpf's hypot_adjust_canon).
 */
#ifndef D2B_BTF_BTF_DEDUP_H
#define D2B_BTF_BTF_DEDUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

/* Where the time went (wall seconds by phase) and how much graph was walked. */
struct btf_dedup_stats {
	double nodes_s, prim_s, struct_s, fwd_s, ref_s, compact_s;
	/* nodes, primitives and structs ran unit by unit (btf_dedup_incr_add),
	 * their times summed over the calls */
	bool incremental;
	const char *incr_abandoned;	/* else why they ran all at once, or NULL */
	uint64_t graph_checks;	/* is_equiv() calls */
	uint64_t graph_steps;	/* type pairs they compared */
};

struct btf_base_view;
struct btf_dedup_incr;

struct btf_dedup_types {
	uint32_t *words;	/* host order; rewritten */
	size_t first;		/* word of the first record */
	size_t len;		/* words of records from there */
	uint32_t nr_types;	/* ids start_id .. start_id + nr_types - 1 */
	const uint32_t *off;	/* NULL, or by id - start_id the word of its record
				 * (increasing: records in id order, apart) */
	/* NULL, or the base of split BTF (ids below start_id: btf_base.h) */
	const struct btf_base_view *base;
	struct btf_dedup_stats *stats;	/* NULL, or filled */
	struct btf_dedup_incr *incr;	/* NULL, or where the types so far went */
};

/*
 * Deduplicate T in place: afterwards words[first..first + len) hold the kept
 * records in their new id order (from start_id: 1, or the base's type
 * count), every type id remapped, and nr_types is their count (off is not
 * used any more). Returns 0, or -1 with err set (a
 * record of unknown kind, a type id past the last type, a loop of reference
 * types, no memory); T's records are then garbage.
 */
int btf_dedup(struct btf_dedup_types *t, struct d2b_error *err);

/*
 * Unit by unit: libbpf runs its primitive phase over every type before its
 * struct phase, but a unit's structs only reach types of that unit and
 * earlier ones, so the two phases can run on each unit's types as it is
 * merged (while later units are still being encoded), and btf_dedup() with
 * T->incr set does the rest. The result is the same bytes, provided that
 *
 *   - no struct has two canonical candidates with equivalent graphs, no
 *     enum declaration (vlen 0) two candidates, no enum both an equal and
 *     a declaration to take over: which candidate libbpf takes then
 *     depends on its hash map's order, which its growth sets, and the
 *     growth would come at other points (the Debian vmlinux has none);
 *   - no enum declaration is taken over again by a later unit's enum:
 *     all at once, every struct walk sees it as the last one;
 *   - there is no base (split BTF).
 *
 * When one does not hold, the state is dropped and btf_dedup() runs every
 * phase over all the types, as without it (the reason is in
 * stats->incr_abandoned); malformed records are reported by btf_dedup().
 * T holds every record so far (nr_types: all of them; the earlier ones as
 * they were); records are only read.
 */
struct btf_dedup_incr *btf_dedup_incr_new(void);
void btf_dedup_incr_add(struct btf_dedup_incr *di, const struct btf_dedup_types *t);
void btf_dedup_incr_free(struct btf_dedup_incr *di);

#endif
