/* series.c - the series table (series.h): rows per function or stack, their
 * values at each dump, growth, noise and the leak suspects. */
#include "jeheap/gate.h"
#include "jeheap/series.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct series_priv {
	struct jh_u64map row_by_name; /* interned name -> row id */
	struct jh_sb sb;
};

void jh_series_init(struct jh_series *s, size_t ndumps, int stacks, int by_cum)
{
	memset(s, 0, sizeof(*s));
	jh_intern_init(&s->names);
	s->ndumps = ndumps;
	s->dumps = xcalloc(ndumps ? ndumps : 1, sizeof(*s->dumps));
	s->stacks = stacks;
	s->by_cum = by_cum;
	struct series_priv *p = xcalloc(1, sizeof(*p));
	jh_u64map_init(&p->row_by_name);
	jh_sb_init(&p->sb);
	s->priv = p;
}

void jh_series_release(struct jh_series *s)
{
	struct series_priv *p = s->priv;
	if (p) {
		jh_u64map_release(&p->row_by_name);
		jh_sb_release(&p->sb);
		free(p);
	}
	for (size_t i = 0; i < s->nrows; i++) {
		free(s->rows[i].v);
		free(s->rows[i].v2);
	}
	free(s->rows);
	free(s->dumps);
	free(s->suspects);
	jh_intern_release(&s->names);
	memset(s, 0, sizeof(*s));
}

/* Adds v (and companion v2) to row name at dump i. */
static void add_value(struct jh_series *s, size_t i, const char *name, size_t n, double v,
		      double v2)
{
	struct series_priv *p = s->priv;
	const char *k = jh_intern_n(&s->names, name, n);
	int added;
	uint64_t *slot = jh_u64map_put(&p->row_by_name, (uint64_t)(uintptr_t)k, &added);
	if (added) {
		JH_GROW(s->rows, s->nrows + 1, s->rows_alloc);
		struct jh_series_row *r = &s->rows[s->nrows];
		memset(r, 0, sizeof(*r));
		r->name = k;
		r->v = xcalloc(s->ndumps, sizeof(*r->v));
		r->v2 = xcalloc(s->ndumps, sizeof(*r->v2));
		*slot = s->nrows++;
	}
	struct jh_series_row *r = &s->rows[*slot];
	r->v[i] += v;
	r->v2[i] += v2;
}

/* A filtered stack's name: its frames' keys, root first, ';' between. */
static void stack_name(struct jh_sb *sb, const struct jh_graph *g, const struct jh_gstack *gs)
{
	const uint32_t *locs = g->locpool + gs->off;
	jh_sb_reset(sb);
	for (uint32_t i = gs->len; i-- > 0;) {
		uint32_t n;
		const uint32_t *keys = jh_graph_stack_keys(g, locs, i, &n);
		for (uint32_t j = n; j-- > 0;) { /* outermost inline level first */
			if (sb->len)
				jh_sb_addc(sb, ';');
			jh_sb_adds(sb, g->nodes[keys[j]].label);
		}
	}
}

void jh_series_add(struct jh_series *s, size_t i, const struct jh_graph *g, const char *source,
		   uint64_t period)
{
	struct series_priv *p = s->priv;
	struct jh_series_dump *dp = &s->dumps[i];
	dp->source = jh_intern(&s->names, source);
	jh_dump_name_parse(source, &dp->name);
	dp->period = period;
	dp->total = g->total;
	dp->local = g->local_total;
	double before;
	jh_gate_totals(g, &before, &dp->kept);
	s->value = g->value;
	s->unit = g->unit;
	s->unit_name = g->unit_name;
	if (s->stacks) {
		for (size_t k = 0; k < g->nstacks; k++) {
			const struct jh_gstack *gs = &g->stacks[k];
			if (!gs->len || (gs->v == 0 && gs->v2 == 0))
				continue;
			stack_name(&p->sb, g, gs);
			add_value(s, i, p->sb.buf, p->sb.len, gs->v, gs->v2);
		}
		return;
	}
	for (size_t k = 0; k < g->nnodes; k++) {
		const struct jh_node *nd = &g->nodes[k];
		double v = s->by_cum ? nd->cum : nd->flat, v2 = s->by_cum ? nd->cum2 : nd->flat2;
		if (v != 0 || v2 != 0)
			add_value(s, i, nd->label, strlen(nd->label), v, v2);
	}
}

/* Threshold between dumps a and b of row r (b the later one). */
static double noise_between(const struct jh_series *s, const struct jh_series_row *r, size_t a,
			    size_t b)
{
	double t = jh_series_noise_bytes(s->dumps[a].period, s->dumps[b].period);
	if (s->value != JH_INUSE_OBJECTS && s->value != JH_ALLOC_OBJECTS)
		return t;
	/* objects: the bytes' threshold over the row's average object size */
	size_t at = r->v[b] > 0 ? b : a;
	if (r->v[at] > 0 && r->v2[at] > 0)
		return t * r->v[at] / r->v2[at];
	return t;
}

double jh_series_noise(const struct jh_series *s, const struct jh_series_row *r, size_t i)
{
	return noise_between(s, r, i, i + 1);
}

static int cmp_rows(const void *a, const void *b)
{
	const struct jh_series_row *x = a, *y = b;
	double vx = jh_sort_value(x->last), vy = jh_sort_value(y->last);
	if (vx != vy)
		return vx > vy ? -1 : 1;
	vx = jh_sort_value(x->maxv), vy = jh_sort_value(y->maxv);
	if (vx != vy)
		return vx > vy ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Suspects (pointers to rows): by growth descending, then name. */
static int cmp_suspects(const void *a, const void *b)
{
	const struct jh_series_row *x = *(const struct jh_series_row *const *)a;
	const struct jh_series_row *y = *(const struct jh_series_row *const *)b;
	double gx = jh_sort_value(x->growth), gy = jh_sort_value(y->growth);
	if (gx != gy)
		return gx > gy ? -1 : 1;
	return strcmp(x->name, y->name);
}

void jh_series_finish(struct jh_series *s)
{
	size_t nd = s->ndumps, kept = 0;
	if (!nd)
		return;
	for (size_t k = 0; k < s->nrows; k++) {
		struct jh_series_row *r = &s->rows[k];
		int nonzero = 0;
		r->maxv = r->v[0];
		for (size_t i = 0; i < nd; i++) {
			nonzero |= r->v[i] != 0;
			if (r->v[i] > r->maxv)
				r->maxv = r->v[i];
		}
		if (!nonzero) {
			free(r->v);
			free(r->v2);
			continue;
		}
		r->last = r->v[nd - 1];
		r->growth = r->last - r->v[0];
		for (size_t i = 0; i + 1 < nd; i++) {
			double t = noise_between(s, r, i, i + 1), dv = r->v[i + 1] - r->v[i];
			r->up += dv > t;
			r->down += -dv > t;
		}
		s->rows[kept++] = *r;
	}
	s->nrows = kept;
	jh_qsort(s->rows, s->nrows, sizeof(*s->rows), cmp_rows);
	const struct jh_series_row **sus = xmalloc((s->nrows ? s->nrows : 1) * sizeof(*sus));
	size_t steps = nd - 1;
	for (size_t k = 0; k < s->nrows; k++) {
		const struct jh_series_row *r = &s->rows[k];
		if (steps && !r->down && 2 * (size_t)r->up > steps &&
		    r->growth > noise_between(s, r, 0, nd - 1))
			sus[s->nsuspects++] = r;
	}
	jh_qsort(sus, s->nsuspects, sizeof(*sus), cmp_suspects);
	s->suspects = xmalloc((s->nsuspects ? s->nsuspects : 1) * sizeof(*s->suspects));
	for (size_t j = 0; j < s->nsuspects; j++) {
		s->suspects[j] = (uint32_t)(sus[j] - s->rows);
		s->rows[s->suspects[j]].suspect = (int)j + 1;
	}
	free(sus);
	/* the name index points at rows that moved: no more jh_series_add */
	struct series_priv *p = s->priv;
	jh_u64map_release(&p->row_by_name);
	jh_u64map_init(&p->row_by_name);
}
