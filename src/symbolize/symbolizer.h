/*
 * symbolizer.h - the symbolizer's state, shared by symbolize.c (the facade)
 * and symbolize_cache.c (its answers to and from the symbol cache).
 */
#ifndef JEHEAP_SYMBOLIZER_H
#define JEHEAP_SYMBOLIZER_H

#include "jeheap/symbolize.h"
#include "sym_module.h"

#define PENDING UINT64_MAX - 1

struct cached {
	uint8_t status;
	uint32_t first, nframes; /* into s->frames */
};

struct jh_symbolizer {
	struct jh_symbolizer_opts o; /* deep copy */
	struct jh_module **mods;
	size_t nmods, amods;
	struct jh_intern names;     /* display names and files of cached frames */
	struct jh_u64map demangled; /* raw name pointer -> interned display name */
	struct jh_frame *frames;
	size_t nframes, aframes;
	struct cached *res;
	size_t nres, ares;
};

/* The answers the cache holds for a module just opened. */
void jh_symbolizer_cache_load(struct jh_symbolizer *s, struct jh_module *m);
/* Writes the answers of every module that resolved new ones (with those
 * another run wrote meanwhile). */
void jh_symbolizer_cache_save(struct jh_symbolizer *s);

#endif
