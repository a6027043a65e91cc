/*
 * flame_tree.c - the flame graph's frames from --collapsed's stacks (see
 * struct jh_fnode): flamegraph.pl's merge, so that the same stacks give
 * the same boxes, with each frame's first location kept for its details.
 */
#include "flame.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A stack's element: its text's rank, its location and frame level. */
struct fitem {
	uint32_t rank, loc, level;
};


/* The frame level of element e of location l: the e-th frame the frame
 * filters (--hide, --noinlines ...) keep. */
static uint32_t elem_level(const struct jh_graph *g, uint32_t l, uint32_t e)
{
	const uint8_t *hid = g->frame_hidden;
	const struct jh_location *loc = &g->m->locs[l];
	if (!hid)
		return e;
	for (uint32_t j = 0, k = 0; j < loc->nframes; j++)
		if (!hid[loc->first + j] && k++ == e)
			return j;
	return e;
}

/* Stack s's elements into *buf: root first, or the leaf first (and a
 * location's innermost frame first) when reverse. Returns their count. */
static size_t stack_items(const struct jh_coll *c, uint32_t s, int reverse, struct fitem **buf,
			  size_t *alloc)
{
	const struct jh_graph *g = c->g;
	const struct jh_gstack *gs = &g->stacks[s];
	const uint32_t *locs = g->locpool + gs->off;
	size_t n = 0;
	for (uint32_t k = 0; k < gs->len; k++) {
		uint32_t l = locs[reverse ? k : gs->len - 1 - k];
		uint32_t a = c->eoff[l], ne = c->eoff[l + 1] - a;
		JH_GROW(*buf, n + ne, *alloc);
		for (uint32_t j = 0; j < ne; j++) {
			uint32_t e = reverse ? ne - 1 - j : j;
			(*buf)[n++] = (struct fitem){ c->rk[a + e], l, elem_level(g, l, e) };
		}
	}
	return n;
}

struct rstack {
	const struct fitem *p;
	size_t n;
	uint32_t s;
};

static int cmp_rstack(const void *pa, const void *pb)
{
	const struct rstack *a = pa, *b = pb;
	for (size_t i = 0; i < a->n && i < b->n; i++)
		if (a->p[i].rank != b->p[i].rank)
			return a->p[i].rank < b->p[i].rank ? -1 : 1;
	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	return a->s < b->s ? -1 : a->s > b->s;
}

/* --reverse: the stacks ordered by their reversed elements (which makes
 * the merge a true tree). */
static void reverse_order(const struct jh_coll *c, uint32_t *order)
{
	size_t ns = c->g->nstacks, npool = 0, alloc = 0, ialloc = 0;
	struct fitem *pool = NULL, *it = NULL;
	size_t *off = xmalloc(jh_st_mult(ns + 1, sizeof(*off)));
	for (size_t s = 0; s < ns; s++) {
		size_t n = stack_items(c, (uint32_t)s, 1, &it, &ialloc);
		JH_GROW(pool, npool + n, alloc);
		if (n)
			memcpy(pool + npool, it, n * sizeof(*it));
		off[s] = npool;
		npool += n;
	}
	off[ns] = npool;
	struct rstack *r = xmalloc(jh_st_mult(ns ? ns : 1, sizeof(*r)));
	for (size_t s = 0; s < ns; s++)
		r[s] = (struct rstack){ pool + off[s], off[s + 1] - off[s], (uint32_t)s };
	qsort(r, ns, sizeof(*r), cmp_rstack);
	for (size_t s = 0; s < ns; s++)
		order[s] = r[s].s;
	free(r);
	free(off);
	free(pool);
	free(it);
}

static uint32_t new_node(struct jh_flame *f, uint32_t rank, uint32_t depth, uint32_t loc,
			 uint32_t level, int64_t start)
{
	JH_GROW(f->n, f->nn + 1, f->alloc);
	f->n[f->nn] = (struct jh_fnode){ rank, depth, loc, level, start, 0, 0, 0, 0 };
	return (uint32_t)f->nn++;
}

/* Sums the lines' widths (the root's), sets f->width and f->wpt; returns
 * the width below which a frame is not drawn (flamegraph.pl's
 * minwidth_time). */
static double min_width_time(struct jh_flame *f)
{
	const struct jh_graph *g = f->g;
	int widths_before = f->o->base_widths && g->has_base;
	int64_t total = 0;
	for (size_t s = 0; s < g->nstacks; s++) {
		const struct jh_gstack *gs = &g->stacks[s];
		int64_t w = jh_perl_int(widths_before ? gs->before
					: g->has_base ? gs->after
						      : gs->v);
		total += w > 0 ? w : 0;
	}
	f->width = f->o->width > 2 * JH_FLAME_XPAD + 1 ? f->o->width : 2 * JH_FLAME_XPAD + 1;
	f->wpt = (f->width - 2 * JH_FLAME_XPAD) / (double)(total > 0 ? total : 1);
	return f->o->minwidth / f->wpt;
}

static int cmp_desc(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
	return a < b ? 1 : a > b ? -1 : 0;
}

/* At most o->maxframes frames (and the root): the narrowest are left out
 * (a frame is never wider than its parent, so the tree stays whole);
 * f->min_px says how wide a frame drawn is at least. */
static void cap_frames(struct jh_flame *f)
{
	size_t cap = f->o->maxframes;
	f->min_px = f->o->minwidth;
	if (!cap || f->nn <= cap + 1)
		return;
	int64_t *w = xmalloc(jh_st_mult(f->nn - 1, sizeof(*w)));
	for (size_t i = 1; i < f->nn; i++)
		w[i - 1] = f->n[i].width;
	qsort(w, f->nn - 1, sizeof(*w), cmp_desc);
	int64_t thr = w[cap]; /* the widest left out; frames wider stay */
	free(w);
	size_t k = 1;
	for (size_t i = 1; i < f->nn; i++)
		if (f->n[i].width > thr)
			f->n[k++] = f->n[i];
	f->hidden += f->nn - k;
	f->nn = k;
	double px = (double)thr * f->wpt;
	f->min_px = px > f->min_px ? px : f->min_px;
}

void jh_flame_build(struct jh_flame *f, const struct jh_graph *g, const struct jh_flame_opts *o)
{
	memset(f, 0, sizeof(*f));
	f->g = g;
	f->o = o;
	jh_sb_init(&f->counts);
	uint32_t *order = jh_coll_open(&f->c, g, &f->strs, &f->counts, 0);
	if (o->reverse)
		reverse_order(&f->c, order);
	new_node(f, UINT32_MAX, 0, UINT32_MAX, 0, 0);
	struct fitem *cur = NULL, *prev = NULL;
	size_t ncur = 0, nprev = 0, acur = 0, aprev = 0, apath = 0;
	uint32_t *path = NULL; /* the open frames, by depth */
	JH_GROW(path, 1, apath);
	path[0] = 0;
	int64_t t = 0;
	int widths_before = o->base_widths && g->has_base;
	double min_time = min_width_time(f);
	for (size_t i = 0; i <= g->nstacks; i++) {
		ncur = i < g->nstacks ? stack_items(&f->c, order[i], o->reverse, &cur, &acur) : 0;
		size_t k = 0;
		while (k < ncur && k < nprev && cur[k].rank == prev[k].rank)
			k++;
		/* the frames closed, deepest first: one too narrow is dropped
		 * with its descendants, the last nodes made */
		for (size_t d = nprev; d > k; d--) {
			if ((double)f->n[path[d]].width < min_time) {
				f->hidden += f->nn - path[d];
				f->nn = path[d];
			}
		}
		if (i == g->nstacks)
			break;
		const struct jh_gstack *gs = &g->stacks[order[i]];
		JH_GROW(path, ncur + 1, apath);
		for (size_t j = k; j < ncur; j++)
			path[j + 1] = new_node(f, cur[j].rank, (uint32_t)(j + 1), cur[j].loc,
					       cur[j].level, t);
		int64_t a = jh_perl_int(g->has_base ? gs->after : gs->v);
		int64_t b = g->has_base ? jh_perl_int(gs->before) : 0;
		int64_t w = widths_before ? b : a, v2 = jh_perl_int(gs->v2);
		if (w < 0)
			w = 0;
		for (size_t d = 0; d <= ncur; d++) {
			struct jh_fnode *n = &f->n[path[d]];
			n->width += w;
			n->after += a;
			n->before += b;
			n->v2 += v2;
		}
		t += w;
		struct fitem *tp = prev;
		prev = cur;
		cur = tp;
		size_t ta = aprev;
		aprev = acur;
		acur = ta;
		nprev = ncur;
	}
	free(path);
	free(cur);
	free(prev);
	free(order);
	cap_frames(f);
}

void jh_flame_release(struct jh_flame *f)
{
	jh_coll_close(&f->c);
	jh_arena_release(&f->strs);
	jh_sb_release(&f->counts);
	free(f->n);
}
