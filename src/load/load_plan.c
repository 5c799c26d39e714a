// SPDX-License-Identifier: GPL-2.0-only
/*
 * The plans of a unit's abbreviations: for each, once per unit, the ops
 * that loader_walk_dies() runs to decode a DIE's attributes into its
 * die_info (loader.h), and the general decoder for whatever a plan does
 * not fuse (another form, a value out of range, an error).
 */
#include "load/loader.h"

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
	AS_VTABLE_ELEM, AS_SIGNATURE, AS_SIBLING, AS_GNU_VECTOR,
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
	[AS_GNU_VECTOR] = SF(K_BOOL, gnu_vector),
	[AS_LOCATION] = { 0, 0, K_LOC },
};

#undef SF
#undef SFF

static uint8_t attr_slot_of(const struct loader *l, uint16_t name)
{
	uint8_t slot = name < 256 ? attr_slots[name] :
		       name == DW_AT_MIPS_linkage_name ? AS_LINKAGE_NAME :
		       name == DW_AT_GNU_vector ? AS_GNU_VECTOR : AS_SKIP;

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
const struct abbrev_plan * __attribute__((noinline))
loader_build_plan(struct loader *l, const struct dw_abbrev *ab)
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
		/* pahole 1.24 asks whether DW_AT_external is there, not what
		 * it says (gas writes "external 0" for local symbols): true
		 * in the template, the flag's byte skipped */
		if (slot == AS_EXTERNAL && l->opts->external_is_presence &&
		    aa->form == DW_FORM_flag && !slot_repeated(l, ab, slot)) {
			*(bool *)(plan->tmpl + slot_fields[slot].dst) = true;
			op.code = OP_SKIP;
			op.form = 1;
			emit_fixed(&b, op, 1);
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
		di->external = a->u != 0 || l->opts->external_is_presence;
		break;
	case AS_PROTOTYPED:
		di->prototyped = a->u != 0;
		break;
	case AS_GNU_VECTOR:
		di->gnu_vector = a->u != 0;
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
int __attribute__((noinline))
loader_generic_op(struct loader *l, const struct dw_die *die, struct die_info *di,
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
int __attribute__((noinline))
loader_read_die_slow(struct loader *l, const struct dw_die *die, struct die_info *di,
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
			if (loader_generic_op(l, die, di, op, &p, end, &sibling))
				return -1;
		}
	}
	dw_cursor_attrs_done(&l->cur, p, sibling);
	return 0;
}

/* The attributes of DIE into DI, each decoded the general way (not the
 * threaded ops of walk()): for the rare DIEs read out of the walk's order,
 * the annotations of members and parameters. */
int loader_read_die_generic(struct loader *l, const struct dw_die *die, struct die_info *di)
{
	const struct abbrev_plan *plan = l->plans[die->abbrev->index];

	if (!plan && !(plan = loader_build_plan(l, die->abbrev)))
		return oom(l);
	die_info_init(di, plan->tmpl);
	return loader_read_die_slow(l, die, di, plan->ops, die->attrs, 0);
}
