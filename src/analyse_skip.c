/*
 * analyse_skip.c - which frames are the allocator's (jeprof-behaviour.md §6.6):
 * jeprof 5.3.0's skip list for heap profiles (each name also with a leading
 * '_'), the regexp TCMalloc|^tcmalloc::, plus the names of current jemalloc
 * internals that upstream jeprof added and that appear in jemalloc builds
 * with symbols (ClickHouse: je_malloc_default, imalloc_body, ...).
 */
#include "analyse_internal.h"

#include <stdlib.h>
#include <string.h>

static const char *const skip_names[] = {
	/* jeprof 5.3.0 */
	"calloc", "cfree", "malloc", "newImpl", "void* newImpl", "free", "memalign",
	"posix_memalign", "aligned_alloc", "pvalloc", "valloc", "realloc", "mallocx", "rallocx",
	"xallocx", "dallocx", "sdallocx", "sdallocx_noflags", "tc_calloc", "tc_cfree", "tc_malloc",
	"tc_free", "tc_memalign", "tc_posix_memalign", "tc_pvalloc", "tc_valloc", "tc_realloc",
	"tc_new", "tc_delete", "tc_newarray", "tc_deletearray", "tc_new_nothrow",
	"tc_newarray_nothrow", "do_malloc", "::do_malloc", "::do_malloc_or_cpp_alloc",
	"DoSampledAllocation", "simple_alloc::allocate", "__malloc_alloc_template::allocate",
	"__builtin_delete", "__builtin_new", "__builtin_vec_delete", "__builtin_vec_new",
	"operator new", "operator new[]", "malloc_zone_malloc", "malloc_zone_calloc",
	"malloc_zone_valloc", "malloc_zone_realloc", "malloc_zone_memalign", "malloc_zone_free",
	"__start_google_malloc", "__stop_google_malloc", "__start_malloc_hook",
	"__stop_malloc_hook",
	/* upstream jeprof and current jemalloc internals */
	"je_malloc_default", "fallbackNewImpl", "void* fallbackNewImpl", "fallback_impl",
	"void* fallback_impl", "imalloc", "imalloc_body", "prof_alloc_prep", "prof_backtrace_impl",
	"je_prof_backtrace", "prof_backtrace", "je_prof_tctx_create", "prof_tctx_create",
	"irallocx_prof", "do_rallocx", "ixallocx_prof", "je_malloc", "je_calloc", "je_realloc",
	"je_free", "je_mallocx", "je_rallocx", "je_xallocx", "je_posix_memalign",
	"je_aligned_alloc", "je_memalign", "je_valloc", "je_pvalloc", "je_sdallocx",
	"je_dallocx", "je_calloc_default", "je_realloc_default",
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static const char **sorted_names;
static size_t nsorted;

static void build_sorted(void)
{
	size_t n = JH_ARRAY_SIZE(skip_names);
	sorted_names = xmalloc(jh_st_mult(2 * n, sizeof(*sorted_names)));
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(skip_names[i]);
		char *u = xmalloc(len + 2);
		u[0] = '_';
		memcpy(u + 1, skip_names[i], len + 1);
		sorted_names[2 * i] = skip_names[i];
		sorted_names[2 * i + 1] = u; /* Mach-O prefix, as jeprof */
	}
	nsorted = 2 * n;
	jh_qsort(sorted_names, nsorted, sizeof(*sorted_names), cmp_str);
}

int jh_is_allocator_name(const char *shortname)
{
	if (!sorted_names)
		build_sorted(); /* single-threaded analysis; lives until exit */
	if (bsearch(&shortname, sorted_names, nsorted, sizeof(*sorted_names), cmp_str))
		return 1;
	return strstr(shortname, "TCMalloc") || !strncmp(shortname, "tcmalloc::", 10);
}
