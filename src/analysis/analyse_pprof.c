/*
 * analyse_pprof.c - what Go pprof reads of jeheap's --proto, for the views
 * that print as pprof does (--traces, --tree, --peek): every value of each
 * stack (the proto's sample values), and pprof's total, which it takes
 * before its own filters: the sum of |round(v)| over the proto's samples.
 * With --focus, --ignore or a frame filter that total is over the stacks
 * as they were before those filters (merged as --proto merges them).
 *
 * Also the full-signature test of --focus and --ignore (analyse.c).
 */
#include "analyse_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct jh_pprof_acc {
	int prefilter;
	struct jh_seqset set; /* the stacks before the filters */
	uint32_t *pool;
	size_t npool, pool_alloc;
	double *v;     /* per stack of set */
	uint32_t *gid; /* per stack of set: its graph stack, UINT32_MAX = none yet */
	size_t nv, v_alloc, gid_alloc;
	uint32_t last;  /* the stack of set last added */
	size_t nvalues; /* rows of g->values allocated */
};

struct jh_pprof_acc *jh_pprof_acc_new(int prefilter)
{
	struct jh_pprof_acc *a = xcalloc(1, sizeof(*a));
	a->prefilter = prefilter;
	jh_seqset_init(&a->set);
	return a;
}

void jh_pprof_acc_add(struct jh_pprof_acc *a, const uint32_t *locs, size_t n, double v)
{
	if (!a->prefilter)
		return;
	JH_GROW(a->pool, a->npool + n, a->pool_alloc);
	if (n)
		memcpy(a->pool + a->npool, locs, n * sizeof(*locs));
	int added;
	uint32_t id = jh_seqset_put(&a->set, a->pool, a->npool, (uint32_t)n, &added);
	if (added) {
		a->npool += n;
		JH_GROW(a->v, a->nv + 1, a->v_alloc);
		JH_GROW(a->gid, a->nv + 1, a->gid_alloc);
		a->gid[a->nv] = UINT32_MAX;
		a->v[a->nv++] = 0;
	}
	a->v[id] += v;
	a->last = id;
}

uint32_t jh_pprof_stack_id(struct jh_pprof_acc *a, uint32_t next, int *added)
{
	*added = a->gid[a->last] == UINT32_MAX;
	if (*added)
		a->gid[a->last] = next;
	return a->gid[a->last];
}

void jh_pprof_values(struct jh_pprof_acc *a, struct jh_graph *g, uint32_t id,
		     const struct jh_counts *c)
{
	if (id >= a->nvalues) {
		size_t n = a->nvalues;
		JH_GROW(g->values, (size_t)id + 1, a->nvalues);
		memset(g->values + n, 0, (a->nvalues - n) * sizeof(*g->values));
	}
	for (int k = 0; k < JH_NVALUES; k++)
		g->values[id][k] += c->v[k];
}

/* The proto's value of a sample (report_proto.c). */
static int64_t proto_value(double v)
{
	int64_t x = isfinite(v) ? (int64_t)llround(v) : 0;
	return x < 0 ? -x : x;
}

void jh_pprof_acc_finish(struct jh_pprof_acc *a, struct jh_graph *g)
{
	int64_t t = 0;
	if (a->prefilter) {
		for (size_t i = 0; i < a->nv; i++)
			t += proto_value(a->v[i]);
	} else {
		for (size_t i = 0; i < g->nstacks; i++)
			t += proto_value(g->stacks[i].v);
	}
	g->pprof_total = t;
}

void jh_pprof_acc_free(struct jh_pprof_acc *a)
{
	if (!a)
		return;
	jh_seqset_release(&a->set);
	free(a->pool);
	free(a->v);
	free(a->gid);
	free(a);
}

int jh_loc_matches_full(const struct jh_location *l, const struct jh_model *m, struct jh_filter *re,
			struct jh_sb *sb)
{
	if (!l->nframes) {
		jh_sb_reset(sb);
		jh_unknown_name(sb, l);
		return jh_filter_match(re, sb->buf, sb->len);
	}
	for (uint32_t i = 0; i < l->nframes; i++) {
		const char *f = m->frames.items[l->first + i].func;
		if (jh_filter_match_interned(re, f ? f : "??"))
			return 1;
	}
	return 0;
}

void jh_graph_leafpos(const struct jh_graph *g, uint8_t *leafpos)
{
	for (size_t s = 0; s < g->nstacks; s++) {
		const uint32_t *locs = g->locpool + g->stacks[s].off;
		int first = 1;
		for (uint32_t i = 0; i < g->stacks[s].len; i++) {
			if (g->m->locs[locs[i]].pc > 0x7fffffffffffffffULL)
				continue;
			leafpos[locs[i]] |= first ? 1 : 2;
			first = 0;
		}
	}
}
