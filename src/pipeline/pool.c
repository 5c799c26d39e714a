// SPDX-License-Identifier: GPL-2.0-only
/*
 * The worker pool: N threads (the calling thread one of them) produce items
 * in parallel and consume them in item order, one at a time.
 *
 *                 ticket counter (next)
 *                        │  a thread takes item i only when
 *                        ▼  i < consumed + window
 *   items  ... [c] [c+1] [c+2] ... [c+window-1] │ [c+window] ...
 *               ▲   ready  busy      ready      │   must wait
 *               │
 *            the consumer's turn: whoever holds it consumes slot[c % window]
 *
 * Every item in [consumed, next) owns slot[item % window]: the window bound
 * makes those slots distinct, so a thread can publish its result without
 * searching. The mutex protects only the counters, the slots and the first
 * error; produce(), consume(), follow() and discard() always run with it
 * released.
 *
 * No thread is there only to consume: the consumer's turn goes to whichever
 * thread finds item `consumed` ready (under the lock), most often the one
 * that has just produced it. The holder consumes while the next item is
 * ready, then gives the turn back (it looked under the lock, so a result
 * published meanwhile is either seen by it or by its publisher), runs
 * follow() and takes a ticket again. A thread waits (cv) only when the
 * window is full and the turn is someone else's or the next item is still
 * being produced: it is woken when an item is consumed, on the first
 * error, and at the end. A
 * dedicated consumer thread on top of N workers cost one sleep and one
 * wake-up (a futex call, an inter-processor interrupt, a context switch) per
 * item on each side, and on as many cores as workers it took CPU from them.
 *
 * On the first error `stop` is set and cv broadcast: nobody takes a ticket
 * or the turn again; after the other threads are joined, the calling thread
 * discards every result still sitting in a slot. So discard() runs on the
 * calling thread only.
 */
#define _GNU_SOURCE
#include "pipeline/pool.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Threads get at least this much stack: the CU decoder nests as deep as the
 * DIE tree, and a RLIMIT_STACK of "unlimited" leaves glibc's 2 MiB default. */
#define POOL_MIN_STACK (8u << 20)

struct pool_slot {
	void *result;
	bool ready;
};

struct pool {
	/* Set up before the threads start, read-only afterwards. */
	size_t nr_items;
	size_t window;
	const struct pool_ops *ops;
	void *ctx;

	pthread_mutex_t lock;
	pthread_cond_t cv;
	/* Protected by lock. */
	size_t next;			/* next ticket to hand out */
	size_t consumed;		/* items 0..consumed-1 are consumed */
	size_t max_alive;
	unsigned waiting;		/* threads in pthread_cond_wait(cv) */
	bool stop;
	struct d2b_error first_err;
	struct pool_slot *slots;	/* window entries */
};

/* E, the error of WHAT (produce, consume, follow) at ITEM, into FIRST unless
 * it holds one: E's message, or one naming the item when E has none.
 * Returns -1. */
static int pool_error(struct d2b_error *first, const struct d2b_error *e,
		      const char *what, size_t item)
{
	if (!first || first->set)
		return -1;
	if (e->set)
		return d2b_error_set(first, "%s", e->msg);
	return d2b_error_set(first, "worker pool: %s of item %zu failed", what, item);
}

/* Record the first error (under the lock) and wake everybody. */
static void pool_fail_locked(struct pool *p, const struct d2b_error *e,
			     const char *what, size_t item)
{
	pool_error(&p->first_err, e, what, item);
	p->stop = true;
	pthread_cond_broadcast(&p->cv);
}

static bool next_ready_locked(const struct pool *p)
{
	return p->consumed < p->nr_items &&
	       p->slots[p->consumed % p->window].ready;
}

/*
 * The consumer's turn, taken with the lock held: consume while the next item
 * is ready. Returns with the lock held and the turn given back. The turn
 * needs no flag of its own: the item being consumed is no longer ready and
 * `consumed` moves past it only under the lock, in the same hold that looks
 * at the next item, so nobody else finds an item to consume meanwhile.
 */
static void consume_ready_locked(struct pool *p)
{
	while (!p->stop && next_ready_locked(p)) {
		struct pool_slot *s = &p->slots[p->consumed % p->window];
		struct d2b_error e = { 0 };
		size_t item = p->consumed;
		void *result = s->result;
		int rc;

		s->result = NULL;
		s->ready = false;
		pthread_mutex_unlock(&p->lock);

		rc = p->ops->consume(p->ctx, item, result, &e);

		pthread_mutex_lock(&p->lock);
		if (rc) {
			pool_fail_locked(p, &e, "consume", item);
			break;
		}
		/* The result is the consumer's now: its ticket is free. */
		p->consumed++;
		if (p->consumed == p->nr_items)
			pthread_cond_broadcast(&p->cv);	/* the end: all leave */
		else if (p->waiting)
			pthread_cond_signal(&p->cv);	/* one more ticket */
	}
}

/* One of the pool's threads (its number: THREAD). */
static void pool_work(struct pool *p, unsigned thread)
{
	pthread_mutex_lock(&p->lock);
	while (!p->stop && p->consumed < p->nr_items) {
		struct d2b_error e = { 0 };
		void *result = NULL;
		size_t item;
		int rc;

		if (next_ready_locked(p)) {
			consume_ready_locked(p);
			if (p->ops->follow && !p->stop) {
				pthread_mutex_unlock(&p->lock);
				rc = p->ops->follow(p->ctx, &e);
				pthread_mutex_lock(&p->lock);
				if (rc)	/* (named after the last item consumed) */
					pool_fail_locked(p, &e, "follow", p->consumed - 1);
			}
			continue;
		}
		if (p->next >= p->nr_items || p->next - p->consumed >= p->window) {
			/* Nothing to take: the turn is busy or the next item is
			 * in the making, and the window is full or all handed out. */
			p->waiting++;
			pthread_cond_wait(&p->cv, &p->lock);
			p->waiting--;
			continue;
		}
		item = p->next++;
		if (p->next - p->consumed > p->max_alive)
			p->max_alive = p->next - p->consumed;
		pthread_mutex_unlock(&p->lock);

		rc = p->ops->produce(p->ctx, item, thread, &result, &e);

		pthread_mutex_lock(&p->lock);
		if (rc) {
			pool_fail_locked(p, &e, "produce", item);
			break;
		}
		/* Published even after a stop: the calling thread discards it. */
		p->slots[item % p->window].result = result;
		p->slots[item % p->window].ready = true;
	}
	pthread_mutex_unlock(&p->lock);
}

struct pool_thread_arg {
	struct pool *p;
	unsigned thread;
};

static void *pool_thread(void *arg)
{
	const struct pool_thread_arg *a = arg;

	pool_work(a->p, a->thread);
	return NULL;
}

static int pool_run_inline(size_t nr_items, const struct pool_ops *ops,
			   void *ctx, struct pool_stats *stats,
			   struct d2b_error *err)
{
	if (stats)
		stats->max_alive = 1;	/* one item at a time */
	for (size_t i = 0; i < nr_items; i++) {
		struct d2b_error e = { 0 };
		void *result = NULL;

		if (ops->produce(ctx, i, 0, &result, &e))
			return pool_error(err, &e, "produce", i);
		if (ops->consume(ctx, i, result, &e))
			return pool_error(err, &e, "consume", i);
		if (ops->follow && ops->follow(ctx, &e))
			return pool_error(err, &e, "follow", i);
	}
	return 0;
}

static void pool_attr_init(pthread_attr_t *attr)
{
	size_t size = 0;

	pthread_attr_init(attr);
	if (pthread_attr_getstacksize(attr, &size) == 0 && size < POOL_MIN_STACK)
		pthread_attr_setstacksize(attr, POOL_MIN_STACK);
}

int pool_run(size_t nr_items, unsigned threads, size_t window,
	     const struct pool_ops *ops, void *ctx, struct pool_stats *stats,
	     struct d2b_error *err)
{
	struct pool p;
	pthread_t *tids;
	struct pool_thread_arg *args;
	pthread_attr_t attr;
	unsigned created = 0;
	int rc = 0;

	if (stats) {
		stats->threads_started = 0;
		stats->max_alive = 0;
	}
	if (nr_items == 0)
		return 0;
	if (threads <= 1)
		return pool_run_inline(nr_items, ops, ctx, stats, err);

	if (window == 0)
		window = 2 * (size_t)threads;
	if (window > nr_items)	/* never more slots than items */
		window = nr_items;
	if (threads > window)	/* extra threads would only sleep */
		threads = (unsigned)window;

	memset(&p, 0, sizeof(p));
	p.nr_items = nr_items;
	p.window = window;
	p.ops = ops;
	p.ctx = ctx;
	p.slots = calloc(window, sizeof(*p.slots));
	tids = calloc(threads, sizeof(*tids));
	args = calloc(threads, sizeof(*args));
	if (!p.slots || !tids || !args) {
		free(p.slots);
		free(tids);
		free(args);
		return d2b_error_oom(err);
	}
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.cv, NULL);

	/* THREADS - 1 more threads: the calling thread is one of the pool.
	 * Fewer, if the system refuses some: the calling thread alone still
	 * gets through. */
	pool_attr_init(&attr);
	for (; created + 1 < threads; created++) {
		args[created] = (struct pool_thread_arg){ &p, created + 1 };
		if (pthread_create(&tids[created], &attr, pool_thread, &args[created]))
			break;
	}
	pthread_attr_destroy(&attr);

	pool_work(&p, 0);
	for (unsigned i = 0; i < created; i++)
		pthread_join(tids[i], NULL);

	/* Every other thread is gone: no lock needed any more. Whatever results
	 * are still in slots were produced and never consumed. */
	for (size_t i = 0; i < window; i++) {
		if (p.slots[i].ready && ops->discard)
			ops->discard(ctx, p.slots[i].result);
	}
	if (p.stop || p.first_err.set)
		rc = d2b_error_set(err, "%s", p.first_err.msg);

	if (stats) {
		stats->threads_started = created + 1;
		stats->max_alive = p.max_alive;
	}
	pthread_cond_destroy(&p.cv);
	pthread_mutex_destroy(&p.lock);
	free(p.slots);
	free(tids);
	free(args);
	return rc;
}

unsigned pool_cpu_count(void)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	size_t ncpus = 1024;
	long n = online > 0 ? online : 1;

	if (conf > (long)ncpus)
		ncpus = (size_t)conf;
	/* The affinity mask may be larger than the configured CPUs on kernels
	 * built with a big NR_CPUS: grow until the kernel accepts it. */
	for (int tries = 0; tries < 8; tries++, ncpus *= 2) {
		cpu_set_t *set = CPU_ALLOC(ncpus);
		size_t size = CPU_ALLOC_SIZE(ncpus);
		int r;

		if (!set)
			break;
		CPU_ZERO_S(size, set);
		r = sched_getaffinity(0, size, set);
		if (r == 0) {
			long allowed = CPU_COUNT_S(size, set);

			CPU_FREE(set);
			if (allowed > 0 && allowed < n)
				n = allowed;
			break;
		}
		CPU_FREE(set);
		if (errno != EINVAL)
			break;
	}
	if (n > (long)UINT32_MAX)
		n = UINT32_MAX;
	return (unsigned)n;
}

/* ---- a job beside ---- */

static void *beside_thread(void *arg)
{
	struct pool_beside *b = arg;

	b->rc = b->fn(b->arg, &b->err);
	return NULL;
}

void pool_beside_start(struct pool_beside *b, bool threaded,
		       int (*fn)(void *arg, struct d2b_error *err), void *arg)
{
	pthread_attr_t attr;

	memset(b, 0, sizeof(*b));
	b->fn = fn;
	b->arg = arg;
	if (threaded) {
		pool_attr_init(&attr);
		b->running = !pthread_create(&b->thread, &attr, beside_thread, b);
		pthread_attr_destroy(&attr);
		if (b->running)
			return;
	}
	b->rc = fn(arg, &b->err);
}

int pool_beside_join(struct pool_beside *b, struct d2b_error *err)
{
	if (b->running) {
		pthread_join(b->thread, NULL);
		b->running = false;
	}
	if (!b->rc)
		return 0;
	if (err && !err->set && b->err.set)
		*err = b->err;
	return -1;
}

