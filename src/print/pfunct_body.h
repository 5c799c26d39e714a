/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * print/pfunct_body.h: a function's body as pfunct 1.24 prints it with -i
 * or -T (function__fprintf_stats), and the unit's inline expansion counts
 * that -t adds up (cu__account_inline_expansions). The body comes from the
 * loader (load_options.function_bodies, model.h's struct body_item); a
 * function without one prints an empty block.
 *
 *   {[ /\* low_pc=0x.. *\/]
 *   <its items, one tab deeper>
 *   }/\* size: S[, variables: V][, goto labels: L][, inline expansions: E (B bytes)] *\/
 *
 * Each item but a block ends in a comment "// LINE" whose column follows
 * 1.24's printf arithmetic (70 columns less what the line took, as a
 * width: a line longer than 70 gets more padding, not less); a variable is
 * "TYPE NAME; /\* scope: WORD *\/", a label a line of tabs then "NAME:" at
 * the margin, an expansion its origin's name and parameters (wrapped, one
 * per line) with "; /\* size=N, low_pc=0x.. *\/", a block "{" with its
 * address relative to the function ("/\* NAME+0x.. *\/") and "}" with its
 * size.
 */
#ifndef D2B_PRINT_PFUNCT_BODY_H
#define D2B_PRINT_PFUNCT_BODY_H

#include <stdbool.h>
#include <stdint.h>

#include "load/model.h"
#include "util/strbuf.h"

struct pfunct_body_options {
	/* pfunct's get_addr_info (-a, -s, -i, -I, -t, -V): without it every
	 * address and size is 0 and every variable's scope "unknown" */
	bool addr_info;
	/* extra_dbg_info (-i, -l, -V): without it variables' and labels'
	 * lines are 0 (an expansion's call line is always there) */
	bool line_info;
	bool no_parm_names;
};

void pfunct_format_body(struct strbuf *sb, const struct cu_model *cu,
			const struct function *fn, const struct pfunct_body_options *o);

/* For each function of CU (by index into cu->functions), how many inline
 * expansions of it the unit's bodies hold and their sizes, counted as 1.24
 * counts them (a block without expansions of its own is not looked into).
 * NR and SIZE have cu->nr_functions entries, zeroed by the caller. */
void pfunct_account_inlines(const struct cu_model *cu, uint32_t *nr, uint64_t *size);

#endif
