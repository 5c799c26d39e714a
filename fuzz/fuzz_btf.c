// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_btf: bytes -> raw BTF validated and loaded (btf_handle_open_memory)
 * -> one cu_model (btf_handle_load_model; the partial one pahole -C builds
 * when byte 0 selects -C) -> pahole's layout text and
 * pfunct's listing, built in memory, as `pahole -F btf` / `pfunct -F btf`
 * drive them.
 *
 * Byte 0 chooses the printer options (so the BTF itself starts at byte 1
 * and its header is not disturbed); the rest is the raw BTF.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btf/btf_load.h"
#include "load/model.h"
#include "print/pahole_select.h"
#include "print/pfunct_print.h"
#include "util/strbuf.h"

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
	fuzz_options_from(data[0], "pair,list,node,s,u,foo,task_struct", &so, &po);
	/* The loader copies the bytes: the input stays const. */
	h = btf_handle_open_memory("fuzz.btf", data + 1, size - 1, NULL, &err);
	if (!h) {
		if (!err.set)
			__builtin_trap();	/* failure must say why */
		fuzz_check_error(&err);
		return 0;
	}
	if (err.set)
		__builtin_trap();		/* success must not leave an error */
	/* with -C names, the partial model pahole builds for them
	 * (cli_input_run()); pfunct's listing then sees no functions */
	if (so.class_names) {
		/* the -C list split at commas, as pahole_cli does */
		char buf[64], *save = NULL;
		const char *names[16];
		struct btf_model_only only = { names, 0, NULL };

		snprintf(buf, sizeof(buf), "%s", so.class_names);
		for (char *s = strtok_r(buf, ",", &save); s && only.nr_names < 16;
		     s = strtok_r(NULL, ",", &save))
			names[only.nr_names++] = s;
		cu = btf_handle_load_model(h, &only, &err);
	} else {
		cu = btf_handle_load_model(h, NULL, &err);
	}
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
	fuzz_check_error(&err);
	pfunct_printer_destroy(pf);
	pahole_select_destroy(sel);
	strbuf_free(&out);
	cu_model_destroy(cu);	/* before the handle it points into */
	btf_handle_close(h);
	return 0;
}
