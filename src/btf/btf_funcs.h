/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * btf/btf_funcs.h: which functions get a BTF FUNC, as upstream pahole
 * (1.29-1.31) decides it.
 *
 *   ELF symtab ──► btf_elf_funcs: every STT_FUNC symbol, named up to its
 *                  first '.', ".cold"/".part" pieces dropped, sorted by name;
 *                  a name with several distinct addresses is "ambiguous";
 *                  kfuncs found in .BTF_ids set8 entries (KFUNCS flag)
 *   per CU (worker) ──► btf_func_check(): parameter locations against the
 *                  calling convention, packed structs on the stack, order of
 *                  a concrete instance's parameters against its origin
 *   merged (serial) ──► btf_funcs_emit(): candidates grouped by name in CU
 *                  order, prototypes compared across CUs, skips logged as
 *                  "NAME : skipping BTF encoding of function due to REASON",
 *                  FUNC_PROTO + FUNC (+ decl tags) added for the rest.
 *
 * The ELF table is built once, before the workers start, and is read-only
 * afterwards (workers look names up concurrently).
 */
#ifndef D2B_BTF_BTF_FUNCS_H
#define D2B_BTF_BTF_FUNCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "btf/btf_features.h"
#include "elf/elf_file.h"
#include "load/model.h"
#include "util/error.h"

struct btf;

struct btf_elf_func {
	char *name;		/* symbol name up to its first '.' */
	uint64_t addr;		/* address of the first symbol seen */
	uint32_t nr_syms;
	bool ambiguous_addr;	/* symbols with this name at >1 address */
	bool kfunc;		/* listed in a .BTF_ids kfunc set */
	uint32_t kfunc_flags;	/* KF_* flags from that set */
};

struct btf_elf_funcs {
	struct btf_elf_func *funcs;	/* sorted by name */
	size_t nr;
	char *names;		/* the funcs' names, one after the other */
	/* By name hash, open addressing: (the hash's high 32 bits << 32) |
	 * (index + 1), 0 empty (every unit looks up each of its functions: a
	 * binary search of ~45 k names was 16 string compares, each a cache
	 * miss; the hash in the slot spares a compare for every slot that
	 * holds another name, and for every name that is not a symbol) */
	uint64_t *index;
	size_t mask;
};

/* Collect the function symbols of EF (and its kfuncs when KFUNCS). */
int btf_elf_funcs_init(struct btf_elf_funcs *t, struct elf_file *ef,
		       bool kfuncs, struct d2b_error *err);
void btf_elf_funcs_deinit(struct btf_elf_funcs *t);
/* (Re)build T's name index (btf_elf_funcs_init does). Returns 0, or -1
 * when out of memory. */
int btf_elf_funcs_index(struct btf_elf_funcs *t);
/* Index of NAME in t->funcs, or -1 (by the index, else by binary search of
 * the sorted names). Thread-safe. */
long btf_elf_funcs_find(const struct btf_elf_funcs *t, const char *name);

/* Registers holding the first parameters (DWARF numbers). */
struct btf_cc {
	uint8_t nr_regs;
	uint16_t regs[8];
};

/* x86_64: rdi rsi rdx rcx r8 r9 = 5 4 1 2 8 9; aarch64: x0-x7 = 0-7; a few
 * others; unknown machines: none (no register checks). */
void btf_cc_for_machine(uint16_t machine, struct btf_cc *cc);

enum btf_func_flag {
	BTF_FN_OPTIMIZED = 1 << 0,	/* a parameter optimized out */
	BTF_FN_UNEXPECTED_REG = 1 << 1,	/* a parameter in the wrong register */
	BTF_FN_UNCERTAIN_LOC = 1 << 2,	/* packed struct beyond the registers */
	BTF_FN_REORDERED = 1 << 3,	/* concrete order != abstract order */
	BTF_FN_INCONSISTENT = 1 << 4,	/* prototypes differ across CUs */
};

/* The per-function checks (flags above, but never INCONSISTENT). */
unsigned btf_func_check(const struct cu_model *cu, const struct function *fn,
			const struct btf_cc *cc);

/* The parameter's name and type, following its abstract origin. */
const char *btf_param_name(const struct param *p);
struct type *btf_param_type(const struct param *p);

/*
 * A function candidate. In a CU fragment, type ids are the fragment's and
 * string offsets point into the fragment's string table; after the merge they
 * are the global BTF's.
 */
struct btf_func_param {
	uint32_t name_off;
	uint32_t type;
};

struct btf_func_annot {
	uint32_t value_off;
	int32_t component;	/* -1: the function; else a parameter index */
};

struct btf_func_cand {
	uint32_t elf_idx;	/* into btf_elf_funcs.funcs */
	uint32_t ret;
	uint32_t first_param, nr_params;	/* into btf_func_set.params */
	uint32_t first_annot, nr_annots;	/* into btf_func_set.annots */
	uint8_t flags;		/* enum btf_func_flag */
};

struct btf_func_set {
	struct btf_func_cand *cands;
	size_t nr_cands, cap_cands;
	struct btf_func_param *params;
	size_t nr_params, cap_params;
	struct btf_func_annot *annots;
	size_t nr_annots, cap_annots;
};

void btf_func_set_deinit(struct btf_func_set *s);
/* Append a candidate with room for its parameters and annotations (zeroed,
 * filled by the caller). Returns it, or NULL when out of memory. */
struct btf_func_cand *btf_func_set_add(struct btf_func_set *s, uint32_t nr_params,
				       uint32_t nr_annots);

/* Line logger: gets one finished line without its newline. */
typedef void (*btf_log_fn)(void *ctx, const char *line);

struct btf_funcs_result {
	size_t encoded, skipped;
};

struct btf_type;

/*
 * Where btf_funcs_emit() reads the merged types and adds the functions: a
 * libbpf btf (btf_funcs_libbpf_sink), or the merge before it becomes one
 * (btf_merge_funcs_sink, btf_raw.h: the same records without libbpf's
 * per-call string lookups). The add_* behave as libbpf's btf__add_*: the
 * new id or a negative errno. A string from str() may move when a string is
 * added.
 */
struct btf_funcs_sink {
	void *ctx;
	const struct btf_type *(*type_by_id)(void *ctx, uint32_t id);
	const char *(*str)(void *ctx, uint32_t off);
	int (*add_func_proto)(void *ctx, int ret_type_id);
	int (*add_func_param)(void *ctx, const char *name, int type_id);
	/* Optional: the same with the name as an offset of the sink's own
	 * strings (str()'s), which the candidates' are: no copy, no lookup
	 * (the merge interned them with the fragments) */
	int (*add_func_param_at)(void *ctx, uint32_t name_off, int type_id);
	int (*add_func)(void *ctx, const char *name, int linkage, int proto_type_id);
	int (*add_decl_tag)(void *ctx, const char *value, int ref_type_id, int component_idx);
};

void btf_funcs_libbpf_sink(struct btf_funcs_sink *sink, struct btf *btf);

/*
 * Choose and add the functions: groups the candidates by name (stable, so
 * the first in CU order is the one encoded), compares their prototypes,
 * logs skips through LOG (may be NULL), and adds FUNC_PROTO, FUNC and decl
 * tags (kfunc tags too when F asks) to SINK. Returns 0 or -1.
 */
int btf_funcs_emit(const struct btf_funcs_sink *sink, struct btf_func_set *set,
		   const struct btf_elf_funcs *elf, const struct btf_features *f,
		   btf_log_fn log, void *log_ctx, struct btf_funcs_result *res,
		   struct d2b_error *err);

#endif
