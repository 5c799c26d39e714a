// SPDX-License-Identifier: GPL-2.0-only
/*
 * pahole --prettify: raw records printed by their -C types
 * (print/pahole_prettify.h). The rules are pahole 1.24's, found by
 * experiment on its binary (docs/compat.md, "--prettify"); where 1.24
 * aborts or crashes we print one line and exit 1.
 */
#include "print/pahole_prettify.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "print/c_type.h"

struct enum_entry {
	const char *name;
	int64_t value;
	const struct type *real;	/* NULL: print as the -C type */
};

/* One -C entry: NAME(ARGS) */
struct proto {
	char *name;
	char *sizeof_member, *type_member, *type_enum, *filter, *range;
	unsigned nr_args;
	/* resolved in a unit */
	const struct type *t;
	const struct member *size_m, *type_m, *filter_m;
	const struct type **enums;	/* type_enum's enumerations */
	unsigned nr_enums;
	/* their enumerators in search order, each with the struct its
	 * lowercased name names (the record's real type), made once before
	 * the records are read */
	struct enum_entry *entries;
	size_t nr_entries;
	int64_t filter_value;
};

struct prettify {
	struct prettify_opts o;
	struct proto *protos;
	unsigned nr_protos;
	const struct cu_model *cu;
	const struct type *header_t;
	unsigned char *header;		/* its bytes, once read */
	uint64_t header_size;
	const char *missing;		/* the first name not found, last unit */
	bool missing_args;
	int status;
	bool stop;			/* an error ended the records */
};

#define MAX_INDENT 16
#define MAX_DEPTH 64
#define MAX_RECORD ((uint64_t)1 << 30)	/* a type's size, read at once */

static const char tabs[MAX_INDENT + 2] = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";

/* ---- the -C list ---------------------------------------------------- */

static void free_proto(struct proto *p)
{
	free(p->name);
	free(p->sizeof_member);
	free(p->type_member);
	free(p->type_enum);
	free(p->filter);
	free(p->range);
	free(p->enums);
	free(p->entries);
}

void prettify_destroy(struct prettify *pp)
{
	if (!pp)
		return;
	for (unsigned i = 0; i < pp->nr_protos; i++)
		free_proto(&pp->protos[i]);
	free(pp->protos);
	free(pp->header);
	free(pp);
}

static char *dup_n(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

static void set_arg(char **slot, const char *v)
{
	free(*slot);
	*slot = strdup(v);
}

/* One entry, "NAME" or "NAME(ARGS)". Returns 0, or -1 (message printed). */
static int parse_entry(struct prettify *pp, struct proto *p, const char *entry)
{
	const char *open = strchr(entry, '('), *close;
	char *args, *arg, *save = NULL;
	FILE *out = pp->o.out;

	if (!open) {
		p->name = strdup(entry);
		return p->name ? 0 : -1;
	}
	p->name = dup_n(entry, (size_t)(open - entry));
	close = strchr(open, ')');
	if (!close) {
		fprintf(stderr, "pahole: invalid, no closing parens in '%s'\n", entry);
		return -1;
	}
	open++;
	while (isspace((unsigned char)*open))
		open++;
	if (open >= close)
		return p->name ? 0 : -1;
	args = dup_n(open, (size_t)(close - open));
	if (!args || !p->name) {
		free(args);
		return -1;
	}
	for (arg = strtok_r(args, ",", &save); arg; arg = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(arg, '='), *value;

		p->nr_args++;
		if (!eq) {
			if (!strcmp(arg, "sizeof")) {
				set_arg(&p->sizeof_member, "size");
			} else if (!strcmp(arg, "type")) {
				set_arg(&p->type_member, "type");
			} else {
				fprintf(stderr, "pahole: invalid, missing '=' in '%s'\n", arg);
				free(args);
				return -1;
			}
		} else if (eq[1] == '=') {
			set_arg(&p->filter, arg);
		} else {
			*eq = '\0';
			value = eq + 1;
			while (isspace((unsigned char)*value))
				value++;
			if (!*value) {
				fprintf(stderr, "pahole: invalid, missing value in '%s'\n", entry);
				free(args);
				return -1;
			}
			if (!strcmp(arg, "sizeof"))
				set_arg(&p->sizeof_member, value);
			else if (!strcmp(arg, "type"))
				set_arg(&p->type_member, value);
			else if (!strcmp(arg, "type_enum"))
				set_arg(&p->type_enum, value);
			else if (!strcmp(arg, "filter"))
				set_arg(&p->filter, value);
			else if (!strcmp(arg, "range"))
				set_arg(&p->range, value);
			else {
				fprintf(stderr, "pahole: invalid arg '%s' in '%s' (known args: "
					"sizeof=member, type=member, type_enum=enum)\n", arg, entry);
				free(args);
				return -1;
			}
			*eq = '=';
		}
		if (!pp->o.verbose)
			continue;
		/* 1.24 echoes each argument as it takes it */
		if (!eq && !strcmp(arg, "sizeof"))
			fprintf(out, "pahole: sizeof_operator for '%s' is '%s'\n", p->name, "size");
		else if (!eq)
			fprintf(out, "pahole: type member for '%s' is '%s'\n", p->name, "type");
		else if (eq[1] == '=')
			fprintf(out, "pahole: filter for '%s' is '%s'\n", p->name, arg);
		else {
			value = eq + 1;
			while (isspace((unsigned char)*value))
				value++;
			if (!strncmp(arg, "sizeof=", 7))
				fprintf(out, "pahole: sizeof_operator for '%s' is '%s'\n", p->name, value);
			else if (!strncmp(arg, "type=", 5))
				fprintf(out, "pahole: type member for '%s' is '%s'\n", p->name, value);
			else if (!strncmp(arg, "type_enum=", 10))
				fprintf(out, "pahole: type enum for '%s' is '%s'\n", p->name, value);
			else if (!strncmp(arg, "filter=", 7))
				fprintf(out, "pahole: filter for '%s' is '%s'\n", p->name, value);
			else
				fprintf(out, "pahole: range for '%s' is '%s'\n", p->name, value);
		}
	}
	free(args);
	return 0;
}

static int add_entry(struct prettify *pp, const char *entry)
{
	struct proto *p = realloc(pp->protos, (pp->nr_protos + 1) * sizeof(*p));

	if (!p)
		return -1;
	pp->protos = p;
	p = &pp->protos[pp->nr_protos++];
	memset(p, 0, sizeof(*p));
	return parse_entry(pp, p, entry);
}

/* file://PATH: an entry a line (its last character, the newline, cut) */
static int add_file_entries(struct prettify *pp, const char *path)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int ret = 0;

	if (!f)
		return -1;
	while (!ret && (n = getline(&line, &cap, f)) > 0) {
		line[n - 1] = '\0';
		ret = add_entry(pp, line);
	}
	free(line);
	fclose(f);
	return ret;
}

/*
 * The list: split at commas, but a comma after a '(' waits for its ')':
 * the entry then ends at the ')', and the character after it is the
 * separator (1.24's rule).
 */
static int parse_list(struct prettify *pp, const char *list)
{
	char *s = strdup(list), *name = s;
	int ret = 0;

	if (!s)
		return -1;
	while (!ret) {
		char *sep = strchr(name, ','), *paren = strchr(name, '(');

		if (sep && paren && paren < sep) {
			char *close = strchr(paren, ')');

			if (!close) {
				fprintf(stderr, "Unterminated '(' in '%s'\n%*s^\n", list,
					21 + (int)(paren - s), "");
				ret = -1;
				break;
			}
			sep = close[1] ? close + 1 : NULL;
		}
		if (sep)
			*sep = '\0';
		ret = !strncmp(name, "file://", 7) ? add_file_entries(pp, name + 7) :
						     add_entry(pp, name);
		if (!sep)
			break;
		name = sep + 1;
	}
	free(s);
	return ret;
}

struct prettify *prettify_create(const struct prettify_opts *o)
{
	struct prettify *pp = calloc(1, sizeof(*pp));

	if (!pp)
		return NULL;
	pp->o = *o;
	if (parse_list(pp, o->class_names)) {
		prettify_destroy(pp);
		return NULL;
	}
	return pp;
}

char *prettify_type_names(const char *list, bool verbose, FILE *out)
{
	struct prettify_opts o = { .class_names = list, .verbose = verbose, .out = out };
	struct prettify *pp = prettify_create(&o);
	size_t len = 1;
	char *names;

	if (!pp)
		return NULL;
	for (unsigned i = 0; i < pp->nr_protos; i++)
		len += strlen(pp->protos[i].name) + 1;
	names = malloc(len);
	if (names) {
		names[0] = '\0';
		for (unsigned i = 0; i < pp->nr_protos; i++) {
			if (i)
				strcat(names, ",");
			strcat(names, pp->protos[i].name);
		}
	}
	prettify_destroy(pp);
	return names;
}

/* ---- types ---------------------------------------------------------- */

static const struct type *strip_typedefs(const struct type *t)
{
	for (int i = 0; t && t->kind == TK_TYPEDEF && i < MAX_DEPTH; i++)
		t = t->type;
	return t;
}

static bool is_struct(const struct type *t)
{
	return t && (t->kind == TK_STRUCT || t->kind == TK_CLASS);
}

/* cu__find_type_by_name, declarations left out */
static const struct type *find_type(const struct cu_model *cu, const char *name)
{
	return c_type_find_by_name(cu, name, false);
}

static const struct type *find_enum(const struct cu_model *cu, const char *name)
{
	for (uint32_t i = 0; i < cu->nr_types; i++) {
		const struct type *t = cu->types[i];

		if (t->kind == TK_ENUM && t->name && !t->declaration && !strcmp(t->name, name))
			return t;
	}
	return NULL;
}

static const struct member *find_member(const struct type *t, const char *name)
{
	for (uint32_t i = 0; i < t->composite.nr_members; i++)
		if (t->composite.members[i].name && !strcmp(t->composite.members[i].name, name))
			return &t->composite.members[i];
	return NULL;
}

/* The bytes a type takes: 1.24's tag__size (typedefs followed); a record's
 * is the struct's */
static uint64_t type_size(const struct prettify *pp, const struct type *t)
{
	return t ? c_type_size(t, pp->cu->addr_size) : 0;
}

/* ---- values --------------------------------------------------------- */

/* 1.24 reads 1, 2, 4 and 8 bytes as signed and sign-extends; other sizes
 * are 0 */
static int64_t read_int(const unsigned char *p, uint64_t size)
{
	uint64_t u = 0;
	unsigned shift;

	if (size != 1 && size != 2 && size != 4 && size != 8)
		return 0;
	/* the host's order, as 1.24 reads the records */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	memcpy((unsigned char *)&u + 8 - size, p, size);
#else
	memcpy(&u, p, size);
#endif
	shift = 64 - 8 * (unsigned)size;
	return (int64_t)(u << shift) >> shift;
}

static void print_int(const struct prettify *pp, int64_t v)
{
	if (pp->o.hex)
		fprintf(pp->o.out, "%#" PRIx64, (uint64_t)v);
	else
		fprintf(pp->o.out, "%" PRIi64, v);
}

static void hexdump(const struct prettify *pp, const unsigned char *p, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		fprintf(pp->o.out, "%s0x%02x", i ? " " : "", p[i]);
}

/* The first enumerator of V in the enumerations of P's type_enum */
static const struct enum_entry *enum_entry(const struct proto *p, int64_t v)
{
	for (size_t i = 0; i < p->nr_entries; i++)
		if (p->entries[i].value == v)
			return &p->entries[i];
	return NULL;
}

static void print_struct(struct prettify *pp, const struct proto *p, const struct type *t,
			 const unsigned char *buf, uint64_t avail, uint64_t size, int indent,
			 int depth);

/* Whether member I is T's last child DIE: 1.24 asks of its list of tags,
 * where a type defined in the struct (clang's anonymous member types)
 * follows the member that uses it */
static bool last_child(const struct type *t, uint32_t i)
{
	const struct member *m = &t->composite.members[i];

	if (i + 1 != t->composite.nr_members)
		return false;
	for (uint32_t k = 0; k < t->composite.nr_nested; k++)
		if (t->composite.nested[k]->die_offset > m->die_offset)
			return false;
	return true;
}

static void put_tabs(const struct prettify *pp, int n)
{
	fwrite(tabs, 1, (size_t)(n > MAX_INDENT ? MAX_INDENT : n), pp->o.out);
}

/* An array member: a string, { a, b }, or a hexdump */
static void print_array(const struct prettify *pp, const struct type *mt, const struct type *arr,
			const unsigned char *p, uint64_t len)
{
	const struct type *elem = arr->type;
	const struct type *base = strip_typedefs(elem);

	if (elem && elem->kind == TK_BASE && elem->name && !strcmp(elem->name, "char")) {
		size_t n = strnlen((const char *)p, len);

		fputc('"', pp->o.out);
		fwrite(p, 1, n, pp->o.out);
		fputc('"', pp->o.out);
		return;
	}
	if (base && base->kind == TK_BASE && arr->array.nr_dims == 1 && mt->kind != TK_TYPEDEF) {
		uint64_t esize = base->size, count = arr->array.dims[0].count;

		if (!esize)
			count = 0;
		else if (!count || count > len / esize)
			count = len / esize;
		fputs("{ ", pp->o.out);
		for (uint64_t i = 0; i < count && (i + 1) * esize <= len; i++) {
			if (i)
				fputs(", ", pp->o.out);
			print_int(pp, read_int(p + i * esize, esize));
		}
		fputs(" }", pp->o.out);
		return;
	}
	hexdump(pp, p, len);
}

/* The members of struct or union T at BUF, each "\n<tabs>\t.name =
 * value,": AVAIL bytes were read there, SIZE is the record's (what a
 * last member of no size, a flexible array, takes the rest of) */
static void print_members(struct prettify *pp, const struct proto *p, const struct type *t,
			  const unsigned char *buf, uint64_t avail, uint64_t size, int indent,
			  int depth)
{
	bool own_type = p && t == p->t;
	FILE *out = pp->o.out;

	for (uint32_t i = 0; i < t->composite.nr_members; i++) {
		const struct member *m = &t->composite.members[i];
		const struct type *mt = m->type, *st = strip_typedefs(mt);
		uint64_t off = m->bit_offset / 8, msize = type_size(pp, mt);
		bool comma = true;

		if (m->is_static)
			continue;
		if (m->name) {
			fputc('\n', out);
			put_tabs(pp, indent);
			fprintf(out, "\t.%s = ", m->name);
		}
		if (off > avail)
			off = avail;
		if (own_type && m == p->type_m && p->nr_enums) {
			int64_t v = read_int(buf + off, type_size(pp, st));
			const struct enum_entry *e = enum_entry(p, v);

			if (e)
				fputs(e->name, out);
			else
				print_int(pp, v);
		} else if (m->bit_size) {
			uint64_t b = type_size(pp, st), pos = m->bit_offset, o;
			int64_t v;

			o = b ? pos / (8 * b) * b : 0;
			v = o + b <= avail ? read_int(buf + o, b) : 0;
			v >>= (pos - 8 * o) & 63;
			if (m->bit_size < 64)
				v &= (int64_t)((1ull << m->bit_size) - 1);
			print_int(pp, v);
		} else if (st && st->kind == TK_BASE) {
			print_int(pp, off + msize <= avail ? read_int(buf + off, msize) : 0);
		} else if (st && st->kind == TK_ARRAY) {
			uint64_t len = msize;

			if (!len && last_child(t, i))
				len = size > off ? size - off : 0;
			if (len > avail - off)
				len = avail - off;
			print_array(pp, mt, st, buf + off, len);
		} else if (mt && is_struct(mt) && depth < MAX_DEPTH) {
			print_struct(pp, p, mt, buf + off, msize <= avail - off ? msize : avail - off,
				     msize, indent + 1, depth + 1);
		} else if (mt && mt->kind == TK_UNION && depth < MAX_DEPTH) {
			uint64_t uavail = msize <= avail - off ? msize : avail - off;

			if (mt->name || m->name) {
				print_struct(pp, p, mt, buf + off, uavail, msize, indent + 1, depth + 1);
			} else {
				/* anonymous: its members in line, no comma of its own */
				print_members(pp, p, mt, buf + off, uavail, msize, indent, depth + 1);
				comma = false;
			}
		} else {
			hexdump(pp, buf + off, msize <= avail - off ? msize : avail - off);
		}
		if (comma)
			fputc(',', out);
	}
}

static void print_struct(struct prettify *pp, const struct proto *p, const struct type *t,
			 const unsigned char *buf, uint64_t avail, uint64_t size, int indent,
			 int depth)
{
	fputc('{', pp->o.out);
	print_members(pp, p, t, buf, avail, size, indent, depth);
	fputc('\n', pp->o.out);
	put_tabs(pp, indent);
	fputc('}', pp->o.out);
}

/* ---- resolving the list in a unit ----------------------------------- */

/* The value of a header member path "a.b.c": false when a name is not
 * found, the last is no integer, or the value is negative (1.24) */
static bool header_value(const struct prettify *pp, const char *path, int64_t *out)
{
	const struct type *t = strip_typedefs(pp->header_t);
	const char *p = path;
	uint64_t off = 0, sz;

	for (;;) {
		const char *dot = strchr(p, '.');
		size_t n = dot ? (size_t)(dot - p) : strlen(p);
		const struct member *m = NULL;

		if (!t || (t->kind != TK_STRUCT && t->kind != TK_UNION && t->kind != TK_CLASS))
			return false;
		for (uint32_t i = 0; i < t->composite.nr_members && !m; i++) {
			const char *nm = t->composite.members[i].name;

			if (nm && strlen(nm) == n && !strncmp(nm, p, n))
				m = &t->composite.members[i];
		}
		if (!m)
			return false;
		off += m->bit_offset / 8;
		t = strip_typedefs(m->type);
		if (!dot)
			break;
		p = dot + 1;
	}
	sz = type_size(pp, t);
	if (!t || t->kind != TK_BASE || off + sz > pp->header_size)
		return false;
	*out = read_int(pp->header + off, sz);
	return *out >= 0;
}

/* filter=M==V: Returns 0, or -1 with the -V reason printed */
static int parse_filter(struct prettify *pp, struct proto *p)
{
	const char *expr = p->filter, *op = strstr(expr, "=="), *rhs;
	char *left, *end;
	size_t n;

	if (!op) {
		if (pp->o.verbose)
			fprintf(stderr, "No supported operator ('==' so far) found in filter '%s'\n",
				expr);
		return -1;
	}
	n = (size_t)(op - expr);
	while (n && isspace((unsigned char)expr[n - 1]))
		n--;
	if (!n) {
		if (pp->o.verbose)
			fprintf(stderr, "No left operand (struct field) found in filter '%s'\n", expr);
		return -1;
	}
	left = dup_n(expr, n);
	if (!left)
		return -1;
	p->filter_m = find_member(p->t, left);
	if (!p->filter_m) {
		if (pp->o.verbose)
			fprintf(stderr, "The '%s' member wasn't found in '%s'\n", left, p->name);
		free(left);
		return -1;
	}
	rhs = op + 2;
	while (isspace((unsigned char)*rhs))
		rhs++;
	if (!*rhs) {
		if (pp->o.verbose)
			fprintf(stderr, "The '%s' member was asked without a value to filter '%s'\n",
				left, expr);
		free(left);
		return -1;
	}
	p->filter_value = strtoll(rhs, &end, 0);
	if (end > rhs && (!*end || isspace((unsigned char)*end))) {
		free(left);
		return 0;
	}
	/* symbolic: an enumerator of type_enum, whole or without its
	 * enumeration's common prefix */
	if (p->filter_m != p->type_m || !p->nr_enums) {
		if (pp->o.verbose)
			fprintf(stderr, "Symbolic right operand in '%s' but no way to resolve it to a "
				"number (type= + type_enum= so far)\n", expr);
		free(left);
		return -1;
	}
	for (unsigned e = 0; e < p->nr_enums; e++) {
		const struct type *t = p->enums[e];
		size_t prefix = 0;

		if (t->enumeration.nr_values > 1) {
			const char *first = t->enumeration.values[0].name;

			prefix = strlen(first);
			for (uint32_t i = 1; i < t->enumeration.nr_values; i++) {
				const char *nm = t->enumeration.values[i].name;
				size_t k = 0;

				while (k < prefix && nm[k] == first[k])
					k++;
				prefix = k;
			}
		}
		for (uint32_t i = 0; i < t->enumeration.nr_values; i++) {
			const char *nm = t->enumeration.values[i].name;

			if (!strcmp(nm, rhs) || (prefix && !strcmp(nm + prefix, rhs))) {
				p->filter_value = t->enumeration.values[i].value;
				free(left);
				return 0;
			}
		}
	}
	if (pp->o.verbose)
		fprintf(stderr, "Couldn't resolve right operand ('%s') in '%s' with the specified "
			"'type=%s' and type_enum' \n", rhs, expr, p->type_member);
	free(left);
	return -1;
}

/* type_enum=E: the enumeration E, or E1+E2...: as long as they are found
 * (at least the first) */
static bool resolve_type_enum(const struct cu_model *cu, struct proto *p)
{
	const struct type *whole = find_enum(cu, p->type_enum);
	char *s, *part, *save = NULL;
	unsigned n = 1;

	free(p->enums);
	p->enums = NULL;
	p->nr_enums = 0;
	for (const char *c = p->type_enum; *c; c++)
		n += *c == '+';
	p->enums = calloc(n, sizeof(*p->enums));
	if (!p->enums)
		return false;
	if (whole) {
		p->enums[p->nr_enums++] = whole;
		return true;
	}
	if (!strchr(p->type_enum, '+'))
		return false;
	s = strdup(p->type_enum);
	if (!s)
		return false;
	for (part = strtok_r(s, "+", &save); part; part = strtok_r(NULL, "+", &save)) {
		const struct type *t = find_enum(cu, part);

		if (!t)
			break;
		p->enums[p->nr_enums++] = t;
	}
	free(s);
	return p->nr_enums > 0;
}

/* 1.24's stealer's checks of a found type's arguments, in its order (the
 * messages on stderr): 0, or -1 when one fails. PRETTIFY: a type_enum
 * that names no enumeration fails too (--prettify needs it). */
static int check_args(struct prettify *pp, const struct cu_model *cu, struct proto *p,
		      bool prettify)
{
	p->size_m = p->type_m = p->filter_m = NULL;
	if (!p->nr_args)
		return 0;
	if (!is_struct(p->t)) {
		fprintf(stderr, "pahole: attributes are only supported with 'class' and 'struct' "
			"types\n");
		return -1;
	}
	if (p->sizeof_member && !(p->size_m = find_member(p->t, p->sizeof_member))) {
		fprintf(stderr, "pahole: the sizeof member '%s' wasn't found in the '%s' type\n",
			p->sizeof_member, p->name);
		return -1;
	}
	if (p->type_member && !(p->type_m = find_member(p->t, p->type_member))) {
		fprintf(stderr, "pahole: the type member '%s' wasn't found in the '%s' type\n",
			p->type_member, p->name);
		return -1;
	}
	if (p->type_enum && !resolve_type_enum(cu, p) && prettify) {
		fprintf(stderr, "pahole: 'type_enum=%s' couldn't be evaluated for '%s' type\n",
			p->type_enum, p->name);
		return -2;
	}
	if (p->filter && parse_filter(pp, p)) {
		fprintf(stderr, "pahole: invalid filter '%s' for '%s'\n", p->filter, p->name);
		return -1;
	}
	return 0;
}

/* 1 resolved, 0 not found here (p->t NULL), -1 an error reported */
static int resolve(struct prettify *pp, const struct cu_model *cu, struct proto *p)
{
	int r;

	p->t = find_type(cu, p->name);
	if (!p->t)
		return 0;
	r = check_args(pp, cu, p, true);
	if (r == -1)
		fprintf(stderr, "pahole: type '%s' not found or arguments not validated\n",
			p->name);
	return r < 0 ? -1 : 1;
}

bool prettify_has_args(const struct prettify *pp, size_t index)
{
	return index < pp->nr_protos && pp->protos[index].nr_args;
}

bool prettify_check_type(struct prettify *pp, size_t index, const struct cu_model *cu,
			 const struct type *t)
{
	struct proto *p;

	if (index >= pp->nr_protos)
		return true;
	p = &pp->protos[index];
	p->t = t;
	return check_args(pp, cu, p, false) == 0;
}

/* ---- reading -------------------------------------------------------- */

static bool read_n(struct prettify *pp, unsigned char *buf, uint64_t n)
{
	return n && fread(buf, 1, n, pp->o.input) == n;
}

/* skip N bytes by reading them (pipes too) */
static bool skip_n(struct prettify *pp, uint64_t n)
{
	unsigned char buf[4096];

	while (n) {
		size_t k = n < sizeof(buf) ? (size_t)n : sizeof(buf);

		if (fread(buf, 1, k, pp->o.input) != k)
			return false;
		n -= k;
	}
	return true;
}

static void hexoff(char *out, size_t n, uint64_t v)
{
	snprintf(out, n, "%#" PRIx64, v);
}

/* The rest of a record of N bytes whose first HAVE are in *BUF: read in
 * steps, the buffer growing with what came, so that a size field that
 * lies costs no more than the input holds. Returns 0, or -1 when the
 * input ends first (or no memory). */
static int read_rest(struct prettify *pp, unsigned char **buf, uint64_t have, uint64_t n)
{
	while (have < n) {
		uint64_t step = n - have < (1u << 20) ? n - have : (1u << 20);
		unsigned char *nb = realloc(*buf, (size_t)(have + step));

		if (!nb)
			return -1;
		*buf = nb;
		if (fread(*buf + have, 1, (size_t)step, pp->o.input) != step)
			return -1;
		have += step;
	}
	return 0;
}

/* --WHAT_bytes=$header.PATH (WHAT: "seek" or "size"): its value in *V.
 * Returns 0, or -1 with 1.24's message printed */
static int header_option(struct prettify *pp, const char *what, const char *s, int64_t *v)
{
	char hx[32];

	if (!pp->header) {
		fprintf(stderr, "pahole: --%s_bytes (%s) makes reference to --header but it "
			"wasn't specified\n", what, s);
		return -1;
	}
	if (!header_value(pp, s + 8, v)) {
		fprintf(stderr, "pahole: couldn't read the '%s' member of '%s' for evaluating "
			"--%s_bytes=%s\n", s + 8, pp->o.header_type, what, s);
		return -1;
	}
	if (pp->o.verbose) {
		hexoff(hx, sizeof(hx), (uint64_t)*v);
		fprintf(pp->o.out, "pahole: %s bytes evaluated from --%s_bytes=%s is %s \n", what,
			what, s, hx);
	}
	return 0;
}

/* Where the records of P start and how many bytes they may take. Returns
 * 0, or -1 with the message printed (the records end there) */
static int place(struct prettify *pp, const struct proto *p, uint64_t *limit)
{
	const char *range = pp->o.range ? pp->o.range : p->range;
	char hx[32], hx2[32];
	int64_t v;

	*limit = UINT64_MAX;
	if (range) {
		char path[512];
		int64_t off, sz;
		long pos;

		if (!pp->header) {
			fprintf(stderr, "pahole: range (%s) requires --header\n", range);
			return -1;
		}
		snprintf(path, sizeof(path), "%s.offset", range);
		if (!header_value(pp, path, &off)) {
			fprintf(stderr, "pahole: couldn't read the '%s' member of '%s' for evaluating "
				"range=%s\n", path, pp->o.header_type, range);
			return -1;
		}
		snprintf(path, sizeof(path), "%s.size", range);
		if (!header_value(pp, path, &sz)) {
			fprintf(stderr, "pahole: couldn't read the '%s' member of '%s' for evaluating "
				"range=%s\n", path, pp->o.header_type, range);
			return -1;
		}
		pos = ftell(pp->o.input);
		if (off < pos) {
			hexoff(hx, sizeof(hx), (uint64_t)off);
			fprintf(stderr, "pahole: can't go back in input, already read %lu bytes, "
				"can't go to position %s\n", (unsigned long)pos, hx);
			return -1;
		}
		if (pp->o.verbose) {
			hexoff(hx, sizeof(hx), (uint64_t)off);
			hexoff(hx2, sizeof(hx2), (uint64_t)sz);
			fprintf(pp->o.out, "pahole: range.seek_bytes evaluated from range=%s is %s \n",
				range, hx);
			fprintf(pp->o.out, "pahole: range.size_bytes evaluated from range=%s is %s \n",
				range, hx2);
		}
		if (!skip_n(pp, (uint64_t)(off - pos))) {
			fprintf(stderr, "Couldn't --seek_bytes (null) (%" PRIu64 "\n",
				(uint64_t)(off - pos));
			return -1;
		}
		*limit = (uint64_t)sz;
		return 0;
	}
	if (pp->o.seek_bytes) {
		const char *s = pp->o.seek_bytes;

		if (!strncmp(s, "$header.", 8)) {
			if (header_option(pp, "seek", s, &v))
				return -1;
			if ((uint64_t)v < pp->header_size) {
				fprintf(stderr, "pahole: seek bytes evaluated from --seek_bytes=%s is "
					"less than the header type size\n", s);
				return -1;
			}
		} else {
			v = strtol(s, NULL, 0);
		}
		if (pp->header)
			v -= ftell(pp->o.input);
		if (v < 0) {
			/* 1.24: glibc's fortified fread aborts (exit 134) */
			fprintf(stderr, "pahole: --seek_bytes %s: can't go back in input\n", s);
			pp->status = 1;
			return -1;
		}
		if (!skip_n(pp, (uint64_t)v)) {
			fprintf(stderr, "Couldn't --seek_bytes %s (%" PRIu64 "\n", s, (uint64_t)v);
			return -1;
		}
	}
	if (pp->o.size_bytes) {
		const char *s = pp->o.size_bytes;

		if (!strncmp(s, "$header.", 8)) {
			if (header_option(pp, "size", s, &v))
				return -1;
			*limit = (uint64_t)v;
		} else {
			*limit = (uint64_t)strtol(s, NULL, 0);
		}
	}
	return 0;
}

/* P's enumerator table (struct enum_entry): the type_enum's enumerators,
 * each with the struct that its name in lower case names, if one does.
 * Returns 0, or -1 when out of memory. */
static int make_entries(const struct prettify *pp, struct proto *p)
{
	size_t n = 0;

	for (unsigned e = 0; e < p->nr_enums; e++)
		n += p->enums[e]->enumeration.nr_values;
	free(p->entries);
	p->nr_entries = 0;
	p->entries = calloc(n ? n : 1, sizeof(*p->entries));
	if (!p->entries)
		return -1;
	for (unsigned e = 0; e < p->nr_enums; e++) {
		const struct type *t = p->enums[e];

		for (uint32_t i = 0; i < t->enumeration.nr_values; i++) {
			struct enum_entry *en = &p->entries[p->nr_entries++];
			char *lower = strdup(t->enumeration.values[i].name);
			const struct type *real;

			if (!lower)
				return -1;
			for (char *c = lower; *c; c++)
				*c = (char)tolower((unsigned char)*c);
			real = find_type(pp->cu, lower);
			free(lower);
			en->name = t->enumeration.values[i].name;
			en->value = t->enumeration.values[i].value;
			en->real = is_struct(real) ? real : NULL;
		}
	}
	return 0;
}

/* The records of P. Returns 0, or -1 when an error stops every type */
static int records(struct prettify *pp, struct proto *p)
{
	uint64_t s = type_size(pp, p->t), limit, read_bytes = 0;
	uint32_t skip = pp->o.skip, printed = 0;
	unsigned char *buf;
	int ret = 0;

	if (place(pp, p, &limit) || (p->nr_enums && make_entries(pp, p)))
		return -1;
	/* (a size from hostile DWARF: no gigabyte buffers for it) */
	buf = s <= MAX_RECORD ? malloc(s ? s : 1) : NULL;
	if (!buf) {
		fprintf(stderr, "pahole: the '%s' records (%" PRIu64 " bytes) can't be read\n",
			p->name, s);
		return -1;
	}
	for (;;) {
		long record_offset = ftell(pp->o.input);
		uint64_t real = s;
		const struct type *rt = p->t;

		if (!read_n(pp, buf, s))
			break;
		if (p->size_m) {
			const struct type *st = strip_typedefs(p->size_m->type);
			uint64_t off = p->size_m->bit_offset / 8, sz = type_size(pp, st);
			int32_t v = off + sz <= s ? (int32_t)read_int(buf + off, sz) : 0;

			real = (uint64_t)(int64_t)v;
			if (v > 0 && (uint64_t)v > s && read_rest(pp, &buf, s, (uint64_t)v)) {
				fprintf(stderr, "Couldn't read record: %d bytes\n", v);
				ret = -1;
				break;
			}
		}
		read_bytes += real;
		if (p->filter_m) {
			const struct type *ft = strip_typedefs(p->filter_m->type);
			uint64_t off = p->filter_m->bit_offset / 8, sz = type_size(pp, ft);

			if (off + sz > s || read_int(buf + off, sz) != p->filter_value)
				goto next;
		}
		if (skip) {
			skip--;
			goto next;
		}
		if (p->type_m && p->nr_enums) {
			const struct type *tt = strip_typedefs(p->type_m->type);
			uint64_t off = p->type_m->bit_offset / 8, sz = type_size(pp, tt);
			const struct enum_entry *e = off + sz <= s ?
						     enum_entry(p, read_int(buf + off, sz)) : NULL;

			if (e && e->real)
				rt = e->real;
		}
		if (pp->o.verbose) {
			char hx[32];

			hexoff(hx, sizeof(hx), (uint64_t)(int64_t)record_offset);
			fprintf(pp->o.out, "// type=%s, offset=%s, sizeof=%" PRIu64, p->name, hx, s);
			if (real != s)
				fprintf(pp->o.out, ", real_sizeof=%" PRIu64 "\n", real);
			else
				fputc('\n', pp->o.out);
		}
		/* what was read: S bytes, or the record's size when more */
		if (is_struct(rt))
			print_struct(pp, p, rt, buf, real > s ? real : s, real, 0, 0);
		else
			hexdump(pp, buf, s);
		fputs(",\n", pp->o.out);
		if (pp->o.count && ++printed == pp->o.count)
			break;
next:
		if (read_bytes >= limit)
			break;
	}
	free(buf);
	return ret;
}

int prettify_unit(struct prettify *pp, const struct cu_model *cu)
{
	pp->cu = cu;
	pp->missing = NULL;
	for (unsigned i = 0; i < pp->nr_protos; i++) {
		int r = resolve(pp, cu, &pp->protos[i]);

		if (r < 0)
			return 1;
		if (!r) {
			pp->missing = pp->protos[i].name;
			pp->missing_args = pp->protos[i].nr_args > 0;
			return 0;
		}
	}
	if (pp->o.header_type) {
		pp->header_t = find_type(cu, pp->o.header_type);
		if (!pp->header_t)
			return 1;	/* 1.24: nothing, no message */
		/* 1.24's size of an enum is its bits; of a typedef, 0 */
		pp->header_size = pp->header_t->kind == TK_ENUM ? pp->header_t->size * 8 :
				  pp->header_t->kind == TK_TYPEDEF ? 0 : pp->header_t->size;
		pp->header = pp->header_size <= MAX_RECORD ?
			     malloc(pp->header_size ? pp->header_size : 1) : NULL;
		if (!pp->header || !read_n(pp, pp->header, pp->header_size)) {
			fprintf(stderr, "pahole: --header (%s) type couldn't be read\n",
				pp->o.header_type);
			free(pp->header);
			pp->header = NULL;
			return 1;
		}
	}
	for (unsigned i = 0; i < pp->nr_protos; i++)
		if (records(pp, &pp->protos[i]))
			break;
	return 1;
}

void prettify_finish(struct prettify *pp)
{
	if (pp->missing)
		fprintf(stderr, "pahole: type '%s' not found%s\n", pp->missing,
			pp->missing_args ? " or arguments not validated" : "");
}

int prettify_status(const struct prettify *pp)
{
	return pp->status;
}
