/* builds.h - different builds among the files compared (builds.c). */
#ifndef JEHEAP_CLI_BUILDS_H
#define JEHEAP_CLI_BUILDS_H

#include "jeheap/model.h"
#include "jeheap/options.h"

struct jh_builds {
	struct jh_intern names;
	struct jh_u64map by_file; /* module file name -> its first build ID (interned) */
	struct jh_sb sb;
	const char *differ; /* the first module file name seen with two build IDs */
};
void jh_builds_init(struct jh_builds *b);
void jh_builds_release(struct jh_builds *b);
/* Adds the build IDs of the modules m's locations were symbolized in (s
 * reads them). Returns 1 once some module has had two build IDs. */
int jh_builds_add(struct jh_builds *b, const struct jh_model *m, struct jh_symbolizer *s);
/* The analysis' normalize flags: --normalize's, else JH_NORM_CLONES when
 * the builds differ (with one warning naming the module), else 0. */
unsigned jh_builds_normalize(const struct jh_options *o, const struct jh_builds *b);

#endif
