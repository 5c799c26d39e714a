/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * btf/btf_features.h: which BTF the encoder emits, in pahole's spelling.
 *
 * pahole has two ways to say it, and we accept both:
 *
 *   --btf_features=LIST        (1.26+) start from "nothing", enable what LIST
 *                              names; "default" (or "all") names the default
 *                              set; "+feat,..." is the default set plus feat
 *   --skip_encoding_btf_vars,  the older negative flags, applied on top of
 *   --btf_gen_floats, ...      pahole's historical defaults (vars, decl tags,
 *                              type tags and enum64 on; floats off)
 *
 * The front ends (encode_cmd.c, later pahole_cli.c) call btf_features_option()
 * for every long option; it consumes the ones that are ours. Nothing here
 * prints: --supported_btf_features gets its text from
 * btf_features_supported_list().
 */
#ifndef D2B_BTF_BTF_FEATURES_H
#define D2B_BTF_BTF_FEATURES_H

#include <stdbool.h>
#include <stdint.h>

#include "util/error.h"

struct btf_features {
	bool encode_force;	/* skip invalid names instead of failing */
	bool var;		/* per-CPU variables: VAR + DATASEC */
	bool gen_float;		/* float/double as FLOAT (else INT) */
	bool decl_tag;		/* btf_decl_tag -> DECL_TAG */
	bool type_tag;		/* btf_type_tag -> TYPE_TAG */
	bool enum64;		/* >4-byte enums as ENUM64 */
	bool optimized_func;	/* accepted; no effect (as upstream 1.30) */
	bool consistent_func;	/* skip functions with inconsistent prototypes */
	bool decl_tag_kfuncs;	/* "bpf_kfunc" decl tags on kfuncs */
	bool reproducible_build;/* always true for us; accepted */
	bool distilled_base;	/* needs libbpf >= 1.5: an error with 1.1 */
	bool global_var;	/* every global variable, not only per-CPU */

	/* DW_LANG_* of CUs to leave out (--lang_exclude), up to 16. */
	uint16_t lang_exclude[16];
	uint8_t nr_lang_exclude;

	/* Internal: the first --btf_features resets to "all off". */
	bool list_seen;
};

/* pahole's defaults when no --btf_features is given. */
void btf_features_init(struct btf_features *f);

/*
 * Apply one --btf_features / --btf_features_strict value. Unknown names are
 * ignored unless STRICT (then an error naming the feature). Returns 0 or -1.
 */
int btf_features_parse(struct btf_features *f, const char *list, bool strict,
		       struct d2b_error *err);

/*
 * Consume a long option if it is one of ours. NAME is without the leading
 * dashes ("btf_features", "skip_encoding_btf_vars", "lang_exclude"...), ARG
 * its value or NULL. Returns 1 if consumed, 0 if not ours, -1 with err set
 * (bad value, missing argument).
 *
 *   btf_features=LIST  btf_features_strict=LIST  btf_gen_floats
 *   btf_gen_optimized  btf_gen_all  btf_encode_force  lang_exclude=L1,L2
 *   skip_encoding_btf_vars / _decl_tag / _type_tag / _enum64
 *   skip_encoding_btf_inconsistent_proto
 */
int btf_features_option(struct btf_features *f, const char *name,
			const char *arg, struct d2b_error *err);

/* Does the option NAME take an argument? (for front-end parsers) */
bool btf_features_option_has_arg(const char *name);

/* "encode_force,var,float,...\n": what --supported_btf_features prints. */
const char *btf_features_supported_list(void);

/* Check a combination before encoding: distilled_base with a libbpf that
 * lacks btf__distill_base is an error. Returns 0 or -1. */
int btf_features_check(const struct btf_features *f, bool have_base,
		       struct d2b_error *err);

/* Is a CU of language LANG (DW_LANG_*) excluded? */
bool btf_features_lang_excluded(const struct btf_features *f, uint16_t lang);

#endif
