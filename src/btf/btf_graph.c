// SPDX-License-Identifier: GPL-2.0-only
/*
 * The printers' reference graph of a BTF: no cycle, no chain deeper than
 * BTF_LOAD_MAX_DEPTH, checked where something recurses along references,
 * over what it reads (btf_load.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "btf/btf_load_internal.h"

/*
 * The printers' reference graph: an edge from a type to each type printing
 * it may expand. A named struct or union has none (it is printed by name).
 * Edges are numbered from 0; an edge may be 0 (void: none). The number of
 * T's edges, and its K-th (K below that number): the type field; an
 * array's element; the members' types; a prototype's return type, then its
 * parameters'.
 */
static uint32_t graph_edges(const struct btf *btf, const struct btf_type *t)
{
	const char *name;

	switch (btf_kind(t)) {
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
	case BTF_KIND_FUNC:
	case BTF_KIND_VAR:
	case BTF_KIND_ARRAY:
		return 1;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		name = t->name_off ? btf__name_by_offset(btf, t->name_off) : NULL;
		return name && *name ? 0 : btf_vlen(t);
	case BTF_KIND_FUNC_PROTO:
		return 1 + btf_vlen(t);
	}
	return 0;
}

static uint32_t graph_edge(const struct btf_type *t, uint32_t k)
{
	switch (btf_kind(t)) {
	case BTF_KIND_ARRAY:
		return btf_array(t)->type;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return btf_members(t)[k].type;
	case BTF_KIND_FUNC_PROTO:
		return k ? btf_params(t)[k - 1].type : t->type;
	}
	return t->type;
}

/* "PATH: .BTF+0xOFF: " of type ID's record: H's own, or its base's. */
static int graph_error(const struct btf_handle *h, const struct btf_type *t, uint32_t id,
		       struct d2b_error *err, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int graph_error(const struct btf_handle *h, const struct btf_type *t, uint32_t id,
		       struct d2b_error *err, const char *fmt, ...)
{
	const uint8_t *first;
	char msg[256];
	va_list ap;

	while (id < h->start_id && h->base)
		h = h->base;
	/* T's offset from its handle's first record, in libbpf's copy (which
	 * keeps the section's layout, in either byte order) */
	first = (const uint8_t *)btf__type_by_id(h->btf, h->start_id);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return d2b_error_at(err, h->path, BTF_SECTION,
			    h->types_at + (size_t)((const uint8_t *)t - first), "%s", msg);
}

/*
 * Depth-first search from the types RECS[id] with WANT[id] (all, when WANT
 * is NULL), base and own alike (a base's types never refer to its split's;
 * a split's chains go on in its base). A grey node met again closes a
 * cycle. A black node keeps the longest chain below it, for the depth
 * limit, checked wherever a chain grows (a chain in id order grows only as
 * the search returns along it).
 *
 * One 16-bit state a type (a vmlinux's 99 k types: 200 KB, where a colour,
 * a depth and a frame a type were 1.7 MB of fresh memory, most of the
 * check's time), and a stack as deep as the search goes. Only what is
 * printed needs it: the model's types (all of them, or pahole -C's
 * closure: 7 k of a vmlinux's 95 k for task_struct) and btfdiff's; the
 * encoder reads its base's types only beside the module's own, in step.
 */
#define ST_WHITE 0
#define ST_GREY 1
#define ST_BLACK 2	/* + the longest chain below: at most BTF_LOAD_MAX_DEPTH */
_Static_assert(ST_BLACK + BTF_LOAD_MAX_DEPTH <= UINT16_MAX, "depth in 16 bits");

int btf_check_graph(const struct btf_handle *h, const struct btf_type *const *recs,
		       uint32_t nr_ids, const uint8_t *want, struct d2b_error *err)
{
	struct frame {
		uint32_t id, k, n, depth;
	};
	uint16_t *st = calloc(nr_ids ? nr_ids : 1, sizeof(*st));
	struct frame *stack = NULL;
	size_t cap = 0;
	int rc = 0;

	if (!st)
		return d2b_error_oom(err);
	for (uint32_t root = 1; root < nr_ids && !rc; root++) {
		uint32_t next = root, next_n;	/* to push */
		size_t sp = 0;

		if (st[root] != ST_WHITE || (want && !want[root]))
			continue;
		/* a type with no edges is done at once (most of a vmlinux's:
		 * named structs, enums, ints); so below */
		next_n = graph_edges(h->btf, recs[root]);
		if (!next_n) {
			st[root] = ST_BLACK;
			continue;
		}
		do {
			struct frame *f;
			uint32_t to;

			if (next != UINT32_MAX) {
				if (sp == cap) {
					size_t ncap = cap ? 2 * cap : 256;
					struct frame *ns = realloc(stack, ncap * sizeof(*ns));

					if (!ns) {
						rc = d2b_error_oom(err);
						break;
					}
					stack = ns;
					cap = ncap;
				}
				stack[sp++] = (struct frame){ next, 0, next_n, 0 };
				st[next] = ST_GREY;
				next = UINT32_MAX;
			}
			f = &stack[sp - 1];
			if (f->k == f->n) {
				uint32_t d = f->depth + 1;

				st[f->id] = (uint16_t)(ST_BLACK + f->depth);
				if (--sp && d > stack[sp - 1].depth) {
					f = &stack[sp - 1];
					f->depth = d;
					if (d > BTF_LOAD_MAX_DEPTH)
						goto too_deep;
				}
				continue;
			}
			to = graph_edge(recs[f->id], f->k++);
			if (!to)	/* void */
				continue;
			if (st[to] >= ST_BLACK) {
				uint32_t d = st[to] - ST_BLACK + 1u;

				if (d > f->depth) {
					f->depth = d;
					if (d > BTF_LOAD_MAX_DEPTH)
						goto too_deep;
				}
			} else if (st[to] == ST_GREY) {
				rc = graph_error(h, recs[to], to, err,
						 "type [%u] %s is part of a reference cycle (through [%u] %s)",
						 to, btf_kind_name(btf_kind(recs[to])), f->id,
						 btf_kind_name(btf_kind(recs[f->id])));
			} else if ((next_n = graph_edges(h->btf, recs[to]))) {
				next = to;
			} else {
				st[to] = ST_BLACK;	/* as pushed and popped at once */
				if (f->depth < 1)
					f->depth = 1;
			}
			continue;
too_deep:
			rc = graph_error(h, recs[f->id], f->id, err,
					 "type [%u] %s: reference chain deeper than %u", f->id,
					 btf_kind_name(btf_kind(recs[f->id])), BTF_LOAD_MAX_DEPTH);
		} while ((sp || next != UINT32_MAX) && !rc);
	}
	free(st);
	free(stack);
	return rc;
}

int btf_handle_check_graph(const struct btf_handle *h, struct d2b_error *err)
{
	uint32_t n;
	const struct btf_type **recs;
	int rc;

	if (btf_handle_need_parsed(h, err))
		return -1;
	n = btf__type_cnt(h->btf);
	recs = malloc((size_t)n * sizeof(*recs));
	if (!recs)
		return d2b_error_oom(err);
	for (uint32_t id = 0; id < n; id++)
		recs[id] = btf__type_by_id(h->btf, id);
	rc = btf_check_graph(h, recs, n, NULL, err);
	free(recs);
	return rc;
}
