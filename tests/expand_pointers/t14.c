struct bigp { long a[10]; long b; long c[10]; long d; long e[10]; long f; };
struct cl { struct bigp *p1; struct bigp *p2; long x[10]; long y; long z[10]; long w; };
struct cl c;
