// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of btf/btf_model_keys.c on models built by hand: the same
 * graph in two units gets the same keys (a cycle through a pointer too);
 * whatever the encoder would write differently gets another key (a
 * declaration against a definition whose size has the top bit set, a
 * member's bit size over 255 against one it takes, another name or size
 * two hops away); names by place part what content joins, never the other
 * way; the keys depend on the run's seed; cut keys (btf_cut_names.h) join
 * a pointer to a FWD with one to the struct, not with one to a union or
 * to void, and not the FWD with the struct.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "btf/btf_cut_names.h"
#include "btf/btf_features.h"
#include "btf/btf_model_keys.h"

/* One unit: struct node { long v; struct node *next; } and its pointer,
 * "long", and a declaration "struct fwd" (ids 1..4, in model order). */
struct unit {
	struct type t[4];
	struct type *types[4];
	struct member m[2];
	uint32_t ids[4];
	struct cu_model cu;
};

static void unit_init(struct unit *u, const char *node_name, uint32_t bit_size)
{
	memset(u, 0, sizeof(*u));
	for (uint32_t i = 0; i < 4; i++) {
		u->t[i].id = i;
		u->types[i] = &u->t[i];
		u->ids[i] = i + 1;
	}
	u->t[0].kind = TK_STRUCT;
	u->t[0].name = node_name;
	u->t[0].size = 16;
	u->t[0].composite.members = u->m;
	u->t[0].composite.nr_members = 2;
	u->m[0].name = "v";
	u->m[0].type = &u->t[2];
	u->m[0].bit_size = bit_size;
	u->m[1].name = "next";
	u->m[1].type = &u->t[1];
	u->m[1].bit_offset = 64;
	u->t[1].kind = TK_POINTER;
	u->t[1].size = 8;
	u->t[1].type = &u->t[0];
	u->t[2].kind = TK_BASE;
	u->t[2].name = "long";
	u->t[2].size = 8;
	u->t[2].base.encoding = 5;	/* DW_ATE_signed */
	u->t[3].kind = TK_STRUCT;
	u->t[3].name = "fwd";
	u->t[3].declaration = true;
	u->cu.types = u->types;
	u->cu.nr_types = 4;
}

static const struct btf_features features;

/* Keys of U under SEED, names in [LO, HI) by place, into K (6 entries). */
static void keys_of(struct unit *u, uint64_t seed, const char *lo, const char *hi,
		    struct btf_key *k)
{
	struct btf_model_keys_in in = {
		.cu = &u->cu, .f = &features, .ids = u->ids, .nr_ids = 4,
		.str_lo = lo, .str_hi = hi, .seed = seed,
	};

	memset(k, 0, 6 * sizeof(*k));
	CHECK(btf_model_keys(&in, k) == 0, "keys");
}

static bool eq(const struct btf_key *a, const struct btf_key *b)
{
	return a->lo == b->lo && a->hi == b->hi;
}

static bool none(const struct btf_key *a)
{
	return !a->lo && !a->hi;
}

int main(void)
{
	/* names as two units of a linked file give them: the same places */
	static const char strs[] = "node\0long\0v\0next\0fwd\0other";
	char copy_of_node[] = "node";
	struct unit a, b;
	struct btf_key ka[6], kb[6];

	/* the same graph, a cycle included: the same keys */
	unit_init(&a, "node", 0);
	unit_init(&b, "node", 0);
	keys_of(&a, 7, NULL, NULL, ka);
	keys_of(&b, 7, NULL, NULL, kb);
	for (int i = 1; i <= 4; i++)
		CHECK(!none(&ka[i]) && eq(&ka[i], &kb[i]), "type %d: same graph, other keys", i);
	CHECK(!eq(&ka[1], &ka[2]) && !eq(&ka[1], &ka[4]), "struct, pointer, fwd apart");

	/* another seed: other keys (crafted DWARF cannot aim at them) */
	keys_of(&b, 8, NULL, NULL, kb);
	CHECK(!eq(&ka[1], &kb[1]) && !eq(&ka[3], &kb[3]), "the keys do not depend on the seed");

	/* a declaration (FWD) against a definition of size 2^63 (STRUCT
	 * size 0 in the record, which truncates the size): apart */
	b.t[3].declaration = false;
	b.t[3].size = 1ull << 63;
	keys_of(&b, 7, NULL, NULL, kb);
	CHECK(!eq(&ka[4], &kb[4]), "a declaration has the key of a definition");

	/* a bit size the builder refuses (over 255) against one it takes
	 * with the same low bits: apart (one fails, the other is encoded) */
	unit_init(&a, "node", 1);
	unit_init(&b, "node", 0x80000001u);
	keys_of(&a, 7, NULL, NULL, ka);
	keys_of(&b, 7, NULL, NULL, kb);
	CHECK(!eq(&ka[1], &kb[1]), "bit size 0x80000001 keyed as 1");
	/* and the pointer, which reaches the struct, follows it */
	CHECK(!eq(&ka[2], &kb[2]), "the pointer to a changed struct kept its key");

	/* a member's type two hops away: long as 4 bytes */
	unit_init(&a, "node", 0);
	unit_init(&b, "node", 0);
	b.t[2].size = 4;
	keys_of(&a, 7, NULL, NULL, ka);
	keys_of(&b, 7, NULL, NULL, kb);
	CHECK(!eq(&ka[1], &kb[1]) && !eq(&ka[2], &kb[2]) && eq(&ka[4], &kb[4]),
	      "a change two hops away");

	/* names by place: the same place, the same key; the same content at
	 * another place, another key (finer: the merge keeps a repeat, the
	 * dedup folds it); by content (no range), the same key again */
	unit_init(&a, strs, 0);
	unit_init(&b, strs, 0);
	keys_of(&a, 7, strs, strs + sizeof(strs), ka);
	keys_of(&b, 7, strs, strs + sizeof(strs), kb);
	CHECK(eq(&ka[1], &kb[1]), "the same place, another key");
	b.t[0].name = copy_of_node;
	keys_of(&b, 7, strs, strs + sizeof(strs), kb);
	CHECK(!eq(&ka[1], &kb[1]), "a name outside the range joined one inside it");
	keys_of(&a, 7, NULL, NULL, ka);
	keys_of(&b, 7, NULL, NULL, kb);
	CHECK(eq(&ka[1], &kb[1]), "by content: the same name, another key");
	b.t[0].name = strs + 21;	/* "other" */
	keys_of(&b, 7, NULL, NULL, kb);
	CHECK(!eq(&ka[1], &kb[1]), "another name, the same key");

	/* a base type named by the string at offset 0 of .debug_str (its
	 * name's word is 1) against a nameless pointer to void of its size:
	 * the kinds' start values differed by one where the names' words
	 * did, and half the seeds gave both one key (found by fuzz_encode) */
	for (uint64_t seed = 0; seed < 8; seed++) {
		unit_init(&a, strs, 0);
		a.t[2].name = strs;	/* offset 0 */
		a.t[2].base.encoding = 0;
		a.t[1].type = NULL;	/* void * */
		a.m[1].type = NULL;
		keys_of(&a, seed, strs, strs + sizeof(strs), ka);
		CHECK(!eq(&ka[2], &ka[3]), "seed %llu: a pointer has the key of a base type",
		      (unsigned long long)seed);
	}

	/* cut keys (every name may be cut): the pointer to "fwd" keyed by
	 * its name, whether fwd is declared or defined; exact keys part
	 * them; a union of the name, or void, is not the struct */
	{
		struct btf_cut_names *every = btf_cut_names_everywhere();
		struct btf_key ea[6], eb[6];

		CHECK(every, "no memory");
		for (int cut = 0; cut < 2 && every; cut++) {
			struct btf_model_keys_in in = {
				.f = &features, .nr_ids = 4, .seed = 7,
				.cut = cut ? every : NULL,
			};
			struct btf_key *x = cut ? ka : ea, *y = cut ? kb : eb;

			unit_init(&a, "node", 0);
			unit_init(&b, "node", 0);
			a.t[1].type = &a.t[3];	/* struct fwd *, fwd declared */
			b.t[1].type = &b.t[3];	/* ... fwd defined */
			b.t[3].declaration = false;
			b.t[3].size = 8;
			in.cu = &a.cu;
			in.ids = a.ids;
			memset(x, 0, 6 * sizeof(*x));
			CHECK(btf_model_keys(&in, x) == 0, "keys");
			in.cu = &b.cu;
			in.ids = b.ids;
			memset(y, 0, 6 * sizeof(*y));
			CHECK(btf_model_keys(&in, y) == 0, "keys");
		}
		CHECK(!eq(&ea[2], &eb[2]) && !eq(&ea[1], &eb[1]),
		      "exact keys joined a pointer to a FWD and one to the struct");
		CHECK(eq(&ka[2], &kb[2]) && eq(&ka[1], &kb[1]),
		      "cut keys part a pointer to a FWD and one to the struct");
		CHECK(!eq(&ka[4], &kb[4]), "cut keys joined the FWD and the struct themselves");
		{
			struct btf_model_keys_in in = {
				.cu = &b.cu, .f = &features, .ids = b.ids, .nr_ids = 4, .seed = 7,
				.cut = every,
			};

			b.t[3].kind = TK_UNION;
			memset(kb, 0, sizeof(kb));
			CHECK(btf_model_keys(&in, kb) == 0, "keys");
			CHECK(!eq(&ka[2], &kb[2]), "a pointer to a union keyed as one to the struct");
			b.t[1].type = NULL;
			memset(kb, 0, sizeof(kb));
			CHECK(btf_model_keys(&in, kb) == 0, "keys");
			CHECK(!eq(&ka[2], &kb[2]), "a pointer to void keyed as one cut");
		}
		btf_cut_names_free(every);
	}

	/* ids out of the encoder's order: no keys at all (everything kept) */
	unit_init(&a, "node", 0);
	a.ids[2] = 0;
	{
		struct btf_model_keys_in in = {
			.cu = &a.cu, .f = &features, .ids = a.ids, .nr_ids = 4, .seed = 7,
		};

		memset(ka, 0, sizeof(ka));
		CHECK(btf_model_keys(&in, ka) == 0, "keys");
		CHECK(none(&ka[1]) && none(&ka[4]), "a numbering not the encoder's was keyed");
	}
	return check_done();
}
