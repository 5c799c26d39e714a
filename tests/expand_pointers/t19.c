struct cn { int v; const struct cn *next; };
struct cn x;
