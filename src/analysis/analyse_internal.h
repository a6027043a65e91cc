/* analyse_internal.h - private parts of the analysis modules. */
#ifndef JEHEAP_ANALYSE_INTERNAL_H
#define JEHEAP_ANALYSE_INTERNAL_H

#include "jeheap/regex.h"
#include "jeheap/idtab.h"
#include "jeheap/analyse.h"
#include "jeheap/names.h"

/* The keypool entry standing for a location's Run#n key until the stack
 * context is known (analyse_run.c). */
#define JH_RUN_KEY UINT32_MAX

/* Whether a key's short name is one jeprof renames Run#n: /Callback.*::Run$/. */
int jh_is_callback_run(const char *shortname);

/* Node of a key (created on first use; analyse_node.c). */
uint32_t jh_graph_node(struct jh_graph *g, const char *key, size_t n, uint32_t loc, uint32_t level,
		       int inl);
/* The same for a key interned in the graph's keys. */
uint32_t jh_graph_node_interned(struct jh_graph *g, const char *k, uint32_t loc, uint32_t level,
				int inl);

/* Gives every (Run location, callee) pair of g's stacks its key list, in
 * stack order, numbering new callees in run_ids. */
void jh_graph_resolve_runs(struct jh_graph *g);

/* Whether a short function name (of a pc's outermost frame) is an allocator
 * entry point whose callees and itself are removed (docs/jeprof.md §3). */
int jh_is_allocator_name(const char *shortname);
/* The listed names of jh_is_allocator_name (each also counts with a
 * leading '_'), for tests. */
const char *const *jh_allocator_names(size_t *n);

/* What the analysis derives from one distinct function name, computed once
 * (frames sharing a name share the entry; analyse.c). */
struct jh_fmemo {
	const char *func; /* the full name (interned in the model) */
	const char *shrt; /* its short name (NULL = not computed yet) */
	const char *key;  /* "short@hex" when its short name collides
	                       * (find_collisions), else NULL: the short name */
	uint32_t node[2]; /* GRAN_FUNCTIONS node + 1 of the plain and the
	                       * " (inline)" key, 0 = not made yet, UINT32_MAX =
	                       * the key is empty */
	uint8_t flags;    /* FM_* (analyse.c) */
};

struct jh_graph_priv {
	struct jh_intern keys;        /* node keys and labels */
	struct jh_namer namer;        /* short names (interned in keys) */
	struct jh_u64map node_by_key; /* interned key -> node id */
	uint8_t *lflags;              /* per model location, LF_* */
	struct jh_seqset stacks;
	uint32_t *pool; /* own location pool (frame filters) */
	size_t npool, pool_alloc;
	struct jh_filter *focus, *ignore, *retain, *exclude;
	/* pprof's frame filters (analyse_frames.c) */
	struct jh_filter *hide, *show, *show_from, *prune_from;
	int noinlines, frames_on;
	uint8_t *vflags; /* per model location, VF_* (analyse_frames.c) */
	uint8_t *fhide;  /* per model frame: 1 = removed by the frame filters */
	struct jh_sb sb, sb2;
	uint32_t *fid; /* per model frame: its jh_fmemo, UINT32_MAX = no name */
	struct jh_fmemo *fm;
	size_t nfm;
	int keep_shorts; /* intern the short names the allocator test
	                               * makes (the keys use them) */
	/* jeprof's Callback::Run rule: locations whose outermost key is Run#n,
	 * n depending on the location translated before (see analyse_run.c) */
	uint8_t *runloc;           /* per model location, NULL if none */
	struct jh_u64map runkeys;  /* loc << 32 | (callee loc + 1, 0 = leaf) -> keypool offset */
	struct jh_u64map *run_ids; /* the caller's (jh_analysis_opts) or own_run_ids */
	struct jh_u64map own_run_ids;
	int focus_full, ignore_full; /* match full signatures (JH_FULL_*) */
	struct jh_pprof_acc *pp;     /* jh_analysis_opts.pprof (analyse_pprof.c) */
};

/* Whether any frame's full signature of location l (its unknown name
 * without frames) matches re (analyse_pprof.c). */
int jh_loc_matches_full(const struct jh_location *l, const struct jh_model *m, struct jh_filter *re,
			struct jh_sb *sb);

/* What Go pprof reads of jeheap's --proto (jh_analysis_opts.pprof):
 * prefilter = --focus, --ignore or frame filters given (the total is then
 * summed over the stacks before them, given to jh_pprof_acc_add). */
struct jh_pprof_acc *jh_pprof_acc_new(int prefilter);
void jh_pprof_acc_add(struct jh_pprof_acc *a, const uint32_t *locs, size_t n, double v);
/* The graph stack of the stack last given to jh_pprof_acc_add: the one
 * made for the same stack before, else next (*added = 1). */
uint32_t jh_pprof_stack_id(struct jh_pprof_acc *a, uint32_t next, int *added);
/* Adds counts c to every value of g's stack id (grows g->values). */
void jh_pprof_values(struct jh_pprof_acc *a, struct jh_graph *g, uint32_t id,
		     const struct jh_counts *c);
/* Sets g->pprof_total. */
void jh_pprof_acc_finish(struct jh_pprof_acc *a, struct jh_graph *g);
void jh_pprof_acc_free(struct jh_pprof_acc *a);

/* Sets gp->lflags[l] to flag for every location l whose frames are the
 * allocator's (removed with their callees, docs/jeprof.md §3), to 0 for the others
 * (analyse_skip.c; needs gp->fid, gp->fm and keep_shorts). */
void jh_mark_allocator(struct jh_graph_priv *gp, const struct jh_model *m, uint8_t flag);

/* Compiles the frame filters of o (--hide --show --show_from --prune_from,
 * --noinlines); -1 with d set on a bad regex (analyse_frames.c). */
int jh_frames_make(struct jh_graph_priv *gp, const struct jh_model *m,
		   const struct jh_analysis_opts *o, struct jh_diag *d);
void jh_frames_release(struct jh_graph_priv *gp);
/* The frame filters on stack in[0..n) (leaf first): the locations kept
 * written to out (may be in), their number returned; SIZE_MAX = the stack
 * is dropped. */
size_t jh_frames_stack(struct jh_graph_priv *gp, const struct jh_model *m, const uint32_t *in,
		       size_t n, uint32_t *out);
/* The outermost frame level of l the frame filters keep (0 without them). */
uint32_t jh_frames_outer(const struct jh_graph_priv *gp, const struct jh_location *l);

#endif
