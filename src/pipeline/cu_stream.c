// SPDX-License-Identifier: GPL-2.0-only
/*
 * cu_stream: load_cu() for every unit of a dw_file on the worker pool, each
 * cu_model handed to the consumer in unit order and destroyed right after.
 *
 * Pool item i is unit units[i] (or simply unit i when every unit is
 * delivered), so the pool's window bounds the decoded CUs alive at once.
 */
#include "pipeline/cu_stream.h"

#include <stdlib.h>

struct cu_stream {
	const struct dw_file *df;
	const struct load_options *load;
	const size_t *units;		/* item -> unit index; NULL: identity */
	cu_consumer_fn consume;
	void *ctx;
};

static size_t cu_stream_unit(const struct cu_stream *s, size_t item)
{
	return s->units ? s->units[item] : item;
}

static int cu_stream_produce(void *ctx, size_t item, void **result,
			     struct d2b_error *err)
{
	struct cu_stream *s = ctx;
	size_t unit = cu_stream_unit(s, item);
	struct cu_model *cu = load_cu(s->df, unit, s->load, err);

	if (!cu) {
		const struct dw_unit *u = &s->df->units[unit];

		return d2b_error_at(err, s->df->path,
				    u->section == DW_SEC_TYPES ? ".debug_types"
							       : ".debug_info",
				    u->offset, "cannot load unit %zu", unit);
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

	cu_model_destroy(cu);
	/* the model's names may point into the unit (DW_FORM_string): its
	 * pages go only once the consumer is done with it */
	dw_file_release_unit(s->df, &s->df->units[cu_stream_unit(s, item)]);
	return rc ? -1 : 0;
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

int cu_stream_run(const struct dw_file *df, const struct cu_stream_options *opts,
		  cu_consumer_fn consume, void *ctx, struct pool_stats *stats,
		  struct d2b_error *err)
{
	struct cu_stream s = {
		.df = df,
		.load = &opts->load,
		.consume = consume,
		.ctx = ctx,
	};
	size_t *units = NULL;
	size_t nr = df->nr_units;
	int rc;

	if (opts->skip_type_units) {
		units = malloc((df->nr_units ? df->nr_units : 1) * sizeof(*units));
		if (!units)
			return d2b_error_oom(err);
		nr = 0;
		for (size_t i = 0; i < df->nr_units; i++) {
			if (cu_stream_wanted(&df->units[i]))
				units[nr++] = i;
		}
		s.units = units;
	}
	rc = pool_run(nr, opts->threads ? opts->threads : 1, 0, &cu_stream_ops,
		      &s, stats, err);
	free(units);
	return rc;
}
