// SPDX-License-Identifier: GPL-2.0-only
/*
 * btfwrite: test tool around src/btf/btf_write.h.
 *
 *   btfwrite raw PATH DATAFILE   btf_write_raw(PATH, contents of DATAFILE)
 *   btfwrite elf PATH DATAFILE   btf_write_elf_section(PATH, ...)
 *
 * Prints the error line on stderr and exits 1 on failure, 0 on success,
 * 2 on a usage or DATAFILE error. D2B_FAULT_WRITE and
 * D2B_FAULT_WRITE_DELAY_MS are read by the library itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btf/btf_write.h"

static void *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, len = 0, n;
	char *buf = NULL, *nb;

	if (!f)
		return NULL;
	for (;;) {
		nb = realloc(buf, cap);
		if (!nb) {
			free(buf);
			fclose(f);
			return NULL;
		}
		buf = nb;
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (len < cap)
			break;
		cap *= 2;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	*size = len;
	return buf;
}

int main(int argc, char **argv)
{
	struct d2b_error err = { 0 };
	size_t size = 0;
	void *data;
	int rc;

	if (argc != 4 || (strcmp(argv[1], "raw") && strcmp(argv[1], "elf"))) {
		fprintf(stderr, "usage: btfwrite raw|elf PATH DATAFILE\n");
		return 2;
	}
	data = slurp(argv[3], &size);
	if (!data) {
		perror(argv[3]);
		return 2;
	}
	if (!strcmp(argv[1], "raw"))
		rc = btf_write_raw(argv[2], data, size, &err);
	else
		rc = btf_write_elf_section(argv[2], data, size, &err);
	free(data);
	if (rc) {
		fprintf(stderr, "btfwrite: %s\n", err.msg);
		return 1;
	}
	return 0;
}
