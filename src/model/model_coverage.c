/* model_coverage.c - --coverage: how well the model's locations were
 * symbolized, weighted by the in-use bytes of the stacks they are in. */
#include "jeheap/model.h"

#include <stdlib.h>
#include <string.h>

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

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* _start and the dynamic loader: never with lines, never a problem. */
static int normal(const struct jh_model *m, const struct jh_location *l)
{
	if (l->module && !strncmp(base_name(l->module), "ld-linux", 8))
		return 1;
	return l->nframes && m->frames.items[l->first].func &&
	       !strcmp(m->frames.items[l->first].func, "_start");
}

int jh_model_coverage_tally(const struct jh_model *m, struct jh_coverage *c)
{
	memset(c, 0, sizeof(*c));
	size_t nraw = 0, amods = 0;
	for (size_t i = 0; i < m->nlocs; i++)
		nraw += m->locs[i].status != JH_SYM_EMBEDDED;
	if (!nraw)
		return 0;
	double *bytes = xmalloc(jh_st_mult(m->nlocs, sizeof(*bytes)));
	jh_model_loc_bytes(m, bytes);
	for (size_t i = 0; i < m->nlocs; i++) {
		const struct jh_location *l = &m->locs[i];
		if (l->status == JH_SYM_EMBEDDED || l->allocator || normal(m, l))
			continue;
		c->total_bytes += bytes[i];
		if (l->status == JH_SYM_FULL)
			c->full_bytes += bytes[i];
		if (!l->module)
			continue;
		size_t j = 0;
		while (j < c->nmods && c->mods[j].module != l->module)
			j++; /* interned: pointer equality */
		if (j == c->nmods) {
			JH_GROW(c->mods, c->nmods + 1, amods);
			c->mods[c->nmods++] = (struct jh_coverage_module){ l->module, 0, 0, 0, 0 };
		}
		struct jh_coverage_module *cm = &c->mods[j];
		if (l->status == JH_SYM_FULL)
			cm->full++;
		else
			cm->bytes_short += bytes[i];
		cm->symbol += l->status == JH_SYM_SYMBOL;
		cm->unknown += l->status == JH_SYM_UNKNOWN;
	}
	free(bytes);
	return 1;
}
