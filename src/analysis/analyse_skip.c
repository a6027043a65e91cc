/*
 * analyse_skip.c - which frames are the allocator's (docs/jeprof.md §3):
 * jeprof 5.3.0's skip list for heap profiles (each name also with a leading
 * '_'), the regexp TCMalloc|^tcmalloc::, plus the names of current jemalloc
 * internals that upstream jeprof added and that appear in jemalloc builds
 * with symbols (ClickHouse: je_malloc_default, imalloc_body, ...); and the
 * test of every location of a model (jh_mark_allocator).
 */
#include "analyse_internal.h"

#include <stdlib.h>
#include <string.h>

/* jeprof 5.3.0's names and those of upstream jeprof and current jemalloc
 * internals, sorted byte-wise (strcmp) for bsearch. */
static const char *const skip_names[] = {
	"::do_malloc",
	"::do_malloc_or_cpp_alloc",
	"DoSampledAllocation",
	"__builtin_delete",
	"__builtin_new",
	"__builtin_vec_delete",
	"__builtin_vec_new",
	"__malloc_alloc_template::allocate",
	"__start_google_malloc",
	"__start_malloc_hook",
	"__stop_google_malloc",
	"__stop_malloc_hook",
	"aligned_alloc",
	"calloc",
	"cfree",
	"dallocx",
	"do_malloc",
	"do_rallocx",
	"fallbackNewImpl",
	"fallback_impl",
	"free",
	"imalloc",
	"imalloc_body",
	"irallocx_prof",
	"ixallocx_prof",
	"je_aligned_alloc",
	"je_calloc",
	"je_calloc_default",
	"je_dallocx",
	"je_free",
	"je_malloc",
	"je_malloc_default",
	"je_mallocx",
	"je_memalign",
	"je_posix_memalign",
	"je_prof_backtrace",
	"je_prof_tctx_create",
	"je_pvalloc",
	"je_rallocx",
	"je_realloc",
	"je_realloc_default",
	"je_sdallocx",
	"je_valloc",
	"je_xallocx",
	"malloc",
	"malloc_zone_calloc",
	"malloc_zone_free",
	"malloc_zone_malloc",
	"malloc_zone_memalign",
	"malloc_zone_realloc",
	"malloc_zone_valloc",
	"mallocx",
	"memalign",
	"newImpl",
	"operator new",
	"operator new[]",
	"posix_memalign",
	"prof_alloc_prep",
	"prof_backtrace",
	"prof_backtrace_impl",
	"prof_tctx_create",
	"pvalloc",
	"rallocx",
	"realloc",
	"sdallocx",
	"sdallocx_noflags",
	"simple_alloc::allocate",
	"tc_calloc",
	"tc_cfree",
	"tc_delete",
	"tc_deletearray",
	"tc_free",
	"tc_malloc",
	"tc_memalign",
	"tc_new",
	"tc_new_nothrow",
	"tc_newarray",
	"tc_newarray_nothrow",
	"tc_posix_memalign",
	"tc_pvalloc",
	"tc_realloc",
	"tc_valloc",
	"valloc",
	"void* fallbackNewImpl",
	"void* fallback_impl",
	"void* newImpl",
	"xallocx",
};

const char *const *jh_allocator_names(size_t *n)
{
	*n = JH_ARRAY_SIZE(skip_names);
	return skip_names;
}

static int cmp_name(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

static int listed(const char *s)
{
	return bsearch(s, skip_names, JH_ARRAY_SIZE(skip_names), sizeof(*skip_names), cmp_name) !=
	       NULL;
}

int jh_is_allocator_name(const char *shortname)
{
	return listed(shortname) || (shortname[0] == '_' && listed(shortname + 1)) ||
	       strstr(shortname, "TCMalloc") || !strncmp(shortname, "tcmalloc::", 10);
}

/* The memo of location l's outermost frame, UINT32_MAX for none. */
static uint32_t outer_memo(const struct jh_graph_priv *gp, const struct jh_location *l)
{
	return l->nframes ? gp->fid[l->first] : UINT32_MAX;
}

/* Whether memo fm's function func is an allocator entry point. With the
 * keys to come (keep_shorts), its short name is made and kept; else it is
 * made in a scratch buffer, not interned. */
static int memo_alloc(struct jh_graph_priv *gp, struct jh_fmemo *fm, const char *func)
{
	if (gp->keep_shorts) {
		if (!fm->shrt)
			fm->shrt = jh_namer_short(&gp->namer, func);
		return jh_is_allocator_name(fm->shrt);
	}
	jh_sb_reset(&gp->sb2);
	jh_short_function_name(&gp->sb2, func);
	return jh_is_allocator_name(gp->sb2.buf);
}

/*
 * The allocator test of every location (removed with its callees, docs/jeprof.md §3):
 * the memos to test, in the order their locations come, with their names
 * (from the frames, read in order: no memo is read for it), then the
 * tests (each reads a name somewhere in memory: prefetched well ahead),
 * then the locations' flags from a byte per memo (add_stack asks in
 * stack order, all over memory).
 */
void jh_mark_allocator(struct jh_graph_priv *gp, const struct jh_model *m, uint8_t flag)
{
	enum { ASKED = 1, ALLOC = 2 };
	struct ask {
		const char *func;
		uint32_t memo;
	} *todo = NULL;
	uint8_t *st = xcalloc(gp->nfm ? gp->nfm : 1, 1);
	size_t ntodo = 0, alloc = 0;
	for (size_t i = 0; i < m->nlocs; i++) {
		const struct jh_location *l = &m->locs[i];
		uint32_t k = outer_memo(gp, l);
		if (l->allocator || k == UINT32_MAX || st[k])
			continue;
		st[k] = ASKED;
		JH_GROW(todo, ntodo + 1, alloc);
		todo[ntodo++] = (struct ask){ m->frames.items[l->first].func, k };
	}
	for (size_t j = 0; j < ntodo; j++) {
		if (j + 16 < ntodo && gp->keep_shorts)
			__builtin_prefetch(&gp->fm[todo[j + 16].memo]);
		if (j + 8 < ntodo) /* its name, to be read */
			for (int x = 0; x < 4; x++)
				__builtin_prefetch(todo[j + 8].func + 64 * x);
		if (memo_alloc(gp, &gp->fm[todo[j].memo], todo[j].func))
			st[todo[j].memo] = ALLOC;
	}
	for (size_t i = 0; i < m->nlocs; i++) {
		const struct jh_location *l = &m->locs[i];
		uint32_t k = outer_memo(gp, l);
		gp->lflags[i] = l->allocator || (k != UINT32_MAX && st[k] == ALLOC) ? flag : 0;
	}
	free(todo);
	free(st);
}
