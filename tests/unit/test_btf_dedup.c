// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of btf/btf_dedup.c: our deduplication must give libbpf's
 * btf__dedup() bytes. Each case is a BTF built as the encoder's merge
 * builds one (btf__add_* from empty, so every string is at one offset):
 * several "units" that instantiate the same struct templates, each unit
 * defining some structs and only declaring (FWD) others, with pointers,
 * typedefs, arrays, function prototypes, enums and enum declarations, and
 * now and then a template variant (so one name has several canonical
 * structs and libbpf's candidate order decides). Hand-written cases pin
 * the rules the random ones may miss; bad input must fail cleanly.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "check.h"
#include "btf/btf_base.h"
#include "btf/btf_dedup.h"

/* ---- ours against libbpf on one BTF ---- */

/* How the last our_dedup() with units ran its first phases. */
static struct btf_dedup_stats last_stats;

/*
 * BTF deduplicated by us: header + our records + BTF's strings, in *OUT.
 * With NB > 0, the first phases unit by unit (btf_dedup_incr_add()), a
 * unit ending after BOUNDS[i] types.
 */
static int our_dedup_units(struct btf *btf, const uint32_t *bounds, size_t nb, void **out,
			   uint32_t *out_len, struct d2b_error *err)
{
	uint32_t raw_len;
	const struct btf_header *h = btf__raw_data(btf, &raw_len);
	const char *raw = (const char *)h;
	struct btf_dedup_types t;
	struct btf_header nh;
	uint32_t *words;
	char *buf;

	words = malloc(h->type_len + 4);
	if (!words)
		return -1;
	memcpy(words, raw + h->hdr_len + h->type_off, h->type_len);
	const struct btf *base = btf__base_btf(btf);
	struct btf_base_view view;

	if (base && btf_base_view_from_btf(&view, base)) {
		free(words);
		return -1;
	}
	t = (struct btf_dedup_types){
		.words = words, .first = 0, .len = h->type_len / 4, .base = base ? &view : NULL,
		.nr_types = btf__type_cnt(btf) - (base ? btf__type_cnt(base) : 1),
		.stats = &last_stats,
	};
	memset(&last_stats, 0, sizeof(last_stats));
	if (nb) {
		t.incr = btf_dedup_incr_new();
		for (size_t i = 0; t.incr && i < nb; i++) {
			struct btf_dedup_types u = t;

			u.nr_types = bounds[i];
			btf_dedup_incr_add(t.incr, &u);
		}
	}
	if (btf_dedup(&t, err)) {
		btf_dedup_incr_free(t.incr);
		if (base)
			btf_base_view_free(&view);
		free(words);
		return -1;
	}
	btf_dedup_incr_free(t.incr);
	if (base)
		btf_base_view_free(&view);
	nh = *h;
	nh.type_off = 0;
	nh.type_len = (uint32_t)(t.len * 4);
	nh.str_off = nh.type_len;
	*out_len = (uint32_t)(sizeof(nh) + nh.type_len + h->str_len);
	buf = malloc(*out_len);
	memcpy(buf, &nh, sizeof(nh));
	memcpy(buf + sizeof(nh), words, nh.type_len);
	memcpy(buf + sizeof(nh) + nh.type_len, raw + h->hdr_len + h->str_off, h->str_len);
	free(words);
	*out = buf;
	return 0;
}

/* Our dedup implements libbpf 1.1's rules (Debian 12's libbpf); later
 * versions changed some (an enum's hash, identical structs): with one of
 * those, check only that our output parses and has fewer types. */
static bool libbpf_is_1_1(void)
{
	return libbpf_major_version() == 1 && libbpf_minor_version() == 1;
}

static int our_dedup(struct btf *btf, void **out, uint32_t *out_len, struct d2b_error *err)
{
	return our_dedup_units(btf, NULL, 0, out, out_len, err);
}

/* Dedup BTF both ways (it is consumed) and compare; with NB > 0 units
 * (see our_dedup_units()), ours unit by unit too, which must give the same
 * bytes. Returns whether the units ran unit by unit to the end. */
static bool compare_units(struct btf *btf, const uint32_t *bounds, size_t nb, const char *what)
{
	struct d2b_error err = { 0 };
	uint32_t our_len, lib_len;
	bool incremental = false;
	const void *lib;
	void *ours;
	int rc;

	if (our_dedup(btf, &ours, &our_len, &err)) {
		CHECK(0, "%s: our dedup failed: %s", what, err.msg);
		btf__free(btf);
		return false;
	}
	if (nb) {
		uint32_t inc_len;
		void *inc;

		if (our_dedup_units(btf, bounds, nb, &inc, &inc_len, &err)) {
			CHECK(0, "%s: our dedup unit by unit failed: %s", what, err.msg);
		} else {
			CHECK(inc_len == our_len && !memcmp(inc, ours, our_len),
			      "%s: unit by unit (%s) gives other bytes than all at once", what,
			      last_stats.incremental ? "to the end" : last_stats.incr_abandoned);
			incremental = last_stats.incremental;
			CHECK(incremental || last_stats.incr_abandoned,
			      "%s: unit by unit, but no reason why not", what);
			free(inc);
		}
	}
	if (!libbpf_is_1_1()) {
		struct btf *parsed = btf__new(ours, our_len);

		CHECK(parsed && btf__type_cnt(parsed) <= btf__type_cnt(btf),
		      "%s: our output does not parse, or has more types", what);
		btf__free(parsed);
		free(ours);
		btf__free(btf);
		return incremental;
	}
	rc = btf__dedup(btf, NULL);
	CHECK(rc == 0, "%s: btf__dedup failed: %d", what, rc);
	lib = btf__raw_data(btf, &lib_len);
	if (getenv("DEDUP_DUMP") && (our_len != lib_len || memcmp(ours, lib, lib_len))) {
		FILE *f = fopen("/tmp/dd_ours.btf", "wb");

		fwrite(ours, 1, our_len, f);
		fclose(f);
		f = fopen("/tmp/dd_lib.btf", "wb");
		fwrite(lib, 1, lib_len, f);
		fclose(f);
	}
	CHECK(our_len == lib_len && !memcmp(ours, lib, lib_len),
	      "%s: %u bytes from us, %u from libbpf (%u -> %u types by libbpf)", what, our_len,
	      lib_len, 0, btf__type_cnt(btf) - 1);
	free(ours);
	btf__free(btf);
	return incremental;
}

static void compare(struct btf *btf, const char *what)
{
	compare_units(btf, NULL, 0, what);
}

/* ---- hand-written cases ---- */

/* libbpf's own example: unit 1 knows struct A and a FWD of B, unit 2 the
 * opposite; S in both. All three come out once, FWDs resolved. */
static void test_fwd_resolution(void)
{
	struct btf *b = btf__new_empty();

	for (int u = 0; u < 2; u++) {
		int i = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
		int f = btf__add_fwd(b, u ? "A" : "B", BTF_FWD_STRUCT);
		int self = btf__add_ptr(b, (int)btf__type_cnt(b) + 1);	/* the struct next */
		int def = btf__add_struct(b, u ? "B" : "A", 16), pf, s;

		btf__add_field(b, u ? "b" : "a", i, 0, 0);
		btf__add_field(b, "self", self, 64, 0);
		pf = btf__add_ptr(b, f);
		s = btf__add_struct(b, "S", 16);
		CHECK(def == self + 1 && s > 0 &&
		      !btf__add_field(b, "a_ptr", u ? pf : self, 0, 0) &&
		      !btf__add_field(b, "b_ptr", u ? self : pf, 64, 0), "building unit %d failed", u);
	}
	compare(b, "fwd resolution");
}

/* An unrelated FWD resolves to the one struct of its name; two unions of
 * one name keep theirs. */
static void test_standalone_fwds(void)
{
	struct btf *b = btf__new_empty();
	int i = btf__add_int(b, "int", 4, BTF_INT_SIGNED), f, u1, u2;

	f = btf__add_fwd(b, "foo", BTF_FWD_STRUCT);
	btf__add_ptr(b, f);
	btf__add_struct(b, "foo", 4);
	btf__add_field(b, "x", i, 0, 0);
	f = btf__add_fwd(b, "bar", BTF_FWD_UNION);
	btf__add_ptr(b, f);
	u1 = btf__add_union(b, "bar", 4);
	btf__add_field(b, "x", i, 0, 0);
	u2 = btf__add_union(b, "bar", 8);
	btf__add_field(b, "y", i, 0, 0);
	btf__add_fwd(b, "baz", BTF_FWD_UNION);	/* struct baz: a kind mismatch */
	btf__add_struct(b, "baz", 0);
	CHECK(u1 > 0 && u2 > 0, "building the case failed");
	compare(b, "standalone fwds");
}

/* enum declarations before, between and after full enums of the name */
static void test_enum_fwds(void)
{
	struct btf *b = btf__new_empty();
	int e;

	btf__add_enum(b, "e", 4);	/* a declaration (vlen 0) */
	e = btf__add_enum(b, "e", 4);
	btf__add_enum_value(b, "A", 0);
	btf__add_enum(b, "e", 4);
	e = btf__add_enum(b, "e", 4);
	btf__add_enum_value(b, "B", 1);
	btf__add_enum(b, "e", 4);
	e = btf__add_enum64(b, "e", 8, false);
	btf__add_enum64_value(b, "C", 1ull << 40);
	btf__add_enum(b, "e", 4);
	btf__add_ptr(b, 1);
	btf__add_ptr(b, 3);
	CHECK(e > 0, "building the case failed");
	/* unit by unit, a type a unit: declarations with two candidates */
	{
		uint32_t bounds[12];

		for (uint32_t i = 0; i < 12; i++)
			bounds[i] = i + 1;
		CHECK(!compare_units(b, bounds, 12, "enum fwds") && last_stats.incr_abandoned &&
		      strstr(last_stats.incr_abandoned, "enum"),
		      "enum fwds: unit by unit did not give up on the enum declarations (%s)",
		      last_stats.incr_abandoned ? last_stats.incr_abandoned : "to the end");
	}
}

/* More canonical structs of one signature than libbpf's map holds before
 * it grows, and a FWD that matches all: the candidate order decides. */
static void test_candidate_order(void)
{
	struct btf *b = btf__new_empty();
	int i = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	int l = btf__add_int(b, "long", 8, BTF_INT_SIGNED);
	uint32_t bounds[40];

	for (int n = 0; n < 40; n++) {
		char name[16];
		int inner, p, f;

		/* inner_N: a different struct "in" each time (member type) */
		inner = btf__add_struct(b, "in", 8);
		btf__add_field(b, "v", n % 2 ? i : l, 0, 0);
		p = btf__add_ptr(b, inner);
		btf__add_struct(b, "outer", 8);
		btf__add_field(b, "p", p, 0, 0);
		/* an outer whose "in" is only declared: equivalent to all */
		f = btf__add_fwd(b, "in", BTF_FWD_STRUCT);
		p = btf__add_ptr(b, f);
		btf__add_struct(b, "outer", 8);
		btf__add_field(b, "p", p, 0, 0);
		snprintf(name, sizeof(name), "pad%d", n);	/* grows the map */
		btf__add_int(b, name, 4, 0);
		bounds[n] = btf__type_cnt(b) - 1;
	}
	/* unit by unit: the second FWD outer has two equivalent candidates */
	CHECK(!compare_units(b, bounds, 40, "candidate order") && last_stats.incr_abandoned &&
	      strstr(last_stats.incr_abandoned, "struct"),
	      "candidate order: unit by unit did not give up on the struct (%s)",
	      last_stats.incr_abandoned ? last_stats.incr_abandoned : "to the end");
}

/* Two "outer" structs whose "in" differ (a long, an int member), for the
 * candidate order tests: a third "outer" whose "in" is a FWD is
 * equivalent to both. */
static void add_two_outers(struct btf *b, int i, int l)
{
	for (int n = 0; n < 2; n++) {
		int in = btf__add_struct(b, "in", 8), p;

		btf__add_field(b, "v", n ? i : l, 0, 0);
		p = btf__add_ptr(b, in);
		btf__add_struct(b, "outer", 8);
		btf__add_field(b, "p", p, 0, 0);
	}
}

/* PADS named ints ("padN"): they grow libbpf's candidate map. */
static void add_pads(struct btf *b, int pads)
{
	for (int n = 0; n < pads; n++) {
		char name[16];

		snprintf(name, sizeof(name), "pad%d", n);
		btf__add_int(b, name, 4, 0);
	}
}

/* The "outer" whose "in" is only declared, and a pointer to it. */
static void add_fwd_outer(struct btf *b)
{
	int f = btf__add_fwd(b, "in", BTF_FWD_STRUCT), p = btf__add_ptr(b, f);

	btf__add_struct(b, "outer", 8);
	btf__add_field(b, "p", p, 0, 0);
	btf__add_ptr(b, (int)btf__type_cnt(b) - 1);
}

/*
 * Unit by unit, the candidate order can differ from libbpf's: unit 1 makes
 * two canonical "outer" (their "in" differ), unit 2 first adds PADS
 * primitives (all at once they come before both outers, unit by unit after
 * them: the map grows at other points, each growth reversing the order),
 * then an outer whose "in" is a FWD, equivalent to both. For some PADS the
 * two orders differ: only giving up keeps the bytes.
 */
static void test_candidate_order_units(void)
{
	for (int pads = 0; pads < 48; pads++) {
		struct btf *b = btf__new_empty();
		int i = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
		int l = btf__add_int(b, "long", 8, BTF_INT_SIGNED);
		uint32_t bounds[2];
		char what[40];

		add_two_outers(b, i, l);
		bounds[0] = btf__type_cnt(b) - 1;
		add_pads(b, pads);
		add_fwd_outer(b);
		bounds[1] = btf__type_cnt(b) - 1;
		snprintf(what, sizeof(what), "candidate order, %d pads", pads);
		CHECK(!compare_units(b, bounds, 2, what), "%s: unit by unit did not give up", what);
	}
}

/*
 * Split BTF: the base holds two "outer" (their "in" differ) after PADS
 * named types that no split type names, which the dedup leaves out of its
 * candidate lists but must count as libbpf's map holds them: its growths
 * reverse the order of a list, and the split's "outer", whose "in" is a
 * FWD, is equivalent to both base ones, so the first in libbpf's order
 * wins. Our bytes must equal libbpf's for every PADS.
 */
static void test_split_candidate_order(void)
{
	for (int pads = 0; pads < 48; pads++) {
		struct btf *base = btf__new_empty(), *split;
		int i = btf__add_int(base, "int", 4, BTF_INT_SIGNED);
		int l = btf__add_int(base, "long", 8, BTF_INT_SIGNED);
		char what[48];

		add_pads(base, pads);
		add_two_outers(base, i, l);
		split = btf__new_empty_split(base);
		add_fwd_outer(split);
		snprintf(what, sizeof(what), "split candidate order, %d pads", pads);
		compare(split, what);	/* frees split */
		btf__free(base);
	}
}

/*
 * Split types that refer to base types directly (the encoder's never do,
 * but btf_dedup() takes them): a pointer to the base's struct foo, whose
 * name no split type has, is the base's pointer to it; so is an anonymous
 * struct holding one, and a prototype taking one. The base types they
 * refer to can be mapped to: those that refer to those are candidates.
 */
static void test_split_refs_into_base(void)
{
	struct btf *base = btf__new_empty(), *split;
	int i = btf__add_int(base, "int", 4, BTF_INT_SIGNED);
	int foo = btf__add_struct(base, "foo", 4);
	int p, s, f;

	btf__add_field(base, "a", i, 0, 0);
	p = btf__add_ptr(base, foo);
	s = btf__add_struct(base, NULL, 8);
	btf__add_field(base, "f", foo, 0, 0);
	btf__add_field(base, "q", p, 32, 0);
	f = btf__add_func_proto(base, i);
	btf__add_func_param(base, "x", p);
	CHECK(p > 0 && s > 0 && f > 0, "base built");

	split = btf__new_empty_split(base);
	btf__add_ptr(split, foo);
	compare(split, "a split pointer to a base struct");

	split = btf__new_empty_split(base);
	p = btf__add_ptr(split, foo);
	btf__add_struct(split, NULL, 8);
	btf__add_field(split, "f", foo, 0, 0);
	btf__add_field(split, "q", p, 32, 0);
	btf__add_func_proto(split, i);
	btf__add_func_param(split, "x", p);
	compare(split, "split types on a base struct they do not name");
	btf__free(base);
}

/* Identical arrays (and structs) emitted twice in one unit */
static void test_identical_twins(void)
{
	struct btf *b = btf__new_empty();
	int i = btf__add_int(b, "int", 4, BTF_INT_SIGNED);

	for (int u = 0; u < 2; u++) {
		int a1 = btf__add_array(b, i, i, 4), a2 = btf__add_array(b, i, i, 4);
		int t1, t2;

		t1 = btf__add_struct(b, "pair", 4);
		btf__add_field(b, "x", i, 0, 0);
		t2 = btf__add_struct(b, "pair", 4);
		btf__add_field(b, "x", i, 0, 0);
		btf__add_struct(b, "holder", 40);
		btf__add_field(b, "a", a1, 0, 0);
		btf__add_field(b, "b", u ? a1 : a2, 128, 0);
		btf__add_field(b, "p", t1, 256, 0);
		btf__add_field(b, "q", u ? t1 : t2, 288, 0);
	}
	compare(b, "identical twins");
}

/* Twins one level down: X[6] meets X[4], whose Inner[3] is paired first
 * with [7], then with [8]; those differ only in identical arrays [9] and
 * [10]. libbpf 1.1 compares such members recursively: X comes out once. */
static void test_nested_twins(void)
{
	struct btf *b = btf__new_empty();
	int i = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	int arr = btf__add_array(b, i, i, 2);
	int in = btf__add_struct(b, "Inner", 8), i2;

	btf__add_field(b, "a", arr, 0, 0);
	btf__add_struct(b, "X", 16);
	btf__add_field(b, "i1", in, 0, 0);
	btf__add_field(b, "i2", in, 64, 0);
	i2 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	btf__add_struct(b, "X", 16);
	btf__add_field(b, "i1", 7, 0, 0);
	btf__add_field(b, "i2", 8, 64, 0);
	btf__add_struct(b, "Inner", 8);
	btf__add_field(b, "a", 9, 0, 0);
	btf__add_struct(b, "Inner", 8);
	btf__add_field(b, "a", 10, 0, 0);
	btf__add_array(b, i2, i2, 2);
	CHECK(btf__add_array(b, i2, i2, 2) == 10, "building the case failed");
	compare(b, "nested twins");
}

/* ---- random units ---- */

struct rng {
	uint64_t s;
};

static uint32_t rnd(struct rng *r, uint32_t n)
{
	r->s ^= r->s << 13;
	r->s ^= r->s >> 7;
	r->s ^= r->s << 17;
	return (uint32_t)(r->s % n);
}

enum mkind { M_INT, M_PTR, M_EMBED, M_ARRAY, M_TYPEDEF, M_CONSTPTR, M_FUNCPTR, M_ENUM, M_UNIONPTR };

#define NS 6	/* struct names */
#define NM 4	/* members at most */

struct member_tpl {
	enum mkind kind;
	uint32_t arg;	/* int index, struct index, enum index */
};

struct struct_tpl {
	uint32_t nm;
	struct member_tpl m[NM];
};

static const char *const int_names[] = { "int", "long", "char" };
static const uint32_t int_sizes[] = { 4, 8, 1 };

/* One unit: ints, enums, FWDs and the helper types, then its structs. */
static void add_unit(struct btf *b, struct rng *r, const struct struct_tpl *tpl, bool variant)
{
	int ints[3], enums[2], fwd[NS], ufwd, sid[NS], helper[NS][NM];
	bool def[NS];
	uint32_t first;
	int next;
	char name[16];

	for (int k = 0; k < 3; k++)
		ints[k] = btf__add_int(b, int_names[k], int_sizes[k], k == 2 ? BTF_INT_CHAR : BTF_INT_SIGNED);
	for (int e = 0; e < 2; e++) {
		snprintf(name, sizeof(name), "en%d", e);
		enums[e] = btf__add_enum(b, name, 4);
		if (rnd(r, 3))	/* else a declaration */
			btf__add_enum_value(b, "V", e + (variant && rnd(r, 2)));
	}
	for (int s = 0; s < NS; s++) {
		snprintf(name, sizeof(name), "s%d", s);
		def[s] = rnd(r, 3) != 0;
		fwd[s] = btf__add_fwd(b, name, BTF_FWD_STRUCT);
	}
	ufwd = btf__add_fwd(b, "u0", BTF_FWD_UNION);
	/* the structs come after every helper: count the helpers first */
	next = (int)btf__type_cnt(b);
	for (int s = 0; s < NS; s++)
		for (uint32_t k = 0; k < tpl[s].nm; k++) {
			switch (tpl[s].m[k].kind) {
			case M_PTR: case M_TYPEDEF: case M_ARRAY: case M_UNIONPTR:
				next += 1;
				break;
			case M_CONSTPTR:
				next += 2;
				break;
			case M_FUNCPTR:
				next += 3;
				break;
			default:
				break;
			}
		}
	first = (uint32_t)next;
	for (int s = 0; s < NS; s++)
		sid[s] = def[s] ? (int)first + s : fwd[s];
	/* the structs are all added (a struct always), FWD users point at
	 * the declaration instead */
	for (int s = 0; s < NS; s++)
		for (uint32_t k = 0; k < tpl[s].nm; k++) {
			const struct member_tpl *m = &tpl[s].m[k];
			int t = ints[m->arg % 3], p;
			int target = rnd(r, 4) ? sid[m->arg % NS] : fwd[m->arg % NS];

			switch (m->kind) {
			case M_PTR:
				helper[s][k] = btf__add_ptr(b, target);
				break;
			case M_TYPEDEF:
				snprintf(name, sizeof(name), "td%u", m->arg % 3);
				helper[s][k] = btf__add_typedef(b, name, variant && rnd(r, 3) == 0 ? ints[(m->arg + 1) % 3] : t);
				break;
			case M_ARRAY:
				helper[s][k] = btf__add_array(b, ints[0], t, 1 + m->arg % 4);
				break;
			case M_UNIONPTR:
				helper[s][k] = btf__add_ptr(b, ufwd);
				break;
			case M_CONSTPTR:
				p = btf__add_ptr(b, target);
				helper[s][k] = btf__add_const(b, p);
				break;
			case M_FUNCPTR:
				p = btf__add_ptr(b, target);
				btf__add_func_proto(b, ints[0]);
				btf__add_func_param(b, "arg", p);
				helper[s][k] = btf__add_ptr(b, p + 1);
				break;
			case M_ENUM:
				helper[s][k] = enums[m->arg % 2];
				break;
			case M_EMBED:	/* only an earlier struct: no cycle */
				helper[s][k] = m->arg < (uint32_t)s && def[m->arg] ? sid[m->arg] : t;
				break;
			default:
				helper[s][k] = variant && rnd(r, 4) == 0 ? ints[(m->arg + 1) % 3] : t;
				break;
			}
		}
	for (int s = 0; s < NS; s++) {
		int id;

		snprintf(name, sizeof(name), "s%d", s);
		id = btf__add_struct(b, name, 8 * NM);
		if (id != (int)first + s) {
			CHECK(0, "struct id drift %d != %u", id, first + s);
			return;
		}
		for (uint32_t k = 0; k < tpl[s].nm; k++) {
			char mname[16];

			snprintf(mname, sizeof(mname), "m%u", k);
			btf__add_field(b, mname, helper[s][k], 64 * k, 0);
		}
	}
	/* a union some units define */
	if (rnd(r, 2)) {
		int u = btf__add_union(b, "u0", 8);

		btf__add_field(b, "a", ints[1], 0, 0);
		(void)u;
	}
}

static void random_tpl(struct rng *r, struct struct_tpl *tpl)
{
	for (int s = 0; s < NS; s++) {
		tpl[s].nm = 1 + rnd(r, NM);
		for (uint32_t k = 0; k < tpl[s].nm; k++)
			tpl[s].m[k] = (struct member_tpl){
				.kind = (enum mkind)rnd(r, 9), .arg = rnd(r, 12),
			};
	}
}

/* Also unit by unit (btf_dedup_incr_add() after each unit), which must give
 * the same bytes, and does not give up on every case. */
static void test_random(void)
{
	unsigned incremental = 0;

	for (uint64_t seed = 1; seed <= 400; seed++) {
		struct rng r = { .s = seed * 0x9e3779b97f4a7c15ull };
		struct struct_tpl tpl[NS];
		struct btf *b = btf__new_empty();
		uint32_t units = 2 + rnd(&r, 7), bounds[8];
		char what[32];

		random_tpl(&r, tpl);
		for (uint32_t u = 0; u < units; u++) {
			add_unit(b, &r, tpl, rnd(&r, 4) == 0);
			bounds[u] = btf__type_cnt(b) - 1;
		}
		snprintf(what, sizeof(what), "random seed %llu", (unsigned long long)seed);
		incremental += compare_units(b, bounds, units, what);
	}
	/* 133 with libbpf 1.1: the others meet an enum declaration or a struct
	 * with two equivalent candidates, as the generator makes them */
	CHECK(incremental >= 50, "random: only %u of 400 unit by unit to the end", incremental);
}

/*
 * An enum declaration that a second unit's enums take over and a third
 * unit's takes over again. All at once, unit 2's struct walk sees [1] as
 * [6], so s{A, B} is not s{e, e}; unit by unit it saw [1] as [4] (B), and
 * the walk of (B, [1]) short-cuts: one struct fewer. Found by a review; the
 * merge must give up there.
 */
static void test_enum_taken_over_again(void)
{
	struct btf *b = btf__new_empty();
	uint32_t bounds[3];
	int d, a, z;

	d = btf__add_enum(b, "e", 4);		/* [1] a declaration */
	btf__add_struct(b, "s", 8);		/* [2] */
	btf__add_field(b, "a", d, 0, 0);
	btf__add_field(b, "b", d, 32, 0);
	bounds[0] = btf__type_cnt(b) - 1;
	a = btf__add_enum(b, "e", 4);		/* [3] */
	btf__add_enum_value(b, "A", 0);
	z = btf__add_enum(b, "e", 4);		/* [4] */
	btf__add_enum_value(b, "B", 1);
	btf__add_struct(b, "s", 8);		/* [5] */
	btf__add_field(b, "a", a, 0, 0);
	btf__add_field(b, "b", z, 32, 0);
	bounds[1] = btf__type_cnt(b) - 1;
	btf__add_enum(b, "e", 4);		/* [6] */
	btf__add_enum_value(b, "C", 2);
	bounds[2] = btf__type_cnt(b) - 1;
	CHECK(!compare_units(b, bounds, 3, "enum taken over again") &&
	      last_stats.incr_abandoned && strstr(last_stats.incr_abandoned, "again"),
	      "enum taken over again: unit by unit did not give up (%s)",
	      last_stats.incr_abandoned ? last_stats.incr_abandoned : "to the end");
}

/*
 * Small random units of enums (declarations, ENUM64 ones, variants), FWDs,
 * pointers (some to the next types), arrays, typedefs, and structs and
 * unions whose members are often enums, referring across units: unit by
 * unit against all at once and libbpf. (The review's generator: with the
 * takeover check removed, seeds 6052, 7892 and 15952 differ.) A case our
 * dedup refuses (a loop of reference types) is left out.
 */
static void test_random_enums(void)
{
	static const char *const sn[] = { "s", "t" }, *const en[] = { "e", "f" },
			  *const vn[] = { "A", "B", "C" };
	unsigned incremental = 0, refused = 0;

	for (unsigned it = 0; it < 20000; it++) {
		struct rng r = { 0x9e3779b97f4a7c15ull ^ ((uint64_t)it * 0x2545F4914F6CDD1Dull + 1) };
		struct btf *b = btf__new_empty();
		struct d2b_error err = { 0 };
		unsigned nu = 2 + rnd(&r, 5), nen = 0;
		uint32_t bounds[8], len;
		int ens[64];
		void *out;
		char what[40];

		for (int k = 0; k < 4; k++)
			rnd(&r, 2);
		btf__add_int(b, "int", 4, BTF_INT_SIGNED);
		for (unsigned u = 0; u < nu; u++) {
			unsigned nt = 1 + rnd(&r, 10);

			for (unsigned k = 0; k < nt; k++) {
				int cnt = (int)btf__type_cnt(b);
				int pick = 1 + (int)rnd(&r, (uint32_t)(cnt - 1));

				switch (rnd(&r, 10)) {
				case 0:
				case 1: {
					int v = rnd(&r, 3) == 0;
					const char *nm = en[rnd(&r, 2)];

					if (nen < 64)
						ens[nen++] = cnt;
					if (rnd(&r, 3) == 0) {	/* a declaration */
						if (rnd(&r, 4) == 0)
							btf__add_enum64(b, nm, 8, false);
						else
							btf__add_enum(b, nm, 4);
					} else {
						btf__add_enum(b, nm, 4);
						btf__add_enum_value(b, vn[rnd(&r, 3)], v);
					}
					break;
				}
				case 2:
					btf__add_fwd(b, sn[rnd(&r, 2)],
						     rnd(&r, 4) ? BTF_FWD_STRUCT : BTF_FWD_UNION);
					break;
				case 3:
					btf__add_ptr(b, rnd(&r, 4) == 0 ? cnt + 1 + (int)rnd(&r, 2) : pick);
					break;
				case 4:
					btf__add_array(b, 1, pick, 2);
					break;
				case 5:
					btf__add_typedef(b, "td", pick);
					break;
				default: {
					unsigned nm = 1 + rnd(&r, 3);
					bool is_union = rnd(&r, 5) == 0;

					if (is_union)
						btf__add_union(b, sn[rnd(&r, 2)], 4 * nm);
					else
						btf__add_struct(b, sn[rnd(&r, 2)], 4 * nm);
					for (unsigned m = 0; m < nm; m++) {
						char mn[16];
						int t = nen && rnd(&r, 2) ? ens[rnd(&r, nen)]
									  : 1 + (int)rnd(&r, (uint32_t)(cnt - 1));

						snprintf(mn, sizeof(mn), "m%u", m);
						btf__add_field(b, mn, t, is_union ? 0 : 32 * m, 0);
					}
					break;
				}
				}
			}
			bounds[u] = btf__type_cnt(b) - 1;
		}
		/* what the last pointers point at */
		btf__add_int(b, "int", 4, BTF_INT_SIGNED);
		btf__add_int(b, "int", 4, BTF_INT_SIGNED);
		bounds[nu - 1] = btf__type_cnt(b) - 1;
		if (our_dedup(b, &out, &len, &err)) {
			refused++;
			btf__free(b);
			continue;
		}
		free(out);
		snprintf(what, sizeof(what), "random enums %u", it);
		incremental += compare_units(b, bounds, nu, what);
	}
	CHECK(incremental >= 2000 && refused < 10000,
	      "random enums: %u unit by unit to the end, %u refused", incremental, refused);
}

/* Split BTF: a deduplicated random base, then random units on top of it
 * (the same templates, so the split meets its types and FWDs both ways).
 * Every third base is itself split on a smaller one: its types are then in
 * two pieces (the dedup's array of base records, not its offsets). */
static void test_random_split(void)
{
	for (uint64_t seed = 1; seed <= 300; seed++) {
		struct rng r = { .s = seed * 0xd1b54a32d192ed03ull };
		struct struct_tpl tpl[NS];
		struct btf *base0 = NULL, *base, *split;
		uint32_t units = 1 + rnd(&r, 4);
		char what[40];

		random_tpl(&r, tpl);
		if (seed % 3 == 0) {
			base0 = btf__new_empty();
			add_unit(base0, &r, tpl, false);
			if (btf__dedup(base0, NULL)) {
				CHECK(0, "split seed %llu: base0 does not dedup",
				      (unsigned long long)seed);
				btf__free(base0);
				continue;
			}
			base = btf__new_empty_split(base0);
		} else {
			base = btf__new_empty();
		}
		for (uint32_t u = 0; u < units; u++)
			add_unit(base, &r, tpl, rnd(&r, 4) == 0);
		if (btf__dedup(base, NULL)) {
			CHECK(0, "split seed %llu: the base does not dedup", (unsigned long long)seed);
			btf__free(base);
			btf__free(base0);
			continue;
		}
		split = btf__new_empty_split(base);
		units = 1 + rnd(&r, 4);
		for (uint32_t u = 0; u < units; u++)
			add_unit(split, &r, tpl, rnd(&r, 3) == 0);
		snprintf(what, sizeof(what), "split seed %llu", (unsigned long long)seed);
		compare(split, what);
		btf__free(base);
		btf__free(base0);
	}
}

/* A base that only declares struct S (FWD) and one that defines it; the
 * split defines S and points at it: libbpf keeps the base FWD, maps the
 * split's FWDs of the base's structs to them, never changes a base type. */
static void test_split_fwds(void)
{
	struct btf *base = btf__new_empty(), *split;
	int bi, bf, bt, bp, si, sf, s, p, q;

	bi = btf__add_int(base, "int", 4, BTF_INT_SIGNED);
	bf = btf__add_fwd(base, "S", BTF_FWD_STRUCT);
	bp = btf__add_ptr(base, bf);
	bt = btf__add_struct(base, "T", 16);
	btf__add_field(base, "s", bp, 0, 0);
	btf__add_field(base, "x", bi, 64, 0);
	split = btf__new_empty_split(base);
	si = btf__add_int(split, "int", 4, BTF_INT_SIGNED);
	s = btf__add_struct(split, "S", 4);
	btf__add_field(split, "v", si, 0, 0);
	p = btf__add_ptr(split, s);
	btf__add_struct(split, "T", 16);	/* T with S defined: base T has a FWD */
	btf__add_field(split, "s", p, 0, 0);
	btf__add_field(split, "x", si, 64, 0);
	sf = btf__add_fwd(split, "T", BTF_FWD_STRUCT);
	q = btf__add_ptr(split, sf);
	btf__add_struct(split, "U", 8);
	btf__add_field(split, "t", q, 0, 0);
	CHECK(bt > 0 && q > 0, "building the case failed");
	compare(split, "split fwds");
	btf__free(base);
}

/* ---- bad input ---- */

static void test_bad_input(void)
{
	struct d2b_error err = { 0 };
	/* [1] PTR -> [2], [2] PTR -> [1]: a loop without a struct */
	uint32_t loop[] = { 0, BTF_KIND_PTR << 24, 2, 0, BTF_KIND_PTR << 24, 1 };
	/* [1] PTR -> 7: past the last type */
	uint32_t past[] = { 0, BTF_KIND_PTR << 24, 7 };
	/* [1] of kind 31 */
	uint32_t unknown[] = { 0, 31u << 24, 0 };
	/* [1] a STRUCT of 2 members cut after 1 */
	uint32_t cut[] = { 0, (BTF_KIND_STRUCT << 24) | 2, 8, 0, 0, 0 };
	struct btf_dedup_types t;

	t = (struct btf_dedup_types){ .words = loop, .len = 6, .nr_types = 2 };
	CHECK(btf_dedup(&t, &err) == -1 && strstr(err.msg, "loop"), "loop: %s", err.msg);
	d2b_error_clear(&err);
	t = (struct btf_dedup_types){ .words = past, .len = 3, .nr_types = 1 };
	CHECK(btf_dedup(&t, &err) == -1 && strstr(err.msg, "past the last"), "past: %s", err.msg);
	d2b_error_clear(&err);
	t = (struct btf_dedup_types){ .words = unknown, .len = 3, .nr_types = 1 };
	CHECK(btf_dedup(&t, &err) == -1 && strstr(err.msg, "malformed"), "unknown: %s", err.msg);
	d2b_error_clear(&err);
	t = (struct btf_dedup_types){ .words = cut, .len = 6, .nr_types = 1 };
	CHECK(btf_dedup(&t, &err) == -1 && strstr(err.msg, "malformed"), "cut: %s", err.msg);
	d2b_error_clear(&err);
	/* two types given at one record by the offsets: refused, not moved over */
	uint32_t same[] = { 0, BTF_KIND_PTR << 24, 0 }, offs[] = { 0, 0 };

	t = (struct btf_dedup_types){ .words = same, .len = 3, .nr_types = 2, .off = offs };
	CHECK(btf_dedup(&t, &err) == -1, "aliased records accepted");
	d2b_error_clear(&err);
	/* more types than the words could hold: refused before any allocation */
	t = (struct btf_dedup_types){ .words = same, .len = 3, .nr_types = 0x7ffffff0 };
	CHECK(btf_dedup(&t, &err) == -1 && strstr(err.msg, "types in"), "huge count: %s", err.msg);
}

/* A long chain of pointers: libbpf's recursion handles 20,000 levels;
 * ours has no recursion, so a million are fine too. */
static struct btf *chain(int depth)
{
	struct btf *b = btf__new_empty();
	int i = btf__add_int(b, "int", 4, BTF_INT_SIGNED);

	for (int u = 0; u < 2; u++) {
		int p = btf__add_fwd(b, "deep", BTF_FWD_STRUCT), s;

		for (int k = 0; k < depth; k++)
			p = btf__add_ptr(b, p);
		s = btf__add_struct(b, "holder", 8);
		btf__add_field(b, "p", p, 0, 0);
		if (u == 0) {
			s = btf__add_struct(b, "deep", 4);
			btf__add_field(b, "x", i, 0, 0);
		}
		CHECK(s > 0, "building the chain failed");
	}
	return b;
}

static void test_deep_chain(void)
{
	struct d2b_error err = { 0 };
	struct btf *b = chain(1000000);
	uint32_t len;
	void *ours;

	compare(chain(20000), "deep chain");
	/* int, deep, the chain, holder: the second unit maps onto the first */
	CHECK(our_dedup(b, &ours, &len, &err) == 0, "a million pointers: %s", err.msg);
	if (!err.set) {
		const struct btf_header *h = ours;

		CHECK(h->type_len == 16 + 1000000 * 12 + 24 + 24,
		      "a million pointers: %u bytes of types", h->type_len);
		free(ours);
	}
	btf__free(b);
}

int main(void)
{
	if (!libbpf_is_1_1())
		fprintf(stderr, "note: libbpf %d.%d, not 1.1: our output is not compared with its dedup\n",
			libbpf_major_version(), libbpf_minor_version());
	test_fwd_resolution();
	test_standalone_fwds();
	test_enum_fwds();
	test_candidate_order();
	test_candidate_order_units();
	test_enum_taken_over_again();
	test_random_enums();
	test_identical_twins();
	test_nested_twins();
	test_random();
	test_random_split();
	test_split_fwds();
	test_split_candidate_order();
	test_split_refs_into_base();
	test_bad_input();
	test_deep_chain();
	return check_done();
}
