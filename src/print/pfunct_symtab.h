/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * print/pfunct_symtab.h: pfunct --symtab[=NAME], the functions of an ELF
 * symbol table as pfunct 1.24 lists them: each symbol of type STT_FUNC
 * that has a name and is defined (not SHN_UNDEF), in table order, as
 * "INDEX: NAME ADDRESS SIZE" ("%*d: %-*s %#llx %5u"): the index as wide as
 * the table's symbol count has digits, the name padded to the longest
 * listed name (at most 32 characters of padding; longer names are not cut).
 */
#ifndef D2B_PRINT_PFUNCT_SYMTAB_H
#define D2B_PRINT_PFUNCT_SYMTAB_H

#include "elf/elf_file.h"
#include "util/error.h"
#include "util/strbuf.h"

/* Append the listing of EF's symbol table SECTION (".symtab", ".dynsym")
 * to OUT. Returns 0, or -1 with err set (no such section, not a symbol
 * table, unreadable). */
int pfunct_symtab_print(const struct elf_file *ef, const char *section,
			struct strbuf *out, struct d2b_error *err);

#endif
