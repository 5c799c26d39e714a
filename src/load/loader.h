/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * load/loader.h: the CU decoder's state and what its files share (private
 * to load/; the API is load.h).
 *
 *   load_cu.c       the walk over a unit's DIEs and a handler per DIE kind,
 *                   the entry point load_cu()
 *   load_plan.c     each abbreviation's plan: the ops walk_dies() runs to
 *                   decode a DIE's attributes, and the general decoder
 *   load_resolve.c  after the walk: references, origins, the model's arrays
 *   load_partial.c  pahole -C's partial loads (load_options.only_types)
 *   load_body.c     pfunct's function bodies (load_options.function_bodies)
 */
#ifndef D2B_LOAD_LOADER_H
#define D2B_LOAD_LOADER_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf/dw_read.h"
#include "load/load.h"
#include "util/vec.h"

/* The attributes of one DIE that the model uses. */
struct __attribute__((aligned(16))) die_info {
	/* Cleared for every DIE (kept under 128 bytes so clearing is a few
	 * vector stores, not a string instruction). */
	const char *name, *linkage_name, *comp_dir, *producer, *const_value_str;
	uint64_t byte_size, member_location;
	int64_t const_value;
	uint32_t decl_file, decl_line, encoding, alignment;
	uint16_t language;
	uint8_t inline_attr, calling_convention, accessibility, virtuality;
	bool has_vtable_elem, has_signature;
	bool has_type, has_origin, has_spec, has_byte_size, has_bit_size;
	bool has_data_bit_offset, has_old_bit_offset, has_member_location;
	bool member_location_is_expr, member_location_bad;
	bool has_low_pc, has_high_pc, high_pc_is_offset, has_count, has_upper_bound;
	bool upper_bound_minus_one, has_const_value, has_location, has_stmt_list;
	bool declaration, external, prototyped, const_value_is_string;
	bool gnu_vector;		/* DW_AT_GNU_vector: an array is a vector */
	/* Valid only when their has_ flag is set: not cleared. */
	uint64_t type_off, origin_off, spec_off;
	uint64_t bit_size, data_bit_offset, old_bit_offset;
	uint64_t low_pc, high_pc, stmt_list, count, upper_bound;
	uint64_t vtable_elem, signature_off;
	struct dw_attr location;
};

#define DIE_INFO_CLEARED offsetof(struct die_info, type_off)
_Static_assert(DIE_INFO_CLEARED <= 128, "die_info's cleared part grew past 128 bytes");
_Static_assert(sizeof(struct die_info) >= 128, "die_info_init() writes 128 bytes");

/*
 * Zero N bytes at P (N a constant): unaligned 16-byte stores, unrolled. For
 * the model's structs GCC otherwise emits "rep stos" (a struct literal) or
 * a memset call (arena_zalloc), whose start-up costs more than the stores.
 */
static inline __attribute__((always_inline)) void zero_bytes(void *p, size_t n)
{
	typedef uint64_t v2u64u __attribute__((vector_size(16), may_alias, aligned(1)));
	typedef uint64_t u64u __attribute__((may_alias, aligned(1)));
	const v2u64u z = { 0, 0 };
	char *c = p;
	size_t i = 0;

#pragma GCC unroll 16
	for (; i + 16 <= n; i += 16)
		*(v2u64u *)(void *)(c + i) = z;
	if (n - i >= 8) {
		*(u64u *)(void *)(c + i) = 0;
		i += 8;
	}
	for (; i < n; i++)
		c[i] = 0;
}

/* arena_zalloc for the model's small structs (see zero_bytes). */
static inline __attribute__((always_inline)) void *arena_zalloc_small(struct arena *a, size_t n)
{
	void *p = arena_alloc(a, n);

	if (p)
		zero_bytes(p, n);
	return p;
}

struct fixup {
	struct type **slot;
	uint64_t off;
};

DEFINE_VEC(fixup_vec, struct fixup)

/* A type whose DIE has DW_AT_signature, and the definition's offset. */
struct sig_type {
	struct type *t;
	uint64_t off;
};

DEFINE_VEC(sig_vec, struct sig_type)
DEFINE_VEC(type_vec, struct type *)
DEFINE_VEC(func_vec, struct function *)
DEFINE_VEC(var_vec, struct variable *)
DEFINE_VEC(member_vec, struct member)
DEFINE_VEC(param_vec, struct param)
DEFINE_VEC(u64_vec, uint64_t)
DEFINE_VEC(u32_vec, uint32_t)
DEFINE_VEC(using_vec, struct cxx_using)
DEFINE_VEC(enumerator_vec, struct enumerator)
DEFINE_VEC(dim_vec, struct array_dim)
DEFINE_VEC(param_ptr_vec, struct param *)

enum scope_kind {
	SCOPE_UNIT,
	SCOPE_COMPOSITE,
	SCOPE_ENUM,
	SCOPE_ARRAY,
	SCOPE_PROTO,
	SCOPE_FUNCTION,
	SCOPE_BLOCK,		/* lexical block or inlined subroutine inside a function */
	SCOPE_NAMESPACE,
	SCOPE_POINTER,		/* pointer-like type whose children are annotations */
	SCOPE_OTHER,		/* children read only for nested types */
};

struct scope {
	uint32_t depth;
	uint8_t kind;
	struct type *type;		/* composite, enum, array, proto, pointer */
	struct function *func;		/* function, or enclosing function of a block */
	/* the function whose own labels this scope's DW_TAG_labels are
	 * (pahole's function lexblock): the function's scope and the
	 * inlined instances in it, not lexical blocks; NULL otherwise */
	struct function *label_func;
	size_t first;			/* start in the scratch stack of its children */
	size_t first_nested;		/* composites: start in the nested stack */
	size_t first_base;		/* composites: start in the bases stack */
	size_t first_method;		/* composites: start in the methods stack */
	size_t first_using;		/* composites: start in the usings stack */
	bool has_varargs;
};

struct loader {
	const struct dw_file *df;
	struct dw_cu dcu;
	struct dw_cursor cur;
	struct cu_model *cu;
	const struct load_options *opts;
	struct d2b_error *err;

	struct fixup_vec fixups;
	struct type_vec types;
	struct u64_vec type_offs;	/* die_offset of each of types */
	struct func_vec funcs;
	struct var_vec vars;
	struct member_vec members;
	struct u64_vec member_type_offs;
	struct param_vec params;
	struct u64_vec param_type_offs;
	struct u64_vec param_origin_offs;
	struct enumerator_vec enumerators;
	struct dim_vec dims;
	struct type_vec nested;		/* scratch: types defined in open composites */
	struct type_vec enums;		/* the TK_ENUM types, for finish_enums() */
	/* C++ scratch: DW_TAG_inheritance entries and methods of open
	 * composites (see struct composite_cxx) */
	struct member_vec bases;
	struct u64_vec base_type_offs;
	struct u32_vec methods;
	struct using_vec usings;
	/* All parameters of functions, for resolving abstract origins. */
	struct param_ptr_vec all_params;
	struct u64_vec all_param_origin;

	const struct abbrev_plan **plans;	/* by dw_abbrev.index, built lazily */
	/* For the plans' ops, set by walk() for the unit it walks: .debug_str
	 * (str_ok: present and NUL-terminated at its end, so any offset
	 * below str_size starts a string), the unit's offset and length. */
	const char *str;
	uint64_t str_size;
	uint64_t unit_off, unit_len;
	bool str_ok;
	uint64_t plain_from;		/* skip_plain_block() scans from here on */
	const uint8_t *plain_ok;	/* its abbreviations (by index), made at need */
	int top;			/* the innermost open scope, -1 for none */
	int64_t top_depth;		/* its depth, -1 for none */

	/*
	 * Type units named by DW_FORM_ref_sig8 are decoded into this unit's
	 * model too ("imported"), so references into them resolve like any
	 * other: tu_units lists the units to import, tu_seen marks those
	 * listed (by unit index; allocated at the first ref_sig8, so a unit
	 * without one pays nothing). While importing, `importing` is set and
	 * the imported types are not the unit's own: they get scope TS_OTHER
	 * and their functions and variables are skipped. DIE offsets of a
	 * unit in another section than the main one (.debug_types against
	 * .debug_info) get OFF_OTHER_SECTION or'ed in (off_tag), so that
	 * offsets of two sections never collide in the fix-up table.
	 */
	struct u32_vec tu_units;
	uint8_t *tu_seen;
	/* Types whose DIE names its definition by DW_AT_signature (a
	 * declaration standing for a type unit's type), with the definition's
	 * offset: they become copies of the definition once it is loaded. */
	struct sig_vec sig_types;
	uint64_t off_tag;
	uint8_t main_section;
	bool importing;
	/* A partial load (load_options.only_types): see lazy_load() */
	struct lazy *lazy;
	/* load_cu()'s STRS: what a partial load reads names through, or
	 * NULL */
	struct elf_page_copies *strs;

	/* The plans by one-byte abbreviation code (the cursor's common case):
	 * the code byte leads to its plan in one load, not through the
	 * abbreviation and its index (a chain of loads every DIE waits on).
	 * Cleared by walk() for each unit; kept across a partial load's
	 * walks of one unit. */
	const struct abbrev_plan *by_code[128];

	/* Last: not cleared when the loader is created (64 KiB, and
	 * push_scope initialises each one it opens). */
	struct scope scopes[DW_MAX_DEPTH + 2];
};

#define OFF_OTHER_SECTION (1ULL << 63)

static inline int oom(struct loader *l)
{
	return d2b_error_oom(l->err);
}

/*
 * What a reference's target must hold for pahole -C to print the types of
 * a partial load (lazy_load()), from least to most: nothing (LV_NONE: the
 * slot stays NULL), its name (a pointer's target), what a value of it takes
 * (LV_VALUE: size, alignment, members), all of it (LV_FULL: printed whole).
 */
enum lazy_level { LV_NONE, LV_NAME, LV_VALUE, LV_FULL };

/* A slot with its level in the low bits (slots are pointer-aligned): the
 * full walk ignores it, a partial load decodes the target for it. */
#define FIXUP_LEVEL_MASK ((uintptr_t)3)
_Static_assert(_Alignof(struct type *) > FIXUP_LEVEL_MASK, "no room for the level");

static inline struct type **fixup_slot(const struct fixup *f)
{
	return (struct type **)((uintptr_t)f->slot & ~FIXUP_LEVEL_MASK);
}

static inline uint8_t fixup_level(const struct fixup *f)
{
	return (uint8_t)((uintptr_t)f->slot & FIXUP_LEVEL_MASK);
}

static inline int add_fixup(struct loader *l, struct type **slot, uint64_t off,
			    uint8_t level)
{
	*slot = NULL;
	slot = (struct type **)((uintptr_t)slot | level);
	return fixup_vec_push(&l->fixups, (struct fixup){ slot, off }) ? oom(l) : 0;
}

static inline int die_error(struct loader *l, const struct dw_die *die, const char *what)
{
	return d2b_error_at(l->err, l->df->path, l->dcu.sec->name, die->offset, "%s", what);
}

static inline bool lang_is_c(uint16_t lang)
{
	return lang == DW_LANG_C89 || lang == DW_LANG_C || lang == DW_LANG_C99 ||
	       lang == DW_LANG_C11 || lang == DW_LANG_C17;
}

/*
 * Each abbreviation is compiled once per CU into a plan that walk() runs
 * as a small threaded interpreter: one indirect jump per op, and each op
 * fuses the attribute's destination with its form (a ref4 into type_off, a
 * strp into name, a data1 into decl_line...), so the common attribute costs
 * one dispatch, where a switch on the slot and a switch on the form cost two.
 *
 *   - constants of the abbreviation itself (DW_FORM_implicit_const,
 *     DW_FORM_flag_present) go into the plan's template of the cleared part
 *     of die_info, which walk() copies instead of clearing: no op at all
 *     (only for an attribute that occurs once in its abbreviation, so that
 *     "the last one wins" cannot be reordered);
 *   - a run of fixed-size ops is preceded by one OP_CHECK of their total
 *     size, so the ops of the run read without bound checks of their own
 *     (a member DIE is one check and five or six straight loads);
 *   - whatever is unusual (another form, a value out of range, a truncated
 *     DIE) restarts the op in read_die_slow, the plain loop that decodes each
 *     attribute with dw_form_read and reports errors exactly as it always did.
 */
enum op_code {
	OP_END,
	OP_CHECK,		/* .form bytes must remain (the run that follows) */
	OP_SKIP,		/* .form bytes of unwanted fixed-size attributes */
	OP_SKIP_VAR,		/* one unwanted attribute of variable size */
	OP_GENERIC,		/* dw_form_read_fast, then apply_attr */
	OP_STRP4,		/* strp (32-bit DWARF) -> const char * at .dst */
	OP_STRING,		/* inline string -> const char * at .dst */
	OP_REF4,		/* ref4 -> uint64_t at .dst, true at .flag */
	OP_SIB_REF4,		/* ref4 DW_AT_sibling */
	OP_U8_1,		/* data1 -> uint8_t at .dst */
	OP_U32_1, OP_U32_2, OP_U32_4,	/* data1/2/4 -> uint32_t at .dst */
	/* data1/2/4/8 (or addr of that size), sdata -> uint64_t at .dst and
	 * true at .flag */
	OP_U64F_1, OP_U64F_2, OP_U64F_4, OP_U64F_8, OP_U64F_SDATA,
	OP_BOOL_1,		/* flag -> bool at .dst */
	OP_LOC_SEC4,		/* DW_AT_location as a 32-bit sec_offset */
	OP_LOC_EXPR,		/* DW_AT_location as an exprloc */
	OP_NR
};

struct attr_op {
	uint8_t code;		/* enum op_code */
	uint8_t slot;		/* enum attr_slot, for OP_GENERIC and the slow path */
	uint16_t form;		/* or the byte count for OP_CHECK and OP_SKIP */
	uint16_t dst, flag;	/* offsets in struct die_info */
	int64_t implicit_const;
};

struct abbrev_plan {
	/* die_info's cleared part with the abbreviation's constants */
	unsigned char tmpl[128] __attribute__((aligned(16)));
	struct attr_op ops[];	/* up to OP_END */
};

static inline uint16_t ld16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t ld32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t ld64(const uint8_t *p)
{
	return (uint64_t)ld32(p) | (uint64_t)ld32(p + 4) << 32;
}

/* The template's 128 bytes into DI, as eight 16-byte loads and stores: not
 * memcpy, which for this size GCC may turn into "rep movs", whose start-up
 * cost is a fifth of a DIE's decoding. may_alias: the stores cover fields of
 * other types (without it GCC may keep a field's old value across them). */
static inline void die_info_init(struct die_info *di, const unsigned char *tmpl)
{
	typedef uint64_t v2u64 __attribute__((vector_size(16), may_alias));
	v2u64 *q = (v2u64 *)(void *)di;
	const v2u64 *t = (const v2u64 *)(const void *)tmpl;

	q[0] = t[0];
	q[1] = t[1];
	q[2] = t[2];
	q[3] = t[3];
	q[4] = t[4];
	q[5] = t[5];
	q[6] = t[6];
	q[7] = t[7];
}

/* Open-addressing index of the unit's types by DIE offset: fix-ups are
 * resolved in O(1) each instead of a binary search. */
static inline size_t offset_hash(uint64_t off, size_t mask)
{
	return (size_t)((off * 0x9e3779b97f4a7c15ULL) >> 32) & mask;
}

/* A slot of that index: the key is kept beside the type, so a probe does
 * not load the type (a cache miss per fix-up). */
struct type_slot {
	uint64_t off;
	struct type *t;		/* NULL: empty */
};

/* The first type (in insertion order) at DIE offset OFF, or NULL. */
static inline struct type *find_type_slot(const struct type_slot *slots, size_t mask,
					  uint64_t off)
{
	size_t h = offset_hash(off, mask);

	while (slots[h].t && slots[h].off != off)
		h = (h + 1) & mask;
	return slots[h].t;
}

/* ---- Between the files ---- */

/* load_plan.c */
/* AB's plan, built into the unit's arena and l->plans (NULL: out of memory). */
const struct abbrev_plan *loader_build_plan(struct loader *l, const struct dw_abbrev *ab);
/* One attribute (OP) read the general way from *P, stored into DI. */
int loader_generic_op(struct loader *l, const struct dw_die *die, struct die_info *di,
		      const struct attr_op *op, const uint8_t **p, const uint8_t *end,
		      uint64_t *sibling);
/* The ops from OP on, from P, the general way; ends the cursor's DIE. */
int loader_read_die_slow(struct loader *l, const struct dw_die *die, struct die_info *di,
			 const struct attr_op *op, const uint8_t *p, uint64_t sibling);
/* All of DIE's attributes into DI the general way. */
int loader_read_die_generic(struct loader *l, const struct dw_die *die, struct die_info *di);

/* load_cu.c */
/* The walk over l->dcu's DIEs from the cursor on; its set-up for a unit. */
int loader_walk_dies(struct loader *l);
void loader_walk_setup(struct loader *l);

/* load_resolve.c */
struct type *loader_unresolved_type(struct loader *l, uint64_t off);
int loader_resolve_fixups(struct loader *l);
/* load_body.c: every function's body (load_options.function_bodies), once
 * the model is complete. */
int loader_read_bodies(struct loader *l);
int loader_finish_arrays(struct loader *l);
int loader_finish_model(struct loader *l);

/* load_partial.c */
/* A partial load of l->dcu: 0 done, 1 not possible (the caller walks the
 * unit whole), -1 error. */
int loader_lazy_load(struct loader *l);
/* For new_type() in a partial load: the type being completed at DIE, and
 * the record of a new one. */
struct type *loader_lazy_reused(struct loader *l, const struct dw_die *die);
int loader_lazy_register(struct loader *l, struct type *t, const struct dw_die *die,
			 const struct die_info *di);

#endif
