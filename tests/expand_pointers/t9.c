struct inner { int a; long b; };
struct fpad { int i __attribute__((aligned(32))); struct inner *last; };
struct fpad2 { int i __attribute__((aligned(32))); char *last; };
struct user { struct fpad *f; struct fpad2 f2; };
struct user u;
