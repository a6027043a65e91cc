/*
 * sym_units_module.c - a module's answers from its cached unit index, and
 * writing that index (sym_units.h, dwarf_units.h).
 */
#include "sym_module.h"

#include "jeheap/trace.h"

#include <stdlib.h>

/* Opens m's unit file once; whether there is a valid one. */
static int have_units(struct jh_module *m, const char *cache_dir)
{
	if (!m->units_tried) {
		m->units_tried = 1;
		char *name = jh_unitfile_name(m->cache_name);
		jh_unitfile_open(cache_dir, name, m->cache_sig, &m->units);
		free(name);
	}
	return m->units != NULL;
}

int jh_module_units_answer(struct jh_module *m, const char *cache_dir, int jobs, const uint64_t *a,
			   size_t n, struct jh_dwarf_answer **ans, struct jh_dwarf_frame **df,
			   size_t *ndf)
{
	if (!cache_dir || !m->usable || !m->dbg || !m->cache_name || m->loaded ||
	    !have_units(m, cache_dir))
		return 0;
	struct jh_diag d = { { 0 }, 0 };
	*ans = xcalloc(n + 1, sizeof(**ans));
	int rc = jh_unit_index_lookup(jh_unitfile_index(m->units), a, n, jobs, &m->ustrings, *ans,
				      df, ndf, &d);
	JH_TRACE("resolve: %zu addresses of %s from the unit index: %d", n, m->mappath, rc);
	if (rc == 0) {
		jh_module_load_symbols(m);
		return 1;
	}
	free(*ans);
	*ans = NULL;
	if (rc < 0) {
		jh_unitfile_reject(m->units, d.msg);
		jh_unitfile_close(m->units);
		m->units = NULL;
	}
	return 0;
}

void jh_module_units_write(struct jh_module *m, const struct jh_symbolizer_opts *o)
{
	if (!o->cache_dir || !m->usable || !m->dbg || !m->cache_name || m->units_written)
		return;
	m->units_written = 1;
	if (have_units(m, o->cache_dir))
		return;
	jh_module_load(m);
	if (!m->dw)
		return;
	struct jh_unit_index ix;
	struct jh_diag d = { { 0 }, 0 };
	JH_TRACE("units %s: export", m->mappath);
	if (jh_dwarf_export(m->dw, o->jobs, 3, &ix, &d) != 0) {
		jh_warn("%s: no unit index cached: %s", m->mappath, d.msg);
		return;
	}
	JH_TRACE("units %s: exported %zu units", m->mappath, ix.nunits);
	char *name = jh_unitfile_name(m->cache_name);
	jh_unitfile_write(o->cache_dir, name, m->cache_sig, &ix, o->cache_size);
	JH_TRACE("units %s: written", m->mappath);
	free(name);
	jh_unit_index_free(&ix);
}
