// SPDX-License-Identifier: GPL-2.0-only
/*
 * Compressed sections.
 *
 *   SHF_COMPRESSED (gABI):  Elf64_Chdr { ch_type, ch_reserved, ch_size,
 *                           ch_addralign } or Elf32_Chdr { ch_type, ch_size,
 *                           ch_addralign }, in the file's byte order, then the
 *                           zlib or zstd stream.
 *   ".zdebug_*" (GNU):      "ZLIB", the uncompressed size as 8 big-endian
 *                           bytes, then a zlib stream.
 *
 * The output buffer is allocated once at the declared size (if that size is
 * below the cap) and the stream must fill it exactly: a stream that ends
 * early or still has data once the buffer is full is an error, so a lying
 * header can neither over-allocate nor be silently truncated.
 */
#include "elf/elf_internal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

static int inflate_zlib(const struct elf_file *ef, const struct elf_section *sec,
			size_t hdr_size, const uint8_t *src, size_t src_size,
			uint8_t *dst, size_t dst_size, struct d2b_error *err)
{
	size_t src_left = src_size, dst_left = dst_size;
	bool probing = false;	/* output full: is there more? */
	uint8_t probe;
	z_stream zs;
	int rc;

	memset(&zs, 0, sizeof(zs));
	if (inflateInit(&zs) != Z_OK)
		return d2b_error_at(err, ef->path, sec->name, hdr_size,
				    "zlib initialisation failed");
	zs.next_in = (Bytef *)(uintptr_t)src;
	zs.next_out = dst;
	/* avail_in/avail_out are 32-bit: feed large sections in pieces. */
	for (;;) {
		if (zs.avail_in == 0 && src_left) {
			size_t n = src_left < UINT_MAX ? src_left : UINT_MAX;

			zs.avail_in = (uInt)n;
			src_left -= n;
		}
		if (zs.avail_out == 0 && !probing) {
			size_t n = dst_left < UINT_MAX ? dst_left : UINT_MAX;

			if (n == 0) {
				probing = true;
				zs.next_out = &probe;
				n = 1;
			}
			zs.avail_out = (uInt)n;
			dst_left -= probing ? 0 : n;
		}
		rc = inflate(&zs, Z_NO_FLUSH);
		if (probing && zs.avail_out == 0) {
			inflateEnd(&zs);
			return d2b_error_at(err, ef->path, sec->name, hdr_size,
					    "compressed data yields more than the declared 0x%zx bytes",
					    dst_size);
		}
		if (rc == Z_STREAM_END) {
			if (!probing && (zs.avail_out != 0 || dst_left != 0)) {
				size_t got = dst_size - dst_left - zs.avail_out;

				inflateEnd(&zs);
				return d2b_error_at(err, ef->path, sec->name, hdr_size,
						    "compressed data yields 0x%zx bytes, less than the declared 0x%zx",
						    got, dst_size);
			}
			break;
		}
		if (rc == Z_OK)
			continue;
		if (rc == Z_BUF_ERROR && zs.avail_in == 0 && src_left == 0) {
			size_t got = probing ? dst_size : dst_size - dst_left - zs.avail_out;

			inflateEnd(&zs);
			return d2b_error_at(err, ef->path, sec->name, hdr_size + src_size,
					    "truncated zlib stream (0x%zx of the declared 0x%zx bytes)",
					    got, dst_size);
		}
		{
			size_t at = hdr_size + (src_size - src_left - zs.avail_in);
			char why[128];

			snprintf(why, sizeof(why), "%s", zs.msg ? zs.msg : "error");
			inflateEnd(&zs);
			return d2b_error_at(err, ef->path, sec->name, at,
					    "corrupt zlib stream: %s", why);
		}
	}
	inflateEnd(&zs);
	return 0;
}

static int inflate_zstd(const struct elf_file *ef, const struct elf_section *sec,
			size_t hdr_size, const uint8_t *src, size_t src_size,
			uint8_t *dst, size_t dst_size, struct d2b_error *err)
{
	size_t n = ZSTD_decompress(dst, dst_size, src, src_size);

	if (ZSTD_isError(n)) {
		if (ZSTD_getErrorCode(n) == ZSTD_error_dstSize_tooSmall)
			return d2b_error_at(err, ef->path, sec->name, hdr_size,
					    "compressed data yields more than the declared 0x%zx bytes",
					    dst_size);
		return d2b_error_at(err, ef->path, sec->name, hdr_size,
				    "corrupt zstd stream: %s", ZSTD_getErrorName(n));
	}
	if (n != dst_size)
		return d2b_error_at(err, ef->path, sec->name, hdr_size,
				    "compressed data yields 0x%zx bytes, less than the declared 0x%zx",
				    n, dst_size);
	return 0;
}

/* Allocate the declared size after checking it against the cap. */
static uint8_t *alloc_output(const struct elf_file *ef, const struct elf_section *sec,
			     uint64_t declared, struct d2b_error *err)
{
	uint64_t cap = elf_decompress_cap(ef);
	uint8_t *buf;

	if (declared > cap || declared > SIZE_MAX - 1) {
		d2b_error_at(err, ef->path, sec->name, 0,
			     "declared uncompressed size 0x%llx exceeds the limit 0x%llx",
			     (unsigned long long)declared, (unsigned long long)cap);
		return NULL;
	}
	buf = malloc(declared ? (size_t)declared : 1);
	if (!buf)
		d2b_error_oom(err);
	return buf;
}

int elf_decompress_chdr(const struct elf_file *ef, const struct elf_section *sec,
			const uint8_t *src, size_t src_size, uint8_t **out,
			size_t *out_size, struct d2b_error *err)
{
	size_t hdr_size = ef->is64 ? sizeof(Elf64_Chdr) : sizeof(Elf32_Chdr);
	uint32_t type;
	uint64_t declared;
	uint8_t *buf;
	int rc;

	*out = NULL;
	*out_size = 0;
	if (src_size < hdr_size)
		return d2b_error_at(err, ef->path, sec->name, 0,
				    "compressed section (0x%zx bytes) too small for its 0x%zx-byte header",
				    src_size, hdr_size);
	type = elf_rd32(src, ef->le);
	if (ef->is64)
		declared = elf_rd64(src + offsetof(Elf64_Chdr, ch_size), ef->le);
	else
		declared = elf_rd32(src + offsetof(Elf32_Chdr, ch_size), ef->le);
	if (type != ELFCOMPRESS_ZLIB && type != ELFCOMPRESS_ZSTD)
		return d2b_error_at(err, ef->path, sec->name, 0,
				    "unknown compression type %u", type);
	buf = alloc_output(ef, sec, declared, err);
	if (!buf)
		return -1;
	if (type == ELFCOMPRESS_ZLIB)
		rc = inflate_zlib(ef, sec, hdr_size, src + hdr_size,
				  src_size - hdr_size, buf, (size_t)declared, err);
	else
		rc = inflate_zstd(ef, sec, hdr_size, src + hdr_size,
				  src_size - hdr_size, buf, (size_t)declared, err);
	if (rc) {
		free(buf);
		return -1;
	}
	*out = buf;
	*out_size = (size_t)declared;
	return 0;
}

int elf_decompress_zdebug(const struct elf_file *ef, const struct elf_section *sec,
			  const uint8_t *src, size_t src_size, uint8_t **out,
			  size_t *out_size, struct d2b_error *err)
{
	const size_t hdr_size = 12;
	uint64_t declared;
	uint8_t *buf;

	*out = NULL;
	*out_size = 0;
	if (src_size < hdr_size || memcmp(src, "ZLIB", 4) != 0)
		return d2b_error_at(err, ef->path, sec->name, 0,
				    "missing \"ZLIB\" header of a .zdebug section");
	declared = elf_rd64(src + 4, false);
	buf = alloc_output(ef, sec, declared, err);
	if (!buf)
		return -1;
	if (inflate_zlib(ef, sec, hdr_size, src + hdr_size, src_size - hdr_size,
			 buf, (size_t)declared, err)) {
		free(buf);
		return -1;
	}
	*out = buf;
	*out_size = (size_t)declared;
	return 0;
}
