// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of btf/btf_cut_names.c: the census of the cut_names fixture
 * (gcc, DWARF 5) allows a cut at the header's structs and keeps struct dup,
 * which two .c files define differently, whole; on one thread and on two
 * alike; a name it met no definition of (or of the other kind) is not cut;
 * without a line table there is no census. The check of a result: a name
 * defined twice that may have been cut fails it, one kept whole or a
 * struct and a union of one name do not, bytes that are not BTF are -1.
 */
#include <linux/btf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "btf/btf_cut_names.h"
#include "btf/btf_model_keys.h"
#include "elf/elf_file.h"

/* The name S as the keys see it in DF: its place in .debug_str. */
static uint64_t id_of(const struct btf_model_keys_in *in, const char *s)
{
	size_t n = strlen(s) + 1;

	for (const char *p = in->str_lo; p + n <= in->str_hi; p += strlen(p) + 1)
		if (!memcmp(p, s, n))
			return btf_model_keys_name_id(in, p);
	return 0;
}

/* Raw BTF: a header, the records WORDS (N of them), the strings STRS. */
static size_t btf_of(uint8_t *out, const uint32_t *words, size_t n, const char *strs,
		     size_t strs_len)
{
	struct btf_header h = {
		.magic = BTF_MAGIC, .version = 1, .hdr_len = sizeof(h),
		.type_off = 0, .type_len = (uint32_t)(4 * n),
		.str_off = (uint32_t)(4 * n), .str_len = (uint32_t)strs_len,
	};

	memcpy(out, &h, sizeof(h));
	memcpy(out + sizeof(h), words, 4 * n);
	memcpy(out + sizeof(h) + 4 * n, strs, strs_len);
	return sizeof(h) + 4 * n + strs_len;
}

#define STRUCT(name) (name), (BTF_KIND_STRUCT << 24), 4
#define UNION(name) (name), (BTF_KIND_UNION << 24), 4

static void check_results(const struct btf_cut_names *everywhere, const struct btf_cut_names *fx)
{
	static const char strs[] = "\0a\0dup\0shared";	/* a: 1, dup: 3, shared: 7 */
	uint8_t buf[512];
	const char *name;
	size_t n;

	{
		const uint32_t w[] = { STRUCT(1), STRUCT(3), STRUCT(1) };

		n = btf_of(buf, w, 9, strs, sizeof(strs));
		CHECK(btf_cut_names_check(everywhere, buf, n, &name) == 1 && name &&
		      !strcmp(name, "a"), "struct a twice, every name cut: not found");
	}
	{
		const uint32_t w[] = { STRUCT(1), UNION(1), STRUCT(3) };

		n = btf_of(buf, w, 9, strs, sizeof(strs));
		CHECK(btf_cut_names_check(everywhere, buf, n, &name) == 0,
		      "a struct and a union of one name taken for one name defined twice");
	}
	if (fx) {
		const uint32_t dup[] = { STRUCT(3), STRUCT(3), STRUCT(7) };
		const uint32_t shared[] = { STRUCT(7), STRUCT(3), STRUCT(7) };

		n = btf_of(buf, dup, 9, strs, sizeof(strs));
		CHECK(btf_cut_names_check(fx, buf, n, &name) == 0,
		      "struct dup twice, kept whole: the check failed");
		n = btf_of(buf, shared, 9, strs, sizeof(strs));
		CHECK(btf_cut_names_check(fx, buf, n, &name) == 1 && name && !strcmp(name, "shared"),
		      "struct shared twice, cut: the check passed");
	}
	{
		const uint32_t w[] = { STRUCT(1), STRUCT(1) };

		n = btf_of(buf, w, 6, strs, sizeof(strs));
		CHECK(btf_cut_names_check(everywhere, buf, n - sizeof(strs) - 2, &name) == -1,
		      "truncated BTF walked");
		buf[0] ^= 1;
		CHECK(btf_cut_names_check(everywhere, buf, n, &name) == -1, "bad magic walked");
	}
}

int main(void)
{
	const char *src = getenv("D2B_SRC");
	char cmd[4096], bin[] = "/tmp/d2b-cut-names-XXXXXX";
	struct btf_cut_names *everywhere = btf_cut_names_everywhere(), *fx = NULL, *fx2 = NULL;
	struct btf_cut_names_stats st = { 0 }, st2 = { 0 };
	struct d2b_error err = { 0 };
	struct elf_file *ef = NULL;
	struct dw_file df;
	int fd = mkstemp(bin);

	CHECK(everywhere, "no memory");
	CHECK(fd >= 0, "mkstemp");
	if (fd >= 0)
		close(fd);
	snprintf(cmd, sizeof(cmd),
		 "gcc -fno-eliminate-unused-debug-types -g -gdwarf-5 -O0 -w %s/tests/fixtures/cut_names/*.c -o %s",
		 src ? src : ".", bin);
	if (!src || system(cmd)) {
		fprintf(stderr, "skip: %s failed: the census's checks skipped\n", cmd);
	} else {
		ef = elf_file_open(bin, &err);
		CHECK(ef, "open: %s", err.msg);
	}
	if (ef && !dw_file_init(&df, ef, &err)) {
		const struct dw_section *str = &df.sec[DW_SEC_STR];
		struct btf_model_keys_in in = {
			.str_lo = (const char *)str->data,
			.str_hi = (const char *)str->data + str->size, .seed = 5,
		};

		CHECK(btf_cut_names_census(&df, &in, 1, NULL, &fx, &st, &err) == 0 && fx,
		      "census: %s", err.msg);
		CHECK(btf_cut_names_census(&df, &in, 2, NULL, &fx2, &st2, &err) == 0 && fx2,
		      "census on two threads: %s", err.msg);
		if (fx && fx2) {
			/* shared, holder, other (twice: b.c and c.c), dup (twice) */
			CHECK(st.definitions >= 6 && st.names == 4 && st.kept_whole == 1,
			      "census: %zu definitions of %zu names, %zu kept whole",
			      st.definitions, st.names, st.kept_whole);
			CHECK(st2.definitions == st.definitions && st2.names == st.names &&
			      st2.kept_whole == st.kept_whole, "two threads counted otherwise");
			for (int i = 0; i < 2; i++) {
				const struct btf_cut_names *c = i ? fx2 : fx;

				CHECK(btf_cut_names_may_cut(c, id_of(&in, "other"), false),
				      "struct other (in a header) not cut");
				CHECK(btf_cut_names_may_cut(c, id_of(&in, "shared"), false),
				      "struct shared (in a header) not cut");
				CHECK(!btf_cut_names_may_cut(c, id_of(&in, "dup"), false),
				      "struct dup (two .c files) cut");
				CHECK(!btf_cut_names_may_cut(c, id_of(&in, "other"), true),
				      "a union other, never defined, cut");
				CHECK(!btf_cut_names_may_cut(c, id_of(&in, "main"), false),
				      "a struct never defined cut");
			}
		}
		dw_file_deinit(&df);
		/* without the line table: no census */
		CHECK(!dw_file_init_flags(&df, ef, DW_FILE_NO_LINE, &err), "dw_file_init: %s", err.msg);
		{
			struct btf_cut_names *none = (struct btf_cut_names *)1;

			CHECK(btf_cut_names_census(&df, &in, 1, NULL, &none, &st, &err) == 0 && !none,
			      "a census without a line table");
		}
		dw_file_deinit(&df);
	} else if (ef) {
		CHECK(0, "dw_file_init: %s", err.msg);
	}
	if (ef)
		elf_file_close(ef);
	unlink(bin);
	if (everywhere)
		check_results(everywhere, fx);
	btf_cut_names_free(fx);
	btf_cut_names_free(fx2);
	btf_cut_names_free(everywhere);
	return check_done();
}
