/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * btf/btf_wire.h: sizes of BTF wire-format records, shared by the loader's
 * validation (untrusted input) and the encoder's fragment walkers.
 */
#ifndef D2B_BTF_BTF_WIRE_H
#define D2B_BTF_BTF_WIRE_H

#include <stdint.h>

#include <linux/btf.h>

/*
 * Bytes that follow the 12-byte btf_type of a record of KIND with VLEN
 * entries, or -1 for a kind we do not know: a fixed part and a part per
 * entry, by table. (A switch compiled to a jump table whose target changes
 * with every record; walking a vmlinux's 99 k records, the mispredicted
 * jumps in the chain from one record to the next were most of the walk.)
 */
static inline long btf_wire_extra_size(unsigned kind, uint32_t vlen)
{
	static const uint8_t fixed[32] = {
		[BTF_KIND_INT] = 4, [BTF_KIND_VAR] = 4, [BTF_KIND_DECL_TAG] = 4,
		[BTF_KIND_ARRAY] = 12,
	};
	static const uint8_t per[32] = {
		[BTF_KIND_STRUCT] = 12, [BTF_KIND_UNION] = 12, [BTF_KIND_ENUM64] = 12,
		[BTF_KIND_DATASEC] = 12, [BTF_KIND_ENUM] = 8, [BTF_KIND_FUNC_PROTO] = 8,
	};

	/* every kind from INT (1) to ENUM64 (19) is known */
	if (kind - 1u >= BTF_KIND_ENUM64)
		return -1;
	return (long)fixed[kind] + (long)per[kind] * vlen;
}

/* Words of the record at W (host order), or 0 if its kind is unknown. */
static inline uint32_t btf_record_words(const uint32_t *w)
{
	long extra = btf_wire_extra_size((w[1] >> 24) & 0x1f, w[1] & 0xffff);

	return extra < 0 ? 0 : 3 + (uint32_t)(extra / 4);
}

#endif
