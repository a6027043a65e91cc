/*
 * debug_find.h - where the files of a module are: the binary named by a
 * mapping (--path-map, --sysroot, --lib_prefix), its separate debug file
 * (build-id, .gnu_debuglink with CRC) and its dwz alternate file
 * (.gnu_debugaltlink / .debug_sup, build-id checked).
 *
 * Every function appends each path it tried to *tried ("a, b, c") so that a
 * failure can be explained in one warning line.
 */
#ifndef JEHEAP_DEBUG_FIND_H
#define JEHEAP_DEBUG_FIND_H

#include "elf_image.h"
#include "jeheap/symbolize.h"

/*
 * p with --path-map applied: the first OLD that is p's leading directory
 * (or all of p) is replaced by NEW. Returns a malloc'd copy either way.
 */
char *jh_apply_path_map(const struct jh_symbolizer_opts *o, const char *p);

/*
 * The file to read for a source path of --list: inside the NEW of the first
 * --path-map whose OLD is its leading directory, else (an absolute path)
 * inside --sysroot, looked up as jh_confine does; else the path as is.
 * Returns a malloc'd path, or NULL (a warning given) when it leads out.
 */
char *jh_source_path(const struct jh_symbolizer_opts *o, const char *path);

/*
 * The file to open for a path from the maps: --path-map (first OLD prefix
 * that matches is replaced by NEW), then --sysroot prefixed, then
 * --lib_prefix candidates in jeprof's order (every prefix with the whole
 * path, then with the path minus its first directory, ...), then the path
 * itself. Returns the first existing regular file (malloc'd) or NULL.
 */
char *jh_find_binary(const struct jh_symbolizer_opts *o, const char *mappath, struct jh_sb *tried);

/*
 * The file holding bin's DWARF: bin itself if it has .debug_info, else
 * <debug-dir>/.build-id/xx/rest.debug (build-id equal), else .gnu_debuglink
 * in the binary directory, its .debug subdirectory and under each debug dir
 * (CRC32 equal). Returns an opened image (caller closes; may be bin itself:
 * compare pointers) or NULL.
 */
struct jh_elf_image *jh_find_debug(const struct jh_symbolizer_opts *o, struct jh_elf_image *bin,
				   struct jh_sb *tried);

/*
 * The dwz alternate file of dbg (.gnu_debugaltlink or .debug_sup): the name
 * as written (an absolute one inside --sysroot when given; a relative one
 * from dbg's directory, inside --sysroot or the --debug-dir dbg lies in), or
 * <debug-dir>/.build-id/xx/rest.debug; accepted only when its build-id
 * equals the recorded one. NULL when dbg has no link or no file matches.
 */
struct jh_elf_image *jh_find_alt(const struct jh_symbolizer_opts *o, struct jh_elf_image *dbg,
				 struct jh_sb *tried);

/* <debug-dir>/.build-id/xx/rest.debug (each debug dir in turn) whose own
 * build ID is id[0..len), opened; NULL if none. */
struct jh_elf_image *jh_find_by_build_id(const struct jh_symbolizer_opts *o,
					 const unsigned char *id, size_t len, struct jh_sb *tried);

/* zlib CRC32 of a whole file (the .gnu_debuglink checksum); -1 if unreadable. */
int jh_file_crc32(const char *path, uint32_t *crc);

#endif
