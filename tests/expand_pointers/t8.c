struct inner { int a; long b; };
union U { struct inner *p; long l; struct inner emb; char **cpp; };
struct S { union U *up; union U u; };
union U uu; struct S ss;
