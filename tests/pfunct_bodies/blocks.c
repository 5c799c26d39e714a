/* pfunct -i / -T / -I / -t (t3003): lexical blocks, variables, labels, inline expansions */
#include <stdio.h>
#include <stdlib.h>

int global_counter;
static int file_static = 3;

struct point { int x, y; };
typedef struct point point_t;

static inline int sq(int v)
{
	return v * v;
}

static inline __attribute__((always_inline)) int add3(int a, int b, int c)
{
	int t = a + b;
	return sq(t) + c;
}

static int once_inlined(int v)
{
	int r = v * 7;
	if (r > 100)
		r -= global_counter;
	return r;
}

__attribute__((noinline, cold)) static void report_error(const char *msg, int code)
{
	fprintf(stderr, "error %s %d\n", msg, code);
	exit(code);
}

static inline int checked_div(int a, int b)
{
	if (__builtin_expect(b == 0, 0)) {
		report_error("div", a);
		return -1;
	}
	return a / b;
}

int nested_blocks(int n, point_t *p)
{
	static int calls;
	register int acc = 0;
	volatile int on_stack = n;
	int unused_opt = n * 3;

	calls++;
	{
		int inner = n + 1;
		acc += inner;
		{
			int deeper = inner * 2;
			static const char tag[] = "deep";
			acc += deeper + tag[n & 3];
		}
	}
	for (int i = 0; i < n; i++) {
		int sqi = sq(i);
		acc += sqi;
		if (acc > 1000)
			goto out;
	}
	acc += add3(p->x, p->y, on_stack);
	acc += add3(n, acc, 1);
out:
	if (acc < 0)
		goto fail;
	return acc + calls;
fail:
	return -1;
}

int a_function_with_a_rather_long_name_to_see_overflow_behaviour(int some_long_parameter_name, const char *another_quite_long_parameter)
{
	int a_local_variable_with_a_very_long_name_too_for_column_tests = some_long_parameter_name;
	a_local_variable_with_a_very_long_name_too_for_column_tests += another_quite_long_parameter[0];
	return a_local_variable_with_a_very_long_name_too_for_column_tests + sq(some_long_parameter_name);
}

int hot_cold(int *arr, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += checked_div(arr[i], n - i - 1);
	return s;
}

int main(int argc, char **argv)
{
	point_t p = { argc, argc * 2 };
	int v = nested_blocks(argc, &p);
	v += once_inlined(v);
	v += a_function_with_a_rather_long_name_to_see_overflow_behaviour(v, argv[0]);
	v += hot_cold(&argc, argc);
	v += file_static;
	printf("%d\n", v);
	return 0;
}
