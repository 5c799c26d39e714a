// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the lazy unit index (DW_FILE_LAZY_UNITS, dw_file_index_units)
 * and of cu_stream over it:
 *   - a lazy file indexes nothing at open, then exactly the units asked
 *     for, each identical to the eager index's, and ends complete with the
 *     same units and signatures;
 *   - .debug_types (DWARF 4 type units) makes a lazy open index everything;
 *   - cu_stream delivers the same units in the same order from a lazy
 *     file as from an eager one, for 1 and 3 threads, with and without type
 *     units (DWARF 5 type units in .debug_info: a unit whose ref_sig8 the
 *     incomplete index cannot resolve is decoded again after a full index);
 *   - a consumer that stops at the second unit leaves the index at the
 *     units the stream needed (2 inline, one per worker otherwise);
 *   - a malformed header after the first unit: the eager open fails, the
 *     lazy one fails only when it reaches it, with the same message.
 * Files: this program (many compile units when built with -g) and fixtures
 * compiled at run time when a C compiler is there.
 */
#include "check.h"
#include "pipeline/cu_stream.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool same_unit(const struct dw_unit *a, const struct dw_unit *b)
{
	return a->offset == b->offset && a->end == b->end &&
	       a->first_die == b->first_die &&
	       a->abbrev_offset == b->abbrev_offset &&
	       a->signature == b->signature && a->type_offset == b->type_offset &&
	       a->index == b->index && a->version == b->version &&
	       a->unit_type == b->unit_type && a->addr_size == b->addr_size &&
	       a->offset_size == b->offset_size && a->section == b->section;
}

static bool open_both(const char *path, struct elf_file **ef,
		      struct dw_file *eager, struct dw_file *lazy)
{
	struct d2b_error err = { 0 };

	*ef = elf_file_open(path, &err);
	CHECK(*ef, "cannot open %s: %s", path, err.msg);
	if (!*ef)
		return false;
	if (!elf_file_find_section(*ef, ".debug_info")) {
		fprintf(stderr, "test_dw_file_lazy: %s has no DWARF, skipped\n", path);
		elf_file_close(*ef);
		return false;
	}
	CHECK(dw_file_init(eager, *ef, &err) == 0, "%s: eager: %s", path, err.msg);
	CHECK(dw_file_init_flags(lazy, *ef, DW_FILE_LAZY_UNITS, &err) == 0,
	      "%s: lazy: %s", path, err.msg);
	return true;
}

/* The lazy index grows to exactly what is asked and ends as the eager one. */
static void check_index(const char *path, bool has_debug_types)
{
	struct d2b_error err = { 0 };
	struct dw_file eager, lazy;
	struct elf_file *ef;
	size_t n;

	if (!open_both(path, &ef, &eager, &lazy))
		return;
	CHECK(eager.units_complete && eager.nr_units >= 1,
	      "%s: eager index: complete %d, %zu units", path,
	      eager.units_complete, eager.nr_units);
	if (has_debug_types) {
		CHECK(lazy.units_complete && lazy.nr_units == eager.nr_units &&
		      lazy.nr_sigs == eager.nr_sigs && lazy.nr_sigs > 0,
		      "%s: .debug_types: lazy open indexed %zu of %zu units, %zu sigs",
		      path, lazy.nr_units, eager.nr_units, lazy.nr_sigs);
		goto out;
	}
	CHECK(!lazy.units_complete && lazy.nr_units == 0 && lazy.nr_sigs == 0,
	      "%s: lazy open indexed %zu units (complete %d)", path,
	      lazy.nr_units, lazy.units_complete);
	/* a signature of the file is not found before the index is complete */
	if (eager.nr_sigs)
		CHECK(dw_file_type_unit(&lazy, eager.sigs[0].signature) == NULL,
		      "%s: type unit found by an incomplete index", path);
	for (n = 1; n < eager.nr_info_units; n += n < 4 ? 1 : 7) {
		CHECK(dw_file_index_units(&lazy, n, &err) == 0, "%s: index %zu: %s",
		      path, n, err.msg);
		CHECK(lazy.nr_units == n && !lazy.units_complete,
		      "%s: asked %zu units, have %zu (complete %d)", path, n,
		      lazy.nr_units, lazy.units_complete);
		for (size_t i = 0; i < lazy.nr_units; i++)
			CHECK(same_unit(&lazy.units[i], &eager.units[i]),
			      "%s: unit %zu differs from the eager index", path, i);
		CHECK(dw_file_unit_at(&lazy, DW_SEC_INFO, eager.units[n - 1].offset) ==
			      &lazy.units[n - 1],
		      "%s: dw_file_unit_at misses indexed unit %zu", path, n - 1);
	}
	/* Asking for exactly every unit completes the index. */
	CHECK(dw_file_index_units(&lazy, eager.nr_info_units, &err) == 0,
	      "%s: index all: %s", path, err.msg);
	CHECK(lazy.units_complete && lazy.nr_units == eager.nr_units &&
	      lazy.nr_info_units == eager.nr_info_units &&
	      lazy.nr_sigs == eager.nr_sigs,
	      "%s: complete %d, %zu/%zu units, %zu/%zu info, %zu/%zu sigs", path,
	      lazy.units_complete, lazy.nr_units, eager.nr_units,
	      lazy.nr_info_units, eager.nr_info_units, lazy.nr_sigs, eager.nr_sigs);
	for (size_t i = 0; i < lazy.nr_units && i < eager.nr_units; i++)
		CHECK(same_unit(&lazy.units[i], &eager.units[i]),
		      "%s: unit %zu differs after completion", path, i);
	for (size_t i = 0; i < eager.nr_sigs; i++) {
		const struct dw_unit *a = dw_file_type_unit(&eager, eager.sigs[i].signature);
		const struct dw_unit *b = dw_file_type_unit(&lazy, eager.sigs[i].signature);

		CHECK(a && b && a->index == b->index,
		      "%s: signature %zu resolves differently", path, i);
	}
	n = lazy.nr_units;
	CHECK(dw_file_index_units(&lazy, SIZE_MAX, &err) == 0 && lazy.nr_units == n,
	      "%s: a complete index grew", path);
out:
	dw_file_deinit(&lazy);
	dw_file_deinit(&eager);
	elf_file_close(ef);
}

struct seen {
	uint32_t *idx;
	size_t nr, cap;
	size_t stop_at;			/* SIZE_MAX or the delivery that fails */
};

static int consume(void *ctx, struct cu_model *cu, struct d2b_error *err)
{
	struct seen *s = ctx;

	if (s->nr == s->stop_at)
		return d2b_error_set(err, "test: stop at delivery %zu", s->nr);
	if (s->nr < s->cap)
		s->idx[s->nr] = cu->index;
	s->nr++;
	return 0;
}

static int stream(struct dw_file *df, unsigned threads, bool skip,
		  struct seen *s, size_t cap, size_t stop_at, struct d2b_error *err)
{
	struct cu_stream_options o = { .threads = threads, .skip_type_units = skip };

	s->idx = calloc(cap ? cap : 1, sizeof(*s->idx));
	s->nr = 0;
	s->cap = cap;
	s->stop_at = stop_at;
	o.load.skip_locations = true;
	return cu_stream_run(df, &o, consume, s, NULL, err);
}

/* thread_bytes: a limit above the file's DWARF runs every unit on the
 * calling thread whatever threads asks; 0 and 1 start what threads asks
 * (one worker per unit at most); the units delivered are the same. */
static void check_thread_bytes(const char *path)
{
	struct dw_file eager, lazy;
	struct elf_file *ef;
	size_t info, want;
	const size_t limits[] = { 0, 1, 0 /* past the DWARF, below */ };
	size_t first_nr = 0;
	uint32_t *first_idx = NULL;

	if (!open_both(path, &ef, &eager, &lazy))
		return;
	dw_file_deinit(&lazy);
	info = eager.sec[DW_SEC_INFO].size + eager.sec[DW_SEC_TYPES].size;
	want = eager.nr_units < 3 ? eager.nr_units : 3;
	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		struct cu_stream_options o = { .threads = 3, .skip_type_units = false };
		struct d2b_error err = { 0 };
		struct pool_stats st = { 0 };
		struct seen s = { 0 };
		int rc;

		o.thread_bytes = i == 2 ? 2 * info + 2 : limits[i];
		o.load.skip_locations = true;
		s.idx = calloc(eager.nr_units ? eager.nr_units : 1, sizeof(*s.idx));
		s.cap = eager.nr_units;
		s.stop_at = SIZE_MAX;
		rc = cu_stream_run(&eager, &o, consume, &s, &st, &err);
		CHECK(rc == 0, "%s thread_bytes=%zu: %s", path, o.thread_bytes, err.msg);
		CHECK(st.threads_started == (i == 2 ? 0 : want),
		      "%s thread_bytes=%zu (%zu bytes of DWARF, %zu units): %u threads started, want %zu",
		      path, o.thread_bytes, info, eager.nr_units, st.threads_started,
		      i == 2 ? (size_t)0 : want);
		if (i == 0) {
			first_nr = s.nr;
			first_idx = s.idx;
			s.idx = NULL;
		}
		CHECK(s.nr == first_nr && s.nr == eager.nr_units &&
		      (!s.idx || !memcmp(s.idx, first_idx, s.nr * sizeof(*s.idx))),
		      "%s thread_bytes=%zu: %zu units delivered of %zu, or another order",
		      path, o.thread_bytes, s.nr, eager.nr_units);
		free(s.idx);
	}
	free(first_idx);
	dw_file_deinit(&eager);
	elf_file_close(ef);
}

/* Lazy and eager streams deliver the same units; a consumer stopping early
 * leaves the lazy index at what the stream needed. */
static void check_stream(const char *path, bool has_type_units)
{
	struct dw_file eager, lazy;
	struct elf_file *ef;

	size_t nr_cu = 0;

	if (!open_both(path, &ef, &eager, &lazy))
		return;
	dw_file_deinit(&lazy);
	for (size_t i = 0; i < eager.nr_units; i++)
		nr_cu += eager.units[i].section == DW_SEC_INFO &&
			 eager.units[i].unit_type != DW_UT_type &&
			 eager.units[i].unit_type != DW_UT_split_type;
	CHECK(!has_type_units || nr_cu < eager.nr_units, "%s: no type unit", path);
	for (int skip = 0; skip <= 1; skip++) {
		for (unsigned threads = 0; threads <= 3; threads += 3) {
			struct d2b_error err = { 0 };
			struct seen a, b;
			int ra, rb;

			ra = stream(&eager, threads, skip, &a, eager.nr_units, SIZE_MAX, &err);
			CHECK(ra == 0, "%s: eager stream: %s", path, err.msg);
			d2b_error_clear(&err);
			CHECK(dw_file_init_flags(&lazy, ef, DW_FILE_LAZY_UNITS, &err) == 0,
			      "%s: lazy: %s", path, err.msg);
			rb = stream(&lazy, threads, skip, &b, eager.nr_units, SIZE_MAX, &err);
			CHECK(rb == 0, "%s skip=%d threads=%u: lazy stream: %s", path,
			      skip, threads, err.msg);
			CHECK(a.nr >= 1 && a.nr == b.nr &&
			      !memcmp(a.idx, b.idx, a.nr * sizeof(*a.idx)),
			      "%s skip=%d threads=%u: lazy delivered %zu units, eager %zu, or another order",
			      path, skip, threads, b.nr, a.nr);
			CHECK(lazy.units_complete && lazy.nr_units == eager.nr_units,
			      "%s: lazy index after a full stream: %zu units, complete %d",
			      path, lazy.nr_units, lazy.units_complete);
			CHECK(a.nr == (skip ? nr_cu : eager.nr_units),
			      "%s skip=%d: %zu units delivered of %zu (%zu compile units)",
			      path, skip, a.nr, eager.nr_units, nr_cu);
			free(a.idx);
			free(b.idx);
			dw_file_deinit(&lazy);
		}
	}
	/* Stop at the second delivery: only the units the stream needed are
	 * indexed (a file without type units: 2 inline, one a round; 3 with 3
	 * threads, whose first round is one unit per worker). */
	if (!has_type_units && eager.nr_units > 7) {
		for (unsigned threads = 0; threads <= 3; threads += 3) {
			struct d2b_error err = { 0 };
			size_t want = threads ? threads : 2;
			struct seen s;
			int rc;

			CHECK(dw_file_init_flags(&lazy, ef, DW_FILE_LAZY_UNITS, &err) == 0,
			      "%s: lazy: %s", path, err.msg);
			rc = stream(&lazy, threads, true, &s, 4, 1, &err);
			CHECK(rc == -1 && strstr(err.msg, "test: stop at delivery 1"),
			      "%s threads=%u: early stop: rc %d '%s'", path, threads, rc,
			      err.msg);
			CHECK(s.nr == 1 && s.idx[0] == 0,
			      "%s threads=%u: early stop delivered %zu", path, threads, s.nr);
			CHECK(lazy.nr_units == want && !lazy.units_complete,
			      "%s threads=%u: early stop indexed %zu units, want %zu",
			      path, threads, lazy.nr_units, want);
			free(s.idx);
			dw_file_deinit(&lazy);
		}
	}
	dw_file_deinit(&eager);
	elf_file_close(ef);
}

/* A copy of PATH whose second unit has a reserved length value. */
static void check_bad_second_header(const char *path, const char *dir)
{
	struct d2b_error err = { 0 };
	struct dw_file eager, lazy;
	struct elf_file *ef;
	const struct elf_section *info;
	char copy[512], cmd[1200];
	uint64_t at;
	FILE *f;

	if (!open_both(path, &ef, &eager, &lazy))
		return;
	info = elf_file_find_section(ef, ".debug_info");
	if (eager.nr_info_units < 3 || !info || (info->flags & 0x800 /* SHF_COMPRESSED */)) {
		fprintf(stderr, "test_dw_file_lazy: %s: no header to corrupt\n", path);
		goto out;
	}
	at = info->file_offset + eager.units[1].offset;
	snprintf(copy, sizeof(copy), "%s/bad", dir);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", path, copy);
	CHECK(system(cmd) == 0, "cannot copy %s", path);
	f = fopen(copy, "r+b");
	CHECK(f, "cannot open %s", copy);
	if (!f)
		goto out;
	CHECK(fseek(f, (long)at, SEEK_SET) == 0 && fwrite("\xf5\xff\xff\xff", 1, 4, f) == 4 &&
	      fclose(f) == 0, "cannot patch %s", copy);
	dw_file_deinit(&lazy);
	dw_file_deinit(&eager);
	elf_file_close(ef);

	ef = elf_file_open(copy, &err);
	CHECK(ef, "cannot open %s: %s", copy, err.msg);
	if (!ef)
		return;
	CHECK(dw_file_init(&eager, ef, &err) == -1 && strstr(err.msg, ".debug_info") &&
	      strstr(err.msg, "reserved unit length"),
	      "eager open of a bad second header: '%s'", err.msg);
	d2b_error_clear(&err);
	CHECK(dw_file_init_flags(&lazy, ef, DW_FILE_LAZY_UNITS, &err) == 0,
	      "lazy open of a bad second header: %s", err.msg);
	CHECK(dw_file_index_units(&lazy, 1, &err) == 0 && lazy.nr_units == 1,
	      "lazy index of the good first unit: %s", err.msg);
	CHECK(dw_file_index_units(&lazy, 2, &err) == -1 &&
	      strstr(err.msg, "reserved unit length") && lazy.nr_units == 1,
	      "lazy index of the bad second header: '%s', %zu units", err.msg,
	      lazy.nr_units);
	d2b_error_clear(&err);
	dw_file_deinit(&lazy);
	/* a stream delivers the first unit, then reports the header */
	{
		struct seen s;
		int rc;

		CHECK(dw_file_init_flags(&lazy, ef, DW_FILE_LAZY_UNITS, &err) == 0,
		      "lazy: %s", err.msg);
		rc = stream(&lazy, 0, true, &s, 4, SIZE_MAX, &err);
		CHECK(rc == -1 && strstr(err.msg, "reserved unit length") && s.nr == 1,
		      "stream over a bad second header: rc %d, '%s', %zu delivered",
		      rc, err.msg, s.nr);
		free(s.idx);
		dw_file_deinit(&lazy);
	}
	elf_file_close(ef);
	unlink(copy);
	return;
out:
	dw_file_deinit(&lazy);
	dw_file_deinit(&eager);
	elf_file_close(ef);
}

/* dw_release: units in order pile up into one range, let go at
 * DW_RELEASE_BATCH bytes, at a gap and at a change of section (no file
 * here: only the bookkeeping is checked). */
static void check_release_batches(void)
{
	const uint64_t mib = 1u << 20;
	struct dw_file df = { 0 };
	struct dw_release r;
	struct dw_unit u = { .section = DW_SEC_INFO };

	dw_release_init(&r, &df);
	CHECK(r.section == -1, "nothing pending at first");
	for (uint64_t i = 0; i < 3; i++) {
		u.offset = i * mib;
		u.end = (i + 1) * mib;
		dw_release_unit(&r, &u);
	}
	CHECK(r.section == DW_SEC_INFO && r.lo == 0 && r.hi == 3 * mib,
	      "three units in order pending together: %d [%llu, %llu)", r.section,
	      (unsigned long long)r.lo, (unsigned long long)r.hi);
	u.offset = 3 * mib;
	u.end = DW_RELEASE_BATCH + mib / 2;
	dw_release_unit(&r, &u);
	CHECK(r.section == -1, "a batch of DW_RELEASE_BATCH bytes let go");
	u.offset = 6 * mib;
	u.end = 7 * mib;
	dw_release_unit(&r, &u);
	u.offset = 8 * mib;
	u.end = 9 * mib;
	dw_release_unit(&r, &u);
	CHECK(r.section == DW_SEC_INFO && r.lo == 8 * mib && r.hi == 9 * mib,
	      "a gap lets the range before it go");
	u.section = DW_SEC_TYPES;
	u.offset = 9 * mib;
	u.end = 10 * mib;
	dw_release_unit(&r, &u);
	CHECK(r.section == DW_SEC_TYPES && r.lo == 9 * mib,
	      "another section: the range before it goes");
	dw_release_flush(&r);
	CHECK(r.section == -1, "flushed");

	/* dw_release_below: each section's pages below what the consumed
	 * units read, DW_RELEASE_BATCH at a time, never backwards */
	dw_release_below(&r, DW_SEC_ABBREV, mib);
	CHECK(r.below[DW_SEC_ABBREV] == 0, "less than a batch: kept");
	dw_release_below(&r, DW_SEC_ABBREV, DW_RELEASE_BATCH + mib);
	CHECK(r.below[DW_SEC_ABBREV] == DW_RELEASE_BATCH + mib, "a batch let go: %llu",
	      (unsigned long long)r.below[DW_SEC_ABBREV]);
	dw_release_below(&r, DW_SEC_ABBREV, mib);
	CHECK(r.below[DW_SEC_ABBREV] == DW_RELEASE_BATCH + mib, "not backwards");
	dw_release_below(&r, DW_SEC_ABBREV, 2 * DW_RELEASE_BATCH);
	CHECK(r.below[DW_SEC_ABBREV] == DW_RELEASE_BATCH + mib, "less than a batch more: kept");
	CHECK(r.below[DW_SEC_LOCLISTS] == 0, "another section's own");
	dw_release_below(&r, DW_SEC_LOCLISTS, 3 * DW_RELEASE_BATCH);
	CHECK(r.below[DW_SEC_LOCLISTS] == 3 * DW_RELEASE_BATCH &&
	      r.below[DW_SEC_ABBREV] == DW_RELEASE_BATCH + mib, "sections apart");
	dw_release_below(&r, -1, 9 * DW_RELEASE_BATCH);
	dw_release_below(&r, DW_SEC_NR, 9 * DW_RELEASE_BATCH);
	CHECK(r.below[DW_SEC_LOCLISTS] == 3 * DW_RELEASE_BATCH &&
	      r.below[DW_SEC_ABBREV] == DW_RELEASE_BATCH + mib, "no section: nothing");
}

int main(void)
{
	const char *src = getenv("D2B_SRC");
	char dir[] = "/tmp/d2b-test-dwlazy-XXXXXX";
	char cmd[4096], path[600];

	check_release_batches();
	check_index("/proc/self/exe", false);
	check_stream("/proc/self/exe", false);
	check_thread_bytes("/proc/self/exe");
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return check_done();
	}
	/* cp of /proc/self/exe would copy cp */
	if (realpath("/proc/self/exe", path))
		check_bad_second_header(path, dir);
	/* type units: DWARF 4 in .debug_types, DWARF 5 in .debug_info, among
	 * the compile units of a two-unit program */
	for (int v = 4; src && v <= 5; v++) {
		snprintf(path, sizeof(path), "%s/tu%d", dir, v);
		snprintf(cmd, sizeof(cmd),
			 "cc -gdwarf-%d -fdebug-types-section -o %s %s/tests/fixtures/multi_cu/main.c %s/tests/fixtures/multi_cu/walk.c 2>/dev/null",
			 v, path, src, src);
		if (system(cmd) != 0) {
			fprintf(stderr, "test_dw_file_lazy: no cc, type units not tested\n");
			break;
		}
		check_index(path, v == 4);
		check_stream(path, true);
		unlink(path);
	}
	rmdir(dir);
	return check_done();
}
