// SPDX-License-Identifier: GPL-2.0-only
/*
 * btf/btf_load unit test: build BTF with libbpf's writer, open it from
 * memory, check the model against what was written; then corrupt it in
 * every way the loader must refuse (one-line error naming .BTF+0xOFF, no
 * crash), reference cycles included; then split BTF on the right and on a
 * wrong base; and btf_diff on equal and edited BTFs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <linux/btf.h>

#include "check.h"
#include "btf/btf_base.h"
#include "btf/btf_diff.h"
#include "btf/btf_load.h"
#include "dwarf/dw_const.h"

#define STREQ(a, b) ((a) && (b) && !strcmp((a), (b)))

/* Ids of the sample BTF, in the order they are added. */
enum {
	ID_INT = 1, ID_CHAR, ID_TAG_USER_CHAR, ID_PTR_USER_CHAR, ID_TAG_USER_INT,
	ID_TAG_RCU, ID_PTR_TWO_TAGS, ID_STRUCT_FOO, ID_PTR_FOO, ID_UNION_U,
	ID_ENUM_SIGNED, ID_ENUM64, ID_FWD_UNION, ID_TYPEDEF, ID_ARRAY4,
	ID_ARRAY0, ID_PROTO, ID_FUNC, ID_VAR, ID_FLOAT, ID_TAG_FUNC,
	ID_TAG_PARAM, ID_TAG_MEMBER, ID_TAG_VAR, ID_TAG_STRUCT, ID_ANON,
	ID_LAST = ID_ANON,
};

static struct btf *sample(void)
{
	struct btf *b = btf__new_empty();
	int id = 0;

	if (!b)
		return NULL;
	id += btf__add_int(b, "int", 4, BTF_INT_SIGNED) == ID_INT;
	id += btf__add_int(b, "char", 1, BTF_INT_SIGNED) == ID_CHAR;
	id += btf__add_type_tag(b, "user", ID_CHAR) == ID_TAG_USER_CHAR;
	id += btf__add_ptr(b, ID_TAG_USER_CHAR) == ID_PTR_USER_CHAR;
	id += btf__add_type_tag(b, "user", ID_INT) == ID_TAG_USER_INT;
	id += btf__add_type_tag(b, "rcu", ID_TAG_USER_INT) == ID_TAG_RCU;
	id += btf__add_ptr(b, ID_TAG_RCU) == ID_PTR_TWO_TAGS;
	id += btf__add_struct(b, "foo", 24) == ID_STRUCT_FOO;
	btf__add_field(b, "a", ID_INT, 0, 0);
	btf__add_field(b, "buf", ID_PTR_USER_CHAR, 64, 0);
	btf__add_field(b, "bf", ID_INT, 128, 3);
	btf__add_field(b, "next", ID_PTR_FOO, 131 + 61, 0);
	id += btf__add_ptr(b, ID_STRUCT_FOO) == ID_PTR_FOO;
	id += btf__add_union(b, "u", 8) == ID_UNION_U;
	btf__add_field(b, "i", ID_INT, 0, 0);
	btf__add_field(b, "p", ID_PTR_TWO_TAGS, 0, 0);
	id += btf__add_enum(b, "sgn", 4) == ID_ENUM_SIGNED;
	btf__add_enum_value(b, "NEG", -2);
	btf__add_enum_value(b, "POS", 7);
	id += btf__add_enum64(b, "wide", 8, false) == ID_ENUM64;
	btf__add_enum64_value(b, "W", 0x1234567890ULL);
	id += btf__add_fwd(b, "fwd_u", BTF_FWD_UNION) == ID_FWD_UNION;
	id += btf__add_typedef(b, "foo_t", ID_STRUCT_FOO) == ID_TYPEDEF;
	id += btf__add_array(b, ID_INT, ID_INT, 4) == ID_ARRAY4;
	id += btf__add_array(b, ID_INT, ID_CHAR, 0) == ID_ARRAY0;
	id += btf__add_func_proto(b, ID_INT) == ID_PROTO;
	btf__add_func_param(b, "n", ID_INT);
	btf__add_func_param(b, "s", ID_PTR_USER_CHAR);
	btf__add_func_param(b, NULL, 0);	/* ... */
	id += btf__add_func(b, "f", BTF_FUNC_GLOBAL, ID_PROTO) == ID_FUNC;
	id += btf__add_var(b, "v", BTF_VAR_GLOBAL_ALLOCATED, ID_TYPEDEF) == ID_VAR;
	id += btf__add_float(b, "double", 8) == ID_FLOAT;
	id += btf__add_decl_tag(b, "ftag", ID_FUNC, -1) == ID_TAG_FUNC;
	id += btf__add_decl_tag(b, "ptag", ID_FUNC, 1) == ID_TAG_PARAM;
	id += btf__add_decl_tag(b, "mtag", ID_STRUCT_FOO, 2) == ID_TAG_MEMBER;
	id += btf__add_decl_tag(b, "vtag", ID_VAR, -1) == ID_TAG_VAR;
	id += btf__add_decl_tag(b, "stag", ID_STRUCT_FOO, -1) == ID_TAG_STRUCT;
	id += btf__add_struct(b, NULL, 4) == ID_ANON;
	btf__add_field(b, "x", ID_INT, 0, 0);
	if (id != ID_LAST) {
		fprintf(stderr, "FAIL: sample BTF ids: %d of %d as planned\n", id, ID_LAST);
		failures++;
	}
	return b;
}

static const struct type *by_btf_id(const struct cu_model *cu, uint32_t id)
{
	return cu_model_type_at_offset(cu, id);
}

static void test_model(const void *raw, uint32_t size)
{
	struct d2b_error err = { 0 };
	struct btf_handle *h = btf_handle_open_memory("sample.btf", raw, size,
						      NULL, &err);
	struct cu_model *cu;
	const struct type *t;

	CHECK(h, "open: %s", err.msg);
	if (!h)
		return;
	cu = btf_handle_load_model(h, NULL, &err);
	CHECK(cu, "model: %s", err.msg);
	if (!cu) {
		btf_handle_close(h);
		return;
	}
	CHECK(cu->from_btf && cu->language == DW_LANG_C, "from_btf/lang");
	CHECK(STREQ(cu->name, "sample.btf"), "name %s", cu->name);
	/* types in id order, id = index, die_offset = BTF id; TYPE_TAGs,
	 * FUNC, VAR, DECL_TAGs are not types */
	CHECK(cu->nr_types == 16, "nr_types %u", cu->nr_types);
	for (uint32_t i = 0; i < cu->nr_types; i++) {
		CHECK(cu->types[i]->id == i, "types[%u]->id %u", i, cu->types[i]->id);
		CHECK(i == 0 || cu->types[i]->die_offset > cu->types[i - 1]->die_offset,
		      "id order at %u", i);
		CHECK(cu->types[i]->cu_lang == DW_LANG_C, "cu_lang");
	}
	t = by_btf_id(cu, ID_INT);
	CHECK(t && t->kind == TK_BASE && t->size == 4 &&
	      t->base.encoding == DW_ATE_signed && STREQ(t->name, "int"), "int");
	t = by_btf_id(cu, ID_CHAR);
	CHECK(t && t->base.encoding == DW_ATE_signed_char, "char encoding");
	t = by_btf_id(cu, ID_FLOAT);
	CHECK(t && t->kind == TK_BASE && t->base.encoding == DW_ATE_float &&
	      t->size == 8, "float");
	CHECK(!by_btf_id(cu, ID_TAG_USER_CHAR), "type tag is not a model type");

	/* PTR -> TYPE_TAG(user) -> char: the pointer carries the tag */
	t = by_btf_id(cu, ID_PTR_USER_CHAR);
	CHECK(t && t->kind == TK_POINTER && t->size == 8, "ptr");
	CHECK(t && t->type == by_btf_id(cu, ID_CHAR), "ptr skips the tag");
	CHECK(t && t->tags && STREQ(t->tags->name, "btf_type_tag") &&
	      STREQ(t->tags->value, "user") && !t->tags->next, "ptr tag");
	/* PTR -> rcu -> user -> int: DWARF order, innermost first */
	t = by_btf_id(cu, ID_PTR_TWO_TAGS);
	CHECK(t && t->type == by_btf_id(cu, ID_INT), "two tags: pointee");
	CHECK(t && t->tags && STREQ(t->tags->value, "user") && t->tags->next &&
	      STREQ(t->tags->next->value, "rcu") && !t->tags->next->next,
	      "two tags: user, rcu");

	t = by_btf_id(cu, ID_STRUCT_FOO);
	CHECK(t && t->kind == TK_STRUCT && t->size == 24 &&
	      t->composite.nr_members == 4, "struct foo");
	if (t && t->composite.nr_members == 4) {
		const struct member *m = t->composite.members;

		CHECK(STREQ(m[0].name, "a") && m[0].bit_offset == 0 &&
		      m[0].bit_size == 0, "member a");
		CHECK(m[1].bit_offset == 64 && m[1].type == by_btf_id(cu, ID_PTR_USER_CHAR),
		      "member buf");
		CHECK(m[2].bit_offset == 128 && m[2].bit_size == 3, "bit-field bf");
		CHECK(m[2].tags && STREQ(m[2].tags->value, "mtag") &&
		      STREQ(m[2].tags->name, "btf_decl_tag"), "member decl tag");
		CHECK(m[3].bit_offset == 192 && m[3].type == by_btf_id(cu, ID_PTR_FOO),
		      "member next");
	}
	CHECK(t && t->tags && STREQ(t->tags->value, "stag"), "struct decl tag");
	t = by_btf_id(cu, ID_UNION_U);
	CHECK(t && t->kind == TK_UNION && t->composite.nr_members == 2, "union");
	t = by_btf_id(cu, ID_ENUM_SIGNED);
	CHECK(t && t->kind == TK_ENUM && t->enumeration.is_signed &&
	      t->enumeration.nr_values == 2 &&
	      t->enumeration.values[0].value == -2 &&
	      STREQ(t->enumeration.values[1].name, "POS") &&
	      t->enumeration.values[1].value == 7, "signed enum");
	t = by_btf_id(cu, ID_ENUM64);
	CHECK(t && t->kind == TK_ENUM && !t->enumeration.is_signed && t->size == 8 &&
	      t->enumeration.values[0].value == 0x1234567890LL, "enum64");
	t = by_btf_id(cu, ID_FWD_UNION);
	CHECK(t && t->kind == TK_UNION && t->declaration && STREQ(t->name, "fwd_u"),
	      "fwd union");
	t = by_btf_id(cu, ID_TYPEDEF);
	CHECK(t && t->kind == TK_TYPEDEF && t->type == by_btf_id(cu, ID_STRUCT_FOO),
	      "typedef");
	t = by_btf_id(cu, ID_ARRAY4);
	CHECK(t && t->kind == TK_ARRAY && t->array.nr_dims == 1 &&
	      t->array.dims[0].count == 4 && !t->array.dims[0].flexible &&
	      t->type == by_btf_id(cu, ID_INT), "array[4]");
	t = by_btf_id(cu, ID_ARRAY0);
	CHECK(t && t->array.dims[0].flexible, "array[0] is flexible");
	t = by_btf_id(cu, ID_PROTO);
	CHECK(t && t->kind == TK_FUNC_PROTO && t->proto.nr_params == 2 &&
	      t->proto.varargs && t->type == by_btf_id(cu, ID_INT) &&
	      STREQ(t->proto.params[1].name, "s"), "proto");
	t = by_btf_id(cu, ID_ANON);
	CHECK(t && t->kind == TK_STRUCT && !t->name, "anonymous struct");

	CHECK(cu->nr_functions == 1, "nr_functions %u", cu->nr_functions);
	if (cu->nr_functions == 1) {
		const struct function *f = &cu->functions[0];

		CHECK(STREQ(f->name, "f") && f->external && f->nr_params == 2 &&
		      f->varargs && f->ret == by_btf_id(cu, ID_INT) &&
		      f->die_offset == ID_FUNC, "function f");
		CHECK(f->tags && STREQ(f->tags->value, "ftag") && !f->tags->next,
		      "function decl tag");
		CHECK(!f->params[0].tags && f->params[1].tags &&
		      STREQ(f->params[1].tags->value, "ptag"), "param decl tag");
	}
	CHECK(cu->nr_variables == 1 && STREQ(cu->variables[0].name, "v") &&
	      cu->variables[0].external &&
	      cu->variables[0].type == by_btf_id(cu, ID_TYPEDEF) &&
	      cu->variables[0].tags && STREQ(cu->variables[0].tags->value, "vtag"),
	      "variable v");
	cu_model_destroy(cu);
	btf_handle_close(h);
}

/*
 * RAW (SIZE bytes) has a pointer loop at LOOP_ID (a pointer to itself) and
 * a named type NAME that does not reach it: it opens (the encoder reads
 * such a base), pahole -C NAME's partial model is built (its closure has
 * no loop), the whole model is not; nor is a split BTF's model on it,
 * whose message names the base's path and the looped record.
 */
static void graph_where_needed(const void *raw, size_t size, uint32_t loop_id, size_t loop_off,
			       const char *name)
{
	struct d2b_error err = { 0 };
	struct btf_handle *h, *split;
	struct cu_model *cu;
	const char *names[] = { name };
	struct btf_model_only only = { .names = names, .nr_names = 1 };
	char want[128];
	/* split BTF with no types of its own and one string: "x" */
	static const uint8_t split_raw[] = {
		0x9f, 0xeb, 1, 0, 24, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 2, 0, 0, 0, 'x', 0,
	};

	snprintf(want, sizeof(want),
		 "loop.btf: .BTF+0x%zx: type [%u] PTR is part of a reference cycle (through [%u] PTR)",
		 loop_off, loop_id, loop_id);
	h = btf_handle_open_memory("loop.btf", raw, size, NULL, &err);
	CHECK(h && !err.set, "looped BTF refused at open: %s", err.msg);
	if (!h)
		return;
	cu = btf_handle_load_model(h, &only, &err);
	CHECK(cu && !err.set, "-C %s refused for a loop it does not reach: %s", name, err.msg);
	cu_model_destroy(cu);
	memset(&err, 0, sizeof(err));
	cu = btf_handle_load_model(h, NULL, &err);
	CHECK(!cu && err.set && !strcmp(err.msg, want), "whole model: '%s', want '%s'",
	      err.msg, want);
	cu_model_destroy(cu);
	memset(&err, 0, sizeof(err));
	split = btf_handle_open_memory("split.btf", split_raw, sizeof(split_raw), h, &err);
	CHECK(split && !err.set, "split on a looped base refused at open: %s", err.msg);
	if (split) {
		cu = btf_handle_load_model(split, NULL, &err);
		CHECK(!cu && err.set && !strcmp(err.msg, want), "split's model: '%s', want '%s'",
		      err.msg, want);
		cu_model_destroy(cu);
		memset(&err, 0, sizeof(err));
		CHECK(btf_handle_check_graph(split, &err) && !strcmp(err.msg, want),
		      "split's graph: '%s'", err.msg);
		btf_handle_close(split);
	}
	btf_handle_close(h);
}

/* Open a copy whose graph is bad: it opens, but neither its graph check
 * nor its model passes, each with one line naming .BTF+0x and WANT. */
static void expect_bad_graph(const char *what, const void *raw, size_t size,
			     const char *want)
{
	struct d2b_error err = { 0 }, merr = { 0 };
	struct btf_handle *h = btf_handle_open_memory("bad.btf", raw, size, NULL,
						      &err);
	struct cu_model *cu;

	CHECK(h, "%s: refused at open: %s", what, err.msg);
	if (!h)
		return;
	CHECK(btf_handle_check_graph(h, &err) && strstr(err.msg, "bad.btf: .BTF+0x") &&
	      !strchr(err.msg, '\n') && strstr(err.msg, want),
	      "%s: message '%s', want '%s'", what, err.msg, want);
	cu = btf_handle_load_model(h, NULL, &merr);
	CHECK(!cu && !strcmp(merr.msg, err.msg), "%s: model: '%s'", what, merr.msg);
	cu_model_destroy(cu);
	btf_handle_close(h);
}

/* Open a corrupted copy; the error must be one line naming .BTF+0x and
 * containing WANT. */
static void expect_bad(const char *what, const void *raw, size_t size,
		       const char *want)
{
	struct d2b_error err = { 0 };
	struct btf_handle *h = btf_handle_open_memory("bad.btf", raw, size, NULL,
						      &err);

	CHECK(!h, "%s: opened", what);
	btf_handle_close(h);
	CHECK(err.set && strstr(err.msg, "bad.btf: .BTF+0x") &&
	      !strchr(err.msg, '\n') && strstr(err.msg, want),
	      "%s: message '%s', want '%s'", what, err.msg, want);
}

/* The same copy opened without libbpf's parse: refused, the message
 * naming WHERE and holding WANT. */
static void expect_bad_unparsed(const char *what, const void *raw, size_t size,
				const char *where, const char *want)
{
	struct d2b_error err = { 0 };
	struct btf_handle *h = btf_handle_open_memory_unparsed("bad.btf", raw, size, &err);

	CHECK(!h && err.set && strstr(err.msg, where) && strstr(err.msg, want),
	      "unparsed: %s: '%s'", what, err.msg);
	btf_handle_close(h);
}

/* Offset of type ID's record in the sample's raw bytes. */
static size_t rec_off(const struct btf *b, const uint8_t *raw, uint32_t id)
{
	uint32_t hdr_len, type_off;

	memcpy(&hdr_len, raw + 4, 4);
	memcpy(&type_off, raw + 8, 4);
	return hdr_len + type_off +
	       (size_t)((const uint8_t *)btf__type_by_id(b, id) -
			(const uint8_t *)btf__type_by_id(b, 1));
}

/* A partial model (pahole -C): the named types, what they reach at any
 * depth, the DECL_TAGs on those; nothing else, in id order. */
static void test_partial(const void *raw, uint32_t size)
{
	static const char *const names[] = { "foo_t", "no_such", "u" };
	const struct btf_model_only only = { names, 3, NULL };
	static const char *const sorted_names[] = { "wide", "sgn", "foo" };
	static const uint32_t order[] = { 2, 1, 0 };	/* foo, sgn, wide */
	const struct btf_model_only only_sorted = { sorted_names, 3, order };
	struct d2b_error err = { 0 };
	struct btf_handle *h = btf_handle_open_memory("sample.btf", raw, size, NULL, &err);
	struct cu_model *cu;
	const struct type *t;

	CHECK(h, "open: %s", err.msg);
	if (!h)
		return;
	cu = btf_handle_load_model(h, &only, &err);
	CHECK(cu, "partial model: %s", err.msg);
	if (cu) {
		/* foo_t -> foo -> int, ptr -> tag -> char, ptr -> foo; u ->
		 * int, ptr -> tags -> int */
		static const uint32_t want[] = { ID_INT, ID_CHAR, ID_PTR_USER_CHAR,
						 ID_PTR_TWO_TAGS, ID_STRUCT_FOO, ID_PTR_FOO,
						 ID_UNION_U, ID_TYPEDEF };

		CHECK(cu->nr_types == sizeof(want) / sizeof(want[0]), "partial: %u types",
		      cu->nr_types);
		for (uint32_t i = 0; i < cu->nr_types && i < sizeof(want) / sizeof(want[0]); i++)
			CHECK(cu->types[i]->die_offset == want[i] && cu->types[i]->id == i,
			      "partial: type %u is [%u], want [%u]", i,
			      (unsigned)cu->types[i]->die_offset, want[i]);
		CHECK(!cu->nr_functions && !cu->nr_variables, "partial: no functions, variables");
		t = by_btf_id(cu, ID_STRUCT_FOO);
		CHECK(t && t->tags && STREQ(t->tags->value, "stag"), "partial: struct decl tag");
		CHECK(t && t->composite.nr_members == 4 && t->composite.members[2].tags &&
		      STREQ(t->composite.members[2].tags->value, "mtag"),
		      "partial: member decl tag");
		t = by_btf_id(cu, ID_PTR_TWO_TAGS);
		CHECK(t && t->type == by_btf_id(cu, ID_INT) && t->tags && t->tags->next,
		      "partial: pointer's type tags");
		CHECK(!by_btf_id(cu, ID_ENUM_SIGNED) && !by_btf_id(cu, ID_ANON),
		      "partial: unreached types left out");
		cu_model_destroy(cu);
	}
	/* names looked up by binary search in ORDER */
	cu = btf_handle_load_model(h, &only_sorted, &err);
	CHECK(cu, "partial model, sorted names: %s", err.msg);
	if (cu) {
		CHECK(by_btf_id(cu, ID_ENUM_SIGNED) && by_btf_id(cu, ID_ENUM64) &&
		      by_btf_id(cu, ID_STRUCT_FOO) && !by_btf_id(cu, ID_TYPEDEF) &&
		      !by_btf_id(cu, ID_UNION_U), "partial, sorted names: the three and no more");
		cu_model_destroy(cu);
	}
	btf_handle_close(h);
}

static void test_corrupt(const struct btf *b, const uint8_t *raw, uint32_t size)
{
	uint8_t *c = malloc(size);
	uint32_t v;

	if (!c)
		return;
	expect_bad("truncated header", raw, 10, "truncated BTF header");
	expect_bad("truncated", raw, size - 7, "runs past the end");
	memcpy(c, raw, size);
	c[0] = 0x12;
	expect_bad("magic", c, size, "bad BTF magic");
	memcpy(c, raw, size);
	c[2] = 2;
	expect_bad("version", c, size, "unsupported BTF version 2");
	memcpy(c, raw, size);
	v = 8;
	memcpy(c + 4, &v, 4);
	expect_bad("header length", c, size, "bad BTF header length 8");
	/* PTR's type past the end */
	memcpy(c, raw, size);
	v = 9999;
	memcpy(c + rec_off(b, raw, ID_PTR_FOO) + 8, &v, 4);
	expect_bad("type id", c, size, "type [9]: referenced type id 9999 past the last type");
	/* a name past the strings */
	memcpy(c, raw, size);
	v = 0x7ffffff0;
	memcpy(c + rec_off(b, raw, ID_INT), &v, 4);
	expect_bad("name", c, size, "past the string section");
	/* unknown kind */
	memcpy(c, raw, size);
	c[rec_off(b, raw, ID_CHAR) + 7] = 25;
	expect_bad("kind", c, size, "unknown kind 25");
	/* FUNC whose type is not a FUNC_PROTO */
	memcpy(c, raw, size);
	v = ID_INT;
	memcpy(c + rec_off(b, raw, ID_FUNC) + 8, &v, 4);
	expect_bad("func type", c, size, "is a INT, want FUNC_PROTO");
	/* the pointer to struct foo made a pointer to itself */
	memcpy(c, raw, size);
	v = ID_PTR_FOO;
	memcpy(c + rec_off(b, raw, ID_PTR_FOO) + 8, &v, 4);
	expect_bad_graph("pointer loop", c, size, "reference cycle");
	graph_where_needed(c, size, ID_PTR_FOO, rec_off(b, raw, ID_PTR_FOO), "int");
	/* DECL_TAG component out of range */
	memcpy(c, raw, size);
	v = 9;
	memcpy(c + rec_off(b, raw, ID_TAG_MEMBER) + 12, &v, 4);
	expect_bad("decl tag index", c, size, "component index 9 out of range");
	/* a typedef pointing to a VAR */
	memcpy(c, raw, size);
	v = ID_VAR;
	memcpy(c + rec_off(b, raw, ID_TYPEDEF) + 8, &v, 4);
	expect_bad("typedef to var", c, size, "is a VAR, not a type");
	free(c);
}

/* The sample in the other byte order: the same model, and the same faults
 * found (the check reads a copy turned round). */
static void test_swapped(const struct btf *b, const uint8_t *raw, uint32_t size)
{
	struct btf *o = sample();
	const uint8_t *sw = NULL;
	uint32_t ssize = 0, v;
	uint8_t *c;

	if (o && !btf__set_endianness(o, btf__endianness(b) == BTF_LITTLE_ENDIAN ?
					  BTF_BIG_ENDIAN : BTF_LITTLE_ENDIAN))
		sw = btf__raw_data(o, &ssize);
	CHECK(sw && ssize == size && sw[0] == raw[1] && sw[1] == raw[0],
	      "swapped: libbpf wrote no BTF of the other order");
	c = sw ? malloc(ssize) : NULL;
	if (!c) {
		btf__free(o);
		return;
	}
	test_model(sw, ssize);
	memcpy(c, sw, ssize);
	v = __builtin_bswap32(9999);
	memcpy(c + rec_off(b, raw, ID_PTR_FOO) + 8, &v, 4);
	expect_bad("swapped type id", c, ssize,
		   "type [9]: referenced type id 9999 past the last type");
	memcpy(c, sw, ssize);
	v = __builtin_bswap32(ID_PTR_FOO);
	memcpy(c + rec_off(b, raw, ID_PTR_FOO) + 8, &v, 4);
	expect_bad_graph("swapped pointer loop", c, ssize, "reference cycle");
	/* the kind is in the info word's top byte: its first, swapped */
	memcpy(c, sw, ssize);
	c[rec_off(b, raw, ID_CHAR) + 4] = 25;
	expect_bad("swapped kind", c, ssize, "unknown kind 25");
	memcpy(c, sw, ssize);
	v = __builtin_bswap32(ID_INT);
	memcpy(c + rec_off(b, raw, ID_FUNC) + 8, &v, 4);
	expect_bad("swapped func type", c, ssize, "is a INT, want FUNC_PROTO");
	free(c);
	btf__free(o);
}

/* A view equal to libbpf's records and strings of B: same count, the
 * same bytes at every id, the same string section. */
static void same_view(const char *what, const struct btf_base_view *v, const struct btf *b)
{
	uint32_t n = btf__type_cnt(b) - 1, bad = 0, anon = 0;
	const char *s0 = btf__str_by_offset(b, 0);

	CHECK(v->nr_types == n, "%s: %u types in the view, libbpf has %u", what, v->nr_types, n);
	for (uint32_t id = 1; id <= n && id <= v->nr_types; id++) {
		const struct btf_type *t = btf__type_by_id(b, id);
		const uint32_t *r = btf_base_record(v, id);
		size_t len = 12;

		/* the record's size: by where the next one starts */
		if (id < n)
			len = (size_t)((const uint8_t *)btf__type_by_id(b, id + 1) - (const uint8_t *)t);
		bad += ((uintptr_t)r % 4) || memcmp(r, t, len);
		bad += v->kinds && v->kinds[id - 1] != btf_kind(t);
		anon += !t->name_off;
	}
	CHECK(!bad, "%s: %u records differ from libbpf's", what, bad);
	CHECK(!v->kinds || v->nr_anon == anon, "%s: %u without a name, libbpf has %u", what,
	      v->nr_anon, anon);
	CHECK(v->strs && s0 && v->str_len && !v->strs[v->str_len - 1], "%s: no strings", what);
	for (uint32_t off = 0; v->strs && off < v->str_len; off += (uint32_t)strlen(v->strs + off) + 1) {
		const char *l = btf__str_by_offset(b, off);

		if (!l || strcmp(l, v->strs + off)) {
			CHECK(0, "%s: string at %u differs", what, off);
			break;
		}
	}
}

/* btf_handle_open_memory_unparsed(): checked as any open (the same
 * refusals), no libbpf object until btf_handle_parse(), a view that reads
 * what libbpf's would; a BTF of the other byte order is parsed at once. */
static void test_unparsed(const struct btf *b, const uint8_t *raw, uint32_t size)
{
	struct d2b_error err = { 0 };
	struct btf_handle *h = btf_handle_open_memory_unparsed("u.btf", raw, size, &err);
	struct btf_base_view v;
	struct btf *o;
	const uint8_t *sw;
	uint32_t ssize = 0, bad = 9999;
	uint8_t *c;

	CHECK(h && !err.set, "unparsed: %s", err.msg);
	if (!h)
		return;
	CHECK(!btf_handle_btf(h), "unparsed: libbpf parsed it");
	CHECK(!btf_handle_load_model(h, NULL, &err) && err.set && !strchr(err.msg, '\n') &&
	      strstr(err.msg, "not parsed"), "unparsed: a model without libbpf: '%s'", err.msg);
	memset(&err, 0, sizeof(err));
	CHECK(btf_handle_base_view(h, &v, &err) == 0, "unparsed view: %s", err.msg);
	same_view("unparsed", &v, b);
	CHECK(v.off && !v.rec && !v.own_off && v.strs > (const char *)v.types && v.kinds &&
	      v.nr_anon, "unparsed: the view is not the handle's bytes and the check's facts");
	btf_base_view_free(&v);
	CHECK(btf_handle_parse(h, &err) == 0 && btf_handle_btf(h) &&
	      btf__type_cnt(btf_handle_btf(h)) == btf__type_cnt(b), "unparsed: parse: %s", err.msg);
	CHECK(btf_handle_parse(h, &err) == 0, "unparsed: second parse");
	btf_handle_close(h);

	/* refused as btf_handle_open_memory() refuses */
	c = malloc(size);
	if (!c)
		return;
	memcpy(c, raw, size);
	memcpy(c + rec_off(b, raw, ID_PTR_FOO) + 8, &bad, 4);
	expect_bad_unparsed("a bad id", c, size, "bad.btf: .BTF+0x",
			    "referenced type id 9999 past the last type");
	free(c);

	/* the strings before the types (no overlap): libbpf refuses it, so
	 * does every open of ours, the unparsed one too */
	{
		const struct btf_header *oh = (const void *)raw;
		size_t pad = (oh->str_len + 3) & ~3u, n2 = oh->hdr_len + pad + oh->type_len;
		uint8_t *l = calloc(1, n2);
		struct btf_header *nh = (void *)l;

		if (l) {
			memcpy(l, raw, oh->hdr_len);
			memcpy(l + oh->hdr_len, raw + oh->hdr_len + oh->str_off, oh->str_len);
			memcpy(l + oh->hdr_len + pad, raw + oh->hdr_len + oh->type_off, oh->type_len);
			nh->str_off = 0;
			nh->type_off = (uint32_t)pad;
			expect_bad("strings first", l, n2, "libbpf wants the types first");
			expect_bad_unparsed("strings first", l, n2, "bad.btf: .BTF+0x10: ",
					    "libbpf wants the types first");
			free(l);
		}
	}

	/* the other byte order: libbpf's parse at once, its view native */
	o = sample();
	sw = o && !btf__set_endianness(o, btf__endianness(b) == BTF_LITTLE_ENDIAN ?
					  BTF_BIG_ENDIAN : BTF_LITTLE_ENDIAN)
		     ? btf__raw_data(o, &ssize) : NULL;
	memset(&err, 0, sizeof(err));
	h = sw ? btf_handle_open_memory_unparsed("sw.btf", sw, ssize, &err) : NULL;
	CHECK(h && btf_handle_btf(h), "unparsed swapped: %s", err.msg);
	if (h && btf_handle_base_view(h, &v, &err) == 0) {
		same_view("unparsed swapped", &v, b);
		btf_base_view_free(&v);
	}
	btf_handle_close(h);
	btf__free(o);
}

static void expect_cycle(const char *what, struct btf *b)
{
	uint32_t size;
	const void *raw = btf__raw_data(b, &size);

	expect_bad_graph(what, raw, size, "reference cycle");
}

static void test_cycles(void)
{
	struct btf *b;

	/* typedef a -> typedef b -> typedef a */
	b = btf__new_empty();
	btf__add_typedef(b, "a", 2);
	btf__add_typedef(b, "b", 1);
	expect_cycle("typedef loop", b);
	{	/* the message names both ends with their kinds */
		uint32_t size;
		const void *raw = btf__raw_data(b, &size);

		expect_bad_graph("typedef loop text", raw, size,
			   "type [1] TYPEDEF is part of a reference cycle (through [2] TYPEDEF)");
	}
	btf__free(b);
	/* const -> volatile -> const */
	b = btf__new_empty();
	btf__add_const(b, 2);
	btf__add_volatile(b, 1);
	expect_cycle("qualifier loop", b);
	btf__free(b);
	/* an array of itself */
	b = btf__new_empty();
	btf__add_int(b, "int", 4, 0);
	btf__add_array(b, 1, 2, 3);
	expect_cycle("array loop", b);
	btf__free(b);
	/* a function prototype taking a pointer to itself */
	b = btf__new_empty();
	btf__add_int(b, "int", 4, 0);
	btf__add_func_proto(b, 1);
	btf__add_func_param(b, "self", 3);
	btf__add_ptr(b, 2);
	expect_cycle("proto loop", b);
	{
		uint32_t size;
		const void *raw = btf__raw_data(b, &size);

		expect_bad_graph("proto loop text", raw, size,
			   "type [2] FUNC_PROTO is part of a reference cycle (through [3] PTR)");
	}
	btf__free(b);
	/* an anonymous struct holding a pointer to itself */
	b = btf__new_empty();
	btf__add_struct(b, NULL, 8);
	btf__add_field(b, "next", 2, 0, 0);
	btf__add_ptr(b, 1);
	expect_cycle("anonymous struct loop", b);
	btf__free(b);
	/* a named one is fine */
	{
		struct d2b_error err = { 0 };
		struct btf_handle *h;
		uint32_t size;
		const void *raw;

		b = btf__new_empty();
		btf__add_struct(b, "list", 8);
		btf__add_field(b, "next", 2, 0, 0);
		btf__add_ptr(b, 1);
		raw = btf__raw_data(b, &size);
		h = btf_handle_open_memory("ok.btf", raw, size, NULL, &err);
		CHECK(h && !btf_handle_check_graph(h, &err), "named self-reference refused: %s",
		      err.msg);
		btf_handle_close(h);
		btf__free(b);
	}
}

/* A chain of N typedefs down to an int, in id order (typedef 1 -> 2 ->
 * ... -> int, UP) or the other way (int first, each typedef on the one
 * before it). */
static struct btf *typedef_chain(uint32_t n, bool up)
{
	struct btf *b = btf__new_empty();

	if (up) {
		for (uint32_t i = 1; i <= n; i++)
			btf__add_typedef(b, "t", (int)i + 1);
		btf__add_int(b, "int", 4, 0);
	} else {
		btf__add_int(b, "int", 4, 0);
		for (uint32_t i = 2; i <= n + 1; i++)
			btf__add_typedef(b, "t", (int)i - 1);
	}
	return b;
}

/* Chains longer than BTF_LOAD_MAX_DEPTH are refused whichever way their
 * ids run (a chain in id order grows only as the search returns along it:
 * it passed before), chains at the limit are not. */
static void test_depth(void)
{
	for (int up = 0; up < 2; up++) {
		struct d2b_error err = { 0 };
		struct btf_handle *h;
		struct btf *b;
		uint32_t size;
		const void *raw;

		b = typedef_chain(BTF_LOAD_MAX_DEPTH, up);
		raw = btf__raw_data(b, &size);
		h = btf_handle_open_memory("ok.btf", raw, size, NULL, &err);
		CHECK(h && !btf_handle_check_graph(h, &err), "a chain of %u (%s) refused: %s",
		      BTF_LOAD_MAX_DEPTH,
		      up ? "in id order" : "against it", err.msg);
		btf_handle_close(h);
		btf__free(b);
		for (uint32_t over = 1; over <= 2; over++) {
			b = typedef_chain(BTF_LOAD_MAX_DEPTH + over, up);
			raw = btf__raw_data(b, &size);
			expect_bad_graph(up ? "deep chain in id order" : "deep chain against id order",
				   raw, size, "reference chain deeper than 1024");
			btf__free(b);
		}
	}
}

static void test_split(void)
{
	struct btf *base = btf__new_empty(), *other = btf__new_empty(), *split;
	struct btf_handle *hb, *ho, *hs;
	struct d2b_error err = { 0 };
	struct cu_model *cu;
	const void *raw;
	uint32_t size;

	btf__add_int(base, "int", 4, BTF_INT_SIGNED);
	btf__add_int(base, "long", 8, BTF_INT_SIGNED);
	btf__add_ptr(base, 1);
	btf__add_int(other, "char", 1, 0);
	split = btf__new_empty_split(base);
	btf__add_struct(split, "mod", 16);
	btf__add_field(split, "a", 1, 0, 0);
	btf__add_field(split, "p", 3, 64, 0);
	btf__add_ptr(split, 4);

	raw = btf__raw_data(base, &size);
	hb = btf_handle_open_memory("base.btf", raw, size, NULL, &err);
	raw = btf__raw_data(other, &size);
	ho = btf_handle_open_memory("other.btf", raw, size, NULL, &err);
	CHECK(hb && ho, "bases: %s", err.msg);
	raw = btf__raw_data(split, &size);
	hs = hb ? btf_handle_open_memory("split.btf", raw, size, hb, &err) : NULL;
	CHECK(hs, "split: %s", err.msg);
	if (hs) {
		CHECK(btf_handle_start_id(hs) == 4, "start id %u", btf_handle_start_id(hs));
		cu = btf_handle_load_model(hs, NULL, &err);
		CHECK(cu && cu->nr_types == 5, "split model types %u", cu ? cu->nr_types : 0);
		if (cu && cu->nr_types == 5) {
			const struct type *m = cu_model_type_at_offset(cu, 4);

			CHECK(m && STREQ(m->name, "mod") && m->composite.nr_members == 2 &&
			      m->composite.members[1].type == cu_model_type_at_offset(cu, 3) &&
			      m->composite.members[0].type->size == 4, "split struct");
		}
		cu_model_destroy(cu);
	}
	btf_handle_close(hs);
	/* the same split BTF on a base with fewer types */
	memset(&err, 0, sizeof(err));
	hs = ho ? btf_handle_open_memory("split.btf", raw, size, ho, &err) : NULL;
	CHECK(!hs && err.set && strstr(err.msg, "split.btf: .BTF+0x") &&
	      strstr(err.msg, "wrong base"), "wrong base: '%s'", err.msg);
	btf_handle_close(hs);
	/* and without any base */
	memset(&err, 0, sizeof(err));
	hs = btf_handle_open_memory("split.btf", raw, size, NULL, &err);
	CHECK(!hs && err.set, "split without base opened");
	btf_handle_close(hs);
	btf_handle_close(hb);
	btf_handle_close(ho);
	btf__free(split);
	btf__free(base);
	btf__free(other);
}

static long diff_raw(const void *ra, uint32_t sa, const void *rb, uint32_t sb,
		     struct strbuf *out)
{
	struct d2b_error err = { 0 };
	struct btf_handle *a = btf_handle_open_memory("a", ra, sa, NULL, &err);
	struct btf_handle *b = btf_handle_open_memory("b", rb, sb, NULL, &err);
	long n = -1;

	if (a && b)
		n = btf_diff(btf_handle_btf(a), 1, btf_handle_btf(b), 1, out, NULL, &err);
	CHECK(n >= 0, "diff: %s", err.msg);
	btf_handle_close(a);
	btf_handle_close(b);
	return n;
}

static void test_diff(const void *raw, uint32_t size)
{
	struct strbuf out = STRBUF_INIT;
	struct btf *b2 = btf__new_empty();
	const void *r2;
	uint32_t s2;
	long n;

	n = diff_raw(raw, size, raw, size, &out);
	CHECK(n == 0 && out.len == 0, "equal: %ld '%s'", n, strbuf_str(&out));
	/* The same content in another id order is equal too. */
	btf__add_ptr(b2, 3);			/* 1: struct s * */
	btf__add_int(b2, "int", 4, BTF_INT_SIGNED);	/* 2 */
	btf__add_struct(b2, "s", 16);		/* 3 */
	btf__add_field(b2, "x", 2, 0, 0);
	btf__add_field(b2, "next", 1, 64, 0);
	r2 = btf__raw_data(b2, &s2);
	{
		struct btf *b3 = btf__new_empty();
		const void *r3;
		uint32_t s3;

		btf__add_int(b3, "int", 4, BTF_INT_SIGNED);	/* 1 */
		btf__add_struct(b3, "s", 16);		/* 2 */
		btf__add_field(b3, "x", 1, 0, 0);
		btf__add_field(b3, "next", 3, 64, 0);
		btf__add_ptr(b3, 2);			/* 3 */
		r3 = btf__raw_data(b3, &s3);
		strbuf_reset(&out);
		n = diff_raw(r2, s2, r3, s3, &out);
		CHECK(n == 0, "reordered: %ld '%s'", n, strbuf_str(&out));
		/* now change a member's type and offset */
		btf__free(b3);
		b3 = btf__new_empty();
		btf__add_int(b3, "long", 8, BTF_INT_SIGNED);	/* 1 */
		btf__add_struct(b3, "s", 16);		/* 2 */
		btf__add_field(b3, "x", 1, 0, 0);
		btf__add_field(b3, "next", 3, 96, 0);
		btf__add_ptr(b3, 2);
		r3 = btf__raw_data(b3, &s3);
		strbuf_reset(&out);
		n = diff_raw(r2, s2, r3, s3, &out);
		CHECK(n == 4, "changed: %ld", n);
		CHECK(strstr(strbuf_str(&out), "struct s: member x: type int vs long\n") &&
		      strstr(strbuf_str(&out), "struct s: member next: offset 64 vs 96 bits\n") &&
		      strstr(strbuf_str(&out), "int int: only in A\n") &&
		      strstr(strbuf_str(&out), "int long: only in B\n"),
		      "changed: '%s'", strbuf_str(&out));
		btf__free(b3);
	}
	btf__free(b2);
	strbuf_free(&out);
}

/* A module's BTF in sysfs is read on the running kernel's, as pahole
 * does; nothing else gets a base by default. */
static void test_sysfs_module_base(void)
{
	const char *m;

	unsetenv("PAHOLE_VMLINUX_BTF_FILENAME");
	m = btf_sysfs_module_base("/sys/kernel/btf/nf_tables");
	CHECK(m && !strcmp(m, "/sys/kernel/btf/vmlinux"), "module base: %s", m ? m : "(none)");
	CHECK(!btf_sysfs_module_base("/sys/kernel/btf/vmlinux"), "vmlinux has no base");
	CHECK(!btf_sysfs_module_base("/sys/kernel/btf/"), "the directory has no base");
	CHECK(!btf_sysfs_module_base("/tmp/nf_tables.btf"), "a file elsewhere has no base");
	CHECK(!btf_sysfs_module_base("/sys/kernel/btfx/a"), "a look-alike has no base");
	CHECK(!btf_sysfs_module_base(NULL), "no file has no base");
	setenv("PAHOLE_VMLINUX_BTF_FILENAME", "/tmp/kernel.btf", 1);
	m = btf_sysfs_module_base("/sys/kernel/btf/nf_tables");
	CHECK(m && !strcmp(m, "/tmp/kernel.btf"), "the kernel's BTF where it is said: %s",
	      m ? m : "(none)");
	unsetenv("PAHOLE_VMLINUX_BTF_FILENAME");
}

int main(void)
{
	struct btf *b = sample();
	const uint8_t *raw;
	uint32_t size;

	if (!b) {
		fprintf(stderr, "FAIL: libbpf cannot build BTF\n");
		return 1;
	}
	raw = btf__raw_data(b, &size);
	CHECK(raw && size > 24, "raw data");
	if (raw) {
		test_model(raw, size);
		test_partial(raw, size);
		test_corrupt(b, raw, size);
		test_swapped(b, raw, size);
		test_unparsed(b, raw, size);
		test_diff(raw, size);
	}
	test_cycles();
	test_depth();
	test_split();
	test_sysfs_module_base();
	btf__free(b);
	if (failures) {
		fprintf(stderr, "%d failure(s)\n", failures);
		return 1;
	}
	printf("test_btf_load: all passed\n");
	return 0;
}
