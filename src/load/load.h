/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * load/load.h: decode one compile unit's DIEs into a cu_model.
 *
 * Runs on a worker thread: it reads only the immutable dw_file and allocates
 * only in the new cu_model's own arena. Type units (DWARF 4 .debug_types and
 * DWARF 5 DW_UT_type) are decoded like compile units; a unit that names a
 * type unit with DW_FORM_ref_sig8 also decodes that unit into its own model
 * (see model.h), so the reference resolves.
 */
#ifndef D2B_LOAD_LOAD_H
#define D2B_LOAD_LOAD_H

#include "dwarf/dwarf.h"
#include "load/model.h"

struct elf_page_copies;

struct load_options {
	/* Types only: a C unit's functions are not recorded and their
	 * subtrees are skipped (DW_AT_sibling), with the types defined inside
	 * them: for pahole's listing, which shows unit-level types only. */
	bool skip_functions;
	bool skip_locations;	/* do not summarise parameter locations */
	bool skip_line_files;	/* no line table, no decl_file/decl_line */
	/* Lexical blocks, inlined instances and call sites whose subtrees
	 * hold only parameters, variables, labels and more of those are
	 * skipped unread (for the BTF encoder: it uses none of them, static
	 * locals are no BTF variables); the functions' counts of blocks,
	 * variables and inline expansions then leave them out. */
	bool skip_plain_blocks;
	/*
	 * pahole -C: a partial model (cu_model.partial) holding only what
	 * printing these names needs: the first definition in DIE order of
	 * each struct, union, class, enum or typedef so named, as the full
	 * model would give it, with the types it reads. A unit that has none
	 * of them yields a model without types. Units a partial load does not
	 * handle (not C, type units, references to other units) and errors
	 * fall back to the full walk (see load_partial.c). Needs skip_functions
	 * false. The array and its strings must outlive the loads. A BTF
	 * input takes them too (cli_input_run(): btf_handle_load_model()'s
	 * partial model, all that the named types reach).
	 */
	const char *const *only_types;
	size_t nr_only_types;
	/* Optional: load_sort_type_names() of only_types, made once for all
	 * units (else each partial load of more than 4 names sorts them). */
	const uint32_t *only_types_order;
	/* pahole --kabi_prefix: names that begin with it become it
	 * (cu_model_apply_kabi_prefix()); NULL: none. Not with only_types
	 * (the partial load finds types by their DIEs' names). */
	const char *kabi_prefix;
	/* pahole --fixup_silly_bitfields: a bit-field as wide as its type
	 * (int x:32) becomes a plain member (cu_model_fixup_silly_bitfields()) */
	bool fixup_silly_bitfields;
	/* pfunct -i / -T: each function's body (function.body), read after
	 * the walk from the unit's DIEs (load_body.c). */
	bool function_bodies;
	/* pfunct: a DW_AT_external attribute makes its DIE external whatever
	 * its value (pfunct 1.24 asks libdw whether it is there; gas writes
	 * DW_AT_external 0 on the vmlinux's assembler functions) */
	bool external_is_presence;
};

/* The indexes of NAMES[0..N) in strcmp() order, ties by index (malloc'd),
 * or NULL when out of memory. */
uint32_t *load_sort_type_names(const char *const *names, size_t n);

/* Returns the unit's model, or NULL with err set. BUF: NULL to read the
 * unit through the file's mapping, or a buffer of the calling thread's to
 * copy it into first (dw_cu_open_copy()): the model then points into BUF
 * (DW_FORM_string names), which must not be reused while it lives.
 * STRS: NULL, or the calling thread's copies of the file's pages
 * (elf/elf_page_copies.h), which a partial load (only_types) reads the
 * names it compares and the names it keeps for printing through: those
 * are copied into the model, so STRS may go before it. */
struct cu_model *load_cu(const struct dw_file *df, size_t unit,
			 const struct load_options *opts, struct dw_unit_buf *buf,
			 struct elf_page_copies *strs, struct d2b_error *err);

#endif
