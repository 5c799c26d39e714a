#ifndef COMMON_H
#define COMMON_H
static inline int clamp(int v, int lo, int hi)
{
	if (v < lo)
		return lo;
	if (v > hi)
		return hi;
	return v;
}
int shared_ext(int x);
#endif
