/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pipeline/: the worker pool with ordered delivery.
 *
 *   item 0 1 2 3 4 5 ...        produce(i) runs on any worker, in parallel
 *        │ │ │ │                 at most `window` items produced but not yet
 *        ▼ ▼ ▼ ▼                 consumed are alive at once (default 2 × threads)
 *   consume(0), consume(1), ...  strictly in item order, on the calling thread
 *
 * The first error (from produce or consume) stops the pool: no new item is
 * started, results not yet consumed are released with discard(), and the first
 * error's message is returned in err. With threads <= 1 everything runs on the
 * calling thread, in order, with no thread created.
 */
#ifndef D2B_PIPELINE_POOL_H
#define D2B_PIPELINE_POOL_H

#include <stddef.h>

#include "util/error.h"

struct pool_ops {
	/* Runs on a worker. Returns 0 with *result set, or -1 with err set. */
	int (*produce)(void *ctx, size_t item, void **result, struct d2b_error *err);
	/* Runs on the calling thread, in item order. Owns result afterwards. */
	int (*consume)(void *ctx, size_t item, void *result, struct d2b_error *err);
	/* Releases a result that will not be consumed (after an error). */
	void (*discard)(void *ctx, void *result);
};

struct pool_stats {
	unsigned threads_started;	/* worker threads actually created */
	size_t max_alive;		/* most results alive at once */
};

/* threads: worker count (0 or 1: run inline). window: 0 for 2 × threads.
 * stats may be NULL. Returns 0 or -1. */
int pool_run(size_t nr_items, unsigned threads, size_t window,
	     const struct pool_ops *ops, void *ctx, struct pool_stats *stats,
	     struct d2b_error *err);

/* Number of online CPUs (at least 1). */
unsigned pool_cpu_count(void);

#endif
