// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of btf/: feature lists (btf_features.c) and the serial
 * function selection (btf_funcs.c) on hand-built candidates.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "check.h"
#include "dwarf/dwarf.h"
#include "btf/btf_features.h"
#include "btf/btf_funcs.h"

static void test_features(void)
{
	struct btf_features f;
	struct d2b_error err = { 0 };

	btf_features_init(&f);
	CHECK(f.var && f.decl_tag && f.type_tag && f.enum64 && !f.gen_float &&
	      !f.consistent_func, "pahole's historical defaults");
	CHECK(btf_features_option(&f, "btf_gen_floats", NULL, &err) == 1 && f.gen_float, "btf_gen_floats");
	CHECK(btf_features_option(&f, "skip_encoding_btf_vars", NULL, &err) == 1 && !f.var, "skip vars");
	CHECK(btf_features_option(&f, "no_such_option", NULL, &err) == 0, "not ours");

	/* the first list starts from nothing */
	btf_features_init(&f);
	CHECK(btf_features_parse(&f, "float,enum64", false, &err) == 0, "%s", err.msg);
	CHECK(f.gen_float && f.enum64 && !f.var && !f.decl_tag, "only the named ones");
	CHECK(btf_features_parse(&f, "var", false, &err) == 0 && f.var && f.gen_float,
	      "a second list adds");

	btf_features_init(&f);
	CHECK(btf_features_parse(&f, "default", false, &err) == 0, "%s", err.msg);
	CHECK(f.var && f.gen_float && f.consistent_func && f.decl_tag_kfuncs && !f.global_var &&
	      !f.distilled_base, "default set");
	btf_features_init(&f);
	CHECK(btf_features_parse(&f, "+global_var", false, &err) == 0, "%s", err.msg);
	CHECK(f.global_var && f.var && f.consistent_func, "+feat = default plus feat");

	btf_features_init(&f);
	CHECK(btf_features_parse(&f, "var,bogus", false, &err) == 0 && f.var, "non-strict ignores");
	CHECK(btf_features_parse(&f, "var,bogus", true, &err) == -1 &&
	      strstr(err.msg, "Feature 'bogus' in 'var,bogus' is not supported"), "strict: %s", err.msg);
	d2b_error_clear(&err);

	btf_features_init(&f);
	CHECK(btf_features_option(&f, "lang_exclude", "rust,c_plus_plus", &err) == 1, "%s", err.msg);
	CHECK(btf_features_lang_excluded(&f, 0x1c) && btf_features_lang_excluded(&f, 0x4) &&
	      !btf_features_lang_excluded(&f, 0x2), "lang_exclude");
	CHECK(btf_features_option(&f, "lang_exclude", "klingon", &err) == -1, "unknown language");
	d2b_error_clear(&err);
	/* pahole 1.24's spellings, any case (dwarf/dw_names.c) */
	btf_features_init(&f);
	CHECK(btf_features_option(&f, "lang_exclude", "C++14,objc++,Mips_Assembler", &err) == 1,
	      "%s", err.msg);
	CHECK(btf_features_lang_excluded(&f, 0x21) && btf_features_lang_excluded(&f, 0x11) &&
	      btf_features_lang_excluded(&f, 0x8001) && !btf_features_lang_excluded(&f, 0x4),
	      "lang_exclude 1.24 names");
	CHECK(dw_lang_by_name("c11,c", 3) == 0x1d && dw_lang_by_name("c++", 3) == 0x4 &&
	      dw_lang_by_name("c_", 2) == -1 && dw_lang_by_name("", 0) == -1, "dw_lang_by_name");
	CHECK(btf_features_option(&f, "btf_features", NULL, &err) == -1, "missing argument");
	d2b_error_clear(&err);
	f.distilled_base = true;
	CHECK(btf_features_check(&f, true, &err) == -1, "distilled_base with libbpf 1.1");
}

struct log_buf {
	char text[4096];
};

static void log_line(void *ctx, const char *line)
{
	struct log_buf *b = ctx;

	strncat(b->text, line, sizeof(b->text) - strlen(b->text) - 2);
	strcat(b->text, "\n");
}

static struct btf_func_cand *cand(struct btf_func_set *s, struct btf *btf, uint32_t elf_idx,
				  uint32_t ret, uint32_t nr, const uint32_t *types, unsigned flags)
{
	struct btf_func_cand *c = btf_func_set_add(s, nr, 0);

	c->elf_idx = elf_idx;
	c->ret = ret;
	c->flags = (uint8_t)flags;
	for (uint32_t i = 0; i < nr; i++) {
		s->params[c->first_param + i].type = types[i];
		s->params[c->first_param + i].name_off = (uint32_t)btf__add_str(btf, "arg");
	}
	return c;
}

static int func_id(const struct btf *btf, const char *name)
{
	return btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
}

static void test_selection(void)
{
	struct btf *btf = btf__new_empty();
	struct btf_elf_func efs[] = {
		{ .name = "ambig", .nr_syms = 2, .ambiguous_addr = true },
		{ .name = "good" },
		{ .name = "inconsistent" },
		{ .name = "kf", .kfunc = true },
		{ .name = "reordered" },
		{ .name = "twice" },
		{ .name = "unexpected" },
	};
	struct btf_elf_funcs elf = { .funcs = efs, .nr = sizeof(efs) / sizeof(efs[0]) };
	struct btf_func_set s = { 0 };
	struct btf_funcs_result res;
	struct btf_funcs_sink sink;
	struct btf_features f;
	struct d2b_error err = { 0 };
	struct log_buf log = { { 0 } };
	int i_int = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	int i_long = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	int c_int = btf__add_const(btf, i_int);
	uint32_t p_int[] = { (uint32_t)i_int }, p_long[] = { (uint32_t)i_long },
		 p_cint[] = { (uint32_t)c_int };

	CHECK(btf_elf_funcs_find(&elf, "good") == 1 && btf_elf_funcs_find(&elf, "nope") == -1, "find");
	CHECK(btf_elf_funcs_index(&elf) == 0, "index");
	for (size_t i = 0; i < elf.nr; i++)
		CHECK(btf_elf_funcs_find(&elf, efs[i].name) == (long)i, "indexed find %s", efs[i].name);
	CHECK(btf_elf_funcs_find(&elf, "nope") == -1 && btf_elf_funcs_find(&elf, "goo") == -1 &&
	      btf_elf_funcs_find(&elf, "goodx") == -1, "indexed misses");
	btf_features_init(&f);
	f.consistent_func = true;
	f.decl_tag_kfuncs = true;
	cand(&s, btf, 0, i_int, 1, p_int, 0);			/* ambig */
	cand(&s, btf, 5, i_int, 1, p_int, 0);			/* twice: const ignored */
	cand(&s, btf, 1, i_int, 1, p_int, BTF_FN_OPTIMIZED);	/* good */
	cand(&s, btf, 2, i_int, 1, p_int, 0);			/* inconsistent */
	cand(&s, btf, 2, i_int, 1, p_long, 0);
	cand(&s, btf, 3, 0, 0, NULL, 0);			/* kf */
	cand(&s, btf, 4, i_int, 1, p_int, BTF_FN_REORDERED | BTF_FN_UNEXPECTED_REG);
	cand(&s, btf, 6, i_int, 1, p_int, BTF_FN_UNEXPECTED_REG);
	cand(&s, btf, 5, i_int, 1, p_cint, 0);
	btf_funcs_libbpf_sink(&sink, btf);
	CHECK(btf_funcs_emit(&sink, &s, &elf, &f, log_line, &log, &res, &err) == 0, "%s", err.msg);
	CHECK(res.encoded == 3 && res.skipped == 4, "encoded %zu skipped %zu", res.encoded, res.skipped);
	CHECK(func_id(btf, "good") > 0 && func_id(btf, "twice") > 0 && func_id(btf, "kf") > 0, "encoded ones");
	CHECK(func_id(btf, "ambig") < 0 && func_id(btf, "inconsistent") < 0 &&
	      func_id(btf, "reordered") < 0 && func_id(btf, "unexpected") < 0, "skipped ones");
	CHECK(strstr(log.text, "ambig : skipping BTF encoding of function due to ambiguous address\n") != NULL,
	      "log: %s", log.text);
	CHECK(strstr(log.text, "inconsistent : skipping BTF encoding of function due to param type mismatch "
			       "for param#1 arg != arg\n") &&
	      strstr(log.text, "inconsistent : skipping BTF encoding of function due to inconsistent prototype\n"),
	      "log: %s", log.text);
	CHECK(strstr(log.text, "reordered : skipping BTF encoding of function due to reordered parameters\n") &&
	      strstr(log.text, "unexpected : skipping BTF encoding of function due to unexpected register "
			       "usage for parameter\n"), "log: %s", log.text);
	CHECK(btf__find_by_name_kind(btf, "bpf_kfunc", BTF_KIND_DECL_TAG) > 0, "kfunc tag");
	btf_func_set_deinit(&s);

	/* without consistent_func the inconsistent one is encoded */
	f.consistent_func = false;
	cand(&s, btf, 2, i_int, 1, p_int, 0);
	cand(&s, btf, 2, i_long, 1, p_int, 0);
	CHECK(btf_funcs_emit(&sink, &s, &elf, &f, NULL, NULL, &res, &err) == 0 && res.encoded == 1,
	      "inconsistent without consistent_func");
	CHECK(func_id(btf, "inconsistent") > 0, "inconsistent encoded");
	btf_func_set_deinit(&s);
	btf__free(btf);
	free(elf.index);	/* the names are the test's: no deinit */
}

static void test_cc(void)
{
	struct btf_cc cc;

	btf_cc_for_machine(62 /* EM_X86_64 */, &cc);
	CHECK(cc.nr_regs == 6 && cc.regs[0] == 5 && cc.regs[1] == 4 && cc.regs[2] == 1 &&
	      cc.regs[3] == 2 && cc.regs[4] == 8 && cc.regs[5] == 9, "x86_64 registers");
	btf_cc_for_machine(183 /* EM_AARCH64 */, &cc);
	CHECK(cc.nr_regs == 8 && cc.regs[7] == 7, "aarch64 registers");
	btf_cc_for_machine(0xffff, &cc);
	CHECK(cc.nr_regs == 0, "unknown machine");
}

int main(void)
{
	test_features();
	test_selection();
	test_cc();
	if (failures)
		fprintf(stderr, "%d failures\n", failures);
	return failures ? 1 : 0;
}
