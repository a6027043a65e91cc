/* analyse_fixture.h - hand-built profiles and models for the analysis and
 * report unit tests (no file reader involved). */
#ifndef JH_TEST_ANALYSE_FIXTURE_H
#define JH_TEST_ANALYSE_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include "jeheap/analyse.h"
#include "model_internal.h"
#include "jeheap/options.h"

static inline void tp_init(struct jh_profile *p)
{
	memset(p, 0, sizeof(*p));
	p->format = JH_FMT_HEAP_V2;
	p->has_symbols = 1;
}

/* Symbol line "0x<pc> names" (kept sorted by pc). */
static inline void tp_sym(struct jh_profile *p, uint64_t pc, const char *names)
{
	JH_GROW(p->syms, p->nsyms + 1, p->syms_alloc);
	size_t i = p->nsyms++;
	while (i > 0 && p->syms[i - 1].pc > pc) {
		p->syms[i] = p->syms[i - 1];
		i--;
	}
	p->syms[i].pc = pc;
	p->syms[i].names = xstrdup(names);
}

/* A mapping [start, end) of path at file offset 0. */
static inline void tp_map(struct jh_profile *p, uint64_t start, uint64_t end, const char *path)
{
	JH_GROW(p->maps, p->nmaps + 1, p->maps_alloc);
	struct jh_mapping *mp = &p->maps[p->nmaps++];
	memset(mp, 0, sizeof(*mp));
	mp->start = start;
	mp->end = end;
	memcpy(mp->perms, "r-xp", 5);
	mp->path = xstrdup(path);
}

/* A stack (pcs leaf first) with in-use bytes and objects; returns its index. */
static inline uint32_t tp_stack(struct jh_profile *p, const uint64_t *pcs, uint32_t n, double bytes,
				double objects)
{
	JH_GROW(p->pcs, p->npcs + n, p->pcs_alloc);
	memcpy(p->pcs + p->npcs, pcs, n * sizeof(*pcs));
	JH_GROW(p->stacks, p->nstacks + 1, p->stacks_alloc);
	struct jh_stack *s = &p->stacks[p->nstacks];
	memset(s, 0, sizeof(*s));
	s->off = p->npcs;
	s->len = n;
	s->c.v[JH_INUSE_SPACE] = bytes;
	s->c.v[JH_INUSE_OBJECTS] = objects;
	s->c.v[JH_ALLOC_SPACE] = bytes * 2;
	s->c.v[JH_ALLOC_OBJECTS] = objects * 2;
	p->npcs += n;
	return (uint32_t)p->nstacks++;
}

static inline void tp_thread_sample(struct jh_profile *p, uint64_t uid, uint32_t stack,
				    double bytes)
{
	uint32_t t = 0;
	while (t < p->nthreads && p->threads[t].uid != uid)
		t++;
	if (t == p->nthreads) {
		JH_GROW(p->threads, p->nthreads + 1, p->threads_alloc);
		p->threads[t].uid = uid;
		p->threads[t].name = NULL;
		p->nthreads++;
	}
	JH_GROW(p->tsamples, p->ntsamples + 1, p->tsamples_alloc);
	struct jh_tsample *ts = &p->tsamples[p->ntsamples++];
	memset(ts, 0, sizeof(*ts));
	ts->thread = t;
	ts->stack = stack;
	ts->c.v[JH_INUSE_SPACE] = bytes;
}

static inline void tp_release(struct jh_profile *p)
{
	for (size_t i = 0; i < p->nsyms; i++)
		free(p->syms[i].names);
	free(p->syms);
	for (size_t i = 0; i < p->nmaps; i++)
		free(p->maps[i].path);
	free(p->maps);
	free(p->pcs);
	free(p->stacks);
	free(p->threads);
	free(p->tsamples);
	memset(p, 0, sizeof(*p));
}

/* Model of the one profile p (released); asserts success. */
static inline void tm_single(struct jh_model *m, struct jh_profile *p)
{
	struct jh_diag d;
	jh_model_init(m, 0);
	assert_int_equal(jh_model_add_profile(m, p, 0, NULL, &d), 0);
	tp_release(p);
	jh_model_finish(m, 0, 0);
}

static inline void topts_init(struct jh_options *o)
{
	memset(o, 0, sizeof(*o));
	o->value = JH_INUSE_SPACE;
	o->granularity = JH_GRAN_FUNCTIONS;
	o->show_bytes = 1;
	o->top_n = 10;
}

/* Node by key, or NULL. */
static inline const struct jh_node *tg_node(const struct jh_graph *g, const char *key)
{
	for (size_t i = 0; i < g->nnodes; i++)
		if (!strcmp(g->nodes[i].key, key))
			return &g->nodes[i];
	return NULL;
}

/* jh_analyse with the analysis options of o; run_ids as jh_analysis_opts. */
static inline int ta_analyse(struct jh_graph *g, const struct jh_model *m,
			     const struct jh_options *o, int t, struct jh_u64map *run_ids,
			     struct jh_diag *d)
{
	struct jh_analysis_opts ao = jh_options_analysis(o, run_ids);
	return jh_analyse(g, m, &ao, t, d);
}

#endif
