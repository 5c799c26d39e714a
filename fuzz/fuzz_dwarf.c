// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_dwarf: bytes -> ELF -> every unit decoded -> pahole's layout text and
 * pfunct's listing, built in memory.
 *
 * The last byte of the input chooses the printer options (a trailing byte
 * rarely changes how an ELF file parses), so one corpus covers -E, -s,
 * --hex, -r, -C and pfunct's -P / -V / -l / -s / -p / -N / -E / -f.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf/dwarf.h"
#include "elf/elf_file.h"
#include "load/load.h"
#include "print/pahole_select.h"
#include "print/pfunct_print.h"
#include "util/strbuf.h"

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool compile_unit(const struct dw_unit *u)
{
	return u->section == DW_SEC_INFO && u->unit_type != DW_UT_type &&
	       u->unit_type != DW_UT_split_type;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct load_options lopts = { 0 };
	struct pahole_select_opts so;
	struct pfunct_options po;
	struct d2b_error err = { 0 };
	struct strbuf out = STRBUF_INIT;
	struct pahole_select *sel = NULL;
	struct pfunct_printer *pf = NULL;
	struct elf_file *ef;
	struct dw_file df;
	uint8_t *copy;

	if (!size)
		return 0;
	/* A private copy: exact bounds for ASan, and the input stays const. */
	copy = malloc(size);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	fuzz_options_from(data[size - 1], "pair,list,node,s,u,foo", &so, &po);

	ef = elf_file_open_memory("fuzz.o", copy, size, &err);
	if (!ef)
		goto out_free;
	if (dw_file_init(&df, ef, &err))
		goto out_close;
	sel = pahole_select_create(&so, &err);
	pf = pfunct_printer_create(&po, &err);
	if (!sel || !pf)
		goto out_dwarf;
	for (size_t i = 0; i < df.nr_units; i++) {
		struct cu_model *cu = load_cu(&df, i, &lopts, &err);

		if (!cu)
			break;		/* the front ends stop at the first error */
		if (err.set)
			__builtin_trap();	/* success must not leave an error */
		if (!pahole_select_done(sel) &&
		    pahole_select_cu(sel, cu, &out, &err)) {
			cu_model_destroy(cu);
			break;
		}
		if (compile_unit(&df.units[i]) && !pfunct_printer_done(pf) &&
		    pfunct_printer_add_cu(pf, cu, &out, &err)) {
			cu_model_destroy(cu);
			break;
		}
		cu_model_destroy(cu);
		strbuf_reset(&out);
	}
	if (!err.set)
		pfunct_printer_finish(pf, &out, &err);
	/* Messages are one line, NUL-terminated inside their buffer. */
	if (err.set && (memchr(err.msg, 0, sizeof(err.msg)) == NULL ||
			strchr(err.msg, '\n')))
		__builtin_trap();
out_dwarf:
	pfunct_printer_destroy(pf);
	pahole_select_destroy(sel);
	strbuf_free(&out);
	dw_file_deinit(&df);
out_close:
	elf_file_close(ef);
out_free:
	free(copy);
	return 0;
}
