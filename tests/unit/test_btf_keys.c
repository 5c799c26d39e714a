// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of btf/btf_keys.c and the merge's pre-dedup (btf_raw.c): the
 * same type graph gets the same keys whatever its local ids; a difference
 * anywhere reachable changes them; a component without a root chosen by
 * content and definitions get none; the merge drops exact repeats, maps
 * their ids to the first copy, and libbpf's dedup then gives the same
 * bytes as without the pre-dedup.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <linux/btf.h>

#include "check.h"
#include "btf/btf_base.h"
#include "btf/btf_keys.h"
#include "btf/btf_load.h"
#include "btf/btf_merge.h"

static bool key_eq(const struct btf_key *a, const struct btf_key *b)
{
	return a->lo == b->lo && a->hi == b->hi;
}

static bool key_none(const struct btf_key *a)
{
	return !a->lo && !a->hi;
}

/* struct node { T v; struct node *next; }; typedef struct node node_t;
 * with T "int" or "long", in one of two local orders. Ids of int, node,
 * ptr, typedef in IDS[0..3]. */
static void build_list(struct btf_raw *r, const char *vtype, bool reorder, int ids[4])
{
	CHECK(btf_raw_init(r) == 0, "init");
	if (!reorder) {
		ids[0] = btf_raw_add_int(r, vtype, 4, BTF_INT_SIGNED);
		ids[1] = btf_raw_add_struct(r, "node", 16);
		CHECK(btf_raw_add_field(r, "v", 1, 0, 0) == 0, "v");
		CHECK(btf_raw_add_field(r, "next", 3, 64, 0) == 0, "next");
		ids[2] = btf_raw_add_ptr(r, 2);
		ids[3] = btf_raw_add_typedef(r, "node_t", 2);
	} else {
		ids[2] = btf_raw_add_ptr(r, 3);
		ids[3] = btf_raw_add_typedef(r, "node_t", 3);
		ids[1] = btf_raw_add_struct(r, "node", 16);
		CHECK(btf_raw_add_field(r, "v", 4, 0, 0) == 0, "v");
		CHECK(btf_raw_add_field(r, "next", 1, 64, 0) == 0, "next");
		ids[0] = btf_raw_add_int(r, vtype, 4, BTF_INT_SIGNED);
	}
	for (int i = 0; i < 4; i++)
		CHECK(ids[i] > 0, "type %d: %d", i, ids[i]);
}

static void test_keys(void)
{
	struct btf_raw a, b, c;
	int ia[4], ib[4], ic[4];

	build_list(&a, "int", false, ia);
	build_list(&b, "int", true, ib);
	build_list(&c, "long", false, ic);
	CHECK(btf_keys_compute(&a, &a.keys) == 0 && btf_keys_compute(&b, &b.keys) == 0 &&
	      btf_keys_compute(&c, &c.keys) == 0, "compute");
	for (int i = 0; i < 4; i++) {
		CHECK(!key_none(&a.keys[ia[i]]), "a %d keyed", i);
		CHECK(key_eq(&a.keys[ia[i]], &b.keys[ib[i]]), "type %d: same graph, other ids", i);
		CHECK(!key_eq(&a.keys[ia[i]], &c.keys[ic[i]]), "type %d: int vs long reachable", i);
	}
	/* the struct and its pointer are one component: distinct keys */
	CHECK(!key_eq(&a.keys[ia[1]], &a.keys[ia[2]]), "members of a component differ");
	btf_raw_deinit(&a);
	btf_raw_deinit(&b);
	btf_raw_deinit(&c);
}

/* Two structs both named "s", each pointing at the other: every member
 * of the component has a twin, no root by content, no keys; a VAR and
 * what refers to it get none either. */
static void test_unkeyed(void)
{
	struct btf_raw r;
	int i;

	CHECK(btf_raw_init(&r) == 0, "init");
	CHECK(btf_raw_add_struct(&r, "s", 8) == 1, "s1");
	CHECK(btf_raw_add_field(&r, "x", 3, 0, 0) == 0, "x1");
	CHECK(btf_raw_add_struct(&r, "s", 8) == 2, "s2");
	CHECK(btf_raw_add_field(&r, "x", 4, 0, 0) == 0, "x2");
	CHECK(btf_raw_add_ptr(&r, 2) == 3, "p1");
	CHECK(btf_raw_add_ptr(&r, 1) == 4, "p2");
	CHECK(btf_raw_add_int(&r, "int", 4, BTF_INT_SIGNED) == 5, "int");
	CHECK(btf_raw_add_var(&r, "v", BTF_VAR_GLOBAL_ALLOCATED, 5) == 6, "var");
	CHECK(btf_raw_add_decl_tag(&r, "tag", 6, -1) == 7, "tag");
	CHECK(btf_raw_add_ptr(&r, 3) == 8, "ptr to p1");
	CHECK(btf_keys_compute(&r, &r.keys) == 0, "compute");
	for (i = 1; i <= 4; i++)
		CHECK(key_none(&r.keys[i]), "symmetric component member %d has a key", i);
	CHECK(!key_none(&r.keys[5]), "int keyed");
	CHECK(key_none(&r.keys[6]) && key_none(&r.keys[7]), "var and its tag unkeyed");
	CHECK(key_none(&r.keys[8]), "a pointer into an unkeyed component is unkeyed");
	btf_raw_deinit(&r);
}

static struct btf *merge_all(bool prededup, bool indexed, uint64_t *dropped,
			     uint32_t tmaps[3][5])
{
	struct d2b_error err = { 0 };
	struct btf_merge m;
	struct btf *btf;
	const char *vt[3] = { "int", "int", "long" };

	CHECK(btf_merge_init(&m, NULL, &err) == 0, "%s", err.msg);
	m.prededup = prededup;
	for (int f = 0; f < 3; f++) {
		struct btf_raw r;
		int ids[4];

		build_list(&r, vt[f], f == 1, ids);
		if (indexed) {
			CHECK(btf_raw_index(&r) == 0 && r.indexed, "index");
			CHECK(r.type_off[1] == 0 && r.type_off[(uint32_t)ids[1]] > 0 &&
			      r.type_off[r.nr_types + 1] == r.len && r.type_fix[r.nr_types + 1] == r.nr_fix,
			      "index bounds");
		}
		CHECK(btf_keys_compute(&r, &r.keys) == 0, "compute");
		CHECK(btf_merge_add(&m, &r, &err) == 0, "%s", err.msg);
		for (int i = 0; i < 4; i++)
			tmaps[f][i] = m.tmap[ids[i]];
		btf_raw_deinit(&r);
	}
	*dropped = m.nr_dropped;
	btf = btf_merge_finish(&m, &err);
	CHECK(btf != NULL, "finish: %s", err.msg);
	return btf;
}

static void test_merge(void)
{
	uint32_t on[3][5] = { 0 }, off[3][5] = { 0 };
	uint64_t dropped_on, dropped_off;
	struct btf *a = merge_all(true, false, &dropped_on, on);
	struct btf *b = merge_all(false, false, &dropped_off, off);
	uint32_t onx[3][5] = { 0 };
	uint64_t dropped_x;
	struct btf *x = merge_all(true, true, &dropped_x, onx);
	const void *ra, *rb, *rx;
	uint32_t na, nb, nx;

	if (!a || !b || !x)
		goto out;
	/* the merge's indexed walk (btf_raw_index) and its record walk agree */
	rx = btf__raw_data(x, &nx);
	ra = btf__raw_data(a, &na);
	CHECK(dropped_x == dropped_on && rx && ra && nx == na && !memcmp(rx, ra, na) &&
	      !memcmp(onx, on, sizeof(on)), "indexed merge differs (%u vs %u bytes)", nx, na);
	CHECK(dropped_on == 4 && dropped_off == 0, "dropped %llu / %llu",
	      (unsigned long long)dropped_on, (unsigned long long)dropped_off);
	CHECK(btf__type_cnt(a) == 9 && btf__type_cnt(b) == 13, "types %u / %u",
	      btf__type_cnt(a), btf__type_cnt(b));
	for (int i = 0; i < 4; i++) {
		CHECK(on[1][i] == on[0][i], "repeat of type %d maps to the first: %u vs %u", i,
		      on[1][i], on[0][i]);
		CHECK(on[2][i] == 5 + (uint32_t)i, "long's type %d kept as %u", i, on[2][i]);
	}
	/* what the merge kept reads back right */
	CHECK(!strcmp(btf__name_by_offset(a, btf__type_by_id(a, on[0][1])->name_off), "node"),
	      "node name");
	CHECK(btf__type_by_id(a, on[2][2])->type == on[2][1], "long's ptr -> long's node");
	CHECK(btf__dedup(a, NULL) == 0 && btf__dedup(b, NULL) == 0, "dedup");
	ra = btf__raw_data(a, &na);
	rb = btf__raw_data(b, &nb);
	CHECK(ra && rb && na == nb && !memcmp(ra, rb, na), "same bytes after dedup (%u vs %u)",
	      na, nb);
out:
	btf__free(a);
	btf__free(b);
	btf__free(x);
}

/* Adds a fragment of N INTs named PREFIX0.. to M, their keys computed, or
 * for the first WRAPPED of them forced to start at the key table's last
 * slot (the same keys each time). */
static void add_ints(struct btf_merge *m, const char *prefix, int n, int wrapped)
{
	struct d2b_error err = { 0 };
	struct btf_raw r;
	char name[32];

	CHECK(btf_raw_init(&r) == 0, "init");
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%s%d", prefix, i);
		CHECK(btf_raw_add_int(&r, name, 4, 0) == i + 1, "int %d", i);
	}
	CHECK(btf_keys_compute(&r, &r.keys) == 0, "compute");
	for (uint32_t id = 1; id <= (uint32_t)wrapped; id++) {
		r.keys[id].lo = 0xffffffff00000000ull | id;
		r.keys[id].hi = id;
	}
	CHECK(btf_merge_add(m, &r, &err) == 0, "%s", err.msg);
	btf_raw_deinit(&r);
}

/* The 8 wrapped keys (add_ints) in M's table: in its last slot and from
 * slot 0 on, each found by the workers' view. */
static void check_wrapped(const struct btf_merge *m, const char *when)
{
	struct btf_key k;

	CHECK(m->kslots != NULL, "%s: no key table", when);
	if (!m->kslots)
		return;
	CHECK(btf_merge_key_home(0xffffffff00000001ull, m->kcap) == m->kcap - 1,
	      "%s: home %zu of %zu slots", when, btf_merge_key_home(0xffffffff00000001ull, m->kcap),
	      m->kcap);
	{
		/* the last slot and the first 7 hold them (in the order they
		 * went in: a rehash takes the old table's slots from 0) */
		unsigned seen = 1u << m->kslots[m->kcap - 1].id;

		for (size_t j = 0; j < 7; j++)
			seen |= 1u << (m->kslots[j].id & 31);
		CHECK(seen == 0x1fe, "%s: ids %#x in the last slot and the first 7", when, seen);
	}
	for (uint32_t id = 1; id <= 8; id++) {
		k.lo = 0xffffffff00000000ull | id;
		k.hi = id;
		CHECK(btf_merge_find_key(m, &k) == id, "%s: find_key %u: %u", when, id,
		      btf_merge_find_key(m, &k));
	}
}

/* Keys whose probes start at the key table's last slot wrap to its first
 * ones and are found there: in the first table (a power of two), and
 * after it grew by half (6,144 slots: not one) and rehashed them; a
 * repeat of them is dropped. The table's first slot for a key: its top 32
 * bits scaled to the size, from 0 to the last slot. */
static void test_key_wrap(void)
{
	struct d2b_error err = { 0 };
	const size_t caps[] = { 1, 98304, 142851, (size_t)1 << 20,
				sizeof(size_t) > 4 ? (size_t)((uint64_t)1 << 32) : (size_t)1 << 31 };
	struct btf_merge m;
	struct btf_key k;
	struct btf *btf;

	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++)
		CHECK(btf_merge_key_home(0, caps[i]) == 0 &&
		      btf_merge_key_home(UINT64_MAX, caps[i]) == caps[i] - 1 &&
		      btf_merge_key_home((uint64_t)1 << 63, caps[i]) == caps[i] / 2,
		      "home in %zu slots: %zu %zu %zu", caps[i], btf_merge_key_home(0, caps[i]),
		      btf_merge_key_home(UINT64_MAX, caps[i]),
		      btf_merge_key_home((uint64_t)1 << 63, caps[i]));

	CHECK(btf_merge_init(&m, NULL, &err) == 0, "%s", err.msg);
	m.prededup = true;
	add_ints(&m, "w", 8, 8);
	CHECK(m.kcap == 4096, "first table: %zu slots", m.kcap);
	check_wrapped(&m, "first table");
	/* 3,488 keys pass 0.85 of 4,096: grown by half, once */
	add_ints(&m, "x", 3480, 0);
	CHECK(m.kcap == 6144 && m.kview && m.kview->older, "grown to %zu slots", m.kcap);
	check_wrapped(&m, "grown");
	add_ints(&m, "w", 8, 8);
	CHECK(m.nr_dropped == 8, "dropped %llu", (unsigned long long)m.nr_dropped);
	{
		/* the key table dropped: a fragment with keys is refused, the
		 * merge still finishes */
		struct btf_raw r;

		btf_merge_drop_keys(&m);
		CHECK(!m.kview && !m.kslots, "key table dropped");
		k.lo = 0xffffffff00000001ull;
		k.hi = 1;
		CHECK(btf_merge_find_key(&m, &k) == 0, "no table: no key found");
		CHECK(btf_raw_init(&r) == 0 && btf_raw_add_int(&r, "late", 4, 0) == 1, "late int");
		CHECK(btf_keys_compute(&r, &r.keys) == 0, "compute");
		CHECK(btf_merge_add(&m, &r, &err) == -1 && strstr(err.msg, "key table was dropped"),
		      "a fragment with keys after the drop: %s", err.msg);
		btf_raw_deinit(&r);
		err.set = false;
	}
	btf = btf_merge_finish(&m, &err);
	CHECK(btf && btf__type_cnt(btf) == 3489, "finish: %s", err.msg);
	btf__free(btf);
}

/* Fragment F of a family whose structs the dedup merges across units
 * (the keys keep them apart): a list node in full, or only declared, or
 * with one more field, and a holder pointing at it. */
static void add_family(struct btf_merge *m, int f)
{
	struct d2b_error err = { 0 };
	struct btf_raw r;
	int kind = f % 3;

	CHECK(btf_raw_init(&r) == 0, "init");
	CHECK(btf_raw_add_int(&r, "int", 4, 1) == 1, "int");
	if (kind == 1) {
		CHECK(btf_raw_add_fwd(&r, "node", 0) == 2, "fwd");
	} else {
		CHECK(btf_raw_add_struct(&r, "node", kind ? 12 : 16) == 2, "node");
		CHECK(btf_raw_add_field(&r, "v", 1, 0, 0) == 0, "v");
		CHECK(btf_raw_add_field(&r, "next", 3, 64, 0) == 0, "next");
		if (kind == 2)
			CHECK(btf_raw_add_field(&r, "w", 1, 32, 0) == 0, "w");
	}
	CHECK(btf_raw_add_ptr(&r, 2) == 3, "ptr");
	CHECK(btf_raw_add_struct(&r, "holder", 8) == 4, "holder");
	CHECK(btf_raw_add_field(&r, "n", 3, 0, 0) == 0, "n");
	CHECK(btf_keys_compute(&r, &r.keys) == 0, "compute");
	CHECK(btf_merge_add(m, &r, &err) == 0, "%s", err.msg);
	btf_raw_deinit(&r);
}

/* The family's 9 fragments merged and deduplicated; FOLLOW: 0 all at once
 * after the merge, else with the follower, its turns after each fragment
 * waiting for FOLLOW types. The result's raw bytes in *RAW (malloc'd). */
static size_t merge_family(uint32_t follow, void **raw, uint32_t *turns)
{
	struct d2b_error err = { 0 };
	struct btf_merge m;
	struct btf *btf;
	const void *data;
	uint32_t n = 0;

	*raw = NULL;
	*turns = 0;
	CHECK(btf_merge_init(&m, NULL, &err) == 0, "%s", err.msg);
	m.prededup = true;
	m.global_ids = true;
	if (follow) {
		CHECK(btf_merge_dedup_early(&m) == 0 && m.dedup_incr, "dedup early");
		m.follow_batch = follow;
	}
	for (int f = 0; f < 9; f++) {
		add_family(&m, f);
		btf_merge_follow(&m);
	}
	*turns = m.follow_turns;
	btf = btf_merge_finish_dedup(&m, NULL, &err);
	CHECK(btf != NULL, "finish: %s", err.msg);
	data = btf ? btf__raw_data(btf, &n) : NULL;
	if (data && (*raw = malloc(n)))
		memcpy(*raw, data, n);
	btf__free(btf);
	return n;
}

/* The follower's turns wait for a batch of types (FOLLOW_BATCH, here
 * lowered): a turn after each fragment with new types, after a few, or
 * none before the end (the join) give the bytes of the dedup all at once. */
static void test_follow_batches(void)
{
	void *all = NULL, *each = NULL, *some = NULL, *end = NULL;
	uint32_t t_all, t_each, t_some, t_end;
	size_t n_all = merge_family(0, &all, &t_all);
	size_t n_each = merge_family(1, &each, &t_each);
	size_t n_some = merge_family(9, &some, &t_some);
	size_t n_end = merge_family(1u << 20, &end, &t_end);

	/* fragments 3 to 8 repeat 0 to 2: the keys drop their types, no turn
	 * for them; 4, 3 and 3 new types pass a batch of 9 at the third */
	CHECK(t_all == 0 && t_each == 3 && t_some == 1 && t_end == 0, "turns: %u %u %u %u",
	      t_all, t_each, t_some, t_end);
	CHECK(all && each && some && end && n_all && n_each == n_all && n_some == n_all &&
	      n_end == n_all && !memcmp(all, each, n_all) && !memcmp(all, some, n_all) &&
	      !memcmp(all, end, n_all), "bytes differ: %zu %zu %zu %zu", n_all, n_each,
	      n_some, n_end);
	free(all);
	free(each);
	free(some);
	free(end);
}

/* The family's fragments merged on a base that has some of their types,
 * deduplicated by us: with libbpf's parse of the base, the result
 * libbpf's (btf_merge_finish_dedup()); on a view of the base's bytes that
 * libbpf never parsed, the result's bytes (btf_merge_finish_dedup_bytes(),
 * what `pahole -J --btf_base` writes). The same bytes, the same types; the
 * view's merge refuses the paths through libbpf. */
static void test_merge_on_view(void)
{
	struct d2b_error err = { 0 };
	struct btf *base = btf__new_empty(), *split = NULL;
	struct btf_handle *h = NULL;
	struct btf_base_view view = { 0 };
	struct btf_merge m;
	const void *raw = NULL, *want = NULL;
	void *got = NULL;
	uint32_t raw_size = 0, want_size = 0, nr = 0;
	size_t got_size = 0;

	/* the base: int, struct node { int v; struct node *next; }, a
	 * pointer to it (family 0's own) */
	CHECK(base && btf__add_int(base, "int", 4, BTF_INT_SIGNED) == 1 &&
	      btf__add_struct(base, "node", 16) == 2 && !btf__add_field(base, "v", 1, 0, 0) &&
	      !btf__add_field(base, "next", 3, 64, 0) && btf__add_ptr(base, 2) == 3, "base");
	raw = base ? btf__raw_data(base, &raw_size) : NULL;
	h = raw ? btf_handle_open_memory_unparsed("base.btf", raw, raw_size, &err) : NULL;
	CHECK(h && !btf_handle_btf(h) && btf_handle_base_view(h, &view, &err) == 0,
	      "base view: %s", err.msg);
	if (!h || !raw) {
		btf_handle_close(h);
		btf__free(base);
		return;
	}

	CHECK(btf_merge_init(&m, base, &err) == 0, "%s", err.msg);
	m.prededup = m.global_ids = true;
	for (int f = 0; f < 9; f++)
		add_family(&m, f);
	split = btf_merge_finish_dedup(&m, NULL, &err);
	CHECK(split != NULL, "finish on libbpf's base: %s", err.msg);
	want = split ? btf__raw_data(split, &want_size) : NULL;

	CHECK(btf_merge_init_view(&m, &view, &err) == 0, "%s", err.msg);
	m.prededup = m.global_ids = true;
	for (int f = 0; f < 9; f++)
		add_family(&m, f);
	CHECK(btf_merge_finish_dedup_bytes(&m, NULL, &got, &got_size, &nr, &err) == 0,
	      "finish on the view: %s", err.msg);
	CHECK(want && got && got_size == want_size && !memcmp(got, want, want_size),
	      "the view's bytes differ from libbpf's (%zu against %u bytes)", got_size, want_size);
	CHECK(split && nr == btf__type_cnt(split) - btf__type_cnt(base), "%u own types", nr);
	/* the int, family 0's node and pointer, and family 1's (its FWD
	 * resolved to the base's node) are the base's: family 0's holder and
	 * family 2's node, pointer and holder are left */
	CHECK(nr == 4, "%u types of our own, want 4", nr);
	free(got);

	/* no libbpf base: its paths refuse, in one line */
	CHECK(btf_merge_init_view(&m, &view, &err) == 0, "%s", err.msg);
	m.prededup = m.global_ids = true;
	add_family(&m, 0);
	memset(&err, 0, sizeof(err));
	CHECK(!btf_merge_finish_dedup(&m, NULL, &err) && err.set &&
	      strstr(err.msg, "not parsed by libbpf"), "libbpf's result on a view: '%s'", err.msg);
	CHECK(btf_merge_init_view(&m, &view, &err) == 0, "%s", err.msg);
	add_family(&m, 0);
	memset(&err, 0, sizeof(err));
	CHECK(!btf_merge_finish(&m, &err) && err.set && strstr(err.msg, "not parsed by libbpf"),
	      "a flush on a view: '%s'", err.msg);

	btf__free(split);
	btf_base_view_free(&view);
	btf_handle_close(h);
	btf__free(base);
}

/*
 * The base's strings are looked up at the end (resolve_base_strs()): a
 * base whose section has "dup" twice (crafted: libbpf's writer never
 * repeats a string) gives the first one's offset, as the index of the
 * base's strings did; a name the base lacks follows the base's section,
 * in the order interned; member, enumerator and parameter names follow
 * their records.
 */
static void test_base_strings_at_end(void)
{
	/* header, INT "int" (16 bytes), then the strings */
	static const char strs[] = "\0int\0dup\0dup\0x";
	uint8_t raw[24 + 16 + sizeof(strs)];
	struct btf_header hdr = {
		.magic = BTF_MAGIC, .version = BTF_VERSION, .hdr_len = 24,
		.type_off = 0, .type_len = 16, .str_off = 16, .str_len = sizeof(strs),
	};
	uint32_t rec[4] = { 1, BTF_KIND_INT << 24, 4, BTF_INT_SIGNED << 24 | 32 };
	struct d2b_error err = { 0 };
	struct btf_base_view view;
	struct btf_handle *h;
	struct btf_merge m;
	struct btf_raw r;
	void *out = NULL;
	size_t size = 0;
	uint32_t nr = 0;

	memcpy(raw, &hdr, 24);
	memcpy(raw + 24, rec, 16);
	memcpy(raw + 40, strs, sizeof(strs));
	h = btf_handle_open_memory_unparsed("dup.btf", raw, sizeof(raw), &err);
	CHECK(h && btf_handle_base_view(h, &view, &err) == 0, "dup base: %s", err.msg);
	if (!h)
		return;
	CHECK(btf_merge_init_view(&m, &view, &err) == 0, "%s", err.msg);
	m.prededup = m.global_ids = true;
	CHECK(btf_raw_init(&r) == 0, "init");
	/* struct dup { int x; int y; }; enum e { x, z }; int (*)(int x, int w) */
	CHECK(btf_raw_add_int(&r, "int", 4, 1) == 1 && btf_raw_add_struct(&r, "dup", 8) == 2 &&
	      !btf_raw_add_field(&r, "x", 1, 0, 0) && !btf_raw_add_field(&r, "y", 1, 32, 0) &&
	      btf_raw_add_enum(&r, "e", 4) == 3 && !btf_raw_add_enum_value(&r, "x", 0) &&
	      !btf_raw_add_enum_value(&r, "z", 1) && btf_raw_add_func_proto(&r, 1) == 4 &&
	      !btf_raw_add_func_param(&r, "x", 1) && !btf_raw_add_func_param(&r, "w", 1),
	      "the fragment");
	CHECK(btf_keys_compute(&r, &r.keys) == 0, "keys");
	CHECK(btf_merge_add(&m, &r, &err) == 0, "%s", err.msg);
	btf_raw_deinit(&r);
	/* then straight into the merge, as the functions go: enum64 e64 {
	 * x, v } in a second fragment, void dup(int x, int u) */
	CHECK(btf_raw_init(&r) == 0, "init");
	CHECK(btf_raw_add_enum64(&r, "e64", 8, false) == 1 && !btf_raw_add_enum64_value(&r, "x", 1) &&
	      !btf_raw_add_enum64_value(&r, "v", 2), "the second fragment");
	CHECK(btf_keys_compute(&r, &r.keys) == 0, "keys");
	CHECK(btf_merge_add(&m, &r, &err) == 0, "%s", err.msg);
	btf_raw_deinit(&r);
	CHECK(btf_merge_direct_ok(&m) && btf_merge_add_func_proto(&m, 0) == 7 &&
	      !btf_merge_add_func_param(&m, "x", 2) && !btf_merge_add_func_param(&m, "u", 2) &&
	      btf_merge_add_func(&m, "dup", 0, 7) == 8, "the direct adds");
	CHECK(btf_merge_finish_dedup_bytes(&m, NULL, &out, &size, &nr, &err) == 0, "%s", err.msg);
	if (out && size >= 24) {
		const struct btf_header *oh = out;
		const uint32_t *w = (const uint32_t *)((const char *)out + 24 + oh->type_off);
		const char *os = (const char *)out + 24 + oh->str_off;
		/* base: "\0int\0dup\0dup\0x\0" = 16 bytes; ours: y, e, z, w */
		const uint32_t base_len = sizeof(strs);

		/* the int is the base's: struct (2 members), enum (2), proto (2),
		 * enum64 (2), proto (2), func */
		CHECK(nr == 6 && oh->type_len == (3 + 6) * 4 + (3 + 4) * 4 + (3 + 4) * 4 +
						     (3 + 6) * 4 + (3 + 4) * 4 + 3 * 4,
		      "%u types, %u bytes of records", nr, oh->type_len);
		CHECK(w[0] == 5 && w[2] == 8, "struct dup: name at %u (want 5: the first \"dup\")",
		      w[0]);
		CHECK(w[3] == 13 && w[6] == base_len, "members: x at %u (the base's 13), y at %u (want %u)",
		      w[3], w[6], base_len);
		CHECK(w[9] == base_len + 2 && w[12] == 13 && w[14] == base_len + 4,
		      "enum e at %u, x at %u, z at %u", w[9], w[12], w[14]);
		CHECK(w[16] == 0 && w[19] == 13 && w[21] == base_len + 6,
		      "proto: x at %u, w at %u", w[19], w[21]);
		/* enum64 e64: x (the base's), v; proto: x, u; func dup (the
		 * base's first) */
		CHECK(w[23] == base_len + 8 && w[26] == 13 && w[29] == base_len + 12,
		      "enum64 e64 at %u, x at %u, v at %u", w[23], w[26], w[29]);
		CHECK(w[35] == 13 && w[37] == base_len + 14 && w[39] == 5,
		      "direct: x at %u, u at %u, dup at %u", w[35], w[37], w[39]);
		CHECK(oh->str_len == 16 && !memcmp(os, "y\0e\0z\0w\0e64\0v\0u\0", 16),
		      "our strings: %u bytes", oh->str_len);
	}
	free(out);
	btf_base_view_free(&view);
	btf_handle_close(h);
}

/* Merges 3 fragments of 20,000 distinct INTs each, the key table sized
 * for EXPECT types first (0: no hint); its size at the end in *SLOTS. */
static struct btf *merge_many(size_t expect, size_t *slots)
{
	struct d2b_error err = { 0 };
	struct btf_merge m;
	struct btf *btf;
	char name[32];

	CHECK(btf_merge_init(&m, NULL, &err) == 0, "%s", err.msg);
	m.prededup = true;
	CHECK(btf_merge_expect_types(&m, expect) == 0, "expect");
	for (int f = 0; f < 3; f++) {
		struct btf_raw r;

		CHECK(btf_raw_init(&r) == 0, "init");
		for (int i = 0; i < 20000; i++) {
			/* the last fragment repeats the first's second half,
			 * then has 10,000 new ones */
			snprintf(name, sizeof(name), "i%d", f < 2 ? f * 20000 + i :
				 i < 10000 ? 10000 + i : 30000 + i);
			CHECK(btf_raw_add_int(&r, name, 4, 0) == i + 1, "int %d", i);
		}
		CHECK(btf_keys_compute(&r, &r.keys) == 0, "compute");
		CHECK(btf_merge_add(&m, &r, &err) == 0, "%s", err.msg);
		btf_raw_deinit(&r);
	}
	CHECK(m.nr_dropped == 10000, "dropped %llu", (unsigned long long)m.nr_dropped);
	{
		/* the workers' view, after the table grew (or not): every
		 * key merged is found with its final id */
		struct btf_raw r;

		CHECK(btf_raw_init(&r) == 0, "init");
		CHECK(btf_raw_add_int(&r, "i30500", 4, 0) == 1 && btf_raw_add_int(&r, "i3", 4, 0) == 2 &&
		      btf_raw_add_int(&r, "never", 4, 0) == 3, "ints");
		CHECK(btf_keys_compute(&r, &r.keys) == 0, "compute");
		CHECK(btf_merge_find_key(&m, &r.keys[1]) == 40001 + 500 - 10000 &&
		      btf_merge_find_key(&m, &r.keys[2]) == 4 && btf_merge_find_key(&m, &r.keys[3]) == 0,
		      "find_key: %u %u %u", btf_merge_find_key(&m, &r.keys[1]),
		      btf_merge_find_key(&m, &r.keys[2]), btf_merge_find_key(&m, &r.keys[3]));
		/* the tables it outgrew go once no worker reads them; the
		 * current one still finds everything */
		btf_merge_release_old_tables(&m);
		CHECK(m.kview && !m.kview->older && btf_merge_find_key(&m, &r.keys[2]) == 4,
		      "after releasing the old tables");
		btf_raw_deinit(&r);
	}
	*slots = m.kcap;
	btf = btf_merge_finish(&m, &err);
	CHECK(btf != NULL, "finish: %s", err.msg);
	return btf;
}

/* A hint sizes the key table at once; a low one lets it grow; the same
 * types and bytes either way. */
static void test_expect(void)
{
	size_t s_none = 0, s_low = 0, s_high = 0;
	struct btf *none = merge_many(0, &s_none);
	struct btf *low = merge_many(1000, &s_low);
	struct btf *high = merge_many(200000, &s_high);
	const void *a, *b, *c;
	uint32_t na = 0, nb = 0, nc = 0;

	/* 50,000 kept: each fragment of 20,000 more than a load of 0.85
	 * allows, so each growth is to a load of 0.7 for all (4,096 -> 28,570
	 * -> 57,140 -> 85,710, where half as big again would be less); a hint
	 * of 1,000 asks for less than the first table; one of 200,000 for a
	 * load of 0.7 (285,710 slots), filled up to the 6 MiB its mapping
	 * takes anyway */
	CHECK(s_none == 85710 && s_low == 85710, "grown to %zu / %zu slots", s_none, s_low);
	CHECK(s_high == 393216, "a hint of 200,000 types: %zu slots", s_high);
	if (!none || !low || !high)
		goto out;
	a = btf__raw_data(none, &na);
	b = btf__raw_data(low, &nb);
	c = btf__raw_data(high, &nc);
	CHECK(btf__type_cnt(none) == 50001 && a && b && c && na == nb && na == nc &&
	      !memcmp(a, b, na) && !memcmp(a, c, na), "hinted merges differ");
out:
	btf__free(none);
	btf__free(low);
	btf__free(high);
}

/* One record of each keyed kind, then the same records again with one
 * field changed (VARIANT, 0 = none): type 1 is an int, the record under
 * test is the last one; its key must change with every field. */
static int build_variant(struct btf_raw *r, int variant)
{
	int v = variant;

	CHECK(btf_raw_init(r) == 0, "init");
	CHECK(btf_raw_add_int(r, "int", 4, BTF_INT_SIGNED) == 1, "int");
	CHECK(btf_raw_add_int(r, "long", 8, BTF_INT_SIGNED) == 2, "long");
	switch (v) {
	case 0: case 1: case 2: case 3: case 4: case 5:
		/* struct s { int a; int b:3; } */
		CHECK(btf_raw_add_struct(r, v == 1 ? "t" : "s", v == 2 ? 16 : 8) == 3, "s");
		CHECK(btf_raw_add_field(r, v == 3 ? "c" : "a", 1, 0, 0) == 0, "a");
		CHECK(btf_raw_add_field(r, "b", v == 4 ? 2 : 1, v == 5 ? 40 : 32, 3) == 0, "b");
		return 3;
	case 6: case 7: case 8:
		CHECK(btf_raw_add_enum(r, "e", 4) == 3, "e");
		CHECK(btf_raw_add_enum_value(r, v == 7 ? "Y" : "X", v == 8 ? 2 : 1) == 0, "X");
		return 3;
	case 9: case 10: case 11:
		CHECK(btf_raw_add_array(r, v == 10 ? 2 : 1, 1, v == 11 ? 5 : 4) == 3, "arr");
		return 3;
	case 12: case 13: case 14:
		CHECK(btf_raw_add_func_proto(r, v == 13 ? 0 : 1) == 3, "proto");
		CHECK(btf_raw_add_func_param(r, v == 14 ? "y" : "x", 1) == 0, "x");
		return 3;
	}
	return 0;
}

static void test_fields(void)
{
	struct btf_raw base[4], r;
	const int first[4] = { 0, 6, 9, 12 };	/* the base variant of each kind */

	for (int i = 0; i < 4; i++) {
		int id = build_variant(&base[i], first[i]);

		CHECK(btf_keys_compute(&base[i], &base[i].keys) == 0 && !key_none(&base[i].keys[id]),
		      "kind %d keyed", i);
	}
	for (int v = 1; v <= 14; v++) {
		int kind = v < 6 ? 0 : v < 9 ? 1 : v < 12 ? 2 : 3, id;

		if (v == first[kind])
			continue;
		id = build_variant(&r, v);
		CHECK(btf_keys_compute(&r, &r.keys) == 0 && !key_none(&r.keys[id]), "variant %d", v);
		CHECK(!key_eq(&r.keys[id], &base[kind].keys[id]), "variant %d: a changed field keeps the key",
		      v);
		btf_raw_deinit(&r);
	}
	/* the same content again: the same key */
	build_variant(&r, 0);
	CHECK(btf_keys_compute(&r, &r.keys) == 0 && key_eq(&r.keys[3], &base[0].keys[3]), "same struct");
	/* a string ref out of range: no keys at all */
	r.words[r.len - 6] = (uint32_t)r.strs.nr + 7;	/* member a's name */
	free(r.keys);
	CHECK(btf_keys_compute(&r, &r.keys) == 0 && key_none(&r.keys[1]) && key_none(&r.keys[3]),
	      "a broken fragment gets no keys");
	btf_raw_deinit(&r);
	for (int i = 0; i < 4; i++)
		btf_raw_deinit(&base[i]);
}

/* int (1), long (2), then the record under test (returned) of one more
 * kind, in VARIANT v (0: the base): every word of it changes the key */
static int build_word_variant(struct btf_raw *r, int kind, int v)
{
	CHECK(btf_raw_init(r) == 0, "init");
	CHECK(btf_raw_add_int(r, "int", 4, BTF_INT_SIGNED) == 1, "int");
	CHECK(btf_raw_add_int(r, "long", 8, BTF_INT_SIGNED) == 2, "long");
	switch (kind) {
	case 0: /* enum64: lo / hi / signed */
		CHECK(btf_raw_add_enum64(r, "e", 8, v == 3) == 3, "e64");
		CHECK(btf_raw_add_enum64_value(r, "A", v == 1 ? 2 : v == 2 ? (1ull << 32) | 1 : 1) == 0, "A");
		return 3;
	case 1: /* int: size / encoding */
		CHECK(btf_raw_add_int(r, "x", v == 1 ? 8 : 4, v == 2 ? 0 : BTF_INT_SIGNED) == 3, "x");
		return 3;
	case 2: /* fwd struct vs union */
		CHECK(btf_raw_add_fwd(r, "f", v == 1 ? BTF_FWD_UNION : BTF_FWD_STRUCT) == 3, "fwd");
		return 3;
	case 3: /* enum signed (kflag) */
		CHECK(btf_raw_add_enum(r, "e", 4) == 3, "e");
		CHECK(btf_raw_add_enum_value(r, "A", v == 1 ? -1 : 0xffffffffll) == 0, "A");
		return 3;
	case 4: /* decl_tag component_idx / value / target */
		CHECK(btf_raw_add_struct(r, "s", 8) == 3, "s");
		CHECK(btf_raw_add_field(r, "a", 1, 0, 0) == 0, "a");
		CHECK(btf_raw_add_field(r, "b", 1, 32, 0) == 0, "b");
		CHECK(btf_raw_add_decl_tag(r, v == 2 ? "u" : "t", 3, v == 1 ? 1 : 0) == 4, "tag");
		return 4;
	case 5: /* type_tag value */
		CHECK(btf_raw_add_type_tag(r, v == 1 ? "u" : "t", 1) == 3, "tt");
		return 3;
	case 6: /* typedef name, ptr vs const */
		if (v == 2)
			CHECK(btf_raw_add_const(r, 1) == 3, "c");
		else if (v == 3)
			CHECK(btf_raw_add_ptr(r, 1) == 3, "p");
		else
			CHECK(btf_raw_add_typedef(r, v == 1 ? "u" : "t", 1) == 3, "td");
		return 3;
	case 7: /* float size */
		CHECK(btf_raw_add_float(r, "double", v == 1 ? 16 : 8) == 3, "fl");
		return 3;
	case 8: /* bitfield size only */
		CHECK(btf_raw_add_struct(r, "s", 8) == 3, "s");
		CHECK(btf_raw_add_field(r, "a", 1, 0, v == 1 ? 4 : 3) == 0, "a");
		return 3;
	}
	return 0;
}

static void test_more_fields(void)
{
	static const int nv[] = { 4, 3, 2, 2, 3, 2, 4, 2, 2 };

	for (int kind = 0; kind < 9; kind++) {
		struct btf_raw b;
		int id = build_word_variant(&b, kind, 0);

		CHECK(btf_keys_compute(&b, &b.keys) == 0 && !(!b.keys[id].lo && !b.keys[id].hi),
		      "kind %d keyed", kind);
		for (int v = 1; v < nv[kind]; v++) {
			struct btf_raw r;
			int id2 = build_word_variant(&r, kind, v);

			CHECK(btf_keys_compute(&r, &r.keys) == 0, "compute");
			CHECK(id2 == id && (r.keys[id].lo != b.keys[id].lo || r.keys[id].hi != b.keys[id].hi),
			      "kind %d variant %d keeps the key", kind, v);
			btf_raw_deinit(&r);
		}
		/* same again: same key */
		{
			struct btf_raw r;

			build_word_variant(&r, kind, 0);
			CHECK(btf_keys_compute(&r, &r.keys) == 0 && r.keys[id].lo == b.keys[id].lo &&
			      r.keys[id].hi == b.keys[id].hi, "kind %d same content, other key", kind);
			btf_raw_deinit(&r);
		}
		btf_raw_deinit(&b);
	}
	}

/* Without pre-dedup a fragment may hold no placeholder, indexed or not. */
static void test_placeholder_without_prededup(void)
{
	struct d2b_error err = { 0 };
	struct btf_merge m;
	struct btf_raw r0, r;

	CHECK(btf_merge_init(&m, NULL, &err) == 0, "%s", err.msg);
	/* type 1, merged: a placeholder for it would be fine with pre-dedup */
	CHECK(btf_raw_init(&r0) == 0 && btf_raw_add_int(&r0, "z", 4, 0) == 1 &&
	      btf_merge_add(&m, &r0, &err) == 0, "type 1: %s", err.msg);
	btf_raw_deinit(&r0);
	CHECK(btf_raw_init(&r) == 0 && btf_raw_add_int(&r, "a", 4, 0) == 1 &&
	      btf_raw_add_placeholder(&r, 1) == 2 && btf_raw_index(&r) == 0 && r.kept_ids,
	      "a fragment with a placeholder");
	r.keys = calloc(r.nr_types + 2, sizeof(*r.keys));
	CHECK(r.keys != NULL, "keys");
	CHECK(btf_merge_add(&m, &r, &err) < 0 && strstr(err.msg, "not merged"),
	      "a placeholder merged without pre-dedup: %s", err.msg);
	btf_raw_deinit(&r);
	btf_merge_deinit(&m);
}

/* A placeholder (a type a worker found merged already) maps to the final id
 * it carries, without being copied; one that names a type not merged is an
 * error, not a bad record in the output. */
static void test_placeholders(void)
{
	struct d2b_error err = { 0 };
	struct btf_merge m;
	struct btf_raw r1, r2, r3;
	struct btf *btf;
	uint32_t b_id;

	CHECK(btf_merge_init(&m, NULL, &err) == 0, "%s", err.msg);
	m.prededup = true;
	CHECK(btf_raw_init(&r1) == 0 && btf_raw_init(&r2) == 0 && btf_raw_init(&r3) == 0, "init");
	CHECK(btf_raw_add_int(&r1, "a", 4, 0) == 1 && btf_raw_add_int(&r1, "b", 8, 0) == 2, "r1");
	CHECK(btf_keys_compute(&r1, &r1.keys) == 0, "compute");
	CHECK(btf_merge_find_key(&m, &r1.keys[2]) == 0, "nothing merged yet");
	CHECK(btf_merge_add(&m, &r1, &err) == 0, "%s", err.msg);
	b_id = btf_merge_find_key(&m, &r1.keys[2]);
	CHECK(b_id == 2, "b merged as %u", b_id);

	/* r2: "b" as a placeholder, a new int, a pointer to the placeholder */
	CHECK(btf_raw_add_placeholder(&r2, 0) < 0, "a placeholder for no type");
	CHECK(btf_raw_add_placeholder(&r2, b_id) == 1 && btf_raw_add_int(&r2, "c", 2, 0) == 2 &&
	      btf_raw_add_ptr(&r2, 1) == 3, "r2");
	CHECK(btf_raw_index(&r2) == 0, "index");
	CHECK(r2.kept_ids && r2.nr_kept_ids == 2 && r2.kept_ids[0] == 2 && r2.kept_ids[1] == 3,
	      "the types that are not placeholders: %u", r2.nr_kept_ids);
	r2.keys = calloc(r2.nr_types + 2, sizeof(*r2.keys));
	CHECK(r2.keys != NULL, "keys");
	r2.keys[1] = r1.keys[2];	/* the others: none, kept */
	CHECK(btf_merge_add(&m, &r2, &err) == 0, "%s", err.msg);
	CHECK(m.tmap[1] == b_id && m.tmap[2] == 3 && m.tmap[3] == 4 && m.nr_dropped == 1,
	      "placeholder mapped: %u %u %u", m.tmap[1], m.tmap[2], m.tmap[3]);

	/* r3: a placeholder for a type the merge does not have */
	CHECK(btf_raw_add_placeholder(&r3, 99) == 1 && btf_raw_index(&r3) == 0, "r3");
	r3.keys = calloc(r3.nr_types + 2, sizeof(*r3.keys));
	CHECK(r3.keys != NULL, "keys");
	r3.keys[1].lo = 12345;
	r3.keys[1].hi = 678;
	CHECK(btf_merge_add(&m, &r3, &err) < 0 && strstr(err.msg, "not merged"),
	      "a placeholder for type 99 was merged: %s", err.msg);
	/* a placeholder for the id the fragment's first new type would get,
	 * or for the largest id, after one that is fine */
	for (int i = 0; i < 2; i++) {
		uint32_t bad = i ? UINT32_MAX : 5;

		btf_raw_deinit(&r3);
		CHECK(btf_raw_init(&r3) == 0 && btf_raw_add_placeholder(&r3, 1) == 1 &&
		      btf_raw_add_placeholder(&r3, bad) == 2 && btf_raw_add_int(&r3, "d", 1, 0) == 3 &&
		      btf_raw_index(&r3) == 0, "r3 again");
		r3.keys = calloc(r3.nr_types + 2, sizeof(*r3.keys));
		CHECK(r3.keys != NULL, "keys");
		err = (struct d2b_error){ 0 };
		{
			int rc = btf_merge_add(&m, &r3, &err);

			CHECK(rc < 0 && strstr(err.msg, "not merged"),
			      "a placeholder for type %u was merged: %d %s", bad, rc, err.msg);
		}
	}

	/* a broken list of the types that are not placeholders (the
	 * merge's own builder never makes one): an id twice, one out of
	 * range, one left out; each refused, nothing merged */
	for (int i = 0; i < 3; i++) {
		static const char *const what[] = { "twice", "out of range", "left out" };

		btf_raw_deinit(&r3);
		CHECK(btf_raw_init(&r3) == 0 && btf_raw_add_placeholder(&r3, 1) == 1 &&
		      btf_raw_add_int(&r3, "e", 1, 0) == 2 && btf_raw_add_int(&r3, "f", 1, 0) == 3 &&
		      btf_raw_index(&r3) == 0 && r3.nr_kept_ids == 2, "r3: %s", what[i]);
		r3.keys = calloc(r3.nr_types + 2, sizeof(*r3.keys));
		CHECK(r3.keys != NULL, "keys");
		if (i == 0)
			r3.kept_ids[1] = 2;
		else if (i == 1)
			r3.kept_ids[1] = 4;
		else
			r3.nr_kept_ids = 1;
		err = (struct d2b_error){ 0 };
		CHECK(btf_merge_add(&m, &r3, &err) < 0 && (strstr(err.msg, "list") ||
							   strstr(err.msg, "lists")),
		      "a list with an id %s was merged: %s", what[i], err.msg);
	}
	CHECK(m.nr_types == 4, "nothing merged from the broken fragments: %u types", m.nr_types);

	btf = btf_merge_finish(&m, &err);
	CHECK(btf && btf__type_cnt(btf) == 5, "types: %u", btf ? btf__type_cnt(btf) : 0);
	if (btf) {
		const struct btf_type *p = btf__type_by_id(btf, 4);

		CHECK(p && btf_kind(p) == BTF_KIND_PTR && p->type == b_id, "the pointer -> b");
	}
	btf__free(btf);
	btf_raw_deinit(&r1);
	btf_raw_deinit(&r2);
	btf_raw_deinit(&r3);
}

/*
 * One logical graph, written in many local orders: every type gets the
 * same key in each, and types that differ get different keys. The graph
 * is one big component whose smallest own hash is most likely shared
 * (N_PTRS pointers alike but for their target), so that the root is
 * found by the later passes of pick_root() in some orders of hashing:
 *
 *   struct sI { ptr to s(I+1) a; ptr to s(2I) b; }    (I < N_STRUCTS, mod)
 *   twin pair: struct t { int/long y; ptr to t' x; }, t' likewise (all
 *   own hashes alike: only the neighbourhood outside tells them apart)
 */
#define N_STRUCTS 24
enum { L_INT, L_LONG, L_T0, L_T1, L_PT0, L_PT1, L_S0 };
#define N_LOGICAL (L_S0 + 2 * N_STRUCTS)	/* the structs, then their pointers */

static void add_logical(struct btf_raw *r, int l, const uint32_t *id_of)
{
	static char names[N_STRUCTS][16];
	int rc = 0;

	if (l == L_INT)
		rc = btf_raw_add_int(r, "int", 4, BTF_INT_SIGNED);
	else if (l == L_LONG)
		rc = btf_raw_add_int(r, "long", 8, BTF_INT_SIGNED);
	else if (l == L_T0 || l == L_T1) {
		rc = btf_raw_add_struct(r, "t", 16);
		CHECK(btf_raw_add_field(r, "y", id_of[l == L_T0 ? L_INT : L_LONG], 0, 0) == 0, "y");
		CHECK(btf_raw_add_field(r, "x", id_of[l == L_T0 ? L_PT1 : L_PT0], 64, 0) == 0, "x");
	} else if (l == L_PT0 || l == L_PT1)
		rc = btf_raw_add_ptr(r, id_of[l == L_PT0 ? L_T0 : L_T1]);
	else if (l < L_S0 + N_STRUCTS) {
		int i = l - L_S0;

		snprintf(names[i], sizeof(names[i]), "s%d", i);
		rc = btf_raw_add_struct(r, names[i], 16);
		CHECK(btf_raw_add_field(r, "a", id_of[L_S0 + N_STRUCTS + (i + 1) % N_STRUCTS], 0, 0) == 0, "a");
		CHECK(btf_raw_add_field(r, "b", id_of[L_S0 + N_STRUCTS + (2 * i) % N_STRUCTS], 64, 0) == 0, "b");
	} else
		rc = btf_raw_add_ptr(r, id_of[l - N_STRUCTS]);
	CHECK(rc > 0, "logical type %d: %d", l, rc);
}

static void test_orders(void)
{
	struct btf_key first[N_LOGICAL];
	uint32_t order[N_LOGICAL], id_of[N_LOGICAL];
	unsigned seed = 12345;

	for (int round = 0; round < 64; round++) {
		struct btf_raw r;

		for (int i = 0; i < N_LOGICAL; i++)
			order[i] = (uint32_t)i;
		for (int i = N_LOGICAL - 1; round && i > 0; i--) {
			int j;

			seed = seed * 1103515245u + 12345u;
			j = (int)((seed >> 8) % (unsigned)(i + 1));
			uint32_t x = order[i];
			order[i] = order[j];
			order[j] = x;
		}
		for (int i = 0; i < N_LOGICAL; i++)
			id_of[order[i]] = (uint32_t)i + 1;
		CHECK(btf_raw_init(&r) == 0, "init");
		for (int i = 0; i < N_LOGICAL; i++)
			add_logical(&r, (int)order[i], id_of);
		CHECK(btf_keys_compute(&r, &r.keys) == 0, "compute");
		for (int l = 0; l < N_LOGICAL; l++) {
			const struct btf_key *k = &r.keys[id_of[l]];

			CHECK(!key_none(k), "round %d: logical type %d has no key", round, l);
			if (!round)
				first[l] = *k;
			else
				CHECK(key_eq(k, &first[l]), "round %d: logical type %d keyed otherwise",
				      round, l);
		}
		btf_raw_deinit(&r);
	}
	for (int a = 0; a < N_LOGICAL; a++)
		for (int b = a + 1; b < N_LOGICAL; b++)
			CHECK(!key_eq(&first[a], &first[b]), "logical types %d and %d share a key", a, b);
}

int main(void)
{
	test_keys();
	test_fields();
	test_more_fields();
	test_unkeyed();
	test_orders();
	test_merge();
	test_expect();
	test_key_wrap();
	test_follow_batches();
	test_merge_on_view();
	test_base_strings_at_end();
	test_placeholders();
	test_placeholder_without_prededup();
	return check_done();
}
