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

struct cu_stream_options {
	unsigned threads;		/* 0/1: decode on the calling thread */
	struct load_options load;
	bool skip_type_units;		/* deliver compile units only */
};

/* DF is not const: a lazy index (DW_FILE_LAZY_UNITS) is grown here, between
 * the rounds of decoding, on the calling thread (see cu_stream.c). */
int cu_stream_run(struct dw_file *df, const struct cu_stream_options *opts,
		  cu_consumer_fn consume, void *ctx, struct pool_stats *stats,
		  struct d2b_error *err);

#endif
