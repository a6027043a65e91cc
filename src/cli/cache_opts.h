/*
 * cache_opts.h - the symbol cache's folder and bound from --cache-dir,
 * JEHEAP_CACHE_DIR, XDG_CACHE_HOME or HOME, --no-cache and --cache-size.
 */
#ifndef JEHEAP_CACHE_OPTS_H
#define JEHEAP_CACHE_OPTS_H

#include "jeheap/options.h"

/* Default bound of the cache folder: 300 MiB. */
#define JH_CACHE_SIZE_DEFAULT (300ull << 20)

/* Sets o->sym.cache_dir (NULL: no cache) and o->sym.cache_size. Returns 0,
 * or -1 with d set (usage error). */
int jh_cache_options(struct jh_options *o, struct jh_diag *d);

#endif
