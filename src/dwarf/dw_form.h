/* SPDX-License-Identifier: GPL-2.0-only */
/* Internal to dwarf/: form sizes and attribute value decoding. */
#ifndef D2B_DWARF_DW_FORM_H
#define D2B_DWARF_DW_FORM_H

#include "dwarf/dwarf.h"


/* dw_form_read and dw_form_skip are declared in dwarf.h. */

#endif
