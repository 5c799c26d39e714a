// SPDX-License-Identifier: GPL-2.0-only
/*
 * btf/btf_write.c: raw BTF files and the .BTF section of an ELF file, written
 * aside and renamed into place. See btf_write.h for the contract; the layout
 * rules of the ELF rewrite are there too.
 *
 * The ELF rewrite reads only the ELF header, the section header table and
 * .shstrtab (pread, every offset and size checked against the file size),
 * copies the whole old file into the temporary one (copy_file_range, so the
 * kernel may share or copy blocks without passing them through us; read/write
 * where it cannot), then writes a short list of patches over or after the
 * copy: the new .BTF bytes, zero fill, a .shstrtab copy, one section header
 * entry or a whole new table, the ELF header.
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64

#include "btf/btf_write.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef SHF_COMPRESSED
#define SHF_COMPRESSED (1u << 11)
#endif

/* Largest piece written or copied in one step (see D2B_FAULT_WRITE). */
#define WR_CHUNK ((size_t)16 << 20)

static const uint8_t zeros[64 * 1024];

/* ---- one write operation: messages, fault injection -------------------- */

struct wr {
	const char *path;	/* the caller's name for the target, for messages */
	struct d2b_error *err;
	long fault_at;		/* D2B_FAULT_WRITE: fail this step (1-based); 0: never */
	long delay_ms;		/* D2B_FAULT_WRITE_DELAY_MS */
	long step;		/* steps taken so far */
};

static long env_long(const char *name)
{
	const char *s = getenv(name);
	char *end;
	long v;

	if (!s || !*s)
		return 0;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 0)
		return 0;
	return v;
}

static void wr_init(struct wr *w, const char *path, struct d2b_error *err)
{
	w->path = path;
	w->err = err;
	w->fault_at = env_long("D2B_FAULT_WRITE");
	w->delay_ms = env_long("D2B_FAULT_WRITE_DELAY_MS");
	w->step = 0;
}

/* Enter the next write step: returns 0, or -1 with errno EIO when this is the
 * step D2B_FAULT_WRITE names. */
static int wr_step(struct wr *w)
{
	if (w->delay_ms > 0) {
		struct timespec ts = { w->delay_ms / 1000,
				       (w->delay_ms % 1000) * 1000000L };

		while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
			;
	}
	w->step++;
	if (w->fault_at > 0 && w->step == w->fault_at) {
		errno = EIO;
		return -1;
	}
	return 0;
}

/* "PATH: WHAT: strerror(E)"; returns -1. */
static int wr_fail(struct wr *w, const char *what, int e)
{
	char buf[128];
	const char *msg = e ? strerror_r(e, buf, sizeof(buf)) : "unexpected end of file";

	return d2b_error_set(w->err, "%s: %s: %s", w->path, what, msg);
}

/* Write LEN bytes of BUF (NULL: zeros) at OFF, as one step. 0 or -1 (errno). */
static int wr_pwrite(struct wr *w, int fd, const void *buf, size_t len, off_t off)
{
	const uint8_t *p = buf;

	if (wr_step(w))
		return -1;
	while (len) {
		size_t n = len;
		ssize_t got;

		if (!p && n > sizeof(zeros))
			n = sizeof(zeros);
		got = pwrite(fd, p ? (const void *)p : zeros, n, off);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (got == 0) {
			errno = ENOSPC;
			return -1;
		}
		len -= (size_t)got;
		off += got;
		if (p)
			p += got;
	}
	return 0;
}

/* Write BUF (NULL: zeros) at OFF in steps of at most WR_CHUNK. */
static int wr_write(struct wr *w, int fd, const void *buf, size_t len, off_t off)
{
	const uint8_t *p = buf;

	while (len) {
		size_t n = len < WR_CHUNK ? len : WR_CHUNK;

		if (wr_pwrite(w, fd, p, n, off))
			return wr_fail(w, "cannot write the new file", errno);
		len -= n;
		off += (off_t)n;
		if (p)
			p += n;
	}
	return 0;
}

/* Copy SIZE bytes from IN to OUT (both from offset 0), in steps. */
static int wr_copy(struct wr *w, int in, int out, uint64_t size)
{
	off_t pos = 0;
	bool use_rw = false;
	uint8_t *buf = NULL;
	int rc = -1;

	while ((uint64_t)pos < size) {
		uint64_t left = size - (uint64_t)pos;
		size_t chunk = left < WR_CHUNK ? (size_t)left : WR_CHUNK;
		off_t stop = pos + (off_t)chunk;

		if (wr_step(w)) {
			wr_fail(w, "cannot write the new file", errno);
			goto out;
		}
		while (pos < stop) {
			ssize_t n;

			if (!use_rw) {
				off_t ipos = pos, opos = pos;

				n = copy_file_range(in, &ipos, out, &opos,
						    (size_t)(stop - pos), 0);
				if (n < 0 && (errno == EXDEV || errno == ENOSYS ||
					      errno == EOPNOTSUPP || errno == EINVAL ||
					      errno == EBADF)) {
					use_rw = true;
					continue;
				}
			} else {
				size_t want = (size_t)(stop - pos);

				if (!buf && !(buf = malloc(1u << 20))) {
					d2b_error_oom(w->err);
					goto out;
				}
				if (want > (1u << 20))
					want = 1u << 20;
				n = pread(in, buf, want, pos);
				if (n > 0) {
					ssize_t done = 0;

					while (done < n) {
						ssize_t m = pwrite(out, buf + done,
								   (size_t)(n - done),
								   pos + done);
						if (m < 0 && errno == EINTR)
							continue;
						if (m <= 0) {
							if (m == 0)
								errno = ENOSPC;
							wr_fail(w, "cannot write the new file", errno);
							goto out;
						}
						done += m;
					}
				}
			}
			if (n < 0) {
				if (errno == EINTR)
					continue;
				wr_fail(w, "cannot copy the old file", errno);
				goto out;
			}
			if (n == 0) {
				d2b_error_set(w->err, "%s: the file shrank while being copied",
					      w->path);
				goto out;
			}
			pos += n;
		}
	}
	rc = 0;
out:
	free(buf);
	return rc;
}

/* ---- SIGXFSZ: blocked while we write, consumed afterwards --------------- */

struct xfsz_guard {
	sigset_t old;
	bool blocked;		/* we blocked it (it was not blocked before) */
};

static void xfsz_block(struct xfsz_guard *g)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGXFSZ);
	g->blocked = pthread_sigmask(SIG_BLOCK, &s, &g->old) == 0 &&
		     !sigismember(&g->old, SIGXFSZ);
}

static void xfsz_restore(struct xfsz_guard *g)
{
	struct timespec now = { 0, 0 };
	sigset_t s;
	int saved = errno;

	if (!g->blocked)
		return;
	sigemptyset(&s);
	sigaddset(&s, SIGXFSZ);
	while (sigtimedwait(&s, NULL, &now) == SIGXFSZ)
		;
	pthread_sigmask(SIG_SETMASK, &g->old, NULL);
	errno = saved;
}

/* ---- the target and its temporary file ---------------------------------- */

struct target {
	char *real;		/* the file to replace (symbolic links followed) */
	char *dir;		/* its directory */
	char *base;		/* its name in dir */
	bool exists;
	struct stat st;		/* when it exists */
};

static void target_fini(struct target *t)
{
	free(t->real);
	free(t->dir);
	free(t->base);
}

static int target_init(struct wr *w, struct target *t, bool must_exist)
{
	const char *path = w->path;
	const char *slash;
	struct stat lst;

	memset(t, 0, sizeof(*t));
	if (!path || !*path || path[strlen(path) - 1] == '/')
		return d2b_error_set(w->err, "%s: not a file name", path ? path : "");
	if (lstat(path, &lst) != 0) {
		if (errno != ENOENT || must_exist)
			return wr_fail(w, "cannot stat", errno);
		t->real = strdup(path);
	} else if (S_ISLNK(lst.st_mode)) {
		t->real = realpath(path, NULL);
		if (!t->real)
			return wr_fail(w, "cannot follow the symbolic link", errno);
	} else {
		t->real = strdup(path);
	}
	if (!t->real)
		return d2b_error_oom(w->err);
	if (stat(t->real, &t->st) == 0) {
		t->exists = true;
		if (!S_ISREG(t->st.st_mode))
			return d2b_error_set(w->err, "%s: not a regular file", path);
		if (faccessat(AT_FDCWD, t->real, W_OK, AT_EACCESS) != 0 &&
		    errno != ETXTBSY)
			return wr_fail(w, "not writable", errno);
	} else if (errno != ENOENT || must_exist) {
		return wr_fail(w, "cannot stat", errno);
	}
	slash = strrchr(t->real, '/');
	if (!slash) {
		t->dir = strdup(".");
		t->base = strdup(t->real);
	} else {
		t->dir = slash == t->real ? strdup("/")
					  : strndup(t->real, (size_t)(slash - t->real));
		t->base = strdup(slash + 1);
	}
	if (!t->dir || !t->base)
		return d2b_error_oom(w->err);
	if (!strcmp(t->base, ".") || !strcmp(t->base, ".."))
		return d2b_error_set(w->err, "%s: not a file name", path);
	return 0;
}

struct tmpf {
	int dirfd;
	int fd;
	bool anon;		/* O_TMPFILE: no name until linked */
	char name[NAME_MAX + 1];	/* its name in the directory, "" when none */
};

/* ".BASE.d2b-XXXXXXXXXXXX" with a random suffix. */
static void tmp_name(char *out, size_t cap, const char *base)
{
	uint64_t r = 0;
	struct timespec ts;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		r ^= (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^
		     (uint64_t)getpid() << 32 ^ (uint64_t)ts.tv_sec;
	}
	snprintf(out, cap, ".%.200s.d2b-%012llx", base,
		 (unsigned long long)(r & 0xffffffffffffull));
}

static void tmp_abort(struct tmpf *t)
{
	if (t->fd >= 0)
		close(t->fd);
	if (t->name[0] && t->dirfd >= 0)
		unlinkat(t->dirfd, t->name, 0);
	if (t->dirfd >= 0)
		close(t->dirfd);
	t->fd = t->dirfd = -1;
	t->name[0] = '\0';
}

static int tmp_open(struct wr *w, struct tmpf *t, const struct target *tg, mode_t mode)
{
	int i;

	t->fd = -1;
	t->anon = false;
	t->name[0] = '\0';
	t->dirfd = open(tg->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (t->dirfd < 0)
		return wr_fail(w, "cannot open its directory", errno);
	if (wr_step(w))
		goto fail;
	t->fd = openat(t->dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
	if (t->fd >= 0) {
		t->anon = true;
		return 0;
	}
	if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL &&
	    errno != ENOENT)
		goto fail;
	for (i = 0; i < 100; i++) {
		tmp_name(t->name, sizeof(t->name), tg->base);
		t->fd = openat(t->dirfd, t->name,
			       O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, mode);
		if (t->fd >= 0)
			return 0;
		if (errno != EEXIST)
			break;
	}
	t->name[0] = '\0';
fail:
	wr_fail(w, "cannot create a temporary file beside it", errno);
	tmp_abort(t);
	return -1;
}

/* Give the O_TMPFILE file a fresh temporary name. 0, or -1 with errno and
 * no name. */
static int tmp_link(struct tmpf *t, const char *base)
{
	char proc[64];
	int i;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", t->fd);
	for (i = 0; i < 100; i++) {
		tmp_name(t->name, sizeof(t->name), base);
		/* AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH; /proc does not. */
		if (linkat(t->fd, "", t->dirfd, t->name, AT_EMPTY_PATH) == 0)
			return 0;
		if ((errno == ENOENT || errno == EPERM || errno == EINVAL) &&
		    linkat(AT_FDCWD, proc, t->dirfd, t->name, AT_SYMLINK_FOLLOW) == 0)
			return 0;
		if (errno != EEXIST)
			break;
	}
	t->name[0] = '\0';
	return -1;
}

/* Owner and mode of the old file, fsync, link (O_TMPFILE), rename over the
 * target, fsync the directory. On error the temporary file is gone. */
static int tmp_commit(struct wr *w, struct tmpf *t, const struct target *tg)
{
	const char *what;
	bool rename_fault;

	if (tg->exists) {
		if (geteuid() == 0) {
			what = "cannot set the owner";
			if (wr_step(w) ||
			    fchown(t->fd, tg->st.st_uid, tg->st.st_gid) != 0)
				goto fail;
		}
		what = "cannot set the mode";
		if (wr_step(w) || fchmod(t->fd, tg->st.st_mode & 07777) != 0)
			goto fail;
	}
	what = "cannot sync the new file";
	if (wr_step(w) || fsync(t->fd) != 0)
		goto fail;
	/* Both steps are taken (and any test delay slept) before the link, so
	 * the temporary file has a name only between linkat and renameat. */
	what = "cannot link the new file";
	if (t->anon && wr_step(w))
		goto fail;
	what = "cannot rename the new file over it";
	rename_fault = wr_step(w) != 0;
	if (t->anon && tmp_link(t, tg->base) != 0) {
		what = "cannot link the new file";
		goto fail;
	}
	if (rename_fault) {
		errno = EIO;
		goto fail;
	}
	if (renameat(t->dirfd, t->name, t->dirfd, tg->base) != 0)
		goto fail;
	t->name[0] = '\0';
	close(t->fd);
	t->fd = -1;
	fsync(t->dirfd);	/* best effort: the new file is in place */
	close(t->dirfd);
	t->dirfd = -1;
	return 0;
fail:
	wr_fail(w, what, errno);
	tmp_abort(t);
	return -1;
}

/* ---- raw BTF ------------------------------------------------------------ */

int btf_write_raw(const char *path, const void *data, size_t size,
		  struct d2b_error *err)
{
	struct xfsz_guard g;
	struct target tg;
	struct tmpf t;
	struct wr w;
	int rc = -1;

	wr_init(&w, path, err);
	if (size && !data)
		return d2b_error_set(err, "%s: no BTF data", path ? path : "");
	if (target_init(&w, &tg, false))
		goto out;
	xfsz_block(&g);
	if (tmp_open(&w, &t, &tg, 0644) == 0) {
		if (wr_write(&w, t.fd, data, size, 0))
			tmp_abort(&t);
		else
			rc = tmp_commit(&w, &t, &tg);
	}
	xfsz_restore(&g);
out:
	target_fini(&tg);
	return rc;
}

/* ---- ELF ---------------------------------------------------------------- */

static uint16_t get16(const uint8_t *p, bool be)
{
	return be ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[1] << 8 | p[0]);
}

static uint32_t get32(const uint8_t *p, bool be)
{
	return be ? (uint32_t)get16(p, be) << 16 | get16(p + 2, be)
		  : (uint32_t)get16(p + 2, be) << 16 | get16(p, be);
}

static uint64_t get64(const uint8_t *p, bool be)
{
	return be ? (uint64_t)get32(p, be) << 32 | get32(p + 4, be)
		  : (uint64_t)get32(p + 4, be) << 32 | get32(p, be);
}

static void put16(uint8_t *p, uint16_t v, bool be)
{
	p[be ? 0 : 1] = (uint8_t)(v >> 8);
	p[be ? 1 : 0] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v, bool be)
{
	put16(p + (be ? 0 : 2), (uint16_t)(v >> 16), be);
	put16(p + (be ? 2 : 0), (uint16_t)v, be);
}

static void put64(uint8_t *p, uint64_t v, bool be)
{
	put32(p + (be ? 0 : 4), (uint32_t)(v >> 32), be);
	put32(p + (be ? 4 : 0), (uint32_t)v, be);
}

struct shdr {
	uint32_t name, type;
	uint64_t flags, addr, offset, size;
	uint32_t link, info;
	uint64_t addralign, entsize;
};

/* What we read of the old file. */
struct img {
	bool is64, be;
	uint64_t file_size;
	uint8_t ehdr[64];
	size_t ehsize;		/* 52 or 64 */
	uint64_t shoff;
	size_t shentsize;	/* 40 or 64 */
	size_t shnum;		/* real count (extended numbering resolved) */
	bool ext_num;		/* e_shnum == 0, count in section 0's sh_size */
	size_t shstrndx;
	uint8_t *shtab;		/* the raw table: shnum * shentsize bytes */
	uint8_t *shstr;		/* .shstrtab, NUL-terminated one past its size */
	uint64_t shstr_size;
};

static void shdr_get(const struct img *m, size_t i, struct shdr *s)
{
	const uint8_t *p = m->shtab + i * m->shentsize;
	bool be = m->be;

	s->name = get32(p, be);
	s->type = get32(p + 4, be);
	if (m->is64) {
		s->flags = get64(p + 8, be);
		s->addr = get64(p + 16, be);
		s->offset = get64(p + 24, be);
		s->size = get64(p + 32, be);
		s->link = get32(p + 40, be);
		s->info = get32(p + 44, be);
		s->addralign = get64(p + 48, be);
		s->entsize = get64(p + 56, be);
	} else {
		s->flags = get32(p + 8, be);
		s->addr = get32(p + 12, be);
		s->offset = get32(p + 16, be);
		s->size = get32(p + 20, be);
		s->link = get32(p + 24, be);
		s->info = get32(p + 28, be);
		s->addralign = get32(p + 32, be);
		s->entsize = get32(p + 36, be);
	}
}

/* Encode S into P (an entry of m's format). Values must fit (ELF32 checked
 * by the caller). */
static void shdr_put(const struct img *m, uint8_t *p, const struct shdr *s)
{
	bool be = m->be;

	put32(p, s->name, be);
	put32(p + 4, s->type, be);
	if (m->is64) {
		put64(p + 8, s->flags, be);
		put64(p + 16, s->addr, be);
		put64(p + 24, s->offset, be);
		put64(p + 32, s->size, be);
		put32(p + 40, s->link, be);
		put32(p + 44, s->info, be);
		put64(p + 48, s->addralign, be);
		put64(p + 56, s->entsize, be);
	} else {
		put32(p + 8, (uint32_t)s->flags, be);
		put32(p + 12, (uint32_t)s->addr, be);
		put32(p + 16, (uint32_t)s->offset, be);
		put32(p + 20, (uint32_t)s->size, be);
		put32(p + 24, s->link, be);
		put32(p + 28, s->info, be);
		put32(p + 32, (uint32_t)s->addralign, be);
		put32(p + 36, (uint32_t)s->entsize, be);
	}
}

static void img_fini(struct img *m)
{
	free(m->shtab);
	free(m->shstr);
}

/* pread exactly LEN bytes at OFF (the caller checked OFF + LEN <= size). */
static int read_at(struct wr *w, int fd, void *buf, size_t len, uint64_t off,
		   const char *what)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			char buf[128];

			return d2b_error_set(w->err, "%s: cannot read %s at offset 0x%llx: %s",
					     w->path, what, (unsigned long long)off,
					     n < 0 ? strerror_r(errno, buf, sizeof(buf))
						   : "unexpected end of file");
		}
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/* Does [off, off + len) lie inside the file? */
static bool in_file(const struct img *m, uint64_t off, uint64_t len)
{
	return off <= m->file_size && len <= m->file_size - off;
}

static int img_read(struct wr *w, int fd, struct img *m)
{
	const uint8_t *e = m->ehdr;
	uint16_t e_shnum, e_shstrndx, e_shentsize;
	uint8_t sh0[64];
	struct shdr s;

	if (m->file_size < EI_NIDENT)
		return d2b_error_set(w->err, "%s: not an ELF file (%llu bytes)", w->path,
				     (unsigned long long)m->file_size);
	if (read_at(w, fd, m->ehdr, EI_NIDENT, 0, "the ELF header"))
		return -1;
	if (memcmp(e, ELFMAG, SELFMAG) != 0)
		return d2b_error_set(w->err, "%s: not an ELF file", w->path);
	if (e[EI_CLASS] != ELFCLASS32 && e[EI_CLASS] != ELFCLASS64)
		return d2b_error_set(w->err, "%s: unknown ELF class %u", w->path, e[EI_CLASS]);
	if (e[EI_DATA] != ELFDATA2LSB && e[EI_DATA] != ELFDATA2MSB)
		return d2b_error_set(w->err, "%s: unknown ELF data encoding %u", w->path,
				     e[EI_DATA]);
	m->is64 = e[EI_CLASS] == ELFCLASS64;
	m->be = e[EI_DATA] == ELFDATA2MSB;
	m->ehsize = m->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	m->shentsize = m->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	if (m->file_size < m->ehsize)
		return d2b_error_set(w->err, "%s: truncated ELF header", w->path);
	if (read_at(w, fd, m->ehdr, m->ehsize, 0, "the ELF header"))
		return -1;
	if (m->is64) {
		m->shoff = get64(e + 40, m->be);
		e_shentsize = get16(e + 58, m->be);
		e_shnum = get16(e + 60, m->be);
		e_shstrndx = get16(e + 62, m->be);
	} else {
		m->shoff = get32(e + 32, m->be);
		e_shentsize = get16(e + 46, m->be);
		e_shnum = get16(e + 48, m->be);
		e_shstrndx = get16(e + 50, m->be);
	}
	if (m->shoff == 0)
		return d2b_error_set(w->err, "%s: no section header table", w->path);
	if (e_shentsize != m->shentsize)
		return d2b_error_set(w->err, "%s: ELF header: section header size %u, expected %zu",
				     w->path, e_shentsize, m->shentsize);
	if (!in_file(m, m->shoff, m->shentsize))
		return d2b_error_set(w->err,
				     "%s: section header table at 0x%llx is past the end of the file (%llu bytes)",
				     w->path, (unsigned long long)m->shoff,
				     (unsigned long long)m->file_size);
	if (read_at(w, fd, sh0, m->shentsize, m->shoff, "section header 0"))
		return -1;
	m->ext_num = e_shnum == 0;
	if (m->ext_num) {
		uint64_t n = m->is64 ? get64(sh0 + 32, m->be) : get32(sh0 + 20, m->be);

		if (n == 0 || n > (m->file_size - m->shoff) / m->shentsize)
			return d2b_error_set(w->err,
					     "%s: section header 0: bad extended section count %llu",
					     w->path, (unsigned long long)n);
		m->shnum = (size_t)n;
	} else {
		m->shnum = e_shnum;
	}
	if (m->shnum > (m->file_size - m->shoff) / m->shentsize)
		return d2b_error_set(w->err,
				     "%s: section header table (%zu entries at 0x%llx) runs past the end of the file",
				     w->path, m->shnum, (unsigned long long)m->shoff);
	m->shtab = malloc(m->shnum * m->shentsize);
	if (!m->shtab)
		return d2b_error_oom(w->err);
	if (read_at(w, fd, m->shtab, m->shnum * m->shentsize, m->shoff,
		    "the section header table"))
		return -1;
	if (e_shstrndx == SHN_XINDEX)
		m->shstrndx = m->is64 ? get32(sh0 + 40, m->be) : get32(sh0 + 24, m->be);
	else if (e_shstrndx >= SHN_LORESERVE)
		return d2b_error_set(w->err, "%s: bad section name table index 0x%x",
				     w->path, e_shstrndx);
	else
		m->shstrndx = e_shstrndx;
	if (m->shstrndx == SHN_UNDEF || m->shstrndx >= m->shnum)
		return d2b_error_set(w->err, "%s: no section name string table (index %zu of %zu)",
				     w->path, m->shstrndx, m->shnum);
	shdr_get(m, m->shstrndx, &s);
	if (s.type == SHT_NOBITS || !in_file(m, s.offset, s.size))
		return d2b_error_set(w->err,
				     "%s: section name table (section %zu, 0x%llx bytes at 0x%llx) is outside the file",
				     w->path, m->shstrndx, (unsigned long long)s.size,
				     (unsigned long long)s.offset);
	m->shstr_size = s.size;
	m->shstr = malloc((size_t)s.size + 1);
	if (!m->shstr)
		return d2b_error_oom(w->err);
	if (read_at(w, fd, m->shstr, (size_t)s.size, s.offset, "the section name table"))
		return -1;
	m->shstr[s.size] = '\0';
	return 0;
}

/* Index of the one section named .BTF, 0 when none, -1 (err set) when several. */
static long find_btf(struct wr *w, const struct img *m)
{
	long found = 0;
	size_t i;

	for (i = 1; i < m->shnum; i++) {
		struct shdr s;

		shdr_get(m, i, &s);
		if (s.name >= m->shstr_size || m->shstr_size - s.name < 5 ||
		    memcmp(m->shstr + s.name, ".BTF", 5) != 0)
			continue;
		if (found)
			return d2b_error_set(w->err, "%s: more than one .BTF section (%ld and %zu)",
					     w->path, found, i);
		found = (long)i;
	}
	return found;
}

/*
 * For a smaller BTF written over an SHF_ALLOC .BTF: copy its header into HDR
 * with the string section grown by PAD bytes (the NULs that follow it), so
 * the BTF fills the old space exactly. False when DATA is not BTF with the
 * strings last.
 */
static bool btf_grow_strings(const uint8_t *d, size_t size, uint64_t pad,
			     uint8_t *hdr, size_t cap, size_t *hdr_len)
{
	uint32_t hl, type_off, type_len, str_off, str_len;
	bool be;

	if (size < 24)
		return false;
	if (d[0] == 0x9f && d[1] == 0xeb)
		be = false;
	else if (d[0] == 0xeb && d[1] == 0x9f)
		be = true;
	else
		return false;
	hl = get32(d + 4, be);
	if (hl < 24 || hl > size || hl > cap)
		return false;
	type_off = get32(d + 8, be);
	type_len = get32(d + 12, be);
	str_off = get32(d + 16, be);
	str_len = get32(d + 20, be);
	if (str_len == 0 || (uint64_t)str_off + str_len != size - hl ||
	    (uint64_t)type_off + type_len > str_off ||
	    (uint64_t)str_len + pad > UINT32_MAX)
		return false;
	memcpy(hdr, d, hl);
	put32(hdr + 20, (uint32_t)(str_len + pad), be);
	*hdr_len = hl;
	return true;
}

/* One piece of the new file written over or after the copy; buf NULL: zeros. */
struct patch {
	uint64_t off;
	const void *buf;
	uint64_t len;
};

#define MAX_PATCHES 8

static void add_patch(struct patch *p, int *n, uint64_t off, const void *buf, uint64_t len)
{
	if (len) {
		p[*n] = (struct patch){ off, buf, len };
		(*n)++;
	}
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/* Everything btf_write_elf_section builds, freed in one place. */
struct plan {
	struct patch p[MAX_PATCHES];
	int n;
	uint64_t end;			/* size of the new file */
	uint8_t entry[64];		/* one rewritten section header */
	uint8_t btf_hdr[256];		/* BTF header with grown str_len */
	uint8_t *table;			/* a whole new section header table */
	uint8_t ehdr[64];
};

static int plan_build(struct wr *w, struct img *m, struct plan *pl,
		      const uint8_t *data, size_t size)
{
	static const char btf_name[] = ".BTF";	/* 5 bytes with its NUL */
	long bi = find_btf(w, m);
	struct shdr s;

	pl->end = m->file_size;
	if (bi < 0)
		return -1;
	if (bi > 0) {
		shdr_get(m, (size_t)bi, &s);
		if (s.type == SHT_NOBITS)
			return d2b_error_set(w->err, "%s: section %ld .BTF is SHT_NOBITS",
					     w->path, bi);
		if (!in_file(m, s.offset, s.size))
			return d2b_error_set(w->err,
					     "%s: section %ld .BTF (0x%llx bytes at 0x%llx) is outside the file",
					     w->path, bi, (unsigned long long)s.size,
					     (unsigned long long)s.offset);
		if (s.flags & SHF_ALLOC) {
			size_t hl;

			if (size > s.size)
				return d2b_error_set(w->err,
						     "%s: .BTF is in a loaded segment (SHF_ALLOC) and holds %llu bytes; the new BTF has %zu: it cannot grow without moving what follows it",
						     w->path, (unsigned long long)s.size, size);
			if (size < s.size &&
			    btf_grow_strings(data, size, s.size - size, pl->btf_hdr,
					     sizeof(pl->btf_hdr), &hl)) {
				add_patch(pl->p, &pl->n, s.offset, pl->btf_hdr, hl);
				add_patch(pl->p, &pl->n, s.offset + hl, data + hl, size - hl);
				add_patch(pl->p, &pl->n, s.offset + size, NULL, s.size - size);
				return 0;	/* sh_size unchanged */
			}
			add_patch(pl->p, &pl->n, s.offset, data, size);
			add_patch(pl->p, &pl->n, s.offset + size, NULL, s.size - size);
		} else if (size <= s.size) {
			add_patch(pl->p, &pl->n, s.offset, data, size);
			add_patch(pl->p, &pl->n, s.offset + size, NULL, s.size - size);
			s.type = SHT_PROGBITS;
			s.flags &= ~(uint64_t)SHF_COMPRESSED;
		} else {
			s.offset = align_up(pl->end, 4);
			add_patch(pl->p, &pl->n, s.offset, data, size);
			pl->end = s.offset + size;
			s.type = SHT_PROGBITS;
			s.flags &= ~(uint64_t)SHF_COMPRESSED;
			s.addralign = 4;
		}
		s.size = size;
		shdr_put(m, pl->entry, &s);
		add_patch(pl->p, &pl->n, m->shoff + (uint64_t)bi * m->shentsize,
			  pl->entry, m->shentsize);
	} else {
		/* A new section: data, maybe a .shstrtab copy, a new table. */
		struct shdr strs, ns = { 0 };
		size_t count = m->shnum + 1;
		uint64_t name = m->shstr_size;
		uint64_t i, tab_off;

		for (i = 0; i + 5 <= m->shstr_size; i++) {
			if (!memcmp(m->shstr + i, btf_name, 5)) {
				name = i;
				break;
			}
		}
		ns.type = SHT_PROGBITS;
		ns.addralign = 4;
		ns.offset = align_up(pl->end, 4);
		ns.size = size;
		add_patch(pl->p, &pl->n, ns.offset, data, size);
		pl->end = ns.offset + size;
		shdr_get(m, m->shstrndx, &strs);
		if (name == m->shstr_size) {
			if (strs.flags & SHF_ALLOC)
				return d2b_error_set(w->err,
						     "%s: the section name table is in a loaded segment; cannot add .BTF to it",
						     w->path);
			if (m->shstr_size > UINT32_MAX - 5)
				return d2b_error_set(w->err, "%s: section name table too large",
						     w->path);
			strs.offset = pl->end;
			add_patch(pl->p, &pl->n, strs.offset, m->shstr, m->shstr_size);
			add_patch(pl->p, &pl->n, strs.offset + m->shstr_size, btf_name, 5);
			strs.size = m->shstr_size + 5;
			pl->end = strs.offset + strs.size;
		}
		ns.name = (uint32_t)name;
		tab_off = align_up(pl->end, m->is64 ? 8 : 4);
		pl->table = malloc(count * m->shentsize);
		if (!pl->table)
			return d2b_error_oom(w->err);
		memcpy(pl->table, m->shtab, m->shnum * m->shentsize);
		shdr_put(m, pl->table + m->shnum * m->shentsize, &ns);
		shdr_put(m, pl->table + m->shstrndx * m->shentsize, &strs);
		memcpy(pl->ehdr, m->ehdr, m->ehsize);
		if (m->ext_num || count >= SHN_LORESERVE) {
			struct shdr z;

			shdr_get(m, 0, &z);
			z.size = count;
			shdr_put(m, pl->table, &z);
			put16(pl->ehdr + (m->is64 ? 60 : 48), 0, m->be);
		} else {
			put16(pl->ehdr + (m->is64 ? 60 : 48), (uint16_t)count, m->be);
		}
		if (m->is64)
			put64(pl->ehdr + 40, tab_off, m->be);
		else if (tab_off <= UINT32_MAX)
			put32(pl->ehdr + 32, (uint32_t)tab_off, m->be);
		add_patch(pl->p, &pl->n, tab_off, pl->table, count * m->shentsize);
		add_patch(pl->p, &pl->n, 0, pl->ehdr, m->ehsize);
		pl->end = tab_off + count * m->shentsize;
	}
	if (!m->is64 && pl->end > UINT32_MAX)
		return d2b_error_set(w->err,
				     "%s: the new file would be %llu bytes, too large for ELF32",
				     w->path, (unsigned long long)pl->end);
	return 0;
}

int btf_write_elf_section(const char *path, const void *data, size_t size,
			  struct d2b_error *err)
{
	struct img m = { 0 };
	struct plan pl = { .n = 0 };
	struct xfsz_guard g;
	struct target tg;
	struct tmpf t;
	struct stat st;
	struct wr w;
	int fd = -1, rc = -1, i;

	wr_init(&w, path, err);
	if (!size || !data)
		return d2b_error_set(err, "%s: no BTF data", path ? path : "");
	if (target_init(&w, &tg, true))
		goto out;
	fd = open(tg.real, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		wr_fail(&w, "cannot open", errno);
		goto out;
	}
	if (fstat(fd, &st) != 0) {
		wr_fail(&w, "cannot stat", errno);
		goto out;
	}
	tg.st = st;	/* the mode and owner of what we opened */
	m.file_size = (uint64_t)st.st_size;
	if (img_read(&w, fd, &m) || plan_build(&w, &m, &pl, data, size))
		goto out;
	xfsz_block(&g);
	if (tmp_open(&w, &t, &tg, 0600) == 0) {
		bool ok = wr_copy(&w, fd, t.fd, m.file_size) == 0;

		for (i = 0; ok && i < pl.n; i++)
			ok = wr_write(&w, t.fd, pl.p[i].buf, (size_t)pl.p[i].len,
				      (off_t)pl.p[i].off) == 0;
		if (ok)
			rc = tmp_commit(&w, &t, &tg);
		else
			tmp_abort(&t);
	}
	xfsz_restore(&g);
out:
	if (fd >= 0)
		close(fd);
	free(pl.table);
	img_fini(&m);
	target_fini(&tg);
	return rc;
}
