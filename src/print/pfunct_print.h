/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * print/pfunct_print.h: pfunct's function listing, fed one cu_model at a time.
 *
 * The printer reproduces Debian's pfunct 1.24 (docs/compat-pfunct.md lists
 * the deliberate differences). Its rules, learnt from pfunct.c:
 *
 *   Listing (no -f): every unit's functions are visited in unit order, then
 *   DIE order. A function is skipped when it is nested (not a child of the
 *   unit), has no name (after following DW_AT_abstract_origin /
 *   DW_AT_specification), or fails -E / -G / -H. Otherwise it is looked up
 *   by name among the functions kept so far, the most recently kept first:
 *     - not found, or found but that one is not external: keep it (so every
 *       static function of the same name is kept, once per occurrence);
 *     - found and external: count one more definition ("/\* definitions: N *\/"
 *       with -V) and drop it.
 *   The kept functions are printed newest first (pfunct pushes each on the
 *   head of a list), one line each: the name, or "name: size" (-s, only when
 *   the size is not 0), "name: nr_parms" (-p), "name: strlen" (-N),
 *   "name: variables" (-S) and "name: labels" (-g) when not 0 (the
 *   function's own: not those of its blocks), or the prototype (-P, -V).
 *
 *   -f NAME: the first unit (in unit order) holding a function called NAME
 *   ends the search; its first such function is printed as a prototype,
 *   unless it is external or a concrete instance (DW_AT_abstract_origin), in
 *   which case pfunct 1.24 prints nothing. The caller stops feeding units
 *   once pfunct_printer_done() is true.
 *
 *   -c CLASS (without -f): unit by unit, in DIE order and without dedup,
 *   every function (methods and namespaces' functions too, as -f searches)
 *   that is not an abstract instance (its own DW_AT_inline) and has a
 *   parameter whose type is a pointer straight to the unit's first
 *   definition of struct (or class) CLASS: its name, or with -V its
 *   prototype. Units without such a definition print nothing.
 *
 *   -a ADDR (without -f or -c): the listing is built as usual (so -V's
 *   duplicate reports come out) but not printed; instead, the first
 *   function (unit order, then DIE order) whose [low_pc, high_pc) holds
 *   ADDR is printed as -f prints it (nothing when it is external or a
 *   concrete instance); none: pfunct_printer_finish() fails with
 *   "No function found at 0x...!".
 *
 * A prototype line is "[inline ]RET NAME(PARAMS);", preceded with -l by
 * "/\* Used at: CU *\/" and "/\* <DIE offset in hex> FILE:LINE *\/".
 *
 * Nothing keeps pointers into a cu_model or its file after
 * pfunct_printer_add_cu() returns: names, unit names and prototypes are
 * copied (rendered) at once.
 */
#ifndef D2B_PRINT_PFUNCT_PRINT_H
#define D2B_PRINT_PFUNCT_PRINT_H

#include <stdbool.h>

#include "load/model.h"
#include "util/error.h"
#include "util/strbuf.h"

/* What each kept function prints as (pfunct's "formatter"). */
enum pfunct_formatter {
	PFUNCT_FMT_DEFAULT,	/* name, or the prototype with -P / -V */
	PFUNCT_FMT_SIZES,	/* -s: "name: size" when size != 0 */
	PFUNCT_FMT_NR_PARMS,	/* -p: "name: nr_parms" */
	PFUNCT_FMT_NAME_LEN,	/* -N: "name: strlen(name)" */
	PFUNCT_FMT_NR_VARIABLES,	/* -S: "name: N" when the function's own
				 * variables are not 0 */
	PFUNCT_FMT_LABELS,	/* -g: "name: N" when its own labels are not 0 */
	PFUNCT_FMT_INLINE_STATS,	/* -I: "name: E B" when its block holds
				 * E > 0 inline expansions of B bytes */
};

struct pfunct_options {
	enum pfunct_formatter formatter;
	bool prototypes;	/* -P */
	bool verbose;		/* -V: prototypes, duplicate checks, counts */
	bool decl_info;		/* -l */
	bool no_parm_names;	/* --no_parm_names */
	bool externals_only;	/* -E */
	bool cc_inlined;	/* -H: DW_INL_inlined only */
	bool cc_uninlined;	/* -G: DW_INL_declared_not_inlined only */
	const char *function;	/* -f NAME; NULL: list */
	const char *class_name;	/* -c CLASS (when no -f); NULL: list */
	uint64_t addr;		/* -a ADDR (when no -f, -c); 0: none */
	/* -i (the CLI sets verbose too) and -T: with a prototype, the body
	 * (print/pfunct_body.h; the units must be loaded with
	 * load_options.function_bodies) */
	bool inline_expansions;
	bool variables;
	/* -t: the table of functions inlined more than once (and nothing
	 * else, but -f's output or -a's) */
	bool total_inline_stats;
	/* What 1.24 loads (pfunct_body.h): addresses (-a, -s, -i, -I, -t,
	 * -V), variables' lines (-i, -l, -V) */
	bool addr_info;
	bool line_info;
	/* -b: before each function -f, -a or the listing (then every
	 * function of every unit, DIE order, externals and concrete
	 * instances left out) shows, the types its prototype needs
	 * (pahole_emit_function()); --compile: also no ';', no "inline",
	 * and a body "{ return ...; }" */
	bool expand_types;
	bool compile;
};

struct pfunct_printer;

struct pfunct_printer *pfunct_printer_create(const struct pfunct_options *opts,
					     struct d2b_error *err);
void pfunct_printer_destroy(struct pfunct_printer *p);	/* accepts NULL */

/* Take in one unit. Text that pfunct prints while it loads (-f's prototype,
 * -V's duplicate reports) is appended to OUT at once. -b may rename the
 * unit's types (pahole_emit.h: NAME__1). Returns 0, or -1 with err set
 * (out of memory). */
int pfunct_printer_add_cu(struct pfunct_printer *p, struct cu_model *cu,
			  struct strbuf *out, struct d2b_error *err);

/* True once no further unit can change the output (-f found its unit). */
bool pfunct_printer_done(const struct pfunct_printer *p);

/* The next file on the command line: -f searches each file (1.24 loads
 * each on its own, and its search stops at the first match in each). */
void pfunct_printer_next_file(struct pfunct_printer *p);

/* Whether the units need their functions' bodies
 * (load_options.function_bodies). */
bool pfunct_printer_wants_bodies(const struct pfunct_options *o);

/* Append the listing (nothing in -f mode). Returns 0, or -1 with err set. */
int pfunct_printer_finish(struct pfunct_printer *p, struct strbuf *out,
			  struct d2b_error *err);

/* One function's prototype line as pfunct prints it, without the trailing
 * newline: the -l comment lines (each ending in '\n'), then
 * "[inline ]RET NAME(PARAMS);". Used by the printer and its tests. */
void pfunct_format_prototype(struct strbuf *sb, const struct cu_model *cu,
			     const struct function *fn, bool decl_info,
			     bool no_parm_names);

/* pfunct's function__size(): high_pc - low_pc, 0 without addresses. */
uint64_t pfunct_function_size(const struct function *fn);

#endif
