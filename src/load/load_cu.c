// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CU decoder: one pre-order walk over a unit's DIEs builds its cu_model.
 *
 * Every object is allocated in the model's arena at a stable address.
 * Children (members, parameters, enumerators, dimensions) are collected on
 * per-kind scratch stacks while their parent's scope is open and copied
 * into arena arrays when it closes. Type references are recorded as
 * (slot, DIE offset) fix-ups and resolved after the walk, because DWARF
 * references point forwards as often as backwards.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf/dw_read.h"
#include "load/load.h"
#include "util/name_sort.h"
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
	size_t first;			/* start in the scratch stack of its children */
	size_t first_nested;		/* composites: start in the nested stack */
	size_t first_base;		/* composites: start in the bases stack */
	size_t first_method;		/* composites: start in the methods stack */
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

static void loader_free_scratch(struct loader *l)
{
	fixup_vec_free(&l->fixups);
	type_vec_free(&l->types);
	u64_vec_free(&l->type_offs);
	func_vec_free(&l->funcs);
	var_vec_free(&l->vars);
	member_vec_free(&l->members);
	u64_vec_free(&l->member_type_offs);
	param_vec_free(&l->params);
	u64_vec_free(&l->param_type_offs);
	u64_vec_free(&l->param_origin_offs);
	enumerator_vec_free(&l->enumerators);
	dim_vec_free(&l->dims);
	type_vec_free(&l->nested);
	type_vec_free(&l->enums);
	member_vec_free(&l->bases);
	u64_vec_free(&l->base_type_offs);
	u32_vec_free(&l->methods);
	u32_vec_free(&l->tu_units);
	sig_vec_free(&l->sig_types);
	free(l->tu_seen);
	param_ptr_vec_free(&l->all_params);
	u64_vec_free(&l->all_param_origin);
	free(l->plans);
}

static int oom(struct loader *l)
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

/*
 * The unit-sized scratch vectors, sized from the unit's length up front
 * instead of doubling from 8 (their reallocs copied about 2% of the
 * loader's work). A kernel unit has about one DIE per 12 bytes, a fix-up
 * for 3 DIEs in 4, a type for 1 in 4 and a function parameter for 1 in 8.
 * Best effort: a reservation that fails leaves the vector to grow as
 * before, and none is larger than 1 Mi entries.
 */
static void reserve_scratch(struct loader *l)
{
	uint64_t dies = (l->dcu.unit->end - l->dcu.unit->first_die) / 12;
	size_t cap = 1u << 20;

	if (dies > cap)
		dies = cap;
	(void)fixup_vec_reserve(&l->fixups, (size_t)dies * 3 / 4);
	(void)type_vec_reserve(&l->types, (size_t)dies / 4);
	(void)u64_vec_reserve(&l->type_offs, (size_t)dies / 4);
	(void)param_ptr_vec_reserve(&l->all_params, (size_t)dies / 8);
	(void)u64_vec_reserve(&l->all_param_origin, (size_t)dies / 8);
	(void)func_vec_reserve(&l->funcs, (size_t)dies / 32);
}

static int die_error(struct loader *l, const struct dw_die *die, const char *what)
{
	return d2b_error_at(l->err, l->df->path, l->dcu.sec->name, die->offset, "%s", what);
}

/* Constant value of a data-class attribute for sizes and offsets. */
static bool attr_udata(const struct dw_attr *a, uint64_t *v)
{
	if (a->cls == DW_CLS_UNSIGNED || a->cls == DW_CLS_FLAG) {
		*v = a->u;
		return true;
	}
	if (a->cls == DW_CLS_SIGNED) {
		*v = (uint64_t)a->s;
		return true;
	}
	return false;
}

/* DW_AT_data_member_location given as an expression: the forms compilers
 * emit are DW_OP_plus_uconst N and DW_OP_constu N (DWARF 2). */
static bool eval_member_location(const struct dw_attr *a, uint64_t *v)
{
	const uint8_t *p = a->block.data, *end = p + a->block.len;
	uint64_t r = 0;
	unsigned shift = 0;

	if (a->block.len < 2 || (p[0] != DW_OP_plus_uconst && p[0] != DW_OP_constu))
		return false;
	for (p++; p < end; p++) {
		if (shift < 64)
			r |= (uint64_t)(*p & 0x7f) << shift;
		shift += 7;
		if (!(*p & 0x80)) {
			*v = r;
			return p + 1 == end;
		}
	}
	return false;
}

/*
 * The attributes the model reads, as dense slots; everything else is skipped
 * by form (runs of unwanted fixed-size attributes as a single skip).
 */
enum attr_slot {
	AS_SKIP,
	AS_NAME, AS_LINKAGE_NAME, AS_COMP_DIR, AS_PRODUCER, AS_TYPE, AS_ORIGIN, AS_SPEC,
	AS_BYTE_SIZE, AS_BIT_SIZE, AS_ENCODING, AS_ALIGNMENT, AS_DATA_BIT_OFFSET,
	AS_BIT_OFFSET, AS_MEMBER_LOCATION, AS_LOW_PC, AS_HIGH_PC, AS_DECL_FILE,
	AS_DECL_LINE, AS_LANGUAGE, AS_STMT_LIST, AS_COUNT, AS_UPPER_BOUND,
	AS_CONST_VALUE, AS_LOCATION, AS_DECLARATION, AS_EXTERNAL, AS_PROTOTYPED,
	AS_INLINE, AS_CALLING_CONVENTION, AS_ACCESSIBILITY, AS_VIRTUALITY,
	AS_VTABLE_ELEM, AS_SIGNATURE, AS_SIBLING,
	AS_NR
};

static const uint8_t attr_slots[256] = {
	[DW_AT_name] = AS_NAME,
	[DW_AT_linkage_name] = AS_LINKAGE_NAME,
	[DW_AT_comp_dir] = AS_COMP_DIR,
	[DW_AT_producer] = AS_PRODUCER,
	[DW_AT_type] = AS_TYPE,
	[DW_AT_abstract_origin] = AS_ORIGIN,
	[DW_AT_specification] = AS_SPEC,
	[DW_AT_byte_size] = AS_BYTE_SIZE,
	[DW_AT_bit_size] = AS_BIT_SIZE,
	[DW_AT_encoding] = AS_ENCODING,
	[DW_AT_alignment] = AS_ALIGNMENT,
	[DW_AT_data_bit_offset] = AS_DATA_BIT_OFFSET,
	[DW_AT_bit_offset] = AS_BIT_OFFSET,
	[DW_AT_data_member_location] = AS_MEMBER_LOCATION,
	[DW_AT_low_pc] = AS_LOW_PC,
	[DW_AT_high_pc] = AS_HIGH_PC,
	[DW_AT_decl_file] = AS_DECL_FILE,
	[DW_AT_decl_line] = AS_DECL_LINE,
	[DW_AT_language] = AS_LANGUAGE,
	[DW_AT_stmt_list] = AS_STMT_LIST,
	[DW_AT_count] = AS_COUNT,
	[DW_AT_upper_bound] = AS_UPPER_BOUND,
	[DW_AT_const_value] = AS_CONST_VALUE,
	[DW_AT_location] = AS_LOCATION,
	[DW_AT_declaration] = AS_DECLARATION,
	[DW_AT_external] = AS_EXTERNAL,
	[DW_AT_prototyped] = AS_PROTOTYPED,
	[DW_AT_inline] = AS_INLINE,
	[DW_AT_calling_convention] = AS_CALLING_CONVENTION,
	[DW_AT_accessibility] = AS_ACCESSIBILITY,
	[DW_AT_virtuality] = AS_VIRTUALITY,
	[DW_AT_vtable_elem_location] = AS_VTABLE_ELEM,
	[DW_AT_signature] = AS_SIGNATURE,
	[DW_AT_sibling] = AS_SIBLING,	/* for the cursor: skipping a subtree */
};

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

/* Where a slot's value goes in die_info, for the fused ops. */
enum slot_kind {
	K_OTHER,	/* only OP_GENERIC */
	K_STR,		/* const char *dst */
	K_REF,		/* uint64_t dst, bool flag */
	K_SIB,
	K_U8,		/* uint8_t dst */
	K_U32,		/* uint32_t dst */
	K_U64F,		/* uint64_t dst, bool flag (attr_udata) */
	K_ADDR,		/* uint64_t dst, bool flag: only DW_FORM_addr fused */
	K_BOOL,		/* bool dst */
	K_LOC,		/* di->location */
};

struct slot_field {
	uint16_t dst, flag;
	uint8_t kind;
};

#define SF(kind, field) { offsetof(struct die_info, field), 0, kind }
#define SFF(kind, field, has) \
	{ offsetof(struct die_info, field), offsetof(struct die_info, has), kind }

static const struct slot_field slot_fields[AS_NR] = {
	[AS_NAME] = SF(K_STR, name),
	[AS_LINKAGE_NAME] = SF(K_STR, linkage_name),
	[AS_COMP_DIR] = SF(K_STR, comp_dir),
	[AS_PRODUCER] = SF(K_STR, producer),
	[AS_TYPE] = SFF(K_REF, type_off, has_type),
	[AS_ORIGIN] = SFF(K_REF, origin_off, has_origin),
	[AS_SPEC] = SFF(K_REF, spec_off, has_spec),
	[AS_SIGNATURE] = SFF(K_REF, signature_off, has_signature),
	[AS_SIBLING] = { 0, 0, K_SIB },
	[AS_BYTE_SIZE] = SFF(K_U64F, byte_size, has_byte_size),
	[AS_BIT_SIZE] = SFF(K_U64F, bit_size, has_bit_size),
	[AS_DATA_BIT_OFFSET] = SFF(K_U64F, data_bit_offset, has_data_bit_offset),
	[AS_BIT_OFFSET] = SFF(K_U64F, old_bit_offset, has_old_bit_offset),
	[AS_MEMBER_LOCATION] = SFF(K_U64F, member_location, has_member_location),
	[AS_COUNT] = SFF(K_U64F, count, has_count),
	[AS_UPPER_BOUND] = SFF(K_U64F, upper_bound, has_upper_bound),
	[AS_CONST_VALUE] = SFF(K_U64F, const_value, has_const_value),
	[AS_LOW_PC] = SFF(K_ADDR, low_pc, has_low_pc),
	[AS_HIGH_PC] = SFF(K_ADDR, high_pc, has_high_pc),
	[AS_ENCODING] = SF(K_U32, encoding),
	[AS_ALIGNMENT] = SF(K_U32, alignment),
	[AS_DECL_FILE] = SF(K_U32, decl_file),
	[AS_DECL_LINE] = SF(K_U32, decl_line),
	[AS_INLINE] = SF(K_U8, inline_attr),
	[AS_CALLING_CONVENTION] = SF(K_U8, calling_convention),
	[AS_ACCESSIBILITY] = SF(K_U8, accessibility),
	[AS_VIRTUALITY] = SF(K_U8, virtuality),
	[AS_DECLARATION] = SF(K_BOOL, declaration),
	[AS_EXTERNAL] = SF(K_BOOL, external),
	[AS_PROTOTYPED] = SF(K_BOOL, prototyped),
	[AS_LOCATION] = { 0, 0, K_LOC },
};

#undef SF
#undef SFF

static uint8_t attr_slot_of(const struct loader *l, uint16_t name)
{
	uint8_t slot = name < 256 ? attr_slots[name] :
		       name == DW_AT_MIPS_linkage_name ? AS_LINKAGE_NAME : AS_SKIP;

	/* without the line table, decl_file names nothing, and only
	 * pfunct -l (which reads it) prints decl_line: two fewer ops
	 * for nearly every DIE */
	if (l->opts->skip_line_files && (slot == AS_DECL_FILE || slot == AS_DECL_LINE))
		slot = AS_SKIP;
	return slot;
}

/* Puts an abbreviation's constant into the template, if it can go there:
 * true when it did (then the attribute needs no op). */
static bool plan_constant(unsigned char *tmpl, uint8_t slot, unsigned form, int64_t ic)
{
	const struct slot_field *sf = &slot_fields[slot];
	unsigned char *base = tmpl;

	if (form == DW_FORM_flag_present) {
		if (sf->kind != K_BOOL)
			return false;
		*(bool *)(base + sf->dst) = true;
		return true;
	}
	switch (sf->kind) {
	case K_U8:
		*(uint8_t *)(base + sf->dst) = (uint8_t)ic;
		return true;
	case K_U32:
		*(uint32_t *)(base + sf->dst) = (uint32_t)ic;
		return true;
	case K_U64F:
		/* upper_bound: -1 has a meaning of its own */
		if (slot == AS_UPPER_BOUND || sf->dst + sizeof(uint64_t) > DIE_INFO_CLEARED)
			return false;
		*(uint64_t *)(base + sf->dst) = (uint64_t)ic;
		*(bool *)(base + sf->flag) = true;
		return true;
	}
	return false;
}

/* The fused op for SLOT read in FORM, or OP_GENERIC. */
static uint8_t plan_op(const struct loader *l, uint8_t slot, unsigned form)
{
	const struct dw_unit *u = l->dcu.unit;

	switch (slot_fields[slot].kind) {
	case K_STR:
		if (form == DW_FORM_strp && u->offset_size == 4 && l->str_ok)
			return OP_STRP4;
		if (form == DW_FORM_string)
			return OP_STRING;
		break;
	case K_REF:
		if (form == DW_FORM_ref4)
			return OP_REF4;
		break;
	case K_SIB:
		if (form == DW_FORM_ref4)
			return OP_SIB_REF4;
		break;
	case K_U8:
		if (form == DW_FORM_data1)
			return OP_U8_1;
		break;
	case K_U32:
		if (form == DW_FORM_data1)
			return OP_U32_1;
		if (form == DW_FORM_data2)
			return OP_U32_2;
		if (form == DW_FORM_data4)
			return OP_U32_4;
		break;
	case K_U64F:
		if (form == DW_FORM_data1)
			return OP_U64F_1;
		if (form == DW_FORM_data2)
			return OP_U64F_2;
		if (form == DW_FORM_data4)
			return OP_U64F_4;
		/* upper_bound: data8 all-ones and sdata -1 mean "no elements" */
		if (form == DW_FORM_data8 && slot != AS_UPPER_BOUND)
			return OP_U64F_8;
		if (form == DW_FORM_sdata && slot != AS_UPPER_BOUND)
			return OP_U64F_SDATA;
		break;
	case K_ADDR:
		if (form == DW_FORM_addr && u->addr_size == 4)
			return OP_U64F_4;
		if (form == DW_FORM_addr && u->addr_size == 8)
			return OP_U64F_8;
		break;
	case K_BOOL:
		if (form == DW_FORM_flag)
			return OP_BOOL_1;
		break;
	case K_LOC:
		if (form == DW_FORM_sec_offset && u->offset_size == 4)
			return OP_LOC_SEC4;
		if (form == DW_FORM_exprloc)
			return OP_LOC_EXPR;
		break;
	}
	return OP_GENERIC;
}

/* Bytes a fused op reads, 0 for those of variable size (and generic). */
static const uint8_t op_fixed_size[OP_NR] = {
	[OP_U8_1] = 1, [OP_U32_1] = 1, [OP_U64F_1] = 1, [OP_BOOL_1] = 1,
	[OP_U32_2] = 2, [OP_U64F_2] = 2,
	[OP_STRP4] = 4, [OP_REF4] = 4, [OP_SIB_REF4] = 4, [OP_U32_4] = 4,
	[OP_U64F_4] = 4, [OP_LOC_SEC4] = 4,
	[OP_U64F_8] = 8,
};

struct plan_builder {
	struct attr_op *ops;
	uint32_t n;
	int64_t check;		/* index of the open OP_CHECK, -1 if none */
};

/* Append an op reading SIZE bytes (> 0) to the open check run. */
static inline void emit_fixed(struct plan_builder *b, struct attr_op op, unsigned size)
{
	if (b->check < 0 || b->ops[b->check].form + size > 0xffff) {
		b->ops[b->n] = (struct attr_op){ .code = OP_CHECK };
		b->check = b->n++;
	}
	b->ops[b->check].form += (uint16_t)size;
	if (op.code == OP_SKIP && b->ops[b->n - 1].code == OP_SKIP &&
	    b->ops[b->n - 1].form + size <= 0xffff) {
		b->ops[b->n - 1].form += (uint16_t)size;
		return;
	}
	b->ops[b->n++] = op;
}

static inline void emit_var(struct plan_builder *b, struct attr_op op)
{
	b->ops[b->n++] = op;
	b->check = -1;
}

/* Whether two attributes of AB go into SLOT (then the constant of one of
 * them cannot go into the template: "the last one wins"). */
static bool slot_repeated(const struct loader *l, const struct dw_abbrev *ab, uint8_t slot)
{
	unsigned n = 0;

	for (unsigned i = 0; i < ab->nr_attrs; i++)
		if (attr_slot_of(l, ab->attrs[i].name) == slot && ++n > 1)
			return true;
	return false;
}

/* Once per abbreviation and unit: out of line, to keep walk() small. */
static const struct abbrev_plan * __attribute__((noinline))
build_plan(struct loader *l, const struct dw_abbrev *ab)
{
	/* at most an OP_CHECK and an op per attribute, and OP_END */
	struct abbrev_plan *plan = arena_alloc(&l->cu->arena, sizeof(*plan) +
					       (2 * (size_t)ab->nr_attrs + 1) * sizeof(struct attr_op));
	struct plan_builder b = { .check = -1 };

	if (!plan)
		return NULL;
	zero_bytes(plan->tmpl, sizeof(plan->tmpl));
	b.ops = plan->ops;
	for (unsigned i = 0; i < ab->nr_attrs; i++) {
		const struct dw_abbrev_attr *aa = &ab->attrs[i];
		uint8_t slot = attr_slot_of(l, aa->name);
		struct attr_op op = {
			.slot = slot, .form = aa->form,
			.dst = slot_fields[slot].dst, .flag = slot_fields[slot].flag,
			.implicit_const = aa->implicit_const,
		};
		unsigned size;

		if (slot == AS_SKIP) {
			int fs = dw_cu_form_size(&l->dcu, aa->form);

			if (fs < 0) {
				op.code = OP_SKIP_VAR;
				emit_var(&b, op);
			} else if (fs > 0) {
				op.code = OP_SKIP;
				op.form = (uint16_t)fs;
				emit_fixed(&b, op, (unsigned)fs);
			}
			continue;
		}
		if ((aa->form == DW_FORM_implicit_const || aa->form == DW_FORM_flag_present) &&
		    !slot_repeated(l, ab, slot) &&
		    plan_constant(plan->tmpl, slot, aa->form, aa->implicit_const))
			continue;
		op.code = plan_op(l, slot, aa->form);
		size = op_fixed_size[op.code];
		if (size)
			emit_fixed(&b, op, size);
		else
			emit_var(&b, op);
	}
	b.ops[b.n] = (struct attr_op){ .code = OP_END };
	l->plans[ab->index] = plan;
	return plan;
}

/* Queue type unit TU for import (once). */
static int want_type_unit(struct loader *l, const struct dw_unit *tu)
{
	if (!l->tu_seen) {
		l->tu_seen = calloc(l->df->nr_units ? l->df->nr_units : 1, 1);
		if (!l->tu_seen)
			return oom(l);
		l->tu_seen[l->dcu.unit->index] = 1;	/* the main unit (or current import) */
	}
	if (tu->index >= l->df->nr_units || l->tu_seen[tu->index])
		return 0;
	l->tu_seen[tu->index] = 1;
	return u32_vec_push(&l->tu_units, tu->index) ? oom(l) : 0;
}

/* Store attribute A, decoded, into its SLOT of DI. */
static int apply_attr(struct loader *l, const struct dw_die *die, struct die_info *di,
		      uint8_t slot, const struct dw_attr *a, uint64_t *sibling)
{
	uint64_t v = 0;

	switch (slot) {
	case AS_NAME:
		if (a->cls == DW_CLS_STRING)
			di->name = a->str;
		break;
	case AS_LINKAGE_NAME:
		if (a->cls == DW_CLS_STRING)
			di->linkage_name = a->str;
		break;
	case AS_COMP_DIR:
		if (a->cls == DW_CLS_STRING)
			di->comp_dir = a->str;
		break;
	case AS_PRODUCER:
		if (a->cls == DW_CLS_STRING)
			di->producer = a->str;
		break;
	case AS_TYPE:
	case AS_ORIGIN:
	case AS_SPEC:
	case AS_SIGNATURE: {
		uint64_t off;

		if (a->cls == DW_CLS_REF) {
			off = a->u | l->off_tag;
		} else if (a->cls == DW_CLS_REF_SIG) {
			const struct dw_unit *tu = dw_file_type_unit(l->df, a->u);
			if (!tu)
				return die_error(l, die, "DW_FORM_ref_sig8 names a type unit that does not exist");
			/* Another unit's type: imported after the walk */
			if (want_type_unit(l, tu))
				return -1;
			off = tu->type_offset |
			      (tu->section == l->main_section ? 0 : OFF_OTHER_SECTION);
		} else {
			break;
		}
		if (slot == AS_TYPE) {
			di->has_type = true;
			di->type_off = off;
		} else if (slot == AS_SIGNATURE) {
			di->has_signature = true;
			di->signature_off = off;
		} else if (slot == AS_ORIGIN) {
			di->has_origin = true;
			di->origin_off = off;
		} else {
			di->has_spec = true;
			di->spec_off = off;
		}
		break;
	}
	case AS_BYTE_SIZE:
		di->has_byte_size = attr_udata(a, &di->byte_size);
		break;
	case AS_BIT_SIZE:
		di->has_bit_size = attr_udata(a, &di->bit_size);
		break;
	case AS_ENCODING:
		attr_udata(a, &v);
		di->encoding = (uint32_t)v;
		break;
	case AS_ALIGNMENT:
		attr_udata(a, &v);
		di->alignment = (uint32_t)v;
		break;
	case AS_DATA_BIT_OFFSET:
		di->has_data_bit_offset = attr_udata(a, &di->data_bit_offset);
		break;
	case AS_BIT_OFFSET:
		di->has_old_bit_offset = attr_udata(a, &di->old_bit_offset);
		break;
	case AS_MEMBER_LOCATION:
		if (a->cls == DW_CLS_BLOCK) {
			di->has_member_location = true;
			di->member_location_is_expr = true;
			if (!eval_member_location(a, &di->member_location))
				di->member_location_bad = true;
		} else if (attr_udata(a, &di->member_location)) {
			di->has_member_location = true;
		}
		break;
	case AS_LOW_PC:
		if (a->cls == DW_CLS_ADDR) {
			di->has_low_pc = true;
			di->low_pc = a->u;
		}
		break;
	case AS_HIGH_PC:
		if (a->cls == DW_CLS_ADDR) {
			di->has_high_pc = true;
			di->high_pc = a->u;
		} else if (attr_udata(a, &di->high_pc)) {
			di->has_high_pc = true;
			di->high_pc_is_offset = true;
		}
		break;
	case AS_DECL_FILE:
		attr_udata(a, &v);
		di->decl_file = (uint32_t)v;
		break;
	case AS_DECL_LINE:
		attr_udata(a, &v);
		di->decl_line = (uint32_t)v;
		break;
	case AS_LANGUAGE:
		attr_udata(a, &v);
		di->language = (uint16_t)v;
		break;
	case AS_STMT_LIST:
		di->has_stmt_list = attr_udata(a, &di->stmt_list);
		break;
	case AS_COUNT:
		di->has_count = attr_udata(a, &di->count);
		break;
	case AS_UPPER_BOUND:
		di->has_upper_bound = attr_udata(a, &di->upper_bound);
		/* An upper bound of -1 means "no elements" ([0]); small
		 * unsigned forms hold real bounds (255 as data1). */
		if (di->has_upper_bound &&
		    ((a->cls == DW_CLS_SIGNED && a->s == -1) ||
		     (a->form == DW_FORM_data8 && a->u == UINT64_MAX)))
			di->upper_bound_minus_one = true;
		break;
	case AS_CONST_VALUE:
		if (a->cls == DW_CLS_STRING) {
			di->has_const_value = true;
			di->const_value_is_string = true;
			di->const_value_str = a->str;
		} else if (a->cls == DW_CLS_SIGNED) {
			di->has_const_value = true;
			di->const_value = a->s;
		} else if (a->cls == DW_CLS_UNSIGNED) {
			di->has_const_value = true;
			di->const_value = (int64_t)a->u;
		} else if (a->cls == DW_CLS_BLOCK) {
			di->has_const_value = true;
		}
		break;
	case AS_LOCATION:
		di->has_location = true;
		di->location = *a;
		break;
	case AS_DECLARATION:
		di->declaration = a->u != 0;
		break;
	case AS_EXTERNAL:
		di->external = a->u != 0;
		break;
	case AS_PROTOTYPED:
		di->prototyped = a->u != 0;
		break;
	case AS_INLINE:
		attr_udata(a, &v);
		di->inline_attr = (uint8_t)v;
		break;
	case AS_CALLING_CONVENTION:
		attr_udata(a, &v);
		di->calling_convention = (uint8_t)v;
		break;
	case AS_ACCESSIBILITY:
		attr_udata(a, &v);
		di->accessibility = (uint8_t)v;
		break;
	case AS_VIRTUALITY:
		attr_udata(a, &v);
		di->virtuality = (uint8_t)v;
		break;
	case AS_SIBLING:
		if (a->cls == DW_CLS_REF && !l->off_tag)
			*sibling = a->u;
		break;
	case AS_VTABLE_ELEM:
		/* DW_OP_constu N: the slot in the vtable */
		if (a->cls == DW_CLS_BLOCK)
			di->has_vtable_elem = eval_member_location(a, &di->vtable_elem);
		else
			di->has_vtable_elem = attr_udata(a, &di->vtable_elem);
	}
	return 0;
}

/* One attribute decoded the general way (out of line: walk() keeps its
 * position in a register). */
static int __attribute__((noinline))
generic_op(struct loader *l, const struct dw_die *die, struct die_info *di,
	   const struct attr_op *op, const uint8_t **p, const uint8_t *end,
	   uint64_t *sibling)
{
	struct dw_attr a;

	if (dw_form_read_fast(&l->dcu, op->form, op->implicit_const, p, end, &a, l->err))
		return -1;
	return apply_attr(l, die, di, op->slot, &a, sibling);
}

/* The plan's ops from OP on, each decoded the general way, with its own
 * bound checks and its own error message: where walk() found something
 * unusual. */
static int __attribute__((noinline))
read_die_slow(struct loader *l, const struct dw_die *die, struct die_info *di,
	      const struct attr_op *op, const uint8_t *p, uint64_t sibling)
{
	const uint8_t *end = l->cur.end;

	for (; op->code != OP_END; op++) {
		switch (op->code) {
		case OP_CHECK:
			break;
		case OP_SKIP:
			if ((size_t)(end - p) < op->form)
				return dw_error(&l->dcu, p, l->err, "DIE attributes run past the end of the unit");
			p += op->form;
			break;
		case OP_SKIP_VAR:
			if (dw_form_skip(&l->dcu, op->form, &p, end, l->err))
				return -1;
			break;
		default:
			if (generic_op(l, die, di, op, &p, end, &sibling))
				return -1;
		}
	}
	dw_cursor_attrs_done(&l->cur, p, sibling);
	return 0;
}

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

/* The attributes of DIE into DI, each decoded the general way (not the
 * threaded ops of walk()): for the rare DIEs read out of the walk's order,
 * the annotations of members and parameters. */
static int read_die_generic(struct loader *l, const struct dw_die *die, struct die_info *di)
{
	const struct abbrev_plan *plan = l->plans[die->abbrev->index];

	if (!plan && !(plan = build_plan(l, die->abbrev)))
		return oom(l);
	die_info_init(di, plan->tmpl);
	return read_die_slow(l, die, di, plan->ops, die->attrs, 0);
}

static bool lang_is_c(uint16_t lang)
{
	return lang == DW_LANG_C89 || lang == DW_LANG_C || lang == DW_LANG_C99 ||
	       lang == DW_LANG_C11 || lang == DW_LANG_C17;
}

static struct scope *push_scope(struct loader *l, const struct dw_die *die, uint8_t kind)
{
	struct scope *s = &l->scopes[++l->top];

	memset(s, 0, sizeof(*s));
	s->depth = die->depth;
	s->kind = kind;
	l->top_depth = die->depth;
	if (l->top > 0 && (l->scopes[l->top - 1].kind == SCOPE_FUNCTION ||
			   l->scopes[l->top - 1].kind == SCOPE_BLOCK))
		s->func = l->scopes[l->top - 1].func;
	return s;
}

static struct scope *parent_scope(struct loader *l)
{
	return l->top >= 0 ? &l->scopes[l->top] : NULL;
}

/* Where a type or function defined in a scope of this kind sits. */
static const uint8_t type_scope_of[] = {
	[SCOPE_UNIT] = TS_UNIT,
	[SCOPE_COMPOSITE] = TS_COMPOSITE,
	[SCOPE_ENUM] = TS_OTHER,
	[SCOPE_ARRAY] = TS_OTHER,
	[SCOPE_PROTO] = TS_OTHER,
	[SCOPE_FUNCTION] = TS_FUNCTION,
	[SCOPE_BLOCK] = TS_FUNCTION,
	[SCOPE_NAMESPACE] = TS_NAMESPACE,
	[SCOPE_POINTER] = TS_OTHER,
	[SCOPE_OTHER] = TS_OTHER,
};

static struct type *lazy_reused(struct loader *l, const struct dw_die *die);
static int lazy_register(struct loader *l, struct type *t, const struct dw_die *die,
			 const struct die_info *di);

/* A type of DIE in the model, with the fields its DIE gives all kinds. */
static inline __attribute__((always_inline)) struct type *
make_type(struct loader *l, const struct dw_die *die, const struct die_info *di, uint8_t kind)
{
	struct type *t = arena_zalloc_small(&l->cu->arena, sizeof(*t));
	uint8_t scope = l->top >= 0 ? type_scope_of[l->scopes[l->top].kind] : TS_OTHER;

	if (!t)
		return NULL;
	t->kind = kind;
	t->scope = scope;
	t->declaration = di->declaration;
	t->cu_lang = l->cu->language;
	t->id = (uint32_t)l->types.len;
	t->name = di->name;
	t->size = di->byte_size;
	t->die_offset = die->offset | l->off_tag;
	t->decl_file = (uint32_t)di->decl_file;
	t->decl_line = (uint32_t)di->decl_line;
	t->alignment = (uint32_t)di->alignment;
	if (scope == TS_COMPOSITE && type_vec_push(&l->nested, t))
		return NULL;
	if (type_vec_push(&l->types, t) || u64_vec_push(&l->type_offs, t->die_offset))
		return NULL;
	return t;
}

/* new_type() of a partial load: the type it has for DIE when it decodes
 * that type's children (lazy_upgrade()), else a new one, recorded. Out of
 * line: the full walk does not carry it. */
static struct type * __attribute__((noinline, cold))
lazy_new_type(struct loader *l, const struct dw_die *die, const struct die_info *di,
	      uint8_t kind)
{
	struct type *t = lazy_reused(l, die);

	if (t)
		return t;
	t = make_type(l, die, di, kind);
	if (!t || lazy_register(l, t, die, di))
		return NULL;
	return t;
}

static struct type *new_type(struct loader *l, const struct dw_die *die,
			     const struct die_info *di, uint8_t kind)
{
	struct type *t;

	if (__builtin_expect(l->lazy != NULL, 0))
		return lazy_new_type(l, die, di, kind);
	t = make_type(l, die, di, kind);
	if (!t)
		return NULL;
	if (di->has_type && add_fixup(l, &t->type, di->type_off, LV_NAME))
		return NULL;
	if (di->has_signature &&
	    sig_vec_push(&l->sig_types, (struct sig_type){ t, di->signature_off }))
		return NULL;
	return t;
}

static struct annotation *new_annotation(struct loader *l, const struct die_info *di)
{
	struct annotation *a = arena_zalloc_small(&l->cu->arena, sizeof(*a));

	if (!a)
		return NULL;
	a->name = di->name;
	a->value = di->const_value_is_string ? di->const_value_str : "";
	return a;
}

/* Append to the end of a list so annotations keep DIE order. */
static void append_annotation(struct annotation **list, struct annotation *a)
{
	while (*list)
		list = &(*list)->next;
	*list = a;
}

static inline __attribute__((always_inline)) int
handle_member(struct loader *l, struct scope *s, const struct dw_die *die,
	      const struct die_info *di)
{
	struct member *m;
	uint64_t bit_offset;
	bool is_static_var = dw_die_tag(die) == DW_TAG_variable;
	bool is_static = is_static_var || (di->declaration && di->external);

	if (di->member_location_bad)
		return die_error(l, die, "DW_AT_data_member_location expression is not a constant offset");
	if (di->has_data_bit_offset) {
		bit_offset = di->data_bit_offset;
	} else {
		bit_offset = di->member_location * 8;
		if (di->has_old_bit_offset && di->has_bit_size) {
			/* DWARF 2/3 bit_offset counts from the most significant bit
			 * of the storage unit (little-endian conversion). */
			uint64_t storage = di->has_byte_size ? di->byte_size : 0;
			if (!storage)
				storage = (di->bit_size + di->old_bit_offset + 7) / 8;
			bit_offset += storage * 8 - di->old_bit_offset - di->bit_size;
		}
	}
	if (is_static)	/* the union's other half */
		bit_offset = di->has_const_value && !di->const_value_is_string ?
			     (uint64_t)di->const_value : 0;
	if (member_vec_reserve(&l->members, l->members.len + 1) ||
	    u64_vec_push(&l->member_type_offs, di->has_type ? di->type_off : UINT64_MAX))
		return oom(l);
	m = &l->members.data[l->members.len++];
	zero_bytes(m, sizeof(*m));
	m->name = di->name;
	m->bit_offset = bit_offset;
	m->bit_size = di->has_bit_size ? (uint32_t)di->bit_size : 0;
	m->byte_size = di->has_byte_size ? (uint32_t)di->byte_size : 0;
	m->alignment = (uint32_t)di->alignment;
	m->die_offset = die->offset | l->off_tag;
	m->decl_file = (uint32_t)di->decl_file;
	m->decl_line = (uint32_t)di->decl_line;
	m->is_static = is_static;
	m->is_static_var = is_static_var;
	m->is_extern_decl = di->external && di->declaration;
	m->offset_is_expr = di->member_location_is_expr;
	m->accessibility = di->accessibility;
	(void)s;
	return 0;
}

/* A DW_TAG_inheritance entry of a C++ class. A virtual base's location is
 * an expression of the object (not a constant offset): its offset is 0. */
static int handle_base(struct loader *l, const struct dw_die *die,
		       const struct die_info *di)
{
	struct member *m = member_vec_push_zero(&l->bases);

	if (!m || u64_vec_push(&l->base_type_offs, di->has_type ? di->type_off : UINT64_MAX))
		return oom(l);
	m->die_offset = die->offset | l->off_tag;
	m->decl_file = di->decl_file;
	m->decl_line = di->decl_line;
	m->is_inheritance = true;
	m->accessibility = di->accessibility;
	m->virtuality = di->virtuality;
	m->offset_is_expr = di->member_location_is_expr;
	if (!di->member_location_bad)
		m->bit_offset = di->member_location * 8;
	return 0;
}

/* Move the N scratch entries at SRC into a new arena array: *DST is NULL
 * when N is 0. Returns -1 when out of memory. */
/* Copy N elements of SIZE bytes, from element FIRST of the scratch array
 * BASE, into the arena. BASE may be NULL when N is 0 (a vector never grown):
 * the element address is formed only when there is something to copy, as
 * NULL + 0 is undefined behaviour. */
static int take_scratch(struct arena *a, const void *base, size_t first, size_t n,
			size_t size, void **dst)
{
	*dst = NULL;
	if (!n)
		return 0;
	*dst = arena_alloc(a, n * size);
	if (!*dst)
		return -1;
	memcpy(*dst, (const char *)base + first * size, n * size);
	return 0;
}

/* A C++ composite's bases and methods (struct composite_cxx). */
static int close_cxx(struct loader *l, struct scope *s)
{
	struct arena *a = &l->cu->arena;
	struct composite_cxx *x = arena_zalloc(a, sizeof(*x));
	size_t n = l->bases.len - s->first_base;
	void *arr;

	if (!x)
		return oom(l);
	if (take_scratch(a, l->bases.data, s->first_base, n, sizeof(struct member), &arr))
		return oom(l);
	x->bases = arr;
	x->nr_bases = (uint32_t)n;
	for (size_t i = 0; i < n; i++) {
		uint64_t off = l->base_type_offs.data[s->first_base + i];

		if (off != UINT64_MAX && add_fixup(l, &x->bases[i].type, off, LV_VALUE))
			return -1;
	}
	l->bases.len = s->first_base;
	l->base_type_offs.len = s->first_base;
	n = l->methods.len - s->first_method;
	if (take_scratch(a, l->methods.data, s->first_method, n, sizeof(uint32_t), &arr))
		return oom(l);
	x->methods = arr;
	x->nr_methods = (uint32_t)n;
	l->methods.len = s->first_method;
	s->type->composite.cxx = x;
	return 0;
}

static int close_scope(struct loader *l)
{
	struct scope *s = &l->scopes[l->top--];
	struct arena *a = &l->cu->arena;
	void *arr;
	size_t n;

	l->top_depth = l->top >= 0 ? (int64_t)l->scopes[l->top].depth : -1;

	switch (s->kind) {
	case SCOPE_COMPOSITE: {
		struct member *members;

		n = l->members.len - s->first;
		if (take_scratch(a, l->members.data, s->first, n, sizeof(*members), &arr))
			return oom(l);
		members = arr;
		for (size_t i = 0; i < n; i++) {
			uint64_t off = l->member_type_offs.data[s->first + i];
			if (off != UINT64_MAX && add_fixup(l, &members[i].type, off, LV_VALUE))
				return -1;
		}
		s->type->composite.members = members;
		s->type->composite.nr_members = (uint32_t)n;
		l->members.len = s->first;
		l->member_type_offs.len = s->first;
		n = l->nested.len - s->first_nested;
		if (take_scratch(a, l->nested.data, s->first_nested, n, sizeof(struct type *), &arr))
			return oom(l);
		s->type->composite.nested = arr;
		s->type->composite.nr_nested = (uint32_t)n;
		l->nested.len = s->first_nested;
		if (l->bases.len > s->first_base || l->methods.len > s->first_method)
			return close_cxx(l, s);
		break;
	}
	case SCOPE_ENUM:
		n = l->enumerators.len - s->first;
		if (take_scratch(a, l->enumerators.data, s->first, n, sizeof(struct enumerator), &arr))
			return oom(l);
		s->type->enumeration.values = arr;
		s->type->enumeration.nr_values = (uint32_t)n;
		l->enumerators.len = s->first;
		break;
	case SCOPE_ARRAY:
		n = l->dims.len - s->first;
		if (take_scratch(a, l->dims.data, s->first, n, sizeof(struct array_dim), &arr))
			return oom(l);
		s->type->array.dims = arr;
		s->type->array.nr_dims = (uint32_t)n;
		l->dims.len = s->first;
		break;
	case SCOPE_PROTO:
	case SCOPE_FUNCTION: {
		struct param *params;

		n = l->params.len - s->first;
		if (take_scratch(a, l->params.data, s->first, n, sizeof(*params), &arr))
			return oom(l);
		params = arr;
		for (size_t i = 0; i < n; i++) {
			uint64_t off = l->param_type_offs.data[s->first + i];

			if (off != UINT64_MAX && add_fixup(l, &params[i].type, off, LV_NAME))
				return -1;
			/* Function parameters may name an abstract origin:
			 * resolved once the whole unit is read. */
			if (s->kind == SCOPE_FUNCTION &&
			    (param_ptr_vec_push(&l->all_params, &params[i]) ||
			     u64_vec_push(&l->all_param_origin, l->param_origin_offs.data[s->first + i])))
				return oom(l);
		}
		if (s->kind == SCOPE_PROTO) {
			s->type->proto.params = params;
			s->type->proto.nr_params = (uint32_t)n;
			s->type->proto.varargs = s->has_varargs;
		} else {
			s->func->params = params;
			s->func->nr_params = (uint32_t)n;
			s->func->varargs = s->has_varargs;
		}
		l->params.len = s->first;
		l->param_type_offs.len = s->first;
		l->param_origin_offs.len = s->first;
		break;
	}
	}
	return 0;
}

static int handle_param(struct loader *l, struct scope *s, const struct dw_die *die,
			const struct die_info *di)
{
	struct dw_loc_summary sum = { 0 };
	bool has_location = di->has_location || di->has_const_value;
	bool optimized_out = false;
	struct param *p;

	if (s->kind == SCOPE_FUNCTION) {
		struct function *f = s->func;

		optimized_out = !has_location && !f->declaration && !f->is_abstract;
		if (di->has_location && !l->opts->skip_locations) {
			if (dw_location_summary(&l->dcu, &di->location, f->low_pc, &sum, l->err))
				return -1;
			/* a list's offset (else an expression's): how far the
			 * unit's lists go (model.h, loc_hi) */
			if ((di->location.cls == DW_CLS_UNSIGNED ||
			     (di->location.cls == DW_CLS_LOCLIST && l->dcu.unit->version >= 5)) &&
			    di->location.u >= l->cu->loc_hi)
				l->cu->loc_hi = di->location.u + 1;
		}
	}
	if (param_vec_reserve(&l->params, l->params.len + 1) ||
	    u64_vec_push(&l->param_type_offs, di->has_type ? di->type_off : UINT64_MAX) ||
	    u64_vec_push(&l->param_origin_offs, di->has_origin ? di->origin_off : UINT64_MAX))
		return oom(l);
	p = &l->params.data[l->params.len++];
	zero_bytes(p, sizeof(*p));
	p->name = di->name;
	p->die_offset = die->offset | l->off_tag;
	p->loc_kind = sum.kind;
	p->loc_reg = sum.reg;
	p->has_location = has_location;
	p->optimized_out = optimized_out;
	return 0;
}

static int handle_function(struct loader *l, const struct dw_die *die,
			   const struct die_info *di, bool inlined)
{
	struct function *f = arena_zalloc_small(&l->cu->arena, sizeof(*f));
	struct scope *parent = parent_scope(l);

	if (!f)
		return oom(l);
	f->name = di->name;
	f->linkage_name = di->linkage_name;
	f->external = di->external;
	f->own_external = di->external;
	f->own_inline_attr = di->inline_attr;
	f->scope = TS_OTHER;
	if (parent) {
		switch (parent->kind) {
		case SCOPE_UNIT:
			f->scope = TS_UNIT;
			break;
		case SCOPE_COMPOSITE:
			f->scope = TS_COMPOSITE;
			break;
		case SCOPE_FUNCTION:
		case SCOPE_BLOCK:
			f->scope = TS_FUNCTION;
			break;
		case SCOPE_NAMESPACE:
			f->scope = TS_NAMESPACE;
			break;
		}
	}
	f->declaration = di->declaration;
	f->accessibility = di->accessibility;
	f->virtuality = di->virtuality;
	f->has_vtable_entry = di->has_vtable_elem;
	f->vtable_entry = di->has_vtable_elem ? (uint32_t)di->vtable_elem : 0;
	f->prototyped = di->prototyped;
	f->inline_attr = di->inline_attr;
	f->is_abstract = di->inline_attr != 0;
	f->is_inlined_instance = inlined;
	f->calling_convention = di->calling_convention ? di->calling_convention : DW_CC_normal;
	f->has_addr = di->has_low_pc;
	f->low_pc = di->has_low_pc ? di->low_pc : 0;
	if (di->has_high_pc)
		f->high_pc = di->high_pc_is_offset ? f->low_pc + di->high_pc : di->high_pc;
	f->die_offset = die->offset | l->off_tag;
	f->origin_offset = di->has_origin ? di->origin_off : 0;
	f->specification_offset = di->has_spec ? di->spec_off : 0;
	f->decl_file = (uint32_t)di->decl_file;
	f->decl_line = (uint32_t)di->decl_line;
	if (di->has_type && add_fixup(l, &f->ret, di->type_off, LV_NAME))
		return -1;
	if (parent && parent->func) {
		if (inlined)
			parent->func->nr_inline_expansions++;
	}
	/* A method: its index in cu_model.functions, for its class */
	if (!inlined && parent && parent->kind == SCOPE_COMPOSITE &&
	    u32_vec_push(&l->methods, (uint32_t)l->funcs.len))
		return oom(l);
	if (!inlined && func_vec_push(&l->funcs, f))
		return oom(l);
	if (dw_die_has_children(die)) {
		struct scope *s = push_scope(l, die, inlined ? SCOPE_BLOCK : SCOPE_FUNCTION);
		s->func = inlined && parent && parent->func ? parent->func : f;
		if (inlined && !(parent && parent->func))
			s->func = f;
		s->first = l->params.len;
		if (inlined)
			s->kind = SCOPE_BLOCK;
	}
	return 0;
}

static int handle_variable(struct loader *l, const struct dw_die *die,
			   const struct die_info *di, struct scope *parent)
{
	struct variable *v;
	bool in_func = parent && parent->func;

	if (in_func)
		parent->func->nr_variables++;
	/* Locals without a static address are not variables of the unit. */
	if (in_func && !(di->has_location && di->location.cls == DW_CLS_BLOCK &&
			 di->location.block.len && (di->location.block.data[0] == DW_OP_addr ||
						    di->location.block.data[0] == DW_OP_addrx)))
		return 0;
	v = arena_zalloc_small(&l->cu->arena, sizeof(*v));
	if (!v)
		return oom(l);
	v->name = di->name;
	v->linkage_name = di->linkage_name;
	v->external = di->external;
	v->declaration = di->declaration;
	v->die_offset = die->offset;
	v->specification_offset = di->has_spec ? di->spec_off : 0;
	v->decl_file = (uint32_t)di->decl_file;
	v->decl_line = (uint32_t)di->decl_line;
	v->is_static_local = in_func;
	if (di->has_location && di->location.cls == DW_CLS_BLOCK) {
		const uint8_t *p = di->location.block.data;
		uint64_t len = di->location.block.len;
		unsigned as = l->dcu.unit->addr_size;

		if (len == 1u + as && p[0] == DW_OP_addr) {
			uint64_t addr = 0;
			memcpy(&addr, p + 1, as);
			v->has_addr = true;
			v->addr = addr;
		} else if (len >= 2 && p[0] == DW_OP_addrx) {
			/* Resolve through .debug_addr. */
			const struct dw_section *s = &l->df->sec[DW_SEC_ADDR];
			uint64_t idx = 0, r = 0;
			unsigned shift = 0;
			for (uint64_t i = 1; i < len; i++) {
				r |= (uint64_t)(p[i] & 0x7f) << shift;
				shift += 7;
				if (!(p[i] & 0x80)) {
					idx = r;
					break;
				}
			}
			if (s->data && l->dcu.addr_base <= s->size &&
			    idx < (s->size - l->dcu.addr_base) / as) {
				uint64_t addr = 0;
				memcpy(&addr, s->data + l->dcu.addr_base + idx * as, as);
				v->has_addr = true;
				v->addr = addr;
			}
		}
	}
	if (di->has_type && add_fixup(l, &v->type, di->type_off, LV_NAME))
		return -1;
	if (var_vec_push(&l->vars, v))
		return oom(l);
	if (dw_die_has_children(die)) {
		struct scope *s = push_scope(l, die, SCOPE_OTHER);
		(void)s;
	}
	return 0;
}

/* What the subtree of a block may hold for skip_plain_block() to skip it. */
static bool plain_block_tag(unsigned tag)
{
	switch (tag) {
	case DW_TAG_formal_parameter:
	case DW_TAG_variable:
	case DW_TAG_label:
	case DW_TAG_lexical_block:
	case DW_TAG_inlined_subroutine:
	case DW_TAG_call_site:
	case DW_TAG_call_site_parameter:
	case DW_TAG_GNU_call_site:
	case DW_TAG_GNU_call_site_parameter:
		return true;
	default:
		return false;
	}
}

/*
 * load_options.skip_plain_blocks: the subtree of DIE (a lexical block, an
 * inlined instance, a call site: the DIE just read) skipped unread when it
 * holds nothing but parameters, variables, labels, blocks, inlined
 * instances and call sites (1), else 0. A scan that meets anything else
 * (a type defined in a block, a local declaration of a function) leaves
 * the walk to decode the subtree, and no DIE before the one it met is
 * scanned again: a scan never covers a DIE twice in vain.
 */
static int skip_plain_block(struct loader *l, const struct dw_die *die)
{
	uint64_t stop;

	if (!l->opts->skip_plain_blocks || l->importing || !dw_die_has_children(die) ||
	    !l->cur.started || l->cur.last.offset != die->offset || die->offset < l->plain_from)
		return 0;
	if (!l->plain_ok && !(l->plain_ok = dw_cu_abbrev_flags(&l->dcu, plain_block_tag,
							       &l->cu->arena)))
		return 0;	/* out of memory: decoded as without the option */
	if (dw_cursor_skip_children_if(&l->cur, l->plain_ok, &stop))
		return 1;
	l->plain_from = stop;
	return 0;
}

/* The model's side of DIE, whose attributes walk() decoded into DI. */
static int handle_die(struct loader *l, const struct dw_die *die, const struct die_info *di)
{
	struct scope *parent = parent_scope(l), *s;
	uint16_t tag = dw_die_tag(die);
	struct type *t;
	uint8_t kind;

	switch (tag) {
	case DW_TAG_compile_unit:
	case DW_TAG_partial_unit:
	case DW_TAG_type_unit:
	case DW_TAG_skeleton_unit:
		if (die->depth != 0)
			return die_error(l, die, "unit DIE nested inside another DIE");
		if (l->importing) {
			/* an imported type unit: its types are not ours */
			if (dw_die_has_children(die))
				push_scope(l, die, SCOPE_OTHER);
			return 0;
		}
		l->cu->name = di->name;
		l->cu->comp_dir = di->comp_dir;
		l->cu->producer = di->producer;
		l->cu->language = (uint16_t)di->language;
		if (di->has_stmt_list && !l->opts->skip_line_files) {
			struct dw_line_files files;

			if (dw_cu_line_files(&l->dcu, di->stmt_list, di->name, di->comp_dir,
					     &files, l->err))
				return -1;
			l->cu->files = files.names;
			l->cu->nr_files = (uint32_t)files.nr;
		}
		if (dw_die_has_children(die))
			push_scope(l, die, SCOPE_UNIT);
		return 0;

	case DW_TAG_base_type:
		t = new_type(l, die, di, TK_BASE);
		if (!t)
			return oom(l);
		t->base.encoding = (uint16_t)di->encoding;
		t->base.bit_size = di->has_bit_size ? (uint16_t)di->bit_size : 0;
		goto maybe_children;

	case DW_TAG_pointer_type:
		kind = TK_POINTER;
		goto pointer_like;
	case DW_TAG_reference_type:
		kind = TK_REFERENCE;
		goto pointer_like;
	case DW_TAG_rvalue_reference_type:
		kind = TK_RVALUE_REFERENCE;
		goto pointer_like;
	case DW_TAG_const_type:
		kind = TK_CONST;
		goto pointer_like;
	case DW_TAG_volatile_type:
		kind = TK_VOLATILE;
		goto pointer_like;
	case DW_TAG_restrict_type:
		kind = TK_RESTRICT;
		goto pointer_like;
	case DW_TAG_atomic_type:
		kind = TK_ATOMIC;
		goto pointer_like;
	case DW_TAG_typedef:
		kind = TK_TYPEDEF;
		goto pointer_like;
	case DW_TAG_unspecified_type:
		kind = TK_UNSPECIFIED;
		goto pointer_like;
	case DW_TAG_ptr_to_member_type:
		kind = TK_PTR_TO_MEMBER;
pointer_like:
		t = new_type(l, die, di, kind);
		if (!t)
			return oom(l);
		if ((kind == TK_POINTER || kind == TK_REFERENCE || kind == TK_RVALUE_REFERENCE ||
		     kind == TK_PTR_TO_MEMBER) && !di->has_byte_size)
			t->size = l->dcu.unit->addr_size;
		if (kind == TK_PTR_TO_MEMBER) {
			struct dw_attr a;
			int r = dw_die_attr(&l->dcu, die, DW_AT_containing_type, &a, l->err);
			if (r < 0)
				return -1;
			if (r && a.cls == DW_CLS_REF &&
			    add_fixup(l, &t->ptr_to_member.containing, a.u | l->off_tag, LV_NAME))
				return -1;
		}
		if (dw_die_has_children(die)) {
			s = push_scope(l, die, SCOPE_POINTER);
			s->type = t;
		}
		return 0;

	case DW_TAG_structure_type:
		kind = TK_STRUCT;
		goto composite;
	case DW_TAG_union_type:
		kind = TK_UNION;
		goto composite;
	case DW_TAG_class_type:
		kind = TK_CLASS;
composite:
		t = new_type(l, die, di, kind);
		if (!t)
			return oom(l);
		if (dw_die_has_children(die)) {
			s = push_scope(l, die, SCOPE_COMPOSITE);
			s->type = t;
			s->first = l->members.len;
			s->first_nested = l->nested.len;
			s->first_base = l->bases.len;
			s->first_method = l->methods.len;
		}
		return 0;

	case DW_TAG_member:
		if (parent && parent->kind == SCOPE_COMPOSITE) {
			if (handle_member(l, parent, die, di))
				return -1;
		}
		goto maybe_children;

	case DW_TAG_inheritance:
		if (parent && parent->kind == SCOPE_COMPOSITE) {
			if (handle_base(l, die, di))
				return -1;
		}
		goto maybe_children;

	case DW_TAG_enumeration_type:
		t = new_type(l, die, di, TK_ENUM);
		if (!t || type_vec_push(&l->enums, t))
			return oom(l);
		if (dw_die_has_children(die)) {
			s = push_scope(l, die, SCOPE_ENUM);
			s->type = t;
			s->first = l->enumerators.len;
		}
		return 0;

	case DW_TAG_enumerator:
		if (parent && parent->kind == SCOPE_ENUM) {
			struct enumerator *e = enumerator_vec_push_zero(&l->enumerators);
			if (!e)
				return oom(l);
			e->name = di->name;
			e->value = di->const_value;
		}
		goto maybe_children;

	case DW_TAG_array_type:
		t = new_type(l, die, di, TK_ARRAY);
		if (!t)
			return oom(l);
		if (dw_die_has_children(die)) {
			s = push_scope(l, die, SCOPE_ARRAY);
			s->type = t;
			s->first = l->dims.len;
		}
		return 0;

	case DW_TAG_subrange_type:
		if (parent && parent->kind == SCOPE_ARRAY) {
			struct array_dim *d = dim_vec_push_zero(&l->dims);
			if (!d)
				return oom(l);
			if (di->has_count) {
				d->count = di->count;
			} else if (di->has_upper_bound) {
				d->count = di->upper_bound_minus_one ? 0 : di->upper_bound + 1;
			} else {
				d->flexible = true;
			}
		}
		goto maybe_children;

	case DW_TAG_subroutine_type:
		t = new_type(l, die, di, TK_FUNC_PROTO);
		if (!t)
			return oom(l);
		t->proto.prototyped = di->prototyped;
		if (dw_die_has_children(die)) {
			s = push_scope(l, die, SCOPE_PROTO);
			s->type = t;
			s->first = l->params.len;
		}
		return 0;

	case DW_TAG_formal_parameter:
		if (parent && (parent->kind == SCOPE_PROTO ||
			       (parent->kind == SCOPE_FUNCTION))) {
			if (handle_param(l, parent, die, di))
				return -1;
		}
		goto maybe_children;

	case DW_TAG_unspecified_parameters:
		if (parent && (parent->kind == SCOPE_PROTO || parent->kind == SCOPE_FUNCTION))
			parent->has_varargs = true;
		goto maybe_children;

	case DW_TAG_subprogram:
		/* importing: only methods, for their classes */
		if (l->importing && !(parent && parent->kind == SCOPE_COMPOSITE))
			return 0;	/* its subtree is skipped */
		/* not wanted: a C unit's functions (C++ classes need the
		 * definitions of their methods), subtree and all */
		if (l->opts->skip_functions && lang_is_c(l->cu->language) &&
		    parent && parent->kind == SCOPE_UNIT)
			return 0;
		return handle_function(l, die, di, false);

	case DW_TAG_inlined_subroutine:
		if (parent && parent->func)
			parent->func->nr_inline_expansions++;
		if (skip_plain_block(l, die))
			return 0;
		if (dw_die_has_children(die)) {
			s = push_scope(l, die, SCOPE_BLOCK);
			if (!s->func && parent)
				s->func = parent->func;
		}
		return 0;

	case DW_TAG_lexical_block:
		if (parent && parent->func)
			parent->func->nr_lexblocks++;
		if (skip_plain_block(l, die))
			return 0;
		if (dw_die_has_children(die)) {
			s = push_scope(l, die, SCOPE_BLOCK);
			if (!s->func && parent)
				s->func = parent->func;
		}
		return 0;

	case DW_TAG_call_site:
	case DW_TAG_GNU_call_site:
		if (skip_plain_block(l, die))
			return 0;
		goto maybe_children;

	case DW_TAG_variable:
		if (parent && parent->kind == SCOPE_COMPOSITE) {
			/* DWARF 5 static data member. */
			if (handle_member(l, parent, die, di))
				return -1;
			goto maybe_children;
		}
		if (l->importing)
			return 0;
		return handle_variable(l, die, di, parent);

	case DW_TAG_LLVM_annotation: {
		struct annotation *a = new_annotation(l, di), **list = NULL;

		if (!a)
			return oom(l);
		if (parent) {
			switch (parent->kind) {
			case SCOPE_POINTER:
			case SCOPE_COMPOSITE:
			case SCOPE_ENUM:
			case SCOPE_PROTO:
				list = parent->type ? &parent->type->tags : NULL;
				break;
			case SCOPE_FUNCTION:
				list = &parent->func->tags;
				break;
			}
		}
		/* An annotation inside a member, parameter or variable: those
		 * have no scope of their own; handled in attach_child_tags(). */
		if (list)
			append_annotation(list, a);
		goto maybe_children;
	}

	case DW_TAG_namespace:
		if (dw_die_has_children(die))
			push_scope(l, die, SCOPE_NAMESPACE);
		return 0;
	}

maybe_children:
	if (dw_die_has_children(die)) {
		/* Annotations of members, parameters and variables. */
		if (tag == DW_TAG_member || tag == DW_TAG_formal_parameter ||
		    (tag == DW_TAG_variable && parent && parent->kind == SCOPE_COMPOSITE)) {
			struct dw_die child;
			uint32_t depth = die->depth;
			struct annotation **list = NULL;

			if (tag == DW_TAG_formal_parameter && l->params.len)
				list = &l->params.data[l->params.len - 1].tags;
			else if (tag != DW_TAG_formal_parameter && l->members.len &&
				 parent && parent->kind == SCOPE_COMPOSITE)
				list = &l->members.data[l->members.len - 1].tags;
			for (;;) {
				struct dw_cursor save = l->cur;
				int r = dw_cursor_next(&l->cur, &child, l->err);
				if (r < 0)
					return -1;
				if (r == 0 || child.depth <= depth) {
					l->cur = save;
					break;
				}
				if (dw_die_tag(&child) == DW_TAG_LLVM_annotation && list &&
				    child.depth == depth + 1) {
					struct die_info cdi;
					struct annotation *a;
					if (read_die_generic(l, &child, &cdi))
						return -1;
					a = new_annotation(l, &cdi);
					if (!a)
						return oom(l);
					/* list may move if the scratch stack grows: it
					 * does not grow while we read children here. */
					append_annotation(list, a);
				}
				if (dw_cursor_skip_children(&l->cur, l->err))
					return -1;
			}
			return 0;
		}
		if (tag == DW_TAG_variable && parent && parent->func) {
			/* handled by handle_variable's scope */
		}
		push_scope(l, die, SCOPE_OTHER);
	}
	return 0;
}

static struct type *unresolved_type(struct loader *l, uint64_t off)
{
	struct type *t = arena_zalloc_small(&l->cu->arena, sizeof(*t));

	if (!t)
		return NULL;
	t->kind = TK_UNRESOLVED;
	t->die_offset = off;
	t->unresolved.target_offset = off;
	t->cu_lang = l->cu->language;
	return t;
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

static int resolve_fixups(struct loader *l)
{
	struct cu_model *cu = l->cu;
	size_t cap = 16, mask;
	struct type_slot *slots;

	while (cap < (size_t)cu->nr_types * 2)
		cap *= 2;
	mask = cap - 1;
	slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return oom(l);
	for (uint32_t i = 0; i < cu->nr_types; i++) {
		uint64_t off = l->type_offs.data[i];	/* not a load of the type */
		size_t h = offset_hash(off, mask);

		while (slots[h].t)
			h = (h + 1) & mask;
		slots[h] = (struct type_slot){ off, cu->types[i] };
	}
	for (size_t i = 0; i < l->fixups.len; i++) {
		struct fixup *f = &l->fixups.data[i];
		struct type *t = find_type_slot(slots, mask, f->off);

		if (!t) {
			t = unresolved_type(l, f->off);
			if (!t) {
				free(slots);
				return oom(l);
			}
		}
		*fixup_slot(f) = t;
	}
	/* A declaration with DW_AT_signature becomes a copy of the type
	 * unit's definition (keeping its own identity and place). */
	for (size_t i = 0; i < l->sig_types.len; i++) {
		struct type *d = l->sig_types.data[i].t;
		struct type *t = find_type_slot(slots, mask, l->sig_types.data[i].off);

		if (t && t != d && !t->declaration) {
			struct type keep = *d;

			*d = *t;
			d->id = keep.id;
			d->die_offset = keep.die_offset;
			d->scope = keep.scope;
		}
	}
	free(slots);
	return 0;
}

static int cmp_u64_ptr(const void *a, const void *b)
{
	const struct param *const *x = a, *const *y = b;

	return (*x)->die_offset < (*y)->die_offset ? -1 : (*x)->die_offset > (*y)->die_offset;
}

static const struct param *find_param(struct param **sorted, size_t n, uint64_t off)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (sorted[mid]->die_offset == off)
			return sorted[mid];
		if (sorted[mid]->die_offset < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Concrete instances take names and types from their abstract origins
 * (and declarations they specify); parameters likewise. */
static int resolve_origins(struct loader *l)
{
	struct cu_model *cu = l->cu;
	size_t np = l->all_params.len;
	struct param **sorted = l->all_params.data;

	if (np) {
		size_t i = 1;

		/* Parameters' origins: index by DIE offset. The parameters
		 * were listed as their functions closed, so in DIE order
		 * unless type units were imported: sort only when they are
		 * not (the sort was 5% of a module's loading). */
		while (i < np && sorted[i - 1]->die_offset < sorted[i]->die_offset)
			i++;
		if (i < np) {
			sorted = malloc(np * sizeof(*sorted));
			if (!sorted)
				return oom(l);
			memcpy(sorted, l->all_params.data, np * sizeof(*sorted));
			qsort(sorted, np, sizeof(*sorted), cmp_u64_ptr);
		}
		for (size_t i = 0; i < np; i++) {
			struct param *p = l->all_params.data[i];
			uint64_t off = l->all_param_origin.data[i];
			const struct param *o;

			if (off == UINT64_MAX)
				continue;
			o = find_param(sorted, np, off);
			if (!o)
				continue;
			p->origin = o;
			if (!p->name)
				p->name = o->name;
			if (!p->type)
				p->type = o->type;
		}
		if (sorted != l->all_params.data)
			free(sorted);
	}
	for (uint32_t i = 0; i < cu->nr_functions; i++) {
		struct function *f = &cu->functions[i];
		uint64_t next = f->origin_offset ? f->origin_offset : f->specification_offset;

		/* Follow origin -> specification chains (bounded). */
		for (int hops = 0; next && hops < 8; hops++) {
			const struct function *o = cu_model_function_at_offset(cu, next);
			if (!o)
				break;
			if (!f->name)
				f->name = o->name;
			if (!f->linkage_name)
				f->linkage_name = o->linkage_name;
			if (!f->ret)
				f->ret = o->ret;
			if (!f->decl_file) {
				f->decl_file = o->decl_file;
				f->decl_line = o->decl_line;
			}
			f->external |= o->external;
			f->prototyped |= o->prototyped;
			if (!f->inline_attr)
				f->inline_attr = o->inline_attr;
			if (!f->tags)
				f->tags = o->tags;
			if (!f->nr_params && o->nr_params && !f->has_addr) {
				f->params = o->params;
				f->nr_params = o->nr_params;
				f->varargs = o->varargs;
			}
			f->varargs |= o->varargs;
			next = o->origin_offset ? o->origin_offset : o->specification_offset;
		}
	}
	for (uint32_t i = 0; i < cu->nr_variables; i++) {
		struct variable *v = &cu->variables[i];

		if (!v->specification_offset)
			continue;
		for (uint32_t j = 0; j < cu->nr_variables; j++) {
			const struct variable *o = &cu->variables[j];
			if (o->die_offset != v->specification_offset)
				continue;
			if (!v->name)
				v->name = o->name;
			if (!v->type)
				v->type = o->type;
			v->external |= o->external;
			if (!v->decl_file) {
				v->decl_file = o->decl_file;
				v->decl_line = o->decl_line;
			}
			break;
		}
	}
	return 0;
}

/* Enum signedness: from the underlying type, else from negative values. */
/* An enum's signedness, once its underlying type is resolved (again for
 * an enum already done: the same answer). */
static void finish_enum(struct type *t)
{
	const struct type *u;

	if (t->kind != TK_ENUM)
		return;
	/* bounded there: hostile DWARF can make the chain a cycle (typedef
	 * A to const A), which the graph check refuses later */
	u = type_strip_cv(t->type);
	if (u && u->kind == TK_BASE) {
		t->enumeration.is_signed = u->base.encoding == DW_ATE_signed ||
					   u->base.encoding == DW_ATE_signed_char;
	} else {
		for (uint32_t k = 0; k < t->enumeration.nr_values; k++)
			if (t->enumeration.values[k].value < 0)
				t->enumeration.is_signed = true;
	}
}

/* The enums: those made as such, and the declarations that became a copy
 * of one (DW_AT_signature, resolve_fixups()), without a pass over every
 * type (a cache miss each). */
static void finish_enums(struct loader *l)
{
	for (size_t i = 0; i < l->enums.len; i++)
		finish_enum(l->enums.data[i]);
	for (size_t i = 0; i < l->sig_types.len; i++)
		finish_enum(l->sig_types.data[i].t);
}

/*
 * The pre-order walk over the DIEs of l->dcu from the cursor to its end
 * (the unit's, or a partial load's window). The attributes of each DIE
 * are decoded here, by its plan's ops as threaded code (each op ends in its
 * own indirect jump to the next, which the branch predictor learns per op:
 * "a ref4 type is followed by a data1 location"), in this loop rather than
 * in a function called per DIE, whose entry and exit cost as much as the
 * ops of a member.
 */
static int walk_dies(struct loader *l)
{
	static const void *const dispatch[OP_NR] = {
		[OP_END] = &&op_end,
		[OP_CHECK] = &&op_check,
		[OP_SKIP] = &&op_skip,
		[OP_SKIP_VAR] = &&op_skip_var,
		[OP_GENERIC] = &&op_generic,
		[OP_STRP4] = &&op_strp4,
		[OP_STRING] = &&op_string,
		[OP_REF4] = &&op_ref4,
		[OP_SIB_REF4] = &&op_sib_ref4,
		[OP_U8_1] = &&op_u8_1,
		[OP_U32_1] = &&op_u32_1,
		[OP_U32_2] = &&op_u32_2,
		[OP_U32_4] = &&op_u32_4,
		[OP_U64F_1] = &&op_u64f_1,
		[OP_U64F_2] = &&op_u64f_2,
		[OP_U64F_4] = &&op_u64f_4,
		[OP_U64F_8] = &&op_u64f_8,
		[OP_U64F_SDATA] = &&op_u64f_sdata,
		[OP_BOOL_1] = &&op_bool_1,
		[OP_LOC_SEC4] = &&op_loc_sec4,
		[OP_LOC_EXPR] = &&op_loc_expr,
	};
	struct die_info di;
	char *base = (char *)&di;
	struct dw_die die;
	unsigned code;
	int r;

	while ((r = dw_cursor_next_inline(&l->cur, &die, &code, l->err)) > 0) {
		const struct abbrev_plan *plan;
		const struct attr_op *op;
		const uint8_t *p = die.attrs, *end = l->cur.end;
		uint64_t sibling = 0, v;
		int64_t s;

		while (l->top_depth >= (int64_t)die.depth)
			if (close_scope(l))
				return -1;

		/* the DIE's attributes into di */
		plan = l->by_code[code];	/* [0]: never set */
		if (__builtin_expect(!plan, 0)) {
			plan = l->plans[die.abbrev->index];
			if (!plan && !(plan = build_plan(l, die.abbrev)))
				return oom(l);
			if (code)
				l->by_code[code] = plan;
		}
		die_info_init(&di, plan->tmpl);
		op = plan->ops;
#define NEXT() goto *dispatch[(++op)->code]
#define U64F(val) do {						\
		*(uint64_t *)(base + op->dst) = (val);		\
		*(bool *)(base + op->flag) = true;		\
	} while (0)
		goto *dispatch[op->code];

op_check:
		if ((size_t)(end - p) < op->form)
			goto slow;
		NEXT();
op_skip:
		p += op->form;
		NEXT();
op_skip_var: {
		const uint8_t *q = p;	/* p itself stays in a register */

		if (dw_form_skip(&l->dcu, op->form, &q, end, l->err))
			return -1;
		p = q;
		NEXT();
	}
op_generic: {
		const uint8_t *q = p;
		uint64_t sib = sibling;

		if (generic_op(l, &die, &di, op, &q, end, &sib))
			return -1;
		p = q;
		sibling = sib;
		NEXT();
	}
op_strp4:
		v = ld32(p);
		if (v >= l->str_size)
			goto slow;
		*(const char **)(base + op->dst) = l->str + v;
		p += 4;
		NEXT();
op_string: {
		const uint8_t *nul = memchr(p, 0, (size_t)(end - p));

		if (!nul)
			goto slow;
		*(const char **)(base + op->dst) = (const char *)p;
		p = nul + 1;
		NEXT();
	}
op_ref4:
		v = ld32(p);
		if (v >= l->unit_len)
			goto slow;
		U64F((l->unit_off + v) | l->off_tag);
		p += 4;
		NEXT();
op_sib_ref4:
		v = ld32(p);
		if (v >= l->unit_len)
			goto slow;
		if (!l->off_tag)
			sibling = l->unit_off + v;
		p += 4;
		NEXT();
op_u8_1:
		*(uint8_t *)(base + op->dst) = *p++;
		NEXT();
op_u32_1:
		*(uint32_t *)(base + op->dst) = *p++;
		NEXT();
op_u32_2:
		*(uint32_t *)(base + op->dst) = ld16(p);
		p += 2;
		NEXT();
op_u32_4:
		*(uint32_t *)(base + op->dst) = ld32(p);
		p += 4;
		NEXT();
op_u64f_1:
		U64F(*p);
		p++;
		NEXT();
op_u64f_2:
		U64F(ld16(p));
		p += 2;
		NEXT();
op_u64f_4:
		U64F(ld32(p));
		p += 4;
		NEXT();
op_u64f_8:
		U64F(ld64(p));
		p += 8;
		NEXT();
op_u64f_sdata: {
		const uint8_t *q = p;

		if (!rd_sleb(&q, end, &s))
			goto slow;
		U64F((uint64_t)s);
		p = q;
		NEXT();
	}
op_bool_1:
		*(bool *)(base + op->dst) = *p++ != 0;
		NEXT();
op_loc_sec4:
		di.has_location = true;
		di.location.name = DW_AT_location;
		di.location.form = DW_FORM_sec_offset;
		di.location.cls = DW_CLS_UNSIGNED;
		di.location.u = ld32(p);
		p += 4;
		NEXT();
op_loc_expr: {
		const uint8_t *q = p;

		if (!rd_uleb(&q, end, &v) || v > (uint64_t)(end - q))
			goto slow;
		di.has_location = true;
		di.location.name = DW_AT_location;
		di.location.form = DW_FORM_exprloc;
		di.location.cls = DW_CLS_BLOCK;
		di.location.block.data = q;
		di.location.block.len = v;
		p = q + v;
		NEXT();
	}
#undef NEXT
#undef U64F
slow:
		/* something unusual: the rest the general way */
		if (read_die_slow(l, &die, &di, op, p, sibling))
			return -1;
		goto decoded;
op_end:
		dw_cursor_attrs_done(&l->cur, p, sibling);
decoded:
		/* The DIE of nearly half of them, without a call and the
		 * switch's indirect jump: a member without children
		 * (annotations) of the struct being read. */
		if (dw_die_tag(&die) == DW_TAG_member && l->top >= 0 &&
		    l->scopes[l->top].kind == SCOPE_COMPOSITE && !dw_die_has_children(&die)) {
			if (handle_member(l, &l->scopes[l->top], &die, &di))
				return -1;
			continue;
		}
		if (handle_die(l, &die, &di))
			return -1;
		/* A DIE with children that opened no scope: skip the subtree. */
		if (dw_die_has_children(&die) &&
		    (l->top < 0 || l->scopes[l->top].depth != die.depth) &&
		    dw_cursor_skip_children(&l->cur, l->err))
			return -1;
	}
	if (r < 0)
		return -1;
	while (l->top >= 0)
		if (close_scope(l))
			return -1;
	return 0;
}

/* For the plans' ops: the facts of the unit l->dcu they read. */
static void walk_setup(struct loader *l)
{
	const struct dw_section *str = &l->df->sec[DW_SEC_STR];

	l->str_ok = str->data && str->size && str->data[str->size - 1] == 0;
	l->str = l->str_ok ? (const char *)str->data : NULL;
	l->str_size = l->str_ok ? str->size : 0;
	l->unit_off = l->dcu.unit->offset;
	l->unit_len = l->dcu.unit->end - l->dcu.unit->offset;
}

/* Every DIE of the unit l->dcu, in one walk. */
static int walk(struct loader *l)
{
	memset(l->by_code, 0, sizeof(l->by_code));
	l->plain_from = 0;
	l->plain_ok = NULL;
	l->top = -1;
	l->top_depth = -1;
	walk_setup(l);
	dw_cursor_init(&l->cur, &l->dcu);
	return walk_dies(l);
}

/* Decode the type units named by ref_sig8 (and those they name in turn)
 * into this unit's model: see struct loader. */
static int import_type_units(struct loader *l)
{
	struct dw_cu main_dcu = l->dcu;
	const struct abbrev_plan **main_plans = l->plans;
	int r = 0;

	l->importing = true;
	for (size_t i = 0; i < l->tu_units.len && !r; i++) {
		uint32_t unit = l->tu_units.data[i];

		l->plans = NULL;
		r = dw_cu_open(&l->dcu, l->df, unit, &l->cu->arena, l->err);
		if (!r) {
			l->off_tag = l->dcu.unit->section == l->main_section ?
				     0 : OFF_OTHER_SECTION;
			l->plans = calloc(l->dcu.abbrevs.nr_abbrevs + 1, sizeof(*l->plans));
			r = l->plans ? walk(l) : oom(l);
		}
		free(l->plans);
	}
	l->importing = false;
	l->off_tag = 0;
	l->dcu = main_dcu;
	l->plans = main_plans;
	return r;
}

/* The model's final arrays, in the arena, from the scratch vectors. */
static int finish_arrays(struct loader *l)
{
	struct cu_model *cu = l->cu;

	cu->nr_types = (uint32_t)l->types.len;
	cu->types = arena_alloc(&cu->arena, (l->types.len + 1) * sizeof(*cu->types));
	cu->nr_functions = (uint32_t)l->funcs.len;
	cu->functions = arena_alloc(&cu->arena, (l->funcs.len + 1) * sizeof(*cu->functions));
	cu->nr_variables = (uint32_t)l->vars.len;
	cu->variables = arena_alloc(&cu->arena, (l->vars.len + 1) * sizeof(*cu->variables));
	if (!cu->types || !cu->functions || !cu->variables)
		return oom(l);
	if (l->types.len)	/* data is NULL when no type was seen */
		memcpy(cu->types, l->types.data, l->types.len * sizeof(*cu->types));
	return 0;
}

/* The functions and variables into the model; origins; enums. */
static int finish_model(struct loader *l)
{
	struct cu_model *cu = l->cu;

	for (size_t i = 0; i < l->funcs.len; i++)
		cu->functions[i] = *l->funcs.data[i];
	for (size_t i = 0; i < l->vars.len; i++)
		cu->variables[i] = *l->vars.data[i];
	if (resolve_origins(l))
		return -1;
	finish_enums(l);
	return 0;
}

static int build(struct loader *l)
{
	if (walk(l))
		return -1;
	if (l->tu_units.len && import_type_units(l))
		return -1;
	if (finish_arrays(l) || resolve_fixups(l))
		return -1;
	return finish_model(l);
}

/* ---- Partial loads (load_options.only_types: pahole -C) ----
 *
 * pahole -C NAME prints one type of one unit: decoding the whole unit (the
 * model of thousands of types) was most of its run. A partial load makes
 * the model of only what printing the named types reads:
 *
 *   1. the skim (lazy_skim()): a pass over the unit's bytes that decodes
 *      no attribute but the name, DW_AT_declaration and DW_AT_alignment of
 *      the DIEs that have them and matter (most DIEs are one table lookup
 *      and a skip of their fixed size). It lists the DIEs the full walk
 *      makes a type of (struct lazy_die: where each one's children start
 *      and its subtree ends), finds the first definition of each name in
 *      DIE order (what pahole_select's find_by_name() finds in a full
 *      model), and whether any type or member of the unit has
 *      DW_AT_alignment (the printer's "Force padding" test,
 *      layout_has_alignment_info()). It goes only as far as it must: to
 *      the last name, then to each type step 2 decodes (lazy_find()), and
 *      to the unit's end only when no name is there or the alignment is
 *      still unknown (-C task_struct skims about half of its unit);
 *   2. each name found is decoded with walk_dies() over its DIE's subtree
 *      only (a window of the unit), and every type reference it records
 *      is then decoded the same way, on demand, as deep as its use needs
 *      (enum lazy_level): a pointer's target for its name only, a struct
 *      or enum so reached without its children (members, enumerators) unless
 *      it is anonymous (the printer expands those); a typedef reached for
 *      its name without its target; a member's type (a value) with its
 *      members, recursively (sizes, alignment, packed inference). A type
 *      reached again for more is completed in place (struct lazy_type);
 *   3. the model's types are sorted into DIE order, as the full walk has
 *      them, so find_by_name() in it finds what it finds in the full one.
 *
 * A type whose DIE sits inside another type's subtree (clang's anonymous
 * member types) is decoded only as part of its outermost such ancestor,
 * with all of it, so that every type is made once and its container's
 * nested list is the full walk's. Whatever the skim does not list resolves
 * to a TK_UNRESOLVED type, as the full walk's resolve_fixups() does.
 *
 * What it does not handle it leaves to the full walk (lazy_load() returns
 * 1): a unit other than a C compile unit of .debug_info (C++ classes need
 * their methods, type units their imports), references into other units
 * (DW_FORM_ref_addr, ref_sig8), DW_FORM_indirect, and any error (so the
 * full walk reports it as it always did).
 */

/* A DIE the full walk makes a type of, as the skim found it. */
struct lazy_die {
	uint64_t off;
	uint64_t kids;		/* where its children start (its subtree ends if none) */
	uint64_t end;		/* where its subtree ends */
	uint64_t top;		/* its outermost ancestor listed here, 0 if none */
	struct type *made;	/* its type, once made */
	uint8_t flags;		/* LD_* */
};

enum {
	LD_COMPOSITE = 1 << 0,	/* struct, union, class */
	LD_ENUM = 1 << 1,
	LD_NAMED = 1 << 2,	/* has a DW_AT_name (composites and enums only) */
	LD_OPEN = 1 << 3,	/* the skim is inside its subtree: end is its depth */
};

/* What a partial load knows of each type it made, by type index. */
struct lazy_type {
	uint64_t tref;		/* its DW_AT_type target, UINT64_MAX if none */
	uint8_t level;		/* enum lazy_level it was decoded for */
	bool kids;		/* its children are decoded */
};

DEFINE_VEC(lazy_die_vec, struct lazy_die)
DEFINE_VEC(lazy_type_vec, struct lazy_type)

/* What the skim does with a DIE of an abbreviation (struct skim_ab) */
enum {
	SK_TYPE = 1 << 0,	/* the full walk makes a type of it */
	SK_NAMED_KIND = 1 << 1,	/* struct, union, class, enum, typedef */
	SK_ALIGN = 1 << 2,	/* has DW_AT_alignment */
	SK_MEMBER = 1 << 3,	/* DW_TAG_member or DW_TAG_variable */
	SK_NO_KIDS = 1 << 4,	/* children not walked for types (member, parameter) */
	SK_COMPOSITE = 1 << 5,
	SK_ENUM = 1 << 6,
	SK_VARIABLE = 1 << 7,
};
/* skim_ab.fast: nothing to do but skip the DIE's fixed-size attributes */

/* An abbreviation as the skim reads it. */
struct skim_ab {
	uint8_t c;		/* SK_* */
	uint8_t name_form;	/* DW_FORM_strp or DW_FORM_string when name_at >= 0 */
	int16_t name_at;	/* DW_AT_name's offset in the DIE, -1 none, -2 unknown */
	int16_t decl_at;	/* DW_AT_declaration (a flag byte) likewise, -3 set */
	int32_t fixed;		/* the attributes' size if fixed, else -1 */
	bool fast;		/* no type, no children, no alignment, fixed size */
	bool foreign;		/* a form a partial load does not take (see above) */
	const struct dw_abbrev *ab;
};

struct lazy {
	struct lazy_die_vec dies;	/* in DIE order */
	struct lazy_type_vec info;	/* by type index in l->types */
	size_t fix_next;		/* the first of l->fixups not decoded yet */
	struct type_slot *map;		/* the types made, by DIE offset */
	size_t map_mask, map_nr;
	struct skim_ab *sk;		/* by abbreviation index */
	const struct skim_ab **sk_code;	/* by one-byte code (1..nr_dense), or NULL */
	bool has_alignment;
	/* the skim: where it stopped (pos, depth, the listed DIEs still
	 * open), where it is to stop next (see lazy_skim()), the names */
	const uint8_t *pos;
	uint32_t depth, stop_depth;
	uint64_t stop_off;
	size_t nr_open, nr_missing, nr_names;
	bool done;
	const char *const *names;
	uint64_t *found;
	const uint32_t *sorted;	/* over 4 names: their indexes, by name */
	uint32_t *own_sorted;	/* sorted, when this load made it */
	/* the walk in progress: its root DIE, what it is decoded for, and
	 * the type whose children it decodes (NULL: a new one) */
	uint64_t root_off;
	struct lazy_die *root;
	uint8_t root_level;
	bool root_kids;
	struct type *reuse;
	/* the skim's state by DIE depth: not cleared (each is written
	 * before it is read) */
	uint16_t tag_at[DW_MAX_DEPTH + 2];
	uint64_t top_at[DW_MAX_DEPTH + 2];
	uint32_t open[DW_MAX_DEPTH + 2];	/* listed DIEs whose subtree is open */
};

/* A reference to decode at LEVEL (none: the slot stays NULL). */
static int lazy_fixup(struct loader *l, struct type **slot, uint64_t off, uint8_t level)
{
	if (level == LV_NONE) {
		*slot = NULL;
		return 0;
	}
	return add_fixup(l, slot, off, level);
}

/* The level T's own reference (t->type) is needed at, when T is needed at
 * LEVEL (KIDS: its children are decoded). */
static uint8_t link_level(uint8_t kind, uint8_t level, bool kids)
{
	switch (kind) {
	case TK_TYPEDEF:
		/* a name is the typedef's own; a value is its target's */
		return level >= LV_VALUE ? LV_VALUE : LV_NONE;
	case TK_CONST:
	case TK_VOLATILE:
	case TK_RESTRICT:
	case TK_ATOMIC:
	case TK_ARRAY:
		return level > LV_VALUE ? LV_VALUE : level;
	case TK_ENUM:
		/* the underlying type: whether its values are signed */
		return kids ? LV_VALUE : LV_NONE;
	default:
		/* pointers, functions: the names of their targets */
		return LV_NAME;
	}
}

/* Whether a DIE of E's kind needed at LEVEL needs its children. */
static bool lazy_kids_needed(const struct lazy_die *e, uint8_t level)
{
	if (!(e->flags & (LD_COMPOSITE | LD_ENUM)) || !(e->flags & LD_NAMED))
		return true;	/* anonymous ones are printed whole */
	return level >= ((e->flags & LD_ENUM) ? LV_FULL : LV_VALUE);
}

static int lazy_skim(struct loader *l);

/* The listed DIE at OFF with its subtree's end, the skim going on as far
 * as that needs; NULL if none, or when the skim failed (*FAILED set). */
static struct lazy_die *lazy_find(struct loader *l, uint64_t off, bool *failed)
{
	struct lazy *z = l->lazy;
	size_t lo = 0, hi;

	if (!z->done && off >= dw_cu_offset_of(&l->dcu, z->pos)) {
		z->stop_off = off;	/* past the DIE at OFF */
		z->stop_depth = UINT32_MAX;
		if (lazy_skim(l)) {
			*failed = true;
			return NULL;
		}
	}
	hi = z->dies.len;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (z->dies.data[mid].off < off) {
			lo = mid + 1;
		} else if (z->dies.data[mid].off > off) {
			hi = mid;
		} else {
			if (z->dies.data[mid].flags & LD_OPEN) {
				/* on to the end of its subtree */
				z->stop_off = 0;
				z->stop_depth = (uint32_t)z->dies.data[mid].end;
				if (lazy_skim(l)) {
					*failed = true;
					return NULL;
				}
			}
			return &z->dies.data[mid];
		}
	}
	return NULL;
}

static struct type *lazy_map_get(const struct lazy *z, uint64_t off)
{
	return find_type_slot(z->map, z->map_mask, off);
}

static struct type *lazy_reused(struct loader *l, const struct dw_die *die)
{
	struct lazy *z = l->lazy;
	struct type *t = z->reuse;

	if (!t || t->die_offset != die->offset)
		return NULL;
	z->reuse = NULL;
	return t;
}

/* new_type()'s end in a partial load: T is made; record it and queue its
 * reference at the level it is needed. */
static int lazy_register(struct loader *l, struct type *t, const struct dw_die *die,
			 const struct die_info *di)
{
	struct lazy *z = l->lazy;
	bool root = die->offset == z->root_off, failed = false;
	struct lazy_die *e = root ? z->root : lazy_find(l, die->offset, &failed);
	struct lazy_type *info = lazy_type_vec_push_zero(&z->info);
	size_t h;

	if (!info)
		return oom(l);
	if (!e || e->made)	/* not what the skim listed: cannot be */
		return d2b_error_set(l->err, "partial load: unlisted type DIE 0x%llx",
				     (unsigned long long)die->offset);
	e->made = t;
	info->tref = di->has_type ? di->type_off : UINT64_MAX;
	info->level = root ? z->root_level : LV_FULL;
	info->kids = root ? z->root_kids : true;
	if (++z->map_nr * 2 > z->map_mask + 1) {	/* grow: twice the slots */
		size_t cap = 2 * (z->map_mask + 1);
		struct type_slot *m = calloc(cap, sizeof(*m));

		if (!m)
			return oom(l);
		for (size_t i = 0; i <= z->map_mask; i++) {
			if (!z->map[i].t)
				continue;
			h = offset_hash(z->map[i].off, cap - 1);
			while (m[h].t)
				h = (h + 1) & (cap - 1);
			m[h] = z->map[i];
		}
		free(z->map);
		z->map = m;
		z->map_mask = cap - 1;
	}
	/* one type per DIE (see above): no need to look first */
	h = offset_hash(t->die_offset, z->map_mask);
	while (z->map[h].t)
		h = (h + 1) & z->map_mask;
	z->map[h] = (struct type_slot){ t->die_offset, t };
	if (!di->has_type)
		return 0;
	return lazy_fixup(l, &t->type, di->type_off, link_level(t->kind, info->level, info->kids));
}

/* walk_dies() over the DIEs from OFF to END, as the children of a unit. */
static int lazy_walk(struct loader *l, uint64_t off, uint64_t end)
{
	if (dw_cursor_init_at(&l->cur, &l->dcu, off, l->err))
		return -1;
	l->cur.end = dw_cu_at(&l->dcu, end);
	l->cur.depth = 1;
	memset(&l->scopes[0], 0, sizeof(l->scopes[0]));
	l->scopes[0].kind = SCOPE_UNIT;
	l->top = 0;
	l->top_depth = 0;
	return walk_dies(l);
}

/* T (listed as E) is needed at LEVEL now: decode what that adds. */
static int lazy_upgrade(struct loader *l, struct type *t, const struct lazy_die *e,
			uint8_t level)
{
	struct lazy *z = l->lazy;
	struct lazy_type *info = &z->info.data[t->id];
	uint8_t old = info->level, old_link = link_level(t->kind, old, info->kids);
	uint64_t tref = info->tref;
	bool kids = info->kids;

	if (level <= old)
		return 0;
	info->level = level;
	if (!kids && lazy_kids_needed(e, level)) {
		/* its children, into the type it is (new_type: lazy_reused) */
		info->kids = kids = true;
		z->reuse = t;
		z->root_off = UINT64_MAX;
		if (lazy_walk(l, e->off, e->end))
			return -1;
		z->reuse = NULL;
	}
	if (tref == UINT64_MAX || link_level(t->kind, level, kids) <= old_link)
		return 0;
	return lazy_fixup(l, &t->type, tref, link_level(t->kind, level, kids));
}

/* *OUT: the type at DIE offset OFF, decoded for LEVEL. */
static int lazy_request(struct loader *l, uint64_t off, uint8_t level, struct type **out)
{
	struct lazy *z = l->lazy;
	struct type *t = lazy_map_get(z, off);
	const struct lazy_die *e;
	bool failed = false;

	/* most references are to a type made already, for no more */
	if (t && z->info.data[t->id].level >= level) {
		*out = t;
		return 0;
	}
	e = lazy_find(l, off, &failed);
	if (failed)
		return -1;
	if (!e) {	/* no type there: as resolve_fixups() */
		*out = unresolved_type(l, off);
		return *out ? 0 : oom(l);
	}
	if (!t && e->top) {
		/* inside another type: made with all of its outermost one */
		if (lazy_request(l, e->top, LV_FULL, &t))
			return -1;
		t = lazy_map_get(z, off);
		e = lazy_find(l, off, &failed);	/* the list may have moved */
		if (failed || !e)
			return -1;
	} else if (!t) {
		bool kids = lazy_kids_needed(e, level);

		z->root_off = off;
		z->root = (struct lazy_die *)e;
		z->root_level = level;
		z->root_kids = kids;
		if (lazy_walk(l, off, kids ? e->end : e->kids))
			return -1;
		z->root_off = UINT64_MAX;
		z->root = NULL;
		*out = lazy_map_get(z, off);
		if (!*out)
			return d2b_error_set(l->err, "partial load: no type made at 0x%llx",
					     (unsigned long long)off);
		return 0;
	}
	if (!t)
		return d2b_error_set(l->err, "partial load: no type made at 0x%llx",
				     (unsigned long long)off);
	*out = t;
	return lazy_upgrade(l, t, e, level);
}

/* Decode the queued references until none is left. */
static int lazy_resolve(struct loader *l)
{
	struct lazy *z = l->lazy;

	while (z->fix_next < l->fixups.len) {
		struct fixup f = l->fixups.data[z->fix_next++];
		struct type *t;

		if (lazy_request(l, f.off, fixup_level(&f), &t))
			return -1;
		*fixup_slot(&f) = t;
	}
	return 0;
}

static bool is_type_tag(uint16_t tag)
{
	switch (tag) {
	case DW_TAG_base_type:
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_restrict_type:
	case DW_TAG_atomic_type:
	case DW_TAG_typedef:
	case DW_TAG_unspecified_type:
	case DW_TAG_ptr_to_member_type:
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_class_type:
	case DW_TAG_enumeration_type:
	case DW_TAG_array_type:
	case DW_TAG_subroutine_type:
		return true;
	}
	return false;
}

static bool is_composite_tag(uint16_t tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_class_type;
}

static struct skim_ab skim_plan(const struct loader *l, const struct dw_abbrev *ab)
{
	struct skim_ab k = { .name_at = -1, .decl_at = -1, .fixed = ab->fixed_size };
	uint16_t tag = ab->tag;
	int at = 0;		/* offset of the next attribute; -1: not fixed */

	if (is_type_tag(tag))
		k.c |= SK_TYPE;
	if (is_composite_tag(tag))
		k.c |= SK_COMPOSITE | SK_NAMED_KIND;
	if (tag == DW_TAG_enumeration_type)
		k.c |= SK_ENUM | SK_NAMED_KIND;
	if (tag == DW_TAG_typedef)
		k.c |= SK_NAMED_KIND;
	if (tag == DW_TAG_member || tag == DW_TAG_variable)
		k.c |= SK_MEMBER;
	if (tag == DW_TAG_variable)
		k.c |= SK_VARIABLE;
	if (tag == DW_TAG_member || tag == DW_TAG_formal_parameter)
		k.c |= SK_NO_KIDS;
	for (unsigned i = 0; i < ab->nr_attrs; i++) {
		const struct dw_abbrev_attr *aa = &ab->attrs[i];
		unsigned f = aa->form;
		int fs = dw_cu_form_size(&l->dcu, f);

		/* references out of the unit, forms given in the DIE */
		if (f == DW_FORM_ref_addr || f == DW_FORM_ref_sig8 || f == DW_FORM_indirect ||
		    f == DW_FORM_GNU_ref_alt || f == DW_FORM_ref_sup4 || f == DW_FORM_ref_sup8 ||
		    aa->name == DW_AT_signature)
			k.foreign = true;
		if (aa->name == DW_AT_alignment)
			k.c |= SK_ALIGN;
		if (aa->name == DW_AT_name) {
			/* read in place: a strp or an inline string at a fixed
			 * offset, once in the abbreviation */
			bool fast = at >= 0 && at < INT16_MAX && k.name_at == -1 &&
				    ((aa->form == DW_FORM_strp && l->dcu.unit->offset_size == 4 &&
				      l->str_ok) || aa->form == DW_FORM_string);

			k.name_at = fast ? (int16_t)at : -2;
			k.name_form = (uint8_t)aa->form;
		}
		if (aa->name == DW_AT_declaration) {
			if (k.decl_at != -1)
				k.decl_at = -2;
			else if (aa->form == DW_FORM_flag_present ||
				 (aa->form == DW_FORM_implicit_const && aa->implicit_const))
				k.decl_at = -3;
			else if (aa->form == DW_FORM_implicit_const)
				k.decl_at = -1;
			else
				k.decl_at = aa->form == DW_FORM_flag && at >= 0 &&
					    at < INT16_MAX ? (int16_t)at : -2;
		}
		if (at >= 0)
			at = fs >= 0 ? at + fs : -1;
	}
	k.ab = ab;
	k.fast = !(k.c & SK_TYPE) && !ab->has_children && k.fixed >= 0 &&
		 !((k.c & SK_MEMBER) && (k.c & SK_ALIGN));
	return k;
}

/* Move *P past the attributes of a DIE of AB (K): false when they run past
 * END or do not parse (the full walk then reports it). */
static inline bool skim_attrs(struct loader *l, const struct dw_abbrev *ab,
			      const struct skim_ab *k, const uint8_t **p, const uint8_t *end)
{
	if (k->fixed >= 0) {
		if ((size_t)(end - *p) < (size_t)k->fixed)
			return false;
		*p += k->fixed;
		return true;
	}
	for (unsigned i = 0; i < ab->nr_attrs; i++) {
		unsigned form = ab->attrs[i].form;
		int fs = form < DW_CU_FORM_SIZES ? l->dcu.form_size[form] : -1;

		if (fs >= 0) {
			if ((size_t)(end - *p) < (size_t)fs)
				return false;
			*p += fs;
		} else if (dw_form_skip(&l->dcu, form, p, end, l->err)) {
			return false;
		}
	}
	return true;
}

/* The abbreviation at *P (its code read), or NULL: a code the skim does
 * not take (the full walk then decides). */
static inline const struct dw_abbrev *skim_code(const struct loader *l, const uint8_t **p,
						const uint8_t *end)
{
	const struct dw_abbrev_table *t = &l->dcu.abbrevs;
	uint64_t code;

	if (!(**p & 0x80) && **p <= t->nr_dense)
		return t->dense[*(*p)++ - 1];
	if (!rd_uleb(p, end, &code))
		return NULL;
	return dw_cu_abbrev(&l->dcu, code);
}

/* Skip the children of a DIE whose attributes end at *P. */
static bool skim_children(struct loader *l, const uint8_t **p, const uint8_t *end)
{
	const struct lazy *z = l->lazy;
	unsigned nest = 1;

	while (nest) {
		const struct dw_abbrev *ab;

		if (*p >= end)
			return false;
		if (!**p) {
			(*p)++;
			nest--;
			continue;
		}
		ab = skim_code(l, p, end);
		if (!ab || !skim_attrs(l, ab, &z->sk[ab->index], p, end))
			return false;
		if (ab->has_children && ++nest > DW_MAX_DEPTH)
			return false;
	}
	return true;
}

/* A DIE's attributes the general way (read_die_generic()), for the few
 * the skim reads that are not in place: *P moves past them. */
static bool skim_read(struct loader *l, const struct dw_abbrev *ab, const uint8_t *start,
		      uint32_t depth, const uint8_t **p, const uint8_t *end,
		      struct die_info *di)
{
	struct dw_die die = {
		.offset = dw_cu_offset_of(&l->dcu, start),
		.abbrev = ab,
		.attrs = *p,
		.depth = depth,
	};

	l->cur.end = end;
	if (read_die_generic(l, &die, di))
		return false;
	*p = l->cur.pos;
	return true;
}

/* With many -C names, each named DIE is looked up among them by binary
 * search (z->sorted), not compared with each one. */
static bool lazy_name_range(const struct lazy *z, const char *name, size_t *first,
			    size_t *last)
{
	size_t lo = 0, hi = z->nr_names;

	while (lo < hi) {	/* the first not below NAME */
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(z->names[z->sorted[mid]], name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	while (hi < z->nr_names && !strcmp(z->names[z->sorted[hi]], name))
		hi++;
	*last = hi;
	return hi > lo;
}

static const char *lazy_name_of(void *ctx, uint32_t idx)
{
	const char *const *names = ctx;

	return names[idx];
}

/* The names' order, ties by index (lazy_name_range() lists equal names in
 * list order). */
static int lazy_name_cmp(const void *a, const void *b, void *ctx)
{
	const char *const *names = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = strcmp(names[x], names[y]);

	if (c)
		return c;
	return x < y ? -1 : x > y;
}

uint32_t *load_sort_type_names(const char *const *names, size_t n)
{
	return name_sort_order(n, lazy_name_of, lazy_name_cmp, (void *)names);
}

/*
 * Step 1 (see above): the unit DIE into the model (by walk_dies() over that
 * DIE alone: the unit's scope opens and closes), and the skim set up.
 * Returns 0, or 1 where the full walk must decide (not C, malformed).
 */
static int lazy_skim_start(struct loader *l)
{
	struct lazy *z = l->lazy;
	const uint8_t *p;
	struct dw_die die;

	dw_cursor_init(&l->cur, &l->dcu);
	if (dw_cursor_next(&l->cur, &die, l->err) <= 0 || die.depth ||
	    !(dw_die_tag(&die) == DW_TAG_compile_unit || dw_die_tag(&die) == DW_TAG_partial_unit))
		return 1;
	p = die.attrs;
	if (!skim_attrs(l, die.abbrev, &z->sk[die.abbrev->index], &p, l->cur.end))
		return 1;
	dw_cursor_init(&l->cur, &l->dcu);
	l->cur.end = p;
	l->top = -1;
	l->top_depth = -1;
	if (walk_dies(l) || !lang_is_c(l->cu->language))
		return 1;
	z->pos = p;
	z->depth = dw_die_has_children(&die) ? 1 : 0;
	z->tag_at[0] = dw_die_tag(&die);
	z->top_at[0] = 0;
	return 0;
}

/*
 * The skim, resumed where it stopped, over the unit's bytes: list the type
 * DIEs (each with where its subtree ends, once the skim is past it), find
 * the names (z->found[i]: the offset of the first definition of
 * z->names[i], 0 if none), see whether the unit has alignment information.
 * It stops before the DIE past z->stop_off when the depth is at most
 * z->stop_depth (the end of the unit at the latest, then z->done): the
 * partial load skims only as far as its names and the types it decodes
 * (and, for the alignment, to the end only when it must). Returns 0, or 1
 * where the full walk must decide (anything unusual or malformed).
 */
static int lazy_skim(struct loader *l)
{
	struct lazy *z = l->lazy;
	const struct dw_cu *dcu = &l->dcu;
	const uint8_t *p = z->pos, *end = dw_cu_at(dcu, dcu->unit->end);
	const struct skim_ab *const *sk_code = z->sk_code;
	/* codes 1..nr_code take the fast path (not 0: b - 1 wraps) */
	const unsigned nr_code = (unsigned)(l->dcu.abbrevs.nr_dense < 127 ?
					    l->dcu.abbrevs.nr_dense : 127);
	const char *const *names = z->names;
	uint64_t *found = z->found;
	size_t nr_open = z->nr_open, nr_missing = z->nr_missing, nr_names = z->nr_names;
	uint32_t depth = z->depth;
	struct die_info di;
	int r = 1;

	while (p < end) {
		const uint8_t *start = p;
		const struct dw_abbrev *ab;
		const struct skim_ab *k;
		unsigned b = *p;
		uint16_t ptag;
		uint64_t top;

		if (dw_cu_offset_of(dcu, p) > z->stop_off && depth <= z->stop_depth)
			break;
		/* the common DIE in a few loads: a one-byte code to its plan,
		 * a member (say) skipped by its fixed size */
		if (__builtin_expect(b - 1 < nr_code, 1)) {
			k = sk_code[b];
			p++;
			if (!k || !depth)
				goto out;
			if (k->fast) {
				if ((size_t)(end - p) < (size_t)k->fixed)
					goto out;
				p += k->fixed;
				continue;
			}
			ab = k->ab;
			goto slow;
		}
		if (!b) {	/* a list of children ends */
			p++;
			if (!depth)
				continue;	/* padding after the unit DIE */
			depth--;
			/* the listed DIEs it ends: their end held their depth */
			while (nr_open && z->dies.data[z->open[nr_open - 1]].end >= depth) {
				struct lazy_die *o = &z->dies.data[z->open[--nr_open]];

				o->end = dw_cu_offset_of(dcu, p);
				o->flags &= (uint8_t)~LD_OPEN;
			}
			continue;
		}
		ab = skim_code(l, &p, end);
		if (!ab || !depth)	/* a second root DIE: the full walk's */
			goto out;
		k = &z->sk[ab->index];
		if (k->fast) {
			if ((size_t)(end - p) < (size_t)k->fixed)
				goto out;
			p += k->fixed;
			continue;
		}
slow:
		ptag = z->tag_at[depth - 1];
		top = z->top_at[depth - 1];
		z->tag_at[depth] = ab->tag;
		z->top_at[depth] = top;
		if (k->c & SK_TYPE) {
			struct lazy_die *e;
			bool named = false;

			if (z->dies.len == z->dies.cap &&
			    lazy_die_vec_reserve(&z->dies, 2 * z->dies.len + 64))
				goto out;
			e = &z->dies.data[z->dies.len++];
			e->off = dw_cu_offset_of(dcu, start);
			e->top = top;
			e->made = NULL;
			e->flags = (k->c & SK_COMPOSITE ? LD_COMPOSITE : 0) |
				   (k->c & SK_ENUM ? LD_ENUM : 0);
			z->top_at[depth] = top ? top : e->off;
			if ((k->c & SK_NAMED_KIND) && k->name_at != -2 && k->decl_at != -2 &&
			    !((k->c & SK_ALIGN) && !z->has_alignment)) {
				/* in place: the name and DW_AT_declaration */
				const char *name = NULL;
				bool decl = k->decl_at == -3;

				if (k->name_at >= 0) {
					const uint8_t *q = p + k->name_at;

					if (k->name_form == DW_FORM_strp) {
						uint64_t off;

						if (end - q < 4 || (off = ld32(q)) >= l->str_size)
							goto out;
						name = l->str + off;
					} else {
						if (q >= end || !memchr(q, 0, (size_t)(end - q)))
							goto out;
						name = (const char *)q;
					}
				}
				if (k->decl_at >= 0) {
					if (end - p <= k->decl_at)
						goto out;
					decl = p[k->decl_at] != 0;
				}
				if (!skim_attrs(l, ab, k, &p, end))
					goto out;
				di.name = name;
				di.declaration = decl;
				di.alignment = 0;
			} else if ((k->c & SK_NAMED_KIND) || ((k->c & SK_ALIGN) && !z->has_alignment)) {
				if (!skim_read(l, ab, start, depth, &p, end, &di))
					goto out;
			} else {
				di.name = NULL;
				di.alignment = 0;
				if (!skim_attrs(l, ab, k, &p, end))
					goto out;
			}
			if (di.alignment)
				z->has_alignment = true;
			named = di.name != NULL;
			if (named)
				e->flags |= LD_NAMED;
			if ((k->c & SK_NAMED_KIND) && named && !di.declaration && nr_missing) {
				size_t i = 0, n = nr_names;

				/* many names: the run of them equal to this one */
				if (z->sorted && !lazy_name_range(z, di.name, &i, &n))
					n = i;
				for (; i < n; i++) {
					size_t j = z->sorted ? z->sorted[i] : i;

					if (!found[j] && !strcmp(di.name, names[j])) {
						found[j] = e->off;
						if (!--nr_missing && z->stop_off == UINT64_MAX)
							z->stop_off = 0;	/* all found */
					}
				}
			}
			e->kids = dw_cu_offset_of(dcu, p);
			if (ab->has_children) {
				e->end = depth;	/* its depth, until it closes */
				e->flags |= LD_OPEN;
				z->open[nr_open++] = (uint32_t)(z->dies.len - 1);
			} else {
				e->end = e->kids;
			}
		} else if ((k->c & SK_MEMBER) && (k->c & SK_ALIGN) && !z->has_alignment &&
			   is_composite_tag(ptag)) {
			if (!skim_read(l, ab, start, depth, &p, end, &di))
				goto out;
			if (di.alignment)
				z->has_alignment = true;
		} else if (!skim_attrs(l, ab, k, &p, end)) {
			goto out;
		}
		if (!ab->has_children)
			continue;
		/* the children the full walk does not read for types */
		if ((k->c & SK_NO_KIDS) || ((k->c & SK_VARIABLE) && is_composite_tag(ptag))) {
			if (!skim_children(l, &p, end))
				goto out;
			continue;
		}
		if (++depth > DW_MAX_DEPTH)
			goto out;
	}
	if (p >= end) {
		while (nr_open) {
			struct lazy_die *o = &z->dies.data[z->open[--nr_open]];

			o->end = l->dcu.unit->end;
			o->flags &= (uint8_t)~LD_OPEN;
		}
		z->done = true;
	}
	r = 0;
out:
	z->pos = p;
	z->depth = depth;
	z->nr_open = nr_open;
	z->nr_missing = nr_missing;
	return r;
}

/* Whether a partial load can read the unit (see above). */
static bool lazy_eligible(const struct loader *l)
{
	const struct dw_unit *u = l->dcu.unit;

	return u->section == DW_SEC_INFO && u->unit_type == DW_UT_compile &&
	       !l->opts->skip_functions && u->end - u->offset < UINT32_MAX;
}

/* A partial load of l->dcu: 0 done, 1 not possible here (the caller does
 * the full walk), -1 error. */
static int lazy_load(struct loader *l)
{
	const struct load_options *o = l->opts;
	struct lazy *z;
	uint64_t *found;
	size_t cap = 16;
	int r = 1;

	if (!lazy_eligible(l))
		return 1;
	/* not cleared: 15 KB of depth-indexed state, written before read */
	z = malloc(sizeof(*z));
	found = calloc(o->nr_only_types, sizeof(*found));
	if (!z || !found) {
		free(z);
		free(found);
		return oom(l);
	}
	memset(z, 0, offsetof(struct lazy, tag_at));
	l->lazy = z;
	z->root_off = UINT64_MAX;
	walk_setup(l);
	z->sk = malloc((l->dcu.abbrevs.nr_abbrevs + 1) * sizeof(*z->sk));
	z->sk_code = calloc(128, sizeof(*z->sk_code));
	if (!z->sk || !z->sk_code) {
		oom(l);
		goto out;
	}
	for (size_t i = 0; i < l->dcu.abbrevs.nr_dense + l->dcu.abbrevs.nr_sparse; i++) {
		const struct dw_abbrev_table *t = &l->dcu.abbrevs;
		const struct dw_abbrev *ab = i < t->nr_dense ? t->dense[i] :
					     &t->sparse[i - t->nr_dense];

		if (ab && ab->index < t->nr_abbrevs) {
			z->sk[ab->index] = skim_plan(l, ab);
			if (z->sk[ab->index].foreign) {
				r = 1;
				goto out;
			}
			if (ab->code >= 1 && ab->code <= 127 && ab->code <= t->nr_dense)
				z->sk_code[ab->code] = &z->sk[ab->index];
		}
	}
	/* about one type DIE in 40 bytes (a kernel unit): no regrowth */
	if (lazy_die_vec_reserve(&z->dies, (size_t)((l->dcu.unit->end - l->dcu.unit->offset) / 32) + 16)) {
		r = oom(l);
		goto out;
	}
	z->names = o->only_types;
	z->nr_names = z->nr_missing = o->nr_only_types;
	z->found = found;
	if (z->nr_names > 4) {
		z->sorted = o->only_types_order;
		if (!z->sorted) {
			z->sorted = z->own_sorted = load_sort_type_names(z->names, z->nr_names);
			if (!z->sorted) {
				r = oom(l);
				goto out;
			}
		}
	}
	z->stop_off = UINT64_MAX;	/* until every name is found */
	z->stop_depth = UINT32_MAX;
	r = lazy_skim_start(l);
	if (!r)
		r = lazy_skim(l);
	if (r)
		goto out;
	r = -1;
	/* the types made: a few hundred of the unit's, or none (it grows) */
	for (size_t i = 0; i < o->nr_only_types; i++)
		if (found[i])
			cap = 1024;
	z->map_mask = cap - 1;
	z->map = calloc(cap, sizeof(*z->map));
	if (!z->map) {
		oom(l);
		goto out;
	}
	for (size_t i = 0; i < o->nr_only_types; i++) {
		struct type *t;

		if (found[i] && (lazy_request(l, found[i], LV_FULL, &t) || lazy_resolve(l)))
			goto out;
	}
	/* layout_has_alignment_info(): the rest of the unit, if it must */
	if (l->types.len && !z->has_alignment && !z->done) {
		z->stop_off = UINT64_MAX;
		z->stop_depth = UINT32_MAX;
		if (lazy_skim(l))
			goto out;
	}
	/* DIE order, as the full walk made them: the listed DIEs' order */
	if (l->types.len) {
		size_t n = 0;

		for (size_t i = 0; i < z->dies.len; i++)
			if (z->dies.data[i].made) {
				l->types.data[n] = z->dies.data[i].made;
				l->types.data[n]->id = (uint32_t)n;
				n++;
			}
		if (n != l->types.len) {
			d2b_error_set(l->err, "partial load: %zu types made, %zu listed",
				      l->types.len, n);
			goto out;
		}
	}
	if (finish_arrays(l) || finish_model(l))
		goto out;
	l->cu->partial = true;
	l->cu->has_alignment_info = z->has_alignment;
	r = 0;
out:
	l->lazy = NULL;
	lazy_die_vec_free(&z->dies);
	lazy_type_vec_free(&z->info);
	free(z->map);
	free(z->sk);
	free(z->sk_code);
	free(z->own_sorted);
	free(z);
	free(found);
	return r;
}

/* LAZY: try a partial load first; *FALLBACK is set when it was not
 * possible or failed (the caller then does the full walk). */
static struct cu_model *load_unit(const struct dw_file *df, size_t unit,
				  const struct load_options *opts, struct dw_unit_buf *buf,
				  bool lazy, bool *fallback, struct d2b_error *err)
{
	static const struct load_options defaults;
	struct loader *l = malloc(sizeof(*l));
	struct cu_model *cu = calloc(1, sizeof(*cu));
	int r = -1;

	if (!l || !cu) {
		free(l);
		free(cu);
		d2b_error_oom(err);
		return NULL;
	}
	memset(l, 0, offsetof(struct loader, scopes));
	arena_init(&cu->arena);
	l->df = df;
	l->cu = cu;
	l->opts = opts ? opts : &defaults;
	l->err = err;
	if (dw_cu_open_copy(&l->dcu, df, unit, buf, &cu->arena, err) == 0) {
		cu->index = (uint32_t)unit;
		cu->offset = l->dcu.unit->offset;
		cu->addr_size = l->dcu.unit->addr_size;
		cu->dwarf_version = l->dcu.unit->version;
		l->main_section = l->dcu.unit->section;
		l->plans = calloc(l->dcu.abbrevs.nr_abbrevs + 1, sizeof(*l->plans));
		if (!l->plans) {
			r = d2b_error_oom(err);
		} else if (lazy) {
			r = lazy_load(l);
			if (r) {
				*fallback = true;
				r = -1;
			}
		} else {
			reserve_scratch(l);
			r = build(l);
		}
	}
	loader_free_scratch(l);
	free(l);
	if (r) {
		cu_model_destroy(cu);
		return NULL;
	}
	return cu;
}

struct cu_model *load_cu(const struct dw_file *df, size_t unit,
			 const struct load_options *opts, struct dw_unit_buf *buf,
			 struct d2b_error *err)
{
	if (opts && opts->nr_only_types) {
		struct load_options full = *opts;
		bool fallback = false;
		struct cu_model *cu = load_unit(df, unit, opts, buf, true, &fallback, err);

		if (cu || !fallback)
			return cu;
		/* the full walk decides, and reports its own errors */
		d2b_error_clear(err);
		full.only_types = NULL;
		full.nr_only_types = 0;
		return load_unit(df, unit, &full, buf, false, NULL, err);
	}
	return load_unit(df, unit, opts, buf, false, NULL, err);
}
