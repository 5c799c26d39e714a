/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * print/pahole_reorg.h: pahole -R, a struct's members moved into its holes
 * as pahole 1.24's class__reorganize moves them, and the result printed as
 * its do_reorg prints it.
 *
 * The moves, in 1.24's order, restarting after each: the padding is first
 * recomputed from the largest member-and-hole that fits in a word; then,
 * for each member followed by a hole, the next member that is followed by
 * a hole and fits in it is moved there (unless it comes right after), and
 * else, when the struct has padding, its last member; then, while holes
 * remain, the last member that fits. A moved member lands after its new
 * predecessor at an offset its size aligns (a word at most); the struct
 * shrinks by a word when the old place and its hole reach one, or by the
 * member and the padding when it was the last. Bit-fields never move (1.24
 * builds without its bit-field algorithms).
 */
#ifndef D2B_PRINT_PAHOLE_REORG_H
#define D2B_PRINT_PAHOLE_REORG_H

#include <stdbool.h>

#include "load/model.h"
#include "print/pahole_print.h"
#include "util/error.h"
#include "util/strbuf.h"

/* Whether -R can take T: a struct or class of data members only (no C++
 * bases, no static members: not ours yet). */
bool pahole_reorg_supported(const struct type *t);

/* Append to OUT what 1.24's `pahole -R -C NAME` prints for T, a struct of
 * CU that pahole_reorg_supported() takes: with VERBOSE 1 (-V) each move
 * first, with 2 (-S) each move and the struct as it left it (where 1.24
 * crashes), then the reorganized struct and what it saved. Returns 0, or
 * -1 with err set (out of memory). */
int pahole_reorg_print(struct strbuf *out, const struct cu_model *cu, const struct type *t,
		       int verbose, const struct pahole_print_opts *o, struct d2b_error *err);

/* The size T (as pahole_reorg_supported() takes) would have once
 * reorganized: -P's test. Returns 0, or -1 when out of memory. */
int pahole_reorg_size(const struct cu_model *cu, const struct type *t, uint64_t *size);

#endif
