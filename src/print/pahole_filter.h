/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * print/pahole_filter.h: which structs pahole's listing keeps, as pahole
 * 1.24's class__filter decides (--structs, --unions, --packed, -x, -y, -D,
 * -H, -B, -z, --with_flexible_array, -a), and the units -X, --lang and
 * --lang_exclude leave out.
 *
 * The rules, in 1.24's order: the kind (--unions, --structs), the inferred
 * packed attribute (--packed), a declaration never, an anonymous struct
 * only with -a, the name's prefix (-x excludes, -y includes; an anonymous
 * struct goes by the first typedef that names it, and passes when there is
 * none), the file it is declared in (-D: none, or one with the prefix,
 * excludes). A union passes from there unless a hole filter is asked
 * (-H, -B, -z; --structs dropped it already); a struct needs at least -H
 * holes, -B bit holes, one hole of at least -z bytes, with -P holes that
 * -R would make it smaller by (a C++ class with bases or static members,
 * which -R does not take, never is) and, with --with_flexible_array, a
 * last member whose type is a one-dimensional array of no or zero
 * elements.
 */
#ifndef D2B_PRINT_PAHOLE_FILTER_H
#define D2B_PRINT_PAHOLE_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "load/model.h"
#include "print/layout.h"

struct pahole_filter {
	bool structs_only;		/* --structs (and --packed) */
	bool unions_only;		/* --unions */
	bool packed_only;		/* --packed */
	bool flexible_array_only;	/* --with_flexible_array */
	bool packable;			/* -P: -R would make it smaller */
	bool anon;			/* -a: anonymous structs too */
	bool nested_anon;		/* -A: those no typedef names too (with -a) */
	bool private_classes;		/* --show_private_classes: those nested in a
					 * struct or a function too */
	const char *exclude;		/* -x PREFIX */
	const char *include;		/* -y PREFIX */
	const char *decl_exclude;	/* -D PREFIX */
	const char *cu_exclude;		/* -X PREFIX */
	/* --lang (units of these languages only) or, when lang_exclude,
	 * --lang_exclude (all but those): DW_LANG_* values. A unit read from
	 * BTF has none (0), so --lang leaves it out, as in 1.24 */
	const uint16_t *langs;
	uint32_t nr_langs;
	bool lang_exclude;
	/* 1.24 keeps these in 16 bits: atoi()'s value truncated */
	uint16_t nr_holes;		/* -H */
	uint16_t nr_bit_holes;		/* -B */
	uint16_t hole_size_ge;		/* -z */
};

/* The first typedef of CU (in its type order) whose type is T itself, or
 * NULL: what names an anonymous struct in pahole's listing. */
const struct type *pahole_first_typedef_of(const struct cu_model *cu, const struct type *t);

/* Whether the listing keeps T (a struct, union or class of the unit LC was
 * set up for, defined, at the unit's level). May infer packed attributes
 * in LC (--packed), as 1.24 does. */
bool pahole_filter_keeps(const struct pahole_filter *f, struct layout_cache *lc,
			 const struct type *t);

/* -P's test of T (a struct of the unit LC was set up for): it has holes
 * and -R would make it smaller (to *NEW_SIZE, when not NULL). Sets
 * lc->oom when out of memory. */
bool pahole_filter_packable(struct layout_cache *lc, const struct type *t, uint64_t *new_size);

/* Whether -X leaves CU out (its name has the prefix, or it has none). */
bool pahole_filter_skips_unit(const struct pahole_filter *f, const struct cu_model *cu);

/* Whether the model must carry declaration files (-D; -P names a struct
 * without a name by its file and line). */
static inline bool pahole_filter_needs_files(const struct pahole_filter *f)
{
	return f->decl_exclude != NULL || f->packable;
}

#endif
