// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of btf/btf_strtab.c and btf/btf_raw.c: the raw fragment
 * builder and the ordered merge must give, byte for byte, what libbpf's
 * btf__add_* + btf__add_btf + btf__add_str give (the encoder's old path),
 * for every kind, for plain and split BTF; and reject what libbpf rejects.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <bpf/btf.h>

#include "check.h"
#include "btf/btf_merge.h"
#include "btf/btf_strtab.h"
#include "btf/btf_wire.h"

/* ---- strtab ---- */

static long add(struct btf_strtab *t, const char *s, int *added)
{
	size_t len;
	uint64_t h = btf_str_hash(s, &len);

	return btf_strtab_add(t, s, len, h, added);
}

static void test_strtab(void)
{
	struct btf_strtab t;
	char name[32];
	size_t len;
	int added;
	long e;

	CHECK(btf_strtab_init(&t, "\0abc", 5) == 0, "init");
	CHECK(t.len == 5 && t.nr == 0, "prefix not indexed: len %zu nr %zu", t.len, t.nr);
	CHECK(btf_strtab_find(&t, "abc", 3, btf_str_hash("abc", &len), NULL) == -1, "prefix not found");
	e = add(&t, "foo", &added);
	CHECK(e == 0 && added && t.ents[0].off == 5 && t.ents[0].len == 3, "first: %ld", e);
	e = add(&t, "bar", &added);
	CHECK(e == 1 && added && t.ents[1].off == 9, "second: %ld off %u", e, t.ents[1].off);
	e = add(&t, "foo", &added);
	CHECK(e == 0 && !added, "again: %ld", e);
	CHECK(!memcmp(t.data, "\0abc\0foo\0bar\0", 13) && t.len == 13, "data");
	/* a prefix string indexed where it is */
	e = btf_strtab_add_at(&t, 1, 3, btf_str_hash("abc", &len));
	CHECK(e == 2 && t.ents[2].off == 1, "add_at: %ld", e);
	CHECK(btf_strtab_find(&t, "abc", 3, btf_str_hash("abc", &len), NULL) == 2, "found at prefix");
	CHECK(t.len == 13, "add_at appends nothing");
	/* a prefix of a string is another string */
	e = add(&t, "fo", &added);
	CHECK(e == 3 && added, "prefix of foo is new: %ld", e);
	/* many: rehashing keeps everything and the order */
	for (int i = 0; i < 20000; i++) {
		snprintf(name, sizeof(name), "s%d", i);
		e = add(&t, name, &added);
		CHECK(e == 4 + i && added, "%s -> %ld", name, e);
	}
	for (int i = 0; i < 20000; i += 997) {
		snprintf(name, sizeof(name), "s%d", i);
		e = btf_strtab_find(&t, name, strlen(name), btf_str_hash(name, &len), NULL);
		CHECK(e == 4 + i && !strcmp(t.data + t.ents[e].off, name), "%s after growth: %ld", name, e);
	}
	CHECK(add(&t, "foo", &added) == 0 && !added, "foo after growth");
	btf_strtab_deinit(&t);

	/* a base's section indexed where it lies (btf_str_index): a duplicate
	 * keeps the first offset, a string's prefix or extension is not it,
	 * the empty string at 0 is not indexed */
	{
		static const char sec[] = "\0ab\0cd\0ab\0abc\0";
		struct btf_str_index x;
		char big[20000 * 8], *p = big;
		uint64_t seed = 0x1234;

#define FIND(x_, d_, s_) btf_str_index_find((x_), (d_), (s_), strlen(s_), \
					    btf_str_hash_seeded((s_), &len, seed))
		CHECK(btf_str_index_build(&x, sec, sizeof(sec) - 1, seed) == 0, "build");
		CHECK(FIND(&x, sec, "ab") == 1, "ab at %ld", FIND(&x, sec, "ab"));
		CHECK(FIND(&x, sec, "cd") == 4, "cd at %ld", FIND(&x, sec, "cd"));
		CHECK(FIND(&x, sec, "abc") == 10, "abc at %ld", FIND(&x, sec, "abc"));
		CHECK(FIND(&x, sec, "a") == -1 && FIND(&x, sec, "abcd") == -1 &&
		      FIND(&x, sec, "") == -1 && FIND(&x, sec, "b") == -1, "absent ones");
		/* the same hash (as a collision would give): only the bytes and
		 * the length tell them apart, and no byte past the section is
		 * compared (a string longer than what follows "abc") */
		{
			uint64_t h = btf_str_hash_seeded("ab", &len, seed);
			const char *longer = "abcdefghijklmnopqrstuvwxyz0123456789";

			CHECK(btf_str_index_find(&x, sec, "ab", 2, h) == 1, "ab by its hash");
			CHECK(btf_str_index_find(&x, sec, "a", 1, h) == -1, "a under ab's hash");
			CHECK(btf_str_index_find(&x, sec, "abc", 3, h) == -1, "abc under ab's hash");
			CHECK(btf_str_index_find(&x, sec, "ab\0", 3, h) == -1, "ab and a NUL");
			CHECK(btf_str_index_find(&x, sec, longer, strlen(longer), h) == -1,
			      "a long one under ab's hash");
		}
		btf_str_index_free(&x);
		CHECK(!x.slots && FIND(&x, sec, "ab") == -1, "freed: finds nothing");

		/* many, some twice: every one at its first offset, at most
		 * 3/4 of the slots used */
		*p++ = '\0';
		for (int i = 0; i < 12000; i++)
			p += sprintf(p, "s%d", i % 10000) + 1;
		CHECK(btf_str_index_build(&x, big, (size_t)(p - big), seed) == 0, "build many");
		CHECK((x.mask + 1) * 3 >= 10000 * 4, "slots %zu", x.mask + 1);
		{
			size_t used = 0;

			for (size_t i = 0; i <= x.mask; i++)
				used += x.slots[i] != 0;
			CHECK(used == 10000, "%zu slots used for 10000 strings", used);
		}
		p = big + 1;
		for (int i = 0; i < 10000; i++) {
			snprintf(name, sizeof(name), "s%d", i);
			CHECK(FIND(&x, big, name) == p - big, "%s at %ld, not %td", name,
			      FIND(&x, big, name), p - big);
			p += strlen(p) + 1;
		}
		btf_str_index_free(&x);
#undef FIND
	}
}

/* ---- one script, two builders ---- */

struct b {
	struct btf *lib;	/* libbpf, or NULL: */
	struct btf_raw *raw;
};

#define B(call_lib, call_raw) (b->lib ? (call_lib) : (call_raw))

static int b_int(struct b *b, const char *n, size_t sz, int enc)
{
	return B(btf__add_int(b->lib, n, sz, enc), btf_raw_add_int(b->raw, n, sz, enc));
}

static int b_float(struct b *b, const char *n, size_t sz)
{
	return B(btf__add_float(b->lib, n, sz), btf_raw_add_float(b->raw, n, sz));
}

static int b_ptr(struct b *b, int t)
{
	return B(btf__add_ptr(b->lib, t), btf_raw_add_ptr(b->raw, t));
}

static int b_const(struct b *b, int t)
{
	return B(btf__add_const(b->lib, t), btf_raw_add_const(b->raw, t));
}

static int b_volatile(struct b *b, int t)
{
	return B(btf__add_volatile(b->lib, t), btf_raw_add_volatile(b->raw, t));
}

static int b_restrict(struct b *b, int t)
{
	return B(btf__add_restrict(b->lib, t), btf_raw_add_restrict(b->raw, t));
}

static int b_typedef(struct b *b, const char *n, int t)
{
	return B(btf__add_typedef(b->lib, n, t), btf_raw_add_typedef(b->raw, n, t));
}

static int b_type_tag(struct b *b, const char *v, int t)
{
	return B(btf__add_type_tag(b->lib, v, t), btf_raw_add_type_tag(b->raw, v, t));
}

static int b_fwd(struct b *b, const char *n, int k)
{
	return B(btf__add_fwd(b->lib, n, k), btf_raw_add_fwd(b->raw, n, k));
}

static int b_struct(struct b *b, const char *n, uint32_t sz)
{
	return B(btf__add_struct(b->lib, n, sz), btf_raw_add_struct(b->raw, n, sz));
}

static int b_union(struct b *b, const char *n, uint32_t sz)
{
	return B(btf__add_union(b->lib, n, sz), btf_raw_add_union(b->raw, n, sz));
}

static int b_field(struct b *b, const char *n, int t, uint32_t off, uint32_t bits)
{
	return B(btf__add_field(b->lib, n, t, off, bits), btf_raw_add_field(b->raw, n, t, off, bits));
}

static int b_enum(struct b *b, const char *n, uint32_t sz)
{
	return B(btf__add_enum(b->lib, n, sz), btf_raw_add_enum(b->raw, n, sz));
}

static int b_enum_value(struct b *b, const char *n, int64_t v)
{
	return B(btf__add_enum_value(b->lib, n, v), btf_raw_add_enum_value(b->raw, n, v));
}

static int b_enum64(struct b *b, const char *n, uint32_t sz, bool sgn)
{
	return B(btf__add_enum64(b->lib, n, sz, sgn), btf_raw_add_enum64(b->raw, n, sz, sgn));
}

static int b_enum64_value(struct b *b, const char *n, uint64_t v)
{
	return B(btf__add_enum64_value(b->lib, n, v), btf_raw_add_enum64_value(b->raw, n, v));
}

static int b_array(struct b *b, int idx, int elem, uint32_t nr)
{
	return B(btf__add_array(b->lib, idx, elem, nr), btf_raw_add_array(b->raw, idx, elem, nr));
}

static int b_proto(struct b *b, int ret)
{
	return B(btf__add_func_proto(b->lib, ret), btf_raw_add_func_proto(b->raw, ret));
}

static int b_param(struct b *b, const char *n, int t)
{
	return B(btf__add_func_param(b->lib, n, t), btf_raw_add_func_param(b->raw, n, t));
}

static int b_var(struct b *b, const char *n, int l, int t)
{
	return B(btf__add_var(b->lib, n, l, t), btf_raw_add_var(b->raw, n, l, t));
}

static int b_decl_tag(struct b *b, const char *v, int t, int c)
{
	return B(btf__add_decl_tag(b->lib, v, t, c), btf_raw_add_decl_tag(b->raw, v, t, c));
}

/* Every kind, with strings shared across and within types; WHICH varies
 * the content between fragments. Returns 0 when every call gave the id or
 * result the script expects. */
static int script(struct b *b, int which)
{
	char uniq[32];
	int bad = 0;

#define EXPECT(call, want)                                                    \
	do {                                                                  \
		int r_ = (call);                                              \
		if (r_ != (want)) {                                           \
			fprintf(stderr, "%s: %s gave %d, want %d\n",          \
				b->lib ? "libbpf" : "raw", #call, r_, (want)); \
			bad++;                                                \
		}                                                             \
	} while (0)

	snprintf(uniq, sizeof(uniq), "only_in_%d", which);
	EXPECT(b_int(b, "int", 4, BTF_INT_SIGNED), 1);
	EXPECT(b_ptr(b, 3), 2);				/* forward reference */
	EXPECT(b_struct(b, which ? "list_head" : "task", 24), 3);
	EXPECT(b_field(b, "next", 2, 0, 0), 0);
	EXPECT(b_field(b, "", 1, 64, 0), 0);		/* anonymous member */
	EXPECT(b_field(b, "flags", 1, 96, 3), 0);	/* bit-field: kflag */
	EXPECT(b_field(b, uniq, 1, 99, 5), 0);
	EXPECT(b_union(b, NULL, 8), 4);
	EXPECT(b_field(b, "int", 1, 0, 0), 0);	/* a member named like a type */
	EXPECT(b_field(b, "next", 2, 0, 0), 0);
	EXPECT(b_enum(b, "e", 4), 5);
	EXPECT(b_enum_value(b, "A", 0), 0);
	EXPECT(b_enum_value(b, "B", -1), 0);		/* makes it signed */
	EXPECT(b_enum_value(b, "C", 0xffffffffll), 0);
	EXPECT(b_enum64(b, "e64", 8, which & 1), 6);
	EXPECT(b_enum64_value(b, "BIG", 0x123456789abcdefull), 0);
	EXPECT(b_enum64_value(b, "A", 1), 0);
	EXPECT(b_fwd(b, "fs", BTF_FWD_STRUCT), 7);
	EXPECT(b_fwd(b, "fu", BTF_FWD_UNION), 8);
	EXPECT(b_fwd(b, "fe", BTF_FWD_ENUM), 9);
	EXPECT(b_const(b, 1), 10);
	EXPECT(b_volatile(b, 10), 11);
	EXPECT(b_restrict(b, 2), 12);
	EXPECT(b_typedef(b, "u32", 1), 13);
	EXPECT(b_type_tag(b, "user", 1), 14);
	EXPECT(b_array(b, 1, 13, 7), 15);
	EXPECT(b_array(b, 1, 15, 0), 16);
	EXPECT(b_float(b, "double", 8), 17);
	EXPECT(b_proto(b, 0), 18);
	EXPECT(b_param(b, "skb", 2), 0);
	EXPECT(b_param(b, NULL, 0), 0);			/* varargs */
	EXPECT(b_var(b, "jiffies", BTF_VAR_GLOBAL_ALLOCATED, 1), 19);
	EXPECT(b_decl_tag(b, "tag1", 3, -1), 20);
	EXPECT(b_decl_tag(b, "tag2", 3, 1), 21);
	EXPECT(b_proto(b, 1), 22);
	/* a struct with 300 members: vlen > 255 */
	EXPECT(b_struct(b, "big", 1200), 23);
	for (int i = 0; i < 300; i++) {
		char n[16];

		snprintf(n, sizeof(n), "m%d", i % 150);
		EXPECT(b_field(b, n, 1, (uint32_t)i * 32, 0), 0);
	}

	EXPECT(b_ptr(b, 0), 24);

	/* what libbpf rejects, rejected alike (and nothing added) */
	EXPECT(b_int(b, "", 4, 0), -EINVAL);
	EXPECT(b_int(b, "i3", 3, 0), -EINVAL);
	EXPECT(b_int(b, "i4", 4, 8), -EINVAL);
	EXPECT(b_float(b, "f3", 3), -EINVAL);
	EXPECT(b_float(b, NULL, 4), -EINVAL);
	EXPECT(b_typedef(b, "", 1), -EINVAL);
	EXPECT(b_type_tag(b, "", 1), -EINVAL);
	EXPECT(b_fwd(b, "", BTF_FWD_STRUCT), -EINVAL);
	EXPECT(b_enum(b, "e3", 3), -EINVAL);
	EXPECT(b_var(b, "", 0, 1), -EINVAL);
	EXPECT(b_var(b, "v", 7, 1), -EINVAL);
	EXPECT(b_decl_tag(b, "t", 1, -2), -EINVAL);
	EXPECT(b_ptr(b, -1), -EINVAL);
	EXPECT(b_field(b, "x", 1, 0, 0), -EINVAL);	/* last type is not a struct */
	EXPECT(b_param(b, "x", 1), -EINVAL);
	EXPECT(b_enum_value(b, "x", 1), -EINVAL);
	EXPECT(b_union(b, "u", 4), 25);
	EXPECT(b_field(b, "x", 1, 8, 0), -EINVAL);	/* unions: offset 0 only */
	EXPECT(b_field(b, "x", 1, 0, 300), -EINVAL);	/* bit-field too wide */
	EXPECT(b_enum(b, "ee", 4), 26);
	EXPECT(b_enum_value(b, "", 1), -EINVAL);
	EXPECT(b_enum_value(b, "x", 0x100000000ll), -E2BIG);
	EXPECT(b_enum_value(b, "y", -0x80000001ll), -E2BIG);
#undef EXPECT
	return bad;
}

/* Candidate strings the old path re-added after each fragment. */
static const char *const cand_strs[] = { "skb", "a_param_only", "tag1", "only_in_0" };
#define NR_CANDS (sizeof(cand_strs) / sizeof(cand_strs[0]))

static bool same_bytes(struct btf *a, struct btf *b, const char *what)
{
	uint32_t na, nb;
	const void *ra = btf__raw_data(a, &na), *rb = btf__raw_data(b, &nb);

	if (!ra || !rb || na != nb || memcmp(ra, rb, na)) {
		fprintf(stderr, "%s: raw BTF differs (%u vs %u bytes)\n", what, na, nb);
		if (ra && rb)
			for (uint32_t i = 0; i < na && i < nb; i++)
				if (((const uint8_t *)ra)[i] != ((const uint8_t *)rb)[i]) {
					fprintf(stderr, "  first difference at byte %u\n", i);
					break;
				}
		return false;
	}
	return true;
}

/* A parsed copy of BTF (libbpf's btf__add_str on a split BTF looks its
 * strings up in the base, which frees the base's raw data: the old path
 * gets a base of its own, the merge's borrows its strings). */
static struct btf *clone_btf(struct btf *btf)
{
	uint32_t n;
	const void *raw = btf__raw_data(btf, &n);

	return raw ? btf__new(raw, n) : NULL;
}

/* NR fragments the old way (libbpf) and the new way; same bytes? */
static void compare_paths(struct btf *base, int nr, bool slow, bool small_blocks,
			  const char *what)
{
	struct btf *old_base = base ? clone_btf(base) : NULL;
	struct btf *old = base ? btf__new_empty_split(old_base) : btf__new_empty();
	struct d2b_error err = { 0 };
	uint32_t old_off[8][NR_CANDS], new_off[8][NR_CANDS];
	struct btf_merge m;
	struct btf *neu;

	CHECK(old != NULL, "new_empty");
	CHECK(btf_merge_init(&m, base, &err) == 0, "%s", err.msg);
	m.slow = slow;
	if (small_blocks)	/* one fragment a block */
		m.first_block_words = m.block_words = 1;
	for (int f = 0; f < nr; f++) {
		struct btf *lib = btf__new_empty();
		struct btf_raw raw;
		struct b bl = { .lib = lib }, br = { .raw = &raw };
		uint32_t refs[NR_CANDS], first;
		long off;
		int lf;

		CHECK(btf_raw_init(&raw) == 0, "raw init");
		CHECK(script(&bl, f) == 0, "%s: libbpf script %d", what, f);
		CHECK(script(&br, f) == 0, "%s: raw script %d", what, f);
		/* the old path: add_btf, then the candidates' strings */
		lf = btf__add_btf(old, lib);
		for (size_t i = 0; i < NR_CANDS; i++)
			old_off[f][i] = (uint32_t)btf__add_str(old, cand_strs[i]);
		/* the new: candidates' strings interned after the types */
		for (size_t i = 0; i < NR_CANDS; i++)
			CHECK(btf_raw_str(&raw, cand_strs[i], &refs[i]) == 0, "raw str");
		CHECK(btf_merge_add(&m, &raw, &err) == 0, "%s", err.msg);
		first = raw.nr_types ? m.tmap[1] : 0;
		CHECK(!raw.nr_types || (int)first == lf, "%s: first id %u, libbpf %d", what, first, lf);
		for (uint32_t i = 2; i <= raw.nr_types; i++)
			CHECK(m.tmap[i] == first + i - 1, "%s: local %u -> %u", what, i, m.tmap[i]);
		for (size_t i = 0; i < NR_CANDS; i++) {
			off = btf_merge_str(&m, &raw, refs[i], &err);
			CHECK(off >= 0, "%s", err.msg);
			new_off[f][i] = (uint32_t)off;
		}
		CHECK(m.nr_blocks == (small_blocks ? (size_t)f + 1 : 1), "%s: %zu blocks", what,
		      m.nr_blocks);
		btf_raw_deinit(&raw);
		btf__free(lib);
	}
	/* the base's types by id, after the flushes made libbpf's base
	 * modifiable (it then moves what a view of it points into) */
	for (uint32_t id = 1; base && id < btf__type_cnt(base); id++) {
		const struct btf_type *t = btf_merge_type_by_id(&m, id);

		CHECK(t && !memcmp(t, btf__type_by_id(old_base, id), sizeof(*t)),
		      "%s: base type %u by id", what, id);
	}
	neu = btf_merge_finish(&m, &err);
	CHECK(neu != NULL, "%s: finish: %s", what, err.msg);
	if (!neu) {
		btf__free(old);
		btf__free(old_base);
		return;
	}
	CHECK(btf__type_cnt(neu) == btf__type_cnt(old), "%s: %u vs %u types", what,
	      btf__type_cnt(neu), btf__type_cnt(old));
	CHECK(same_bytes(old, neu, what), "%s: same bytes", what);
	for (int f = 0; f < nr; f++)
		for (size_t i = 0; i < NR_CANDS; i++)
			CHECK(old_off[f][i] == new_off[f][i], "%s: fragment %d string %s at %u, old %u",
			      what, f, cand_strs[i], new_off[f][i], old_off[f][i]);
	/* the result still takes additions the way the old one does */
	CHECK(btf__add_str(neu, "late") == btf__add_str(old, "late"), "late string");
	CHECK(btf__add_func_proto(neu, 1) == btf__add_func_proto(old, 1), "late type");
	CHECK(btf__dedup(neu, NULL) == 0 && btf__dedup(old, NULL) == 0, "dedup");
	CHECK(same_bytes(old, neu, what), "%s: same bytes after dedup", what);
	btf__free(neu);
	btf__free(old);
	btf__free(old_base);
}

static void test_merge(void)
{
	struct btf *base = btf__new_empty();

	compare_paths(NULL, 1, false, false, "one fragment");
	compare_paths(NULL, 3, false, false, "three fragments");
	compare_paths(NULL, 3, true, false, "three fragments, slow");
	compare_paths(NULL, 3, false, true, "three blocks: fast, then slow");
	compare_paths(NULL, 3, true, true, "three blocks, slow");

	/* split: strings and types already in the base */
	CHECK(btf__add_int(base, "int", 4, BTF_INT_SIGNED) == 1, "base int");
	CHECK(btf__add_struct(base, "list_head", 16) == 2, "base struct");
	CHECK(btf__add_field(base, "next", 1, 0, 0) == 0, "base field");
	CHECK(btf__add_str(base, "a_param_only") > 0, "base string");
	compare_paths(base, 2, false, false, "split");
	compare_paths(base, 3, false, true, "split, three blocks");
	btf__free(base);
}

/*
 * Strings beside the turn (btf_merge_publish_strs): a worker's offsets for
 * a fragment's strings are the ones the merge gives them, found only when
 * an earlier fragment's merge interned the very bytes (a string whose hash
 * and length match another's but whose bytes differ is not found), none
 * past the table's limit, and the BTF is the one merged without.
 */
static void test_published_strs(void)
{
	static const char *const names[] = { "next", "prev", "list_head", "x" };
	struct d2b_error err = { 0 };
	struct btf_merge with, without;
	struct btf *a, *b;
	uint32_t ref[64];
	char name[32];

	CHECK(btf_merge_init(&with, NULL, &err) == 0 && btf_merge_init(&without, NULL, &err) == 0,
	      "%s", err.msg);
	/* a table that takes ~700 strings: the fragments below give it more */
	CHECK(btf_merge_publish_strs(&with, 0) == 0 && with.sview, "published");
	for (int f = 0; f < 40; f++) {
		struct btf_raw r[2];

		for (int w = 0; w < 2; w++) {
			uint32_t t;

			CHECK(btf_raw_init(&r[w]) == 0, "raw");
			r[w].strs.seed = with.strs.seed;
			CHECK((t = (uint32_t)btf_raw_add_int(&r[w], "int", 4, 0)) == 1, "int");
			CHECK(btf_raw_add_struct(&r[w], names[2], 16) > 0, "struct");
			CHECK(btf_raw_add_field(&r[w], names[0], t, 0, 0) == 0 &&
			      btf_raw_add_field(&r[w], names[1], t, 64, 0) == 0, "fields");
			/* 20 strings of its own, 10 of the fragment before */
			for (int i = 0; i < 30; i++) {
				snprintf(name, sizeof(name), "s%d", f * 20 + i - (i >= 20 ? 30 : 0));
				CHECK(btf_raw_str(&r[w], name, &ref[i]) == 0, "str");
			}
			CHECK(btf_raw_str(&r[w], "y", &ref[30]) == 0 && btf_raw_str(&r[w], "x", &ref[31]) == 0,
			      "x, y");
		}
		if (f) {
			struct btf_strtab_ent *y = &r[0].strs.ents[ref[30] - 1];
			uint64_t hash = y->hash;
			uint32_t *fs;
			long found;

			/* odd fragments: "y" looked up with the hash of "x"
			 * (and the same length), then given its own back */
			if (f % 2)
				y->hash = r[0].strs.ents[ref[31] - 1].hash;
			found = btf_merge_resolve_strs(&with, &r[0]);
			y->hash = hash;
			fs = r[0].final_strs;
			CHECK(found > 0 && fs, "fragment %d: %ld found", f, found);
			CHECK(fs && (fs[ref[30] - 1] == BTF_RAW_STR_UNKNOWN) == (f % 2),
			      "fragment %d: \"y\" %s (%u)", f, f % 2 ? "not found as \"x\"" : "found",
			      fs ? fs[ref[30] - 1] : 0);
			/* the fragment before's own strings: published while the
			 * table had room (~700 strings: fragments up to ~30) */
			for (int i = 20; fs && i < 30; i++) {
				bool room = f < 25, late = f > 35;

				CHECK((room && fs[ref[i] - 1] != BTF_RAW_STR_UNKNOWN) || !room,
				      "fragment %d: string %d found", f, i);
				CHECK(!late || fs[ref[i] - 1] == BTF_RAW_STR_UNKNOWN,
				      "fragment %d: string %d not published (table full)", f, i);
			}
			for (int i = 0; fs && i < 20; i++)
				CHECK(fs[ref[i] - 1] == BTF_RAW_STR_UNKNOWN, "fragment %d: new string %d", f, i);
		}
		CHECK(btf_merge_add(&with, &r[0], &err) == 0 && btf_merge_add(&without, &r[1], &err) == 0,
		      "%s", err.msg);
		for (int i = 0; i < 32; i++) {
			long x = btf_merge_str(&with, &r[0], ref[i], &err),
			     y = btf_merge_str(&without, &r[1], ref[i], &err);

			CHECK(x >= 0 && x == y, "fragment %d string %d: %ld, without %ld", f, i, x, y);
			CHECK(!r[0].final_strs || r[0].final_strs[ref[i] - 1] == BTF_RAW_STR_UNKNOWN ||
			      r[0].final_strs[ref[i] - 1] == (uint32_t)x,
			      "fragment %d string %d: resolved to %u, merged at %ld", f, i,
			      r[0].final_strs[ref[i] - 1], x);
		}
		btf_raw_deinit(&r[0]);
		btf_raw_deinit(&r[1]);
	}
	btf_merge_drop_strs(&with);
	CHECK(!with.sview, "dropped");
	a = btf_merge_finish(&with, &err);
	CHECK(a != NULL, "finish: %s", err.msg);
	b = btf_merge_finish(&without, &err);
	CHECK(b != NULL, "finish without: %s", err.msg);
	CHECK(a && b && same_bytes(a, b, "published strings"), "the same BTF");
	btf__free(a);
	btf__free(b);
}

static void test_empty(void)
{
	struct d2b_error err = { 0 };
	struct btf_merge m;
	struct btf_raw raw;
	uint32_t ref;
	struct btf *btf;

	/* no types at all: an empty BTF */
	CHECK(btf_merge_init(&m, NULL, &err) == 0, "%s", err.msg);
	btf = btf_merge_finish(&m, &err);
	CHECK(btf && btf__type_cnt(btf) == 1, "empty");
	btf__free(btf);

	/* strings but no types (a CU with candidates only) */
	CHECK(btf_merge_init(&m, NULL, &err) == 0, "%s", err.msg);
	CHECK(btf_raw_init(&raw) == 0, "raw");
	CHECK(btf_raw_str(&raw, "x", &ref) == 0 && ref == 1, "ref %u", ref);
	CHECK(btf_raw_str(&raw, "", &ref) == 0 && ref == 0, "empty ref %u", ref);
	CHECK(btf_merge_add(&m, &raw, &err) == 0, "%s", err.msg);
	CHECK(btf_merge_str(&m, &raw, 1, &err) == 1, "x at 1");
	CHECK(btf_merge_str(&m, &raw, 2, &err) == -1, "ref 2 out of range");
	btf_raw_deinit(&raw);
	btf = btf_merge_finish(&m, &err);
	CHECK(btf && btf__type_cnt(btf) == 1 && btf__find_str(btf, "x") == 1, "strings only");
	btf__free(btf);
}

/* A record's vlen holds 65535 entries: the next one is -E2BIG (libbpf 1.1
 * let it carry into the kind bits), for enums, structs and prototypes. */
static void test_vlen_limit(void)
{
	struct btf_raw r;
	char name[16];
	int rc = 0;

	CHECK(btf_raw_init(&r) == 0, "init");
	CHECK(btf_raw_add_enum(&r, "big", 4) == 1, "enum");
	for (int i = 0; i < 65535 && !rc; i++) {
		snprintf(name, sizeof(name), "E%d", i);
		rc = btf_raw_add_enum_value(&r, name, i);
	}
	CHECK(rc == 0, "65535 values: %d", rc);
	CHECK(btf_raw_add_enum_value(&r, "E65535", 65535) == -E2BIG, "65536th value");
	CHECK(btf_raw_add_int(&r, "int", 4, BTF_INT_SIGNED) == 2, "int");
	CHECK(btf_raw_add_struct(&r, "s", 4) == 3, "struct");
	for (int i = 0; i < 65535 && !rc; i++) {
		snprintf(name, sizeof(name), "m%d", i);
		rc = btf_raw_add_field(&r, name, 2, 0, 0);
	}
	CHECK(rc == 0, "65535 members: %d", rc);
	CHECK(btf_raw_add_field(&r, "m65535", 2, 0, 0) == -E2BIG, "65536th member");
	CHECK(btf_raw_add_func_proto(&r, 2) == 4, "proto");
	for (int i = 0; i < 65535 && !rc; i++)
		rc = btf_raw_add_func_param(&r, "", 2);
	CHECK(rc == 0, "65535 params: %d", rc);
	CHECK(btf_raw_add_func_param(&r, "", 2) == -E2BIG, "65536th parameter");
	btf_raw_deinit(&r);
}

/* A biased table (the merge's on a base): offsets from the bias on, its
 * own bytes only, through growth of the data (from 4 KiB, several
 * doublings), of the entries and of the slots, by add, append and
 * append_cstr alike; find gives every string back at its offset. */
static void test_strtab_biased(void)
{
	const size_t bias = (size_t)1 << 20;	/* a base's strings, not ours */
	const size_t n = 20000;
	struct btf_strtab t;
	size_t want = bias, len;
	char s[32];
	long e;

	CHECK(btf_strtab_init_biased(&t, bias) == 0, "init");
	CHECK(t.len == bias && t.nr == 0, "empty: len %zu", t.len);
	for (size_t i = 0; i < n; i++) {
		uint64_t h;

		snprintf(s, sizeof(s), "name_%zu_%s", i, i % 3 ? "x" : "longer_tail");
		h = btf_str_hash(s, &len);
		switch (i % 3) {
		case 0:
			e = btf_strtab_add(&t, s, len, h, NULL);
			break;
		case 1:
			e = btf_strtab_append(&t, s, len, h);
			break;
		default:
			e = btf_strtab_append_cstr(&t, s);
			break;
		}
		CHECK(e == (long)i && t.ents[e].off == want, "%s: entry %ld at %u, want %zu", s, e,
		      e >= 0 ? t.ents[e].off : 0, want);
		want += len + 1;
	}
	CHECK(t.len == want && t.cap >= want && t.cap - t.bias >= want - bias, "len %zu", t.len);
	CHECK(want - bias > ((size_t)64 << 10), "the data grew past 64 KiB: %zu", want - bias);
	for (size_t i = 0; i < n; i += 97) {
		uint32_t off = 0;

		snprintf(s, sizeof(s), "name_%zu_%s", i, i % 3 ? "x" : "longer_tail");
		e = btf_strtab_find(&t, s, strlen(s), btf_str_hash(s, &len), &off);
		if (i % 3 == 0)	/* only add indexes */
			CHECK(e == (long)i && off == t.ents[i].off, "%s found at %u", s, off);
		CHECK(!strcmp(btf_strtab_str(&t, t.ents[i].off), s), "%s: its bytes", s);
	}
	CHECK(!strcmp(btf_strtab_str(&t, bias), "name_0_longer_tail"), "the first at the bias");
	/* an add of a string already added finds it */
	e = btf_strtab_add(&t, "name_3_longer_tail", strlen("name_3_longer_tail"),
			   btf_str_hash("name_3_longer_tail", &len), NULL);
	CHECK(e == 3, "again: %ld", e);
	btf_strtab_deinit(&t);
}

/* btf_strtab_append_cstr() copies and hashes in one pass: the same bytes,
 * length and hash as btf_str_hash() + btf_strtab_append(), for every
 * length and alignment, also for a string that ends at the end of a page
 * followed by one that cannot be read. */
static void test_append_cstr(void)
{
	long page = 4096;
	char *map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct btf_strtab t;

	CHECK(map != MAP_FAILED && mprotect(map + page, page, PROT_NONE) == 0, "guard page");
	if (map == MAP_FAILED)
		return;
	CHECK(btf_strtab_init(&t, NULL, 0) == 0 && btf_strtab_reserve(&t, 4096, 1 << 16) == 0, "init");
	for (size_t n = 1; n <= 40; n++) {
		for (size_t end = 0; end < 9; end++) {
			/* the string's NUL sits END bytes before the guard page */
			char *s = map + page - 1 - end - n;
			size_t len;
			uint64_t h;
			long e;

			for (size_t i = 0; i < n; i++)
				s[i] = (char)('a' + (i * 7 + n) % 26);
			s[n] = '\0';
			memset(s + n + 1, 'x', end);	/* garbage after the NUL */
			h = btf_str_hash(s, &len);
			e = btf_strtab_append_cstr(&t, s);
			CHECK(e >= 0 && t.ents[e].len == n && len == n && t.ents[e].hash == h &&
			      !memcmp(t.data + t.ents[e].off, s, n + 1),
			      "length %zu, %zu bytes before the page end", n, end);
		}
	}
	/* hashes differ for strings that differ anywhere (same length) */
	CHECK(t.ents[0].hash != t.ents[9].hash, "different strings, different hashes");
	btf_strtab_deinit(&t);
	munmap(map, 2 * page);
}

/* btf_str_count_nuls() against a byte loop: every length to 4200 (words,
 * rounds of 255 words, tails), at every offset of a word, and NUL
 * densities from none to all (a lane counting to 255 must not carry). */
static void test_count_nuls(void)
{
	static char buf[4300];
	unsigned seed = 12345, bad = 0, checked = 0;
	const unsigned dens[] = { 0, 1, 8, 64, 128, 255, 256 };

	for (size_t d = 0; d < sizeof(dens) / sizeof(dens[0]); d++) {
		for (size_t i = 0; i < sizeof(buf); i++) {
			seed = seed * 1103515245u + 12345u;
			/* a NUL with a chance of dens[d] / 256; else any other byte */
			buf[i] = (char)((seed >> 16) % 256 < dens[d] ? 0 : 1 + (seed >> 8) % 255);
		}
		for (size_t off = 0; off < 8; off++) {
			for (size_t n = 0; off + n <= sizeof(buf); n += n < 64 ? 1 : 37) {
				size_t want = 0;

				for (size_t i = 0; i < n; i++)
					want += !buf[off + i];
				if (btf_str_count_nuls(buf + off, n) != want)
					bad++;
				checked++;
			}
		}
	}
	CHECK(!bad && checked > 3000, "%u of %u counts wrong", bad, checked);
	memset(buf, 0, sizeof(buf));
	CHECK(btf_str_count_nuls(buf, sizeof(buf)) == sizeof(buf), "all NULs");
}

/* btf_str_hash_seeded() finds the length in its word loop: the same
 * length and hash as btf_str_hash_plain() (strlen, then the words) for
 * every length up to 40 and every place of the NUL before a page that
 * cannot be read (where the loop must stop reading words: the plain way
 * takes over), under several seeds; and different strings hash apart. */
static void test_str_hash_fused(void)
{
	long page = 4096;
	char *map = mmap(NULL, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	const uint64_t seeds[] = { 0, 1, 0x9e3779b97f4a7c15ull };
	unsigned checked = 0;

	CHECK(map != MAP_FAILED && mprotect(map + 2 * page, page, PROT_NONE) == 0, "guard page");
	if (map == MAP_FAILED)
		return;
	for (size_t n = 0; n <= 40; n++) {
		for (size_t end = 0; end < 4200; end += end < 16 ? 1 : 97) {
			/* the NUL sits END bytes before the guard page */
			char *s = map + 2 * page - 1 - end - n;

			memset(s - 8, 'y', 8);	/* bytes before the string */
			for (size_t i = 0; i < n; i++)
				s[i] = (char)('a' + (i * 7 + n + end) % 26);
			s[n] = '\0';
			memset(s + n + 1, 'x', end);	/* garbage after the NUL */
			for (size_t k = 0; k < sizeof(seeds) / sizeof(seeds[0]); k++) {
				size_t l1 = 99, l2 = 98;
				uint64_t h1 = btf_str_hash_seeded(s, &l1, seeds[k]);
				uint64_t h2 = btf_str_hash_plain(s, &l2, seeds[k]);

				CHECK(l1 == n && l2 == n && h1 == h2,
				      "length %zu, %zu bytes before the page end, seed %zu: %zu/%zu", n, end,
				      k, l1, l2);
				checked++;
			}
		}
	}
	CHECK(checked > 3000, "%u strings", checked);
	{
		size_t l;
		uint64_t a = btf_str_hash_seeded("abcdefgh1", &l, 5);
		uint64_t b = btf_str_hash_seeded("abcdefgh2", &l, 5);

		CHECK(a != b, "a different last byte, a different hash");
	}
	munmap(map, 3 * page);
}

/* btf_raw_index() marks the fragment indexed; any later record or member
 * (which moves the last type's end) clears it, so the merge walks. */
static void test_index_stale(void)
{
	struct btf_raw r;

	CHECK(btf_raw_init(&r) == 0, "init");
	CHECK(btf_raw_add_int(&r, "int", 4, BTF_INT_SIGNED) == 1, "int");
	CHECK(btf_raw_add_struct(&r, "s", 4) == 2, "s");
	CHECK(btf_raw_index(&r) == 0 && r.indexed && r.type_off[3] == r.len &&
	      r.type_off[2] == 4 && r.type_fix[3] == r.nr_fix, "indexed");
	CHECK(btf_raw_add_field(&r, "x", 1, 0, 0) == 0 && !r.indexed, "a member clears it");
	CHECK(btf_raw_index(&r) == 0 && r.indexed && r.type_off[3] == r.len, "indexed again");
	CHECK(btf_raw_add_ptr(&r, 2) == 3 && !r.indexed, "a type clears it");
	btf_raw_deinit(&r);
}

/* The record sizes by table, against the kernel's documentation of each
 * kind (Documentation/bpf/btf.rst) and libbpf's btf_type_size(): the
 * fixed part, the part per entry, unknown kinds (0 and 20..31) refused. */
static void test_wire_sizes(void)
{
	static const struct {
		unsigned kind;
		long fixed, per;
	} want[] = {
		{ BTF_KIND_INT, 4, 0 },		{ BTF_KIND_PTR, 0, 0 },
		{ BTF_KIND_ARRAY, 12, 0 },	{ BTF_KIND_STRUCT, 0, 12 },
		{ BTF_KIND_UNION, 0, 12 },	{ BTF_KIND_ENUM, 0, 8 },
		{ BTF_KIND_FWD, 0, 0 },		{ BTF_KIND_TYPEDEF, 0, 0 },
		{ BTF_KIND_VOLATILE, 0, 0 },	{ BTF_KIND_CONST, 0, 0 },
		{ BTF_KIND_RESTRICT, 0, 0 },	{ BTF_KIND_FUNC, 0, 0 },
		{ BTF_KIND_FUNC_PROTO, 0, 8 },	{ BTF_KIND_VAR, 4, 0 },
		{ BTF_KIND_DATASEC, 0, 12 },	{ BTF_KIND_FLOAT, 0, 0 },
		{ BTF_KIND_DECL_TAG, 4, 0 },	{ BTF_KIND_TYPE_TAG, 0, 0 },
		{ BTF_KIND_ENUM64, 0, 12 },
	};
	uint32_t w[3] = { 0 };

	CHECK(sizeof(want) / sizeof(want[0]) == BTF_KIND_ENUM64, "every known kind listed");
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		unsigned k = want[i].kind;

		CHECK(btf_wire_extra_size(k, 0) == want[i].fixed, "kind %u, no entries", k);
		CHECK(btf_wire_extra_size(k, 3) == want[i].fixed + 3 * want[i].per,
		      "kind %u, 3 entries", k);
		CHECK(btf_wire_extra_size(k, 0xffff) == want[i].fixed + 0xffff * want[i].per,
		      "kind %u, the most entries", k);
		w[1] = k << 24 | 5;
		CHECK(btf_record_words(w) == 3 + (uint32_t)(want[i].fixed + 5 * want[i].per) / 4,
		      "kind %u: words", k);
	}
	for (unsigned k = 0; k < 40; k++) {
		if (k >= 1 && k <= BTF_KIND_ENUM64)
			continue;
		CHECK(btf_wire_extra_size(k, 1) == -1, "kind %u is unknown", k);
	}
	w[1] = 20u << 24;
	CHECK(btf_record_words(w) == 0, "an unknown kind has no size");
}

int main(void)
{
	test_wire_sizes();
	test_strtab();
	test_strtab_biased();
	test_append_cstr();
	test_str_hash_fused();
	test_count_nuls();
	test_index_stale();
	test_vlen_limit();
	test_merge();
	test_published_strs();
	test_empty();
	return check_done();
}
