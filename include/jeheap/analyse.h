/*
 * analyse.h - jeprof's analysis on the symbolized model: allocator-frame
 * removal, --retain/--exclude, --focus/--ignore, granularity keys, flat and
 * cumulative values. The result (struct jh_graph) is what every report reads.
 *
 * Pipeline (docs/jeprof.md §1, §3, §4):
 *   total       = sum of the selected value over all stacks (Total: line)
 *   stacks      = model stacks with allocator frames removed (skip list and
 *                 locations with .allocator set), --retain/--exclude applied
 *                 per frame, --focus then --ignore applied per stack,
 *                 then pprof's --hide/--show/--show_from/--prune_from/
 *                 --noinlines (frames inside locations: frame_hidden);
 *                 stacks that became identical are merged
 *   nodes       = one per granularity key (docs/jeprof.md §1); flat/cum with every key
 *                 counted once per stack (recursion counted once)
 *   local_total = sum of flat (percentages are relative to it)
 */
#ifndef JEHEAP_ANALYSE_H
#define JEHEAP_ANALYSE_H

#include "jeheap/model.h"

enum jh_granularity {
	JH_GRAN_FUNCTIONS, /* default */
	JH_GRAN_LINES,
	JH_GRAN_ADDRESSES,
	JH_GRAN_FILES,
};

/* What an analysis is asked for (cli fills it from the command line). */
struct jh_analysis_opts {
	enum jh_granularity granularity;
	enum jh_value value;                           /* --inuse_space (default) ... */
	int show_bytes;                                /* values in bytes, not MB */
	int has_base;                                  /* --base given: before/after columns */
	const char *focus, *ignore, *retain, *exclude; /* PCRE2 (Perl) patterns or NULL */
	/* Go pprof's frame filters (analyse_frames.c): PCRE2 patterns or NULL */
	const char *hide, *show, *show_from, *prune_from;
	int noinlines; /* only the outermost frame of each location */
	/* jeprof's ShortIdFor, shared by every analysis of one model (threads,
	 * interactive commands): callee location + 1 (0 = leaf) -> n of Run#n.
	 * Owned by the caller; NULL = numbered afresh for this graph. */
	struct jh_u64map *run_ids;
	/* JH_NORM_CLONES | JH_NORM_TEMPLATES (names.h): function names
	 * normalised (matching across builds); 0 = as jeprof names them */
	unsigned normalize;
	/* also fill jh_graph.values and .pprof_total: what Go pprof reads of
	 * jeheap's --proto (analyse_pprof.c) */
	int pprof;
};

/* jh_graph.fullnames: filters whose regex matched no name under their own
 * rules (jeprof's short names, file:line, address) but matched full
 * signatures (what --collapsed and the flame graphs show), and so used
 * those. */
enum {
	JH_FULL_FOCUS = 1,
	JH_FULL_IGNORE = 2,
};

enum jh_unit {
	JH_UNIT_MB,      /* value / 1048576 printed "%.1f" */
	JH_UNIT_BYTES,   /* --show_bytes: "%d" (truncated toward zero) */
	JH_UNIT_OBJECTS, /* --inuse_objects / --alloc_objects: "%d" */
};

/* A granularity key: a row of --text, a node of --dot. */
struct jh_node {
	const char *key; /* identity and tie-break sort key (interned in m->names) */
	const char
		*label; /* printed name in --text (== key except for "??" frames: "?? file:line") */
	double flat, cum;
	/* flat and cum of the companion value (jh_gstack.v2) */
	double flat2, cum2;
	uint32_t loc;   /* first location that produced this key */
	uint32_t level; /* inline level of that location's frame (0 = outermost) */
	int inl;        /* key of an inlined frame (" (inline)") */
};

/* A stack after allocator removal and filters (distinct location lists). */
struct jh_gstack {
	size_t off;    /* into jh_graph.locpool: location ids, LEAF FIRST */
	uint32_t len;  /* may be 0 (stack made only of allocator frames) */
	double v;      /* selected value (profiles - bases) */
	double before; /* with --base: sum of the bases' values; else 0 */
	double after;  /* with --base: sum of the profiles' values; else == v */
	double v2;     /* the companion value (jh_graph.value2) as v: profiles - bases */
};

struct jh_graph {
	const struct jh_model *m;
	enum jh_value value;
	enum jh_value value2; /* its companion: objects for space, space for objects */
	enum jh_unit unit;
	const char *unit_name; /* "MB", "B", "objects" */
	enum jh_granularity gran;
	int has_base; /* --base given: before/after columns are meaningful */
	int thread;   /* -1 = whole process, else index into m->threads */

	double total;       /* sum before removal and filters (Total: line) */
	double local_total; /* sum of flat after removal and filters */

	struct jh_gstack *stacks; /* filtered stacks, in model order of first appearance */
	size_t nstacks, stacks_alloc;
	const uint32_t *locpool; /* the model's pool, or the graph's own (--retain/--exclude) */

	struct jh_node *nodes;
	size_t nnodes, nodes_alloc;
	/* Keys of location l (innermost inline level first, the order jeprof
	 * translates a pc): keypool[lockey_off[l] .. lockey_off[l+1]) are node
	 * ids. Empty for dropped kernel addresses (pc > 0x7fffffffffffffff) and
	 * for locations whose key would be "". A key that depends on the stack
	 * (jeprof's Run#n) is a placeholder here: walk stacks with
	 * jh_graph_stack_keys. */
	uint32_t *lockey_off; /* m->nlocs + 1 entries */
	uint32_t *keypool;
	size_t nkeypool, keypool_alloc;
	/* Per model frame (m->frames.items): 1 = removed by --hide, --show,
	 * --show_from, --prune_from or --noinlines; NULL without them. Reports
	 * that walk a location's frames skip these (their keys have none). */
	const uint8_t *frame_hidden;

	unsigned fullnames; /* JH_FULL_* */
	/* The filters given (NULL if not): Go pprof's "Active filters" */
	const char *focus_re, *ignore_re, *hide_re, *show_re, *show_from_re;
	/* With jh_analysis_opts.pprof: every value of each stack (profiles -
	 * bases, indexed as stacks, by enum jh_value), and Go pprof's total of
	 * the selected value: the sum of |llround(v)| over the samples of
	 * jeheap's --proto without --focus, --ignore and the frame filters
	 * (pprof's total is taken before its filters). NULL / 0 otherwise. */
	double (*values)[JH_NVALUES];
	int64_t pprof_total;

	void *priv;
};

/*
 * Runs the analysis for the whole process (thread == -1) or for one thread
 * (index into m->threads). Regexes of o (focus, ignore, retain, exclude) are
 * compiled by the caller-invisible filter module; a bad regex gives -1 with
 * d set (JH_EXIT_USAGE). Returns 0 or -1 (then release g all the same).
 */
int jh_analyse(struct jh_graph *g, const struct jh_model *m, const struct jh_analysis_opts *o,
	       int thread, struct jh_diag *d);
/* The same without nodes (nnodes 0, every location without keys;
 * local_total = sum over non-empty stacks): for reports that only walk the
 * stacks (--collapsed). */
int jh_analyse_stacks(struct jh_graph *g, const struct jh_model *m,
		      const struct jh_analysis_opts *o, int thread, struct jh_diag *d);
void jh_graph_release(struct jh_graph *g);
/* Marks where g's locations stand in its stacks as --proto writes them:
 * leafpos[loc] |= 1 where first in a stack, 2 where after the first
 * (addresses past 2^63, jeheap's own markers, are not written). */
void jh_graph_leafpos(const struct jh_graph *g, uint8_t *leafpos);

static inline const uint32_t *jh_graph_loc_keys(const struct jh_graph *g, uint32_t loc, uint32_t *n)
{
	*n = g->lockey_off[loc + 1] - g->lockey_off[loc];
	return g->keypool + g->lockey_off[loc];
}

/* A dense id of the function name of model frame f (m->frames.items[f]):
 * frames with one name share it; ids are < jh_graph_nfuncs(g); UINT32_MAX
 * for an unknown function. */
uint32_t jh_graph_func_id(const struct jh_graph *g, size_t f);
size_t jh_graph_nfuncs(const struct jh_graph *g);
/* jh_graph_func_id of every model frame, indexed by frame. */
const uint32_t *jh_graph_func_ids(const struct jh_graph *g);
/* Whether model location loc occurs in one of g's stacks. */
int jh_graph_loc_used(const struct jh_graph *g, uint32_t loc);

/* Keys of locs[i], the i-th location (leaf first) of a filtered stack:
 * jh_graph_loc_keys, except that a frame jeprof renames Run#n (a short name
 * matching /Callback.*::Run$/) has the key of its callee locs[i-1]. */
const uint32_t *jh_graph_stack_keys(const struct jh_graph *g, const uint32_t *locs, uint32_t i,
				    uint32_t *n);

/* Node ids sorted as --text prints them (docs/jeprof.md §4): by flat (or cum when by_cum)
 * descending, ties by key byte-wise ascending. Caller frees. */
uint32_t *jh_graph_sorted(const struct jh_graph *g, int by_cum);

/*
 * v rounded to 40 significant bits, for sorting: sums of the same counts in
 * another order (jeprof adds in Perl hash order, which varies from run to
 * run) differ in the last bits only, and such values must tie (and sort by
 * key) rather than be ordered by rounding noise. Every report sorts by it.
 */
double jh_sort_value(double v);

/* Perl's %d of a float: truncation toward zero, saturated to the 64-bit range (0 for NaN),
 * as --collapsed prints counts. */
long long jh_perl_int(double v);
/* jeprof's Unparse: value in the graph's units ("%.1f" MB or "%d"). */
void jh_fmt_value(struct jh_sb *sb, enum jh_unit unit, double v);
/* jeprof's Percent: "%.1f%%" of 100*num/tot; "nan", "+inf", "-inf" if tot == 0. */
void jh_fmt_percent(struct jh_sb *sb, double num, double tot);
/* The companion of a sample type: inuse_objects <-> inuse_space,
 * alloc_objects <-> alloc_space (the objects a space value counts). */
static inline enum jh_value jh_value_companion(enum jh_value v)
{
	switch (v) {
	case JH_INUSE_OBJECTS: return JH_INUSE_SPACE;
	case JH_INUSE_SPACE: return JH_INUSE_OBJECTS;
	case JH_ALLOC_OBJECTS: return JH_ALLOC_SPACE;
	default: return JH_ALLOC_OBJECTS;
	}
}

/* The value a count vector contributes (o->value). */
static inline double jh_counts_value(const struct jh_counts *c, enum jh_value v)
{
	return c->v[v];
}

#endif
