/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tests/unit/test_sh.h: test_sh(FMT, ...), a shell command built like
 * printf and run with system(): its exit status, or -1 when it could not
 * run. For unit tests that build their objects with the toolchain.
 */
#ifndef D2B_TESTS_UNIT_TEST_SH_H
#define D2B_TESTS_UNIT_TEST_SH_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

static inline int test_sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	rc = system(cmd);
	return rc == -1 ? -1 : WEXITSTATUS(rc);
}

#endif
