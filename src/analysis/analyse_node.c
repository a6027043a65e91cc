/* analyse_node.c - the graph's nodes, one per distinct key (interned in the
 * graph's keys). */
#include "analyse_internal.h"

#include <string.h>

/* Node of an interned key. */
uint32_t jh_graph_node_interned(struct jh_graph *g, const char *k, uint32_t loc, uint32_t level,
				int inl)
{
	struct jh_graph_priv *gp = g->priv;
	int added;
	uint64_t *v = jh_u64map_put(&gp->node_by_key, (uint64_t)(uintptr_t)k, &added);
	if (added) {
		*v = g->nnodes;
		JH_GROW(g->nodes, g->nnodes + 1, g->nodes_alloc);
		struct jh_node *nd = &g->nodes[g->nnodes++];
		memset(nd, 0, sizeof(*nd));
		nd->key = k;
		nd->label = k;
		nd->loc = loc;
		nd->level = level;
		nd->inl = inl;
	}
	return (uint32_t)*v;
}

uint32_t jh_graph_node(struct jh_graph *g, const char *key, size_t n, uint32_t loc, uint32_t level,
		       int inl)
{
	struct jh_graph_priv *gp = g->priv;
	return jh_graph_node_interned(g, jh_intern_n(&gp->keys, key, n), loc, level, inl);
}
