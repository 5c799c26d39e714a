// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of pipeline/pool.c: ordered delivery, the window bound, stopping
 * on the first error (from produce or consume), discard() of every result
 * left over, consume() never running twice at once, follow() after the
 * last consume, the inline mode and the statistics; a job beside
 * (pool_beside_*) on a thread and inline; then pipeline/cu_stream.c on
 * real files (this program's own DWARF, and a fixture with type units
 * compiled at run time when a C compiler is there). Clean under
 * -DD2B_SANITIZE=thread and =address (results are heap objects, so a result
 * neither consumed nor discarded shows up as a leak).
 */
#include "check.h"
#include "pipeline/cu_stream.h"
#include "pipeline/pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NONE SIZE_MAX
#define RESULT_MAGIC 0x5eedf00dcafe1234ull
#define MAX_THREADS 16

struct result {
	size_t item;
	uint64_t magic;
};

struct tctx {
	/* Configuration (read-only while the pool runs). */
	pthread_t caller;
	uint32_t seed;
	unsigned produce_max_us;	/* pseudo-random delay 0..max in produce */
	unsigned consume_us;		/* fixed delay in consume */
	size_t fail_produce_at;		/* NONE or the item whose produce fails */
	size_t fail_consume_at;		/* NONE or the item whose consume fails */
	size_t fail_follow_after;	/* NONE, or follow fails once this many are consumed */
	bool fail_without_message;	/* fail without filling err */

	/* Touched by workers: atomics. */
	atomic_size_t started;		/* produce calls */
	atomic_size_t produced;		/* successful produce calls */
	atomic_size_t discarded;
	atomic_size_t alive;		/* results started and not yet released */
	atomic_size_t max_alive;
	atomic_size_t max_started_item;	/* highest item + 1 that produce saw */
	atomic_size_t produce_on_caller;
	atomic_size_t discard_off_caller;
	atomic_size_t consuming;	/* threads inside consume() */
	atomic_size_t overlaps;		/* a consume() met another one */
	atomic_size_t consume_on_caller;
	atomic_size_t consume_off_caller;
	atomic_size_t follow_calls;
	atomic_size_t follow_saw;	/* most consume calls a follow() saw */
	atomic_size_t consumed_done;	/* consume calls returned */
	atomic_size_t in_thread[MAX_THREADS];	/* produce calls with that number */
	atomic_size_t bad_thread;	/* a thread number wrong or shared */
	atomic_size_t max_thread;	/* highest thread number + 1 */

	/* Touched by whoever has the consumer's turn (one at a time, ordered
	 * by the pool's lock). */
	size_t consume_calls;
	size_t next_expected;
	size_t out_of_order;
	size_t bad_results;
};

static void tctx_init(struct tctx *t)
{
	memset(t, 0, sizeof(*t));
	t->caller = pthread_self();
	t->fail_produce_at = NONE;
	t->fail_consume_at = NONE;
	t->fail_follow_after = NONE;
	atomic_init(&t->started, 0);
	atomic_init(&t->produced, 0);
	atomic_init(&t->discarded, 0);
	atomic_init(&t->alive, 0);
	atomic_init(&t->max_alive, 0);
	atomic_init(&t->max_started_item, 0);
	atomic_init(&t->produce_on_caller, 0);
	atomic_init(&t->discard_off_caller, 0);
	atomic_init(&t->consuming, 0);
	atomic_init(&t->overlaps, 0);
	atomic_init(&t->consume_on_caller, 0);
	atomic_init(&t->consume_off_caller, 0);
	atomic_init(&t->follow_calls, 0);
	atomic_init(&t->follow_saw, 0);
	atomic_init(&t->consumed_done, 0);
	for (size_t i = 0; i < MAX_THREADS; i++)
		atomic_init(&t->in_thread[i], 0);
	atomic_init(&t->bad_thread, 0);
	atomic_init(&t->max_thread, 0);
}

static uint32_t hash32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352dU;
	x ^= x >> 15;
	x *= 0x846ca68bU;
	x ^= x >> 16;
	return x;
}

static void sleep_us(unsigned us)
{
	struct timespec ts = { us / 1000000, (long)(us % 1000000) * 1000 };

	if (us)
		nanosleep(&ts, NULL);
}

static void atomic_max(atomic_size_t *a, size_t v)
{
	size_t cur = atomic_load(a);

	while (cur < v && !atomic_compare_exchange_weak(a, &cur, v))
		;
}

static int produce_item(struct tctx *t, size_t item, void **out, struct d2b_error *err)
{
	struct result *r;

	atomic_fetch_add(&t->started, 1);
	atomic_max(&t->max_started_item, item + 1);
	atomic_max(&t->max_alive, atomic_fetch_add(&t->alive, 1) + 1);
	if (pthread_equal(pthread_self(), t->caller))
		atomic_fetch_add(&t->produce_on_caller, 1);
	if (t->produce_max_us)
		sleep_us(hash32((uint32_t)item ^ t->seed) % (t->produce_max_us + 1));
	if (item == t->fail_produce_at) {
		atomic_fetch_sub(&t->alive, 1);
		if (t->fail_without_message)
			return -1;
		return d2b_error_set(err, "test: produce of %zu failed", item);
	}
	r = malloc(sizeof(*r));
	if (!r)
		return d2b_error_oom(err);
	r->item = item;
	r->magic = RESULT_MAGIC;
	*out = r;
	atomic_fetch_add(&t->produced, 1);
	return 0;
}

/* Also checks the thread number: below the threads asked for, 0 on the
 * calling thread only, never in two calls at once. */
static int t_produce(void *ctx, size_t item, unsigned thread, void **out,
		     struct d2b_error *err)
{
	struct tctx *t = ctx;
	int rc;

	if (thread >= MAX_THREADS) {
		atomic_fetch_add(&t->bad_thread, 1);
		return produce_item(t, item, out, err);
	}
	if (atomic_fetch_add(&t->in_thread[thread], 1) != 0 ||
	    pthread_equal(pthread_self(), t->caller) != (thread == 0))
		atomic_fetch_add(&t->bad_thread, 1);
	atomic_max(&t->max_thread, thread + 1);
	rc = produce_item(t, item, out, err);
	atomic_fetch_sub(&t->in_thread[thread], 1);
	return rc;
}

static int t_consume(void *ctx, size_t item, void *result, struct d2b_error *err)
{
	struct tctx *t = ctx;
	struct result *r = result;
	int rc = 0;

	if (atomic_fetch_add(&t->consuming, 1) != 0)
		atomic_fetch_add(&t->overlaps, 1);
	t->consume_calls++;
	if (pthread_equal(pthread_self(), t->caller))
		atomic_fetch_add(&t->consume_on_caller, 1);
	else
		atomic_fetch_add(&t->consume_off_caller, 1);
	if (item != t->next_expected)
		t->out_of_order++;
	t->next_expected = item + 1;
	if (!r || r->item != item || r->magic != RESULT_MAGIC)
		t->bad_results++;
	sleep_us(t->consume_us);
	if (item == t->fail_consume_at) {
		rc = t->fail_without_message
			     ? -1
			     : d2b_error_set(err, "test: consume of %zu failed", item);
	}
	/* The consumer owns the result even when it fails. */
	if (r)
		r->magic = 0;
	free(r);
	atomic_fetch_sub(&t->alive, 1);
	atomic_fetch_add(&t->consumed_done, 1);
	atomic_fetch_sub(&t->consuming, 1);
	return rc;
}

/* Counts the calls; remembers the most consumptions one of them saw done
 * (each consume ends before its thread's follow starts). */
static int t_follow(void *ctx, struct d2b_error *err)
{
	struct tctx *t = ctx;
	size_t done = atomic_load(&t->consumed_done);

	atomic_fetch_add(&t->follow_calls, 1);
	atomic_max(&t->follow_saw, done);
	if (t->fail_follow_after != NONE && done >= t->fail_follow_after)
		return d2b_error_set(err, "test: follow failed");
	return 0;
}

static void t_discard(void *ctx, void *result)
{
	struct tctx *t = ctx;
	struct result *r = result;

	if (!pthread_equal(pthread_self(), t->caller))
		atomic_fetch_add(&t->discard_off_caller, 1);
	if (!r || r->magic != RESULT_MAGIC)
		fprintf(stderr, "discard of a bad result\n"), failures++;
	if (r)
		r->magic = 0;
	free(r);
	atomic_fetch_add(&t->discarded, 1);
	atomic_fetch_sub(&t->alive, 1);
}

static const struct pool_ops t_ops = {
	.produce = t_produce,
	.consume = t_consume,
	.discard = t_discard,
	.follow = t_follow,
};

/* Invariants of every run: what was produced was consumed or discarded,
 * consumption happened in order and never two at once, discard on the
 * calling thread, nothing is left alive, and after a run that consumed
 * everything a follow() started after the last consume(). Inline, all of it
 * on the calling thread. */
static void check_common(const char *what, struct tctx *t, bool threaded)
{
	size_t produced = atomic_load(&t->produced);
	size_t discarded = atomic_load(&t->discarded);

	CHECK(produced == t->consume_calls + discarded,
	      "%s: produced %zu != consumed %zu + discarded %zu", what, produced,
	      t->consume_calls, discarded);
	CHECK(t->out_of_order == 0, "%s: %zu items out of order", what,
	      t->out_of_order);
	CHECK(t->bad_results == 0, "%s: %zu bad results", what, t->bad_results);
	CHECK(atomic_load(&t->overlaps) == 0, "%s: consume ran twice at once %zu times",
	      what, atomic_load(&t->overlaps));
	CHECK(atomic_load(&t->bad_thread) == 0, "%s: %zu produce calls with a wrong thread number",
	      what, atomic_load(&t->bad_thread));
	CHECK(atomic_load(&t->discard_off_caller) == 0,
	      "%s: discard ran off the calling thread", what);
	CHECK(atomic_load(&t->alive) == 0, "%s: %zu results still alive", what,
	      atomic_load(&t->alive));
	if (discarded == 0 && t->fail_produce_at == NONE && t->fail_consume_at == NONE &&
	    t->fail_follow_after == NONE)
		CHECK(atomic_load(&t->follow_saw) == t->consume_calls,
		      "%s: the last follow saw %zu of %zu consumed", what,
		      atomic_load(&t->follow_saw), t->consume_calls);
	if (!threaded) {
		CHECK(atomic_load(&t->produce_on_caller) == atomic_load(&t->started),
		      "%s: inline produce ran off the calling thread", what);
		CHECK(atomic_load(&t->consume_off_caller) == 0,
		      "%s: inline consume ran off the calling thread", what);
	}
}

/* The calling thread is one of the pool's: with enough items it produces
 * and takes the consumer's turn too, and so do the others. */
static void test_caller_works(void)
{
	struct tctx t;
	struct pool_stats st = { 0, 0 };
	struct d2b_error err = { 0 };
	int rc;

	tctx_init(&t);
	t.produce_max_us = 200;
	rc = pool_run(400, 2, 0, &t_ops, &t, &st, &err);
	CHECK(rc == 0, "caller works: rc %d (%s)", rc, err.msg);
	CHECK(st.threads_started == 2, "caller works: threads_started %u", st.threads_started);
	CHECK(atomic_load(&t.produce_on_caller) > 0 &&
	      atomic_load(&t.produce_on_caller) < 400,
	      "caller works: the caller produced %zu of 400",
	      atomic_load(&t.produce_on_caller));
	CHECK(atomic_load(&t.consume_on_caller) > 0 &&
	      atomic_load(&t.consume_off_caller) > 0,
	      "caller works: consumed %zu on the caller, %zu off it",
	      atomic_load(&t.consume_on_caller), atomic_load(&t.consume_off_caller));
	CHECK(atomic_load(&t.follow_calls) >= 1, "caller works: follow never ran");
	CHECK(atomic_load(&t.max_thread) == 2, "caller works: thread numbers up to %zu",
	      atomic_load(&t.max_thread));
	check_common("caller works", &t, true);
}

/* 200 items, 4 threads, random produce delays: all consumed, in order, and
 * the window bound holds. Repeated with different delay patterns. */
static void test_ordering(void)
{
	for (uint32_t seed = 1; seed <= 4; seed++) {
		struct tctx t;
		struct pool_stats st = { 99, 99 };
		struct d2b_error err = { 0 };
		int rc;

		tctx_init(&t);
		t.seed = seed * 0x9e3779b9u;
		t.produce_max_us = 400;
		rc = pool_run(200, 4, 0, &t_ops, &t, &st, &err);
		CHECK(rc == 0, "ordering: rc %d (%s)", rc, err.msg);
		CHECK(!err.set, "ordering: err set: %s", err.msg);
		CHECK(t.consume_calls == 200, "ordering: %zu consumed", t.consume_calls);
		CHECK(t.next_expected == 200, "ordering: ended at %zu", t.next_expected);
		CHECK(atomic_load(&t.started) == 200, "ordering: %zu started",
		      atomic_load(&t.started));
		CHECK(atomic_load(&t.discarded) == 0, "ordering: %zu discarded",
		      atomic_load(&t.discarded));
		CHECK(st.threads_started == 4, "ordering: threads_started %u",
		      st.threads_started);
		CHECK(st.max_alive >= 1 && st.max_alive <= 8,
		      "ordering: stats max_alive %zu", st.max_alive);
		CHECK(atomic_load(&t.max_alive) <= 8, "ordering: %zu alive at once",
		      atomic_load(&t.max_alive));
		check_common("ordering", &t, true);
	}
}

/* A slow consumer fills the window: exactly `window` results are alive at
 * the peak, never more, for both the default and explicit windows. */
static void test_window(void)
{
	static const struct {
		unsigned threads;
		size_t window, expect;
	} cases[] = { { 4, 0, 8 }, { 3, 5, 5 }, { 4, 1, 1 }, { 2, 16, 16 } };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tctx t;
		struct pool_stats st = { 0, 0 };
		struct d2b_error err = { 0 };
		int rc;

		tctx_init(&t);
		t.consume_us = 1000;
		rc = pool_run(40, cases[i].threads, cases[i].window, &t_ops, &t, &st,
			      &err);
		CHECK(rc == 0, "window %zu: rc %d (%s)", i, rc, err.msg);
		CHECK(t.consume_calls == 40, "window %zu: %zu consumed", i,
		      t.consume_calls);
		CHECK(atomic_load(&t.max_alive) == cases[i].expect,
		      "window %zu: %zu alive at once, want %zu", i,
		      atomic_load(&t.max_alive), cases[i].expect);
		CHECK(st.max_alive == cases[i].expect,
		      "window %zu: stats max_alive %zu, want %zu", i, st.max_alive,
		      cases[i].expect);
		check_common("window", &t, true);
	}
}

/* No delays at all: the lock and the condition variables under the most
 * contention, for small windows where a lost wake-up would hang. */
static void test_contention(void)
{
	static const struct {
		unsigned threads;
		size_t window;
	} cases[] = { { 2, 1 }, { 2, 2 }, { 4, 3 }, { 4, 4 }, { 4, 0 }, { 8, 9 } };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t window = cases[i].window ? cases[i].window
						: 2 * (size_t)cases[i].threads;
		struct tctx t;
		struct pool_stats st = { 0, 0 };
		struct d2b_error err = { 0 };
		int rc;

		tctx_init(&t);
		rc = pool_run(3000, cases[i].threads, cases[i].window, &t_ops, &t,
			      &st, &err);
		CHECK(rc == 0, "contention %zu: rc %d (%s)", i, rc, err.msg);
		CHECK(t.consume_calls == 3000, "contention %zu: %zu consumed", i,
		      t.consume_calls);
		CHECK(atomic_load(&t.max_alive) <= window,
		      "contention %zu: %zu alive, window %zu", i,
		      atomic_load(&t.max_alive), window);
		CHECK(st.max_alive <= window, "contention %zu: stats max_alive %zu", i,
		      st.max_alive);
		check_common("contention", &t, true);
	}
}

/* produce fails at item k: error returned, nothing at or beyond k + window
 * started, everything produced but unconsumed discarded. */
static void test_produce_error(void)
{
	static const size_t ks[] = { 0, 7, 50, 199 };

	for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
		size_t k = ks[i];
		struct tctx t;
		struct pool_stats st = { 0, 0 };
		struct d2b_error err = { 0 };
		char want[64];
		int rc;

		tctx_init(&t);
		t.seed = (uint32_t)k;
		t.produce_max_us = 300;
		t.fail_produce_at = k;
		rc = pool_run(200, 4, 8, &t_ops, &t, &st, &err);
		snprintf(want, sizeof(want), "test: produce of %zu failed", k);
		CHECK(rc == -1, "produce error at %zu: rc %d", k, rc);
		CHECK(err.set && strcmp(err.msg, want) == 0,
		      "produce error at %zu: message '%s'", k, err.msg);
		CHECK(t.consume_calls <= k, "produce error at %zu: %zu consumed", k,
		      t.consume_calls);
		CHECK(atomic_load(&t.max_started_item) <= k + 8,
		      "produce error at %zu: item %zu started", k,
		      atomic_load(&t.max_started_item) - 1);
		CHECK(st.threads_started == 4, "produce error: threads_started %u",
		      st.threads_started);
		check_common("produce error", &t, true);
	}
}

/* A slow consumer holds the window full when produce fails, so there are
 * results left to discard; the count must balance. */
static void test_discard(void)
{
	struct tctx t;
	struct d2b_error err = { 0 };
	int rc;

	tctx_init(&t);
	t.consume_us = 2000;
	t.produce_max_us = 100;
	t.fail_produce_at = 12;
	rc = pool_run(100, 4, 8, &t_ops, &t, NULL, &err);
	CHECK(rc == -1, "discard: rc %d", rc);
	CHECK(atomic_load(&t.discarded) > 0, "discard: nothing discarded");
	CHECK(atomic_load(&t.max_started_item) <= 12 + 8,
	      "discard: item %zu started", atomic_load(&t.max_started_item) - 1);
	check_common("discard", &t, true);
}

/* consume fails at item k: error returned, consume not called again, the
 * rest discarded, nothing at or beyond k + window started. */
static void test_consume_error(void)
{
	static const size_t ks[] = { 0, 9, 120 };

	for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
		size_t k = ks[i];
		struct tctx t;
		struct d2b_error err = { 0 };
		char want[64];
		int rc;

		tctx_init(&t);
		t.seed = (uint32_t)k + 77;
		t.produce_max_us = 200;
		t.fail_consume_at = k;
		rc = pool_run(200, 3, 0, &t_ops, &t, NULL, &err);
		snprintf(want, sizeof(want), "test: consume of %zu failed", k);
		CHECK(rc == -1, "consume error at %zu: rc %d", k, rc);
		CHECK(err.set && strcmp(err.msg, want) == 0,
		      "consume error at %zu: message '%s'", k, err.msg);
		CHECK(t.consume_calls == k + 1, "consume error at %zu: %zu calls", k,
		      t.consume_calls);
		CHECK(atomic_load(&t.max_started_item) <= k + 6,
		      "consume error at %zu: item %zu started", k,
		      atomic_load(&t.max_started_item) - 1);
		check_common("consume error", &t, true);
	}
}

/* follow fails once 30 items are consumed: the pool stops with its message,
 * consumes nothing far beyond (each thread at most finishes the turn it is
 * in: items already ready), and everything produced is consumed or
 * discarded; inline it stops right after the 30th. */
static void test_follow_error(void)
{
	for (unsigned threads = 1; threads <= 4; threads += 3) {
		struct tctx t;
		struct d2b_error err = { 0 };
		int rc;

		tctx_init(&t);
		t.produce_max_us = 100;
		t.fail_follow_after = 30;
		rc = pool_run(200, threads, 8, &t_ops, &t, NULL, &err);
		CHECK(rc == -1 && err.set && !strcmp(err.msg, "test: follow failed"),
		      "follow error, %u threads: rc %d '%s'", threads, rc, err.msg);
		CHECK(t.consume_calls >= 30 && t.consume_calls <= 30 + 8,
		      "follow error, %u threads: %zu consumed", threads, t.consume_calls);
		CHECK(threads > 1 || t.consume_calls == 30,
		      "follow error inline: %zu consumed", t.consume_calls);
		check_common("follow error", &t, threads > 1);
	}
}

/* A callback failing without a message still yields one naming the item;
 * an error already in err is kept (first error wins). */
static void test_error_messages(void)
{
	struct tctx t;
	struct d2b_error err = { 0 };
	int rc;

	tctx_init(&t);
	t.fail_produce_at = 5;
	t.fail_without_message = true;
	rc = pool_run(20, 2, 0, &t_ops, &t, NULL, &err);
	CHECK(rc == -1, "silent produce error: rc %d", rc);
	CHECK(err.set && strstr(err.msg, "produce") && strstr(err.msg, "item 5"),
	      "silent produce error: message '%s'", err.msg);
	check_common("silent produce error", &t, true);

	tctx_init(&t);
	d2b_error_clear(&err);
	t.fail_consume_at = 3;
	t.fail_without_message = true;
	rc = pool_run(20, 1, 0, &t_ops, &t, NULL, &err);
	CHECK(rc == -1, "silent inline consume error: rc %d", rc);
	CHECK(err.set && strstr(err.msg, "consume") && strstr(err.msg, "item 3"),
	      "silent inline consume error: message '%s'", err.msg);
	check_common("silent inline consume error", &t, false);
}

/* threads <= 1: no thread, everything on the calling thread, in order;
 * errors stop it the same way. */
static void test_inline(void)
{
	for (unsigned threads = 0; threads <= 1; threads++) {
		struct tctx t;
		struct pool_stats st = { 99, 99 };
		struct d2b_error err = { 0 };
		int rc;

		tctx_init(&t);
		rc = pool_run(50, threads, 0, &t_ops, &t, &st, &err);
		CHECK(rc == 0, "inline %u: rc %d (%s)", threads, rc, err.msg);
		CHECK(t.consume_calls == 50, "inline %u: %zu consumed", threads,
		      t.consume_calls);
		CHECK(st.threads_started == 0, "inline %u: threads_started %u",
		      threads, st.threads_started);
		CHECK(st.max_alive == 1, "inline %u: max_alive %zu", threads,
		      st.max_alive);
		CHECK(atomic_load(&t.max_alive) == 1, "inline %u: %zu alive", threads,
		      atomic_load(&t.max_alive));
		CHECK(atomic_load(&t.produce_on_caller) == 50,
		      "inline %u: produce on caller %zu times", threads,
		      atomic_load(&t.produce_on_caller));
		check_common("inline", &t, false);
	}

	struct tctx t;
	struct d2b_error err = { 0 };
	int rc;

	tctx_init(&t);
	t.fail_produce_at = 10;
	rc = pool_run(50, 1, 0, &t_ops, &t, NULL, &err);
	CHECK(rc == -1 && strcmp(err.msg, "test: produce of 10 failed") == 0,
	      "inline produce error: rc %d '%s'", rc, err.msg);
	CHECK(t.consume_calls == 10 && atomic_load(&t.started) == 11,
	      "inline produce error: %zu consumed, %zu started", t.consume_calls,
	      atomic_load(&t.started));
	check_common("inline produce error", &t, false);
}

/* Edge cases: no items; more threads than items. */
static void test_edges(void)
{
	struct tctx t;
	struct pool_stats st = { 99, 99 };
	struct d2b_error err = { 0 };
	int rc;

	tctx_init(&t);
	rc = pool_run(0, 4, 0, &t_ops, &t, &st, &err);
	CHECK(rc == 0 && !err.set, "no items: rc %d", rc);
	CHECK(atomic_load(&t.started) == 0 && t.consume_calls == 0,
	      "no items: callbacks ran");
	CHECK(st.threads_started == 0 && st.max_alive == 0,
	      "no items: stats %u %zu", st.threads_started, st.max_alive);

	tctx_init(&t);
	t.produce_max_us = 200;
	rc = pool_run(3, 8, 0, &t_ops, &t, &st, &err);
	CHECK(rc == 0, "3 items on 8 threads: rc %d (%s)", rc, err.msg);
	CHECK(t.consume_calls == 3, "3 items on 8 threads: %zu consumed",
	      t.consume_calls);
	CHECK(st.threads_started >= 1 && st.threads_started <= 3,
	      "3 items on 8 threads: threads_started %u", st.threads_started);
	CHECK(st.max_alive <= 3, "3 items: max_alive %zu", st.max_alive);
	check_common("3 items on 8 threads", &t, true);
}

/* ---- cu_stream: load_cu on the pool, delivered in unit order ---------- */

struct cs_ctx {
	uint32_t *seen;			/* cu->index of each delivery */
	size_t nr_seen, cap;
	size_t fail_at;			/* NONE or the delivery that fails */
	atomic_int inside;		/* threads in cs_consume */
	atomic_int overlaps;		/* a delivery met another one */
	bool want_prepared;		/* every unit comes with cs_prepare's mark */
	size_t bad_prepared;		/* deliveries without it (or with it, unwanted) */
};

/* The prepare hook's context: read-only, as every thread shares it. */
struct cs_prep {
	atomic_int *calls;
	uint32_t fail_unit;		/* UINT32_MAX: none fails */
};

/* Marks CU with its own index, in its arena. */
static int cs_prepare(const void *ctx, struct cu_model *cu, struct d2b_error *err)
{
	const struct cs_prep *p = ctx;
	uint32_t *mark;

	atomic_fetch_add(p->calls, 1);
	if (cu->index == p->fail_unit)
		return d2b_error_set(err, "test: prepare fails at CU %u", cu->index);
	mark = arena_alloc(&cu->arena, sizeof(*mark));
	if (!mark)
		return d2b_error_oom(err);
	*mark = cu->index + 1000;
	cu->prepared = mark;
	return 0;
}

static int cs_consume(void *ctx, struct cu_model *cu, struct d2b_error *err)
{
	struct cs_ctx *c = ctx;
	const uint32_t *mark = cu->prepared;
	int rc = 0;

	if (atomic_fetch_add(&c->inside, 1))
		atomic_fetch_add(&c->overlaps, 1);
	if (c->want_prepared ? !mark || *mark != cu->index + 1000 : mark != NULL)
		c->bad_prepared++;
	if (c->nr_seen == c->fail_at) {
		rc = d2b_error_set(err, "test: consumer stops at CU %u", cu->index);
	} else {
		if (c->nr_seen < c->cap)
			c->seen[c->nr_seen] = cu->index;
		c->nr_seen++;
	}
	atomic_fetch_sub(&c->inside, 1);
	return rc;
}

/* Deliver every unit of PATH with 1 and 3 threads, with and without type
 * units: same order both ways, exactly the wanted units, in unit order. */
static void check_cu_stream_file(const char *path, bool expect_type_units)
{
	struct d2b_error err = { 0 };
	struct elf_file *ef = elf_file_open(path, &err);
	struct dw_file df;

	CHECK(ef, "cu_stream: cannot open %s: %s", path, err.msg);
	if (!ef)
		return;
	if (!expect_type_units && !elf_file_find_section(ef, ".debug_info")) {
		/* This program, built without -g. */
		fprintf(stderr, "test_pool: %s has no DWARF, skipped\n", path);
		elf_file_close(ef);
		return;
	}
	if (dw_file_init(&df, ef, &err)) {
		CHECK(0, "cu_stream: dw_file_init %s: %s", path, err.msg);
		elf_file_close(ef);
		return;
	}

	size_t nr_cu = 0, nr_tu = 0;

	for (size_t i = 0; i < df.nr_units; i++) {
		const struct dw_unit *u = &df.units[i];

		if (u->section == DW_SEC_INFO && u->unit_type != DW_UT_type &&
		    u->unit_type != DW_UT_split_type)
			nr_cu++;
		else
			nr_tu++;
	}
	CHECK(nr_cu >= 1, "cu_stream: %s has no compile unit", path);
	CHECK(!expect_type_units || nr_tu >= 1, "cu_stream: %s has no type unit",
	      path);

	for (int skip = 0; skip <= 1; skip++) {
		uint32_t *ref = NULL;
		size_t nr_ref = 0;
		size_t want = skip ? nr_cu : df.nr_units;

		for (unsigned threads = 0; threads <= 3; threads += 3) {
			struct cs_ctx c = { .fail_at = NONE };
			struct cu_stream_options o = { .threads = threads,
						       .skip_type_units = skip };
			struct pool_stats st = { 99, 99 };
			int rc;

			c.cap = df.nr_units;
			c.seen = calloc(c.cap ? c.cap : 1, sizeof(*c.seen));
			d2b_error_clear(&err);
			rc = cu_stream_run(&df, &o, cs_consume, &c, &st, &err);
			CHECK(rc == 0, "cu_stream %s skip=%d threads=%u: %s", path, skip,
			      threads, err.msg);
			CHECK(c.nr_seen == want, "cu_stream %s skip=%d threads=%u: %zu units, want %zu",
			      path, skip, threads, c.nr_seen, want);
			CHECK(atomic_load(&c.overlaps) == 0, "cu_stream: two deliveries at once");
			CHECK(threads == 0 ? st.threads_started == 0 : st.threads_started >= 1,
			      "cu_stream threads=%u: %u started", threads, st.threads_started);
			for (size_t i = 0; i < c.nr_seen && i < c.cap; i++) {
				const struct dw_unit *u = &df.units[c.seen[i]];

				CHECK(c.seen[i] < df.nr_units && (i == 0 || c.seen[i] > c.seen[i - 1]),
				      "cu_stream: delivery %zu is unit %u", i, c.seen[i]);
				if (skip)
					CHECK(u->section == DW_SEC_INFO && u->unit_type != DW_UT_type &&
					      u->unit_type != DW_UT_split_type,
					      "cu_stream: unit %u is not a compile unit", c.seen[i]);
				else
					CHECK(c.seen[i] == i, "cu_stream: delivery %zu is unit %u",
					      i, c.seen[i]);
			}
			if (!ref) {
				ref = c.seen;
				nr_ref = c.nr_seen;
				continue;
			}
			CHECK(nr_ref == c.nr_seen &&
			      memcmp(ref, c.seen, nr_ref * sizeof(*ref)) == 0,
			      "cu_stream %s: order differs between thread counts", path);
			free(c.seen);
		}
		free(ref);
	}

	/* The consumer fails at the second unit: the error comes back, and
	 * under ASan every undelivered cu_model must have been destroyed. */
	if (nr_cu >= 2) {
		struct cs_ctx c = { .fail_at = 1 };
		struct cu_stream_options o = { .threads = 2, .skip_type_units = true };
		int rc;

		c.cap = df.nr_units;
		c.seen = calloc(c.cap, sizeof(*c.seen));
		d2b_error_clear(&err);
		rc = cu_stream_run(&df, &o, cs_consume, &c, NULL, &err);
		CHECK(rc == -1 && strstr(err.msg, "test: consumer stops at CU"),
		      "cu_stream consumer error: rc %d '%s'", rc, err.msg);
		CHECK(c.nr_seen == 1, "cu_stream consumer error: %zu delivered", c.nr_seen);
		free(c.seen);
	}

	/* The prepare hook: with threads, once per unit, its mark on each
	 * delivery (and nothing shared: TSan); with one thread, never (the
	 * consumer does without). A failing hook stops the stream with its
	 * error, and (ASan) the unit it failed on and the undelivered ones
	 * are destroyed. */
	for (unsigned threads = 1; threads <= 3; threads += 2) {
		atomic_int calls = 0;
		struct cs_prep prep = { .calls = &calls, .fail_unit = UINT32_MAX };
		struct cs_ctx c = { .fail_at = NONE, .want_prepared = threads > 1 };
		struct cu_stream_options o = { .threads = threads, .skip_type_units = true,
					       .prepare = cs_prepare, .prepare_ctx = &prep };
		int rc;

		c.cap = df.nr_units;
		c.seen = calloc(c.cap, sizeof(*c.seen));
		d2b_error_clear(&err);
		rc = cu_stream_run(&df, &o, cs_consume, &c, NULL, &err);
		CHECK(rc == 0, "cu_stream prepare threads=%u: %s", threads, err.msg);
		CHECK(c.nr_seen == nr_cu, "cu_stream prepare threads=%u: %zu delivered, want %zu",
		      threads, c.nr_seen, nr_cu);
		CHECK(c.bad_prepared == 0, "cu_stream prepare threads=%u: %zu deliveries %s the mark",
		      threads, c.bad_prepared, threads > 1 ? "without" : "with");
		CHECK((size_t)atomic_load(&calls) == (threads > 1 ? nr_cu : 0),
		      "cu_stream prepare threads=%u: %d calls for %zu units", threads,
		      atomic_load(&calls), nr_cu);
		if (threads > 1 && nr_cu >= 2) {
			/* the second compile unit's hook fails */
			prep.fail_unit = c.seen[1];
			c.nr_seen = 0;
			d2b_error_clear(&err);
			rc = cu_stream_run(&df, &o, cs_consume, &c, NULL, &err);
			CHECK(rc == -1 && strstr(err.msg, "test: prepare fails at CU"),
			      "cu_stream prepare error: rc %d '%s'", rc, err.msg);
			CHECK(c.nr_seen <= 1, "cu_stream prepare error: %zu delivered", c.nr_seen);
		}
		free(c.seen);
	}
	dw_file_deinit(&df);
	elf_file_close(ef);
}

static void test_cu_stream(void)
{
	const char *src = getenv("D2B_SRC");
	char dir[] = "/tmp/d2b-test-pool-XXXXXX";
	char cmd[4096], path[256];

	/* This very program: several compile units, if built with -g. */
	check_cu_stream_file("/proc/self/exe", false);

	/* A fixture with type units, in .debug_types (DWARF 4) and as
	 * DW_UT_type in .debug_info (DWARF 5). Skipped without a compiler. */
	if (!src || !mkdtemp(dir))
		return;
	for (int v = 4; v <= 5; v++) {
		snprintf(path, sizeof(path), "%s/tu%d", dir, v);
		snprintf(cmd, sizeof(cmd),
			 "cc -gdwarf-%d -fdebug-types-section -o %s %s/tests/fixtures/structs.c 2>/dev/null",
			 v, path, src);
		if (system(cmd) != 0) {
			fprintf(stderr, "test_pool: no cc, type units not tested\n");
			break;
		}
		check_cu_stream_file(path, true);
		unlink(path);
	}
	rmdir(dir);
}

static void test_cpu_count(void)
{
	unsigned n = pool_cpu_count();
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	CHECK(n >= 1, "pool_cpu_count %u", n);
	CHECK(online < 1 || n <= (unsigned long)online,
	      "pool_cpu_count %u > online %ld", n, online);
}

/* ---- pool_beside ---- */

struct beside_job {
	pthread_t caller;
	atomic_bool ran_elsewhere, go;
	int fail;		/* 1: return -1 with a message; 2: without one */
	int value;
};

static int beside_fn(void *arg, struct d2b_error *err)
{
	struct beside_job *j = arg;

	atomic_store(&j->ran_elsewhere, !pthread_equal(pthread_self(), j->caller));
	/* threaded: the caller's own work runs meanwhile (it sets go) */
	while (atomic_load(&j->ran_elsewhere) && !atomic_load(&j->go))
		sleep_us(50);
	j->value = 42;
	if (j->fail == 1)
		return d2b_error_set(err, "job %d failed", j->value);
	return j->fail ? -1 : 0;
}

static void test_beside(void)
{
	for (int threaded = 0; threaded < 2; threaded++) {
		for (int fail = 0; fail < 3; fail++) {
			struct beside_job j = { .caller = pthread_self(), .fail = fail };
			struct pool_beside b;
			struct d2b_error err = { 0 };
			int rc;

			pool_beside_start(&b, threaded, beside_fn, &j);
			/* inline: done at once; threaded: waits for the caller */
			CHECK(threaded || j.value == 42, "beside inline: not run by start");
			atomic_store(&j.go, true);
			rc = pool_beside_join(&b, &err);
			CHECK(j.value == 42, "beside (threaded %d): not run", threaded);
			CHECK(atomic_load(&j.ran_elsewhere) == (threaded != 0),
			      "beside (threaded %d): ran on the wrong thread", threaded);
			CHECK(rc == (fail ? -1 : 0), "beside (threaded %d, fail %d): rc %d", threaded,
			      fail, rc);
			CHECK(fail != 1 || !strcmp(err.msg, "job 42 failed"),
			      "beside: error '%s'", err.msg);
			CHECK(fail == 1 || !err.set, "beside: an error set where the job set none");
			/* again: the same result, and no second join of the thread */
			memset(&err, 0, sizeof(err));
			rc = pool_beside_join(&b, &err);
			CHECK(rc == (fail ? -1 : 0), "beside: a second join gave %d", rc);
			CHECK(fail != 1 || !strcmp(err.msg, "job 42 failed"),
			      "beside: a second join's error '%s'", err.msg);
			CHECK(pool_beside_join(&b, NULL) == (fail ? -1 : 0), "beside: join(NULL)");
		}
	}
	/* never started (zeroed), as encode_file()'s error path joins it */
	{
		struct pool_beside b = { 0 };

		CHECK(pool_beside_join(&b, NULL) == 0, "beside: a zeroed one does not join as 0");
	}
}

int main(void)
{
	alarm(60);	/* a deadlock is a failure, not a hung test run */
	test_ordering();
	test_caller_works();
	test_window();
	test_contention();
	test_produce_error();
	test_discard();
	test_consume_error();
	test_follow_error();
	test_error_messages();
	test_inline();
	test_edges();
	test_cpu_count();
	test_beside();
	test_cu_stream();
	if (failures) {
		fprintf(stderr, "test_pool: %d check(s) failed\n", failures);
		return 1;
	}
	printf("test_pool: ok\n");
	return 0;
}
