// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE		/* memfd_create */
/*
 * BTF in: open (raw, ELF .BTF, split), validate, convert to the model.
 * See btf_load.h for what is checked and what the model holds. This file
 * reads the bytes and keeps the handles; the check, the graph and the
 * model are the other files btf_load_internal.h lists.
 *
 *   btf_handle_open(path, base)
 *     ├── read_btf_bytes()     raw file, or the ELF's .BTF section, read
 *     ├── btf_check_bytes()    our pass over the bytes (header, records,
 *     │                        strings, references, kinds)
 *     └── btf__new_split()     libbpf's parse (it copies the bytes)
 *   btf_handle_open_unparsed(path)   the same without libbpf's parse: the
 *                              bytes and the records' offsets kept for
 *                              btf_handle_base_view() (the encoder's base)
 *   btf_handle_load_model()    btf_check_graph() over the types it takes (no
 *                              cycle, no chain too deep), then two passes
 *                              over the ids: allocate every model type,
 *                              then fill them in; DECL_TAGs last
 */
#include "btf/btf_load_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <linux/btf.h>

#include "btf/btf_base.h"
#include "btf/btf_wire.h"
#include "dwarf/dw_const.h"
#include "elf/elf_file.h"

const char *btf_default_vmlinux_path(void)
{
	const char *env = getenv("PAHOLE_VMLINUX_BTF_FILENAME");

	return env && *env ? env : "/sys/kernel/btf/vmlinux";
}

const char *btf_sysfs_module_base(const char *path)
{
	static const char dir[] = "/sys/kernel/btf/";

	if (!path || strncmp(path, dir, sizeof(dir) - 1) || strstr(path, "/vmlinux") ||
	    !path[sizeof(dir) - 1])
		return NULL;
	return btf_default_vmlinux_path();
}

/* ---- Reading the bytes ---- */

/* Read a whole (possibly non-seekable, e.g. sysfs) file. */
static int read_file(const char *path, uint8_t **out, size_t *size,
		     struct d2b_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 1 << 16, len = 0;
	uint8_t *buf = NULL;

	if (fd < 0)
		return d2b_error_set(err, "%s: %s", path, strerror(errno));
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return d2b_error_oom(err);
	}
	for (;;) {
		ssize_t n;

		if (len == cap) {
			uint8_t *nb;

			if (cap >= BTF_MAX_FILE) {
				free(buf);
				close(fd);
				return d2b_error_set(err, "%s: file too large for BTF",
						     path);
			}
			nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				close(fd);
				return d2b_error_oom(err);
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			d2b_error_set(err, "%s: %s", path, strerror(errno));
			free(buf);
			close(fd);
			return -1;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	*out = buf;
	*size = len;
	return 0;
}

static bool is_btf_magic(const uint8_t *p, size_t n)
{
	return n >= 2 && ((p[0] == 0x9f && p[1] == 0xeb) ||
			  (p[0] == 0xeb && p[1] == 0x9f));
}

static bool is_elf_magic(const uint8_t *p, size_t n)
{
	return n >= 4 && !memcmp(p, "\177ELF", 4);
}

enum btf_probe btf_probe_file(const char *path)
{
	uint8_t head[4];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct d2b_error err = { 0 };
	struct elf_file *ef;
	enum btf_probe r;

	if (fd < 0)
		return BTF_PROBE_NONE;
	n = read(fd, head, sizeof(head));
	close(fd);
	if (n < 0)
		return BTF_PROBE_NONE;
	if (is_btf_magic(head, (size_t)n))
		return BTF_PROBE_RAW;
	if (!is_elf_magic(head, (size_t)n))
		return BTF_PROBE_NONE;
	ef = elf_file_open(path, &err);
	if (!ef)
		return BTF_PROBE_NONE;
	r = elf_file_find_section(ef, BTF_SECTION) ? BTF_PROBE_ELF
						   : BTF_PROBE_ELF_NO_BTF;
	elf_file_close(ef);
	return r;
}

/* ---- Handles ---- */



/*
 * libbpf 1.1 as Debian ships it declares btf__new_split() but does not
 * export it; its split parsers take a file name. So split BTF goes through
 * an anonymous memory file (or, without /proc, a temporary file).
 */
struct btf *btf_parse_split_bytes(const void *data, size_t size, struct btf *base)
{
	char name[64];
	struct btf *btf = NULL;
	int fd = memfd_create("d2b-split-btf", MFD_CLOEXEC);
	bool unlink_it = false;
	int saved;

	if (fd >= 0) {
		snprintf(name, sizeof(name), "/proc/self/fd/%d", fd);
		if (access(name, R_OK)) {
			close(fd);
			fd = -1;
		}
	}
	if (fd < 0) {
		const char *dir = getenv("TMPDIR");

		snprintf(name, sizeof(name), "%.40s/d2b-btf-XXXXXX",
			 dir && *dir ? dir : "/tmp");
		fd = mkstemp(name);
		if (fd < 0)
			return NULL;
		unlink_it = true;
	}
	for (size_t done = 0; done < size;) {
		ssize_t n = write(fd, (const uint8_t *)data + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto out;
		done += (size_t)n;
	}
	btf = btf__parse_raw_split(name, base);
out:
	saved = errno;
	if (unlink_it)
		unlink(name);
	close(fd);
	errno = saved;
	return btf;
}

static struct btf_handle *open_bytes(const char *path, const uint8_t *data,
				     size_t size, const struct btf_handle *base,
				     struct d2b_error *err)
{
	struct btf_handle *h;
	uint32_t str_total, types_at;
	long lerr;

	if (btf_handle_need_parsed(base, err))
		return NULL;
	if (btf_check_bytes(path, data, size, base ? base->btf : NULL,
		      base ? base->str_total : 0, &str_total, &types_at, NULL, err))
		return NULL;
	h = calloc(1, sizeof(*h));
	if (!h || !(h->path = strdup(path))) {
		free(h);
		d2b_error_oom(err);
		return NULL;
	}
	h->base = base;
	errno = 0;
	if (base)
		h->btf = btf_parse_split_bytes(data, size, (struct btf *)base->btf);
	else
		h->btf = btf__new(data, (uint32_t)size);
	lerr = errno;
	if (!h->btf) {
		d2b_error_at(err, path, BTF_SECTION, 0, "libbpf cannot parse it: %s",
			     strerror((int)lerr));
		h->btf = NULL;
		btf_handle_close(h);
		return NULL;
	}
	h->start_id = base ? btf__type_cnt(base->btf) : 1;
	h->str_total = str_total;
	h->types_at = types_at;
	return h;
}

struct btf_handle *btf_handle_open_memory(const char *path, const void *data,
					  size_t size,
					  const struct btf_handle *base,
					  struct d2b_error *err)
{
	return open_bytes(path, data, size, base, err);
}

/* PATH's BTF bytes: a raw file, or an ELF file's .BTF section, read whole
 * into *DATA (malloc'd, *SIZE bytes). (Read, not checked and parsed where
 * the file is mapped: on the project's VM touching a vmlinux's 4 MB of
 * .BTF in the mapping cost 3-4 ms more than reading it.) */
static int read_btf_bytes(const char *path, uint8_t **data, size_t *size,
			  struct d2b_error *err)
{
	const struct elf_section *sec;
	struct elf_file *ef;
	uint8_t head[4];
	ssize_t n = -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	*data = NULL;
	if (fd >= 0) {
		n = read(fd, head, sizeof(head));
		close(fd);
	}
	if (n < 0 || !is_elf_magic(head, (size_t)n))
		return read_file(path, data, size, err);
	ef = elf_file_open(path, err);
	if (!ef)
		return -1;
	sec = elf_file_load_section(ef, BTF_SECTION, err);
	if (!sec) {
		if (!err || !err->set)
			d2b_error_set(err, "%s: no " BTF_SECTION " section", path);
		elf_file_close(ef);
		return -1;
	}
	*data = malloc(sec->size ? sec->size : 1);
	if (!*data) {
		elf_file_close(ef);
		return d2b_error_oom(err);
	}
	if (!elf_file_is_mapped(ef, sec->data, sec->size)) {
		/* decompressed or relocated: the elf_file's copy */
		memcpy(*data, sec->data, sec->size);
	} else if (elf_file_read(ef, sec->data, *data, sec->size)) {
		d2b_error_at(err, path, BTF_SECTION, 0, "cannot read it: %s", strerror(errno));
		free(*data);
		*data = NULL;
		elf_file_close(ef);
		return -1;
	}
	*size = sec->size;
	elf_file_close(ef);
	return 0;
}

/* PATH's BTF, opened on BASE. */
static struct btf_handle *open_path(const char *path, const struct btf_handle *base,
				    struct d2b_error *err)
{
	struct btf_handle *h;
	uint8_t *data;
	size_t size;

	if (read_btf_bytes(path, &data, &size, err))
		return NULL;
	h = open_bytes(path, data, size, base, err);
	free(data);
	return h;
}

/* A whole BTF (not split) checked, DATA (SIZE bytes, malloc'd) kept by
 * the handle without libbpf's parse; freed on failure. Where the bytes
 * cannot serve as a view (another byte order, records not 4-byte aligned)
 * libbpf parses them at once, as btf_handle_open() does. */
static struct btf_handle *open_unparsed(const char *path, uint8_t *data, size_t size,
					struct d2b_error *err)
{
	struct btf_handle *h;
	struct raw_kept kept = { 0 };
	uint32_t str_total, types_at;

	if (btf_check_bytes(path, data, size, NULL, 0, &str_total, &types_at, &kept, err)) {
		free(data);
		return NULL;
	}
	if (kept.swapped || types_at % 4) {
		free(kept.offs);
		free(kept.kinds);
		h = open_bytes(path, data, size, NULL, err);
		free(data);
		return h;
	}
	h = calloc(1, sizeof(*h));
	if (!h || !(h->path = strdup(path))) {
		free(h);
		free(kept.offs);
		free(kept.kinds);
		free(data);
		d2b_error_oom(err);
		return NULL;
	}
	h->start_id = 1;
	h->str_total = str_total;
	h->types_at = types_at;
	h->bytes = data;
	h->size = size;
	h->kept = kept;
	return h;
}

struct btf_handle *btf_handle_open_unparsed(const char *path, struct d2b_error *err)
{
	uint8_t *data;
	size_t size;

	if (!path)
		path = btf_default_vmlinux_path();
	if (read_btf_bytes(path, &data, &size, err))
		return NULL;
	return open_unparsed(path, data, size, err);
}

struct btf_handle *btf_handle_open_memory_unparsed(const char *path, const void *data,
						   size_t size, struct d2b_error *err)
{
	uint8_t *copy = malloc(size ? size : 1);

	if (!copy) {
		d2b_error_oom(err);
		return NULL;
	}
	memcpy(copy, data, size);
	return open_unparsed(path, copy, size, err);
}

int btf_handle_parse(struct btf_handle *h, struct d2b_error *err)
{
	if (h->btf)
		return 0;
	errno = 0;
	h->btf = btf__new(h->bytes, (uint32_t)h->size);
	if (!h->btf)
		return d2b_error_at(err, h->path, BTF_SECTION, 0, "libbpf cannot parse it: %s",
				    strerror(errno ? errno : EINVAL));
	return 0;
}

int btf_handle_base_view(const struct btf_handle *h, struct btf_base_view *v,
			 struct d2b_error *err)
{
	memset(v, 0, sizeof(*v));
	if (h->base)
		return d2b_error_set(err, "%s: split BTF cannot be a base here", h->path);
	if (h->bytes) {
		v->nr_types = h->kept.nr;
		v->types = h->bytes;	/* (the check's offsets are from the start) */
		v->off = h->kept.offs;
		v->kinds = h->kept.kinds;
		v->nr_anon = h->kept.nr_anon;
		v->strs = (const char *)h->bytes + h->kept.str_at;
		v->str_len = h->kept.str_len;
		return 0;
	}
	if (btf_base_view_from_btf(v, h->btf))
		return d2b_error_oom(err);
	return 0;
}

struct btf_handle *btf_handle_open(const char *path, const char *base_path,
				   struct d2b_error *err)
{
	struct btf_handle *base = NULL, *h;

	if (!path)
		path = btf_default_vmlinux_path();
	if (base_path) {
		base = btf_handle_open(base_path, NULL, err);
		if (!base)
			return NULL;
	}
	h = open_path(path, base, err);
	if (!h) {
		btf_handle_close(base);
		return NULL;
	}
	h->base_owned = base;
	return h;
}

void btf_handle_close(struct btf_handle *h)
{
	if (!h)
		return;
	btf__free(h->btf);
	btf_handle_close(h->base_owned);
	free(h->bytes);
	free(h->kept.offs);
	free(h->kept.kinds);
	free(h->path);
	free(h);
}

const char *btf_handle_path(const struct btf_handle *h)
{
	return h->path;
}

const struct btf *btf_handle_btf(const struct btf_handle *h)
{
	return h->btf;
}

uint32_t btf_handle_start_id(const struct btf_handle *h)
{
	return h->start_id;
}

/* libbpf's parse of H and of its bases, which what reads libbpf's objects
 * needs (a handle btf_handle_open_unparsed() opened has none until
 * btf_handle_parse()). */
int btf_handle_need_parsed(const struct btf_handle *h, struct d2b_error *err)
{
	for (; h; h = h->base)
		if (!h->btf)
			return d2b_error_set(err, "%s: BTF not parsed by libbpf (btf_handle_parse())",
					     h->path);
	return 0;
}
