/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * btf/btf_load_internal.h: what the files behind btf_load.h share (private
 * to them):
 *
 *   btf_load.c        reading the bytes (a raw file, an ELF's .BTF), the
 *                     handles, libbpf's parse
 *   btf_check.c       our check of the raw bytes before anything reads them
 *   btf_graph.c       the printers' reference graph: no cycle, no chain too
 *                     deep
 *   btf_load_model.c  the model of a handle's types (all, or pahole -C's
 *                     closure)
 */
#ifndef D2B_BTF_BTF_LOAD_INTERNAL_H
#define D2B_BTF_BTF_LOAD_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <bpf/btf.h>

#include "btf/btf_load.h"
#include "util/error.h"

#define BTF_SECTION ".BTF"
#define BTF_HDR_MIN 24u
#define BTF_REC 12u		/* struct btf_type */
/* A BTF file bigger than this is not BTF we want (vmlinux's is 4 MiB). */
#define BTF_MAX_FILE (1u << 30)

/* What btf_check_bytes() leaves of a BTF it passed, for a handle without
 * libbpf's parse (btf_handle_open_unparsed()). */
struct raw_kept {
	bool swapped;		/* not this machine's byte order: nothing kept */
	uint32_t *offs;		/* nr: each record's offset in the bytes */
	uint8_t *kinds;		/* nr: each record's kind */
	uint32_t nr;
	uint32_t nr_anon;	/* records without a name */
	uint32_t str_at, str_len;	/* the string section in the bytes */
};

struct btf_handle {
	char *path;
	struct btf *btf;
	struct btf_handle *base_owned;	/* opened by us from base_path */
	const struct btf_handle *base;	/* NULL unless split */
	uint32_t start_id;
	uint32_t str_total;		/* bytes of strings, the base's included */
	uint32_t types_at;		/* its type section, in the bytes opened */
	/* btf_handle_open_unparsed() without libbpf's parse yet: the bytes
	 * checked (size bytes, this machine's byte order) and what the check
	 * found (kept.offs: each record's offset in them) */
	uint8_t *bytes;
	size_t size;
	struct raw_kept kept;
};

/* btf_check.c */
/* The whole check of DATA (SIZE bytes) as BTF, split on BASE if not NULL
 * (BASE_STR_LEN: the size of all its strings): 0, or -1 with ERR set. Sets
 * *STR_TOTAL to the size of all strings, the base's included, *TYPES_AT to
 * where the type section starts, and fills KEPT (if not NULL). */
int btf_check_bytes(const char *path, const uint8_t *data, size_t size,
		    const struct btf *base, uint32_t base_str_len,
		    uint32_t *str_total, uint32_t *types_at, struct raw_kept *kept,
		    struct d2b_error *err);
/* "STRUCT", "FUNC_PROTO", ... ("?" past the kinds known). */
const char *btf_kind_name(unsigned kind);

/* btf_load.c */
/* 0 when H and its bases are parsed by libbpf, else -1 with ERR set. */
int btf_handle_need_parsed(const struct btf_handle *h, struct d2b_error *err);

/* btf_graph.c */
/* No cycle and no chain deeper than BTF_LOAD_MAX_DEPTH among the printers'
 * edges of RECS (by id, NR_IDS of them; WANT: the ids to check, NULL for
 * all): 0, or -1 with ERR set. */
int btf_check_graph(const struct btf_handle *h, const struct btf_type *const *recs,
		    uint32_t nr_ids, const uint8_t *want, struct d2b_error *err);

#endif
