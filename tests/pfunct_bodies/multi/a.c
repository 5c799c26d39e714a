#include "common.h"

static int helper(int x)
{
	return clamp(x, 0, 10) * 3;
}

int shared_ext(int x)
{
	return helper(x) + clamp(x, -5, 5);
}

int a_entry(int x)
{
	return shared_ext(x) + helper(x + 1);
}
