/*
 * symbolize_cache.c - the symbolizer's answers to and from the symbol cache
 * on disk (sym_cache.c): loaded when a module opens, saved after a run.
 */
#include "jeheap/trace.h"
#include "sym_cache.h"
#include "symbolizer.h"

#include <stdlib.h>
#include <string.h>

/* Adds the answers of f that m lacks to the symbolizer's answers. */
static void cache_add(struct jh_symbolizer *s, struct jh_module *m, struct jh_symcache_file *f)
{
	for (size_t i = 0; i < f->nrecs; i++) {
		const struct jh_symcache_rec *r = &f->recs[i];
		int added;
		if (r->addr == UINT64_MAX)
			continue;
		uint64_t *v = jh_u64map_put(&m->cache, r->addr, &added);
		if (!added)
			continue;
		*v = s->nres;
		JH_GROW(s->res, s->nres + 1, s->ares);
		s->res[s->nres++] = (struct cached){ r->status, (uint32_t)s->nframes, r->nframes };
		if (r->nframes == 0)
			continue;
		JH_GROW(s->frames, s->nframes + r->nframes, s->aframes);
		/* the file's strings, each once, stay where they are (kept by m) */
		memcpy(s->frames + s->nframes, f->frames + r->first,
		       r->nframes * sizeof(*s->frames));
		s->nframes += r->nframes;
	}
	JH_GROW(m->cache_bufs, m->ncache_bufs + 1, m->acache_bufs);
	m->cache_bufs[m->ncache_bufs++] = f->buf;
	f->buf = NULL;
}

void jh_symbolizer_cache_load(struct jh_symbolizer *s, struct jh_module *m)
{
	if (!s->o.cache_dir || !m->usable)
		return;
	jh_module_cache_id(m);
	struct jh_symcache_file f;
	JH_TRACE("cache %s: read", m->mappath);
	if (jh_symcache_read(s->o.cache_dir, m->cache_name, m->cache_sig, 0, &f) == 1) {
		JH_TRACE("cache %s: %zu answers", m->mappath, f.nrecs);
		if (f.state >= 0 && !m->load_known) /* what the run that read the DWARF said */
			jh_module_loaded(m, f.state, f.reason, f.warning);
		cache_add(s, m, &f);
	}
	jh_symcache_file_release(&f);
	JH_TRACE("cache %s: added", m->mappath);
}

void jh_symbolizer_cache_save(struct jh_symbolizer *s)
{
	for (size_t i = 0; s->o.cache_dir && i < s->nmods; i++) {
		struct jh_module *m = s->mods[i];
		if (!m->cache_new || !m->cache_name)
			continue;
		m->cache_new = 0;
		struct jh_symcache_file f;
		if (jh_symcache_read(s->o.cache_dir, m->cache_name, m->cache_sig, 1, &f) == 1)
			cache_add(s, m, &f);
		jh_symcache_file_release(&f);
		struct jh_symcache_rec *r = xmalloc(jh_st_mult(m->cache.nr + 1, sizeof(*r)));
		size_t n = 0;
		for (size_t k = 0; k < m->cache.cap; k++) {
			uint64_t v = m->cache.vals[k];
			if (m->cache.keys[k] == UINT64_MAX || v == PENDING)
				continue;
			const struct cached *c = &s->res[v];
			r[n++] = (struct jh_symcache_rec){ m->cache.keys[k], c->first, c->nframes,
							   c->status };
		}
		struct jh_symcache_state st = { m->load_known ? m->load_state : -1, m->reason,
						m->warning };
		jh_symcache_write(s->o.cache_dir, m->cache_name, m->cache_sig, &st, r, n, s->frames,
				  s->o.cache_size);
		free(r);
	}
}
