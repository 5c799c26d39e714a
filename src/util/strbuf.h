/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A growable, always NUL-terminated string. Printers build text in a strbuf
 * and hand it to stdio in one write. Out of memory sets `oom` and turns every
 * further append into a no-op, so callers check once at the end.
 */
#ifndef D2B_UTIL_STRBUF_H
#define D2B_UTIL_STRBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdarg.h>

struct strbuf {
	char *buf;
	size_t len, cap;
	bool oom;
};

#define STRBUF_INIT { 0 }

void strbuf_free(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
void strbuf_add(struct strbuf *sb, const char *s, size_t n);
void strbuf_puts(struct strbuf *sb, const char *s);
void strbuf_putc(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* Append n copies of c. */
void strbuf_fill(struct strbuf *sb, char c, size_t n);
/* Room for N more bytes at the end, to be written by the caller and then
 * kept with strbuf_advance(sb, N); NULL when out of memory. */
char *strbuf_room(struct strbuf *sb, size_t n);
static inline void strbuf_advance(struct strbuf *sb, size_t n)
{
	sb->len += n;
	sb->buf[sb->len] = '\0';
}
/* The contents ("" when empty); valid until the next append. */
static inline const char *strbuf_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

#endif
