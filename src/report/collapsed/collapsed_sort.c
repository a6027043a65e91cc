/*
 * collapsed_sort.c - the byte order of --collapsed lines (see collapsed.h)
 * without building them: the elements' strings are ranked once
 * (jh_coll_rank), a stack's first ranks make its sort key, and lines whose
 * keys cannot tell are compared element by element (cmp_stacks).
 */
#include "collapsed.h"

#include <stdlib.h>
#include <string.h>

/*
 * MSORT(name, T, C, le): a stable bottom-up merge sort of T a[0..n) with a
 * scratch array tmp[0..n); le(c, x, y) (c of type C, x and y pointers to
 * T) says whether x may come before y. name##_merge merges src[lo..mid)
 * and src[mid..hi) into dst[lo..hi).
 */
#define MSORT(name, T, C, le)                                                                 \
	static void name##_merge(C c, const T *src, size_t lo, size_t mid, size_t hi, T *dst) \
	{                                                                                     \
		size_t i = lo, j = mid, k = lo;                                               \
		while (i < mid && j < hi)                                                     \
			dst[k++] = le(c, &src[i], &src[j]) ? src[i++] : src[j++];             \
		while (i < mid)                                                               \
			dst[k++] = src[i++];                                                  \
		while (j < hi)                                                                \
			dst[k++] = src[j++];                                                  \
	}                                                                                     \
	static void name(C c, T *a, size_t n, T *tmp)                                         \
	{                                                                                     \
		T *src = a, *dst = tmp;                                                       \
		for (size_t w = 1; w < n; w *= 2) {                                           \
			for (size_t lo = 0; lo < n; lo += 2 * w) {                            \
				size_t mid = lo + w < n ? lo + w : n;                         \
				size_t hi = lo + 2 * w < n ? lo + 2 * w : n;                  \
				name##_merge(c, src, lo, mid, hi, dst);                       \
			}                                                                     \
			T *t = src;                                                           \
			src = dst;                                                            \
			dst = t;                                                              \
		}                                                                             \
		if (src != a)                                                                 \
			memcpy(a, src, n * sizeof(*a));                                       \
	}

/* ---- ranks of the element strings ---- */

/* Byte i of the text of the element with name s[0..len) and inl, below
 * len + 8 * inl + 1 (its length: the name, "[inline]" when inl, ';'). */
static inline unsigned char text_byte(const char *s, size_t len, int inl, size_t i)
{
	if (i < len)
		return (unsigned char)s[i];
	return inl && i - len < 8 ? (unsigned char)"[inline]"[i - len] : ';';
}

/* A text to rank: bytes [16 * depth, 16 * depth + 16) of it as a
 * big-endian number (zeros past the ';'), the chunk sorted on. 32 bytes
 * (the keys and their scratch are one of the largest arrays of
 * --collapsed, see jh_coll_scratch). */
struct rkey {
	unsigned __int128 k;
	const char *s;
	uint32_t el;
	uint32_t m; /* inl << 31 | the text's length; UINT32_MAX: see el */
};

/* Its name's length and inl. */
static size_t rkey_name(const struct jh_coll_str *el, const struct rkey *e, int *inl)
{
	if (e->m == UINT32_MAX) {
		*inl = el[e->el].inl != 0;
		return el[e->el].len;
	}
	*inl = (int)(e->m >> 31);
	return (e->m & 0x7fffffff) - 1 - 8 * (size_t)*inl;
}

/* Its text's length. */
static size_t rkey_len(const struct jh_coll_str *el, const struct rkey *e)
{
	int inl;
	size_t len = rkey_name(el, e, &inl);
	return len + 8 * (size_t)inl + 1;
}

static unsigned __int128 chunk(const struct jh_coll_str *el, const struct rkey *e, size_t depth)
{
	int inl;
	size_t len = rkey_name(el, e, &inl), m = len + 8 * (size_t)inl + 1, at = depth * 16;
	if (at >= m)
		return 0;
	if (len >= at + 16) {
		uint64_t v[2];
		memcpy(v, e->s + at, 16);
		return (unsigned __int128)__builtin_bswap64(v[0]) << 64 | __builtin_bswap64(v[1]);
	}
	/* the name's last bytes, then at most "[inline];" */
	unsigned char b[16] = { 0 };
	size_t i = len > at ? len - at : 0;
	memcpy(b, e->s + at, i);
	for (; i < 16 && at + i < m; i++)
		b[i] = text_byte(e->s, len, inl, at + i);
	uint64_t v[2];
	memcpy(v, b, 16);
	return (unsigned __int128)__builtin_bswap64(v[0]) << 64 | __builtin_bswap64(v[1]);
}

#define RKEY_LE(c, x, y) ((void)(c), (x)->k <= (y)->k)
MSORT(sort_rkeys, struct rkey, int, RKEY_LE)

/* A range of the keys: to sort on chunk depth, or (depth SIZE_MAX) equal
 * strings to rank. */
struct rtask {
	size_t lo, n, depth;
};

/*
 * Most significant chunk first: a range sorted on its chunk splits into
 * runs of equal chunks; a run of one text, or of texts that end in it
 * (';' is only at their end, so they are equal), takes the next rank, the
 * others are sorted on the next chunk. Ranges are done in order (a stack of
 * tasks, each range's runs pushed last first), so ranks come in order.
 */
uint32_t *jh_coll_rank(const struct jh_coll_str *el, size_t n, uint32_t *nranks, void *scratch)
{
	struct rkey *k = scratch, *tmp = k + n;
	uint32_t *rank = xmalloc(jh_st_mult(n ? n : 1, sizeof(*rank)));
	for (size_t i = 0; i < n; i++) {
		size_t m = el[i].len + (el[i].inl ? 9 : 1);
		k[i] = (struct rkey){ 0, el[i].s, (uint32_t)i,
				      el[i].len < 0x7fffff00
					      ? (uint32_t)(el[i].inl != 0) << 31 | (uint32_t)m
					      : UINT32_MAX };
		k[i].k = chunk(el, &k[i], 0);
	}
	struct rtask *st = NULL;
	size_t nst = 0, alloc = 0;
	uint32_t r = 0;
	if (n) {
		JH_GROW(st, 1, alloc);
		st[nst++] = (struct rtask){ 0, n, 0 };
	}
	while (nst) {
		struct rtask t = st[--nst];
		struct rkey *a = k + t.lo;
		if (t.depth == SIZE_MAX || t.n == 1) {
			for (size_t i = 0; i < t.n; i++)
				rank[a[i].el] = r;
			r++;
			continue;
		}
		if (t.depth) {
			for (size_t i = 0; i < t.n; i++) {
				if (i + 8 < t.n) /* the strings are all over memory */
					__builtin_prefetch(a[i + 8].s + t.depth * 16);
				a[i].k = chunk(el, &a[i], t.depth);
			}
		}
		sort_rkeys(0, a, t.n, tmp);
		/* the runs, last first */
		for (size_t hi = t.n; hi > 0;) {
			size_t lo = hi - 1;
			while (lo > 0 && a[lo - 1].k == a[hi - 1].k)
				lo--;
			int ended = rkey_len(el, &a[lo]) <= (t.depth + 1) * 16;
			JH_GROW(st, nst + 1, alloc);
			st[nst++] = (struct rtask){ t.lo + lo, hi - lo,
						    ended ? SIZE_MAX : t.depth + 1 };
			hi = lo;
		}
	}
	*nranks = r;
	free(st);
	return rank;
}

/* ---- the order of the lines ---- */

/* Walks a stack's line element by element, root first. */
struct walk {
	const struct jh_coll *c;
	const uint32_t *locs;   /* leaf first */
	uint32_t li;            /* locations left */
	uint32_t l;             /* the current location */
	uint32_t e, ebeg, eend; /* its elements: e the next */
};

static void walk_init(struct walk *w, const struct jh_coll *c, uint32_t stack)
{
	const struct jh_gstack *gs = &c->g->stacks[stack];
	w->c = c;
	w->locs = c->g->locpool + gs->off;
	w->li = gs->len;
	w->l = w->e = w->ebeg = w->eend = 0;
}

/* The next element, or UINT32_MAX at the end of the names; *last: it is
 * the line's last element (followed by ' ' instead of ';'). */
static uint32_t walk_next(struct walk *w, int *last)
{
	const uint32_t *eoff = w->c->eoff;
	while (w->e == w->eend) {
		if (!w->li)
			return UINT32_MAX;
		w->l = w->locs[--w->li];
		w->e = w->ebeg = eoff[w->l];
		w->eend = eoff[w->l + 1];
	}
	uint32_t e = w->e++;
	*last = w->e == w->eend && !w->li; /* no location is without elements */
	return e;
}

/* The line's bytes from its count on: " count\n" (one compare of the
 * counts, shorter first on a common prefix). */
static int cmp_counts(const struct jh_coll *c, uint32_t a, uint32_t b)
{
	size_t na = c->coff[a + 1] - c->coff[a], nb = c->coff[b + 1] - c->coff[b];
	int r = memcmp(c->counts + c->coff[a], c->counts + c->coff[b], na < nb ? na : nb);
	return r ? r : (na > nb) - (na < nb);
}

/* The two lines built and compared. */
static int cmp_lines(const struct jh_coll *c, uint32_t a, uint32_t b)
{
	struct jh_sb x = JH_SB_INIT, y = JH_SB_INIT;
	jh_sb_init(&x);
	jh_sb_init(&y);
	struct jh_coll_sink kx = { .kind = JH_SINK_SB, .sb = &x },
			    ky = { .kind = JH_SINK_SB, .sb = &y };
	jh_coll_line(c, a, &kx);
	jh_coll_line(c, b, &ky);
	int r = memcmp(x.buf, y.buf, x.len < y.len ? x.len : y.len);
	if (!r)
		r = (x.len > y.len) - (x.len < y.len);
	jh_sb_release(&x);
	jh_sb_release(&y);
	return r;
}

/* Byte order of the two stacks' lines, without building them: equal
 * elements are skipped (pointer-equal most of the time), the first
 * different one decides with its terminator (';' or ' ': names have no
 * ';', but may have a ' '). */
static int cmp_stacks(const struct jh_coll *c, uint32_t sa, uint32_t sb)
{
	struct walk a, b;
	walk_init(&a, c, sa);
	walk_init(&b, c, sb);
	/* shared whole locations from the root (not the last of either) */
	while (a.li > 1 && b.li > 1 && a.locs[a.li - 1] == b.locs[b.li - 1]) {
		a.li--;
		b.li--;
	}
	for (;;) {
		int la = 1, lb = 1;
		uint32_t ex = walk_next(&a, &la), ey = walk_next(&b, &lb);
		if (ex == UINT32_MAX ||
		    ey == UINT32_MAX) /* a stack emptied by allocator removal (rare) */
			return cmp_lines(c, sa, sb);
		if (!la && !lb && c->rk[ex] != c->rk[ey]) /* the texts differ */
			return c->rk[ex] < c->rk[ey] ? -1 : 1;
		const struct jh_coll_str *x = jh_coll_elem(c, a.l, ex - a.ebeg);
		const struct jh_coll_str *y = jh_coll_elem(c, b.l, ey - b.ebeg);
		/* their texts but the ';' */
		size_t xl = x->len + 8 * (size_t)(x->inl != 0),
		       yl = y->len + 8 * (size_t)(y->inl != 0);
		size_t n = xl < yl ? xl : yl, same = x->len < y->len ? x->len : y->len;
		if (same > n)
			same = n;
		if (x->s != y->s) {
			int r = memcmp(x->s, y->s, same);
			if (r)
				return r;
		}
		for (size_t i = same; i < n; i++) {
			unsigned char bx = text_byte(x->s, x->len, x->inl, i);
			unsigned char by = text_byte(y->s, y->len, y->inl, i);
			if (bx != by)
				return bx < by ? -1 : 1;
		}
		unsigned char cx = xl > n ? text_byte(x->s, x->len, x->inl, n) : (la ? ' ' : ';');
		unsigned char cy = yl > n ? text_byte(y->s, y->len, y->inl, n) : (lb ? ' ' : ';');
		if (cx != cy)
			return cx < cy ? -1 : 1;
		if (xl != yl) /* a last name's ' ' met a ' ' in the other's (rare): */
			return cmp_lines(c, sa, sb); /* the count goes on against a name */
		if (la)                              /* both last, equal names: the counts decide */
			return cmp_counts(c, sa, sb);
	}
}

/*
 * The sort key of a stack: the ranks + 1 of its first elements, root
 * first, in fields of bits bits (enough for the ranks), per per word (the
 * first in the highest; see struct sort_ctx); a field is 0 from the line's last
 * element on (its terminator is ' ', not ';'). Where two keys first differ
 * in fields that are both non-zero, they order the lines; anything else is
 * left to cmp_stacks. (Sorting compares neighbours in line order most:
 * they often share a few elements.)
 */
struct sort_ctx {
	const struct jh_coll *c;
	unsigned bits, per; /* a key field's bits, fields per word */
};
#define KEY_MASK(x) ((1ULL << (x)->bits) - 1)

struct keyed {
	uint64_t key[2];
	uint32_t stack; /* | KEY_SHORT: its line ends within the key (a zero field) */
};
#define KEY_SHORT 0x80000000u

static void stack_key(const struct sort_ctx *x, uint32_t stack, uint64_t key[2])
{
	const struct jh_coll *c = x->c;
	const unsigned key_bits = x->bits, key_per = x->per;
	const struct jh_gstack *gs = &c->g->stacks[stack];
	const uint32_t *locs = c->g->locpool + gs->off;
	unsigned w = 0, left = key_per; /* the word filled, its fields left (no division) */
	uint64_t k[2] = { 0, 0 };
	for (uint32_t li = gs->len; li-- > 0 && w < 2;) {
		uint32_t e = c->eoff[locs[li]],
			 end = c->eoff[locs[li] + 1] - !li; /* not the last */
		for (; e < end && w < 2; e++) {
			k[w] = k[w] << key_bits | (c->rk[e] + 1);
			if (!--left) {
				w++;
				left = key_per;
			}
		}
	}
	if (w < 2 && left < key_per)      /* the fields left are 0 (and the words */
		k[w] <<= key_bits * left; /* not begun, which are 0) */
	key[0] = k[0];
	key[1] = k[1];
}

/* Prefetches what stack_key reads of stack s (its root-most locations are
 * all over memory): stage 2 their ids, 1 their element offsets, 0 the
 * ranks. Inlined: GCC deems a function that only prefetches free of side
 * effects, and drops the calls. */
static inline __attribute__((always_inline)) void prefetch_key(const struct jh_coll *c, size_t s,
							       int stage)
{
	const struct jh_graph *g = c->g;
	if (s >= g->nstacks || !g->stacks[s].len)
		return;
	const uint32_t *locs = g->locpool + g->stacks[s].off, len = g->stacks[s].len;
	if (stage == 2) {
		__builtin_prefetch(locs + len - 1);
		return;
	}
	for (uint32_t i = len; i-- > 0 && i + 4 >= len;) {
		if (stage)
			__builtin_prefetch(&c->eoff[locs[i]]);
		else
			__builtin_prefetch(&c->rk[c->eoff[locs[i]]]);
	}
}

static inline int cmp_keyed(const struct sort_ctx *sc, const struct keyed *a, const struct keyed *b)
{
	int w = a->key[0] == b->key[0]; /* the first word that differs */
	uint64_t x = a->key[w], y = b->key[w];
	if (x != y) {
		int sh = (63 - __builtin_clzll(x ^ y)) / (int)sc->bits * (int)sc->bits;
		if ((x >> sh & KEY_MASK(sc)) && (y >> sh & KEY_MASK(sc)))
			return x < y ? -1 : 1;
	}
	return cmp_stacks(sc->c, a->stack & ~KEY_SHORT, b->stack & ~KEY_SHORT);
}

/* Where neither line ends within its key, keys that differ order the lines
 * as numbers. */
static inline int keyed_le(const struct sort_ctx *sc, const struct keyed *a, const struct keyed *b)
{
	if (!((a->stack | b->stack) & KEY_SHORT)) {
		unsigned __int128 x = (unsigned __int128)a->key[0] << 64 | a->key[1];
		unsigned __int128 y = (unsigned __int128)b->key[0] << 64 | b->key[1];
		if (x != y)
			return x < y;
	}
	return cmp_keyed(sc, a, b) <= 0;
}

MSORT(sort_keyed, struct keyed, const struct sort_ctx *, keyed_le)

size_t jh_coll_scratch(size_t nel, size_t nstacks)
{
	size_t r = jh_st_mult(nel, 2 * sizeof(struct rkey));
	size_t s = jh_st_mult(nstacks, 2 * sizeof(struct keyed));
	return r > s ? r : s;
}

uint32_t *jh_coll_sort(const struct jh_coll *c, void *scratch)
{
	const struct jh_graph *g = c->g;
	size_t n = g->nstacks;
	struct keyed *kd = scratch, *tmp = kd + n;
	struct sort_ctx sc = { c, 64 - (unsigned)__builtin_clzll((uint64_t)c->nranks + 1), 0 };
	sc.per = 64 / sc.bits;
	for (size_t s = 0; s < n; s++) {
		kd[s].key[0] = kd[s].key[1] = 0;
		if (sc.bits <= 21) {
			prefetch_key(c, s + 12, 2);
			prefetch_key(c, s + 8, 1);
			prefetch_key(c, s + 4, 0);
			stack_key(&sc, (uint32_t)s, kd[s].key);
		}
		kd[s].stack = (uint32_t)s;
		if (!(kd[s].key[1] & KEY_MASK(&sc)) || n > KEY_SHORT) /* a zero field */
			kd[s].stack |= KEY_SHORT;
	}
	sort_keyed(&sc, kd, n, tmp);
	uint32_t *order = xmalloc(jh_st_mult(n ? n : 1, sizeof(*order)));
	for (size_t s = 0; s < n; s++)
		order[s] = kd[s].stack & ~KEY_SHORT;
	return order;
}
