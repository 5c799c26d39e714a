class Foo { public: int a; Foo *self; int get() { return a; } virtual ~Foo() {} };
struct Bar { Foo *f; long l; void m(); };
void Bar::m() {}
Bar b; Foo f;
