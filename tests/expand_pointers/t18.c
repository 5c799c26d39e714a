struct inner { int a; long b; };
union TU { struct inner *p; long l; };
union TU tu;
