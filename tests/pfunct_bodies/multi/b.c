#include "common.h"

static int helper(int x)
{
	return clamp(x, 1, 20) - 1;
}

int b_entry(int x)
{
	return shared_ext(x) * helper(x);
}
