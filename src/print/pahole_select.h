/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * print/pahole_select.h: which types pahole prints, in which order, once.
 *
 * Fed one cu_model at a time, in unit order, the units of every file of
 * the command line in turn (pahole_select_next_file() between files).
 * Keeps no pointer into a unit after pahole_select_cu() returns: what it
 * remembers across units (the structs already printed, the -C names still
 * looked for) is copied.
 *
 * Default listing: every top-level, named, defined struct or union of each
 * unit in DIE order, skipping one already printed from an earlier unit with
 * the same name, size, member count and member names/bit offsets/bit-field
 * sizes (pahole 1.24's structures tree), among those pahole_filter keeps
 * (an anonymous one, with -a, is never taken for one printed before). With
 * -T each kept identity counts the units that define it, printed at the
 * end in the order first seen. With class names (-C a,b, and -u, -i, -f,
 * which print something else for each: pahole_names_mode): in each
 * unit, the names not found yet are looked up in list order and printed
 * while found; the first one missing from the unit ends that unit's turn
 * (as pahole's stealer returns there), unless --skip_missing, which goes
 * on to the next name.
 */
#ifndef D2B_PRINT_PAHOLE_SELECT_H
#define D2B_PRINT_PAHOLE_SELECT_H

#include <stdbool.h>

#include "load/model.h"
#include "print/pahole_filter.h"
#include "print/pahole_print.h"
#include "util/error.h"
#include "util/strbuf.h"

/* What the listing prints for each struct it keeps (pahole's formatter:
 * the last of -s, -n, -N, -z, -T on the command line decides) */
enum pahole_mode {
	PAHOLE_LAYOUT,		/* the struct text */
	PAHOLE_SIZES,		/* -s: "name\tsize\tholes" */
	PAHOLE_NR_MEMBERS,	/* -n: "name\tmembers" */
	PAHOLE_NAME_LEN,	/* -N: "name\tstrlen(name)" */
	PAHOLE_NAMES,		/* -z (unless -V came first): the name */
	PAHOLE_NOTHING,		/* -T: nothing per struct */
};

/* What is printed for each class name found (-C, -u, -i, -f) */
enum pahole_names_mode {
	PAHOLE_NAMES_LAYOUT,		/* -C: the type's text */
	PAHOLE_NAMES_DEFINED_IN,	/* -u: the unit's name (and the unit's
					 * turn ends: one name a unit) */
	PAHOLE_NAMES_CONTAINERS,	/* -i: the unit's structs with a member
					 * of the type (-d: and their members'
					 * structs that have one, indented) */
	PAHOLE_NAMES_POINTERS,		/* -f: "struct: member" for each member
					 * that points to the type */
	PAHOLE_NAMES_REORGANIZE,	/* -R: the struct with its holes filled
					 * (print/pahole_reorg.h) */
};

/* What the listing prints once every unit was seen */
enum pahole_stats {
	PAHOLE_STATS_NONE,
	PAHOLE_STATS_NR_DEFINITIONS,	/* -T: "name\tunits defining it" */
	PAHOLE_STATS_NR_METHODS,	/* -m: "name\tparameters pointing to it"
					 * (and no listing) */
};

struct pahole_select_opts {
	enum pahole_mode mode;
	enum pahole_stats stats;
	char separator;			/* -t: between the fields (pahole's '\t') */
	const char *class_names;	/* -C value, NULL for all */
	/* -C NAME(ARGS) outside --prettify: 1.24 checks a name's arguments
	 * against its type when a unit has it, before it prints it; false
	 * ends the listing there, the name still missing. INDEX: the name's
	 * place in class_names. NULL: no checks. */
	bool (*check_name)(void *ctx, size_t index, const struct cu_model *cu,
			   const struct type *t);
	void *check_ctx;
	enum pahole_names_mode names_mode;
	bool recursive;			/* -d (with -i) */
	bool verbose;			/* -V: -i adds each count, -R each
					 * move */
	bool reorg_steps;		/* -S: -R prints the struct after
					 * each move (verbose or not) */
	/* --sort: the layouts at the end, by name (1.24's two orders); with
	 * another formatter, structs with members are never taken for ones
	 * printed before */
	bool sort;
	bool first_obj_only;		/* --first_obj_only: one unit (with -C,
					 * the first that has the first name) */
	bool skip_missing;		/* --skip_missing: a -C name a unit lacks
					 * does not end the unit's turn */
	bool compile;			/* --compile: each struct after what it
					 * needs (print/pahole_emit.h); with -C,
					 * no ';' after each type */
	struct pahole_filter filter;	/* the listing's (-X for -C too) */
	struct pahole_print_opts print;
	/* Optional: a string section that outlives the run (a DWARF file's
	 * .debug_str): a name inside it is known by its address alone, so
	 * a struct seen before is recognised without reading its names. */
	const char *names_lo, *names_hi;
};

struct pahole_select;

struct pahole_select *pahole_select_create(const struct pahole_select_opts *o,
					   struct d2b_error *err);
void pahole_select_destroy(struct pahole_select *ps);	/* accepts NULL */

/* The units that follow are another file's (pahole 1.24 loads its files
 * into one list of units: a -C name found in one file is not looked for
 * in the next, a struct printed from one is not printed again from the
 * next, -T counts across them; --first_obj_only takes the first unit of
 * each file). NAMES_LO..HI: that file's string section
 * (pahole_select_opts), or NULL. What was known of the earlier files'
 * names by address alone is forgotten: their mappings go. Call it while no
 * unit of the stream is being prepared. */
void pahole_select_next_file(struct pahole_select *ps, const char *names_lo,
			     const char *names_hi);

/* Append to OUT what pahole prints for unit CU. Returns 0, or -1 with err
 * set (out of memory). */
int pahole_select_cu(struct pahole_select *ps, struct cu_model *cu,
		     struct strbuf *out, struct d2b_error *err);

/* cu_stream's prepare hook (cu_prepare_fn) for a listing without -C:
 * CTX is the pahole_select, of which it reads only the options (other
 * threads run pahole_select_cu() meanwhile). Builds CU's lookup keys on
 * the decoding thread; CU's turn at pahole_select_cu() then only looks them
 * up. Returns 0, or -1 with err set (out of memory). */
int pahole_select_prepare(const void *ctx, struct cu_model *cu, struct d2b_error *err);

/* Append what the listing prints at the end (-T), once every unit was
 * seen. Returns 0, or -1 with err set (out of memory). */
int pahole_select_finish(struct pahole_select *ps, struct strbuf *out,
			 struct d2b_error *err);

/* True once every -C name has been printed, or with --first_obj_only a
 * unit was: later units add nothing. */
bool pahole_select_done(const struct pahole_select *ps);

/* The first -C name not printed yet (pahole reports it as "type 'NAME'
 * not found" once every unit was seen), or NULL. */
const char *pahole_select_missing(const struct pahole_select *ps);
/* ... and its place in class_names (when pahole_select_missing() is not
 * NULL) */
size_t pahole_select_missing_index(const struct pahole_select *ps);

#endif
