/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * btf/btf_base.h: a base BTF as the encoder reads it (--btf_base): its
 * records and its strings, checked, in this machine's byte order, without
 * libbpf's parse.
 *
 * A module's run reads its base only beside its own types: the merge looks
 * its strings up, the dedup reads the records of the types a module's can
 * reach, the function matcher a few more. libbpf's parse of a vmlinux base
 * (a copy of its 4 MB and an index of its 95 k records) was a tenth of
 * each module's run, for an object nothing else needed; a view is the
 * bytes btf_load checked (btf_handle_base_view()), or built from a libbpf
 * btf where one is at hand (btf_base_view_from_btf(): tests, fuzzers, and
 * the encoder's paths through libbpf).
 */
#ifndef D2B_BTF_BTF_BASE_H
#define D2B_BTF_BTF_BASE_H

#include <stdbool.h>
#include <stdint.h>

struct btf;			/* libbpf's */

struct btf_base_view {
	uint32_t nr_types;	/* its ids are 1 .. nr_types (btf__type_cnt() - 1) */
	/* the record of id I at types + off[I - 1] bytes (4-byte aligned, in
	 * id order); or, where they are not one piece (a base split on a base
	 * of its own: tests), at rec[I - 1] */
	const uint8_t *types;
	const uint32_t *off;
	const uint32_t **rec;
	/* each record's kind (kinds[I - 1]) and the count of those without a
	 * name: the dedup's base nodes need no pass over the records */
	const uint8_t *kinds;
	uint32_t nr_anon;
	/* its string section: str_len bytes, "" at 0, the last byte a NUL */
	const char *strs;
	uint32_t str_len;
	/* what btf_base_view_from_btf() allocated (NULL otherwise) */
	uint32_t *own_off;
	const uint32_t **own_rec;
	uint8_t *own_kinds;
	char *own_strs;
};

/* The record of base type ID (1 .. nr_types), as words. */
static inline const uint32_t *btf_base_record(const struct btf_base_view *v, uint32_t id)
{
	if (v->rec)
		return v->rec[id - 1];
	return (const uint32_t *)(const void *)(v->types + v->off[id - 1]);
}

/* A view of BTF, a libbpf btf. 0, or -1 (out of memory). Free with
 * btf_base_view_free(); BTF must outlive it, unchanged. */
int btf_base_view_from_btf(struct btf_base_view *v, const struct btf *btf);
void btf_base_view_free(struct btf_base_view *v);

#endif
