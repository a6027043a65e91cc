/*
 * dwarf_index.h - address -> inline frame chain from DWARF, with libdwarf
 * 20210528 fed through dwarf_object_init_b (see
 * docs/libdwarf.md). The ONLY module that includes libdwarf.h.
 *
 * Addresses are ELF virtual addresses of the file the sections belong to
 * (already caller-adjusted by the profile reader). CUs are indexed eagerly
 * (aranges + CU ranges); line tables and inline trees are read lazily, only
 * for CUs that hold a requested address.
 */
#ifndef JEHEAP_DWARF_INDEX_H
#define JEHEAP_DWARF_INDEX_H

#include "jeheap/base.h"
#include "sections.h"

struct jh_dwarf;

/* One frame of an answer. Strings stay valid until jh_dwarf_close. */
struct jh_dwarf_frame {
	const char *name; /* DW_AT_linkage_name (mangled) if any, else DW_AT_name; NULL if none */
	const char *display; /* name demangled as addr2line -C does (name itself if not mangled) */
	const char *file;    /* full path as llvm-symbolizer prints it; NULL if unknown */
	uint32_t line;       /* 0 if unknown */
	uint32_t decl_line;  /* the function's DW_AT_decl_line ("Function start line"), 0: none */
};

struct jh_dwarf_answer {
	uint32_t first;   /* index into the frames array */
	uint32_t nframes; /* 0: the address is in no CU / no subprogram and no line */
};

/*
 * Opens the DWARF of main (and of its dwz/.debug_sup alternate file alt,
 * may be NULL). Returns NULL without error when main has no .debug_info;
 * NULL with d set when the DWARF is unusable (the caller warns and falls
 * back to symbols).
 */
struct jh_dwarf *jh_dwarf_open(const struct jh_sections *main, const struct jh_sections *alt,
			       struct jh_diag *d);
void jh_dwarf_close(struct jh_dwarf *dw);

/*
 * Resolves n addresses with up to jobs threads (0 = all cores). For addrs[i],
 * ans[i] gives frames[ans[i].first .. +nframes) OUTERMOST FIRST: the real
 * function, then each inlined callee; every frame but the last carries the
 * call site (DW_AT_call_file/line) of the next one, the last carries the
 * line-table row of the address. *frames is a malloc'd array the caller frees.
 * Returns 0, or -1 with d set on internal failure.
 */
int jh_dwarf_lookup(struct jh_dwarf *dw, const uint64_t *addrs, size_t n, int jobs,
		    struct jh_dwarf_answer *ans, struct jh_dwarf_frame **frames, size_t *nframes,
		    struct jh_diag *d);

#endif
