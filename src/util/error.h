/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * d2b_error: the one error object every layer fills in.
 *
 * A failing function returns -1 (or NULL) and writes one line into the caller's
 * d2b_error: what went wrong, and where (file, section, offset). Nothing below
 * the command line prints or exits; the front end prints err->msg and exits 1.
 * The first error written wins: later d2b_error_set() calls on an error that is
 * already set keep the first message (so a worker pool keeps the root cause).
 */
#ifndef D2B_UTIL_ERROR_H
#define D2B_UTIL_ERROR_H

#include <stdbool.h>
#include <stdarg.h>

#define D2B_ERROR_MAX 512

struct d2b_error {
	bool set;
	char msg[D2B_ERROR_MAX];
};

/* Set the error unless already set. Always returns -1 so callers can
 * `return d2b_error_set(err, ...);`. err may be NULL. */
int d2b_error_set(struct d2b_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int d2b_error_vset(struct d2b_error *err, const char *fmt, va_list ap);

/* Errors located in a file's section: "PATH: SECTION+0xOFF: message". */
int d2b_error_at(struct d2b_error *err, const char *path, const char *section,
		 unsigned long long offset, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Out of memory, without allocating. */
int d2b_error_oom(struct d2b_error *err);

void d2b_error_clear(struct d2b_error *err);

#endif
