/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Type-safe growable arrays.
 *
 *   DEFINE_VEC(u32_vec, uint32_t)
 *   struct u32_vec v = {0};
 *   if (u32_vec_push(&v, 7)) ...out of memory...
 *   v.data[0], v.len; u32_vec_free(&v);
 *
 * Growth doubles the capacity (at least 8 slots); new slots are not zeroed
 * unless obtained through NAME_push_zero().
 */
#ifndef D2B_UTIL_VEC_H
#define D2B_UTIL_VEC_H

#include <stdlib.h>
#include <string.h>
#include <stddef.h>

#define DEFINE_VEC(NAME, T)                                                    \
	struct NAME {                                                          \
		T *data;                                                       \
		size_t len, cap;                                               \
	};                                                                     \
	static inline __attribute__((unused)) int NAME##_reserve(              \
		struct NAME *v, size_t want)                                   \
	{                                                                      \
		if (want <= v->cap)                                            \
			return 0;                                              \
		size_t cap = v->cap ? v->cap : 8;                              \
		while (cap < want)                                             \
			cap *= 2;                                              \
		T *d = realloc(v->data, cap * sizeof(T));                      \
		if (!d)                                                        \
			return -1;                                             \
		v->data = d;                                                   \
		v->cap = cap;                                                  \
		return 0;                                                      \
	}                                                                      \
	static inline __attribute__((unused)) int NAME##_push(struct NAME *v,  \
							      T x)             \
	{                                                                      \
		if (v->len == v->cap && NAME##_reserve(v, v->len + 1))         \
			return -1;                                             \
		v->data[v->len++] = x;                                         \
		return 0;                                                      \
	}                                                                      \
	static inline __attribute__((unused)) T *NAME##_push_zero(             \
		struct NAME *v)                                                \
	{                                                                      \
		if (v->len == v->cap && NAME##_reserve(v, v->len + 1))         \
			return NULL;                                           \
		memset(&v->data[v->len], 0, sizeof(T));                        \
		return &v->data[v->len++];                                     \
	}                                                                      \
	static inline __attribute__((unused)) void NAME##_free(struct NAME *v) \
	{                                                                      \
		free(v->data);                                                 \
		v->data = NULL;                                                \
		v->len = v->cap = 0;                                           \
	}

#endif
