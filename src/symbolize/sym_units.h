/*
 * sym_units.h - a module's unit index (dwarf_units.h) in the symbol cache:
 * the file beside the module's answers, its name ending in .jhu instead
 * of .jhc, written by --symbols-only, read when an address is not among
 * the cached answers, so that a later dump of the same build needs no
 * DWARF at all. Bounded, replaced atomically and removed oldest first
 * with the other cache files.
 *
 * Layout (native byte order, checked by a marker): "JHUNITS\0", u32
 * version, u32 byte-order marker, u32 signature length, u32 units, u64
 * ranges, the signature, the ranges {u64 lo, u64 hi, u64 unit}, the units
 * {u64 offset, u64 bytes} (offset 0: not in the index), the zlib CRC-32 of
 * all that, then the units' zstd frames (each with its own checksum,
 * checked when the unit is read).
 */
#ifndef JEHEAP_SYM_UNITS_H
#define JEHEAP_SYM_UNITS_H

#include "dwarf_units.h"

#define JH_UNITFILE_VERSION 1u

struct jh_unitfile;

/* The .jhu name that goes with a module's cache file name (malloc'd). */
char *jh_unitfile_name(const char *cache_name);
/*
 * Maps dir/name. Returns 1 with *out set when it is an index for sig; 0
 * when it is missing or for another signature; -1 when it is corrupt,
 * truncated or of another version: one warning, and the file is removed
 * (--symbols-only writes it again).
 */
int jh_unitfile_open(const char *dir, const char *name, const char *sig, struct jh_unitfile **out);
const struct jh_unit_index *jh_unitfile_index(const struct jh_unitfile *f);
/* One warning that a unit of f is corrupt (what: the lookup's message); f is removed. */
void jh_unitfile_reject(const struct jh_unitfile *f, const char *what);
void jh_unitfile_close(struct jh_unitfile *f);
/* Writes ix as dir/name for sig atomically, then bounds dir to limit bytes; 0 or -1. */
int jh_unitfile_write(const char *dir, const char *name, const char *sig,
		      const struct jh_unit_index *ix, uint64_t limit);

#endif
