struct inner { int a; long b; };
struct mid { long pad; const struct inner *ci; volatile struct inner *vi; };
struct outer2 { int x; struct mid *m; };
struct outer2 o2;
