/* SPDX-License-Identifier: GPL-2.0-only */
/* Internal to dwarf/: form sizes and attribute value decoding. */
#ifndef D2B_DWARF_DW_FORM_H
#define D2B_DWARF_DW_FORM_H

#include "dwarf/dwarf.h"


/* dw_form_read and dw_form_skip are declared in dwarf.h. */

/* Entry IDX of the unit's .debug_addr table (DW_AT_addr_base): 0, or -1
 * when it lies outside the section. */
int dw_cu_read_addrx(const struct dw_cu *cu, uint64_t idx, uint64_t *addr);

#endif
