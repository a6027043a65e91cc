/*
 * sym_cache.h - the symbol cache on disk: for one module (a binary and the
 * debug files it was resolved with), the answers already resolved per
 * module address, exactly as the symbolizer gave them (status, inline
 * frames, display names, files, lines).
 *
 * One file per module, named after the binary's build ID (or, without
 * one, a hash of its path, size, mtime and inode) and a hash of the
 * signature (what else the answers depend on: which debug and dwz files).
 * Layout (native byte order, checked by a marker): "JHSYMCAC", u32 version,
 * u32 byte-order marker, u32 signature length, u32 strings, u32 records,
 * u32 frames, the signature, the strings (u32 length + bytes each), the
 * records (u64 address, u32 first frame, u32 frames, u32 status), the
 * frames (u32 function, u32 file: string index + 1, 0 = unknown; u32 line;
 * u32 the function's start line), the module's state (u32: enum jh_modstate
 * of reading its DWARF, or UINT32_MAX when not known; u32 why and u32 the
 * warning said: string index + 1, 0 = none), then the zlib CRC-32 of
 * everything before it. Files are written to a
 * temporary file and renamed over the old one, so a reader sees a whole
 * file or none; a file that fails any check is ignored (one warning) and
 * rewritten.
 */
#ifndef JEHEAP_SYM_CACHE_H
#define JEHEAP_SYM_CACHE_H

#include "jeheap/symbolize.h"

#define JH_SYMCACHE_VERSION 3u /* 2: frames hold the function's start line; 3: the state */

/* What reading a module's DWARF gave (sym_state.c), kept with its answers. */
struct jh_symcache_state {
	int state;                    /* JH_MOD_LINES, _SYMBOLS or _REFUSED; -1: not known */
	const char *reason, *warning; /* NULL: none */
};

struct jh_symcache_rec {
	uint64_t addr;
	uint32_t first, nframes; /* into the frame array that goes with the records */
	uint8_t status;          /* enum jh_symstatus */
};

/* A cache file read into memory: the frames' strings point into buf. */
struct jh_symcache_file {
	char *buf;
	struct jh_symcache_rec *recs;
	size_t nrecs;
	struct jh_frame *frames;
	size_t nframes;
	int state;                    /* -1: not known */
	const char *reason, *warning; /* in buf; NULL: none */
};

/*
 * Reads dir/name. Returns 1 with f filled when it holds answers for sig;
 * 0 when it is missing or for another signature (f empty); -1 when it is
 * corrupt, truncated or of another version (one warning unless quiet;
 * f empty). Marks the file as used (its mtime) for the size bound.
 */
int jh_symcache_read(const char *dir, const char *name, const char *sig, int quiet,
		     struct jh_symcache_file *f);
void jh_symcache_file_release(struct jh_symcache_file *f);

/*
 * Writes recs[0..n) (frames in fr) as dir/name for sig, atomically, then
 * removes the least recently used files of dir until the cache holds at
 * most limit bytes (0: no bound). Creates dir. Returns 0, or -1 with a
 * warning.
 */
int jh_symcache_write(const char *dir, const char *name, const char *sig,
		      const struct jh_symcache_state *st, const struct jh_symcache_rec *recs,
		      size_t n, const struct jh_frame *fr, uint64_t limit);

/* Writes data[0..n) as dir/name atomically, then bounds dir as jh_symcache_write does. */
int jh_symcache_put(const char *dir, const char *name, const void *data, size_t n, uint64_t limit);
/* Marks dir/name (a small file: debuginfod had nothing for it, and note
 * says why) now; 0, or -1. */
int jh_symcache_mark(const char *dir, const char *name, const char *note);
/* The age in seconds of dir/name, or -1 when it does not exist; *note: its
 * text (caller frees), or NULL. */
long long jh_symcache_age(const char *dir, const char *name, char **note);

#endif
