typedef struct inner { short s; } inner_t;
union un { int i; char c[4]; };
enum col { RED = 1, GREEN = 2 };
typedef int myint;
struct empty {};
struct one { char c; };
struct s5 { struct s4 { struct s3 { struct s2 { struct s1 { int x; } a; } b; } c; } d; };
inner_t a; union un b; enum col c; myint d; struct empty e; struct one o; struct s5 s;
