/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * load/model.h: the type model every printer and the BTF encoder work on.
 *
 * It barely mentions DWARF: the DWARF loader (load_cu.c) and later the BTF
 * loader fill the same structures. One struct cu_model holds everything
 * decoded from one compile unit, allocated in the unit's arena and freed at
 * once with cu_model_destroy().
 *
 *   cu_model
 *     ├── types[]      every type in DIE order, including types nested in
 *     │                structs or functions; type->id is its index
 *     ├── functions[]  every DW_TAG_subprogram (definitions, declarations,
 *     │                abstract instances), in DIE order, nested ones too
 *     └── variables[]  every top-level and static DW_TAG_variable
 *
 * References between types are pointers within the same cu_model. The
 * "void" type is NULL. A reference we cannot resolve inside the unit (a
 * DW_FORM_ref_addr into another unit) points to a TK_UNRESOLVED placeholder
 * carrying the target's offset. The type units a unit names by ref_sig8
 * (DWARF 4 .debug_types, DWARF 5 DW_UT_type) are decoded into its model as
 * well, so those references resolve: their types have scope TS_OTHER (they
 * are the type unit's own, listed when that unit is), their DIE offsets have
 * bit 63 set when they sit in another section than the unit, and of their
 * functions only the methods of their classes are kept. A declaration that
 * names its definition by DW_AT_signature becomes a copy of it (keeping its
 * own id, DIE offset and scope).
 *
 * Strings point into the mapped file or into the arena; they live as long as
 * both the cu_model and the file are open.
 */
#ifndef D2B_LOAD_MODEL_H
#define D2B_LOAD_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"

enum type_kind {
	TK_BASE,		/* int, char, float, _Bool... (see base.encoding) */
	TK_POINTER,
	TK_REFERENCE,		/* C++ & */
	TK_RVALUE_REFERENCE,	/* C++ && */
	TK_PTR_TO_MEMBER,	/* C++ T C::* */
	TK_CONST,
	TK_VOLATILE,
	TK_RESTRICT,
	TK_ATOMIC,
	TK_TYPEDEF,
	TK_STRUCT,
	TK_UNION,
	TK_CLASS,
	TK_ENUM,
	TK_ARRAY,
	TK_FUNC_PROTO,		/* DW_TAG_subroutine_type */
	TK_UNSPECIFIED,		/* DW_TAG_unspecified_type (void in C++ nullptr_t...) */
	TK_UNRESOLVED,		/* a reference we could not follow: see target_offset */
	TK_NR
};

/* btf_type_tag / btf_decl_tag annotations (DW_TAG_LLVM_annotation). */
struct annotation {
	const char *name;	/* "btf_type_tag" or "btf_decl_tag" */
	const char *value;
	struct annotation *next;
};

struct member {
	const char *name;	/* NULL for anonymous members */
	struct type *type;
	union {
		/* Offset of the member from the start of its struct, in
		 * bits, as DW_AT_data_bit_offset gives it (the old
		 * DW_AT_bit_offset form is converted). For non-bit-fields:
		 * 8 * DW_AT_data_member_location. */
		uint64_t bit_offset;
		/* is_static (which has no offset): DW_AT_const_value as an
		 * unsigned number, 0 if absent */
		uint64_t const_value;
	};
	uint32_t bit_size;	/* 0 unless a bit-field */
	uint32_t byte_size;	/* DW_AT_byte_size of the member, 0 if absent */
	uint32_t alignment;	/* DW_AT_alignment, 0 if absent */
	uint64_t die_offset;
	uint32_t decl_file, decl_line;
	bool is_static;		/* C++ static data member (declaration) */
	bool is_static_var;	/* ... given as a DW_TAG_variable (DWARF 5) */
	bool is_extern_decl;	/* DW_AT_external and DW_AT_declaration */
	bool is_inheritance;	/* an entry of composite.bases */
	bool offset_is_expr;	/* location was an expression we evaluated */
	uint8_t accessibility;	/* DW_ACCESS_*, 0 if absent */
	uint8_t virtuality;	/* DW_VIRTUALITY_* of a base, 0 if absent */
	struct annotation *tags;
};

/* A using-declaration in a class (DW_TAG_imported_declaration, gcc's
 * "using Base::f;"): its own DIE and the DIE it imports (DW_AT_import, a
 * function or a type; 0 if it has none). */
struct cxx_using {
	uint64_t die_offset;
	uint64_t target;
	uint32_t decl_file, decl_line;
};

/* What a C++ class holds besides data members and nested types. Code that
 * walks composite.members (the BTF encoder, say) never sees these. */
struct composite_cxx {
	/* DW_TAG_inheritance entries as members with is_inheritance set
	 * (name NULL, type the base class), in DIE order. */
	struct member *bases;
	uint32_t nr_bases;
	/* The DW_TAG_subprogram children (methods), as indexes into
	 * cu_model.functions, in DIE order. */
	uint32_t nr_methods;
	uint32_t *methods;
	/* The using-declarations, in DIE order. */
	struct cxx_using *usings;
	uint32_t nr_usings;
};

struct enumerator {
	const char *name;
	int64_t value;		/* two's complement; see enumeration.is_signed */
};

struct array_dim {
	uint64_t count;		/* elements */
	bool flexible;		/* no count / upper bound: [] */
};

struct param {
	const char *name;	/* NULL when unnamed */
	struct type *type;
	uint64_t die_offset;
	/* Where the parameter lives at function entry (functions only). */
	uint8_t loc_kind;	/* dw_loc_kind: NONE, REG, STACK, OTHER */
	uint16_t loc_reg;
	bool has_location;	/* DW_AT_location or DW_AT_const_value present */
	bool optimized_out;	/* no location and not a declaration */
	struct annotation *tags;
	/* For concrete instances: the abstract parameter (DW_AT_abstract_origin),
	 * NULL otherwise. */
	const struct param *origin;
};

/* Where a type's DIE sits. */
enum type_scope {
	TS_UNIT,		/* a child of the unit DIE */
	TS_COMPOSITE,		/* defined inside a struct/union/class */
	TS_FUNCTION,		/* inside a function or one of its blocks */
	TS_NAMESPACE,		/* inside a C++ namespace */
	TS_OTHER,		/* inside anything else */
};

struct type {
	uint8_t kind;		/* enum type_kind */
	uint8_t scope;		/* enum type_scope */
	bool declaration;	/* DW_AT_declaration: a forward declaration */
	bool is_packed;		/* computed by printers; loader leaves false */
	uint16_t cu_lang;	/* DW_LANG_* of the unit */
	uint32_t id;		/* index in cu_model.types */
	const char *name;	/* NULL when anonymous */
	uint64_t size;		/* bytes: base, pointers, struct/union/enum; 0 if none */
	struct type *type;	/* pointee, qualified, aliased, element, return
				 * type, enum underlying type; NULL is void */
	uint64_t die_offset;
	uint32_t decl_file, decl_line;
	uint32_t alignment;	/* DW_AT_alignment, 0 if absent */
	struct annotation *tags;
	union {
		struct {
			uint16_t encoding;	/* DW_ATE_* */
			uint16_t bit_size;	/* DW_AT_bit_size, 0 if absent */
		} base;
		struct {		/* TK_STRUCT, TK_UNION, TK_CLASS */
			struct member *members;	/* data members in order */
			uint32_t nr_members;
			/* Types whose DIEs are children of this one (anonymous
			 * struct/union member types, C++ nested types), in
			 * DIE order */
			uint32_t nr_nested;
			struct type **nested;
			/* C++ only: bases and methods; NULL when there
			 * are none (always in C) */
			const struct composite_cxx *cxx;
		} composite;
		struct {		/* TK_ENUM */
			struct enumerator *values;
			uint32_t nr_values;
			bool is_signed;
		} enumeration;
		struct {		/* TK_ARRAY */
			struct array_dim *dims;
			uint32_t nr_dims;
			/* a GNU vector (DW_AT_GNU_vector: vector_size);
			 * BTF has none, it is an array there */
			bool is_vector;
		} array;
		struct {		/* TK_FUNC_PROTO */
			struct param *params;
			uint32_t nr_params;
			bool varargs;
			bool prototyped;
		} proto;
		struct {		/* TK_PTR_TO_MEMBER */
			struct type *containing;
		} ptr_to_member;
		struct {		/* TK_UNRESOLVED */
			uint64_t target_offset;
		} unresolved;
	};
};

/*
 * pfunct -i / -T: a function's body as pahole 1.24's loader keeps it
 * (load_options.function_bodies; function.body is NULL otherwise). The
 * function's own block (BODY_BLOCK) holds, in DIE order, its variables,
 * labels, lexical blocks and inline expansions; what an inline expansion
 * holds is lifted into the block around it (its nested expansions, blocks
 * and labels, each before the expansion itself; its own variables and
 * parameters are dropped), as 1.24 does.
 */
enum body_kind {
	BODY_BLOCK,		/* the function's block or a DW_TAG_lexical_block */
	BODY_VARIABLE,
	BODY_LABEL,
	BODY_INLINE,		/* DW_TAG_inlined_subroutine */
	BODY_PARAM,		/* a DW_TAG_formal_parameter inside a lexical block */
};

/* Where a variable lives, from its own DW_AT_location */
enum body_loc {
	BODY_LOC_NONE,		/* none, or a location list */
	BODY_LOC_ADDR,		/* DW_OP_addr, DW_OP_addrx */
	BODY_LOC_REG,		/* DW_OP_reg1..31, DW_OP_breg0..31 */
	BODY_LOC_FBREG,		/* DW_OP_fbreg */
	BODY_LOC_OTHER,		/* anything else (DW_OP_reg0 included) */
};

struct body_item {
	uint8_t kind;		/* enum body_kind */
	uint8_t loc;		/* variables: enum body_loc */
	bool declaration;	/* variables: DW_AT_declaration */
	uint32_t line;		/* DW_AT_decl_line (its origin's when it has
				 * none); inline expansions: DW_AT_call_line */
	const char *name;	/* variables, labels (their origin's when they
				 * have none) */
	struct type *type;	/* variables (likewise); NULL: void */
	uint64_t die_offset;
	/* blocks: DW_AT_low_pc (0: none, as 1.24 takes it) and high_pc -
	 * low_pc (0 without both);
	 * inline expansions: DW_AT_low_pc, else the first range's start,
	 * and the sum of their ranges */
	uint64_t addr, size;
	uint64_t origin;	/* inline expansions: DW_AT_abstract_origin */
	/* blocks: what they hold, and pahole's counters of it */
	struct body_item *items;
	uint32_t nr_items;
	uint32_t nr_variables, nr_labels, nr_inline_expansions;
	uint64_t size_inline_expansions;
};

struct function {
	const char *name;		/* after following origin/specification */
	const char *linkage_name;
	struct type *ret;		/* NULL: void */
	struct param *params;
	uint32_t nr_params;
	bool varargs;
	bool prototyped;
	bool external;			/* DW_AT_external, or its origin's */
	bool own_external;		/* DW_AT_external of this DIE itself */
	bool own_name;			/* name is this DIE's own DW_AT_name */
	bool declaration;		/* DW_AT_declaration */
	bool has_addr;			/* DW_AT_low_pc present */
	bool is_abstract;		/* has DW_AT_inline (abstract instance root) */
	bool is_inlined_instance;	/* DW_TAG_inlined_subroutine (not listed) */
	uint8_t inline_attr;		/* DW_INL_* value (or its origin's), 0 if absent */
	uint8_t own_inline_attr;	/* DW_AT_inline of this DIE itself */
	uint8_t scope;			/* enum type_scope: where the DIE sits */
	uint8_t fn_depth;		/* functions whose bodies hold it (255 at most) */
	uint8_t calling_convention;	/* DW_CC_*, DW_CC_normal if absent */
	uint8_t accessibility;		/* DW_ACCESS_* (C++ methods), 0 if absent */
	uint8_t virtuality;		/* DW_VIRTUALITY_*, 0 if absent */
	bool has_vtable_entry;		/* DW_AT_vtable_elem_location present */
	uint32_t vtable_entry;		/* its DW_OP_constu N */
	uint64_t low_pc, high_pc;	/* high_pc made absolute */
	uint64_t die_offset;
	uint64_t origin_offset;		/* DW_AT_abstract_origin target, 0 if none */
	uint64_t specification_offset;	/* DW_AT_specification target, 0 if none */
	uint32_t decl_file, decl_line;
	struct annotation *tags;	/* btf_decl_tag of the function */
	/* Counts for pfunct -S, -g and friends: nr_variables and nr_labels
	 * count the function's own DW_TAG_variable / DW_TAG_label children
	 * (pahole's function lexblock: not those of nested blocks or inlined
	 * instances); the others its whole subtree. */
	uint32_t nr_lexblocks, nr_variables, nr_labels, nr_inline_expansions;
	/* load_options.function_bodies: its block (see struct body_item) */
	const struct body_item *body;
};

struct variable {
	const char *name;
	const char *linkage_name;
	struct type *type;
	bool external;
	bool declaration;
	bool has_addr;			/* location is a single DW_OP_addr(x) */
	uint64_t addr;
	uint64_t die_offset;
	uint64_t specification_offset;
	uint32_t decl_file, decl_line;
	bool is_static_local;		/* declared inside a function */
	struct annotation *tags;
};

struct cu_model {
	struct arena arena;
	uint32_t index;			/* unit index in the file */
	uint64_t offset;		/* unit header offset */
	const char *name;		/* DW_AT_name of the unit */
	const char *comp_dir;
	const char *producer;
	uint16_t language;		/* DW_LANG_* */
	uint8_t addr_size;
	uint8_t dwarf_version;
	/* one past the highest offset a location list of its parameters
	 * starts at (.debug_loclists from DWARF 5, else .debug_loc), 0 if
	 * none: how far the unit's lists go (dw_release_below) */
	uint64_t loc_hi;

	struct type **types;
	uint32_t nr_types;
	struct function *functions;
	uint32_t nr_functions;
	struct variable *variables;
	uint32_t nr_variables;

	/* decl_file index -> "dir/file", as the line table names them. */
	const char **files;
	uint32_t nr_files;

	/* Loaded from BTF (btf/btf_load.c), not DWARF: die_offset fields hold
	 * BTF type ids, and there are no files, lines, addresses or DIEs.
	 * Printers that reproduce pahole's BTF quirks test it. */
	bool from_btf;

	/* A partial model (load_options.only_types): the unit's types that
	 * pahole -C prints and what printing them reads, in DIE order; not a
	 * model of the unit. */
	bool partial;

	/* What a consumer's cu_stream prepare hook worked out for it on the
	 * decoding thread (pipeline/cu_stream.h), in the arena; NULL if none. */
	void *prepared;
};

void cu_model_destroy(struct cu_model *cu);	/* accepts NULL */

/* pahole --kabi_prefix: every name (of a type, member, enumerator,
 * function, parameter or variable) that begins with PREFIX becomes
 * PREFIX, as 1.24's DWARF loader reads names with it (RHEL's kABI
 * padding members). PREFIX must outlive the model. */
void cu_model_apply_kabi_prefix(struct cu_model *cu, const char *prefix);

/* pahole --fixup_silly_bitfields, "such as int foo:32": each member that is
 * a bit-field as wide as its type (an integer or enumeration, through
 * typedefs and qualifiers) and starts on a byte becomes a plain member at
 * that byte. What the option means; 1.24's test is inverted (it makes a
 * member of each 1-bit bit-field of an 8-byte type instead, and its layout
 * arithmetic goes wrong), upstream fixed it later. */
void cu_model_fixup_silly_bitfields(struct cu_model *cu);

/* T without typedefs and qualifiers (const, volatile, restrict, _Atomic);
 * gives up after 64 steps on a hostile loop and returns where it stopped. */
const struct type *type_strip_cv(const struct type *t);

/* Lookups within one unit (linear or hashed: callers must not assume order). */
struct type *cu_model_type_at_offset(const struct cu_model *cu, uint64_t die_offset);
const struct function *cu_model_function_at_offset(const struct cu_model *cu,
						   uint64_t die_offset);

/* decl_file name, or "" when unknown. */
const char *cu_model_file_name(const struct cu_model *cu, uint32_t decl_file);

#endif
