/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tests/unit/check.h: the unit tests' CHECK(COND, FMT, ...): when COND is
 * false, print file, line, the condition and the message, count a failure
 * and go on, so one run reports every broken case. Each test is one
 * program: main() returns non-zero when `failures` is not 0.
 */
#ifndef D2B_TESTS_UNIT_CHECK_H
#define D2B_TESTS_UNIT_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, \
				__LINE__, #cond);                              \
			fprintf(stderr, __VA_ARGS__);                          \
			fputc('\n', stderr);                                   \
			failures++;                                            \
		}                                                              \
	} while (0)

/* main()'s end: "ok" and 0, or the number of failures and 1. */
static inline int check_done(void)
{
	if (failures) {
		fprintf(stderr, "%d failure(s)\n", failures);
		return 1;
	}
	printf("ok\n");
	return 0;
}

#endif
