/* model_coverage.c - --coverage: how well the model's locations were
 * symbolized, weighted by the in-use bytes of the stacks they are in. */
#include "jeheap/model.h"

#include <stdlib.h>

void jh_model_loc_bytes(const struct jh_model *m, double *bytes)
{
	uint32_t *stamp = xcalloc(m->nlocs ? m->nlocs : 1, sizeof(*stamp));
	for (size_t i = 0; i < m->nlocs; i++)
		bytes[i] = 0;
	for (size_t s = 0; s < m->nstacks; s++) {
		const struct jh_mstack *ms = &m->stacks[s];
		for (uint32_t k = 0; k < ms->len; k++) {
			uint32_t l = m->locpool[ms->off + k];
			if (stamp[l] == s + 1)
				continue;
			stamp[l] = (uint32_t)s + 1;
			bytes[l] += ms->c.v[JH_INUSE_SPACE] +
				    (m->stack_base ? m->stack_base[s].v[JH_INUSE_SPACE] : 0);
		}
	}
	free(stamp);
}

void jh_model_coverage(const struct jh_model *m, FILE *f)
{
	size_t n = 0;
	for (size_t i = 0; i < m->nlocs; i++)
		n += m->locs[i].status != JH_SYM_EMBEDDED;
	if (!n)
		return; /* names from the files only (.symbolized): nothing to say */
	uint32_t *idx = xmalloc(jh_st_mult(m->nlocs, sizeof(*idx)));
	n = 0;
	for (size_t i = 0; i < m->nlocs; i++)
		idx[i] = m->locs[i].status == JH_SYM_EMBEDDED ? UINT32_MAX : (uint32_t)n++;
	double *locbytes = xmalloc(jh_st_mult(m->nlocs, sizeof(*locbytes)));
	jh_model_loc_bytes(m, locbytes);
	double *bytes = xcalloc(n, sizeof(*bytes));
	struct jh_symresult *res = xcalloc(n, sizeof(*res));
	for (size_t i = 0; i < m->nlocs; i++) {
		if (idx[i] == UINT32_MAX)
			continue;
		bytes[idx[i]] = locbytes[i];
		const struct jh_location *l = &m->locs[i];
		struct jh_symresult *r = &res[idx[i]];
		r->module = l->module;
		r->modaddr = l->modaddr;
		r->status = l->status;
		r->allocator = l->allocator;
		r->first = l->first;
		r->nframes = l->nframes;
	}
	jh_symbolize_coverage(f, res, bytes, n);
	free(res);
	free(locbytes);
	free(bytes);
	free(idx);
}
