/*
 * report_collapsed.c - --collapsed (jeprof-behaviour.md §8.4), in the form
 * flamegraph.pl reads: "root;...;leaf <count>", one line per distinct
 * location stack after allocator removal and filters, frames named by
 * jh_collapsed_name (full names, "[inline]", ';' in a name becomes ':' and a
 * newline a space). Unlike jeprof the lines are sorted byte-wise (LC_ALL=C
 * sort order), so the output is deterministic. A stack emptied by allocator
 * removal prints as " <count>". With --base each line carries two
 * non-negative columns "<before> <after>" (bases, profiles) as
 * difffolded.pl writes them, instead of jeprof's signed difference.
 *
 * The lines are never built all at once (they can be several times the size
 * of the input): stacks are sorted by comparing their lines lazily, chunk by
 * chunk (frame names, separators, count), skipping shared locations.
 */
#include "report.h"

#include "jeheap/names.h"
#include "jh_trace.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>

struct elem {
	const char *s;  /* s[len] is ';' (lines are written from here, writev) */
	uint32_t len;
	uint32_t rank;  /* byte order of "s;" among all elements (equal strings,
	                 * equal ranks): decides between two frames that are
	                 * not the last of their lines */
};

/* What writing a location needs, in one aligned 32-byte record (no other
 * memory is read for it): its first two elements' strings (each followed
 * by ';') and lengths; further ones are el[more ...]. */
struct lrec {
	const char *s[2];
	uint32_t len[2];
	uint32_t n;    /* elements */
	uint32_t more; /* index in el of the third */
};

struct coll {
	const struct jh_graph *g;
	struct elem *tok;  /* the distinct frame names */
	uint32_t *el;      /* frame names of all locations (indexes in tok) */
	struct lrec *lrec; /* per location: what writing its names needs */
	uint32_t *eoff;    /* per location: el[eoff[l] .. eoff[l+1]) */
	uint32_t nranks;   /* distinct element strings */
	char *counts;      /* per stack: "count\n" or "before after\n" */
	size_t *coff;      /* per stack, nstacks + 1 */
};

/* Walks a stack's line element by element, root first. */
struct walk {
	const struct coll *c;
	const uint32_t *locs; /* leaf first */
	uint32_t li;          /* locations left */
	uint32_t e, eend;     /* elements left of the current location */
};

static void walk_init(struct walk *w, const struct coll *c, uint32_t stack)
{
	const struct jh_gstack *gs = &c->g->stacks[stack];
	w->c = c;
	w->locs = c->g->locpool + gs->off;
	w->li = gs->len;
	w->e = w->eend = 0;
}

/* The next element, or NULL at the end of the names; *last: it is the
 * line's last element (followed by ' ' instead of ';'). */
static const struct elem *walk_next(struct walk *w, int *last)
{
	while (w->e == w->eend) {
		if (!w->li)
			return NULL;
		uint32_t l = w->locs[--w->li];
		w->e = w->c->eoff[l];
		w->eend = w->c->eoff[l + 1];
	}
	const struct elem *el = &w->c->tok[w->c->el[w->e++]];
	*last = w->e == w->eend;
	for (uint32_t i = w->li; *last && i > 0; i--) /* later locations are not empty */
		*last = w->c->eoff[w->locs[i - 1]] == w->c->eoff[w->locs[i - 1] + 1];
	return el;
}

static const struct coll *sort_coll;

/* The line's bytes from its count on: " count\n" (one compare of the
 * counts, shorter first on a common prefix). */
static int cmp_counts(const struct coll *c, uint32_t a, uint32_t b)
{
	size_t na = c->coff[a + 1] - c->coff[a], nb = c->coff[b + 1] - c->coff[b];
	int r = memcmp(c->counts + c->coff[a], c->counts + c->coff[b], na < nb ? na : nb);
	return r ? r : (na > nb) - (na < nb);
}

static void line(struct jh_sb *sb, const struct coll *c, uint32_t stack);

/* The two lines built and compared. */
static int cmp_lines(const struct coll *c, uint32_t a, uint32_t b)
{
	struct jh_sb x = JH_SB_INIT, y = JH_SB_INIT;
	jh_sb_init(&x);
	jh_sb_init(&y);
	line(&x, c, a);
	line(&y, c, b);
	int r = memcmp(x.buf, y.buf, x.len < y.len ? x.len : y.len);
	if (!r)
		r = (x.len > y.len) - (x.len < y.len);
	jh_sb_release(&x);
	jh_sb_release(&y);
	return r;
}

/* Byte order of the two stacks' lines, without building them: equal
 * elements are skipped (pointer-equal most of the time), the first
 * different one decides with its terminator (';' or ' '). */
static int cmp_stacks(const void *pa, const void *pb)
{
	const struct coll *c = sort_coll;
	uint32_t sa = *(const uint32_t *)pa, sb = *(const uint32_t *)pb;
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
		const struct elem *x = walk_next(&a, &la), *y = walk_next(&b, &lb);
		if (!x || !y) /* a stack emptied by allocator removal (rare) */
			return cmp_lines(c, sa, sb);
		if (!la && !lb && x->rank != y->rank) /* "x;" and "y;" differ */
			return x->rank < y->rank ? -1 : 1;
		size_t n = x->len < y->len ? x->len : y->len;
		if (x->s != y->s) {
			int r = memcmp(x->s, y->s, n);
			if (r)
				return r;
		}
		unsigned char cx = x->len > n ? (unsigned char)x->s[n] : (la ? ' ' : ';');
		unsigned char cy = y->len > n ? (unsigned char)y->s[n] : (lb ? ' ' : ';');
		if (cx != cy)
			return cx < cy ? -1 : 1;
		if (la) /* both last, equal names: the counts decide */
			return cmp_counts(c, sa, sb);
	}
}

/*
 * The sort key of a stack: the ranks + 1 of its first six elements, root
 * first, in 21-bit fields, three per word (the first in the highest); a
 * field is 0 from the line's last element on (its terminator is ' ', not
 * ';'). Where two keys first differ in fields that are both non-zero, they
 * order the lines; anything else is left to cmp_stacks. (Sorting compares
 * neighbours in line order most: they often share a few elements.)
 */
#define KEY_BITS 21
#define KEY_MASK ((1ULL << KEY_BITS) - 1)

struct keyed {
	uint64_t key[2];
	uint32_t stack;
};

static void stack_key(const struct coll *c, uint32_t stack, uint64_t key[2])
{
	struct walk w;
	walk_init(&w, c, stack);
	int stop = 0;
	for (int i = 0; i < 6; i++) {
		int last = 0;
		const struct elem *e = stop ? NULL : walk_next(&w, &last);
		stop = !e || last;
		key[i / 3] = key[i / 3] << KEY_BITS | (stop ? 0 : e->rank + 1);
	}
}

static int cmp_keyed(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;
	int w = a->key[0] == b->key[0]; /* the first word that differs */
	uint64_t x = a->key[w], y = b->key[w];
	if (x != y) {
		int sh = (63 - __builtin_clzll(x ^ y)) / KEY_BITS * KEY_BITS;
		if ((x >> sh & KEY_MASK) && (y >> sh & KEY_MASK))
			return x < y ? -1 : 1;
	}
	return cmp_stacks(&a->stack, &b->stack);
}

/*
 * Elements of named frames, made once per (name, inline or not): each
 * distinct name is held once, not once per location. el holds every
 * distinct element (those of unnamed frames too); the ranks are numbered
 * by sorting it.
 */
struct elcache {
	uint32_t *idx[2];         /* per function id (jh_graph_func_id): index in
	                           * el + 1, per inline flag */
	struct elem *el;          /* rank: its own index until ranked */
	size_t nel, alloc;
	struct jh_arena *strs;
	struct jh_sb sb;
};

static uint32_t new_elem(struct elcache *ec, const char *s, size_t n)
{
	JH_GROW(ec->el, ec->nel + 1, ec->alloc);
	ec->el[ec->nel] = (struct elem){s, (uint32_t)n, (uint32_t)ec->nel};
	return (uint32_t)ec->nel++;
}

/* An element's first 16 bytes with its ';', zeros after: in that order,
 * as big-endian numbers. */
struct rkey {
	uint64_t hi, lo;
	uint32_t el;
};

static uint64_t be64(const char *s, size_t n) /* n <= 8 bytes of s */
{
	uint64_t v = 0;
	for (size_t i = 0; i < 8; i++)
		v = v << 8 | (i < n ? (unsigned char)s[i] : 0);
	return v;
}

static const struct elem *rank_el;

static int cmp_rkey(const void *pa, const void *pb)
{
	const struct rkey *a = pa, *b = pb;
	if (a->hi != b->hi)
		return a->hi < b->hi ? -1 : 1;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	const struct elem *x = &rank_el[a->el], *y = &rank_el[b->el];
	if (x->s == y->s)
		return 0;
	/* ';' ends both and is in neither name: the shorter one is decided
	 * at or before its ';' */
	return memcmp(x->s, y->s, (x->len < y->len ? x->len : y->len) + 1);
}

/* Ranks ec->el by the bytes of "name;" (equal names share a rank);
 * *nranks: the number of ranks. */
static uint32_t *rank_elements(const struct elcache *ec, uint32_t *nranks)
{
	size_t n = ec->nel;
	struct rkey *k = xmalloc(jh_st_mult(n ? n : 1, sizeof(*k)));
	for (size_t i = 0; i < n; i++) {
		const struct elem *e = &ec->el[i];
		size_t m = (size_t)e->len + 1; /* with the ';' */
		k[i].hi = be64(e->s, m < 8 ? m : 8);
		k[i].lo = m > 8 ? be64(e->s + 8, m - 8 < 8 ? m - 8 : 8) : 0;
		k[i].el = (uint32_t)i;
	}
	rank_el = ec->el;
	jh_qsort(k, n, sizeof(*k), cmp_rkey);
	uint32_t *rank = xmalloc(jh_st_mult(n ? n : 1, sizeof(*rank)));
	uint32_t r = 0;
	for (size_t i = 0; i < n; i++) {
		if (i && cmp_rkey(&k[i - 1], &k[i]))
			r++;
		rank[k[i].el] = r;
	}
	*nranks = n ? r + 1 : 0;
	free(k);
	return rank;
}

/* The element of frame f (named, function id fid). */
static uint32_t frame_elem(struct elcache *ec, const struct jh_model *m, uint32_t f,
			   uint32_t fid, int inl)
{
	uint32_t *v = &ec->idx[inl][fid];
	if (*v)
		return *v - 1;
	jh_sb_reset(&ec->sb);
	jh_collapsed_frame(&ec->sb, m->frames.items[f].func, inl);
	size_t n = ec->sb.len;
	jh_sb_addc(&ec->sb, ';'); /* see struct elem */
	const char *s = jh_arena_strndup(ec->strs, ec->sb.buf, ec->sb.len);
	*v = (uint32_t)ec->nel + 1;
	return new_elem(ec, s, n);
}

static int all_named(const struct jh_graph *g, const struct jh_location *l)
{
	for (uint32_t i = 0; i < l->nframes; i++)
		if (jh_graph_func_id(g, l->first + i) == UINT32_MAX)
			return 0;
	return l->nframes > 0;
}

/* Splits each used location's collapsed name into its frames. */
static void build_elements(struct coll *c, struct jh_arena *strs)
{
	const struct jh_graph *g = c->g;
	const struct jh_model *m = g->m;
	uint8_t *used = xcalloc(m->nlocs ? m->nlocs : 1, 1);
	for (size_t s = 0; s < g->nstacks; s++)
		for (uint32_t i = 0; i < g->stacks[s].len; i++)
			used[g->locpool[g->stacks[s].off + i]] = 1;
	struct elcache ec = {.strs = strs};
	size_t nf = jh_graph_nfuncs(g);
	ec.idx[0] = xcalloc(nf ? nf : 1, sizeof(*ec.idx[0]));
	ec.idx[1] = xcalloc(nf ? nf : 1, sizeof(*ec.idx[1]));
	jh_sb_init(&ec.sb);
	struct jh_sb sb = JH_SB_INIT;
	jh_sb_init(&sb);
	size_t nel = 0, alloc = 0;
	c->eoff = xmalloc(jh_st_mult(m->nlocs + 1, sizeof(*c->eoff)));
	for (size_t l = 0; l < m->nlocs; l++) {
		c->eoff[l] = (uint32_t)nel;
		if (!used[l])
			continue;
		const struct jh_location *loc = &m->locs[l];
		if (all_named(g, loc)) {
			JH_GROW(c->el, nel + loc->nframes, alloc);
			for (uint32_t i = 0; i < loc->nframes; i++) {
				uint32_t f = loc->first + i;
				c->el[nel++] = frame_elem(&ec, m, f, jh_graph_func_id(g, f), i != 0);
			}
			continue;
		}
		jh_sb_reset(&sb);
		jh_collapsed_name(&sb, m, loc);
		/* jh_collapsed_name joins a location's frames with ';' and
		 * names never contain one */
		jh_sb_addc(&sb, ';');
		const char *p = jh_arena_strndup(strs, sb.buf, sb.len), *e;
		for (; (e = strchr(p, ';')); p = e + 1) {
			JH_GROW(c->el, nel + 1, alloc);
			c->el[nel++] = new_elem(&ec, p, (size_t)(e - p));
		}
	}
	c->eoff[m->nlocs] = (uint32_t)nel;
	uint32_t *rank = rank_elements(&ec, &c->nranks);
	for (size_t i = 0; i < ec.nel; i++)
		ec.el[i].rank = rank[i];
	free(rank);
	c->tok = ec.el;
	jh_sb_release(&sb);
	jh_sb_release(&ec.sb);
	free(ec.idx[0]);
	free(ec.idx[1]);
	free(used);
}

/* Element k of a location's record. */
static inline const char *lrec_elem(const struct coll *c, const struct lrec *r, uint32_t k,
				    uint32_t *len)
{
	if (k < 2) {
		*len = r->len[k];
		return r->s[k];
	}
	const struct elem *t = &c->tok[c->el[r->more + k - 2]];
	*len = t->len;
	return t->s;
}

static void build_lrecs(struct coll *c)
{
	size_t n = c->g->m->nlocs, size = (jh_st_mult(n ? n : 1, sizeof(struct lrec)) + 63) & ~(size_t)63;
	c->lrec = aligned_alloc(64, size);
	if (!c->lrec) {
		fprintf(stderr, "jeheap: out of memory (allocating %zu bytes)\n", size);
		exit(JH_EXIT_INTERNAL);
	}
	for (size_t l = 0; l < n; l++) {
		struct lrec *r = &c->lrec[l];
		memset(r, 0, sizeof(*r));
		r->n = c->eoff[l + 1] - c->eoff[l];
		r->more = c->eoff[l] + 2;
		for (uint32_t k = 0; k < r->n && k < 2; k++) {
			const struct elem *t = &c->tok[c->el[c->eoff[l] + k]];
			r->s[k] = t->s;
			r->len[k] = t->len;
		}
	}
}

/* Prefetches what writing stack order[s] will read: stacks come in line
 * order, so their locations are all over memory. Stage 1: the stack and
 * its location ids; 0: their records (needs the ids). */
static void prefetch_stack(const struct coll *c, const uint32_t *order, size_t s, int stage)
{
	const struct jh_graph *g = c->g;
	if (s >= g->nstacks)
		return;
	const struct jh_gstack *gs = &g->stacks[order[s]];
	const uint32_t *locs = g->locpool + gs->off;
	if (stage) {
		__builtin_prefetch(locs);
		__builtin_prefetch(locs + gs->len - 1);
		return;
	}
	for (uint32_t i = 0; i < gs->len; i++)
		__builtin_prefetch(&c->lrec[locs[i]]);
}

static int writev_all(int fd, struct iovec *iov, int n)
{
	while (n > 0) {
		ssize_t w = writev(fd, iov, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		for (; n > 0 && (size_t)w >= iov->iov_len; iov++, n--)
			w -= (ssize_t)iov->iov_len;
		if (n > 0) {
			iov->iov_base = (char *)iov->iov_base + w;
			iov->iov_len -= (size_t)w;
		}
	}
	return 0;
}

/* Where a line's pieces go: an iovec array written to fd when full, a
 * buffer written to out when full, or a string. */
enum { NIOV = 1024 };
struct sink {
	enum { SINK_IOV, SINK_BUF, SINK_SB } kind;
	int fd, n, err;
	struct iovec *iov;
	FILE *out;
	char *buf;
	size_t len, cap;
	struct jh_sb *sb;
};

static inline void sink_put(struct sink *k, const char *s, size_t n)
{
	switch (k->kind) {
	case SINK_IOV:
		if (k->n == NIOV) {
			if (writev_all(k->fd, k->iov, k->n))
				k->err = 1;
			k->n = 0;
		}
		k->iov[k->n].iov_base = (void *)(uintptr_t)s;
		k->iov[k->n++].iov_len = n;
		break;
	case SINK_BUF:
		if (k->len + n > k->cap) {
			fwrite(k->buf, 1, k->len, k->out);
			k->len = 0;
			if (n > k->cap) {
				fwrite(s, 1, n, k->out);
				break;
			}
		}
		memcpy(k->buf + k->len, s, n);
		k->len += n;
		break;
	case SINK_SB:
		jh_sb_add(k->sb, s, n);
		break;
	}
}

/* Emits stack's line "root;...;leaf count\n" to k: each element with the
 * ';' that follows its string, the last one without, then " " and the
 * count (a line without names is " count\n"). */
static inline void emit_line(const struct coll *c, uint32_t stack, struct sink *k)
{
	static const char space[] = " ";
	const struct jh_gstack *gs = &c->g->stacks[stack];
	const uint32_t *locs = c->g->locpool + gs->off;
	const char *ps = NULL;
	uint32_t pn = 0;
	for (uint32_t i = gs->len; i-- > 0;) { /* root first */
		const struct lrec *r = &c->lrec[locs[i]];
		for (uint32_t e = 0; e < r->n; e++) {
			if (ps)
				sink_put(k, ps, pn + 1); /* with its ';' */
			ps = lrec_elem(c, r, e, &pn);
		}
	}
	if (ps)
		sink_put(k, ps, pn);
	sink_put(k, space, 1);
	sink_put(k, c->counts + c->coff[stack], c->coff[stack + 1] - c->coff[stack]);
}

/* The line of stack in sb (only to compare lines). */
static void line(struct jh_sb *sb, const struct coll *c, uint32_t stack)
{
	struct sink k = {.kind = SINK_SB, .sb = sb};
	jh_sb_reset(sb);
	emit_line(c, stack, &k);
}

/* Writes the sorted lines through a buffer. */
static int write_buffered(FILE *out, const struct coll *c, const uint32_t *order)
{
	struct sink k = {.kind = SINK_BUF, .out = out, .cap = 1 << 20};
	k.buf = xmalloc(k.cap);
	for (size_t s = 0; s < c->g->nstacks; s++)
		emit_line(c, order[s], &k);
	fwrite(k.buf, 1, k.len, out);
	free(k.buf);
	return ferror(out) ? -1 : 0;
}

/*
 * Writes the sorted lines straight from where the names are held (writev:
 * no copy of the output, which is often several times the input) when out
 * is a file or a device. Returns 1 when it does not (then nothing was
 * written): memory streams, and pipes and sockets, where the kernel's copy
 * of thousands of short pieces costs more than a buffer.
 */
static int write_direct(FILE *out, const struct coll *c, const uint32_t *order)
{
	const struct jh_graph *g = c->g;
	int fd = fileno(out);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))
		return 1;
	if (fflush(out))
		return -1;
	struct iovec iov[NIOV];
	struct sink k = {.kind = SINK_IOV, .fd = fd, .iov = iov};
	for (size_t s = 0; s < g->nstacks && !k.err; s++) {
		if (s + 8 < g->nstacks)
			__builtin_prefetch(&g->stacks[order[s + 8]]);
		prefetch_stack(c, order, s + 5, 1);
		prefetch_stack(c, order, s + 2, 0);
		emit_line(c, order[s], &k);
	}
	return k.err || writev_all(fd, iov, k.n) ? -1 : 0;
}

int jh_report_collapsed(FILE *out, const struct jh_graph *g)
{
	struct coll c = {.g = g};
	struct jh_arena strs = {0};
	build_elements(&c, &strs);
	JH_TRACE("coll: elements");

	struct jh_sb counts = JH_SB_INIT;
	jh_sb_init(&counts);
	c.coff = xmalloc(jh_st_mult(g->nstacks + 1, sizeof(*c.coff)));
	for (size_t s = 0; s < g->nstacks; s++) {
		const struct jh_gstack *gs = &g->stacks[s];
		c.coff[s] = counts.len;
		if (g->has_base) {
			jh_fmt_value(&counts, JH_UNIT_BYTES, gs->before);
			jh_sb_addc(&counts, ' ');
			jh_fmt_value(&counts, JH_UNIT_BYTES, gs->after);
		} else {
			jh_fmt_value(&counts, JH_UNIT_BYTES, gs->v);
		}
		jh_sb_addc(&counts, '\n');
	}
	c.coff[g->nstacks] = counts.len;
	c.counts = counts.buf;

	JH_TRACE("coll: counts");
	build_lrecs(&c);
	JH_TRACE("coll: lrecs");
	/* sorted by key, the lines compared only where the keys cannot tell */
	struct keyed *kd = xmalloc(jh_st_mult(g->nstacks ? g->nstacks : 1, sizeof(*kd)));
	for (size_t s = 0; s < g->nstacks; s++) {
		kd[s].key[0] = kd[s].key[1] = 0;
		if (c.nranks < KEY_MASK)
			stack_key(&c, (uint32_t)s, kd[s].key);
		kd[s].stack = (uint32_t)s;
	}
	sort_coll = &c;
	JH_TRACE("coll: keys");
	jh_qsort(kd, g->nstacks, sizeof(*kd), cmp_keyed);
	JH_TRACE("coll: sorted");
	uint32_t *order = xmalloc(jh_st_mult(g->nstacks ? g->nstacks : 1, sizeof(*order)));
	for (size_t s = 0; s < g->nstacks; s++)
		order[s] = kd[s].stack;
	free(kd);

	int r = write_direct(out, &c, order);
	if (r == 1)
		r = write_buffered(out, &c, order);
	free(order);
	free(c.coff);
	free(c.eoff);
	free(c.el);
	free(c.tok);
	free(c.lrec);
	jh_sb_release(&counts);
	jh_arena_release(&strs);
	return r;
}
