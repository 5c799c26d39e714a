// SPDX-License-Identifier: GPL-2.0-only
/* Names of DWARF tags, attributes and forms for messages and dumps.
   Generated from dw_const.h; the first name of a value wins. */
#include <stdio.h>
#include <strings.h>

#include "dwarf/dwarf.h"

const char *dw_tag_name(unsigned v, char buf[16])
{
	switch (v) {
	case 0x1: return "DW_TAG_array_type";
	case 0x2: return "DW_TAG_class_type";
	case 0x3: return "DW_TAG_entry_point";
	case 0x4: return "DW_TAG_enumeration_type";
	case 0x5: return "DW_TAG_formal_parameter";
	case 0x8: return "DW_TAG_imported_declaration";
	case 0xa: return "DW_TAG_label";
	case 0xb: return "DW_TAG_lexical_block";
	case 0xd: return "DW_TAG_member";
	case 0xf: return "DW_TAG_pointer_type";
	case 0x10: return "DW_TAG_reference_type";
	case 0x11: return "DW_TAG_compile_unit";
	case 0x12: return "DW_TAG_string_type";
	case 0x13: return "DW_TAG_structure_type";
	case 0x15: return "DW_TAG_subroutine_type";
	case 0x16: return "DW_TAG_typedef";
	case 0x17: return "DW_TAG_union_type";
	case 0x18: return "DW_TAG_unspecified_parameters";
	case 0x19: return "DW_TAG_variant";
	case 0x1a: return "DW_TAG_common_block";
	case 0x1b: return "DW_TAG_common_inclusion";
	case 0x1c: return "DW_TAG_inheritance";
	case 0x1d: return "DW_TAG_inlined_subroutine";
	case 0x1e: return "DW_TAG_module";
	case 0x1f: return "DW_TAG_ptr_to_member_type";
	case 0x20: return "DW_TAG_set_type";
	case 0x21: return "DW_TAG_subrange_type";
	case 0x22: return "DW_TAG_with_stmt";
	case 0x23: return "DW_TAG_access_declaration";
	case 0x24: return "DW_TAG_base_type";
	case 0x25: return "DW_TAG_catch_block";
	case 0x26: return "DW_TAG_const_type";
	case 0x27: return "DW_TAG_constant";
	case 0x28: return "DW_TAG_enumerator";
	case 0x29: return "DW_TAG_file_type";
	case 0x2a: return "DW_TAG_friend";
	case 0x2b: return "DW_TAG_namelist";
	case 0x2c: return "DW_TAG_namelist_item";
	case 0x2d: return "DW_TAG_packed_type";
	case 0x2e: return "DW_TAG_subprogram";
	case 0x2f: return "DW_TAG_template_type_parameter";
	case 0x30: return "DW_TAG_template_value_parameter";
	case 0x31: return "DW_TAG_thrown_type";
	case 0x32: return "DW_TAG_try_block";
	case 0x33: return "DW_TAG_variant_part";
	case 0x34: return "DW_TAG_variable";
	case 0x35: return "DW_TAG_volatile_type";
	case 0x36: return "DW_TAG_dwarf_procedure";
	case 0x37: return "DW_TAG_restrict_type";
	case 0x38: return "DW_TAG_interface_type";
	case 0x39: return "DW_TAG_namespace";
	case 0x3a: return "DW_TAG_imported_module";
	case 0x3b: return "DW_TAG_unspecified_type";
	case 0x3c: return "DW_TAG_partial_unit";
	case 0x3d: return "DW_TAG_imported_unit";
	case 0x3f: return "DW_TAG_condition";
	case 0x40: return "DW_TAG_shared_type";
	case 0x41: return "DW_TAG_type_unit";
	case 0x42: return "DW_TAG_rvalue_reference_type";
	case 0x43: return "DW_TAG_template_alias";
	case 0x44: return "DW_TAG_coarray_type";
	case 0x45: return "DW_TAG_generic_subrange";
	case 0x46: return "DW_TAG_dynamic_type";
	case 0x47: return "DW_TAG_atomic_type";
	case 0x48: return "DW_TAG_call_site";
	case 0x49: return "DW_TAG_call_site_parameter";
	case 0x4a: return "DW_TAG_skeleton_unit";
	case 0x4b: return "DW_TAG_immutable_type";
	case 0x4081: return "DW_TAG_MIPS_loop";
	case 0x4101: return "DW_TAG_format_label";
	case 0x4102: return "DW_TAG_function_template";
	case 0x4103: return "DW_TAG_class_template";
	case 0x4104: return "DW_TAG_GNU_BINCL";
	case 0x4105: return "DW_TAG_GNU_EINCL";
	case 0x4106: return "DW_TAG_GNU_template_template_param";
	case 0x4107: return "DW_TAG_GNU_template_parameter_pack";
	case 0x4108: return "DW_TAG_GNU_formal_parameter_pack";
	case 0x4109: return "DW_TAG_GNU_call_site";
	case 0x410a: return "DW_TAG_GNU_call_site_parameter";
	case 0x6000: return "DW_TAG_LLVM_annotation";
	}
	snprintf(buf, 16, "DW_TAG_0x%x", v);
	return buf;
}

const char *dw_at_name(unsigned v, char buf[16])
{
	switch (v) {
	case 0x1: return "DW_AT_sibling";
	case 0x2: return "DW_AT_location";
	case 0x3: return "DW_AT_name";
	case 0x9: return "DW_AT_ordering";
	case 0xb: return "DW_AT_byte_size";
	case 0xc: return "DW_AT_bit_offset";
	case 0xd: return "DW_AT_bit_size";
	case 0x10: return "DW_AT_stmt_list";
	case 0x11: return "DW_AT_low_pc";
	case 0x12: return "DW_AT_high_pc";
	case 0x13: return "DW_AT_language";
	case 0x15: return "DW_AT_discr";
	case 0x16: return "DW_AT_discr_value";
	case 0x17: return "DW_AT_visibility";
	case 0x18: return "DW_AT_import";
	case 0x19: return "DW_AT_string_length";
	case 0x1a: return "DW_AT_common_reference";
	case 0x1b: return "DW_AT_comp_dir";
	case 0x1c: return "DW_AT_const_value";
	case 0x1d: return "DW_AT_containing_type";
	case 0x1e: return "DW_AT_default_value";
	case 0x20: return "DW_AT_inline";
	case 0x21: return "DW_AT_is_optional";
	case 0x22: return "DW_AT_lower_bound";
	case 0x25: return "DW_AT_producer";
	case 0x27: return "DW_AT_prototyped";
	case 0x2a: return "DW_AT_return_addr";
	case 0x2c: return "DW_AT_start_scope";
	case 0x2e: return "DW_AT_bit_stride";
	case 0x2f: return "DW_AT_upper_bound";
	case 0x31: return "DW_AT_abstract_origin";
	case 0x32: return "DW_AT_accessibility";
	case 0x33: return "DW_AT_address_class";
	case 0x34: return "DW_AT_artificial";
	case 0x35: return "DW_AT_base_types";
	case 0x36: return "DW_AT_calling_convention";
	case 0x37: return "DW_AT_count";
	case 0x38: return "DW_AT_data_member_location";
	case 0x39: return "DW_AT_decl_column";
	case 0x3a: return "DW_AT_decl_file";
	case 0x3b: return "DW_AT_decl_line";
	case 0x3c: return "DW_AT_declaration";
	case 0x3d: return "DW_AT_discr_list";
	case 0x3e: return "DW_AT_encoding";
	case 0x3f: return "DW_AT_external";
	case 0x40: return "DW_AT_frame_base";
	case 0x41: return "DW_AT_friend";
	case 0x42: return "DW_AT_identifier_case";
	case 0x43: return "DW_AT_macro_info";
	case 0x44: return "DW_AT_namelist_item";
	case 0x45: return "DW_AT_priority";
	case 0x46: return "DW_AT_segment";
	case 0x47: return "DW_AT_specification";
	case 0x48: return "DW_AT_static_link";
	case 0x49: return "DW_AT_type";
	case 0x4a: return "DW_AT_use_location";
	case 0x4b: return "DW_AT_variable_parameter";
	case 0x4c: return "DW_AT_virtuality";
	case 0x4d: return "DW_AT_vtable_elem_location";
	case 0x4e: return "DW_AT_allocated";
	case 0x4f: return "DW_AT_associated";
	case 0x50: return "DW_AT_data_location";
	case 0x51: return "DW_AT_byte_stride";
	case 0x52: return "DW_AT_entry_pc";
	case 0x53: return "DW_AT_use_UTF8";
	case 0x54: return "DW_AT_extension";
	case 0x55: return "DW_AT_ranges";
	case 0x56: return "DW_AT_trampoline";
	case 0x57: return "DW_AT_call_column";
	case 0x58: return "DW_AT_call_file";
	case 0x59: return "DW_AT_call_line";
	case 0x5a: return "DW_AT_description";
	case 0x5b: return "DW_AT_binary_scale";
	case 0x5c: return "DW_AT_decimal_scale";
	case 0x5d: return "DW_AT_small";
	case 0x5e: return "DW_AT_decimal_sign";
	case 0x5f: return "DW_AT_digit_count";
	case 0x60: return "DW_AT_picture_string";
	case 0x61: return "DW_AT_mutable";
	case 0x62: return "DW_AT_threads_scaled";
	case 0x63: return "DW_AT_explicit";
	case 0x64: return "DW_AT_object_pointer";
	case 0x65: return "DW_AT_endianity";
	case 0x66: return "DW_AT_elemental";
	case 0x67: return "DW_AT_pure";
	case 0x68: return "DW_AT_recursive";
	case 0x69: return "DW_AT_signature";
	case 0x6a: return "DW_AT_main_subprogram";
	case 0x6b: return "DW_AT_data_bit_offset";
	case 0x6c: return "DW_AT_const_expr";
	case 0x6d: return "DW_AT_enum_class";
	case 0x6e: return "DW_AT_linkage_name";
	case 0x6f: return "DW_AT_string_length_bit_size";
	case 0x70: return "DW_AT_string_length_byte_size";
	case 0x71: return "DW_AT_rank";
	case 0x72: return "DW_AT_str_offsets_base";
	case 0x73: return "DW_AT_addr_base";
	case 0x74: return "DW_AT_rnglists_base";
	case 0x76: return "DW_AT_dwo_name";
	case 0x77: return "DW_AT_reference";
	case 0x78: return "DW_AT_rvalue_reference";
	case 0x79: return "DW_AT_macros";
	case 0x7a: return "DW_AT_call_all_calls";
	case 0x7b: return "DW_AT_call_all_source_calls";
	case 0x7c: return "DW_AT_call_all_tail_calls";
	case 0x7d: return "DW_AT_call_return_pc";
	case 0x7e: return "DW_AT_call_value";
	case 0x7f: return "DW_AT_call_origin";
	case 0x80: return "DW_AT_call_parameter";
	case 0x81: return "DW_AT_call_pc";
	case 0x82: return "DW_AT_call_tail_call";
	case 0x83: return "DW_AT_call_target";
	case 0x84: return "DW_AT_call_target_clobbered";
	case 0x85: return "DW_AT_call_data_location";
	case 0x86: return "DW_AT_call_data_value";
	case 0x87: return "DW_AT_noreturn";
	case 0x88: return "DW_AT_alignment";
	case 0x89: return "DW_AT_export_symbols";
	case 0x8a: return "DW_AT_deleted";
	case 0x8b: return "DW_AT_defaulted";
	case 0x8c: return "DW_AT_loclists_base";
	case 0x2001: return "DW_AT_MIPS_fde";
	case 0x2002: return "DW_AT_MIPS_loop_begin";
	case 0x2003: return "DW_AT_MIPS_tail_loop_begin";
	case 0x2004: return "DW_AT_MIPS_epilog_begin";
	case 0x2005: return "DW_AT_MIPS_loop_unroll_factor";
	case 0x2006: return "DW_AT_MIPS_software_pipeline_depth";
	case 0x2007: return "DW_AT_MIPS_linkage_name";
	case 0x2008: return "DW_AT_MIPS_stride";
	case 0x2009: return "DW_AT_MIPS_abstract_name";
	case 0x200a: return "DW_AT_MIPS_clone_origin";
	case 0x200b: return "DW_AT_MIPS_has_inlines";
	case 0x200c: return "DW_AT_MIPS_stride_byte";
	case 0x200d: return "DW_AT_MIPS_stride_elem";
	case 0x200e: return "DW_AT_MIPS_ptr_dopetype";
	case 0x200f: return "DW_AT_MIPS_allocatable_dopetype";
	case 0x2010: return "DW_AT_MIPS_assumed_shape_dopetype";
	case 0x2011: return "DW_AT_MIPS_assumed_size";
	case 0x2101: return "DW_AT_sf_names";
	case 0x2102: return "DW_AT_src_info";
	case 0x2103: return "DW_AT_mac_info";
	case 0x2104: return "DW_AT_src_coords";
	case 0x2105: return "DW_AT_body_begin";
	case 0x2106: return "DW_AT_body_end";
	case 0x2107: return "DW_AT_GNU_vector";
	case 0x2108: return "DW_AT_GNU_guarded_by";
	case 0x2109: return "DW_AT_GNU_pt_guarded_by";
	case 0x210a: return "DW_AT_GNU_guarded";
	case 0x210b: return "DW_AT_GNU_pt_guarded";
	case 0x210c: return "DW_AT_GNU_locks_excluded";
	case 0x210d: return "DW_AT_GNU_exclusive_locks_required";
	case 0x210e: return "DW_AT_GNU_shared_locks_required";
	case 0x210f: return "DW_AT_GNU_odr_signature";
	case 0x2110: return "DW_AT_GNU_template_name";
	case 0x2111: return "DW_AT_GNU_call_site_value";
	case 0x2112: return "DW_AT_GNU_call_site_data_value";
	case 0x2113: return "DW_AT_GNU_call_site_target";
	case 0x2114: return "DW_AT_GNU_call_site_target_clobbered";
	case 0x2115: return "DW_AT_GNU_tail_call";
	case 0x2116: return "DW_AT_GNU_all_tail_call_sites";
	case 0x2117: return "DW_AT_GNU_all_call_sites";
	case 0x2118: return "DW_AT_GNU_all_source_call_sites";
	case 0x2137: return "DW_AT_GNU_locviews";
	case 0x2138: return "DW_AT_GNU_entry_view";
	case 0x2119: return "DW_AT_GNU_macros";
	case 0x211a: return "DW_AT_GNU_deleted";
	case 0x2130: return "DW_AT_GNU_dwo_name";
	case 0x2131: return "DW_AT_GNU_dwo_id";
	case 0x2132: return "DW_AT_GNU_ranges_base";
	case 0x2133: return "DW_AT_GNU_addr_base";
	case 0x2134: return "DW_AT_GNU_pubnames";
	case 0x2135: return "DW_AT_GNU_pubtypes";
	case 0x2303: return "DW_AT_GNU_numerator";
	case 0x2304: return "DW_AT_GNU_denominator";
	case 0x2305: return "DW_AT_GNU_bias";
	}
	snprintf(buf, 16, "DW_AT_0x%x", v);
	return buf;
}

const char *dw_form_name(unsigned v, char buf[16])
{
	switch (v) {
	case 0x1: return "DW_FORM_addr";
	case 0x3: return "DW_FORM_block2";
	case 0x4: return "DW_FORM_block4";
	case 0x5: return "DW_FORM_data2";
	case 0x6: return "DW_FORM_data4";
	case 0x7: return "DW_FORM_data8";
	case 0x8: return "DW_FORM_string";
	case 0x9: return "DW_FORM_block";
	case 0xa: return "DW_FORM_block1";
	case 0xb: return "DW_FORM_data1";
	case 0xc: return "DW_FORM_flag";
	case 0xd: return "DW_FORM_sdata";
	case 0xe: return "DW_FORM_strp";
	case 0xf: return "DW_FORM_udata";
	case 0x10: return "DW_FORM_ref_addr";
	case 0x11: return "DW_FORM_ref1";
	case 0x12: return "DW_FORM_ref2";
	case 0x13: return "DW_FORM_ref4";
	case 0x14: return "DW_FORM_ref8";
	case 0x15: return "DW_FORM_ref_udata";
	case 0x16: return "DW_FORM_indirect";
	case 0x17: return "DW_FORM_sec_offset";
	case 0x18: return "DW_FORM_exprloc";
	case 0x19: return "DW_FORM_flag_present";
	case 0x1a: return "DW_FORM_strx";
	case 0x1b: return "DW_FORM_addrx";
	case 0x1c: return "DW_FORM_ref_sup4";
	case 0x1d: return "DW_FORM_strp_sup";
	case 0x1e: return "DW_FORM_data16";
	case 0x1f: return "DW_FORM_line_strp";
	case 0x20: return "DW_FORM_ref_sig8";
	case 0x21: return "DW_FORM_implicit_const";
	case 0x22: return "DW_FORM_loclistx";
	case 0x23: return "DW_FORM_rnglistx";
	case 0x24: return "DW_FORM_ref_sup8";
	case 0x25: return "DW_FORM_strx1";
	case 0x26: return "DW_FORM_strx2";
	case 0x27: return "DW_FORM_strx3";
	case 0x28: return "DW_FORM_strx4";
	case 0x29: return "DW_FORM_addrx1";
	case 0x2a: return "DW_FORM_addrx2";
	case 0x2b: return "DW_FORM_addrx3";
	case 0x2c: return "DW_FORM_addrx4";
	case 0x1f01: return "DW_FORM_GNU_addr_index";
	case 0x1f02: return "DW_FORM_GNU_str_index";
	case 0x1f20: return "DW_FORM_GNU_ref_alt";
	case 0x1f21: return "DW_FORM_GNU_strp_alt";
	}
	snprintf(buf, 16, "DW_FORM_0x%x", v);
	return buf;
}

/* pahole 1.24's spellings (lang__str2int: "c++", "objc++"), then the
 * dwarf.h-style ones the encoder took before it followed 1.24. */
static const struct {
	const char *name;
	uint16_t lang;
} lang_names[] = {
	{ "c89", DW_LANG_C89 },			{ "c", DW_LANG_C },
	{ "ada83", DW_LANG_Ada83 },		{ "c++", DW_LANG_C_plus_plus },
	{ "cobol74", DW_LANG_Cobol74 },		{ "cobol85", DW_LANG_Cobol85 },
	{ "fortran77", DW_LANG_Fortran77 },	{ "fortran90", DW_LANG_Fortran90 },
	{ "pascal83", DW_LANG_Pascal83 },	{ "modula2", DW_LANG_Modula2 },
	{ "java", DW_LANG_Java },		{ "c99", DW_LANG_C99 },
	{ "ada95", DW_LANG_Ada95 },		{ "fortran95", DW_LANG_Fortran95 },
	{ "pli", DW_LANG_PLI },			{ "objc", DW_LANG_ObjC },
	{ "objc++", DW_LANG_ObjC_plus_plus },	{ "upc", DW_LANG_UPC },
	{ "d", DW_LANG_D },			{ "python", DW_LANG_Python },
	{ "opencl", DW_LANG_OpenCL },		{ "go", DW_LANG_Go },
	{ "modula3", DW_LANG_Modula3 },		{ "haskell", DW_LANG_Haskell },
	{ "c++03", DW_LANG_C_plus_plus_03 },	{ "c++11", DW_LANG_C_plus_plus_11 },
	{ "ocaml", DW_LANG_OCaml },		{ "rust", DW_LANG_Rust },
	{ "c11", DW_LANG_C11 },			{ "swift", DW_LANG_Swift },
	{ "julia", DW_LANG_Julia },		{ "dylan", DW_LANG_Dylan },
	{ "c++14", DW_LANG_C_plus_plus_14 },	{ "fortran03", DW_LANG_Fortran03 },
	{ "fortran08", DW_LANG_Fortran08 },	{ "renderscript", DW_LANG_RenderScript },
	{ "bliss", DW_LANG_BLISS },
	{ "c_plus_plus", DW_LANG_C_plus_plus },	{ "objc_plus_plus", DW_LANG_ObjC_plus_plus },
	{ "c_plus_plus_03", DW_LANG_C_plus_plus_03 },
	{ "c_plus_plus_11", DW_LANG_C_plus_plus_11 },
	{ "c_plus_plus_14", DW_LANG_C_plus_plus_14 },
	{ "mips_assembler", DW_LANG_Mips_Assembler },
};

int dw_lang_by_name(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(lang_names) / sizeof(lang_names[0]); i++)
		if (strlen(lang_names[i].name) == len &&
		    !strncasecmp(lang_names[i].name, name, len))
			return lang_names[i].lang;
	return -1;
}
