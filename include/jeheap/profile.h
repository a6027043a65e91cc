/*
 * profile.h - the raw profile model: what a heap file says, before symbols.
 *
 * A profile holds unique stacks (arrays of caller-adjusted pcs, leaf first)
 * with their counts already scaled as jeprof scales them (heap_v2 Poisson
 * correction per count line, legacy v1/v2 rules), per-thread counts from
 * `tN:` lines, the mappings of MAPPED_LIBRARIES / "--- Memory map:", and the
 * names of a `--- symbol` section when the file carried one.
 */
#ifndef JEHEAP_PROFILE_H
#define JEHEAP_PROFILE_H

#include "jeheap/base.h"

#include <string.h>

enum jh_format {
	JH_FMT_HEAP_V2,     /* jemalloc "heap_v2/<period>" */
	JH_FMT_LEGACY_HEAP, /* gperftools "heap profile: ..." */
	JH_FMT_PPROF,       /* pprof profile.proto (perftools.profiles.Profile) */
};

/* Index into jh_counts.v. */
enum jh_value { JH_INUSE_OBJECTS, JH_INUSE_SPACE, JH_ALLOC_OBJECTS, JH_ALLOC_SPACE, JH_NVALUES };

/* Scaled counts, kept in double exactly as jeprof does (truncate at print). */
struct jh_counts {
	double v[JH_NVALUES];
};

#define JH_BUILD_ID_MAX 64

/* The pc of the one frame of a sample written without a stack ("@" and no
 * address, Go's legacy heap profiles): with jh_profile.no_stack set, the
 * model names it "[no stack]"; 0, as pprof takes address 0 for none). */
#define JH_NO_STACK_PC 0

/* One line of /proc/pid/maps. path is "" for anonymous mappings. */
struct jh_mapping {
	uint64_t start, end; /* [start, end) */
	uint64_t offset;     /* file offset of start */
	char perms[5];       /* "r-xp" */
	int deleted;         /* path had a " (deleted)" suffix (removed from path) */
	int brief;           /* a "start-end: path" line: no offset, the file's first
	                      * loaded byte is at start */
	char *path;          /* owned */
	/* the build ID the profile gives for the mapping (pprof input), else len 0 */
	unsigned char build_id[JH_BUILD_ID_MAX];
	size_t build_id_len;
	/* the profile says which ELF virtual address start is (pprof input:
	 * jemalloc_pprof's forms): module address = pc - start + vaddr, no
	 * segment of the file need match offset and size */
	int has_vaddr;
	uint64_t vaddr;
};

struct jh_thread {
	uint64_t uid; /* jemalloc thread uid (the N of tN:) */
	char *name;   /* thread name from the header's tN: line, or NULL; owned */
};

struct jh_stack {
	size_t off;         /* into jh_profile.pcs */
	uint32_t len;       /* number of pcs, leaf first */
	struct jh_counts c; /* sum of the t*: lines of all records with this stack */
};

struct jh_tsample {
	uint32_t thread; /* index into jh_profile.threads */
	uint32_t stack;  /* index into jh_profile.stacks */
	struct jh_counts c;
};

/* One line of a `--- symbol` section. */
struct jh_symname {
	uint64_t pc;            /* as written (already caller-adjusted by the writer) */
	char *names;            /* "outer--inner1--inner2"; owned by the profile (interned:
	               * equal name lists share one string), do not free;
	               * NULL when the profile was read with split_symbols */
	uint32_t first, nparts; /* with split_symbols: the line's "--"-separated
	               * parts (all of them, empty ones too) are
	               * sym_parts[sym_frames[first .. first+nparts)] */
};

struct jh_profile {
	char *source; /* file name as given ("-" for stdin); owned */
	enum jh_format format;
	uint64_t period; /* sampling period from the header (0 = none) */
	int has_symbols; /* the file had a `--- symbol` section */
	int no_stack;    /* a sample had no stack (its pc is JH_NO_STACK_PC) */
	int maps_cut;    /* a jemalloc dump cut short before its memory map: its
	                  * addresses cannot be placed (the model leaves them) */
	/* The sums of the main counts of all stacks (each below 2^63: the
	 * reader refuses a file whose sums are not) */
	struct jh_counts total;
	/* pprof input: pcs without a symbol line are symbolized from the
	 * mappings (those of a symbol section are shown as hex) */
	int sym_fallback;
	char *binary; /* binary= of a symbol section, else NULL; owned */
	/* Values the file has (bit 1 << enum jh_value; 0 = all, the text
	 * formats); a pprof profile's sample types are named in types. */
	unsigned values;
	char *types; /* owned, NULL for the text formats */

	uint64_t *pcs; /* pool of all stacks' pcs */
	size_t npcs, pcs_alloc;
	struct jh_stack *stacks;
	size_t nstacks, stacks_alloc;
	struct jh_tsample *tsamples;
	size_t ntsamples, tsamples_alloc;
	struct jh_thread *threads;
	size_t nthreads, threads_alloc;
	struct jh_mapping *maps;
	size_t nmaps, maps_alloc;
	struct jh_symname *syms; /* sorted by pc, unique (later line wins) */
	size_t nsyms, syms_alloc;
	/* Set by the caller before reading: symbol lines are stored split
	 * into their parts, each distinct part once (what the model needs,
	 * without a copy of every distinct whole line). */
	int split_symbols;
	char **sym_parts; /* distinct parts (or whole lines); owned */
	size_t nsym_parts, sym_parts_alloc;
	uint32_t *sym_frames; /* with split_symbols: part ids per line */
	size_t nsym_frames, sym_frames_alloc;
	/* Set by the caller before reading: count lines of threads (tN:) are
	 * checked as usual but not stored (tsamples stays empty; the names of
	 * the header's thread lines are kept). */
	int no_threads;
	/* Set by the caller before reading: stacks are stored as dense pc ids
	 * (pcids, which the stacks' off/len then index; pcs stays empty), in
	 * the order the pcs first appear in pcids; upcs[id] is the pc of id,
	 * upc_syms[id] the index in syms of its symbol line + 1 (0 = none). */
	int dense_pcs;
	uint32_t *pcids;
	size_t npcids, pcids_alloc;
	uint64_t *upcs;
	uint32_t *upc_syms;
	size_t nupcs, upcs_alloc, upc_syms_alloc;

	/* private: stack de-duplication index (profile.c: id/tag pairs) */
	uint32_t *stack_slots;
	size_t stack_slots_cap;
	/* private (profile.c): uid -> thread index; per stack the chain of its
	 * tsamples (index + 1, 0 ends): ts_head[stack], ts_next[tsample] */
	struct jh_u64map thread_index;
	uint32_t *ts_head, *ts_next;
	size_t ts_head_alloc, ts_next_alloc;
	uint64_t *pc_slots;                 /* dense_pcs: pc -> id (profile_pcs.c): */
	size_t pc_slots_cap, pc_slots_nr;   /* the wide table, */
	uint64_t *pc_narrow;                /* the narrow one (the pcs whose upper */
	size_t pc_narrow_cap, pc_narrow_nr; /* half is pc_hi) */
	uint64_t pc_hi;
	uint64_t *pc_pending; /* the pcs of pcids[pending_off ..), not */
	size_t npc_pending, pc_pending_alloc, pending_off; /* looked up yet */
	struct jh_arena sym_arena;                         /* storage of sym_parts */
	const char *limit;   /* a size limit was passed (what): the ids
	                             * are no longer right; read/handover fail */
	uint64_t *sym_index; /* their dedup table (profile.c) */
	size_t sym_index_cap, sym_index_nr;
};

void jh_profile_init(struct jh_profile *p);
void jh_profile_release(struct jh_profile *p);

/* Returns the id of the stack with these pcs (leaf first), adding it with
 * zero counts if new. */
uint32_t jh_profile_intern_stack(struct jh_profile *p, const uint64_t *pcs, uint32_t n);
/* Adds c to the main counts of stack id. */
void jh_profile_add(struct jh_profile *p, uint32_t stack, const struct jh_counts *c);
/* Returns the index of thread uid, creating it; a non-NULL name replaces a NULL one. */
uint32_t jh_profile_thread(struct jh_profile *p, uint64_t uid, const char *name);
/* Adds c to thread index t's counts for stack (entries for one (t, stack) pair are summed). */
void jh_profile_add_thread(struct jh_profile *p, uint32_t t, uint32_t stack,
			   const struct jh_counts *c);
/* Distinct symbol part id (sym_parts[id]) with its length and jh_hash_str
 * (with split_symbols). */
const char *jh_profile_sym_part(const struct jh_profile *p, uint32_t id, size_t *len,
				uint64_t *hash);
/* Converts the pcs pool of a profile read (or built) without dense_pcs
 * into pcids/upcs as dense_pcs would have stored them (nothing when it is
 * dense already). */
void jh_profile_densify(struct jh_profile *p);
/* Returns the symbol-section names for pc, or NULL (always NULL when read
 * with split_symbols). */
const char *jh_profile_symbol(const struct jh_profile *p, uint64_t pc);

/*
 * The handover to the model: after jh_profile_read, the consumer calls
 * jh_profile_handover once, then reads the dense form and may take parts
 * of the profile with the functions below (what it takes it owns; what it
 * leaves, jh_profile_release frees).
 */
/* Ends reading: the stacks' pcs become dense ids (pcids/upcs/upc_syms, see
 * dense_pcs) and the reader's indexes are freed. Returns 0, or -1 with d
 * set when the profile went over a size limit (too many stacks, addresses
 * or names: a message instead of ids that would wrap). */
int jh_profile_handover(struct jh_profile *p, struct jh_diag *d);
/* Moves the storage of the distinct symbol parts (sym_parts, with
 * split_symbols) into names (jh_intern_keep: the strings may then be
 * interned without a copy) and frees the parts' table and index. */
void jh_profile_give_parts(struct jh_profile *p, struct jh_intern *names);
/* Takes pcids (*n ids, room for *alloc; free with free). */
uint32_t *jh_profile_take_pcids(struct jh_profile *p, size_t *n, size_t *alloc);
/* Takes upcs (nupcs pcs; free with free). */
uint64_t *jh_profile_take_upcs(struct jh_profile *p);
/* Frees the dense ids (pcids, upcs, upc_syms). */
void jh_profile_drop_ids(struct jh_profile *p);
/* Frees the symbol lines (syms, sym_frames, upc_syms). */
void jh_profile_drop_symbols(struct jh_profile *p);

/*
 * Reads one profile file (any supported format, plain, gzip or zstd; "-" is
 * stdin) into p (which must be initialised). Returns 0, or -1 with d set to
 * "FILE:LINE: what is wrong". Warnings (truncated tails) go through jh_warn.
 * A profile header followed by nothing (blank lines at most: a dump cut
 * right after it) fails with JH_EXIT_NODATA, "FILE: no samples: empty or
 * truncated".
 */
int jh_profile_read(struct jh_profile *p, const char *path, struct jh_diag *d);
/* Same for a profile held in memory (data[0..n), plain or compressed); name
 * is used as the file name in messages and as p->source. */
int jh_profile_read_mem(struct jh_profile *p, const void *data, size_t n, const char *name,
			struct jh_diag *d);

/*
 * Parses one /proc/<pid>/maps line (also macOS' "start-end: path" form)
 * into out (out->path allocated, free it). Returns 0, 1 for a blank line
 * (out untouched), -1 if the line is not a maps line.
 */
int jh_maps_parse_line(const char *line, size_t len, struct jh_mapping *out);

/* Symbol-section names "outer--inner1--inner2" split as Perl's split /--/
 * (at the leftmost "--"): returns the end of the part starting at s, names
 * ending at e; *next is the start of the following part, NULL after the last. */
static inline const char *jh_names_part(const char *s, const char *e, const char **next)
{
	const char *d = s;
	while ((d = memchr(d, '-', (size_t)(e - d))) && d + 1 < e && d[1] != '-')
		d++;
	if (d && d + 1 >= e)
		d = NULL;
	*next = d ? d + 2 : NULL;
	return d ? d : e;
}

#endif
