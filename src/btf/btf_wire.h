/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * btf/btf_wire.h: sizes of BTF wire-format records, shared by the loader's
 * validation (untrusted input) and the encoder's fragment walkers.
 */
#ifndef D2B_BTF_BTF_WIRE_H
#define D2B_BTF_BTF_WIRE_H

#include <stdint.h>

#include <linux/btf.h>

/* Bytes that follow the 12-byte btf_type of a record of KIND with VLEN
 * entries, or -1 for a kind we do not know. */
static inline long btf_wire_extra_size(unsigned kind, uint32_t vlen)
{
	switch (kind) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_ARRAY:
		return 12;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_ENUM64:
	case BTF_KIND_DATASEC:
		return 12L * vlen;
	case BTF_KIND_ENUM:
	case BTF_KIND_FUNC_PROTO:
		return 8L * vlen;
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	}
	return -1;
}

/* Words of the record at W (host order), or 0 if its kind is unknown. */
static inline uint32_t btf_record_words(const uint32_t *w)
{
	long extra = btf_wire_extra_size((w[1] >> 24) & 0x1f, w[1] & 0xffff);

	return extra < 0 ? 0 : 3 + (uint32_t)(extra / 4);
}

#endif
