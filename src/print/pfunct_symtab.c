// SPDX-License-Identifier: GPL-2.0-only
/* pfunct --symtab: see pfunct_symtab.h. */
#include "print/pfunct_symtab.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#define SYMTAB_NAME_PAD_MAX 32	/* pfunct caps the padding at 32 */

static bool listed(const struct elf_symbol *s)
{
	return s->type == STT_FUNC && s->name[0] && s->shndx != SHN_UNDEF;
}

int pfunct_symtab_print(const struct elf_file *ef, const char *section,
			struct strbuf *out, struct d2b_error *err)
{
	struct elf_symbol *syms;
	long n = elf_file_symbols_named(ef, section, &syms, err);
	int longest = 0, spacing = 0;

	if (n < 0)
		return -1;
	for (long i = 0; i < n; i++) {
		size_t len;

		if (!listed(&syms[i]))
			continue;
		len = strlen(syms[i].name);
		if (len > (size_t)longest)
			longest = len > SYMTAB_NAME_PAD_MAX ? SYMTAB_NAME_PAD_MAX
							    : (int)len;
	}
	for (long v = n; v; v /= 10)
		spacing++;
	for (long i = 0; i < n; i++) {
		const struct elf_symbol *s = &syms[i];

		if (!listed(s))
			continue;
		strbuf_addf(out, "%*ld: %-*s %#llx %5u\n", spacing, i, longest,
			    s->name, (unsigned long long)s->value,
			    (unsigned)s->size);
	}
	free(syms);
	return out->oom ? d2b_error_oom(err) : 0;
}
