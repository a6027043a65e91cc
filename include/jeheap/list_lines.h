/*
 * list_lines.h - what --list needs from a module beyond the symbolized
 * model: the function symbol (routine) around a sampled address, and the
 * outermost file:line of every address of a routine, from the symbol table
 * and DWARF (the equivalent of jeprof's nm ranges, objdump -d -l and
 * addr2line -i over the routine; no tool is run).
 */
#ifndef JEHEAP_LIST_LINES_H
#define JEHEAP_LIST_LINES_H

#include "jeheap/base.h"
#include "jeheap/symbolize.h"

struct jh_list_module;

/* One routine: the ELF symbol [addr, addr + size) and its demangled name. */
struct jh_list_routine {
	uint64_t addr, size;
	const char *name; /* interned in the names given to jh_list_routine_at */
};

/* The outermost inline level's location of one address (file NULL: none). */
struct jh_list_loc {
	const char *file; /* valid until the module is closed */
	uint32_t line;
};

/*
 * The module module, the module path of the model's locations (the program
 * argument for the main executable, else the path the maps name): s's own
 * (its DWARF already read) when s has it, else opened as the symbolizer
 * does. NULL (after one warning on stderr) when its file cannot
 * be read; a module without DWARF opens, its routines have no lines.
 */
struct jh_list_module *jh_list_module_open(const struct jh_symbolizer_opts *so,
					   struct jh_symbolizer *s, const char *module);
void jh_list_module_close(struct jh_list_module *lm);

/* The function symbol covering module address a: 0, or -1 when none (or
 * when it is larger than 64 MiB, which no function is). */
int jh_list_routine_at(struct jh_list_module *lm, uint64_t a, struct jh_intern *names,
		       struct jh_list_routine *r);

/*
 * Fills locs with the location of every address of the routines r[0..n),
 * one after the other (r[0].size entries, then r[1].size, ...): the
 * file:line of its outermost frame (the line of the call into an inlined
 * callee), file NULL where DWARF knows no line. One DWARF pass for all (a
 * compile unit is decoded once per call). Returns 0, or -1 with d set on
 * internal failure.
 */
int jh_list_lines(struct jh_list_module *lm, const struct jh_list_routine *r, size_t n, int jobs,
		  struct jh_list_loc *locs, struct jh_diag *d);

/*
 * Opens source file path (as a line table names it) for reading, where
 * jh_source_path says: inside --path-map's NEW or --sysroot, never out of
 * them. tried: the path tried (for a warning), empty when the path was
 * refused (a warning already given); errno of the failed open kept.
 */
FILE *jh_list_source_open(const struct jh_symbolizer_opts *so, const char *path,
			  struct jh_sb *tried);

#endif
