typedef struct tnode tnode_t;
struct tnode { int v; tnode_t *tn; struct tnode *sn; };
struct tnode x;
