struct inner { int a; long b; };
typedef struct inner inner_t;
typedef unsigned int u32;
struct td { inner_t t; u32 v; u32 *vp; inner_t *tp; struct { int z; } anonemb; };
struct td x;
