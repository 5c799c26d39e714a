struct inner { int a; long b; };
enum color { RED, GREEN = 5 };
struct anon {
	struct { int x; char y; } *as;
	union { int i; float f; } *au;
	enum { AA, BB } *ae;
	struct { short s; } **aas;
	struct inner *arr[3];
	struct inner (*parr)[2];
	struct inner *(*fret)(struct inner *);
	enum color *ce;
	struct { struct inner *deep; int k; } emb;
	union { struct inner *ui; long l; } un;
};
struct anon an;
