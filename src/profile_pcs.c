/*
 * profile_pcs.c - dense pc ids (jh_profile.dense_pcs): the pc -> id table.
 *
 * The table is set up at the first stack: the pcs of the symbol lines
 * (sorted, unique) take ids 0..nsyms-1, so that the model finds the names
 * of an id without a lookup; the pcs of the stacks that have no symbol line
 * get the next ids. Open addressing, slot j = (pc, id + 1), load <= 3/4.
 */
#include "jeheap/profile.h"
#include "parse.h"

#include <stdlib.h>
#include <string.h>

#define PC_BATCH 32

static size_t pc_home(uint64_t pc, size_t cap)
{
	return jh_hash_u64(pc) & (cap - 1);
}

/* Makes room for need ids without growing on the way (rehash from upcs). */
static void pc_table_reserve(struct jh_profile *p, size_t need)
{
	size_t cap = p->pc_slots_cap ? p->pc_slots_cap : 1024;
	while (4 * need > 3 * cap)
		cap *= 2;
	if (p->pc_slots && cap == p->pc_slots_cap)
		return;
	free(p->pc_slots);
	uint64_t *slots = xcalloc(cap, 2 * sizeof(*slots));
	for (size_t u = 0; u < p->nupcs; u++) {
		if (u + 16 < p->nupcs)
			__builtin_prefetch(&slots[2 * pc_home(p->upcs[u + 16], cap)], 1);
		size_t j = pc_home(p->upcs[u], cap);
		while (slots[2 * j + 1])
			j = (j + 1) & (cap - 1);
		slots[2 * j] = p->upcs[u];
		slots[2 * j + 1] = u + 1;
	}
	p->pc_slots = slots;
	p->pc_slots_cap = cap;
}

/* The symbol lines' pcs become ids 0..nsyms-1 (syms sorted and unique). */
static void pc_table_init(struct jh_profile *p)
{
	jh_profile_sort_symbols(p);
	JH_GROW(p->upcs, p->nsyms, p->upcs_alloc);
	for (size_t i = 0; i < p->nsyms; i++)
		p->upcs[i] = p->syms[i].pc;
	p->nupcs = p->nsyms;
	pc_table_reserve(p, p->nupcs);
}

void jh_profile_pc_ids(struct jh_profile *p, const uint64_t *pcs, size_t n, uint32_t *out)
{
	if (!p->pc_slots)
		pc_table_init(p);
	size_t home[PC_BATCH];
	for (size_t b = 0; b < n; b += PC_BATCH) {
		size_t k = n - b < PC_BATCH ? n - b : PC_BATCH;
		pc_table_reserve(p, p->nupcs + k);
		uint64_t *slots = p->pc_slots;
		size_t mask = p->pc_slots_cap - 1;
		for (size_t i = 0; i < k; i++) {
			home[i] = pc_home(pcs[b + i], p->pc_slots_cap);
			__builtin_prefetch(&slots[2 * home[i]]);
		}
		for (size_t i = 0; i < k; i++) {
			uint64_t pc = pcs[b + i];
			size_t j = home[i];
			while (slots[2 * j + 1] && slots[2 * j] != pc)
				j = (j + 1) & mask;
			if (!slots[2 * j + 1]) {
				if (p->nupcs >= UINT32_MAX - 1) {
					fprintf(stderr, "jeheap: too many addresses\n");
					exit(JH_EXIT_INTERNAL);
				}
				JH_GROW(p->upcs, p->nupcs + 1, p->upcs_alloc);
				p->upcs[p->nupcs++] = pc;
				slots[2 * j] = pc;
				slots[2 * j + 1] = p->nupcs;
			}
			out[b + i] = (uint32_t)(slots[2 * j + 1] - 1);
		}
	}
}

void jh_profile_densify(struct jh_profile *p)
{
	if (p->dense_pcs)
		return;
	p->dense_pcs = 1;
	p->pcids = xmalloc(jh_st_mult(p->npcs ? p->npcs : 1, sizeof(*p->pcids)));
	p->pcids_alloc = p->npcs ? p->npcs : 1;
	jh_profile_pc_ids(p, p->pcs, p->npcs, p->pcids);
	p->npcids = p->npcs;
	free(p->pcs);
	p->pcs = NULL;
	p->npcs = p->pcs_alloc = 0;
}
