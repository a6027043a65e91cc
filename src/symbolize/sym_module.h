/*
 * sym_module.h - one module of the symbolizer: the binary that was mapped,
 * its debug file, dwz file, DWARF index and symbol table, opened once and
 * kept for the symbolizer's lifetime.
 */
#ifndef JEHEAP_SYM_MODULE_H
#define JEHEAP_SYM_MODULE_H

#include "dwarf_index.h"
#include "jeheap/elf_image.h"
#include "jeheap/profile.h"
#include "jeheap/symbolize.h"
#include "sections.h"
#include "sym_units.h"

struct jh_module {
	char *key;     /* what identifies it: the maps path, or the program argument */
	char *mappath; /* the path as the maps name it (for messages) */
	char *file;    /* the binary found on disk, or NULL */
	struct jh_elf_image *bin, *dbg, *alt; /* dbg may be bin; alt may be NULL */
	struct jh_elf_image *symimg; /* where symbol names come from: the binary, as llvm does */
	struct jh_elf_image
		*symfallback; /* the debug file's .symtab, for addresses nothing else names */
	struct jh_sections *secs, *altsecs;
	struct jh_dwarf *dw; /* NULL: no usable DWARF */
	int usable;          /* bin opened: addresses can be translated */
	int mismatch;        /* the file is not the one that was mapped: frames stay unknown */
	int warned;
	int identity_checked; /* sym_identity.h: done once, on the first profile's addresses */
	int is_main;
	int debug_only;         /* bin is a debug file found by build ID: no code bytes, and its
			 * segments' file offsets are not the binary's */
	int allocator;          /* shared library that exports mallctl (jemalloc) */
	int loaded;             /* jh_module_load done: sections, DWARF, symbol tables */
	struct jh_u64map cache; /* module address -> index of the cached answer */
	char *cache_name;       /* sym_cache.h: its file in the cache folder, or NULL */
	char *cache_sig;        /* what the answers depend on (stored in the file) */
	size_t cache_new;       /* answers resolved since the file was read */
	char **cache_bufs;      /* the cache files read: their strings are in the answers */
	size_t ncache_bufs, acache_bufs;
	int syms_loaded;                 /* jh_module_load_symbols done */
	struct jh_unitfile *units;       /* sym_units.h: the cached unit index, or NULL */
	int units_tried;                 /* its file looked for */
	int units_written;               /* --symbols-only: written (or found valid) this run */
	struct jh_unit_strings ustrings; /* the strings of answers from units */
	/* sym_state.c: what the coverage reports read (jh_symbolizer_modinfo) */
	int load_known; /* the DWARF outcome is known: from jh_module_load or the cache */
	int load_state; /* then: JH_MOD_LINES, JH_MOD_REFUSED, or JH_MOD_SYMBOLS (no DWARF) */
	int over_limit; /* refused: past the memory ceiling */
	char *reason;   /* missing: what was tried; refused: why */
	char *warning;  /* the load's warning (cached with the answers), said by jh_modules_say */
	int warning_said;
	int missing; /* no file found: said in jh_modules_say's one line */
	int missing_said;
};

/* sym_state.c: the module's state (jh_symbolizer_modinfo). */
void jh_module_info(const struct jh_module *m, struct jh_modinfo *mi);
/* Notes the outcome of reading m's DWARF: state (JH_MOD_LINES,
 * JH_MOD_SYMBOLS or JH_MOD_REFUSED), why, and the warning to say (NULL: none). */
void jh_module_loaded(struct jh_module *m, int state, const char *why, const char *warning);
/* Says what is not yet said of mods[0..n): each load warning in module
 * order, then the files not found in one line (the main program first),
 * with verbose followed by one line per file saying what was tried. */
void jh_modules_say(struct jh_module **mods, size_t n, int verbose);

/*
 * Opens the module for path (the binary lookup of debug_find.h, or the
 * program itself when is_main and o->program is set). Never fails: a
 * missing file gives usable = 0 and one warning.
 */
struct jh_module *jh_module_open(const struct jh_symbolizer_opts *o, const char *key,
				 const char *mappath, const char *filepath, int is_main);
/*
 * Opens the module of a mapping whose build ID the profile gives (id[0..idlen)):
 * by build ID first, <debug-dir>/.build-id/xx/rest.debug (debug_only, unless
 * the file at the path has the same ID: then that one), then by path; a file
 * at the path with another build ID is not used (one warning).
 */
struct jh_module *jh_module_open_id(const struct jh_symbolizer_opts *o, const char *key,
				    const char *mappath, const unsigned char *id, size_t idlen,
				    int is_main);
void jh_module_close(struct jh_module *m);
/* Reads the debug sections, DWARF index and symbol tables (once; only
 * when an address must be resolved: a run answered from the cache never
 * does). Call from one thread. */
void jh_module_load(struct jh_module *m);
/* The symbol tables alone (once; jh_module_load does it too): for answers
 * from the unit index, which need no DWARF. */
void jh_module_load_symbols(struct jh_module *m);
/*
 * sym_units_module.c: answers a[0..n) of m from the unit index cached in
 * cache_dir (NULL: none) when it has every unit they need: 1 with *ans,
 * *df, *ndf set as jh_dwarf_lookup sets them, else 0 (the DWARF answers).
 * A corrupt unit: one warning, and the file is dropped.
 */
int jh_module_units_answer(struct jh_module *m, const char *cache_dir, int jobs, const uint64_t *a,
			   size_t n, struct jh_dwarf_answer **ans, struct jh_dwarf_frame **df,
			   size_t *ndf);
/* --symbols-only: writes m's unit index into the cache unless a valid one is there (once). */
void jh_module_units_write(struct jh_module *m, const struct jh_symbolizer_opts *o);
/* Sets m->cache_name and m->cache_sig (sym_cache_id.c) of a usable module. */
void jh_module_cache_id(struct jh_module *m);

/* The ELF symbol holding module address a: the binary's table (what
 * llvm-symbolizer names), else the debug file's .symtab; NULL if none. */
const struct jh_elf_sym *jh_module_symbol(struct jh_module *m, uint64_t a);

/* The opened, usable module whose frames name mappath (jh_symresult.module:
 * the program argument or the maps path), or NULL. */
struct jh_module *jh_symbolizer_module(struct jh_symbolizer *s, const char *mappath);

/*
 * The load bias of mapping map (an executable mapping of m's file):
 * module address = pc - bias. Returns 0, or -1 when no executable PT_LOAD of
 * the file matches the mapping's offset and size (the file on disk is not
 * the one that ran); the first such mismatch is warned about. continued:
 * the maps hold another mapping of the file right after this one (a segment
 * split by mprotect), so a mapping shorter than its segment is no mismatch.
 */
int jh_module_bias(struct jh_module *m, const struct jh_mapping *map, int continued,
		   uint64_t *bias);

#endif
