/*
 * profile_pcs.c - dense pc ids (jh_profile.dense_pcs): the pc -> id table.
 *
 * The table is set up at the first stack with the pcs of the symbol lines
 * (sorted, unique), each marked with its line and no id yet; a pc gets the
 * next id when a stack first uses it, and its line goes to upc_syms then.
 * So ids are dense, in the order of first use, and the model finds the
 * names of an id without a lookup. Open addressing, slot j = (pc, value),
 * load <= 3/4; value 0 = empty, id + 1, or SYM_ONLY | line index.
 */
#include "jeheap/profile.h"
#include "parse.h"

#include <stdlib.h>
#include <string.h>

#define SYM_ONLY (1ULL << 32)

static size_t pc_home(uint64_t pc, size_t cap)
{
	return jh_hash_u64(pc) & (cap - 1);
}

/* Makes room for need entries without growing on the way. */
static void pc_table_reserve(struct jh_profile *p, size_t need)
{
	size_t cap = p->pc_slots_cap ? p->pc_slots_cap : 1024;
	while (4 * need > 3 * cap)
		cap *= 2;
	if (p->pc_slots && cap == p->pc_slots_cap)
		return;
	p->pc_slots = jh_pairs_resize(p->pc_slots, p->pc_slots_cap, cap, 1);
	p->pc_slots_cap = cap;
}

static void pc_table_init(struct jh_profile *p)
{
	jh_profile_sort_symbols(p);
	pc_table_reserve(p, p->nsyms);
	uint64_t *slots = p->pc_slots;
	size_t cap = p->pc_slots_cap;
	for (size_t i = 0; i < p->nsyms; i++) {
		if (i + 16 < p->nsyms)
			__builtin_prefetch(&slots[2 * pc_home(p->syms[i + 16].pc, cap)], 1);
		size_t j = pc_home(p->syms[i].pc, cap);
		while (slots[2 * j + 1])
			j = (j + 1) & (cap - 1);
		slots[2 * j] = p->syms[i].pc;
		slots[2 * j + 1] = SYM_ONLY | i;
	}
	p->pc_slots_nr = p->nsyms;
}

/* The next id, for pc (whose symbol line is sym + 1, 0 = none). */
static uint64_t new_id(struct jh_profile *p, uint64_t pc, uint32_t sym)
{
	if (p->nupcs >= UINT32_MAX - 1) {
		fprintf(stderr, "jeheap: too many addresses\n");
		exit(JH_EXIT_INTERNAL);
	}
	if (p->nupcs == p->upcs_alloc) {
		size_t n = p->upcs_alloc;
		p->upcs = jh_grow_large(p->upcs, n + 1, &n, sizeof(*p->upcs));
		p->upc_syms = xrealloc(p->upc_syms, jh_st_mult(n, sizeof(*p->upc_syms)));
		p->upcs_alloc = n;
	}
	p->upcs[p->nupcs] = pc;
	p->upc_syms[p->nupcs] = sym;
	return ++p->nupcs;
}

#define PC_AHEAD 16 /* a power of two: the ring of homes below */
#define PC_CHUNK 1024

void jh_profile_pc_ids(struct jh_profile *p, const uint64_t *pcs, size_t n, uint32_t *out)
{
	if (!p->pc_slots)
		pc_table_init(p);
	size_t home[PC_AHEAD]; /* home[i % PC_AHEAD]: the home slot of c[i], fetched ahead */
	for (size_t b = 0; b < n; b += PC_CHUNK) {
		size_t k = n - b < PC_CHUNK ? n - b : PC_CHUNK;
		pc_table_reserve(p, p->pc_slots_nr + k);
		uint64_t *slots = p->pc_slots;
		size_t cap = p->pc_slots_cap, mask = cap - 1;
		const uint64_t *c = pcs + b;
		for (size_t i = 0; i < k && i < PC_AHEAD; i++) {
			home[i] = pc_home(c[i], cap);
			__builtin_prefetch(&slots[2 * home[i]]);
		}
		for (size_t i = 0; i < k; i++) {
			uint64_t pc = c[i];
			size_t j = home[i % PC_AHEAD];
			if (i + PC_AHEAD < k) {
				size_t h = pc_home(c[i + PC_AHEAD], cap);
				home[i % PC_AHEAD] = h;
				__builtin_prefetch(&slots[2 * h]);
			}
			while (slots[2 * j + 1] && slots[2 * j] != pc)
				j = (j + 1) & mask;
			uint64_t v = slots[2 * j + 1];
			if (!v) {
				slots[2 * j] = pc;
				v = slots[2 * j + 1] = new_id(p, pc, 0);
				p->pc_slots_nr++;
			} else if (v & SYM_ONLY) {
				v = slots[2 * j + 1] = new_id(p, pc, (uint32_t)v + 1);
			}
			out[b + i] = (uint32_t)(v - 1);
		}
	}
}

void jh_profile_pc_flush(struct jh_profile *p)
{
	if (!p->npc_pending)
		return;
	jh_profile_pc_ids(p, p->pc_pending, p->npc_pending, p->pcids + p->pending_off);
	p->npc_pending = 0;
}

void jh_profile_densify(struct jh_profile *p)
{
	jh_profile_pc_flush(p);
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
