struct L6 { int v6; char c6; };
struct L5 { int v5; struct L6 *n; unsigned long long ull5; };
struct L4 { int v4; struct L5 *n; unsigned long long ull4; };
struct L3 { int v3; struct L4 *n; };
struct L2 { int v2; struct L3 *n; };
struct L1 { int v1; struct L2 *n; };
struct L0 { int v0; struct L1 *n; };
struct L0 l0;
