/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * btf/btf_diff.h: compare two BTFs by content, not by type ids or order.
 *
 * Each side is reduced to a sorted list of entries, one per
 *
 *   named type        "struct foo", "union u", "enum e", "typedef t",
 *                     "fwd struct s", "int long int", "float double"
 *   function          "function NAME"     (linkage and prototype)
 *   variable          "variable NAME"     (linkage and type)
 *   data section      "section .data"     (size; each variable's offset
 *                                          and size, by variable name)
 *   decl tag          "decl_tag V on KEY" (member / parameter index)
 *
 * whose value is the entry's full structure with every type reference
 * spelled by name for named types ("struct foo *") and by structure for
 * anonymous ones ("struct { int a@0; } [4]"): so renumbered, reordered or
 * differently deduplicated BTFs compare equal, and a changed member type
 * deep inside an anonymous union shows up at its named container. The two
 * lists are merged by key; each difference becomes one line:
 *
 *   struct foo: member bar: type int vs long int
 *   struct foo: size 16 vs 24
 *   struct foo: member baz only in B
 *   function f: prototype int (int a) vs long int (int a)
 *   enum e: value X: 1 vs 2
 *   typedef t: only in A
 *
 * Entries with the same key on one side (BTF may keep several "struct foo"
 * that dedup could not merge) are compared as multisets of structures.
 * Unnamed types that nothing named reaches are not compared. For split BTF
 * only each side's own types (from its start id) are compared; references
 * into the base are spelled like any other.
 */
#ifndef D2B_BTF_BTF_DIFF_H
#define D2B_BTF_BTF_DIFF_H

#include <stdint.h>

#include "util/error.h"
#include "util/strbuf.h"

struct btf;

struct btf_diff_stats {
	uint64_t entries_a, entries_b;	/* keys compared on each side */
	uint64_t differences;		/* lines written */
};

/*
 * Compare A's types from id A_START on with B's from B_START on; append
 * one line per difference to OUT. Returns the number of differences (0:
 * equal), or -1 with err set (out of memory).
 */
long btf_diff(const struct btf *a, uint32_t a_start, const struct btf *b,
	      uint32_t b_start, struct strbuf *out, struct btf_diff_stats *stats,
	      struct d2b_error *err);

#endif
