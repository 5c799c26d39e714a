typedef char str4[4];
typedef int int2[2];
enum e { E0, E1 };
struct t7 { char m[2][3]; str4 s; int2 ia; double d[1]; _Bool b[2]; enum e ea[1]; __int128 q[1]; signed char sc[2]; short sh[1]; };
struct t7 v;
