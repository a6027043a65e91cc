/*
 * model_maps.c - the mappings of the files read, kept for the reports that
 * write them (--proto): executable file mappings, each distinct one once.
 */
#include "model_internal.h"

#include <stdlib.h>
#include <string.h>

static int same_map(const struct jh_mapping *a, const struct jh_mapping *b)
{
	return a->start == b->start && a->end == b->end && a->offset == b->offset &&
	       strcmp(a->path, b->path) == 0;
}

static int cmp_map(const void *a, const void *b)
{
	const struct jh_mapping *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

void jh_model_keep_maps(struct jh_model *m, const struct jh_profile *p)
{
	if (!m->period)
		m->period = p->period;
	if (p->values && (!m->values || (m->values & ~p->values))) {
		m->values = m->values ? m->values & p->values : p->values;
		m->types_file = jh_intern(&m->names, p->source ? p->source : "-");
		m->types = jh_intern(&m->names, p->types ? p->types : "");
	}
	size_t alloc = m->nmaps, n0 = m->nmaps;
	for (size_t i = 0; i < p->nmaps; i++) {
		const struct jh_mapping *mp = &p->maps[i];
		if (!mp->path || !mp->path[0] || !strchr(mp->perms, 'x') || mp->end <= mp->start)
			continue;
		int dup = 0;
		for (size_t k = 0; k < n0 && !dup; k++) /* few files, few maps each */
			dup = same_map(&m->maps[k], mp);
		if (dup)
			continue;
		JH_GROW(m->maps, m->nmaps + 1, alloc);
		m->maps[m->nmaps] = *mp;
		m->maps[m->nmaps++].path = xstrdup(mp->path);
	}
	jh_qsort(m->maps, m->nmaps, sizeof(*m->maps), cmp_map);
}

void jh_model_keep_input(struct jh_model *m, const struct jh_profile *p, int is_base)
{
	m->inputs = xrealloc(m->inputs, jh_st_mult(m->ninputs + 1, sizeof(*m->inputs)));
	m->inputs[m->ninputs++] = (struct jh_model_input){
		.file = jh_intern(&m->names, p->source ? p->source : "-"),
		.format = p->format,
		.period = p->period,
		.is_base = is_base,
		.nstacks = p->nstacks,
		.nthreads = p->nthreads,
	};
}

void jh_model_release_maps(struct jh_model *m)
{
	free(m->inputs);
	m->inputs = NULL;
	m->ninputs = 0;
	for (size_t i = 0; i < m->nmaps; i++)
		free(m->maps[i].path);
	free(m->maps);
	m->maps = NULL;
	m->nmaps = 0;
}

const struct jh_mapping *jh_model_mapping(const struct jh_model *m, uint64_t pc, const char *module)
{
	size_t lo = 0, hi = m->nmaps;
	while (lo < hi) { /* the first mapping starting after pc */
		size_t mid = lo + (hi - lo) / 2;
		if (m->maps[mid].start <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	const struct jh_mapping *any = NULL;
	for (size_t i = lo; i-- > 0;) {
		const struct jh_mapping *mp = &m->maps[i];
		if (pc >= mp->end)
			continue;
		if (!module || strcmp(mp->path, module) == 0)
			return mp;
		if (!any)
			any = mp;
	}
	return any;
}
