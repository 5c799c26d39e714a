// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_cli: the pahole and pfunct command lines, with fuzzed arguments, on a
 * fixed small input file.
 *
 * Input: byte 0 picks the front end (even: pahole, odd: pfunct); the rest is
 * the argument list, split at NUL bytes. An argument "@" stands for the
 * fixed input file; without one, the file is appended as the last argument.
 * An argument holding a '/' is replaced by the fixed file too ("--x=/y"
 * by "--x=FILE"), so a fuzzed path never opens a device or a FIFO; the
 * harness runs in an empty directory of its own, so a relative name finds
 * nothing. stdin and stdout are /dev/null. Each run gets a fresh copy of the
 * file in a fresh directory, as front ends may write (pahole -J).
 *
 * The front ends are called as main() would call them; they must return an
 * exit status, never exit. getopt's hidden state is reset before each call
 * (optind = 0 forces glibc to reinitialise), as a new process would have it.
 */
#include <dirent.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

#define MAX_ARGS 24

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The fixed input: $D2B_FUZZ_CLI_INPUT, else the file CMake built. Read-only
 * after initialisation. */
static const char *input_path(void)
{
	const char *p = getenv("D2B_FUZZ_CLI_INPUT");

	return p && *p ? p : D2B_FUZZ_CLI_INPUT;
}

/* The harness's own directory, set once before any run. */
static char work_dir[] = "/tmp/d2b-fuzz-cli.XXXXXX";
static char work_input[sizeof(work_dir) + 16];
static char *fixed_image;	/* the fixed input's bytes */
static size_t fixed_size;

static void remove_work_dir(void)
{
	unlink(work_input);
	rmdir(work_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *in = input_path();
	FILE *f;

	if (!freopen("/dev/null", "r", stdin) || !freopen("/dev/null", "w", stdout))
		abort();
	/* the encoder would run the program again (cli_reexec_on_huge_pages):
	 * here, the harness */
	if (setenv("D2B_NO_HUGEPAGE", "1", 1))
		abort();
	f = fopen(in, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (long)(fixed_size = (size_t)ftell(f)) < 0)
		abort();
	rewind(f);
	fixed_image = malloc(fixed_size ? fixed_size : 1);
	if (!fixed_image || fread(fixed_image, 1, fixed_size, f) != fixed_size)
		abort();
	fclose(f);
	if (!mkdtemp(work_dir) || chdir(work_dir))
		abort();
	snprintf(work_input, sizeof(work_input), "%s/input.o", work_dir);
	atexit(remove_work_dir);
	return 0;
}

/* Before each run: an empty directory holding a fresh copy of the input, so
 * what one run writes (pahole -J rewrites its input; detached BTF files)
 * neither leaks into the next run nor damages the fixed file. */
static void fresh_dir(void)
{
	DIR *d = opendir(".");
	struct dirent *e;
	FILE *f;

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlink(e->d_name);
	if (d)
		closedir(d);
	f = fopen(work_input, "wb");
	if (!f || fwrite(fixed_image, 1, fixed_size, f) != fixed_size || fclose(f))
		abort();
}

/* An argument holding a '/' names a file we do not control (a device, a
 * FIFO): "--opt=/x" becomes "--opt=FILE", anything else FILE itself. */
static char *path_arg(const char *a, const char *file, bool *has_file)
{
	const char *eq = strchr(a, '=');
	char *s;

	if (a[0] != '-' || !eq) {
		*has_file = true;
		return (char *)file;
	}
	s = malloc((size_t)(eq - a) + 1 + strlen(file) + 1);
	if (s)
		sprintf(s, "%.*s=%s", (int)(eq - a), a, file);
	return s;
}

static void reset_getopt(void)
{
	char *args[] = { (char *)"reset", NULL };

	optind = 0;
	opterr = 0;
	(void)getopt(1, args, "");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAX_ARGS + 3];
	const char *file = work_input;
	bool has_file = false;
	char *owned[MAX_ARGS + 1];
	int argc = 0, nr_owned = 0, rc;
	char *buf;
	size_t i, start;

	if (!size)
		return 0;
	buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = 0;
	argv[argc++] = (char *)((data[0] & 1) ? "pfunct" : "pahole");
	for (i = 0, start = 0; i < size && argc < MAX_ARGS + 1; i++) {
		if (i < size - 1 && buf[i])
			continue;
		buf[i] = 0;
		{
			char *a = buf + start;

			if (!strcmp(a, "@")) {
				a = (char *)file;
				has_file = true;
			} else if (strchr(a, '/')) {
				a = path_arg(a, file, &has_file);
				if (!a)
					goto out;
				if (a != file)
					owned[nr_owned++] = a;
			}
			argv[argc++] = a;
		}
		start = i + 1;
	}
	if (!has_file)
		argv[argc++] = (char *)file;
	argv[argc] = NULL;

	fresh_dir();
	reset_getopt();
	if (data[0] & 1)
		rc = pfunct_main(argc, argv);
	else
		rc = pahole_main(argc, argv);
	if (rc < 0 || rc > 255)
		__builtin_trap();	/* not a valid exit status */
	fflush(stdout);
out:
	for (int k = 0; k < nr_owned; k++)
		free(owned[k]);
	free(buf);
	return 0;
}
