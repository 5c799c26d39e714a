/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * print/fn_table.h: pahole 1.24's table of a unit's functions (its
 * cu__for_each_function), which pfunct -f, -c, -a and pahole -m walk:
 * every subprogram of the unit, its namespaces, its classes (methods'
 * declarations too) and its function bodies (gcc's nested functions,
 * local declarations), in DIE order, except that a function nested in
 * another's body comes before that function (1.24's loader adds a function
 * to the table once it has read the body).
 */
#ifndef D2B_PRINT_FN_TABLE_H
#define D2B_PRINT_FN_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "load/model.h"

/* Whether the table holds FN (inlined instances it does not). */
bool fn_table_holds(const struct function *fn);

/* The table's order: *ORDER gets every index into cu->functions (free it),
 * those the table does not hold too. Returns -1 when out of memory. */
int fn_table_order(const struct cu_model *cu, uint32_t **order);

#endif
