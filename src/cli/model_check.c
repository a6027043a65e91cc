/* model_check.c - whether a built model can give the report asked for (cli.h). */
#include "cli.h"

#include "jeheap/model.h"

/* Every location named by a .symbolized file (no file:line anywhere), where
 * jeprof refuses --lines ("--lines cannot be used without a binary"). */
static int names_only(const struct jh_model *m)
{
	for (size_t i = 0; i < m->nlocs; i++)
		if (m->locs[i].status != JH_SYM_EMBEDDED)
			return 0;
	return 1;
}

int jh_model_check(const struct jh_model *m, const struct jh_options *o, struct jh_diag *d)
{
	if (m->values && !(m->values & (1u << o->value))) {
		static const char *const names[JH_NVALUES] = { "inuse_objects", "inuse_space",
							       "alloc_objects", "alloc_space" };
		jh_diag_set(d, JH_EXIT_NODATA, m->types_file, 0,
			    "no sample type %s (the profile has: %s)", names[o->value], m->types);
		return JH_EXIT_NODATA;
	}
	if (o->granularity == JH_GRAN_LINES && names_only(m)) {
		jh_diag_set(d, JH_EXIT_USAGE, NULL, 0,
			    "--lines: the profiles carry function names only (.symbolized); "
			    "line numbers need the raw dump and its binaries");
		return JH_EXIT_USAGE;
	}
	return JH_EXIT_OK;
}
