/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * print/fmt.h: the few printf conversions the printers run per member,
 * written straight into a strbuf. Each one appends exactly what the
 * printf spelling named beside it appends (glibc: a negative `*` width
 * means left-justified in its absolute value), without vsnprintf's set-up,
 * which was two thirds of the instructions of `pahole -C task_struct`'s
 * printing.
 */
#ifndef D2B_PRINT_FMT_H
#define D2B_PRINT_FMT_H

#include <stdint.h>
#include <string.h>

#include "util/strbuf.h"

/* Width as printf takes it from `*`: its absolute value (INT_MIN aside,
 * which no caller passes). */
static inline size_t fmt_width(int w)
{
	return w < 0 ? (size_t)-(long)w : (size_t)w;
}

/* "%-*s" (S not NULL). */
static inline void fmt_left(struct strbuf *sb, int width, const char *s)
{
	size_t n = strlen(s), w = fmt_width(width), all = w > n ? w : n;
	char *p = strbuf_room(sb, all);

	if (!p)
		return;
	memcpy(p, s, n);
	memset(p + n, ' ', all - n);
	strbuf_advance(sb, all);
}

/* "%*s" with S = " ": max(|width|, 1) blanks. */
static inline void fmt_blanks(struct strbuf *sb, int width)
{
	size_t w = fmt_width(width);

	strbuf_fill(sb, ' ', w ? w : 1);
}

/* Writes V's decimal digits ending at END; returns where they start. */
static inline char *fmt_digits(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

/* "%*u" at P (room for fmt_width(WIDTH) + 20 bytes): returns the end. */
static inline char *fmt_u_at(char *p, int width, uint64_t v)
{
	char d[20], *s = fmt_digits(d + sizeof(d), v);
	size_t n = (size_t)(d + sizeof(d) - s), w = fmt_width(width);

	if (width > 0 && w > n) {
		memset(p, ' ', w - n);
		p += w - n;
	}
	memcpy(p, s, n);
	p += n;
	if (width < 0 && w > n) {
		memset(p, ' ', w - n);
		p += w - n;
	}
	return p;
}

/* "%*u" (and "%5u", "%2u", "%u": width 5, 2, 0). */
static inline void fmt_u(struct strbuf *sb, int width, uint64_t v)
{
	char *p = strbuf_room(sb, fmt_width(width) + 20);

	if (p)
		strbuf_advance(sb, (size_t)(fmt_u_at(p, width, v) - p));
}

/* Cut what was appended since START to BUFSIZE - 1 bytes, as snprintf
 * into char[BUFSIZE] would (BUFSIZE (size_t)-1: no cut). */
static inline void fmt_cut_from(struct strbuf *sb, size_t start, size_t bufsize)
{
	size_t keep = bufsize ? bufsize - 1 : 0;

	if (sb->len > start && sb->len - start > keep) {
		sb->len = start + keep;
		if (sb->buf)
			sb->buf[sb->len] = '\0';
	}
}

#endif
