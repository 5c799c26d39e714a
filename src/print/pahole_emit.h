/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * print/pahole_emit.h: pahole --compile, the types a struct needs printed
 * before it (pahole 1.24's dwarves_emit.c, byte for byte on BTF).
 *
 * For each struct or union the listing keeps, first what it needs: the
 * typedefs, enums and structs its members name (by value: their
 * definitions; through a pointer: "struct x;"), each once by kind and
 * name, then the struct itself, as pahole's default -C prints it, with a
 * ';'. The blank lines are 1.24's: they come from what each step returns
 * (a member whose type needed something, or named a struct, is followed by
 * one). 1.24's quirks are kept: a struct defined before is declared again
 * when reached through a pointer, a struct or union named as another kind
 * printed before is renamed NAME__1, a typedef of an anonymous struct
 * prints the struct again each time, a typedef of a pointer to an
 * anonymous struct prints "typedef struct  * name" (docs/compat.md).
 *
 * What was printed is remembered by kind and name across units, so a DWARF
 * file (which 1.24 refuses: "--compile currently only works with BTF")
 * gives each name once too.
 */
#ifndef D2B_PRINT_PAHOLE_EMIT_H
#define D2B_PRINT_PAHOLE_EMIT_H

#include <stdbool.h>

#include "load/model.h"
#include "print/layout.h"
#include "util/error.h"
#include "util/strbuf.h"

struct pahole_emit;

struct pahole_emit *pahole_emit_create(void);
/* pfunct -b / --compile's: on DWARF, a struct only declared is printed
 * as 1.24 prints it there, an empty struct, not declared ahead. */
struct pahole_emit *pahole_emit_create_pfunct(void);
void pahole_emit_destroy(struct pahole_emit *pe);	/* accepts NULL */

/* Before the structs of unit CU (the one LC was set up for) are given to
 * pahole_emit_struct(): per-type state for it. May rename CU's types
 * (NAME__1) as they are printed. Returns 0, or -1 when out of memory. */
int pahole_emit_unit(struct pahole_emit *pe, struct cu_model *cu, struct layout_cache *lc);

/* The listing's turn of struct or union T of that unit: what it needs,
 * then T (unless printed before), then a newline, appended to OUT.
 * Returns 0, or -1 when out of memory. */
int pahole_emit_struct(struct pahole_emit *pe, const struct type *t, struct strbuf *out);

/* pfunct -b / --compile: what a function's prototype needs, as pfunct
 * 1.24's function__emit_type_definitions prints it. The return type,
 * pointers and qualifiers stripped: when it is a struct, union, enum or
 * typedef not printed yet, what it needs and then itself (a typedef thus
 * twice: 1.24's quirk). Then each parameter's so stripped: a function
 * type's needs; a type not printed yet, its needs, itself (not a typedef)
 * and a blank line. Types of the unit given to pahole_emit_unit(); OUT
 * receives the text. Returns 0, or -1 when out of memory. */
int pahole_emit_function(struct pahole_emit *pe, const struct type *ret,
			 const struct param *params, uint32_t nr_params, struct strbuf *out);

#endif
