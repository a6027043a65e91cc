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

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>

struct elem {
	const char *s;  /* s[len] is ';' (lines are written from here, writev) */
	uint32_t len;
};

struct coll {
	const struct jh_graph *g;
	struct elem *el;   /* frame names of all locations */
	uint32_t *eoff;    /* per location: el[eoff[l] .. eoff[l+1]) */
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
	const struct elem *el = &w->c->el[w->e++];
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

static void line(struct jh_sb *sb, const struct coll *c, uint32_t stack)
{
	struct walk w;
	int last = 0;
	const struct elem *e;
	jh_sb_reset(sb);
	walk_init(&w, c, stack);
	while ((e = walk_next(&w, &last))) {
		jh_sb_add(sb, e->s, e->len);
		jh_sb_addc(sb, last ? ' ' : ';');
	}
	if (!sb->len)
		jh_sb_addc(sb, ' ');
	jh_sb_add(sb, c->counts + c->coff[stack], c->coff[stack + 1] - c->coff[stack]);
}

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
 * Elements of named frames, made once per (name, inline or not): each
 * distinct name is held once, not once per location.
 */
struct elcache {
	struct jh_u64map idx[2];  /* name pointer -> index in el, per inline flag */
	struct elem *el;
	size_t nel, alloc;
	struct jh_arena *strs;
	struct jh_sb sb;
};

static struct elem frame_elem(struct elcache *ec, const char *func, int inl)
{
	int added;
	uint64_t *v = jh_u64map_put(&ec->idx[inl], (uint64_t)(uintptr_t)func, &added);
	if (!added)
		return ec->el[*v];
	jh_sb_reset(&ec->sb);
	jh_collapsed_frame(&ec->sb, func, inl);
	size_t n = ec->sb.len;
	jh_sb_addc(&ec->sb, ';'); /* see struct elem */
	const char *s = jh_arena_strndup(ec->strs, ec->sb.buf, ec->sb.len);
	*v = ec->nel;
	JH_GROW(ec->el, ec->nel + 1, ec->alloc);
	ec->el[ec->nel] = (struct elem){s, (uint32_t)n};
	return ec->el[ec->nel++];
}

static int all_named(const struct jh_model *m, const struct jh_location *l)
{
	for (uint32_t i = 0; i < l->nframes; i++)
		if (!m->frames.items[l->first + i].func)
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
	jh_u64map_init(&ec.idx[0]);
	jh_u64map_init(&ec.idx[1]);
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
		if (all_named(m, loc)) {
			JH_GROW(c->el, nel + loc->nframes, alloc);
			for (uint32_t i = 0; i < loc->nframes; i++)
				c->el[nel++] = frame_elem(&ec, m->frames.items[loc->first + i].func, i != 0);
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
			c->el[nel].s = p;
			c->el[nel].len = (uint32_t)(e - p);
			nel++;
		}
	}
	c->eoff[m->nlocs] = (uint32_t)nel;
	jh_sb_release(&sb);
	jh_sb_release(&ec.sb);
	jh_u64map_release(&ec.idx[0]);
	jh_u64map_release(&ec.idx[1]);
	free(ec.el);
	free(used);
}

/* Appends n bytes to the output buffer buf[0..*len) of size cap. */
static void out_add(FILE *out, char *buf, size_t *len, size_t cap, const char *s, size_t n)
{
	if (*len + n > cap) {
		fwrite(buf, 1, *len, out);
		*len = 0;
		if (n > cap) {
			fwrite(s, 1, n, out);
			return;
		}
	}
	memcpy(buf + *len, s, n);
	*len += n;
}

/* Writes the sorted lines through a buffer. */
static int write_buffered(FILE *out, const struct coll *c, const uint32_t *order)
{
	const struct jh_graph *g = c->g;
	size_t cap = 1 << 20, len = 0;
	char *buf = xmalloc(cap);
	for (size_t s = 0; s < g->nstacks; s++) {
		const struct jh_gstack *gs = &g->stacks[order[s]];
		const uint32_t *locs = g->locpool + gs->off;
		int first = 1;
		for (uint32_t i = gs->len; i-- > 0;) { /* root first */
			for (uint32_t e = c->eoff[locs[i]]; e < c->eoff[locs[i] + 1]; e++) {
				if (!first)
					out_add(out, buf, &len, cap, ";", 1);
				out_add(out, buf, &len, cap, c->el[e].s, c->el[e].len);
				first = 0;
			}
		}
		out_add(out, buf, &len, cap, " ", 1);
		out_add(out, buf, &len, cap, c->counts + c->coff[order[s]],
			c->coff[order[s] + 1] - c->coff[order[s]]);
	}
	fwrite(buf, 1, len, out);
	free(buf);
	return ferror(out) ? -1 : 0;
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
	enum { NIOV = 1024 };
	struct iovec iov[NIOV];
	int n = 0;
	static char space[] = " ";
	for (size_t s = 0; s < g->nstacks; s++) {
		const struct jh_gstack *gs = &g->stacks[order[s]];
		const uint32_t *locs = g->locpool + gs->off;
		const struct elem *last = NULL;
		for (uint32_t i = gs->len; i-- > 0;) { /* root first */
			for (uint32_t e = c->eoff[locs[i]]; e < c->eoff[locs[i] + 1]; e++) {
				if (n + 3 > NIOV) {
					if (writev_all(fd, iov, n))
						return -1;
					n = 0;
				}
				last = &c->el[e];
				iov[n].iov_base = (void *)(uintptr_t)last->s;
				iov[n++].iov_len = last->len + 1; /* with its ';' */
			}
		}
		if (last)
			iov[n - 1].iov_len--; /* the last ';' becomes the space */
		if (n + 2 > NIOV) {
			if (writev_all(fd, iov, n))
				return -1;
			n = 0;
		}
		iov[n].iov_base = space;
		iov[n++].iov_len = 1;
		iov[n].iov_base = c->counts + c->coff[order[s]];
		iov[n++].iov_len = c->coff[order[s] + 1] - c->coff[order[s]];
	}
	return writev_all(fd, iov, n);
}

int jh_report_collapsed(FILE *out, const struct jh_graph *g)
{
	struct coll c = {.g = g};
	struct jh_arena strs = {0};
	build_elements(&c, &strs);

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

	uint32_t *order = xmalloc(jh_st_mult(g->nstacks ? g->nstacks : 1, sizeof(*order)));
	for (size_t s = 0; s < g->nstacks; s++)
		order[s] = (uint32_t)s;
	sort_coll = &c;
	jh_qsort(order, g->nstacks, sizeof(*order), cmp_stacks);

	int r = write_direct(out, &c, order);
	if (r == 1)
		r = write_buffered(out, &c, order);
	free(order);
	free(c.coff);
	free(c.eoff);
	free(c.el);
	jh_sb_release(&counts);
	jh_arena_release(&strs);
	return r;
}
