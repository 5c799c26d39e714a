// SPDX-License-Identifier: GPL-2.0-only
/*
 * dwarf2btf (no arguments) / dwarf2btf demo: the main job on an embedded
 * default. Compiles a small C program with the system compiler into a
 * temporary directory, then prints its struct layouts (pahole) and its
 * functions (pfunct -P) from the DWARF we read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"

static const char sample_source[] =
	"/* dwarf2btf sample: a few layouts worth inspecting. */\n"
	"#include <stdint.h>\n"
	"struct list_head { struct list_head *next, *prev; };\n"
	"struct packet {\n"
	"\tuint8_t  version;\n"
	"\tuint32_t length;\n"
	"\tuint16_t flags : 3, kind : 5;\n"
	"\tvoid *payload;\n"
	"\tstruct list_head list;\n"
	"\tchar name[13];\n"
	"};\n"
	"union value { int64_t i; double d; const char *s; };\n"
	"enum color { RED, GREEN = 5, BLUE = -1 };\n"
	"struct packet global_packet;\n"
	"int packet_len(const struct packet *p, enum color c) { return (int)p->length + c; }\n"
	"int main(void) { union value v = { .i = 1 }; return packet_len(&global_packet, RED) + (int)v.i - 1; }\n";

static int run(char *const argv[])
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int demo_main(int argc, char **argv)
{
	char dir[] = "/tmp/dwarf2btf-demo.XXXXXX";
	char src[64], bin[64];
	const char *cc = getenv("CC");
	FILE *f;
	int ret = 1;

	if (argc > 1) {
		fprintf(stderr, "usage: dwarf2btf demo\n");
		return 2;
	}
	if (!mkdtemp(dir)) {
		perror("demo: mkdtemp");
		return 1;
	}
	snprintf(src, sizeof(src), "%s/sample.c", dir);
	snprintf(bin, sizeof(bin), "%s/sample", dir);
	f = fopen(src, "w");
	if (!f || fputs(sample_source, f) < 0 || fclose(f)) {
		perror("demo: writing the sample source");
		goto out;
	}
	{
		char *cc_argv[] = { (char *)(cc && *cc ? cc : "cc"), "-g", "-O1", "-o", bin, src, NULL };
		if (run(cc_argv)) {
			fprintf(stderr, "demo: compiling the sample with %s failed\n", cc_argv[0]);
			goto out;
		}
	}
	printf("# dwarf2btf demo: layouts of %s (pahole)\n\n", bin);
	fflush(stdout);
	ret = pahole_main(2, (char *[]){ "pahole", bin, NULL });
	if (ret)
		goto out;
	printf("\n# functions (pfunct -P)\n\n");
	fflush(stdout);
	ret = pfunct_main(3, (char *[]){ "pfunct", "-P", bin, NULL });
out:
	unlink(bin);
	unlink(src);
	rmdir(dir);
	return ret;
}
