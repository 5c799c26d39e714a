// SPDX-License-Identifier: GPL-2.0-only
/*
 * A base BTF's view from a libbpf btf (see btf_base.h): its records where
 * libbpf holds them, its strings where libbpf holds them when they are one
 * piece in our byte order, else a copy.
 */
#include "btf/btf_base.h"

#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

static enum btf_endianness host_endianness(void)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return BTF_LITTLE_ENDIAN;
#else
	return BTF_BIG_ENDIAN;
#endif
}

/* BTF's string section, offsets 0 .. *LEN: where libbpf holds it when it
 * is one piece in our byte order, else a copy in v->own_strs. */
static int view_strings(struct btf_base_view *v, const struct btf *btf)
{
	size_t cap = 1 << 16, n = 0;
	const struct btf_header *h;
	const char *s;
	uint32_t raw_size;
	char *b;

	/* one section (not split), in our byte order (else its raw data
	 * would be a swapped copy) */
	h = btf__base_btf(btf) || btf__endianness(btf) != host_endianness()
		    ? NULL
		    : btf__raw_data(btf, &raw_size);
	if (h && raw_size >= sizeof(*h) && h->magic == BTF_MAGIC && h->hdr_len <= raw_size &&
	    h->str_off <= raw_size - h->hdr_len && h->str_len <= raw_size - h->hdr_len - h->str_off &&
	    h->str_len && h->str_len <= UINT32_MAX / 2) {
		const char *sec = (const char *)h + h->hdr_len + h->str_off;
		const char *first = btf__str_by_offset(btf, 0);

		if (sec[h->str_len - 1] == '\0' && first && !*first) {
			v->strs = sec;
			v->str_len = h->str_len;
			return 0;
		}
	}
	b = malloc(cap);
	if (!b)
		return -1;
	while ((s = btf__str_by_offset(btf, (uint32_t)n))) {
		size_t l = strlen(s) + 1;

		if (n + l > cap) {
			char *nb;

			while (n + l > cap)
				cap *= 2;
			nb = realloc(b, cap);
			if (!nb) {
				free(b);
				return -1;
			}
			b = nb;
		}
		memcpy(b + n, s, l);
		n += l;
		if (n > UINT32_MAX / 2)
			break;
	}
	v->strs = v->own_strs = b;
	v->str_len = (uint32_t)n;
	return 0;
}

int btf_base_view_from_btf(struct btf_base_view *v, const struct btf *btf)
{
	uint32_t cnt = btf__type_cnt(btf);

	memset(v, 0, sizeof(*v));
	if (cnt < 1)
		return -1;
	v->nr_types = cnt - 1;
	if (v->nr_types) {
		v->types = (const uint8_t *)btf__type_by_id(btf, 1);
		v->off = v->own_off = malloc((size_t)v->nr_types * sizeof(*v->off));
		v->kinds = v->own_kinds = malloc(v->nr_types);
		if (!v->types || !v->own_off || !v->own_kinds)
			goto fail;
		for (uint32_t id = 1; id <= v->nr_types; id++) {
			const uint8_t *r = (const uint8_t *)btf__type_by_id(btf, id);
			uintptr_t at = (uintptr_t)r - (uintptr_t)v->types;

			if (!r)
				goto fail;
			v->own_kinds[id - 1] = (uint8_t)btf_kind((const struct btf_type *)r);
			v->nr_anon += !((const struct btf_type *)r)->name_off;
			/* libbpf's type section of a btf not split itself is
			 * one piece, in id order; else a pointer a record */
			if (!v->own_rec && (btf__base_btf(btf) || r < v->types || at % 4 ||
					    at > UINT32_MAX || (id > 1 && at <= v->own_off[id - 2]))) {
				v->rec = v->own_rec = malloc((size_t)v->nr_types * sizeof(*v->rec));
				if (!v->own_rec)
					goto fail;
				for (uint32_t i = 1; i < id; i++)
					v->own_rec[i - 1] = (const uint32_t *)btf__type_by_id(btf, i);
			}
			if (v->own_rec)
				v->own_rec[id - 1] = (const uint32_t *)(const void *)r;
			else
				v->own_off[id - 1] = (uint32_t)at;
		}
	}
	if (view_strings(v, btf))
		goto fail;
	return 0;
fail:
	btf_base_view_free(v);
	return -1;
}

void btf_base_view_free(struct btf_base_view *v)
{
	free(v->own_off);
	free(v->own_rec);
	free(v->own_kinds);
	free(v->own_strs);
	memset(v, 0, sizeof(*v));
}
