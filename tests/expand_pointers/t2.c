struct node { int v; struct node *next; struct node *prev; };
struct B;
struct A { int a; struct B *b; };
struct B { long x; struct A *a; };
struct holder { struct A *pa; struct B *pb; struct node *n; };
struct node n; struct holder h; struct A a; struct B b;
