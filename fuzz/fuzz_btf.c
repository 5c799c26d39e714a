// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_btf: bytes -> raw BTF validated and loaded (btf_handle_open_memory)
 * -> one cu_model (btf_handle_load_model) -> pahole's layout text and
 * pfunct's listing, built in memory, as `pahole -F btf` / `pfunct -F btf`
 * drive them.
 *
 * Byte 0 chooses the printer options (so the BTF itself starts at byte 1
 * and its header is not disturbed); the rest is the raw BTF.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "btf/btf_load.h"
#include "load/model.h"
#include "print/pahole_select.h"
#include "print/pfunct_print.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void options_from(uint8_t b, struct pahole_select_opts *so,
			 struct pfunct_options *po)
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
		so->class_names = "pair,list,node,s,u,foo,task_struct";

	po->formatter = (enum pfunct_formatter)((b >> 1) & 3);
	po->prototypes = b & 8;
	po->verbose = b & 16;
	po->decl_info = b & 32;
	po->no_parm_names = b & 1;
	po->externals_only = (b & 0xc0) == 0x40;
	po->cc_inlined = (b & 0xc0) == 0x80;
	if ((b & 0xc0) == 0xc0)
		po->function = "main";
}

/* Messages are one line, NUL-terminated inside their buffer. */
static void check_error(const struct d2b_error *err)
{
	if (err->set && (memchr(err->msg, 0, sizeof(err->msg)) == NULL ||
			 strchr(err->msg, '\n')))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pahole_select_opts so;
	struct pfunct_options po;
	struct d2b_error err = { 0 };
	struct strbuf out = STRBUF_INIT;
	struct pahole_select *sel = NULL;
	struct pfunct_printer *pf = NULL;
	struct btf_handle *h;
	struct cu_model *cu = NULL;

	if (size < 2)
		return 0;
	options_from(data[0], &so, &po);
	/* The loader copies the bytes: the input stays const. */
	h = btf_handle_open_memory("fuzz.btf", data + 1, size - 1, NULL, &err);
	if (!h) {
		if (!err.set)
			__builtin_trap();	/* failure must say why */
		check_error(&err);
		return 0;
	}
	if (err.set)
		__builtin_trap();		/* success must not leave an error */
	cu = btf_handle_load_model(h, &err);
	if (!cu)
		goto out;
	if (!cu->from_btf)
		__builtin_trap();
	sel = pahole_select_create(&so, &err);
	pf = pfunct_printer_create(&po, &err);
	if (!sel || !pf)
		goto out;
	if (pahole_select_cu(sel, cu, &out, &err))
		goto out;
	strbuf_reset(&out);
	if (pfunct_printer_add_cu(pf, cu, &out, &err))
		goto out;
	pfunct_printer_finish(pf, &out, &err);
out:
	check_error(&err);
	pfunct_printer_destroy(pf);
	pahole_select_destroy(sel);
	strbuf_free(&out);
	cu_model_destroy(cu);	/* before the handle it points into */
	btf_handle_close(h);
	return 0;
}
