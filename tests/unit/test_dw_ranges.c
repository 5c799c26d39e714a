// SPDX-License-Identifier: GPL-2.0-only
/*
 * dwarf/ unit test: range lists (dw_ranges_each, dw_ranges_sum) read from
 * hand-made .debug_ranges (DWARF 4: base address selection, end of list)
 * and .debug_rnglists (DWARF 5: every DW_RLE_ kind, .debug_addr indexes),
 * with the unit's base address, and the errors: an offset outside the
 * section, a truncated entry, an unknown kind, an index outside
 * .debug_addr.
 */
#include <string.h>

#include "check.h"
#include "dwarf/dw_const.h"
#include "dwarf/dwarf.h"

struct range {
	uint64_t lo, hi;
};

struct ranges {
	struct range r[8];
	int n;
};

static int collect(void *arg, uint64_t lo, uint64_t hi)
{
	struct ranges *rs = arg;

	if (rs->n < 8)
		rs->r[rs->n] = (struct range){ lo, hi };
	rs->n++;
	return 0;
}

static size_t put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);	/* the test runs on little-endian hosts */
	return 8;
}

int main(void)
{
	static struct dw_file file;
	static struct dw_unit unit;
	static struct dw_cu cu;
	uint8_t ranges[128], rnglists[128], addr[32];
	struct d2b_error err = { 0 };
	struct dw_attr a = { .name = DW_AT_ranges, .form = DW_FORM_sec_offset,
			     .cls = DW_CLS_UNSIGNED };
	struct dw_ranges_sum sum;
	struct ranges rs;
	size_t n = 0;

	file.path = "test.o";
	file.sec[DW_SEC_INFO].name = ".debug_info";
	file.sec[DW_SEC_RANGES].name = ".debug_ranges";
	file.sec[DW_SEC_RNGLISTS].name = ".debug_rnglists";
	file.sec[DW_SEC_ADDR].name = ".debug_addr";
	unit.addr_size = 8;
	unit.version = 4;
	unit.section = DW_SEC_INFO;
	cu.file = &file;
	cu.unit = &unit;
	cu.low_pc = 0x1000;

	/* DWARF 4: [0x10, 0x20) on the unit's base, a new base 0x5000,
	 * [0x4, 0x8) on it, the end; at offset 8, after 8 bytes of junk */
	memset(ranges, 0xee, 8);
	n = 8;
	n += put64(ranges + n, 0x10);
	n += put64(ranges + n, 0x20);
	n += put64(ranges + n, UINT64_MAX);
	n += put64(ranges + n, 0x5000);
	n += put64(ranges + n, 0x4);
	n += put64(ranges + n, 0x8);
	n += put64(ranges + n, 0);
	n += put64(ranges + n, 0);
	file.sec[DW_SEC_RANGES].data = ranges;
	file.sec[DW_SEC_RANGES].size = n;
	a.u = 8;
	memset(&rs, 0, sizeof(rs));
	CHECK(dw_ranges_each(&cu, &a, collect, &rs, &err) == 0, "v4: %s", err.msg);
	CHECK(rs.n == 2 && rs.r[0].lo == 0x1010 && rs.r[0].hi == 0x1020 &&
	      rs.r[1].lo == 0x5004 && rs.r[1].hi == 0x5008,
	      "v4: %d ranges, [%#llx, %#llx)", rs.n, (unsigned long long)rs.r[0].lo,
	      (unsigned long long)rs.r[0].hi);
	CHECK(dw_ranges_sum(&cu, &a, &sum, &err) == 0 && sum.count == 2 &&
	      sum.first == 0x1010 && sum.total == 0x14,
	      "v4 sum: %u ranges from %#llx, %llu bytes", sum.count,
	      (unsigned long long)sum.first, (unsigned long long)sum.total);
	/* truncated: the end of list cut off */
	file.sec[DW_SEC_RANGES].size = n - 4;
	CHECK(dw_ranges_sum(&cu, &a, &sum, &err) == -1 && err.set &&
	      strstr(err.msg, ".debug_ranges") && strstr(err.msg, "truncated"),
	      "v4 truncated: %s", err.msg);
	d2b_error_clear(&err);
	a.u = n;
	CHECK(dw_ranges_sum(&cu, &a, &sum, &err) == -1 && strstr(err.msg, "outside"),
	      "v4 offset outside: %s", err.msg);
	d2b_error_clear(&err);

	/* DWARF 5: .debug_addr holds 0x7000 and 0x7100 (base 8: a header) */
	unit.version = 5;
	memset(addr, 0, 8);
	put64(addr + 8, 0x7000);
	put64(addr + 16, 0x7100);
	file.sec[DW_SEC_ADDR].data = addr;
	file.sec[DW_SEC_ADDR].size = 24;
	cu.addr_base = 8;
	n = 0;
	rnglists[n++] = DW_RLE_offset_pair;	/* on the unit's base: [0x1002, 0x1004) */
	rnglists[n++] = 2;
	rnglists[n++] = 4;
	rnglists[n++] = DW_RLE_base_addressx;	/* base 0x7100 */
	rnglists[n++] = 1;
	rnglists[n++] = DW_RLE_offset_pair;	/* [0x7110, 0x7180) */
	rnglists[n++] = 0x10;
	rnglists[n++] = 0x80;
	rnglists[n++] = 0x01;
	rnglists[n++] = DW_RLE_startx_length;	/* [0x7000, 0x7003) */
	rnglists[n++] = 0;
	rnglists[n++] = 3;
	rnglists[n++] = DW_RLE_startx_endx;	/* [0x7000, 0x7100) */
	rnglists[n++] = 0;
	rnglists[n++] = 1;
	rnglists[n++] = DW_RLE_base_address;	/* base 0x9000 */
	n += put64(rnglists + n, 0x9000);
	rnglists[n++] = DW_RLE_offset_pair;	/* [0x9001, 0x9002) */
	rnglists[n++] = 1;
	rnglists[n++] = 2;
	rnglists[n++] = DW_RLE_start_end;	/* [0x20, 0x30) */
	n += put64(rnglists + n, 0x20);
	n += put64(rnglists + n, 0x30);
	rnglists[n++] = DW_RLE_start_length;	/* [0x40, 0x45) */
	n += put64(rnglists + n, 0x40);
	rnglists[n++] = 5;
	rnglists[n++] = DW_RLE_end_of_list;
	file.sec[DW_SEC_RNGLISTS].data = rnglists;
	file.sec[DW_SEC_RNGLISTS].size = n;
	a.u = 0;
	memset(&rs, 0, sizeof(rs));
	CHECK(dw_ranges_each(&cu, &a, collect, &rs, &err) == 0, "v5: %s", err.msg);
	{
		static const struct range want[] = {
			{ 0x1002, 0x1004 }, { 0x7110, 0x7180 }, { 0x7000, 0x7003 },
			{ 0x7000, 0x7100 }, { 0x9001, 0x9002 }, { 0x20, 0x30 }, { 0x40, 0x45 },
		};

		CHECK(rs.n == 7, "v5: %d ranges", rs.n);
		for (int i = 0; i < 7 && i < rs.n; i++)
			CHECK(rs.r[i].lo == want[i].lo && rs.r[i].hi == want[i].hi,
			      "v5 range %d: [%#llx, %#llx)", i, (unsigned long long)rs.r[i].lo,
			      (unsigned long long)rs.r[i].hi);
	}
	/* a rnglistx the reader resolved: the same list */
	a.form = DW_FORM_rnglistx;
	a.cls = DW_CLS_RNGLIST;
	CHECK(dw_ranges_sum(&cu, &a, &sum, &err) == 0 && sum.count == 7 && sum.first == 0x1002 &&
	      sum.total == 2 + 0x70 + 3 + 0x100 + 1 + 0x10 + 5,
	      "v5 sum: %u ranges, %llu bytes", sum.count, (unsigned long long)sum.total);
	/* an index outside .debug_addr */
	rnglists[4] = 2;
	CHECK(dw_ranges_sum(&cu, &a, &sum, &err) == -1 && strstr(err.msg, ".debug_addr") &&
	      strstr(err.msg, ".debug_rnglists"), "v5 bad index: %s", err.msg);
	d2b_error_clear(&err);
	rnglists[4] = 1;
	/* an unknown kind */
	rnglists[0] = 0x42;
	CHECK(dw_ranges_sum(&cu, &a, &sum, &err) == -1 && strstr(err.msg, "unknown"),
	      "v5 unknown kind: %s", err.msg);
	d2b_error_clear(&err);
	rnglists[0] = DW_RLE_offset_pair;
	/* truncated inside an entry */
	file.sec[DW_SEC_RNGLISTS].size = 2;
	CHECK(dw_ranges_sum(&cu, &a, &sum, &err) == -1 && strstr(err.msg, "truncated"),
	      "v5 truncated: %s", err.msg);
	d2b_error_clear(&err);
	/* a form that is no range list */
	a.cls = DW_CLS_BLOCK;
	CHECK(dw_ranges_sum(&cu, &a, &sum, &err) == -1 && strstr(err.msg, "DW_AT_ranges"),
	      "bad form: %s", err.msg);
	d2b_error_clear(&err);
	return check_done();
}
