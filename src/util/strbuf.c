// SPDX-License-Identifier: GPL-2.0-only
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t want, cap;
	char *p;

	if (sb->oom)
		return false;
	want = sb->len + extra + 1;
	if (want <= sb->cap)
		return true;
	cap = sb->cap ? sb->cap : 64;
	while (cap < want)
		cap *= 2;
	p = realloc(sb->buf, cap);
	if (!p) {
		sb->oom = true;
		return false;
	}
	sb->buf = p;
	sb->cap = cap;
	return true;
}

void strbuf_free(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
	sb->oom = false;
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void strbuf_add(struct strbuf *sb, const char *s, size_t n)
{
	if (!strbuf_grow(sb, n))
		return;
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

char *strbuf_room(struct strbuf *sb, size_t n)
{
	return strbuf_grow(sb, n) ? sb->buf + sb->len : NULL;
}

void strbuf_puts(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_putc(struct strbuf *sb, char c)
{
	strbuf_add(sb, &c, 1);
}

void strbuf_fill(struct strbuf *sb, char c, size_t n)
{
	if (!strbuf_grow(sb, n))
		return;
	memset(sb->buf + sb->len, c, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	size_t room;
	va_list ap2;
	int n;

	if (sb->oom)
		return;
	/* One pass when the text fits the room left (nearly always: the
	 * buffer only grows); a second, after growing, when it did not. */
	room = sb->cap > sb->len ? sb->cap - sb->len : 0;
	va_copy(ap2, ap);
	n = vsnprintf(room ? sb->buf + sb->len : NULL, room, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return;
	if ((size_t)n >= room) {
		if (!strbuf_grow(sb, (size_t)n)) {
			if (room)	/* the cut text stays out */
				sb->buf[sb->len] = '\0';
			return;
		}
		vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	}
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}
