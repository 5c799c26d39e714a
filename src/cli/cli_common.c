// SPDX-License-Identifier: GPL-2.0-only
/* Shared plumbing of the front ends: opening inputs, -j, error exits, the
 * encoder's second start on huge pages. */
#include <errno.h>
#include <malloc.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cli/cli.h"

/* glibc.malloc.hugetlb's value in GLIBC_TUNABLES: '1', '2', else 0. */
static char malloc_hugetlb(void)
{
	static const char name[] = "glibc.malloc.hugetlb=";
	const char *t = getenv("GLIBC_TUNABLES"), *v = t ? strstr(t, name) : NULL;

	v = v ? v + sizeof(name) - 1 : NULL;
	return v && (*v == '1' || *v == '2') ? *v : 0;
}

bool cli_malloc_on_huge_pages(void)
{
	return malloc_hugetlb() != 0;
}

/* Whether GLIBC_TUNABLES names glibc.malloc.hugetlb, any value: the
 * user's (or our first run's) say, which wins over ours. */
static bool hugetlb_named(void)
{
	const char *t = getenv("GLIBC_TUNABLES");

	return t && strstr(t, "glibc.malloc.hugetlb");
}

static bool thp_available(void);

/* Whether resource RES has a limit (its soft one). */
static bool limited(int res)
{
	struct rlimit rl;

	return !getrlimit(res, &rl) && rl.rlim_cur != RLIM_INFINITY;
}

/*
 * Why not run again (cli_reexec_on_huge_pages()) as the encoder does: the
 * second exec is ~1.5 ms of the 15 ms `pahole task_struct` on the
 * project's VM, and a reader is one thread, whose blocks all come from the
 * main heap once the mmap threshold is above them. 40 runs alternated, 5
 * rounds: 15.5-17.5 -> 14.1-15.7 ms, faults 111 -> 71.
 */
bool cli_heap_for_big_model(char **argv, size_t span, void **filler)
{
	*filler = NULL;
	if (hugetlb_named() || getenv("D2B_NO_HUGEPAGE") || !thp_available())
		return false;
	/* the span is taken whole at once: under a limit on the address
	 * space or the data (`ulimit -v`, `-d`) it could leave no room for
	 * what the run maps next (a vmlinux base: 590 MB), where glibc's
	 * tunable grows the heap only as it is used */
	if (limited(RLIMIT_AS) || limited(RLIMIT_DATA)) {
		cli_reexec_on_huge_pages(argv);
		return false;
	}
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	/* above the span: a trim gives back the top of it, and the heap then
	 * grows again past the end of the region marked, on 4 KiB pages
	 * (the kernel cannot join the new pages to the marked region) */
	mallopt(M_TRIM_THRESHOLD, (int)(span > ((size_t)64 << 20) ? 2 * span : (size_t)128 << 20));
	if (!cli_heap_on_huge_pages(span, filler)) {
		free(*filler);
		*filler = NULL;
		cli_reexec_on_huge_pages(argv);
		return false;
	}
	return true;
}

const char *cli_malloc_pages(void)
{
	switch (malloc_hugetlb()) {
	case '1':
		return "on huge pages (glibc.malloc.hugetlb=1)";
	case '2':
		return "on huge pages (glibc.malloc.hugetlb=2)";
	default:
		return "on 4 KiB pages";
	}
}

/*
 * The heap on transparent huge pages, where the kernel allows them when
 * asked (THP "madvise" or "always"). A fresh 4 KiB page costs a page fault,
 * about 2.2 us each on the project's VM (free page reporting makes the
 * allocation dear), and `pahole -C task_struct` touched about 195 of them
 * decoding one vmlinux unit; one 2 MiB page costs 0.1-0.2 ms, once. The
 * run went from 1.61 to 1.10 ms (static build; 2.02 to 1.58 dynamic). Where
 * the kernel's THP defrag mode is "madvise" a fault may compact memory
 * first when no 2 MiB block is free (none seen here: compact_stall stayed
 * 0). glibc's switch for this (GLIBC_TUNABLES=glibc.malloc.hugetlb=1) is
 * read at exec only, hence by hand:
 *
 *   heap ... top | gap (never touched) | 1 page | 2 MiB-aligned: SPAN
 *                                       ^ the break is moved here
 *
 * The top chunk malloc has is used up (mallinfo2's keepcost is its size),
 * so the next small request extends the heap from the moved break: malloc
 * writes there, in the page below the boundary, and nowhere above it
 * until SPAN is marked MADV_HUGEPAGE. *FILLER_OUT: the block that used
 * the top chunk up, for the caller to free at exit (freed now, it would
 * serve the first requests from its ordinary pages), or NULL. Best
 * effort: whatever fails leaves ordinary pages (D2B_NO_HUGEPAGE=1 asks
 * for them); returns whether SPAN was marked. Called again later (a
 * reader's bigger span: cli_heap_for_big_model()), the same steps start
 * a span past the heap's end: the rest of the top chunk below it stays
 * untouched, address space only.
 */
bool cli_heap_on_huge_pages(size_t span, void **filler_out)
{
#if defined(MADV_HUGEPAGE) && defined(__GLIBC__) && \
	(__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))	/* mallinfo2 */
	const uintptr_t huge = (uintptr_t)2 << 20, page = 4096;
	const size_t request = 2048;
	void *volatile hold[8] = { 0 };	/* volatile: malloc/free pairs are elided */
	void *filler = NULL;
	bool marked = false;
	struct mallinfo2 mi;
	char *cur, *brk_at;
	uintptr_t a;

	*filler_out = NULL;
	if (getenv("D2B_NO_HUGEPAGE") || span > ((size_t)1 << 30))
		return false;
	mi = mallinfo2();	/* sets malloc up if nothing did yet */
	cur = sbrk(0);
	if (cur == (void *)-1)
		return false;
	a = ((uintptr_t)cur + page + huge - 1) & ~(huge - 1);
	if (sbrk((intptr_t)(a - page - (uintptr_t)cur)) == (void *)-1)
		return false;
	brk_at = sbrk(0);
	mallopt(M_TOP_PAD, (int)span);
	/* leave the top chunk too small for REQUEST */
	if (mi.keepcost > 64)
		filler = malloc(mi.keepcost - 64);
	/* a free chunk may serve REQUEST first: until the heap grew */
	for (unsigned i = 0; i < 8 && sbrk(0) == brk_at; i++)
		hold[i] = malloc(request);
	if ((uintptr_t)sbrk(0) >= a + span)
		marked = !madvise((void *)a, span, MADV_HUGEPAGE);
	for (unsigned i = 0; i < 8; i++)
		free(hold[i]);
	mallopt(M_TOP_PAD, 128 << 10);	/* glibc's default again */
	*filler_out = filler;
	return marked;
#else
	*filler_out = NULL;
	return false;
#endif
}

/* In the environment of the second run (cli_reexec_on_huge_pages): there
 * is no third, whatever became of the tunable. */
#define REEXEC_MARK "D2B_REEXECUTED"

/* Whether the kernel gives transparent huge pages to a region that asks
 * (mode "always" or "madvise", not "never"). */
static bool thp_available(void)
{
	char buf[128] = "";
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "re");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, sizeof(buf), f) && !strstr(buf, "[never]");
	fclose(f);
	return ok;
}

/*
 * Whether /proc/self/exe is the file this code runs from: the mapping that
 * holds this function (in /proc/self/maps) has its device and inode. Not
 * when the file was replaced or deleted since the start (an upgrade), when
 * a tool runs the program (valgrind: the process is the tool's binary), or
 * when the dynamic loader was run by hand (`ld.so ./dwarf2btf ...`: the
 * process is ld.so, which the exec would run with our arguments).
 */
static bool exe_is_this_program(void)
{
	uintptr_t self = (uintptr_t)(void *)exe_is_this_program;
	FILE *f = fopen("/proc/self/maps", "re");
	struct stat exe;
	char line[4096];
	bool same = false;

	if (!f)
		return false;
	if (!stat("/proc/self/exe", &exe)) {
		while (fgets(line, sizeof(line), f)) {
			unsigned long lo, hi, maj, min, ino;

			if (sscanf(line, "%lx-%lx %*s %*s %lx:%lx %lu", &lo, &hi, &maj, &min, &ino) != 5 ||
			    self < lo || self >= hi)
				continue;
			same = makedev(maj, min) == exe.st_dev && ino == exe.st_ino;
			break;
		}
	}
	fclose(f);
	return same;
}

/*
 * Why: on the project's VM a fresh 4 KiB page of anonymous memory costs
 * about 9 us (the fault and the hypervisor's backing: free page reporting
 * gave it back), a 2 MiB huge page about 0.1 ms (0.2 us a 4 KiB of it).
 * The encoder touches ~100 MiB: 24 k faults, 0.2 s of a 1.5 s run at -j1.
 * With glibc's malloc on huge pages (its heap, the threads' arenas and
 * every mapped chunk) the Debian vmlinux took 7 k faults: -j1 1.47 -> 1.32
 * s, -j2 1.13 -> 0.92 s (medians of 5, alternated), peak RSS +4-6 MiB, and
 * a module against the vmlinux's BTF (what a kernel build runs thousands
 * of times) tcp_bbr.ko 86 -> 38 ms, nfs.ko 140 -> 66 ms. glibc reads the
 * switch only from the environment at start, hence the exec (about 1 ms).
 */
void cli_reexec_on_huge_pages(char **argv)
{
	static const char set[] = "glibc.malloc.hugetlb=1";
	const char *old = getenv("GLIBC_TUNABLES");
	char *saved = old ? strdup(old) : NULL, *val;
	size_t n;

	/* once only: in a secure-mode process (setuid, file capabilities)
	 * glibc drops the tunable, and each run would exec the next */
	if ((old && !saved) || hugetlb_named() || getenv("D2B_NO_HUGEPAGE") ||
	    getenv(REEXEC_MARK) || getauxval(AT_SECURE) || !thp_available() ||
	    !exe_is_this_program())
		goto out;
	n = (old ? strlen(old) + 1 : 0) + sizeof(set);
	val = malloc(n);
	if (!val)
		goto out;
	snprintf(val, n, "%s%s%s", old ? old : "", old ? ":" : "", set);
	if (setenv(REEXEC_MARK, "1", 1) == 0 && setenv("GLIBC_TUNABLES", val, 1) == 0) {
		fflush(NULL);
		execv("/proc/self/exe", argv);
		/* not run again: go on as we are */
		if (saved)
			setenv("GLIBC_TUNABLES", saved, 1);
		else
			unsetenv("GLIBC_TUNABLES");
	}
	unsetenv(REEXEC_MARK);
	free(val);
out:
	free(saved);
}

int cli_dwarf_open(struct cli_dwarf_input *in, const char *path,
		   struct d2b_error *err)
{
	return cli_dwarf_open_flags(in, path, 0, err);
}

int cli_dwarf_open_flags(struct cli_dwarf_input *in, const char *path, unsigned flags,
			 struct d2b_error *err)
{
	memset(in, 0, sizeof(*in));
	in->elf = elf_file_open(path, err);
	if (!in->elf)
		return -1;
	if (dw_file_init_flags(&in->dwarf, in->elf, flags, err)) {
		elf_file_close(in->elf);
		in->elf = NULL;
		return -1;
	}
	return 0;
}

void cli_dwarf_close(struct cli_dwarf_input *in)
{
	if (!in->elf)
		return;
	dw_file_deinit(&in->dwarf);
	elf_file_close(in->elf);
	in->elf = NULL;
}

unsigned cli_parse_jobs(const char *arg)
{
	char *end;
	unsigned long n;

	if (!arg || !*arg)
		return pool_cpu_count();
	n = strtoul(arg, &end, 10);
	if (*end || n == 0 || n > 1024)
		return 0;
	return (unsigned)n;
}

int cli_parse_thread_bytes(const char *arg, size_t *out)
{
	char *end;
	unsigned long long v;

	if (!arg || *arg < '0' || *arg > '9')
		return -1;
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (*end || errno || v > SIZE_MAX)
		return -1;
	*out = (size_t)v;
	return 0;
}

int cli_fail(const char *prog, const struct d2b_error *err)
{
	fprintf(stderr, "%s: %s\n", prog, err && err->set ? err->msg : "unknown error");
	return 1;
}
