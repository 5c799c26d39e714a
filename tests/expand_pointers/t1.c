struct inner { int a; long b; };
union u { int x; char c; };
enum e { E0, E1 };
typedef struct inner inner_t;
struct outer {
	int i;
	struct inner *ip;
	union u *up;
	enum e *ep;
	inner_t *tp;
	struct inner **ipp;
	int (*fp)(int, char *);
	void *vp;
	char *cp;
	struct inner in;
};
struct outer o;
