// SPDX-License-Identifier: GPL-2.0-only
/*
 * replay: a main() for a harness built without libFuzzer, so any compiler
 * (and any build of the library, plain or sanitized) can run checked-in
 * inputs through it:
 *
 *     cc fuzz/fuzz_dwarf.c fuzz/replay_main.c libd2b.a ... -o replay
 *     replay FILE...
 *
 * Each FILE is read whole and passed to LLVMFuzzerTestOneInput once, after
 * LLVMFuzzerInitialize when the harness has one. Exits 0 when every input
 * ran (a crash ends the process with a signal or a sanitizer's status),
 * 2 when a file cannot be read.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		return -1;
	for (;;) {
		if (len == cap) {
			uint8_t *nb = realloc(buf, cap ? cap * 2 : 65536);

			if (!nb) {
				free(buf);
				fclose(f);
				return -1;
			}
			buf = nb;
			cap = cap ? cap * 2 : 65536;
		}
		n = fread(buf + len, 1, cap - len, f);
		if (!n)
			break;
		len += n;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		fprintf(stderr, "replay: %s\n", argv[i]);
		if (run_file(argv[i])) {
			fprintf(stderr, "replay: cannot read %s\n", argv[i]);
			return 2;
		}
	}
	return 0;
}
