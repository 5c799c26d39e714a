// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_encode: bytes -> ELF -> DWARF -> the BTF encoder (btf_encode_file,
 * one thread, pahole's default features) -> btf__raw_data, as
 * `dwarf2btf encode` / `pahole -J` run it.
 *
 * The encoded BTF then goes through our own loader (btf_load.h); it may
 * refuse it (hostile DWARF can describe a typedef loop), but must not crash.
 *
 * A differential oracle for the placeholders (btf_model_keys.h): the same
 * input encoded again with --check_model_keys (every type encoded, the
 * model's keys checked against the records') must succeed or fail alike,
 * with the same bytes; a model key that joins two different records traps.
 * That second encoding has exact keys, the first the cut keys where its
 * census allows (btf_cut_names.h): so the same bytes are the cut keys'
 * oracle too (a wrong cut the check missed, a second round that differs).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "btf/btf_encode.h"
#include "btf/btf_features.h"
#include "btf/btf_load.h"
#include "dwarf/dwarf.h"
#include "elf/elf_file.h"

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct btf_encode_options opts;
	struct d2b_error err = { 0 };
	struct elf_file *ef;
	struct btf *btf;
	struct dw_file df;
	const void *raw;
	uint32_t raw_size = 0;
	uint8_t *copy;

	copy = fuzz_copy(data, size);
	if (!copy)
		return 0;
	memset(&opts, 0, sizeof(opts));
	btf_features_init(&opts.features);
	opts.threads = 1;

	ef = elf_file_open_memory("fuzz.o", copy, size, &err);
	if (!ef)
		goto out_free;
	if (dw_file_init(&df, ef, &err))
		goto out_close;
	btf = btf_encode_file(ef, &df, &opts, NULL, NULL, &err);
	{
		struct btf_encode_options copts = opts;
		struct btf_encode_stats cstats;
		struct d2b_error cerr = { 0 };
		struct btf *check;

		copts.check_model_keys = true;
		check = btf_encode_file(ef, &df, &copts, NULL, &cstats, &cerr);
		if (!check != !btf || cstats.check_failed)
			__builtin_trap();	/* the placeholders changed the outcome */
		if (check) {
			uint32_t n1 = 0, n2 = 0;
			const void *r1 = btf__raw_data(btf, &n1), *r2 = btf__raw_data(check, &n2);

			if (!r1 || !r2 || n1 != n2 || memcmp(r1, r2, n1))
				__builtin_trap();	/* ... or the bytes */
			btf__free(check);
		}
	}
	if (btf) {
		struct btf_handle *h;
		struct d2b_error lerr = { 0 };

		if (err.set)
			__builtin_trap();	/* success must not leave an error */
		raw = btf__raw_data(btf, &raw_size);
		if (!raw || raw_size < 24)
			__builtin_trap();
		h = btf_handle_open_memory("encoded.btf", raw, raw_size, NULL,
					   &lerr);
		fuzz_check_error(&lerr);
		btf_handle_close(h);
		btf__free(btf);
	}
	fuzz_check_error(&err);
	dw_file_deinit(&df);
out_close:
	elf_file_close(ef);
out_free:
	free(copy);
	return 0;
}
