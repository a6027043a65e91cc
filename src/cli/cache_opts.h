/*
 * cache_opts.h - the symbol cache's folder and bound from --cache-dir,
 * JEHEAP_CACHE_DIR, XDG_CACHE_HOME or HOME, --no-cache and --cache-size; the
 * debuginfod servers from --debuginfod or DEBUGINFOD_URLS.
 */
#ifndef JEHEAP_CACHE_OPTS_H
#define JEHEAP_CACHE_OPTS_H

#include "jeheap/options.h"

/* Seconds a debuginfod server may take to start sending (DEBUGINFOD_TIMEOUT
 * when the environment does not set it). */
#define JH_DEBUGINFOD_TIMEOUT "5"

/* Default bound of the cache folder: 300 MiB. */
#define JH_CACHE_SIZE_DEFAULT (300ull << 20)

/* Sets o->sym.cache_dir (NULL: no cache) and o->sym.cache_size. Returns 0,
 * or -1 with d set (usage error). */
int jh_cache_options(struct jh_options *o, struct jh_diag *d);
/* A size: bytes, or with K, M, G or T (powers of 1024, an optional B after
 * it): 0 with *out set, -1 if v is not one. */
int jh_size_parse(const char *v, uint64_t *out);

#endif
