/* SPDX-License-Identifier: GPL-2.0-only */
/* Internal to dwarf/: form sizes and attribute value decoding. */
#ifndef D2B_DWARF_DW_FORM_H
#define D2B_DWARF_DW_FORM_H

#include "dwarf/dwarf.h"


/* dw_form_read and dw_form_skip are declared in dwarf.h. */

/* Section offset of a pointer into the unit's section (for messages). */
static inline uint64_t dw_cu_offset_of(const struct dw_cu *cu, const uint8_t *p)
{
	return (uint64_t)(p - cu->sec->data);
}

#endif
