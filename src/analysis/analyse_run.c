/*
 * analyse_run.c - jeprof's Callback::Run rule (TranslateStack): "Do not
 * merge nodes corresponding to Callback::Run since that causes confusing
 * cycles in dot display". A frame whose key name (short name after the
 * collision renaming, before " (inline)" is added, so only the outermost
 * level of a pc) matches /Callback.*::Run$/ becomes "Run#<n>", where n is
 * jeprof's ShortIdFor of the pc translated just before it in the leaf-first
 * stack (its callee), or of 0 when it is the leaf. Numbers are given in
 * order of first use and kept for the whole run (every thread of
 * --thread='*', every interactive command), as jeprof's %uniqueid is.
 * jeprof numbers in Perl hash order; jeheap in stack order (deterministic).
 * Applies where TranslateStack is used: --text/--top/--dot and the graph
 * formats, at --functions, --lines and --addresses granularity (the name is
 * unused by --files); not --collapsed, --callgrind or --list.
 */
#include "analyse_internal.h"

#include <string.h>

int jh_is_callback_run(const char *s)
{
	const char *c = strstr(s, "Callback");
	size_t n = strlen(s);
	/* "Callback" somewhere before a final "::Run" */
	return c && n >= 5 && !strcmp(s + n - 5, "::Run") && (size_t)(c - s) + 8 <= n - 5;
}

static uint64_t pair_key(const uint32_t *locs, uint32_t i)
{
	return (uint64_t)locs[i] << 32 | (i ? (uint64_t)locs[i - 1] + 1 : 0);
}

const uint32_t *jh_graph_stack_keys(const struct jh_graph *g, const uint32_t *locs, uint32_t i,
				    uint32_t *n)
{
	const struct jh_graph_priv *gp = g->priv;
	const uint32_t *keys = jh_graph_loc_keys(g, locs[i], n);
	if (!gp || !gp->runloc || !gp->runloc[locs[i]])
		return keys;
	const uint64_t *off = jh_u64map_get(&gp->runkeys, pair_key(locs, i));
	return off ? g->keypool + *off : keys;
}

/* The key of the Run frame of location loc at granularity g->gran. */
static void run_key(struct jh_graph *g, struct jh_sb *sb, uint32_t loc, uint64_t n)
{
	const struct jh_model *m = g->m;
	const struct jh_location *l = &m->locs[loc];
	jh_sb_reset(sb);
	if (g->gran == JH_GRAN_ADDRESSES) {
		jh_pc_key(sb, l->pc);
		jh_sb_addc(sb, ' ');
	}
	jh_sb_addf(sb, "Run#%llu", (unsigned long long)n);
	if (g->gran == JH_GRAN_LINES || g->gran == JH_GRAN_ADDRESSES) {
		jh_sb_addc(sb, ' ');
		jh_frame_fileline(sb, m, l, 0);
	}
}

void jh_graph_resolve_runs(struct jh_graph *g)
{
	struct jh_graph_priv *gp = g->priv;
	struct jh_sb sb;
	jh_sb_init(&sb);
	for (size_t s = 0; s < g->nstacks; s++) {
		const uint32_t *locs = g->locpool + g->stacks[s].off;
		for (uint32_t i = 0; i < g->stacks[s].len; i++) {
			uint32_t loc = locs[i];
			if (!gp->runloc[loc])
				continue;
			int added;
			uint64_t *off = jh_u64map_put(&gp->runkeys, pair_key(locs, i), &added);
			if (!added)
				continue;
			uint64_t callee = i ? (uint64_t)locs[i - 1] + 1 : 0;
			uint64_t *id = jh_u64map_put(gp->run_ids, callee, &added);
			if (added)
				*id = gp->run_ids->nr;
			run_key(g, &sb, loc, *id);
			uint32_t nd = jh_graph_node(g, sb.buf, sb.len, loc, 0, 0);
			/* the location's keys with the Run placeholder replaced */
			uint32_t from = g->lockey_off[loc], nk = g->lockey_off[loc + 1] - from;
			JH_GROW(g->keypool, g->nkeypool + nk, g->keypool_alloc);
			*off = g->nkeypool;
			for (uint32_t k = 0; k < nk; k++) {
				uint32_t key = g->keypool[from + k];
				g->keypool[g->nkeypool++] = key == JH_RUN_KEY ? nd : key;
			}
		}
	}
	jh_sb_release(&sb);
}
