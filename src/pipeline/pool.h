/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pipeline/: the worker pool with ordered delivery.
 *
 *   item 0 1 2 3 4 5 ...        produce(i) runs on any of the pool's threads
 *        │ │ │ │                 (the calling thread is one), in parallel; at
 *        ▼ ▼ ▼ ▼                 most `window` items produced but not yet
 *                                consumed are alive (default 2 × threads)
 *   consume(0), consume(1), ...  strictly in item order, one at a time, on
 *                                whichever thread's turn it is (the lock
 *                                handing the turn over orders their memory)
 *   follow()                     after a thread's turn, beside the next ones
 *
 * The first error (from produce, consume or follow) stops the pool: no new item is
 * started, results not yet consumed are released with discard(), and the first
 * error's message is returned in err. With threads <= 1 everything runs on the
 * calling thread, in order, with no thread created.
 *
 * Stacks: the threads the pool creates get at least 8 MiB; the calling
 * thread keeps its own (the main thread's RLIMIT_STACK), and with threads it
 * produces and consumes too, as it always did inline.
 */
#ifndef D2B_PIPELINE_POOL_H
#define D2B_PIPELINE_POOL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"

struct pool_ops {
	/* Runs on one of the pool's threads: THREAD says which (0 ..
	 * threads - 1, 0 the calling thread; never two calls with the same
	 * at once), for state kept per thread. Returns 0 with *result set,
	 * or -1 with err set. */
	int (*produce)(void *ctx, size_t item, unsigned thread, void **result,
		       struct d2b_error *err);
	/* Runs in item order, never two at once, on any of the pool's
	 * threads. Owns result afterwards. */
	int (*consume)(void *ctx, size_t item, void *result, struct d2b_error *err);
	/* Optional: runs on a thread that has just consumed, once it gave the
	 * consumer's turn back, so beside later consume() and produce() calls
	 * (it does its own locking against them): work that follows the
	 * consumed items (and its own turn, if it must not run twice at once).
	 * Inline, after each consume(). Returns 0, or -1 with err set. */
	int (*follow)(void *ctx, struct d2b_error *err);
	/* Releases a result that will not be consumed (after an error). */
	void (*discard)(void *ctx, void *result);
};

struct pool_stats {
	unsigned threads_started;	/* threads that ran (the caller's one) */
	size_t max_alive;		/* most results alive at once */
};

/* threads: worker count (0 or 1: run inline). window: 0 for 2 × threads.
 * stats may be NULL. Returns 0 or -1. */
int pool_run(size_t nr_items, unsigned threads, size_t window,
	     const struct pool_ops *ops, void *ctx, struct pool_stats *stats,
	     struct d2b_error *err);

/*
 * A job run beside the caller's own work (a pool's, say) until the caller
 * needs its result: on a thread of its own when asked for, else at once,
 * inline (and so when no thread can be made). The job must not touch what
 * the caller touches meanwhile.
 *
 *   pool_beside_start(&b, threads > 1, job, arg);
 *   ... other work ...
 *   if (pool_beside_join(&b, err)) ...
 */
struct pool_beside {
	int (*fn)(void *arg, struct d2b_error *err);
	void *arg;
	int rc;			/* fn's, once done */
	struct d2b_error err;	/* fn's error, when rc is -1 */
	bool running;		/* on a thread not joined yet */
	pthread_t thread;
};

void pool_beside_start(struct pool_beside *b, bool threaded,
		       int (*fn)(void *arg, struct d2b_error *err), void *arg);
/* Waits for the job, if it runs still. Its result: 0, or -1 with its
 * error's message in err (may be NULL). Again after that: the same. */
int pool_beside_join(struct pool_beside *b, struct d2b_error *err);

/* Number of online CPUs (at least 1). */
unsigned pool_cpu_count(void);

#endif
