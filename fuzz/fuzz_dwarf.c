// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_dwarf: bytes -> ELF -> every unit decoded -> pahole's layout text and
 * pfunct's listing, built in memory.
 *
 * The last byte of the input chooses the printer options (a trailing byte
 * rarely changes how an ELF file parses), so one corpus covers -E, -s,
 * --hex, -r, -C and pfunct's -P / -V / -l / -s / -p / -N / -E / -f / -i / -t
 * (the functions' bodies are read for every input).
 *
 * With -C, each unit is also loaded partially (load_options.only_types, as
 * pahole -C loads it) and printed by a second selector: when neither load
 * failed anywhere, both texts must be the same (the partial load's promise).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf/dwarf.h"
#include "elf/elf_file.h"
#include "elf/elf_page_copies.h"
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
	/* names of the seeds' types (fuzz/seeds.sh: the fixtures, hostile.py) */
	static const char *const all_names[] = {
		"pair", "list", "node", "s", "u", "foo", "outer", "inner", "value",
		"big_with_holes", "packed_s", "holds_aligned", "bits", "crossing",
		"declared_only", "handler_fn", "my_u32", "flex_then_nested",
		"big_nested", "tagged", "all_base", "config",
	};
	enum { NR_NAMES = sizeof(all_names) / sizeof(all_names[0]) };
	const char *names[NR_NAMES];
	char list[512];
	size_t used = 0;
	struct load_options lopts = { 0 }, popts = { 0 };
	struct strbuf text = STRBUF_INIT, ptext = STRBUF_INIT;
	struct pahole_select *psel = NULL;
	bool failed = false, pfailed = false;
	struct pahole_select_opts so;
	struct pfunct_options po;
	struct d2b_error err = { 0 };
	struct strbuf out = STRBUF_INIT;
	struct pahole_select *sel = NULL;
	struct pfunct_printer *pf = NULL;
	struct elf_page_copies strs = { 0 };
	struct elf_file *ef;
	struct dw_file df;
	uint8_t *copy;

	copy = fuzz_copy(data, size);
	if (!copy)
		return 0;
	/* -C's list (pahole prints its names in order, from the first one
	 * found), rotated by the last byte but one so that any name can come
	 * first */
	for (size_t i = 0; i < NR_NAMES; i++) {
		names[i] = all_names[(i + (size >= 2 ? data[size - 2] : 0)) % NR_NAMES];
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s", i ? "," : "",
					 names[i]);
	}
	fuzz_options_from(data[size - 1], list, &so, &po);
	/* pfunct -i / -T's bodies: read for every input, whatever prints */
	lopts.function_bodies = true;
	popts.only_types = names;
	popts.nr_only_types = NR_NAMES;

	ef = elf_file_open_memory("fuzz.o", copy, size, &err);
	if (!ef)
		goto out_free;
	if (dw_file_init(&df, ef, &err))
		goto out_close;
	sel = pahole_select_create(&so, &err);
	pf = pfunct_printer_create(&po, &err);
	if (so.class_names)
		psel = pahole_select_create(&so, &err);
	if (!sel || !pf || (so.class_names && !psel))
		goto out_dwarf;
	for (size_t i = 0; i < df.nr_units; i++) {
		struct cu_model *cu = load_cu(&df, i, &lopts, NULL, NULL, &err);

		if (!cu) {
			failed = true;
			break;		/* the front ends stop at the first error */
		}
		if (err.set)
			__builtin_trap();	/* success must not leave an error */
		if (!pahole_select_done(sel) &&
		    pahole_select_cu(sel, cu, &out, &err)) {
			cu_model_destroy(cu);
			failed = true;
			break;
		}
		if (psel && out.len)
			strbuf_add(&text, out.buf, out.len);
		if (compile_unit(&df.units[i]) && !pfunct_printer_done(pf) &&
		    pfunct_printer_add_cu(pf, cu, &out, &err)) {
			cu_model_destroy(cu);
			failed = true;
			break;
		}
		cu_model_destroy(cu);
		strbuf_reset(&out);
	}
	/* -C: the partial loads print what the full ones printed (their
	 * names through copies of the pages: a file given as memory has
	 * none, so each name is its own pointer) */
	elf_page_copies_init(&strs, ef);
	for (size_t i = 0; psel && !pfailed && i < df.nr_units && !pahole_select_done(psel); i++) {
		struct d2b_error perr = { 0 };
		struct cu_model *cu = load_cu(&df, i, &popts, NULL, &strs, &perr);

		fuzz_check_error(&perr);
		if (!cu || pahole_select_cu(psel, cu, &ptext, &perr))
			pfailed = true;
		fuzz_check_error(&perr);
		cu_model_destroy(cu);
	}
	if (psel && !failed && !pfailed && !err.set &&
	    (text.len != ptext.len || (text.len && memcmp(text.buf, ptext.buf, text.len))))
		__builtin_trap();	/* the partial load printed otherwise */
	if (!err.set)
		pfunct_printer_finish(pf, &out, &err);
	/* Messages are one line, NUL-terminated inside their buffer. */
	if (err.set && (memchr(err.msg, 0, sizeof(err.msg)) == NULL ||
			strchr(err.msg, '\n')))
		__builtin_trap();
out_dwarf:
	elf_page_copies_free(&strs);
	pfunct_printer_destroy(pf);
	pahole_select_destroy(sel);
	pahole_select_destroy(psel);
	strbuf_free(&out);
	strbuf_free(&text);
	strbuf_free(&ptext);
	dw_file_deinit(&df);
out_close:
	elf_file_close(ef);
out_free:
	free(copy);
	return 0;
}
