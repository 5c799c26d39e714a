/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * print/pahole_prettify.h: pahole --prettify, raw records printed as the
 * -C types lay them out (pahole 1.24's, docs/compat.md "--prettify").
 *
 * The -C list takes arguments here: NAME(sizeof[=M],type[=M],type_enum=E,
 * filter=M==V,range=R). Records are read one after the other from the
 * input (a file, or stdin: seeking is reading), each printed as
 * "{\n\t.member = value,\n...},\n": integers as signed numbers of their
 * size (1.24 reads every one as signed), char arrays as strings, arrays of
 * base types in braces, anything else (pointers, enums, qualified members)
 * as a hexdump; a member whose name the type_enum gives (the type= member)
 * by that name, and a record whose type= value names, lowercased, a struct
 * as that struct. --header_type reads a header first, whose members
 * $header.a.b, --range's R.offset and R.size, may place and bound the
 * records; --seek_bytes, --size_bytes, --count and --skip too. 1.24's
 * messages and exit statuses are kept (nearly every error exits 0).
 */
#ifndef D2B_PRINT_PAHOLE_PRETTIFY_H
#define D2B_PRINT_PAHOLE_PRETTIFY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "load/model.h"

struct prettify_opts {
	FILE *input;			/* the records (the caller's) */
	FILE *out;			/* stdout */
	const char *class_names;	/* -C: the types, with arguments */
	uint32_t count, skip;		/* --count (0: all), --skip */
	const char *seek_bytes, *size_bytes;	/* NULL when not given */
	const char *header_type, *range;
	bool hex, verbose;		/* --hex, -V */
};

struct prettify;

/* Parse the -C list (1.24's syntax); with -V echo each argument to OUT.
 * Returns NULL after printing 1.24's message (exit 1) on a syntax error,
 * or when out of memory. */
struct prettify *prettify_create(const struct prettify_opts *o);
void prettify_destroy(struct prettify *pp);	/* accepts NULL */

/* The bare type names of a -C list with arguments or file:// entries
 * ("a,b"), as the listing takes them: 1.24 reads the same syntax there
 * (and with VERBOSE echoes the arguments to OUT). A malloc'd string, or
 * NULL after a syntax error's message (exit 1) or out of memory. */
char *prettify_type_names(const char *list, bool verbose, FILE *out);

/* One unit, in unit order: when it has every type of the list (and the
 * header's), the records are read and printed. Returns 1 when done (the
 * records printed, or an error reported: later units change nothing), 0
 * to go on to the next unit. */
/* -C NAME(ARGS) outside --prettify, on a prettify made of the -C list
 * (prettify_create with class_names): whether the name at INDEX of the
 * list has arguments, and whether they hold for T, its type in CU, by
 * 1.24's checks (a struct; the sizeof, type and filter members there),
 * which report a failure on stderr. */
bool prettify_has_args(const struct prettify *pp, size_t index);
bool prettify_check_type(struct prettify *pp, size_t index, const struct cu_model *cu,
			 const struct type *t);

int prettify_unit(struct prettify *pp, const struct cu_model *cu);

/* After the last unit: reports the type none had, as 1.24 does. */
void prettify_finish(struct prettify *pp);

/* What the run's exit status is: 0, or 134 where 1.24 aborts (a seek
 * backwards: glibc's fortified fread on a negative size); we print 1.24's
 * line and exit so too. */
int prettify_status(const struct prettify *pp);

#endif
