// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_encode_base: bytes -> a base BTF -> the encoder on a fixed module,
 * as `pahole -J --btf_base vmlinux module.ko` runs it for every module of
 * a kernel build.
 *
 * The input is raw BTF. It goes through the checked loader as encode_main
 * opens --btf_base (no graph check: the encoder must not need one, and
 * reference loops in the base are part of what this exercises); what it
 * refuses must come with a one-line message. What it accepts becomes the
 * base of the fixed module ($D2B_FUZZ_BASE_MODULE, else the object CMake
 * built: the program tests/fixtures/btf_funcs/ at -O2), which is encoded on it with
 * one thread, pahole's default features and our dedup:
 *
 *  - the encoder may refuse the base too (one line), never crash;
 *  - a split BTF it writes must load again on that base through the same
 *    checked loader (ids into the base, strings past the base's);
 *  - libbpf's dedup (--libbpf_dedup) must succeed or fail alike and give
 *    the same bytes: the module's types that the dedup maps into the base
 *    are the part the base's mutations reach;
 *  - so must the encoding as pahole -J runs it, on the base that libbpf
 *    never parsed (btf_handle_open_memory_unparsed(), btf_encode_file_bytes());
 *    and a base refused with libbpf's parse must be refused without it.
 *
 * The seeds (fuzz/seeds.sh) are the BTF of the same source at -O0 and -O2,
 * so the module's types start out equal to the base's.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "btf/btf_base.h"
#include "btf/btf_encode.h"
#include "btf/btf_features.h"
#include "btf/btf_load.h"
#include "dwarf/dwarf.h"
#include "elf/elf_file.h"

#include "fuzz_common.h"

#ifndef D2B_FUZZ_BASE_MODULE
#define D2B_FUZZ_BASE_MODULE "btf-funcs-O2"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *module_path(void)
{
	const char *p = getenv("D2B_FUZZ_BASE_MODULE");

	return p && *p ? p : D2B_FUZZ_BASE_MODULE;
}

static struct btf *encode_on(struct elf_file *ef, struct dw_file *df,
			     struct btf *base, bool libbpf_dedup)
{
	struct btf_encode_options opts;
	struct d2b_error err = { 0 };
	struct btf *btf;

	memset(&opts, 0, sizeof(opts));
	btf_features_init(&opts.features);
	opts.threads = 1;
	opts.libbpf_dedup = libbpf_dedup;
	btf = btf_encode_file(ef, df, &opts, base, NULL, &err);
	if (btf && err.set)
		__builtin_trap();	/* success must not leave an error */
	fuzz_check_error(&err);
	return btf;
}

/* The base BTF (SIZE bytes at DATA) opened without libbpf's parse, the
 * module encoded on its view: the same failure or the same bytes as OURS. */
static bool unparsed_agrees(struct elf_file *ef, struct dw_file *df, const uint8_t *data,
			    size_t size, const struct btf *ours)
{
	struct btf_encode_options opts;
	struct d2b_error err = { 0 };
	struct btf_base_view view;
	struct btf_encoded_bytes out;
	struct btf_handle *h;
	bool same = !ours;

	h = btf_handle_open_memory_unparsed("base.btf", data, size, &err);
	fuzz_check_error(&err);
	if (!h)
		return false;	/* the parsed open accepted it */
	if (btf_handle_base_view(h, &view, &err))
		__builtin_trap();
	memset(&opts, 0, sizeof(opts));
	btf_features_init(&opts.features);
	opts.threads = 1;
	if (!btf_encode_file_bytes(ef, df, &opts, &view, &out, NULL, &err)) {
		uint32_t n = 0;
		const void *r = ours ? btf__raw_data(ours, &n) : NULL;

		if (err.set)
			__builtin_trap();
		same = r && n == out.size && !memcmp(r, out.data, n);
		free(out.data);
	}
	fuzz_check_error(&err);
	btf_base_view_free(&view);
	btf_handle_close(h);
	return same;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct d2b_error err = { 0 };
	struct btf_handle *base_h;
	struct elf_file *ef;
	struct btf *base, *ours, *theirs;
	struct dw_file df;
	uint8_t *copy;

	copy = fuzz_copy(data, size);
	if (!copy)
		return 0;
	base_h = btf_handle_open_memory("base.btf", copy, size, NULL, &err);
	fuzz_check_error(&err);
	if (!base_h) {
		/* refused with libbpf's parse: refused without it too (what
		 * libbpf refuses, our check must) */
		struct d2b_error uerr = { 0 };
		struct btf_handle *u = btf_handle_open_memory_unparsed("base.btf", copy, size, &uerr);

		fuzz_check_error(&uerr);
		if (u)
			__builtin_trap();
		goto out_free;
	}
	base = (struct btf *)btf_handle_btf(base_h);

	ef = elf_file_open(module_path(), &err);
	if (!ef || dw_file_init(&df, ef, &err))
		__builtin_trap();	/* the fixed module must open */

	ours = encode_on(ef, &df, base, false);
	theirs = encode_on(ef, &df, base, true);
	if (!ours != !theirs)
		__builtin_trap();	/* the two dedups disagree on failing */
	if (!unparsed_agrees(ef, &df, copy, size, ours))
		__builtin_trap();	/* ... and the one without libbpf's base */
	if (ours) {
		uint32_t n1 = 0, n2 = 0;
		const void *r1 = btf__raw_data(ours, &n1), *r2 = btf__raw_data(theirs, &n2);
		struct d2b_error lerr = { 0 };
		struct btf_handle *split;

		if (!r1 || !r2 || n1 < 24)
			__builtin_trap();
		if (n1 != n2 || memcmp(r1, r2, n1))
			__builtin_trap();	/* ... or on the bytes */
		split = btf_handle_open_memory("split.btf", r1, n1, base_h, &lerr);
		fuzz_check_error(&lerr);
		if (!split)
			__builtin_trap();	/* our own output on a base we accepted */
		btf_handle_close(split);
	}
	btf__free(ours);
	btf__free(theirs);
	dw_file_deinit(&df);
	elf_file_close(ef);
	btf_handle_close(base_h);
out_free:
	free(copy);
	return 0;
}
