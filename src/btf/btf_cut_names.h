/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * btf/btf_cut_names.h: the struct and union names at which the model's keys
 * may cut their graph (btf_model_keys.h), found by a census of the
 * definitions before the units are encoded.
 *
 * A unit that only declares `struct sock;` and points at it gives every
 * type that reaches that pointer another key than the unit that defines
 * the struct does: exact keys tell a FWD from a definition. libbpf's dedup
 * then merges the two anyway (a FWD is equivalent to a struct or union of
 * its name and kind), but only after each unit's copy was encoded, merged
 * and compared: on the Debian vmlinux 0.73 M of the 0.85 M types that
 * reached the dedup. Cut keys hash an edge to a named struct or union as
 * its name and kind alone, whatever stands there (a FWD or a definition),
 * so those copies are repeats too and never encoded (0.12 M types reach
 * the dedup).
 *
 * That is sound only for a name whose definitions are all one: where two
 * units define `struct irq_info` differently, a FWD of it is resolved by
 * neither libbpf's dedup (btf_dedup_resolve_fwds() leaves it) and a type
 * that reaches one definition is not equivalent to one that reaches the
 * other. So the census reads every unit's struct and union definitions
 * (the DIEs, not the model: a walk of all but the members, enumerators
 * and what functions hold, at the floor's price a DIE) and allows a cut
 * only at a (name, kind) whose definitions it met all in headers (".h")
 * at one size and one line: a struct defined in a .c file (the kernel's
 * ten names defined twice differently all are, among them one .c that
 * another includes under other macros) or in two places is kept whole,
 * and a name it never met a definition of is never cut.
 *
 * That is a prediction: one header line can give two different structs
 * (macros), a header's struct can reach one that two .c files define
 * differently, a function can define a struct of a header's name again
 * (the census does not look into functions: a quarter of the DIEs). So
 * the result is checked (btf_cut_names_check()): a name that
 * was allowed a cut and is defined twice in the deduplicated BTF means the
 * prediction failed, and the encoder computes the keys again, exact (the
 * output is then as without cuts). Where no name that was allowed a cut is
 * defined twice, every type the cut keys joined is equivalent to the one it
 * was joined with (each name's definitions are one, so a type that reaches
 * a FWD of it and one that reaches its definition are equivalent, and
 * libbpf's dedup, which resolves every such FWD to that definition, gives
 * the bytes it gives on the exact keys' input: t6035 and the kernel-scale
 * tests compare).
 */
#ifndef D2B_BTF_BTF_CUT_NAMES_H
#define D2B_BTF_BTF_CUT_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dwarf/dwarf.h"
#include "util/error.h"

struct btf_cut_names;
struct btf_model_keys_in;

struct btf_cut_names_stats {
	size_t definitions;	/* named struct/union definitions read */
	size_t names;		/* distinct (name, kind) among them */
	size_t kept_whole;	/* of those, never cut */
	double seconds;		/* the census, wall */
	double cpu_s;		/* its threads' CPU time, summed */
	bool gave_up;		/* DWARF it could not read: no cuts */
};

/*
 * The census of DF's units (all of them: compile and type units), on
 * THREADS threads, names as IN names them (btf_model_keys_name_id()),
 * each thread's unit copied into BUFS[thread] (NULL: buffers of its own;
 * the encoder's workers take them after, their pages faulted already).
 * Returns 0 with *OUT set, NULL when nothing may be cut (no line table
 * to tell headers by: DW_FILE_NO_LINE; DWARF the census cannot read,
 * which STATS->gave_up tells and the encoding then reports), or -1 with
 * ERR set (out of memory).
 */
int btf_cut_names_census(const struct dw_file *df, const struct btf_model_keys_in *in,
			 unsigned threads, struct dw_unit_buf *bufs, struct btf_cut_names **out,
			 struct btf_cut_names_stats *stats, struct d2b_error *err);
void btf_cut_names_free(struct btf_cut_names *c);
/* A census that met no definition: every name may be cut (tests). NULL
 * when out of memory. */
struct btf_cut_names *btf_cut_names_everywhere(void);

/* Whether an edge to the struct (IS_UNION: union) named ID may be cut: the
 * census met its definitions, all alike in headers. (Not a name it met no
 * definition of: a FWD of it is a FWD everywhere, or its definitions hide
 * where the census does not look.) */
bool btf_cut_names_may_cut(const struct btf_cut_names *c, uint64_t id, bool is_union);

/*
 * The check of the deduplicated BTF (raw, host byte order, SIZE bytes):
 * 0 when each struct or union name it defines more than once was kept
 * whole by the census, 1 when one may have been cut (*NAME then one of
 * them, in BTF's strings), -1 when the bytes are not BTF it can walk.
 */
int btf_cut_names_check(const struct btf_cut_names *c, const void *btf, size_t size,
			const char **name);

#endif
