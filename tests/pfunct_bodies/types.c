/* pfunct -b / --compile (t3003): the types a prototype needs */
#include <stddef.h>

struct inner { int a; char b; };
struct outer { struct inner in; struct outer *next; long arr[4]; };
union num { int i; float f; };
enum color { RED, GREEN = 5, BLUE };
typedef struct outer outer_t;
typedef int (*cb_t)(const struct inner *, void *);
typedef unsigned long ulong_t;

static outer_t *ret_ptr(outer_t *o, union num n, enum color c)
{
	o->arr[0] = n.i + c;
	return o->next;
}

static struct inner ret_struct(const struct inner *i, cb_t cb)
{
	struct inner r = *i;
	r.a += cb(i, NULL);
	return r;
}

static union num ret_union(int x)
{
	union num n;
	n.i = x;
	return n;
}

static ulong_t ret_typedef(ulong_t v, enum color c)
{
	return v * c;
}

static enum color ret_enum(int v)
{
	return v ? RED : BLUE;
}

static const char *ret_const_ptr(void)
{
	return "x";
}

static void ret_void(struct outer *o, int (*fp)(int))
{
	o->arr[1] = fp(3);
}

static int cbimpl(const struct inner *i, void *p) { return i->a + (p != NULL); }
static int sq(int x) { return x * x; }

int types_entry(int x)
{
	struct outer o = { { x, 1 }, NULL, { 0 } };
	union num n = ret_union(x);
	struct inner in = ret_struct(&o.in, cbimpl);
	ret_void(&o, sq);
	return (int)(long)ret_ptr(&o, n, GREEN) + in.a + (int)ret_typedef(x, BLUE) + ret_enum(x) + ret_const_ptr()[0];
}

int main(int argc, char **argv)
{
	(void)argv;
	return types_entry(argc);
}
