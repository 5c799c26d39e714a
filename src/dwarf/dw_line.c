// SPDX-License-Identifier: GPL-2.0-only
/* Line-table headers (DWARF 2-5): just the file names, for DW_AT_decl_file. */
#include <stdio.h>
#include <string.h>

#include "dwarf/dw_form.h"
#include "dwarf/dw_read.h"

struct line_ctx {
	const struct dw_cu *cu;
	const struct dw_section *sec;
	uint64_t table_off;
	struct d2b_error *err;
};

static int line_error(const struct line_ctx *lc, const uint8_t *at, const char *what)
{
	return d2b_error_at(lc->err, lc->cu->file->path, lc->sec->name,
			    (uint64_t)(at - lc->sec->data), "line table at 0x%llx: %s",
			    (unsigned long long)lc->table_off, what);
}

/* "dir/name" unless NAME is absolute. A relative DIR stays relative, as
 * libdw (and so pahole) leaves it. */
static const char *join_path(struct arena *a, const char *dir, const char *name)
{
	size_t n;
	char *s;

	if (!name)
		return "";
	if (name[0] == '/' || !dir || !dir[0])
		return name;
	n = strlen(dir) + strlen(name) + 2;
	s = arena_alloc(a, n);
	if (s)
		snprintf(s, n, "%s/%s", dir, name);
	return s;
}

/* One v5 entry field: strings or the directory index; others skipped. */
static int read_entry_field(const struct line_ctx *lc, unsigned form, uint8_t offset_size,
			    const uint8_t **p, const uint8_t *end,
			    const char **str, uint64_t *num)
{
	const struct dw_file *df = lc->cu->file;
	const uint8_t *at = *p;
	uint64_t v;

	switch (form) {
	case DW_FORM_string:
		if (!rd_str(p, end, str))
			return line_error(lc, at, "unterminated string");
		return 0;
	case DW_FORM_line_strp:
	case DW_FORM_strp: {
		const struct dw_section *s =
			&df->sec[form == DW_FORM_strp ? DW_SEC_STR : DW_SEC_LINE_STR];
		if (!rd_uN(p, end, offset_size, &v))
			return line_error(lc, at, "truncated entry");
		*str = sec_str(s->data, s->size, v);
		if (!*str)
			return line_error(lc, at, "string offset out of range");
		return 0;
	}
	case DW_FORM_udata:
		if (!rd_uleb(p, end, num))
			return line_error(lc, at, "truncated entry");
		return 0;
	case DW_FORM_data1:
	case DW_FORM_data2:
	case DW_FORM_data4:
	case DW_FORM_data8:
		if (!rd_uN(p, end, form == DW_FORM_data1 ? 1 : form == DW_FORM_data2 ? 2 :
			   form == DW_FORM_data4 ? 4 : 8, num))
			return line_error(lc, at, "truncated entry");
		return 0;
	case DW_FORM_data16:
		if (end - *p < 16)
			return line_error(lc, at, "truncated entry");
		*p += 16;
		return 0;
	case DW_FORM_block:
		if (!rd_uleb(p, end, &v) || v > (uint64_t)(end - *p))
			return line_error(lc, at, "truncated entry");
		*p += v;
		return 0;
	case DW_FORM_strx:
	case DW_FORM_strx1:
	case DW_FORM_strx2:
	case DW_FORM_strx3:
	case DW_FORM_strx4: {
		struct dw_attr a;
		/* (no message from there: it would name the unit's section) */
		if (dw_form_read(lc->cu, form, 0, p, end, &a, NULL))
			return line_error(lc, at, "bad string index in entry");
		*str = a.str;
		return 0;
	}
	}
	return line_error(lc, at, "unsupported form in entry format");
}

struct entry_format {
	uint64_t content, form;
};

/* v5 directory or file entries. */
static int read_v5_entries(const struct line_ctx *lc, const uint8_t **p, const uint8_t *end,
			   uint8_t offset_size, const char ***names, uint64_t **dirs,
			   uint64_t *count)
{
	struct entry_format fmt[16];
	uint8_t nfmt;
	struct arena *a = lc->cu->arena;

	if (!rd_u8(p, end, &nfmt))
		return line_error(lc, *p, "truncated entry format count");
	if (nfmt > 16)
		return line_error(lc, *p, "too many entry format fields");
	for (unsigned i = 0; i < nfmt; i++)
		if (!rd_uleb(p, end, &fmt[i].content) || !rd_uleb(p, end, &fmt[i].form))
			return line_error(lc, *p, "truncated entry format");
	if (!rd_uleb(p, end, count))
		return line_error(lc, *p, "truncated entry count");
	/* Each entry takes at least one byte unless it has no fields. */
	if (*count > (uint64_t)(end - *p) && nfmt)
		return line_error(lc, *p, "entry count exceeds the table");
	if (!nfmt)
		*count = 0;
	*names = arena_zalloc(a, (*count + 1) * sizeof(**names));
	*dirs = arena_zalloc(a, (*count + 1) * sizeof(**dirs));
	if (!*names || !*dirs)
		return d2b_error_oom(lc->err);
	for (uint64_t e = 0; e < *count; e++) {
		for (unsigned i = 0; i < nfmt; i++) {
			const char *s = NULL;
			uint64_t num = 0;

			if (read_entry_field(lc, (unsigned)fmt[i].form, offset_size, p, end, &s, &num))
				return -1;
			if (fmt[i].content == DW_LNCT_path)
				(*names)[e] = s;
			else if (fmt[i].content == DW_LNCT_directory_index)
				(*dirs)[e] = num;
		}
	}
	return 0;
}

/* The file names; with JOIN, each below its directory. */
static int line_files(const struct dw_cu *cu, uint64_t stmt_list, const char *comp_name,
		      const char *comp_dir, bool join, struct dw_line_files *out,
		      struct d2b_error *err)
{
	const struct dw_section *s = &cu->file->sec[DW_SEC_LINE];
	struct line_ctx lc = { cu, s, stmt_list, err };
	const uint8_t *p, *end, *hdr_end;
	uint32_t len32;
	uint64_t len, hdr_len;
	uint16_t version;
	uint8_t offset_size = 4, u8, opcode_base;

	out->names = NULL;
	out->nr = 0;
	if (cu->file->line_unloaded)	/* a caller's mistake, not the file's */
		return d2b_error_at(err, cu->file->path, ".debug_line", stmt_list,
				    "line table not loaded (opened with DW_FILE_NO_LINE)");
	if (!s->data || stmt_list >= s->size)
		return d2b_error_at(err, cu->file->path, ".debug_line", stmt_list,
				    "line table offset is outside .debug_line");
	p = s->data + stmt_list;
	end = s->data + s->size;
	if (!rd_u32(&p, end, &len32))
		return line_error(&lc, p, "truncated length");
	if (len32 == 0xffffffff) {
		if (!rd_u64(&p, end, &len))
			return line_error(&lc, p, "truncated length");
		offset_size = 8;
	} else {
		len = len32;
	}
	if (len > (uint64_t)(end - p))
		return line_error(&lc, p, "length runs past the end of the section");
	end = p + len;
	if (!rd_u16(&p, end, &version))
		return line_error(&lc, p, "truncated version");
	if (version < 2 || version > 5)
		return line_error(&lc, p, "unsupported line table version");
	if (version >= 5 && (!rd_u8(&p, end, &u8) || !rd_u8(&p, end, &u8)))
		return line_error(&lc, p, "truncated header");
	if (!rd_uN(&p, end, offset_size, &hdr_len) || hdr_len > (uint64_t)(end - p))
		return line_error(&lc, p, "bad header length");
	hdr_end = p + hdr_len;
	/* min_inst_length, [max_ops], default_is_stmt, line_base, line_range */
	if ((uint64_t)(hdr_end - p) < (version >= 4 ? 5u : 4u))
		return line_error(&lc, p, "truncated header");
	p += version >= 4 ? 5 : 4;
	if (!rd_u8(&p, hdr_end, &opcode_base))
		return line_error(&lc, p, "truncated header");
	if (opcode_base && (uint64_t)(hdr_end - p) < (uint64_t)(opcode_base - 1))
		return line_error(&lc, p, "truncated opcode lengths");
	if (opcode_base)
		p += opcode_base - 1;

	if (version >= 5) {
		const char **dir_names, **file_names;
		uint64_t *unused, *file_dirs, nr_dirs, nr_files;

		if (read_v5_entries(&lc, &p, hdr_end, offset_size, &dir_names, &unused, &nr_dirs) ||
		    read_v5_entries(&lc, &p, hdr_end, offset_size, &file_names, &file_dirs, &nr_files))
			return -1;
		out->names = arena_zalloc(cu->arena, (nr_files + 1) * sizeof(*out->names));
		if (!out->names)
			return d2b_error_oom(err);
		for (uint64_t i = 0; i < nr_files; i++) {
			const char *dir = file_dirs[i] < nr_dirs ? dir_names[file_dirs[i]] : NULL;

			out->names[i] = join ? join_path(cu->arena, dir, file_names[i])
					     : file_names[i] ? file_names[i] : "";
			if (!out->names[i])
				return d2b_error_oom(err);
		}
		out->nr = nr_files;
		return 0;
	}

	/* v2-4: include_directories then file_names, each list ends with "". */
	{
		const char *dirs[1024];
		size_t nr_dirs = 0, cap = 16, nr = 1;
		const char *name;
		const char **names = arena_alloc(cu->arena, cap * sizeof(*names));

		if (!names)
			return d2b_error_oom(err);
		for (;;) {
			if (!rd_str(&p, hdr_end, &name))
				return line_error(&lc, p, "unterminated include directory");
			if (!name[0])
				break;
			if (nr_dirs < sizeof(dirs) / sizeof(dirs[0]))
				dirs[nr_dirs++] = name;
		}
		names[0] = comp_name ? comp_name : "";
		for (;;) {
			uint64_t dir, skip;

			if (!rd_str(&p, hdr_end, &name))
				return line_error(&lc, p, "unterminated file name");
			if (!name[0])
				break;
			if (!rd_uleb(&p, hdr_end, &dir) || !rd_uleb(&p, hdr_end, &skip) ||
			    !rd_uleb(&p, hdr_end, &skip))
				return line_error(&lc, p, "truncated file entry");
			if (nr == cap) {
				const char **n2 = arena_alloc(cu->arena, cap * 2 * sizeof(*n2));
				if (!n2)
					return d2b_error_oom(err);
				memcpy(n2, names, cap * sizeof(*n2));
				names = n2;
				cap *= 2;
			}
			names[nr] = join ? join_path(cu->arena,
						     dir == 0 ? comp_dir : dir <= nr_dirs ? dirs[dir - 1] : NULL,
						     name)
				    : name;
			if (!names[nr])
				return d2b_error_oom(err);
			nr++;
		}
		out->names = names;
		out->nr = nr;
	}
	return 0;
}

int dw_cu_line_files(const struct dw_cu *cu, uint64_t stmt_list,
		     const char *comp_name, const char *comp_dir,
		     struct dw_line_files *out, struct d2b_error *err)
{
	return line_files(cu, stmt_list, comp_name, comp_dir, true, out, err);
}

int dw_cu_line_file_names(const struct dw_cu *cu, uint64_t stmt_list, const char *comp_name,
			  struct dw_line_files *out, struct d2b_error *err)
{
	return line_files(cu, stmt_list, comp_name, NULL, false, out, err);
}
