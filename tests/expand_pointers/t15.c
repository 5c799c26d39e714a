struct inner { int a; long b; };
typedef struct { int q; } *anonp_t;
struct arrs {
	anonp_t *x;
	anonp_t y;
	struct { int q; } *aa[2];
	struct inner *a2[2][3];
	struct inner *flex[];
};
struct arrs v;
