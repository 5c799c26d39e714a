/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * print/pfunct_fn.h: a function as pfunct 1.24 sees it: its name, return
 * type, declaration and parameters, following DW_AT_abstract_origin and
 * DW_AT_specification where the DIE itself has none.
 */
#ifndef D2B_PRINT_PFUNCT_FN_H
#define D2B_PRINT_PFUNCT_FN_H

#include "load/model.h"
#include "print/c_type.h"

/* Its own DW_AT_name, else its origin's as 1.24's loader has it when it
 * reaches FN (NULL when that origin comes later and has none). */
const char *pfunct_fn_name(const struct cu_model *cu, const struct function *fn);

/* Its return type, or its origin's; NULL: void. */
const struct type *pfunct_fn_ret(const struct cu_model *cu, const struct function *fn);

/* The function (FN or an origin) holding its decl_file / decl_line. */
const struct function *pfunct_fn_decl(const struct cu_model *cu, const struct function *fn);

/* Its signature, the parameters' missing names and types taken from their
 * origins: *FIXED is then a malloc'd copy of the parameters (free it), else
 * NULL. When out of memory, the parameters as they are. */
struct c_ftype pfunct_fn_ftype(const struct cu_model *cu, const struct function *fn,
			       struct param **fixed);

#endif
