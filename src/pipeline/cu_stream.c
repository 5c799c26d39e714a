// SPDX-License-Identifier: GPL-2.0-only
/*
 * cu_stream: load_cu() for every unit of a dw_file on the worker pool, each
 * cu_model handed to the consumer in unit order and destroyed right after.
 *
 * Pool item i of a round is unit units[i] (or simply unit first + i when
 * every unit is delivered), so the pool's window bounds the decoded CUs
 * alive at once.
 */
#include "pipeline/cu_stream.h"
#include "elf/elf_page_copies.h"

#include <stdint.h>
#include <stdlib.h>

struct cu_stream {
	const struct dw_file *df;
	const struct load_options *load;
	cu_prepare_fn prepare;
	const void *prepare_ctx;
	const size_t *units;		/* item -> unit index; NULL: first + item */
	size_t first;
	size_t nr_consumed;		/* items of this round delivered */
	bool consumer_failed;		/* the error came from the consumer */
	struct dw_release release;	/* of the units consumed */
	/* by pool thread: the names a partial load compares and keeps, read
	 * through copies of their pages (load_cu()'s STRS), kept across the
	 * units (a name looked for in every unit of a vmlinux reads each
	 * page of its .debug_str once) */
	struct elf_page_copies *strs;
	cu_consumer_fn consume;
	void *ctx;
};

static size_t cu_stream_unit(const struct cu_stream *s, size_t item)
{
	return s->units ? s->units[item] : s->first + item;
}

static int cu_stream_produce(void *ctx, size_t item, unsigned thread, void **result,
			     struct d2b_error *err)
{
	struct cu_stream *s = ctx;
	size_t unit = cu_stream_unit(s, item);
	/* (read through the mapping: the model is consumed after this thread
	 * went on to another unit, and it may point into the unit's bytes) */
	struct cu_model *cu = load_cu(s->df, unit, s->load, NULL,
				      s->strs ? &s->strs[thread] : NULL, err);

	if (!cu) {
		const struct dw_unit *u = &s->df->units[unit];

		return d2b_error_at(err, s->df->path,
				    u->section == DW_SEC_TYPES ? ".debug_types"
							       : ".debug_info",
				    u->offset, "cannot load unit %zu", unit);
	}
	if (s->prepare && s->prepare(s->prepare_ctx, cu, err)) {
		cu_model_destroy(cu);
		return -1;
	}
	*result = cu;
	return 0;
}

static int cu_stream_consume(void *ctx, size_t item, void *result,
			     struct d2b_error *err)
{
	struct cu_stream *s = ctx;
	struct cu_model *cu = result;
	int rc = s->consume(s->ctx, cu, err);
	uint64_t loc_hi = cu->loc_hi;

	cu_model_destroy(cu);
	if (rc) {
		/* the stream ends here (pahole -C found every name): releasing
		 * the unit's pages would only cost a system call */
		s->consumer_failed = true;
		return -1;
	}
	/* the model's names may point into the unit (DW_FORM_string): its
	 * pages go only once the consumer is done with it */
	dw_release_consumed(&s->release, &s->df->units[cu_stream_unit(s, item)], loc_hi);
	s->nr_consumed++;
	return 0;
}

static void cu_stream_discard(void *ctx, void *result)
{
	cu_model_destroy(result);
}

static const struct pool_ops cu_stream_ops = {
	.produce = cu_stream_produce,
	.consume = cu_stream_consume,
	.discard = cu_stream_discard,
};

static bool cu_stream_wanted(const struct dw_unit *u)
{
	return u->section == DW_SEC_INFO && u->unit_type != DW_UT_type &&
	       u->unit_type != DW_UT_split_type;
}

/*
 * Rounds. A complete index is delivered in one pool run. A lazy one
 * (DW_FILE_LAZY_UNITS) is indexed a batch at a time, on this thread and
 * between pool runs, so the workers only ever see an immutable index, and
 * a consumer that stops early (pahole -C) has read the headers of about
 * the units it was given: one unit a round on the calling thread; else
 * one unit per worker in the first round and twice as many in each next
 * one (a round's end waits for its slowest unit: log2(units) such waits).
 * The first round is small because a consumer that stops still waits for
 * every unit in flight: with 2 units per worker, pahole -j4 -C task_struct
 * on a vmlinux waited for two 150 KB units it never needed.
 *
 * A unit that fails to decode while the index is incomplete may have
 * needed the rest of it (a type unit found by its DW_FORM_ref_sig8
 * signature): everything is indexed and the stream goes on from that
 * unit, so a real error is reported by the second try. Either way each
 * unit reaches the consumer once, in order.
 */
int cu_stream_run(struct dw_file *df, const struct cu_stream_options *opts,
		  cu_consumer_fn consume, void *ctx, struct pool_stats *stats,
		  struct d2b_error *err)
{
	struct cu_stream s = {
		.df = df,
		.load = &opts->load,
		.prepare = opts->prepare,
		.prepare_ctx = opts->prepare_ctx,
		.consume = consume,
		.ctx = ctx,
	};
	unsigned threads = opts->threads ? opts->threads : 1;
	size_t next = 0;		/* first unit not delivered */
	size_t batch;
	size_t *units = NULL, cap = 0;
	int rc = 0;

	if (opts->thread_bytes) {
		uint64_t bytes = (uint64_t)df->sec[DW_SEC_INFO].size + df->sec[DW_SEC_TYPES].size;
		uint64_t fit = (bytes + opts->thread_bytes / 2) / opts->thread_bytes;

		if (fit < threads)
			threads = fit ? (unsigned)fit : 1;
	}
	batch = threads;
	/* one thread: the consumer's turn does that work as well, with its
	 * memory hot (pahole vmlinux -j1: 0.60 s with the hook, 0.59 without) */
	if (threads == 1)
		s.prepare = NULL;
	if (stats)
		*stats = (struct pool_stats){ 0 };
	if (opts->load.nr_only_types && df->elf) {
		s.strs = calloc(threads, sizeof(*s.strs));
		if (!s.strs)
			return d2b_error_oom(err);
		for (unsigned i = 0; i < threads; i++)
			elf_page_copies_init(&s.strs[i], df->elf);
	}
	dw_release_init(&s.release, df);
	for (;;) {
		struct pool_stats st;
		size_t nr;

		if (!df->units_complete &&
		    dw_file_index_units(df, next + batch, err)) {
			rc = -1;
			break;
		}
		nr = df->nr_units - next;
		s.first = next;
		s.units = NULL;
		if (opts->skip_type_units) {
			if (nr > cap) {
				size_t *n = realloc(units, nr * sizeof(*n));

				if (!n) {
					rc = d2b_error_oom(err);
					break;
				}
				units = n;
				cap = nr;
			}
			nr = 0;
			for (size_t i = next; i < df->nr_units; i++)
				if (cu_stream_wanted(&df->units[i]))
					units[nr++] = i;
			s.units = units;
		}
		s.nr_consumed = 0;
		rc = pool_run(nr, threads, 0, &cu_stream_ops, &s, &st, err);
		if (stats) {
			if (st.threads_started > stats->threads_started)
				stats->threads_started = st.threads_started;
			if (st.max_alive > stats->max_alive)
				stats->max_alive = st.max_alive;
		}
		if (rc) {
			if (s.consumer_failed || df->units_complete)
				break;
			next = s.nr_consumed < nr ? cu_stream_unit(&s, s.nr_consumed)
						  : df->nr_units;
			d2b_error_clear(err);
			if (dw_file_index_units(df, SIZE_MAX, err))
				break;
			rc = 0;
			continue;
		}
		next = df->nr_units;
		if (df->units_complete)
			break;
		if (threads > 1)
			batch *= 2;
	}
	/* (a consumer that stopped the stream leaves the rest to the close) */
	if (!s.consumer_failed)
		dw_release_flush(&s.release);
	free(units);
	for (unsigned i = 0; s.strs && i < threads; i++)
		elf_page_copies_free(&s.strs[i]);
	free(s.strs);
	return rc;
}
