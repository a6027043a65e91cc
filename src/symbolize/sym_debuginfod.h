/*
 * sym_debuginfod.h - debug files and binaries by build ID from debuginfod
 * servers (libdebuginfod: its own download cache, DEBUGINFOD_URLS and
 * timeouts). Asked only for modules without local debug information (or
 * with no file at all), never when no server is configured. A server that
 * has nothing, or that cannot be reached, is remembered for
 * JH_DEBUGINFOD_MISS_TTL seconds in the symbol cache folder (a series of
 * dumps asks once) and said in one warning line per call of jh_symbolize.
 */
#ifndef JEHEAP_SYM_DEBUGINFOD_H
#define JEHEAP_SYM_DEBUGINFOD_H

#include "jeheap/elf_image.h"
#include "jeheap/symbolize.h"

#define JH_DEBUGINFOD_MISS_TTL 600 /* 10 minutes (README, man page) */

struct jh_debuginfod;

/* A client for the servers urls (as DEBUGINFOD_URLS lists them), or NULL when
 * urls is NULL or empty or jeheap is built without libdebuginfod. cache_dir:
 * where failures are remembered (NULL: not remembered). */
struct jh_debuginfod *jh_debuginfod_new(const char *urls, const char *cache_dir);
void jh_debuginfod_free(struct jh_debuginfod *f);

/* The debug file (executable = 0) or the binary (1) with build ID id[0..n),
 * downloaded into libdebuginfod's cache; NULL when f is NULL or the servers
 * do not give it (the failure is noted for module, the maps path). */
struct jh_elf_image *jh_debuginfod_find(struct jh_debuginfod *f, const unsigned char *id, size_t n,
					int executable, const char *module);

/* One warning naming the modules noted since the last call, if any. */
void jh_debuginfod_warn(struct jh_debuginfod *f);

#endif
