/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Bounds-checked little-endian readers used inside dwarf/. Each takes the
 * current position by reference and the end of the readable range; on
 * overrun it returns false and leaves *p unchanged, so the caller can name
 * the offset that failed.
 */
#ifndef D2B_DWARF_DW_READ_H
#define D2B_DWARF_DW_READ_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static inline bool rd_u8(const uint8_t **p, const uint8_t *end, uint8_t *v)
{
	if (*p >= end)
		return false;
	*v = *(*p)++;
	return true;
}

static inline bool rd_u16(const uint8_t **p, const uint8_t *end, uint16_t *v)
{
	if (end - *p < 2)
		return false;
	memcpy(v, *p, 2);
	*p += 2;
	return true;
}

static inline bool rd_u24(const uint8_t **p, const uint8_t *end, uint32_t *v)
{
	if (end - *p < 3)
		return false;
	*v = (uint32_t)(*p)[0] | (uint32_t)(*p)[1] << 8 | (uint32_t)(*p)[2] << 16;
	*p += 3;
	return true;
}

static inline bool rd_u32(const uint8_t **p, const uint8_t *end, uint32_t *v)
{
	if (end - *p < 4)
		return false;
	memcpy(v, *p, 4);
	*p += 4;
	return true;
}

static inline bool rd_u64(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	if (end - *p < 8)
		return false;
	memcpy(v, *p, 8);
	*p += 8;
	return true;
}

/* Unsigned of `size` bytes (1, 2, 4 or 8). */
static inline bool rd_uN(const uint8_t **p, const uint8_t *end, unsigned size,
			 uint64_t *v)
{
	uint8_t b;
	uint16_t h;
	uint32_t w;

	switch (size) {
	case 1:
		if (!rd_u8(p, end, &b))
			return false;
		*v = b;
		return true;
	case 2:
		if (!rd_u16(p, end, &h))
			return false;
		*v = h;
		return true;
	case 4:
		if (!rd_u32(p, end, &w))
			return false;
		*v = w;
		return true;
	case 8:
		return rd_u64(p, end, v);
	}
	return false;
}

/* ULEB128; values wider than 64 bits are truncated (as readers do). */
static inline bool rd_uleb(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	const uint8_t *q = *p;
	uint64_t r = 0;
	unsigned shift = 0;

	/* Fast path: one byte. */
	if (q < end && !(*q & 0x80)) {
		*v = *q;
		*p = q + 1;
		return true;
	}
	while (q < end) {
		uint8_t b = *q++;
		if (shift < 64)
			r |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			*v = r;
			*p = q;
			return true;
		}
	}
	return false;
}

static inline bool rd_sleb(const uint8_t **p, const uint8_t *end, int64_t *v)
{
	const uint8_t *q = *p;
	uint64_t r = 0;
	unsigned shift = 0;
	uint8_t b = 0;

	while (q < end) {
		b = *q++;
		if (shift < 64)
			r |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			if (shift < 64 && (b & 0x40))
				r |= ~(uint64_t)0 << shift;
			*v = (int64_t)r;
			*p = q;
			return true;
		}
	}
	return false;
}

static inline bool rd_skip_leb(const uint8_t **p, const uint8_t *end)
{
	const uint8_t *q = *p;

	while (q < end) {
		if (!(*q++ & 0x80)) {
			*p = q;
			return true;
		}
	}
	return false;
}

/* A NUL-terminated string inside [*p, end). */
static inline bool rd_str(const uint8_t **p, const uint8_t *end, const char **s)
{
	const uint8_t *nul = memchr(*p, 0, (size_t)(end - *p));

	if (!nul)
		return false;
	*s = (const char *)*p;
	*p = nul + 1;
	return true;
}

/* A string at OFF of a section: NULL if OFF is out of range or unterminated. */
static inline const char *sec_str(const uint8_t *data, size_t size, uint64_t off)
{
	if (!data || off >= size)
		return NULL;
	if (!memchr(data + off, 0, size - off))
		return NULL;
	return (const char *)data + off;
}

#endif
