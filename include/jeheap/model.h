/*
 * model.h - the symbolized model: what the analysis and every report read.
 *
 * Built from the profiles and --base files of the command line: each file is
 * read (profile.h), symbolized against its OWN mappings (symbolize.h) or its
 * own symbol section, and its stacks are re-expressed as stacks of locations.
 * Profiles are summed and bases subtracted here, on symbolic keys, so two
 * dumps of one binary with different load addresses diff correctly.
 */
#ifndef JEHEAP_MODEL_H
#define JEHEAP_MODEL_H

#include "jeheap/base.h"
#include "jeheap/profile.h"
#include "jeheap/symbolize.h"

struct jh_location {
	uint64_t pc;        /* caller-adjusted address (first profile that had it) */
	const char *module; /* interned module path, NULL if in no mapping */
	uint64_t modaddr;   /* address inside the module's ELF vaddr space */
	uint8_t status;     /* enum jh_symstatus */
	uint8_t allocator;  /* inside the allocator's shared library */
	uint32_t first;     /* frames[first .. first+nframes), outermost first */
	uint32_t nframes;
};

struct jh_mstack {
	size_t off; /* into jh_model.locpool: location ids, leaf first */
	uint32_t len;
	struct jh_counts c; /* profiles - bases (jh_model.stack_base) */
	uint8_t dropped;    /* only in bases, removed by --drop_negative */
};

struct jh_mthread {
	uint64_t uid;
	const char *name; /* interned or NULL */
	uint32_t *stacks; /* stack ids with counts for this thread */
	struct jh_counts *c;
	struct jh_counts *base; /* per entry: the bases' counts; NULL without --base */
	size_t nr, alloc;
};

/* One file the model was built from. */
struct jh_model_input {
	const char *file; /* as given (interned) */
	enum jh_format format;
	uint64_t period; /* its sampling period (0 = none) */
	int is_base;     /* a --base file */
	size_t nstacks;  /* its distinct stacks */
	size_t nthreads; /* its threads (tN: lines) */
};

struct jh_model {
	struct jh_intern names;
	const char *program; /* binary= / program argument / main exe from maps */
	struct jh_location *locs;
	size_t nlocs, locs_alloc;
	struct jh_frames frames;
	uint32_t *locpool;
	size_t nlocpool, locpool_alloc;
	struct jh_mstack *stacks; /* whole-process counts (profiles - bases) */
	size_t nstacks, stacks_alloc;
	struct jh_counts *stack_base; /* per stack: the sum of the --base files; NULL
	                               * without them (allocated as stacks) */
	struct jh_mthread *threads;   /* ascending uid */
	size_t nthreads, threads_alloc;
	int legacy;                /* all inputs were legacy 'heap profile:' files (no threads) */
	struct jh_symbolizer *sym; /* the symbolizer it was built with (NULL: none), not owned;
	                               * --list reads the routines of its modules */
	/* Built for --raw only: the first profile's distinct pcs (caller-
	 * adjusted, in the order of first use) and their location ids. */
	uint64_t *first_pcs;
	uint32_t *first_locs;
	size_t nfirst;
	/* The executable mappings with a file of every file read (profiles and
	 * bases; equal ones once), sorted by start, and the first profile's
	 * sampling period (0 = none): what --proto writes as mappings. */
	struct jh_mapping *maps;
	size_t nmaps;
	uint64_t period;
	/* Every file read, in the order read (profiles, then bases): what
	 * --json lists as its inputs. */
	struct jh_model_input *inputs;
	size_t ninputs;
	/* The values every file has (bit 1 << enum jh_value, 0 = all) and,
	 * when one lacks some, that file and its sample types (pprof input). */
	unsigned values;
	const char *types_file, *types;
	void *priv; /* private indexes of model.c */
};

/* What the model is built from (cli fills it from the command line). */
struct jh_model_opts {
	char *const *profiles; /* profile paths ("-" = stdin), summed */
	size_t nprofiles;
	char *const *bases; /* --base files, summed and subtracted */
	size_t nbases;
	const char *program; /* ELF program argument, or NULL */
	int drop_negative;   /* --drop_negative */
	int threads;         /* read per-thread data (--thread) */
	int keep_first_pcs;  /* fill first_pcs/first_locs (--raw) */
	int allow_mixed;     /* sum profiles of different programs (else a usage error) */
};

/*
 * Reads o->profiles and o->bases, symbolizes them with s (NULL = names only
 * from symbol sections) and fills m. Returns 0, or -1 with d set.
 */
int jh_model_build(struct jh_model *m, const struct jh_model_opts *o, struct jh_symbolizer *s,
		   struct jh_diag *d);
void jh_model_release(struct jh_model *m);

/* The mapping of m->maps holding address pc (module path first: a mapping
 * whose path is module wins over another one holding pc), or NULL. */
const struct jh_mapping *jh_model_mapping(const struct jh_model *m, uint64_t pc,
					  const char *module);

/*
 * How well the locations symbolized from raw dumps got names, in sampled
 * bytes: a stack's bytes are its in-use bytes in the profiles (bases
 * included); a stack is fully symbolized when every frame it has got a
 * function name and a source line (_start, the dynamic loader and the
 * allocator's frames, which never matter, are not counted). The one
 * figure every output prints (the coverage line, --verbose, --json,
 * --html, --stats): jh_coverage.percent.
 */
struct jh_coverage_module {
	const char *module;           /* interned path */
	size_t full, symbol, unknown; /* its locations (unique addresses) by status */
	double bytes_short;           /* bytes of the stacks with one of its frames
				       * lacking a line (each stack once) */
	int state;                    /* enum jh_modstate; -1: not known (no symbolizer) */
	int explained;                /* a warning of the run said what is wrong */
	int over_limit;               /* refused: past --max-memory */
	const char *reason;           /* missing: what was tried; refused: why; or NULL */
	char *action;                 /* jh_coverage_actions: what to do, or NULL */
};
struct jh_coverage {
	double full_bytes, total_bytes;
	double percent; /* 100 * full / total, rounded to 0.1 (100 when total is 0) */
	struct jh_coverage_module *mods; /* the bytes short of lines first */
	size_t nmods;
	size_t naddrs, nfull, nsymbol, nunknown; /* counted unique addresses by status */
	size_t nallocator;                       /* allocator addresses, not counted */
};
/* Fills c (release with jh_coverage_release); returns 0 (c empty) when
 * every name came from .symbolized files: then there is nothing to say. */
int jh_model_coverage_tally(const struct jh_model *m, struct jh_coverage *c);
/* Sets the action of c->mods[0..upto) that are short of lines (one read of
 * dpkg's file lists for all of them). */
void jh_coverage_actions(struct jh_coverage *c, size_t upto);
void jh_coverage_release(struct jh_coverage *c);
/* The per-module detail of --verbose, on f: each module short of lines
 * with its state, share, what was tried or why, and what to do. */
void jh_model_coverage(const struct jh_model *m, FILE *f);

#endif
