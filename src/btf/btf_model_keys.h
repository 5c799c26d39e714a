/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * btf/btf_model_keys.h: the structural keys of a unit's types computed from
 * its model, before anything is encoded, so that the encoder need not
 * build the records of types an earlier unit already gave.
 *
 * Three quarters of the types a kernel's units encode are repeats of an
 * earlier unit's (the headers they all include): 2.56 M of the Debian
 * vmlinux's 3.41 M. Keyed on their BTF records (btf_keys.h), each repeat is
 * decoded, encoded, keyed and then dropped by the merge. Keyed on the
 * model, a repeat whose key the merge already holds is not encoded at all:
 * the fragment holds a placeholder in its place (btf_raw_add_placeholder),
 * which the merge maps to the earlier type.
 *
 * The graph is the fragment's: node V is local id V, as the encoder gives
 * them (every encodable model type, then the TYPE_TAG chains under tagged
 * pointers, then the "int" for array indexes when the unit has none). A
 * node's own hash takes every model fact the encoder reads for its record,
 * and its edges are the local ids the record refers to, in record order, so
 * that two types with the same key encode to the same records (the keys
 * are finer than the records' keys at most: a fact the encoder drops, like
 * a member's full 64-bit offset, still tells two types apart). Names take
 * part by where they lie when that is a linked file's .debug_str, whose
 * strings the linker merged (the same name, the same place), else by their
 * content under the run's seed (names inline in .debug_info; every name of
 * a module, whose ld -r left each object's strings apart). Then the same component
 * algorithm as btf_keys.c gives each node its key (btf_keys_of_graph).
 *
 * With a census (in->cut, btf_cut_names.h), an edge to a named struct or
 * union the census allows is no edge: the own hash takes the name and the
 * kind instead, so a unit's copy of a type that reaches a FWD of the
 * struct and another's that reaches its definition get one key. Such keys
 * are coarser than the records' on purpose: two types with one key are
 * then equivalent as libbpf's dedup sees them (a FWD is its definition),
 * not always the same records, and the encoder checks the result
 * (btf_cut_names_check()). The graph has no edge into a named struct then,
 * so its components are small: the kernel's big ones (thousands of types
 * through the structs' pointers to each other) are gone.
 */
#ifndef D2B_BTF_BTF_MODEL_KEYS_H
#define D2B_BTF_BTF_MODEL_KEYS_H

#include <stdbool.h>
#include <stdint.h>

#include "btf/btf_cut_names.h"
#include "btf/btf_features.h"
#include "btf/btf_keys.h"
#include "load/model.h"

struct btf_model_keys_in {
	const struct cu_model *cu;
	const struct btf_features *f;
	const uint32_t *ids;	/* model index -> local id (0: none of its own) */
	const uint32_t *extra;	/* model index -> first TYPE_TAG id (0: none) */
	uint32_t nr_ids;	/* local ids so far: 1..nr_ids */
	uint32_t index_id;	/* the arrays' index type (0: no arrays) */
	bool index_added;	/* index_id is the encoder's own "int" */
	/* names in [str_lo, str_hi) (a linked file's .debug_str, whose
	 * strings the linker merged) by place; NULL: all by content */
	const char *str_lo, *str_hi;
	uint64_t seed;		/* for names by content */
	/* NULL: every edge is an edge (the exact keys); else the struct and
	 * union names an edge may be cut at (btf_cut_names.h) */
	const struct btf_cut_names *cut;
};

/* How the keys name string S (not NULL): where it lies in [str_lo,
 * str_hi) (odd), else its content's hash under the seed (even). The
 * census of btf_cut_names.h names the structs so. */
uint64_t btf_model_keys_name_id(const struct btf_model_keys_in *in, const char *s);

/* KEYS[1..nr_ids] (nr_ids + 2 entries, zeroed by the caller) from the
 * model. 0, or -1 when out of memory. */
int btf_model_keys(const struct btf_model_keys_in *in, struct btf_key *keys);

/* The key of a DECL_TAG whose owner has key OWNER (none: none), for the
 * tag VALUE on member COMPONENT (-1: the owner itself). */
struct btf_key btf_model_decl_tag_key(const struct btf_model_keys_in *in,
				      const struct btf_key *owner, const char *value,
				      int component);

#endif
