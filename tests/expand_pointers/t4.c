struct inner { int a; long b; };
typedef struct inner *inner_p;
typedef struct inner inner_t;
typedef inner_t inner_tt;
struct mods {
	const struct inner *cp;
	struct inner *const pc;
	volatile struct inner *vp;
	inner_p ptd;
	inner_p *pptd;
	inner_tt *ptt;
	const char *str;
	const void *cvp;
	void **vpp;
	int x;
};
struct mods m;
