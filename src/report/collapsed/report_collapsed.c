/*
 * report_collapsed.c - --collapsed (docs/jeprof.md §7), in the form
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
 * of the input): a line is the pieces of its locations' frame names, each
 * with the separator before it (";name", "[inline];name"), taken from where
 * the model holds the name (see struct jh_coll_str), written with writev
 * where it can (collapsed_sort.c orders the lines).
 */
#include "collapsed.h"

#include "jeheap/names.h"
#include "jeheap/trace.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/*
 * The distinct elements (frame names), made once per (name, inline or not)
 * for named frames and once per location for the others; locations list
 * them by index.
 */
struct elcache {
	uint32_t *idx[2]; /* per function id (jh_graph_func_id): index in
	                           * el + 1, per inline flag */
	struct jh_coll_str *el;
	size_t nel, alloc;
	struct jh_arena *strs;
};

static uint32_t new_elem(struct elcache *ec, const char *s, size_t n, int inl)
{
	JH_GROW(ec->el, ec->nel + 1, ec->alloc);
	ec->el[ec->nel] = (struct jh_coll_str){ s, n, inl };
	return (uint32_t)ec->nel++;
}

/* The element of frame f (named, function id fid): its name is taken
 * later (make_names), {NULL, f, inl} until then. */
static uint32_t frame_elem(struct elcache *ec, uint32_t f, uint32_t fid, int inl)
{
	uint32_t *v = &ec->idx[inl][fid];
	if (!*v)
		*v = new_elem(ec, NULL, f, inl) + 1;
	return *v - 1;
}

/* The names of the named frames' elements, in the order they were first
 * seen (their names, interned in that order, are read ahead): the model's
 * strings themselves (see struct jh_coll_str), or copies made safe. */
static void make_names(struct elcache *ec, const struct jh_model *m)
{
	for (size_t k = 0; k < ec->nel; k++) {
		if (k + 8 < ec->nel && !ec->el[k + 8].s)
			for (int j = 0; j < 4; j++)
				__builtin_prefetch(m->frames.items[ec->el[k + 8].len].func +
						   64 * j);
		struct jh_coll_str *e = &ec->el[k];
		if (e->s)
			continue;
		const char *func = m->frames.items[e->len].func;
		size_t n = strlen(func);
		if (jh_collapsed_frame_len(func, n) != n || strchr(func, ';')) {
			struct jh_sb safe = JH_SB_INIT;
			jh_sb_init(&safe);
			jh_collapsed_frame(&safe, func, 0);
			func = jh_arena_name(ec->strs, safe.buf, safe.len);
			n = safe.len;
			jh_sb_release(&safe);
		}
		e->s = func;
		e->len = n;
	}
}

static int all_named(const uint32_t *fid, const struct jh_location *l)
{
	for (uint32_t i = 0; i < l->nframes; i++)
		if (fid[l->first + i] == UINT32_MAX)
			return 0;
	return l->nframes > 0;
}

/* The records of the used locations (see struct jh_coll), in c->scratch. */
static void build_records(struct jh_coll *c)
{
	size_t n = c->g->m->nlocs, novf = 0, alloc = 0;
	c->rec = c->scratch;
	for (size_t l = 0; l < n; l++) {
		uint64_t *r = c->rec[l];
		uint32_t a = c->eoff[l], ne = c->eoff[l + 1] - a;
		const char *ps[JH_COLL_INREC];
		size_t pn[JH_COLL_INREC], sep = 0; /* the first one's is the line's */
		int fits = ne && ne <= JH_COLL_INREC;
		for (uint32_t j = 0; j < ne && fits; j++) {
			const struct jh_coll_str *t = &c->rstr[c->rk[a + j]];
			ps[j] = t->s - sep;
			pn[j] = t->len + sep;
			fits = jh_coll_rec_fits(ps[j], pn[j]);
			sep = jh_coll_sep(t->inl);
		}
		if (fits) {
			jh_coll_rec_pack(r, ps, pn, ne, sep == JH_NAME_PAD);
			continue;
		}
		JH_GROW(c->ovf, novf + ne, alloc);
		r[0] = 0;
		r[1] = novf;
		r[2] = ne;
		r[3] = 0;
		for (uint32_t j = 0; j < ne; j++)
			c->ovf[novf++] = *jh_coll_elem(c, (uint32_t)l, j);
	}
}

/* c->scratch: size bytes aligned for the records (64), all of which will
 * be written (xmalloc: a large block given back before is taken again). */
static void scratch_alloc(struct jh_coll *c, size_t size)
{
	c->scratch_block = xmalloc(size + 64);
	c->scratch = (char *)c->scratch_block + (64 - (uintptr_t)c->scratch_block % 64);
}

/* Splits each used location's collapsed name into its elements: c->eoff,
 * c->rk (the ranks of their strings) and c->rstr; c->scratch with room for
 * the records too when recs. */
static void build_elements(struct jh_coll *c, struct jh_arena *strs, int recs)
{
	const struct jh_graph *g = c->g;
	const struct jh_model *m = g->m;
	const uint32_t *fid = jh_graph_func_ids(g);
	struct elcache ec = { .strs = strs };
	size_t nf = jh_graph_nfuncs(g);
	ec.idx[0] = xcalloc(nf ? nf : 1, sizeof(*ec.idx[0]));
	ec.idx[1] = xcalloc(nf ? nf : 1, sizeof(*ec.idx[1]));
	struct jh_sb sb = JH_SB_INIT;
	jh_sb_init(&sb);
	uint32_t *el = NULL; /* element of each location's frame */
	size_t nel = 0, alloc = 0;
	c->eoff = xmalloc(jh_st_mult(m->nlocs + 1, sizeof(*c->eoff)));
	for (size_t l = 0; l < m->nlocs; l++) {
		c->eoff[l] = (uint32_t)nel;
		if (!jh_graph_loc_used(g, (uint32_t)l))
			continue;
		const struct jh_location *loc = &m->locs[l];
		/* the frame filters' (--hide, --noinlines, ...): the outermost
		 * frame kept is the function, the others are inlined into it */
		const uint8_t *hid = g->frame_hidden;
		uint32_t j0 = 0;
		while (hid && j0 + 1 < loc->nframes && hid[loc->first + j0])
			j0++;
		if (all_named(fid, loc)) {
			JH_GROW(el, nel + loc->nframes, alloc);
			for (uint32_t i = 0; i < loc->nframes; i++) {
				uint32_t f = loc->first + i;
				if (!hid || !hid[f])
					el[nel++] = frame_elem(&ec, f, fid[f], i > j0);
			}
			continue;
		}
		jh_sb_reset(&sb);
		jh_collapsed_name(&sb, m, loc);
		/* jh_collapsed_name joins a location's frames with ';' (names
		 * never contain one), their "[inline]" written */
		const char *p = sb.buf, *end = sb.buf + sb.len;
		for (uint32_t k = 0;; k++) { /* element k: frame k (if any) */
			const char *e = memchr(p, ';', (size_t)(end - p));
			if (!e)
				e = end;
			size_t n = (size_t)(e - p);
			int skip = hid && k < loc->nframes && hid[loc->first + k];
			if (hid && k == j0 && n > 8 && !memcmp(e - 8, "[inline]", 8))
				n -= 8; /* the outermost frame kept */
			if (!skip) {
				JH_GROW(el, nel + 1, alloc);
				el[nel++] = new_elem(&ec, jh_arena_name(strs, p, n), n, 0);
			}
			if (e == end)
				break;
			p = e + 1;
		}
	}
	c->eoff[m->nlocs] = (uint32_t)nel;
	make_names(&ec, m);
	size_t need = jh_coll_scratch(ec.nel ? ec.nel : 1, g->nstacks);
	size_t rsize = recs ? jh_st_mult(m->nlocs, sizeof(*c->rec)) : 0;
	scratch_alloc(c, need > rsize ? need : rsize);
	uint32_t *rank = jh_coll_rank(ec.el, ec.nel, &c->nranks, c->scratch);
	c->rstr = xmalloc(jh_st_mult(c->nranks ? c->nranks : 1, sizeof(*c->rstr)));
	for (size_t i = 0; i < ec.nel; i++)
		c->rstr[rank[i]] = ec.el[i];
	for (size_t i = 0; i < nel; i++)
		el[i] = rank[el[i]];
	c->rk = el;
	free(rank);
	free(ec.el);
	jh_sb_release(&sb);
	free(ec.idx[0]);
	free(ec.idx[1]);
}

/* Prefetches what writing stack order[s] will read: stacks come in line
 * order, so their locations are all over memory. Stage 1: the stack's
 * location ids; 0: their records. Inlined (see prefetch_key in
 * collapsed_sort.c). */
static inline __attribute__((always_inline)) void prefetch_stack(const struct jh_coll *c,
								 const uint32_t *order, size_t s,
								 int stage)
{
	const struct jh_graph *g = c->g;
	if (s >= g->nstacks)
		return;
	const struct jh_gstack *gs = &g->stacks[order[s]];
	const uint32_t *locs = g->locpool + gs->off;
	if (stage) {
		for (uint32_t i = 0; i < gs->len; i += 16)
			__builtin_prefetch(locs + i);
		__builtin_prefetch(locs + gs->len - 1);
		return;
	}
	for (uint32_t i = 0; i < gs->len; i++)
		__builtin_prefetch(c->rec[locs[i]]);
	__builtin_prefetch(&c->coff[order[s]]);
}

/* Writes iov[0..n), total bytes (the pieces are only gone through after a
 * short write). */
static int writev_all(int fd, struct iovec *iov, int n, size_t total)
{
	while (n > 0) {
		ssize_t w = writev(fd, iov, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if ((size_t)w == total)
			return 0;
		total -= (size_t)w;
		for (; n > 0 && (size_t)w >= iov->iov_len; iov++, n--)
			w -= (ssize_t)iov->iov_len;
		if (n > 0) {
			iov->iov_base = (char *)iov->iov_base + w;
			iov->iov_len -= (size_t)w;
		}
	}
	return 0;
}

/* Pieces of lines gathered for writev (room for a record's unpacking
 * past NIOV). */
enum { NIOV = 1024 };
struct iovs {
	int fd, err;
	struct iovec iov[NIOV + JH_COLL_INREC];
};


/* Their bytes (counted here rather than per piece). */
static size_t iov_bytes(const struct iovec *v, size_t n)
{
	size_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, i = 0;
	for (; i + 4 <= n; i += 4) {
		t0 += v[i].iov_len;
		t1 += v[i + 1].iov_len;
		t2 += v[i + 2].iov_len;
		t3 += v[i + 3].iov_len;
	}
	for (; i < n; i++)
		t0 += v[i].iov_len;
	return t0 + t1 + t2 + t3;
}

/* Writes the pieces gathered, k->iov[0..v); the next go to the returned. */
static __attribute__((noinline)) struct iovec *iovs_flush(struct iovs *k, struct iovec *v)
{
	size_t n = (size_t)(v - k->iov);
	if (n && writev_all(k->fd, k->iov, (int)n, iov_bytes(k->iov, n)))
		k->err = 1;
	return k->iov;
}

/* Gathers the pieces of a location's record r at v (flushing first when
 * check and there may not be room); *sep: the separator before its first
 * element, then after its last. */
static inline __attribute__((always_inline)) struct iovec *iovs_loc(struct iovs *k, struct iovec *v,
								    const struct jh_coll *c,
								    const uint64_t *r, size_t *sep,
								    int check)
{
	struct iovec *end = k->iov + NIOV;
	if (__builtin_expect(r[0] != 0, 1)) {
		if (check && end - v < JH_COLL_INREC)
			v = iovs_flush(k, v);
		/* all four unpacked (no branch on the count) */
		jh_coll_rec_unpack(r, *sep, v);
		*sep = jh_coll_rec_sep(r);
		return jh_coll_rec_next(r, v);
	}
	const struct jh_coll_str *p = c->ovf + r[1];
	for (uint64_t j = 0; j < r[2]; j++) {
		if (v == end)
			v = iovs_flush(k, v);
		*v++ = (struct iovec){ (char *)(uintptr_t)p[j].s - *sep, p[j].len + *sep };
		*sep = jh_coll_sep(p[j].inl);
	}
	return v;
}

/* Gathers stack's line (see jh_coll_line) at v. */
static inline __attribute__((always_inline)) struct iovec *iovs_line(struct iovs *k,
								     struct iovec *v,
								     const struct jh_coll *c,
								     uint32_t stack)
{
	const struct jh_gstack *gs = &c->g->stacks[stack];
	const uint32_t *locs = c->g->locpool + gs->off;
	const struct iovec *end = k->iov + NIOV;
	const uint64_t(*rec)[JH_COLL_INREC] = c->rec; /* (not reloaded after stores) */
	size_t sep = 0;                     /* the separator before the next element (none first) */
	const uint32_t *p = locs + gs->len; /* past the next location's id */
	size_t room = (size_t)gs->len * JH_COLL_INREC + 2;
	/* room for all its records (and the last two pieces) made first,
	 * unless the line is very long or has records that are not */
	if ((size_t)(end - v) < room)
		v = iovs_flush(k, v);
	if ((size_t)(end - v) >= room) {
		for (; p > locs; p--) { /* root first */
			const uint64_t *r = rec[p[-1]];
			if (__builtin_expect(!r[0], 0))
				break;
			v = iovs_loc(k, v, c, r, &sep, 0);
		}
	}
	while (p > locs)
		v = iovs_loc(k, v, c, rec[*--p], &sep, 1);
	if (end - v < 2)
		v = iovs_flush(k, v);
	if (sep == JH_NAME_PAD) /* the last element is inline */
		*v++ = (struct iovec){ (void *)(uintptr_t)jh_coll_inline_mark, 8 };
	*v++ = (struct iovec){ c->counts + c->coff[stack], c->coff[stack + 1] - c->coff[stack] };
	return v;
}

/*
 * The descriptor of out when the lines are written straight from where the
 * names are held (writev: no copy of the output, which is often several
 * times the input): out is a file or a device; else -1: memory streams,
 * and pipes and sockets, where the kernel's copy of thousands of short
 * pieces costs more than a buffer.
 */
static int direct_fd(FILE *out)
{
	int fd = fileno(out);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))
		return -1;
	return fd;
}

/* Gathers and writes the lines in order. */
static void write_lines(struct iovs *k, const struct jh_coll *c, const uint32_t *order)
{
	const struct jh_graph *g = c->g;
	struct iovec *v = k->iov;
	for (size_t s = 0; s < g->nstacks && !k->err; s++) {
		if (s + 10 < g->nstacks)
			__builtin_prefetch(&g->stacks[order[s + 10]]);
		prefetch_stack(c, order, s + 6, 1);
		prefetch_stack(c, order, s + 3, 0);
		v = iovs_line(k, v, c, order[s]);
	}
	iovs_flush(k, v);
}

/* Writes the sorted lines with writev to fd (direct_fd of out). */
static int write_direct(FILE *out, int fd, struct jh_coll *c, const uint32_t *order)
{
	if (fflush(out))
		return -1;
	build_records(c);
	struct iovs *k = xmalloc(sizeof(*k));
	k->fd = fd;
	k->err = 0;
	write_lines(k, c, order);
	int r = k->err ? -1 : 0;
	free(k);
	return r;
}

/* Writes the sorted lines through a buffer. */
static int write_buffered(FILE *out, const struct jh_coll *c, const uint32_t *order)
{
	struct jh_coll_sink k = { .kind = JH_SINK_BUF, .out = out, .cap = 1 << 20 };
	k.buf = xmalloc(k.cap);
	for (size_t s = 0; s < c->g->nstacks; s++)
		jh_coll_line(c, order[s], &k);
	fwrite(k.buf, 1, k.len, out);
	free(k.buf);
	return ferror(out) ? -1 : 0;
}

/* Per stack: " count\n", or " before after\n" with --base. */
static void build_counts(struct jh_coll *c, struct jh_sb *counts)
{
	const struct jh_graph *g = c->g;
	c->coff = xmalloc(jh_st_mult(g->nstacks + 1, sizeof(*c->coff)));
	for (size_t s = 0; s < g->nstacks; s++) {
		const struct jh_gstack *gs = &g->stacks[s];
		c->coff[s] = counts->len;
		jh_sb_addc(counts, ' ');
		if (g->has_base) {
			jh_fmt_value(counts, JH_UNIT_BYTES, gs->before);
			jh_sb_addc(counts, ' ');
			jh_fmt_value(counts, JH_UNIT_BYTES, gs->after);
		} else {
			jh_fmt_value(counts, JH_UNIT_BYTES, gs->v);
		}
		jh_sb_addc(counts, '\n');
	}
	c->coff[g->nstacks] = counts->len;
	c->counts = counts->buf;
}

uint32_t *jh_coll_open(struct jh_coll *c, const struct jh_graph *g, struct jh_arena *strs,
		       struct jh_sb *counts, int recs)
{
	*c = (struct jh_coll){ .g = g };
	build_elements(c, strs, recs);
	JH_TRACE("coll: elements");
	build_counts(c, counts);
	JH_TRACE("coll: counts");
	uint32_t *order = jh_coll_sort(c, c->scratch);
	JH_TRACE("coll: sorted");
	return order;
}

void jh_coll_close(struct jh_coll *c)
{
	free(c->coff);
	free(c->eoff);
	free(c->scratch_block); /* and the records */
	free(c->ovf);
	free(c->rk);
	free(c->rstr);
}

int jh_report_collapsed(FILE *out, const struct jh_graph *g)
{
	struct jh_coll c;
	struct jh_arena strs = { 0 };
	int fd = direct_fd(out);
	struct jh_sb counts = JH_SB_INIT;
	jh_sb_init(&counts);
	uint32_t *order = jh_coll_open(&c, g, &strs, &counts, fd >= 0);
	int r = fd >= 0 ? write_direct(out, fd, &c, order) : write_buffered(out, &c, order);
	free(order);
	jh_coll_close(&c);
	jh_sb_release(&counts);
	jh_arena_release(&strs);
	return r;
}
