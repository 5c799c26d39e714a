// SPDX-License-Identifier: GPL-2.0-only
/* BTF feature selection: --btf_features and pahole's older flags. */
#include "btf/btf_features.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf/dwarf.h"

/* One feature: its name, where it lives, whether "default" enables it. */
struct feature_desc {
	const char *name;
	size_t offset;		/* of the bool in struct btf_features */
	bool in_default;
};

#define FEAT(n, field, dflt) { n, offsetof(struct btf_features, field), dflt }

static const struct feature_desc features[] = {
	FEAT("encode_force", encode_force, true),
	FEAT("var", var, true),
	FEAT("float", gen_float, true),
	FEAT("decl_tag", decl_tag, true),
	FEAT("type_tag", type_tag, true),
	FEAT("enum64", enum64, true),
	FEAT("optimized_func", optimized_func, true),
	FEAT("consistent_func", consistent_func, true),
	FEAT("decl_tag_kfuncs", decl_tag_kfuncs, true),
	FEAT("reproducible_build", reproducible_build, false),
	FEAT("distilled_base", distilled_base, false),
	FEAT("global_var", global_var, false),
};

#define NR_FEATURES (sizeof(features) / sizeof(features[0]))

static bool *feature_slot(struct btf_features *f, const struct feature_desc *d)
{
	return (bool *)((char *)f + d->offset);
}

void btf_features_init(struct btf_features *f)
{
	memset(f, 0, sizeof(*f));
	f->var = true;
	f->decl_tag = true;
	f->type_tag = true;
	f->enum64 = true;
	f->reproducible_build = true;
}

static void reset_for_list(struct btf_features *f)
{
	if (f->list_seen)
		return;
	for (size_t i = 0; i < NR_FEATURES; i++)
		*feature_slot(f, &features[i]) = false;
	f->list_seen = true;
}

static void enable_default(struct btf_features *f)
{
	for (size_t i = 0; i < NR_FEATURES; i++)
		if (features[i].in_default)
			*feature_slot(f, &features[i]) = true;
}

static const struct feature_desc *find_feature(const char *name, size_t len)
{
	for (size_t i = 0; i < NR_FEATURES; i++)
		if (strlen(features[i].name) == len && !strncmp(features[i].name, name, len))
			return &features[i];
	return NULL;
}

int btf_features_parse(struct btf_features *f, const char *list, bool strict,
		       struct d2b_error *err)
{
	const char *p = list;

	reset_for_list(f);
	if (!list)
		return d2b_error_set(err, "--btf_features needs a value");
	while (*p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		const struct feature_desc *d;

		if (len && p[0] == '+') {
			enable_default(f);
			p++;
			len--;
		}
		if (!len) {
			/* "" or ",,": nothing */
		} else if ((len == 7 && !strncmp(p, "default", 7)) ||
			   (len == 3 && !strncmp(p, "all", 3))) {
			enable_default(f);
		} else if ((d = find_feature(p, len)) != NULL) {
			*feature_slot(f, d) = true;
		} else if (strict) {
			return d2b_error_set(err, "Feature '%.*s' in '%s' is not supported.  "
					     "Supported BTF features are: %.*s",
					     (int)len, p, list,
					     (int)strlen(btf_features_supported_list()) - 1,
					     btf_features_supported_list());
		}
		if (!end)
			break;
		p = end + 1;
	}
	return 0;
}

static int parse_lang_exclude(struct btf_features *f, const char *list,
			      struct d2b_error *err)
{
	const char *p = list;

	while (p && *p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		int lang = len ? dw_lang_by_name(p, len) : 0;

		if (lang < 0)
			return d2b_error_set(err, "--lang_exclude: unknown language '%.*s'",
					     (int)len, p);
		if (len) {
			if (f->nr_lang_exclude >= sizeof(f->lang_exclude) / sizeof(f->lang_exclude[0]))
				return d2b_error_set(err, "--lang_exclude: too many languages");
			f->lang_exclude[f->nr_lang_exclude++] = (uint16_t)lang;
		}
		p = end ? end + 1 : NULL;
	}
	return 0;
}

bool btf_features_lang_excluded(const struct btf_features *f, uint16_t lang)
{
	for (unsigned i = 0; i < f->nr_lang_exclude; i++)
		if (f->lang_exclude[i] == lang)
			return true;
	return false;
}

static const char *const arg_options[] = {
	"btf_features", "btf_features_strict", "lang_exclude",
};

bool btf_features_option_has_arg(const char *name)
{
	for (size_t i = 0; i < sizeof(arg_options) / sizeof(arg_options[0]); i++)
		if (!strcmp(name, arg_options[i]))
			return true;
	return false;
}

int btf_features_option(struct btf_features *f, const char *name,
			const char *arg, struct d2b_error *err)
{
	if (btf_features_option_has_arg(name) && !arg)
		return d2b_error_set(err, "option '--%s' requires an argument", name);
	if (!strcmp(name, "btf_features"))
		return btf_features_parse(f, arg, false, err) ? -1 : 1;
	if (!strcmp(name, "btf_features_strict"))
		return btf_features_parse(f, arg, true, err) ? -1 : 1;
	if (!strcmp(name, "lang_exclude"))
		return parse_lang_exclude(f, arg, err) ? -1 : 1;
	if (!strcmp(name, "btf_gen_floats"))
		f->gen_float = true;
	else if (!strcmp(name, "btf_gen_optimized"))
		f->optimized_func = true;
	else if (!strcmp(name, "btf_gen_all")) {
		f->gen_float = true;
		f->optimized_func = true;
	} else if (!strcmp(name, "btf_encode_force"))
		f->encode_force = true;
	else if (!strcmp(name, "skip_encoding_btf_vars"))
		f->var = false;
	else if (!strcmp(name, "skip_encoding_btf_decl_tag"))
		f->decl_tag = false;
	else if (!strcmp(name, "skip_encoding_btf_type_tag"))
		f->type_tag = false;
	else if (!strcmp(name, "skip_encoding_btf_enum64"))
		f->enum64 = false;
	else if (!strcmp(name, "skip_encoding_btf_inconsistent_proto"))
		f->consistent_func = true;
	else
		return 0;
	return 1;
}

const char *btf_features_supported_list(void)
{
	return "encode_force,var,float,decl_tag,type_tag,enum64,optimized_func,"
	       "consistent_func,decl_tag_kfuncs,reproducible_build,distilled_base,"
	       "global_var\n";
}

int btf_features_check(const struct btf_features *f, bool have_base,
		       struct d2b_error *err)
{
	if (f->distilled_base)
		return d2b_error_set(err, "btf_features: distilled_base needs btf__distill_base(), "
				     "which this libbpf (< 1.5) lacks%s",
				     have_base ? "" : " (and a --btf_base)");
	return 0;
}
