/*
 * symbolize.h - the symbolizer: (mappings, pcs) -> inline frame chains,
 * from ELF symbol tables and DWARF (libelf + libdwarf), never from external
 * tools.
 *
 * Frames are reported OUTERMOST FIRST (the real, non-inlined function, then
 * each inlined callee, innermost last), the order of jeprof's symbol tuples
 * and of `.symbolized` files. Frame 0 carries the file:line of the call into
 * frame 1 when frame 1 is inlined; the innermost frame carries the line-table
 * file:line of the address itself.
 */
#ifndef JEHEAP_SYMBOLIZE_H
#define JEHEAP_SYMBOLIZE_H

#include "jeheap/base.h"
#include "jeheap/profile.h"

enum jh_symstatus {
	JH_SYM_UNKNOWN,  /* nothing known (no module, missing file, outside every symbol) */
	JH_SYM_SYMBOL,   /* function name from the ELF symbol table only */
	JH_SYM_FULL,     /* DWARF: function, file, line and inline frames */
	JH_SYM_EMBEDDED, /* names taken from a .symbolized file (file "?", line 0) */
};

struct jh_frame {
	const char *func;   /* full demangled name, interned; NULL = unknown ("??") */
	const char *file;   /* interned path as DWARF names it; NULL = unknown */
	uint32_t line;      /* 0 = unknown */
	uint32_t decl_line; /* the function's DW_AT_decl_line (its first line); 0 = unknown */
};

struct jh_symresult {
	const char *module; /* interned path of the module file (as in the maps), or NULL */
	uint64_t modaddr;   /* the address in the module's ELF virtual address space */
	uint8_t status;     /* enum jh_symstatus */
	uint8_t allocator;  /* in the shared library that implements malloc (jemalloc) */
	uint32_t first;     /* index of frame 0 in the caller's frame array */
	uint32_t nframes;   /* 0 when status is JH_SYM_UNKNOWN */
};

struct jh_path_map {
	char *from, *to;
};

/*
 * Progress of one jh_symbolize call, reported to jh_symbolizer_opts.progress
 * (on the calling thread) as modules are opened and resolved: the cli draws
 * it; the symbolizer never prints it.
 */
struct jh_sym_progress {
	size_t modules_done, modules; /* modules whose addresses are resolved, of those used */
	size_t addrs_done, addrs;     /* unique addresses resolved, of those to resolve */
	uint64_t dwarf_bytes;         /* bytes of DWARF sections of the modules resolved so far */
};
typedef void (*jh_sym_progress_fn)(void *ctx, const struct jh_sym_progress *p);

struct jh_symbolizer_opts {
	const char *program; /* program argument from the command line, or NULL */
	char **lib_prefixes; /* --lib_prefix, split at commas, trailing '/' removed */
	size_t nlib_prefixes;
	char **add_libs; /* --add_lib */
	size_t nadd_libs;
	struct jh_path_map *path_maps; /* --path-map OLD=NEW, first match wins */
	size_t npath_maps;
	const char *sysroot; /* --sysroot */
	char **debug_dirs;   /* --debug-dir; empty = /usr/lib/debug */
	size_t ndebug_dirs;
	int jobs;               /* worker threads; 0 = number of online cores */
	int trust_binaries;     /* --trust-binaries: no check that return addresses follow calls */
	int verbose;            /* --verbose: each file not found in a line of its own too */
	uint64_t max_memory;    /* --max-memory: ceiling on DWARF bytes; 0 = the default */
	const char *cache_dir;  /* symbol cache folder (sym_cache.h); NULL: no cache */
	uint64_t cache_size;    /* bound of the cache folder in bytes; 0: none */
	int build_index;        /* --symbols-only: also cache each module's whole unit index */
	const char *debuginfod; /* debuginfod server URLs (DEBUGINFOD_URLS); NULL: none asked */
	struct jh_debuginfod *debuginfod_client; /* the symbolizer's own (set by it) */
	jh_sym_progress_fn progress;             /* NULL: no progress reports */
	void *progress_ctx;
};

struct jh_symbolizer;

/*
 * The default of --max-memory: half of the smallest of physical memory, the
 * cgroup's memory.max and RLIMIT_AS (UINT64_MAX when none is known).
 */
uint64_t jh_default_max_memory(void);

/* Creates a symbolizer; the options are copied. Never fails. */
struct jh_symbolizer *jh_symbolizer_new(const struct jh_symbolizer_opts *o);
void jh_symbolizer_free(struct jh_symbolizer *s);

/* A growable array of frames (caller-owned). */
struct jh_frames {
	struct jh_frame *items;
	size_t nr, alloc;
};

/*
 * Symbolizes npcs caller-adjusted addresses of one profile whose mappings
 * are maps[0..nmaps). For each pcs[i], out[i] is filled and its frames are
 * appended to fr; strings are interned in names. Modules are opened once per
 * symbolizer and reused across calls (several profiles of one binary).
 * Problems with a module (file missing, build-id mismatch, bad ELF) are
 * reported once on stderr as warnings and give JH_SYM_UNKNOWN results.
 * Returns 0; -1 only on internal failure, with d set.
 */
int jh_symbolize(struct jh_symbolizer *s, const struct jh_mapping *maps, size_t nmaps,
		 const uint64_t *pcs, size_t npcs, struct jh_intern *names,
		 struct jh_symresult *out, struct jh_frames *fr, struct jh_diag *d);

/*
 * What --proto writes of a module that symbolized addresses (module is a
 * jh_symresult.module): its GNU build ID in lowercase hex, appended to
 * out (returns 0; -1 when the module is not open or has none), and the
 * symbol-table name (mangled) of the function holding module address a
 * (NULL if none). Not thread-safe.
 */
int jh_symbolizer_build_id(struct jh_symbolizer *s, const char *module, struct jh_sb *out);
const char *jh_symbolizer_symbol(struct jh_symbolizer *s, const char *module, uint64_t a);

/*
 * The one state of a module (the file a jh_symresult.module names), what
 * the coverage reports read. A problem the symbolizer warned about
 * (missing, differs, refused) has explained = 1.
 */
enum jh_modstate {
	JH_MOD_LINES,     /* usable DWARF: names and source lines */
	JH_MOD_SYMBOLS,   /* a symbol table (.symtab), no debug info */
	JH_MOD_NOSYMBOLS, /* stripped: no .symtab, only what .dynsym names */
	JH_MOD_MISSING,   /* no usable file at the path (or none with the build ID) */
	JH_MOD_DIFFERS,   /* the file is not the one that ran (identity check, segments) */
	JH_MOD_REFUSED,   /* its debug info was refused (memory ceiling, bomb, corrupt) */
};
/* "lines", "symbols only", "no symbols", "missing", "differs", "refused". */
const char *jh_modstate_name(int state);

struct jh_modinfo {
	int state;          /* enum jh_modstate */
	int explained;      /* a warning said what is wrong with it */
	int over_limit;     /* refused: past --max-memory */
	const char *file;   /* the file used, or NULL */
	const char *reason; /* missing: what was tried; refused: why; else NULL */
};

/*
 * The state of the module the frames of s name module (a jh_symresult.module):
 * 0 with *mi filled (its strings live as long as s), -1 when s has none.
 */
int jh_symbolizer_modinfo(struct jh_symbolizer *s, const char *module, struct jh_modinfo *mi);

/* The path names the allocator's shared library by its file name
 * (libjemalloc*.so*, libtcmalloc*.so*): frames in it are dropped even
 * when the file is not at hand. */
int jh_allocator_library_name(const char *path);

/*
 * The Debian packages that installed paths[0..n) (read from dpkg's file
 * lists under /var/lib/dpkg/info in one pass, no process started): pkg[i]
 * is empty for a file no package holds. Returns how many were found.
 */
#define JH_PKG_NAME 128
size_t jh_debian_packages(const char *const *paths, size_t n, char (*pkg)[JH_PKG_NAME]);

#endif
