// SPDX-License-Identifier: GPL-2.0-only
/* cu_model: lookups and lifetime. */
#include <stdlib.h>
#include <string.h>

#include "load/model.h"

void cu_model_destroy(struct cu_model *cu)
{
	if (!cu)
		return;
	arena_deinit(&cu->arena);
	free(cu);
}

struct type *cu_model_type_at_offset(const struct cu_model *cu, uint64_t off)
{
	size_t lo = 0, hi = cu->nr_types;

	/* types[] is in DIE order, so offsets ascend. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t o = cu->types[mid]->die_offset;

		if (o == off)
			return cu->types[mid];
		if (o < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct function *cu_model_function_at_offset(const struct cu_model *cu,
						   uint64_t off)
{
	size_t lo = 0, hi = cu->nr_functions;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t o = cu->functions[mid].die_offset;

		if (o == off)
			return &cu->functions[mid];
		if (o < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *cu_model_file_name(const struct cu_model *cu, uint32_t decl_file)
{
	if (decl_file < cu->nr_files && cu->files[decl_file])
		return cu->files[decl_file];
	return "";
}

const struct type *type_strip_cv(const struct type *t)
{
	for (int depth = 0; t && depth < 64; depth++) {
		switch (t->kind) {
		case TK_TYPEDEF:
		case TK_CONST:
		case TK_VOLATILE:
		case TK_RESTRICT:
		case TK_ATOMIC:
			t = t->type;
			continue;
		default:
			return t;
		}
	}
	return t;
}

static void kabi_name(const char **name, const char *prefix, size_t n)
{
	if (*name && !strncmp(*name, prefix, n))
		*name = prefix;
}

void cu_model_apply_kabi_prefix(struct cu_model *cu, const char *prefix)
{
	size_t n = strlen(prefix);

	for (uint32_t i = 0; i < cu->nr_types; i++) {
		struct type *t = cu->types[i];

		kabi_name(&t->name, prefix, n);
		switch (t->kind) {
		case TK_STRUCT:
		case TK_UNION:
		case TK_CLASS:
			for (uint32_t k = 0; k < t->composite.nr_members; k++)
				kabi_name(&t->composite.members[k].name, prefix, n);
			break;
		case TK_ENUM:
			for (uint32_t k = 0; k < t->enumeration.nr_values; k++)
				kabi_name(&t->enumeration.values[k].name, prefix, n);
			break;
		case TK_FUNC_PROTO:
			for (uint32_t k = 0; k < t->proto.nr_params; k++)
				kabi_name(&t->proto.params[k].name, prefix, n);
			break;
		default:
			break;
		}
	}
	for (uint32_t i = 0; i < cu->nr_functions; i++) {
		struct function *fn = &cu->functions[i];

		kabi_name(&fn->name, prefix, n);
		for (uint32_t k = 0; k < fn->nr_params; k++)
			kabi_name(&fn->params[k].name, prefix, n);
	}
	for (uint32_t i = 0; i < cu->nr_variables; i++)
		kabi_name(&cu->variables[i].name, prefix, n);
}

void cu_model_fixup_silly_bitfields(struct cu_model *cu)
{
	for (uint32_t i = 0; i < cu->nr_types; i++) {
		struct type *t = cu->types[i];

		if (t->kind != TK_STRUCT && t->kind != TK_UNION && t->kind != TK_CLASS)
			continue;
		for (uint32_t k = 0; k < t->composite.nr_members; k++) {
			struct member *m = &t->composite.members[k];
			const struct type *mt;

			if (!m->bit_size || m->is_static || m->bit_offset % 8)
				continue;
			mt = type_strip_cv(m->type);
			if (mt && (mt->kind == TK_BASE || mt->kind == TK_ENUM) &&
			    m->bit_size == 8 * mt->size)
				m->bit_size = 0;
		}
	}
}
