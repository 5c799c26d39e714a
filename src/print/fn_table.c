// SPDX-License-Identifier: GPL-2.0-only
/* pahole 1.24's table of a unit's functions; see the header. */
#include "print/fn_table.h"

#include <stdlib.h>

bool fn_table_holds(const struct function *fn)
{
	return !fn->is_inlined_instance &&
	       (fn->scope == TS_UNIT || fn->scope == TS_NAMESPACE ||
		fn->scope == TS_COMPOSITE || fn->scope == TS_FUNCTION);
}

int fn_table_order(const struct cu_model *cu, uint32_t **order)
{
	uint32_t *out = malloc((cu->nr_functions + 1) * sizeof(*out));
	uint32_t *stack = malloc((cu->nr_functions + 1) * sizeof(*stack));
	uint32_t n = 0, top = 0;

	if (!out || !stack) {
		free(out);
		free(stack);
		return -1;
	}
	/* a function goes out once the next one is no deeper: its nested
	 * functions (deeper, after it in DIE order) first */
	for (uint32_t i = 0; i < cu->nr_functions; i++) {
		uint8_t depth = cu->functions[i].fn_depth;

		while (top && cu->functions[stack[top - 1]].fn_depth >= depth)
			out[n++] = stack[--top];
		stack[top++] = i;
	}
	while (top)
		out[n++] = stack[--top];
	free(stack);
	*order = out;
	return 0;
}
