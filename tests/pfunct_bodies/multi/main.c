#include "common.h"
int a_entry(int x);
int b_entry(int x);

int main(int argc, char **argv)
{
	(void)argv;
	return a_entry(argc) + b_entry(argc) + clamp(argc, 0, 2);
}
