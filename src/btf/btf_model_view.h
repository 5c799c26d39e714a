/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * btf/btf_model_view.h: how the encoder reads a model type, shared by the
 * encoder (btf_encode.c) and the model's keys (btf_model_keys.c), which
 * must see exactly what the encoder sees.
 */
#ifndef D2B_BTF_BTF_MODEL_VIEW_H
#define D2B_BTF_BTF_MODEL_VIEW_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "btf/btf_features.h"
#include "load/model.h"

static inline bool is_type_tag(const struct annotation *a)
{
	return a->name && !strcmp(a->name, "btf_type_tag") && a->value;
}

static inline bool is_decl_tag(const struct annotation *a)
{
	return a->name && !strcmp(a->name, "btf_decl_tag") && a->value;
}

/* The TYPE_TAGs a pointer T gets (with the feature on). */
static inline uint32_t nr_type_tags(const struct btf_features *f, const struct type *t)
{
	uint32_t n = 0;

	if (!f->type_tag)
		return 0;
	for (const struct annotation *a = t->tags; a; a = a->next)
		n += is_type_tag(a);
	return n;
}

static inline bool is_pointer_kind(uint8_t k)
{
	return k == TK_POINTER || k == TK_REFERENCE || k == TK_RVALUE_REFERENCE ||
	       k == TK_PTR_TO_MEMBER;
}

static inline bool is_composite_kind(uint8_t k)
{
	return k == TK_STRUCT || k == TK_UNION || k == TK_CLASS;
}

/* Does the model type get a BTF type of its own? (_Atomic T is T,
 * unspecified and unresolved types are void.) */
static inline bool encodable(const struct type *t)
{
	switch (t->kind) {
	case TK_ATOMIC:
	case TK_UNSPECIFIED:
	case TK_UNRESOLVED:
		return false;
	default:
		return t->kind < TK_NR;
	}
}

/* The model type of CU that a reference to T stands for (_Atomic T is T),
 * or NULL for void (and for a type not of CU, or atomics nested past
 * belief). */
static inline __attribute__((always_inline)) const struct type *model_target(const struct cu_model *cu,
									      const struct type *t)
{
	for (int depth = 0; t && depth < 64; depth++) {
		if (t->id >= cu->nr_types || cu->types[t->id] != t)
			return NULL;
		if (t->kind != TK_ATOMIC)
			return t;
		t = t->type;
	}
	return NULL;
}

/* The local id standing for T in CU's fragment, IDS its model index ->
 * local id map (0: void). */
static inline __attribute__((always_inline)) uint32_t model_ref(const struct cu_model *cu,
								 const uint32_t *ids,
								 const struct type *t)
{
	const struct type *u = model_target(cu, t);

	return u ? ids[u->id] : 0;
}

#endif
