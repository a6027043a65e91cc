/*
 * dwarf_units.h - a module's DWARF as a unit index: for every compile unit,
 * what a lookup reads of it (covering subroutines with their names and
 * call sites, line rows, file names), so that any address of the module
 * is answered later without opening its DWARF. Built whole by
 * jh_dwarf_export (--symbols-only), kept in the symbol cache
 * (sym_units.h), answered by jh_unit_index_lookup exactly as
 * jh_dwarf_lookup answers.
 *
 * A unit's blob is one zstd frame (with its content checksum) of:
 *   u32 magic "JHUB", u32 nodes, u32 ranges, u32 rows, u32 seqs,
 *   u32 files, u32 strings, u32 string bytes, u32 line version,
 *   u32 has line table;
 *   nodes  {u32 parent + 1 (0: none), u32 call file, u32 call line,
 *           u32 name (string + 1, 0: none), u32 decl line, u32 inlined};
 *   ranges {u64 lo, u64 hi, u64 node}, in ascending lo;
 *   rows   {u64 address, u32 line, u32 file};
 *   seqs   {u64 lo, u64 hi, u64 first row, u64 rows};
 *   files  {u32 string};
 *   strings, each ending in a NUL byte.
 * Native byte order (the cache file checks it). Every count and index is
 * checked when a blob is read: a bad one makes the unit unreadable, never
 * a wrong answer read out of bounds.
 */
#ifndef JEHEAP_DWARF_UNITS_H
#define JEHEAP_DWARF_UNITS_H

#include <stddef.h>
#include <stdint.h>

#include "dwarf_batch.h"
#include "dwarf_index.h"
#include "dwarf_sched.h"

struct jh_unit_index {
	struct jh_sched_range *ranges; /* address -> unit number, sorted, disjoint */
	size_t nranges;
	size_t nunits;
	const unsigned char **blob; /* [u]: its zstd frame, NULL: not in the index */
	uint64_t *size;             /* [u]: the frame's bytes */
};

/* A unit's tables with its nodes' names, as a blob (uncompressed) appended to out. */
struct jh_sb;
void jh_unitblob_encode(const struct jh_unit_tables *t, const char *const *names,
			const uint32_t *decls, struct jh_sb *out);

/* A decoded blob: t's nodes have die_off = their own index. */
struct jh_unitblob {
	struct jh_unit_tables t;
	const char **names; /* per node, NULL: none */
	uint32_t *decls;
	char *buf; /* what t.files and names point into */
};
/* Decodes p[0..n) (uncompressed); 0, or -1 when it is malformed (b empty). */
int jh_unitblob_decode(const unsigned char *p, size_t n, struct jh_unitblob *b);
void jh_unitblob_release(struct jh_unitblob *b);

/*
 * Every unit of dw into ix (blobs and ranges malloc'd: jh_unit_index_free),
 * zstd-compressed at level, with up to jobs threads. A unit that cannot be
 * read is left out (lookups in it open the DWARF). Returns 0, or -1 with d
 * set when the DWARF is unusable.
 */
struct jh_dwarf;
int jh_dwarf_export(struct jh_dwarf *dw, int jobs, int level, struct jh_unit_index *ix,
		    struct jh_diag *d);
/* Frees what jh_dwarf_export allocated (the blobs too). */
void jh_unit_index_free(struct jh_unit_index *ix);

/* Where answers from a unit index keep their strings: one table per worker. */
struct jh_unit_strings {
	struct jh_intern **v;
	size_t n, a;
};
void jh_unit_strings_release(struct jh_unit_strings *k);

/*
 * Answers addrs[0..n) from ix as jh_dwarf_lookup would, with up to jobs
 * threads, the frames' strings interned in tables added to keep (they live
 * as long as it does). Returns 0; 1 when an address falls in a unit the
 * index lacks (nothing filled: use the DWARF); -1 with d set when a unit's
 * blob is corrupt.
 */
int jh_unit_index_lookup(const struct jh_unit_index *ix, const uint64_t *addrs, size_t n, int jobs,
			 struct jh_unit_strings *keep, struct jh_dwarf_answer *ans,
			 struct jh_dwarf_frame **frames, size_t *nframes, struct jh_diag *d);

#endif
