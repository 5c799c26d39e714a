/* pfunct -b / --compile (t3003): a struct only declared, a typedef and an enum returned, a function pointer parameter */
struct opaque;
struct inner { int a; char b; };
typedef struct inner inner_t;
struct outer { inner_t i; struct opaque *op; struct outer *next; enum color { RED, GREEN } c; };
typedef unsigned long ulong_t;
typedef int (*cb_t)(struct outer *, int);
union u { int x; float f; };
static ulong_t f1(struct opaque *o, const struct outer *out, cb_t cb, union u uu) { return (ulong_t)o + out->i.a + cb(0, 1) + uu.x; }
static struct inner *f2(inner_t *x, enum color c) { return x + c; }
static const char *f3(int (*fp)(double), struct outer **pp) { return fp(1.0) ? "a" : (char*)pp; }
static inner_t f4(void) { inner_t r = {1, 2}; return r; }
static enum color f5(union u *p) { return p->x; }
static void *f6(void) { return 0; }
static const int f7(void) { return 1; }
int main(void) { union u uu = {0}; return (long)f1(0, 0, 0, uu) + (long)f2(0, RED) + (long)f3(0, 0) + f4().a + f5(0) + (long)f6() + f7(); }
