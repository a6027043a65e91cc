/*
 * pprof_graph.h - Go pprof's call graph (internal/graph, Go 1.19) of an
 * analysed graph's stacks, as pprof builds it from jeheap's --proto: one
 * node per name (the full function names of the proto's lines, at the
 * graph's granularity), each stack's value rounded as the proto writes it,
 * cum and edges counted once per stack, flat on the innermost kept frame.
 * For --traces, --tree and --peek (report_pprof_text.c).
 */
#ifndef JEHEAP_PPROF_GRAPH_H
#define JEHEAP_PPROF_GRAPH_H

#include "jeheap/analyse.h"

struct jh_pg_edge {
	uint32_t src, dst;
	int64_t w;
	int inl;   /* every contribution was to an inlined callee */
	int alive; /* not trimmed */
	uint32_t stamp;
};

struct jh_pg {
	const struct jh_graph *g;
	struct jh_intern names;
	const char **name; /* node -> printable name (interned) */
	const char **key;  /* node -> its identity (the name but with --files) */
	size_t nn, nalloc, kalloc;
	struct jh_u64map by_name;  /* interned name -> node */
	uint32_t *lstart, *lcount; /* per model location: its lines' nodes in lpool */
	uint32_t *lpool;           /* node ids, innermost line first */
	size_t nlpool, lalloc;
	uint8_t *leafpos; /* --addresses: per location, 1 = a stack's leaf (the proto's pc - 1) */
	int64_t *flat, *cum;
	uint32_t *stamp;
	struct jh_u64map emap; /* src << 32 | dst -> edge + 1 */
	struct jh_pg_edge *e;
	size_t ne, ealloc;
	struct jh_sb sb, sb2;
};

void jh_pg_init(struct jh_pg *p, const struct jh_graph *g);
void jh_pg_release(struct jh_pg *p);
/* The proto's value of stack s of the selected value. */
int64_t jh_pg_value(const struct jh_graph *g, size_t s);
/* The nodes of model location l (innermost line first; none for a dropped
 * kernel address). */
const uint32_t *jh_pg_lines(struct jh_pg *p, uint32_t l, uint32_t *n);
/* pprof's newGraph: flat, cum and edges from the stacks, only the nodes
 * with kept[node] set when kept is not NULL. */
void jh_pg_build(struct jh_pg *p, const uint8_t *kept);
/* Whether node i is in the graph (pprof drops nodes with flat and cum 0). */
static inline int jh_pg_in(const struct jh_pg *p, uint32_t i)
{
	return p->flat[i] != 0 || p->cum[i] != 0;
}
/* pprof's newTrimmedGraph (not a call tree, not visual): drops the nodes
 * with |cum| < nodefraction * total, keeps the nodecount first by flat (0
 * = all), drops edges with |weight| < edgefraction * total. Returns the
 * graph's nodes in FlatNameOrder (*n of them; caller frees), with
 * *dropped and *orig for pprof's labels. */
uint32_t *jh_pg_trimmed(struct jh_pg *p, double nodefraction, double edgefraction, int nodecount,
			size_t *n, size_t *dropped, size_t *orig);

#endif
