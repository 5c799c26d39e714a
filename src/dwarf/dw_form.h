/* SPDX-License-Identifier: GPL-2.0-only */
/* Internal to dwarf/: form sizes and attribute value decoding. */
#ifndef D2B_DWARF_DW_FORM_H
#define D2B_DWARF_DW_FORM_H

#include "dwarf/dwarf.h"

/* Size of FORM's value in a unit with these sizes: >= 0 fixed, -1 variable,
 * -2 a form we do not know, -3 a supplementary-file form we refuse. */
int dw_form_fixed_size(unsigned form, const struct dw_unit *u);

/* Decode one value of FORM at *P (not past END) into OUT (name untouched),
 * advancing *P. */
int dw_form_read(const struct dw_cu *cu, unsigned form, int64_t implicit_const,
		 const uint8_t **p, const uint8_t *end, struct dw_attr *out,
		 struct d2b_error *err);

/* Skip one value of FORM. */
int dw_form_skip(const struct dw_cu *cu, unsigned form, const uint8_t **p,
		 const uint8_t *end, struct d2b_error *err);

/* Section offset of a pointer into the unit's section (for messages). */
static inline uint64_t dw_cu_offset_of(const struct dw_cu *cu, const uint8_t *p)
{
	return (uint64_t)(p - cu->sec->data);
}

#endif
