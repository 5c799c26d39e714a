// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_dedup: bytes -> raw BTF validated by our loader (libbpf's parse
 * alone lets bad string offsets through to btf__add_btf) -> two copies of its types
 * appended to an empty btf (btf__add_btf: every string at one offset, as
 * the encoder's merge gives) -> our btf_dedup() and libbpf's btf__dedup()
 * on the same types. Differential: where both succeed the bytes must be
 * equal, and where ours refuses the input (a type id past the last, a
 * loop of reference types...) libbpf's must not have succeeded on it.
 * Our dedup runs first: a type id past the last type makes libbpf's read
 * out of bounds, so libbpf's runs only on what ours accepted.
 *
 * Our dedup also runs unit by unit (btf_dedup_incr_add() after each copy,
 * and after a cut the input's last byte picks): the same outcome and bytes
 * as all at once, or a trap.
 *
 * Our dedup has libbpf 1.1's rules (Debian 12): with another libbpf the
 * bytes are not compared, only that ours neither crashes nor hangs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "btf/btf_dedup.h"
#include "btf/btf_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Our dedup of BTF's types: header + records + strings in *OUT; with NB
 * units (BOUNDS: types after each), unit by unit first. */
static int ours(const struct btf *btf, const uint32_t *bounds, size_t nb, void **out,
		uint32_t *out_len)
{
	uint32_t raw_len;
	const struct btf_header *h = btf__raw_data((struct btf *)btf, &raw_len);
	const char *raw = (const char *)h;
	struct d2b_error err = { 0 };
	struct btf_dedup_types t;
	struct btf_header nh;
	uint32_t *words;
	char *buf;
	int rc;

	if (!h)
		return 1;
	words = malloc(h->type_len + 4);
	if (!words)
		return 1;
	memcpy(words, raw + h->hdr_len + h->type_off, h->type_len);
	t = (struct btf_dedup_types){ .words = words, .len = h->type_len / 4,
				      .nr_types = btf__type_cnt(btf) - 1 };
	if (nb) {
		t.incr = btf_dedup_incr_new();
		for (size_t i = 0; t.incr && i < nb; i++) {
			struct btf_dedup_types u = t;

			u.nr_types = bounds[i];
			btf_dedup_incr_add(t.incr, &u);
		}
	}
	rc = btf_dedup(&t, &err);
	btf_dedup_incr_free(t.incr);
	if (rc) {
		free(words);
		if (!err.set || strchr(err.msg, '\n'))
			__builtin_trap();	/* a failure says why, on one line */
		return -1;
	}
	nh = *h;
	nh.type_off = 0;
	nh.type_len = (uint32_t)(t.len * 4);
	nh.str_off = nh.type_len;
	*out_len = (uint32_t)(sizeof(nh) + nh.type_len + h->str_len);
	buf = malloc(*out_len);
	if (!buf) {
		free(words);
		return 1;
	}
	memcpy(buf, &nh, sizeof(nh));
	memcpy(buf + sizeof(nh), words, nh.type_len);
	memcpy(buf + sizeof(nh) + nh.type_len, raw + h->hdr_len + h->str_off, h->str_len);
	free(words);
	*out = buf;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct d2b_error err = { 0 };
	struct btf_handle *h;
	const struct btf *src;
	struct btf *btf = NULL;
	uint32_t our_len, lib_len;
	const void *lib;
	void *mine = NULL;
	int rc;

	if (size < sizeof(struct btf_header) || size > (1u << 20))
		return 0;
	h = btf_handle_open_memory("fuzz.btf", data, size, NULL, &err);
	if (!h)
		return 0;
	/* no loop of reference types for either dedup, as ever (a loop
	 * makes both refuse; libbpf's finds it only by recursing) */
	if (btf_handle_check_graph(h, &err))
		goto out;
	src = btf_handle_btf(h);
	/* small graphs only: libbpf's dedup recurses */
	if (btf__type_cnt(src) > 4096)
		goto out;
	btf = btf__new_empty();
	if (!btf || btf__add_btf(btf, (struct btf *)src) < 0 ||
	    btf__add_btf(btf, (struct btf *)src) < 0)
		goto out;
	rc = ours(btf, NULL, 0, &mine, &our_len);
	{
		uint32_t n = btf__type_cnt(src) - 1, inc_len = 0;
		uint32_t bounds[3] = { n ? data[size - 1] % n : 0, n, 2 * n };
		void *inc = NULL;
		int irc = ours(btf, bounds, 3, &inc, &inc_len);

		/* no memory (1) on one side only is not a difference */
		if (rc != 1 && irc != 1 &&
		    (irc != rc || (!rc && (inc_len != our_len || memcmp(inc, mine, our_len)))))
			__builtin_trap();	/* unit by unit is not all at once */
		free(inc);
	}
	if (rc)
		goto out;	/* refused (or no memory): libbpf is not asked */
	rc = btf__dedup(btf, NULL);
	if (libbpf_major_version() == 1 && libbpf_minor_version() == 1) {
		if (rc)
			__builtin_trap();	/* we accepted what libbpf refused */
		lib = btf__raw_data(btf, &lib_len);
		if (!lib || lib_len != our_len || memcmp(lib, mine, lib_len))
			__builtin_trap();	/* not libbpf's bytes */
	}
out:
	free(mine);
	btf__free(btf);
	btf_handle_close(h);
	return 0;
}
