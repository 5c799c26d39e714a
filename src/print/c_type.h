/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * print/c_type.h: C spellings of model types, as pahole and pfunct print them.
 * Shared by the pahole layout printer and the pfunct printer.
 */
#ifndef D2B_PRINT_C_TYPE_H
#define D2B_PRINT_C_TYPE_H

#include "load/model.h"
#include "util/strbuf.h"

/* The C spelling of T as pahole writes a type name: "struct foo *",
 * "const char *", "int", "void (*)(int, char *)", "void" for NULL. */
void c_type_name(struct strbuf *sb, const struct type *t);

/* A declaration of NAME with type T as pfunct prints parameters:
 * "int x", "struct foo * p", "char buf[16]", "void (*cb)(int)".
 * NAME may be NULL (abstract declarator). */
void c_type_decl(struct strbuf *sb, const struct type *t, const char *name);

#endif
