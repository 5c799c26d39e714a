/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * btf/btf_load.h: BTF in, the type model out.
 *
 * A btf_handle is one validated BTF, opened from
 *
 *   - a raw BTF file (starts with the 0xeb9f magic, either byte order),
 *   - an ELF file's ".BTF" section (read through elf/elf_file.h),
 *   - either of those as split BTF on top of a base (raw or ELF), as the
 *     kernel's modules are on top of vmlinux,
 *   - nothing: btf_default_vmlinux_path() names the running kernel's BTF.
 *
 * libbpf (1.1) parses it, but only after our own pass over the raw bytes:
 * header, section layout, every type's record size, every string offset,
 * every type id a type refers to (and the kind it must have: a FUNC's type
 * is a FUNC_PROTO, a DECL_TAG's target a struct, union, func, var or
 * typedef and its component index in range...). That much keeps every
 * reader in bounds.
 *
 * What recurses along references (the printers, through the model; btfdiff)
 * also needs the graph checked: no reference cycle that would make it
 * recurse forever, no chain deeper than BTF_LOAD_MAX_DEPTH. The only edges
 * that may close a cycle are the members of a *named* struct or union
 * (printers name those instead of expanding them): a typedef or pointer
 * loop, an array of itself, a function prototype taking a pointer to
 * itself, or an anonymous struct containing itself are errors.
 * btf_handle_load_model() checks the types it takes (pahole -C's closure
 * only: 7 k of a vmlinux's 95 k for task_struct), btf_handle_check_graph()
 * all of them; a split BTF's chains are followed into its base. The
 * encoder, which reads its --btf_base only beside a module's own types, in
 * step, checks no graph (a tenth of a module's run).
 *
 * Every error is one line: "PATH: .BTF+0xOFF: what" (OFF from the start of
 * the BTF data; a base type's in its base's path).
 *
 * btf_handle_load_model() converts the whole BTF (base types first, for
 * split BTF, as pahole does) into ONE cu_model:
 *
 *   types[i]          every type in BTF id order; types[i]->id == i,
 *                     types[i]->die_offset == the BTF type id. TYPE_TAG,
 *                     FUNC, VAR, DATASEC and DECL_TAG records are not types:
 *     INT, FLOAT      TK_BASE (encoding DW_ATE_boolean / signed_char /
 *                     unsigned_char / signed / unsigned / float)
 *     PTR             TK_POINTER; the TYPE_TAGs between it and its pointee
 *                     become its "btf_type_tag" annotations, in the order
 *                     DWARF lists them (innermost first)
 *     CONST, VOLATILE, RESTRICT, TYPEDEF, ARRAY (one dimension each; an
 *                     array of arrays stays nested; 0 elements: flexible),
 *     STRUCT, UNION   members with bit offsets and bit-field sizes
 *     FWD             a struct/union declaration (size 0)
 *     ENUM, ENUM64    values, is_signed from the kind flag
 *     FUNC_PROTO      params; a last param of type 0 means "..."
 *   functions[]       every FUNC in id order: name, the prototype's return
 *                     type and params (copied: each function's params carry
 *                     their own decl tags), external from the linkage
 *   variables[]       every VAR in id order
 *   DECL_TAG          "btf_decl_tag" annotations on the struct, union,
 *                     typedef, member, function, parameter or variable
 *   from_btf          true; cu_lang DW_LANG_C; name = the path opened
 *
 * Strings point into the handle's libbpf objects: the model must not
 * outlive its handle.
 */
#ifndef D2B_BTF_BTF_LOAD_H
#define D2B_BTF_BTF_LOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "load/model.h"
#include "util/error.h"

struct btf;			/* libbpf's */
struct btf_handle;

#define BTF_LOAD_MAX_DEPTH 1024

/* Where BTF comes from when no file is named: $PAHOLE_VMLINUX_BTF_FILENAME
 * when set (even to a missing file: opening it then fails), else
 * /sys/kernel/btf/vmlinux. */
const char *btf_default_vmlinux_path(void);

/* The base a module's BTF in sysfs is split against, as pahole takes it
 * when none is given: for PATH /sys/kernel/btf/NAME (not vmlinux), the
 * running kernel's BTF (btf_default_vmlinux_path()); NULL otherwise. */
const char *btf_sysfs_module_base(const char *path);

/* What PATH holds, without validating it: */
enum btf_probe {
	BTF_PROBE_NONE,		/* unreadable, or neither raw BTF nor ELF */
	BTF_PROBE_RAW,		/* starts with the BTF magic */
	BTF_PROBE_ELF,		/* an ELF file with a .BTF section */
	BTF_PROBE_ELF_NO_BTF,	/* an ELF file without one */
};
enum btf_probe btf_probe_file(const char *path);

/*
 * Open and validate PATH (raw or ELF; NULL: btf_default_vmlinux_path()),
 * as split BTF on top of BASE_PATH when that is not NULL. Returns the
 * handle, or NULL with err set.
 */
struct btf_handle *btf_handle_open(const char *path, const char *base_path,
				   struct d2b_error *err);

/* The same from memory (raw BTF bytes; copied). PATH names it in
 * messages; BASE may be NULL, else it must outlive the new handle. */
struct btf_handle *btf_handle_open_memory(const char *path, const void *data,
					  size_t size,
					  const struct btf_handle *base,
					  struct d2b_error *err);
void btf_handle_close(struct btf_handle *h);	/* accepts NULL */

/*
 * A whole BTF (PATH as btf_handle_open() takes it, never split) checked as
 * every BTF is, but not parsed by libbpf: btf_handle_btf() is NULL until
 * btf_handle_parse(). What the encoder takes as --btf_base: it reads the
 * base through a view (btf_handle_base_view()), and libbpf's parse of a
 * vmlinux base (a copy of its 4 MB, an index of its records) was a tenth
 * of each module's run. Nothing that needs the model or the graph
 * (btf_handle_load_model(), btf_handle_check_graph()) takes it.
 */
struct btf_handle *btf_handle_open_unparsed(const char *path, struct d2b_error *err);
struct btf_handle *btf_handle_open_memory_unparsed(const char *path, const void *data,
						   size_t size, struct d2b_error *err);
/* libbpf's parse of H, if not done yet: 0, or -1 with ERR set. */
int btf_handle_parse(struct btf_handle *h, struct d2b_error *err);
/* H's records and strings as a base's view (btf_base.h; V must not outlive
 * H; free it with btf_base_view_free()). H must not be split. 0, or -1
 * with ERR set. */
struct btf_base_view;
int btf_handle_base_view(const struct btf_handle *h, struct btf_base_view *v,
			 struct d2b_error *err);

/* No reference cycle and no chain deeper than BTF_LOAD_MAX_DEPTH among
 * all of H's types, its base's included: 0, or -1 with ERR set. */
int btf_handle_check_graph(const struct btf_handle *h, struct d2b_error *err);

/* libbpf's parse of raw split BTF bytes on BASE (libbpf 1.1 does not
 * export btf__new_split): a new btf, or NULL with errno set. */
struct btf *btf_parse_split_bytes(const void *data, size_t size, struct btf *base);

/* The path it was opened from (the default's, when opened with NULL). */
const char *btf_handle_path(const struct btf_handle *h);
/* The libbpf object: base types included for split BTF (NULL for a
 * handle btf_handle_open_unparsed() opened until btf_handle_parse()). */
const struct btf *btf_handle_btf(const struct btf_handle *h);
/* The first type id of this BTF's own types: 1, or btf__type_cnt(base)
 * for split BTF. */
uint32_t btf_handle_start_id(const struct btf_handle *h);

/* What a partial model holds (pahole -C): the types named NAMES[0..NR)
 * and all they reach. ORDER: NULL, or the names' indexes in strcmp()
 * order (load_sort_type_names()) for a binary search. */
struct btf_model_only {
	const char *const *names;
	size_t nr_names;
	const uint32_t *order;
};

/*
 * Convert everything (see above) into a new cu_model the caller owns
 * (cu_model_destroy), or with ONLY (not NULL, with names) only the types
 * it names, every type they reach and the DECL_TAGs on those, in id order
 * as in the whole model, without functions or variables: what printing
 * the named types reads. It must be destroyed before the handle is closed.
 * Returns NULL with err set (out of memory only: the BTF was validated).
 */
struct cu_model *btf_handle_load_model(const struct btf_handle *h,
				       const struct btf_model_only *only,
				       struct d2b_error *err);

#endif
