struct padded { long l; char c; };
struct host { struct padded p; int x; struct padded *pp; };
struct top { char c; struct host *h; };
struct top t;
