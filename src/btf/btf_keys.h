/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * btf/btf_keys.h: structural keys of a fragment's types, so that the merge
 * can drop a type that an earlier unit already gave, before libbpf's dedup.
 *
 * Each unit of a kernel repeats the types of the headers it includes: the
 * Debian vmlinux gives 3.4 M types before dedup for 95 k after. A type's key
 * is a 128-bit hash of everything reachable from it: its record (strings by
 * a 64-bit hash of their content, not by their local refs) and, recursively,
 * the keys of the types it refers to; the merge compares 96 bits of it. Two
 * types with the same key are identical graphs but for a hash collision: of
 * two strings in the same place of otherwise identical records (some pair
 * of a kernel's ~10^6 strings collides in 64 bits with odds of ~2^-25 a
 * build, and then only matters if they sit so), or of two keys in 96 bits
 * (~2^-56). Strings enter by the fragment's 64-bit string hash
 * (btf_strtab.h), which the encoder seeds at random per run: without a
 * seed, two names that collide are easy to build, and DWARF crafted so
 * could make two different types share a key, which libbpf would keep
 * apart; with it, a collision is as unlikely for crafted input as for any.
 * Nothing in the output depends on the seed. So dropping the later one and pointing
 * its users at the earlier changes nothing libbpf's dedup would decide: it
 * would have made the earlier one canonical for both. Where libbpf fails to
 * merge two exact repeats, we merge them: a unit that holds two copies of
 * one chain where the split BTF's base holds one (docs/btf.md, "A split
 * BTF where libbpf keeps a copy"); t6030/t6040/t6091 show no such case on
 * the fixtures, the Debian vmlinux and its modules.
 *
 * Types that refer to each other (a struct and a pointer to it) form a
 * strongly connected component; its members are hashed together from a
 * root chosen by content (the member whose own record hashes smallest
 * among those no other member matches; failing that, the same over each
 * member's record and its neighbours'), walking the component breadth
 * first from there, so the same component in two units gets the same keys. A
 * component with no unique root, and every type that reaches one, a VAR,
 * a FUNC or a DATASEC, gets no key and is always kept: correct, only less
 * is dropped.
 *
 * Computed by the worker that built the fragment, read by the single
 * consumer (btf_merge_add). Deterministic: the keys depend only on the
 * fragment's records (the model's keys: on what the encoder writes of it).
 */
#ifndef D2B_BTF_BTF_KEYS_H
#define D2B_BTF_BTF_KEYS_H

#include <stdbool.h>
#include <stdint.h>

struct btf_raw;

struct btf_key {
	uint64_t lo, hi;	/* both 0: no key (the type is kept) */
};

/* The keys of R's types, indexed by local id (entry 0 unused), in *KEYS
 * (malloc'd, the caller frees). Returns 0, or -1 when out of memory. A
 * fragment whose records cannot be walked (which the builder never makes)
 * gets no keys at all. */
int btf_keys_compute(const struct btf_raw *r, struct btf_key **keys);

/*
 * The same algorithm on any graph: nodes 1..N, node V's edges
 * EDGES[EBEG[V] .. EBEG[V + 1]) in their order (each a node 1..N), OWN[V]
 * what V holds besides its edges (h_raw(), btf_hash.h), BAD[V] a node never
 * keyed. The model's keys (btf_model_keys.h) are built so.
 */
struct btf_keys_graph {
	uint32_t n;
	uint32_t *ebeg;		/* n + 2 entries */
	uint32_t *edges;
	struct btf_key *own;	/* n + 1 entries */
	bool *bad;		/* n + 1 entries */
};

/* Fills KEYS[1..N] (n + 2 entries, zeroed by the caller). 0, or -1 when out
 * of memory. */
int btf_keys_of_graph(const struct btf_keys_graph *g, struct btf_key *keys);

#endif
