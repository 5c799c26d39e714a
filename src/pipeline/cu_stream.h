/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pipeline/cu_stream.h: every unit of a dw_file decoded in parallel
 * (load_cu on the worker pool) and handed to a consumer strictly in unit
 * order, one unit at a time, on whichever of the pool's threads has the
 * consumer's turn (see pool.h).
 */
#ifndef D2B_PIPELINE_CU_STREAM_H
#define D2B_PIPELINE_CU_STREAM_H

#include "load/load.h"
#include "pipeline/pool.h"

/* Called once per unit, in order. The stream destroys CU after it returns
 * (so copy what must outlive it; strings pointing into the file stay valid
 * while the file is open). Return 0, or -1 with err set to stop. */
typedef int (*cu_consumer_fn)(void *ctx, struct cu_model *cu,
			      struct d2b_error *err);

/* Optional: called once per unit on the thread that decoded it, in
 * parallel with other units and before the unit's turn at the consumer:
 * the consumer's work that needs no order (it may set cu->prepared, memory
 * from cu->arena). Only when the stream runs more than one thread: the
 * consumer must do without (with one, its turn does the same work, its
 * memory hot). CTX is read, never written: every thread shares it.
 * Return 0, or -1 with err set to stop. */
typedef int (*cu_prepare_fn)(const void *ctx, struct cu_model *cu,
			     struct d2b_error *err);

struct cu_stream_options {
	unsigned threads;		/* 0/1: decode on the calling thread */
	/* At most one thread for each this many bytes of .debug_info and
	 * .debug_types (rounded to the nearest), at least one; 0: as many
	 * as asked (CU_STREAM_THREAD_BYTES). */
	size_t thread_bytes;
	struct load_options load;
	bool skip_type_units;		/* deliver compile units only */
	cu_prepare_fn prepare;		/* optional */
	const void *prepare_ctx;
};

/* pahole's and pfunct's thread_bytes: two threads from 6 MiB of DWARF on.
 * On the project's 2-core VM (docs/performance.md, fourteenth session) a
 * second thread made pfunct slower on every module up to btrfs.ko (7.7
 * MiB: about even; sctp.ko, 4.5 MiB: 52 against 35 ms) and pahole slower
 * up to ~4.5 MiB (btrfs.ko: 20 ms faster); both gain on a vmlinux. */
#define CU_STREAM_THREAD_BYTES (4096u * 1024)

/* DF is not const: a lazy index (DW_FILE_LAZY_UNITS) is grown here, between
 * the rounds of decoding, on the calling thread (see cu_stream.c). */
int cu_stream_run(struct dw_file *df, const struct cu_stream_options *opts,
		  cu_consumer_fn consume, void *ctx, struct pool_stats *stats,
		  struct d2b_error *err);

#endif
