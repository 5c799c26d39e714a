/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz/fuzz_common.h: what the harnesses share: printer options drawn from
 * one input byte, and the check that an error message is one line.
 */
#ifndef D2B_FUZZ_FUZZ_COMMON_H
#define D2B_FUZZ_FUZZ_COMMON_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "print/pahole_select.h"
#include "print/pfunct_print.h"
#include "util/error.h"

/* pahole and pfunct options from the bits of B; with both top bits set,
 * -C CLASS_NAMES and pfunct -f main. */
static inline void fuzz_options_from(uint8_t b, const char *class_names,
				     struct pahole_select_opts *so, struct pfunct_options *po)
{
	memset(so, 0, sizeof(*so));
	memset(po, 0, sizeof(*po));
	so->mode = (b & 1) ? PAHOLE_SIZES : PAHOLE_LAYOUT;
	so->print.expand_types = b & 2;
	so->print.hex = b & 4;
	so->print.rel_offset = b & 8;
	so->print.suppress_packed = b & 16;
	so->print.suppress_aligned = b & 16;
	so->print.cacheline_size = (b & 32) ? 32 : 0;
	if ((b & 0xc0) == 0xc0)
		so->class_names = class_names;

	po->formatter = (enum pfunct_formatter)((b >> 1) & 3);
	po->prototypes = b & 8;
	po->verbose = b & 16;
	po->decl_info = b & 32;
	po->no_parm_names = b & 1;
	po->externals_only = (b & 0xc0) == 0x40;
	po->cc_inlined = (b & 0xc0) == 0x80;
	if ((b & 0xc0) == 0xc0)
		po->function = "main";
	/* -i (with -V), -t; addresses as with -V or -s */
	po->inline_expansions = po->verbose && (b & 1);
	po->total_inline_stats = (b & 0x26) == 0x26;
	po->addr_info = true;
	po->line_info = po->verbose || po->decl_info;
	/* -b, --compile */
	po->expand_types = (b & 0x30) == 0x30;
	po->compile = po->expand_types && (b & 4);
}

/* A private copy of the input (exact bounds for ASan, and the input stays
 * const), or NULL when it is empty or memory is short: skip the input. */
static inline uint8_t *fuzz_copy(const uint8_t *data, size_t size)
{
	uint8_t *copy = size ? malloc(size) : NULL;

	if (copy)
		memcpy(copy, data, size);
	return copy;
}

/* Messages are one line, NUL-terminated inside their buffer. */
static inline void fuzz_check_error(const struct d2b_error *err)
{
	if (err->set && (memchr(err->msg, 0, sizeof(err->msg)) == NULL ||
			 strchr(err->msg, '\n')))
		__builtin_trap();
}

#endif
