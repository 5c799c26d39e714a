/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * print/pahole_print.h: the text of one type as pahole 1.24 prints it
 * (struct/union layouts with offset comments, holes, cacheline boundaries
 * and the summary; enums; typedefs).
 */
#ifndef D2B_PRINT_PAHOLE_PRINT_H
#define D2B_PRINT_PAHOLE_PRINT_H

#include <stdbool.h>

#include "load/model.h"
#include "print/layout.h"
#include "util/strbuf.h"

struct pahole_print_opts {
	bool expand_types;	/* -E */
	bool hex;		/* --hex */
	bool rel_offset;	/* -r */
	bool suppress_packed;	/* --suppress_packed */
	bool suppress_aligned;	/* --suppress_aligned_attribute */
	bool quiet;		/* -q: no comments, no offsets, no sums */
	bool flat_arrays;	/* --flat_arrays: one dimension, their product */
	bool suppress_force_paddings;	/* --suppress_force_paddings */
	bool show_only_data_members;	/* -M: no methods, nested types,
					 * using-declarations, static variables */
	bool show_decl_info;	/* -I: "Used at" and file:line before a type
				 * (the model needs its files: not
				 * skip_line_files) */
	bool first_biggest;	/* -l: the first biggest base type member */
	bool classes_as_structs;	/* --classes_as_structs */
	bool expand_pointers;	/* -p: what pointers point to, expanded */
	unsigned cacheline_size;	/* 0: 64 */
};

/* Append what pahole's tag__fprintf writes for T followed by ';' (no
 * newline). T is a struct, union, class, enum or typedef of the unit LC
 * was set up for; PREFIX/SUFFIX frame the struct as class_formatter does
 * ("typedef", "name"), both may be NULL. */
void pahole_print_type(struct strbuf *sb, struct layout_cache *lc,
		       const struct type *t, const char *prefix,
		       const char *suffix, const struct pahole_print_opts *o);

/* "name\tsize\tholes" as pahole -s prints it (with the newline); SEP
 * between the fields (-t). */
void pahole_print_size_line(struct strbuf *sb, struct layout_cache *lc,
			    const struct type *t, char sep);

#endif
