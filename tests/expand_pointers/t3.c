struct small { char c; };
struct s1 { struct small *p; int x; };
struct inner2 { long a, b, c, d; };
struct big { char pad[56]; struct inner2 *p; long after[4]; struct inner2 *q; };
struct big2 { char pad[48]; struct inner2 p; long after[4]; };
struct s1 v1; struct big vb; struct big2 vb2;
