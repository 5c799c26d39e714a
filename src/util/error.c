// SPDX-License-Identifier: GPL-2.0-only
#include "util/error.h"

#include <stdio.h>
#include <string.h>

int d2b_error_vset(struct d2b_error *err, const char *fmt, va_list ap)
{
	if (!err || err->set)
		return -1;
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	/* One line, even when a name from the input holds a line break. */
	for (char *p = err->msg; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = '?';
	err->set = true;
	return -1;
}

int d2b_error_set(struct d2b_error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	d2b_error_vset(err, fmt, ap);
	va_end(ap);
	return -1;
}

int d2b_error_at(struct d2b_error *err, const char *path, const char *section,
		 unsigned long long offset, const char *fmt, ...)
{
	char what[D2B_ERROR_MAX];
	va_list ap;

	if (!err || err->set)
		return -1;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return d2b_error_set(err, "%s: %s+0x%llx: %s", path ? path : "?",
			     section ? section : "?", offset, what);
}

int d2b_error_oom(struct d2b_error *err)
{
	return d2b_error_set(err, "out of memory");
}

void d2b_error_clear(struct d2b_error *err)
{
	err->set = false;
	err->msg[0] = '\0';
}
