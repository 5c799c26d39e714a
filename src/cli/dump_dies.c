// SPDX-License-Identifier: GPL-2.0-only
/*
 * dwarf2btf dump-dies FILE: every DIE of every unit with every attribute, in
 * the canonical text the libdw oracle (tests/tools/dwdump_libdw.c) prints:
 *
 *   unit 0x<off> v<version> <compile|type|partial|skeleton> <info|types>
 *   <0x<off>> <depth> DW_TAG_<name>
 *    DW_AT_<name> DW_FORM_<name> <value>
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "dwarf/dwarf.h"
#include "util/arena.h"

static const char *unit_type_name(unsigned ut)
{
	switch (ut) {
	case DW_UT_compile: return "compile";
	case DW_UT_type: return "type";
	case DW_UT_partial: return "partial";
	case DW_UT_skeleton: return "skeleton";
	case DW_UT_split_compile: return "split_compile";
	case DW_UT_split_type: return "split_type";
	}
	return "unknown";
}

static void print_string(FILE *out, const char *s)
{
	putc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\\' || *p == '"')
			fprintf(out, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", out);
		else if (*p == '\t')
			fputs("\\t", out);
		else if (*p < 0x20 || *p >= 0x7f)
			fprintf(out, "\\x%02x", *p);
		else
			putc(*p, out);
	}
	putc('"', out);
}

static int print_value(FILE *out, const struct dw_file *df, const struct dw_attr *a,
		       struct d2b_error *err)
{
	switch (a->cls) {
	case DW_CLS_STRING:
		print_string(out, a->str);
		break;
	case DW_CLS_REF:
		fprintf(out, "<0x%llx>", (unsigned long long)a->u);
		break;
	case DW_CLS_REF_SIG: {
		const struct dw_unit *tu = dw_file_type_unit(df, a->u);
		if (!tu)
			return d2b_error_set(err, "%s: type signature 0x%016llx has no type unit",
					     df->path, (unsigned long long)a->u);
		fprintf(out, "<0x%llx>", (unsigned long long)tu->type_offset);
		break;
	}
	case DW_CLS_ADDR:
		fprintf(out, "0x%llx", (unsigned long long)a->u);
		break;
	case DW_CLS_FLAG:
		fprintf(out, "%d", a->u ? 1 : 0);
		break;
	case DW_CLS_SIGNED:
		fprintf(out, "%lld", (long long)a->s);
		break;
	case DW_CLS_UNSIGNED:
		if (a->form == DW_FORM_sec_offset)
			fprintf(out, "@0x%llx", (unsigned long long)a->u);
		else
			fprintf(out, "%llu", (unsigned long long)a->u);
		break;
	case DW_CLS_LOCLIST:
	case DW_CLS_RNGLIST:
		fprintf(out, "@0x%llx", (unsigned long long)a->u);
		break;
	case DW_CLS_BLOCK:
		putc('[', out);
		for (uint64_t i = 0; i < a->block.len; i++)
			fprintf(out, i ? " %02x" : "%02x", a->block.data[i]);
		putc(']', out);
		break;
	}
	return 0;
}

static int dump_unit(FILE *out, const struct dw_file *df, size_t unit,
		     struct arena *arena, struct d2b_error *err)
{
	const struct dw_unit *u = &df->units[unit];
	struct dw_attr attrs[256];
	struct dw_cursor cur;
	struct dw_die die;
	struct dw_cu cu;
	char b1[16], b2[16];
	int r;

	fprintf(out, "unit 0x%llx v%u %s %s\n", (unsigned long long)u->offset, u->version,
		unit_type_name(u->unit_type), u->section == DW_SEC_INFO ? "info" : "types");
	if (dw_cu_open(&cu, df, unit, arena, err))
		return -1;
	dw_cursor_init(&cur, &cu);
	while ((r = dw_cursor_next(&cur, &die, err)) > 0) {
		int n;

		fprintf(out, "<0x%llx> %u %s\n", (unsigned long long)die.offset, die.depth,
			dw_tag_name(dw_die_tag(&die), b1));
		n = dw_cursor_attrs(&cur, attrs, 256, err);
		if (n < 0)
			return -1;
		if (n > 256)
			return d2b_error_set(err, "%s: DIE 0x%llx has more than 256 attributes",
					     df->path, (unsigned long long)die.offset);
		for (int i = 0; i < n; i++) {
			fprintf(out, " %s %s ", dw_at_name(attrs[i].name, b1),
				dw_form_name(attrs[i].form, b2));
			if (print_value(out, df, &attrs[i], err))
				return -1;
			putc('\n', out);
		}
	}
	return r;
}

int dump_dies_main(int argc, char **argv)
{
	struct d2b_error err = { 0 };
	struct cli_dwarf_input in;
	struct arena arena;
	char *buf;
	int ret = 0;

	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: dwarf2btf dump-dies FILE\n");
		return 2;
	}
	if (cli_dwarf_open(&in, argv[1], &err))
		return cli_fail("dump-dies", &err);
	buf = malloc(1 << 20);
	if (buf)
		setvbuf(stdout, buf, _IOFBF, 1 << 20);
	arena_init(&arena);
	for (size_t i = 0; i < in.dwarf.nr_units; i++) {
		if (dump_unit(stdout, &in.dwarf, i, &arena, &err)) {
			fflush(stdout);
			ret = cli_fail("dump-dies", &err);
			break;
		}
		arena_reset(&arena);
	}
	arena_deinit(&arena);
	cli_dwarf_close(&in);
	if (fflush(stdout) && !ret) {
		fprintf(stderr, "dump-dies: write error\n");
		ret = 1;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	free(buf);
	return ret;
}
